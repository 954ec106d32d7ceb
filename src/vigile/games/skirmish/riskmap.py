"""Exact risk maps of a skirmish board: the chance of being seen (or heard) in one turn.

For each point of a grid over the board, the chance that an intruder standing there with a
given attitude is seen by at least one defender in one turn, ``1 − ∏(1 − p_guard)``, where
``p_guard`` is the exact chance of that guard's sight check (SK-V1..SK-V9). With a noise event
(SK-N1..SK-N8), the chance that the noise made there is heard by at least one defender who does
not see the spot for certain.

One home per rule: nothing here re-implements a rule. A guard's sight chance depends on the
distance only through its strict thresholds (the rule module's cases:
:class:`~vigile.rulesets.skirmish.sight.SightDistances`); so for each guard the rule function is
called once per distance class (between two thresholds), attitude, lit or not and line of sight
or not, and the resulting little table of exact ``Fraction``\\ s is indexed with numpy arrays.
A noise chance depends on the distance only through its whole steps (SK-N4,
:func:`~vigile.rulesets.skirmish.noise.distance_steps`), so the rule is called once per distinct
(surface, steps, walls) that occurs on the board, at the distance of one point of that class.
Per-guard chances are combined exactly: each point carries the id of its combination of
per-guard cases, and each combination's ``Fraction`` is computed once. The floats of
:attr:`RiskMap.risk` are ``float()`` of those ``Fraction``\\ s, and :meth:`Board.risk_at`
answers for any single point by calling the rule functions directly (the slow, obvious path the
tests compare against).

Rulings of the map (the notes say them): guards stand at their start positions; what a guard
sees an intruder of the map's attitude doing at a point is the turn engine's own ruling
(``seen_attitude``: moving hidden out of cover is seen as half speed, standing still in cover as
hidden); lit means within a light's radius with no wall between (SK-V5); the board, barriers,
lights and ground are the engine's (:class:`vigile.engine.board.Board`); a death on tile or
stone falls as on a floor (``death_surface``); a listener that sees the spot for certain
(SK-V2, SK-V5, by day) does not count as hearing it (SK-N1: noise is for those who cannot see).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Final

import numpy as np
from numpy.typing import NDArray

from vigile.engine.board import Board as PlayBoard
from vigile.errors import InputError, LimitError
from vigile.games.contract import RiskRequest, unknown_switches
from vigile.games.skirmish.fields import skirmish_actor
from vigile.games.skirmish.raid import skirmish_board
from vigile.rulesets.data import RuleData
from vigile.rulesets.senses import Sense
from vigile.rulesets.skirmish.common import MAX_DISTANCE_CM, Roller
from vigile.rulesets.skirmish.movement import turn_rate
from vigile.rulesets.skirmish.noise import (
    NoiseEvent,
    death_surface,
    distance_step_cm,
    noise_check,
)
from vigile.rulesets.skirmish.sight import Attitude, seen_attitude, sight_check, sight_distances
from vigile.scene.actors import Outfit, Side
from vigile.scene.geometry import (
    Barriers,
    crossings,
)
from vigile.scene.model import Scenario

__all__ = [
    "MAX_CELLS",
    "MAX_CELL_GUARDS",
    "Board",
    "Guard",
    "RiskMap",
    "auto_resolution",
    "check_resolution",
    "effective_attitude",
    "grid_axes",
    "guards_of",
    "outfit_unsuited",
    "plugin_risk_map",
    "risk_map",
    "sight_thresholds",
]

FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]
IntArray = NDArray[np.int64]

MAX_CELLS: Final = 4_000_000
"""No grid has more cells (a LimitError beyond)."""
AUTO_CELLS: Final = 250_000
"""The automatic resolution is the finest of 1, 2, 5, 10... cm that stays under this."""
MAX_CELL_GUARDS: Final = 2_000_000
"""No risk map looks at more (grid cell, guard) pairs: its work grows with both, and this
bounds it to a few seconds. A finer grid or more guards is refused (a LimitError) before any
work; the automatic resolution coarsens to stay under it."""


@dataclass(frozen=True)
class Guard:
    """A defender as the map sees it: where it stands and what it rolls."""

    name: str
    """The actor's name."""
    x: float
    """Start position, x (cm)."""
    y: float
    """Start position, y (cm)."""
    dice: int
    """Dice rolled for sight and noise tests (SK-D1)."""
    alert: bool
    """On alert (SK-V4, SK-N6): its own flag, or everyone after being seen scouting (SK-G3)."""
    sees: bool = True
    """Has sight."""
    hears: bool = True
    """Has hearing."""


@dataclass(frozen=True, eq=False)
class Board:
    """A skirmish scenario prepared for maps: the engine's board (barriers, lights, cover,
    ground: one home, :class:`vigile.engine.board.Board`) and the guards at their posts."""

    scenario: Scenario
    """The scenario."""
    rules: RuleData
    """Its rule numbers, house rules applied."""
    place: PlayBoard
    """The board as the turn engine builds it, doors as the scenario sets them: what blocks
    sight, counts for noise and stops walkers (SK-V6, SK-N5, SK-G1), lights, cover, ground."""
    guards: tuple[Guard, ...]
    """The defenders."""

    @classmethod
    def of(cls, scenario: Scenario, guards: Sequence[Guard] | None = None) -> Board:
        """Prepare ``scenario`` (skirmish only); ``guards`` replaces its defenders if given."""
        if scenario.ruleset != "skirmish":
            raise InputError(
                f"risk maps and routes exist for skirmish scenarios; "
                f"this one is {scenario.ruleset}",
                where="SCENARIO",
            )
        rules = scenario.rules()
        return cls(
            scenario=scenario,
            rules=rules,
            place=skirmish_board(scenario, rules),
            guards=tuple(guards) if guards is not None else guards_of(scenario),
        )

    # ------------------------------------------------------------------ where things are

    @property
    def barriers(self) -> Barriers:
        """The barriers, doors as the scenario sets them."""
        return self.place.barriers

    def lit(self, px: FloatArray | float, py: FloatArray | float) -> BoolArray:
        """Within a light's radius, with no wall between (SK-V5: the light must reach)."""
        return self.place.lit_points(px, py)

    def in_cover(self, px: FloatArray | float, py: FloatArray | float) -> BoolArray:
        """Inside a cover area (SK-V3)."""
        return self.place.cover_points(px, py)

    def death_surface(self, px: FloatArray | float, py: FloatArray | float) -> NDArray[np.str_]:
        """The ground kind at each point (the scenario's default where no region is)."""
        return self.place.ground_points(px, py)

    # ------------------------------------------------------------------ one point, by the rules

    def sight_chance(
        self, guard: Guard, x: float, y: float, attitude: Attitude, *, unsuited: bool = False
    ) -> Fraction:
        """Exact chance that ``guard`` sees an intruder at (x, y): one call of the sight rule."""
        if not guard.sees:
            return Fraction(0)
        cover = bool(self.in_cover(x, y))
        los = int(crossings(self.barriers, guard.x, guard.y, x, y, self.barriers.blocks_sight))
        return sight_check(
            self.rules,
            attitude=effective_attitude(attitude, cover),
            distance_cm=float(np.hypot(x - guard.x, y - guard.y)),
            alert=guard.alert,
            unsuited_outfit=unsuited,
            lit=bool(self.lit(x, y)),
            time=self.scenario.time,
            line_of_sight=los == 0,
            roller=Roller(guard.dice),
        ).chance

    def noise_chance(
        self,
        guard: Guard,
        x: float,
        y: float,
        event: NoiseEvent,
        attitude: Attitude,
        *,
        unsuited: bool = False,
    ) -> Fraction:
        """Exact chance that ``guard`` hears ``event`` at (x, y): one call of the noise rule,
        or 0 when the guard sees the spot for certain (then it sees, it does not listen)."""
        if not guard.hears:
            return Fraction(0)
        if self.sight_chance(guard, x, y, attitude, unsuited=unsuited) == 1:
            return Fraction(0)
        distance = float(np.hypot(x - guard.x, y - guard.y))
        if distance > MAX_DISTANCE_CM:
            return Fraction(0)
        walls = int(
            crossings(self.barriers, guard.x, guard.y, x, y, self.barriers.counts_for_noise)
        )
        surface = (
            death_surface(str(self.death_surface(x, y))) if event is NoiseEvent.DEATH else None
        )
        return noise_check(
            self.rules,
            event=event,
            surface=surface,
            distance_cm=distance,
            barriers=walls,
            time=self.scenario.time,
            alert=guard.alert,
            roller=Roller(guard.dice),
        ).chance

    def risk_at(
        self,
        x: float,
        y: float,
        attitude: Attitude,
        *,
        noise: NoiseEvent | None = None,
        unsuited: bool = False,
    ) -> Fraction:
        """Exact chance of being seen (or heard) by at least one guard at (x, y) in one turn."""
        missed = Fraction(1)
        for guard in self.guards:
            if noise is None:
                chance = self.sight_chance(guard, x, y, attitude, unsuited=unsuited)
            else:
                chance = self.noise_chance(guard, x, y, noise, attitude, unsuited=unsuited)
            missed *= 1 - chance
        return 1 - missed


def guards_of(scenario: Scenario) -> tuple[Guard, ...]:
    """The scenario's defenders at their start positions; all on alert if the attackers were
    seen scouting (SK-G3)."""
    everyone_alert = scenario.scouting.detected_while_scouting
    return tuple(
        Guard(
            name=actor.name,
            x=actor.position[0],
            y=actor.position[1],
            dice=skirmish_actor(actor).detection_pool(),
            alert=actor.alert or everyone_alert,
            sees=Sense.SIGHT in actor.senses,
            hears=Sense.HEARING in actor.senses,
        )
        for actor in scenario.actors
        if actor.side is Side.DEFENDERS
    )


def effective_attitude(attitude: Attitude, in_cover: bool) -> Attitude:
    """What a guard sees an intruder of the map's ``attitude`` doing at a point (SK-V3,
    SK-V9): the turn engine's own ruling (:func:`seen_attitude`), the intruder moving at that
    attitude this turn (or not moving, for ``immobile``)."""
    return seen_attitude(None if attitude is Attitude.IMMOBILE else attitude, in_cover=in_cover)


# --------------------------------------------------------------------------- the grid


def check_resolution(resolution: float, width: float, height: float, guards: int = 1) -> float:
    """Refuse a resolution that is not a positive number, coarser than the board, or so fine
    that the grid would exceed :data:`MAX_CELLS`, or its cells times the ``guards`` would
    exceed :data:`MAX_CELL_GUARDS`."""
    if not math.isfinite(resolution) or resolution <= 0:
        raise InputError(
            f"{resolution:g} is not a resolution (a positive number of cm)", where="--resolution"
        )
    if resolution > min(width, height):
        raise InputError(
            f"{resolution:g} cm is coarser than the board ({width:g} × {height:g} cm)",
            where="--resolution",
        )
    nx, ny = _cells(resolution, width), _cells(resolution, height)
    if nx * ny > MAX_CELLS:
        raise LimitError(
            f"--resolution: {resolution:g} cm makes a grid of {nx} × {ny} = {nx * ny:,} cells; "
            f"at most {MAX_CELLS:,}"
        )
    if nx * ny * max(1, guards) > MAX_CELL_GUARDS:
        raise LimitError(
            f"--resolution: {resolution:g} cm makes {nx * ny:,} cells for {guards:,} guards, "
            f"{nx * ny * guards:,} cell-guard pairs; at most {MAX_CELL_GUARDS:,} "
            "(a coarser --resolution, or fewer guards)"
        )
    return resolution


def auto_resolution(width: float, height: float, guards: int = 1) -> float:
    """The finest of 1, 2, 5, 10, 20, 50... cm whose grid has at most :data:`AUTO_CELLS` cells,
    and at most :data:`MAX_CELL_GUARDS` cell-guard pairs with ``guards`` guards."""
    most = min(AUTO_CELLS, MAX_CELL_GUARDS // max(1, guards))
    scale = 1.0
    while True:
        for step in (1.0, 2.0, 5.0):
            resolution = step * scale
            if _cells(resolution, width) * _cells(resolution, height) <= most:
                return resolution
        scale *= 10


def _cells(resolution: float, extent: float) -> int:
    return max(1, math.floor(extent / resolution + 0.5))


def grid_axes(width: float, height: float, resolution: float) -> tuple[FloatArray, FloatArray]:
    """Cell centres along x and y: ``(i + ½) · resolution``, all inside the board."""
    xs = (np.arange(_cells(resolution, width), dtype=np.float64) + 0.5) * resolution
    ys = (np.arange(_cells(resolution, height), dtype=np.float64) + 0.5) * resolution
    return np.minimum(xs, width), np.minimum(ys, height)


# --------------------------------------------------------------------------- the map


@dataclass(frozen=True, eq=False)
class RiskMap:
    """The chance of being seen (or heard) in one turn at each cell centre of a grid."""

    board: Board
    """The prepared scenario."""
    attitude: Attitude
    """The intruder's attitude (SK-V3)."""
    noise: NoiseEvent | None
    """The noise event mapped, or None for sight."""
    unsuited: bool
    """The intruder's outfit is ill-suited to hiding (SK-V4)."""
    resolution: float
    """Cell size (cm)."""
    xs: FloatArray
    """Cell centres along x, shape (nx,)."""
    ys: FloatArray
    """Cell centres along y, shape (ny,)."""
    risk: FloatArray
    """Chance per cell, shape (ny, nx): ``float()`` of :meth:`exact`."""
    combination: IntArray
    """Per cell, the id of its combination of per-guard chances, shape (ny, nx)."""
    exact_chances: tuple[Fraction, ...]
    """The exact chance of each combination id."""
    notes: tuple[str, ...]
    """Message keys of the rulings this map follows."""
    unit: str = "cm"
    """The unit of its coordinates."""

    def exact(self, row: int, column: int) -> Fraction:
        """The exact chance at cell (row = y index, column = x index), from the arrays."""
        return self.exact_chances[int(self.combination[row, column])]

    def risk_at(self, x: float, y: float) -> Fraction:
        """The exact chance at any point (x, y), by calling the rule functions there."""
        return self.board.risk_at(x, y, self.attitude, noise=self.noise, unsuited=self.unsuited)

    def cell_of(self, x: float, y: float) -> tuple[int, int]:
        """(row, column) of the cell whose centre is nearest to (x, y)."""
        column = int(np.clip(np.floor(x / self.resolution), 0, self.xs.size - 1))
        row = int(np.clip(np.floor(y / self.resolution), 0, self.ys.size - 1))
        return row, column

    def worst(self) -> tuple[int, int]:
        """(row, column) of the riskiest cell (the first one, row by row)."""
        row, column = np.unravel_index(int(np.argmax(self.risk)), self.risk.shape)
        return int(row), int(column)

    def per_turn(self) -> float:
        """How far the intruder moves in one turn at the map's attitude (the engine's rates)."""
        return turn_rate(self.board.rules, self.attitude)

    def leg_speed(self, x: float, y: float) -> tuple[Attitude, bool]:
        """A plan leg's speed to (x, y) at the map's attitude, and no run. Hidden needs cover
        (SK-V3): a hidden leg to a waypoint out of cover is walked at half speed, which is what
        a guard sees a hidden mover do out of cover (:func:`seen_attitude`, as the map counted
        it); that leg moves at the half-speed rate, so the plan is never slower than the route
        assumed."""
        if self.attitude is Attitude.HIDDEN and not bool(self.board.in_cover(x, y)):
            return Attitude.HALF, False
        return self.attitude, False

    def guards_json(self) -> list[dict[str, object]]:
        """The guards as ``vigile riskmap --json`` lists them."""
        return [
            {"name": g.name, "at": [g.x, g.y], "dice": g.dice, "alert": g.alert}
            for g in self.board.guards
        ]


def risk_map(
    scene: Scenario | Board,
    attitude: Attitude,
    *,
    resolution: float | None = None,
    noise: NoiseEvent | None = None,
    unsuited: bool | None = None,
) -> RiskMap:
    """The exact risk map of a skirmish scenario for an intruder of ``attitude``.

    ``resolution`` is the cell size in cm (default: :func:`auto_resolution`); ``noise`` maps the
    chance that this event is heard instead of the chance of being seen; ``unsuited`` says the
    intruder wears clothes ill-suited to hiding (SK-V4; default: no).
    """
    board = scene if isinstance(scene, Board) else Board.of(scene)
    size = board.scenario.map
    guards = len(board.guards)
    if resolution is None:
        resolution = auto_resolution(size.width, size.height, guards)
    check_resolution(resolution, size.width, size.height, guards)
    xs, ys = grid_axes(size.width, size.height, resolution)
    px, py = (a.reshape(-1) for a in np.meshgrid(xs, ys))
    outfit = bool(unsuited)
    points = _Points(board, px, py, attitude)
    per_guard = [
        _sight_cases(board, guard, points, outfit)
        if noise is None
        else _noise_cases(board, guard, points, noise, outfit)
        for guard in board.guards
    ]
    ids, exact = _combine(per_guard, px.size)
    floats = np.array([float(chance) for chance in exact], dtype=np.float64)
    shape = (ys.size, xs.size)
    notes = ["sim.note.start_positions", "sim.note.lit"]
    if attitude is Attitude.HIDDEN:
        notes.append("sim.note.hidden_needs_cover")
    if noise is not None:
        notes.append("sim.note.listeners")
        if noise is NoiseEvent.DEATH:
            notes.append("sim.note.death_surface")
    return RiskMap(
        board=board,
        attitude=attitude,
        noise=noise,
        unsuited=outfit,
        resolution=float(resolution),
        xs=xs,
        ys=ys,
        risk=floats[ids].reshape(shape),
        combination=ids.reshape(shape),
        exact_chances=tuple(exact),
        notes=tuple(notes),
    )


class _Points:
    """What every guard's lookup shares about the grid points: attitude, lit, cover."""

    def __init__(self, board: Board, px: FloatArray, py: FloatArray, attitude: Attitude) -> None:
        self.x = px
        self.y = py
        self.lit = board.lit(px, py)
        in_cover, open_ground = (
            effective_attitude(attitude, True),
            effective_attitude(attitude, False),
        )
        if in_cover is not open_ground:
            cover = board.in_cover(px, py)
            self.attitudes: tuple[Attitude, ...] = (in_cover, open_ground)
            self.attitude_index: IntArray = np.where(cover, 0, 1).astype(np.int64)
        else:
            self.attitudes = (open_ground,)
            self.attitude_index = np.zeros(px.size, dtype=np.int64)


Cases = tuple[IntArray, list[Fraction]]
"""Per point, the index of its case in a list of exact chances."""


def sight_thresholds(rules: RuleData) -> list[float]:
    """0 and every distance the sight rule compares with, sorted (the rule's own cases,
    :meth:`~vigile.rulesets.skirmish.sight.SightDistances.thresholds`): strictly (SK-V8), so
    its answer is the same everywhere between two consecutive ones."""
    return sight_distances(rules).thresholds()


def _sight_table(
    board: Board, guard: Guard, attitudes: Sequence[Attitude], unsuited: bool
) -> list[Fraction]:
    """The guard's sight chance for each (attitude, distance class, lit, line of sight), in
    that order (last fastest): one call of the rule per case."""
    table: list[Fraction] = []
    for attitude in attitudes:
        for distance in sight_thresholds(board.rules):
            for lit in (False, True):
                for los in (False, True):
                    table.append(
                        sight_check(
                            board.rules,
                            attitude=attitude,
                            distance_cm=distance,
                            alert=guard.alert,
                            unsuited_outfit=unsuited,
                            lit=lit,
                            time=board.scenario.time,
                            line_of_sight=los,
                            roller=Roller(guard.dice),
                        ).chance
                    )
    return table


def _sight_index(
    board: Board, guard: Guard, points: _Points, table: Sequence[Fraction]
) -> IntArray:
    """Each point's case in the guard's sight table. Line of sight is traced only where the
    table says it changes the answer."""
    thresholds = np.array(sight_thresholds(board.rules), dtype=np.float64)
    distance = np.hypot(points.x - guard.x, points.y - guard.y)
    band = np.searchsorted(thresholds, distance, side="right").astype(np.int64) - 1
    base = ((points.attitude_index * thresholds.size + band) * 2 + points.lit) * 2
    differs = np.array([a != b for a, b in zip(table[1::2], table[0::2], strict=True)])
    matters = differs[base // 2]
    los = np.ones(points.x.size, dtype=np.int64)
    if matters.any():
        chosen = np.flatnonzero(matters)
        blocked = crossings(
            board.barriers,
            guard.x,
            guard.y,
            points.x[chosen],
            points.y[chosen],
            board.barriers.blocks_sight,
        )
        los[chosen] = (blocked == 0).astype(np.int64)
    result: IntArray = base + los
    return result


def _sight_cases(board: Board, guard: Guard, points: _Points, unsuited: bool) -> Cases:
    if not guard.sees:
        return np.zeros(points.x.size, dtype=np.int64), [Fraction(0)]
    table = _sight_table(board, guard, points.attitudes, unsuited)
    index = _sight_index(board, guard, points, table)
    return index, table


def _noise_cases(
    board: Board, guard: Guard, points: _Points, event: NoiseEvent, unsuited: bool
) -> Cases:
    """The guard's noise chance per point: one call of the noise rule per distinct
    (surface, whole steps, walls) on the board; 0 where it hears nothing or sees for certain."""
    n = points.x.size
    if not guard.hears:
        return np.zeros(n, dtype=np.int64), [Fraction(0)]
    distance = np.hypot(points.x - guard.x, points.y - guard.y)
    silent = distance > MAX_DISTANCE_CM
    if guard.sees:
        table = _sight_table(board, guard, points.attitudes, unsuited)
        index = _sight_index(board, guard, points, table)
        certain = np.array([chance == 1 for chance in table], dtype=np.bool_)
        silent |= certain[index]
    walls = crossings(
        board.barriers, guard.x, guard.y, points.x, points.y, board.barriers.counts_for_noise
    )
    # the whole steps of SK-N4 (night or day), as the rule counts them (``distance_steps``)
    step = distance_step_cm(board.rules, board.scenario.time)
    steps = np.floor_divide(distance, float(step)).astype(np.int64)
    surface = np.zeros(n, dtype=np.int64)
    kinds: list[str] = [""]
    if event is NoiseEvent.DEATH:
        names = board.death_surface(points.x, points.y)
        found, inverse = np.unique(names, return_inverse=True)
        kinds = [str(kind) for kind in found]
        surface = inverse.reshape(-1).astype(np.int64)
    steps = np.where(silent, 0, steps)
    walls = np.where(silent, 0, walls)
    key = (surface * (int(steps.max(initial=0)) + 1) + steps) * (int(walls.max(initial=0)) + 1)
    key = np.where(silent, -1, key + walls)
    unique, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    chances: list[Fraction] = []
    for value, at in zip(unique.tolist(), first.tolist(), strict=True):
        if value < 0:
            chances.append(Fraction(0))
            continue
        chances.append(
            noise_check(
                board.rules,
                event=event,
                surface=death_surface(kinds[int(surface[at])])
                if event is NoiseEvent.DEATH
                else None,
                distance_cm=float(distance[at]),
                barriers=int(walls[at]),
                time=board.scenario.time,
                alert=guard.alert,
                roller=Roller(guard.dice),
            ).chance
        )
    return inverse.reshape(-1).astype(np.int64), chances


def _combine(per_guard: Iterable[Cases], n: int) -> tuple[IntArray, list[Fraction]]:
    """Exact ``1 − ∏(1 − p)`` per point: points sharing a combination of per-guard cases share
    an id, and each id's product is computed once, as a Fraction."""
    ids = np.zeros(n, dtype=np.int64)
    missed = [Fraction(1)]
    for index, chances in per_guard:
        if all(chance == 0 for chance in chances):
            continue
        key = ids * len(chances) + index
        _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
        missed = [
            missed[previous] * (1 - chances[case])
            for previous, case in zip(ids[first].tolist(), index[first].tolist(), strict=True)
        ]
        ids = inverse.reshape(-1).astype(np.int64)
    return ids, [1 - value for value in missed]


def outfit_unsuited(scenario: Scenario, actor: str | None) -> bool:
    """Whether ``actor`` (an attacker) wears an outfit ill-suited to hiding (SK-V4)."""
    if actor is None:
        return False
    return skirmish_actor(scenario.actor(actor)).outfit is Outfit.UNSUITED


def plugin_risk_map(scenario: Scenario, request: RiskRequest) -> RiskMap:
    """The game's risk map hook (:class:`vigile.games.contract.RiskMapHook`): the attitude by
    name; ``actor``, the attacker whose outfit counts (SK-V4) unless the ``unsuited-outfit``
    switch is given; a ``sound``, a noise event to map; ``layer`` is a d20 map's (refused: a
    skirmish map is of sight, or of a noise)."""
    if request.layer is not None:
        raise InputError(
            "--layer is a d20 map's; a skirmish map is of sight, or of a --noise EVENT",
            where="--layer",
        )
    unknown_switches(request, ("unsuited-outfit",))
    try:
        chosen = Attitude(request.way)
    except ValueError:
        raise InputError(
            f"{request.way!r} is not an attitude: one of " + ", ".join(a.value for a in Attitude),
            where="--attitude",
        ) from None
    try:
        noise = None if request.sound is None else NoiseEvent(request.sound)
    except ValueError:
        raise InputError(
            f"{request.sound!r} is not a noise: one of " + ", ".join(n.value for n in NoiseEvent),
            where="--noise",
        ) from None
    unsuited = "unsuited-outfit" in request.switches
    return risk_map(
        scenario,
        chosen,
        resolution=request.resolution,
        noise=noise,
        unsuited=unsuited or outfit_unsuited(scenario, request.actor),
    )
