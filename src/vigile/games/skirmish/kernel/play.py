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

A run stops early, to be played again, when the stream runs out (:data:`EXHAUSTED`) or when it
meets a case of the hearing table not yet asked of the rule (:data:`MISSED`).
"""

from __future__ import annotations

import math
from typing import Any

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

Arrays = tuple[Any, ...]
"""A tuple of arrays: the model (``M``) or a run's state (``W``)."""
TWO_PI = 2.0 * math.pi
UNKNOWN, NEVER, AUTO = -1, 0, 1
NOISE, OVERHEAR = 0, 1
FUMBLE_OP, NOISE_OP, KILL_OP, STRIKE_OP = 0, 1, 2, 3
RUNNING = -1
MISSED = 2
LIMIT = 4
MOST_MISSES = 256

# the model tuple (see :func:`vigile.games.skirmish.kernel.raid.model_tuple`)
OPS, TURN_OPS, POSITIONS, ATTITUDES, LIT, TURN_DOORS, OBJECTIVE, TALKS = range(8)
X1, Y1, X2, Y2, NORMAL_X, NORMAL_Y, HAS_NORMAL = range(8, 15)
SIGHT_MASK, NOISE_MASK, MOVE_MASK, NEAR_START, NEAR_WALLS, LINE_START, LINE_WALLS = range(15, 22)
"""``NEAR_WALLS`` (a patrol's walls by map cell and door state, ``NEAR_START``) and
``SECTOR_WALLS`` hold entries: a wall, or a run of a straight wall's pieces as one negative code
(:func:`vigile.sim.kernel.grid.entries`); ``LINE_WALLS`` (by cell of the line grid, gathered
wall by wall) holds walls alone. ``X1`` … ``Y2`` hold the chains' boxes after the segments."""
COVER_START, COVER_X, COVER_Y, SURF_START, SURF_X, SURF_Y, REGION_SOUND = range(22, 29)
LIGHT_X, LIGHT_Y, LIGHT_R, START_X, START_Y, PATROLLING, GROUP_OF = range(29, 36)
GUARD_POOL, GUARD_ALERT, GUARD_OUTFIT, GUARD_ATTITUDE = range(36, 40)
INTRUDER_POOL, INTRUDER_ALERT, INTRUDER_OUTFIT, KNOWN = range(40, 44)
POOLS, BANDS, SIGHT, CRY, INITIATIVE, OVERHEARS, SECTOR_START, SECTOR_WALLS = range(44, 52)
"""``SECTOR_START[key]`` (CSR into ``SECTOR_WALLS``): the walls that can lie between a listener
in each sector of directions and the noise of ``key`` (the caches' keys), where its place is
known before the first run (:mod:`vigile.sim.kernel.sectors`); a row of one value lists none."""
HEAR, FLOATS, INTS, ENDINGS = range(52, 56)
POSTED_LOOK, POSTED_FIND, NEXT_IN_GROUP, LOOK_REACH = 56, 57, 58, 59
LOOK_START, LOOK_PAIRS, FIND_START, FIND_PAIRS = 60, 61, 62, 63
"""``POSTED_LOOK[t, i, g, alert]``: the roll code of posted guard g's sight test on intruder i
in turn t, on alert or not; ``POSTED_FIND[t, i, g]``: intruder i's test to discover posted guard
g. Neither moves in the sight phase, nor do their doors, lights and cover: the codes are known
before the first run (:func:`posted_codes`), and each run reads them instead of working them out
again. ``UNKNOWN`` where not yet filled. ``NEXT_IN_GROUP[g]``: the next guard of g's patrol
group by rank, -1 after the last. ``LOOK_REACH[t, i]``: beyond it, a patrol's look at intruder i
in turn t rolls nothing (:func:`vigile.games.skirmish.kernel.tables._look_reach`).
``LOOK_PAIRS[LOOK_START[t] : LOOK_START[t + 1]]``: the (guard, intruder) pairs of turn t's
looks, in the sight phase's order (by guard, then intruder), but for a posted guard's whose
codes are NEVER on alert or not; ``FIND_PAIRS`` likewise, (intruder, guard) by intruder, the
discoveries, but for a guard the intruder knows from the start (``KNOWN``, which no run
changes) or a posted guard whose code is NEVER (:func:`vigile.games.skirmish.kernel.raid.
sight_lists`). A pair left out rolls nothing: the rolls of the others keep their order."""
# FLOATS
F_WIDTH, F_HEIGHT, F_MOVE, F_MARGIN, F_STEP, F_AUTO, F_REACH, F_MOVE_CELL, F_LINE_CELL = range(9)
# INTS
(
    I_BOUNCES,
    I_ALARM_ENDS,
    I_ALERT_ON_NOISE,
    I_GUARDS,
    I_INTRUDERS,
    I_TURNS,
    I_WALLS,
    I_MOVE_COLUMNS,
    I_MOVE_ROWS,
    I_LINE_COLUMNS,
    I_LINE_ROWS,
    I_BRUTE,
    I_GROUPS,
    I_OBSERVED,
    I_HEARD,
    I_FUMBLE_SOUND,
    I_MELEE_SOUND,
    I_SIDES,
    I_STRUCK_SEES,
    I_STRIKER_KNOWS,
    I_ENTRIES,
) = range(21)
# ENDINGS: the tally's codes
E_UNSEEN, E_DETECTED, E_AFTER_ALARM, E_ALARM, E_TURN_LIMIT = range(5)

# the run's state tuple
GX, GY, ALIVE, ALERT, WATCHES, RESOLVED, AWARE, KNOWS, QUEUE, PAIRS, SCALARS = range(11)
CANDIDATES, STAMP, SCRATCH, DONE_GROUP, HEAT_X, HEAT_Y, CACHE_WALLS, CACHE_LINE = range(11, 19)
TURN_LINE, GUARD_VIEW, CACHE_STEPS, EPOCH = 19, 20, 21, 22
"""``TURN_LINE[i, g]``: a moving guard's line of sight to intruder i this turn;
``GUARD_VIEW[0 / 1, g]``: guard g stands in cover / in light this turn. Both hold for the sight
phase of one turn, where nothing moves. ``EPOCH[0]`` counts the turns the state has played,
every run together; a value written in a turn is stored as ``2 * EPOCH[0] + value``, so that
what is below ``2 * EPOCH[0]`` was written in an earlier turn: not yet known (and
``DONE_GROUP[group]`` holds the ``EPOCH[0]`` of the turn the group last moved). That spares
clearing them each turn: three calls to ``memset`` a turn, with the last run's ends kept
(:func:`play_runs`). ``CACHE_STEPS`` beside
``CACHE_WALLS``: a posted listener's distance to a source, in the hearing table's steps (the
exact quotient is slow where the distance is a whole number of steps, as on a grid)."""
# SCALARS
S_TURN, S_EVER, S_FIRST, S_ALARM, S_OUTCOME, S_END, S_QUEUED, S_HEAT = range(8)
# the hot helpers' tuples (:func:`_queries`)
Q_X1, Q_Y1, Q_X2, Q_Y2, Q_LINE_START, Q_LINE_WALLS, Q_STAMP, Q_CANDIDATES, Q_SCRATCH = range(9)
Q_SECTOR_START, Q_SECTOR_WALLS = 9, 10
L_BRUTE, L_ENTRIES, L_COLUMNS, L_ROWS, L_CELL = range(5)
"""``L[L_ENTRIES]``: the entries of every wall (``CANDIDATES``' first ones, none where there is
no wall), the list a query tries where ``L[L_BRUTE]``."""
D_WATCHES, D_PAIRS, D_RESOLVED, D_QUEUE, D_SCALARS, D_HEAT_X, D_HEAT_Y = range(7)
(
    V_GX,
    V_GY,
    V_ALERT,
    V_ALIVE,
    V_PATROLLING,
    V_POOL,
    V_DICE,
    V_SIGHT,
    V_BANDS,
    V_HEAR,
    V_CACHE_LINE,
    V_CACHE_WALLS,
    V_CACHE_STEPS,
) = range(13)
P_AUTO, P_STEP, P_SIDES, P_GUARDS, P_ALERT_ON_NOISE = range(5)
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
def _candidates(G: Arrays, L: Arrays, ax: float, ay: float, bx: float, by: float) -> int:
    """The walls a segment query A–B must try, into ``G[Q_CANDIDATES]``; how many.
    ``G``: the query's arrays (:func:`_queries`); ``L``: the line grid's scalars."""
    if L[L_BRUTE]:
        return int(L[L_ENTRIES])
    return gather(
        ax,
        ay,
        bx,
        by,
        L[L_CELL],
        L[L_COLUMNS],
        L[L_ROWS],
        G[Q_LINE_START],
        G[Q_LINE_WALLS],
        G[Q_STAMP],
        G[Q_CANDIDATES],
    )


@internal
def _walls_between(
    G: Arrays, L: Arrays, mask: np.ndarray, ax: float, ay: float, bx: float, by: float
) -> int:
    """Walls, doors and partitions that count for noise between A and B (SK-N5); ``mask``:
    the noise mask of the doors as they stand."""
    if L[L_ENTRIES] == 0:
        return 0
    count = _candidates(G, L, ax, ay, bx, by)
    return crossings(
        ax,
        ay,
        bx,
        by,
        G[Q_X1],
        G[Q_Y1],
        G[Q_X2],
        G[Q_Y2],
        mask,
        G[Q_CANDIDATES],
        count,
        G[Q_SCRATCH],
    )


@internal
def _walls_from(
    G: Arrays, L: Arrays, key: int, mask: np.ndarray, ax: float, ay: float, bx: float, by: float
) -> int:
    """:func:`_walls_between` a listener at A and the noise of ``key`` at B: only the walls of
    A's sector of directions from B where the noise's place is known before the run
    (``SECTOR_START``), else every wall; the same count."""
    starts = G[Q_SECTOR_START]
    if key < 0 or L[L_ENTRIES] == 0 or starts[key, 0] == starts[key, SECTORS]:
        return _walls_between(G, L, mask, ax, ay, bx, by)
    sector = diamond_sector(ax - bx, ay - by, SECTORS)
    if sector < 0:
        return _walls_between(G, L, mask, ax, ay, bx, by)
    first = starts[key, sector]
    count = starts[key, sector + 1] - first
    return crossings(
        ax, ay, bx, by, G[Q_X1], G[Q_Y1], G[Q_X2], G[Q_Y2], mask,
        G[Q_SECTOR_WALLS][first : first + count], count, G[Q_SCRATCH],
    )  # fmt: skip


@internal
def _sees(
    G: Arrays, L: Arrays, mask: np.ndarray, ax: float, ay: float, bx: float, by: float
) -> bool:
    """A line of sight from A to B (SK-V6); ``mask``: the sight mask of the doors."""
    if L[L_ENTRIES] == 0:
        return True
    count = _candidates(G, L, ax, ay, bx, by)
    return sees(ax, ay, bx, by, G[Q_X1], G[Q_Y1], G[Q_X2], G[Q_Y2], mask, G[Q_CANDIDATES], count)


@internal
def _lit(M: Arrays, G: Arrays, L: Arrays, mask: np.ndarray, px: float, py: float) -> bool:
    """In a light that reaches the point (SK-V5)."""
    lights_x = M[LIGHT_X]
    lights_y = M[LIGHT_Y]
    radii = M[LIGHT_R]
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
def _detect(D: Arrays, g: int, i: int, x: float, y: float) -> None:
    """Guard g sees intruder i (at x, y): the alarm of the turn follows. ``D``: the
    detection arrays (:func:`_queries`)."""
    scalars = D[D_SCALARS]
    D[D_WATCHES][g, i] = True
    if not scalars[S_EVER]:
        scalars[S_EVER] = 1
        scalars[S_FIRST] = scalars[S_TURN]
    pairs = D[D_PAIRS]
    if not pairs[g, i]:
        pairs[g, i] = True
        h = scalars[S_HEAT]
        D[D_HEAT_X][h] = x
        D[D_HEAT_Y][h] = y
        scalars[S_HEAT] = h + 1
    if D[D_RESOLVED][g, i]:
        return
    queue = D[D_QUEUE]
    queued = scalars[S_QUEUED]
    for k in range(queued):
        if queue[k, 0] == g and queue[k, 1] == i:
            return
    queue[queued, 0] = g
    queue[queued, 1] = i
    scalars[S_QUEUED] = queued + 1


@internal
def _look(
    G: Arrays,
    L: Arrays,
    D: Arrays,
    V: Arrays,
    P: Arrays,
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
    alert = 1 if V[V_ALERT][g] else 0
    code = _look_code(G, L, V, P, g, outfit, x, y, attitude, lit, alert, mask, cache, key, base)
    if code == NEVER:
        return
    if roll_pool(code, V[V_DICE][V[V_POOL][g]], P[P_SIDES], uniforms, ctx):
        _detect(D, g, i, x, y)


@internal
def _look_code(
    G: Arrays,
    L: Arrays,
    V: Arrays,
    P: Arrays,
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
    gx, gy = V[V_GX][g], V[V_GY][g]
    near = 1 if hypot_below(gx - x, gy - y, P[P_AUTO], True) else 0
    band = 1 if hypot_below(gx - x, gy - y, V[V_BANDS][attitude], True) else 0
    pool = V[V_POOL][g]
    sight = V[V_SIGHT]
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
def _noise(
    G: Arrays,
    L: Arrays,
    D: Arrays,
    V: Arrays,
    P: Arrays,
    sound: int,
    ax: float,
    ay: float,
    maker: int,
    outfit: int,
    noise_mask: np.ndarray,
    sight_mask: np.ndarray,
    mx: float,
    my: float,
    attitude: int,
    lit: int,
    besides: int,
    key: int,
    look_key: int,
    uniforms: np.ndarray,
    ctx: np.ndarray,
) -> None:
    """Every living defender not watching the maker (seen, and in sight now: LP-4) checks the
    noise at (ax, ay) (SK-N1..SK-N7); one who hears turns round: a sight test on the maker at
    (mx, my) (SK-N10). ``key``: where
    a posted listener's count of walls to this source is cached, -1 for none."""
    alive = V[V_ALIVE]
    watches = D[D_WATCHES]
    gxs = V[V_GX]
    gys = V[V_GY]
    patrolling = V[V_PATROLLING]
    cache = V[V_CACHE_WALLS]
    cached_steps = V[V_CACHE_STEPS]
    alerts = V[V_ALERT]
    pools = V[V_POOL]
    dice = V[V_DICE]
    hear = V[V_HEAR]
    step = P[P_STEP]
    sides = P[P_SIDES]
    for g in range(P[P_GUARDS]):
        if g == besides or not alive[g]:
            continue
        posted = not patrolling[g]
        if watches[g, maker]:
            # seen, and in sight now: not a noise out of his sight (SK-N1, LP-4 [R]: the rule's
            # checks_noise, the sight rule allowing a test or seeing, not NEVER)
            in_sight = _look_code(
                G, L, V, P, g, outfit, mx, my, attitude, lit, 1 if alerts[g] else 0,
                sight_mask, V[V_CACHE_LINE], look_key if posted else -1, ZERO,
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
            walls = _walls_from(G, L, key, noise_mask, gx, gy, ax, ay)
            steps = hypot_steps(gx - ax, gy - ay, step)
            if key >= 0 and posted:
                cache[key, g] = walls
                cached_steps[key, g] = steps
        alert = 1 if alerts[g] else 0
        pool = pools[g]
        code = _hear_code(hear, NOISE, sound, steps, walls, alert, pool, ctx)
        if roll_pool(code, dice[pool], sides, uniforms, ctx):
            if P[P_ALERT_ON_NOISE]:
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
                V[V_CACHE_LINE],
                look_key if posted else -1,
                ZERO,
                uniforms,
                ctx,
            )


@internal
def _blow_noise(
    G: Arrays,
    L: Arrays,
    D: Arrays,
    V: Arrays,
    P: Arrays,
    sound: int,
    ax: float,
    ay: float,
    maker: int,
    outfit: int,
    noise_mask: np.ndarray,
    sight_mask: np.ndarray,
    mx: float,
    my: float,
    attitude: int,
    lit: int,
    besides: int,
    key: int,
    look_key: int,
    uniforms: np.ndarray,
    ctx: np.ndarray,
) -> None:
    """:func:`_noise` (the same arguments), called: for the alarm's blows (:func:`_alarms`),
    rarer than a turn's operations, whose one call inlines it. Inlined at the blows too, it
    would put two more copies in the run's function and slow the raid; so would an
    :func:`_alarms` called only on a turn with a detection, with :func:`_noise` inlined in it.
    numba forwards no ``*args`` to an inlined function: hence the signature written again."""
    _noise(
        G, L, D, V, P, sound, ax, ay, maker, outfit, noise_mask, sight_mask,
        mx, my, attitude, lit, besides, key, look_key, uniforms, ctx,
    )  # fmt: skip


@internal
def _queries(M: Arrays, W: Arrays) -> tuple[Any, Any, Any, Any, Any]:
    """The few arrays and scalars the hot helpers read, out of the model and the state: ``G``
    (segment queries), ``L`` (the line grid's scalars), ``D`` (detections), ``V`` (the
    guards and their tables), ``P`` (the rule's scalars)."""
    ints = M[INTS]
    floats = M[FLOATS]
    G = (
        M[X1],
        M[Y1],
        M[X2],
        M[Y2],
        M[LINE_START],
        M[LINE_WALLS],
        W[STAMP],
        W[CANDIDATES],
        W[SCRATCH],
        M[SECTOR_START],
        M[SECTOR_WALLS],
    )
    L = (
        ints[I_BRUTE],
        ints[I_ENTRIES],
        ints[I_LINE_COLUMNS],
        ints[I_LINE_ROWS],
        floats[F_LINE_CELL],
    )
    D = (W[WATCHES], W[PAIRS], W[RESOLVED], W[QUEUE], W[SCALARS], W[HEAT_X], W[HEAT_Y])
    V = (
        W[GX],
        W[GY],
        W[ALERT],
        W[ALIVE],
        M[PATROLLING],
        M[GUARD_POOL],
        M[POOLS],
        M[SIGHT],
        M[BANDS],
        M[HEAR],
        W[CACHE_LINE],
        W[CACHE_WALLS],
        W[CACHE_STEPS],
    )
    P = (
        floats[F_AUTO],
        floats[F_STEP],
        ints[I_SIDES],
        ints[I_GUARDS],
        ints[I_ALERT_ON_NOISE],
    )
    return G, L, D, V, P


@internal
def _found(M: Arrays, W: Arrays, i: int, g: int) -> None:
    """What an intruder who strikes or kills a guard learns: where he stood, under the house
    rule (SK-G5 [R], :func:`vigile.rulesets.skirmish.alarm.striker_knows`)."""
    knows = M[INTS][I_STRIKER_KNOWS]  # the state's rank, -1: none
    if knows >= 0 and not W[KNOWS][i, g] and W[AWARE][i, g] != knows:
        W[AWARE][i, g] = knows


@internal
def _ground(M: Arrays, x: float, y: float) -> int:
    """The sound of a body falling at (x, y): the last surface that holds it, or the default."""
    region = region_of(x, y, M[SURF_START], M[SURF_X], M[SURF_Y])
    sounds = M[REGION_SOUND]
    return int(sounds[region] if region >= 0 else sounds[sounds.shape[0] - 1])


@internal
def _in_cover(M: Arrays, x: float, y: float) -> bool:
    return region_of(x, y, M[COVER_START], M[COVER_X], M[COVER_Y]) >= 0


@inlined
def _patrols(M: Arrays, W: Arrays, doors: int, uniforms: np.ndarray, ctx: np.ndarray) -> None:
    """Each group draws one direction and its living members move (SK-G1)."""
    ints = M[INTS]
    floats = M[FLOATS]
    alive = W[ALIVE]
    patrolling = M[PATROLLING]
    group_of = M[GROUP_OF]
    next_in_group = M[NEXT_IN_GROUP]
    done = W[DONE_GROUP]
    stamp = W[EPOCH][0]
    near_start = M[NEAR_START][doors]
    near_walls = M[NEAR_WALLS]
    per_cell = 1.0 / floats[F_MOVE_CELL]
    for g in range(ints[I_GUARDS]):
        if not (alive[g] and patrolling[g]) or done[group_of[g]] == stamp:
            continue
        group = group_of[g]
        done[group] = stamp
        angle = TWO_PI * draw(uniforms, ctx)
        ux = math.cos(angle)  # as the engine's board moves a patrol (``trace_along``)
        uy = math.sin(angle)
        length = floats[F_MOVE]
        h = g  # g and the fellows ranked after him (those before are dead or posted)
        while h >= 0:
            if not alive[h]:
                h = next_in_group[h]
                continue
            x, y = W[GX][h], W[GY][h]
            # the cell (a point on a cell's edge may land in either: both lists hold every
            # wall a move from it can meet, :func:`vigile.sim.kernel.grid.near_walls`)
            column = min(ints[I_MOVE_COLUMNS] - 1, max(0, int(x * per_cell)))
            row = min(ints[I_MOVE_ROWS] - 1, max(0, int(y * per_cell)))
            k = column * ints[I_MOVE_ROWS] + row
            first = near_start[k]
            count = near_start[k + 1] - first
            walls = near_walls[first : first + count]
            W[GX][h], W[GY][h] = trace_unit(
                x,
                y,
                ux,
                uy,
                length,
                M[X1],
                M[Y1],
                M[X2],
                M[Y2],
                M[NORMAL_X],
                M[NORMAL_Y],
                M[HAS_NORMAL],
                walls,
                count,
                floats[F_WIDTH],
                floats[F_HEIGHT],
                ints[I_BOUNCES],
                floats[F_MARGIN],
            )
            h = next_in_group[h]


@internal
def _reaches(M: Arrays, W: Arrays, G: Arrays, L: Arrays, k: int, victim: int) -> bool:
    """The kill or strike of op k (or its fumble roll's) reaches its victim where it stands
    now (``Game._blow_refused``, LP-7): within the op's reach of the maker (``math.hypot``,
    ``gap > reach + 1e-9`` refused); a shot in a line of sight, a melee blow with no barrier
    that stops a walker between (``Board.blocks_walker``), the doors as the op found them."""
    ops = M[OPS]
    mx, my = ops[k, 8], ops[k, 9]
    vx, vy = W[GX][victim], W[GY][victim]
    if not hypot_below(mx - vx, my - vy, ops[k, 12] + 1e-9, False):
        return False
    doors = int(ops[k, 4])
    if ops[k, 13]:
        return _sees(G, L, M[SIGHT_MASK][doors], mx, my, vx, vy)
    return _walls_between(G, L, M[MOVE_MASK][doors], mx, my, vx, vy) == 0


@inlined
def _ops(
    M: Arrays,
    W: Arrays,
    G: Arrays,
    L: Arrays,
    D: Arrays,
    V: Arrays,
    P: Arrays,
    t: int,
    uniforms: np.ndarray,
    ctx: np.ndarray,
) -> None:
    """The intruders' side of turn t, as the schedule recorded it. Inlined: a call would pass
    the model's and the run's hundred arrays, every turn."""
    ops = M[OPS]
    sides = P[P_SIDES]
    alive = W[ALIVE]
    patrolling = M[PATROLLING]
    outfits = M[INTRUDER_OUTFIT]
    noise_masks = M[NOISE_MASK]
    sight_masks = M[SIGHT_MASK]
    for k in range(M[TURN_OPS][t], M[TURN_OPS][t + 1]):
        kind = int(ops[k, 0])
        maker = int(ops[k, 1])
        ax, ay = ops[k, 2], ops[k, 3]
        doors = int(ops[k, 4])
        sound = int(ops[k, 5])
        victim = int(ops[k, 6])
        mx, my = ops[k, 8], ops[k, 9]
        attitude = int(ops[k, 10])
        lit = int(ops[k, 11])
        outfit = outfits[maker]
        noise_mask = noise_masks[doors]
        sight_mask = sight_masks[doors]
        besides = NOBODY  # a guard the noise is not for: the one struck
        key = k  # where a posted listener's count of walls to the source is cached
        if kind == FUMBLE_OP:
            if victim >= 0 and not (alive[victim] and _reaches(M, W, G, L, k, victim)):
                continue
            if not fumbles(int(ops[k, 7]), sides, uniforms, ctx):
                continue
        elif kind != NOISE_OP:  # a kill or a strike: the noise is where the victim stands
            if not (alive[victim] and _reaches(M, W, G, L, k, victim)):
                continue
            if kind == KILL_OP:
                alive[victim] = False
            else:
                besides = victim
            _found(M, W, maker, victim)
            ax, ay = W[GX][victim], W[GY][victim]
            if kind == KILL_OP and sound < 0:
                sound = _ground(M, ax, ay)
            key = k if not patrolling[victim] else -1
        # one call for every kind: _noise is inlined where it is called
        _noise(
            G, L, D, V, P, sound, ax, ay, maker, outfit, noise_mask, sight_mask,
            mx, my, attitude, lit, besides, key, k, uniforms, ctx,
        )  # fmt: skip
        if kind == STRIKE_OP and alive[victim] and M[INTS][I_STRUCK_SEES]:
            _detect(D, victim, maker, mx, my)  # SK-G5 [R]: struck_guard_sees


@inlined
def _conversations(
    M: Arrays,
    W: Arrays,
    G: Arrays,
    L: Arrays,
    V: Arrays,
    P: Arrays,
    t: int,
    uniforms: np.ndarray,
    ctx: np.ndarray,
) -> None:
    """Each living intruder tests to overhear each talking guard (SK-N7, ``may_overhear``)."""
    ints = M[INTS]
    talks = M[TALKS]
    mask = M[NOISE_MASK][M[TURN_DOORS][t, 1]]
    positions = M[POSITIONS]
    overhears = M[OVERHEARS]
    aware = W[AWARE]
    knows = W[KNOWS]
    alive = W[ALIVE]
    gxs = W[GX]
    gys = W[GY]
    intruder_pool = M[INTRUDER_POOL]
    intruder_alert = M[INTRUDER_ALERT]
    dice = M[POOLS]
    hear = M[HEAR]
    step = P[P_STEP]
    sides = P[P_SIDES]
    heard = ints[I_HEARD]
    for g in range(P[P_GUARDS]):
        if not alive[g] or talks[g] < 0:
            continue
        for i in range(ints[I_INTRUDERS]):
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
def _sight(
    M: Arrays,
    W: Arrays,
    G: Arrays,
    L: Arrays,
    D: Arrays,
    V: Arrays,
    P: Arrays,
    t: int,
    uniforms: np.ndarray,
    ctx: np.ndarray,
) -> None:
    """Every living guard on every intruder it does not watch; then discovery (SK-G3, SK-G4).
    A posted guard's codes are read from :data:`POSTED_LOOK` and :data:`POSTED_FIND`; the pairs
    come from the turn's lists (:data:`LOOK_PAIRS`, :data:`FIND_PAIRS`), in the loops' order."""
    ints = M[INTS]
    mask = M[SIGHT_MASK][M[TURN_DOORS][t, 1]]
    positions = M[POSITIONS]
    outfits = M[INTRUDER_OUTFIT]
    patrolling = M[PATROLLING]
    posted_look = M[POSTED_LOOK]
    posted_find = M[POSTED_FIND]
    alive = W[ALIVE]
    alerts = W[ALERT]
    watches = W[WATCHES]
    turn_lines = W[TURN_LINE]
    base = 2 * W[EPOCH][0]
    pools = M[GUARD_POOL]
    dice = M[POOLS]
    sides = P[P_SIDES]
    reach = M[LOOK_REACH]
    gxs = W[GX]
    gys = W[GY]
    looks = M[LOOK_PAIRS]
    for k in range(M[LOOK_START][t], M[LOOK_START][t + 1]):
        g, i = looks[k, 0], looks[k, 1]
        if not alive[g] or watches[g, i]:
            continue
        x, y = positions[t, i, 0], positions[t, i, 1]
        if patrolling[g]:
            if beyond(gxs[g] - x, gys[g] - y, reach[t, i]):
                continue  # neither near nor in the band, unlit: every code NEVER
            _look(
                G, L, D, V, P, g, i, outfits[i], x, y, M[ATTITUDES][t, i], M[LIT][t, i],
                mask, turn_lines, i, base, uniforms, ctx,
            )  # fmt: skip
            continue
        code = posted_look[t, i, g, 1 if alerts[g] else 0]
        if code != NEVER and roll_pool(code, dice[pools[g]], sides, uniforms, ctx):
            _detect(D, g, i, x, y)
    observed = ints[I_OBSERVED]
    knows = W[KNOWS]
    aware = W[AWARE]
    intruder_pool = M[INTRUDER_POOL]
    finds = M[FIND_PAIRS]
    for k in range(M[FIND_START][t], M[FIND_START][t + 1]):
        i, g = finds[k, 0], finds[k, 1]
        if not alive[g] or knows[i, g] or aware[i, g] == observed:
            continue
        if patrolling[g]:
            code = _find_code(M, W, G, L, P, t, i, g, mask, turn_lines, i, base)
        else:
            code = posted_find[t, i, g]
        if code == NEVER:
            continue
        pool = intruder_pool[i]
        if roll_pool(code, dice[pool], sides, uniforms, ctx):
            aware[i, g] = observed


@internal
def _find_code(
    M: Arrays,
    W: Arrays,
    G: Arrays,
    L: Arrays,
    P: Arrays,
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
    ix, iy = M[POSITIONS][t, i, 0], M[POSITIONS][t, i, 1]
    gx, gy = W[GX][g], W[GY][g]
    view = W[GUARD_VIEW]
    sight = M[SIGHT]
    guard_attitude = M[GUARD_ATTITUDE]
    moved = 1 if M[PATROLLING][g] else 0
    attitude = guard_attitude[g, moved, 0]
    if guard_attitude[g, moved, 0] != guard_attitude[g, moved, 1]:
        cover = view[0, g] - base
        if cover < 0:
            cover = 1 if _in_cover(M, gx, gy) else 0
            view[0, g] = base + cover
        if cover:
            attitude = guard_attitude[g, moved, 1]
    near = 1 if hypot_below(ix - gx, iy - gy, P[P_AUTO], True) else 0
    band = 1 if hypot_below(ix - gx, iy - gy, M[BANDS][attitude], True) else 0
    outfit = M[GUARD_OUTFIT][g]
    alert = M[INTRUDER_ALERT][i]
    pool = M[INTRUDER_POOL][i]
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
            lit = 1 if _lit(M, G, L, mask, gx, gy) else 0
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
def posted_codes(M: Arrays, W: Arrays) -> None:
    """Fill :data:`POSTED_LOOK` and :data:`POSTED_FIND`: every posted guard's codes, each turn,
    as :func:`_sight` would work them out (the same functions, from the guards' places)."""
    ints = M[INTS]
    n_g, n_i = ints[I_GUARDS], ints[I_INTRUDERS]
    n_ops = M[OPS].shape[0]
    G, L, _, V, P = _queries(M, W)
    for g in range(W[GX].shape[0]):
        W[GX][g] = M[START_X][g]
        W[GY][g] = M[START_Y][g]
    for t in range(ints[I_TURNS]):
        mask = M[SIGHT_MASK][M[TURN_DOORS][t, 1]]
        W[GUARD_VIEW][:, :] = -1
        for g in range(n_g):
            if M[PATROLLING][g]:
                continue
            for i in range(n_i):
                key = n_ops + t * n_i + i
                x, y = M[POSITIONS][t, i, 0], M[POSITIONS][t, i, 1]
                for alert in range(2):
                    M[POSTED_LOOK][t, i, g, alert] = _look_code(
                        G, L, V, P, g, M[INTRUDER_OUTFIT][i], x, y, M[ATTITUDES][t, i],
                        M[LIT][t, i], alert, mask, W[CACHE_LINE], key, ZERO,
                    )  # fmt: skip
                M[POSTED_FIND][t, i, g] = _find_code(
                    M, W, G, L, P, t, i, g, mask, W[CACHE_LINE], key, ZERO
                )


@inlined
def _alarms(
    M: Arrays,
    W: Arrays,
    G: Arrays,
    L: Arrays,
    D: Arrays,
    V: Arrays,
    P: Arrays,
    t: int,
    uniforms: np.ndarray,
    ctx: np.ndarray,
) -> None:
    """The detections of the turn, in order (SK-G5): initiative within reach, else the cry."""
    ints = M[INTS]
    floats = M[FLOATS]
    scalars = W[SCALARS]
    queue = W[QUEUE]
    alive = W[ALIVE]
    positions = M[POSITIONS]
    doors = M[TURN_DOORS][t, 1]
    noise_mask = M[NOISE_MASK][doors]
    sight_mask = M[SIGHT_MASK][doors]
    sides = ints[I_SIDES]
    n_ops = M[OPS].shape[0]
    n_g = ints[I_GUARDS]
    k = 0
    while k < scalars[S_QUEUED]:
        g, i = queue[k, 0], queue[k, 1]
        k += 1
        if scalars[S_OUTCOME] != RUNNING or not alive[g]:
            continue
        W[RESOLVED][g, i] = True
        ix, iy = positions[t, i, 0], positions[t, i, 1]
        cries = True
        if hypot_below(W[GX][g] - ix, W[GY][g] - iy, floats[F_REACH], False):
            guard_face = face(sides, uniforms, ctx)
            intruder_face = face(sides, uniforms, ctx)
            cries = M[INITIATIVE][guard_face - 1, intruder_face - 1]
        if cries:
            W[ALERT][g] = True
            scalars[S_ALARM] = 1
            for h in range(n_g):
                if h == g or not alive[h]:
                    continue
                pool = M[GUARD_POOL][h]
                code = M[CRY][1 if W[ALERT][h] else 0, pool]
                if roll_pool(code, M[POOLS][pool], sides, uniforms, ctx):
                    W[ALERT][h] = True
            if ints[I_ALARM_ENDS]:
                scalars[S_OUTCOME] = M[ENDINGS][E_ALARM]
                scalars[S_END] = scalars[S_TURN]
            continue
        # the intruder strikes first: a round of melee, then the guard's death (SK-G5)
        gx, gy = W[GX][g], W[GY][g]
        attitude = M[ATTITUDES][t, i]
        lit = M[LIT][t, i]
        outfit = M[INTRUDER_OUTFIT][i]
        key = n_ops + doors * n_g + g if not M[PATROLLING][g] else -1
        look_key = n_ops + t * ints[I_INTRUDERS] + i
        _blow_noise(
            G, L, D, V, P, ints[I_MELEE_SOUND], gx, gy, i, outfit, noise_mask, sight_mask,
            ix, iy, attitude, lit, g, key, look_key, uniforms, ctx,
        )  # fmt: skip
        if alive[g]:
            alive[g] = False
            _found(M, W, i, g)
            _blow_noise(
                G, L, D, V, P, _ground(M, gx, gy), gx, gy, i, outfit, noise_mask, sight_mask,
                ix, iy, attitude, lit, NOBODY, key, look_key, uniforms, ctx,
            )  # fmt: skip


@inlined
def _new_run(M: Arrays, W: Arrays) -> None:
    """The state at a run's start: the guards at their posts, no one dead, seen or heard."""
    for g in range(W[GX].shape[0]):
        W[GX][g] = M[START_X][g]
        W[GY][g] = M[START_Y][g]
        W[ALERT][g] = M[GUARD_ALERT][g]
    W[ALIVE][:] = True
    W[WATCHES][:, :] = False
    W[RESOLVED][:, :] = False
    W[AWARE][:, :] = 0
    for i in range(W[KNOWS].shape[0]):
        for g in range(W[KNOWS].shape[1]):
            W[KNOWS][i, g] = M[KNOWN][i, g]
    W[PAIRS][:, :] = False
    scalars = W[SCALARS]
    scalars[:] = 0
    scalars[S_OUTCOME] = RUNNING


@compiled
def play_runs(
    M: Arrays,
    W: Arrays,
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
    ints = M[INTS]
    n_g, n_i, n_t = ints[I_GUARDS], ints[I_INTRUDERS], ints[I_TURNS]
    endings = M[ENDINGS]
    scalars = W[SCALARS]
    for r in range(first, last):
        start = ctx[C_POS]
        _new_run(M, W)
        # the hot helpers' tuples, made in the loop: no copy, and faster than made once before it
        G, L, D, V, P = _queries(M, W)
        for t in range(n_t):
            scalars[S_TURN] = t + 1
            scalars[S_QUEUED] = 0
            W[EPOCH][0] += 1
            _patrols(M, W, M[TURN_DOORS][t, 0], uniforms, ctx)
            if M[TURN_OPS][t] < M[TURN_OPS][t + 1]:  # most turns have none
                _ops(M, W, G, L, D, V, P, t, uniforms, ctx)
            _conversations(M, W, G, L, V, P, t, uniforms, ctx)
            _sight(M, W, G, L, D, V, P, t, uniforms, ctx)
            if n_g and n_i:
                _alarms(M, W, G, L, D, V, P, t, uniforms, ctx)
            if scalars[S_OUTCOME] == RUNNING and M[OBJECTIVE][t]:
                if scalars[S_ALARM]:
                    scalars[S_OUTCOME] = endings[E_AFTER_ALARM]
                elif scalars[S_EVER]:
                    scalars[S_OUTCOME] = endings[E_DETECTED]
                else:
                    scalars[S_OUTCOME] = endings[E_UNSEEN]
                scalars[S_END] = t + 1
            if scalars[S_OUTCOME] != RUNNING or ctx[C_STATUS]:
                break
        if scalars[S_OUTCOME] == RUNNING:
            scalars[S_OUTCOME] = endings[E_TURN_LIMIT]
            scalars[S_END] = n_t
        if ctx[C_STATUS]:
            ctx[C_POS] = start
            return r
        record_end(
            r, scalars[S_OUTCOME], scalars[S_END], scalars[S_FIRST], outcome, end, first_seen
        )
        row = min(r, alive.shape[0] - 1)
        for g in range(W[ALIVE].shape[0]):
            alive[row, g] = W[ALIVE][g]
            alert[row, g] = W[ALERT][g]
            for i in range(W[AWARE].shape[0]):
                aware[row, i, g] = W[AWARE][i, g]
        record_detections(
            r, W[PAIRS], scalars[S_HEAT], W[HEAT_X], W[HEAT_Y], pairs, heat, heat_scale
        )
    return last
