"""What the compiled kernel reads: a skirmish raid as flat arrays, and the checks as tables
built by the rule functions (nothing here is compiled, and nothing here imports numba).

Each table entry is a *roll code* taken from a verdict of the rule function itself, called
without dice: :data:`NEVER` (the rule allows no roll: ``impossible``), :data:`AUTO` (it succeeds
without a roll: ``automatic``), or the target number ``t = difficulty − bonus`` that each die of
the pool must reach (SK-D3: above 6, a chain of sixes). The kernel rolls the pool against it
from the stream of uniforms, face by face, as :func:`vigile.dice.pool.roll_pool` does. A case is
chosen so that the rule gives the same verdict for every distance it stands for: the noise rule
reads a distance only through its whole steps (SK-N4,
:func:`~vigile.rulesets.skirmish.noise.distance_steps`), the sight rule only through its strict
bands (SK-V2, SK-V3, SK-V8, :class:`~vigile.rulesets.skirmish.sight.SightDistances`); the
rule modules say so, and give the distance each case is asked at.

The noise table is filled as the kernel meets its cases (:data:`UNKNOWN` until then): the kernel
stops the run that meets an unknown case, :meth:`KernelModel.fill` asks the rule, and the run
is played again from its first uniform: the same run, since a run is its uniforms.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

import numpy as np

from vigile.awareness.ladder import AwarenessState
from vigile.checks.verdict import Verdict
from vigile.dice.pool import SIDES
from vigile.dice.source import GivenFaces
from vigile.engine.board import Board
from vigile.errors import InputError
from vigile.games.skirmish.fields import skirmish_actors
from vigile.games.skirmish.raid import skirmish_board
from vigile.games.skirmish.schedule import Turn, schedule
from vigile.rulesets.data import RuleData
from vigile.rulesets.skirmish.alarm import alarm_check, striker_knows, struck_guard_sees
from vigile.rulesets.skirmish.common import Roller
from vigile.rulesets.skirmish.eavesdrop import VOLUMES, may_overhear, overhear_check
from vigile.rulesets.skirmish.noise import (
    NoiseEvent,
    Surface,
    death_surface,
    distance_step_cm,
    heard_puts_on_alert,
    noise_check,
    steps_distance_cm,
)
from vigile.rulesets.skirmish.patrol import patrol_move
from vigile.rulesets.skirmish.sight import (
    Attitude,
    SightDistances,
    patrol_attitude,
    sight_check,
    sight_distances,
)
from vigile.scene.actors import GuardState, Outfit, Side
from vigile.scene.geometry import Region
from vigile.scene.model import Scenario
from vigile.sim.kernel.grid import Grid, bordered, cell_walls, chains, entries, near_walls
from vigile.sim.kernel.sectors import sector_lists

UNKNOWN = -1
"""A case the kernel has not met yet: it asks (:meth:`KernelModel.fill`)."""
NEVER = 0
"""The rule allows no roll, and no success (``impossible``)."""
AUTO = 1
"""Success without a roll (``automatic``)."""

ATTITUDES = tuple(Attitude)
STATES = tuple(AwarenessState)
NOISE, OVERHEAR = 0, 1
"""The two hearing checks of the table: a defender hears a noise, an intruder overhears."""
FUMBLE_OP, NOISE_OP, KILL_OP, STRIKE_OP = 0, 1, 2, 3
OP_COLUMNS = 14
"""An op's row: kind, maker, place (2), doors, sound, victim, pool, maker's place (2),
attitude, lit, a blow's reach and whether it is a shot (LP-7)."""
OP_KINDS = {"fumble": FUMBLE_OP, "noise": NOISE_OP, "kill": KILL_OP, "strike": STRIKE_OP}
MOST_TABLE = 40_000_000
"""Most entries of the noise table (80 MB); a scenario beyond is played by the engine."""
BRUTE_WALLS = 48
"""Up to this many entries (walls alone, and chains of a straight wall's pieces: see
:mod:`vigile.sim.kernel.grid`), a segment query tries them all; beyond, it gathers the walls
by cell."""

Array = np.ndarray[Any, Any]


def _noise_sources(
    ops: Array, noise_mask: Array, patrolling: Array, start_x: Array, start_y: Array
) -> tuple[Array, Array]:
    """Where each noise the kernel keys (its caches' rows: the schedule's ops, then a melee at
    each guard in each door state) is made, when that is known before the first run, and the
    walls that count for it: an op's own place, a kill's or a strike's victim where it is posted
    (a patrol's victim: nan, unknown); a melee at a posted guard (SK-G5)."""
    n_ops, n_g = ops.shape[0], len(start_x)
    n_states = noise_mask.shape[0]
    sources = np.full((n_ops + n_states * n_g, 2), np.nan)
    masks = np.zeros((sources.shape[0], noise_mask.shape[1]), np.bool_)
    for k in range(n_ops):
        kind, victim, doors = int(ops[k, 0]), int(ops[k, 6]), int(ops[k, 4])
        masks[k] = noise_mask[doors]
        if kind in (FUMBLE_OP, NOISE_OP):
            sources[k] = ops[k, 2], ops[k, 3]
        elif not patrolling[victim]:
            sources[k] = start_x[victim], start_y[victim]
    for doors in range(n_states):
        for g in range(n_g):
            key = n_ops + doors * n_g + g
            masks[key] = noise_mask[doors]
            if not patrolling[g]:
                sources[key] = start_x[g], start_y[g]
    return sources, masks


def _by_door_state(start: Array, walls: Array, move_mask: Array) -> tuple[Array, Array]:
    """The near walls of each cell (CSR ``start``, ``walls``) for each door state: only those
    that block a move in that state (``move_mask[state]``), in their order; ``start[state]``
    indexes the one flat list of all states (then made entries, :func:`vigile.sim.kernel.grid.
    entries`: a chain's run is a negative code)."""
    starts = np.zeros((move_mask.shape[0], start.shape[0]), np.int64)
    kept: list[Array] = []
    offset = 0
    for state, mask in enumerate(move_mask):
        keep = mask[walls]
        before = np.concatenate([[0], np.cumsum(keep)])
        starts[state] = offset + before[start]
        kept.append(walls[keep])
        offset += int(keep.sum())
    return starts, np.concatenate(kept).astype(np.int64)


def _look_reach(
    sight: Array, attitudes: Array, lit: Array, outfit: Array, distances: SightDistances
) -> Array:
    """``[t, i]``: how far a patrol's look at intruder i in turn t can reach: beyond both the
    automatic distance and the attitude's band, the sight table's codes (SK-V2, SK-V3, SK-V8,
    the rule's own: ``near`` and ``band`` both 0) for the intruder's attitude, light and outfit,
    seen or not, alert or not, whatever the pool, are all NEVER; ``inf`` where one is not (a lit
    intruder is seen far, SK-V5). The kernel skips the look of a patrol farther than that
    (:func:`vigile.sim.kernel.geometry.beyond`): it could roll nothing."""
    far_never = (sight[:, 0, 0] == NEVER).all(axis=(2, 3, 5))  # [attitude, lit, outfit]
    reach = np.array([distances.reach(a) for a in ATTITUDES], np.float64)
    never = far_never[attitudes, lit, outfit[np.newaxis, :]]
    result: Array = np.where(never, reach[attitudes], np.inf)
    return result


def roll_code(verdict: Verdict) -> int:
    """The kernel's code of a verdict given without dice (see the module's docstring)."""
    if verdict.impossible:
        return NEVER
    if verdict.automatic:
        return AUTO
    assert verdict.difficulty is not None
    target = verdict.difficulty - verdict.die_bonus
    return max(target, 2)


@dataclass
class RaidSetup:
    """A skirmish raid's scenario read once: the intruders' schedule (the engine's own,
    :func:`~vigile.games.skirmish.schedule.schedule`), the defenders, the board, and the numbers
    of the rules the kernel's arrays hold."""

    scenario: Scenario
    rules: RuleData
    turns: list[Turn]
    names: list[str]
    """Defenders' names, in file order."""
    start_x: Array
    start_y: Array
    groups: list[list[int]]
    """Indices of the defenders moving together (a patrolling guard alone is a group of one)."""
    alert: Array
    """Each defender on alert from the start (his own, or a scouting detected: SK-G3)."""
    board: Board
    surfaces: list[Region]
    reach: float
    """Striking reach: initiative only this close (SK-G5)."""
    alarm_ends: bool
    alert_on_noise: bool
    struck_sees: bool
    """A guard struck and not silenced detects his attacker (SK-G5 [R], house rule)."""
    step: float
    """The noise rule's distance step (SK-N4)."""
    sight: SightDistances
    """The sight rule's distances and cases (SK-V2, SK-V3)."""


def setup(scenario: Scenario) -> RaidSetup:
    """A skirmish raid read once for the kernel; an :class:`~vigile.errors.InputError` for
    any other scenario (a day encounter, another game)."""
    if scenario.ruleset != "skirmish" or scenario.encounter is not None:
        raise InputError(
            "the compiled raid plays skirmish raids (walls, guards, plans); "
            f"{scenario.name!r} is not one",
            where="SCENARIO",
        )
    rules = scenario.rules()
    defenders = [a for a in scenario.actors if a.side is Side.DEFENDERS]
    groups: dict[str, list[int]] = {}
    for i, actor in enumerate(defenders):
        if actor.state is GuardState.PATROLLING:
            groups.setdefault(actor.group or actor.name, []).append(i)
    seen = scenario.scouting.detected_while_scouting
    return RaidSetup(
        scenario=scenario,
        rules=rules,
        turns=schedule(scenario, rules),
        names=[a.name for a in defenders],
        start_x=np.array([a.position[0] for a in defenders], dtype=np.float64),
        start_y=np.array([a.position[1] for a in defenders], dtype=np.float64),
        groups=list(groups.values()),
        alert=np.array([a.alert or seen for a in defenders], dtype=np.bool_),
        board=skirmish_board(scenario, rules),
        surfaces=[Region(r.kind.value, r.points) for r in scenario.surfaces],
        reach=float(rules.num("alarm.strike_reach_cm")),
        alarm_ends=scenario.alarm_ends,
        alert_on_noise=heard_puts_on_alert(rules),
        struck_sees=struck_guard_sees(rules) is not None,
        step=float(distance_step_cm(rules, scenario.time)),
        sight=sight_distances(rules),
    )


@dataclass
class KernelModel:
    """A skirmish raid prepared for the kernel (:mod:`vigile.games.skirmish.kernel.play`)."""

    sim: RaidSetup
    sounds: list[tuple[NoiseEvent, Surface | None]]
    pools: list[int]
    arrays: dict[str, Array]
    hear: Array
    """The hearing table: [check, sound, steps, walls, alert, pool] → roll code."""
    numbers: dict[str, float | int]
    """The raid's and the rules' numbers, by the names of the kernel's model
    (:class:`~vigile.games.skirmish.kernel.play.Raid`)."""
    doors: list[frozenset[int]] = field(default_factory=list)
    """The doors open in each door state the raid plays (the masks' first index)."""
    filled: int = 0
    """Cases of the hearing table asked of the rule so far."""
    caches: dict[str, Array] = field(default_factory=dict)

    @property
    def turns(self) -> int:
        return len(self.sim.turns)

    def fill(self, flat: int) -> None:
        """Ask the rule for one case of the hearing table (its flat index)."""
        check, sound, steps, walls, alert, pool = (
            int(v) for v in np.unravel_index(flat, self.hear.shape)
        )
        event, surface = self.sounds[sound]
        rules, scenario = self.sim.rules, self.sim.scenario
        common = {
            "distance_cm": steps_distance_cm(rules, steps, scenario.time),
            "barriers": walls,
            "time": scenario.time,
            "alert": bool(alert),
            "roller": Roller(self.pools[pool]),
        }
        if check == OVERHEAR:
            volume = next(v for v, e in VOLUMES.items() if e is event)
            verdict = overhear_check(rules, volume=volume, **common)  # type: ignore[arg-type]
        else:
            verdict = noise_check(rules, event=event, surface=surface, **common)  # type: ignore[arg-type]
        self.hear.flat[flat] = roll_code(verdict)
        self.filled += 1


def _sound(
    sounds: list[tuple[NoiseEvent, Surface | None]], key: tuple[NoiseEvent, Surface | None]
) -> int:
    if key not in sounds:
        sounds.append(key)
    return sounds.index(key)


def build(scenario: Scenario) -> KernelModel:
    """Everything the kernel reads for ``scenario``, computed once (a raid, as :func:`setup`
    requires)."""
    sim = setup(scenario)
    rules = sim.rules
    actors = skirmish_actors(scenario)
    defenders = [a for a in actors if a.side is Side.DEFENDERS]
    intruders = [a for a in actors if a.side is Side.ATTACKERS]
    n_g, n_i = len(defenders), len(intruders)
    board = sim.board

    # --- pools
    pools = sorted({a.detection_pool() for a in actors})
    pool_of = {p: k for k, p in enumerate(pools)}

    # --- sounds
    sounds: list[tuple[NoiseEvent, Surface | None]] = []
    fumble_sound = _sound(sounds, (NoiseEvent.FUMBLE, None))
    melee_sound = _sound(sounds, (NoiseEvent.MELEE, None))
    regions = sim.surfaces
    region_sound = np.array(
        [_sound(sounds, (NoiseEvent.DEATH, death_surface(r.kind))) for r in regions]
        + [_sound(sounds, (NoiseEvent.DEATH, death_surface(scenario.default_surface)))],
        np.int64,
    )

    # --- door states
    states: list[frozenset[int]] = []

    def state(doors: frozenset[int]) -> int:
        if doors not in states:
            states.append(doors)
        return states.index(doors)

    # --- the schedule
    turns = sim.turns
    op_rows: list[list[float]] = []
    turn_ops = np.zeros(len(turns) + 1, np.int64)
    n_t = len(turns)
    positions = np.zeros((max(n_t, 1), max(n_i, 1), 2))
    attitudes = np.zeros((max(n_t, 1), max(n_i, 1)), np.int64)
    lit = np.zeros((max(n_t, 1), max(n_i, 1)), np.int64)
    turn_doors = np.zeros((max(n_t, 1), 2), np.int64)
    objective = np.zeros(max(n_t, 1), np.int64)
    for t, turn in enumerate(turns):
        for op in turn.ops:
            if op.kind == "kill":
                assert op.surface is not None
                given = -1 if op.ground is None else _sound(sounds, (NoiseEvent.DEATH, op.ground))
                sound = given
            elif op.kind == "fumble":
                sound = fumble_sound
            elif op.kind == "strike":
                sound = melee_sound
            else:
                assert op.event is not None
                sound = _sound(sounds, (op.event, op.surface))
            op_rows.append(
                [
                    OP_KINDS[op.kind],
                    op.maker,
                    op.at[0],
                    op.at[1],
                    state(op.doors),
                    sound,
                    -1 if op.victim is None else op.victim,
                    op.pool,
                    op.maker_at[0],
                    op.maker_at[1],
                    ATTITUDES.index(op.attitude),
                    int(op.lit),
                    op.reach,
                    int(op.ranged),
                ]
            )
        turn_ops[t + 1] = len(op_rows)
        for i in range(n_i):
            positions[t, i] = turn.positions[i]
            attitudes[t, i] = ATTITUDES.index(turn.attitudes[i])
            lit[t, i] = int(turn.lit[i])
        turn_doors[t] = (state(turn.doors_before), state(turn.doors))
        objective[t] = int(turn.objective)
    ops = np.array(op_rows, np.float64).reshape(-1, OP_COLUMNS)

    # --- overhearing: who talks, at what volume
    talks = np.full(max(n_g, 1), -1, np.int64)
    for g, actor in enumerate(defenders):
        if actor.talks is not None:
            talks[g] = _sound(sounds, (VOLUMES[actor.talks], None))

    # --- walls, their masks by door state, their normals (the mover's conventions)
    closed = board.barriers_for(frozenset())
    m = len(closed)
    x1, y1, x2, y2 = (np.array(a, np.float64) for a in (closed.x1, closed.y1, closed.x2, closed.y2))
    width, height = float(scenario.map.width), float(scenario.map.height)
    all_x1, all_y1, all_x2, all_y2, normal_x, normal_y, has_normal = bordered(
        x1, y1, x2, y2, width, height
    )
    sight_mask = np.zeros((len(states), m + 4), np.bool_)
    noise_mask = np.zeros((len(states), m + 4), np.bool_)
    move_mask = np.zeros((len(states), m + 4), np.bool_)
    for k, doors in enumerate(states):
        walls = board.barriers_for(doors)
        sight_mask[k, :m] = walls.blocks_sight
        noise_mask[k, :m] = walls.counts_for_noise
        move_mask[k, :m] = walls.blocks_movement
        move_mask[k, m:] = True

    # --- the grids: walls near each cell for a patrol's move, and by cell for segments
    patrol = patrol_move(sim.rules)  # SK-G1: the length, bounces and margin of a patrol's move
    move = patrol.length_cm
    move_grid = Grid.over(width, height, 2.0)
    # the walls that may stop a move, then the map's four borders: a cell lists a border only
    # when a move from it can reach it (most cells are far from every border)
    movers = np.nonzero(move_mask[:, :m].any(axis=0))[0].astype(np.int64)
    movers = np.concatenate([movers, np.arange(m, m + 4, dtype=np.int64)])
    near_start, near_walls_ = _by_door_state(
        *near_walls(move_grid, all_x1, all_y1, all_x2, all_y2, movers, float(move)), move_mask
    )
    line_grid = Grid.over(width, height, max(width, height) / 32)
    line_start, line_walls = cell_walls(line_grid, x1, y1, x2, y2)  # walls alone (gather)
    # the lists a query tries whole as entries: the runs of a straight wall's pieces as one
    # (grid.entries), whose box the segments' arrays hold after the board's own
    chained = chains(all_x1, all_y1, all_x2, all_y2, m)
    near_start, near_walls_ = entries(near_start, near_walls_, chained)
    every_wall = entries(np.array([0, m]), np.arange(m), chained)[1]

    # --- cover and surfaces as polygons
    def polygons(points: list[tuple[tuple[float, float], ...]]) -> tuple[Array, Array, Array]:
        start = np.zeros(len(points) + 1, np.int64)
        start[1:] = np.cumsum([len(p) for p in points])
        xs = np.array([x for p in points for x, _ in p], np.float64)
        ys = np.array([y for p in points for _, y in p], np.float64)
        return start, xs, ys

    cover_start, cover_x, cover_y = polygons([tuple(map(tuple, c)) for c in board.cover])
    surf_start, surf_x, surf_y = polygons([r.points for r in regions])

    # --- the guards and the intruders
    # each guard's group, and his next fellow in it by rank (-1: the last), so that moving a
    # group walks its members, not every guard after its first (quadratic with many groups)
    group_of = np.full(max(n_g, 1), -1, np.int64)
    next_in_group = np.full(max(n_g, 1), -1, np.int64)
    for k, members in enumerate(sim.groups):
        ranked = sorted(members)
        group_of[ranked] = k
        for g, after in pairwise(ranked):
            next_in_group[g] = after
    guard_pool = np.array([pool_of[a.detection_pool()] for a in defenders] or [0], np.int64)
    guard_alert = np.array([bool(v) for v in sim.alert] or [False], np.bool_)
    guard_outfit = np.array([a.outfit is Outfit.UNSUITED for a in defenders] or [False], np.int64)
    guard_attitude = np.zeros((max(n_g, 1), 2, 2), np.int64)
    for g, actor in enumerate(defenders):
        for moved in (0, 1):
            for cover in (0, 1):
                shown = patrol_attitude(
                    moved=bool(moved), shown=actor.attitude, in_cover=bool(cover)
                )
                guard_attitude[g, moved, cover] = ATTITUDES.index(shown)
    intruder_pool = np.array([pool_of[a.detection_pool()] for a in intruders] or [0], np.int64)
    intruder_alert = np.array([a.alert for a in intruders] or [False], np.int64)
    intruder_outfit = np.array(
        [a.outfit is Outfit.UNSUITED for a in intruders] or [False], np.int64
    )
    hidden = set(scenario.hidden_guards)
    known = np.zeros((max(n_i, 1), max(n_g, 1)), np.bool_)
    if scenario.scouting.observed_beforehand:
        for g, actor in enumerate(defenders):
            known[:, g] = actor.name not in hidden

    # --- the tables of the rules
    sight = np.zeros((len(ATTITUDES), 2, 2, 2, 2, 2, 2, len(pools)), np.int64)
    for index in np.ndindex(sight.shape):
        a, near, band, lit_v, line, alert, outfit, pool = index
        attitude = ATTITUDES[a]
        verdict = sight_check(
            rules,
            attitude=attitude,
            distance_cm=sim.sight.representative(attitude, bool(near), bool(band)),
            alert=bool(alert),
            unsuited_outfit=bool(outfit),
            lit=bool(lit_v),
            time=scenario.time,
            line_of_sight=bool(line),
            roller=Roller(pools[pool]),
        )
        sight[index] = roll_code(verdict)
    look_reach = _look_reach(sight, attitudes, lit, intruder_outfit, sim.sight)
    cry = np.zeros((2, len(pools)), np.int64)
    for alert in (0, 1):
        for pool, dice in enumerate(pools):
            verdict = noise_check(
                rules, event=NoiseEvent.ALARM_CRY, alert=bool(alert), roller=Roller(dice)
            )
            cry[alert, pool] = roll_code(verdict)
    initiative = np.zeros((SIDES, SIDES), np.bool_)
    for guard_face in range(1, SIDES + 1):
        for intruder_face in range(1, SIDES + 1):
            verdict = alarm_check(rules, source=GivenFaces([guard_face, intruder_face]))
            initiative[guard_face - 1, intruder_face - 1] = bool(verdict.success)
    overhears = np.zeros((len(STATES), 2), np.bool_)
    for s, known_state in enumerate(STATES):
        for knows in (0, 1):
            overhears[s, knows] = may_overhear(known_state, knows_position=bool(knows))
    heard_state = overhear_check(rules, volume="whisper").state or AwarenessState.UNAWARE

    # --- the hearing table, filled as the kernel meets its cases
    diagonal = float(np.hypot(width, height))
    steps = int(diagonal // sim.step) + 2
    shape = (2, len(sounds), steps, m + 1, 2, len(pools))
    if int(np.prod(shape)) > MOST_TABLE:
        raise InputError(
            f"{scenario.name!r} is too large for the compiled kernel ({int(np.prod(shape)):,} "
            "noise cases)",
            where="SCENARIO",
        )
    hear = np.full(shape, UNKNOWN, np.int16)

    bands = np.array([sim.sight.band_cm(a) for a in ATTITUDES], np.float64)
    striker = striker_knows(sim.rules)
    numbers: dict[str, float | int] = {
        "width": width,
        "height": height,
        "move": float(move),
        "margin": float(patrol.margin_cm),
        "step": float(sim.step),
        "auto": float(sim.sight.auto_cm),
        "reach": sim.reach,
        "move_cell": float(move_grid.cell),
        "line_cell": float(line_grid.cell),
        "bounces": int(patrol.bounces),
        "alarm_ends": int(sim.alarm_ends),
        "alert_on_noise": int(sim.alert_on_noise),
        "n_guards": n_g,
        "n_intruders": n_i,
        "n_turns": n_t,
        "n_walls": m,
        "move_columns": move_grid.columns,
        "move_rows": move_grid.rows,
        "line_columns": line_grid.columns,
        "line_rows": line_grid.rows,
        "brute": int(len(every_wall) <= BRUTE_WALLS),
        "n_groups": len(sim.groups),
        "observed": STATES.index(AwarenessState.OBSERVED),
        "heard": STATES.index(heard_state),
        "fumble_sound": fumble_sound,
        "melee_sound": melee_sound,
        "sides": SIDES,
        "struck_sees": int(sim.struck_sees),
        "striker_knows": -1 if striker is None else STATES.index(striker),
        "n_entries": len(every_wall),
    }
    patrolling = np.array([a.state is GuardState.PATROLLING for a in defenders] or [False])
    sector_start, sector_walls = entries(
        *sector_lists(
            *_noise_sources(ops, noise_mask, patrolling, sim.start_x, sim.start_y),
            all_x1,
            all_y1,
            all_x2,
            all_y2,
        ),
        chained,
    )
    arrays: dict[str, Array] = {
        "ops": ops,
        "turn_ops": turn_ops,
        "positions": positions,
        "attitudes": attitudes,
        "lit": lit,
        "turn_doors": turn_doors,
        "objective": objective,
        "talks": talks,
        "x1": chained.x1,
        "y1": chained.y1,
        "x2": chained.x2,
        "y2": chained.y2,
        "every_wall": every_wall,
        "normal_x": normal_x,
        "normal_y": normal_y,
        "has_normal": has_normal,
        "sight_mask": sight_mask,
        "noise_mask": noise_mask,
        "move_mask": move_mask,
        "near_start": near_start,
        "near_walls": near_walls_,
        "line_start": line_start,
        "line_walls": line_walls,
        "cover_start": cover_start,
        "cover_x": cover_x,
        "cover_y": cover_y,
        "surf_start": surf_start,
        "surf_x": surf_x,
        "surf_y": surf_y,
        "region_sound": region_sound,
        "light_x": np.array(board.light_x, np.float64),
        "light_y": np.array(board.light_y, np.float64),
        "light_r": np.array(board.light_r, np.float64),
        "start_x": np.array(sim.start_x, np.float64) if n_g else np.zeros(1),
        "start_y": np.array(sim.start_y, np.float64) if n_g else np.zeros(1),
        "patrolling": patrolling.astype(np.bool_),
        "sector_start": sector_start,
        "sector_walls": sector_walls,
        "group_of": group_of,
        "next_in_group": next_in_group,
        "guard_pool": guard_pool,
        "guard_alert": guard_alert,
        "guard_outfit": guard_outfit,
        "guard_attitude": guard_attitude,
        "intruder_pool": intruder_pool,
        "intruder_alert": intruder_alert,
        "intruder_outfit": intruder_outfit,
        "known": known,
        "pools": np.array(pools, np.int64),
        "bands": bands,
        "sight": sight,
        "look_reach": look_reach,
        "cry": cry,
        "initiative": initiative,
        "overhears": overhears,
    }
    model = KernelModel(sim, sounds, pools, arrays, hear, numbers, states)
    # the nearest cases of each noise, asked now: the first any raid meets, and the ones that
    # show, before any run, which rules the hearing table comes from (``rules --coverage``)
    for sound in range(len(sounds)):
        for count in range(min(2, hear.shape[3])):
            for alert in (0, 1):
                for pool in range(len(pools)):
                    model.fill(
                        int(np.ravel_multi_index((NOISE, sound, 0, count, alert, pool), shape))
                    )
    return model
