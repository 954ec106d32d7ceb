"""Walls by map cell, for the compiled kernel: a uniform grid, so that the cost of a query stops
growing with the number of walls.

Two tables, each as CSR arrays (``start[c] .. start[c + 1]`` into ``walls``), the walls of a
cell in their original order:

* :func:`near_walls`: the walls a move of length L starting in the cell can meet (within L of
  the cell, with a margin of the cell's half diagonal): a move never goes farther than L from
  its start, bounces included, so the others cannot stop or turn it;
* :func:`cell_walls`: the walls whose bounding box meets the cell; a segment query gathers the
  walls of the cells it passes through (:func:`vigile.sim.kernel.geometry.gather`).

A map drawn in pieces (a VTT export, a plan cut at every post) lists the pieces of one straight
wall side by side: the kernel takes them as one *chain* (:func:`chains`). A list of walls
(:func:`entries`) names a run of a chain's pieces by one negative code, which carries the
index of the chain's bounding box (kept as one more segment, its corners) and the run's first
piece and count (:func:`code`). A query whose box is apart from the chain's skips the run
at once (:func:`vigile.sim.kernel.geometry.chain_apart`), so that a wall cut in twenty pieces
costs a query about what the whole wall costs; else it tries only the pieces it may meet
(:func:`vigile.sim.kernel.geometry.chain_span`). The lists a query tries whole are entries (a
patrol's near walls, every wall, a noise's sector); the cells of :func:`cell_walls` list walls
alone, gathered wall by wall.

Exact, not approximate: the kernel applies the exact predicates to the walls gathered, and a
wall left out is one that cannot meet the query (with margins). Pure numpy: nothing compiled.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

Floats = np.ndarray[tuple[int, ...], np.dtype[np.float64]]
Ints = np.ndarray[tuple[int, ...], np.dtype[np.int64]]
Bools = np.ndarray[tuple[int, ...], np.dtype[np.bool_]]

CODE_BITS = 21
"""Bits of each of a code's three numbers (:func:`code`): the box's index, the first piece,
the count; a board of more segments and chains than that takes no chains."""
CODE_MASK = (1 << CODE_BITS) - 1
SHORTEST_CHAIN = 4
"""The fewest pieces a chain holds: a shorter one costs a query about what its pieces cost."""
JOIN = 1e-9
"""How close (relative to the coordinates) a piece's start must be to the last one's end, and
its direction to the last one's, for the two to be pieces of one straight wall. A matter of
speed only: whatever the chains, the answers are the same."""

MOST_CELLS = 65_536
"""Most cells of a grid (a 256 x 256 board at most)."""


@dataclass(frozen=True)
class Grid:
    """A uniform grid over the map 0..width x 0..height, cells ``cell`` a side."""

    cell: float
    columns: int
    rows: int

    @classmethod
    def over(cls, width: float, height: float, cell: float) -> Grid:
        cell = max(cell, math.sqrt(width * height / MOST_CELLS), 1e-6)
        return cls(cell, max(1, math.ceil(width / cell)), max(1, math.ceil(height / cell)))

    def centres(self) -> tuple[Floats, Floats]:
        """Each cell's centre, cell ``i * rows + j`` for column i, row j."""
        cx = (np.arange(self.columns) + 0.5) * self.cell
        cy = (np.arange(self.rows) + 0.5) * self.cell
        px, py = np.meshgrid(cx, cy, indexing="ij")
        return px.ravel(), py.ravel()


class Bordered(NamedTuple):
    """A board's walls, then the map's four borders (bottom, right, top, left), with each one's
    unit normal (``has_normal``: false for a wall of no length, whose normal is 0): what a
    mover bounces off (:func:`vigile.sim.kernel.geometry.trace_unit`)."""

    x1: Floats
    y1: Floats
    x2: Floats
    y2: Floats
    normal_x: Floats
    normal_y: Floats
    has_normal: Bools


def bordered(
    x1: Floats, y1: Floats, x2: Floats, y2: Floats, width: float, height: float
) -> Bordered:
    """The walls (x1, y1) to (x2, y2) of a map ``width`` by ``height``, its borders after them
    (:class:`Bordered`)."""
    all_x1 = np.concatenate([x1, [0.0, width, width, 0.0]])
    all_y1 = np.concatenate([y1, [0.0, 0.0, height, height]])
    all_x2 = np.concatenate([x2, [width, width, 0.0, 0.0]])
    all_y2 = np.concatenate([y2, [0.0, height, height, 0.0]])
    wx, wy = all_x2 - all_x1, all_y2 - all_y1
    length = np.hypot(wx, wy)
    has_normal = length > 0
    normal_x = np.where(has_normal, -wy / np.where(has_normal, length, 1.0), 0.0)
    normal_y = np.where(has_normal, wx / np.where(has_normal, length, 1.0), 0.0)
    return Bordered(all_x1, all_y1, all_x2, all_y2, normal_x, normal_y, has_normal)


def _csr(members: list[list[int]]) -> tuple[Ints, Ints]:
    start = np.zeros(len(members) + 1, np.int64)
    start[1:] = np.cumsum([len(m) for m in members])
    flat = np.array([j for m in members for j in m], np.int64)
    return start, flat


def distance_to_segment(
    px: Floats, py: Floats, x1: float, y1: float, x2: float, y2: float
) -> Floats:
    dx, dy = x2 - x1, y2 - y1
    span = dx * dx + dy * dy
    t = np.clip(((px - x1) * dx + (py - y1) * dy) / span, 0.0, 1.0) if span else 0.0
    result: Floats = np.hypot(px - (x1 + t * dx), py - (y1 + t * dy))
    return result


def near_walls(
    grid: Grid, x1: Floats, y1: Floats, x2: Floats, y2: Floats, chosen: Ints, length: float
) -> tuple[Ints, Ints]:
    """For each cell, the walls of ``chosen`` (indices, in order) within ``length`` of it."""
    px, py = grid.centres()
    margin = length + grid.cell * 0.75 + 1e-3  # the half diagonal is cell / sqrt(2)
    members: list[list[int]] = [[] for _ in range(px.size)]
    for j in chosen:
        near = distance_to_segment(px, py, x1[j], y1[j], x2[j], y2[j]) <= margin
        for c in np.nonzero(near)[0]:
            members[c].append(int(j))
    return _csr(members)


def cell_walls(grid: Grid, x1: Floats, y1: Floats, x2: Floats, y2: Floats) -> tuple[Ints, Ints]:
    """For each cell, the walls whose bounding box, widened by a tenth of a cell, meets it."""
    members: list[list[int]] = [[] for _ in range(grid.columns * grid.rows)]
    pad = grid.cell * 0.1
    for j in range(x1.size):
        i0 = _index(min(x1[j], x2[j]) - pad, grid.cell, grid.columns)
        i1 = _index(max(x1[j], x2[j]) + pad, grid.cell, grid.columns)
        j0 = _index(min(y1[j], y2[j]) - pad, grid.cell, grid.rows)
        j1 = _index(max(y1[j], y2[j]) + pad, grid.cell, grid.rows)
        for i in range(i0, i1 + 1):
            for k in range(j0, j1 + 1):
                members[i * grid.rows + k].append(j)
    return _csr(members)


def _index(value: float, cell: float, count: int) -> int:
    return min(count - 1, max(0, math.floor(value / cell)))


def straight_joins(x1: Floats, y1: Floats, x2: Floats, y2: Floats, walls: int) -> Bools:
    """``joins[j]``: wall j goes on from wall j - 1 in a straight line (it starts where j - 1
    ends, in the same direction), for the first ``walls`` walls; the segments after them (the
    map's border, for moves) join nothing."""
    joins = np.zeros(x1.shape[0], np.bool_)
    if walls < 2:
        return joins
    ax, ay = x2[: walls - 1] - x1[: walls - 1], y2[: walls - 1] - y1[: walls - 1]
    bx, by = x2[1:walls] - x1[1:walls], y2[1:walls] - y1[1:walls]
    scale = 1.0 + np.abs(x2[: walls - 1]) + np.abs(y2[: walls - 1])
    gap = np.abs(x1[1:walls] - x2[: walls - 1]) + np.abs(y1[1:walls] - y2[: walls - 1])
    across = np.abs(ax * by - ay * bx) <= JOIN * np.hypot(ax, ay) * np.hypot(bx, by)
    joins[1:walls] = (gap <= JOIN * scale) & across & (ax * bx + ay * by > 0)
    return joins


@dataclass(frozen=True)
class Chains:
    """The board's straight walls in pieces, each chain of :data:`SHORTEST_CHAIN` pieces or more
    with its box."""

    chain: Ints
    """Each segment's chain, -1 for one that is in none."""
    box: Ints
    """Each chain's box: the index of the segment, after the board's, that holds its lowest
    corner as (x1, y1) and its highest as (x2, y2)."""
    x1: Floats
    y1: Floats
    x2: Floats
    y2: Floats
    """The board's segments, then the chains' boxes."""


def chains(x1: Floats, y1: Floats, x2: Floats, y2: Floats, walls: int) -> Chains:
    """The chains of the first ``walls`` segments (:func:`straight_joins`); the segments after
    them are in none."""
    n = x1.shape[0]
    joins = straight_joins(x1, y1, x2, y2, walls)
    label = np.cumsum(~joins) - 1  # the chain each segment would open or go on
    sizes = np.bincount(label, minlength=n)
    chained = (sizes[label] >= SHORTEST_CHAIN) & (np.arange(n) < walls)
    low_x, high_x = np.minimum(x1, x2), np.maximum(x1, x2)
    low_y, high_y = np.minimum(y1, y2), np.maximum(y1, y2)
    opening = np.searchsorted(label, np.arange(label[-1] + 1)) if n else label
    for k in np.unique(label[chained]):  # a chain's pieces follow each other (label grows)
        pieces = slice(opening[k], opening[k] + sizes[k])
        if not _in_order(x1[pieces], y1[pieces], x2[pieces], y2[pieces]):
            chained[pieces] = False
    kept = np.unique(label[chained])
    if n + kept.size > CODE_MASK:  # too many to code: no chains (the same answers)
        kept = kept[:0]
        chained[:] = False
    chain = np.full(n, -1, np.int64)
    chain[chained] = np.searchsorted(kept, label[chained])
    box_x1, box_y1 = np.full(kept.size, np.inf), np.full(kept.size, np.inf)
    box_x2, box_y2 = np.full(kept.size, -np.inf), np.full(kept.size, -np.inf)
    members = chain[chained]
    np.minimum.at(box_x1, members, low_x[chained])
    np.minimum.at(box_y1, members, low_y[chained])
    np.maximum.at(box_x2, members, high_x[chained])
    np.maximum.at(box_y2, members, high_y[chained])
    return Chains(
        chain,
        n + np.arange(kept.size, dtype=np.int64),
        np.concatenate([x1, box_x1]),
        np.concatenate([y1, box_y1]),
        np.concatenate([x2, box_x2]),
        np.concatenate([y2, box_y2]),
    )


def _in_order(x1: Floats, y1: Floats, x2: Floats, y2: Floats) -> bool:
    """A chain's pieces lie in order along its axis, the longer side of its box: each one's
    start further along than the last one's, its span's ends no nearer (the order the kernel's
    binary search needs, :func:`vigile.sim.kernel.geometry.chain_span`, which finds the axis
    and the way as this does)."""
    lows_x, highs_x = np.minimum(x1, x2), np.maximum(x1, x2)
    lows_y, highs_y = np.minimum(y1, y2), np.maximum(y1, y2)
    along_x = highs_x.max() - lows_x.min() >= highs_y.max() - lows_y.min()
    start, low, high = (x1, lows_x, highs_x) if along_x else (y1, lows_y, highs_y)
    if start[0] > start[-1]:
        start, low, high = -start, -high, -low
    steps = (np.diff(start) > 0) & (np.diff(low) >= 0) & (np.diff(high) >= 0)
    return bool(steps.all())


def code(box: Ints, first: Ints, count: Ints) -> Ints:
    """The entry of a run of ``count`` pieces from ``first``, of the chain whose box is
    ``box`` (negative; :func:`vigile.sim.kernel.geometry.decode` reads it)."""
    packed = (box << (2 * CODE_BITS)) | (first << CODE_BITS) | count
    result: Ints = -1 - packed
    return result


def entries(bounds: np.ndarray, members: np.ndarray, chains: Chains) -> tuple[Ints, Ints]:
    """The lists ``members[bounds[k] : bounds[k + 1]]`` (CSR, ``bounds`` of any shape: its
    values mark where lists begin) as lists of entries: a run of a list's walls j, j + 1, ...
    of one chain as one code (:func:`code`), any other wall as itself, in the list's order.
    The same lists, ``bounds``' shape, into the entries."""
    n = members.shape[0]
    walls = members.astype(np.int64)
    starts = np.zeros(n + 1, np.bool_)
    starts[bounds.ravel().astype(np.int64)] = True
    chain = chains.chain[walls] if n else np.zeros(0, np.int64)
    goes_on = np.zeros(n, np.bool_)
    goes_on[1:] = (walls[1:] == walls[:-1] + 1) & (chain[1:] == chain[:-1]) & (chain[1:] >= 0)
    opens = starts[:n] | ~goes_on
    first = np.nonzero(opens)[0]
    count = np.diff(np.append(first, n))
    before = np.zeros(n + 1, np.int64)
    before[1:] = np.cumsum(opens)
    listed: Ints = walls[first]
    runs = count > 1  # only within a chain (goes_on)
    listed[runs] = code(chains.box[chain[first[runs]]], walls[first[runs]], count[runs])
    new_bounds: Ints = before[bounds.astype(np.int64)]
    return new_bounds, listed
