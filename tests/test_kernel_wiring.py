"""``vigile simulate`` chooses the compiled kernel for long simulations (issue 14, item 4).

From :data:`~vigile.sim.simulate.KERNEL_RUNS` runs, a skirmish raid is played by the kernel,
block by block, each block from its own ``SeedSequence``: the same numbers whatever the
workers. Shorter simulations stay on the numpy batch (no compile to wait for). Without numba,
a one-line notice and the batch. ``vigile check`` and ``vigile run`` never import numba.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from vigile.games.skirmish.batch import BatchedRaid
from vigile.games.skirmish.model import prepare
from vigile.scene.loader import load_scenario
from vigile.sim import simulate as simulate_module
from vigile.sim.simulate import BLOCK, NO_NUMBA, block_seed, blocks, simulate
from vigile.sim.tally import Batched, Tally

RUNS = 1000
"""Runs of the tests on the batch (the kernel's threshold lowered under them where it counts)."""


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


def test_short_simulations_stay_on_the_batch() -> None:
    scenario = load_scenario("night-raid")
    assert RUNS < simulate_module.KERNEL_RUNS
    result = simulate(scenario, RUNS, seed=4)
    assert same(result.tally, by_blocks(BatchedRaid(prepare(scenario)), RUNS, 4))


def test_long_simulations_play_the_kernel_the_same_whatever_the_workers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pytest.importorskip("numba")
    from vigile.games.skirmish.kernel.raid import KernelRaid

    scenario = load_scenario("night-raid")
    monkeypatch.setattr(simulate_module, "KERNEL_RUNS", 1000)
    runs = BLOCK + 100  # a full block and a partial one
    one = simulate(scenario, runs, seed=5)
    assert same(one.tally, by_blocks(KernelRaid.of(scenario), runs, 5))
    two = simulate(scenario, runs, seed=5, workers=2)
    assert same(one.tally, two.tally)


def test_without_numba_a_notice_and_the_batch(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import vigile.sim.kernel

    scenario = load_scenario("night-raid")
    monkeypatch.setattr(simulate_module, "KERNEL_RUNS", 500)
    monkeypatch.setattr(vigile.sim.kernel, "available", lambda: False)
    result = simulate(scenario, RUNS, seed=4)
    assert capsys.readouterr().err == NO_NUMBA
    assert NO_NUMBA.count("\n") == 1
    assert same(result.tally, by_blocks(BatchedRaid(prepare(scenario)), RUNS, 4))


def test_the_same_numbers_whatever_the_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    """The kernel's blocks played by one thread or by three give the same tally (each block
    from its own generator; the threads share the model, each call its own working arrays)."""
    pytest.importorskip("numba")
    scenario = load_scenario("night-raid")
    monkeypatch.setattr(simulate_module, "KERNEL_RUNS", 1000)
    runs = 3 * BLOCK + 7
    monkeypatch.setattr(simulate_module, "kernel_threads", lambda: 1)
    one = simulate(scenario, runs, seed=9)
    monkeypatch.setattr(simulate_module, "kernel_threads", lambda: 3)
    three = simulate(scenario, runs, seed=9)
    assert same(one.tally, three.tally)


def test_a_day_encounter_goes_to_the_kernel_from_the_engine_threshold(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A scenario with no batched model (a day encounter) is the engine's game by game below
    ENGINE_KERNEL_RUNS, its game's kernel from there: the kernel's tally is its blocks'."""
    pytest.importorskip("numba")
    from vigile.games.skirmish.kernel.day import KernelDay

    scenario = load_scenario("sk-s5-street")
    low = simulate(scenario, simulate_module.ENGINE_KERNEL_RUNS - 1, seed=3)
    assert not low.batched
    runs = simulate_module.ENGINE_KERNEL_RUNS
    high = simulate(scenario, runs, seed=3)
    assert high.batched
    assert same(high.tally, by_blocks(KernelDay.of(scenario), runs, 3))


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
