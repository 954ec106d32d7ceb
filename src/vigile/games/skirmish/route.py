"""The safest route across a risk map: the least chance of being detected (issue 5, item 4).

The grid of a :class:`~vigile.games.skirmish.riskmap.RiskMap` is a graph: each cell centre is a
node, joined to its 8 neighbours unless the straight step between the two centres passes a wall, a
closed door, a partition or a closed window (SK-G1; the conventions of
:func:`vigile.scene.geometry.crossings`, traced for every step at once). The guards test once a
turn, wherever the intruder then stands; a turn covers the move of the chosen attitude (the engine's
``turn.*_cm``). So a step of length ``ds`` into a cell of risk ``p`` costs ``−log(1 − p) · ds /
move``: the share of a turn's test spent there. Dijkstra's shortest path minimises the sum, and the
route's chance of being detected is ``1 − exp(−sum)`` — one test per turn, independent from turn to
turn, whatever the grid's resolution. A cell seen for certain (``p = 1``) cannot be crossed (it may
only be the goal); among equal risks the shortest wins.

The waypoints are the route's cell centres, simplified: collinear points are dropped, and a
stretch where every cell has risk 0 is straightened when the straight leg passes no wall and
only risk-0 cells (so the chance is unchanged and every leg stays wall-free).
"""

from __future__ import annotations

import heapq
import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

import numpy as np
from numpy.typing import NDArray

from vigile.errors import InputError, LimitError
from vigile.games.skirmish.riskmap import RiskMap
from vigile.rulesets.skirmish.movement import turn_rate
from vigile.rulesets.skirmish.sight import Attitude
from vigile.scene.geometry import crossings, on_barrier
from vigile.scene.model import Scenario
from vigile.scene.plans import Leg

__all__ = ["STEPS", "Route", "plan_legs", "safest_route", "scenario_with_plan", "step_open"]

Point = tuple[float, float]
BoolArray = NDArray[np.bool_]

MAX_ROUTE_CELLS: Final = 250_000
"""No route is searched on a grid of more cells (the search walks them one by one in Python):
the automatic resolution's grid (:data:`~vigile.games.skirmish.riskmap.AUTO_CELLS`) always
fits; a finer ``--resolution`` is refused (a LimitError)."""

STEPS: Final = ((0, 1), (1, 0), (1, 1), (1, -1))
"""The four step directions (row, column) traced once each; their opposites make the 8."""


@dataclass(frozen=True)
class Route:
    """A route from a start to a goal, with its chance of being detected."""

    start: Point
    """Where it starts, as asked."""
    goal: Point
    """Where it ends, as asked."""
    cells: tuple[tuple[int, int], ...]
    """(row, column) of every cell of the grid path, the start's cell first."""
    waypoints: tuple[Point, ...]
    """Simplified waypoints, ``start`` first and ``goal`` last; each leg passes no wall."""
    chance_seen: float
    """``1 − ∏(1 − p)`` over the cells entered (every cell but the first): independent checks."""
    length: float
    """Length of the waypoints' polyline (cm)."""
    attitude: Attitude
    """The attitude the risk map was made for."""


def turn_length(riskmap: RiskMap) -> float:
    """How far the intruder moves in one turn at the map's attitude (the engine's rates)."""
    return turn_rate(riskmap.board.rules, riskmap.attitude)


def step_open(riskmap: RiskMap) -> tuple[BoolArray, list[BoolArray]]:
    """Which cells may be stood on (not on a movement-blocking barrier), and for each step
    direction of :data:`STEPS`, which steps from a cell to its neighbour pass no such barrier
    (arrays of shape (ny, nx); a step off the grid is closed)."""
    board = riskmap.board
    xs, ys = riskmap.xs, riskmap.ys
    gx, gy = np.meshgrid(xs, ys)
    mask = board.barriers.blocks_movement
    free = ~on_barrier(board.barriers, gx, gy, mask)
    ny, nx = gx.shape
    opened: list[BoolArray] = []
    for dr, dc in STEPS:
        ok = np.zeros((ny, nx), dtype=np.bool_)
        rows = slice(0, ny - dr)
        cols = slice(max(0, -dc), nx - max(0, dc))
        to_rows = slice(dr, ny)
        to_cols = slice(max(0, dc), nx - max(0, -dc))
        blocked = crossings(
            board.barriers,
            gx[rows, cols],
            gy[rows, cols],
            gx[to_rows, to_cols],
            gy[to_rows, to_cols],
            mask,
        )
        ok[rows, cols] = (blocked == 0) & free[rows, cols] & free[to_rows, to_cols]
        opened.append(ok)
    return free, opened


def safest_route(
    riskmap: RiskMap,
    start: Point,
    goal: Point,
    *,
    prepared: tuple[BoolArray, list[BoolArray]] | None = None,
) -> Route:
    """The route from ``start`` to ``goal`` with the least chance of being detected.

    ``prepared`` is :func:`step_open` of the same map, to reuse it. A start or goal outside the
    board, on a wall, or with no route between them: a one-line :class:`InputError`.
    """
    check_route_cells(riskmap)
    free, opened = prepared if prepared is not None else step_open(riskmap)
    ny, nx = riskmap.risk.shape
    source = _snap(riskmap, free, start, "--from")
    target = _snap(riskmap, free, goal, "--to")
    risk = riskmap.risk.reshape(-1)
    per_turn = turn_length(riskmap)
    with np.errstate(divide="ignore"):
        weight = (-np.log1p(-risk) / per_turn).tolist()
    blocked_cell = (risk >= 1.0).tolist()
    flat_open = [o.reshape(-1).tolist() for o in opened]
    moves: list[tuple[int, int, int, int, float]] = []  # (dr, dc, direction, from-offset, len)
    for k, (dr, dc) in enumerate(STEPS):
        length = riskmap.resolution * math.hypot(dr, dc)
        moves.append((dr, dc, k, 0, length))
        moves.append((-dr, -dc, k, -(dr * nx + dc), length))
    best: list[tuple[float, float]] = [(math.inf, math.inf)] * (ny * nx)
    previous = [-1] * (ny * nx)
    best[source] = (0.0, 0.0)
    heap: list[tuple[float, float, int]] = [(0.0, 0.0, source)]
    while heap:
        cost, length, node = heapq.heappop(heap)
        if (cost, length) > best[node]:
            continue
        if node == target:
            break
        row, column = divmod(node, nx)
        for dr, dc, k, offset, step in moves:
            r, c = row + dr, column + dc
            if not (0 <= r < ny and 0 <= c < nx):
                continue
            neighbour = r * nx + c
            if not flat_open[k][node + offset]:
                continue
            if blocked_cell[neighbour] and neighbour != target:
                continue
            candidate = (cost + weight[neighbour] * step, length + step)
            if candidate < best[neighbour]:
                best[neighbour] = candidate
                previous[neighbour] = node
                heapq.heappush(heap, (candidate[0], candidate[1], neighbour))
    if previous[target] == -1 and target != source:
        raise InputError(
            f"no route from {_shown(start)} to {_shown(goal)}: walls, or spots seen for "
            "certain, stand between them",
            where="--to",
        )
    path = [target]
    while path[-1] != source:
        path.append(previous[path[-1]])
    path.reverse()
    cells = tuple(divmod(node, nx) for node in path)
    missed = math.exp(-best[target][0]) if target != source else 1.0
    points = [start, *((float(riskmap.xs[c]), float(riskmap.ys[r])) for r, c in cells), goal]
    waypoints = _simplify(riskmap, points, [None, *cells, None])
    return Route(
        start=start,
        goal=goal,
        cells=cells,
        waypoints=tuple(waypoints),
        chance_seen=1.0 - missed,
        length=sum(math.dist(a, b) for a, b in itertools.pairwise(waypoints)),
        attitude=riskmap.attitude,
    )


def check_route_cells(riskmap: RiskMap) -> None:
    """Refuse a route search over more than :data:`MAX_ROUTE_CELLS` cells."""
    ny, nx = riskmap.risk.shape
    if nx * ny > MAX_ROUTE_CELLS:
        raise LimitError(
            f"--resolution: {riskmap.resolution:g} cm makes a route grid of {nx} × {ny} = "
            f"{nx * ny:,} cells; at most {MAX_ROUTE_CELLS:,} (a coarser --resolution)"
        )


def _shown(point: Point) -> str:
    return f"({point[0]:g}, {point[1]:g})"


def _snap(riskmap: RiskMap, free: BoolArray, point: Point, where: str) -> int:
    """The cell a route starts or ends in: the nearest free cell reached from ``point`` by a
    straight step that passes no wall."""
    x, y = point
    size = riskmap.board.scenario.map
    if not (math.isfinite(x) and math.isfinite(y)):
        raise InputError(f"{x}, {y} is not a point", where=where)
    if not (0 <= x <= size.width and 0 <= y <= size.height):
        raise InputError(
            f"{_shown(point)} is off the board (0..{size.width:g} × 0..{size.height:g} cm)",
            where=where,
        )
    barriers = riskmap.board.barriers
    if bool(on_barrier(barriers, x, y, barriers.blocks_movement)):
        raise InputError(f"{_shown(point)} is inside a wall", where=where)
    row, column = riskmap.cell_of(x, y)
    ny, nx = free.shape
    candidates = sorted(
        (
            math.dist(point, (float(riskmap.xs[c]), float(riskmap.ys[r]))),
            r,
            c,
        )
        for r in range(max(0, row - 1), min(ny, row + 2))
        for c in range(max(0, column - 1), min(nx, column + 2))
        if free[r, c]
    )
    for _, r, c in candidates:
        cx, cy = float(riskmap.xs[c]), float(riskmap.ys[r])
        if int(crossings(barriers, x, y, cx, cy, barriers.blocks_movement)) == 0:
            return r * int(nx) + c
    raise InputError(f"{_shown(point)} is walled in: no free cell next to it", where=where)


def _simplify(
    riskmap: RiskMap, points: Sequence[Point], cells: Sequence[tuple[int, int] | None]
) -> list[Point]:
    """Drop collinear points, then straighten risk-0 stretches where a straight leg passes no
    wall and only risk-0 cells."""
    kept = [0]
    for i in range(1, len(points) - 1):
        a, b, c = points[kept[-1]], points[i], points[i + 1]
        cross = (b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0])
        scale = max(1.0, abs(c[0] - a[0]) + abs(c[1] - a[1])) * riskmap.resolution
        if abs(cross) > 1e-9 * scale:
            kept.append(i)
    kept.append(len(points) - 1)
    safe = [cell is None or riskmap.risk[cell] == 0 for cell in cells]
    # a point is "safe" when the path up to it only entered risk-0 cells since the anchor
    result = [points[kept[0]]]
    anchor = 0
    while anchor < len(kept) - 1:
        nxt = anchor + 1
        for j in range(len(kept) - 1, anchor + 1, -1):
            if _straight_ok(riskmap, points, safe, kept[anchor], kept[j]):
                nxt = j
                break
        result.append(points[kept[nxt]])
        anchor = nxt
    return result


def _straight_ok(
    riskmap: RiskMap, points: Sequence[Point], safe: Sequence[bool], i: int, j: int
) -> bool:
    if not all(safe[i + 1 : j + 1]):
        return False
    a, b = points[i], points[j]
    barriers = riskmap.board.barriers
    if int(crossings(barriers, a[0], a[1], b[0], b[1], barriers.blocks_movement)) != 0:
        return False
    samples = max(2, math.ceil(8 * math.dist(a, b) / riskmap.resolution) + 1)
    t = np.linspace(0.0, 1.0, samples)
    xs = a[0] + t * (b[0] - a[0])
    ys = a[1] + t * (b[1] - a[1])
    ny, nx = riskmap.risk.shape
    columns = np.clip(np.floor(xs / riskmap.resolution).astype(np.int64), 0, nx - 1)
    rows = np.clip(np.floor(ys / riskmap.resolution).astype(np.int64), 0, ny - 1)
    return bool(np.all(riskmap.risk[rows, columns] == 0))


# --------------------------------------------------------------------------- back into a plan


def plan_legs(route: Route, riskmap: RiskMap) -> tuple[Leg, ...]:
    """The route as plan legs at its attitude. Hidden needs cover (SK-V3): a hidden route's
    leg to a waypoint out of cover is walked at half speed, which is what a guard sees a
    hidden mover do out of cover (:func:`seen_attitude`, as the map counted it); that leg
    moves at the half-speed rate, so the plan is never slower than the route assumed."""
    legs: list[Leg] = []
    for x, y in route.waypoints[1:]:
        speed = route.attitude
        if speed is Attitude.HIDDEN and not bool(riskmap.board.in_cover(x, y)):
            speed = Attitude.HALF
        legs.append(Leg(to=(_tidy(x), _tidy(y)), speed=speed))
    return tuple(legs)


def _tidy(value: float) -> float:
    rounded = round(value, 6)
    return rounded if abs(rounded - value) < 1e-9 else value


def scenario_with_plan(scenario: Scenario, actor: str, legs: Sequence[Leg]) -> dict[str, Any]:
    """The scenario as plain data (for YAML) with ``actor``'s plan replaced by ``legs``."""
    data = scenario.model_dump(mode="json", exclude_defaults=True)
    plans = dict(data.get("plans", {}))
    plans[actor] = [leg.model_dump(mode="json", exclude_defaults=True) for leg in legs]
    data["plans"] = plans
    return data
