"""Walls by direction from a fixed source, for the compiled kernel: which walls can lie between
a listener anywhere and a noise at a point known before the first run (plain numpy).

A listener who moves (a patrolling guard) counts the walls between it and a noise (SK-N5) at
every noise it could hear: every wall tried, run after run, though the noise sits where the
schedule put it. A wall that shares a point X with the segment from the source S to a listener
A (other than S) has X on the ray from S towards A, so the direction of A from S is one of the
directions of the wall's points from S. Directions are cut in :data:`SECTORS` sectors of the
"diamond angle" (:func:`diamond`: a monotone stand-in for the angle, without a trigonometric
call); each sector lists the walls whose directions, widened by :data:`MARGIN`, reach it, in
their order. A query then tries only its sector's walls, with the same exact predicates: the
count is the same as over every wall.

Why the margins are enough: the predicates are evaluated in floating point, so a wall that
passes within rounding (about 1e-13 of the coordinates) of the segment may be met by them; its
nearest point is off the ray by that much at most, that is by 1e-13 / d in direction for a wall
at distance d from the source. A wall nearer the source than :data:`NEAR_SOURCE` (1e-3) is
listed in every sector; any other is off by 1e-10 at most, far inside the margin of 1e-6. The
diamond angle of the listener's direction and of the walls' ends is computed to a few ulps.
"""

from __future__ import annotations

import numpy as np

from vigile.sim.kernel.grid import Floats, Ints, distance_to_segment

SECTORS = 128
"""Sectors of the full turn (diamond angle 0 .. 4)."""
MARGIN = 1e-6
"""How far (in diamond angle) a wall's directions are widened."""
NEAR_SOURCE = 1e-3
"""A wall closer than this to the source is listed in every sector."""


def diamond(dx: Floats, dy: Floats) -> Floats:
    """The diamond angle of (dx, dy): 0 east, 1 south (y grows southwards) — the angle's order,
    in 0 .. 4, from one division (``vigile.sim.kernel.geometry.diamond`` computes the same for one
    direction). Undefined (nan) for (0, 0)."""
    dx = np.asarray(dx, np.float64)
    dy = np.asarray(dy, np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        upper = np.where(dx >= 0, dy / (dx + dy), 1.0 - dx / (-dx + dy))
        lower = np.where(dx < 0, 2.0 - dy / (-dx - dy), 3.0 + dx / (dx - dy))
    result: Floats = np.where(dy >= 0, upper, lower)
    return result


def sector_lists(
    sources: Floats, masks: np.ndarray, x1: Floats, y1: Floats, x2: Floats, y2: Floats
) -> tuple[Ints, Ints]:
    """For each source (row k of ``sources``: x, y) and the walls that count for it (row k of
    ``masks``, a flag a wall), the walls each sector lists: CSR, ``start[k, s]`` ..
    ``start[k, s + 1]`` into ``walls``; a source row of nan lists none (the kernel then tries
    every wall)."""
    n = sources.shape[0]
    start = np.zeros((n, SECTORS + 1), np.int64)
    flat: list[int] = []
    for k in range(n):
        sx, sy = sources[k]
        members: list[list[int]] = [[] for _ in range(SECTORS)]
        if np.isfinite(sx) and np.isfinite(sy):
            for j in np.nonzero(masks[k])[0]:
                for s in _sectors_of(sx, sy, x1[j], y1[j], x2[j], y2[j]):
                    members[s].append(int(j))
        start[k, 0] = len(flat)
        for s in range(SECTORS):
            flat.extend(members[s])
            start[k, s + 1] = len(flat)
    return start, np.array(flat, np.int64)


def _sectors_of(sx: float, sy: float, x1: float, y1: float, x2: float, y2: float) -> list[int]:
    """The sectors a wall's directions from the source reach, widened by the margin."""
    gap = float(distance_to_segment(np.array([sx]), np.array([sy]), x1, y1, x2, y2)[0])
    if gap < NEAR_SOURCE:
        return list(range(SECTORS))
    a, b = (float(v) for v in diamond(np.array([x1 - sx, x2 - sx]), np.array([y1 - sy, y2 - sy])))
    turn = (b - a) % 4.0  # from a, counter-clockwise; the wall subtends less than half a turn
    low, span = (a, turn) if turn <= 2.0 else (b, 4.0 - turn)
    first = int(np.floor((low - MARGIN) * SECTORS / 4.0))
    last = int(np.floor((low + span + MARGIN) * SECTORS / 4.0))
    return sorted({s % SECTORS for s in range(first, last + 1)})
