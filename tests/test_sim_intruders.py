"""``vigile simulate``: each intruder's chance of being detected (located or seen), issue 37.

Counted from whom each guard detected: the compiled kernels' pairs (guard, intruder), which
``test_kernel_equivalence.py`` holds equal to the engine's run by run, and the engine's typed
perceptions. Checked here against the engine's own games counted by hand, and for consistency:
a run that detected some intruder is a run that detected (``detected``), so the largest
intruder's count is at most ``detected``'s and their sum at least it.
"""

from __future__ import annotations

import json
from typing import cast

import numpy as np
import pytest

from vigile.awareness.ladder import AwarenessState
from vigile.cli import main
from vigile.dice.source import RolledFaces
from vigile.engine.run import play
from vigile.scene.actors import Side
from vigile.scene.loader import load_scenario
from vigile.sim.simulate import simulate

DETECTING = {AwarenessState.LOCATION, AwarenessState.OBSERVED}
"""Located or seen (RULES.md §4), written out here rather than read from the engine."""


def by_hand(name: str, runs: int, seed: int) -> dict[str, int]:
    """The engine's games of one block, as ``vigile simulate`` seeds them, each intruder's
    runs in which a defender located or saw him, read off the game's log."""
    scenario = load_scenario(name)
    guards = {a.name for a in scenario.actors if a.side is Side.DEFENDERS}
    intruders = [a.name for a in scenario.actors if a.side is Side.ATTACKERS]
    counts = dict.fromkeys(intruders, 0)
    for child in np.random.SeedSequence(seed, spawn_key=(0,)).spawn(runs):
        rng = np.random.default_rng(child)
        result = play(scenario, seed=int(rng.integers(2**62)), faces=RolledFaces(rng))
        for intruder in intruders:
            counts[intruder] += any(
                e.perception.target == intruder
                and e.perception.observer in guards
                and e.perception.state in DETECTING
                for e in result.events
                if e.perception is not None
            )
    return counts


@pytest.mark.parametrize("name", ["sk-v7-terrace", "dnd35-rogue-sneak-attack"])
def test_the_engines_count_by_intruder_is_its_games_counted_by_hand(name: str) -> None:
    result = simulate(load_scenario(name), 60, seed=4, model="engine")
    found = {k: e.count for k, e in result.intruder_detections.items()}
    assert found == by_hand(name, 60, seed=4)
    assert max(found.values()) <= result.detected.count <= sum(found.values())


def test_the_kernels_count_by_intruder_is_the_engines_pairs() -> None:
    """The raid kernel's tally of a traced block, against the engine's games played on the
    same uniforms (the equivalence test's harness): the same runs per intruder."""
    pytest.importorskip("numba")
    from test_kernel_equivalence import engine_runs
    from vigile.games.skirmish.kernel.raid import KernelRaid
    from vigile.sim.kernel.blocks import tally

    scenario = load_scenario("sk-v7-terrace")
    runs = 60
    uniforms = np.random.default_rng(8).random(runs * 4000 + 1000)
    engine = engine_runs(scenario, uniforms, runs)
    traced = KernelRaid.of(scenario).trace(uniforms, runs)
    guards = [a.name for a in scenario.actors if a.side is Side.DEFENDERS]
    intruders = [a.name for a in scenario.actors if a.side is Side.ATTACKERS]
    counted = tally(scenario.turns, len(guards), traced.outcome, traced.first, traced.pairs, None)
    pairs = [cast(list[tuple[str, str]], run[3]) for run in engine]
    assert [int(c) for c in counted.intruder_detections[: len(intruders)]] == [
        sum(any(i == name for _, i in run) for run in pairs) for name in intruders
    ]
    assert sum(counted.intruder_detections) > 0  # the block detected someone: no empty test


@pytest.mark.parametrize("name", ["night-raid", "sk-v7-terrace", "dnd35-rogue-sneak-attack"])
def test_the_compiled_count_by_intruder_agrees_with_detected(name: str) -> None:
    result = simulate(load_scenario(name), 20_000, seed=2)
    assert result.batched
    counts = [e.count for e in result.intruder_detections.values()]
    intruders = [a.name for a in result.scenario.actors if a.side is Side.ATTACKERS]
    assert list(result.intruder_detections) == intruders
    assert max(counts) <= result.detected.count <= sum(counts)


def test_one_intruder_is_detected_when_the_run_is() -> None:
    result = simulate(load_scenario("sk-a6-ambush"), 2000, seed=1)
    ((_name, estimate),) = result.intruder_detections.items()
    assert estimate == result.detected


def test_simulate_prints_each_intruder(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "sk-v7-terrace", "--runs", "4000", "--seed", "1", "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    intruders = found["intruder_detections"]
    assert len(intruders) == 3
    for estimate in intruders.values():
        low, high = estimate["ci95"]
        assert low <= estimate["p"] <= high and estimate["count"] <= found["detected"]["count"]
    assert main(["simulate", "sk-v7-terrace", "--runs", "4000", "--seed", "1"]) == 0
    text = capsys.readouterr().out
    assert "Chance each intruder was located or seen at least once:" in text
    for name in intruders:
        assert f"  {name} " in text


def test_a_model_that_keeps_no_intruder_says_so() -> None:
    """A tally without counts by intruder (a kernel that keeps only who detected) and two
    intruders or more: the text says the figure is missing rather than leave it out."""
    from vigile.io.i18n import Lang
    from vigile.io.sim_text import simulation_text
    from vigile.sim.simulate import SimResult
    from vigile.sim.tally import Tally

    scenario = load_scenario("sk-v7-terrace")
    guards = [a.name for a in scenario.actors if a.side is Side.DEFENDERS]
    tally = Tally.empty(scenario.turns, len(guards))
    tally.runs, tally.first_detection[0] = 10, 10
    result = SimResult(scenario, 10, 0, tally, guards)
    assert result.intruder_detections == {}
    text = simulation_text(result, Lang.EN, None)
    assert any("not recorded by the model that played" in line for line in text)


TWO_PAST_THE_GUARD = """
# walk-past-guard (tests/scenarios) with a second ninja, named first: Near walks past the guard
# at 15.6 and 13 cm (two 5+ tests on one die, SK-V3): seen with 1 - (2/3)^2 = 5/9. Far walks at
# half speed along y = 95, 45 cm or more from the guard, beyond the 20 cm of half speed: never
# tested, never seen. Detected: 5/9 (only Near can be).
ruleset: skirmish
name: Two past the guard
map: {width: 110, height: 100}
turns: 10
actors:
  - {name: Far, side: attackers, position: [10, 95], dice: {ninjitsu: 1}}
  - {name: Near, side: attackers, position: [10, 62], dice: {ninjitsu: 1}}
  - {name: Guard, side: defenders, position: [50, 50], dice: 1}
plans:
  Near:
    - {to: [100, 62], speed: half}
  Far:
    - {to: [100, 95], speed: half}
objective: {area: [[95, 0], [110, 0], [110, 100], [95, 100]]}
"""


@pytest.mark.parametrize(("model", "runs"), [("kernel", 20_000), ("engine", 600)])
def test_each_intruders_chance_worked_by_hand(model: str, runs: int) -> None:
    """Near 5/9, Far 0, by name in the scenario's order (Far first): the counts go to the
    intruder they belong to."""
    from test_hand_worked import within
    from vigile.scene.loader import parse_scenario

    scenario = parse_scenario(TWO_PAST_THE_GUARD, file="two.yaml", fmt="yaml")
    result = simulate(scenario, runs, seed=1, model=model)
    found = result.intruder_detections
    assert list(found) == ["Far", "Near"]
    assert found["Far"].count == 0
    assert within(found["Near"].p, 5 / 9, runs)
    low, high = found["Near"].interval
    assert low <= 5 / 9 <= high
    assert found["Near"].count == result.detected.count
