"""What the batched simulator precomputes once per scenario: the schedule, the guards, the walls
for each state of the doors, and the chances of the checks as the rule functions give them.

The chances are never recomputed here: each table entry is the ``chance`` of a call to the rule
function (``noise_check``, ``sight_check``, ``move_check``, ``alarm_check``) for one case, cached.
A case is chosen so that the rule gives the same answer for every distance it stands for: the
noise rule reads a distance only through its whole steps (SK-N4), the sight rule only through its
strict bands (SK-V2, SK-V3, SK-V8). ``tests/test_sim.py`` checks the tables against the rule
functions at random distances.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from vigile.engine.board import Board
from vigile.errors import InputError
from vigile.games.skirmish.raid import skirmish_board
from vigile.games.skirmish.schedule import Turn, schedule
from vigile.rulesets.data import RuleData
from vigile.rulesets.skirmish.alarm import alarm_check, struck_guard_sees
from vigile.rulesets.skirmish.common import Roller
from vigile.rulesets.skirmish.movement import Speed, move_check
from vigile.rulesets.skirmish.noise import (
    NoiseEvent,
    Surface,
    death_surface,
    distance_step_cm,
    heard_puts_on_alert,
    noise_check,
)
from vigile.rulesets.skirmish.sight import Attitude, sight_check
from vigile.scene.actors import GuardState, Outfit, Side
from vigile.scene.geometry import Barriers, Region
from vigile.scene.model import Scenario

FloatArray = np.ndarray[tuple[int, ...], np.dtype[np.float64]]


@dataclass
class Tables:
    """The rule functions' chances, cached by case."""

    rules: RuleData
    scenario: Scenario
    noise: dict[tuple[object, ...], float] = field(default_factory=dict)
    sight: dict[tuple[object, ...], float] = field(default_factory=dict)

    def noise_chance(
        self,
        event: NoiseEvent,
        surface: Surface | None,
        steps: int,
        barriers: int,
        alert: bool,
        dice: int,
    ) -> float:
        """The chance ``noise_check`` gives at ``steps`` whole distance steps (SK-N4)."""
        key = (event, surface, steps, barriers, alert, dice)
        found = self.noise.get(key)
        if found is None:
            step = distance_step_cm(self.rules, self.scenario.time)
            verdict = noise_check(
                self.rules,
                event=event,
                surface=surface,
                distance_cm=steps * step,
                barriers=barriers,
                time=self.scenario.time,
                alert=alert,
                roller=Roller(dice),
            )
            found = self.noise[key] = float(verdict.chance)
        return found

    def sight_chance(
        self,
        attitude: Attitude,
        near_auto: bool,
        in_band: bool,
        lit: bool,
        seen_line: bool,
        alert: bool,
        outfit: bool,
        dice: int,
    ) -> float:
        """The chance ``sight_check`` gives for a distance in the given bands (SK-V2, SK-V3)."""
        key = (attitude, near_auto, in_band, lit, seen_line, alert, outfit, dice)
        found = self.sight.get(key)
        if found is None:
            verdict = sight_check(
                self.rules,
                attitude=attitude,
                distance_cm=self.representative(attitude, near_auto, in_band),
                alert=alert,
                unsuited_outfit=outfit,
                lit=lit,
                time=self.scenario.time,
                line_of_sight=seen_line,
                roller=Roller(dice),
            )
            found = self.sight[key] = float(verdict.chance)
        return found

    def representative(self, attitude: Attitude, near_auto: bool, in_band: bool) -> float:
        """A distance that falls in the same bands: under the SK-V2 limit or not, under the
        attitude's SK-V3 band or not (both strict, SK-V8)."""
        auto = float(self.rules.num("sight.auto_moving_cm"))
        band = float(self.rules.num(f"sight.band_cm.{attitude.value}"))
        if near_auto and in_band:
            return 0.0
        if in_band:
            return auto
        if near_auto:
            return band
        return max(auto, band)


@dataclass(frozen=True)
class OpenGround:
    """Which walls a move of a given length can meet, by cell of the map.

    A move of length L never goes farther than L from where it starts, bounces included, so only
    the movement-blocking walls within L of its start can stop or turn it. For each cell (2 cm,
    coarser on a big board) this keeps those walls (with a margin of the cell's half diagonal): a
    cell with none, far from the border too, needs no bounce test at all; the others are traced
    against their few walls only. Exact, not approximate, whatever the cell size: a coarser cell
    only widens the margin. The grid holds at most :data:`MAX_GROUND_CELLS` cells, and its
    wall-by-cell table at most :data:`MAX_GROUND_PAIRS` entries, so memory does not grow with
    the board's area (a 10 m × 10 m board is already at the bound).
    """

    cell: float
    columns: int
    rows: int
    open: np.ndarray[tuple[int, int], np.dtype[np.bool_]]
    group: np.ndarray[tuple[int, int], np.dtype[np.int64]]
    """For each cell, the index in :attr:`members` of the walls its moves can meet; -1 for
    an open cell."""
    members: tuple[tuple[int, ...], ...]
    """For each group, the indices (in :attr:`source`) of its walls."""
    source: Barriers
    unions: dict[frozenset[int], Barriers] = field(default_factory=dict, compare=False)

    @classmethod
    def of(cls, walls: Barriers, width: float, height: float, length: float) -> OpenGround:
        blocking = np.nonzero(walls.blocks_movement)[0]
        cell = ground_cell(width, height, len(blocking))
        columns, rows = int(np.ceil(width / cell)), int(np.ceil(height / cell))
        cx = (np.arange(columns) + 0.5) * cell
        cy = (np.arange(rows) + 0.5) * cell
        px, py = np.meshgrid(cx, cy, indexing="ij")
        margin = length + cell * 0.75 + 1e-3  # the cell's half diagonal is cell / sqrt(2)
        border = np.minimum.reduce([px, py, width - px, height - py])
        near = np.zeros((len(blocking), columns, rows), np.bool_)
        for row, k in enumerate(blocking):
            near[row] = (
                _distance_to_segment(px, py, walls.x1[k], walls.y1[k], walls.x2[k], walls.y2[k])
                <= margin
            )
        clear = (border > margin) & ~near.any(axis=0)
        keys: dict[tuple[int, ...], int] = {}
        group = np.full((columns, rows), -1, np.int64)
        for i in range(columns):
            for j in range(rows):
                if clear[i, j]:
                    continue
                key = tuple(int(k) for k in blocking[near[:, i, j]])
                if key not in keys:
                    keys[key] = len(keys)
                group[i, j] = keys[key]
        return cls(cell, columns, rows, clear, group, tuple(keys), walls)

    def cells(self, x: FloatArray, y: FloatArray) -> tuple[IntArray, IntArray]:
        i = np.clip((x / self.cell).astype(np.int64), 0, self.columns - 1)
        j = np.clip((y / self.cell).astype(np.int64), 0, self.rows - 1)
        return i, j

    def free(self, x: FloatArray, y: FloatArray) -> np.ndarray[tuple[int], np.dtype[np.bool_]]:
        """True for the points in open cells."""
        i, j = self.cells(x, y)
        result: np.ndarray[tuple[int], np.dtype[np.bool_]] = self.open[i, j]
        return result

    def move(
        self,
        x: FloatArray,
        y: FloatArray,
        dx: FloatArray,
        dy: FloatArray,
        width: float,
        height: float,
        bounces: int,
        margin: float,
    ) -> tuple[FloatArray, FloatArray]:
        """Every mover's end (SK-G1): open cells straight on, the others traced against only
        the walls near their cell, through :func:`vigile.scene.geometry.move_with_bounce`,
        turning ``margin`` short of a wall's line."""
        from vigile.scene.geometry import move_with_bounce

        i, j = self.cells(x, y)
        group = self.group[i, j]
        nx, ny = x + dx, y + dy
        near = group >= 0
        if near.any():
            # one call against the walls near any of these movers (fewer calls beat fewer walls)
            walls = self._union(frozenset(int(g) for g in np.unique(group[near])))
            tx, ty = move_with_bounce(
                walls, x[near], y[near], dx[near], dy[near], width, height, bounces, epsilon=margin
            )
            nx[near], ny[near] = tx, ty
        return nx, ny

    def _union(self, groups: frozenset[int]) -> Barriers:
        found = self.unions.get(groups)
        if found is None:
            indices = sorted({k for g in groups for k in self.members[g]})
            found = self.unions[groups] = _subset(self.source, indices)
        return found


IntArray = np.ndarray[tuple[int, ...], np.dtype[np.int64]]

MAX_GROUND_CELLS = 250_000
"""Most cells of an :class:`OpenGround` grid (a few MB)."""
MAX_GROUND_PAIRS = 20_000_000
"""Most (wall, cell) entries of its table of the walls near each cell (20 MB of booleans)."""


def ground_cell(width: float, height: float, walls: int) -> float:
    """The cell size of an :class:`OpenGround`: 2 cm, or coarser so that the grid stays under
    :data:`MAX_GROUND_CELLS` cells and :data:`MAX_GROUND_PAIRS` wall-cell entries."""
    most = min(MAX_GROUND_CELLS, MAX_GROUND_PAIRS // max(1, walls))
    cell = 2.0
    while math.ceil(width / cell) * math.ceil(height / cell) > most:
        cell *= 2.0
    return cell


def _subset(walls: Barriers, indices: list[int]) -> Barriers:
    picked = np.array(indices, dtype=np.int64)
    return Barriers(
        x1=walls.x1[picked],
        y1=walls.y1[picked],
        x2=walls.x2[picked],
        y2=walls.y2[picked],
        kind_code=walls.kind_code[picked],
        kinds=walls.kinds,
        blocks_sight=walls.blocks_sight[picked],
        counts_for_noise=walls.counts_for_noise[picked],
        blocks_movement=walls.blocks_movement[picked],
    )


def _distance_to_segment(
    px: FloatArray, py: FloatArray, x1: float, y1: float, x2: float, y2: float
) -> FloatArray:
    dx, dy = x2 - x1, y2 - y1
    span = dx * dx + dy * dy
    t = np.clip(((px - x1) * dx + (py - y1) * dy) / span, 0.0, 1.0) if span else 0.0
    result: FloatArray = np.hypot(px - (x1 + t * dx), py - (y1 + t * dy))
    return result


@dataclass
class SimModel:
    """A skirmish scenario prepared for batched play."""

    scenario: Scenario
    rules: RuleData
    turns: list[Turn]
    names: list[str]
    """Defenders' names, in file order."""
    intruders: list[str]
    start_x: FloatArray
    start_y: FloatArray
    patrolling: np.ndarray[tuple[int], np.dtype[np.bool_]]
    groups: list[list[int]]
    """Indices of the defenders moving together (a patrolling guard alone is a group of one)."""
    dice: list[int]
    alert: np.ndarray[tuple[int], np.dtype[np.bool_]]
    outfit: list[bool]
    board: Board
    barriers: dict[frozenset[int], Barriers]
    surfaces: list[Region]
    tables: Tables
    fumble: dict[int, float]
    initiative: float
    initiative_exact: Fraction
    reach: float
    """Striking reach: initiative only this close (SK-G5)."""
    cry: list[float]
    """Each defender's chance to hear the alarm cry when not on alert (SK-N7)."""
    alarm_ends: bool
    alert_on_noise: bool
    struck_sees: bool
    """A guard struck and not silenced detects his attacker (SK-G5 [R], house rule)."""
    step: float
    auto: float
    bands: dict[Attitude, float]

    ground: dict[tuple[frozenset[int], float], OpenGround] = field(default_factory=dict)

    def open_ground(self, doors: frozenset[int], length: float) -> OpenGround:
        """Where a move of ``length`` cannot meet a wall or the border (cached)."""
        key = (doors, length)
        found = self.ground.get(key)
        if found is None:
            found = self.ground[key] = OpenGround.of(
                self.walls(doors), self.scenario.map.width, self.scenario.map.height, length
            )
        return found

    def walls(self, doors: frozenset[int]) -> Barriers:
        """The barriers with these doors open (cached)."""
        found = self.barriers.get(doors)
        if found is None:
            found = self.barriers[doors] = self.board.barriers_for(doors)
        return found

    def death_surface(
        self, x: FloatArray, y: FloatArray
    ) -> tuple[np.ndarray[tuple[int], np.dtype[np.int64]], list[Surface]]:
        """Where bodies fall, for guards killed where they stand (SK-N2): a code per point and
        the surface of each code."""
        from vigile.scene.geometry import surface_at

        kinds = np.atleast_1d(surface_at(x, y, self.surfaces, self.scenario.default_surface))
        names, codes = np.unique(kinds, return_inverse=True)
        return codes.ravel().astype(np.int64), [death_surface(str(name)) for name in names]


def prepare(scenario: Scenario) -> SimModel:
    """Everything the batched simulator needs, computed once."""
    if scenario.ruleset != "skirmish" or scenario.encounter is not None:
        raise InputError(
            "the batched simulator plays skirmish raids (walls, guards, plans); "
            f"{scenario.name!r} is not one",
            where="SCENARIO",
        )
    rules = scenario.rules()
    defenders = [a for a in scenario.actors if a.side is Side.DEFENDERS]
    intruders = [a for a in scenario.actors if a.side is Side.ATTACKERS]
    index = {a.name: i for i, a in enumerate(defenders)}
    groups: dict[str, list[int]] = {}
    for i, actor in enumerate(defenders):
        if actor.state is GuardState.PATROLLING:
            groups.setdefault(actor.group or actor.name, []).append(i)
    board = skirmish_board(scenario, rules)
    start_alert = np.array(
        [a.alert or scenario.scouting.detected_while_scouting for a in defenders], dtype=np.bool_
    )
    alarm = alarm_check(rules).chance
    del index
    return SimModel(
        scenario=scenario,
        rules=rules,
        turns=schedule(scenario, rules),
        names=[a.name for a in defenders],
        intruders=[a.name for a in intruders],
        start_x=np.array([a.position[0] for a in defenders], dtype=np.float64),
        start_y=np.array([a.position[1] for a in defenders], dtype=np.float64),
        patrolling=np.array([a.state is GuardState.PATROLLING for a in defenders]),
        groups=list(groups.values()),
        dice=[a.detection_pool() for a in defenders],
        alert=start_alert,
        outfit=[a.outfit is Outfit.UNSUITED for a in intruders],
        board=board,
        barriers={},
        surfaces=[Region(r.kind.value, r.points) for r in scenario.surfaces],
        tables=Tables(rules, scenario),
        fumble={
            a.stealth_pool(): float(
                1 - move_check(rules, speed=Speed.FULL, roller=Roller(a.stealth_pool())).chance
            )
            for a in intruders
        },
        initiative=float(alarm),
        initiative_exact=alarm,
        reach=float(rules.num("alarm.strike_reach_cm")),
        cry=[
            float(
                noise_check(
                    rules, event=NoiseEvent.ALARM_CRY, roller=Roller(a.detection_pool())
                ).chance
            )
            for a in defenders
        ],
        alarm_ends=scenario.alarm_ends,
        alert_on_noise=heard_puts_on_alert(rules),
        struck_sees=struck_guard_sees(rules) is not None,
        step=float(distance_step_cm(rules, scenario.time)),
        auto=float(rules.num("sight.auto_moving_cm")),
        bands={a: float(rules.num(f"sight.band_cm.{a.value}")) for a in Attitude},
    )
