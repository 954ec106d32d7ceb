"""The skirmish game's own actor fields (its plug-in's ``actor_fields``): what a skirmish
character carries beside the fields every game's actors share (:mod:`vigile.scene.actors`).

A skirmish scenario's actors validate with these too (:mod:`vigile.scene.games`); another
game's scenario that writes one is refused, naming the field and the skirmish. The game's
modules read them on an actor that ``isinstance`` of :class:`SkirmishFields`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, TypeGuard

from pydantic import BaseModel

from vigile.scene.actors import (
    AMBUSH_SKILLS,
    MODEL_CONFIG,
    SHADOWING_SKILLS,
    Actor,
    Dice,
    DiceSpec,
    Outfit,
    Skill,
)

if TYPE_CHECKING:
    from vigile.scene.model import Scenario


class SkirmishFields(BaseModel):
    """A skirmish character's own fields."""

    model_config = MODEL_CONFIG

    dice: DiceSpec = 1
    """One pool for every check (``2``), or dice per skill (``{ninjitsu: 2, perception: 1}``;
    a skill not listed, or 0, is untrained: 1 die, SK-D1)."""
    stealth_dice: Dice | None = None
    """The pool rolled for stealthy moves (SK-N3) when it differs from ``dice``."""
    outfit: Outfit = Outfit.NORMAL
    """``unsuited`` clothes make it easier to see (SK-V4)."""
    ninja: bool = False
    """A ninja (SK-A3: an ambush made only of ninjas is harder to detect)."""
    talks: Literal["whisper", "conversation", "animated"] | None = None
    """A defender: it converses aloud every turn at this volume, and an intruder who knows
    nothing of it may overhear it (SK-N7 [R]). Absent: it keeps silent."""

    def pool(self, skill: Skill) -> int:
        """Dice rolled for a check of ``skill`` (1 when untrained, SK-D1)."""
        if isinstance(self.dice, int):
            return self.dice
        return max(1, self.dice.get(skill, 0))

    def levels(self, skill: Skill) -> int:
        """Dice the actor has in ``skill``; 0 when untrained or when ``dice`` is one pool."""
        if isinstance(self.dice, int):
            return 0
        return self.dice.get(skill, 0)

    def detection_pool(self) -> int:
        """Dice rolled for noise and sight tests (SK-N, SK-V)."""
        return self.pool(Skill.PERCEPTION)

    def trained_at_shadowing(self) -> bool:
        """Dice in ninjitsu, espionage or shadowing; otherwise +1 difficulty (SK-S3).

        One pool for every check (``dice: 2``) counts as trained: give dice per skill to
        play a day encounter with an untrained character.
        """
        if isinstance(self.dice, int):
            return True
        return any(self.dice.get(skill, 0) > 0 for skill in SHADOWING_SKILLS)

    def ambush_levels(self) -> int:
        """Levels added to the die when detecting an ambush (SK-A3)."""
        return sum(self.levels(skill) for skill in AMBUSH_SKILLS)


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
    own = skirmish_actor(actor)
    return own.stealth_dice if own.stealth_dice is not None else own.pool(Skill.NINJITSU)


def skirmish_actors(scenario: Scenario) -> list[SkirmishActor]:
    """A skirmish scenario's actors as skirmish characters (:func:`skirmish_actor`)."""
    return [skirmish_actor(actor) for actor in scenario.actors]
