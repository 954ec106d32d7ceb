"""What a creature that has not located an invisible one does to find it: where it gropes.

The seed says what each way of perceiving gives (DD-3: Spot, something is there, "but not
where"; DD-5: Listen, "something invisible in a certain direction"; DD-7: a blow with reach,
or [C] a ranged one, its direction; DD-4, DD-5 pinpointed, DD-6 groped, DD-7 struck: the
square), and what a creature may then do: grope two adjacent squares, a standard action
(DD-6), or attack a square of its choosing (DD-9). It does not say where a creature that knows
only a direction, or only a presence, gropes. Rulings of this project (proposals for
RULES.md), the numbers in ``rules.toml``:

- [R] DD-6: a creature that knows a square (it located the creature there, and the creature
  has moved since) walks within reach of it and gropes it and the next square along its way
  (:func:`squares_toward`); groping it empty, it forgets that square.
- [R] DD-5, DD-6, DD-7: a creature that knows only a direction (a bearing from where it stood
  when it perceived: no distance) gropes the two squares next to it that the bearing passes
  between (:func:`squares_ahead`), then, finding nothing, steps ``search.step_ft`` (5 ft: one
  square, into the square it just felt) along the bearing, stopping before a wall, a closed
  door or the map's edge. Round after round it sweeps the line square by square; a new
  perception gives it a new bearing, or a square.
- [R] DD-3: a creature that knows only that something is there, and no square, has nowhere to
  grope: it stays where it is and looks and listens again the next round.
- [R] DD-10: flour is thrown at a square the creature knows (as a grope), never along a
  bearing: it would not know where to throw it.

Squares are ``(column, row)`` of 5-ft squares: the square of the point ``(x, y)`` is
``(x // 5, y // 5)``. Bearings are in degrees, counter-clockwise from the x axis (atan2 of
the map's y over its x, so 90° points toward larger y).
"""

from __future__ import annotations

import math
from enum import StrEnum

from vigile.checks.verdict import Line
from vigile.errors import InputError
from vigile.rulesets.data import RuleData

SQUARE_FT = 5.0
"""A square's side."""

Square = tuple[int, int]

NEIGHBOURS: tuple[Square, ...] = (
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
)
"""The eight neighbouring squares, the k-th at k × 45° from the x axis."""


class Search(StrEnum):
    """What a creature that has not located an invisible one does this round."""

    SQUARE = "square"
    """It knows a square: it walks within reach of it and gropes it [DD-6 R]."""
    BEARING = "bearing"
    """It knows a direction: it gropes the squares ahead, then steps along it [DD-5 R]."""
    STAY = "stay"
    """It knows only that something is there: it stays and perceives again [DD-3 R]."""


def search(*, square: bool, bearing: bool) -> tuple[Search, Line]:
    """What a creature that knows a ``square`` (a located creature that has moved since), or
    only a ``bearing``, or neither, does to find the invisible creature (module docstring)."""
    if square:
        return Search.SQUARE, Line("dnd35.search.square", "DD-6")
    if bearing:
        return Search.BEARING, Line("dnd35.search.bearing", "DD-5")
    return Search.STAY, Line("dnd35.search.stay", "DD-3")


def square_of(x: float, y: float) -> Square:
    """The 5-ft square of a point."""
    return (math.floor(x / SQUARE_FT), math.floor(y / SQUARE_FT))


def centre(square: Square) -> tuple[float, float]:
    """The centre of a 5-ft square: where a creature aims at it."""
    return ((square[0] + 0.5) * SQUARE_FT, (square[1] + 0.5) * SQUARE_FT)


def squares_toward(square: Square, *, x: float, y: float) -> tuple[Square, Square]:
    """The two adjacent squares groped by a creature at ``(x, y)`` that knows ``square``
    [DD-6 R]: that square, and the next one along its way there (along the axis on which the
    way is longer; on a tie, along x)."""
    cx, cy = centre(square)
    dx, dy = cx - x, cy - y
    if abs(dx) >= abs(dy):
        return square, (square[0] + (1 if dx >= 0 else -1), square[1])
    return square, (square[0], square[1] + (1 if dy >= 0 else -1))


def squares_ahead(at: Square, degrees: float) -> tuple[Square, Square]:
    """The two squares next to ``at`` that a bearing of ``degrees`` passes between [DD-5,
    DD-6 R]: the neighbours at k × 45° and (k + 1) × 45° with k × 45° ≤ bearing < (k + 1) ×
    45°; a bearing straight at a neighbour takes it and the next one counter-clockwise."""
    if not math.isfinite(degrees):
        raise InputError(f"{degrees} is not a bearing", where="bearing")
    turned = round(degrees % 360.0, 9) % 360.0
    k = math.floor(turned / 45.0) % 8
    first, second = NEIGHBOURS[k], NEIGHBOURS[(k + 1) % 8]
    return (at[0] + first[0], at[1] + first[1]), (at[0] + second[0], at[1] + second[1])


def step_ft(rules: RuleData) -> float:
    """How far a creature that knows only a direction steps along it after an empty grope,
    each round [R]: ``search.step_ft``."""
    step = float(rules.num("search.step_ft"))
    if not math.isfinite(step) or step < 0:
        raise InputError(f"{step} is not a step (0 or more feet)", where="search.step_ft")
    return step
