"""The D&D 3.5 round, run by run, compiled (numba): the game of :mod:`vigile.games.d20.round` and
:mod:`vigile.games.dnd35.round`, for the scenarios :func:`~.tables.unsupported` accepts.

Each run is played to its own end from the stream of uniforms, in the engine's order (the draw
interface, :class:`vigile.dice.source.UniformFaces`): one uniform a die face
(``floor(u * sides) + 1``), one a patrol's direction (``2π u``). A round:

1. each living patrolling defender that pursues nobody wanders half its move in a random
   direction, bouncing off walls (:func:`vigile.sim.kernel.geometry.trace_unit`);
2. each living intruder walks its plan (:func:`~.tables.schedule`: where it stands, how it
   moved); one that moved loses the squares it was pinpointed in for the moment only
   (groping, a sign: ``pinpoint_lost``) and, visible, leaves those that observed it and
   whose darkvision does not reach it its square ([R] as DD-1); then it acts: the doors it
   opens or closes, invisibility cast (DD-1: an observer that can't see it keeps its square)
   or ended, a blow (the attack roll's d20, what the victim learns: DD-7, DD-21) or a kill at
   a living defender, an attack on a named square (DD-9), each only within its reach or range
   where the victim stands now (LP-7: else not made); a blow, a kill, words or an attack
   make it noisy (DD-5) and an attacker (DD-20) this round;
3. for each living intruder: the signs that show an invisible one's square to the awake
   sighted defenders in a line of sight (DD-10, DD-12, DD-16), or, where none does and it moved
   on soft ground, each one's Spot d20 on its footprints within ``tracks.range_ft`` (DD-11
   [R]: the square on a success); Hide against Spot for those that can
   see it (DD-20: an invisible one, those that see invisible creatures; a visible one, the
   sighted out of the dark for them; no Hide for a visible one out of cover: they see it);
   then, defender by defender, blindsight and scent within their range against one it cannot
   see (DD-13, DD-15), Spot against an invisible one (DD-3, DD-4, one d20); then one Move
   Silently d20 and a Listen d20 for each defender still without its square that can hear it
   (DD-5); an ethereal one, only see invisibility reaches (DD-17);
4. the first defender that locates an intruder raises the alarm (every living defender on
   alert);
5. each living defender acts against the intruder it knows most about: located (not
   ethereal: DD-17), it closes in and, in the next square with a line of sight, strikes (the
   attack roll against an ``ac``, the miss chance's d100s, blindsight's where it cannot see
   it); knowing a square, it closes in and gropes it and the next (a touch d20, then on a
   touch a d100); knowing a bearing, it gropes the two squares ahead, then steps along it
   (the rulings of :mod:`vigile.rulesets.dnd35.search`);
6. the objective.

The kernel holds no rule: what each face of a check gives, what each sense reaches, what each
sign shows, come from tables built by the rule functions (:mod:`~.tables`). What it knows is
how the dice are read: a face table; for Listen one shared d20 plus each listener's own, its
margin over its DC read in a table (``heard``, as
:func:`vigile.rulesets.dnd35.listen.listen_all_check` rolls them); for Hide against Spot the
higher result wins, a tie read in a table (``hide_tie``; both rolling again, the higher die
wins); the miss chance's dice land the blow when one of them spares it (one die, two with
Blind-Fight, as ``attack_check``). Where a defender gropes is read in tables by the case of its
way or bearing (``toward``, ``ahead``: ``search.squares_toward``, ``search.squares_ahead``).

Compiled without reference counting (``_nrt=False``): the kernel allocates nothing; a run's
state lives in arrays allocated once by the caller. The round's phases (the walk, the
perception of an intruder, a defender's action) are inlined
(:func:`~vigile.sim.kernel.geometry.inlined`), not left to LLVM's judgement: once they grew to
play visible intruders, darkness and kills, LLVM stopped inlining them, and passing the
model's arrays at each call took a large share of the kernel's time. A run that runs out of
uniforms stops (:data:`EXHAUSTED`) and is played again from its first uniform once the stream
is refilled.
"""

from __future__ import annotations

import math
from typing import cast

import numpy as np

from vigile.games.d20.kernel import (
    BLIND,
    DEG_TO_RAD,
    HEAR,
    I_G,
    I_I,
    I_T,
    KNOWN_BEARING,
    KNOWN_NONE,
    LOCATION,
    NO_PIN,
    OBSERVED,
    OP_SQUARE,
    S_OUTCOME,
    S_TURN,
    SCENT,
    SEE,
    SEEINV,
    TIE_AGAIN,
    TIE_WINS,
    Arrays,
    Outputs,
    act,
    adjacent,
    any_light,
    awake,
    bearing_case,
    begin_round,
    between,
    blow_hits,
    by_margin,
    centre,
    close_in,
    closes_on,
    dark_to,
    distracted,
    kept,
    lands,
    learn,
    line_of_sight,
    lit,
    may_be_dark,
    model_type,
    most_known,
    on_map,
    round_over,
    spared,
    square_lands,
    square_of,
    start_run,
    state_type,
    unseen_by,
    walk_to,
    way_case,
)
from vigile.sim.kernel.dice import C_STATUS, face
from vigile.sim.kernel.geometry import (
    NOBODY,
    ZERO,
    compiled,
    hypot_below,
    hypot_steps,
    inlined,
    internal,
    py_hypot,
    region_of,
)

SEARCH_STAY, SEARCH_SQUARE, SEARCH_BEARING = range(3)
PRINTS, NO_PRINTS = cast(int, np.int64(1)), ZERO
"""Whether the signs look for footprints (a Spot d20, DD-11 [R]): at perception, not after a
throw of flour (int64, not a literal: see :data:`vigile.sim.kernel.geometry.ZERO`)."""
BOTH_SQUARES = cast(int, np.int64(2))
"""A grope of the square searched and the one toward it (int64, not a literal: see
:data:`vigile.sim.kernel.geometry.ZERO`)."""
MODEL = [
    "reaches",
    "signs",
    "spot",
    "footprints",
    "listen_part",
    "listen_bonus",
    "listen_fixed",
    "touch",
    "connect",
    "has_ac",
    "hit",
    "miss_dice",
    "spares",
    "lost",
    "toward",
    "ahead",
    "heard",
    "hide_tie",
    "breathing",
    "plan",
    "covers",
    "flour",
    "hider",
    "spotter",
    "strike_hit",
    "square_hit",
    "struck",
    "square_dice",
    "square_spares",
    "hidden",
    "struck_seen",
    "hide_refused",
    "water",
    "surf_start",
    "surf_x",
    "surf_y",
]
"""The D&D 3.5 model's own arrays, after the shared ones (:data:`vigile.games.d20.kernel.PREFIX`),
by their names in the tables (:mod:`~.tables`)."""
# floats
F_SENSE, F_SPOT_RANGE, F_SPOT_STEP, F_LISTEN_STEP = range(4, 8)
F_SEARCH_STEP, F_FLOUR_RANGE, F_FLOUR_BURST, F_HIDE_STEP, F_RADII = range(8, 13)
# ints
I_RADII, I_HEARD_FROM = 5, 7
I_GROPE_STATE, I_GROPE_PIN, I_FLOUR_ROUNDS, I_VANISH_STATE, I_VANISH_PIN = range(10, 15)
I_HIDE_STATE, I_REFUSED_STATE, I_STRUCK_PIN, I_DEFAULT_WATER, I_GROPE_TOUCH = range(15, 20)
I_SPOT_PIN, I_LISTEN_PIN, I_TRACKS_PIN = range(20, 23)
STATE = ["flour_left", "floured", "roles", "in_dark"]
"""A run's D&D 3.5 working arrays, after the shared ones: handfuls of flour left; rounds an
intruder stays floured; each defender's part in this perception (0 none, 1 its senses, 2 Hide
against Spot); the intruder dark for it."""
Model = model_type(__name__, MODEL)
State = state_type(__name__, STATE)


@internal
def _hidden(M: Arrays, W: Arrays, i: int) -> int:
    """Intruder i is invisible or ethereal (``Dnd35Game._perceive_dnd``'s ``invisible``)."""
    return 1 if W.invisible[i] or M.intruder_ethereal[i] else 0


@internal
def _struck(M: Arrays, W: Arrays, g: int, i: int, ranged: int) -> None:
    """What defender g learns of intruder i's blow (``Dnd35Game.struck``): seeing it (or
    seeing invisible creatures, out of the dark), what sight reaches; else the square, or
    only the direction (DD-7)."""
    t = W.scalars[S_TURN] - 1
    if not unseen_by(M, W, g, i):
        seen = M.struck_seen[i, M.walk_liquid[t, i], W.invisible[i]]
        learn(M, W, g, i, seen[0], seen[1])
        return
    near = 1 if adjacent(W.gx[g], W.gy[g], W.ix[i], W.iy[i]) else 0
    learn(M, W, g, i, M.struck[i, near, ranged], M.ints[I_STRUCK_PIN])


@internal
def _in_water(M: Arrays, x: float, y: float) -> bool:
    """The ground at (x, y) is water (``Board.surface``: the last region holding it)."""
    r = region_of(x, y, M.surf_start, M.surf_x, M.surf_y)
    return bool(M.water[r]) if r >= 0 else bool(M.ints[I_DEFAULT_WATER])


@internal
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
    """``Dnd35Game.attack_square``: the first living defender on the square (not ethereal)
    that the intruder can see is struck; else the named square's attack roll (or the wrong
    square's d20) and miss chance (DD-9)."""
    n_g = M.ints[I_G]
    there = -1
    for g in range(n_g):
        if not W.guard_alive[g] or M.guard_ethereal[g]:
            continue
        if square_of(W.gx[g]) == sx and square_of(W.gy[g]) == sy:
            there = g
            break
    if there >= 0 and not M.hidden[i, there]:
        if M.guard_ac[there]:
            face(20, uniforms, ctx)
        _struck(M, W, there, i, ranged)
        return
    hit = there >= 0
    case = there if there >= 0 else n_g
    liquid = 0
    if there >= 0:
        liquid = 1 if _in_water(M, W.gx[there], W.gy[there]) else 0
        if M.guard_ac[there]:
            hit = bool(M.square_hit[i, there, W.invisible[i], face(20, uniforms, ctx) - 1])
    else:
        face(20, uniforms, ctx)
    spared = False
    for _ in range(M.square_dice[i, case, liquid]):
        if M.square_spares[i, case, liquid, face(100, uniforms, ctx) - 1]:
            spared = True
    if hit and spared and there >= 0:
        _struck(M, W, there, i, ranged)


@inlined
def _walks(M: Arrays, W: Arrays, t: int, uniforms: np.ndarray, ctx: np.ndarray) -> None:
    """Step 2: each living intruder where its plan takes it this round (:func:`walk_to`: the
    squares it leaves, ``pinpoint_lost``, and the darkness it walks into), then its actions
    (:func:`act`): the doors it opens or closes, invisibility cast or ended, its blows (what
    the victim learns: :func:`_struck`), kills and attacks on squares."""
    n_i = M.ints[I_I]
    ops = M.walk_door_ops
    state, pin = M.ints[I_VANISH_STATE], M.ints[I_VANISH_PIN]
    for i in range(n_i):
        if not W.intruder_alive[i]:
            continue
        walk_to(M, W, t, i, M.lost, state, pin)
        for k in range(M.walk_op_start[t * n_i + i], M.walk_op_start[t * n_i + i + 1]):
            g = act(M, W, i, k, state, pin, uniforms, ctx)
            if g != NOBODY:
                _struck(M, W, g, i, ops[k, 2])
            elif ops[k, 0] == OP_SQUARE and square_lands(M, W, i, k, ops[k, 3]):
                _attack_square(M, W, i, ops[k, 1], ops[k, 2], ops[k, 3], uniforms, ctx)


@internal
def _signs(
    M: Arrays, W: Arrays, t: int, i: int, prints: int, uniforms: np.ndarray, ctx: np.ndarray
) -> None:
    """What shows intruder i's square, invisible and not ethereal, to the living awake sighted
    defenders in a line of sight (``Dnd35Game._signs``, ``sign_shown`` by band of distance):
    a sign for certain, or, where the table says its footprints are to be looked for (and
    ``prints``: not after a throw of flour), the defender's Spot d20 on them, read by its steps
    and distraction in ``footprints`` (``footprints_check``, DD-11 [R])."""
    if not W.invisible[i] or M.intruder_ethereal[i]:
        return
    fl = M.floats
    moved, soft, liquid = M.walk_moved[t, i], M.walk_soft[t, i], M.walk_liquid[t, i]
    floured = 1 if W.floured[i] else 0
    for g in range(M.ints[I_G]):
        if not W.guard_alive[g] or W.aware[g, i] >= LOCATION:
            continue
        if not (awake(M, W, g) and M.guard_senses[g, SEE]):
            continue
        if M.guard_senses[g, SEEINV]:
            continue
        if not line_of_sight(M, W, W.gx[g], W.gy[g], W.ix[i], W.iy[i]):
            continue
        dx, dy = W.gx[g] - W.ix[i], W.gy[g] - W.iy[i]
        band = 0
        for r in range(M.ints[I_RADII]):
            if not hypot_below(dx, dy, fl[F_RADII + r], False):
                band += 1
        sign = M.signs[i, floured, moved, soft, liquid, band]
        if sign[0]:
            learn(M, W, g, i, sign[0], sign[1])
        elif prints and sign[2]:
            steps = min(hypot_steps(dx, dy, fl[F_SPOT_STEP]), M.footprints.shape[1] - 1)
            value = face(20, uniforms, ctx)
            state = M.footprints[g, steps, distracted(M, W, g), value - 1]
            if state:
                learn(M, W, g, i, state, M.ints[I_TRACKS_PIN])


@internal
def _senses(
    M: Arrays,
    W: Arrays,
    t: int,
    i: int,
    g: int,
    dark: bool,
    uniforms: np.ndarray,
    ctx: np.ndarray,
) -> bool:
    """``Dnd35Game._senses_dnd``: against an intruder it cannot see (invisible, or ``dark``
    for it), blindsight and scent; then Spot against an invisible one; True when g is to
    listen."""
    fl = M.floats
    liquid = M.walk_liquid[t, i]
    invisible = _hidden(M, W, i)
    reaches = M.reaches[i, liquid, W.invisible[i]]
    dx, dy = W.gx[g] - W.ix[i], W.gy[g] - W.iy[i]
    line = line_of_sight(M, W, W.gx[g], W.gy[g], W.ix[i], W.iy[i])
    if (invisible != 0 or dark) and line and hypot_below(dx, dy, fl[F_SENSE], False):
        if M.guard_senses[g, BLIND] and reaches[0] > 0:
            learn(M, W, g, i, reaches[0], reaches[6])
        if M.guard_senses[g, SCENT] and reaches[1] > 0:
            learn(M, W, g, i, reaches[1], reaches[7])
    if W.aware[g, i] >= LOCATION:
        return False
    if (
        invisible != 0
        and line
        and awake(M, W, g)
        and M.guard_senses[g, SEE]
        and hypot_below(dx, dy, fl[F_SPOT_RANGE], False)
        and reaches[2]
    ):
        kind = 0 if not M.breathing[i] else (1 if M.walk_moved[t, i] else 2)
        steps = hypot_steps(dx, dy, fl[F_SPOT_STEP])
        value = face(20, uniforms, ctx)
        state = M.spot[g, kind, steps, distracted(M, W, g), value - 1]
        if state:
            learn(M, W, g, i, state, M.ints[I_SPOT_PIN])
    if W.aware[g, i] >= LOCATION:
        return False
    noisy = W.noisy[i]
    heard = reaches[4] if noisy else reaches[3]
    return bool(M.guard_senses[g, HEAR] and heard and (noisy or M.walk_moved[t, i]))


@internal
def _hide(M: Arrays, W: Arrays, t: int, i: int, uniforms: np.ndarray, ctx: np.ndarray) -> None:
    """``Dnd35Game._hide_against_spot``: no Hide where it may not hide (a visible intruder out
    of cover: ``hide_refused``), and every seeing observer sees it; else one Hide d20 against
    each seeing observer's Spot d20, the higher result winning; a tie as ``hide_check``
    settles it (``hide_tie``: the hider, the observer, or both roll again until their dice
    differ) [DD-20]."""
    invisible = _hidden(M, W, i)
    if M.hide_refused[invisible, M.walk_cover[t, i]]:
        for g in range(M.ints[I_G]):
            if W.roles[g] == 2:
                learn(M, W, g, i, M.ints[I_REFUSED_STATE], NO_PIN)
        return
    speed = M.walk_speed[t, i]
    if W.fought[i]:
        speed = 2
    hider = M.hider[i, speed, invisible]
    result = face(20, uniforms, ctx) + hider
    for g in range(M.ints[I_G]):
        if W.roles[g] != 2:
            continue
        dx, dy = W.gx[g] - W.ix[i], W.gy[g] - W.iy[i]
        steps = min(hypot_steps(dx, dy, M.floats[F_HIDE_STEP]), M.spotter.shape[1] - 1)
        total = M.spotter[g, steps, invisible]
        spot = face(20, uniforms, ctx) + total
        tie = M.hide_tie[g, i, speed, steps, invisible]
        if spot != result:
            spots = spot > result
        elif tie != TIE_AGAIN:
            spots = tie == TIE_WINS
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
            learn(M, W, g, i, M.ints[I_HIDE_STATE], NO_PIN)


@inlined
def _perceive(M: Arrays, W: Arrays, t: int, i: int, uniforms: np.ndarray, ctx: np.ndarray) -> None:
    """Step 3 for intruder i: the signs (a Spot d20 on its footprints where they are looked
    for), Hide against Spot for the defenders that can see it (an invisible one: those that see
    invisible creatures; a visible one: the sighted, out of the dark for them), each other
    defender's senses, then one Listen for all (``Dnd35Game.perceive``; the listeners' cases
    are taken before any of them learns)."""
    _signs(M, W, t, i, PRINTS, uniforms, ctx)
    fl = M.floats
    n_g = M.ints[I_G]
    role = W.roles
    dark = W.in_dark
    invisible = _hidden(M, W, i)
    looked = not invisible and may_be_dark(M)
    is_lit = 0
    anyl = 0
    if looked:
        is_lit = 1 if lit(M, W, W.ix[i], W.iy[i]) else 0
        anyl = any_light(M, W)
    hiders = 0
    for g in range(n_g):
        role[g] = 0
        dark[g] = 0
        if not W.guard_alive[g] or W.aware[g, i] == OBSERVED:
            continue
        role[g] = 1
        if looked and dark_to(M, W, g, i, is_lit, anyl):
            dark[g] = 1
        if not (awake(M, W, g) and line_of_sight(M, W, W.gx[g], W.gy[g], W.ix[i], W.iy[i])):
            continue
        if invisible:
            sees = (
                M.guard_senses[g, SEEINV] != 0
                and M.reaches[i, M.walk_liquid[t, i], W.invisible[i], 5] != 0
            )
        else:
            sees = M.guard_senses[g, SEE] != 0 and dark[g] == 0
        if sees:
            role[g] = 2
            hiders += 1
    if hiders:
        _hide(M, W, t, i, uniforms, ctx)
    listeners = W.listeners
    n = 0
    for g in range(n_g):
        if role[g] != 1:
            continue
        if _senses(M, W, t, i, g, bool(dark[g]), uniforms, ctx):
            listeners[n] = g
            n += 1
    if n == 0:
        return
    speed = 3 if W.noisy[i] else M.walk_speed[t, i]
    cases = W.cases
    for k in range(n):
        g = listeners[k]
        dx, dy = W.gx[g] - W.ix[i], W.gy[g] - W.iy[i]
        cases[k, 0] = min(hypot_steps(dx, dy, fl[F_LISTEN_STEP]), M.listen_part.shape[2] - 1)
        cases[k, 1] = 1 if between(M, W, M.door_mask, g, i) else 0
        cases[k, 2] = 1 if between(M, W, M.stone_mask, g, i) else 0
        cases[k, 3] = distracted(M, W, g)
        cases[k, 4] = 0 if awake(M, W, g) else 1
    g0 = listeners[0]
    fixed = M.listen_fixed[
        g0, i, cases[0, 0], cases[0, 1], cases[0, 2], cases[0, 3], cases[0, 4], speed
    ]
    shared = 0 if fixed else face(20, uniforms, ctx)
    heard_from = M.ints[I_HEARD_FROM]
    for k in range(n):
        g = listeners[k]
        key = (g, i, cases[k, 0], cases[k, 1], cases[k, 2], cases[k, 3], cases[k, 4], speed)
        dc = M.listen_part[key] + shared
        bonus = M.listen_bonus[key]
        value = face(20, uniforms, ctx)
        cases[k, 5] = by_margin(M.heard, heard_from, value + bonus - dc)
    for k in range(n):
        learn(M, W, listeners[k], i, cases[k, 5], M.ints[I_LISTEN_PIN])


@internal
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
    """``Dnd35Game._grope`` of ``count`` squares (a, then b): the touch d20 (where the
    companion rule rolls it), on a touch the d100; found, the square; empty, a known square
    is forgotten."""
    sx, sy = square_of(W.ix[i]), square_of(W.iy[i])
    occupied = (sx == ax and sy == ay) or (count > 1 and sx == bx and sy == by)
    found = False
    # the touch attack's d20 first where the companion rule rolls one (I_GROPE_TOUCH)
    if not M.ints[I_GROPE_TOUCH] or M.touch[g, i, face(20, uniforms, ctx) - 1]:
        percent = face(100, uniforms, ctx)
        found = bool(M.connect[g, i, percent - 1]) and occupied
    if found:
        learn(M, W, g, i, M.ints[I_GROPE_STATE], M.ints[I_GROPE_PIN])
        return True
    if W.known_kind[g, i] != KNOWN_BEARING:
        W.known_kind[g, i] = KNOWN_NONE
    return False


@internal
def _throw_flour(
    M: Arrays,
    W: Arrays,
    t: int,
    g: int,
    i: int,
    px: float,
    py: float,
    uniforms: np.ndarray,
    ctx: np.ndarray,
) -> None:
    """``Dnd35Game._throw_flour`` at (px, py): covered (``flour_covers``), the intruder shows
    at once to the sighted (the signs again, not the footprints: no die); missed, the square
    is forgotten."""
    fl = M.floats
    W.flour_left[g] -= 1
    far = 0 if hypot_below(W.gx[g] - px, W.gy[g] - py, fl[F_FLOUR_RANGE], False) else 1
    wide = 0 if hypot_below(px - W.ix[i], py - W.iy[i], fl[F_FLOUR_BURST], False) else 1
    if M.covers[far, wide]:
        W.floured[i] = M.ints[I_FLOUR_ROUNDS]
        _signs(M, W, t, i, NO_PRINTS, uniforms, ctx)
    else:
        W.known_kind[g, i] = KNOWN_NONE


@internal
def _search(
    M: Arrays, W: Arrays, t: int, g: int, i: int, uniforms: np.ndarray, ctx: np.ndarray
) -> None:
    """``Dnd35Game.search``: what ``search.search`` says for what g knows of i's place."""
    plan = M.plan[W.known_kind[g, i]]
    if plan == SEARCH_SQUARE:
        sx, sy = W.known_square[g, i, 0], W.known_square[g, i, 1]
        px, py = centre(sx), centre(sy)
        close_in(M, W, g, px, py)
        x, y = W.gx[g], W.gy[g]
        if not line_of_sight(M, W, x, y, px, py):
            return
        gap = py_hypot(x - px, y - py)
        if W.flour_left[g] and gap <= M.floats[F_FLOUR_RANGE]:
            _throw_flour(M, W, t, g, i, px, py, uniforms, ctx)
        elif gap <= 5.0:
            way = M.toward[way_case(px - x, py - y)]  # the second square's offset
            bx, by = sx + way[0], sy + way[1]
            _grope(M, W, g, i, sx, sy, bx, by, BOTH_SQUARES, uniforms, ctx)
    elif plan == SEARCH_BEARING:
        degrees = W.known_bearing[g, i]
        ahead = M.ahead[bearing_case(degrees)]
        x, y = W.gx[g], W.gy[g]
        cx, cy = square_of(x), square_of(y)
        found = ZERO
        ax = ay = bx = by = ZERO
        for j in range(2):
            qx, qy = cx + ahead[j, 0], cy + ahead[j, 1]
            if on_map(M, centre(qx), centre(qy)) and line_of_sight(
                M, W, x, y, centre(qx), centre(qy)
            ):
                if found == 0:
                    ax, ay = qx, qy
                else:
                    bx, by = qx, qy
                found += 1
        if found and _grope(M, W, g, i, ax, ay, bx, by, found, uniforms, ctx):
            return
        step = min(M.floats[F_SEARCH_STEP], M.guard_move[g] - W.walked[g])
        if step <= 0:
            return
        angle = degrees * DEG_TO_RAD
        tx, ty = x + step * math.cos(angle), y + step * math.sin(angle)
        if not on_map(M, tx, ty) or not line_of_sight(M, W, x, y, tx, ty):
            return
        W.gx[g], W.gy[g] = tx, ty
        W.walked[g] += step


@inlined
def _defend(M: Arrays, W: Arrays, t: int, g: int, uniforms: np.ndarray, ctx: np.ndarray) -> None:
    """Step 5 for defender g, if living (``D20Game._defend``, ``_attack``): knowing less than
    a square, it searches; located, it closes in and strikes (:func:`closes_on`: an ethereal
    intruder is not physically there, DD-17); the miss chance where it located it only, or
    fights it by blindsight."""
    if not W.guard_alive[g]:
        return
    i, best = most_known(M, W, g)
    if i == NOBODY:
        return
    if best < LOCATION:
        _search(M, W, t, g, i, uniforms, ctx)
        return
    if not closes_on(M, W, g, i, best):
        return
    blind = 1 if M.guard_senses[g, BLIND] and unseen_by(M, W, g, i) else 0
    if not blow_hits(M, M.has_ac[i], M.hit[g, i, W.invisible[i]], uniforms, ctx):
        return
    if best == LOCATION or blind:
        liquid = M.walk_liquid[t, i]
        dice = M.miss_dice[g, i, liquid, blind]
        if dice and not spared(dice, M.spares[g, i, liquid, blind], uniforms, ctx):
            return
    lands(M, W, i)


@compiled
def play_runs(
    M: Arrays, W: Arrays, uniforms: np.ndarray, ctx: np.ndarray, first: int, last: int, out: Outputs
) -> int:
    """The D&D 3.5 runs ``first`` .. ``last - 1``, each to its end (``Game.play``) from the
    stream at ``ctx[C_POS]``, recorded into ``out`` (:func:`kept`); the first run not played
    (``last`` when all were). A run: the flour each defender carries, none on the intruders;
    then round by round the patrols, the walks and actions, each living intruder's perception,
    each defender's action, the flour falling off, the objective."""
    n_g, n_i = M.ints[I_G], M.ints[I_I]
    for r in range(first, last):
        for g in range(n_g):
            W.flour_left[g] = M.flour[g]
        for i in range(n_i):
            W.floured[i] = 0
        start_run(M, W, ctx)
        for t in range(M.ints[I_T]):
            begin_round(M, W, t, uniforms, ctx)
            _walks(M, W, t, uniforms, ctx)
            for i in range(n_i):
                if W.intruder_alive[i]:
                    _perceive(M, W, t, i, uniforms, ctx)
            for g in range(n_g):
                if W.scalars[S_OUTCOME] == 0:
                    _defend(M, W, t, g, uniforms, ctx)
            for i in range(n_i):
                if W.intruder_alive[i] and W.floured[i]:
                    left = W.floured[i]  # traits.flour_after_round: -1 stays until it falls
                    W.floured[i] = 0 if M.walk_liquid[t, i] else (left if left < 0 else left - 1)
            if round_over(M, W, t, ctx):
                break
        if not kept(M, W, r, ctx, out):
            return r
    return last
