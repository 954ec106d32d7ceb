"""The Starfinder round, run by run, compiled (numba): the game of :mod:`vigile.games.d20.round` and
:mod:`vigile.games.starfinder.round`, for the scenarios :func:`~.tables.unsupported` accepts.

A round, from the stream of uniforms in the engine's order: the patrols
(:func:`vigile.games.d20.kernel.patrols`); the intruders' walk and actions (doors, invisibility
cast or ended, blows, kills and sniping shots at living defenders); for each living intruder
not ethereal one Stealth d20 against the Perception d20 of each living defender in a line of
sight that does not yet know as much as it can of it (SF-4, SF-5; none rolled when no observer
may roll, SF-2); then each living defender acts: one that located or observes an intruder
(not ethereal) closes in and strikes it (the attack roll against an ``ac``, the miss chance's
d100s, SF-8); one that knows less stays (SF-11 [R]); the objective.

The kernel holds no rule: the Stealth check's parts, where each observer stands after it,
darkness, the blows, come from tables built by the rule functions (:mod:`~.tables`). What it
knows is how the opposed roll is read: the Perception result's margin over the Stealth DC,
what each margin gives read from a table (``noticed``: ties to the observer, SF-4), and that a
blow lands when one miss-chance die spares it.

The round's phases (the walk, the Stealth roll, a defender's action) are inlined
(:func:`~vigile.sim.kernel.geometry.inlined`), as in the D&D 3.5 kernel: passing the model's
arrays at each call is dearer than their work.
"""

from __future__ import annotations

from typing import cast

import numpy as np

from vigile.games.d20.kernel import (
    I_G,
    I_I,
    I_T,
    LOCATION,
    OBSERVED,
    OP_SNIPE,
    S_OUTCOME,
    S_TURN,
    Arrays,
    Outputs,
    act,
    adjacent,
    any_light,
    begin_round,
    blow_hits,
    by_margin,
    closes_on,
    dark_to,
    hidden_from,
    kept,
    lands,
    learn,
    line_of_sight,
    lit,
    model_type,
    most_known,
    round_over,
    spared,
    start_run,
    state_type,
    strike_lands,
    unseen_by,
    walk_to,
)
from vigile.sim.kernel.dice import face
from vigile.sim.kernel.geometry import (
    NOBODY,
    ZERO,
    compiled,
    hypot_below,
    hypot_steps,
    inlined,
    internal,
)

MODEL = [
    "hider",
    "snipe_hider",
    "member",
    "after",
    "refused",
    "has_ac",
    "hit",
    "miss_dice",
    "spares",
    "lost",
    "struck",
    "best",
    "noticed",
]
"""The Starfinder model's own arrays, after the shared ones, by their names in the tables."""
RANGED = cast(int, np.int64(1))
"""A sniper's shot is ranged (``struck``'s ``ranged``; int64, not a literal: see
:data:`vigile.sim.kernel.geometry.ZERO`)."""
F_SOUND_STEP, F_SNIPE_LEAST = 4, 5
I_VANISH, I_NOTICED_FROM = 13, 14
PINNED = cast(int, np.int64(1))
"""``pin`` for :func:`learn`: every square a Starfinder defender locates is where the intruder
was, lost when it moves (LP-2: ``M.lost[PINNED]``)."""
STATE = ["crowd", "sniped", "hid"]
"""A run's Starfinder working arrays, after the shared ones: each defender's part in this
round's Stealth roll (0: none, 1: rolls, 2: sees the hider without a roll); intruders whose
Stealth roll this round was their sniping's (SF-10); [defender, intruder] 1 where a Stealth
check of the intruder succeeded against the defender, which has not observed it since (LP-3,
``StarfinderGame.hid_from``)."""
Model = model_type(__name__, MODEL)
State = state_type(__name__, STATE)


@internal
def _struck(M: Arrays, W: Arrays, g: int, i: int, ranged: int) -> None:
    """``StarfinderGame.struck``: a visible attacker is observed, unless it shot from cover
    beyond the next square unobserved (a sniper); an unseen one (invisible to it, or in the
    dark for it) that struck in melee from the next square is located; otherwise only its
    presence (SF-11)."""
    x, y = W.ix[i], W.iy[i]
    unseen = unseen_by(M, W, g, i)
    near = adjacent(W.gx[g], W.gy[g], x, y)
    before = W.aware[g, i]
    sheltered = before != OBSERVED and M.walk_cover[W.scalars[S_TURN] - 1, i] and not near
    if not unseen and not sheltered:
        after = M.struck[0, before]
    elif near and not ranged:
        after = M.struck[1, before]
    else:
        after = M.struck[2, before]
    learn(M, W, g, i, after, PINNED)


@inlined
def _walks(M: Arrays, W: Arrays, t: int, uniforms: np.ndarray, ctx: np.ndarray) -> None:
    """Each living intruder where its plan takes it (:func:`walk_to`: those that had located
    it keep the square where it was and only its presence, LP-2; a visible one that walks into
    the dark leaves those that observed it only its square), then its actions (:func:`act`):
    doors, invisibility cast or ended, blows (what the victim learns: :func:`_struck`), kills,
    and sniping shots (a dead victim, or one out of range where it stands now: nothing, LP-7)."""
    n_i = M.ints[I_I]
    ops = M.walk_door_ops
    vanished = M.ints[I_VANISH]
    for i in range(n_i):
        if not W.intruder_alive[i]:
            continue
        walk_to(M, W, t, i, M.lost, vanished, PINNED)
        for k in range(M.walk_op_start[t * n_i + i], M.walk_op_start[t * n_i + i + 1]):
            g = act(M, W, i, k, vanished, PINNED, uniforms, ctx)
            if g != NOBODY:
                _struck(M, W, g, i, ops[k, 2])
            elif ops[k, 0] == OP_SNIPE and strike_lands(M, W, i, ops[k, 1], RANGED):
                _snipe(M, W, t, i, ops[k, 1], uniforms, ctx)


@inlined
def _snipe(
    M: Arrays, W: Arrays, t: int, i: int, g: int, uniforms: np.ndarray, ctx: np.ndarray
) -> None:
    """Intruder i's sniping shot at defender g, which it reaches (SF-10): the victim's attack
    roll (its d20 where g has an ``ac``: nothing the kernel keeps depends on it), what g
    learns of it; a sniper hidden from g then rolls its Stealth again as part of the shot."""
    hidden = W.aware[g, i] != OBSERVED and W.hid[g, i] == 1
    if M.guard_ac[g]:
        face(20, uniforms, ctx)
    _struck(M, W, g, i, RANGED)
    if hidden:
        W.sniped[i] = 1
        dx, dy = W.ix[i] - W.gx[g], W.iy[i] - W.gy[g]
        close = hypot_below(dx, dy, M.floats[F_SNIPE_LEAST], True)
        steps = min(hypot_steps(dx, dy, M.floats[F_SOUND_STEP]), M.snipe_hider.shape[6] - 1)
        _stealth(M, W, t, i, 2 if close else 1, steps, uniforms, ctx)


@inlined
def _defend(M: Arrays, W: Arrays, t: int, g: int, uniforms: np.ndarray, ctx: np.ndarray) -> None:
    """``D20Game._defend`` in Starfinder, for a living defender: located, it closes in and
    strikes (SF-8; :func:`closes_on`: no blow reaches an ethereal intruder, DD-17 [engine]),
    the miss chance where it located it only; knowing less, it stays (SF-11 [R])."""
    if not W.guard_alive[g]:
        return
    i, best = most_known(M, W, g)
    if i == NOBODY or best < LOCATION or not closes_on(M, W, g, i, best):
        return
    if not blow_hits(M, M.has_ac[i], M.hit[g, i], uniforms, ctx):
        return
    if best == LOCATION and not spared(M.miss_dice[g, i], M.spares[g, i], uniforms, ctx):
        return
    lands(M, W, i)


@inlined
def _stealth(
    M: Arrays,
    W: Arrays,
    t: int,
    i: int,
    snipe: int,
    steps: int,
    uniforms: np.ndarray,
    ctx: np.ndarray,
) -> None:
    """``StarfinderGame._stealth``: one Stealth d20 against each living observer's Perception
    d20 (``snipe``: 0 not sniping; 1 sniping at 10 ft or more, its target ``steps`` whole
    sound steps away; 2 nearer: SF-10); none against an ethereal intruder."""
    if M.intruder_ethereal[i]:
        return
    n_g = M.ints[I_G]
    crowd = W.crowd
    x, y = W.ix[i], W.iy[i]
    is_lit = 1 if lit(M, W, x, y) else 0
    anyl = any_light(M, W)
    darkness = M.dark[is_lit, anyl]
    invisible = W.invisible[i]
    immobile = 0 if M.walk_moved[t, i] or snipe else 1
    fast = 1 if M.walk_speed[t, i] > 0 else 0
    cover, lost = M.walk_cover[t, i], M.walk_lost_cover[t, i]
    case = (i, invisible, immobile, fast, cover, lost, darkness, snipe)
    rolls = 0
    found = 0
    for g in range(n_g):
        crowd[g] = 0
        if not W.guard_alive[g]:
            continue
        dark = dark_to(M, W, g, i, is_lit, anyl)
        unseen = hidden_from(M, W, g, i) or dark
        if W.aware[g, i] >= M.best[1 if unseen else 0]:
            continue
        if not line_of_sight(M, W, W.gx[g], W.gy[g], x, y):
            continue
        found += 1
        sees_dark = 1 if darkness and not dark else 0
        W.cases[g, 0] = sees_dark
        if M.member[i, invisible, immobile, fast, cover, lost, darkness, snipe, g, sees_dark, 0]:
            crowd[g] = 1
            rolls += 1
        else:
            crowd[g] = 2
    if found == 0:
        return
    result = 0
    if rolls:
        if snipe == 1:
            bonus = M.snipe_hider[i, invisible, fast, cover, lost, darkness, steps]
        else:
            bonus = M.hider[case]
        result = face(20, uniforms, ctx) + bonus
    for g in range(n_g):
        if crowd[g] == 0:
            continue
        before = W.aware[g, i]
        if crowd[g] == 2 or rolls == 0:
            after = M.refused[before]
        else:
            part = M.member[
                i, invisible, immobile, fast, cover, lost, darkness, snipe, g, W.cases[g, 0]
            ]
            margin = face(20, uniforms, ctx) + part[2] - result - part[1]
            noticed = by_margin(M.noticed, M.ints[I_NOTICED_FROM], margin)
            total = 1 if part[3] == LOCATION else 0
            after = M.after[noticed, total, before]
            W.cases[g, 2] = 0 if noticed else 1
        W.cases[g, 1] = after
    for g in range(n_g):
        if crowd[g]:
            learn(M, W, g, i, W.cases[g, 1], PINNED)
            if W.aware[g, i] == OBSERVED:
                W.hid[g, i] = 0
            elif crowd[g] == 1 and rolls and W.cases[g, 2]:
                W.hid[g, i] = 1


@compiled
def play_runs(
    M: Arrays, W: Arrays, uniforms: np.ndarray, ctx: np.ndarray, first: int, last: int, out: Outputs
) -> int:
    """Starfinder's runs ``first`` .. ``last - 1`` (each to its end, ``Game.play``, from the
    stream at ``ctx[C_POS]``) into ``out``, and the first run not played (:func:`kept`;
    ``last`` when all were). A round: the patrols, the walks and actions (a sniper's Stealth
    roll is its shot's), one Stealth roll for each other living intruder, each defender's
    action, the objective."""
    n_g, n_i = M.ints[I_G], M.ints[I_I]
    for r in range(first, last):
        W.hid[:, :] = 0
        start_run(M, W, ctx)
        for t in range(M.ints[I_T]):
            begin_round(M, W, t, uniforms, ctx)
            W.sniped[:] = 0
            _walks(M, W, t, uniforms, ctx)
            for i in range(n_i):
                if W.intruder_alive[i] and not W.sniped[i]:
                    _stealth(M, W, t, i, ZERO, ZERO, uniforms, ctx)
            for g in range(n_g):
                if W.scalars[S_OUTCOME] == 0:
                    _defend(M, W, t, g, uniforms, ctx)
            if round_over(M, W, t, ctx):
                break
        if not kept(M, W, r, ctx, out):
            return r
    return last
