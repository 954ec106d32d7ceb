"""Walls by direction from a fixed noise (:mod:`vigile.sim.kernel.sectors`): the walls a sector
lists count the same walls between a listener and the noise as every wall does (SK-N5).

On the night raid's walls in each door state, from the places of its noises and from sources
put on wall ends, on walls and a hair off them, to listeners anywhere, on the rays through wall
ends (where a segment grazes an end), along walls, and at the source itself.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")

from vigile.games.skirmish.kernel.tables import build
from vigile.scene.loader import load_scenario
from vigile.sim.kernel import geometry as kg
from vigile.sim.kernel.sectors import SECTORS, diamond, sector_lists

RAID = load_scenario("night-raid")
MODEL = build(RAID)
A = MODEL.arrays
X1, Y1, X2, Y2 = A["x1"], A["y1"], A["x2"], A["y2"]
WALLS = len(X1) - 4


def sources(rng: np.random.Generator) -> list[tuple[float, float]]:
    found = [(float(x), float(y)) for x, y in A["ops"][:, 2:4]]
    for j in range(WALLS):
        for t in (0.0, 0.5, 1.0):
            x, y = X1[j] + t * (X2[j] - X1[j]), Y1[j] + t * (Y2[j] - Y1[j])
            found += [(x, y), (x + 1e-7, y - 1e-7), (x + 2e-3, y)]
    found += [(float(x), float(y)) for x, y in rng.uniform((1, 1), (199, 119), (20, 2))]
    return found


def listeners(rng: np.random.Generator, sx: float, sy: float) -> list[tuple[float, float]]:
    """Anywhere; on the rays from the source through each wall end, a hair either side; along
    the walls; at the source."""
    found = [(float(x), float(y)) for x, y in rng.uniform((0, 0), (200, 120), (60, 2))]
    for j in range(WALLS):
        for ex, ey in ((X1[j], Y1[j]), (X2[j], Y2[j])):
            for reach in (0.5, 1.0, 1.7):
                x, y = sx + reach * (ex - sx), sy + reach * (ey - sy)
                found += [(x, y), (x + 1e-9, y), (x, y - 1e-9)]
        found.append((X1[j] + 1.5 * (X2[j] - X1[j]), Y1[j] + 1.5 * (Y2[j] - Y1[j])))
    return [*found, (sx, sy)]


@pytest.mark.parametrize("state", range(A["noise_mask"].shape[0]))
def test_a_sectors_walls_count_as_every_wall(state: int) -> None:
    rng = np.random.default_rng(state)
    mask = A["noise_mask"][state]
    every = np.arange(len(X1), dtype=np.int64)
    scratch = np.zeros((2, len(X1) + 4))
    places = sources(rng)
    start, walls = sector_lists(np.array(places), np.tile(mask, (len(places), 1)), X1, Y1, X2, Y2)
    tried = 0
    for k, (sx, sy) in enumerate(places):
        for ax, ay in listeners(rng, sx, sy):
            full = kg.crossings(ax, ay, sx, sy, X1, Y1, X2, Y2, mask, every, WALLS, scratch)
            sector = kg.diamond_sector(ax - sx, ay - sy, SECTORS)
            if sector < 0:
                continue  # the listener at the source: the kernel tries every wall
            first, last = start[k, sector], start[k, sector + 1]
            listed = walls[first:last]
            got = kg.crossings(ax, ay, sx, sy, X1, Y1, X2, Y2, mask, listed, len(listed), scratch)
            assert got == full, (state, (sx, sy), (ax, ay))
            tried += 1
    assert tried > 20_000


def test_the_diamond_angle_orders_directions_as_the_angle_does() -> None:
    angles = np.linspace(0.0, 2 * np.pi, 721)[:-1]
    values = diamond(np.cos(angles), np.sin(angles))
    assert np.all(np.diff(values) > 0)
    assert values[0] == 0.0 and values[-1] < 4.0
    for angle, value in zip(angles[::37], values[::37], strict=True):
        sector = kg.diamond_sector(float(np.cos(angle)), float(np.sin(angle)), SECTORS)
        assert sector == min(SECTORS - 1, int(value * SECTORS / 4.0))
    assert kg.diamond_sector(0.0, 0.0, SECTORS) == -1
