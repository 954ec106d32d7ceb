"""The risk a moving patrol gives: the still-guard risk map averaged over the patrols' walks.

A game's risk map (:func:`vigile.games.contract.risk_map`) holds every guard at its start;
in play a patrolling guard walks (the skirmish's scatter die, SK-G1; a d20 game's wandering
guard), so the map and ``vigile simulate`` disagree wherever a patrol passes. Where the
intruder stands still and is not yet noticed, the patrols' walk does not depend on it: the
guards' positions at each turn have one distribution, and the chance of being detected at a
point in turn ``t`` is the still-guard chance for the guards where they stand then, averaged
over that distribution.

So this module samples it, one game per draw: the game's own turn is built
(:func:`vigile.engine.run.new_game`, seeded from ``SeedSequence(seed, spawn_key=(draw,))``)
and only its patrol step runs, turn after turn (the game's ``begin_turn`` hook: "a new turn,
the patrols", :class:`vigile.engine.game.TurnHooks`), nothing re-coded here; after each turn
the scenario is copied with every defender where the game put it, and the game's own exact
risk map (its :class:`~vigile.games.contract.RiskMapHook`) is made for it. Per cell, over
``samples`` draws and the turns ``1..turns``:

* :attr:`PatrolRiskMap.risk`, the chance of being detected in one turn of the window,
  ``mean over draws of (1/T) Σ_t p_t``: a map of the same shape and meaning as the still-guard
  map (one test a turn), which :func:`vigile.games.skirmish.route.safest_route` minimises
  unchanged;
* :attr:`PatrolRiskMap.held`, the chance of being detected at least once by an intruder who
  stands there through the whole window, ``mean over draws of 1 − Π_t (1 − p_t)``: what
  ``vigile simulate`` counts for an intruder standing still for ``turns`` turns.

Each is a Monte-Carlo mean of independent draws (the turns of one draw are not independent,
so a draw is the unit): its standard error per cell is ``std / √samples``
(:attr:`PatrolRiskMap.error`, :attr:`PatrolRiskMap.held_error`).

Rulings of the map (its notes say them): the guards walk as if no one were noticed (a guard
who has noticed the intruder stops patrolling in some games: then the figures after the first
detection no longer matter to "detected or not"); the per-turn chances of a route are taken as
independent from turn to turn, as on the still-guard map (they are not quite: a patrol near the
route one turn is near it the next).

Cost: ``samples × turns`` risk maps, each growing with its cells times its guards. Without
``--resolution`` the grid is coarsened (the cell's side doubled, as the game allows) until
cells × guards × maps is at most :data:`BUDGET`: a count, not a clock, so the same command
gives the same grid on any machine (on the night raid, 64 draws × 3 turns: 2 cm cells, about
9 s on a shared 2-core machine).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Final

import numpy as np
from numpy.typing import NDArray

from vigile.errors import InputError, LimitError
from vigile.games.contract import RiskRequest, RiskSurface, risk_map
from vigile.scene.actors import Side
from vigile.scene.model import Scenario

__all__ = [
    "BUDGET",
    "DEFAULT_SAMPLES",
    "DEFAULT_TURNS",
    "MAX_MAPS",
    "PatrolRiskMap",
    "patrol_positions",
    "patrol_risk_map",
]

FloatArray = NDArray[np.float64]

DEFAULT_SAMPLES: Final = 64
"""Draws of the patrols' walk by default (``--patrol-samples``)."""
DEFAULT_TURNS: Final = 3
"""The turns averaged by default (``--turns``): the first three, or fewer in a shorter game."""
MAX_MAPS: Final = 20_000
"""No more than this many risk maps (draws × turns): a LimitError beyond."""
BUDGET: Final = 32_000_000
"""Without ``--resolution``, the grid is coarsened until cells × guards × maps is at most
this: about 20 s (a map does some 1.6 million cell-guard pairs a second: the night raid's,
24,000 cells and 11 guards, in 0.16 s)."""
MAX_COARSENING: Final = 6
"""The cell's side is doubled at most this many times."""
STILL_NOTES: Final = frozenset({"sim.note.start_positions", "sim.note.d20_start_positions"})
"""The still-guard map's notes that a patrol map replaces (the guards at their start)."""


def patrol_positions(
    scenario: Scenario, turns: int, seed: int
) -> list[dict[str, tuple[float, float]]]:
    """Where every living defender stands after each of the turns ``1..turns`` of one draw:
    the game's own patrol step (its ``begin_turn`` hook), nothing else of the turn played."""
    from vigile.engine.game import HookMissing
    from vigile.engine.run import new_game

    game = new_game(scenario, seed=seed)
    found: list[dict[str, tuple[float, float]]] = []
    for _ in range(turns):
        try:
            game.begin_turn()
        except HookMissing:
            raise InputError(
                f"the game {scenario.ruleset} plays its turn in one piece (no begin_turn "
                "hook): its patrols cannot be walked apart",
                where="--patrols",
            ) from None
        found.append({w.name: (float(w.x), float(w.y)) for w in game.defenders()})
    return found


def moved_scenario(scenario: Scenario, places: dict[str, tuple[float, float]]) -> Scenario:
    """The scenario with each defender named in ``places`` standing there (the others as
    they are): what the still-guard map is made of at one turn of one draw."""
    actors = [
        actor.model_copy(update={"position": places[actor.name]})
        if actor.side is Side.DEFENDERS and actor.name in places
        else actor
        for actor in scenario.actors
    ]
    return scenario.model_copy(update={"actors": actors})


def _patrolling(scenario: Scenario) -> list[str]:
    return [
        actor.name
        for actor in scenario.actors
        if actor.side is Side.DEFENDERS and getattr(actor.state, "value", "") == "patrolling"
    ]


def _draw_seed(seed: int, draw: int) -> int:
    state = np.random.SeedSequence(seed, spawn_key=(draw,)).generate_state(2, dtype=np.uint32)
    return int(state[0]) << 32 | int(state[1])


def _coarser(request: RiskRequest, surface: RiskSurface) -> RiskRequest:
    return RiskRequest(
        request.way,
        resolution=surface.resolution * 2,
        layer=request.layer,
        actor=request.actor,
        sound=request.sound,
        switches=request.switches,
    )


def _first_map(
    scenario: Scenario, request: RiskRequest, maps: int, budget: int
) -> tuple[RiskRequest, RiskSurface]:
    """The first map at a resolution whose ``maps`` maps fit the budget (cells × guards ×
    maps; the request's own resolution, if it names one), and its request."""
    surface = risk_map(scenario, request)
    if request.resolution is not None:
        return request, surface
    guards = max(1, len(surface.board.guards))
    for _ in range(MAX_COARSENING):
        if surface.risk.size * guards * maps <= budget or min(surface.risk.shape) <= 4:
            break
        coarser = _coarser(request, surface)
        try:
            candidate = risk_map(scenario, coarser)
        except (InputError, LimitError):
            break  # the game keeps its own cell (a d20 game's 5-ft squares)
        request, surface = coarser, candidate
    return request, surface


@dataclass(frozen=True, eq=False)
class PatrolRiskMap:
    """The still-guard map's shape (:class:`~vigile.games.contract.RiskSurface`), its chances
    averaged over the patrols' walks; anything else is the first sampled map's."""

    base: RiskSurface
    """The still-guard map of the first draw's first turn: the grid, the board, the hooks."""
    risk: FloatArray
    """The chance of being detected in one turn of the window, per cell (a mean of draws)."""
    error: FloatArray
    """Its standard error per cell (``std / √samples``)."""
    held: FloatArray
    """The chance of being detected at least once standing there through the window."""
    held_error: FloatArray
    """Its standard error per cell."""
    still: FloatArray
    """The still-guard map's chances, the guards at their start, on the same grid."""
    samples: int
    """Draws of the patrols' walk."""
    turns: int
    """The window: turns 1 to ``turns``."""
    seed: int
    """The draws' seed."""
    seconds: float
    """How long the maps took."""
    patrols: tuple[str, ...]
    """The patrolling defenders."""

    @property
    def board(self) -> Any:
        """The board at the start (its guards as they start)."""
        return self.base.board

    @property
    def attitude(self) -> Any:
        return self.base.attitude

    @property
    def noise(self) -> Any:
        return self.base.noise

    @property
    def unsuited(self) -> bool:
        return self.base.unsuited

    @property
    def resolution(self) -> float:
        return self.base.resolution

    @property
    def unit(self) -> str:
        return self.base.unit

    @property
    def xs(self) -> FloatArray:
        return self.base.xs

    @property
    def ys(self) -> FloatArray:
        return self.base.ys

    @property
    def notes(self) -> tuple[str, ...]:
        kept = tuple(n for n in self.base.notes if n not in STILL_NOTES)
        return ("sim.note.patrols_sampled", *kept, "sim.note.patrols_unnoticed")

    def __getattr__(self, name: str) -> Any:
        """What else a game's map carries (a d20 map's ``layer``) is the base map's."""
        if name.startswith("__") or name == "base":
            raise AttributeError(name)
        return getattr(self.base, name)

    def max_error(self) -> float:
        """The largest standard error of :attr:`risk` over the cells."""
        return float(self.error.max(initial=0.0))

    def held_max_error(self) -> float:
        """The largest standard error of :attr:`held` over the cells."""
        return float(self.held_error.max(initial=0.0))

    def worst(self) -> tuple[int, int]:
        row, column = np.unravel_index(int(np.argmax(self.risk)), self.risk.shape)
        return int(row), int(column)

    def exact(self, row: int, column: int) -> Fraction:
        """No exact chance: the cell's sampled mean, as a fraction of its float."""
        return Fraction(float(self.risk[row, column]))

    def cell_of(self, x: float, y: float) -> tuple[int, int]:
        return self.base.cell_of(x, y)

    def risk_at(self, x: float, y: float) -> Fraction:
        """The sampled chance of the cell holding (x, y) (no exact chance at a point)."""
        return Fraction(float(self.risk[self.cell_of(x, y)]))

    def per_turn(self) -> float:
        return self.base.per_turn()

    def leg_speed(self, x: float, y: float) -> Any:
        return self.base.leg_speed(x, y)

    def guards_json(self) -> list[dict[str, object]]:
        patrols = set(self.patrols)
        return [{**g, "patrols": g.get("name") in patrols} for g in self.base.guards_json()]

    def patrols_json(self) -> dict[str, object]:
        """What ``--json`` says of the sampling."""
        return {
            "samples": self.samples,
            "turns": self.turns,
            "seed": self.seed,
            "seconds": round(self.seconds, 3),
            "patrolling": list(self.patrols),
            "max_standard_error": round(self.max_error(), 6),
            "held_max_standard_error": round(self.held_max_error(), 6),
        }


def patrol_risk_map(
    scenario: Scenario,
    request: RiskRequest,
    *,
    samples: int = DEFAULT_SAMPLES,
    turns: int | None = None,
    seed: int = 0,
    budget: int = BUDGET,
) -> PatrolRiskMap:
    """The risk map of ``request`` with the patrols walking: ``samples`` draws of the turns
    ``1..turns`` (default: :data:`DEFAULT_TURNS`, at most the scenario's turns), from ``seed``
    (see the module's docstring)."""
    if samples < 2:
        raise InputError(
            f"{samples}: at least 2 draws (a standard error needs two)", where="--patrol-samples"
        )
    window = min(DEFAULT_TURNS, scenario.turns) if turns is None else turns
    if not 1 <= window <= scenario.turns:
        raise InputError(
            f"{window}: the window is 1 to the scenario's {scenario.turns} turns", where="--turns"
        )
    if samples * window > MAX_MAPS:
        raise LimitError(
            f"--patrol-samples {samples} × --turns {window} = {samples * window:,} risk maps; "
            f"at most {MAX_MAPS:,}"
        )
    patrols = _patrolling(scenario)
    if not patrols:
        raise InputError(
            "no defender patrols in this scenario: the still-guard map is its risk",
            where="--patrols",
        )
    started = time.perf_counter()
    still = risk_map(scenario, request)
    first = patrol_positions(scenario, window, _draw_seed(seed, 0))
    chosen, base = _first_map(moved_scenario(scenario, first[0]), request, samples * window, budget)
    if chosen is not request:
        still = risk_map(scenario, chosen)
    shape = base.risk.shape
    total, squares = np.zeros(shape), np.zeros(shape)
    held_total, held_squares = np.zeros(shape), np.zeros(shape)
    for draw in range(samples):
        places = first if draw == 0 else patrol_positions(scenario, window, _draw_seed(seed, draw))
        turn_sum, missed = np.zeros(shape), np.ones(shape)
        for t, at in enumerate(places):
            chance = (
                base.risk
                if draw == 0 and t == 0
                else risk_map(moved_scenario(scenario, at), chosen).risk
            )
            turn_sum += chance
            missed *= 1.0 - chance
        mean = turn_sum / window
        total += mean
        squares += mean * mean
        held = 1.0 - missed
        held_total += held
        held_squares += held * held
    risk = total / samples
    held_mean = held_total / samples
    return PatrolRiskMap(
        base=base,
        risk=risk,
        error=_standard_error(risk, squares, samples),
        held=held_mean,
        held_error=_standard_error(held_mean, held_squares, samples),
        still=still.risk,
        samples=samples,
        turns=window,
        seed=seed,
        seconds=time.perf_counter() - started,
        patrols=tuple(patrols),
    )


def _standard_error(mean: FloatArray, squares: FloatArray, n: int) -> FloatArray:
    """``s / √n`` per cell, ``s²`` the unbiased variance of the ``n`` draws."""
    variance = np.maximum(squares / n - mean * mean, 0.0) * n / (n - 1)
    result: FloatArray = np.sqrt(variance / n)
    return result
