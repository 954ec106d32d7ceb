"""What the Starfinder checks share: limits, modifiers from the data file, one d20 as a roll."""

from __future__ import annotations

from dataclasses import dataclass

from vigile.checks.verdict import Line
from vigile.dice.roll import Roll, single
from vigile.rulesets.limits import check_distance

RULESET = "starfinder"


@dataclass(frozen=True)
class Ruling:
    """A yes or no of the rules with its reason (SF-6: may I stay hidden? SF-9: flat-footed?)."""

    allowed: bool
    """The answer."""
    line: Line
    """Why, with the rule ID."""


def check_distance_ft(distance_ft: float, *, where: str = "--distance") -> float:
    """Refuse a distance that is negative, not a number, or beyond the limit, in feet."""
    return check_distance(distance_ft, "ft", where=where)


def one_d20(face: int, success: bool, given: bool, role: str) -> Roll:
    """One d20 rolled once, as a verdict's roll."""
    return Roll((single(20, face, success, role),), success, given)
