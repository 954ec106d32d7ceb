"""The compiled kernel plays the turn engine's game, run by run (issue 14): an exact test.

The engine (:class:`~vigile.games.skirmish.raid.SkirmishGame`) and the kernel
(:class:`~vigile.games.skirmish.kernel.raid.KernelRaid`) are fed the same uniforms through the
draw interface (:class:`~vigile.dice.source.UniformFaces` over a
:class:`~vigile.dice.source.UniformStream`), the runs one after the other on one stream. Each
run must end the same way on the same turn, with the same first detection, the same pairs
(guard, intruder) detected, the same guards alive and on alert, what each intruder knows of each
guard, and the same number of uniforms drawn: the turn order is written twice, and this holds
them together. On every bundled skirmish raid, the hand-worked scenarios, and random ones.

The statistical checks against the hand-worked exact answers (as ``test_hand_worked.py`` does
for the batch) close the file.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

pytest.importorskip("numba")

import vigile
from bench_scenarios import bench_simulate
from test_hand_worked import EXACT, GUARD_DETECTIONS, within
from vigile.awareness.ladder import AwarenessState
from vigile.dice.source import UniformFaces, UniformStream
from vigile.errors import VigileError
from vigile.games.skirmish.kernel.raid import KernelRaid
from vigile.games.skirmish.kernel.tables import BRUTE_WALLS
from vigile.games.skirmish.raid import SkirmishGame
from vigile.scene.actors import Side
from vigile.scene.loader import load_scenario, parse_scenario
from vigile.scene.model import Scenario
from vigile.sim.tally import CODE, OUTCOMES

HERE = Path(__file__).parent / "scenarios"
BUNDLED = Path(vigile.__file__).parent / "scenarios"
BUNDLED_RAIDS = ["night-raid", "night-raid-unscouted", "sk-n9-shoji", "sk-v7-terrace"]
HAND_WORKED = sorted(p.stem for p in HERE.glob("*.yaml"))
STATES = list(AwarenessState)


def engine_runs(scenario: Scenario, uniforms: np.ndarray, runs: int) -> list[tuple[object, ...]]:
    """The engine's runs, one after the other on the stream of ``uniforms``."""
    rules = scenario.rules()
    guards = [a.name for a in scenario.actors if a.side is Side.DEFENDERS]
    intruders = [a.name for a in scenario.actors if a.side is Side.ATTACKERS]
    found: list[tuple[object, ...]] = []
    start = 0
    for _ in range(runs):
        stream = UniformStream(uniforms[start:])
        game = SkirmishGame(scenario, rules, stream, UniformFaces(stream))  # type: ignore[arg-type]
        result = game.play()
        start += stream.used
        seen = [(e.turn, e.actor, e.target) for e in result.events if e.kind == "perceive"]
        by_guards = [s for s in seen if s[1] in guards]
        walkers = game.by_name
        found.append(
            (
                CODE[result.outcome.ending],
                result.outcome.turn,
                by_guards[0][0] if by_guards else 0,
                sorted({(g, i) for _, g, i in by_guards}),
                [walkers[g].alive for g in guards],
                [walkers[g].alert for g in guards],
                [[STATES.index(walkers[i].aware_of(g)) for g in guards] for i in intruders],
                stream.used,
            )
        )
    return found


def kernel_runs(scenario: Scenario, uniforms: np.ndarray, runs: int) -> list[tuple[object, ...]]:
    guards = [a.name for a in scenario.actors if a.side is Side.DEFENDERS]
    intruders = [a.name for a in scenario.actors if a.side is Side.ATTACKERS]
    traced = KernelRaid.of(scenario).trace(uniforms, runs)
    n_g, n_i = len(guards), len(intruders)
    return [
        (
            int(traced.outcome[r]),
            int(traced.end[r]),
            int(traced.first[r]),
            sorted(
                (guards[g], intruders[i]) for g, i in zip(*np.nonzero(traced.pairs[r]), strict=True)
            ),
            [bool(v) for v in traced.alive[r, :n_g]],
            [bool(v) for v in traced.alert[r, :n_g]],
            [[int(traced.aware[r, i, g]) for g in range(n_g)] for i in range(n_i)],
            int(traced.used[r]),
        )
        for r in range(runs)
    ]


def assert_same_game(scenario: Scenario, runs: int, seed: int) -> None:
    uniforms = np.random.default_rng(seed).random(runs * 4000 + 1000)
    engine = engine_runs(scenario, uniforms, runs)
    kernel = kernel_runs(scenario, uniforms, runs)
    for run, (e, k) in enumerate(zip(engine, kernel, strict=True)):
        assert e == k, f"run {run}: engine {e} kernel {k}"


@pytest.mark.parametrize("name", BUNDLED_RAIDS)
def test_the_kernel_plays_the_engines_game_on_the_bundled_raids(name: str) -> None:
    assert_same_game(load_scenario(name), 6 if name.startswith("night-raid") else 60, seed=3)


@pytest.mark.parametrize("more", [0, 60])
def test_the_kernel_plays_the_engines_game_with_walls_in_pieces(more: int) -> None:
    """The night raid with its walls cut in pieces (96), and ``more`` short walls besides: the
    kernel lists the runs of a straight wall's pieces as one entry, skipped where its box is
    apart from the query's (:mod:`vigile.sim.kernel.grid`), and tries every entry (few) or,
    beyond ``BRUTE_WALLS`` entries, gathers the walls of the map cells a line of sight or a
    noise passes through (:func:`vigile.sim.kernel.geometry.gather`): the same game."""
    bench = bench_simulate()
    scenario = bench.with_walls_cut(load_scenario("night-raid"), 2 * BRUTE_WALLS)
    if more:
        scenario = bench.with_walls(scenario, 2 * BRUTE_WALLS + more)
    model = KernelRaid.of(scenario).model
    every_wall = model.arrays["every_wall"]
    assert len(scenario.walls) == 2 * BRUTE_WALLS + more and (every_wall < 0).any()
    assert bool(model.numbers["brute"]) == (len(every_wall) <= BRUTE_WALLS) == (not more)
    assert_same_game(scenario, 6, seed=5)


@pytest.mark.parametrize("name", HAND_WORKED)
def test_the_kernel_plays_the_engines_game_on_the_hand_worked_scenarios(name: str) -> None:
    assert_same_game(load_scenario(HERE / f"{name}.yaml"), 200, seed=11)


MELEE_OFF = "house_rules: {alarm: {struck_sees: false, striker_knows: false}}\n"
"""The two melee rulings of SK-G5 [R] switched off (``alarm.struck_sees``,
``alarm.striker_knows``): the kernel reads them from its tables, as the engine from the rules."""


@pytest.mark.parametrize("name", ["strike-within-reach", "strike-beyond-reach", "night-raid"])
def test_the_kernel_plays_the_engines_game_with_the_melee_rulings_off(name: str) -> None:
    hand_worked = (HERE / f"{name}.yaml").exists()
    path = HERE / f"{name}.yaml" if hand_worked else BUNDLED / f"{name}.yaml"
    text = path.read_text(encoding="utf-8")
    assert_same_game(parse_scenario(text + MELEE_OFF), 200 if hand_worked else 6, seed=12)


coordinate = st.integers(min_value=2, max_value=58)
point = st.tuples(coordinate, coordinate)
west = st.tuples(st.integers(2, 28), st.integers(32, 58))
"""Where the walls stand: the south-west quarter, where no intruder goes."""
east = st.tuples(st.integers(32, 58), coordinate)
"""Where the intruders go."""
in_cover = st.tuples(st.integers(36, 44), st.integers(36, 44))


@st.composite
def raids(draw: st.DrawFn) -> str:
    """A small raid: a 60 x 60 board, a few walls (one a door that an intruder may open), a
    light, a cover, guards posted or patrolling (some in a group, one talking), one or two
    intruders with a plan of fast, half-speed and hidden legs, a kill and a strike."""
    walls = [
        {
            "kind": draw(st.sampled_from(["wall", "partition", "door", "window"])),
            "start": list(a),
            "end": list(b),
        }
        for a, b in draw(st.lists(st.tuples(west, west), max_size=4))
        if a != b
    ]
    walls.append({"kind": "door", "name": "gate", "start": [30, 40], "end": [30, 50]})
    guards = []
    for k in range(draw(st.integers(1, 4))):
        guard: dict[str, object] = {
            "name": f"G{k}",
            "side": "defenders",
            "position": list(draw(point)),
            "dice": draw(st.integers(1, 3)),
            "state": draw(st.sampled_from(["posted", "patrolling"])),
        }
        if guard["state"] == "patrolling" and draw(st.booleans()):
            guard["group"] = "pair"
        if draw(st.integers(0, 4)) == 0:
            guard["alert"] = True
        if k == 0 and draw(st.booleans()):
            guard["talks"] = draw(st.sampled_from(["whisper", "conversation", "animated"]))
        guards.append(guard)
    intruders, plans = [], {}
    for k in range(draw(st.integers(1, 2))):
        name = f"N{k}"
        intruders.append(
            {
                "name": name,
                "side": "attackers",
                "position": list(draw(east)),
                "dice": {
                    "ninjitsu": draw(st.integers(1, 3)),
                    "perception": draw(st.integers(1, 2)),
                },
            }
        )
        legs: list[dict[str, object]] = []
        for _ in range(draw(st.integers(1, 4))):
            speed = draw(st.sampled_from(["fast", "half", "hidden", "immobile"]))
            leg: dict[str, object] = {
                "to": list(draw(in_cover if speed == "hidden" else east)),
                "speed": speed,
            }
            if leg["speed"] == "immobile":
                del leg["to"]
            action = draw(st.sampled_from(["none", "kill", "strike", "open", "speak", "grapple"]))
            target = draw(st.sampled_from([g["name"] for g in guards]))
            leg["actions"] = {
                "none": [],
                "kill": [{"do": "kill", "target": target, "ranged": draw(st.booleans())}],
                "strike": [{"do": "strike", "target": target}],
                "open": [{"do": "open-door", "door": "gate"}],
                "speak": [{"do": "speak", "volume": "conversation"}],
                "grapple": [{"do": "throw-grapple", "onto": "tile"}],
            }[action]
            legs.append(leg)
        plans[name] = legs
    scouted = draw(st.booleans())
    scenario = {
        "ruleset": "skirmish",
        "name": "random raid",
        "map": {"width": 60, "height": 60},
        "turns": draw(st.integers(2, 8)),
        "alarm_ends": draw(st.booleans()),
        "default_surface": draw(st.sampled_from(["grass", "floor", "water"])),
        "surfaces": [{"kind": "floor", "points": [[0, 0], [30, 0], [30, 30], [0, 30]]}],
        "cover": [{"points": [[35, 35], [45, 35], [45, 45], [35, 45]]}],
        "lights": [{"kind": "lantern", "at": list(draw(point))}] if draw(st.booleans()) else [],
        "walls": walls,
        "actors": intruders + guards,
        "plans": plans,
        "scouting": {
            "observed_beforehand": scouted,
            "detected_while_scouting": scouted and draw(st.integers(0, 4)) == 0,
        },
        "hidden_guards": ["G0"] if draw(st.booleans()) else [],
    }
    if draw(st.booleans()):
        scenario["objective"] = {"area": [[40, 40], [58, 40], [58, 58], [40, 58]]}
    return json.dumps(scenario)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(raids(), st.integers(0, 2**32 - 1))
def test_the_kernel_plays_the_engines_game_on_random_raids(text: str, seed: int) -> None:
    try:
        scenario = parse_scenario(text, fmt="json")
    except VigileError:
        assume(False)
        raise
    assert_same_game(scenario, 8, seed)


# ---------------------------------------------------------------- the hand-worked answers


@pytest.mark.parametrize("name", sorted(EXACT))
def test_the_kernel_holds_the_hand_worked_chance(name: str) -> None:
    scenario = load_scenario(HERE / f"{name}.yaml")
    runs = 20_000
    tally = KernelRaid.of(scenario).play(runs, np.random.default_rng(17))
    guards = [a.name for a in scenario.actors if a.side is Side.DEFENDERS]
    for code, outcome in enumerate(OUTCOMES):
        p = float(EXACT[name].get(outcome, 0))
        assert within(int(tally.outcomes[code]) / runs, p, runs), (outcome, p)
    for (where, guard), p in GUARD_DETECTIONS.items():
        if where == name:
            rate = int(tally.guard_detections[guards.index(guard)]) / runs
            assert within(rate, float(p), runs), guard
