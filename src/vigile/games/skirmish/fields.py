"""The skirmish game's own actor fields (its plug-in's ``actor_fields``): what a skirmish
character carries beside the fields every game's actors share (:mod:`vigile.scene.actors`).

A skirmish scenario's actors validate with these too (:mod:`vigile.scene.games`); another
game's scenario that writes one is refused, naming the field and the skirmish. The game's
modules read them on an actor that ``isinstance`` of :class:`SkirmishFields`.
"""

from __future__ import annotations

from typing import Literal, TypeGuard

from pydantic import BaseModel

from vigile.scene.actors import MODEL_CONFIG, Actor, Dice, Outfit, Skill


class SkirmishFields(BaseModel):
    """A skirmish character's own fields."""

    model_config = MODEL_CONFIG

    stealth_dice: Dice | None = None
    """The pool rolled for stealthy moves (SK-N3) when it differs from ``dice``."""
    outfit: Outfit = Outfit.NORMAL
    """``unsuited`` clothes make it easier to see (SK-V4)."""
    ninja: bool = False
    """A ninja (SK-A3: an ambush made only of ninjas is harder to detect)."""
    talks: Literal["whisper", "conversation", "animated"] | None = None
    """A defender: it converses aloud every turn at this volume, and an intruder who knows
    nothing of it may overhear it (SK-N7 [R]). Absent: it keeps silent."""


class SkirmishActor(Actor, SkirmishFields):
    """What a skirmish scenario's actor is, to the type checker: the shared fields and
    :class:`SkirmishFields`. The actors themselves are the game's model
    (:func:`vigile.scene.model.item_models`), a subclass of both; :func:`is_skirmish` tells."""


def is_skirmish(actor: Actor) -> TypeGuard[SkirmishActor]:
    """Whether ``actor`` carries the skirmish's fields (an actor of a skirmish scenario)."""
    return isinstance(actor, SkirmishFields)


def skirmish_actor(actor: Actor) -> SkirmishActor:
    """``actor`` as a skirmish character; a TypeError for another game's actor (a skirmish rule
    read on it is a bug, not a default)."""
    if not is_skirmish(actor):
        raise TypeError(f"{actor.name!r} is not a skirmish actor ({type(actor).__name__})")
    return actor


def stealth_pool(actor: Actor) -> int:
    """Dice rolled for a stealthy move (SK-N3): its ``stealth_dice``, else its ninjitsu
    (SK-D1)."""
    own = actor.stealth_dice if isinstance(actor, SkirmishFields) else None
    return own if own is not None else actor.pool(Skill.NINJITSU)
