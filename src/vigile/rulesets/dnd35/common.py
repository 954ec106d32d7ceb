"""What every D&D 3.5 check shares: input limits, data-file modifiers, d20 rolls as a roll.

Distances are feet. Numbers come from ``rules.toml``; a companion rule ([C] in RULES.md) is
applied only while its switch in ``[companion]`` is on, and its lines carry ``companion=True``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from vigile.dice.pool import DieRoll, PoolRoll
from vigile.dice.source import FaceSource
from vigile.errors import InputError, LimitError
from vigile.rulesets.data import RuleData

RULESET = "dnd35"


def companion(rules: RuleData, name: str) -> bool:
    """Whether the companion rule ``name`` is switched on (``[companion]`` in the data file)."""
    return rules.flag(f"companion.{name}")


def distance_steps(rules: RuleData, step_key: str, distance_ft: float) -> int:
    """Whole steps of the data file's length in ``distance_ft`` (``-1 per 10 ft``: 25 ft is 2)."""
    return int(distance_ft // rules.num(step_key))


def check_bonus(rules: RuleData, bonus: int, *, where: str) -> int:
    """Refuse a skill or attack bonus beyond any character (a typo)."""
    limit = rules.num("limits.max_bonus")
    if isinstance(bonus, bool) or not isinstance(bonus, int):
        raise InputError(f"{bonus!r} is not a whole number", where=where)
    if abs(bonus) > limit:
        raise LimitError(f"{where}: {bonus} is absurd (at most ±{limit})")
    return bonus


def check_distance(rules: RuleData, distance_ft: float, *, where: str = "--distance") -> float:
    """Refuse a distance that is negative, not a number, or absurd."""
    if (
        isinstance(distance_ft, bool)
        or not isinstance(distance_ft, int | float)
        or not math.isfinite(distance_ft)
        or distance_ft < 0
    ):
        raise InputError(f"{distance_ft} is not a distance (0 or more feet)", where=where)
    limit = rules.num("limits.max_distance_ft")
    if distance_ft > limit:
        raise InputError(f"{distance_ft:g} ft is beyond any encounter ({limit} ft)", where=where)
    return float(distance_ft)


def untrained_bonus(*, dex: int, armor_penalty: int = 0) -> int:
    """The roll of a creature without ranks in Hide or Move Silently: its Dexterity modifier
    with its armor check penalty (given as 2 or −2, always a penalty) [DD-5]."""
    return dex - abs(armor_penalty)


def skill_bonus(ranked: int | None, *, dex: int, armor_penalty: int = 0) -> int:
    """A Hide or Move Silently bonus: the creature's own, or without ranks the untrained roll
    of :func:`untrained_bonus` [DD-5, DD-20]."""
    return ranked if ranked is not None else untrained_bonus(dex=dex, armor_penalty=armor_penalty)


def ft_param(distance: float) -> int | float:
    """A distance as an explanation quotes it: 20, not 20.0."""
    return int(distance) if float(distance).is_integer() else round(distance, 2)


def as_roll(
    dice: Sequence[tuple[Sequence[int], bool]], success: bool, source: FaceSource, target: int = 0
) -> PoolRoll:
    """The faces a check rolled, as a verdict's roll: one entry per die, each with every face it
    showed (a die rolled again to settle a tie keeps them all) and whether it did its job."""
    return PoolRoll(
        tuple(DieRoll(tuple(faces), ok) for faces, ok in dice), target, success, source.given
    )
