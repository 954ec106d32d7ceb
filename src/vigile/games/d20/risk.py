"""Exact risk maps of a d20 board (Starfinder, D&D 3.5): the chance of being noticed or heard in
one round, on each 5-ft square.

An intruder stands on a square's centre and moves one of four ways this round (:class:`Way`:
still, half speed, full speed, running). Each defender, at its start position, meets it with its
own roll; the game (its plug-in's module, :class:`Perception`) says, by calling its own rule
functions, what each observer's roll is against:

- a *shared* roll: the intruder rolls Stealth (SF-4) or Hide (DD-20) once, and that one result
  meets every observer's own d20 (so the observers are not independent); the term is the
  observer's advantage over the intruder's roll, all modifiers included (distance, cover,
  invisibility, senses, light...: each from the game's rule function, never re-computed here);
- an *independent* chance of its own (D&D 3.5's Spot against an invisible creature, DD-3);
- *certain* (the rules allow no hiding from it: SF-2, blindsight, scent);
- *nothing* (no line of sight, asleep, a sense that cannot reach it).

Hearing is a second shared roll (D&D 3.5: one Move Silently result against every listener's
Listen, DD-5 with its distance, door and wall table). Starfinder has no separate Listen: its
Perception is one check against Stealth for every sense (SF-4), so its ``heard`` layer is empty.

The chance that at least one observer notices is exact:
``P = Σ_f P(f) · (1 − Π_obs P(obs fails against f))`` over the intruder's d20 ``f``, times the
independent chances, by :func:`vigile.dice.d20.hidden_from_all_meet` or
:func:`~vigile.dice.d20.hidden_from_all_dnd` (the functions the rule functions themselves call).

Speed: a rule function depends on a distance only through the thresholds of its data file (whole
10-ft steps, a 30-ft range...: each game lists them, :meth:`Perception.distance_marks`), so for
each observer the rule is called once per distinct (distance class, line of sight, doors and walls
between, cover, ground, light) at one square of that class; every square then carries the id of
its combination of terms, and each combination's ``Fraction`` is computed once.
:meth:`D20RiskMap.risk_at` answers for one square by calling the game's rule functions once with
every observer at its real distance: the slow, obvious path the tests compare against.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Final, Protocol

import numpy as np
from numpy.typing import NDArray

from vigile.awareness.vocabulary import Attitude
from vigile.engine.board import Board as PlayBoard
from vigile.errors import InputError, LimitError
from vigile.games.contract import RiskRequest, unknown_switches
from vigile.games.d20.fields import D20Actor, d20_actor
from vigile.games.d20.round import carried_light_reaches, d20_board
from vigile.rulesets.data import RuleData
from vigile.scene.actors import Side
from vigile.scene.geometry import Barriers, crossings
from vigile.scene.model import Scenario, WallKind

__all__ = [
    "CERTAIN",
    "MAX_SQUARES",
    "NEVER",
    "SQUARE_FT",
    "D20Board",
    "D20RiskMap",
    "Layer",
    "Perception",
    "SquareView",
    "Terms",
    "Watcher",
    "Way",
    "d20_risk_map",
    "parse_layer",
    "parse_way",
    "plugin_map",
]

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]
BoolArray = NDArray[np.bool_]

SQUARE_FT: Final = 5.0
"""A square's side (ft): the grid of every d20 map."""
MAX_SQUARES: Final = 250_000
"""No d20 map has more squares (a LimitError beyond)."""
NEVER: Final = -(10**6)
"""A term: this observer cannot notice (or hear) the intruder there."""
CERTAIN: Final = 10**6
"""A term: this observer notices it for certain (no roll allowed: SF-2, blindsight, scent)."""
_CHANCE_BASE: Final = 2 * 10**6
"""Independent chances are coded ``_CHANCE_BASE + index`` in the term arrays."""
_CLAMP: Final = 21
"""Advantages beyond ±20 give the same odds (the d20 saturates): clamped to share ids."""


class Way(StrEnum):
    """How the intruder moves this round."""

    STILL = "still"
    """Does not move (SF-7 immobile; D&D 3.5 Spot's "still", no Listen check)."""
    HALF = "half"
    """At most half speed (SF-3, DD-5, DD-20: no penalty)."""
    FULL = "full"
    """Faster than half speed (SF-3 −10; DD-5 −4; DD-20 −5)."""
    RUN = "run"
    """Running or charging (SF-3: more than half speed; DD-5 −20; DD-20 −20)."""

    @property
    def moving(self) -> bool:
        return self is not Way.STILL


_WAY_ALIASES: Final = {"immobile": Way.STILL, "fast": Way.FULL}


def parse_way(text: str) -> Way:
    """A way of moving, by name (``immobile`` and ``fast``, the skirmish's words, are accepted
    as ``still`` and ``full``); a one-line error naming the four otherwise."""
    if text in _WAY_ALIASES:
        return _WAY_ALIASES[text]
    try:
        return Way(text)
    except ValueError:
        raise InputError(
            f"{text!r} is not a way of moving in a d20 game: one of "
            + ", ".join(w.value for w in Way),
            where="--attitude",
        ) from None


class Layer(StrEnum):
    """What a d20 map shows."""

    EITHER = "either"
    """Noticed by sight or heard: one minus the chance that nobody notices nor hears."""
    NOTICED = "noticed"
    """Noticed (Stealth or Hide against each observer's roll, Spot, blindsight, scent)."""
    HEARD = "heard"
    """Heard (Move Silently against each listener's Listen, DD-5)."""


def parse_layer(text: str | None) -> Layer:
    """A layer by name (default: ``either``); a one-line error naming the three otherwise."""
    if text is None:
        return Layer.EITHER
    try:
        return Layer(text)
    except ValueError:
        raise InputError(
            f"{text!r} is not a layer: one of " + ", ".join(x.value for x in Layer),
            where="--layer",
        ) from None


@dataclass(frozen=True)
class Watcher:
    """A defender as the map sees it: where it stands, and the actor (its stats and senses)."""

    name: str
    x: float
    y: float
    actor: D20Actor

    @property
    def alert(self) -> bool:
        return self.actor.alert

    @property
    def awake(self) -> bool:
        """Asleep until alert (the engine's ruling, :func:`vigile.games.d20.round.asleep`)."""
        return not (self.actor.asleep and not self.actor.alert)

    @property
    def distracted(self) -> bool:
        return self.actor.distracted and not self.actor.alert


@dataclass(frozen=True)
class SquareView:
    """What one observer has to do with one square: the facts its game's rules ask for."""

    x: float
    y: float
    distance: float
    """Feet from the observer to the square's centre."""
    line_of_sight: bool
    """No sight-blocking barrier between them (the engine's ``_sight_line``)."""
    door: bool
    """A closed door, window or partition between them (DD-5: +5)."""
    wall: bool
    """A wall between them (DD-5: a stone wall, +15)."""
    cover: bool
    """The square is in a cover area."""
    surface: str
    """The ground there (``water``: DD-12)."""
    lit: bool
    """A light reaches it: one of the scenario's, or one a creature carries (the round's
    ``_lit``: :meth:`D20Board.lit_points`)."""


@dataclass(frozen=True)
class Terms:
    """One observer's terms at one square: its sight term and its hearing term (each
    :data:`NEVER`, :data:`CERTAIN`, an advantage over the shared roll, or an independent
    chance)."""

    sight: int | Fraction
    """An ``int`` is NEVER, CERTAIN or the advantage over the shared Stealth/Hide roll; a
    ``Fraction`` is an independent chance (D&D 3.5 Spot, DD-3)."""
    hearing: int = NEVER
    """NEVER, or the advantage over the shared Move Silently roll (DD-5)."""


class Perception(Protocol):
    """What a d20 game tells the map: its rule functions, observer by observer."""

    def distance_marks(self, rules: RuleData) -> Sequence[tuple[str, float]]:
        """The distances its rules compare with: ``("step", s)`` (whole steps of ``s`` ft) and
        ``("within", r)`` (at most ``r`` ft)."""
        ...

    def terms(self, board: D20Board, watcher: Watcher, view: SquareView, way: Way) -> Terms:
        """One observer against the intruder at one square (its rule functions, one call)."""
        ...

    def missed(self, rules: RuleData, advantages: Sequence[int]) -> Fraction:
        """The chance that none of these observers beats the one shared Stealth/Hide roll."""
        ...

    def unheard(self, rules: RuleData, advantages: Sequence[int]) -> Fraction:
        """The chance that none of these listeners beats the one shared Move Silently roll."""
        ...

    def square(
        self, board: D20Board, views: Sequence[tuple[Watcher, SquareView]], way: Way
    ) -> tuple[Fraction, Fraction]:
        """(noticed, heard) at one square, every observer at once, by the rule functions
        called with all of them: the slow path the map is tested against."""
        ...

    def notes(self, board: D20Board, way: Way) -> tuple[str, ...]:
        """Message keys of the rulings the map follows."""
        ...


@dataclass(frozen=True, eq=False)
class D20Board:
    """A d20 scenario prepared for maps: the engine's board, the observers at their posts and
    the intruder whose rolls the map makes."""

    scenario: Scenario
    rules: RuleData
    place: PlayBoard
    guards: tuple[Watcher, ...]
    intruder: D20Actor

    @classmethod
    def of(cls, scenario: Scenario, actor: str | None = None) -> D20Board:
        """Prepare ``scenario``; ``actor`` names the intruder (default: the first attacker)."""
        attackers = [a for a in scenario.actors if a.side is Side.ATTACKERS]
        if actor is not None:
            found = [a for a in attackers if a.name == actor]
            if not found:
                raise InputError(f"no attacker named {actor!r} in the scenario", where="--actor")
            attackers = found
        if not attackers:
            raise InputError("the scenario has no attacker to map the risk for", where="SCENARIO")
        return cls(
            scenario=scenario,
            rules=scenario.rules(),
            place=d20_board(scenario, scenario.rules()),
            guards=tuple(
                Watcher(a.name, float(a.position[0]), float(a.position[1]), d20_actor(a))
                for a in scenario.actors
                if a.side is Side.DEFENDERS
            ),
            intruder=d20_actor(attackers[0]),
        )

    @property
    def barriers(self) -> Barriers:
        return self.place.barriers

    def carriers(self) -> list[tuple[tuple[float, float], float]]:
        """The lights creatures carry as the map stands: every actor but the intruder at its
        start, with its radius (the round's ``_carried_lights``)."""
        return [
            ((float(a.position[0]), float(a.position[1])), float(a.bonuses.light))
            for a in map(d20_actor, self.scenario.actors)
            if a is not self.intruder and a.bonuses is not None and a.bonuses.light > 0
        ]

    @property
    def any_light(self) -> bool:
        """A light on the map at all (``light.dark_without_lights``): the scenario's, or one a
        creature carries, the intruder's own included."""
        own = self.intruder.bonuses is not None and self.intruder.bonuses.light > 0
        return bool(self.scenario.lights) or own or bool(self.carriers())

    def lit_points(self, px: FloatArray, py: FloatArray) -> BoolArray:
        """Whether a light reaches each point with the intruder standing there, as the round's
        ``_lit`` says: the scenario's lights, the lights the others carry (each point asked to
        :func:`~vigile.games.d20.round.carried_light_reaches`), and the intruder's own."""
        lit = np.asarray(self.place.lit_points(px, py), dtype=np.bool_).copy()
        if self.intruder.bonuses is not None and self.intruder.bonuses.light > 0:
            lit[:] = True
            return lit
        for at, radius in self.carriers():
            near = np.nonzero(~lit & (np.hypot(px - at[0], py - at[1]) <= radius + 1.0))[0]
            for k in near.tolist():
                lit[k] = carried_light_reaches(self.place, at, radius, (float(px[k]), float(py[k])))
        return lit

    def in_cover(self, px: FloatArray | float, py: FloatArray | float) -> BoolArray:
        return self.place.cover_points(px, py)

    def views(self, watcher: Watcher, px: FloatArray, py: FloatArray) -> _Views:
        """What ``watcher`` has to do with each point, as arrays."""
        barriers = self.barriers
        n = px.size
        if len(barriers):
            los = crossings(barriers, watcher.x, watcher.y, px, py, barriers.blocks_sight) == 0
            noise = barriers.counts_for_noise
            doors = np.zeros(len(barriers), dtype=np.bool_)
            for kind in (WallKind.DOOR, WallKind.WINDOW, WallKind.PARTITION):
                doors |= barriers.of_kind(kind.value)
            door = crossings(barriers, watcher.x, watcher.y, px, py, doors & noise) > 0
            wall = (
                crossings(barriers, watcher.x, watcher.y, px, py, barriers.of_kind("wall") & noise)
                > 0
            )
        else:
            los = np.ones(n, dtype=np.bool_)
            door = wall = np.zeros(n, dtype=np.bool_)
        return _Views(np.hypot(px - watcher.x, py - watcher.y), los, door, wall)

    def view_at(self, watcher: Watcher, x: float, y: float) -> SquareView:
        """:meth:`views` at one point."""
        px, py = np.array([x]), np.array([y])
        found = self.views(watcher, px, py)
        return SquareView(
            x=x,
            y=y,
            distance=float(found.distance[0]),
            line_of_sight=bool(found.los[0]),
            door=bool(found.door[0]),
            wall=bool(found.wall[0]),
            cover=bool(self.in_cover(x, y)),
            surface=str(self.place.ground_points(px, py)[0]),
            lit=bool(self.lit_points(px, py)[0]),
        )


@dataclass(frozen=True)
class _Views:
    distance: FloatArray
    los: BoolArray
    door: BoolArray
    wall: BoolArray


@dataclass(frozen=True, eq=False)
class D20RiskMap:
    """The exact chance of being noticed (or heard) in one round on each 5-ft square."""

    board: D20Board
    perception: Perception
    attitude: Way
    """How the intruder moves (named ``attitude`` as the skirmish map's, for the renderers)."""
    layer: Layer
    resolution: float
    xs: FloatArray
    ys: FloatArray
    risk: FloatArray
    """The chance per square of :attr:`layer`, shape (ny, nx): ``float()`` of :meth:`exact`."""
    combination: IntArray
    exact_chances: tuple[Fraction, ...]
    noticed: FloatArray
    """The chance of being noticed per square (floats)."""
    heard: FloatArray
    """The chance of being heard per square (floats)."""
    notes: tuple[str, ...]
    noise: None = None
    """No skirmish noise event (the renderers ask)."""
    unsuited: bool = False
    unit: str = "ft"

    def exact(self, row: int, column: int) -> Fraction:
        return self.exact_chances[int(self.combination[row, column])]

    def risk_at(self, x: float, y: float) -> Fraction:
        """The exact chance at (x, y) of :attr:`layer`, by the rule functions with every
        observer at once."""
        noticed, heard = self.perception.square(
            self.board, [(g, self.board.view_at(g, x, y)) for g in self.board.guards], self.attitude
        )
        return _layer(self.layer, noticed, heard)

    def cell_of(self, x: float, y: float) -> tuple[int, int]:
        column = int(np.clip(np.floor(x / self.resolution), 0, self.xs.size - 1))
        row = int(np.clip(np.floor(y / self.resolution), 0, self.ys.size - 1))
        return row, column

    def worst(self) -> tuple[int, int]:
        row, column = np.unravel_index(int(np.argmax(self.risk)), self.risk.shape)
        return int(row), int(column)

    def per_turn(self) -> float:
        """How far the intruder moves in a round at this way (the engine's rates: its move, or
        the ruleset's ``turn.move_ft``; half of it at half speed; ``turn.run_multiplier`` times
        it running). A still intruder has no route (an InputError)."""
        if self.attitude is Way.STILL:
            raise InputError("a route moves: --attitude half, full or run", where="--attitude")
        move = self.board.intruder.move or float(self.board.rules.num("turn.move_ft"))
        if self.attitude is Way.RUN:
            return move * float(self.board.rules.num("turn.run_multiplier"))
        return move if self.attitude is Way.FULL else move / 2

    def leg_speed(self, x: float, y: float) -> tuple[Attitude, bool]:
        """A plan leg's ``speed`` and ``run`` for this way (a leg ``fast`` is more than half
        speed in the d20 games; ``run`` covers ``turn.run_multiplier`` times the move)."""
        if self.attitude is Way.RUN:
            return Attitude.FAST, True
        return (Attitude.FAST if self.attitude is Way.FULL else Attitude.HALF), False

    def guards_json(self) -> list[dict[str, object]]:
        return [{"name": g.name, "at": [g.x, g.y], "alert": g.alert} for g in self.board.guards]


def _layer(layer: Layer, noticed: Fraction, heard: Fraction) -> Fraction:
    if layer is Layer.NOTICED:
        return noticed
    if layer is Layer.HEARD:
        return heard
    return 1 - (1 - noticed) * (1 - heard)


def _cells(extent: float) -> int:
    return max(1, math.ceil(extent / SQUARE_FT - 1e-9))


def d20_risk_map(
    scenario: Scenario | D20Board,
    perception: Perception,
    way: Way,
    *,
    layer: Layer = Layer.EITHER,
    resolution: float | None = None,
    actor: str | None = None,
) -> D20RiskMap:
    """The exact risk map of a d20 scenario for the intruder moving ``way``."""
    if resolution is not None and resolution != SQUARE_FT:
        raise InputError(
            f"{resolution:g}: a d20 map is on 5-ft squares (leave --resolution out)",
            where="--resolution",
        )
    board = scenario if isinstance(scenario, D20Board) else D20Board.of(scenario, actor)
    size = board.scenario.map
    nx, ny = _cells(size.width), _cells(size.height)
    if nx * ny > MAX_SQUARES:
        raise LimitError(f"the map has {nx * ny:,} squares; at most {MAX_SQUARES:,}")
    xs = np.minimum((np.arange(nx, dtype=np.float64) + 0.5) * SQUARE_FT, size.width)
    ys = np.minimum((np.arange(ny, dtype=np.float64) + 0.5) * SQUARE_FT, size.height)
    px, py = (a.reshape(-1) for a in np.meshgrid(xs, ys))
    n = px.size
    cover = board.in_cover(px, py)
    ground = board.place.ground_points(px, py)
    kinds, surface = np.unique(ground, return_inverse=True)
    surface = surface.reshape(-1).astype(np.int64)
    lit = board.lit_points(px, py)
    marks = list(perception.distance_marks(board.rules))
    chances: list[Fraction] = []
    chance_ids: dict[Fraction, int] = {}
    sight = np.empty((n, len(board.guards)), dtype=np.int64)
    hearing = np.empty((n, len(board.guards)), dtype=np.int64)
    for k, watcher in enumerate(board.guards):
        found = board.views(watcher, px, py)
        columns = [
            np.floor_divide(found.distance, value) if kind == "step" else found.distance <= value
            for kind, value in marks
        ]
        key = np.stack(
            [
                *(c.astype(np.int64) for c in columns),
                found.los.astype(np.int64),
                found.door.astype(np.int64),
                found.wall.astype(np.int64),
                cover.astype(np.int64),
                surface,
                lit.astype(np.int64),
            ],
            axis=1,
        )
        _, first, inverse = np.unique(key, axis=0, return_index=True, return_inverse=True)
        seen_codes = np.empty(first.size, dtype=np.int64)
        heard_codes = np.empty(first.size, dtype=np.int64)
        for case, at in enumerate(first.tolist()):
            view = SquareView(
                x=float(px[at]),
                y=float(py[at]),
                distance=float(found.distance[at]),
                line_of_sight=bool(found.los[at]),
                door=bool(found.door[at]),
                wall=bool(found.wall[at]),
                cover=bool(cover[at]),
                surface=str(kinds[surface[at]]),
                lit=bool(lit[at]),
            )
            terms = perception.terms(board, watcher, view, way)
            seen_codes[case] = _code(terms.sight, chances, chance_ids)
            heard_codes[case] = _code(terms.hearing, chances, chance_ids)
        inverse = inverse.reshape(-1)
        sight[:, k] = seen_codes[inverse]
        hearing[:, k] = heard_codes[inverse]
    noticed_ids, noticed_exact = _combine(
        sight, lambda advantages: perception.missed(board.rules, advantages), chances
    )
    heard_ids, heard_exact = _combine(
        hearing, lambda advantages: perception.unheard(board.rules, advantages), chances
    )
    pair = noticed_ids * (len(heard_exact) + 1) + heard_ids
    _, first, ids = np.unique(pair, return_index=True, return_inverse=True)
    ids = ids.reshape(-1).astype(np.int64)
    exact = tuple(
        _layer(layer, noticed_exact[noticed_ids[at]], heard_exact[heard_ids[at]])
        for at in first.tolist()
    )
    floats = np.array([float(c) for c in exact], dtype=np.float64)
    shape = (ny, nx)
    noticed = np.array([float(c) for c in noticed_exact], dtype=np.float64)[noticed_ids]
    heard = np.array([float(c) for c in heard_exact], dtype=np.float64)[heard_ids]
    return D20RiskMap(
        board=board,
        perception=perception,
        attitude=way,
        layer=layer,
        resolution=SQUARE_FT,
        xs=xs,
        ys=ys,
        risk=floats[ids].reshape(shape),
        combination=ids.reshape(shape),
        exact_chances=exact,
        noticed=noticed.reshape(shape),
        heard=heard.reshape(shape),
        notes=perception.notes(board, way),
    )


def _code(term: int | Fraction, chances: list[Fraction], ids: dict[Fraction, int]) -> int:
    """A term as one integer: NEVER, CERTAIN, a clamped advantage, or a chance's index."""
    if isinstance(term, Fraction):
        if term == 0:
            return NEVER
        if term == 1:
            return CERTAIN
        if term not in ids:
            ids[term] = len(chances)
            chances.append(term)
        return _CHANCE_BASE + ids[term]
    if term in (NEVER, CERTAIN):
        return term
    return max(-_CLAMP, min(_CLAMP, int(term)))


def _combine(
    codes: IntArray,
    shared: Callable[[Sequence[int]], Fraction],
    chances: Sequence[Fraction],
) -> tuple[IntArray, list[Fraction]]:
    """Per square, the exact chance that at least one observer succeeds: squares with the
    same multiset of terms share an id, and each id's chance is computed once."""
    n = codes.shape[0]
    if codes.shape[1] == 0:
        return np.zeros(n, dtype=np.int64), [Fraction(0)]
    ordered = np.sort(codes, axis=1)
    rows, inverse = np.unique(ordered, axis=0, return_inverse=True)
    found: list[Fraction] = []
    for row in rows.tolist():
        if CERTAIN in row:
            found.append(Fraction(1))
            continue
        advantages = [c for c in row if -_CLAMP <= c <= _CLAMP]
        missed = shared(advantages) if advantages else Fraction(1)
        for c in row:
            if c >= _CHANCE_BASE:
                missed *= 1 - chances[c - _CHANCE_BASE]
        found.append(1 - missed)
    return inverse.reshape(-1).astype(np.int64), found


def plugin_map(
    perception: Perception,
    scenario: Scenario,
    request: RiskRequest | str,
    *,
    resolution: float | None = None,
    layer: str | None = None,
    actor: str | None = None,
) -> D20RiskMap:
    """A d20 game's risk map hook (:class:`vigile.games.contract.RiskMapHook`): the
    :class:`~vigile.games.contract.RiskRequest` read in the d20 words (the way, the layer, the
    cell, the intruder), or the way itself and those options. A sound or a switch (the
    skirmish's ``--noise`` and ``--unsuited-outfit``) is refused, naming what to use."""
    if isinstance(request, str):
        request = RiskRequest(request, resolution=resolution, layer=layer, actor=actor)
    if request.sound is not None:
        raise InputError(
            "--noise EVENT maps a skirmish noise; a d20 map's hearing is --layer heard",
            where="--noise",
        )
    unknown_switches(request)
    return d20_risk_map(
        scenario,
        perception,
        parse_way(request.way),
        layer=parse_layer(request.layer),
        resolution=request.resolution,
        actor=request.actor,
    )
