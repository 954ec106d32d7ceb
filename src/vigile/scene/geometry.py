"""Plane geometry of a scene: barriers, sight lines, lit zones, surfaces and bouncing moves.

Every function is vectorised with numpy, so that the turn engine (one query at a time), the
risk maps and the compiled kernel's tables (thousands of points as arrays) call the same code.
Work is done in blocks of about ``2**16`` point-barrier pairs, so memory stays small whatever
the number of points.
Distances are in the scene's unit (centimetres for the skirmish game). Nothing here knows a
game's rules: which kind of barrier blocks sight, counts for noise or stops a walker is passed in
(:class:`KindRule`), and so are radii, map sizes and the number of bounces.

Conventions
-----------
Barrier
    A closed segment P–Q: its two endpoints belong to it. A zero-length barrier is a point.
Between (:func:`crossings`, :func:`line_of_sight`)
    A barrier lies *between* A and B when it shares at least one point with the *open* segment
    A–B (A and B themselves excluded). So, per barrier:

    * crossing it counts once, and so does passing exactly through one of its endpoints;
    * barriers are counted, not segments: where A–B meets several segments at one point (the
      corner of a room, the joint of a wall drawn as two pieces), that point counts once
      (SK-N5 counts "cloisons, portes ou murs", and one wall drawn in two pieces is one wall);
    * running along a barrier (collinear overlap) counts once: walls have thickness, so a
      sight line or a sound that runs lengthwise through one is stopped by it; the segments
      it meets within that run count with it, once;
    * a barrier touched only at A or at B does not count: a point lying exactly on a closed
      door's or a shoji's line (a listener in the doorway) is behind neither side of it [R];
    * a zero-length query (A = B) meets nothing.

    Hence a sight line grazing the corner where two walls meet is blocked (it touches them).
    The relation is symmetric: A→B and B→A give the same count.
Inside a polygon (:func:`point_in_polygon`)
    Even-odd rule; a point on the boundary (an edge or a vertex) counts as inside.
Lit zone (:func:`within`, :func:`lit_by`)
    Distance <= radius: a point exactly at the radius is inside (SK-V5 "at 20 cm" counts);
    :func:`lit_by` also needs a line of sight from the light (SK-V5: the light must reach).
Moves (:func:`move_with_bounce`, :func:`trace_moves`, :func:`trace_along`)
    Each mover goes from (x, y) along (dx, dy), for its full length (or, with
    :func:`trace_along`, along a given unit direction for a given length: a patrol's). A leg
    that meets a movement-blocking barrier or the map border (the rectangle 0..width x
    0..height) reflects (angle in = angle out) for the rest of the length, at most
    ``max_bounces`` times; the next hit stops it ``epsilon`` short of the barrier, back along
    its path. See :func:`trace_moves`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = [
    "EPSILON",
    "GRAZING",
    "Barriers",
    "KindRule",
    "Moves",
    "Region",
    "Segment",
    "crossings",
    "line_of_sight",
    "lit_by",
    "move_with_bounce",
    "on_barrier",
    "point_in_polygon",
    "region_at",
    "scatter_direction",
    "surface_at",
    "trace_along",
    "trace_moves",
    "within",
]

FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]
IntArray = NDArray[np.int64]

EPSILON: Final = 1e-6
"""How far short of a barrier's line a mover stops or turns, by default: a game's patrol passes
its ruleset's margin instead (SK-G1 [R] ``turn.patrol_margin_*``)."""

GRAZING: Final = 1e-12
"""The least |cos| of a leg's angle to a barrier's normal that the stop is divided by: a leg
running closer to parallel stops where it began."""

_BLOCK: Final = 1 << 16
"""Point-barrier pairs handled at once (a few MiB per temporary array)."""


# --------------------------------------------------------------------------- value objects


@dataclass(frozen=True)
class Segment:
    """One straight piece of wall, door, partition, window... as drawn in a scenario."""

    x1: float
    """First endpoint, x."""
    y1: float
    """First endpoint, y."""
    x2: float
    """Second endpoint, x."""
    y2: float
    """Second endpoint, y."""
    kind: str
    """What it is ("wall", "door", "partition", "window"...); its effects come from a KindRule."""

    def __post_init__(self) -> None:
        for name in ("x1", "y1", "x2", "y2"):
            value = getattr(self, name)
            if not math.isfinite(value):
                raise ValueError(f"segment {name} must be a finite number, got {value!r}")


@dataclass(frozen=True)
class KindRule:
    """What a kind of barrier does, as the ruleset (or the state of a door) says.

    E.g. a wall or a closed door: ``KindRule(True, True, True)``; an open door:
    ``KindRule(False, False, False)``; a window: whatever the ruleset decides.
    """

    blocks_sight: bool
    """It stops a line of sight (SK-V6)."""
    counts_for_noise: bool
    """It adds to a noise difficulty when between listener and source (SK-N5)."""
    blocks_movement: bool
    """A walker cannot pass it and bounces off it (SK-G1)."""


@dataclass(frozen=True, eq=False)
class Barriers:
    """Many segments as read-only arrays, with the effect of each (one entry per segment).

    Build it with :meth:`from_segments`; change a door's state with :meth:`with_rule`.
    """

    x1: FloatArray
    """First endpoints, x, shape (m,)."""
    y1: FloatArray
    """First endpoints, y."""
    x2: FloatArray
    """Second endpoints, x."""
    y2: FloatArray
    """Second endpoints, y."""
    kind_code: IntArray
    """Index of each barrier's kind in :attr:`kinds`."""
    kinds: tuple[str, ...]
    """Kind names, in the order of the rules they were built with."""
    blocks_sight: BoolArray
    """Mask of the barriers that stop sight."""
    counts_for_noise: BoolArray
    """Mask of the barriers that count for noise."""
    blocks_movement: BoolArray
    """Mask of the barriers that stop walkers."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "kinds", tuple(self.kinds))
        size = np.shape(self.x1)
        for name, dtype in (
            ("x1", np.float64),
            ("y1", np.float64),
            ("x2", np.float64),
            ("y2", np.float64),
            ("kind_code", np.int64),
            ("blocks_sight", np.bool_),
            ("counts_for_noise", np.bool_),
            ("blocks_movement", np.bool_),
        ):
            array = np.array(getattr(self, name), dtype=dtype)
            if array.ndim != 1 or array.shape != size:
                raise ValueError(f"barrier field {name} must have shape {size}, got {array.shape}")
            array.setflags(write=False)
            object.__setattr__(self, name, array)
        coords = np.stack([self.x1, self.y1, self.x2, self.y2])
        if not np.all(np.isfinite(coords)):
            raise ValueError("barrier coordinates must be finite numbers")
        if np.any((self.kind_code < 0) | (self.kind_code >= len(self.kinds))):
            raise ValueError("barrier kind codes must index the kinds tuple")

    @classmethod
    def from_segments(cls, segments: Sequence[Segment], rules: Mapping[str, KindRule]) -> Barriers:
        """Arrays for ``segments``, each taking the effects that ``rules`` gives its kind."""
        kinds = tuple(rules)
        codes = {kind: code for code, kind in enumerate(kinds)}
        unknown = sorted({s.kind for s in segments} - set(codes))
        if unknown:
            raise ValueError(f"no rule for barrier kind(s) {unknown}; known kinds: {list(kinds)}")
        effects = [rules[s.kind] for s in segments]
        return cls(
            x1=np.array([s.x1 for s in segments], dtype=np.float64),
            y1=np.array([s.y1 for s in segments], dtype=np.float64),
            x2=np.array([s.x2 for s in segments], dtype=np.float64),
            y2=np.array([s.y2 for s in segments], dtype=np.float64),
            kind_code=np.array([codes[s.kind] for s in segments], dtype=np.int64),
            kinds=kinds,
            blocks_sight=np.array([e.blocks_sight for e in effects], dtype=np.bool_),
            counts_for_noise=np.array([e.counts_for_noise for e in effects], dtype=np.bool_),
            blocks_movement=np.array([e.blocks_movement for e in effects], dtype=np.bool_),
        )

    def __len__(self) -> int:
        return int(self.x1.shape[0])

    def of_kind(self, kind: str) -> BoolArray:
        """Mask of the barriers of one kind (all False for a kind not in :attr:`kinds`)."""
        if kind not in self.kinds:
            return np.zeros(len(self), dtype=np.bool_)
        result: BoolArray = self.kind_code == self.kinds.index(kind)
        return result

    def with_rule(self, selected: ArrayLike, rule: KindRule) -> Barriers:
        """A copy in which the ``selected`` barriers (a mask or indices) follow ``rule``.

        For a state that changes in play, e.g. a door opened:
        ``barriers.with_rule([3], KindRule(False, False, False))``.
        """
        picked = np.asarray(selected)
        chosen = np.zeros(len(self), dtype=np.bool_)
        chosen[picked if picked.dtype == np.bool_ else picked.astype(np.intp)] = True
        return Barriers(
            x1=self.x1,
            y1=self.y1,
            x2=self.x2,
            y2=self.y2,
            kind_code=self.kind_code,
            kinds=self.kinds,
            blocks_sight=np.where(chosen, rule.blocks_sight, self.blocks_sight),
            counts_for_noise=np.where(chosen, rule.counts_for_noise, self.counts_for_noise),
            blocks_movement=np.where(chosen, rule.blocks_movement, self.blocks_movement),
        )

    def segment(self, index: int) -> Segment:
        """The barrier at ``index`` as a :class:`Segment`."""
        return Segment(
            float(self.x1[index]),
            float(self.y1[index]),
            float(self.x2[index]),
            float(self.y2[index]),
            self.kinds[int(self.kind_code[index])],
        )


@dataclass(frozen=True)
class Region:
    """A polygon of one kind: a surface (floor, water, grass, soft-ground, tile, stone) or cover."""

    kind: str
    """The surface or cover kind."""
    points: tuple[tuple[float, float], ...]
    """Vertices in order (at least 3); the polygon closes itself, last vertex to first."""

    def __post_init__(self) -> None:
        points = tuple((float(x), float(y)) for x, y in self.points)
        if len(points) < 3:
            raise ValueError(f"a {self.kind!r} region needs at least 3 vertices, got {len(points)}")
        if not all(math.isfinite(v) for point in points for v in point):
            raise ValueError(f"a {self.kind!r} region has a vertex that is not a finite number")
        object.__setattr__(self, "points", points)

    @property
    def vertices(self) -> FloatArray:
        """The vertices as an array of shape (k, 2)."""
        return np.array(self.points, dtype=np.float64)


@dataclass(frozen=True, eq=False)
class Moves:
    """Where movers went: end points, and the path bounce by bounce (see :func:`trace_moves`)."""

    x: FloatArray
    """End x, the broadcast shape S of the inputs."""
    y: FloatArray
    """End y."""
    path_x: FloatArray
    """Waypoints x, shape S + (max_bounces + 2,): start, then the end of each leg; once a mover
    is done its last point repeats."""
    path_y: FloatArray
    """Waypoints y."""
    bounces: IntArray
    """Reflections made, 0..max_bounces."""
    stopped: BoolArray
    """True when the mover was stopped short of a barrier instead of going its full length."""


# --------------------------------------------------------------------------- array helpers


def _flat(*values: ArrayLike) -> tuple[tuple[int, ...], list[FloatArray]]:
    """Broadcast the inputs together; return the shape and each as a flat float array.

    Plain numbers (the turn engine's one point at a time) skip numpy's broadcasting, which
    cost the engine as much as the geometry did: the same shape ``()``, one-element arrays."""
    numbers: list[float] = []
    for v in values:
        if not isinstance(v, float | int):
            break
        numbers.append(float(v))
    else:
        if not all(math.isfinite(v) for v in numbers):
            raise ValueError("coordinates must be finite numbers")
        return (), [np.array([v]) for v in numbers]
    arrays = [np.asarray(v, dtype=np.float64) for v in values]
    broadcast = np.broadcast_arrays(*arrays)
    shape = broadcast[0].shape
    flat = [np.ascontiguousarray(a).reshape(-1) for a in broadcast]
    for a in flat:
        if not np.all(np.isfinite(a)):
            raise ValueError("coordinates must be finite numbers")
    return shape, flat


def _blocks(rows: int, columns: int) -> Iterator[slice]:
    """Row slices of a (rows, columns) problem, about ``_BLOCK`` pairs each."""
    step = max(1, _BLOCK // max(1, columns))
    for start in range(0, rows, step):
        yield slice(start, min(rows, start + step))


def _orient(
    ax: FloatArray, ay: FloatArray, bx: FloatArray, by: FloatArray, px: FloatArray, py: FloatArray
) -> FloatArray:
    """Twice the signed area of (A, B, P): > 0 when P is left of A→B, 0 when collinear."""
    result: FloatArray = (bx - ax) * (py - ay) - (by - ay) * (px - ax)
    return result


Walls = tuple[FloatArray, ...]
"""The selected barriers' x1, y1, x2, y2 (:func:`_select`)."""


def _per_segment(
    barriers: Barriers,
    mask: ArrayLike,
    ends: tuple[ArrayLike, ArrayLike, ArrayLike, ArrayLike],
    none: np.generic,
    answer: Callable[[FloatArray, FloatArray, FloatArray, FloatArray, Walls], NDArray[Any]],
) -> NDArray[Any]:
    """``answer`` for each query segment A–B (``ends``: ax, ay, bx, by, broadcast together)
    against the masked barriers, in row blocks of about ``_BLOCK`` pairs; ``none`` where no
    barrier is selected. The shape is the broadcast shape."""
    shape, (x0, y0, x1, y1) = _flat(*ends)
    walls = _select(barriers, mask)
    result = np.full(x0.shape[0], none)
    if walls[0].size:
        for rows in _blocks(x0.shape[0], walls[0].size):
            result[rows] = answer(x0[rows], y0[rows], x1[rows], y1[rows], walls)
    return result.reshape(shape)


def _select(barriers: Barriers, mask: ArrayLike) -> Walls:
    chosen = np.asarray(mask, dtype=np.bool_)
    if chosen.shape != (len(barriers),):
        raise ValueError(f"mask must have shape ({len(barriers)},), got {chosen.shape}")
    return barriers.x1[chosen], barriers.y1[chosen], barriers.x2[chosen], barriers.y2[chosen]


def _ordered(
    ax: FloatArray, ay: FloatArray, bx: FloatArray, by: FloatArray
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray, BoolArray]:
    """A–B with its lower end (by x, then y) first, and whether that swapped them."""
    swap: BoolArray = (ax > bx) | ((ax == bx) & (ay > by))
    return (
        np.where(swap, bx, ax),
        np.where(swap, by, ay),
        np.where(swap, ax, bx),
        np.where(swap, ay, by),
        swap,
    )


def _signs(
    ax: FloatArray,
    ay: FloatArray,
    bx: FloatArray,
    by: FloatArray,
    walls: tuple[FloatArray, ...],
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray, FloatArray, FloatArray]:
    """Orientation signs of every query segment A–B (k,) against every barrier P–Q (m,).

    Returns s1, s2 = sides of P and Q from the line A–B, s3, s4 = sides of A and B from P→Q,
    each (k, m), and the raw o3, o4 (where A→B meets the line P–Q: t = o3 / (o3 - o4)).
    s1 and s2 are taken along A–B from its lower end, so they come out of the same float
    operations whichever way A–B is given (only their product and zeros are used). Every
    predicate in this module is built from these numbers, so they agree with each other exactly.
    """
    px, py, qx, qy = (w[None, :] for w in walls)
    lx, ly, hx, hy, _ = _ordered(ax, ay, bx, by)
    low_x, low_y, high_x, high_y = lx[:, None], ly[:, None], hx[:, None], hy[:, None]
    o3 = _orient(px, py, qx, qy, ax[:, None], ay[:, None])
    o4 = _orient(px, py, qx, qy, bx[:, None], by[:, None])
    s1 = np.sign(_orient(low_x, low_y, high_x, high_y, px, py))
    s2 = np.sign(_orient(low_x, low_y, high_x, high_y, qx, qy))
    return s1, s2, np.sign(o3), np.sign(o4), o3, o4


def _projections(
    ax: FloatArray,
    ay: FloatArray,
    bx: FloatArray,
    by: FloatArray,
    walls: tuple[FloatArray, ...],
) -> tuple[FloatArray, FloatArray, FloatArray, BoolArray]:
    """For collinear pairs (flat arrays): where P–Q's nearer and farther ends project on A–B
    from its lower end, in units where the other end is at |AB|^2; that |AB|^2; the swap."""
    lx, ly, hx, hy, swap = _ordered(ax, ay, bx, by)
    px, py, qx, qy = walls
    ux = hx - lx
    uy = hy - ly
    tp = (px - lx) * ux + (py - ly) * uy
    tq = (qx - lx) * ux + (qy - ly) * uy
    length2: FloatArray = ux * ux + uy * uy
    return np.minimum(tp, tq), np.maximum(tp, tq), length2, swap


def _meets_open(
    ax: FloatArray, ay: FloatArray, bx: FloatArray, by: FloatArray, walls: tuple[FloatArray, ...]
) -> BoolArray:
    """(k, m): barrier j shares a point with the open segment A_i–B_i (module conventions)."""
    s1, s2, s3, s4, _, _ = _signs(ax, ay, bx, by, walls)
    meets: BoolArray = (s3 * s4 < 0) & (s1 * s2 <= 0)
    rows, cols = np.nonzero((s1 == 0) & (s2 == 0) & (s3 == 0) & (s4 == 0))
    if rows.size:
        pair_walls = tuple(w[cols] for w in walls)
        low, high, length2, _ = _projections(ax[rows], ay[rows], bx[rows], by[rows], pair_walls)
        meets[rows, cols] = (length2 > 0) & (low < length2) & (high > 0)
    return meets


def _distinct_points(
    ax: FloatArray,
    ay: FloatArray,
    bx: FloatArray,
    by: FloatArray,
    walls: tuple[FloatArray, ...],
    meets: BoolArray,
) -> IntArray:
    """For each query A_i–B_i, the number of distinct places along it where it meets the
    barriers of ``meets`` (k, m): meetings at the same point count once, and a lengthwise run
    counts once with every meeting inside it (module conventions)."""
    counts: IntArray = meets.sum(axis=1, dtype=np.int64)
    rows = np.nonzero(counts > 1)[0]
    if not rows.size:
        return counts
    sub = tuple(w for w in walls)
    s1, s2, s3, s4, o3, o4 = _signs(ax[rows], ay[rows], bx[rows], by[rows], sub)
    collinear = (s1 == 0) & (s2 == 0) & (s3 == 0) & (s4 == 0)
    hit = meets[rows]
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(hit & ~collinear, o3 / np.where(o3 != o4, o3 - o4, 1.0), np.nan)
    ordered = np.sort(t, axis=1)
    finite = np.isfinite(ordered)
    fresh = finite.copy()
    fresh[:, 1:] &= np.diff(ordered, axis=1) > _SAME_POINT
    counts[rows] = fresh.sum(axis=1) + (hit & collinear).sum(axis=1)
    for r in np.nonzero((hit & collinear).any(axis=1))[0]:
        counts[rows[r]] = _with_runs(
            ax[rows[r]], ay[rows[r]], bx[rows[r]], by[rows[r]], walls, hit[r], collinear[r], t[r]
        )
    return counts


_SAME_POINT: Final = 1e-9
"""Two meetings closer than this along a query (as a fraction of its length) are one point."""


def _with_runs(
    ax: float,
    ay: float,
    bx: float,
    by: float,
    walls: tuple[FloatArray, ...],
    hit: BoolArray,
    collinear: BoolArray,
    t: FloatArray,
) -> int:
    """The distinct places of one query that runs along some barriers (rare: done one by one).
    Each run is an interval of A→B; overlapping or touching runs merge, and point meetings
    inside a run belong to it."""
    length2 = (bx - ax) ** 2 + (by - ay) ** 2
    spans: list[tuple[float, float]] = []
    for j in np.nonzero(hit & collinear)[0]:
        ends = [
            ((walls[0][j] - ax) * (bx - ax) + (walls[1][j] - ay) * (by - ay)) / length2,
            ((walls[2][j] - ax) * (bx - ax) + (walls[3][j] - ay) * (by - ay)) / length2,
        ]
        spans.append((max(min(ends), 0.0), min(max(ends), 1.0)))
    spans.sort()
    merged: list[list[float]] = []
    for low, high in spans:
        if merged and low <= merged[-1][1] + _SAME_POINT:
            merged[-1][1] = max(merged[-1][1], high)
        else:
            merged.append([low, high])
    points = sorted(float(v) for v in t[hit & ~collinear])
    places = len(merged)
    last = -np.inf
    for v in points:
        inside = any(low - _SAME_POINT <= v <= high + _SAME_POINT for low, high in merged)
        if not inside and v - last > _SAME_POINT:
            places += 1
        last = v
    return places


def _contacts(
    ax: FloatArray, ay: FloatArray, bx: FloatArray, by: FloatArray, walls: tuple[FloatArray, ...]
) -> tuple[BoolArray, FloatArray, BoolArray]:
    """(k, m) each: barrier j touches the closed segment A_i–B_i; where along A→B it first
    does (0..1); whether the pair is collinear. Touching includes A, B and collinear overlap,
    so whatever :func:`_meets_open` reports is also a contact."""
    s1, s2, s3, s4, o3, o4 = _signs(ax, ay, bx, by, walls)
    collinear: BoolArray = (s1 == 0) & (s2 == 0) & (s3 == 0) & (s4 == 0)
    touch: BoolArray = (s3 * s4 <= 0) & (s1 * s2 <= 0) & ~collinear
    denominator = o3 - o4
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        where: FloatArray = np.clip(o3 / np.where(denominator != 0, denominator, 1.0), 0.0, 1.0)
    where[denominator == 0] = 0.0
    rows, cols = np.nonzero(collinear)
    if rows.size:
        px, py, qx, qy = pair_walls = tuple(w[cols] for w in walls)
        a_x, a_y = ax[rows], ay[rows]
        low, high, length2, swap = _projections(a_x, a_y, bx[rows], by[rows], pair_walls)
        point = length2 == 0
        in_box = (
            (np.minimum(px, qx) <= a_x)
            & (a_x <= np.maximum(px, qx))
            & (np.minimum(py, qy) <= a_y)
            & (a_y <= np.maximum(py, qy))
        )
        touch[rows, cols] = np.where(point, in_box, (low <= length2) & (high >= 0))
        safe = np.where(point, 1.0, length2)
        first = np.where(swap, 1.0 - high / safe, low / safe)
        where[rows, cols] = np.where(point, 0.0, np.clip(first, 0.0, 1.0))
    return touch, where, collinear


# --------------------------------------------------------------------------- barriers


def crossings(
    barriers: Barriers,
    ax: ArrayLike,
    ay: ArrayLike,
    bx: ArrayLike,
    by: ArrayLike,
    mask: ArrayLike,
) -> IntArray:
    """How many selected barriers lie between A and B (SK-N5 with ``barriers.counts_for_noise``).

    A and B broadcast together (e.g. one listener against n sources); the result has the
    broadcast shape. ``mask`` (shape (m,)) selects the barriers that count. "Between" follows
    the module conventions: a barrier counts once when it shares a point with the open segment
    A–B, be it a crossing, its endpoint or a lengthwise run; touching it only at A or B does not
    count; a line through a vertex where k barriers meet counts once (barriers, not
    segments, are counted).
    """

    def places(
        ax: FloatArray, ay: FloatArray, bx: FloatArray, by: FloatArray, walls: Walls
    ) -> IntArray:
        return _distinct_points(ax, ay, bx, by, walls, _meets_open(ax, ay, bx, by, walls))

    counts: IntArray = _per_segment(barriers, mask, (ax, ay, bx, by), np.int64(0), places)
    return counts


def line_of_sight(
    barriers: Barriers, ax: ArrayLike, ay: ArrayLike, bx: ArrayLike, by: ArrayLike
) -> BoolArray:
    """Whether A sees B: no sight-blocking barrier lies between them (SK-V6).

    Same conventions as :func:`crossings`: a sight line grazing a wall's end, or the corner
    where two walls meet, or running along a wall, is blocked; an observer or target standing
    exactly on a barrier's line is not hidden by that barrier.
    """

    def clear(
        ax: FloatArray, ay: FloatArray, bx: FloatArray, by: FloatArray, walls: Walls
    ) -> BoolArray:
        # crossings(...) == 0 is no barrier meeting the open segment: the meetings need not be
        # told apart into distinct places (_distinct_points) to know there are none
        met: BoolArray = np.logical_or.reduce(_meets_open(ax, ay, bx, by, walls), axis=1)
        return ~met

    seen: BoolArray = _per_segment(
        barriers, barriers.blocks_sight, (ax, ay, bx, by), np.bool_(True), clear
    )
    return seen


def on_barrier(barriers: Barriers, px: ArrayLike, py: ArrayLike, mask: ArrayLike) -> BoolArray:
    """Whether each point lies on a selected barrier (e.g. to reject a guard placed on a wall)."""

    def touched(
        ax: FloatArray, ay: FloatArray, bx: FloatArray, by: FloatArray, walls: Walls
    ) -> BoolArray:
        touch, _, _ = _contacts(ax, ay, bx, by, walls)
        found: BoolArray = np.logical_or.reduce(touch, axis=1)
        return found

    on: BoolArray = _per_segment(barriers, mask, (px, py, px, py), np.bool_(False), touched)
    return on


# --------------------------------------------------------------------------- zones and surfaces


def within(
    px: ArrayLike, py: ArrayLike, cx: ArrayLike, cy: ArrayLike, radius: ArrayLike
) -> BoolArray:
    """Whether each point is within ``radius`` of any of the centres (lit zones, SK-V5).

    Points (px, py) broadcast together and give the result's shape; centres (cx, cy) and
    ``radius`` broadcast to one flat list of L lights. Distance <= radius counts, so a target
    exactly 20 cm from a lantern of radius 20 is lit. With no lights, nothing is.
    """
    shape, (x, y) = _flat(px, py)
    _, (lx, ly, lr) = _flat(cx, cy, radius)
    if np.any(lr < 0):
        raise ValueError("a radius cannot be negative")
    lit = np.zeros(x.shape[0], dtype=np.bool_)
    if lx.size:
        reach = lr * lr
        for rows in _blocks(x.shape[0], lx.size):
            ddx = x[rows, None] - lx[None, :]
            ddy = y[rows, None] - ly[None, :]
            lit[rows] = (ddx * ddx + ddy * ddy <= reach[None, :]).any(axis=1)
    return lit.reshape(shape)


def lit_by(
    barriers: Barriers,
    px: ArrayLike,
    py: ArrayLike,
    cx: ArrayLike,
    cy: ArrayLike,
    radius: ArrayLike,
) -> BoolArray:
    """Whether each point is lit: within ``radius`` of a light (as :func:`within`) that it
    sees, no sight-blocking barrier between them (SK-V5: the light must reach the target; a
    lantern lights nothing behind a solid wall). A light standing on a barrier's line (a lit
    door or window) lights both sides of it."""
    shape, (x, y) = _flat(px, py)
    _, (lx, ly, lr) = _flat(cx, cy, radius)
    if np.any(lr < 0):
        raise ValueError("a radius cannot be negative")
    lit = np.zeros(x.shape[0], dtype=np.bool_)
    for k in range(lx.size):
        near = np.nonzero(~lit & ((x - lx[k]) ** 2 + (y - ly[k]) ** 2 <= lr[k] * lr[k]))[0]
        if near.size and len(barriers):
            near = near[line_of_sight(barriers, lx[k], ly[k], x[near], y[near])]
        lit[near] = True
    return lit.reshape(shape)


def point_in_polygon(px: ArrayLike, py: ArrayLike, polygon: ArrayLike) -> BoolArray:
    """Whether each point is inside ``polygon`` (shape (k, 2), k >= 3, closed implicitly).

    Even-odd rule (a horizontal ray to the right; an edge counts for the half-open range
    min(y) <= py < max(y), so a ray through a vertex is counted once). A point on the boundary,
    an edge or a vertex, counts as inside.
    """
    shape, (x, y) = _flat(px, py)
    vertices = np.asarray(polygon, dtype=np.float64)
    if vertices.ndim != 2 or vertices.shape[1] != 2 or vertices.shape[0] < 3:
        raise ValueError(f"a polygon needs shape (k, 2) with k >= 3, got {vertices.shape}")
    if not np.all(np.isfinite(vertices)):
        raise ValueError("polygon vertices must be finite numbers")
    xi, yi = vertices[None, :, 0], vertices[None, :, 1]
    xj, yj = np.roll(xi, -1, axis=1), np.roll(yi, -1, axis=1)
    inside = np.zeros(x.shape[0], dtype=np.bool_)
    for rows in _blocks(x.shape[0], vertices.shape[0]):
        qx, qy = x[rows, None], y[rows, None]
        side = _orient(xi, yi, xj, yj, qx, qy)
        on_edge = (
            (side == 0)
            & (np.minimum(xi, xj) <= qx)
            & (qx <= np.maximum(xi, xj))
            & (np.minimum(yi, yj) <= qy)
            & (qy <= np.maximum(yi, yj))
        )
        upward = (yi <= qy) & (qy < yj) & (side > 0)
        downward = (yj <= qy) & (qy < yi) & (side < 0)
        odd = (upward | downward).sum(axis=1) % 2 == 1
        inside[rows] = odd | on_edge.any(axis=1)
    return inside.reshape(shape)


def region_at(px: ArrayLike, py: ArrayLike, regions: Sequence[Region]) -> IntArray:
    """Index of the region each point is in, the last listed winning; -1 where none."""
    shape, (x, y) = _flat(px, py)
    found = np.full(x.shape[0], -1, dtype=np.int64)
    for index, region in enumerate(regions):
        found[point_in_polygon(x, y, region.vertices)] = index
    return found.reshape(shape)


def surface_at(
    px: ArrayLike, py: ArrayLike, regions: Sequence[Region], default: str
) -> NDArray[np.str_]:
    """The kind of the region each point is on (last listed wins), ``default`` where none.

    E.g. the surface under a body that fell (SK-N2) with ``default="floor"``, or the cover a
    character is in with cover regions and ``default=""``.
    """
    names = np.array([region.kind for region in regions] + [default], dtype=np.str_)
    result: NDArray[np.str_] = names[region_at(px, py, regions)]
    return result


# --------------------------------------------------------------------------- movement


def scatter_direction(rng: np.random.Generator, n: int) -> tuple[FloatArray, FloatArray]:
    """``n`` unit vectors of uniformly random angle: the scatter die (SK-G1), from ``rng`` only."""
    if n < 0:
        raise ValueError(f"n must be >= 0, got {n}")
    angle = rng.uniform(0.0, 2.0 * math.pi, size=n)
    return np.cos(angle), np.sin(angle)


def trace_moves(
    barriers: Barriers,
    x: ArrayLike,
    y: ArrayLike,
    dx: ArrayLike,
    dy: ArrayLike,
    width: float,
    height: float,
    max_bounces: int = 1,
    *,
    epsilon: float = EPSILON,
) -> Moves:
    """Move each mover from (x, y) by (dx, dy), bouncing off walls and the map border (SK-G1).

    Inputs broadcast together (n movers, or any shape S). A mover walks its full length
    |(dx, dy)| unless stopped. When a leg would touch a barrier with ``blocks_movement`` or
    the map border, the mover turns ``epsilon`` before the contact point (back along its
    path) and goes on for the rest of its length in the mirrored direction (angle in = angle
    out, about the barrier's line). "Before" means ``epsilon`` from the barrier's line, not
    along the path: a leg meeting the line at an angle θ to its normal turns ``epsilon / cos θ``
    back along its path, so a mover ends no nearer than ``epsilon`` to the line of any barrier
    it met (SK-G1 [R]: a patrol never stands on a wall's line, where it would see and hear
    through the wall). A head-on hit into a barrier's end or a point turns ``epsilon`` back.
    Special hits:

    * moving along a barrier's line into its end, or onto a zero-length barrier: straight back;
    * two barriers hit at once (a corner): it reflects off the first listed (the map border
      comes after every barrier) and, going on, meets the other at once; with a second
      bounce allowed it comes straight back out of an inside corner.

    After ``max_bounces`` reflections, the next hit stops it ``epsilon`` short of the barrier
    (no closer than where that leg began). So no leg, and no end point, ever touches a
    movement-blocking barrier or the border: every leg is checked with the same predicate
    before it is taken, and a leg that fails the check (a float rounding case) is not taken.
    Starts must be strictly inside the map (else ValueError); a mover starting
    exactly on a movement-blocking barrier stays put (and is reported ``stopped``).
    The straight line from start to end may still cross a barrier the mover walked around.
    """
    shape, (x0, y0, vx, vy) = _flat(x, y, dx, dy)
    length = np.hypot(vx, vy)
    moving = length > 0
    ux = np.where(moving, vx / np.where(moving, length, 1.0), 0.0)
    uy = np.where(moving, vy / np.where(moving, length, 1.0), 0.0)
    return _trace(barriers, shape, (x0, y0, ux, uy, length), width, height, max_bounces, epsilon)


def trace_along(
    barriers: Barriers,
    x: ArrayLike,
    y: ArrayLike,
    ux: ArrayLike,
    uy: ArrayLike,
    length: ArrayLike,
    width: float,
    height: float,
    max_bounces: int = 1,
    *,
    epsilon: float = EPSILON,
) -> Moves:
    """:func:`trace_moves` of a move given as a unit direction (ux, uy) and a length, the
    direction taken as given: a patrol's ``(cos a, sin a)`` (SK-G1) is not divided again by
    the norm of ``length * (cos a, sin a)``, which differs from 1 by rounding only (and a
    compiled kernel would spend a tenth of a night raid on those roots and divisions)."""
    shape, (x0, y0, ux0, uy0, length0) = _flat(x, y, ux, uy, length)
    if not np.all(np.isfinite(length0) & (length0 >= 0)):
        raise ValueError("a move's length must be finite and >= 0")
    return _trace(barriers, shape, (x0, y0, ux0, uy0, length0), width, height, max_bounces, epsilon)


def _trace(
    barriers: Barriers,
    shape: tuple[int, ...],
    movers: tuple[FloatArray, FloatArray, FloatArray, FloatArray, FloatArray],
    width: float,
    height: float,
    max_bounces: int,
    epsilon: float,
) -> Moves:
    """:func:`trace_moves` of flat movers (x, y, unit direction, length)."""
    if not (math.isfinite(width) and math.isfinite(height) and width > 0 and height > 0):
        raise ValueError(f"map size must be positive, got {width} x {height}")
    if max_bounces < 0:
        raise ValueError(f"max_bounces must be >= 0, got {max_bounces}")
    if not (math.isfinite(epsilon) and epsilon > 0):
        raise ValueError(f"epsilon must be > 0, got {epsilon}")
    x0, y0, ux, uy, length = movers
    if np.any((x0 <= 0) | (x0 >= width) | (y0 <= 0) | (y0 >= height)):
        raise ValueError(f"movers must start strictly inside the map 0..{width} x 0..{height}")

    chosen = barriers.blocks_movement
    w, h = float(width), float(height)
    walls = (
        np.concatenate([barriers.x1[chosen], [0.0, w, w, 0.0]]),
        np.concatenate([barriers.y1[chosen], [0.0, 0.0, h, h]]),
        np.concatenate([barriers.x2[chosen], [w, w, 0.0, 0.0]]),
        np.concatenate([barriers.y2[chosen], [0.0, h, h, 0.0]]),
    )
    n = x0.shape[0]
    legs = max_bounces + 1
    path_x = np.empty((n, legs + 1), dtype=np.float64)
    path_y = np.empty((n, legs + 1), dtype=np.float64)
    bounces = np.zeros(n, dtype=np.int64)
    stopped = np.zeros(n, dtype=np.bool_)
    for rows in _blocks(n, walls[0].size):
        _trace_block(
            walls,
            (w, h),
            (x0[rows], y0[rows], ux[rows], uy[rows], length[rows]),
            max_bounces,
            epsilon,
            (path_x[rows], path_y[rows], bounces[rows], stopped[rows]),
        )
    return Moves(
        x=path_x[:, -1].reshape(shape),
        y=path_y[:, -1].reshape(shape),
        path_x=path_x.reshape((*shape, legs + 1)),
        path_y=path_y.reshape((*shape, legs + 1)),
        bounces=bounces.reshape(shape),
        stopped=stopped.reshape(shape),
    )


def _trace_block(
    walls: tuple[FloatArray, ...],
    size: tuple[float, float],
    movers: tuple[FloatArray, FloatArray, FloatArray, FloatArray, FloatArray],
    max_bounces: int,
    epsilon: float,
    out: tuple[FloatArray, FloatArray, IntArray, BoolArray],
) -> None:
    """Trace one block of movers (x, y, unit direction, length), writing into the ``out``
    views (path x, path y, bounces, stopped). ``walls`` are the movement-blocking barriers
    followed by the map border. A bounce's direction is the mirror of a unit direction about
    a unit normal: a unit vector to rounding, not normalized again."""
    width, height = size
    x, y, ux, uy, remaining = (a.copy() for a in movers)
    path_x, path_y, bounces, stopped = out
    moving = remaining > 0
    wx = walls[2] - walls[0]
    wy = walls[3] - walls[1]
    wall_length = np.hypot(wx, wy)
    has_normal = wall_length > 0
    nx = np.where(has_normal, -wy / np.where(has_normal, wall_length, 1.0), 0.0)
    ny = np.where(has_normal, wx / np.where(has_normal, wall_length, 1.0), 0.0)
    path_x[:, 0] = x
    path_y[:, 0] = y
    active = moving
    for leg in range(max_bounces + 1):
        idx = np.flatnonzero(active)
        if idx.size:
            sx, sy, dirx, diry, rest = x[idx], y[idx], ux[idx], uy[idx], remaining[idx]
            ex = sx + rest * dirx
            ey = sy + rest * diry
            touch, where, collinear = _contacts(sx, sy, ex, ey, walls)
            first_at = np.where(touch, where, np.inf)
            first = np.argmin(first_at, axis=1)
            at = first_at[np.arange(idx.size), first]
            hit = np.isfinite(at)
            bnx, bny = nx[first], ny[first]
            back = collinear[np.arange(idx.size), first] | ~has_normal[first]
            dot = dirx * bnx + diry * bny
            # epsilon from the barrier's line: epsilon / cos back along the path
            short = np.where(back, epsilon, epsilon / np.maximum(np.abs(dot), GRAZING))
            travel = np.where(hit, np.maximum(np.where(hit, at, 0.0) * rest - short, 0.0), rest)
            fx = np.where(hit, sx + travel * dirx, ex)
            fy = np.where(hit, sy + travel * diry, ey)
            safe = _leg_is_clear(sx, sy, fx, fy, walls, width, height)
            fx = np.where(safe, fx, sx)
            fy = np.where(safe, fy, sy)
            bounce = safe & hit & (leg < max_bounces)
            # Reflect about the barrier's line; head-on into an end or a point: straight back.
            rx = np.where(back, -dirx, dirx - 2.0 * dot * bnx)
            ry = np.where(back, -diry, diry - 2.0 * dot * bny)
            ux[idx] = np.where(bounce, rx, dirx)
            uy[idx] = np.where(bounce, ry, diry)
            remaining[idx] = np.where(bounce, rest - travel, 0.0)
            bounces[idx] += bounce
            stopped[idx] = ~safe | (hit & ~bounce)
            active[idx] = bounce
            x[idx] = fx
            y[idx] = fy
        path_x[:, leg + 1] = x
        path_y[:, leg + 1] = y


def _leg_is_clear(
    sx: FloatArray,
    sy: FloatArray,
    fx: FloatArray,
    fy: FloatArray,
    walls: tuple[FloatArray, ...],
    width: float,
    height: float,
) -> BoolArray:
    """Whether the leg S→F touches no wall (F included) and F is strictly inside the map."""
    along, _, _ = _contacts(sx, sy, fx, fy, walls)
    at_end, _, _ = _contacts(fx, fy, fx, fy, walls)
    inside = (fx > 0) & (fx < width) & (fy > 0) & (fy < height)
    result: BoolArray = inside & ~along.any(axis=1) & ~at_end.any(axis=1)
    return result


def move_with_bounce(
    barriers: Barriers,
    x: ArrayLike,
    y: ArrayLike,
    dx: ArrayLike,
    dy: ArrayLike,
    width: float,
    height: float,
    max_bounces: int = 1,
    *,
    epsilon: float = EPSILON,
) -> tuple[FloatArray, FloatArray]:
    """New positions after moving by (dx, dy) with bounces (SK-G1): :func:`trace_moves`' ends.

    A patrolling guard's turn: ``ux, uy = scatter_direction(rng, n)``, then a move by
    ``(10 * ux, 10 * uy)`` with one bounce at most ([R] SK-G1); a group draws one direction
    and moves all its members by it.
    """
    moves = trace_moves(barriers, x, y, dx, dy, width, height, max_bounces, epsilon=epsilon)
    return moves.x, moves.y
