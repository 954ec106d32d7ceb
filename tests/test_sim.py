"""The simulator agrees with the rule functions, the turn engine and exact answers."""

from __future__ import annotations

import functools
import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from vigile.dice.source import RolledFaces
from vigile.errors import InputError, LimitError
from vigile.games.skirmish.kernel.tables import (
    ATTITUDES,
    NOISE,
    KernelModel,
    build,
    roll_code,
)
from vigile.games.skirmish.raid import SkirmishGame
from vigile.rulesets.skirmish.common import Roller
from vigile.rulesets.skirmish.noise import NoiseEvent, Surface, noise_check
from vigile.rulesets.skirmish.sight import Attitude, sight_check
from vigile.scene.loader import load_scenario, parse_scenario
from vigile.sim.simulate import BLOCK, simulate
from vigile.sim.tally import OUTCOMES

PAST_THE_GUARD = """
ruleset: skirmish
name: Past the guard
map: {width: 110, height: 100}
turns: 10
actors:
  - {name: Ninja, side: attackers, position: [10, 62], dice: {ninjitsu: 1}}
  - {name: Guard, side: defenders, position: [50, 50], dice: 1}
plans:
  Ninja:
    - {to: [100, 62], speed: half}
objective: {area: [[95, 0], [110, 0], [110, 100], [95, 100]]}
"""
"""One guard; a ninja walks past at half speed (15 cm a turn): at x = 40 and 55 he is 15.6 and
13 cm away (a 5+ test each, SK-V3: half speed is tested under 20 cm), elsewhere over 20 cm. So
he stays unseen with (2/3)^2. If seen, he is beyond striking reach (5 cm): no initiative, the
guard cries the alarm (SK-G5); the game goes on and the ninja reaches the objective anyway."""

EXACT = {
    "objective_unseen": Fraction(4, 9),
    "objective_after_alarm": Fraction(5, 9),
    "objective_detected": Fraction(0),
    "alarm": Fraction(0),
    "turn_limit": Fraction(0),
}


@functools.cache
def night_raid_model() -> KernelModel:
    """The night raid's kernel tables, built once for the whole module (hypothesis calls the
    table tests a hundred times; the tables are the same each time). Building them compiles
    nothing."""
    return build(load_scenario("night-raid"))


def within(p_hat: float, p: float, n: int, z: float = 4.5) -> bool:
    return abs(p_hat - p) <= z * math.sqrt(max(p * (1 - p), 1e-4) / n) + 1e-12


def test_exact_scenario_simulated_agrees_with_the_exact_answer() -> None:
    scenario = parse_scenario(PAST_THE_GUARD)
    result = simulate(scenario, 40_000, seed=1)
    for name, p in EXACT.items():
        assert within(result.outcome(name).p, float(p), result.runs), name


def test_exact_scenario_engine_agrees_with_the_exact_answer() -> None:
    scenario = parse_scenario(PAST_THE_GUARD)
    rules = scenario.rules()
    counts = dict.fromkeys(EXACT, 0)
    games = 1500
    for seed in range(games):
        rng = np.random.default_rng(seed)
        outcome = SkirmishGame(scenario, rules, rng, RolledFaces(rng)).play().outcome
        counts[outcome.ending] += 1
    for name, p in EXACT.items():
        assert within(counts[name] / games, float(p), games), name


@pytest.mark.parametrize("name", ["sk-v7-terrace", "sk-n9-shoji"])
def test_simulated_agrees_with_the_engine_on_the_example_scenarios(name: str) -> None:
    scenario = load_scenario(name)
    rules = scenario.rules()
    games = 600
    counts = dict.fromkeys(OUTCOMES, 0)
    for seed in range(games):
        rng = np.random.default_rng(seed)
        outcome = SkirmishGame(scenario, rules, rng, RolledFaces(rng)).play().outcome
        counts[outcome.ending] += 1
    simulated = simulate(scenario, 20_000, seed=3)
    for key in OUTCOMES:
        assert within(counts[key] / games, simulated.outcome(key).p, games), key


@settings(max_examples=60, deadline=None)
@given(
    st.floats(0, 400),
    st.sampled_from([NoiseEvent.FUMBLE, NoiseEvent.GRAPPLE, NoiseEvent.DEATH, NoiseEvent.WHISPER]),
    st.integers(0, 4),
    st.booleans(),
    st.integers(1, 3),
)
def test_noise_table_is_the_rule(
    distance: float, event: NoiseEvent, walls: int, alert: bool, dice: int
) -> None:
    """The kernel's hearing table, asked at a distance's whole steps (50 cm at night, SK-N4),
    holds the rule's verdict at that very distance (its roll code)."""
    model = night_raid_model()
    surface = Surface.GRASS if event is NoiseEvent.DEATH else None
    sound = model.sounds.index((event, surface)) if (event, surface) in model.sounds else -1
    assume(sound >= 0 and dice in model.pools and walls < model.hear.shape[3])
    steps = math.floor(distance / 50)
    assume(steps < model.hear.shape[2])
    index = (NOISE, sound, steps, walls, int(alert), model.pools.index(dice))
    flat = int(np.ravel_multi_index(index, model.hear.shape))
    if model.hear.flat[flat] < 0:
        model.fill(flat)
    rule = noise_check(
        model.sim.rules,
        event=event,
        surface=surface,
        distance_cm=distance,
        barriers=walls,
        alert=alert,
        roller=Roller(dice),
    )
    assert model.hear[index] == roll_code(rule)


@settings(max_examples=80, deadline=None)
@given(
    st.floats(0, 80),
    st.sampled_from(list(Attitude)),
    st.booleans(),
    st.booleans(),
    st.booleans(),
    st.booleans(),
    st.integers(1, 3),
)
def test_sight_table_is_the_rule(
    distance: float, attitude: Attitude, lit: bool, seen: bool, alert: bool, outfit: bool, dice: int
) -> None:
    """The kernel's sight table, read at a distance's case (under 10 cm, under the attitude's
    band: 5, 10, 20 or 40 cm, both strict, SK-V2, SK-V3, SK-V8), holds the rule's verdict at
    that very distance (its roll code)."""
    model = night_raid_model()
    assume(dice in model.pools)
    bands = {Attitude.HIDDEN: 5, Attitude.IMMOBILE: 10, Attitude.HALF: 20, Attitude.FAST: 40}
    near, band = int(distance < 10), int(distance < bands[attitude])
    index = (ATTITUDES.index(attitude), near, band, int(lit), int(seen), int(alert))
    table = model.arrays["sight"][(*index, int(outfit), model.pools.index(dice))]
    rule = sight_check(
        model.sim.rules,
        attitude=attitude,
        distance_cm=distance,
        alert=alert,
        unsuited_outfit=outfit,
        lit=lit,
        line_of_sight=seen,
        roller=Roller(dice),
    )
    assert table == roll_code(rule)


@pytest.mark.multiprocess
def test_same_seed_same_numbers_whatever_the_workers() -> None:
    scenario = load_scenario("night-raid")
    one = simulate(scenario, BLOCK + 100, seed=5)  # a full block and a partial one
    again = simulate(scenario, BLOCK + 100, seed=5)
    two = simulate(scenario, BLOCK + 100, seed=5, workers=2)
    for other in (again, two):
        assert (one.tally.outcomes == other.tally.outcomes).all()
        assert (one.tally.heat == other.tally.heat).all()
        assert (one.tally.guard_detections == other.tally.guard_detections).all()
    different = simulate(scenario, BLOCK + 100, seed=6)
    assert (one.tally.heat != different.tally.heat).any()


@pytest.mark.parametrize("numba", [True, False])
def test_a_day_encounter_agrees_with_the_exact_answer(
    monkeypatch: pytest.MonkeyPatch, numba: bool
) -> None:
    """The street shadowing (SK-S5), by its day kernel or, without numba, by the engine game
    by game: the trail is lost with 1/4, the follower caught with 3/4 x 1/36 (the d20 games'
    engine path: a few runs end)."""
    import vigile.sim.kernel

    if not numba:
        monkeypatch.setattr(vigile.sim.kernel, "available", lambda: False)
    runs = 900
    result = simulate(load_scenario("sk-s5-street"), runs, seed=4)
    assert result.batched is numba
    assert within(result.outcome("lost").p, 0.25, runs)
    assert within(result.outcome("caught").p, 3 / 4 / 36, runs)
    if not numba:  # a d20 game too
        d20 = simulate(load_scenario("dnd35-invisible-intruder"), 20, seed=1)
        assert not d20.batched and d20.runs == sum(int(c) for c in d20.tally.outcomes)


@pytest.mark.parametrize(
    ("runs", "workers", "error"),
    [
        (0, 1, InputError),
        (-5, 1, InputError),
        (10**12, 1, LimitError),
        (10, 0, InputError),
        (10, 1000, InputError),
    ],
)
def test_absurd_counts_are_refused(runs: int, workers: int, error: type[Exception]) -> None:
    with pytest.raises(error):
        simulate(load_scenario("night-raid"), runs, workers=workers)


def test_simulate_cli_writes_a_heat_map(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from vigile.cli import main

    picture = tmp_path / "heat.png"
    assert main(["simulate", "night-raid", "--runs", "3000", "--plot", str(picture)]) == 0
    out = capsys.readouterr().out
    assert (
        "objective reached after the alarm" in out
        and picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    )
    assert main(["simulate", "night-raid", "--runs", "0"]) == 2
    assert main(["simulate", "night-raid", "--runs", "10", "--plot", str(tmp_path / "x.gif")]) == 2


FAR_NOISE = """
ruleset: skirmish
name: A grapple heard from afar
time: day
map: {width: 60000, height: 100}
turns: 1
default_surface: tile
actors:
  - {name: Ninja, side: attackers, position: [10, 50], dice: {ninjitsu: 1}}
  - {name: Guard, side: defenders, position: [50000, 50], dice: 1}
plans:
  Ninja:
    - {speed: immobile, actions: [{do: throw-grapple, onto: tile}]}
"""


def test_a_noise_thousands_of_steps_away_is_a_case_like_any_other() -> None:
    """By day +1 per 10 cm (SK-N4): 49,990 cm is 4,999 steps, more than the old key's radix
    of 4,096 (an IndexError). The grapple (4+) needs 4,999 + 4 = 5,003+: out of reach; but by
    day the guard sees him anyway (SK-V8, SK-S1), far beyond reach: he cries (SK-G5)."""
    result = simulate(parse_scenario(FAR_NOISE), 500, seed=1)
    assert result.outcome("turn_limit").p == 1.0 and result.detected.p == 1.0
