"""What the Starfinder checks share: limits, modifiers from the data file, one d20 as a roll."""

from __future__ import annotations

import math
from dataclasses import dataclass

from vigile.checks.verdict import Line
from vigile.dice.pool import DieRoll, PoolRoll
from vigile.errors import InputError

RULESET = "starfinder"
MAX_BONUS = 100
"""No skill bonus or circumstance modifier of the game comes near this; beyond it is a typo."""
MAX_DISTANCE_FT = 100_000.0
"""About 30 km: anything farther is not a Stealth check."""


@dataclass(frozen=True)
class Ruling:
    """A yes or no of the rules with its reason (SF-6: may I stay hidden? SF-9: flat-footed?)."""

    allowed: bool
    """The answer."""
    line: Line
    """Why, with the rule ID."""


def check_bonus(value: int, where: str) -> int:
    """Refuse a bonus that is not a whole number or is absurd (|bonus| > 100)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(f"{value!r} is not a whole number", where=where)
    if abs(value) > MAX_BONUS:
        raise InputError(f"{value:+d} is absurd (at most ±{MAX_BONUS})", where=where)
    return value


def check_distance_ft(distance_ft: float, *, where: str = "--distance") -> float:
    """Refuse a distance that is negative, not a number, or absurd."""
    if not math.isfinite(distance_ft) or distance_ft < 0:
        raise InputError(f"{distance_ft} is not a distance (0 or more feet)", where=where)
    if distance_ft > MAX_DISTANCE_FT:
        raise InputError(f"{distance_ft:g} ft is absurd (at most {MAX_DISTANCE_FT:g})", where=where)
    return distance_ft


def ft_param(distance: float) -> int | float:
    """A distance as an explanation quotes it: 30, not 30.0."""
    return int(distance) if float(distance).is_integer() else round(distance, 2)


def one_die(face: int, success: bool, given: bool) -> PoolRoll:
    """One d20 or d% as the renderers show a roll."""
    return PoolRoll((DieRoll((face,), success),), 0, success, given)
