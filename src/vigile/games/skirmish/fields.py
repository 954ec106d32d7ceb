"""The skirmish game's own actor fields (its plug-in's ``actor_fields``): what a skirmish
character carries beside the fields every game's actors share (:mod:`vigile.scene.actors`).

A skirmish scenario's actors validate with these too (:mod:`vigile.scene.games`); another
game's scenario that writes one is refused, naming the field and the skirmish. The game's
modules read them on an actor that ``isinstance`` of :class:`SkirmishFields`.
"""

from __future__ import annotations

from pydantic import BaseModel

from vigile.scene.actors import MODEL_CONFIG, Actor, Dice, Skill


class SkirmishFields(BaseModel):
    """A skirmish character's own fields."""

    model_config = MODEL_CONFIG

    stealth_dice: Dice | None = None
    """The pool rolled for stealthy moves (SK-N3) when it differs from ``dice``."""


def stealth_pool(actor: Actor) -> int:
    """Dice rolled for a stealthy move (SK-N3): its ``stealth_dice``, else its ninjitsu
    (SK-D1)."""
    own = actor.stealth_dice if isinstance(actor, SkirmishFields) else None
    return own if own is not None else actor.pool(Skill.NINJITSU)
