"""The kernel's geometry and dice are the originals', bit for bit (issue 14).

:mod:`vigile.sim.kernel.geometry` ports :mod:`vigile.scene.geometry` (and the engine's two
Python distances); the kernel's pool roll ports :func:`vigile.dice.pool.roll_pool`. Each is
checked against its original on the night raid's walls (every door state the raid plays),
on moves, crossings and lines of sight chosen to hit the conventions' edge cases: through wall
ends and corners, along walls, from points on walls, at the map border.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

pytest.importorskip("numba")

from bench_scenarios import bench_simulate
from vigile.dice.pool import roll_plain
from vigile.dice.pool import roll_pool as original_roll_pool
from vigile.dice.source import GivenFaces
from vigile.games.skirmish.kernel import play, raid
from vigile.games.skirmish.kernel.tables import ATTITUDES, KernelModel, build
from vigile.scene.geometry import (
    crossings,
    line_of_sight,
    move_with_bounce,
    point_in_polygon,
    trace_along,
)
from vigile.scene.loader import load_scenario
from vigile.sim.kernel import geometry as kg
from vigile.sim.kernel.grid import Grid, cell_walls

RAID = load_scenario("night-raid")
MODEL = build(RAID)
A = MODEL.arrays
WIDTH, HEIGHT = float(RAID.map.width), float(RAID.map.height)
STATES = range(A["sight_mask"].shape[0])


@dataclass(frozen=True)
class Board:
    """A raid's board as the engine and the kernel's tables hold it."""

    model: KernelModel

    @property
    def a(self) -> dict[str, Any]:
        return self.model.arrays

    @property
    def walls_count(self) -> int:
        return int(self.model.numbers["n_walls"])

    def walls(self, state: int):  # type: ignore[no-untyped-def]
        """The engine's barriers for the door state ``state`` of the kernel's tables."""
        return self.model.sim.board.barriers_for(self.model.doors[state])


BOARDS = {
    "night-raid": Board(MODEL),
    # the same board, its walls in 96 pieces: chains of a straight wall's pieces
    "night-raid cut": Board(build(bench_simulate().with_walls_cut(RAID, 96))),
}
BOARD_STATES = [(name, state) for name in BOARDS for state in STATES]


def board_walls(state: int):  # type: ignore[no-untyped-def]
    """The engine's barriers for the door state ``state`` of the night raid's tables."""
    return BOARDS["night-raid"].walls(state)


def points(
    rng: np.random.Generator, n: int, board: Board = BOARDS["night-raid"]
) -> list[tuple[float, float]]:
    """Points anywhere, on wall ends, on walls, and a hair off them."""
    a = board.a
    found = [
        (float(x), float(y))
        for x, y in rng.uniform((0.5, 0.5), (WIDTH - 0.5, HEIGHT - 0.5), (n, 2))
    ]
    for j in range(board.walls_count):
        x1, y1, x2, y2 = a["x1"][j], a["y1"][j], a["x2"][j], a["y2"][j]
        for t in (0.0, 0.5, 1.0):
            x, y = x1 + t * (x2 - x1), y1 + t * (y2 - y1)
            found += [(x, y), (x + 1e-7, y - 1e-7), (x - 3.0, y + 2.0)]
    return [(x, y) for x, y in found if 0 < x < WIDTH and 0 < y < HEIGHT]


def test_the_cut_board_lists_runs_of_its_chains() -> None:
    """The boards below try what they should: the cut raid's lists name runs of a chain's
    pieces (negative entries), and its every-wall list is short enough to be tried whole;
    the line grid's cells list walls alone."""
    cut = BOARDS["night-raid cut"]
    assert cut.walls_count == 96
    assert (cut.a["near_walls"] < 0).any() and (cut.a["sector_walls"] < 0).any()
    assert len(cut.a["every_wall"]) <= 48 < cut.walls_count
    assert (cut.a["line_walls"] >= 0).all()


@pytest.mark.parametrize("state", STATES)
def test_moves_bounce_as_the_original(state: int) -> None:
    walls = board_walls(state)
    m = len(walls)
    movers = np.array(
        [j for j in range(m) if walls.blocks_movement[j]] + [m, m + 1, m + 2, m + 3], np.int64
    )
    barriers = tuple(A[k] for k in ("x1", "y1", "x2", "y2", "normal_x", "normal_y", "has_normal"))
    rng = np.random.default_rng(state)
    # 600 points anywhere besides the 243 on and about the walls (where the special cases
    # lie): each costs the engine's one-point geometry six moves, about 5 ms
    for i, (x, y) in enumerate(points(rng, 600)):
        margin = (1e-6, 0.5)[i % 2]  # the tracer's default, and the skirmish's patrol margin
        angle = float(rng.uniform(0.0, 2.0 * math.pi))
        dx, dy = 10.0 * math.cos(angle), 10.0 * math.sin(angle)
        # as a patrol moves: the unit direction (cos, sin) itself, and the length
        ux, uy = math.cos(angle), math.sin(angle)
        for bounces in (0, 1, 2):
            rest = (*barriers, movers, len(movers), WIDTH, HEIGHT, bounces, margin)
            ex, ey = move_with_bounce(
                walls, [x], [y], dx, dy, WIDTH, HEIGHT, bounces, epsilon=margin
            )
            got = kg.trace_move(x, y, dx, dy, *rest)
            assert got == (float(ex[0]), float(ey[0])), (x, y, angle, bounces)
            along = trace_along(
                walls, [x], [y], ux, uy, 10.0, WIDTH, HEIGHT, bounces, epsilon=margin
            )
            got = kg.trace_unit(x, y, ux, uy, 10.0, *rest)
            assert got == (float(along.x[0]), float(along.y[0])), (x, y, angle, bounces)


@pytest.mark.parametrize(("name", "state"), BOARD_STATES)
def test_moves_by_map_cell_bounce_as_the_original(name: str, state: int) -> None:
    """A patrol's move as the raid's kernel makes it: only the entries its map cell lists
    (``near_start``, ``near_walls``), a chain's run skipped where its box is apart from the
    leg's; on the night raid, and on the same board with its walls in pieces."""
    board = BOARDS[name]
    a = board.a
    walls = board.walls(state)
    barriers = tuple(a[k] for k in ("x1", "y1", "x2", "y2", "normal_x", "normal_y", "has_normal"))
    numbers = board.model.numbers
    length = float(numbers["move"])
    rows = int(numbers["move_rows"])
    per_cell = 1.0 / numbers["move_cell"]  # the cell as the kernel finds it (_patrols)
    margin = float(numbers["margin"])  # the ruleset's (SK-G1 [R] turn.patrol_margin_mm)
    assert margin == 0.5
    rng = np.random.default_rng(40 + state)
    for x, y in points(rng, 300, board):
        column = min(int(numbers["move_columns"]) - 1, int(x * per_cell))
        k = column * rows + min(rows - 1, int(y * per_cell))
        lo, hi = a["near_start"][state, k], a["near_start"][state, k + 1]
        near = a["near_walls"][lo:hi]
        angle = float(rng.uniform(0.0, 2.0 * math.pi))
        ux, uy = math.cos(angle), math.sin(angle)
        for bounces in (1, 2):
            along = trace_along(
                walls, [x], [y], ux, uy, length, WIDTH, HEIGHT, bounces, epsilon=margin
            )
            got = kg.trace_unit(
                x, y, ux, uy, length, *barriers, near, len(near), WIDTH, HEIGHT, bounces, margin
            )
            assert got == (float(along.x[0]), float(along.y[0])), (x, y, angle, bounces)


@pytest.mark.parametrize(("name", "state"), BOARD_STATES)
def test_crossings_and_lines_of_sight_as_the_original(name: str, state: int) -> None:
    """Every wall tried, the kernel's list of every wall (chains' runs in it), and the walls
    gathered by map cell give the original's crossings and lines of sight."""
    board = BOARDS[name]
    a = board.a
    walls = board.walls(state)
    m = len(walls)
    every = np.arange(m, dtype=np.int64)
    listed = a["every_wall"]
    scratch = np.zeros((2, m + 4))
    grid = Grid.over(WIDTH, HEIGHT, max(WIDTH, HEIGHT) / 32)
    segments = (a["x1"], a["y1"], a["x2"], a["y2"])  # then the chains' boxes
    start, members = cell_walls(grid, *(v[:m] for v in segments))
    stamp = np.zeros(m + 1, np.int64)
    gathered = np.zeros(m, np.int64)
    rng = np.random.default_rng(100 + state)
    ends = points(rng, 300, board)
    # along walls and through their corners, not only at random
    pairs = [(p, q) for p in ends[::7] for q in ends[::11]] + list(itertools.pairwise(ends))
    noise, sight = a["noise_mask"][state], a["sight_mask"][state]
    for (ax, ay), (bx, by) in pairs:
        count = int(crossings(walls, ax, ay, bx, by, walls.counts_for_noise))
        seen = bool(line_of_sight(walls, ax, ay, bx, by))
        n = kg.gather(
            ax, ay, bx, by, grid.cell, grid.columns, grid.rows, start, members, stamp,
            gathered,
        )  # fmt: skip
        for candidates, size in ((every, m), (listed, len(listed)), (gathered, n)):
            got = kg.crossings(ax, ay, bx, by, *segments, noise, candidates, size, scratch)
            assert got == count, (ax, ay, bx, by)
            assert kg.sees(ax, ay, bx, by, *segments, sight, candidates, size) == seen


def test_polygons_as_the_original() -> None:
    rng = np.random.default_rng(7)
    start, xs, ys = A["surf_start"], A["surf_x"], A["surf_y"]
    for x, y in points(rng, 2000):
        for r in range(len(start) - 1):
            polygon = np.stack([xs[start[r] : start[r + 1]], ys[start[r] : start[r + 1]]], axis=1)
            assert kg.in_polygon(x, y, polygon[:, 0], polygon[:, 1]) == bool(
                point_in_polygon(x, y, polygon)
            )


def test_the_engines_distances_are_pythons() -> None:
    """``distance`` is ``math.hypot`` (CPython's, not libm's), and the noise steps are ``//``."""
    rng = np.random.default_rng(3)
    for a, b in rng.uniform(-300, 300, (50_000, 2)):
        assert kg.py_hypot(a, b) == math.hypot(a, b)
        gap = math.hypot(a, b)
        for step in (10.0, 50.0, 7.5):
            assert kg.py_floordiv(gap, step) == gap // step
    for k in range(1, 200):  # right at the steps: 50 k, a hair under and over
        for x in (50.0 * k, math.nextafter(50.0 * k, 0.0), math.nextafter(50.0 * k, 1e9)):
            assert kg.py_floordiv(x, 50.0) == x // 50.0


def test_beyond_is_sure() -> None:
    """``beyond(a, b, limit)`` only where ``math.hypot(a, b) >= limit``, and then no bound up
    to the limit is below: the look it spares could find neither distance (LOOK_REACH)."""
    rng = np.random.default_rng(11)
    said = 0
    for limit in (5.0, 10.0, 20.0, 40.0, 17.3):
        for a, b in rng.uniform(-60, 60, (20_000, 2)):
            if kg.beyond(a, b, limit):
                said += 1
                assert math.hypot(a, b) >= limit
                assert not kg.hypot_below(a, b, limit, True)
        for k in range(64):  # on the circle and a hair inside or out
            angle = 2 * math.pi * k / 64
            a, b = limit * math.cos(angle), limit * math.sin(angle)
            for scale in (1.0, 1 - 1e-15, 1 + 1e-15, 1 + 1e-11):
                if kg.beyond(a * scale, b * scale, limit):
                    assert math.hypot(a * scale, b * scale) >= limit
    assert said > 10_000  # it does say so, away from the circle
    assert not kg.beyond(1e200, 1e200, 1e160)  # out of the plain square's range: not sure


def test_a_patrols_look_reaches_as_far_as_the_sight_table_says() -> None:
    """``look_reach[t, i]``: where every code of the far cases (SK-V2, SK-V3: neither near nor
    in the band) is NEVER for the intruder's attitude, light and outfit, the larger of the two
    distances (10 cm, SK-V2; the band: 5, 10, 20 or 40 cm, SK-V3); ``inf`` where one is not
    (lit: seen far, SK-V5)."""
    sight, reach = A["sight"], A["look_reach"]
    band = {"hidden": 5, "immobile": 10, "half": 20, "fast": 40}
    bands = [band[a.value] for a in ATTITUDES]
    for t in range(MODEL.turns):
        for i in range(reach.shape[1]):
            attitude, lit = A["attitudes"][t, i], A["lit"][t, i]
            far = sight[attitude, 0, 0, lit, :, :, A["intruder_outfit"][i], :]
            if (far == 0).all():
                assert reach[t, i] == max(10, bands[attitude])
            else:
                assert reach[t, i] == math.inf
    assert np.isinf(reach).any() and np.isfinite(reach).any()


@pytest.mark.parametrize(
    "name", ["night-raid", "night-raid-unscouted", "sk-n9-shoji", "sk-v7-terrace"]
)
def test_the_sight_lists_hold_every_pair_that_may_roll_in_the_phases_order(name: str) -> None:
    """``with_sight_lists``: turn by turn, the looks (guard, intruder) by guard then intruder and
    the discoveries (intruder, guard) by intruder then guard (SK-G3, SK-G4), listed here by the
    plain nested loops the sight phase played before the lists: every patrolling guard's pair,
    a posted guard's where a code is not NEVER, no discovery of a guard known from the start."""
    model = build(load_scenario(name))
    m = raid.raid_arrays(model)
    raid._posted_codes(m, raid.new_state(model))
    m = raid.with_sight_lists(m)
    look_start, looks, find_start, finds = m.look_start, m.look_pairs, m.find_start, m.find_pairs
    patrolling, known = m.patrolling, m.known
    look, find = m.posted_look, m.posted_find
    n_g, n_i = m.n_guards, m.n_intruders
    for t in range(model.turns):
        want_looks = [
            (g, i)
            for g in range(n_g)
            for i in range(n_i)
            if patrolling[g] or (look[t, i, g] != play.NEVER).any()
        ]
        want_finds = [
            (i, g)
            for i in range(n_i)
            for g in range(n_g)
            if not known[i, g] and (patrolling[g] or find[t, i, g] != play.NEVER)
        ]
        assert [tuple(p) for p in looks[look_start[t] : look_start[t + 1]]] == want_looks
        assert [tuple(p) for p in finds[find_start[t] : find_start[t + 1]]] == want_finds
    assert look_start[-1] == len(looks) and find_start[-1] == len(finds)


@pytest.mark.parametrize(("dice", "target"), [(d, t) for d in (1, 2, 3) for t in range(2, 10)])
def test_the_kernels_pool_rolls_as_the_original(dice: int, target: int) -> None:
    """Every sequence of faces: the same success and the same faces used (SK-D1, SK-D3)."""
    length = dice * max(1, target - 5)
    for faces in itertools.product(range(1, 7), repeat=min(length, 4)):
        uniforms = np.array([(f - 0.5) / 6 for f in faces] + [0.99] * 12)
        ctx = np.zeros(3 + play.MOST_MISSES, np.int64)
        got = play.roll_pool(target, dice, 6, uniforms, ctx)
        source = GivenFaces(list(faces) + [6] * 12)
        roll = original_roll_pool(dice, target, source)
        assert (got, int(ctx[0])) == (roll.success, source.used)


@pytest.mark.parametrize("dice", [1, 2, 3])
def test_the_kernels_fumble_rolls_as_the_original(dice: int) -> None:
    for faces in itertools.product(range(1, 7), repeat=dice):
        uniforms = np.array([(f - 0.5) / 6 for f in faces])
        ctx = np.zeros(3 + play.MOST_MISSES, np.int64)
        fumbled = play.fumbles(dice, 6, uniforms, ctx)
        assert fumbled == (not roll_plain(dice, GivenFaces(list(faces))).success)
