"""Pools of d6 against "N+" for the skirmish game (SK-D1..SK-D4).

A check rolls a pool of d6 (SK-D1) with a bonus added to each die (SK-D2); it succeeds when
one die reaches the difficulty. Difficulties above 6 are reached only by chains of sixes
(SK-D3): with ``t = difficulty − bonus``, ``t ≤ 1`` succeeds without a roll, ``2 ≤ t ≤ 6``
needs ``t`` or more on a die, and ``t ≥ 7`` needs a natural 6, rolled again against ``t − 1``.
A fumble is a roll in which every die shows 1 (SK-D4).
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

from vigile.dice.roll import Die, Face, Roll, single
from vigile.dice.source import FaceSource

SIDES = 6


def target_number(difficulty: int, die_bonus: int) -> int:
    """The face a die must reach once the bonus is counted: ``t = difficulty − bonus`` [SK-D3]."""
    return difficulty - die_bonus


@cache
def die_chance(target: int) -> Fraction:
    """Exact chance that one die reaches ``target`` [SK-D3].

    ``(7 − t)/6`` for 2 ≤ t ≤ 6; ``(1/6)^(t − 5)`` for t ≥ 7 (a chain of sixes); 1 for t ≤ 1.
    """
    if target <= 1:
        return Fraction(1)
    if target <= SIDES:
        return Fraction(SIDES + 1 - target, SIDES)
    return Fraction(1, SIDES) ** (target - 5)


@cache
def pool_chance(dice: int, target: int) -> Fraction:
    """Exact chance that at least one of ``dice`` dice reaches ``target`` [SK-D1, SK-D3]."""
    return 1 - (1 - die_chance(target)) ** dice


def fumble_chance(dice: int) -> Fraction:
    """Exact chance that every die of the pool shows 1 [SK-D4]."""
    return Fraction(1, SIDES) ** dice


def roll_die(target: int, source: FaceSource) -> Die:
    """Roll one d6 against ``target``, chaining sixes as SK-D3 requires: every six rolled on
    is ``chained``, the last face is ``kept``."""
    faces: list[Face] = []
    remaining = target
    while True:
        face = source.face(SIDES)
        if remaining <= SIDES:
            return Die(SIDES, (*faces, Face(face)), face >= remaining)
        if face != SIDES:
            return Die(SIDES, (*faces, Face(face)), False)
        faces.append(Face(face, "chained"))
        remaining -= 1


def roll_pool(dice: int, target: int, source: FaceSource) -> Roll:
    """Roll ``dice`` dice against ``target``; each die's chain follows it directly [SK-D1, SK-D3].

    Every die is rolled, even after one has succeeded, so the roll shows all the faces.
    """
    rolls = tuple(roll_die(target, source) for _ in range(dice))
    return Roll(rolls, any(r.success for r in rolls), source.given)


def roll_plain(dice: int, source: FaceSource) -> Roll:
    """Roll ``dice`` dice with no target (a fumble test [SK-D4]); success means no fumble."""
    rolls = tuple(single(SIDES, source.face(SIDES), True) for _ in range(dice))
    fumbled = all(r.faces[0] == 1 for r in rolls)
    return Roll(rolls, not fumbled, source.given)
