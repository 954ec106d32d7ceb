"""The skirmish raid, run by run, compiled (numba): the turn of :mod:`vigile.games.skirmish.raid`.

Each run is played to its own end, from the stream of uniforms, in the engine's order (the
draw interface, :class:`vigile.dice.source.UniformFaces`): one uniform a die face
(``floor(u * 6) + 1``), one a scatter die (``2π u``). A turn:

1. the patrols: each group, in the order of its first living member, draws its direction and
   each living member moves (:func:`vigile.sim.kernel.geometry.trace_unit`);
2. the intruders' schedule (:mod:`vigile.games.skirmish.schedule`): fumble rolls (only while
   the victim of a kill or strike lives), noises, kills, strikes; each noise is heard by every
   living defender not watching its maker (seen and in sight now, LP-4), who then turns round
   (a sight test);
3. eavesdropping: each living intruder rolls to overhear each talking guard (``may_overhear``);
4. sight: every living guard on every intruder it does not watch; then each intruder on every
   living guard whose position it does not know (discovery);
5. the alarms of the turn, in the order of detection: initiative within reach, else the cry;
6. the objective.

The kernel holds no rule: every check's roll code comes from a table built by the rule
functions (:mod:`vigile.games.skirmish.kernel.tables`), the initiative from a table of both
faces. What it does know is how a pool is rolled against a target (SK-D1, SK-D3, SK-D4, as
:mod:`vigile.dice.pool` rolls it), tested face for face against that module.

Compiled without reference counting (``_nrt=False``, as the geometry): the kernel allocates
nothing; its state lives in arrays allocated once by the caller. The turn's phases are
inlined (:func:`~vigile.sim.kernel.geometry.inlined`), not left to LLVM's
judgement: LLVM stops inlining a phase once it grows by a few lines, and passing the model's
arrays at each call then costs more than the phase's work. So is the noise of a turn's
operations (:func:`_noise`, at its one call there), and the turns are played in the loop over
the runs itself (:func:`play_runs`): a call passes each array as seven or more words pushed on
the stack, a cost that ``bench/perf_kernel.py`` shows in a profile.

The kernel reads named tuples, whose fields numba resolves when it compiles (as a tuple's
constant indices, at no cost in a run): the model, :class:`Raid` (``M``), and a run's working
arrays, :class:`State` (``W``); the helpers that are called rather than inlined take only the
few they read (:func:`_queries`: :class:`Segments`, :class:`LineGrid`, :class:`Detections`,
:class:`Guards`, :class:`Numbers`), and a noise travels as a :class:`Sound`.

A run stops early, to be played again, when the stream runs out (:data:`EXHAUSTED`) or when it
meets a case of the hearing table not yet asked of the rule (:data:`MISSED`).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from vigile.sim.kernel.blocks import record_detections, record_end
from vigile.sim.kernel.dice import C_POS, C_STATUS, draw, face
from vigile.sim.kernel.geometry import (
    NOBODY,
    ZERO,
    beyond,
    compiled,
    crossings,
    diamond_sector,
    gather,
    hypot_below,
    hypot_steps,
    inlined,
    internal,
    region_of,
    sees,
    trace_unit,
)
from vigile.sim.kernel.sectors import SECTORS

TWO_PI = 2.0 * math.pi
UNKNOWN, NEVER, AUTO = -1, 0, 1
NOISE, OVERHEAR = 0, 1
FUMBLE_OP, NOISE_OP, KILL_OP, STRIKE_OP = 0, 1, 2, 3
RUNNING = -1
MISSED = 2
LIMIT = 4
MOST_MISSES = 256

# the columns of an op's row (:data:`Raid.ops`, :func:`vigile.games.skirmish.kernel.tables.build`)
(
    OP_KIND,
    OP_MAKER,
    OP_X,
    OP_Y,
    OP_DOORS,
    OP_SOUND,
    OP_VICTIM,
    OP_POOL,
    OP_MAKER_X,
    OP_MAKER_Y,
    OP_ATTITUDE,
    OP_LIT,
    OP_REACH,
    OP_RANGED,
) = range(14)


class Raid(NamedTuple):
    """The model of a raid: what every run reads, laid out by
    :func:`vigile.games.skirmish.kernel.tables.build` (numba passes a named tuple as it passes a
    tuple: each field is resolved when the kernel is compiled)."""

    ops: np.ndarray
    """The schedule's operations, one row each (the ``OP_*`` columns)."""
    turn_ops: np.ndarray
    """``ops[turn_ops[t] : turn_ops[t + 1]]``: turn t's."""
    positions: np.ndarray
    attitudes: np.ndarray
    lit: np.ndarray
    """``[t, i]``: intruder i's place, attitude and light in turn t."""
    turn_doors: np.ndarray
    """``[t]``: the door state of the patrols, then of the rest of the turn."""
    objective: np.ndarray
    talks: np.ndarray
    """Each guard's sound when he talks (SK-N7), -1 for none."""
    x1: np.ndarray
    y1: np.ndarray
    x2: np.ndarray
    y2: np.ndarray
    """The walls, the map's four borders, then the chains' boxes."""
    normal_x: np.ndarray
    normal_y: np.ndarray
    has_normal: np.ndarray
    sight_mask: np.ndarray
    noise_mask: np.ndarray
    move_mask: np.ndarray
    """``[state, wall]``: what each wall does in each door state."""
    near_start: np.ndarray
    near_walls: np.ndarray
    """A patrol's walls by map cell and door state (CSR), as entries: a wall, or a run of a
    straight wall's pieces as one negative code (:func:`vigile.sim.kernel.grid.entries`)."""
    line_start: np.ndarray
    line_walls: np.ndarray
    """The walls by cell of the line grid (CSR, gathered wall by wall: walls alone)."""
    cover_start: np.ndarray
    cover_x: np.ndarray
    cover_y: np.ndarray
    surf_start: np.ndarray
    surf_x: np.ndarray
    surf_y: np.ndarray
    region_sound: np.ndarray
    light_x: np.ndarray
    light_y: np.ndarray
    light_r: np.ndarray
    start_x: np.ndarray
    start_y: np.ndarray
    patrolling: np.ndarray
    group_of: np.ndarray
    next_in_group: np.ndarray
    """The next guard of g's patrol group by rank, -1 after the last."""
    guard_pool: np.ndarray
    guard_alert: np.ndarray
    guard_outfit: np.ndarray
    guard_attitude: np.ndarray
    intruder_pool: np.ndarray
    intruder_alert: np.ndarray
    intruder_outfit: np.ndarray
    known: np.ndarray
    pools: np.ndarray
    bands: np.ndarray
    sight: np.ndarray
    cry: np.ndarray
    initiative: np.ndarray
    overhears: np.ndarray
    hear: np.ndarray
    """The hearing table, filled as the kernel meets its cases (``UNKNOWN`` until then)."""
    sector_start: np.ndarray
    sector_walls: np.ndarray
    """``sector_start[key]`` (CSR into ``sector_walls``): the walls that can lie between a
    listener in each sector of directions and the noise of ``key`` (the caches' keys), where
    its place is known before the first run (:mod:`vigile.sim.kernel.sectors`); a row of one
    value lists none."""
    look_reach: np.ndarray
    """``[t, i]``: beyond it, a patrol's look at intruder i in turn t rolls nothing
    (:func:`vigile.games.skirmish.kernel.tables._look_reach`)."""
    posted_look: np.ndarray
    posted_find: np.ndarray
    """``posted_look[t, i, g, alert]``: the roll code of posted guard g's sight test on intruder
    i in turn t, on alert or not; ``posted_find[t, i, g]``: intruder i's test to discover posted
    guard g. Neither moves in the sight phase, nor do their doors, lights and cover: the codes
    are known before the first run (:func:`posted_codes`), and each run reads them instead of
    working them out again. ``UNKNOWN`` where not yet filled."""
    look_start: np.ndarray
    look_pairs: np.ndarray
    find_start: np.ndarray
    find_pairs: np.ndarray
    """``look_pairs[look_start[t] : look_start[t + 1]]``: the (guard, intruder) pairs of turn
    t's looks, in the sight phase's order (by guard, then intruder), but for a posted guard's
    whose codes are NEVER on alert or not; ``find_pairs`` likewise, (intruder, guard) by
    intruder, the discoveries, but for a guard the intruder knows from the start (``known``,
    which no run changes) or a posted guard whose code is NEVER
    (:func:`vigile.games.skirmish.kernel.raid.sight_lists`). A pair left out rolls nothing: the
    rolls of the others keep their order."""
    width: float
    height: float
    move: float
    margin: float
    step: float
    auto: float
    reach: float
    move_cell: float
    line_cell: float
    bounces: int
    alarm_ends: int
    alert_on_noise: int
    n_guards: int
    n_intruders: int
    n_turns: int
    n_walls: int
    move_columns: int
    move_rows: int
    line_columns: int
    line_rows: int
    brute: int
    n_groups: int
    observed: int
    heard: int
    fumble_sound: int
    melee_sound: int
    sides: int
    struck_sees: int
    striker_knows: int
    n_entries: int
    ending_unseen: int
    ending_detected: int
    ending_after_alarm: int
    ending_alarm: int
    ending_turn_limit: int
    """The tally's codes of the endings (:data:`vigile.sim.tally.CODE`)."""


class State(NamedTuple):
    """A run's working arrays (reset by the kernel at each run), and the caches of the posted
    guards' walls and lines of sight (kept: they hold geometry, not chance)."""

    gx: np.ndarray
    gy: np.ndarray
    alive: np.ndarray
    alert: np.ndarray
    watches: np.ndarray
    resolved: np.ndarray
    aware: np.ndarray
    knows: np.ndarray
    queue: np.ndarray
    pairs: np.ndarray
    scalars: np.ndarray
    """The run's numbers, by the ``S_*`` indices."""
    candidates: np.ndarray
    stamp: np.ndarray
    scratch: np.ndarray
    done_group: np.ndarray
    heat_x: np.ndarray
    heat_y: np.ndarray
    cache_walls: np.ndarray
    cache_line: np.ndarray
    turn_line: np.ndarray
    """``[i, g]``: a moving guard's line of sight to intruder i this turn."""
    guard_view: np.ndarray
    """``[0 / 1, g]``: guard g stands in cover / in light this turn."""
    cache_steps: np.ndarray
    """Beside ``cache_walls``: a posted listener's distance to a source, in the hearing table's
    steps (the exact quotient is slow where the distance is a whole number of steps)."""
    epoch: np.ndarray
    """``epoch[0]`` counts the turns the state has played, every run together; a value written
    in a turn is stored as ``2 * epoch[0] + value``, so that what is below ``2 * epoch[0]`` was
    written in an earlier turn: not yet known (``done_group[group]`` holds the ``epoch[0]`` of
    the turn the group last moved). ``turn_line`` and ``guard_view`` hold for the sight phase
    of one turn, where nothing moves: that spares clearing them each turn."""


# a run's numbers (:attr:`State.scalars`)
S_TURN, S_EVER, S_FIRST, S_ALARM, S_OUTCOME, S_END, S_QUEUED, S_HEAT = range(8)


class Segments(NamedTuple):
    """What a segment query reads (:func:`_queries`)."""

    x1: np.ndarray
    y1: np.ndarray
    x2: np.ndarray
    y2: np.ndarray
    line_start: np.ndarray
    line_walls: np.ndarray
    stamp: np.ndarray
    candidates: np.ndarray
    scratch: np.ndarray
    sector_start: np.ndarray
    sector_walls: np.ndarray


class LineGrid(NamedTuple):
    """The line grid's numbers; ``entries``: of every wall (``candidates``' first ones, none
    where there is no wall), the list a query tries where ``brute``."""

    brute: int
    entries: int
    columns: int
    rows: int
    cell: float


class Detections(NamedTuple):
    """What a detection writes (:func:`_detect`)."""

    watches: np.ndarray
    pairs: np.ndarray
    resolved: np.ndarray
    queue: np.ndarray
    scalars: np.ndarray
    heat_x: np.ndarray
    heat_y: np.ndarray


class Guards(NamedTuple):
    """The guards and their tables, for a noise or a look."""

    gx: np.ndarray
    gy: np.ndarray
    alert: np.ndarray
    alive: np.ndarray
    patrolling: np.ndarray
    pool: np.ndarray
    dice: np.ndarray
    sight: np.ndarray
    bands: np.ndarray
    hear: np.ndarray
    cache_line: np.ndarray
    cache_walls: np.ndarray
    cache_steps: np.ndarray


class Numbers(NamedTuple):
    """The rules' numbers a noise or a look reads."""

    auto: float
    step: float
    sides: int
    guards: int
    alert_on_noise: int


class Discovery(NamedTuple):
    """What an intruder's test to discover a guard reads (:func:`_find_code`)."""

    positions: np.ndarray
    gx: np.ndarray
    gy: np.ndarray
    guard_view: np.ndarray
    sight: np.ndarray
    guard_attitude: np.ndarray
    patrolling: np.ndarray
    bands: np.ndarray
    guard_outfit: np.ndarray
    intruder_alert: np.ndarray
    intruder_pool: np.ndarray
    cover_start: np.ndarray
    cover_x: np.ndarray
    cover_y: np.ndarray
    light_x: np.ndarray
    light_y: np.ndarray
    light_r: np.ndarray


class Helpers(NamedTuple):
    """What the turn's phases hand the hot helpers (:func:`_queries`): each helper that is
    called, not inlined, takes the few it reads (a call pushes every word of its arguments)."""

    segments: Segments
    line: LineGrid
    detections: Detections
    guards: Guards
    numbers: Numbers
    discovery: Discovery


class Sound(NamedTuple):
    """A noise and who made it (:func:`_noise`): the sound (its row of the hearing table) at
    (x, y); its maker, seen at (mx, my) with his attitude, light and outfit; the doors' noise
    and sight masks; ``besides``, a guard it is not for (the one struck), -1 for none; ``key``,
    where a posted listener's count of walls to it is cached, -1 for none; ``look_key``,
    where a posted guard's line of sight to the maker is."""

    sound: int
    x: float
    y: float
    maker: int
    outfit: int
    mx: float
    my: float
    attitude: int
    lit: int
    noise_mask: np.ndarray
    sight_mask: np.ndarray
    besides: int
    key: int
    look_key: int


# ctx
C_MISSES = 2
"""Beside the stream's position and status (:mod:`vigile.sim.kernel.dice`): the misses."""


@compiled
def roll_pool(code: int, dice: int, sides: int, uniforms: np.ndarray, ctx: np.ndarray) -> bool:
    """A check of roll code ``code`` (:mod:`vigile.games.skirmish.kernel.tables`): no roll for
    NEVER or AUTO; else every die of the pool rolled against the target, each die's chain of
    sixes after it (SK-D1, SK-D3: :func:`vigile.dice.pool.roll_pool`)."""
    if code == AUTO:
        return True
    if code <= NEVER:
        return False
    success = False
    for _ in range(dice):
        remaining = code
        while True:
            value = face(sides, uniforms, ctx)
            if remaining <= sides:
                if value >= remaining:
                    success = True
                break
            if value != sides:
                break
            remaining -= 1
    return success


@compiled
def fumbles(dice: int, sides: int, uniforms: np.ndarray, ctx: np.ndarray) -> bool:
    """Every die of the pool shows 1 (SK-D4: :func:`vigile.dice.pool.roll_plain`)."""
    every_one = True
    for _ in range(dice):
        if face(sides, uniforms, ctx) != 1:
            every_one = False
    return every_one


@internal
def _candidates(G: Segments, L: LineGrid, ax: float, ay: float, bx: float, by: float) -> int:
    """The walls a segment query A–B must try, into ``G.candidates``; how many.
    ``G``: the query's arrays (:func:`_queries`); ``L``: the line grid's scalars."""
    if L.brute:
        return int(L.entries)
    return gather(
        ax,
        ay,
        bx,
        by,
        L.cell,
        L.columns,
        L.rows,
        G.line_start,
        G.line_walls,
        G.stamp,
        G.candidates,
    )


@internal
def _walls_between(
    G: Segments, L: LineGrid, mask: np.ndarray, ax: float, ay: float, bx: float, by: float
) -> int:
    """Walls, doors and partitions that count for noise between A and B (SK-N5); ``mask``:
    the noise mask of the doors as they stand."""
    if L.entries == 0:
        return 0
    count = _candidates(G, L, ax, ay, bx, by)
    return crossings(
        ax,
        ay,
        bx,
        by,
        G.x1,
        G.y1,
        G.x2,
        G.y2,
        mask,
        G.candidates,
        count,
        G.scratch,
    )


@internal
def _walls_from(
    G: Segments, L: LineGrid, key: int, mask: np.ndarray, ax: float, ay: float, bx: float, by: float
) -> int:
    """:func:`_walls_between` a listener at A and the noise of ``key`` at B: only the walls of
    A's sector of directions from B where the noise's place is known before the run
    (``SECTOR_START``), else every wall; the same count."""
    starts = G.sector_start
    if key < 0 or L.entries == 0 or starts[key, 0] == starts[key, SECTORS]:
        return _walls_between(G, L, mask, ax, ay, bx, by)
    sector = diamond_sector(ax - bx, ay - by, SECTORS)
    if sector < 0:
        return _walls_between(G, L, mask, ax, ay, bx, by)
    first = starts[key, sector]
    count = starts[key, sector + 1] - first
    return crossings(
        ax, ay, bx, by, G.x1, G.y1, G.x2, G.y2, mask,
        G.sector_walls[first : first + count], count, G.scratch,
    )  # fmt: skip


@internal
def _sees(
    G: Segments, L: LineGrid, mask: np.ndarray, ax: float, ay: float, bx: float, by: float
) -> bool:
    """A line of sight from A to B (SK-V6); ``mask``: the sight mask of the doors."""
    if L.entries == 0:
        return True
    count = _candidates(G, L, ax, ay, bx, by)
    return sees(ax, ay, bx, by, G.x1, G.y1, G.x2, G.y2, mask, G.candidates, count)


@internal
def _lit(F: Discovery, G: Segments, L: LineGrid, mask: np.ndarray, px: float, py: float) -> bool:
    """In a light that reaches the point (SK-V5)."""
    lights_x = F.light_x
    lights_y = F.light_y
    radii = F.light_r
    for k in range(lights_x.shape[0]):
        dx = px - lights_x[k]
        dy = py - lights_y[k]
        radius = radii[k]
        if dx * dx + dy * dy <= radius * radius and _sees(
            G, L, mask, lights_x[k], lights_y[k], px, py
        ):
            return True
    return False


@internal
def _hear_code(
    hear: np.ndarray,
    check: int,
    sound: int,
    steps: int,
    walls: int,
    alert: int,
    pool: int,
    ctx: np.ndarray,
) -> int:
    if steps >= hear.shape[2] or walls >= hear.shape[3]:
        ctx[C_STATUS] |= LIMIT
        return NEVER
    code = hear[check, sound, steps, walls, alert, pool]
    if code == UNKNOWN:
        ctx[C_STATUS] |= MISSED
        n = ctx[C_MISSES]
        if n < MOST_MISSES:
            flat = (
                (((check * hear.shape[1] + sound) * hear.shape[2] + steps) * hear.shape[3] + walls)
                * 2
                + alert
            ) * hear.shape[5] + pool
            ctx[C_MISSES + 1 + n] = flat
            ctx[C_MISSES] = n + 1
        return NEVER
    return int(code)


@internal
def _detect(D: Detections, g: int, i: int, x: float, y: float) -> None:
    """Guard g sees intruder i (at x, y): the alarm of the turn follows. ``D``: the
    detection arrays (:func:`_queries`)."""
    scalars = D.scalars
    D.watches[g, i] = True
    if not scalars[S_EVER]:
        scalars[S_EVER] = 1
        scalars[S_FIRST] = scalars[S_TURN]
    pairs = D.pairs
    if not pairs[g, i]:
        pairs[g, i] = True
        h = scalars[S_HEAT]
        D.heat_x[h] = x
        D.heat_y[h] = y
        scalars[S_HEAT] = h + 1
    if D.resolved[g, i]:
        return
    queue = D.queue
    queued = scalars[S_QUEUED]
    for k in range(queued):
        if queue[k, 0] == g and queue[k, 1] == i:
            return
    queue[queued, 0] = g
    queue[queued, 1] = i
    scalars[S_QUEUED] = queued + 1


@internal
def _look(
    G: Segments,
    L: LineGrid,
    D: Detections,
    V: Guards,
    P: Numbers,
    g: int,
    i: int,
    outfit: int,
    x: float,
    y: float,
    attitude: int,
    lit: int,
    mask: np.ndarray,
    cache: np.ndarray,
    key: int,
    base: int,
    uniforms: np.ndarray,
    ctx: np.ndarray,
) -> None:
    """Guard g tests sight on intruder i (``outfit``: its outfit) at (x, y) (SK-V1..SK-V9).
    ``V``: the guards' arrays, ``P``: the rule's scalars (:func:`_queries`); ``mask``: the
    sight mask of the doors. ``cache[key, g]``: where the guard's line of sight to that point
    is cached, ``key`` -1 for none, as ``base`` + 0 or 1 (below ``base``: not yet known)."""
    alert = 1 if V.alert[g] else 0
    code = _look_code(G, L, V, P, g, outfit, x, y, attitude, lit, alert, mask, cache, key, base)
    if code == NEVER:
        return
    if roll_pool(code, V.dice[V.pool[g]], P.sides, uniforms, ctx):
        _detect(D, g, i, x, y)


@internal
def _look_code(
    G: Segments,
    L: LineGrid,
    V: Guards,
    P: Numbers,
    g: int,
    outfit: int,
    x: float,
    y: float,
    attitude: int,
    lit: int,
    alert: int,
    mask: np.ndarray,
    cache: np.ndarray,
    key: int,
    base: int,
) -> int:
    """The roll code of guard g's sight test on an intruder at (x, y) (:func:`_look`)."""
    gx, gy = V.gx[g], V.gy[g]
    near = 1 if hypot_below(gx - x, gy - y, P.auto, True) else 0
    band = 1 if hypot_below(gx - x, gy - y, V.bands[attitude], True) else 0
    pool = V.pool[g]
    sight = V.sight
    blind = sight[attitude, near, band, lit, 0, alert, outfit, pool]
    seeing = sight[attitude, near, band, lit, 1, alert, outfit, pool]
    if blind == NEVER and seeing == NEVER:
        return NEVER
    code = seeing
    if blind != seeing:
        line = -1
        if key >= 0:
            line = cache[key, g] - base
        if line < 0:
            line = 1 if _sees(G, L, mask, gx, gy, x, y) else 0
            if key >= 0:
                cache[key, g] = base + line
        code = seeing if line else blind
    return int(code)


@inlined
def _noise(Q: Helpers, N: Sound, uniforms: np.ndarray, ctx: np.ndarray) -> None:
    """Every living defender not watching the maker (seen, and in sight now: LP-4) checks the
    noise ``N`` (SK-N1..SK-N7); one who hears turns round: a sight test on the maker where he
    is seen (SK-N10)."""
    G, L, D, V, P = Q.segments, Q.line, Q.detections, Q.guards, Q.numbers
    maker, outfit, mx, my, attitude, lit = N.maker, N.outfit, N.mx, N.my, N.attitude, N.lit
    sight_mask, key, look_key = N.sight_mask, N.key, N.look_key
    alive = V.alive
    watches = D.watches
    gxs = V.gx
    gys = V.gy
    patrolling = V.patrolling
    cache = V.cache_walls
    cached_steps = V.cache_steps
    alerts = V.alert
    pools = V.pool
    dice = V.dice
    hear = V.hear
    step = P.step
    sides = P.sides
    for g in range(P.guards):
        if g == N.besides or not alive[g]:
            continue
        posted = not patrolling[g]
        if watches[g, maker]:
            # seen, and in sight now: not a noise out of his sight (SK-N1, LP-4 [R]: the rule's
            # checks_noise, the sight rule allowing a test or seeing, not NEVER)
            in_sight = _look_code(
                G, L, V, P, g, outfit, mx, my, attitude, lit, 1 if alerts[g] else 0,
                sight_mask, V.cache_line, look_key if posted else -1, ZERO,
            )  # fmt: skip
            if in_sight != NEVER:
                continue
        gx, gy = gxs[g], gys[g]
        walls = -1
        steps = -1
        if key >= 0 and posted:
            walls = cache[key, g]
            steps = cached_steps[key, g]
        if walls < 0:
            walls = _walls_from(G, L, key, N.noise_mask, gx, gy, N.x, N.y)
            steps = hypot_steps(gx - N.x, gy - N.y, step)
            if key >= 0 and posted:
                cache[key, g] = walls
                cached_steps[key, g] = steps
        alert = 1 if alerts[g] else 0
        pool = pools[g]
        code = _hear_code(hear, NOISE, N.sound, steps, walls, alert, pool, ctx)
        if roll_pool(code, dice[pool], sides, uniforms, ctx):
            if P.alert_on_noise:
                alerts[g] = True
            _look(
                G,
                L,
                D,
                V,
                P,
                g,
                maker,
                outfit,
                mx,
                my,
                attitude,
                lit,
                sight_mask,
                V.cache_line,
                look_key if posted else -1,
                ZERO,
                uniforms,
                ctx,
            )


@internal
def _blow_noise(Q: Helpers, N: Sound, uniforms: np.ndarray, ctx: np.ndarray) -> None:
    """:func:`_noise`, called: for the alarm's blows (:func:`_alarms`), rarer than a turn's
    operations, whose one call inlines it. Inlined at the blows too, it would put two more
    copies in the run's function and slow the raid; so would an :func:`_alarms` called only on
    a turn with a detection, with :func:`_noise` inlined in it."""
    _noise(Q, N, uniforms, ctx)


@internal
def _queries(M: Raid, W: State) -> Helpers:
    """The few arrays and scalars the hot helpers read, out of the model and the state: ``G``
    (segment queries), ``L`` (the line grid's numbers), ``D`` (detections), ``V`` (the
    guards and their tables), ``P`` (the rules' numbers)."""
    G = Segments(
        M.x1, M.y1, M.x2, M.y2, M.line_start, M.line_walls, W.stamp, W.candidates, W.scratch,
        M.sector_start, M.sector_walls,
    )  # fmt: skip
    L = LineGrid(M.brute, M.n_entries, M.line_columns, M.line_rows, M.line_cell)
    D = Detections(W.watches, W.pairs, W.resolved, W.queue, W.scalars, W.heat_x, W.heat_y)
    V = Guards(
        W.gx, W.gy, W.alert, W.alive, M.patrolling, M.guard_pool, M.pools, M.sight, M.bands,
        M.hear, W.cache_line, W.cache_walls, W.cache_steps,
    )  # fmt: skip
    P = Numbers(M.auto, M.step, M.sides, M.n_guards, M.alert_on_noise)
    F = Discovery(
        M.positions, W.gx, W.gy, W.guard_view, M.sight, M.guard_attitude, M.patrolling, M.bands,
        M.guard_outfit, M.intruder_alert, M.intruder_pool, M.cover_start, M.cover_x, M.cover_y,
        M.light_x, M.light_y, M.light_r,
    )  # fmt: skip
    return Helpers(G, L, D, V, P, F)


@internal
def _found(knows: int, known: np.ndarray, aware: np.ndarray, i: int, g: int) -> None:
    """What an intruder who strikes or kills a guard learns: where he stood, under the house
    rule (SK-G5 [R], :func:`vigile.rulesets.skirmish.alarm.striker_knows`): ``knows``, the
    state's rank (:attr:`Raid.striker_knows`), -1 for none."""
    if knows >= 0 and not known[i, g] and aware[i, g] != knows:
        aware[i, g] = knows


@internal
def _ground(
    start: np.ndarray, xs: np.ndarray, ys: np.ndarray, sounds: np.ndarray, x: float, y: float
) -> int:
    """The sound of a body falling at (x, y): that of the last surface (CSR polygons ``start``,
    ``xs``, ``ys``) that holds it, or the default, last of ``sounds``."""
    region = region_of(x, y, start, xs, ys)
    return int(sounds[region] if region >= 0 else sounds[sounds.shape[0] - 1])


@internal
def _move(
    x: float, y: float, ux: float, uy: float, length: float, x1: np.ndarray, y1: np.ndarray,
    x2: np.ndarray, y2: np.ndarray, normal_x: np.ndarray, normal_y: np.ndarray,
    has_normal: np.ndarray, walls: np.ndarray, count: int, width: float, height: float,
    bounces: int, margin: float,
) -> tuple[float, float]:  # fmt: skip
    """A patrol's move (:func:`~vigile.sim.kernel.geometry.trace_unit`), compiled on its own and
    called, not inlined in :func:`_patrols` (and so in :func:`play_runs`): numba inlines by
    copying the callee's IR block by block, each block with the whole function's scope, and
    ``trace_unit`` with the helpers it inlines is the kernel's largest piece, so that copying
    it into the run's function was a fifth of the first compile (with the typing of the run's
    function, grown by it, another fifth). The call passes eight arrays and ten numbers, once a
    guard's move: no slower at the raid's speed (within the load's noise, 200,000 runs), where
    calling :func:`_patrols` itself, with the model's and the state's arrays, was 1.6 times
    slower."""
    return trace_unit(
        x, y, ux, uy, length, x1, y1, x2, y2, normal_x, normal_y, has_normal, walls, count,
        width, height, bounces, margin,
    )  # fmt: skip


@inlined
def _patrols(M: Raid, W: State, doors: int, uniforms: np.ndarray, ctx: np.ndarray) -> None:
    """Each group draws one direction and its living members move (SK-G1)."""
    alive = W.alive
    patrolling = M.patrolling
    group_of = M.group_of
    next_in_group = M.next_in_group
    done = W.done_group
    stamp = W.epoch[0]
    near_start = M.near_start[doors]
    near_walls = M.near_walls
    per_cell = 1.0 / M.move_cell
    for g in range(M.n_guards):
        if not (alive[g] and patrolling[g]) or done[group_of[g]] == stamp:
            continue
        group = group_of[g]
        done[group] = stamp
        angle = TWO_PI * draw(uniforms, ctx)
        ux = math.cos(angle)  # as the engine's board moves a patrol (``trace_along``)
        uy = math.sin(angle)
        length = M.move
        h = g  # g and the fellows ranked after him (those before are dead or posted)
        while h >= 0:
            if not alive[h]:
                h = next_in_group[h]
                continue
            x, y = W.gx[h], W.gy[h]
            # the cell (a point on a cell's edge may land in either: both lists hold every
            # wall a move from it can meet, :func:`vigile.sim.kernel.grid.near_walls`)
            column = min(M.move_columns - 1, max(0, int(x * per_cell)))
            row = min(M.move_rows - 1, max(0, int(y * per_cell)))
            k = column * M.move_rows + row
            first = near_start[k]
            count = near_start[k + 1] - first
            walls = near_walls[first : first + count]
            W.gx[h], W.gy[h] = _move(
                x,
                y,
                ux,
                uy,
                length,
                M.x1,
                M.y1,
                M.x2,
                M.y2,
                M.normal_x,
                M.normal_y,
                M.has_normal,
                walls,
                count,
                M.width,
                M.height,
                M.bounces,
                M.margin,
            )
            h = next_in_group[h]


@internal
def _reaches(
    ops: np.ndarray,
    gx: np.ndarray,
    gy: np.ndarray,
    sight_masks: np.ndarray,
    move_masks: np.ndarray,
    G: Segments,
    L: LineGrid,
    k: int,
    victim: int,
) -> bool:
    """The kill or strike of op k (or its fumble roll's) reaches its victim where it stands
    now (``Game._blow_refused``, LP-7): within the op's reach of the maker (``math.hypot``,
    ``gap > reach + 1e-9`` refused); a shot in a line of sight, a melee blow with no barrier
    that stops a walker between (``Board.blocks_walker``), the doors as the op found them."""
    mx, my = ops[k, OP_MAKER_X], ops[k, OP_MAKER_Y]
    vx, vy = gx[victim], gy[victim]
    if not hypot_below(mx - vx, my - vy, ops[k, OP_REACH] + 1e-9, False):
        return False
    doors = int(ops[k, OP_DOORS])
    if ops[k, OP_RANGED]:
        return _sees(G, L, sight_masks[doors], mx, my, vx, vy)
    return _walls_between(G, L, move_masks[doors], mx, my, vx, vy) == 0


@inlined
def _ops(M: Raid, W: State, Q: Helpers, t: int, uniforms: np.ndarray, ctx: np.ndarray) -> None:
    """The intruders' side of turn t, as the schedule recorded it. Inlined: a call would pass
    the model's and the run's hundred arrays, every turn."""
    G, L, D, P = Q.segments, Q.line, Q.detections, Q.numbers
    ops = M.ops
    sides = P.sides
    alive = W.alive
    patrolling = M.patrolling
    outfits = M.intruder_outfit
    noise_masks = M.noise_mask
    sight_masks = M.sight_mask
    for k in range(M.turn_ops[t], M.turn_ops[t + 1]):
        kind = int(ops[k, OP_KIND])
        maker = int(ops[k, OP_MAKER])
        ax, ay = ops[k, OP_X], ops[k, OP_Y]
        doors = int(ops[k, OP_DOORS])
        sound = int(ops[k, OP_SOUND])
        victim = int(ops[k, OP_VICTIM])
        mx, my = ops[k, OP_MAKER_X], ops[k, OP_MAKER_Y]
        attitude = int(ops[k, OP_ATTITUDE])
        lit = int(ops[k, OP_LIT])
        outfit = outfits[maker]
        noise_mask = noise_masks[doors]
        sight_mask = sight_masks[doors]
        besides = NOBODY  # a guard the noise is not for: the one struck
        key = k  # where a posted listener's count of walls to the source is cached
        if kind == FUMBLE_OP:
            if victim >= 0 and not (
                alive[victim]
                and _reaches(ops, W.gx, W.gy, M.sight_mask, M.move_mask, G, L, k, victim)
            ):
                continue
            if not fumbles(int(ops[k, OP_POOL]), sides, uniforms, ctx):
                continue
        elif kind != NOISE_OP:  # a kill or a strike: the noise is where the victim stands
            if not (
                alive[victim]
                and _reaches(ops, W.gx, W.gy, M.sight_mask, M.move_mask, G, L, k, victim)
            ):
                continue
            if kind == KILL_OP:
                alive[victim] = False
            else:
                besides = victim
            _found(M.striker_knows, W.knows, W.aware, maker, victim)
            ax, ay = W.gx[victim], W.gy[victim]
            if kind == KILL_OP and sound < 0:
                sound = _ground(M.surf_start, M.surf_x, M.surf_y, M.region_sound, ax, ay)
            key = k if not patrolling[victim] else -1
        # one call for every kind: _noise is inlined where it is called
        N = Sound(
            sound, ax, ay, maker, outfit, mx, my, attitude, lit, noise_mask, sight_mask,
            besides, key, k,
        )  # fmt: skip
        _noise(Q, N, uniforms, ctx)
        if kind == STRIKE_OP and alive[victim] and M.struck_sees:
            _detect(D, victim, maker, mx, my)  # SK-G5 [R]: struck_guard_sees


@inlined
def _conversations(
    M: Raid, W: State, Q: Helpers, t: int, uniforms: np.ndarray, ctx: np.ndarray
) -> None:
    """Each living intruder tests to overhear each talking guard (SK-N7, ``may_overhear``)."""
    G, L, P = Q.segments, Q.line, Q.numbers
    talks = M.talks
    mask = M.noise_mask[M.turn_doors[t, 1]]
    positions = M.positions
    overhears = M.overhears
    aware = W.aware
    knows = W.knows
    alive = W.alive
    gxs = W.gx
    gys = W.gy
    intruder_pool = M.intruder_pool
    intruder_alert = M.intruder_alert
    dice = M.pools
    hear = M.hear
    step = P.step
    sides = P.sides
    heard = M.heard
    for g in range(P.guards):
        if not alive[g] or talks[g] < 0:
            continue
        for i in range(M.n_intruders):
            if not overhears[aware[i, g], 1 if knows[i, g] else 0]:
                continue
            ix, iy = positions[t, i, 0], positions[t, i, 1]
            steps = hypot_steps(ix - gxs[g], iy - gys[g], step)
            walls = _walls_between(G, L, mask, ix, iy, gxs[g], gys[g])
            pool = intruder_pool[i]
            code = _hear_code(hear, OVERHEAR, talks[g], steps, walls, intruder_alert[i], pool, ctx)
            if roll_pool(code, dice[pool], sides, uniforms, ctx):
                aware[i, g] = max(aware[i, g], heard)


@inlined
def _sight(M: Raid, W: State, Q: Helpers, t: int, uniforms: np.ndarray, ctx: np.ndarray) -> None:
    """Every living guard on every intruder it does not watch; then discovery (SK-G3, SK-G4).
    A posted guard's codes are read from :attr:`Raid.posted_look` and
    :attr:`Raid.posted_find`; the pairs come from the turn's lists (:attr:`Raid.look_pairs`,
    :attr:`Raid.find_pairs`), in the loops' order."""
    G, L, D, V, P = Q.segments, Q.line, Q.detections, Q.guards, Q.numbers
    mask = M.sight_mask[M.turn_doors[t, 1]]
    positions = M.positions
    outfits = M.intruder_outfit
    patrolling = M.patrolling
    posted_look = M.posted_look
    posted_find = M.posted_find
    alive = W.alive
    alerts = W.alert
    watches = W.watches
    turn_lines = W.turn_line
    base = 2 * W.epoch[0]
    pools = M.guard_pool
    dice = M.pools
    sides = P.sides
    reach = M.look_reach
    gxs = W.gx
    gys = W.gy
    looks = M.look_pairs
    for k in range(M.look_start[t], M.look_start[t + 1]):
        g, i = looks[k, 0], looks[k, 1]
        if not alive[g] or watches[g, i]:
            continue
        x, y = positions[t, i, 0], positions[t, i, 1]
        if patrolling[g]:
            if beyond(gxs[g] - x, gys[g] - y, reach[t, i]):
                continue  # neither near nor in the band, unlit: every code NEVER
            _look(
                G, L, D, V, P, g, i, outfits[i], x, y, M.attitudes[t, i], M.lit[t, i],
                mask, turn_lines, i, base, uniforms, ctx,
            )  # fmt: skip
            continue
        code = posted_look[t, i, g, 1 if alerts[g] else 0]
        if code != NEVER and roll_pool(code, dice[pools[g]], sides, uniforms, ctx):
            _detect(D, g, i, x, y)
    observed = M.observed
    knows = W.knows
    aware = W.aware
    intruder_pool = M.intruder_pool
    finds = M.find_pairs
    for k in range(M.find_start[t], M.find_start[t + 1]):
        i, g = finds[k, 0], finds[k, 1]
        if not alive[g] or knows[i, g] or aware[i, g] == observed:
            continue
        if patrolling[g]:
            code = _find_code(Q.discovery, G, L, P, t, i, g, mask, turn_lines, i, base)
        else:
            code = posted_find[t, i, g]
        if code == NEVER:
            continue
        pool = intruder_pool[i]
        if roll_pool(code, dice[pool], sides, uniforms, ctx):
            aware[i, g] = observed


@internal
def _find_code(
    F: Discovery,
    G: Segments,
    L: LineGrid,
    P: Numbers,
    t: int,
    i: int,
    g: int,
    mask: np.ndarray,
    lines: np.ndarray,
    key: int,
    base: int,
) -> int:
    """The roll code of intruder i's test to discover guard g in turn t (SK-G4): the guard's
    attitude (in cover or not, moving or not), the light where it stands, the line between
    them (``lines[key, g]``, the same both ways: the predicates order each segment's ends, and
    as the guard's own look may have found it)."""
    ix, iy = F.positions[t, i, 0], F.positions[t, i, 1]
    gx, gy = F.gx[g], F.gy[g]
    view = F.guard_view
    sight = F.sight
    guard_attitude = F.guard_attitude
    moved = 1 if F.patrolling[g] else 0
    attitude = guard_attitude[g, moved, 0]
    if guard_attitude[g, moved, 0] != guard_attitude[g, moved, 1]:
        cover = view[0, g] - base
        if cover < 0:
            cover = 1 if region_of(gx, gy, F.cover_start, F.cover_x, F.cover_y) >= 0 else 0
            view[0, g] = base + cover
        if cover:
            attitude = guard_attitude[g, moved, 1]
    near = 1 if hypot_below(ix - gx, iy - gy, P.auto, True) else 0
    band = 1 if hypot_below(ix - gx, iy - gy, F.bands[attitude], True) else 0
    outfit = F.guard_outfit[g]
    alert = F.intruder_alert[i]
    pool = F.intruder_pool[i]
    lit_keys = (
        sight[attitude, near, band, 0, 0, alert, outfit, pool]
        != sight[attitude, near, band, 1, 0, alert, outfit, pool]
        or sight[attitude, near, band, 0, 1, alert, outfit, pool]
        != sight[attitude, near, band, 1, 1, alert, outfit, pool]
    )
    lit = 0
    if lit_keys:
        lit = view[1, g] - base
        if lit < 0:
            lit = 1 if _lit(F, G, L, mask, gx, gy) else 0
            view[1, g] = base + lit
    blind = sight[attitude, near, band, lit, 0, alert, outfit, pool]
    seeing = sight[attitude, near, band, lit, 1, alert, outfit, pool]
    if blind == NEVER and seeing == NEVER:
        return NEVER
    code = seeing
    if blind != seeing:
        line = lines[key, g] - base
        if line < 0:
            line = 1 if _sees(G, L, mask, gx, gy, ix, iy) else 0
            lines[key, g] = base + line
        code = seeing if line else blind
    return int(code)


@compiled
def posted_codes(M: Raid, W: State) -> None:
    """Fill :attr:`Raid.posted_look` and :attr:`Raid.posted_find`: every posted guard's codes,
    each turn, as :func:`_sight` would work them out (the same functions, from the guards'
    places)."""
    n_g, n_i = M.n_guards, M.n_intruders
    n_ops = M.ops.shape[0]
    Q = _queries(M, W)
    G, L, V, P = Q.segments, Q.line, Q.guards, Q.numbers
    for g in range(W.gx.shape[0]):
        W.gx[g] = M.start_x[g]
        W.gy[g] = M.start_y[g]
    for t in range(M.n_turns):
        mask = M.sight_mask[M.turn_doors[t, 1]]
        W.guard_view[:, :] = -1
        for g in range(n_g):
            if M.patrolling[g]:
                continue
            for i in range(n_i):
                key = n_ops + t * n_i + i
                x, y = M.positions[t, i, 0], M.positions[t, i, 1]
                for alert in range(2):
                    M.posted_look[t, i, g, alert] = _look_code(
                        G, L, V, P, g, M.intruder_outfit[i], x, y, M.attitudes[t, i],
                        M.lit[t, i], alert, mask, W.cache_line, key, ZERO,
                    )  # fmt: skip
                M.posted_find[t, i, g] = _find_code(
                    Q.discovery, G, L, P, t, i, g, mask, W.cache_line, key, ZERO
                )


@inlined
def _alarms(M: Raid, W: State, Q: Helpers, t: int, uniforms: np.ndarray, ctx: np.ndarray) -> None:
    """The detections of the turn, in order (SK-G5): initiative within reach, else the cry."""
    scalars = W.scalars
    queue = W.queue
    alive = W.alive
    positions = M.positions
    doors = M.turn_doors[t, 1]
    noise_mask = M.noise_mask[doors]
    sight_mask = M.sight_mask[doors]
    sides = M.sides
    n_ops = M.ops.shape[0]
    n_g = M.n_guards
    k = 0
    while k < scalars[S_QUEUED]:
        g, i = queue[k, 0], queue[k, 1]
        k += 1
        if scalars[S_OUTCOME] != RUNNING or not alive[g]:
            continue
        W.resolved[g, i] = True
        ix, iy = positions[t, i, 0], positions[t, i, 1]
        cries = True
        if hypot_below(W.gx[g] - ix, W.gy[g] - iy, M.reach, False):
            guard_face = face(sides, uniforms, ctx)
            intruder_face = face(sides, uniforms, ctx)
            cries = M.initiative[guard_face - 1, intruder_face - 1]
        if cries:
            W.alert[g] = True
            scalars[S_ALARM] = 1
            for h in range(n_g):
                if h == g or not alive[h]:
                    continue
                pool = M.guard_pool[h]
                code = M.cry[1 if W.alert[h] else 0, pool]
                if roll_pool(code, M.pools[pool], sides, uniforms, ctx):
                    W.alert[h] = True
            if M.alarm_ends:
                scalars[S_OUTCOME] = M.ending_alarm
                scalars[S_END] = scalars[S_TURN]
            continue
        # the intruder strikes first: a round of melee, then the guard's death (SK-G5)
        gx, gy = W.gx[g], W.gy[g]
        attitude = M.attitudes[t, i]
        lit = M.lit[t, i]
        outfit = M.intruder_outfit[i]
        key = n_ops + doors * n_g + g if not M.patrolling[g] else -1
        look_key = n_ops + t * M.n_intruders + i
        melee = Sound(
            M.melee_sound, gx, gy, i, outfit, ix, iy, attitude, lit, noise_mask, sight_mask,
            g, key, look_key,
        )  # fmt: skip
        _blow_noise(Q, melee, uniforms, ctx)
        if alive[g]:
            alive[g] = False
            _found(M.striker_knows, W.knows, W.aware, i, g)
            ground = _ground(M.surf_start, M.surf_x, M.surf_y, M.region_sound, gx, gy)
            death = Sound(
                ground, gx, gy, i, outfit, ix, iy, attitude, lit, noise_mask, sight_mask, NOBODY,
                key, look_key,
            )  # fmt: skip
            _blow_noise(Q, death, uniforms, ctx)


@inlined
def _new_run(M: Raid, W: State) -> None:
    """The state at a run's start: the guards at their posts, no one dead, seen or heard."""
    for g in range(W.gx.shape[0]):
        W.gx[g] = M.start_x[g]
        W.gy[g] = M.start_y[g]
        W.alert[g] = M.guard_alert[g]
    W.alive[:] = True
    W.watches[:, :] = False
    W.resolved[:, :] = False
    W.aware[:, :] = 0
    for i in range(W.knows.shape[0]):
        for g in range(W.knows.shape[1]):
            W.knows[i, g] = M.known[i, g]
    W.pairs[:, :] = False
    scalars = W.scalars
    scalars[:] = 0
    scalars[S_OUTCOME] = RUNNING


@compiled
def play_runs(
    M: Raid,
    W: State,
    uniforms: np.ndarray,
    ctx: np.ndarray,
    first: int,
    last: int,
    outcome: np.ndarray,
    end: np.ndarray,
    first_seen: np.ndarray,
    pairs: np.ndarray,
    alive: np.ndarray,
    alert: np.ndarray,
    aware: np.ndarray,
    heat: np.ndarray,
    heat_scale: np.ndarray,
) -> int:
    """Play runs ``first`` .. ``last - 1`` from the stream at ``ctx[C_POS]``; return the first
    run not played (``last`` when all were). A run that ran out of uniforms or met an unknown
    case is not counted: ``ctx[C_POS]`` is put back to its first uniform and ``ctx[C_STATUS]``
    says why. ``heat``: detections by where the intruder stood (``heat_scale``: cells per unit
    in x and y). The ending and the detections are recorded as every kernel records them
    (:mod:`vigile.sim.kernel.blocks`); a raid's guards alive, on alert, and what each intruder
    knew of each guard, here, run by run (``alive``, ``alert``, ``aware``: with one row, the
    last run's only, for a tally that reads none of them).

    A run's turns are played here, in the loop over the runs, not in a function of their own:
    calling one per run would push the model's and the state's arrays on the stack, and
    inlining it (a function that inlines the turn's phases) would double the memory of the
    first compile."""
    n_g, n_i, n_t = M.n_guards, M.n_intruders, M.n_turns
    scalars = W.scalars
    for r in range(first, last):
        start = ctx[C_POS]
        _new_run(M, W)
        # the hot helpers' tuples, made in the loop: no copy, and faster than made once before it
        Q = _queries(M, W)
        for t in range(n_t):
            scalars[S_TURN] = t + 1
            scalars[S_QUEUED] = 0
            W.epoch[0] += 1
            _patrols(M, W, M.turn_doors[t, 0], uniforms, ctx)
            if M.turn_ops[t] < M.turn_ops[t + 1]:  # most turns have none
                _ops(M, W, Q, t, uniforms, ctx)
            _conversations(M, W, Q, t, uniforms, ctx)
            _sight(M, W, Q, t, uniforms, ctx)
            if n_g and n_i:
                _alarms(M, W, Q, t, uniforms, ctx)
            if scalars[S_OUTCOME] == RUNNING and M.objective[t]:
                if scalars[S_ALARM]:
                    scalars[S_OUTCOME] = M.ending_after_alarm
                elif scalars[S_EVER]:
                    scalars[S_OUTCOME] = M.ending_detected
                else:
                    scalars[S_OUTCOME] = M.ending_unseen
                scalars[S_END] = t + 1
            if scalars[S_OUTCOME] != RUNNING or ctx[C_STATUS]:
                break
        if scalars[S_OUTCOME] == RUNNING:
            scalars[S_OUTCOME] = M.ending_turn_limit
            scalars[S_END] = n_t
        if ctx[C_STATUS]:
            ctx[C_POS] = start
            return r
        record_end(
            r, scalars[S_OUTCOME], scalars[S_END], scalars[S_FIRST], outcome, end, first_seen
        )
        row = min(r, alive.shape[0] - 1)
        for g in range(W.alive.shape[0]):
            alive[row, g] = W.alive[g]
            alert[row, g] = W.alert[g]
            for i in range(W.aware.shape[0]):
                aware[row, i, g] = W.aware[i, g]
        record_detections(r, W.pairs, scalars[S_HEAT], W.heat_x, W.heat_y, pairs, heat, heat_scale)
    return last
