"""Where the turn engine's games catch their intruders: the heat map of a simulation the engine
plays game by game (the d20 games, day encounters), for ``vigile simulate --plot``.

A detection, as everywhere in the simulator (RULES.md §4), is a defender who comes to know an
intruder's square or to see it (a :class:`~vigile.engine.events.Perception` that ``detects``);
it is counted where the intruder
stood then (its last position in the log: its start, or where its last move left it),
on the :data:`~vigile.sim.tally.HEAT_BINS` grid of the compiled kernels' tallies.

:func:`replayed_heat` plays again the very games of :func:`vigile.sim.simulate.engine_block`
(the same seeds, block by block), since that block tallies no heat yet; its outcomes are
returned too, so that a caller (and a test) can check they are the simulation's.
"""

from __future__ import annotations

import numpy as np

from vigile.engine.result import GameResult
from vigile.scene.actors import Side
from vigile.scene.model import Scenario
from vigile.sim.simulate import blocks, check_perceptions
from vigile.sim.tally import CODE, HEAT_BINS, OUTCOMES, Ints

__all__ = ["caught_at", "heat_of", "replayed_heat"]


def caught_at(result: GameResult) -> list[tuple[float, float]]:
    """Where the intruder stood at each detection of the game (its typed perceptions,
    :class:`~vigile.engine.events.Perception`), in the log's order; a game that detected an
    intruder without logging a perception is refused (:func:`~.simulate.check_perceptions`)."""
    check_perceptions(result)
    scenario = result.scenario
    guards = {a.name for a in scenario.actors if a.side is Side.DEFENDERS}
    where = {
        a.name: (float(a.position[0]), float(a.position[1]))
        for a in scenario.actors
        if a.side is Side.ATTACKERS
    }
    found: list[tuple[float, float]] = []
    for event in result.events:
        if event.kind == "move" and event.actor in where and event.at is not None:
            where[event.actor] = (float(event.at[0]), float(event.at[1]))
        elif (
            (seen := event.perception) is not None
            and seen.detects
            and seen.observer in guards
            and seen.target in where
        ):
            found.append(where[seen.target])
    return found


def heat_of(points: list[tuple[float, float]], scenario: Scenario) -> Ints:
    """The points on the heat map's grid over the map (x first, as the kernels' tallies)."""
    if not points:
        return np.zeros((HEAT_BINS, HEAT_BINS), np.int64)
    xs, ys = zip(*points, strict=True)
    heat, _, _ = np.histogram2d(
        xs,
        ys,
        bins=HEAT_BINS,
        range=[[0, scenario.map.width], [0, scenario.map.height]],
    )
    found: Ints = heat.astype(np.int64)
    return found


def replayed_heat(scenario: Scenario, runs: int, seed: int) -> tuple[Ints, Ints]:
    """(heat, outcomes) of the games ``simulate`` played in the engine for these runs and seed:
    each block's games again, seeded as :func:`vigile.sim.simulate.engine_block` seeds them."""
    from vigile.dice.source import RolledFaces
    from vigile.engine.run import play

    points: list[tuple[float, float]] = []
    outcomes = np.zeros(len(OUTCOMES), np.int64)
    for index, size in blocks(runs):
        sequence = np.random.SeedSequence(seed, spawn_key=(index,))
        for child in sequence.spawn(size):
            rng = np.random.default_rng(child)
            result = play(scenario, seed=int(rng.integers(2**62)), faces=RolledFaces(rng))
            outcomes[CODE[result.outcome.ending]] += 1
            points += caught_at(result)
    return heat_of(points, scenario), outcomes
