"""The input limits: what a typo looks like, the same in every game.

These are not rules (no RULES.md ID, no house rule changes them): they keep a mistyped number
from becoming a verdict. Every game refuses the same way:

* a value that is not what the option takes (not a whole number, a negative distance, NaN) is an
  :class:`~vigile.errors.InputError` naming the option;
* a value of the right kind beyond a limit below is a :class:`~vigile.errors.LimitError`, whose
  message names the option and the limit, worded the same in every game.

A scenario's fields use the same numbers (:mod:`vigile.scene.actors` may import them).

Numbers read from files are held here too: :data:`MAX_DIGITS` (checked on a number's text,
before conversion, in scenarios and house rules alike) and :data:`RULE_RANGES`, the range of
every rule number a house rule may set (applied by :func:`vigile.rulesets.data.override_issues`).
"""

from __future__ import annotations

import fnmatch
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


# --------------------------------------------------------------------------- numbers in files

MAX_DIGITS = 30
"""Most digits of a whole number in any file (a scenario, a house rule): no field comes near
it (a seed has 19). A longer number is refused from its text, before it is converted: Python
refuses to convert one of more than 4300 digits, and takes quadratic time below that."""


def digits_issue(literal: str) -> str | None:
    """What is wrong with the number written ``literal`` (its text, before any conversion):
    more than :data:`MAX_DIGITS` digits; None when it may be converted."""
    digits = sum(1 for char in literal if char.isdigit())
    if digits > MAX_DIGITS:
        return f"a number of {digits} digits (at most {MAX_DIGITS})"
    return None


def shown(value: int) -> str:
    """``value`` as a message shows it: the number, or its size when it is too long to read."""
    if abs(value) < 10**MAX_DIGITS:
        return str(value)
    return f"a number of about {int(value.bit_length() * math.log10(2)) + 1} digits"


@dataclass(frozen=True)
class RuleRange:
    """The values a rule number may take in a house rule: beyond them the rules' arithmetic
    breaks (a step of 0 divides by zero, a negative radius, a negative move) or it is a typo."""

    least: int
    most: int
    what: str
    """What the number is (``a distance step in cm``)."""

    def __str__(self) -> str:
        return f"{self.what} is {self.least} to {self.most}"


_DISTANCE = int(LIMITS.max_distance)
_BONUS = LIMITS.max_bonus

RULE_RANGES: tuple[tuple[tuple[str, ...], RuleRange], ...] = (
    (("*bounces",), RuleRange(0, 10, "a number of bounces")),
    (("*step_cm", "*step_ft"), RuleRange(1, _DISTANCE, "a distance step (the rules divide by it)")),
    (("turn.*range_cm", "turn.*range_ft"), RuleRange(0, _DISTANCE, "a distance")),
    (("turn.*_cm", "turn.*_ft"), RuleRange(1, 10_000, "a move per turn")),
    (("*_cm", "*_cm.*", "*_ft"), RuleRange(0, _DISTANCE, "a distance, radius or band")),
    (
        ("*miss_chance", "attack.total_concealment", "attack.in_liquid"),
        RuleRange(0, 100, "a chance in percent"),
    ),
    (("*_pool",), RuleRange(1, LIMITS.max_dice, "a number of dice")),
    (
        (
            "noise.base.*",
            "sight.difficulty.*",
            "shadow.crowd_*",
            "shadow.country_follow_*",
            "shadow.country_notice_*",
            "ambush.*_large",
            "ambush.*_small",
        ),
        RuleRange(1, 20, "a d6 difficulty (N+)"),
    ),
    (("*.dc.*",), RuleRange(0, _BONUS, "a DC")),
    (("round.standard", "round.move"), RuleRange(0, 10, "a number of actions a round")),
    (("*",), RuleRange(-_BONUS, _BONUS, "a modifier")),
)
"""The range of every rule number of every game, by the pattern of its dotted key (the first
that matches): named by what a number is (``*_cm`` a distance, ``*step_cm`` a step), so a new
game's data file follows the same words. Any number not named otherwise is a modifier."""


def rule_range(key: str) -> RuleRange:
    """The range of the rule number at the dotted ``key`` (``noise.night_step_cm``)."""
    for patterns, allowed in RULE_RANGES:
        if any(fnmatch.fnmatchcase(key, pattern) for pattern in patterns):
            return allowed
    raise AssertionError("the last pattern matches every key")  # pragma: no cover


RULE_WORDS: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = (
    (("actions.*",), ("standard", "move", "full", "free")),
)
"""The words a rule word may be, by the pattern of its dotted key (LP-1: an action's cost, the
words of :class:`vigile.rulesets.economy.Cost`)."""


def rule_word_issue(key: str, value: object) -> str | None:
    """What is wrong with the house rule ``key = value`` where the shipped value is a word:
    not a word, or not one of the words that key takes."""
    words = next(
        (w for patterns, w in RULE_WORDS if any(fnmatch.fnmatchcase(key, p) for p in patterns)),
        None,
    )
    if not isinstance(value, str):
        return f"{key!r} must be a word" + (f" ({', '.join(words)})" if words else "")
    if words is not None and value not in words:
        return f"{key!r} = {value[:40]!r} is not one of {', '.join(words)}"
    return None


def rule_range_issue(key: str, value: int) -> str | None:
    """What is wrong with the house rule ``key = value``: a value outside its range."""
    allowed = rule_range(key)
    if allowed.least <= value <= allowed.most:
        return None
    unit = next((f" {unit}" for unit in ("cm", "ft") if f"_{unit}" in key), "")
    return f"{key!r} = {shown(value)} is out of range: {allowed}{unit}"
