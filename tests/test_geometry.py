"""Scene geometry: barriers between points (SK-N5), sight (SK-V5, SK-V6), bouncing moves (SK-G1).

Expected values are computed by hand in the comments; the vectorised functions are checked
against scalar loops, and the movement guarantees against random walls with hypothesis.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import vigile.scene.geometry as geometry
from vigile.scene.geometry import (
    EPSILON,
    Barriers,
    KindRule,
    Region,
    Segment,
    crossings,
    line_of_sight,
    move_with_bounce,
    on_barrier,
    point_in_polygon,
    region_at,
    scatter_direction,
    surface_at,
    trace_along,
    trace_moves,
    within,
)

# The kind semantics are the caller's: these are the skirmish ones, written out for the tests.
SOLID = KindRule(blocks_sight=True, counts_for_noise=True, blocks_movement=True)
OPEN = KindRule(blocks_sight=False, counts_for_noise=False, blocks_movement=False)
RULES = {
    "wall": SOLID,
    "door": SOLID,  # closed
    "open_door": OPEN,
    "partition": SOLID,
    "window": KindRule(blocks_sight=False, counts_for_noise=True, blocks_movement=True),
}
SQRT2 = math.sqrt(2.0)
SQRT5 = math.sqrt(5.0)


def walls(*coords: tuple[float, float, float, float], kind: str = "wall") -> Barriers:
    return Barriers.from_segments([Segment(*c, kind) for c in coords], RULES)


def noise_walls(b: Barriers, ax: float, ay: float, bx: float, by: float) -> int:
    return int(crossings(b, ax, ay, bx, by, b.counts_for_noise))


# --------------------------------------------------------------------------- Barriers


def test_barriers_take_their_effects_from_the_rules_passed_in() -> None:
    b = Barriers.from_segments(
        [
            Segment(0, 0, 10, 0, "wall"),
            Segment(10, 0, 20, 0, "open_door"),
            Segment(20, 0, 30, 0, "window"),
        ],
        RULES,
    )
    assert len(b) == 3
    assert b.kinds == tuple(RULES)
    assert [b.kinds[c] for c in b.kind_code] == ["wall", "open_door", "window"]
    assert b.blocks_sight.tolist() == [True, False, False]
    assert b.counts_for_noise.tolist() == [True, False, True]
    assert b.blocks_movement.tolist() == [True, False, True]
    assert b.of_kind("window").tolist() == [False, False, True]
    assert b.of_kind("hedge").tolist() == [False, False, False]
    assert b.segment(2) == Segment(20.0, 0.0, 30.0, 0.0, "window")
    with pytest.raises(ValueError):
        b.x1[0] = 5.0  # read-only


def test_unknown_kind_is_named_in_the_error() -> None:
    with pytest.raises(ValueError, match="hedge"):
        Barriers.from_segments([Segment(0, 0, 1, 1, "hedge")], RULES)


def test_segment_coordinates_must_be_finite() -> None:
    with pytest.raises(ValueError, match="x2"):
        Segment(0, 0, math.inf, 1, "wall")


def test_opening_a_door_is_a_new_barriers_value() -> None:
    closed = walls((10, 0, 10, 10), kind="door")
    opened = closed.with_rule([0], OPEN)
    assert noise_walls(closed, 5, 5, 15, 5) == 1
    assert noise_walls(opened, 5, 5, 15, 5) == 0
    assert bool(line_of_sight(opened, 5, 5, 15, 5))
    assert not bool(line_of_sight(closed, 5, 5, 15, 5))  # the original is unchanged
    assert closed.with_rule(np.array([True]), OPEN).blocks_movement.tolist() == [False]
    assert closed.with_rule([], OPEN).blocks_movement.tolist() == [True]


# --------------------------------------------------------------------------- crossings (SK-N5)

THREE_ROOMS = walls((10, 0, 10, 20), (20, 0, 20, 20), (30, 0, 30, 20))


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ((2, 5), (8, 15), 0),  # same room
        ((5, 5), (15, 5), 1),  # one wall
        ((15, 2), (25, 18), 1),  # one wall, oblique
        ((5, 5), (35, 5), 3),  # three walls
        ((35, 19), (5, 1), 3),  # three walls, the other way
        ((5, 25), (35, 25), 0),  # passes beyond the walls' ends
    ],
)
def test_walls_between_two_points(
    a: tuple[float, float], b: tuple[float, float], expected: int
) -> None:
    assert noise_walls(THREE_ROOMS, *a, *b) == expected


def test_passing_exactly_through_a_walls_end_counts_once() -> None:
    b = walls((10, 0, 10, 10))
    assert noise_walls(b, 5, 10, 15, 10) == 1  # perpendicular, through the tip (10, 10)
    assert noise_walls(b, 0, 0, 20, 20) == 1  # diagonal through the tip
    assert noise_walls(b, 0, 20, 20, 0) == 1  # the other diagonal
    assert noise_walls(b, 5, 11, 15, 9) == 1  # an ordinary crossing near the tip
    assert noise_walls(b, 5, 12, 15, 10.5) == 0  # passes just over the tip


def test_a_line_through_a_vertex_counts_the_barriers_once_there() -> None:
    """SK-N5 counts partitions, doors and walls, not the pieces they are drawn in: a line
    through the joint of two segments meets one barrier there (issue 8: Rin in the demo got
    12+ where the rule gives 11+)."""
    corner = walls((10, 0, 10, 10), (10, 10, 20, 10))
    assert noise_walls(corner, 5, 5, 15, 15) == 1  # grazes the corner from outside
    assert noise_walls(corner, 5, 15, 15, 5) == 1  # enters the corner through its vertex
    two_pieces = walls((10, 0, 10, 10), (10, 10, 10, 20))  # one straight wall drawn in two
    assert noise_walls(two_pieces, 5, 10, 15, 10) == 1
    assert noise_walls(two_pieces, 5, 5, 15, 5) == 1
    three = walls((10, 0, 10, 10), (10, 10, 10, 20), (10, 10, 20, 10))  # a T joint
    assert noise_walls(three, 5, 10, 15, 10) == 1
    # two distinct walls along the line still count two
    assert noise_walls(walls((10, 0, 10, 20), (12, 0, 12, 20)), 5, 10, 15, 10) == 2
    # a run along a wall absorbs the joints it passes
    run = walls((10, 5, 20, 5), (20, 5, 30, 5), (20, 0, 20, 10))
    assert noise_walls(run, 0, 5, 40, 5) == 1


def test_a_point_on_a_closed_doors_line_is_behind_neither_side() -> None:
    """[R] The listener in a doorway (on the closed door's line) hears both rooms with no
    barrier between, and sees both (touching a barrier only at an end point does not count)."""
    door = walls((10, 0, 10, 20))
    assert noise_walls(door, 10, 10, 0, 10) == 0
    assert noise_walls(door, 10, 10, 20, 10) == 0
    assert bool(line_of_sight(door, 10, 10, 0, 10))
    assert bool(line_of_sight(door, 10, 10, 20, 10))
    assert noise_walls(door, 0, 10, 20, 10) == 1


def test_running_along_a_wall_counts_once_touching_at_the_ends_does_not() -> None:
    b = walls((10, 5, 20, 5))
    assert noise_walls(b, 0, 5, 30, 5) == 1  # lengthwise through the whole wall
    assert noise_walls(b, 0, 5, 15, 5) == 1  # into the wall, partly
    assert noise_walls(b, 12, 5, 18, 5) == 1  # inside the wall's length
    assert noise_walls(b, 0, 5, 10, 5) == 0  # B touches the wall's end only
    assert noise_walls(b, 20, 5, 30, 5) == 0  # A touches the wall's end only
    assert noise_walls(b, 0, 6, 30, 6) == 0  # parallel, 1 cm off
    assert noise_walls(b, 15, 5, 15, 10) == 0  # A stands on the wall
    assert noise_walls(b, 15, 0, 15, 5) == 0  # B stands on the wall
    assert noise_walls(b, 15, 3, 15, 3) == 0  # a point meets nothing


def test_mask_selects_what_counts_for_noise() -> None:
    b = Barriers.from_segments(
        [
            Segment(10, 0, 10, 20, "wall"),
            Segment(20, 0, 20, 20, "open_door"),
            Segment(30, 0, 30, 20, "partition"),
            Segment(40, 0, 40, 20, "window"),
        ],
        RULES,
    )
    assert noise_walls(b, 5, 5, 45, 5) == 3
    assert int(crossings(b, 5, 5, 45, 5, b.of_kind("wall"))) == 1
    assert int(crossings(b, 5, 5, 45, 5, np.ones(4, dtype=bool))) == 4
    with pytest.raises(ValueError, match="mask"):
        crossings(b, 5, 5, 45, 5, [True, False])


def test_crossings_broadcast_one_listener_against_many_sources() -> None:
    sources_x = np.array([5.0, 15.0, 25.0, 35.0])
    counts = crossings(THREE_ROOMS, 1.0, 5.0, sources_x, 5.0, THREE_ROOMS.counts_for_noise)
    assert counts.shape == (4,)
    assert counts.tolist() == [0, 1, 2, 3]
    grid = crossings(
        THREE_ROOMS, 1.0, 5.0, sources_x.reshape(2, 2), 5.0, THREE_ROOMS.counts_for_noise
    )
    assert grid.tolist() == [[0, 1], [2, 3]]
    assert crossings(THREE_ROOMS, 1, 5, 15, 5, THREE_ROOMS.counts_for_noise).shape == ()
    empty = Barriers.from_segments([], RULES)
    assert crossings(empty, 0, 0, sources_x, 1, empty.counts_for_noise).tolist() == [0] * 4
    with pytest.raises(ValueError, match="finite"):
        crossings(THREE_ROOMS, math.nan, 5, 15, 5, THREE_ROOMS.counts_for_noise)


# Small integer coordinates make touching, collinear and vertex cases frequent.
grid_coord = st.integers(0, 12).map(float)
any_coord = st.one_of(grid_coord, st.floats(0, 12, allow_nan=False, allow_subnormal=False))
segment_coords = st.tuples(any_coord, any_coord, any_coord, any_coord)
segment_lists = st.lists(segment_coords, min_size=1, max_size=8)


def _places_exactly(
    barrier_coords: list[tuple[float, float, float, float]],
    query: tuple[float, float, float, float],
) -> int:
    """The slow, obvious count, in exact fractions: each barrier that lies between A and B
    (alone, by the module's conventions) meets A→B at a point or along a run; runs and points
    that overlap are one place."""
    from fractions import Fraction as F

    ax, ay, bx, by = (F(v) for v in query)
    dx, dy = bx - ax, by - ay
    spans: list[tuple[F, F]] = []
    for c in barrier_coords:
        if noise_walls(walls(c), *query) == 0:
            continue
        px, py, qx, qy = (F(v) for v in c)
        ex, ey = qx - px, qy - py
        denominator = dx * ey - dy * ex
        if denominator != 0:
            t = ((px - ax) * ey - (py - ay) * ex) / denominator
            spans.append((t, t))
        else:
            length2 = dx * dx + dy * dy
            ends = [((x - ax) * dx + (y - ay) * dy) / length2 for x, y in ((px, py), (qx, qy))]
            spans.append((max(min(ends), F(0)), min(max(ends), F(1))))
    spans.sort()
    count, high = 0, None
    same = F(1, 10**9)  # geometry._SAME_POINT: meetings closer than this are one place
    for low, top in spans:
        if high is None or low - high > same:
            count += 1
            high = top
        else:
            high = max(high, top)
    return count


@given(segment_lists, st.lists(segment_coords, min_size=1, max_size=20))
def test_crossings_vectorised_equal_a_scalar_loop_and_are_symmetric(
    barrier_coords: list[tuple[float, float, float, float]],
    queries: list[tuple[float, float, float, float]],
) -> None:
    b = walls(*barrier_coords)
    q = np.array(queries)
    batch = crossings(b, q[:, 0], q[:, 1], q[:, 2], q[:, 3], b.counts_for_noise)
    one_by_one = [noise_walls(b, *row) for row in queries]
    places = [_places_exactly(barrier_coords, row) for row in queries]
    assert batch.tolist() == one_by_one == places
    reverse = crossings(b, q[:, 2], q[:, 3], q[:, 0], q[:, 1], b.counts_for_noise)
    assert reverse.tolist() == batch.tolist()
    sight = line_of_sight(b, q[:, 0], q[:, 1], q[:, 2], q[:, 3])
    assert sight.tolist() == (batch == 0).tolist()
    # plain numbers (the engine's one pair at a time, as noise_walls above) take _flat's short
    # way: the same answers
    assert [bool(line_of_sight(b, *row)) for row in queries] == sight.tolist()


def test_crossings_work_in_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(7)
    b = walls(*[tuple(row) for row in rng.uniform(0, 100, (30, 4))])
    points = rng.uniform(0, 100, (4, 5_000))
    whole = crossings(b, *points, b.counts_for_noise)
    monkeypatch.setattr(geometry, "_BLOCK", 100)
    assert np.array_equal(crossings(b, *points, b.counts_for_noise), whole)
    assert whole.sum() > 0


# --------------------------------------------------------------------------- sight (SK-V6)


def test_a_sight_line_grazing_a_corner_is_blocked() -> None:
    corner = walls((10, 0, 10, 10), (10, 10, 20, 10))
    assert not bool(line_of_sight(corner, 5, 5, 15, 15))  # through the corner vertex
    assert not bool(line_of_sight(corner, 15, 15, 5, 5))
    assert bool(line_of_sight(corner, 5, 5, 14, 15))  # misses the corner by a little
    assert not bool(line_of_sight(corner, 5, 5, 15, 14))  # clips the horizontal wall


def test_a_sight_line_grazing_a_free_walls_end_is_blocked() -> None:
    b = walls((10, 0, 10, 10))
    assert not bool(line_of_sight(b, 0, 10, 20, 10))
    assert bool(line_of_sight(b, 0, 10.001, 20, 10.001))


def test_sight_through_doors_and_windows_follows_the_rules() -> None:
    b = Barriers.from_segments(
        [
            Segment(10, 0, 10, 10, "door"),
            Segment(10, 10, 10, 20, "open_door"),
            Segment(10, 20, 10, 30, "window"),
        ],
        RULES,
    )
    observer_x, target_x = np.full(3, 5.0), np.full(3, 15.0)
    ys = np.array([5.0, 15.0, 25.0])
    assert line_of_sight(b, observer_x, ys, target_x, ys).tolist() == [False, True, True]


def test_looking_along_a_wall_is_blocked_standing_on_its_line_is_not() -> None:
    b = walls((10, 5, 20, 5))
    assert not bool(line_of_sight(b, 0, 5, 30, 5))
    assert bool(line_of_sight(b, 15, 5, 15, 20))  # the observer stands on the wall
    assert bool(line_of_sight(b, 15, 5, 15, -10))  # ... and sees both sides


# --------------------------------------------------------------------------- lit zones (SK-V5)


def test_at_exactly_the_radius_counts_as_within() -> None:
    # A lantern at (50, 50), radius 20: (70, 50) and (62, 66) are exactly 20 cm away (12² + 16²).
    px = np.array([70.0, 62.0, 70.001, 50.0, 30.0, 35.0])
    py = np.array([50.0, 66.0, 50.0, 50.0, 50.0, 35.0])
    assert within(px, py, 50.0, 50.0, 20.0).tolist() == [True, True, False, True, True, False]


def test_within_any_of_several_lights() -> None:
    lights_x, lights_y, radii = [0.0, 100.0], [0.0, 0.0], [20.0, 5.0]
    px = np.array([20.0, 21.0, 95.0, 94.0, 50.0])
    lit = within(px, 0.0, lights_x, lights_y, radii)
    assert lit.tolist() == [True, False, True, False, False]
    assert within(px, 0.0, [], [], 20.0).tolist() == [False] * 5
    assert within(1.0, 1.0, 0.0, 0.0, 2.0).shape == ()
    with pytest.raises(ValueError, match="negative"):
        within(px, 0.0, 0.0, 0.0, -1.0)


@given(
    st.lists(st.tuples(any_coord, any_coord), min_size=1, max_size=20),
    st.lists(st.tuples(any_coord, any_coord, st.floats(0, 8)), max_size=5),
)
def test_within_vectorised_equals_a_scalar_loop(
    points: list[tuple[float, float]], lights: list[tuple[float, float, float]]
) -> None:
    p = np.array(points)
    lx = [light[0] for light in lights]
    ly = [light[1] for light in lights]
    lr = [light[2] for light in lights]
    batch = within(p[:, 0], p[:, 1], lx, ly, lr)
    expected = [
        any((x - cx) ** 2 + (y - cy) ** 2 <= r * r for cx, cy, r in lights) for x, y in points
    ]
    assert batch.tolist() == expected


# --------------------------------------------------------------------------- polygons, surfaces

SQUARE = np.array([[0.0, 0.0], [10.0, 0.0], [10.0, 10.0], [0.0, 10.0]])
# A "U": the notch 4 < x < 6, 4 < y <= 10 is outside.
U_SHAPE = np.array(
    [[0, 0], [10, 0], [10, 10], [6, 10], [6, 4], [4, 4], [4, 10], [0, 10]], dtype=np.float64
)


def test_point_in_square_with_its_boundary_inside() -> None:
    px = np.array([5.0, 15.0, -1.0, 0.0, 10.0, 5.0, 10.0, 10.0, 5.0])
    py = np.array([5.0, 5.0, 5.0, 5.0, 5.0, 0.0, 10.0, 10.000001, 10.0])
    assert point_in_polygon(px, py, SQUARE).tolist() == [
        True,
        False,
        False,
        True,  # on the left edge
        True,  # on the right edge
        True,  # on the bottom edge
        True,  # a vertex
        False,
        True,  # on the top edge
    ]


def test_point_in_concave_polygon() -> None:
    px = np.array([2.0, 8.0, 5.0, 5.0, 5.0, 5.0, 5.0, 4.0, 2.0, 12.0])
    py = np.array([8.0, 8.0, 8.0, 2.0, 4.0, 10.0, 4.5, 7.0, 4.0, 4.0])
    assert point_in_polygon(px, py, U_SHAPE).tolist() == [
        True,  # left arm
        True,  # right arm
        False,  # in the notch
        True,  # the base
        True,  # on the notch's bottom edge
        False,  # the notch's open top
        False,  # just inside the notch
        True,  # on the notch's left edge
        True,  # the ray at y = 4 runs along the notch's bottom edge and through two vertices
        False,  # same ray from the right, outside
    ]


def _winding_inside(x: float, y: float, polygon: np.ndarray) -> bool:
    """Slow reference: winding number, and a distance test for the boundary."""
    total = 0.0
    k = len(polygon)
    for i in range(k):
        (x1, y1), (x2, y2) = polygon[i], polygon[(i + 1) % k]
        cross = (x2 - x1) * (y - y1) - (y2 - y1) * (x - x1)
        if cross == 0 and min(x1, x2) <= x <= max(x1, x2) and min(y1, y2) <= y <= max(y1, y2):
            return True
        total += math.atan2(cross, (x1 - x) * (x2 - x) + (y1 - y) * (y2 - y))
    return abs(total) > math.pi


@given(st.lists(st.tuples(any_coord, any_coord), min_size=1, max_size=30))
def test_point_in_polygon_equals_a_slow_reference(points: list[tuple[float, float]]) -> None:
    p = np.array(points)
    for polygon in (SQUARE, U_SHAPE):
        batch = point_in_polygon(p[:, 0], p[:, 1], polygon)
        assert batch.tolist() == [_winding_inside(x, y, polygon) for x, y in points]


def test_a_polygon_needs_three_vertices() -> None:
    with pytest.raises(ValueError, match="k >= 3"):
        point_in_polygon(0, 0, [[0, 0], [1, 1]])
    with pytest.raises(ValueError, match="pond"):
        Region("pond", ((0.0, 0.0), (1.0, 1.0)))


def test_surface_under_each_point_last_region_wins() -> None:
    regions = [
        Region("grass", ((0, 0), (50, 0), (50, 50), (0, 50))),
        Region("water", ((20, 20), (30, 20), (30, 30), (20, 30))),  # a pond in the lawn
        Region("stone", ((60, 0), (80, 0), (80, 20), (60, 20))),
    ]
    px = np.array([5.0, 25.0, 70.0, 90.0, 30.0])
    py = np.array([5.0, 25.0, 10.0, 90.0, 30.0])
    assert region_at(px, py, regions).tolist() == [0, 1, 2, -1, 1]
    kinds = surface_at(px, py, regions, default="floor")
    assert kinds.tolist() == ["grass", "water", "stone", "floor", "water"]
    assert surface_at(px, py, [], default="floor").tolist() == ["floor"] * 5
    assert regions[0].vertices.shape == (4, 2)


# --------------------------------------------------------------------------- moves (SK-G1)

MAP = (100.0, 100.0)
WALL_AT_10 = walls((10, 0, 10, 100))


def test_a_move_straight_into_a_wall_comes_back() -> None:
    # 4 cm from the wall, a 10 cm move: 4 in, 6 back, so it ends 6 cm from the wall.
    x, y = move_with_bounce(WALL_AT_10, 6.0, 50.0, 10.0, 0.0, *MAP)
    assert float(x) == pytest.approx(4.0, abs=1e-5)
    assert float(y) == 50.0
    # A 6 cm move: 4 in, 2 back, 2 cm from the wall.
    x, _ = move_with_bounce(WALL_AT_10, 6.0, 50.0, 6.0, 0.0, *MAP)
    assert float(x) == pytest.approx(8.0, abs=1e-5)


def test_an_oblique_move_leaves_at_the_angle_it_came_in() -> None:
    # From (6, 50) at 45°, 10 cm: meets x = 10 after 4√2 at (10, 54), then goes on
    # (10 - 4√2) at 135°: end (14 - 5√2, 50 + 5√2) ≈ (6.9289, 57.0711).
    m = trace_moves(WALL_AT_10, 6.0, 50.0, 10 / SQRT2, 10 / SQRT2, *MAP)
    assert float(m.x) == pytest.approx(14 - 5 * SQRT2, abs=1e-5)
    assert float(m.y) == pytest.approx(50 + 5 * SQRT2, abs=1e-5)
    assert int(m.bounces) == 1
    assert not bool(m.stopped)
    assert m.path_x[1] == pytest.approx(10.0, abs=1e-5)
    assert m.path_y[1] == pytest.approx(54.0, abs=1e-5)
    incoming = np.array([m.path_x[1] - m.path_x[0], m.path_y[1] - m.path_y[0]])
    outgoing = np.array([m.path_x[2] - m.path_x[1], m.path_y[2] - m.path_y[1]])
    assert outgoing[0] / np.hypot(*outgoing) == pytest.approx(-incoming[0] / np.hypot(*incoming))
    assert outgoing[1] / np.hypot(*outgoing) == pytest.approx(incoming[1] / np.hypot(*incoming))


def test_a_patrol_moves_along_its_unit_direction() -> None:
    # trace_along: the same oblique move as a unit direction and a length (a patrol's
    # (cos a, sin a), SK-G1), the direction taken as given: end (14 - 5√2, 50 + 5√2).
    m = trace_along(WALL_AT_10, 6.0, 50.0, math.cos(math.pi / 4), math.sin(math.pi / 4), 10.0, *MAP)
    assert float(m.x) == pytest.approx(14 - 5 * SQRT2, abs=1e-5)
    assert float(m.y) == pytest.approx(50 + 5 * SQRT2, abs=1e-5)
    assert int(m.bounces) == 1
    # a free move ends exactly at start + length * direction: no root, no division
    ux, uy = math.cos(2.0), math.sin(2.0)
    m = trace_along(WALL_AT_10, 50.0, 50.0, ux, uy, 10.0, *MAP)
    assert (float(m.x), float(m.y)) == (50.0 + 10.0 * ux, 50.0 + 10.0 * uy)
    # no length: no move
    m = trace_along(WALL_AT_10, 50.0, 50.0, ux, uy, 0.0, *MAP)
    assert (float(m.x), float(m.y)) == (50.0, 50.0)
    with pytest.raises(ValueError, match="length"):
        trace_along(WALL_AT_10, 50.0, 50.0, ux, uy, -1.0, *MAP)
    for bad in (math.inf, math.nan):
        with pytest.raises(ValueError, match="finite"):
            trace_along(WALL_AT_10, 50.0, 50.0, ux, uy, bad, *MAP)


def test_one_bounce_then_stopped_short_of_the_next_wall() -> None:
    # The corner of a room: walls x = 20 and y = 20. From (15, 15) along (2, 1), 20 cm:
    # meets x = 20 at (20, 17.5) after 2.5√5, reflects to (-2, 1), meets y = 20 at (15, 20)
    # after another 2.5√5; one bounce only, so it stops there, just short of the wall.
    room = walls((20, 0, 20, 20), (0, 20, 20, 20))
    m = trace_moves(room, 15.0, 15.0, 40 / SQRT5, 20 / SQRT5, *MAP)
    assert (float(m.x), float(m.y)) == pytest.approx((15.0, 20.0), abs=1e-5)
    assert float(m.y) < 20.0
    assert int(m.bounces) == 1
    assert bool(m.stopped)
    # Two bounces allowed: off y = 20 with 20 - 5√5 left along (-2, -1):
    # end (25 - 8√5, 25 - 4√5) ≈ (7.1115, 16.0557).
    m = trace_moves(room, 15.0, 15.0, 40 / SQRT5, 20 / SQRT5, *MAP, max_bounces=2)
    assert (float(m.x), float(m.y)) == pytest.approx((25 - 8 * SQRT5, 25 - 4 * SQRT5), abs=1e-5)
    assert int(m.bounces) == 2
    assert not bool(m.stopped)


def test_straight_into_an_inside_corner() -> None:
    # From (17, 17) at 45° into the corner (20, 20), 3√2 away, 10 cm.
    room = walls((20, 0, 20, 20), (0, 20, 20, 20))
    m = trace_moves(room, 17.0, 17.0, 10 / SQRT2, 10 / SQRT2, *MAP)
    assert (float(m.x), float(m.y)) == pytest.approx((20.0, 20.0), abs=1e-5)
    assert float(m.x) < 20.0 and float(m.y) < 20.0
    assert bool(m.stopped)
    # Allowed two bounces it comes straight back: (20, 20) - (10 - 3√2)(1, 1)/√2 = 23 - 5√2.
    m = trace_moves(room, 17.0, 17.0, 10 / SQRT2, 10 / SQRT2, *MAP, max_bounces=2)
    assert (float(m.x), float(m.y)) == pytest.approx((23 - 5 * SQRT2,) * 2, abs=1e-5)
    assert not bool(m.stopped)


def test_the_map_border_bounces_like_a_wall() -> None:
    empty = Barriers.from_segments([], RULES)
    x, y = move_with_bounce(empty, np.array([97.0, 3.0]), 50.0, np.array([10.0, -10.0]), 0, *MAP)
    assert x.tolist() == pytest.approx([93.0, 7.0], abs=1e-5)
    assert y.tolist() == [50.0, 50.0]
    # Near the corner (100, 100): off the top border at (99, 100), then stopped at the right one.
    m = trace_moves(empty, 97.0, 98.0, 10 / SQRT2, 10 / SQRT2, *MAP)
    assert (float(m.x), float(m.y)) == pytest.approx((100.0, 99.0), abs=1e-5)
    assert float(m.x) < 100.0
    assert bool(m.stopped)


def test_without_bounces_a_mover_stops_epsilon_short() -> None:
    m = trace_moves(WALL_AT_10, 6.0, 50.0, 10.0, 0.0, *MAP, max_bounces=0)
    assert float(m.x) == pytest.approx(10.0 - EPSILON, abs=1e-12)
    assert bool(m.stopped)
    assert int(m.bounces) == 0


def test_a_patrol_turns_its_margin_short_of_the_walls_line() -> None:
    # SK-G1 [R] turn.patrol_margin_mm: from (5, 5) at 60° (cos 60° = 1/2 against the wall's
    # normal), 20 cm, margin 0.5. The line x = 10 is met after 10 cm along the path; it turns
    # 0.5 / (1/2) = 1 cm before, at (9.5, 5 + 9·√3/2): 0.5 from the line, not 0.5 along the
    # path. Then 11 cm at 120°: x = 9.5 - 5.5 = 4, y = 5 + 20·√3/2.
    m = trace_along(WALL_AT_10, 5.0, 5.0, 0.5, math.sqrt(3) / 2, 20.0, *MAP, epsilon=0.5)
    assert float(m.path_x[1]) == pytest.approx(9.5, abs=1e-12)
    assert float(m.path_y[1]) == pytest.approx(5 + 9 * math.sqrt(3) / 2, abs=1e-12)
    assert (float(m.x), float(m.y)) == pytest.approx((4.0, 5 + 10 * math.sqrt(3)), abs=1e-12)
    # Straight in, no bounce left: 0.5 short (cos = 1); the map's edge is a wall like any other.
    m = trace_along(WALL_AT_10, 5.0, 5.0, 1.0, 0.0, 20.0, *MAP, max_bounces=0, epsilon=0.5)
    assert (float(m.x), bool(m.stopped)) == (9.5, True)
    m = trace_along(WALL_AT_10, 50.0, 95.0, 0.0, 1.0, 20.0, *MAP, max_bounces=0, epsilon=0.5)
    assert (float(m.y), bool(m.stopped)) == (99.5, True)
    # 1° off the line from 1 cm away: the line is met after 1 / cos 89° ≈ 57.3 cm, it turns
    # 0.5 / cos 89° ≈ 28.6 cm before, at x = 9.5 again. From 0.3 cm away (nearer than the
    # margin, where the GM put it), it turns where it stands: it never creeps onto the line.
    a = math.radians(89.0)
    m = trace_along(WALL_AT_10, 9.0, 5.0, math.cos(a), math.sin(a), 80.0, *MAP, epsilon=0.5)
    assert float(m.path_x[1]) == pytest.approx(9.5, abs=1e-12)
    m = trace_along(WALL_AT_10, 9.7, 5.0, math.cos(a), math.sin(a), 80.0, *MAP, epsilon=0.5)
    assert (float(m.path_x[1]), float(m.path_y[1])) == (9.7, 5.0)
    assert float(m.x) < 9.7 and int(m.bounces) == 1


def test_moving_end_on_into_a_walls_end_comes_straight_back() -> None:
    # Along y = 5 into the end (10, 5) of the wall (10, 5)-(20, 5), 3 cm away, 10 cm.
    m = trace_moves(walls((10, 5, 20, 5)), 7.0, 5.0, 10.0, 0.0, *MAP)
    assert (float(m.x), float(m.y)) == pytest.approx((3.0, 5.0), abs=1e-5)


def test_doors_let_movers_through_only_when_open() -> None:
    b = Barriers.from_segments(
        [Segment(10, 0, 10, 50, "door"), Segment(10, 50, 10, 100, "open_door")], RULES
    )
    x, _ = move_with_bounce(b, np.array([6.0, 6.0]), np.array([25.0, 75.0]), 10.0, 0.0, *MAP)
    assert x.tolist() == pytest.approx([4.0, 16.0], abs=1e-5)


def test_odd_starts_and_moves() -> None:
    x, y = move_with_bounce(WALL_AT_10, 5.0, 5.0, 0.0, 0.0, *MAP)
    assert (float(x), float(y)) == (5.0, 5.0)
    m = trace_moves(WALL_AT_10, 10.0, 50.0, 5.0, 0.0, *MAP)  # starts on the wall: stays put
    assert (float(m.x), float(m.y)) == (10.0, 50.0)
    assert bool(m.stopped)
    with pytest.raises(ValueError, match="strictly inside"):
        move_with_bounce(WALL_AT_10, 0.0, 50.0, 1.0, 0.0, *MAP)
    with pytest.raises(ValueError, match="strictly inside"):
        move_with_bounce(WALL_AT_10, 50.0, 101.0, 1.0, 0.0, *MAP)
    with pytest.raises(ValueError, match="max_bounces"):
        move_with_bounce(WALL_AT_10, 5.0, 5.0, 1.0, 0.0, *MAP, max_bounces=-1)


def test_the_straight_line_from_start_to_end_may_cross_a_wall_walked_around() -> None:
    # From (10, 10) along (1, 0.5) to the wall x = 40 at (40, 25), back to (10, 40). A stub
    # (5, 25)-(15, 25) lies inside that triangle: the path never touches it, the chord does.
    b = walls((40, 0, 40, 100), (5, 25, 15, 25))
    m = trace_moves(b, 10.0, 10.0, 60.0, 30.0, *MAP)
    assert (float(m.x), float(m.y)) == pytest.approx((10.0, 40.0), abs=1e-5)
    legs = crossings(b, m.path_x[:-1], m.path_y[:-1], m.path_x[1:], m.path_y[1:], b.blocks_movement)
    assert legs.tolist() == [0, 0]
    assert noise_walls(b, 10, 10, float(m.x), float(m.y)) == 1


def _path_clear(b: Barriers, m: geometry.Moves) -> np.ndarray:
    """Barriers met by each leg of each path, summed over legs."""
    legs = crossings(
        b,
        m.path_x[..., :-1],
        m.path_y[..., :-1],
        m.path_x[..., 1:],
        m.path_y[..., 1:],
        b.blocks_movement,
    )
    return legs.sum(axis=-1)


start_coord = st.one_of(
    st.integers(1, 11).map(float), st.floats(0, 12, exclude_min=True, exclude_max=True)
)
step = st.one_of(st.integers(-30, 30).map(float), st.floats(-30, 30, allow_nan=False))
kinds = st.sampled_from(["wall", "door", "open_door", "window"])


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.tuples(segment_coords, kinds), max_size=10),
    st.lists(st.tuples(start_coord, start_coord, step, step), min_size=1, max_size=10),
    st.integers(0, 3),
)
def test_a_mover_never_ends_across_a_wall_or_off_the_map(
    barrier_specs: list[tuple[tuple[float, float, float, float], str]],
    movers: list[tuple[float, float, float, float]],
    max_bounces: int,
) -> None:
    b = Barriers.from_segments([Segment(*c, kind) for c, kind in barrier_specs], RULES)
    x, y, dx, dy = (np.array(column) for column in zip(*movers, strict=True))
    m = trace_moves(b, x, y, dx, dy, 12.0, 12.0, max_bounces)
    # No leg of any path meets a movement-blocking barrier, and every end is on the map.
    assert _path_clear(b, m).tolist() == [0] * len(movers)
    assert np.all((m.x > 0) & (m.x < 12) & (m.y > 0) & (m.y < 12))
    assert np.all((m.path_x > 0) & (m.path_x < 12) & (m.path_y > 0) & (m.path_y < 12))
    # A mover that did not start on a barrier does not end on one.
    started_on = on_barrier(b, x, y, b.blocks_movement)
    assert not np.any(on_barrier(b, m.x, m.y, b.blocks_movement) & ~started_on)
    # Bounces are counted, and the full length is walked unless stopped.
    assert np.all((m.bounces >= 0) & (m.bounces <= max_bounces))
    walked = np.hypot(np.diff(m.path_x, axis=-1), np.diff(m.path_y, axis=-1)).sum(axis=-1)
    length = np.hypot(dx, dy)
    done = ~m.stopped
    assert walked[done] == pytest.approx(length[done], rel=1e-9, abs=1e-9)
    assert np.all(walked <= length + 2 * EPSILON * (max_bounces + 1))
    # Vectorised equals one mover at a time.
    for i in range(len(movers)):
        one = trace_moves(b, x[i], y[i], dx[i], dy[i], 12.0, 12.0, max_bounces)
        assert (float(one.x), float(one.y)) == (m.x[i], m.y[i])
        assert np.array_equal(one.path_x, m.path_x[i])
        assert int(one.bounces) == m.bounces[i]


border_point = st.one_of(st.integers(0, 47).map(float), st.floats(0, 48, exclude_max=True))


def _on_border(s: float) -> tuple[float, float]:
    """A point on the border of the 12 x 12 map, ``s`` along it (0 <= s < 48)."""
    side, along = divmod(s, 12.0)
    return [(along, 0.0), (12.0, along), (12.0 - along, 12.0), (0.0, 12.0 - along)][int(side)]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.tuples(border_point, border_point), max_size=5),
    st.lists(st.tuples(start_coord, start_coord, step, step), min_size=1, max_size=10),
    st.integers(0, 3),
)
def test_walls_across_the_whole_map_are_never_crossed_start_to_end(
    cuts: list[tuple[float, float]],
    movers: list[tuple[float, float, float, float]],
    max_bounces: int,
) -> None:
    # Walls from border to border cut the map into convex rooms, so the straight line from
    # start to end stays in the mover's room: crossings(start, end) == 0.
    b = walls(*[(*_on_border(s), *_on_border(t)) for s, t in cuts])
    x, y, dx, dy = (np.array(column) for column in zip(*movers, strict=True))
    m = trace_moves(b, x, y, dx, dy, 12.0, 12.0, max_bounces)
    assert crossings(b, x, y, m.x, m.y, b.blocks_movement).tolist() == [0] * len(movers)


def test_moves_work_in_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(11)
    b = walls(*[tuple(row) for row in rng.uniform(0, 100, (20, 4))])
    x, y = rng.uniform(1, 99, (2, 3_000))
    ux, uy = scatter_direction(rng, 3_000)
    whole = trace_moves(b, x, y, 30 * ux, 30 * uy, *MAP, max_bounces=2)
    monkeypatch.setattr(geometry, "_BLOCK", 50)
    blocks = trace_moves(b, x, y, 30 * ux, 30 * uy, *MAP, max_bounces=2)
    assert np.array_equal(whole.path_x, blocks.path_x)
    assert np.array_equal(whole.path_y, blocks.path_y)
    assert np.array_equal(whole.stopped, blocks.stopped)
    assert whole.bounces.sum() > 0


def test_patrolling_guards_stay_in_their_closed_room() -> None:
    # SK-G1: 500 guards patrol 40 turns, 10 cm a turn, one bounce each turn, in a 30 x 20 room
    # with a closed door, inside a 100 x 100 map.
    room = Barriers.from_segments(
        [
            Segment(20, 20, 50, 20, "wall"),
            Segment(50, 20, 50, 40, "wall"),
            Segment(50, 40, 35, 40, "wall"),
            Segment(35, 40, 30, 40, "door"),
            Segment(30, 40, 20, 40, "partition"),
            Segment(20, 40, 20, 20, "wall"),
        ],
        RULES,
    )
    inside = np.array([[20.0, 20.0], [50.0, 20.0], [50.0, 40.0], [20.0, 40.0]])
    rng = np.random.default_rng(2024)
    x, y = np.full(500, 35.0), np.full(500, 30.0)
    for _ in range(40):
        ux, uy = scatter_direction(rng, 500)
        x, y = move_with_bounce(room, x, y, 10 * ux, 10 * uy, *MAP)
        assert np.all(point_in_polygon(x, y, inside))
        assert not np.any(on_barrier(room, x, y, room.blocks_movement))
    assert np.all(crossings(room, 35.0, 30.0, x, y, room.counts_for_noise) == 0)


# --------------------------------------------------------------------------- scatter die


def test_scatter_directions_are_unit_vectors_from_the_generator_only() -> None:
    dx, dy = scatter_direction(np.random.default_rng(5), 20_000)
    assert dx.shape == dy.shape == (20_000,)
    assert np.allclose(np.hypot(dx, dy), 1.0)
    again = scatter_direction(np.random.default_rng(5), 20_000)
    assert np.array_equal(dx, again[0]) and np.array_equal(dy, again[1])
    other = scatter_direction(np.random.default_rng(6), 20_000)
    assert not np.array_equal(dx, other[0])
    # Uniform angle: each of 8 sectors of 45° gets 1/8 of the draws (2,500 ± 5σ, σ ≈ 47).
    sectors = np.floor(np.mod(np.arctan2(dy, dx), 2 * np.pi) / (np.pi / 4)).astype(int)
    counts = np.bincount(sectors, minlength=8)
    assert np.all(np.abs(counts - 2_500) < 5 * math.sqrt(20_000 * (1 / 8) * (7 / 8)))
    assert scatter_direction(np.random.default_rng(5), 0)[0].shape == (0,)
    with pytest.raises(ValueError):
        scatter_direction(np.random.default_rng(5), -1)
