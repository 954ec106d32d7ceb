"""What the compiled d20 kernels share (issue 14): the 5-ft grid, bearings, and how a d20 is
read off the stream, compiled as :mod:`vigile.engine.d20` and :mod:`vigile.rulesets.dnd35.search`
compute them, bit for bit (the exact tests, ``tests/test_kernel_d20_equivalence.py``, hold them
together).

Nothing here is a rule of a game: a square is ``floor(x / 5)`` (the engine's grid), a bearing
is ``degrees(atan2(dy, dx)) % 360`` as the engine remembers one, and a float's ``%`` is
Python's. The sector of a bearing (which two neighbouring squares it passes between) reads the
neighbours' table from :data:`vigile.rulesets.dnd35.search.NEIGHBOURS`, handed in as an array.
"""

from __future__ import annotations

import math

import numpy as np

from vigile.sim.kernel.geometry import compiled

SQUARE = 5.0
"""A square's side (:data:`vigile.engine.d20.SQUARE_FT`)."""
RAD_TO_DEG = 180.0 / math.pi
"""CPython's ``radToDeg``: ``math.degrees(x)`` is ``x * RAD_TO_DEG``."""
DEG_TO_RAD = math.pi / 180.0
"""CPython's ``degToRad``: ``math.radians(x)`` is ``x * DEG_TO_RAD``."""
ROUNDED = 5e-10
"""Half the last digit that ``round(degrees, 9)`` keeps."""


@compiled
def py_mod(x: float, y: float) -> float:
    """Python's float ``x % y`` (``float_rem``)."""
    mod = float(np.fmod(x, y))  # C's fmod, as CPython's float_rem calls it
    if mod != 0.0:
        if (y < 0.0) != (mod < 0.0):
            mod += y
    else:
        mod = math.copysign(0.0, y)
    return mod


@compiled
def square_of(v: float) -> int:
    """The column (or row) of the 5-ft square holding coordinate ``v``
    (:func:`vigile.engine.d20.square_of`)."""
    return math.floor(v / SQUARE)


@compiled
def centre(s: int) -> float:
    """The centre of column (or row) ``s`` (:func:`vigile.engine.d20.centre_of`)."""
    return (s + 0.5) * SQUARE


@compiled
def adjacent(ax: float, ay: float, bx: float, by: float) -> bool:
    """The same or a neighbouring square (:func:`vigile.engine.d20.adjacent`)."""
    return max(abs(square_of(ax) - square_of(bx)), abs(square_of(ay) - square_of(by))) <= 1


@compiled
def bearing(fx: float, fy: float, tx: float, ty: float) -> float:
    """The bearing from (fx, fy) to (tx, ty) in degrees, as the engine remembers a direction
    (``math.degrees(math.atan2(dy, dx)) % 360.0``)."""
    return py_mod(math.atan2(ty - fy, tx - fx) * RAD_TO_DEG, 360.0)


@compiled
def sector(degrees: float) -> int:
    """``k`` of :func:`vigile.rulesets.dnd35.search.squares_ahead`:
    ``floor((round(degrees % 360, 9) % 360) / 45) % 8``. ``round`` to 9 digits moves a bearing
    by at most :data:`ROUNDED`: it changes the sector only for a bearing that near a multiple of
    45°, which it rounds onto that multiple."""
    turned = py_mod(degrees, 360.0)
    nearest = math.floor(turned / 45.0 + 0.5) * 45.0
    if abs(turned - nearest) < ROUNDED:
        return int(nearest / 45.0) % 8
    return math.floor(turned / 45.0) % 8


@compiled
def d20_meets(face: int, bonus: int, dc: int) -> bool:
    """A d20 roll plus ``bonus`` meets ``dc`` (ties to the roller, as DD-5 and SF-4 say; the
    tables say which checks roll this way)."""
    return face + bonus >= dc
