"""The input limits: what a typo looks like, the same in every game.

These are not rules (no RULES.md ID, no house rule changes them): they keep a mistyped number
from becoming a verdict. Every game refuses the same way:

* a value that is not what the option takes (not a whole number, a negative distance, NaN) is an
  :class:`~vigile.errors.InputError` naming the option;
* a value of the right kind beyond a limit below is a :class:`~vigile.errors.LimitError`, whose
  message names the option and the limit, worded the same in every game.

A scenario's fields use the same numbers (:mod:`vigile.scene.actors` may import them).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from vigile.errors import InputError, LimitError


@dataclass(frozen=True)
class Limits:
    """The limits every game shares."""

    max_bonus: int = 100
    """Largest skill bonus, modifier or penalty, either sign (no character comes near it)."""
    max_dice: int = 20
    """Most dice in a skirmish pool [SK-D1]."""
    max_distance: float = 100_000.0
    """Farthest distance, in the game's unit (cm or ft), as a scenario's coordinates."""
    max_observers: int = 1000
    """Most observers or listeners of one check, most characters on one side of an ambush."""
    max_ac: int = 100
    """Largest armor class."""
    max_modifiers: int = 50
    """Most circumstance modifiers given to one check."""


LIMITS = Limits()
"""The limits, one home for every game."""


def whole(value: object, *, where: str) -> int:
    """``value`` as a whole number; an :class:`InputError` naming ``where`` otherwise."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(f"{value!r} is not a whole number", where=where)
    return value


def check_bonus(value: int, *, where: str) -> int:
    """Refuse a bonus that is not a whole number, or beyond ±``max_bonus`` (a typo)."""
    whole(value, where=where)
    if abs(value) > LIMITS.max_bonus:
        raise LimitError(f"{where}: {value} is beyond the limit of ±{LIMITS.max_bonus}")
    return value


def check_distance(distance: float, unit: str, *, where: str = "--distance") -> float:
    """Refuse a distance that is not a number, negative, or beyond ``max_distance`` (in
    ``unit``, ``cm`` or ``ft``)."""
    if (
        isinstance(distance, bool)
        or not isinstance(distance, int | float)
        or not math.isfinite(distance)
        or distance < 0
    ):
        raise InputError(f"{distance} is not a distance (0 or more {unit})", where=where)
    if distance > LIMITS.max_distance:
        raise LimitError(
            f"{where}: {distance:g} {unit} is beyond the limit of {LIMITS.max_distance:g} {unit}"
        )
    return float(distance)


def check_count(count: int, limit: int, what: str, *, where: str, least: int = 0) -> int:
    """Refuse ``count`` ``what`` (``observers``, ``dice``) outside ``least``..``limit``."""
    if not least <= count <= limit:
        raise LimitError(f"{where}: {count} {what}; {least} to {limit}")
    return count


def check_ac(value: int, *, where: str) -> int:
    """Refuse an armor class that is not a whole number or outside 0..``max_ac``."""
    whole(value, where=where)
    if not 0 <= value <= LIMITS.max_ac:
        raise LimitError(f"{where}: {value} is beyond the limit of 0 to {LIMITS.max_ac}")
    return value
