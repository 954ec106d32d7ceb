"""What every D&D 3.5 check shares: input limits, data-file modifiers, d20 rolls as a roll.

Distances are feet. Numbers come from ``rules.toml``; a companion rule ([C] in RULES.md) is
applied only while its switch in ``[companion]`` is on, and its lines carry ``companion=True``.
"""

from __future__ import annotations

from collections.abc import Sequence

from vigile.dice.roll import Die, Roll
from vigile.dice.source import FaceSource
from vigile.rulesets.data import RuleData
from vigile.rulesets.limits import check_distance as limits_distance

RULESET = "dnd35"


def companion(rules: RuleData, name: str) -> bool:
    """Whether the companion rule ``name`` is switched on (``[companion]`` in the data file)."""
    return rules.flag(f"companion.{name}")


def distance_steps(rules: RuleData, step_key: str, distance_ft: float) -> int:
    """Whole steps of the data file's length in ``distance_ft`` (``-1 per 10 ft``: 25 ft is 2).

    [R, DD-3, DD-5, DD-20] ``distance_ft`` is the straight-line distance in feet between the
    two creatures' positions, not a count of squares: 19 ft is 1 step though the creatures
    stand 4 squares apart. The compiled kernel counts so too (``hypot_steps``)."""
    return int(distance_ft // rules.num(step_key))


def check_distance(distance_ft: float, *, where: str = "--distance") -> float:
    """Refuse a distance that is negative, not a number, or beyond the limit, in feet."""
    return limits_distance(distance_ft, "ft", where=where)


def untrained_bonus(*, dex: int, armor_penalty: int = 0) -> int:
    """The roll of a creature without ranks in Hide or Move Silently: its Dexterity modifier
    with its armor check penalty (given as 2 or −2, always a penalty) [DD-5]."""
    return dex - abs(armor_penalty)


def skill_bonus(ranked: int | None, *, dex: int, armor_penalty: int = 0) -> int:
    """A Hide or Move Silently bonus: the creature's own, or without ranks the untrained roll
    of :func:`untrained_bonus` [DD-5, DD-20]."""
    return ranked if ranked is not None else untrained_bonus(dex=dex, armor_penalty=armor_penalty)


def as_roll(dice: Sequence[Die], success: bool, source: FaceSource) -> Roll:
    """The dice a check rolled, as a verdict's roll: each die with every face it showed (a die
    rolled again to settle a tie keeps them all) and whether it did its job."""
    return Roll(tuple(dice), success, source.given)
