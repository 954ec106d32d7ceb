"""The D&D 3.5 round, run by run, compiled (numba): the game of :mod:`vigile.engine.d20` and
:mod:`vigile.games.dnd35.round`, for the scenarios :func:`~.tables.unsupported` accepts.

Each run is played to its own end from the stream of uniforms, in the engine's order (the draw
interface, :class:`vigile.dice.source.UniformFaces`): one uniform a die face
(``floor(u * sides) + 1``), one a patrol's direction (``2π u``). A round:

1. each patrolling defender that pursues nobody wanders half its move in a random direction,
   bouncing off walls (:func:`vigile.sim.kernel.geometry.trace_move`);
2. each living intruder walks its plan (:func:`~.tables.schedule`: where it stands, how it
   moved, the doors it opens or closes); one that moved loses the squares it was pinpointed
   in for the moment only (groping, a sign: ``pinpoint_lost``);
3. for each living intruder: the signs that show its square to the awake sighted defenders in
   a line of sight (DD-10..DD-16); then, defender by defender, blindsight and scent within
   their range (DD-13, DD-15), Spot (DD-3, DD-4, one d20); then one Move Silently d20 and a
   Listen d20 for each defender still without its square that can hear it (DD-5);
4. the first defender that locates an intruder raises the alarm (every defender on alert);
5. each defender acts against the intruder it knows most about: located, it closes in and, in
   the next square with a line of sight, strikes (the attack roll against an ``ac``, the miss
   chance's d100s); knowing a square, it closes in and gropes it and the next (a touch d20,
   then on a touch a d100); knowing a bearing, it gropes the two squares ahead, then steps
   along it (the rulings of :mod:`vigile.rulesets.dnd35.search`);
6. the objective.

The kernel holds no rule: what each face of a check gives, what each sense reaches, what each
sign shows, come from tables built by the rule functions (:mod:`~.tables`). What it knows is
how the dice are read: a face table, and for Listen one shared d20 plus each listener's own
against its DC, ties to the listener (:func:`vigile.sim.kernel.d20.d20_meets`, as
:func:`vigile.rulesets.dnd35.listen.listen_all_check` rolls them); the miss chance's dice land
the blow when one of them spares it (one die, two with Blind-Fight, as ``attack_check``).

Compiled without reference counting (``_nrt=False``): the kernel allocates nothing; a run's
state lives in arrays allocated once by the caller. A run that runs out of uniforms stops
(:data:`EXHAUSTED`) and is played again from its first uniform once the stream is refilled.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from vigile.games.skirmish.kernel.play import C_POS, C_STATUS, EXHAUSTED, draw, face
from vigile.sim.kernel.d20 import (
    DEG_TO_RAD,
    adjacent,
    bearing,
    centre,
    d20_meets,
    sector,
    square_of,
)
from vigile.sim.kernel.geometry import (
    compiled,
    crossings,
    hypot_below,
    hypot_steps,
    py_hypot,
    region_of,
    sees,
    trace_move,
)

Arrays = tuple[Any, ...]
TWO_PI = 2.0 * math.pi
UNAWARE, PRESENCE, DIRECTION, LOCATION, OBSERVED = range(5)
"""The awareness ladder's ranks (:class:`vigile.awareness.ladder.AwarenessState`)."""
SEARCH_STAY, SEARCH_SQUARE, SEARCH_BEARING = range(3)
KNOWN_NONE, KNOWN_SQUARE, KNOWN_BEARING = range(3)

# the model tuple (:func:`vigile.games.dnd35.kernel.model_tuple`)
FL, IN, X1, Y1, X2, Y2, NX, NY, HASN = range(9)
SIGHT_M, DOOR_M, STONE_M, MOVERS, MOVER_N = range(9, 14)
WX, WY, WMOVED, WSHIFT, WSPEED, WSOFT, WLIQ, WINSIDE, DOOR_OPS, OP_START = range(14, 24)
GSX, GSY, GMOVE, GALERT0, GASLEEP, GDISTR, GSENSES = range(24, 31)
REACHES, SIGNS, SPOT, LPART, LBONUS, LFIXED, TOUCH, CONNECT = range(31, 39)
HAS_AC, HIT, MISS_DICE, SPARES, LOST, NAMED, NEIGH, BREATHING, PLAN, COVERS = range(39, 49)
GFLOUR, HIDER, SPOTTER, STRIKE_HIT, SQUARE_HIT, STRUCK, SQ_DICE, SQ_SPARES = range(49, 57)
HIDDEN, GAC, WATER, SURF_START, SURF_X, SURF_Y, WNOISY, WFOUGHT, ENDINGS = range(57, 66)
# FL
F_W, F_H, F_EPS, F_CLOSE, F_SENSE, F_SPOT_RANGE, F_SPOT_STEP, F_LISTEN_STEP = range(8)
F_SEARCH_STEP, F_FLOUR_RANGE, F_FLOUR_BURST, F_HIDE_STEP, F_RADII = range(8, 13)
# IN
I_G, I_I, I_T, I_M, I_BOUNCES, I_RADII, I_DOORS0, I_MARGIN, I_HAS_OBJ, I_ANY = range(10)
I_GROPE_STATE, I_GROPE_PIN, I_FLOUR_ROUNDS, I_VANISH_STATE, I_VANISH_PIN = range(10, 15)
I_HIDE_STATE, I_TIE_RULE, I_SEEN_STRUCK, I_STRUCK_PIN, I_DEFAULT_WATER = range(15, 20)
OP_DOOR, OP_VANISH, OP_STRIKE, OP_SQUARE = range(4)
# GSENSES
SEE, HEAR, SCENT, BLIND, PATROL, SEEINV, BLIND_ATTACK = range(7)
# ENDINGS: the tally's codes
E_UNSEEN, E_DETECTED, E_ALARM, E_TURN_LIMIT, E_CAUGHT = range(5)

# the run's state tuple
GX, GY, GALERT, WALKED, AWARE, KKIND, KSQ, KBEAR, PIN, IALIVE = range(10)
PAIRS, SC, HX, HY, CAND, SCR, LIST, LSTATE, IX, IY = range(10, 20)
FLOUR_LEFT, FLOURED, HIDERS = 20, 21, 22
# SC
S_TURN, S_EVER, S_FIRST, S_ALARM, S_OUTCOME, S_END, S_HEAT, S_DOORS, S_ALARM_BY = range(9)


@compiled
def _sees(M: Arrays, W: Arrays, ax: float, ay: float, bx: float, by: float) -> bool:
    """A line of sight, the doors as they stand (``Board.sees``)."""
    return sees(
        ax,
        ay,
        bx,
        by,
        M[X1],
        M[Y1],
        M[X2],
        M[Y2],
        M[SIGHT_M][W[SC][S_DOORS]],
        W[CAND],
        M[IN][I_M],
    )


@compiled
def _between(M: Arrays, W: Arrays, masks: np.ndarray, g: int, i: int) -> bool:
    """A barrier of ``masks`` (``M[DOOR_M]``: a closed door, window or partition; ``M[STONE_M]``:
    a stone wall) between defender g and intruder i (``D20Game._between``)."""
    mask = masks[W[SC][S_DOORS]]
    return (
        crossings(
            W[GX][g],
            W[GY][g],
            W[IX][i],
            W[IY][i],
            M[X1],
            M[Y1],
            M[X2],
            M[Y2],
            mask,
            W[CAND],
            M[IN][I_M],
            W[SCR],
        )
        > 0
    )


@compiled
def _awake(M: Arrays, W: Arrays, g: int) -> bool:
    """Not asleep, or woken by the alarm (``awake``)."""
    return not (M[GASLEEP][g] and not W[GALERT][g])


@compiled
def _distracted(M: Arrays, W: Arrays, g: int) -> int:
    """Distracted until the alarm (``distracted``)."""
    return 1 if M[GDISTR][g] and not W[GALERT][g] else 0


@compiled
def _learn(M: Arrays, W: Arrays, g: int, i: int, state: int, pin: int) -> None:
    """``D20Game._learn``: what defender g now knows of where intruder i is (``_remember``),
    the square pinned for the moment (``pin``), the state raised; a first location raises the
    alarm. A new location or sight of a pair is a detection (the tally's)."""
    if state == UNAWARE:
        return
    aware = W[AWARE]
    if state >= LOCATION:
        W[KKIND][g, i] = KNOWN_SQUARE
        W[KSQ][g, i, 0] = square_of(W[IX][i])
        W[KSQ][g, i, 1] = square_of(W[IY][i])
    elif state == DIRECTION and aware[g, i] < LOCATION:
        W[KKIND][g, i] = KNOWN_BEARING
        W[KBEAR][g, i] = bearing(W[GX][g], W[GY][g], W[IX][i], W[IY][i])
    if state == LOCATION and pin > 0:
        if aware[g, i] != OBSERVED:
            W[PIN][g, i] = pin
    elif state >= LOCATION:
        W[PIN][g, i] = 0
    if state <= aware[g, i]:
        return
    aware[g, i] = state
    if state < LOCATION:
        return
    sc = W[SC]
    sc[S_EVER] = 1
    if sc[S_FIRST] == 0:
        sc[S_FIRST] = sc[S_TURN]
    if not W[PAIRS][g, i]:
        W[PAIRS][g, i] = True
        h = sc[S_HEAT]
        W[HX][h] = W[IX][i]
        W[HY][h] = W[IY][i]
        sc[S_HEAT] = h + 1
    if sc[S_ALARM] == 0:
        sc[S_ALARM] = sc[S_TURN]
        sc[S_ALARM_BY] = g
        for h in range(M[IN][I_G]):
            W[GALERT][h] = 1


@compiled
def _patrols(M: Arrays, W: Arrays, uniforms: np.ndarray, ctx: np.ndarray) -> None:
    """Step 1 (``D20Game._patrols``)."""
    fl = M[FL]
    doors = W[SC][S_DOORS]
    for g in range(M[IN][I_G]):
        if not M[GSENSES][g, PATROL]:
            continue
        pursues = False
        for i in range(M[IN][I_I]):
            if W[IALIVE][i] and W[AWARE][g, i] != UNAWARE:
                pursues = True
        if pursues:
            continue
        angle = TWO_PI * draw(uniforms, ctx)
        length = M[GMOVE][g] / 2
        x, y = W[GX][g], W[GY][g]
        nx, ny = trace_move(
            x,
            y,
            length * math.cos(angle),
            length * math.sin(angle),
            M[X1],
            M[Y1],
            M[X2],
            M[Y2],
            M[NX],
            M[NY],
            M[HASN],
            M[MOVERS][doors],
            M[MOVER_N][doors],
            fl[F_W],
            fl[F_H],
            M[IN][I_BOUNCES],
            fl[F_EPS],
        )
        W[WALKED][g] = py_hypot(x - nx, y - ny)
        W[GX][g], W[GY][g] = nx, ny


@compiled
def _vanish(M: Arrays, W: Arrays, i: int) -> None:
    """Intruder i casts invisibility: each defender that observed it keeps what
    ``traits.vanished`` says, the square it vanished in (``D20Game._set_invisible``)."""
    for g in range(M[IN][I_G]):
        if W[AWARE][g, i] != OBSERVED:
            continue
        W[AWARE][g, i] = M[IN][I_VANISH_STATE]
        W[KKIND][g, i] = KNOWN_SQUARE
        W[KSQ][g, i, 0] = square_of(W[IX][i])
        W[KSQ][g, i, 1] = square_of(W[IY][i])
        if M[IN][I_VANISH_PIN]:
            W[PIN][g, i] = M[IN][I_VANISH_PIN]


@compiled
def _struck(M: Arrays, W: Arrays, g: int, i: int, ranged: int) -> None:
    """What defender g learns of intruder i's blow (``Dnd35Game._struck``): seeing invisible
    creatures, it sees it; else the square, or only the direction (DD-7)."""
    if M[GSENSES][g, SEEINV]:
        _learn(M, W, g, i, M[IN][I_SEEN_STRUCK], 0)
        return
    near = 1 if adjacent(W[GX][g], W[GY][g], W[IX][i], W[IY][i]) else 0
    _learn(M, W, g, i, M[STRUCK][i, near, ranged], M[IN][I_STRUCK_PIN])


@compiled
def _in_water(M: Arrays, x: float, y: float) -> bool:
    """The ground at (x, y) is water (``Board.surface``: the last region holding it)."""
    r = region_of(x, y, M[SURF_START], M[SURF_X], M[SURF_Y])
    return bool(M[WATER][r]) if r >= 0 else bool(M[IN][I_DEFAULT_WATER])


@compiled
def _attack_square(
    M: Arrays,
    W: Arrays,
    i: int,
    sx: int,
    sy: int,
    ranged: int,
    uniforms: np.ndarray,
    ctx: np.ndarray,
) -> None:
    """``Dnd35Game._attack_square``: a defender it can see on the square is struck; else the
    named square's attack roll (or the wrong square's d20) and miss chance (DD-9)."""
    n_g = M[IN][I_G]
    there = -1
    for g in range(n_g):
        if square_of(W[GX][g]) == sx and square_of(W[GY][g]) == sy:
            there = g
            break
    if there >= 0 and not M[HIDDEN][i, there]:
        if M[GAC][there]:
            face(20, uniforms, ctx)
        _struck(M, W, there, i, ranged)
        return
    hit = there >= 0
    case = there if there >= 0 else n_g
    liquid = 0
    if there >= 0:
        liquid = 1 if _in_water(M, W[GX][there], W[GY][there]) else 0
        if M[GAC][there]:
            hit = bool(M[SQUARE_HIT][i, there, face(20, uniforms, ctx) - 1])
    else:
        face(20, uniforms, ctx)
    spared = False
    for _ in range(M[SQ_DICE][i, case, liquid]):
        if M[SQ_SPARES][i, case, liquid, face(100, uniforms, ctx) - 1]:
            spared = True
    if hit and spared and there >= 0:
        _struck(M, W, there, i, ranged)


@compiled
def _walks(M: Arrays, W: Arrays, t: int, uniforms: np.ndarray, ctx: np.ndarray) -> None:
    """Step 2: each living intruder where its plan takes it this round; the doors it opens or
    closes; the squares it leaves (``_unpin``: ``pinpoint_lost``)."""
    n_i = M[IN][I_I]
    ops = M[DOOR_OPS]
    for i in range(n_i):
        if not W[IALIVE][i]:
            continue
        W[IX][i] = M[WX][t, i]
        W[IY][i] = M[WY][t, i]
        if M[WSHIFT][t, i]:
            for g in range(M[IN][I_G]):
                cause = W[PIN][g, i]
                if cause > 0:
                    W[PIN][g, i] = 0
                    if W[AWARE][g, i] == LOCATION:
                        W[AWARE][g, i] = M[LOST][cause]
        for k in range(M[OP_START][t * n_i + i], M[OP_START][t * n_i + i + 1]):
            kind = ops[k, 0]
            if kind == OP_DOOR:
                bit = 1 << ops[k, 1]
                if ops[k, 2]:
                    W[SC][S_DOORS] |= bit
                else:
                    W[SC][S_DOORS] &= ~bit
            elif kind == OP_VANISH:
                _vanish(M, W, i)
            elif kind == OP_STRIKE:
                g = ops[k, 1]
                if M[GAC][g]:
                    face(20, uniforms, ctx)
                _struck(M, W, g, i, ops[k, 2])
            else:
                _attack_square(M, W, i, ops[k, 1], ops[k, 2], ops[k, 3], uniforms, ctx)


@compiled
def _signs(M: Arrays, W: Arrays, t: int, i: int) -> None:
    """What shows intruder i's square to the awake sighted defenders in a line of sight
    (``Dnd35Game._signs``, ``sign_shown`` by band of distance)."""
    fl = M[FL]
    moved, soft, liquid = M[WMOVED][t, i], M[WSOFT][t, i], M[WLIQ][t, i]
    floured = 1 if W[FLOURED][i] else 0
    for g in range(M[IN][I_G]):
        if W[AWARE][g, i] >= LOCATION:
            continue
        if not (_awake(M, W, g) and M[GSENSES][g, SEE]):
            continue
        if M[GSENSES][g, SEEINV]:
            continue
        if not _sees(M, W, W[GX][g], W[GY][g], W[IX][i], W[IY][i]):
            continue
        dx, dy = W[GX][g] - W[IX][i], W[GY][g] - W[IY][i]
        band = 0
        for r in range(M[IN][I_RADII]):
            if not hypot_below(dx, dy, fl[F_RADII + r], False):
                band += 1
        state = M[SIGNS][i, floured, moved, soft, liquid, band, 0]
        if state:
            _learn(M, W, g, i, state, M[SIGNS][i, floured, moved, soft, liquid, band, 1])


@compiled
def _senses(
    M: Arrays, W: Arrays, t: int, i: int, g: int, uniforms: np.ndarray, ctx: np.ndarray
) -> bool:
    """``Dnd35Game._senses_dnd``: blindsight and scent, then Spot; True when g is to listen."""
    fl = M[FL]
    liquid = M[WLIQ][t, i]
    reaches = M[REACHES]
    dx, dy = W[GX][g] - W[IX][i], W[GY][g] - W[IY][i]
    line = _sees(M, W, W[GX][g], W[GY][g], W[IX][i], W[IY][i])
    if line and hypot_below(dx, dy, fl[F_SENSE], False):
        if M[GSENSES][g, BLIND] and reaches[i, liquid, 0] > 0:
            _learn(M, W, g, i, reaches[i, liquid, 0], 0)
        if M[GSENSES][g, SCENT] and reaches[i, liquid, 1] > 0:
            _learn(M, W, g, i, reaches[i, liquid, 1], 0)
    if W[AWARE][g, i] >= LOCATION:
        return False
    if (
        line
        and _awake(M, W, g)
        and M[GSENSES][g, SEE]
        and hypot_below(dx, dy, fl[F_SPOT_RANGE], False)
        and reaches[i, liquid, 2]
    ):
        kind = 0 if not M[BREATHING][i] else (1 if M[WMOVED][t, i] else 2)
        steps = hypot_steps(dx, dy, fl[F_SPOT_STEP])
        value = face(20, uniforms, ctx)
        state = M[SPOT][g, kind, steps, _distracted(M, W, g), value - 1]
        if state:
            _learn(M, W, g, i, state, 0)
    if W[AWARE][g, i] >= LOCATION:
        return False
    noisy = M[WNOISY][t, i]
    heard = reaches[i, liquid, 4] if noisy else reaches[i, liquid, 3]
    return bool(M[GSENSES][g, HEAR] and heard and (noisy or M[WMOVED][t, i]))


@compiled
def _hide(M: Arrays, W: Arrays, t: int, i: int, uniforms: np.ndarray, ctx: np.ndarray) -> None:
    """``Dnd35Game._hide_against_spot``: one Hide d20 against each seeing observer's Spot d20,
    ties as ``hide_check`` settles them (the higher modifier, then both roll again) [DD-20]."""
    speed = M[WSPEED][t, i]
    if M[WFOUGHT][t, i]:
        speed = 2
    hider = M[HIDER][i, speed]
    result = face(20, uniforms, ctx) + hider
    tie_rule = M[IN][I_TIE_RULE]
    for g in range(M[IN][I_G]):
        if W[HIDERS][g] != 2:
            continue
        dx, dy = W[GX][g] - W[IX][i], W[GY][g] - W[IY][i]
        steps = min(hypot_steps(dx, dy, M[FL][F_HIDE_STEP]), M[SPOTTER].shape[1] - 1)
        total = M[SPOTTER][g, steps]
        spot = face(20, uniforms, ctx) + total
        if spot != result:
            spots = spot > result
        elif not tie_rule:
            spots = False
        elif total != hider:
            spots = total > hider
        else:
            again_hider = 0
            again_observer = 0
            while again_hider == again_observer:
                again_hider = face(20, uniforms, ctx)
                again_observer = face(20, uniforms, ctx)
                if ctx[C_STATUS]:
                    return
            spots = again_observer > again_hider
        if spots:
            _learn(M, W, g, i, M[IN][I_HIDE_STATE], 0)


@compiled
def _perceive(M: Arrays, W: Arrays, t: int, i: int, uniforms: np.ndarray, ctx: np.ndarray) -> None:
    """Step 3 for intruder i: the signs, each defender's senses, then one Listen for all
    (``Dnd35Game._perceive``; the listeners' cases are taken before any of them learns)."""
    _signs(M, W, t, i)
    fl = M[FL]
    n_g = M[IN][I_G]
    role = W[HIDERS]
    hiders = 0
    for g in range(n_g):
        role[g] = 0
        if W[AWARE][g, i] == OBSERVED:
            continue
        role[g] = 1
        if (
            M[GSENSES][g, SEEINV]
            and M[REACHES][i, M[WLIQ][t, i], 5]
            and _awake(M, W, g)
            and _sees(M, W, W[GX][g], W[GY][g], W[IX][i], W[IY][i])
        ):
            role[g] = 2
            hiders += 1
    if hiders:
        _hide(M, W, t, i, uniforms, ctx)
    listeners = W[LIST]
    n = 0
    for g in range(n_g):
        if role[g] != 1:
            continue
        if _senses(M, W, t, i, g, uniforms, ctx):
            listeners[n] = g
            n += 1
    if n == 0:
        return
    speed = 3 if M[WNOISY][t, i] else M[WSPEED][t, i]
    cases = W[LSTATE]
    for k in range(n):
        g = listeners[k]
        dx, dy = W[GX][g] - W[IX][i], W[GY][g] - W[IY][i]
        cases[k, 0] = min(hypot_steps(dx, dy, fl[F_LISTEN_STEP]), M[LPART].shape[2] - 1)
        cases[k, 1] = 1 if _between(M, W, M[DOOR_M], g, i) else 0
        cases[k, 2] = 1 if _between(M, W, M[STONE_M], g, i) else 0
        cases[k, 3] = _distracted(M, W, g)
        cases[k, 4] = 0 if _awake(M, W, g) else 1
    g0 = listeners[0]
    fixed = M[LFIXED][g0, i, cases[0, 0], cases[0, 1], cases[0, 2], cases[0, 3], cases[0, 4], speed]
    shared = 0 if fixed else face(20, uniforms, ctx)
    margin = M[IN][I_MARGIN]
    for k in range(n):
        g = listeners[k]
        key = (g, i, cases[k, 0], cases[k, 1], cases[k, 2], cases[k, 3], cases[k, 4], speed)
        dc = M[LPART][key] + shared
        bonus = M[LBONUS][key]
        value = face(20, uniforms, ctx)
        state = UNAWARE
        if d20_meets(value, bonus, dc + margin):
            state = LOCATION
        elif d20_meets(value, bonus, dc):
            state = DIRECTION
        cases[k, 5] = state
    for k in range(n):
        _learn(M, W, listeners[k], i, cases[k, 5], 0)


@compiled
def _close_in(M: Arrays, W: Arrays, g: int, px: float, py: float) -> None:
    """``D20Game._close_in``."""
    x, y = W[GX][g], W[GY][g]
    gap = py_hypot(x - px, y - py)
    budget = M[GMOVE][g] - W[WALKED][g]
    close = M[FL][F_CLOSE]
    if gap <= close or budget <= 0:
        return
    step = min(budget, gap - close)
    tx = x + (px - x) * step / gap
    ty = y + (py - y) * step / gap
    if not _sees(M, W, x, y, tx, ty):
        return
    W[GX][g], W[GY][g] = tx, ty
    W[WALKED][g] += step


@compiled
def _on_map(M: Arrays, x: float, y: float) -> bool:
    return bool(0 <= x <= M[FL][F_W] and 0 <= y <= M[FL][F_H])


@compiled
def _grope(
    M: Arrays,
    W: Arrays,
    g: int,
    i: int,
    ax: int,
    ay: int,
    bx: int,
    by: int,
    count: int,
    uniforms: np.ndarray,
    ctx: np.ndarray,
) -> bool:
    """``Dnd35Game._grope`` of ``count`` squares (a, then b): the touch d20, on a touch the
    d100; found, the square; empty, a known square is forgotten."""
    sx, sy = square_of(W[IX][i]), square_of(W[IY][i])
    occupied = (sx == ax and sy == ay) or (count > 1 and sx == bx and sy == by)
    value = face(20, uniforms, ctx)
    found = False
    if M[TOUCH][g, i, value - 1]:
        percent = face(100, uniforms, ctx)
        found = bool(M[CONNECT][g, i, percent - 1]) and occupied
    if found:
        _learn(M, W, g, i, M[IN][I_GROPE_STATE], M[IN][I_GROPE_PIN])
        return True
    if W[KKIND][g, i] != KNOWN_BEARING:
        W[KKIND][g, i] = KNOWN_NONE
    return False


@compiled
def _throw_flour(M: Arrays, W: Arrays, t: int, g: int, i: int, px: float, py: float) -> None:
    """``Dnd35Game._throw_flour`` at (px, py): covered (``flour_covers``), the intruder shows
    at once to the sighted (the signs again); missed, the square is forgotten."""
    fl = M[FL]
    W[FLOUR_LEFT][g] -= 1
    far = 0 if hypot_below(W[GX][g] - px, W[GY][g] - py, fl[F_FLOUR_RANGE], False) else 1
    wide = 0 if hypot_below(px - W[IX][i], py - W[IY][i], fl[F_FLOUR_BURST], False) else 1
    if M[COVERS][far, wide]:
        W[FLOURED][i] = M[IN][I_FLOUR_ROUNDS]
        _signs(M, W, t, i)
    else:
        W[KKIND][g, i] = KNOWN_NONE


@compiled
def _search(
    M: Arrays, W: Arrays, t: int, g: int, i: int, uniforms: np.ndarray, ctx: np.ndarray
) -> None:
    """``Dnd35Game._search``: what ``search.search`` says for what g knows of i's place."""
    plan = M[PLAN][W[KKIND][g, i]]
    if plan == SEARCH_SQUARE:
        sx, sy = W[KSQ][g, i, 0], W[KSQ][g, i, 1]
        px, py = centre(sx), centre(sy)
        _close_in(M, W, g, px, py)
        x, y = W[GX][g], W[GY][g]
        if not _sees(M, W, x, y, px, py):
            return
        gap = py_hypot(x - px, y - py)
        if W[FLOUR_LEFT][g] and gap <= M[FL][F_FLOUR_RANGE]:
            _throw_flour(M, W, t, g, i, px, py)
        elif gap <= 5.0:
            dx, dy = px - x, py - y
            if abs(dx) >= abs(dy):
                bx, by = sx + (1 if dx >= 0 else -1), sy
            else:
                bx, by = sx, sy + (1 if dy >= 0 else -1)
            _grope(M, W, g, i, sx, sy, bx, by, 2, uniforms, ctx)
    elif plan == SEARCH_BEARING:
        degrees = W[KBEAR][g, i]
        k = sector(degrees)
        x, y = W[GX][g], W[GY][g]
        cx, cy = square_of(x), square_of(y)
        neigh = M[NEIGH]
        found = 0
        ax = ay = bx = by = 0
        for j in (k, (k + 1) % 8):
            qx, qy = cx + neigh[j, 0], cy + neigh[j, 1]
            if _on_map(M, centre(qx), centre(qy)) and _sees(M, W, x, y, centre(qx), centre(qy)):
                if found == 0:
                    ax, ay = qx, qy
                else:
                    bx, by = qx, qy
                found += 1
        if found and _grope(M, W, g, i, ax, ay, bx, by, found, uniforms, ctx):
            return
        step = min(M[FL][F_SEARCH_STEP], M[GMOVE][g] - W[WALKED][g])
        if step <= 0:
            return
        angle = degrees * DEG_TO_RAD
        tx, ty = x + step * math.cos(angle), y + step * math.sin(angle)
        if not _on_map(M, tx, ty) or not _sees(M, W, x, y, tx, ty):
            return
        W[GX][g], W[GY][g] = tx, ty
        W[WALKED][g] += step


@compiled
def _defend(M: Arrays, W: Arrays, t: int, g: int, uniforms: np.ndarray, ctx: np.ndarray) -> None:
    """Step 5 for defender g (``D20Game._defend``, ``_attack``)."""
    target = -1
    best = UNAWARE
    for i in range(M[IN][I_I]):
        if W[IALIVE][i] and W[AWARE][g, i] > best:
            best = W[AWARE][g, i]
            target = i
    if target < 0:
        return
    i = target
    if best < LOCATION:
        _search(M, W, t, g, i, uniforms, ctx)
        return
    if best == OBSERVED:
        px, py = W[IX][i], W[IY][i]
    else:
        px, py = centre(square_of(W[IX][i])), centre(square_of(W[IY][i]))
    _close_in(M, W, g, px, py)
    x, y = W[GX][g], W[GY][g]
    if not (adjacent(x, y, W[IX][i], W[IY][i]) and _sees(M, W, x, y, W[IX][i], W[IY][i])):
        return
    if M[HAS_AC][i] and not M[HIT][g, i, face(20, uniforms, ctx) - 1]:
        return
    if best == LOCATION or M[GSENSES][g, BLIND_ATTACK]:
        liquid = M[WLIQ][t, i]
        dice = M[MISS_DICE][g, i, liquid]
        if dice:
            spared = False
            for _ in range(dice):
                if M[SPARES][g, i, liquid, face(100, uniforms, ctx) - 1]:
                    spared = True
            if not spared:
                return
    W[IALIVE][i] = 0
    for j in range(M[IN][I_I]):
        if W[IALIVE][j]:
            return
    W[SC][S_OUTCOME] = M[ENDINGS][E_CAUGHT] + 1
    W[SC][S_END] = W[SC][S_TURN]


@compiled
def _objective(M: Arrays, W: Arrays, t: int) -> None:
    """Step 6 (``Game._objective``, ``reached_by``)."""
    if not M[IN][I_HAS_OBJ]:
        return
    some = False
    every = True
    for i in range(M[IN][I_I]):
        if M[NAMED][i]:
            inside = bool(W[IALIVE][i]) and bool(M[WINSIDE][t, i])
            some = some or inside
            every = every and inside
    if some if M[IN][I_ANY] else every:
        sc = W[SC]
        code = M[ENDINGS][E_DETECTED] if sc[S_EVER] else M[ENDINGS][E_UNSEEN]
        sc[S_OUTCOME] = code + 1
        sc[S_END] = sc[S_TURN]


@compiled
def play_run(M: Arrays, W: Arrays, uniforms: np.ndarray, ctx: np.ndarray) -> None:
    """One run to its end (``Game.play``); ``W[SC]`` holds its outcome (code + 1), end, first
    detection."""
    n_g, n_i = M[IN][I_G], M[IN][I_I]
    sc = W[SC]
    for k in range(sc.shape[0]):
        sc[k] = 0
    sc[S_DOORS] = M[IN][I_DOORS0]
    for g in range(n_g):
        W[GX][g] = M[GSX][g]
        W[GY][g] = M[GSY][g]
        W[GALERT][g] = M[GALERT0][g]
        W[FLOUR_LEFT][g] = M[GFLOUR][g]
        for i in range(n_i):
            W[AWARE][g, i] = UNAWARE
            W[KKIND][g, i] = KNOWN_NONE
            W[PIN][g, i] = 0
            W[PAIRS][g, i] = False
    for i in range(n_i):
        W[IALIVE][i] = 1
        W[FLOURED][i] = 0
    for t in range(M[IN][I_T]):
        sc[S_TURN] = t + 1
        for g in range(n_g):
            W[WALKED][g] = 0.0
        _patrols(M, W, uniforms, ctx)
        _walks(M, W, t, uniforms, ctx)
        for i in range(n_i):
            if W[IALIVE][i]:
                _perceive(M, W, t, i, uniforms, ctx)
        for g in range(n_g):
            if sc[S_OUTCOME] == 0:
                _defend(M, W, t, g, uniforms, ctx)
        for i in range(n_i):
            if W[IALIVE][i] and W[FLOURED][i]:
                W[FLOURED][i] = 0 if M[WLIQ][t, i] else W[FLOURED][i] - 1
        if sc[S_OUTCOME] == 0:
            _objective(M, W, t)
        if ctx[C_STATUS]:
            return
        if sc[S_OUTCOME]:
            break
    if sc[S_OUTCOME] == 0:
        if sc[S_ALARM]:
            sc[S_OUTCOME] = M[ENDINGS][E_ALARM] + 1
            sc[S_END] = sc[S_ALARM]
        else:
            sc[S_OUTCOME] = M[ENDINGS][E_TURN_LIMIT] + 1
            sc[S_END] = sc[S_TURN]


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
    run not played (``last`` when all were). A run that ran out of uniforms is not counted:
    ``ctx[C_POS]`` is put back to its first uniform and ``ctx[C_STATUS]`` says why."""
    sc = W[SC]
    bins_x, bins_y = heat.shape[0], heat.shape[1]
    n_g, n_i = M[IN][I_G], M[IN][I_I]
    for r in range(first, last):
        start = ctx[C_POS]
        play_run(M, W, uniforms, ctx)
        if ctx[C_STATUS]:
            ctx[C_POS] = start
            return r
        outcome[r] = sc[S_OUTCOME] - 1
        end[r] = sc[S_END]
        first_seen[r] = sc[S_FIRST]
        for i in range(n_i):
            alive[r, i] = W[IALIVE][i]
        for g in range(n_g):
            alert[r, g] = W[GALERT][g]
            for i in range(n_i):
                pairs[r, g, i] = W[PAIRS][g, i]
                aware[r, g, i] = W[AWARE][g, i]
        for h in range(sc[S_HEAT]):
            bx = min(bins_x - 1, max(0, int(W[HX][h] * heat_scale[0])))
            by = min(bins_y - 1, max(0, int(W[HY][h] * heat_scale[1])))
            heat[bx, by] += 1
    return last


__all__ = ["C_POS", "C_STATUS", "EXHAUSTED", "play_runs"]
