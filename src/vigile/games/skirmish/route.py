"""The safest route across a risk map: the least chance of being detected.

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

A named closed door may be passed (a door the intruder opens): the step through it is
allowed, and the route's plan opens it with an ``open-door`` action on the leg that ends at the
cell just before it (that waypoint is always kept). The risk stays the map's, doors as the
scenario sets them. The route works on any game's map (:class:`RiskMap`, the protocol): the
skirmish's or a d20 game's 5-ft squares.

The waypoints are the route's cell centres, simplified: collinear points are dropped, and a
stretch where every cell has risk 0 is straightened when the straight leg passes no wall and
only risk-0 cells (so the chance is unchanged and every leg stays wall-free).
"""

from __future__ import annotations

import heapq
import itertools
import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any, Final, Protocol

import numpy as np
from numpy.typing import NDArray

from vigile.errors import InputError, LimitError
from vigile.rulesets.skirmish.sight import Attitude
from vigile.scene.geometry import Barriers, crossings, on_barrier
from vigile.scene.model import Scenario, WallKind
from vigile.scene.plans import Leg, OpenDoor

__all__ = [
    "MAX_ROUTE_CELLS",
    "STEPS",
    "Route",
    "plan_legs",
    "plan_span",
    "planned",
    "safest_route",
    "scenario_with_plan",
    "step_open",
]

Point = tuple[float, float]
BoolArray = NDArray[np.bool_]
IntArray = NDArray[np.int64]


class _Board(Protocol):
    @property
    def scenario(self) -> Scenario: ...

    @property
    def barriers(self) -> Barriers: ...

    def in_cover(self, px: Any, py: Any) -> Any: ...


class RiskMap(Protocol):
    """What a route needs of a risk map, any game's (the skirmish's
    :class:`~vigile.games.skirmish.riskmap.RiskMap`, a d20 game's
    :class:`~vigile.games.d20.risk.D20RiskMap`)."""

    @property
    def board(self) -> _Board: ...

    @property
    def xs(self) -> NDArray[np.float64]: ...

    @property
    def ys(self) -> NDArray[np.float64]: ...

    @property
    def risk(self) -> NDArray[np.float64]: ...

    @property
    def resolution(self) -> float: ...

    @property
    def attitude(self) -> Any: ...

    @property
    def unit(self) -> str: ...

    def cell_of(self, x: float, y: float) -> tuple[int, int]: ...

    def per_turn(self) -> float: ...

    def leg_speed(self, x: float, y: float) -> tuple[Attitude, bool]: ...


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
    """Length of the waypoints' polyline (in the map's unit)."""
    attitude: Any
    """The attitude (skirmish) or way of moving (d20) the risk map was made for."""
    doors: tuple[tuple[int, str], ...] = ()
    """(waypoint index, door name): the closed doors the route passes, each opened by an
    ``open-door`` action at the waypoint just before it (the leg to that waypoint carries it)."""
    certain: int = 0
    """How many cells it enters where it is seen for certain: 0 unless no route avoids them,
    and then the fewest (the least-bad route, its chance 100%)."""


def turn_length(riskmap: RiskMap) -> float:
    """How far the intruder moves in one turn at the map's attitude (the engine's rates)."""
    return riskmap.per_turn()


def passable_doors(riskmap: RiskMap) -> list[int]:
    """The barriers a route may pass by opening them: the scenario's closed doors that have a
    name (an ``open-door`` action names its door)."""
    walls = riskmap.board.scenario.walls
    return [
        i
        for i, wall in enumerate(walls)
        if wall.kind is WallKind.DOOR and not wall.open and wall.name
    ]


def step_open(riskmap: RiskMap) -> tuple[BoolArray, list[BoolArray], list[IntArray]]:
    """Which cells may be stood on (not on a movement-blocking barrier); for each step
    direction of :data:`STEPS`, which steps from a cell to its neighbour pass no such barrier
    but the closed doors of :func:`passable_doors` (arrays of shape (ny, nx); a step off the
    grid is closed); and for each direction, the door each step opens (its index in the
    scenario's walls; −1: none)."""
    board = riskmap.board
    xs, ys = riskmap.xs, riskmap.ys
    gx, gy = np.meshgrid(xs, ys)
    mask = board.barriers.blocks_movement
    named = passable_doors(riskmap)
    door_mask = np.zeros(len(board.barriers), dtype=np.bool_)
    door_mask[named] = True
    door_mask &= mask
    passable = mask & ~door_mask
    free = ~on_barrier(board.barriers, gx, gy, mask)
    ny, nx = gx.shape
    opened: list[BoolArray] = []
    doors: list[IntArray] = []
    for dr, dc in STEPS:
        ok = np.zeros((ny, nx), dtype=np.bool_)
        through = np.full((ny, nx), -1, dtype=np.int64)
        rows = slice(0, ny - dr)
        cols = slice(max(0, -dc), nx - max(0, dc))
        to_rows = slice(dr, ny)
        to_cols = slice(max(0, dc), nx - max(0, -dc))
        ends = (gx[rows, cols], gy[rows, cols], gx[to_rows, to_cols], gy[to_rows, to_cols])
        blocked = crossings(board.barriers, *ends, passable)
        step_ok = (blocked == 0) & free[rows, cols] & free[to_rows, to_cols]
        if door_mask.any():
            across = crossings(board.barriers, *ends, door_mask)
            part = np.full(across.shape, -1, dtype=np.int64)
            if (across > 1).any():
                step_ok &= across <= 1  # two doors in one step: not taken
            single = step_ok & (across == 1)
            if single.any():
                for index in named:
                    one = np.zeros(len(board.barriers), dtype=np.bool_)
                    one[index] = True
                    hit = single & (crossings(board.barriers, *ends, one) > 0)
                    part[hit] = index
            through[rows, cols] = part
        ok[rows, cols] = step_ok
        opened.append(ok)
        doors.append(through)
    return free, opened, doors


def safest_route(
    riskmap: RiskMap,
    start: Point,
    goal: Point,
    *,
    prepared: tuple[BoolArray, list[BoolArray], list[IntArray]] | None = None,
) -> Route:
    """The route from ``start`` to ``goal`` with the least chance of being detected.

    ``prepared`` is :func:`step_open` of the same map, to reuse it. A start or goal outside the
    board, on a wall, or walled off from each other: a one-line :class:`InputError`. Where
    every route crosses spots seen for certain, the least-bad one: the fewest such cells, then
    the least risk elsewhere, then the shortest (:attr:`Route.certain`; its chance is 100%,
    but a designer sees where the guards must be moved). A named closed door may be passed:
    the route opens it (:attr:`Route.doors`); the risk is the map's, with the doors as the
    scenario sets them.
    """
    check_route_cells(riskmap)
    free, opened, door_steps = prepared if prepared is not None else step_open(riskmap)
    ny, nx = riskmap.risk.shape
    source = _snap(riskmap, free, start, "--from")
    target = _snap(riskmap, free, goal, "--to")
    risk = riskmap.risk.reshape(-1)
    per_turn = turn_length(riskmap)
    certain_cell = (risk >= 1.0).tolist()  # counted apart: their weight would be infinite
    weight = (-np.log1p(-np.where(risk >= 1.0, 0.0, risk)) / per_turn).tolist()
    flat_open = [o.reshape(-1).tolist() for o in opened]
    moves: list[tuple[int, int, int, int, float]] = []  # (dr, dc, direction, from-offset, len)
    for k, (dr, dc) in enumerate(STEPS):
        length = riskmap.resolution * math.hypot(dr, dc)
        moves.append((dr, dc, k, 0, length))
        moves.append((-dr, -dc, k, -(dr * nx + dc), length))
    # the cost of a way: (cells seen for certain, -log of the chance unseen elsewhere, length)
    best: list[tuple[int, float, float]] = [(ny * nx + 1, math.inf, math.inf)] * (ny * nx)
    previous = [-1] * (ny * nx)
    best[source] = (0, 0.0, 0.0)
    heap: list[tuple[int, float, float, int]] = [(0, 0.0, 0.0, source)]
    while heap:
        certain, cost, length, node = heapq.heappop(heap)
        if (certain, cost, length) > best[node]:
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
            candidate = (
                certain + certain_cell[neighbour],
                cost + weight[neighbour] * step,
                length + step,
            )
            if candidate < best[neighbour]:
                best[neighbour] = candidate
                previous[neighbour] = node
                heapq.heappush(heap, (*candidate, neighbour))
    if previous[target] == -1 and target != source:
        raise InputError(
            f"no route from {_shown(start)} to {_shown(goal)}: walls stand between them",
            where="--to",
        )
    path = [target]
    while path[-1] != source:
        path.append(previous[path[-1]])
    path.reverse()
    cells = tuple(divmod(node, nx) for node in path)
    certain, cost, _ = best[target] if target != source else (0, 0.0, 0.0)
    missed = 0.0 if certain else math.exp(-cost)
    points = [start, *((float(riskmap.xs[c]), float(riskmap.ys[r])) for r, c in cells), goal]
    opening = _doors_on(cells, door_steps, nx)  # point index (in points) -> door index
    waypoints, kept = _simplify(riskmap, points, [None, *cells, None], set(opening))
    walls = riskmap.board.scenario.walls
    doors = tuple((kept.index(at), str(walls[door].name)) for at, door in sorted(opening.items()))
    return Route(
        start=start,
        goal=goal,
        cells=cells,
        waypoints=tuple(waypoints),
        chance_seen=1.0 - missed,
        length=sum(math.dist(a, b) for a, b in itertools.pairwise(waypoints)),
        attitude=riskmap.attitude,
        doors=doors,
        certain=certain,
    )


def _doors_on(
    cells: Sequence[tuple[int, int]], door_steps: Sequence[IntArray], nx: int
) -> dict[int, int]:
    """For each step of the path that opens a door: the index (in the route's points, the
    start first) of the cell before it, and the door."""
    found: dict[int, int] = {}
    for k, ((r1, c1), (r2, c2)) in enumerate(itertools.pairwise(cells)):
        dr, dc = r2 - r1, c2 - c1
        for direction, (sr, sc) in enumerate(STEPS):
            if (dr, dc) == (sr, sc):
                door = int(door_steps[direction][r1, c1])
            elif (dr, dc) == (-sr, -sc):
                door = int(door_steps[direction][r2, c2])
            else:
                continue
            if door >= 0:
                found[k + 1] = door
            break
    return found


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
    riskmap: RiskMap,
    points: Sequence[Point],
    cells: Sequence[tuple[int, int] | None],
    keep: Collection[int] = (),
) -> tuple[list[Point], list[int]]:
    """Drop collinear points, then straighten risk-0 stretches where a straight leg passes no
    wall and only risk-0 cells; the points of ``keep`` (before a door) stay. Returns the
    waypoints and their indices in ``points``."""
    kept = [0]
    for i in range(1, len(points) - 1):
        a, b, c = points[kept[-1]], points[i], points[i + 1]
        cross = (b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0])
        scale = max(1.0, abs(c[0] - a[0]) + abs(c[1] - a[1])) * riskmap.resolution
        if abs(cross) > 1e-9 * scale or i in keep:
            kept.append(i)
    kept.append(len(points) - 1)
    safe = [cell is None or riskmap.risk[cell] == 0 for cell in cells]
    # a point is "safe" when the path up to it only entered risk-0 cells since the anchor
    result = [points[kept[0]]]
    indices = [kept[0]]
    anchor = 0
    while anchor < len(kept) - 1:
        nxt = anchor + 1
        for j in range(len(kept) - 1, anchor + 1, -1):
            if any(kept[m] in keep for m in range(anchor + 1, j)):
                continue  # never straighten past a door's waypoint
            if _straight_ok(riskmap, points, safe, kept[anchor], kept[j]):
                nxt = j
                break
        result.append(points[kept[nxt]])
        indices.append(kept[nxt])
        anchor = nxt
    return result, indices


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
#
# ``vigile route --write-plan ACTOR`` changes only the legs the route walks (plan_span): the route
# runs from A (the actor's position, or a waypoint of its plan: --from) to B (--to). It replaces
# the legs after A (the legs that stay at A and act there are kept, before it) up to the first
# leg that arrives at B; that leg keeps its wait and its actions (and its comment), only its speed
# becomes the route's. With no leg arriving at B, the route replaces the rest of the plan and
# ends it. A replaced leg may not carry what the route would drop (a climb, a wait, actions: a
# grapple, a door, a kill): that is refused, naming the leg. So is a route that would change the
# attitude the author wrote on a leg it replaces (a deliberate ``speed: hidden`` walked at half
# speed): the route must walk some of its legs at that speed and run, and the arriving leg at
# its own (check_attitudes). Every other leg, and every byte of the file outside the replaced
# legs, is kept (scenario_with_plan).


def plan_legs(route: Route, riskmap: RiskMap) -> tuple[Leg, ...]:
    """The route as plan legs at its attitude, each leg's speed (and run) as the map's game
    says (``leg_speed``: in the skirmish a hidden leg to a waypoint out of cover is walked at
    half speed, SK-V3, SK-V9; in a d20 game ``full`` is ``fast`` and ``run`` runs). The leg to
    the waypoint before a closed door ends there and opens it (an ``open-door`` action)."""
    opens: dict[int, list[str]] = {}
    for at, door in route.doors:
        opens.setdefault(at, []).append(door)
    legs: list[Leg] = []
    for k, (x, y) in enumerate(route.waypoints[1:], start=1):
        speed, run = riskmap.leg_speed(x, y)
        actions = tuple(OpenDoor(do="open-door", door=name) for name in opens.get(k, ()))
        legs.append(Leg(to=(_tidy(x), _tidy(y)), speed=speed, run=run, actions=actions))
    return tuple(legs)


def _tidy(value: float) -> float:
    rounded = round(value, 6)
    return rounded if abs(rounded - value) < 1e-9 else value


def plan_span(scenario: Scenario, actor: str, start: Point, goal: Point) -> tuple[int, int | None]:
    """Which of ``actor``'s plan legs a route from ``start`` to ``goal`` replaces: from index
    ``first`` up to the ``arrival`` leg (the first after ``first`` to arrive at ``goal``,
    included; ``None``: up to the plan's end). A one-line :class:`InputError` when ``start`` is
    neither the actor's position nor a waypoint of its plan, or when a replaced leg carries a
    climb, a wait or actions that the route would drop."""
    plan = scenario.plans.get(actor, ())
    position = (float(scenario.actor(actor).position[0]), float(scenario.actor(actor).position[1]))
    if _same(start, position):
        first = 0
    else:
        first = next((k + 1 for k, leg in enumerate(plan) if _same(leg.to, start)), -1)
        if first < 0:
            raise InputError(
                f"{actor}'s route starts where {actor} stands, {_shown(position)}, or at a "
                f"waypoint of its plan; {_shown(start)} is neither",
                where="--from",
            )
    while first < len(plan) and plan[first].to is None:
        first += 1  # what it does where the route starts is kept
    arrival = next((k for k in range(first, len(plan)) if _same(plan[k].to, goal)), None)
    stop = len(plan) if arrival is None else arrival + 1
    for k in range(first, stop):
        leg = plan[k]
        dropped = [
            what
            for what, there in (
                ("climbs", leg.climb),
                ("waits", leg.wait and k != arrival),
                (
                    "acts (" + ", ".join(a.do for a in leg.actions) + ")",
                    leg.actions and k != arrival,
                ),
            )
            if there
        ]
        if dropped:
            at = _shown(leg.to) if leg.to is not None else "where it stands"
            raise InputError(
                f"{actor}'s leg {k + 1} (to {at}) {' and '.join(dropped)}: the route would drop "
                "it; route up to that waypoint (--to) or from it (--from)",
                where="--write-plan",
            )
    return first, arrival


def check_attitudes(
    scenario: Scenario, actor: str, legs: Sequence[Leg], span: tuple[int, int | None]
) -> None:
    """Refuse, naming the leg, a route that would change the attitude the author wrote on a
    leg it replaces: a replaced leg whose ``speed`` (and ``run``) was written in the scenario
    must be one the route walks, and the arriving leg, kept, must be walked at its own; a
    leg that left its speed to the default keeps none."""
    plan = scenario.plans.get(actor, ())
    first, arrival = span
    stop = len(plan) if arrival is None else arrival + 1
    walked = {_way(leg) for leg in legs}
    for k in range(first, stop):
        leg = plan[k]
        if leg.to is None or "speed" not in leg.model_fields_set:
            continue
        route = {_way(legs[-1])} if k == arrival and legs else walked
        if _way(leg) in route:
            continue
        ways = " or ".join(sorted(_said(w) for w in route))
        raise InputError(
            f"{actor}'s leg {k + 1} (to {_shown(leg.to)}) moves {_said(_way(leg))} as written; "
            f"the route would walk it {ways}: give the --attitude that walks it so, or route up "
            "to that waypoint (--to) or from it (--from)",
            where="--write-plan",
        )


def _way(leg: Leg) -> tuple[str, bool]:
    return str(leg.speed), bool(getattr(leg, "run", False))


def _said(way: tuple[str, bool]) -> str:
    speed, run = way
    return f"{speed}, running" if run else speed


def _same(a: Sequence[float] | None, b: Point) -> bool:
    return a is not None and math.dist((float(a[0]), float(a[1])), b) < 1e-6


def planned(
    scenario: Scenario, actor: str, legs: Sequence[Leg], span: tuple[int, int | None]
) -> tuple[Leg, ...]:
    """``actor``'s plan with the legs of ``span`` (:func:`plan_span`) replaced by ``legs``."""
    plan = scenario.plans.get(actor, ())
    first, arrival = span
    if arrival is None:
        return (*plan[:first], *legs)
    kept = plan[arrival].model_copy(update={"speed": legs[-1].speed})
    return (*plan[:first], *legs[:-1], kept, *plan[arrival + 1 :])


def scenario_with_plan(
    text: str,
    scenario: Scenario,
    actor: str,
    legs: Sequence[Leg],
    span: tuple[int, int | None],
) -> str:
    """The scenario's YAML ``text`` with the legs of ``span`` (:func:`plan_span`) of ``actor``'s
    plan replaced by ``legs``; the rest of the text is kept byte for byte.

    The plan is found with ruamel.yaml's round-trip composer (each node knows where it starts
    and ends in the text) and edited in place: the replaced legs' lines give way to the new legs,
    written in the style of the plan's first leg (a flow mapping on one line, or a block); their
    end-of-line comments go with them (they describe waypoints no longer there), comment lines
    between them are kept; the arriving leg keeps its text but its speed. Where the plan is not a
    block list (absent, empty, or written ``[...]``), the file is rewritten by ruamel.yaml's
    round trip instead (it keeps comments and key order, but writes each flow collection on one
    line). The result is checked: it loads, with exactly the plan asked for.
    """
    from ruamel.yaml import YAML
    from ruamel.yaml.nodes import MappingNode, SequenceNode

    from vigile.scene.loader import parse_scenario

    expected = planned(scenario, actor, legs, span)
    root = YAML(typ="rt").compose(text)
    plan = _value(root, "plans", MappingNode)
    node = _value(plan, actor, SequenceNode) if plan is not None and not plan.flow_style else None
    if node is not None and not node.flow_style and node.value:
        written = _splice(text, node, legs, span)
    else:
        written = _round_trip(text, actor, legs, span)
    # compared as data: the scenario's legs are its game's model, the route's the shared one
    found = [leg.model_dump() for leg in parse_scenario(written).plans.get(actor, ())]
    if found != [leg.model_dump() for leg in expected]:  # pragma: no cover - a bug
        raise RuntimeError(f"the plan written for {actor} is not the route's")
    return written


def _value(node: Any, key: str, kind: type) -> Any:
    """The value under ``key`` in a mapping node, if it is a ``kind`` node."""
    from ruamel.yaml.nodes import MappingNode

    if not isinstance(node, MappingNode):
        return None
    for k, v in node.value:
        if getattr(k, "value", None) == key:
            return v if isinstance(v, kind) else None
    return None


def _line_start(text: str, index: int) -> int:
    return text.rfind("\n", 0, index) + 1


def _line_end(text: str, index: int) -> int:
    """Just past the end of the line holding ``index`` (its newline included)."""
    end = text.find("\n", index)
    return len(text) if end < 0 else end + 1


def _content_end(node: Any) -> int:
    """Where a node's own text ends (a block collection: its last value's end, not the
    comments and blank lines after it)."""
    from ruamel.yaml.nodes import MappingNode, SequenceNode

    if isinstance(node, MappingNode | SequenceNode) and not node.flow_style and node.value:
        last = node.value[-1]
        return _content_end(last[1] if isinstance(node, MappingNode) else last)
    return int(node.end_mark.index)


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def _leg_text(leg: Leg, flow: bool, indent: str) -> str:
    """One new leg (to, speed, run, its doors opened), in the plan's style, without its
    ``- ``."""
    assert leg.to is not None
    pairs = [("to", f"[{_number(leg.to[0])}, {_number(leg.to[1])}]"), ("speed", leg.speed.value)]
    if leg.run:
        pairs.append(("run", "true"))
    if leg.actions:
        doors = ", ".join(
            f"{{do: open-door, door: {_scalar(a.door)}}}"
            for a in leg.actions
            if isinstance(a, OpenDoor)
        )
        pairs.append(("actions", f"[{doors}]"))
    if flow:
        return "{" + ", ".join(f"{k}: {v}" for k, v in pairs) + "}"
    return f"\n{indent}".join(f"{k}: {v}" for k, v in pairs)


def _scalar(text: str) -> str:
    """A YAML plain scalar when it reads back as the same string, else a quoted one."""
    import json

    import yaml

    try:
        if yaml.safe_load(text) == text and "," not in text and "}" not in text:
            return text
    except yaml.YAMLError:
        pass
    return json.dumps(text, ensure_ascii=False)


def _splice(text: str, node: Any, legs: Sequence[Leg], span: tuple[int, int | None]) -> str:
    """Edit the block list ``node`` in ``text`` (see :func:`scenario_with_plan`)."""
    from ruamel.yaml.nodes import MappingNode

    items = node.value
    first, arrival = span
    head = items[0]
    prefix = text[_line_start(text, head.start_mark.index) : head.start_mark.index]  # "    - "
    flow = bool(head.flow_style) or not isinstance(head, MappingNode)
    indent = " " * len(prefix)
    edits: list[tuple[int, int, str]] = []  # (start, end, new text), applied from the end
    if arrival is not None:
        kept = items[arrival]
        speed = legs[-1].speed.value
        pairs = {k.value: (k, v) for k, v in kept.value}
        if "speed" in pairs:
            value = pairs["speed"][1]
            edits.append((value.start_mark.index, value.end_mark.index, speed))
        elif speed != "half":
            key, value = pairs["to"]
            extra = (
                f", speed: {speed}"
                if kept.flow_style
                else f"\n{' ' * key.start_mark.column}speed: {speed}"
            )
            edits.append((_content_end(value), _content_end(value), extra))
    new = legs if arrival is None else legs[:-1]
    stop = len(items) if arrival is None else arrival
    lines = "".join(f"{prefix}{_leg_text(leg, flow, indent)}\n" for leg in new)
    if first < stop:
        start = _line_start(text, items[first].start_mark.index)
        end = _line_end(text, _content_end(items[stop - 1]))
        spans = [(i.start_mark.index, _content_end(i)) for i in items[first:stop]]
        notes = ""
        position = start
        while position < end:
            line_end = _line_end(text, position)
            line = text[position:line_end]
            inside = any(a <= position < b for a, b in spans)
            if line.strip().startswith("#") and not inside:
                notes += line if line.endswith("\n") else line + "\n"
            position = line_end
        edits.append((start, end, notes + lines))
    else:
        at = (
            _line_end(text, _content_end(items[first - 1]))
            if first
            else _line_start(text, items[0].start_mark.index)
        )
        if at == len(text) and not text.endswith("\n"):
            lines = "\n" + lines
        edits.append((at, at, lines))
    for start, end, replacement in sorted(edits, reverse=True):
        text = text[:start] + replacement + text[end:]
    return text


def _round_trip(text: str, actor: str, legs: Sequence[Leg], span: tuple[int, int | None]) -> str:
    """Rewrite the file through ruamel.yaml's round trip, ``actor``'s plan edited."""
    import io

    from ruamel.yaml import YAML
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    yaml = YAML(typ="rt")
    yaml.width = 4096
    yaml.indent(mapping=2, sequence=4, offset=2)
    data = yaml.load(text)
    plans = data.get("plans")
    if not isinstance(plans, dict):
        plans = data["plans"] = CommentedMap()
    old = list(plans.get(actor) or [])
    first, arrival = span
    seq = CommentedSeq(old[:first])
    if arrival is None:
        seq.extend(_flow_leg(leg) for leg in legs)
    else:
        seq.extend(_flow_leg(leg) for leg in legs[:-1])
        old[arrival]["speed"] = legs[-1].speed.value
        seq.extend(old[arrival:])
    plans[actor] = seq
    out = io.StringIO()
    yaml.dump(data, out)
    return out.getvalue()


def _flow_leg(leg: Leg) -> Any:
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    assert leg.to is not None
    to = CommentedSeq(int(v) if float(v).is_integer() else float(v) for v in leg.to)
    to.fa.set_flow_style()
    item = CommentedMap([("to", to), ("speed", leg.speed.value)])
    if leg.run:
        item["run"] = True
    if leg.actions:
        actions = CommentedSeq()
        for action in leg.actions:
            if isinstance(action, OpenDoor):
                door = CommentedMap([("do", "open-door"), ("door", action.door)])
                door.fa.set_flow_style()
                actions.append(door)
        actions.fa.set_flow_style()
        item["actions"] = actions
    item.fa.set_flow_style()
    return item
