"""The plane geometry of :mod:`vigile.scene.geometry`, one query at a time, compiled (numba).

A port, not a new geometry: every function here repeats the floating-point operations of its
numpy original in the same order, so that it gives the same bits (``tests/test_kernel_geometry.py``
checks it on recorded moves, crossings and lines of sight). The conventions are the module's:
a barrier is a closed segment; "between" A and B means sharing a point with the open segment
A–B, meetings at one point counted once, a lengthwise run once; a move turns ``epsilon`` short
of a barrier or the map border, at most ``max_bounces`` times (:func:`trace_move`).

Two distances of the engine are Python's, not numpy's: :func:`py_hypot` is CPython 3.11's
``math.hypot`` (:func:`vigile.engine.board.distance`), :func:`py_floordiv` its float ``//``
(the noise rule's whole steps, SK-N4). Walls are given as arrays (x1, y1, x2, y2) with a
per-wall mask; the map border, for moves, as four more segments after them.

A list of walls a query tries may name a run of a chain's pieces by one negative entry (the
pieces of one straight wall, :mod:`vigile.sim.kernel.grid`): :func:`decode` reads it, and the
query skips the run where its box is apart from the chain's (:func:`chain_apart`), else tries
the pieces in their order, as it tries a wall listed alone.

Nothing here knows a game: no rule, no radius, no bounce count of its own.

Compiled without numba's reference counting (``_nrt=False``): nothing here allocates (a query's
meetings are sorted in its ``scratch``), and counting the references of every array argument
of every call cost more than the geometry itself (an atomic increment and decrement each).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, TypeVar, cast

import numpy as np
from numba import njit

from vigile.scene.geometry import GRAZING
from vigile.sim.kernel.grid import CODE_BITS, CODE_MASK

Function = TypeVar("Function", bound=Callable[..., Any])


def compiled(function: Function) -> Function:
    """How every function of the kernels is compiled: numba's ``njit``, cached on disk, without
    reference counting (see the module's docstring)."""
    options: dict[str, Any] = {"cache": True, "nogil": True, "_nrt": False}  # _nrt: not in stubs
    return cast(Function, njit(function, **options))


def internal(function: Function) -> Function:
    """:func:`compiled`, without numba's entry from Python (``no_cpython_wrapper``): for a
    function only the compiled code calls, with the model's large tuples of arrays. The entry
    unboxes each of a hundred arrays from a Python tuple, and compiling that entry would be most
    of the d20 kernels' first compile. Calling such a function from Python crashes the
    interpreter: the kernels' entry points (``play_runs``, ``posted_codes``) and whatever a
    test calls stay :func:`compiled`."""
    options: dict[str, Any] = {
        "cache": True,
        "nogil": True,
        "_nrt": False,
        "no_cpython_wrapper": True,
        "no_cfunc_wrapper": True,
    }
    return cast(Function, njit(function, **options))


def inlined(function: Function) -> Function:
    """:func:`compiled`, and inlined in numba's IR where it is called (``inline="always"``):
    for a function called often with many arrays, whose passing (as hundreds of words pushed
    on the stack) would cost more than its work; and for the two predicates of the hot loops,
    :func:`contacts` (a patrol's move) and :func:`meets_open` (lines of sight and the walls
    a noise crosses), which LLVM leaves as calls though the raid runs faster with them inlined.
    Not for every small predicate: forcing all of them slows the callers' loops."""
    options: dict[str, Any] = {"cache": True, "nogil": True, "_nrt": False, "inline": "always"}
    return cast(Function, njit(function, **options))


ZERO = cast(int, np.int64(0))
NOBODY = cast(int, np.int64(-1))
"""0 and -1 typed int64, for a counter or an index that a compiled function is handed. numba
types a variable first set to a literal (``n = 0``, later ``n += 1``) as that literal before it
unifies it with the rest, and compiles the callee once more for it: a specialization never run,
which lengthens the first compile of the d20 kernels' large tuples. A numpy scalar is typed
int64, not as a literal."""
SAME_POINT = 1e-9
"""Two meetings closer than this along a query are one point (``_SAME_POINT`` of the original)."""
T27 = 134217729.0
"""Veltkamp's constant 2**27 + 1, the split of :func:`py_hypot`."""


@compiled
def py_hypot(a: float, b: float) -> float:
    """CPython 3.11's ``math.hypot(a, b)`` (``vector_norm``), bit for bit."""
    a = abs(a)
    b = abs(b)
    high = max(a, b)
    if math.isinf(high):
        return high
    if math.isnan(a) or math.isnan(b):
        return math.nan
    if high == 0.0:
        return high
    _, exponent = math.frexp(high)
    if exponent < -1023:  # pragma: no cover - subnormal coordinates
        return math.hypot(a, b)
    scale = math.ldexp(1.0, -exponent)
    csum = 1.0
    frac1 = 0.0
    frac2 = 0.0
    frac3 = 0.0
    for k in range(2):
        x = (a if k == 0 else b) * scale
        t = x * T27
        hi = t - (t - x)
        lo = x - hi
        x = hi * hi
        old = csum
        csum += x
        frac1 += (old - csum) + x
        x = 2.0 * hi * lo
        old = csum
        csum += x
        frac2 += (old - csum) + x
        frac3 += lo * lo
    h = math.sqrt(csum - 1.0 + (frac1 + frac2 + frac3))
    x = h
    t = x * T27
    hi = t - (t - x)
    lo = x - hi
    x = -hi * hi
    old = csum
    csum += x
    frac1 += (old - csum) + x
    x = -2.0 * hi * lo
    old = csum
    csum += x
    frac2 += (old - csum) + x
    x = -lo * lo
    old = csum
    csum += x
    frac3 += (old - csum) + x
    x = csum - 1.0 + (frac1 + frac2 + frac3)
    return (h + x / (2.0 * h)) / scale


@compiled
def py_floordiv(x: float, y: float) -> float:
    """CPython's float ``x // y`` (``float_floor_div``), bit for bit."""
    mod = np.fmod(x, y)
    div = (x - mod) / y
    if mod != 0.0 and (y < 0) != (mod < 0):
        div -= 1.0
    if div != 0.0:
        floordiv = math.floor(div)
        if div - floordiv > 0.5:
            floordiv += 1.0
        return float(floordiv)
    return math.copysign(0.0, x / y)


FAST_MARGIN = 1e-12
"""How far (relative) a plain ``sqrt(a * a + b * b)`` must be from a bound for the bound's side
to be taken from it: it is within a few ulps (1e-16) of :func:`py_hypot`."""


@compiled
def hypot_below(a: float, b: float, limit: float, strict: bool) -> bool:
    """``py_hypot(a, b) < limit`` (``<=`` when not ``strict``), exactly; from the plain sum of
    squares when it is clearly on one side of the squared bound (twice the margin: the root
    halves a relative gap), from :func:`py_hypot` near the bound."""
    if 1e-100 < limit < 1e150:
        square = a * a + b * b  # compared squared: no root to wait for
        bound = limit * limit
        if square < bound * (1.0 - 2.0 * FAST_MARGIN):
            return True
        if square > bound * (1.0 + 2.0 * FAST_MARGIN):
            return False
    gap = py_hypot(a, b)
    return gap < limit if strict else gap <= limit


@compiled
def beyond(a: float, b: float, limit: float) -> bool:
    """``py_hypot(a, b) >= limit`` for sure, from the plain sum of squares, as
    :func:`hypot_below` decides its clear cases (the same margin): where this is true, so is
    ``not hypot_below(a, b, bound, strict)`` for every ``bound <= limit``. False when not
    sure (near the bound, or a bound out of the plain square's range)."""
    return 1e-100 < limit < 1e150 and a * a + b * b > limit * limit * (1.0 + 2.0 * FAST_MARGIN)


@compiled
def hypot_steps(a: float, b: float, step: float) -> int:
    """``int(py_floordiv(py_hypot(a, b), step))``, exactly; from the plain root when its
    quotient is clearly between two whole numbers, else from the exact pair."""
    if 1e-100 < step < 1e150:
        quotient = math.sqrt(a * a + b * b) / step
        if quotient < 1e6:
            whole = math.floor(quotient)
            part = quotient - whole
            if 1e-6 < part < 1.0 - 1e-6:
                return int(whole)
    return int(py_floordiv(py_hypot(a, b), step))


@compiled
def _sign(value: float) -> float:
    if value > 0.0:
        return 1.0
    if value < 0.0:
        return -1.0
    return value  # 0.0, -0.0 or nan, as np.sign


@compiled
def _orient(ax: float, ay: float, bx: float, by: float, px: float, py: float) -> float:
    return (bx - ax) * (py - ay) - (by - ay) * (px - ax)


@compiled
def _signs(
    ax: float, ay: float, bx: float, by: float, px: float, py: float, qx: float, qy: float
) -> tuple[float, float, float, float, float, float]:
    """``_signs`` of the original for one query A–B and one barrier P–Q."""
    swap = (ax > bx) | ((ax == bx) & (ay > by))
    if swap:
        lx, ly, hx, hy = bx, by, ax, ay
    else:
        lx, ly, hx, hy = ax, ay, bx, by
    o3 = _orient(px, py, qx, qy, ax, ay)
    o4 = _orient(px, py, qx, qy, bx, by)
    s1 = _sign(_orient(lx, ly, hx, hy, px, py))
    s2 = _sign(_orient(lx, ly, hx, hy, qx, qy))
    return s1, s2, _sign(o3), _sign(o4), o3, o4


@compiled
def _projections(
    ax: float, ay: float, bx: float, by: float, px: float, py: float, qx: float, qy: float
) -> tuple[float, float, float, bool]:
    swap = (ax > bx) or (ax == bx and ay > by)
    if swap:
        lx, ly, hx, hy = bx, by, ax, ay
    else:
        lx, ly, hx, hy = ax, ay, bx, by
    ux = hx - lx
    uy = hy - ly
    tp = (px - lx) * ux + (py - ly) * uy
    tq = (qx - lx) * ux + (qy - ly) * uy
    return min(tp, tq), max(tp, tq), ux * ux + uy * uy, swap


BOX_MARGIN = 1e-9
"""How far apart (relative to the coordinates) two segments' bounding boxes must be for
:func:`boxes_apart` to skip the exact predicates."""


@compiled
def boxes_apart(
    ax: float, ay: float, bx: float, by: float, px: float, py: float, qx: float, qy: float
) -> bool:
    """The bounding boxes of A–B and P–Q are apart by more than a margin: no predicate below
    can find a contact, so it need not be computed (the kernel's one shortcut over
    :mod:`vigile.scene.geometry`). Why it changes nothing: two disjoint segments pass both
    straddle tests in floating point only when each has an end within rounding (1e-16
    relative) of the other's line, that is when both lie along one line; and a point (A = B)
    touches P–Q only inside P–Q's box. Random play never lays a move or a line of sight along
    a wall's line to 1e-16, and the exact tests against the original would see it."""
    tol = BOX_MARGIN * (1.0 + abs(ax) + abs(ay) + abs(px) + abs(py))
    # the four sides with ``|``, not ``or``: no branch, which random queries would mispredict
    return (
        (max(ax, bx) + tol < min(px, qx))
        | (max(px, qx) + tol < min(ax, bx))
        | (max(ay, by) + tol < min(py, qy))
        | (max(py, qy) + tol < min(ay, by))
    )


@inlined
def decode(entry: int) -> tuple[int, int, int]:
    """A negative entry of a list of walls (:func:`vigile.sim.kernel.grid.code`): the index of
    its chain's box, its first piece, and how many."""
    packed = -1 - entry
    return packed >> (2 * CODE_BITS), (packed >> CODE_BITS) & CODE_MASK, packed & CODE_MASK


@inlined
def _chain_box(
    x1: np.ndarray, y1: np.ndarray, x2: np.ndarray, y2: np.ndarray, box: int
) -> tuple[float, float, float, float, float]:
    """A chain's box (lowest x, y; highest x, y), and the largest ``|x| + |y|`` of its points
    (its corners bound it)."""
    low_x: float = x1[box]
    low_y: float = y1[box]
    high_x: float = x2[box]
    high_y: float = y2[box]
    reach = max(abs(low_x), abs(high_x)) + max(abs(low_y), abs(high_y))
    return low_x, low_y, high_x, high_y, reach


@inlined
def chain_apart(
    ax: float,
    ay: float,
    bx: float,
    by: float,
    x1: np.ndarray,
    y1: np.ndarray,
    x2: np.ndarray,
    y2: np.ndarray,
    box: int,
) -> bool:
    """The box of A–B is apart from the box of a chain (corners ``x1[box], y1[box]`` and
    ``x2[box], y2[box]``) by twice :func:`boxes_apart`'s margin at the chain's farthest
    corner: then :func:`boxes_apart` finds each of its pieces apart from A–B, and none can
    meet A–B or hold its end. Why: a piece's box lies in the chain's; its margin,
    ``BOX_MARGIN * (1 + |ax| + |ay| + |px| + |py|)``, is below the chain's (twice that factor,
    ``|px| + |py|`` bounded by the corners), whatever the rounding of either; and a rounded
    sum grows with its terms."""
    low_x, low_y, high_x, high_y, reach = _chain_box(x1, y1, x2, y2, box)
    tol = 2.0 * BOX_MARGIN * (1.0 + abs(ax) + abs(ay) + reach)
    return (
        (max(ax, bx) + tol < low_x)
        | (high_x + tol < min(ax, bx))
        | (max(ay, by) + tol < low_y)
        | (high_y + tol < min(ay, by))
    )


SHORT_RUN = 4
"""A chain's run of this many pieces or fewer is tried whole; a longer one, only where the
query can meet it (:func:`chain_span`)."""


@inlined
def _first_reaching(c1: np.ndarray, c2: np.ndarray, way: float, lo: int, hi: int, q: float) -> int:
    """The first k of lo .. hi whose span (``c1[k]``, ``c2[k]``, times ``way``: 1 or -1) ends at
    or beyond q (``hi`` if none), where those ends never fall as k grows (a binary search)."""
    while lo < hi:
        mid = (lo + hi) >> 1
        if max(way * c1[mid], way * c2[mid]) >= q:
            hi = mid
        else:
            lo = mid + 1
    return lo


@inlined
def _first_past(c1: np.ndarray, c2: np.ndarray, way: float, lo: int, hi: int, q: float) -> int:
    """The first k of lo .. hi whose span (times ``way``) begins beyond q (``hi`` if none),
    where those beginnings never fall as k grows."""
    while lo < hi:
        mid = (lo + hi) >> 1
        if min(way * c1[mid], way * c2[mid]) > q:
            hi = mid
        else:
            lo = mid + 1
    return lo


@inlined
def chain_span(
    ax: float,
    ay: float,
    bx: float,
    by: float,
    x1: np.ndarray,
    y1: np.ndarray,
    x2: np.ndarray,
    y2: np.ndarray,
    box: int,
    first: int,
    n: int,
) -> tuple[int, int]:
    """The pieces ``k0 .. k1`` of a chain's run (``first`` .. ``first + n``) that A–B may meet
    or end on: every other piece is apart from A–B. A chain runs along the longer side of its
    box (its axis), its pieces' spans on the axis in order (:func:`vigile.sim.kernel.grid.
    chains` keeps no other): the pieces are those whose span meets the part of A–B inside the
    chain's band across the axis (widened by ``tol``), found by binary search. Why none is
    lost: a piece that meets A–B, even within rounding (1e-16 of the coordinates), does so at
    a point X of A–B within its box, so in the band; X's place on the axis lies between the
    band's ends on A–B, computed to a few roundings, far inside ``tol`` (1e-9 of the
    coordinates)."""
    if n <= SHORT_RUN:
        return first, first + n
    low_x, low_y, high_x, high_y, reach = _chain_box(x1, y1, x2, y2, box)
    tol = 4.0 * BOX_MARGIN * (1.0 + abs(ax) + abs(ay) + abs(bx) + abs(by) + reach)
    if high_x - low_x >= high_y - low_y:
        ua, ub, va, vb, band_low, band_high = ax, bx, ay, by, low_y, high_y
        c1, c2 = x1, x2
    else:
        ua, ub, va, vb, band_low, band_high = ay, by, ax, bx, low_x, high_x
        c1, c2 = y1, y2
    if va == vb:
        q0 = min(ua, ub) - tol
        q1 = max(ua, ub) + tol
    else:
        t0 = min(max((band_low - tol - va) / (vb - va), 0.0), 1.0)
        t1 = min(max((band_high + tol - va) / (vb - va), 0.0), 1.0)
        u0 = ua + t0 * (ub - ua)
        u1 = ua + t1 * (ub - ua)
        q0 = min(u0, u1) - tol
        q1 = max(u0, u1) + tol
    end = first + n
    # the pieces go up the axis, or down it (then on the axis turned round: -q1 .. -q0)
    way, low, high = (1.0, q0, q1) if c1[first] <= c1[end - 1] else (-1.0, -q1, -q0)
    k0 = _first_reaching(c1, c2, way, first, end, low)
    return k0, _first_past(c1, c2, way, k0, end, high)


@inlined
def chain_pieces(
    ax: float,
    ay: float,
    bx: float,
    by: float,
    x1: np.ndarray,
    y1: np.ndarray,
    x2: np.ndarray,
    y2: np.ndarray,
    entry: int,
) -> tuple[int, int]:
    """The pieces ``k0 .. k1`` of a chain's run (the negative ``entry``) that A–B may meet or
    end on: none where the boxes are apart (:func:`chain_apart`), else :func:`chain_span`'s."""
    box, first, n = decode(entry)
    if chain_apart(ax, ay, bx, by, x1, y1, x2, y2, box):
        return first, first
    return chain_span(ax, ay, bx, by, x1, y1, x2, y2, box, first, n)


@inlined
def meets_open(
    ax: float, ay: float, bx: float, by: float, px: float, py: float, qx: float, qy: float
) -> bool:
    """Barrier P–Q shares a point with the open segment A–B (``_meets_open``)."""
    if boxes_apart(ax, ay, bx, by, px, py, qx, qy):
        return False
    s1, s2, s3, s4, _, _ = _signs(ax, ay, bx, by, px, py, qx, qy)
    if (s1 == 0) & (s2 == 0) & (s3 == 0) & (s4 == 0):
        low, high, length2, _ = _projections(ax, ay, bx, by, px, py, qx, qy)
        return length2 > 0 and low < length2 and high > 0
    return (s3 * s4 < 0) & (s1 * s2 <= 0)


@compiled
def crossings(
    ax: float,
    ay: float,
    bx: float,
    by: float,
    x1: np.ndarray,
    y1: np.ndarray,
    x2: np.ndarray,
    y2: np.ndarray,
    mask: np.ndarray,
    candidates: np.ndarray,
    count: int,
    scratch: np.ndarray,
) -> int:
    """How many of the masked barriers lie between A and B (``crossings``), among the first
    ``count`` entries of ``candidates`` (every barrier that can meet A–B must be one of them,
    alone or in a chain's run, each once). ``scratch``: room for one float and one index per
    barrier (shape (2, n)); nothing is allocated."""
    hits = ZERO
    for c in range(count):
        j = candidates[c]
        if j < 0:
            k0, k1 = chain_pieces(ax, ay, bx, by, x1, y1, x2, y2, j)
            for k in range(k0, k1):
                if mask[k] and meets_open(ax, ay, bx, by, x1[k], y1[k], x2[k], y2[k]):
                    scratch[1, hits] = k
                    hits += 1
        elif mask[j] and meets_open(ax, ay, bx, by, x1[j], y1[j], x2[j], y2[j]):
            scratch[1, hits] = j
            hits += 1
    if hits <= 1:
        return hits
    points = ZERO
    runs = 0
    for h in range(hits):
        j = int(scratch[1, h])
        s1, s2, s3, s4, o3, o4 = _signs(ax, ay, bx, by, x1[j], y1[j], x2[j], y2[j])
        if s1 == 0 and s2 == 0 and s3 == 0 and s4 == 0:
            runs += 1
        else:
            scratch[0, points] = o3 / ((o3 - o4) if o3 != o4 else 1.0)
            points += 1
    _sort_floats(scratch, points)
    places = 0
    for k in range(points):
        if math.isfinite(scratch[0, k]) and (
            k == 0 or scratch[0, k] - scratch[0, k - 1] > SAME_POINT
        ):
            places += 1
    if runs == 0:
        return places
    return _with_runs(ax, ay, bx, by, x1, y1, x2, y2, scratch, hits, points)


@compiled
def _before(a: float, b: float) -> bool:
    """``a`` sorts strictly before ``b`` as numpy sorts floats (nan last)."""
    return a < b or (b != b and a == a)


@compiled
def _sort_floats(scratch: np.ndarray, n: int) -> None:
    """``np.sort`` of ``scratch[0, :n]``, in place (an insertion sort: n is a handful)."""
    for k in range(1, n):
        value = scratch[0, k]
        at = k
        while at > 0 and _before(value, scratch[0, at - 1]):
            scratch[0, at] = scratch[0, at - 1]
            at -= 1
        scratch[0, at] = value


@compiled
def _with_runs(
    ax: float,
    ay: float,
    bx: float,
    by: float,
    x1: np.ndarray,
    y1: np.ndarray,
    x2: np.ndarray,
    y2: np.ndarray,
    scratch: np.ndarray,
    hits: int,
    points: int,
) -> int:
    """``_with_runs``: the distinct places of a query that runs along some barriers.
    ``scratch[0, :points]``: the sorted meeting points; ``scratch[1, :hits]``: the barriers
    met. In place: the spans' lows go to ``scratch[0, points:]``, their highs over the barriers
    already read (``scratch[1, :]``), then merged where they lie."""
    length2 = (bx - ax) ** 2 + (by - ay) ** 2
    n = 0
    for h in range(hits):
        j = int(scratch[1, h])
        s1, s2, s3, s4, _, _ = _signs(ax, ay, bx, by, x1[j], y1[j], x2[j], y2[j])
        if s1 == 0 and s2 == 0 and s3 == 0 and s4 == 0:
            e1 = ((x1[j] - ax) * (bx - ax) + (y1[j] - ay) * (by - ay)) / length2
            e2 = ((x2[j] - ax) * (bx - ax) + (y2[j] - ay) * (by - ay)) / length2
            scratch[0, points + n] = max(min(e1, e2), 0.0)
            scratch[1, n] = min(max(e1, e2), 1.0)  # n <= h: that barrier was read
            n += 1
    # sort the spans by (low, high), as Python sorts tuples (stable; ties are equal spans)
    for k in range(1, n):
        low = scratch[0, points + k]
        high = scratch[1, k]
        at = k
        while at > 0 and (
            low < scratch[0, points + at - 1]
            or (low == scratch[0, points + at - 1] and high < scratch[1, at - 1])
        ):
            scratch[0, points + at] = scratch[0, points + at - 1]
            scratch[1, at] = scratch[1, at - 1]
            at -= 1
        scratch[0, points + at] = low
        scratch[1, at] = high
    m = 0
    for k in range(n):
        low = scratch[0, points + k]
        high = scratch[1, k]
        if m > 0 and low <= scratch[1, m - 1] + SAME_POINT:
            scratch[1, m - 1] = max(scratch[1, m - 1], high)
        else:
            scratch[0, points + m] = low
            scratch[1, m] = high
            m += 1
    places = m
    last = -np.inf
    for p in range(points):
        v = scratch[0, p]
        inside = False
        for k in range(m):
            if scratch[0, points + k] - SAME_POINT <= v <= scratch[1, k] + SAME_POINT:
                inside = True
                break
        if not inside and v - last > SAME_POINT:
            places += 1
        last = v
    return places


@compiled
def sees(
    ax: float,
    ay: float,
    bx: float,
    by: float,
    x1: np.ndarray,
    y1: np.ndarray,
    x2: np.ndarray,
    y2: np.ndarray,
    mask: np.ndarray,
    candidates: np.ndarray,
    count: int,
) -> bool:
    """No masked barrier between A and B (``line_of_sight``, with ``mask`` its sight mask),
    among the first ``count`` entries of ``candidates``."""
    for c in range(count):
        j = candidates[c]
        if j < 0:
            k0, k1 = chain_pieces(ax, ay, bx, by, x1, y1, x2, y2, j)
            for k in range(k0, k1):
                if mask[k] and meets_open(ax, ay, bx, by, x1[k], y1[k], x2[k], y2[k]):
                    return False
        elif mask[j] and meets_open(ax, ay, bx, by, x1[j], y1[j], x2[j], y2[j]):
            return False
    return True


@inlined
def contacts(
    ax: float, ay: float, bx: float, by: float, px: float, py: float, qx: float, qy: float
) -> tuple[bool, float, bool]:
    """``_contacts`` for one pair: touches the closed segment A–B, where along A→B it first
    does, collinear."""
    if boxes_apart(ax, ay, bx, by, px, py, qx, qy):
        return False, 0.0, False
    return _contacts_near(ax, ay, bx, by, px, py, qx, qy)


@inlined
def _contacts_near(
    ax: float, ay: float, bx: float, by: float, px: float, py: float, qx: float, qy: float
) -> tuple[bool, float, bool]:
    """:func:`contacts` once the boxes are known not apart."""
    s1, s2, s3, s4, o3, o4 = _signs(ax, ay, bx, by, px, py, qx, qy)
    if (s1 == 0) & (s2 == 0) & (s3 == 0) & (s4 == 0):
        low, high, length2, swap = _projections(ax, ay, bx, by, px, py, qx, qy)
        if length2 == 0:
            touch = min(px, qx) <= ax <= max(px, qx) and min(py, qy) <= ay <= max(py, qy)
            return touch, 0.0, True
        first = 1.0 - high / length2 if swap else low / length2
        return low <= length2 and high >= 0, min(max(first, 0.0), 1.0), True
    if not ((s3 * s4 <= 0) & (s1 * s2 <= 0)):
        return False, 0.0, False  # where it would meet is never read: no division
    denominator = o3 - o4
    return True, (min(max(o3 / denominator, 0.0), 1.0) if denominator != 0 else 0.0), False


@compiled
def point_touches(fx: float, fy: float, px: float, py: float, qx: float, qy: float) -> bool:
    """Barrier P–Q touches the point F: what :func:`contacts` finds of the query F–F, in a
    few operations. For A = B = F the original's signs are s1 = s2 = 0 (the orientations
    about a segment of zero length are 0) and s3 = s4 = sign(orient(P, Q, F)): F off the
    line (s3 * s4 = 1) touches nothing, F on it is "collinear" with a query of zero length,
    which touches where F lies in P–Q's box (and a box apart, :func:`boxes_apart`, is the
    same answer)."""
    if _orient(px, py, qx, qy, fx, fy) != 0:
        return False
    return min(px, qx) <= fx <= max(px, qx) and min(py, qy) <= fy <= max(py, qy)


@inlined
def _leg_is_clear(
    sx: float,
    sy: float,
    fx: float,
    fy: float,
    x1: np.ndarray,
    y1: np.ndarray,
    x2: np.ndarray,
    y2: np.ndarray,
    walls: np.ndarray,
    count: int,
    width: float,
    height: float,
    met: bool,
    end_touches: bool,
) -> bool:
    """``_leg_is_clear`` of the original. ``met``: whether the leg ends at a wall it met;
    when it did not, the leg is the very segment :func:`trace_unit` just found touching no
    wall (the same floats, the same predicates), and ``end_touches`` is what it found of
    the end point against every wall on the way."""
    if not (fx > 0 and fx < width and fy > 0 and fy < height):
        return False
    if not met:
        return not end_touches
    for c in range(count):
        j = walls[c]
        # a piece left out touches neither S–F nor F (outside its box)
        k0, k1 = (j, j + 1) if j >= 0 else chain_pieces(sx, sy, fx, fy, x1, y1, x2, y2, j)
        for k in range(k0, k1):
            touch, _, _ = contacts(sx, sy, fx, fy, x1[k], y1[k], x2[k], y2[k])
            if touch or point_touches(fx, fy, x1[k], y1[k], x2[k], y2[k]):
                return False
    return True


@inlined
def _leg_meets(
    sx: float,
    sy: float,
    ex: float,
    ey: float,
    x1: np.ndarray,
    y1: np.ndarray,
    x2: np.ndarray,
    y2: np.ndarray,
    j: int,
    best: float,
    first: int,
    first_collinear: bool,
    end_touches: bool,
) -> tuple[float, int, bool, bool]:
    """:func:`trace_unit`'s look at barrier j for the leg S–E: the first contact so far along
    the leg (``best``, at barrier ``first``, collinear or not), and whether a barrier holds E."""
    px, py, qx, qy = x1[j], y1[j], x2[j], y2[j]
    if boxes_apart(sx, sy, ex, ey, px, py, qx, qy):
        return best, first, first_collinear, end_touches  # E, in the leg's box, outside P–Q's
    end_touches |= point_touches(ex, ey, px, py, qx, qy)
    touch, where, collinear = _contacts_near(sx, sy, ex, ey, px, py, qx, qy)
    if touch and where < best:
        return where, j, collinear, end_touches
    return best, first, first_collinear, end_touches


@inlined
def trace_move(
    x: float,
    y: float,
    vx: float,
    vy: float,
    x1: np.ndarray,
    y1: np.ndarray,
    x2: np.ndarray,
    y2: np.ndarray,
    normal_x: np.ndarray,
    normal_y: np.ndarray,
    has_normal: np.ndarray,
    walls: np.ndarray,
    count: int,
    width: float,
    height: float,
    max_bounces: int,
    epsilon: float,
) -> tuple[float, float]:
    """Where one mover ends (``trace_moves`` / ``move_with_bounce``): the entries
    ``walls[:count]`` are the movement-blocking barriers it can meet, alone or in a chain's
    runs (:func:`decode`), in the original order, then the map border's four segments;
    ``normal_*`` and ``has_normal`` are their unit normals as the original computes them."""
    length = math.hypot(vx, vy)
    moving = length > 0
    ux = vx / length if moving else 0.0
    uy = vy / length if moving else 0.0
    return trace_unit(
        x, y, ux, uy, length, x1, y1, x2, y2, normal_x, normal_y, has_normal, walls, count,
        width, height, max_bounces, epsilon,
    )  # fmt: skip


@inlined
def trace_unit(
    x: float,
    y: float,
    ux: float,
    uy: float,
    length: float,
    x1: np.ndarray,
    y1: np.ndarray,
    x2: np.ndarray,
    y2: np.ndarray,
    normal_x: np.ndarray,
    normal_y: np.ndarray,
    has_normal: np.ndarray,
    walls: np.ndarray,
    count: int,
    width: float,
    height: float,
    max_bounces: int,
    epsilon: float,
) -> tuple[float, float]:
    """:func:`trace_move` given the move's length and unit direction: ``trace_along`` of
    the original, as a patrol moves (SK-G1: the direction ``(cos a, sin a)`` itself). The
    barriers are tried in the list's order, a chain's run skipped where its box is apart
    from the leg's (:func:`chain_apart`): the first contact along the leg, ties to the first
    barrier, is the original's; which barrier a leg that meets none names is never read."""
    remaining = length
    active = length > 0
    for leg in range(max_bounces + 1):
        if not active:
            break
        sx, sy, dirx, diry, rest = x, y, ux, uy, remaining
        ex = sx + rest * dirx
        ey = sy + rest * diry
        best = np.inf
        first = ZERO
        first_collinear = False
        end_touches = False  # the end E against the walls, for a leg that meets none
        for c in range(count):
            j = walls[c]
            if j >= 0:
                best, first, first_collinear, end_touches = _leg_meets(
                    sx, sy, ex, ey, x1, y1, x2, y2, j, best, first, first_collinear,
                    end_touches,
                )  # fmt: skip
                continue
            k0, k1 = chain_pieces(sx, sy, ex, ey, x1, y1, x2, y2, j)
            for k in range(k0, k1):
                best, first, first_collinear, end_touches = _leg_meets(
                    sx, sy, ex, ey, x1, y1, x2, y2, k, best, first, first_collinear,
                    end_touches,
                )  # fmt: skip
        hit = math.isfinite(best)
        if hit:
            # epsilon from the barrier's line (the original's ``short``)
            if first_collinear or not has_normal[first]:
                short = epsilon
            else:
                short = epsilon / max(abs(dirx * normal_x[first] + diry * normal_y[first]), GRAZING)
            travel = max(best * rest - short, 0.0)
            fx = sx + travel * dirx
            fy = sy + travel * diry
        else:
            travel = rest
            fx = ex
            fy = ey
        safe = _leg_is_clear(
            sx, sy, fx, fy, x1, y1, x2, y2, walls, count, width, height, hit, end_touches
        )
        if not safe:
            fx = sx
            fy = sy
        bounce = safe and hit and leg < max_bounces
        if bounce:
            bnx = normal_x[first]
            bny = normal_y[first]
            back = first_collinear or not has_normal[first]
            dot = dirx * bnx + diry * bny
            rx = -dirx if back else dirx - 2.0 * dot * bnx
            ry = -diry if back else diry - 2.0 * dot * bny
            ux = rx  # a unit vector to rounding: not normalized again (as the original)
            uy = ry
            remaining = rest - travel
        else:
            remaining = 0.0
        active = bounce
        x = fx
        y = fy
    return x, y


@compiled
def diamond_sector(dx: float, dy: float, sectors: int) -> int:
    """The sector of direction (dx, dy) among ``sectors`` of the diamond angle
    (:func:`vigile.sim.kernel.sectors.diamond`, the same formula); -1 for (0, 0)."""
    if dx == 0.0 and dy == 0.0:
        return -1
    if dy >= 0:
        angle = dy / (dx + dy) if dx >= 0 else 1.0 - dx / (-dx + dy)
    else:
        angle = 2.0 - dy / (-dx - dy) if dx < 0 else 3.0 + dx / (dx - dy)
    return min(sectors - 1, max(0, int(angle * sectors / 4.0)))


@compiled
def in_polygon(px: float, py: float, xs: np.ndarray, ys: np.ndarray) -> bool:
    """``point_in_polygon`` for one point: even-odd, the boundary inside."""
    n = xs.shape[0]
    odd = False
    for k in range(n):
        xi, yi = xs[k], ys[k]
        xj, yj = xs[(k + 1) % n], ys[(k + 1) % n]
        side = _orient(xi, yi, xj, yj, px, py)
        if side == 0 and min(xi, xj) <= px <= max(xi, xj) and min(yi, yj) <= py <= max(yi, yj):
            return True
        if (yi <= py < yj and side > 0) or (yj <= py < yi and side < 0):
            odd = not odd
    return odd


@compiled
def region_of(px: float, py: float, starts: np.ndarray, xs: np.ndarray, ys: np.ndarray) -> int:
    """Index of the last polygon (``starts``: CSR offsets into ``xs``, ``ys``) holding the
    point, -1 where none (``region_at``)."""
    found = -1
    for r in range(starts.shape[0] - 1):
        a, b = starts[r], starts[r + 1]
        if in_polygon(px, py, xs[a:b], ys[a:b]):
            found = r
    return found


@compiled
def _cell_index(value: float, cell: float, count: int) -> int:
    return min(count - 1, max(0, math.floor(value / cell)))


@compiled
def gather(
    ax: float,
    ay: float,
    bx: float,
    by: float,
    cell: float,
    columns: int,
    rows: int,
    start: np.ndarray,
    members: np.ndarray,
    stamp: np.ndarray,
    out: np.ndarray,
) -> int:
    """The walls of the grid cells (:func:`vigile.sim.kernel.grid.cell_walls`) that the segment
    A–B passes through, each once, into ``out``; how many. Row by row, the columns the segment
    spans in that row's band (widened by ``pad``), themselves widened by ``slack``: a point X
    of the segment lies in its row's band, so its column is among them (the ends ``xa``,
    ``xb`` rounded by far less than the slack), and a wall that touches X is listed by X's
    cell (a cell lists every wall whose box, widened by a tenth of a cell, meets it; so on a
    cell's edge, by both). ``stamp[0]`` counts queries, ``stamp[1:]`` marks the walls already
    taken by this one. The cells list walls alone, no chain: the walls gathered are tried one
    by one, and a code would only be read back into its pieces here."""
    stamp[0] += 1
    mark = stamp[0]
    count = 0
    pad = cell * 0.1
    slack = cell * 0.01
    low_y = min(ay, by)
    high_y = max(ay, by)
    r0 = _cell_index(low_y - pad, cell, rows)
    r1 = _cell_index(high_y + pad, cell, rows)
    for r in range(r0, r1 + 1):
        band_low = max(low_y, r * cell - pad)
        band_high = min(high_y, (r + 1) * cell + pad)
        if ay == by:
            xa, xb = ax, bx
        else:
            ta = min(max((band_low - ay) / (by - ay), 0.0), 1.0)
            tb = min(max((band_high - ay) / (by - ay), 0.0), 1.0)
            xa = ax + ta * (bx - ax)
            xb = ax + tb * (bx - ax)
        c0 = _cell_index(min(xa, xb) - slack, cell, columns)
        c1 = _cell_index(max(xa, xb) + slack, cell, columns)
        for c in range(c0, c1 + 1):
            k = c * rows + r
            for m in range(start[k], start[k + 1]):
                j = members[m]
                if stamp[j + 1] != mark:
                    stamp[j + 1] = mark
                    out[count] = j
                    count += 1
    return count
