"""``vigile simulate`` plays the compiled kernel wherever it covers the scenario (once compiled:
``tests/test_sim_model_choice.py``).

The kernel plays block by block, each block from its own ``SeedSequence``: the same numbers
whatever the workers and threads, and whatever the runs asked for. Without numba, a one-line
notice in the user's language and the engine, game by game. ``vigile check`` and ``vigile run``
never import numba.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from vigile.scene.loader import load_scenario
from vigile.scene.model import Scenario
from vigile.sim import simulate as simulate_module
from vigile.sim.simulate import BLOCK, Notice, block_seed, blocks, engine_block, simulate
from vigile.sim.tally import Batched, Tally

RUNS = 200
"""Runs of the short simulations."""


def by_blocks(model: Batched, runs: int, seed: int) -> Tally:
    tallies = [model.play(size, block_seed(seed, index)) for index, size in blocks(runs)]
    total = tallies[0]
    for tally in tallies[1:]:
        total = total + tally
    return total


def same(a: Tally, b: Tally) -> bool:
    return (
        a.runs == b.runs
        and np.array_equal(a.outcomes, b.outcomes)
        and np.array_equal(a.first_detection, b.first_detection)
        and np.array_equal(a.guard_detections, b.guard_detections)
        and np.array_equal(a.heat, b.heat)
    )


@pytest.mark.parametrize(
    "command",
    [
        ["check", "skirmish", "sight", "--attitude", "immobile", "--distance", "11"],
        ["run", "night-raid"],
    ],
)
def test_check_and_run_do_not_import_numba(command: list[str]) -> None:
    code = (
        "import sys\n"
        "from vigile.cli import main\n"
        f"assert main({command!r}) == 0\n"
        "print('LOADED', sorted(m for m in sys.modules if m == 'numba' or 'kernel' in m))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip().splitlines()[-1] == "LOADED []"


def test_short_simulations_play_the_kernel_too() -> None:
    """However few the runs, the kernel plays a scenario it covers (no threshold): the tally is
    its blocks'."""
    pytest.importorskip("numba")
    from vigile.games.skirmish.kernel.raid import KernelRaid

    scenario = load_scenario("night-raid")
    result = simulate(scenario, RUNS, seed=4)
    assert result.batched
    assert same(result.tally, by_blocks(KernelRaid.of(scenario), RUNS, 4))


def test_long_simulations_play_the_kernel_the_same_whatever_the_workers() -> None:
    pytest.importorskip("numba")
    from vigile.games.skirmish.kernel.raid import KernelRaid

    scenario = load_scenario("night-raid")
    runs = BLOCK + 100  # a full block and a partial one
    one = simulate(scenario, runs, seed=5)
    assert same(one.tally, by_blocks(KernelRaid.of(scenario), runs, 5))
    two = simulate(scenario, runs, seed=5, workers=2)
    assert same(one.tally, two.tally)


def engine_tally(scenario: Scenario, runs: int, seed: int) -> Tally:
    tallies = [engine_block(scenario, seed, index, size) for index, size in blocks(runs)]
    total = tallies[0]
    for tally in tallies[1:]:
        total = total + tally
    return total


def test_without_numba_a_notice_and_the_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    import vigile.sim.kernel

    scenario = load_scenario("night-raid")
    monkeypatch.setattr(vigile.sim.kernel, "available", lambda: False)
    heard: list[Notice] = []
    result = simulate(scenario, 20, seed=4, notify=lambda notice, _s: heard.append(notice))
    assert heard == [Notice.NO_NUMBA]
    assert not result.batched
    assert same(result.tally, engine_tally(scenario, 20, 4))


@pytest.mark.parametrize(
    ("lang", "words"), [("en", "numba cannot be imported"), ("fr", "numba ne peut pas")]
)
def test_without_numba_the_cli_says_it_in_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], lang: str, words: str
) -> None:
    import vigile.sim.kernel
    from vigile.cli import main

    monkeypatch.setattr(vigile.sim.kernel, "available", lambda: False)
    assert main(["simulate", "night-raid", "--runs", "5", "--lang", lang]) == 0
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err and "Traceback" not in err


def test_the_cli_says_when_the_kernel_first_compiles(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A machine with no compiled code of the kernel yet is told, for a few runs, that the
    engine plays them while the kernel compiles in the background; one with its cache warm is
    told nothing."""
    pytest.importorskip("numba")
    import vigile.sim.warmup
    from vigile.cli import main

    monkeypatch.setenv(vigile.sim.warmup.NO_WARMUP, "1")  # no background compile from a test
    monkeypatch.setattr(vigile.sim.warmup, "kernel_cached", lambda ruleset: False)
    assert main(["simulate", "night-raid", "--runs", "5"]) == 0
    assert "is not compiled on this machine yet" in capsys.readouterr().err
    monkeypatch.setattr(vigile.sim.warmup, "kernel_cached", lambda ruleset: True)
    assert main(["simulate", "night-raid", "--runs", "5"]) == 0
    assert capsys.readouterr().err == ""


def test_the_notice_before_a_sweep(monkeypatch: pytest.MonkeyPatch) -> None:
    """``kernel_notice`` (what ``vigile sweep`` says before its workers start) builds no kernel:
    no numba, a first compile, or nothing to say."""
    import vigile.sim.kernel
    from vigile.sim.simulate import kernel_notice

    scenario = load_scenario("night-raid")
    monkeypatch.setattr(vigile.sim.kernel, "compiled_before", lambda: True)
    assert kernel_notice(scenario) is None
    monkeypatch.setattr(vigile.sim.kernel, "compiled_before", lambda: False)
    assert kernel_notice(scenario) is Notice.COMPILING
    monkeypatch.setattr(vigile.sim.kernel, "available", lambda: False)
    assert kernel_notice(scenario) is Notice.NO_NUMBA


def test_the_same_numbers_whatever_the_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    """The kernel's blocks played by one thread or by three give the same tally (each block
    from its own generator; the threads share the model, each call its own working arrays)."""
    pytest.importorskip("numba")
    scenario = load_scenario("night-raid")
    runs = 3 * BLOCK + 7
    monkeypatch.setattr(simulate_module, "kernel_threads", lambda: 1)
    one = simulate(scenario, runs, seed=9)
    monkeypatch.setattr(simulate_module, "kernel_threads", lambda: 3)
    three = simulate(scenario, runs, seed=9)
    assert same(one.tally, three.tally)


def test_a_day_encounter_plays_its_kernel_however_few_the_runs() -> None:
    """A day encounter is its game's kernel's, from the first run: the kernel's tally is its
    blocks'."""
    pytest.importorskip("numba")
    from vigile.games.skirmish.kernel.day import KernelDay

    scenario = load_scenario("sk-s5-street")
    for runs in (10, 1500):
        result = simulate(scenario, runs, seed=3)
        assert result.batched
        assert same(result.tally, by_blocks(KernelDay.of(scenario), runs, 3))


def test_a_scenario_beyond_the_kernel_plays_in_the_engine() -> None:
    """A day encounter whose characters walk plans is beyond the day kernel: the engine plays
    it, game by game, with no notice."""
    scenario = load_scenario("sk-s5-street")
    walker = next(a.name for a in scenario.actors)
    data = scenario.model_dump(mode="json", exclude_unset=True)
    data["plans"] = {walker: [{"to": list(scenario.actors[0].position), "speed": "half"}]}
    walking = Scenario.model_validate(data)
    heard: list[Notice] = []
    result = simulate(walking, 12, seed=1, notify=lambda notice, _s: heard.append(notice))
    assert not result.batched and heard == []
    assert same(result.tally, engine_tally(walking, 12, 1))


def test_the_kernel_cache_folder_changes_with_any_kernel_source(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """numba checks only the date of a function's own file; the folder vigile points its cache
    at is named after every kernel source, so changing a helper in another file compiles
    afresh instead of loading stale machine code."""
    import vigile.sim.kernel as kernel_package

    package = tmp_path / "src"
    for folder in kernel_package.KERNEL_SOURCES:
        (package / folder).mkdir(parents=True, exist_ok=True)
    helper = package / kernel_package.KERNEL_SOURCES[0] / "helpers.py"
    helper.write_text("A = 1\n")
    fake_init = package / "vigile" / "sim" / "kernel" / "__init__.py"
    fake_init.write_text("")
    monkeypatch.setattr(kernel_package, "__file__", str(fake_init))
    before = kernel_package.cache_dir()
    assert kernel_package.cache_dir() == before
    helper.write_text("A = 2\n")
    after = kernel_package.cache_dir()
    assert after != before
    assert after.parent == before.parent
