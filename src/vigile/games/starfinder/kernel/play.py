"""The Starfinder round, run by run, compiled (numba): the game of :mod:`vigile.engine.d20` and
:mod:`vigile.games.starfinder.round`, for the scenarios :func:`~.tables.unsupported` accepts.

A round, from the stream of uniforms in the engine's order: the patrols
(:func:`vigile.sim.kernel.d20.patrols`); the intruders' walk; for each living intruder one
Stealth d20 against the Perception d20 of each defender in a line of sight that does not yet
know as much as it can of it (SF-4, SF-5; none rolled when no observer may roll, SF-2); then
each defender acts: one that located or observes an intruder closes in and strikes it (the
attack roll against an ``ac``, the miss chance's d100s, SF-8); one that knows less stays (SF-11
[R]); the objective.

The kernel holds no rule: the Stealth check's parts, where each observer stands after it,
darkness, the blows, come from tables built by the rule functions (:mod:`~.tables`). What it
knows is how the opposed roll is read: the Perception result's margin over the Stealth DC,
what each margin gives read from a table (``noticed``: ties to the observer, SF-4), and that a
blow lands when one miss-chance die spares it.
"""

from __future__ import annotations

import numpy as np

from vigile.sim.kernel.d20 import (
    AWARE,
    DOOR_OPS,
    FL,
    GAME,
    GSENSES,
    GX,
    GY,
    I_G,
    I_I,
    I_T,
    IALIVE,
    IN,
    IX,
    IY,
    KKIND,
    KNOWN_SQUARE,
    KSQ,
    LOCATION,
    LSTATE,
    OBSERVED,
    OP_DOOR,
    OP_START,
    OP_STRIKE,
    S_OUTCOME,
    S_TURN,
    SC,
    STATE,
    UNAWARE,
    WALKED,
    WCOVER,
    WLOST,
    WMOVED,
    WSHIFT,
    WSPEED,
    WX,
    WY,
    Arrays,
    adjacent,
    by_margin,
    caught,
    centre,
    close_in,
    door,
    end_run,
    learn,
    line_of_sight,
    objective,
    patrols,
    record_run,
    square_of,
    start_run,
)
from vigile.sim.kernel.dice import C_POS, C_STATUS, face
from vigile.sim.kernel.geometry import compiled, hypot_below

DARK, DARK_TO, CARRIED, CARRIED_R, LIGHT_X, LIGHT_Y, LIGHT_R = range(GAME, GAME + 7)
HIDER, MEMBER, AFTER, REFUSED, HAS_AC, HIT, MISS_DICE, SPARES = range(GAME + 7, GAME + 15)
GAC, STRUCK, BEST, INVISIBLE, NOTICED = range(GAME + 15, GAME + 20)
MODEL = [
    "dark",
    "dark_to",
    "carried",
    "carried_r",
    "light_x",
    "light_y",
    "light_r",
    "hider",
    "member",
    "after",
    "refused",
    "has_ac",
    "hit",
    "miss_dice",
    "spares",
    "guard_ac",
    "struck",
    "best",
    "invisible",
    "noticed",
]
"""The Starfinder arrays after the shared ones, by their names in the tables."""
F_DARK_RANGE, F_SNIPE_LEAST = 4, 5
I_BEST, I_LIGHTS, I_CARRIERS, I_VANISH, I_NOTICED_FROM = 10, 11, 12, 13, 14
SIGHT_M = 9
"""The shared sight masks (:data:`vigile.sim.kernel.d20.SIGHT_M`)."""
CROWD, SNIPED = STATE, STATE + 1
"""The run's state after the shared arrays: each defender's part in this round's Stealth roll
(0: none, 1: rolls, 2: sees the hider without a roll); intruders whose Stealth roll this round
was their sniping's (SF-10)."""


@compiled
def _lit(M: Arrays, W: Arrays, x: float, y: float) -> bool:
    """A light reaches (x, y) (``D20Game._lit``): one of the scenario's within its radius and
    in sight, or one a living creature carries."""
    for k in range(M[IN][I_LIGHTS]):
        dx, dy = x - M[LIGHT_X][k], y - M[LIGHT_Y][k]
        if dx * dx + dy * dy <= M[LIGHT_R][k] * M[LIGHT_R][k] and line_of_sight(
            M, W, M[LIGHT_X][k], M[LIGHT_Y][k], x, y
        ):
            return True
    for k in range(M[IN][I_CARRIERS]):
        side, j = M[CARRIED][k, 0], M[CARRIED][k, 1]
        if side == 0:
            cx, cy, alive = W[GX][j], W[GY][j], True
        else:
            cx, cy, alive = W[IX][j], W[IY][j], bool(W[IALIVE][j])
        if (
            alive
            and hypot_below(cx - x, cy - y, M[CARRIED_R][k], False)
            and line_of_sight(M, W, cx, cy, x, y)
        ):
            return True
    return False


@compiled
def _any_light(M: Arrays, W: Arrays) -> int:
    """A light on the board: the scenario's, or one a living creature carries."""
    if M[IN][I_LIGHTS]:
        return 1
    for k in range(M[IN][I_CARRIERS]):
        side, j = M[CARRIED][k, 0], M[CARRIED][k, 1]
        if side == 0 or W[IALIVE][j]:
            return 1
    return 0


@compiled
def _dark_to(M: Arrays, W: Arrays, g: int, i: int, lit: int, any_light: int) -> bool:
    """Intruder i is in darkness beyond defender g's darkvision (``D20Game._dark_for``)."""
    x, y = W[IX][i], W[IY][i]
    far = 0 if hypot_below(W[GX][g] - x, W[GY][g] - y, M[FL][F_DARK_RANGE], False) else 1
    return bool(M[DARK_TO][g, lit, any_light, far])


@compiled
def _struck(M: Arrays, W: Arrays, g: int, i: int, ranged: int) -> None:
    """``StarfinderGame._struck``: a visible attacker is observed, unless it shot from cover
    beyond the next square unobserved (a sniper); an unseen one that struck in melee from the
    next square is located; otherwise only its presence (SF-11)."""
    x, y = W[IX][i], W[IY][i]
    lit = 1 if _lit(M, W, x, y) else 0
    unseen = M[INVISIBLE][i] or _dark_to(M, W, g, i, lit, _any_light(M, W))
    near = adjacent(W[GX][g], W[GY][g], x, y)
    before = W[AWARE][g, i]
    sheltered = before != OBSERVED and M[WCOVER][W[SC][S_TURN] - 1, i] and not near
    if not unseen and not sheltered:
        after = M[STRUCK][0, before]
    elif near and not ranged:
        after = M[STRUCK][1, before]
    else:
        after = M[STRUCK][2, before]
    learn(M, W, g, i, after, 0)


@compiled
def _roll_to_hit(M: Arrays, i: int, g: int, uniforms: np.ndarray, ctx: np.ndarray) -> None:
    """The attack roll of intruder i on defender g (``StarfinderGame._attack_roll``, SF-9): its
    d20 when g has an ``ac``. Hit or miss, the victim learns of the blow and nothing the kernel
    keeps depends on it (no hit points), so the kernel draws the face and reads nothing."""
    if M[GAC][g]:
        face(20, uniforms, ctx)


@compiled
def _walks(M: Arrays, W: Arrays, t: int, uniforms: np.ndarray, ctx: np.ndarray) -> None:
    """Each living intruder where its plan takes it: a visible one that walks into the dark
    leaves those that observed it only its square (``_into_the_dark``); then its doors, blows
    and sniping shots."""
    n_i = M[IN][I_I]
    ops = M[DOOR_OPS]
    for i in range(n_i):
        if not W[IALIVE][i]:
            continue
        W[IX][i] = M[WX][t, i]
        W[IY][i] = M[WY][t, i]
        if M[WSHIFT][t, i] and not M[INVISIBLE][i]:
            lit = 1 if _lit(M, W, W[IX][i], W[IY][i]) else 0
            any_light = _any_light(M, W)
            for g in range(M[IN][I_G]):
                if W[AWARE][g, i] == OBSERVED and _dark_to(M, W, g, i, lit, any_light):
                    W[AWARE][g, i] = M[IN][I_VANISH]
                    W[KKIND][g, i] = KNOWN_SQUARE
                    W[KSQ][g, i, 0] = square_of(W[IX][i])
                    W[KSQ][g, i, 1] = square_of(W[IY][i])
        for k in range(M[OP_START][t * n_i + i], M[OP_START][t * n_i + i + 1]):
            kind = ops[k, 0]
            if kind == OP_DOOR:
                door(W, ops[k, 1], ops[k, 2])
            elif kind == OP_STRIKE:
                _roll_to_hit(M, i, ops[k, 1], uniforms, ctx)
                _struck(M, W, ops[k, 1], i, ops[k, 2])
            else:
                g = ops[k, 1]
                hidden = W[AWARE][g, i] != OBSERVED
                _roll_to_hit(M, i, g, uniforms, ctx)
                _struck(M, W, g, i, 1)
                if hidden:
                    W[SNIPED][i] = 1
                    dx, dy = W[IX][i] - W[GX][g], W[IY][i] - W[GY][g]
                    close = hypot_below(dx, dy, M[FL][F_SNIPE_LEAST], True)
                    _stealth(M, W, t, i, 2 if close else 1, uniforms, ctx)


@compiled
def _stealth(
    M: Arrays, W: Arrays, t: int, i: int, snipe: int, uniforms: np.ndarray, ctx: np.ndarray
) -> None:
    """``StarfinderGame._stealth``: one Stealth d20 against each observer's Perception d20
    (``snipe``: 0 not sniping; 1 sniping at 10 ft or more, 2 nearer: SF-10)."""
    n_g = M[IN][I_G]
    crowd = W[CROWD]
    x, y = W[IX][i], W[IY][i]
    lit = 1 if _lit(M, W, x, y) else 0
    any_light = _any_light(M, W)
    darkness = M[DARK][lit, any_light]
    immobile = 0 if M[WMOVED][t, i] or snipe else 1
    fast = 1 if M[WSPEED][t, i] > 0 else 0
    cover, lost = M[WCOVER][t, i], M[WLOST][t, i]
    rolls = 0
    found = 0
    for g in range(n_g):
        crowd[g] = 0
        unseen = M[INVISIBLE][i] or _dark_to(M, W, g, i, lit, any_light)
        if W[AWARE][g, i] >= M[BEST][1 if unseen else 0]:
            continue
        if not line_of_sight(M, W, W[GX][g], W[GY][g], x, y):
            continue
        found += 1
        sees_dark = 1 if darkness and not _dark_to(M, W, g, i, lit, any_light) else 0
        W[LSTATE][g, 0] = sees_dark
        if M[MEMBER][i, immobile, fast, cover, lost, darkness, snipe, g, sees_dark, 0]:
            crowd[g] = 1
            rolls += 1
        else:
            crowd[g] = 2
    if found == 0:
        return
    result = 0
    if rolls:
        result = face(20, uniforms, ctx) + M[HIDER][i, immobile, fast, cover, lost, darkness, snipe]
    for g in range(n_g):
        if crowd[g] == 0:
            continue
        before = W[AWARE][g, i]
        if crowd[g] == 2 or rolls == 0:
            after = M[REFUSED][before]
        else:
            part = M[MEMBER][i, immobile, fast, cover, lost, darkness, snipe, g, W[LSTATE][g, 0]]
            margin = face(20, uniforms, ctx) + part[2] - result - part[1]
            noticed = by_margin(M[NOTICED], M[IN][I_NOTICED_FROM], margin)
            total = 1 if part[3] == LOCATION else 0
            after = M[AFTER][noticed, total, before]
        W[LSTATE][g, 1] = after
    for g in range(n_g):
        if crowd[g]:
            learn(M, W, g, i, W[LSTATE][g, 1], 0)


@compiled
def _defend(M: Arrays, W: Arrays, t: int, g: int, uniforms: np.ndarray, ctx: np.ndarray) -> None:
    """``D20Game._defend`` in Starfinder: located, it closes in and strikes (SF-8); knowing
    less, it stays (SF-11 [R])."""
    target = -1
    best = UNAWARE
    for i in range(M[IN][I_I]):
        if W[IALIVE][i] and W[AWARE][g, i] > best:
            best = W[AWARE][g, i]
            target = i
    if target < 0 or best < LOCATION:
        return
    i = target
    if best == OBSERVED:
        px, py = W[IX][i], W[IY][i]
    else:
        px, py = centre(square_of(W[IX][i])), centre(square_of(W[IY][i]))
    close_in(M, W, g, px, py)
    x, y = W[GX][g], W[GY][g]
    if not (adjacent(x, y, W[IX][i], W[IY][i]) and line_of_sight(M, W, x, y, W[IX][i], W[IY][i])):
        return
    if M[HAS_AC][i] and not M[HIT][g, i, face(20, uniforms, ctx) - 1]:
        return
    if best == LOCATION:
        spared = False
        for _ in range(M[MISS_DICE][g, i]):
            if M[SPARES][g, i, face(100, uniforms, ctx) - 1]:
                spared = True
        if not spared:
            return
    caught(M, W, i)


@compiled
def play_run(M: Arrays, W: Arrays, uniforms: np.ndarray, ctx: np.ndarray) -> None:
    """One run to its end (``Game.play``)."""
    n_g, n_i = M[IN][I_G], M[IN][I_I]
    sc = W[SC]
    start_run(M, W)
    for t in range(M[IN][I_T]):
        sc[S_TURN] = t + 1
        for g in range(n_g):
            W[WALKED][g] = 0.0
        patrols(M, W, uniforms, ctx)
        for i in range(n_i):
            W[SNIPED][i] = 0
        _walks(M, W, t, uniforms, ctx)
        for i in range(n_i):
            if W[IALIVE][i] and not W[SNIPED][i]:
                _stealth(M, W, t, i, 0, uniforms, ctx)
        for g in range(n_g):
            if sc[S_OUTCOME] == 0:
                _defend(M, W, t, g, uniforms, ctx)
        if sc[S_OUTCOME] == 0:
            objective(M, W, t)
        if ctx[C_STATUS]:
            return
        if sc[S_OUTCOME]:
            break
    end_run(M, W)


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
    """Play runs ``first`` .. ``last - 1``; return the first run not played (a run that ran out
    of uniforms is played again from its first uniform)."""
    for r in range(first, last):
        start = ctx[C_POS]
        play_run(M, W, uniforms, ctx)
        if ctx[C_STATUS]:
            ctx[C_POS] = start
            return r
        record_run(M, W, r, outcome, end, first_seen, pairs, alive, alert, aware, heat, heat_scale)
    return last


__all__ = ["GSENSES", "MODEL", "play_runs"]
