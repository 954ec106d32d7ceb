"""What the compiled d20 kernels share: the round of :mod:`vigile.games.d20.round` that
names no game, compiled, and the arrays it reads.

The compiled half: the 5-ft grid, bearings, a float's ``%`` as the engine computes them, bit for
bit; lines of sight and barriers as the doors stand; what a defender learns
(``D20Game._learn``: its knowledge of the place, the alarm, the detections the tally counts);
the patrols; a defender closing in; the objective; the lights and darkness
(``D20Game._lit``, ``_dark_for``, ``_unseen_by``: whether a place is dark for a defender is a
table of :func:`vigile.rulesets.senses.dark_for`); an intruder turning invisible or visible
and one walking into the dark (``_set_invisible``, ``_into_the_dark``: what an observer keeps
is the game's, given); the intruders' blows and kills reaching only a living victim (a killed
defender patrols, perceives, acts and hears the alarm no more). Each game's kernel
(:mod:`vigile.games.dnd35.kernel.play`, :mod:`vigile.games.starfinder.kernel.play`) plays its
perception and its blows around them, on a model whose fields begin with
:data:`MODEL_FIELDS` (built by :func:`prefix`) and a run's state whose fields begin with
:data:`STATE_FIELDS` (named tuples: :func:`model_type`, :func:`state_type`).
The exact tests (``tests/test_kernel_d20_equivalence.py``) hold them to the engine. What a
round calls for each intruder, op or defender (:func:`walk_to`, :func:`act`,
:func:`most_known`, :func:`closes_on`, :func:`blow_hits`, the round's frame) is inlined
(:func:`~vigile.sim.kernel.geometry.inlined`), as each game's phases are: passing the model's
arrays at each call costs more than their work.

The Python half (:func:`schedule`, :func:`prefix`): the walls and the barriers in every way the
named doors can stand in a run (:func:`door_states`: a few, however many the doors), the
defenders, the lights, and the intruders' walk round by round, played once by the game's own
engine class (their walk does not depend on chance while they live).

Nothing here is a rule of a game: a square is ``floor(x / 5)`` (the engine's grid), a bearing
is ``degrees(atan2(dy, dx)) % 360`` as the engine remembers one, and a float's ``%`` is
Python's. Where a rule reads a way, a bearing or a roll's margin only through a few cases, the
kernel computes the case (:func:`way_case`, :func:`bearing_case`, :func:`by_margin`) and a
game's table, filled by calling the rule with one representative of each case, says what the
rule gives: which squares a defender gropes (:mod:`vigile.rulesets.dnd35.search`), who wins
a roll's tie.
"""

from __future__ import annotations

import math
from collections import namedtuple
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple, cast

import numpy as np

from vigile.sim.kernel.blocks import (
    Blocks,
    Runs,
    heat_scale,
    record_detections,
    record_end,
    tally,
)
from vigile.sim.kernel.dice import C_POS, C_STATUS, draw, face
from vigile.sim.kernel.geometry import (
    NOBODY,
    ZERO,
    compiled,
    crossings,
    hypot_below,
    inlined,
    internal,
    py_hypot,
    sees,
    trace_unit,
)
from vigile.sim.kernel.grid import bordered, chains, entries
from vigile.sim.tally import HEAT_BINS, Tally

Arrays = Any
"""A game's model (``M``: a named tuple of :func:`model_type`) or a run's state (``W``:
:func:`state_type`'s): numba resolves each field when the kernel is compiled."""
Array = np.ndarray[Any, Any]
TWO_PI = 2.0 * math.pi
UNAWARE, PRESENCE, DIRECTION, LOCATION, OBSERVED = range(5)
"""The awareness ladder's ranks (:class:`vigile.awareness.ladder.AwarenessState`)."""
KNOWN_NONE, KNOWN_SQUARE, KNOWN_BEARING = range(3)
"""What a defender knows of an intruder's place: nothing, a square, a bearing."""

PREFIX = [
    "x1",
    "y1",
    "x2",
    "y2",
    "normal_x",
    "normal_y",
    "has_normal",
    "sight_mask",
    "door_mask",
    "stone_mask",
    "movers",
    "mover_count",
    "walk_x",
    "walk_y",
    "walk_moved",
    "walk_shifted",
    "walk_speed",
    "walk_soft",
    "walk_liquid",
    "walk_inside",
    "walk_door_ops",
    "walk_op_start",
    "guard_start_x",
    "guard_start_y",
    "guard_move",
    "guard_alert",
    "guard_asleep",
    "guard_distracted",
    "guard_senses",
    "named",
    "endings",
    "walk_noisy",
    "walk_fought",
    "walk_cover",
    "walk_lost_cover",
    "intruder_start_x",
    "intruder_start_y",
    "door_next",
    "light_x",
    "light_y",
    "light_r",
    "carried",
    "carried_r",
    "light_n",
    "dark",
    "dark_to",
    "dark_range",
    "intruder_ethereal",
    "intruder_invisible",
    "guard_ethereal",
    "blow",
    "walk_reach",
    "walk_op_at",
    "guard_ac",
]
"""The model's shared arrays, by name: :func:`prefix` builds them. ``walk_reach[i]``: how far
intruder i's blow reaches, in melee and shooting (``Game.blow_reach``, LP-7); ``walk_op_at[k]``:
the point the k-th op aims at (an attack on a named square's), else 0; ``guard_ac[g]``:
defender g has an ``ac`` (an intruder's blow on it rolls a d20)."""
MODEL_FIELDS = ["floats", "ints", *PREFIX]
"""The fields every d20 model begins with (:func:`model_type`): the floats and ints (``F_*``,
``I_*``: the shared ones first, the game's after), then :data:`PREFIX`."""
STATE_FIELDS = [
    "gx",
    "gy",
    "alert",
    "walked",
    "aware",
    "known_kind",
    "known_square",
    "known_bearing",
    "pin",
    "intruder_alive",
    "pairs",
    "scalars",
    "heat_x",
    "heat_y",
    "candidates",
    "scratch",
    "listeners",
    "cases",
    "ix",
    "iy",
    "guard_alive",
    "invisible",
    "noisy",
    "fought",
]
"""The fields every run's state begins with (:func:`state`, :func:`state_type`): where each
defender stands, its alert, how far it walked this round; what each defender knows of each
intruder (its rank on the ladder, the kind of place it knows, the square, the bearing, the rule
that pinned the square for the moment); each intruder free; the pairs that detected, the
scalars (``S_*``), where each detection was; ``candidates``: the entries of every wall (a
straight wall's pieces in runs, :func:`vigile.sim.kernel.grid.entries`), which a line of sight
or a count of walls tries, and the scratch it counts in; the listeners of a perception and
each one's cases; where each intruder stands; a defender still in the game (not killed); an
intruder invisible now (cast or ended since the start); an intruder that fought or spoke this
round, fought this round (DD-5, DD-20)."""
# blow: the house rules of a blow (LP-7 [R])
B_ENDS, B_NO_AC = range(2)
# floats: those every game has first
F_W, F_H, F_MARGIN, F_CLOSE = range(4)
# ints: those every game has at these places
I_G, I_I, I_T, I_M, I_BOUNCES = range(5)
I_DOORS0, I_HAS_OBJ, I_ANY = 6, 8, 9
# guard_senses
SEE, HEAR, SCENT, BLIND, PATROL, SEEINV, BLIND_ATTACK, BLINDSENSE, DARKVISION = range(9)
# endings: the tally's codes
E_UNSEEN, E_DETECTED, E_ALARM, E_TURN_LIMIT, E_CAUGHT = range(5)
# scalars
S_TURN, S_EVER, S_FIRST, S_ALARM, S_OUTCOME, S_END, S_HEAT, S_DOORS, S_ALARM_BY, S_START = range(10)
"""``S_START``: the run's first uniform (where the stream goes back to when it stops early)."""
OP_DOOR, OP_VANISH, OP_STRIKE, OP_SQUARE, OP_SNIPE, OP_KILL, OP_APPEAR = range(7)
"""What an intruder does on its walk (:func:`schedule`'s ops: kind and three numbers)."""
MOST_DOOR_STATES = 1024
"""Most ways the named doors can stand in a run that the model keeps (:func:`door_states`)."""
SPEED_HALF, SPEED_FULL, SPEED_RUN = range(3)


SQUARE = 5.0
"""A square's side (:data:`vigile.games.d20.round.SQUARE_FT`)."""
RAD_TO_DEG = 180.0 / math.pi
"""CPython's ``radToDeg``: ``math.degrees(x)`` is ``x * RAD_TO_DEG``."""
DEG_TO_RAD = math.pi / 180.0
"""CPython's ``degToRad``: ``math.radians(x)`` is ``x * DEG_TO_RAD``."""
ROUNDED = 5e-10
"""Half the last digit that ``round(degrees, 9)`` keeps."""


@compiled
def py_mod(x: float, y: float) -> float:
    """Python's float ``x % y`` (``float_rem``)."""
    mod = float(np.fmod(x, y))  # C's fmod, as CPython's float_rem calls it
    if mod != 0.0:
        if (y < 0.0) != (mod < 0.0):
            mod += y
    else:
        mod = math.copysign(0.0, y)
    return mod


@compiled
def square_of(v: float) -> int:
    """The column (or row) of the 5-ft square holding coordinate ``v``
    (:func:`vigile.games.d20.round.square_of`)."""
    return math.floor(v / SQUARE)


@compiled
def centre(s: int) -> float:
    """The centre of column (or row) ``s`` (:func:`vigile.games.d20.round.centre_of`)."""
    return (s + 0.5) * SQUARE


@compiled
def adjacent(ax: float, ay: float, bx: float, by: float) -> bool:
    """The same or a neighbouring square (:func:`vigile.games.d20.round.adjacent`)."""
    return max(abs(square_of(ax) - square_of(bx)), abs(square_of(ay) - square_of(by))) <= 1


@compiled
def bearing(fx: float, fy: float, tx: float, ty: float) -> float:
    """The bearing from (fx, fy) to (tx, ty) in degrees, as the engine remembers a direction
    (``math.degrees(math.atan2(dy, dx)) % 360.0``)."""
    return py_mod(math.atan2(ty - fy, tx - fx) * RAD_TO_DEG, 360.0)


BEARING_CASES = 16
""":func:`bearing_case`'s cases."""


@compiled
def bearing_case(degrees: float) -> int:
    """Where a bearing points among the eight neighbouring squares' directions (k × 45°): 2k
    straight at the k-th, 2k + 1 strictly between the k-th and the next counter-clockwise.
    "Straight at" is to 9 digits of a degree (``round(degrees % 360, 9)``, as a bearing is
    compared in :func:`vigile.rulesets.dnd35.search.squares_ahead`): ``round`` moves a bearing
    by at most :data:`ROUNDED`, so within it of a multiple of 45° is on it."""
    turned = py_mod(degrees, 360.0)
    nearest = math.floor(turned / 45.0 + 0.5) * 45.0
    if abs(turned - nearest) < ROUNDED:
        return 2 * (int(nearest / 45.0) % 8)
    return 2 * (math.floor(turned / 45.0) % 8) + 1


WAY_CASES = 27
""":func:`way_case`'s cases."""


@compiled
def _sign_case(v: float) -> int:
    return 0 if v < 0.0 else (1 if v == 0.0 else 2)


@compiled
def way_case(dx: float, dy: float) -> int:
    """A way (dx, dy) by how its two lengths compare (|dx| below, equal to, above |dy|) and
    the sign of each (below, equal to, above 0): ``9 * compared + 3 * sign(dx) + sign(dy)``."""
    ax, ay = abs(dx), abs(dy)
    compared = 0 if ax < ay else (1 if ax == ay else 2)
    return 9 * compared + 3 * _sign_case(dx) + _sign_case(dy)


@compiled
def by_margin(table: np.ndarray, lowest: int, margin: int) -> int:
    """What a roll beating its DC by ``margin`` gives (a game's table from ``lowest`` up): a
    margin beyond the table's ends reads its end (the rule reads a margin only against a few
    thresholds, all within it)."""
    return int(table[min(max(margin, lowest), lowest + table.shape[0] - 1) - lowest])


TIE_LOSES, TIE_WINS, TIE_AGAIN = range(3)
"""Who wins an opposed roll's tie, for the one who rolls against the other (an observer
against a hider): a game's table says, from its rule."""


@internal
def line_of_sight(M: Arrays, W: Arrays, ax: float, ay: float, bx: float, by: float) -> bool:
    """A line of sight, the doors as they stand (``Board.sees``)."""
    return sees(
        ax,
        ay,
        bx,
        by,
        M.x1,
        M.y1,
        M.x2,
        M.y2,
        M.sight_mask[W.scalars[S_DOORS]],
        W.candidates,
        W.candidates.shape[0],
    )


@internal
def between(M: Arrays, W: Arrays, masks: np.ndarray, g: int, i: int) -> bool:
    """A barrier of ``masks`` (``M.door_mask``: a closed door, window or partition;
    ``M.stone_mask``: a stone wall) between defender g and intruder i (``D20Game._between``)."""
    mask = masks[W.scalars[S_DOORS]]
    return (
        crossings(
            W.gx[g],
            W.gy[g],
            W.ix[i],
            W.iy[i],
            M.x1,
            M.y1,
            M.x2,
            M.y2,
            mask,
            W.candidates,
            W.candidates.shape[0],
            W.scratch,
        )
        > 0
    )


@internal
def awake(M: Arrays, W: Arrays, g: int) -> bool:
    """Not asleep, or woken by the alarm (``awake``)."""
    return not (M.guard_asleep[g] and not W.alert[g])


@internal
def distracted(M: Arrays, W: Arrays, g: int) -> int:
    """Distracted until the alarm (``distracted``)."""
    return 1 if M.guard_distracted[g] and not W.alert[g] else 0


NO_PIN = ZERO
"""``pin`` for :func:`learn` and its kin: no rule pinned the square (int64, not a literal 0:
:data:`vigile.sim.kernel.geometry.ZERO`)."""
VISIBLE, INVISIBLE = ZERO, cast(int, np.int64(1))
"""``on`` for :func:`set_invisible`, typed so as well."""


@internal
def learn(M: Arrays, W: Arrays, g: int, i: int, state: int, pin: int) -> None:
    """``D20Game._learn``: what defender g now knows of where intruder i is (``_remember``),
    the square pinned for the moment (``pin``), the state raised; a first location raises the
    alarm. A new location or sight of a pair is a detection (the tally's)."""
    if state == UNAWARE:
        return
    aware = W.aware
    if state >= LOCATION:
        W.known_kind[g, i] = KNOWN_SQUARE
        W.known_square[g, i, 0] = square_of(W.ix[i])
        W.known_square[g, i, 1] = square_of(W.iy[i])
    elif state == DIRECTION and aware[g, i] < LOCATION:
        W.known_kind[g, i] = KNOWN_BEARING
        W.known_bearing[g, i] = bearing(W.gx[g], W.gy[g], W.ix[i], W.iy[i])
    if state == LOCATION and pin > 0:
        if aware[g, i] != OBSERVED:
            W.pin[g, i] = pin
    elif state >= LOCATION:
        W.pin[g, i] = 0
    if state <= aware[g, i]:
        return
    aware[g, i] = state
    if state < LOCATION:
        return
    sc = W.scalars
    sc[S_EVER] = 1
    if sc[S_FIRST] == 0:
        sc[S_FIRST] = sc[S_TURN]
    if not W.pairs[g, i]:
        W.pairs[g, i] = True
        h = sc[S_HEAT]
        W.heat_x[h] = W.ix[i]
        W.heat_y[h] = W.iy[i]
        sc[S_HEAT] = h + 1
    if sc[S_ALARM] == 0:
        sc[S_ALARM] = sc[S_TURN]
        sc[S_ALARM_BY] = g
        for h in range(M.ints[I_G]):
            if W.guard_alive[h]:
                W.alert[h] = 1


@internal
def patrols(M: Arrays, W: Arrays, uniforms: np.ndarray, ctx: np.ndarray) -> None:
    """Step 1 (``D20Game._patrols``)."""
    fl = M.floats
    doors = W.scalars[S_DOORS]
    for g in range(M.ints[I_G]):
        if not M.guard_senses[g, PATROL] or not W.guard_alive[g]:
            continue
        pursues = False
        for i in range(M.ints[I_I]):
            if W.intruder_alive[i] and W.aware[g, i] != UNAWARE:
                pursues = True
        if pursues:
            continue
        angle = TWO_PI * draw(uniforms, ctx)
        length = M.guard_move[g] / 2
        x, y = W.gx[g], W.gy[g]
        nx, ny = trace_unit(  # as the engine's board moves a patrol (``trace_along``)
            x,
            y,
            math.cos(angle),
            math.sin(angle),
            length,
            M.x1,
            M.y1,
            M.x2,
            M.y2,
            M.normal_x,
            M.normal_y,
            M.has_normal,
            M.movers[doors],
            M.mover_count[doors],
            fl[F_W],
            fl[F_H],
            M.ints[I_BOUNCES],
            fl[F_MARGIN],
        )
        W.walked[g] = py_hypot(x - nx, y - ny)
        W.gx[g], W.gy[g] = nx, ny


@internal
def close_in(M: Arrays, W: Arrays, g: int, px: float, py: float) -> None:
    """``D20Game._close_in``."""
    x, y = W.gx[g], W.gy[g]
    gap = py_hypot(x - px, y - py)
    budget = M.guard_move[g] - W.walked[g]
    close = M.floats[F_CLOSE]
    if gap <= close or budget <= 0:
        return
    step = min(budget, gap - close)
    tx = x + (px - x) * step / gap
    ty = y + (py - y) * step / gap
    if not line_of_sight(M, W, x, y, tx, ty):
        return
    W.gx[g], W.gy[g] = tx, ty
    W.walked[g] += step


@internal
def on_map(M: Arrays, x: float, y: float) -> bool:
    return bool(0 <= x <= M.floats[F_W] and 0 <= y <= M.floats[F_H])


@internal
def objective(M: Arrays, W: Arrays, t: int) -> None:
    """Step 6 (``Game._objective``, ``reached_by``)."""
    if not M.ints[I_HAS_OBJ]:
        return
    some = False
    every = True
    for i in range(M.ints[I_I]):
        if M.named[i]:
            inside = bool(W.intruder_alive[i]) and bool(M.walk_inside[t, i])
            some = some or inside
            every = every and inside
    if some if M.ints[I_ANY] else every:
        sc = W.scalars
        code = M.endings[E_DETECTED] if sc[S_EVER] else M.endings[E_UNSEEN]
        sc[S_OUTCOME] = code + 1
        sc[S_END] = sc[S_TURN]


@internal
def start_run(M: Arrays, W: Arrays, ctx: np.ndarray) -> None:
    """A run's state at its start (``D20Game.__init__``): the defenders where the scenario
    puts them, knowing nothing; every intruder free; the doors as they stand; the stream's
    place kept (:func:`kept`)."""
    sc = W.scalars
    for k in range(sc.shape[0]):
        sc[k] = 0
    sc[S_DOORS] = M.ints[I_DOORS0]
    sc[S_START] = ctx[C_POS]
    for g in range(M.ints[I_G]):
        W.gx[g] = M.guard_start_x[g]
        W.gy[g] = M.guard_start_y[g]
        W.alert[g] = M.guard_alert[g]
        W.guard_alive[g] = 1
        for i in range(M.ints[I_I]):
            W.aware[g, i] = UNAWARE
            W.known_kind[g, i] = KNOWN_NONE
            W.pin[g, i] = 0
            W.pairs[g, i] = False
    for i in range(M.ints[I_I]):
        W.intruder_alive[i] = 1
        W.ix[i] = M.intruder_start_x[i]
        W.iy[i] = M.intruder_start_y[i]
        W.invisible[i] = M.intruder_invisible[i]
        W.noisy[i] = 0
        W.fought[i] = 0


@internal
def door(M: Arrays, W: Arrays, k: int, is_open: int) -> None:
    """The k-th named door opened or closed (``Game._door``): the doors' state moves to the
    row of :func:`door_states` where they stand so."""
    W.scalars[S_DOORS] = M.door_next[W.scalars[S_DOORS], k, is_open]


@inlined
def begin_round(M: Arrays, W: Arrays, t: int, uniforms: np.ndarray, ctx: np.ndarray) -> None:
    """Round t + 1 begins: no defender has walked yet; step 1, the patrols."""
    W.scalars[S_TURN] = t + 1
    for g in range(M.ints[I_G]):
        W.walked[g] = 0.0
    patrols(M, W, uniforms, ctx)


@inlined
def round_over(M: Arrays, W: Arrays, t: int, ctx: np.ndarray) -> bool:
    """The round's last step, the objective, while the game goes on; True when the run is over,
    or stopped (the stream ran out: :func:`kept`)."""
    sc = W.scalars
    if sc[S_OUTCOME] == 0:
        objective(M, W, t)
    return bool(ctx[C_STATUS] or sc[S_OUTCOME])


@inlined
def walk_to(M: Arrays, W: Arrays, t: int, i: int, lost: np.ndarray, state: int, pin: int) -> None:
    """Living intruder i where its plan takes it in round t (``D20Game._walk``). It has spoken
    as far as its plan's words say (the schedule's; a blow or a kill adds to it when its victim
    is still alive and in reach, :func:`strike_lands`, an attack on a square when in reach,
    :func:`square_lands`). Moved to another square, each defender that located it only for
    the moment (``W.pin``: the rule that pinned it) keeps what ``lost[rule]`` leaves
    (``_unpin``, LP-2), and, visible, each whose darkvision does not reach it keeps what
    ``state`` and ``pin`` say (:func:`into_the_dark`)."""
    W.noisy[i] = M.walk_noisy[t, i]
    W.fought[i] = M.walk_fought[t, i]
    W.ix[i] = M.walk_x[t, i]
    W.iy[i] = M.walk_y[t, i]
    if not M.walk_shifted[t, i]:
        return
    for g in range(M.ints[I_G]):
        rule = W.pin[g, i]
        if rule > 0:
            W.pin[g, i] = 0
            if W.aware[g, i] == LOCATION:
                W.aware[g, i] = lost[rule]
    into_the_dark(M, W, i, state, pin)


@inlined
def act(
    M: Arrays,
    W: Arrays,
    i: int,
    k: int,
    state: int,
    pin: int,
    uniforms: np.ndarray,
    ctx: np.ndarray,
) -> int:
    """Intruder i's op k as every d20 game plays it (``D20Game.act``): a door opened or closed,
    invisibility cast or ended (``state``, ``pin``: :func:`set_invisible`), a kill, a blow
    (:func:`strike_lands`; the attack roll's d20 on a defender with an ``ac``: hit or miss,
    the victim learns of the blow, and nothing the kernel keeps depends on it). Returns the
    defender a blow landed on (its game says what it learns), else :data:`NOBODY`; a game's
    own op does nothing here."""
    ops = M.walk_door_ops
    kind, a, b = ops[k, 0], ops[k, 1], ops[k, 2]
    if kind == OP_DOOR:
        door(M, W, a, b)
    elif kind == OP_VANISH:
        set_invisible(M, W, i, INVISIBLE, state, pin)
    elif kind == OP_APPEAR:
        set_invisible(M, W, i, VISIBLE, state, pin)
    elif kind == OP_STRIKE:
        if strike_lands(M, W, i, a, b):
            if M.guard_ac[a]:
                face(20, uniforms, ctx)
            return int(a)
    elif kind == OP_KILL and strike_lands(M, W, i, a, b):
        W.guard_alive[a] = 0
    return NOBODY


@inlined
def most_known(M: Arrays, W: Arrays, g: int) -> tuple[int, int]:
    """The living intruder defender g knows most about (the first of those it knows as much
    about), and its rank on the ladder (``D20Game._defend``); :data:`NOBODY` for none."""
    target = NOBODY
    best = UNAWARE
    for i in range(M.ints[I_I]):
        if W.intruder_alive[i] and W.aware[g, i] > best:
            best = W.aware[g, i]
            target = i
    return target, best


@inlined
def closes_on(M: Arrays, W: Arrays, g: int, i: int, best: int) -> bool:
    """Defender g, which located intruder i (``best``: observed or a square), closes in on it
    (``D20Game._defend``): on where it stands if observed, else on its square's centre. True
    when it may strike: i not ethereal (not physically there, DD-17 [engine]), in the next
    square and in a line of sight."""
    if M.intruder_ethereal[i]:
        return False
    if best == OBSERVED:
        px, py = W.ix[i], W.iy[i]
    else:
        px, py = centre(square_of(W.ix[i])), centre(square_of(W.iy[i]))
    close_in(M, W, g, px, py)
    x, y = W.gx[g], W.gy[g]
    return adjacent(x, y, W.ix[i], W.iy[i]) and line_of_sight(M, W, x, y, W.ix[i], W.iy[i])


@inlined
def blow_hits(
    M: Arrays, has_ac: int, hits: np.ndarray, uniforms: np.ndarray, ctx: np.ndarray
) -> bool:
    """A defender's attack roll (``D20Game._roll_to_hit``): against an intruder with an ``ac``
    its d20, read in ``hits`` (the game's table of the faces that hit); without, no roll
    (:func:`no_roll_hits`)."""
    if has_ac:
        return bool(hits[face(20, uniforms, ctx) - 1])
    return no_roll_hits(M)


@internal
def spared(dice: int, spares: np.ndarray, uniforms: np.ndarray, ctx: np.ndarray) -> bool:
    """The miss chance's ``dice`` d100s, all rolled: the blow lands when one of them
    ``spares`` it (the game's table by face)."""
    landed = False
    for _ in range(dice):
        if spares[face(100, uniforms, ctx) - 1]:
            landed = True
    return landed


@internal
def reaches(M: Arrays, W: Arrays, i: int, px: float, py: float, ranged: int) -> bool:
    """Intruder i's blow reaches (px, py) now (``Game._check_reach``, LP-7): a shot within its
    range (``math.hypot``) and in a line of sight; a melee blow within its reach counted in
    squares (``D20Game.blow_distance``: diagonals as one) and no wall, closed door or partition
    between (``Board.blocks_walker``: on a d20 board what blocks a walker is what blocks sight,
    :func:`prefix` checks it, so a line of sight). The distance against the reach as the engine
    compares them, ``gap > reach + 1e-9`` refused."""
    x, y = W.ix[i], W.iy[i]
    if ranged:
        if not hypot_below(x - px, y - py, M.walk_reach[i, 1] + 1e-9, False):
            return False
    else:
        squares = max(abs(square_of(x) - square_of(px)), abs(square_of(y) - square_of(py)))
        if SQUARE * squares > M.walk_reach[i, 0] + 1e-9:
            return False
    return line_of_sight(M, W, x, y, px, py)


@internal
def strike_lands(M: Arrays, W: Arrays, i: int, g: int, ranged: int) -> bool:
    """Intruder i strikes, kills or shoots defender g (``D20Game.act``): nothing happens to a
    dead victim; one out of its reach is not struck (``Game._blow_refused``, LP-7: where it
    stands now, :func:`reaches`); else the blow is noisy and an attack (DD-5, DD-20). True
    when it lands."""
    if not W.guard_alive[g] or not reaches(M, W, i, W.gx[g], W.gy[g], ranged):
        return False
    W.noisy[i] = 1
    W.fought[i] = 1
    return True


@internal
def square_lands(M: Arrays, W: Arrays, i: int, k: int, ranged: int) -> bool:
    """Intruder i's attack on the named square of op k (DD-9) is made: within its reach of the
    op's point (``OP_AT``, LP-7, :func:`reaches`); then it is noisy and an attack whatever it
    finds there (DD-5, DD-20)."""
    if not reaches(M, W, i, M.walk_op_at[k, 0], M.walk_op_at[k, 1], ranged):
        return False
    W.noisy[i] = 1
    W.fought[i] = 1
    return True


@internal
def hidden_from(M: Arrays, W: Arrays, g: int, i: int) -> bool:
    """Intruder i is invisible (or ethereal) to defender g, which does not see invisible
    creatures (``hidden_from``)."""
    return bool((W.invisible[i] or M.intruder_ethereal[i]) and not M.guard_senses[g, SEEINV])


@internal
def lit(M: Arrays, W: Arrays, x: float, y: float) -> bool:
    """A light reaches (x, y) (``D20Game._lit``): one of the scenario's within its radius and
    in sight (``Board.lit``), or one a living creature carries (within its radius, in sight)."""
    n = M.light_n
    for k in range(n[0]):
        dx, dy = x - M.light_x[k], y - M.light_y[k]
        if dx * dx + dy * dy <= M.light_r[k] * M.light_r[k] and line_of_sight(
            M, W, M.light_x[k], M.light_y[k], x, y
        ):
            return True
    for k in range(n[1]):
        side, j = M.carried[k, 0], M.carried[k, 1]
        if side == 0:
            cx, cy, alive = W.gx[j], W.gy[j], bool(W.guard_alive[j])
        else:
            cx, cy, alive = W.ix[j], W.iy[j], bool(W.intruder_alive[j])
        if (
            alive
            and hypot_below(cx - x, cy - y, M.carried_r[k], False)
            and line_of_sight(M, W, cx, cy, x, y)
        ):
            return True
    return False


@internal
def any_light(M: Arrays, W: Arrays) -> int:
    """A light on the board: the scenario's, or one a living creature carries."""
    n = M.light_n
    if n[0]:
        return 1
    for k in range(n[1]):
        side, j = M.carried[k, 0], M.carried[k, 1]
        if (side == 0 and W.guard_alive[j]) or (side == 1 and W.intruder_alive[j]):
            return 1
    return 0


@internal
def may_be_dark(M: Arrays) -> bool:
    """Some unlit place may be dark (the table of ``senses.dark_for``: by day, with the
    companion rule off, never): else no light need be looked for."""
    return bool(M.dark[0, 0] or M.dark[0, 1])


@internal
def dark_to(M: Arrays, W: Arrays, g: int, i: int, is_lit: int, anyl: int) -> bool:
    """Intruder i is in darkness beyond defender g's darkvision (``D20Game._dark_for``), the
    light on its place and on the board given."""
    dx, dy = W.gx[g] - W.ix[i], W.gy[g] - W.iy[i]
    reach = M.dark_range[0]
    band = 0 if hypot_below(dx, dy, reach, True) else 1 if hypot_below(dx, dy, reach, False) else 2
    return bool(M.dark_to[g, is_lit, anyl, band])


@internal
def dark_for(M: Arrays, W: Arrays, g: int, i: int) -> bool:
    """:func:`dark_to`, the lights looked for now (none where no place may be dark)."""
    if not may_be_dark(M):
        return False
    is_lit = 1 if lit(M, W, W.ix[i], W.iy[i]) else 0
    return dark_to(M, W, g, i, is_lit, any_light(M, W))


@internal
def unseen_by(M: Arrays, W: Arrays, g: int, i: int) -> bool:
    """Defender g cannot see intruder i (``D20Game._unseen_by``): hidden from it, or in
    darkness beyond its darkvision."""
    return hidden_from(M, W, g, i) or dark_for(M, W, g, i)


@internal
def vanish(M: Arrays, W: Arrays, g: int, i: int, state: int, pin: int) -> None:
    """Defender g, which observed intruder i, no longer sees it and keeps what its game keeps
    of one that vanished (``state``: D&D 3.5's square until it moves, ``pin``)
    (``D20Game._set_invisible``, ``_into_the_dark``)."""
    W.aware[g, i] = state
    W.known_kind[g, i] = KNOWN_SQUARE
    W.known_square[g, i, 0] = square_of(W.ix[i])
    W.known_square[g, i, 1] = square_of(W.iy[i])
    if pin:
        W.pin[g, i] = pin


@internal
def set_invisible(M: Arrays, W: Arrays, i: int, on: int, state: int, pin: int) -> None:
    """Intruder i becomes invisible (or visible) from now on (``D20Game._set_invisible``):
    each living defender that observed it and now cannot see it keeps what :func:`vanish`
    keeps; one that can see it again finds it by the next perception step."""
    W.invisible[i] = on
    if not on:
        return
    for g in range(M.ints[I_G]):
        if W.guard_alive[g] and W.aware[g, i] == OBSERVED and hidden_from(M, W, g, i):
            vanish(M, W, g, i, state, pin)


@internal
def into_the_dark(M: Arrays, W: Arrays, i: int, state: int, pin: int) -> None:
    """Visible intruder i walked (``D20Game._into_the_dark``): each living defender that
    observed it and whose darkvision does not reach it keeps what :func:`vanish` keeps."""
    if W.invisible[i] or not may_be_dark(M):
        return
    is_lit = -1
    anyl = 0
    for g in range(M.ints[I_G]):
        if not W.guard_alive[g] or W.aware[g, i] != OBSERVED:
            continue
        if is_lit < 0:
            is_lit = 1 if lit(M, W, W.ix[i], W.iy[i]) else 0
            anyl = any_light(M, W)
        if dark_to(M, W, g, i, is_lit, anyl):
            vanish(M, W, g, i, state, pin)


@internal
def lands(M: Arrays, W: Arrays, i: int) -> None:
    """A defender's hit on intruder i that nothing stopped (``D20Game._hit``, LP-7 [R]): the
    kernel plays no hit points, so it catches the intruder only where one blow ends the
    encounter (``blow.ends_encounter``); otherwise it changes nothing the run keeps."""
    if M.blow[B_ENDS]:
        caught(M, W, i)


@internal
def no_roll_hits(M: Arrays) -> bool:
    """Against an intruder without ``ac``, a blow hits (``blow.hits_without_ac``, LP-7 [R];
    ``D20Game._roll_to_hit``)."""
    return bool(M.blow[B_NO_AC])


@internal
def caught(M: Arrays, W: Arrays, i: int) -> None:
    """Intruder i is caught (``D20Game._attack``); the last one ends the game (``detected``)."""
    W.intruder_alive[i] = 0
    for j in range(M.ints[I_I]):
        if W.intruder_alive[j]:
            return
    W.scalars[S_OUTCOME] = M.endings[E_CAUGHT] + 1
    W.scalars[S_END] = W.scalars[S_TURN]


@internal
def end_run(M: Arrays, W: Arrays) -> None:
    """At the round limit (``D20Game._unfinished``): the alarm, on its round, else the limit."""
    sc = W.scalars
    if sc[S_OUTCOME] == 0:
        if sc[S_ALARM]:
            sc[S_OUTCOME] = M.endings[E_ALARM] + 1
            sc[S_END] = sc[S_ALARM]
        else:
            sc[S_OUTCOME] = M.endings[E_TURN_LIMIT] + 1
            sc[S_END] = sc[S_TURN]


class Outputs(NamedTuple):
    """What each run's end is recorded into (:func:`kept`), by run: how it ended, the tally's
    code (:data:`vigile.sim.tally.CODE`); the turn it ended; the turn of its first detection
    (0: none); ``pairs[r, g, i]``: defender g located or saw intruder i; the intruders still
    free, the defenders on alert, and what each defender knew of each intruder (its rank on
    the ladder) at the end; and the heat grid of where the detections were (``heat_scale``:
    its cells per unit, :func:`vigile.sim.kernel.blocks.heat_scale`)."""

    outcome: np.ndarray
    end: np.ndarray
    first_seen: np.ndarray
    pairs: np.ndarray
    alive: np.ndarray
    alert: np.ndarray
    aware: np.ndarray
    heat: np.ndarray
    heat_scale: np.ndarray


@internal
def kept(M: Arrays, W: Arrays, r: int, ctx: np.ndarray, out: Outputs) -> bool:
    """Run r, played, recorded into ``out`` (``KernelRound.trace``, ``play``): the ending and the
    detections as every kernel records them (:mod:`vigile.sim.kernel.blocks`; the ending is
    kept one up in ``S_OUTCOME``), then the intruders free, the defenders on alert, and what
    each defender knew of each intruder. A run that stopped early (``ctx[C_STATUS]``: the
    stream ran out) is not: the stream goes back to its first uniform, and False. A run that
    reached the round limit ends there first (:func:`end_run`)."""
    sc = W.scalars
    if ctx[C_STATUS]:
        ctx[C_POS] = sc[S_START]
        return False
    end_run(M, W)
    record_end(r, sc[S_OUTCOME] - 1, sc[S_END], sc[S_FIRST], out.outcome, out.end, out.first_seen)
    for i in range(M.ints[I_I]):
        out.alive[r, i] = W.intruder_alive[i]
    for g in range(M.ints[I_G]):
        out.alert[r, g] = W.alert[g]
        for i in range(M.ints[I_I]):
            out.aware[r, g, i] = W.aware[g, i]
    record_detections(
        r, W.pairs, sc[S_HEAT], W.heat_x, W.heat_y, out.pairs, out.heat, out.heat_scale
    )
    return True


# -------------------------------------------------------------------- the Python half

CHUNK = 1 << 16
"""Uniforms drawn from the generator at a time."""


@dataclass
class Model:
    """A d20 scenario prepared for its game's kernel: the defenders' and intruders' names, the
    arrays by name (:func:`prefix`'s, then the game's tables), the floats and ints (``F_*``,
    ``I_*``: the shared ones first)."""

    scenario: Any
    defenders: list[str]
    intruders: list[str]
    arrays: dict[str, Array]
    floats: Array
    ints: Array

    @property
    def turns(self) -> int:
        return int(self.scenario.turns)


class KernelRound:
    """A d20 game's compiled model of a scenario (:class:`vigile.sim.tally.Batched`): ``play``
    plays runs from a generator's uniforms, drawn in chunks (a run that reaches the end of a
    chunk is played again from its first uniform once it is refilled: a block's numbers depend
    only on its generator); :meth:`trace` plays given uniforms run by run (the exact tests).
    Both by the driver every kernel shares (:class:`vigile.sim.kernel.blocks.Blocks`: the
    stream's end is a d20 run's only stop).
    ``model``: the game's tables; ``kinds``: the game's model and state types
    (:func:`model_type`, :func:`state_type`); ``extra``: the game's own working arrays of a run
    for (defenders, intruders), made afresh for each call (so that calls on several threads
    share nothing they write); ``play``: the game's ``play_runs``."""

    def __init__(
        self,
        model: Model,
        kinds: tuple[Any, Any],
        extra: Callable[[int, int], tuple[Array, ...]],
        play: Any,
    ) -> None:
        self.model = model
        model_kind, self._state_kind = kinds
        arrays = {"floats": model.floats, "ints": model.ints, **model.arrays}
        self._m = model_kind(*(arrays[name] for name in model_kind._fields))
        self._extra = extra
        self._blocks = Blocks(play, CHUNK)

    @property
    def turns(self) -> int:
        return self.model.turns

    def _state(self) -> Any:
        n_g = max(1, len(self.model.defenders))
        n_i = max(1, len(self.model.intruders))
        shared = state(n_g, n_i, int(self.model.ints[I_M]), self.model.arrays["every_wall"])
        return self._state_kind(*shared, *self._extra(n_g, n_i))

    def _outputs(self, runs: int) -> Outputs:
        n_g = max(1, len(self.model.defenders))
        n_i = max(1, len(self.model.intruders))
        floats = self.model.floats
        return Outputs(
            np.zeros(runs, np.int64),
            np.zeros(runs, np.int64),
            np.zeros(runs, np.int64),
            np.zeros((runs, n_g, n_i), np.bool_),
            np.zeros((runs, n_i), np.int64),
            np.zeros((runs, n_g), np.int64),
            np.zeros((runs, n_g, n_i), np.int64),
            np.zeros((HEAT_BINS, HEAT_BINS), np.int64),
            heat_scale(floats[F_W], floats[F_H]),
        )

    def play(self, runs: int, rng: np.random.Generator) -> Tally:
        """Play ``runs`` runs from ``rng``'s uniforms and tally them."""
        out = self._outputs(runs)
        self._blocks.play(runs, rng, (self._m, self._state()), (out,))
        guards = len(self.model.defenders)
        return tally(self.turns, guards, out.outcome, out.first_seen, out.pairs, out.heat)

    def trace(self, uniforms: Array, runs: int) -> Runs:
        """Play ``runs`` runs one after the other from the given uniforms (they must be
        enough); every run's end, and the uniforms each drew."""
        out = self._outputs(runs)
        used = self._blocks.trace(uniforms, runs, (self._m, self._state()), (out,))
        return Runs(
            out.outcome,
            out.end,
            out.first_seen,
            out.pairs,
            out.alive,
            out.alert,
            out.aware,
            used,
            out.heat,
        )


class NotCovered(Exception):
    """A scenario a d20 kernel does not play yet (the message says why)."""


Record = Callable[..., None]
"""``record(kind, a, b, c, at=(x, y))``: one op, and the point it aims at (an attack on a
named square's; else none)."""
Act = Callable[[Any, Any, object, Record], None]
"""A game's recorder of one plan action: (game, walker, action, record)."""


def schedule(scenario: Any, game: Any, act: Act, surfaces: bool = True) -> dict[str, Array]:
    """Each intruder's walk, round by round, played by ``game`` (a fresh engine game of the
    scenario: its own plan-walking) with ``act`` recording each action as ops (and raising
    :class:`NotCovered` for one it does not play): where it stands after the walk, whether it
    moved, changed place, at what speed, on what ground, in cover, inside the objective,
    whether it spoke whatever happened (its words: a blow, a kill or an attack on a square
    counts only on a living victim in reach, which the kernel sees), lost cover on its way
    (Starfinder's ``lost_cover``), and whether it was visible after its walk (``visible``);
    and how far each intruder's blows reach (``reach``: melee, shooting; the engine's
    ``blow_reach``). A planned blow is recorded whatever the reach: where its victim stands
    when it comes due is the run's, and the kernel refuses it then as the engine does
    (``Game._blow_refused``, LP-7: :func:`strike_lands`, :func:`square_lands`)."""
    from vigile.awareness.vocabulary import Attitude
    from vigile.games.d20.round import is_invisible
    from vigile.scene.actors import Side

    intruders = [w for w in game.walkers if w.side is Side.ATTACKERS]
    n_t, n_i = max(1, scenario.turns), max(1, len(intruders))
    ops: list[tuple[int, int, int, int]] = []
    op_start = np.zeros(n_t * n_i + 1, np.int64)
    names = ["x", "y", "moved", "shifted", "speed", "soft", "liquid", "inside", "noisy"]
    names += ["fought", "visible", "lost_cover", "cover"]
    out: dict[str, Array] = {
        k: np.zeros((n_t, n_i), np.float64 if k in ("x", "y") else np.int64) for k in names
    }
    recorded: list[tuple[int, int, int, int]] = []
    points: list[tuple[float, float]] = []
    aimed: list[tuple[float, float]] = []

    def record(kind: int, a: int, b: int, c: int, at: tuple[float, float] = (0.0, 0.0)) -> None:
        recorded.append((kind, a, b, c))
        aimed.append((float(at[0]), float(at[1])))

    setattr(game, "act", lambda walker, action: act(game, walker, action, record))  # noqa: B010
    # every planned blow recorded: the kernel refuses those out of reach when they come due
    setattr(game, "_blow_refused", lambda walker, action: False)  # noqa: B010
    for t in range(scenario.turns):
        game.turn = t + 1
        game.speeds, game.running, game.walked = {}, set(), {}
        game.noisy, game.fought = set(), set()
        if hasattr(game, "lost_cover"):
            game.lost_cover = set()
        for walker in game.walkers:
            walker.moved = False
        for i, walker in enumerate(intruders):
            before = walker.at
            recorded.clear()
            aimed.clear()
            game._walk(walker)
            ops.extend(recorded)
            points.extend(aimed)
            op_start[t * n_i + i + 1] = len(ops)
            out["visible"][t, i] = int(not is_invisible(walker))
            out["x"][t, i], out["y"][t, i] = walker.x, walker.y
            out["moved"][t, i] = int(walker.moved)
            out["shifted"][t, i] = int(walker.at != before)
            speed = game._speed(walker)
            out["speed"][t, i] = (
                SPEED_RUN
                if walker.name in game.running
                else SPEED_FULL
                if speed is Attitude.FAST
                else SPEED_HALF
            )
            out["noisy"][t, i] = int(walker.name in game.noisy)
            out["fought"][t, i] = int(walker.name in game.fought)
            out["lost_cover"][t, i] = int(walker.name in getattr(game, "lost_cover", ()))
            out["cover"][t, i] = int(game.board.in_cover(walker.at))
            ground = game.board.surface(walker.at)
            out["soft"][t, i] = int(ground == "soft-ground")
            out["liquid"][t, i] = int(ground == "water")
            out["inside"][t, i] = int(_inside(scenario, walker.at))
    out["door_ops"] = np.array(ops, np.int64).reshape(-1, 4)
    out["op_start"] = op_start
    out["op_at"] = np.array(points, np.float64).reshape(-1, 2)
    reach = [[game.blow_reach(w, ranged=False), game.blow_reach(w, ranged=True)] for w in intruders]
    out["reach"] = np.array(reach or [[0.0, 0.0]], np.float64)
    return out


def record_action(game: Any, walker: Any, action: object, record: Record) -> bool:
    """Record what every d20 kernel plays of an intruder's action as an op (:func:`act`): a
    door opened or closed (on the game's board too, so that its walk goes on as the engine's),
    invisibility cast or ended, a blow or a kill at a defender (:class:`NotCovered` at anyone
    else). False for any other action: the game's own, or one it does not play."""
    from vigile.games.d20.actions import CastInvisibility, EndInvisibility
    from vigile.scene.actors import Side
    from vigile.scene.plans import CloseDoor, Kill, OpenDoor, Strike

    defenders = [a.name for a in game.scenario.actors if a.side is Side.DEFENDERS]
    if isinstance(action, OpenDoor | CloseDoor):
        doors = [w.name for w in game.scenario.walls if w.name]
        is_open = isinstance(action, OpenDoor)
        record(OP_DOOR, doors.index(action.door), int(is_open), 0)
        game.board.set_door(action.door, is_open)
    elif isinstance(action, CastInvisibility | EndInvisibility):
        on = isinstance(action, CastInvisibility)
        record(OP_VANISH if on else OP_APPEAR, 0, 0, 0)
        walker.invisible = on
    elif isinstance(action, Strike | Kill):
        if action.target not in defenders:
            raise NotCovered(f"{walker.name} strikes {action.target}, not a defender")
        op = OP_STRIKE if isinstance(action, Strike) else OP_KILL
        record(op, defenders.index(action.target), int(action.ranged), 0)
    else:
        return False
    return True


def uncovered(
    scenario: Any, ruleset: str, title: str, schedule: Callable[[], dict[str, Array]]
) -> str | None:
    """Why no d20 kernel plays ``scenario`` (None: they may): not the game's ``ruleset``
    (``title``: its name), hit points (LP-7: the engine counts them), barriers whose sight and
    movement disagree (:func:`see_through`), or doors that can stand in too many ways in a run
    (:func:`door_states` of its ``schedule``)."""
    from vigile.games.d20.fields import d20_actors

    if scenario.ruleset != ruleset:
        return f"not a {title} scenario"
    if any(a.bonuses is not None and a.bonuses.hp is not None for a in d20_actors(scenario)):
        return "hit points (LP-7): the engine counts them"
    barriers = see_through(scenario, scenario.rules())
    if barriers is not None:
        return barriers
    try:
        door_states(scenario, schedule())
    except NotCovered as error:
        return str(error)
    return None


def _inside(scenario: Any, at: tuple[float, float]) -> bool:
    """A point is within the objective (:func:`vigile.engine.objective.reached_by`'s test)."""
    from vigile.engine.board import distance
    from vigile.scene.geometry import point_in_polygon

    objective = scenario.objective
    if objective is None:
        return False
    if objective.area is not None:
        return bool(point_in_polygon(at[0], at[1], np.array(objective.area, dtype=np.float64)))
    assert objective.at is not None and objective.radius is not None
    return bool(distance(at, objective.at) <= objective.radius)


def prefix(scenario: Any, rules: Any, walk: dict[str, Array]) -> dict[str, Any]:
    """The arrays of :data:`PREFIX` (``walk``: :func:`schedule`'s) and the first floats and
    ints (``F_*``, ``I_*`` up to ``I_ANY``, the game's own in between left at 0)."""
    from vigile.engine.result import Ending
    from vigile.games.d20.round import CLOSE_FT, d20_board, patrol_margin_ft
    from vigile.rulesets.senses import Sense
    from vigile.scene.actors import GuardState, Side
    from vigile.scene.model import WallKind
    from vigile.sim.tally import CODE

    endings = np.array(
        [
            CODE[Ending.OBJECTIVE_UNSEEN],
            CODE[Ending.OBJECTIVE_DETECTED],
            CODE[Ending.ALARM],
            CODE[Ending.TURN_LIMIT],
            CODE[Ending.CAUGHT],
        ],
        np.int64,
    )
    defenders = [a for a in scenario.actors if a.side is Side.DEFENDERS]
    intruders = [a for a in scenario.actors if a.side is Side.ATTACKERS]
    n_g = max(1, len(defenders))
    board = d20_board(scenario, rules)
    width, height = float(scenario.map.width), float(scenario.map.height)

    # walls: the closed barriers, then the map's border (the patrol's conventions)
    closed = board.barriers_for(frozenset())
    m = len(closed)
    x1, y1, x2, y2 = (np.array(a, np.float64) for a in (closed.x1, closed.y1, closed.x2, closed.y2))
    all_x1, all_y1, all_x2, all_y2, normal_x, normal_y, has_normal = bordered(
        x1, y1, x2, y2, width, height
    )

    # the barriers in every way the named doors can stand in a run (bit k of a way: the k-th
    # named door open), a row each, the first as they stand at the start
    named_doors = [k for k, w in enumerate(scenario.walls) if w.name]
    always_open = {k for k, w in enumerate(scenario.walls) if w.open and not w.name}
    ways, door_next = door_states(scenario, walk)
    n_states = len(ways)
    sight_mask = np.zeros((n_states, m + 4), np.bool_)
    door_mask = np.zeros((n_states, m + 4), np.bool_)
    stone_mask = np.zeros((n_states, m + 4), np.bool_)
    # every list of walls as entries: the runs of a straight wall's pieces as one (grid.entries)
    chained = chains(all_x1, all_y1, all_x2, all_y2, m)
    every_wall = entries(np.array([0, m]), np.arange(m), chained)[1]
    movers = np.zeros((n_states, m + 4), np.int64)
    mover_count = np.zeros(n_states, np.int64)
    for s, way in enumerate(ways):
        opened = always_open | {w for b, w in enumerate(named_doors) if way >> b & 1}
        barriers = board.barriers_for(frozenset(opened))
        if not np.array_equal(barriers.blocks_movement, barriers.blocks_sight):
            # LP-7: a melee blow's wall test, a defender's walk and grope are a line of sight in
            # the kernel (:func:`reaches`, :func:`close_in`...): a window seen through plays the
            # engine
            raise NotCovered("barriers that block a walker but not sight, or sight alone")
        if m:
            sight_mask[s, :m] = barriers.blocks_sight
            doorish = np.zeros(m, np.bool_)
            for kind in (WallKind.DOOR, WallKind.WINDOW, WallKind.PARTITION):
                doorish |= barriers.of_kind(kind.value)
            door_mask[s, :m] = doorish & barriers.counts_for_noise
            stone_mask[s, :m] = barriers.of_kind(WallKind.WALL.value) & barriers.counts_for_noise
        blocking = [j for j in range(m) if barriers.blocks_movement[j]] + list(range(m, m + 4))
        listed = entries(np.array([0, len(blocking)]), np.array(blocking), chained)[1]
        movers[s, : len(listed)] = listed
        mover_count[s] = len(listed)
    start_doors = 0  # the first row: the doors as they stand at the start

    def move_of(actor: Any) -> float:
        return float(actor.move) if actor.move is not None else float(rules.num("turn.move_ft"))

    senses = np.zeros((n_g, 9), np.int64)
    for g, actor in enumerate(defenders):
        have = actor.senses
        senses[g] = (
            int(Sense.SIGHT in have or Sense.DARKVISION in have),
            int(Sense.HEARING in have),
            int(Sense.SCENT in have),
            int(Sense.BLINDSIGHT in have),
            int(actor.state is GuardState.PATROLLING),
            int(Sense.SEE_INVISIBLE in have),
            int(Sense.BLINDSIGHT in have and Sense.SEE_INVISIBLE not in have),
            int(Sense.BLINDSENSE in have),
            int(Sense.DARKVISION in have),
        )
    objective = scenario.objective
    names = (
        set(objective.who)
        if objective is not None and objective.who
        else {a.name for a in intruders}
    )
    arrays: dict[str, Any] = {
        "x1": chained.x1,
        "y1": chained.y1,
        "x2": chained.x2,
        "y2": chained.y2,
        "every_wall": every_wall,
        "normal_x": normal_x,
        "normal_y": normal_y,
        "has_normal": has_normal,
        "sight_mask": sight_mask,
        "door_mask": door_mask,
        "stone_mask": stone_mask,
        "movers": movers,
        "mover_count": mover_count,
        **{f"walk_{k}": v for k, v in walk.items()},
        "guard_start_x": np.array([a.position[0] for a in defenders] or [0.0], np.float64),
        "guard_start_y": np.array([a.position[1] for a in defenders] or [0.0], np.float64),
        "guard_move": np.array([move_of(a) for a in defenders] or [0.0], np.float64),
        "guard_alert": np.array([int(a.alert) for a in defenders] or [0], np.int64),
        "guard_asleep": np.array([int(a.asleep) for a in defenders] or [0], np.int64),
        "guard_distracted": np.array([int(a.distracted) for a in defenders] or [0], np.int64),
        "guard_senses": senses,
        "named": np.array([int(a.name in names) for a in intruders] or [0], np.int64),
        "intruder_start_x": np.array([a.position[0] for a in intruders] or [0.0], np.float64),
        "intruder_start_y": np.array([a.position[1] for a in intruders] or [0.0], np.float64),
        "endings": endings,
        "door_next": door_next,
        **_lights(scenario, rules, defenders, intruders),
        "intruder_ethereal": np.array([int(a.ethereal) for a in intruders] or [0], np.int64),
        "intruder_invisible": np.array([int(a.invisible) for a in intruders] or [0], np.int64),
        "guard_ethereal": np.array([int(a.ethereal) for a in defenders] or [0], np.int64),
        "guard_ac": np.array(
            [int(a.bonuses is not None and a.bonuses.ac is not None) for a in defenders] or [0],
            np.int64,
        ),
        "blow": np.array(
            [int(rules.flag("blow.ends_encounter")), int(rules.flag("blow.hits_without_ac"))],
            np.int64,
        ),
        "floats": [width, height, patrol_margin_ft(rules), CLOSE_FT],
        "ints": [
            len(defenders),
            len(intruders),
            scenario.turns,
            m,
            int(rules.num("turn.patrol_bounces")),
            0,
            start_doors,
            0,
            int(objective is not None),
            int(objective is None or objective.require == "any"),
        ],
    }
    return arrays


def see_through(scenario: Any, rules: Any) -> str | None:
    """Why the kernel leaves ``scenario`` to the engine for its barriers (None: it does not): a
    kind of barrier on its map, or an open door, that blocks a walker but not sight, or sight
    alone (``[barrier.*]``: a closed window seen through [R]). The kernel tests a melee blow, a
    defender's walk and its groping by a line of sight (:func:`reaches`, :func:`close_in`), so
    it plays only barriers whose sight and movement agree; :func:`prefix` refuses the same."""
    from vigile.engine.board import OPEN_KIND
    from vigile.games.d20.round import barrier_kinds

    kinds = barrier_kinds(rules)
    present = {w.kind.value for w in scenario.walls}
    if any(w.open or w.name for w in scenario.walls):
        present.add(OPEN_KIND)
    for kind in sorted(present):
        rule = kinds[kind]
        if rule.blocks_sight != rule.blocks_movement:
            return f"barriers that block a walker but not sight, or sight alone: {kind}"
    return None


def door_states(scenario: Any, walk: dict[str, Array]) -> tuple[list[int], Array]:
    """Every way the named doors can stand in a run (bit k: the k-th named door open), the
    first as they stand at the start, and ``next[way, k, open]``: the row the k-th door's
    opening (or closing) leads to.

    Only the intruders open and close doors, each as its plan says while it is free, and a
    caught intruder does nothing more: in a run, each intruder has done a first part of its
    door actions (all of them, none, or those of its rounds before it was caught), in the
    plans' order. The ways are those of every such choice of first parts (a few, where all
    the ways of many doors would be too many); where the choices are too many, every way of
    at most six doors; else :class:`NotCovered`.
    """
    from vigile.scene.actors import Side

    named = [w for w in scenario.walls if w.name]
    start = sum(1 << k for k, w in enumerate(named) if w.open)
    ops, op_start = walk["door_ops"], walk["op_start"]
    n_i = max(1, sum(1 for a in scenario.actors if a.side is Side.ATTACKERS))
    sequence: list[tuple[int, int, int]] = []
    """(intruder, door, open) in the order the doors are opened and closed."""
    for slot in range(len(op_start) - 1):
        for k in range(int(op_start[slot]), int(op_start[slot + 1])):
            if ops[k, 0] == OP_DOOR:
                sequence.append((slot % n_i, int(ops[k, 1]), int(ops[k, 2])))
    counts = [sum(1 for who, _, _ in sequence if who == i) for i in range(n_i)]
    choices = math.prod(c + 1 for c in counts)
    ways: list[int]
    if choices <= MOST_DOOR_STATES * 16:
        found = {start}
        for parts in np.ndindex(*(c + 1 for c in counts)):
            way, done = start, [0] * n_i
            for who, k, is_open in sequence:
                if done[who] < parts[who]:
                    done[who] += 1
                    way = way | (1 << k) if is_open else way & ~(1 << k)
            found.add(way)
        ways = [start, *sorted(found - {start})]
    elif len(named) <= 6:
        ways = [start, *(w for w in range(1 << len(named)) if w != start)]
    else:
        raise NotCovered(f"too many ways the {len(named)} named doors can stand")
    if len(ways) > MOST_DOOR_STATES:
        raise NotCovered(f"too many ways the {len(named)} named doors can stand")
    row = {way: r for r, way in enumerate(ways)}
    door_next = np.zeros((len(ways), max(1, len(named)), 2), np.int64)
    for r, way in enumerate(ways):
        for k in range(len(named)):
            # a way no run reaches stays where it is (no door action of a run leads there)
            door_next[r, k, 0] = row.get(way & ~(1 << k), r)
            door_next[r, k, 1] = row.get(way | (1 << k), r)
    return ways, door_next


def _lights(
    scenario: Any, rules: Any, defenders: list[Any], intruders: list[Any]
) -> dict[str, Any]:
    """The lights (the scenario's, and those the creatures carry: side 0 a defender, 1 an
    intruder) and darkness as :func:`vigile.rulesets.senses.dark_for` gives it [SF-2, DD-20 C]:
    of a place (``dark``: by light on it, any light on the board) and for each defender
    (``dark_to``: and whether the place lies short of, at or past its darkvision's range: the
    rule's own answer on each side of the boundary and at it, whatever its comparison)."""
    from vigile.awareness.vocabulary import TimeOfDay
    from vigile.games.d20.round import NO_STATS
    from vigile.rulesets.senses import dark_for
    from vigile.scene.actors import Side

    night = scenario.time is TimeOfDay.NIGHT
    dark_range = float(rules.num("light.darkvision_ft"))
    dark = np.zeros((2, 2), np.int64)
    # the rule's answer short of the range, at it and past it (BANDS): the kernel finds the
    # band of a distance, so the rule's own comparison (<= today) decides at the boundary
    bands = (np.nextafter(dark_range, -np.inf), dark_range, np.nextafter(dark_range, np.inf))
    dark_to = np.zeros((max(1, len(defenders)), 2, 2, len(bands)), np.int64)
    for is_lit, anyl in np.ndindex(2, 2):
        dark[is_lit, anyl] = int(
            dark_for(rules, night=night, lit=bool(is_lit), any_light=bool(anyl))
        )
        for g, actor in enumerate(defenders):
            for band, distance in enumerate(bands):
                dark_to[g, is_lit, anyl, band] = int(
                    dark_for(
                        rules,
                        night=night,
                        lit=bool(is_lit),
                        any_light=bool(anyl),
                        senses=actor.senses,
                        distance=float(distance),
                    )
                )

    def light_of(actor: Any) -> float:
        return float((actor.bonuses or NO_STATS).light)

    carriers = [
        (0 if side is Side.DEFENDERS else 1, k, light_of(a))
        for side, group in ((Side.DEFENDERS, defenders), (Side.ATTACKERS, intruders))
        for k, a in enumerate(group)
        if light_of(a) > 0
    ]
    lights = scenario.lights
    return {
        "light_x": np.array([lt.at[0] for lt in lights] or [0.0], np.float64),
        "light_y": np.array([lt.at[1] for lt in lights] or [0.0], np.float64),
        "light_r": np.array([lt.radius_or(0.0) for lt in lights] or [0.0], np.float64),
        "carried": np.array([c[:2] for c in carriers] or [(0, 0)], np.int64),
        "carried_r": np.array([c[2] for c in carriers] or [0.0], np.float64),
        "light_n": np.array([len(lights), len(carriers)], np.int64),
        "dark": dark,
        "dark_to": dark_to,
        "dark_range": np.array([dark_range], np.float64),
    }


def state(n_g: int, n_i: int, m: int, every_wall: Array) -> tuple[Array, ...]:
    """A run's shared working arrays (:data:`STATE_FIELDS`, reset by the kernel at each run):
    ``m`` walls, listed by the entries ``every_wall``."""
    n_g, n_i = max(1, n_g), max(1, n_i)
    return (
        np.zeros(n_g),
        np.zeros(n_g),
        np.zeros(n_g, np.int64),
        np.zeros(n_g),
        np.zeros((n_g, n_i), np.int64),
        np.zeros((n_g, n_i), np.int64),
        np.zeros((n_g, n_i, 2), np.int64),
        np.zeros((n_g, n_i)),
        np.zeros((n_g, n_i), np.int64),
        np.zeros(n_i, np.int64),
        np.zeros((n_g, n_i), np.bool_),
        np.zeros(16, np.int64),
        np.zeros(n_g * n_i + 1),
        np.zeros(n_g * n_i + 1),
        np.array(every_wall, np.int64),
        np.zeros((2, m + 4)),
        np.zeros(n_g, np.int64),
        np.zeros((n_g, 6), np.int64),
        np.zeros(n_i),
        np.zeros(n_i),
        np.zeros(n_g, np.int64),
        np.zeros(n_i, np.int64),
        np.zeros(n_i, np.int64),
        np.zeros(n_i, np.int64),
    )


def model_type(module: str, tables: list[str]) -> Any:
    """A game's model type (``M``), a named tuple: :data:`MODEL_FIELDS`, then the game's own
    ``tables``. Made in the game's ``module``, where it is to be named ``Model`` (numba's cache
    finds the type by its module and name)."""
    return namedtuple("Model", [*MODEL_FIELDS, *tables], module=module)


def state_type(module: str, extra: list[str]) -> Any:
    """A game's run state type (``W``), a named tuple: :data:`STATE_FIELDS`, then the game's own
    working arrays ``extra``. Made in the game's ``module``, where it is to be named
    ``State``."""
    return namedtuple("State", [*STATE_FIELDS, *extra], module=module)
