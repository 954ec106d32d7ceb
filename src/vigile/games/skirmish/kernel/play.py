"""The skirmish raid, run by run, compiled (numba): the turn of :mod:`vigile.games.skirmish.raid`.

Each run is played to its own end, from the stream of uniforms, in the engine's order (the
draw interface, :class:`vigile.dice.source.UniformFaces`): one uniform a die face
(``floor(u * 6) + 1``), one a scatter die (``2π u``). A turn:

1. the patrols: each group, in the order of its first living member, draws its direction and
   each living member moves (:func:`vigile.sim.kernel.geometry.trace_move`);
2. the intruders' schedule (:mod:`vigile.games.skirmish.schedule`): fumble rolls (only while
   the victim of a kill or strike lives), noises, kills, strikes; each noise is heard by every
   living defender not watching its maker, who then turns round (a sight test);
3. eavesdropping: each living intruder that knows nothing of a talking guard rolls to overhear;
4. sight: every living guard on every intruder it does not watch; then each intruder on every
   living guard whose position it does not know (discovery);
5. the alarms of the turn, in the order of detection: initiative within reach, else the cry;
6. the objective.

The kernel holds no rule: every check's roll code comes from a table built by the rule
functions (:mod:`vigile.games.skirmish.kernel.tables`), the initiative from a table of both
faces. What it does know is how a pool is rolled against a target (SK-D1, SK-D3, SK-D4, as
:mod:`vigile.dice.pool` rolls it), tested face for face against that module.

Compiled without reference counting (``_nrt=False``, as the geometry): the kernel allocates
nothing; its state lives in arrays allocated once by the caller.

A run stops early, to be played again, when the stream runs out (:data:`EXHAUSTED`) or when it
meets a case of the hearing table not yet asked of the rule (:data:`MISSED`).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from vigile.sim.kernel.geometry import (
    compiled,
    crossings,
    gather,
    py_floordiv,
    py_hypot,
    region_of,
    sees,
    trace_move,
)

Arrays = tuple[Any, ...]
"""A tuple of arrays: the model (``M``) or a run's state (``W``)."""
TWO_PI = 2.0 * math.pi
UNKNOWN, NEVER, AUTO = -1, 0, 1
NOISE, OVERHEAR = 0, 1
FUMBLE_OP, NOISE_OP, KILL_OP, STRIKE_OP = 0, 1, 2, 3
RUNNING = -1
EXHAUSTED = 1
MISSED = 2
LIMIT = 4
MOST_MISSES = 256

# the model tuple (see :func:`vigile.games.skirmish.kernel.raid.model_tuple`)
OPS, TURN_OPS, POSITIONS, ATTITUDES, LIT, TURN_DOORS, OBJECTIVE, TALKS = range(8)
X1, Y1, X2, Y2, NORMAL_X, NORMAL_Y, HAS_NORMAL = range(8, 15)
SIGHT_MASK, NOISE_MASK, MOVE_MASK, NEAR_START, NEAR_WALLS, LINE_START, LINE_WALLS = range(15, 22)
COVER_START, COVER_X, COVER_Y, SURF_START, SURF_X, SURF_Y, REGION_SOUND = range(22, 29)
LIGHT_X, LIGHT_Y, LIGHT_R, START_X, START_Y, PATROLLING, GROUP_OF = range(29, 36)
GUARD_POOL, GUARD_ALERT, GUARD_OUTFIT, GUARD_ATTITUDE = range(36, 40)
INTRUDER_POOL, INTRUDER_ALERT, INTRUDER_OUTFIT, KNOWN = range(40, 44)
POOLS, BANDS, SIGHT, CRY, INITIATIVE, OVERHEARS, HEAR, FLOATS, INTS, ENDINGS = range(44, 54)
# FLOATS
F_WIDTH, F_HEIGHT, F_MOVE, F_EPSILON, F_STEP, F_AUTO, F_REACH, F_MOVE_CELL, F_LINE_CELL = range(9)
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
) = range(18)
# ENDINGS: the tally's codes
E_UNSEEN, E_DETECTED, E_AFTER_ALARM, E_ALARM, E_TURN_LIMIT = range(5)

# the run's state tuple
GX, GY, ALIVE, ALERT, WATCHES, RESOLVED, AWARE, KNOWS, QUEUE, PAIRS, SCALARS = range(11)
CANDIDATES, STAMP, SCRATCH, DONE_GROUP, HEAT_X, HEAT_Y, CACHE_WALLS, CACHE_LINE, MOVERS = range(
    11, 20
)
# SCALARS
S_TURN, S_EVER, S_FIRST, S_ALARM, S_OUTCOME, S_END, S_QUEUED, S_HEAT = range(8)
# ctx
C_POS, C_STATUS, C_MISSES = 0, 1, 2


@compiled
def draw(uniforms: np.ndarray, ctx: np.ndarray) -> float:
    """The next uniform of the stream; 0.0 and :data:`EXHAUSTED` past its end."""
    pos = ctx[C_POS]
    if pos >= uniforms.shape[0]:
        ctx[C_STATUS] |= EXHAUSTED
        return 0.0
    ctx[C_POS] = pos + 1
    return float(uniforms[pos])


@compiled
def face(sides: int, uniforms: np.ndarray, ctx: np.ndarray) -> int:
    """A die face from the next uniform: ``floor(u * sides) + 1`` (UniformFaces)."""
    return int(draw(uniforms, ctx) * sides) + 1


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


@compiled
def _candidates(M: Arrays, W: Arrays, ax: float, ay: float, bx: float, by: float) -> int:
    """The walls a segment query A–B must try, into W[CANDIDATES]; how many."""
    ints = M[INTS]
    out = W[CANDIDATES]
    if ints[I_BRUTE]:
        return int(ints[I_WALLS])
    return gather(
        ax,
        ay,
        bx,
        by,
        M[FLOATS][F_LINE_CELL],
        ints[I_LINE_COLUMNS],
        ints[I_LINE_ROWS],
        M[LINE_START],
        M[LINE_WALLS],
        W[STAMP],
        out,
    )


@compiled
def _walls_between(
    M: Arrays, W: Arrays, ax: float, ay: float, bx: float, by: float, doors: int
) -> int:
    """Walls, doors and partitions that count for noise between A and B (SK-N5)."""
    if M[INTS][I_WALLS] == 0:
        return 0
    count = _candidates(M, W, ax, ay, bx, by)
    return crossings(
        ax,
        ay,
        bx,
        by,
        M[X1],
        M[Y1],
        M[X2],
        M[Y2],
        M[NOISE_MASK][doors],
        W[CANDIDATES],
        count,
        W[SCRATCH],
    )


@compiled
def _sees(M: Arrays, W: Arrays, ax: float, ay: float, bx: float, by: float, doors: int) -> bool:
    """A line of sight from A to B (SK-V6)."""
    if M[INTS][I_WALLS] == 0:
        return True
    count = _candidates(M, W, ax, ay, bx, by)
    return sees(
        ax, ay, bx, by, M[X1], M[Y1], M[X2], M[Y2], M[SIGHT_MASK][doors], W[CANDIDATES], count
    )


@compiled
def _lit(M: Arrays, W: Arrays, px: float, py: float, doors: int) -> bool:
    """In a light that reaches the point (SK-V5)."""
    lights_x = M[LIGHT_X]
    for k in range(lights_x.shape[0]):
        dx = px - lights_x[k]
        dy = py - M[LIGHT_Y][k]
        radius = M[LIGHT_R][k]
        if dx * dx + dy * dy <= radius * radius and _sees(
            M, W, lights_x[k], M[LIGHT_Y][k], px, py, doors
        ):
            return True
    return False


@compiled
def _hear_code(
    M: Arrays,
    check: int,
    sound: int,
    steps: int,
    walls: int,
    alert: int,
    pool: int,
    ctx: np.ndarray,
) -> int:
    hear = M[HEAR]
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


@compiled
def _detect(W: Arrays, g: int, i: int, x: float, y: float) -> None:
    """Guard g sees intruder i (at x, y): the alarm of the turn follows."""
    scalars = W[SCALARS]
    W[WATCHES][g, i] = True
    if not scalars[S_EVER]:
        scalars[S_EVER] = 1
        scalars[S_FIRST] = scalars[S_TURN]
    if not W[PAIRS][g, i]:
        W[PAIRS][g, i] = True
        h = scalars[S_HEAT]
        W[HEAT_X][h] = x
        W[HEAT_Y][h] = y
        scalars[S_HEAT] = h + 1
    if W[RESOLVED][g, i]:
        return
    queue = W[QUEUE]
    for k in range(scalars[S_QUEUED]):
        if queue[k, 0] == g and queue[k, 1] == i:
            return
    queue[scalars[S_QUEUED], 0] = g
    queue[scalars[S_QUEUED], 1] = i
    scalars[S_QUEUED] += 1


@compiled
def _look(
    M: Arrays,
    W: Arrays,
    g: int,
    i: int,
    x: float,
    y: float,
    attitude: int,
    lit: int,
    doors: int,
    key: int,
    uniforms: np.ndarray,
    ctx: np.ndarray,
) -> None:
    """Guard g tests sight on intruder i at (x, y) (SK-V1..SK-V9). ``key``: where a posted
    guard's line of sight to that point is cached, -1 for none."""
    gx, gy = W[GX][g], W[GY][g]
    gap = py_hypot(gx - x, gy - y)
    floats = M[FLOATS]
    near = 1 if gap < floats[F_AUTO] else 0
    band = 1 if gap < M[BANDS][attitude] else 0
    alert = 1 if W[ALERT][g] else 0
    outfit = M[INTRUDER_OUTFIT][i]
    pool = M[GUARD_POOL][g]
    sight = M[SIGHT]
    blind = sight[attitude, near, band, lit, 0, alert, outfit, pool]
    seeing = sight[attitude, near, band, lit, 1, alert, outfit, pool]
    if blind == NEVER and seeing == NEVER:
        return
    code = seeing
    if blind != seeing:
        line = -1
        if key >= 0:
            line = W[CACHE_LINE][key, g]
        if line < 0:
            line = 1 if _sees(M, W, gx, gy, x, y, doors) else 0
            if key >= 0:
                W[CACHE_LINE][key, g] = line
        code = seeing if line else blind
    if code == NEVER:
        return
    if roll_pool(code, M[POOLS][pool], M[INTS][I_SIDES], uniforms, ctx):
        _detect(W, g, i, x, y)


@compiled
def _noise(
    M: Arrays,
    W: Arrays,
    sound: int,
    ax: float,
    ay: float,
    maker: int,
    doors: int,
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
    """Every living defender not watching the maker checks the noise at (ax, ay) (SK-N1..SK-N7);
    one who hears turns round: a sight test on the maker at (mx, my) (SK-N10). ``key``: where
    a posted listener's count of walls to this source is cached, -1 for none."""
    ints = M[INTS]
    floats = M[FLOATS]
    alive = W[ALIVE]
    for g in range(ints[I_GUARDS]):
        if g == besides or not alive[g] or W[WATCHES][g, maker]:
            continue
        gx, gy = W[GX][g], W[GY][g]
        gap = py_hypot(gx - ax, gy - ay)
        steps = int(py_floordiv(gap, floats[F_STEP]))
        posted = not M[PATROLLING][g]
        walls = -1
        if key >= 0 and posted:
            walls = W[CACHE_WALLS][key, g]
        if walls < 0:
            walls = _walls_between(M, W, gx, gy, ax, ay, doors)
            if key >= 0 and posted:
                W[CACHE_WALLS][key, g] = walls
        alert = 1 if W[ALERT][g] else 0
        pool = M[GUARD_POOL][g]
        code = _hear_code(M, NOISE, sound, steps, walls, alert, pool, ctx)
        if roll_pool(code, M[POOLS][pool], ints[I_SIDES], uniforms, ctx):
            if ints[I_ALERT_ON_NOISE]:
                W[ALERT][g] = True
            _look(
                M,
                W,
                g,
                maker,
                mx,
                my,
                attitude,
                lit,
                doors,
                look_key if posted else -1,
                uniforms,
                ctx,
            )


@compiled
def _found(M: Arrays, W: Arrays, i: int, g: int) -> None:
    """An intruder who strikes or kills a guard knows where he is [R]."""
    observed = M[INTS][I_OBSERVED]
    if not W[KNOWS][i, g] and W[AWARE][i, g] != observed:
        W[AWARE][i, g] = observed


@compiled
def _ground(M: Arrays, x: float, y: float) -> int:
    """The sound of a body falling at (x, y): the last surface that holds it, or the default."""
    region = region_of(x, y, M[SURF_START], M[SURF_X], M[SURF_Y])
    sounds = M[REGION_SOUND]
    return int(sounds[region] if region >= 0 else sounds[sounds.shape[0] - 1])


@compiled
def _in_cover(M: Arrays, x: float, y: float) -> bool:
    return region_of(x, y, M[COVER_START], M[COVER_X], M[COVER_Y]) >= 0


@compiled
def _patrols(M: Arrays, W: Arrays, doors: int, uniforms: np.ndarray, ctx: np.ndarray) -> None:
    """Each group draws one direction and its living members move (SK-G1)."""
    ints = M[INTS]
    floats = M[FLOATS]
    alive = W[ALIVE]
    patrolling = M[PATROLLING]
    group_of = M[GROUP_OF]
    done = W[DONE_GROUP]
    done[:] = False
    mask = M[MOVE_MASK][doors]
    near_start = M[NEAR_START]
    near_walls = M[NEAR_WALLS]
    walls = W[MOVERS]
    m = ints[I_WALLS]
    cell = floats[F_MOVE_CELL]
    for g in range(ints[I_GUARDS]):
        if not (alive[g] and patrolling[g]) or done[group_of[g]]:
            continue
        group = group_of[g]
        done[group] = True
        angle = TWO_PI * draw(uniforms, ctx)
        dx = floats[F_MOVE] * math.cos(angle)
        dy = floats[F_MOVE] * math.sin(angle)
        for h in range(g, ints[I_GUARDS]):
            if not alive[h] or group_of[h] != group:
                continue
            x, y = W[GX][h], W[GY][h]
            column = min(ints[I_MOVE_COLUMNS] - 1, max(0, int(x / cell)))
            row = min(ints[I_MOVE_ROWS] - 1, max(0, int(y / cell)))
            k = column * ints[I_MOVE_ROWS] + row
            count = 0
            for n in range(near_start[k], near_start[k + 1]):
                j = near_walls[n]
                if mask[j]:
                    walls[count] = j
                    count += 1
            for j in range(m, m + 4):
                walls[count] = j
                count += 1
            W[GX][h], W[GY][h] = trace_move(
                x,
                y,
                dx,
                dy,
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
                floats[F_EPSILON],
            )


@compiled
def _ops(M: Arrays, W: Arrays, t: int, uniforms: np.ndarray, ctx: np.ndarray) -> None:
    """The intruders' side of turn t, as the schedule recorded it."""
    ops = M[OPS]
    ints = M[INTS]
    alive = W[ALIVE]
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
        if kind == FUMBLE_OP:
            if victim >= 0 and not alive[victim]:
                continue
            if fumbles(int(ops[k, 7]), ints[I_SIDES], uniforms, ctx):
                _noise(
                    M,
                    W,
                    sound,
                    ax,
                    ay,
                    maker,
                    doors,
                    mx,
                    my,
                    attitude,
                    lit,
                    -1,
                    k,
                    k,
                    uniforms,
                    ctx,
                )
        elif kind == NOISE_OP:
            _noise(
                M, W, sound, ax, ay, maker, doors, mx, my, attitude, lit, -1, k, k, uniforms, ctx
            )
        elif kind == KILL_OP:
            if not alive[victim]:
                continue
            alive[victim] = False
            _found(M, W, maker, victim)
            vx, vy = W[GX][victim], W[GY][victim]
            if sound < 0:
                sound = _ground(M, vx, vy)
            key = k if not M[PATROLLING][victim] else -1
            _noise(
                M, W, sound, vx, vy, maker, doors, mx, my, attitude, lit, -1, key, k, uniforms, ctx
            )
        else:  # a strike
            if not alive[victim]:
                continue
            _found(M, W, maker, victim)
            vx, vy = W[GX][victim], W[GY][victim]
            key = k if not M[PATROLLING][victim] else -1
            _noise(
                M,
                W,
                sound,
                vx,
                vy,
                maker,
                doors,
                mx,
                my,
                attitude,
                lit,
                victim,
                key,
                k,
                uniforms,
                ctx,
            )
            if alive[victim]:
                _detect(W, victim, maker, mx, my)


@compiled
def _conversations(M: Arrays, W: Arrays, t: int, uniforms: np.ndarray, ctx: np.ndarray) -> None:
    """Each living intruder that knows nothing of a talking guard tests to overhear it (SK-N7)."""
    ints = M[INTS]
    talks = M[TALKS]
    doors = M[TURN_DOORS][t, 1]
    positions = M[POSITIONS]
    for g in range(ints[I_GUARDS]):
        if not W[ALIVE][g] or talks[g] < 0:
            continue
        for i in range(ints[I_INTRUDERS]):
            if not M[OVERHEARS][W[AWARE][i, g], 1 if W[KNOWS][i, g] else 0]:
                continue
            ix, iy = positions[t, i, 0], positions[t, i, 1]
            gap = py_hypot(ix - W[GX][g], iy - W[GY][g])
            steps = int(py_floordiv(gap, M[FLOATS][F_STEP]))
            walls = _walls_between(M, W, ix, iy, W[GX][g], W[GY][g], doors)
            pool = M[INTRUDER_POOL][i]
            code = _hear_code(M, OVERHEAR, talks[g], steps, walls, M[INTRUDER_ALERT][i], pool, ctx)
            if roll_pool(code, M[POOLS][pool], ints[I_SIDES], uniforms, ctx):
                W[AWARE][i, g] = max(W[AWARE][i, g], ints[I_HEARD])


@compiled
def _sight(M: Arrays, W: Arrays, t: int, uniforms: np.ndarray, ctx: np.ndarray) -> None:
    """Every living guard on every intruder it does not watch; then discovery (SK-G3, SK-G4)."""
    ints = M[INTS]
    n_g, n_i = ints[I_GUARDS], ints[I_INTRUDERS]
    doors = M[TURN_DOORS][t, 1]
    positions = M[POSITIONS]
    n_ops = M[OPS].shape[0]
    for g in range(n_g):
        if not W[ALIVE][g]:
            continue
        for i in range(n_i):
            if W[WATCHES][g, i]:
                continue
            key = n_ops + t * n_i + i if not M[PATROLLING][g] else -1
            _look(
                M,
                W,
                g,
                i,
                positions[t, i, 0],
                positions[t, i, 1],
                M[ATTITUDES][t, i],
                M[LIT][t, i],
                doors,
                key,
                uniforms,
                ctx,
            )
    observed = ints[I_OBSERVED]
    floats = M[FLOATS]
    sight = M[SIGHT]
    for i in range(n_i):
        ix, iy = positions[t, i, 0], positions[t, i, 1]
        for g in range(n_g):
            if not W[ALIVE][g] or W[KNOWS][i, g] or W[AWARE][i, g] == observed:
                continue
            gx, gy = W[GX][g], W[GY][g]
            moved = 1 if M[PATROLLING][g] else 0
            shown = M[GUARD_ATTITUDE][g]
            attitude = shown[moved, 0]
            if shown[moved, 0] != shown[moved, 1] and _in_cover(M, gx, gy):
                attitude = shown[moved, 1]
            gap = py_hypot(ix - gx, iy - gy)
            near = 1 if gap < floats[F_AUTO] else 0
            band = 1 if gap < M[BANDS][attitude] else 0
            alert = M[INTRUDER_ALERT][i]
            outfit = M[GUARD_OUTFIT][g]
            pool = M[INTRUDER_POOL][i]
            lit_keys = (
                sight[attitude, near, band, 0, 0, alert, outfit, pool]
                != sight[attitude, near, band, 1, 0, alert, outfit, pool]
                or sight[attitude, near, band, 0, 1, alert, outfit, pool]
                != sight[attitude, near, band, 1, 1, alert, outfit, pool]
            )
            lit = 0
            if lit_keys and _lit(M, W, gx, gy, doors):
                lit = 1
            blind = sight[attitude, near, band, lit, 0, alert, outfit, pool]
            seeing = sight[attitude, near, band, lit, 1, alert, outfit, pool]
            if blind == NEVER and seeing == NEVER:
                continue
            code = seeing
            if blind != seeing:
                code = seeing if _sees(M, W, ix, iy, gx, gy, doors) else blind
            if code == NEVER:
                continue
            if roll_pool(code, M[POOLS][pool], ints[I_SIDES], uniforms, ctx):
                W[AWARE][i, g] = observed


@compiled
def _alarms(M: Arrays, W: Arrays, t: int, uniforms: np.ndarray, ctx: np.ndarray) -> None:
    """The detections of the turn, in order (SK-G5): initiative within reach, else the cry."""
    ints = M[INTS]
    floats = M[FLOATS]
    scalars = W[SCALARS]
    queue = W[QUEUE]
    alive = W[ALIVE]
    positions = M[POSITIONS]
    doors = M[TURN_DOORS][t, 1]
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
        gap = py_hypot(W[GX][g] - ix, W[GY][g] - iy)
        cries = True
        if gap <= floats[F_REACH]:
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
        key = n_ops + doors * n_g + g if not M[PATROLLING][g] else -1
        look_key = n_ops + t * ints[I_INTRUDERS] + i
        _noise(
            M,
            W,
            ints[I_MELEE_SOUND],
            gx,
            gy,
            i,
            doors,
            ix,
            iy,
            attitude,
            lit,
            g,
            key,
            look_key,
            uniforms,
            ctx,
        )
        if alive[g]:
            alive[g] = False
            _found(M, W, i, g)
            _noise(
                M,
                W,
                _ground(M, gx, gy),
                gx,
                gy,
                i,
                doors,
                ix,
                iy,
                attitude,
                lit,
                -1,
                key,
                look_key,
                uniforms,
                ctx,
            )


@compiled
def play_run(M: Arrays, W: Arrays, uniforms: np.ndarray, ctx: np.ndarray) -> None:
    """One run, from its first turn to its end, into W's state and scalars."""
    ints = M[INTS]
    n_g, n_i, n_t = ints[I_GUARDS], ints[I_INTRUDERS], ints[I_TURNS]
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
    endings = M[ENDINGS]
    for t in range(n_t):
        scalars[S_TURN] = t + 1
        scalars[S_QUEUED] = 0
        _patrols(M, W, M[TURN_DOORS][t, 0], uniforms, ctx)
        _ops(M, W, t, uniforms, ctx)
        _conversations(M, W, t, uniforms, ctx)
        _sight(M, W, t, uniforms, ctx)
        if n_g and n_i:
            _alarms(M, W, t, uniforms, ctx)
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
    in x and y)."""
    scalars = W[SCALARS]
    bins_x, bins_y = heat.shape[0], heat.shape[1]
    for r in range(first, last):
        start = ctx[C_POS]
        play_run(M, W, uniforms, ctx)
        if ctx[C_STATUS]:
            ctx[C_POS] = start
            return r
        outcome[r] = scalars[S_OUTCOME]
        end[r] = scalars[S_END]
        first_seen[r] = scalars[S_FIRST]
        for g in range(W[ALIVE].shape[0]):
            alive[r, g] = W[ALIVE][g]
            alert[r, g] = W[ALERT][g]
            for i in range(W[AWARE].shape[0]):
                pairs[r, g, i] = W[PAIRS][g, i]
                aware[r, i, g] = W[AWARE][i, g]
        for h in range(scalars[S_HEAT]):
            bx = min(bins_x - 1, max(0, int(W[HEAT_X][h] * heat_scale[0])))
            by = min(bins_y - 1, max(0, int(W[HEAT_Y][h] * heat_scale[1])))
            heat[bx, by] += 1
    return last
