"""Walls by map cell, for the compiled kernel: a uniform grid, so that the cost of a query stops
growing with the number of walls.

Two tables, each as CSR arrays (``start[c] .. start[c + 1]`` into ``walls``), the walls of a
cell in their original order:

* :func:`near_walls`: the walls a move of length L starting in the cell can meet (within L of
  the cell, with a margin of the cell's half diagonal): a move never goes farther than L from
  its start, bounces included, so the others cannot stop or turn it;
* :func:`cell_walls`: the walls whose bounding box meets the cell; a segment query gathers the
  walls of the cells it passes through (:func:`vigile.sim.kernel.geometry.gather`).

Exact, not approximate: the kernel applies the exact predicates to the walls gathered, and a
wall left out is one that cannot meet the query (with margins). Pure numpy: nothing compiled.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

Floats = np.ndarray[tuple[int, ...], np.dtype[np.float64]]
Ints = np.ndarray[tuple[int, ...], np.dtype[np.int64]]

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
