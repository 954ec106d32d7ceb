"""Who rolls what in a skirmish game: each check's pool, from the character's dice (SK-D1).

A check rolls as many dice as the character has in the relevant skill, one die when untrained
(SK-D1): perception for noise and sight, ninjitsu (or ``stealth_dice``) for a stealthy move,
the best of ninjitsu, espionage and shadowing for shadowing (SK-S3). The roller says when its
one die is the untrained die, so that the verdict explains it. One pool for every check
(``dice: 2``) is a trained pool.
"""

from __future__ import annotations

from vigile.games.skirmish.fields import skirmish_actor, stealth_pool
from vigile.rulesets.skirmish.common import Roller
from vigile.scene.actors import SHADOWING_SKILLS, Actor, Skill


def _untrained(actor: Actor, skills: tuple[Skill, ...]) -> bool:
    """Dice per skill, and none in any of ``skills`` [SK-D1]."""
    own = skirmish_actor(actor)
    return not isinstance(own.dice, int) and all(own.levels(s) == 0 for s in skills)


def detection_roller(actor: Actor) -> Roller:
    """The pool for a noise or sight test: perception (SK-D1)."""
    untrained = _untrained(actor, (Skill.PERCEPTION,))
    return Roller(
        skirmish_actor(actor).detection_pool(), untrained="perception" if untrained else None
    )


def stealth_roller(actor: Actor) -> Roller:
    """The pool for a stealthy move's fumble roll: ``stealth_dice``, else ninjitsu (SK-D1,
    SK-N3)."""
    own = skirmish_actor(actor).stealth_dice
    untrained = own is None and _untrained(actor, (Skill.NINJITSU,))
    return Roller(stealth_pool(actor), untrained="ninjitsu" if untrained else None)


def shadowing_pool(actor: Actor) -> int:
    """Dice for shadowing: the best of ninjitsu, espionage and shadowing (SK-D1, SK-S3)."""
    own = skirmish_actor(actor)
    return max(own.pool(skill) for skill in SHADOWING_SKILLS)


def shadowing_roller(actor: Actor) -> Roller:
    """The pool for following or noticing a follower (SK-D1, SK-S3)."""
    untrained = _untrained(actor, SHADOWING_SKILLS)
    return Roller(shadowing_pool(actor), untrained="shadowing" if untrained else None)
