"""Benchmark of the simulator's two models of a skirmish raid, side by side in one run.

Prints, on the bundled night raid: runs per CPU-second of the turn engine, game by game as
``vigile simulate --model engine`` plays it (:func:`vigile.sim.simulate.engine_block`), and of
the compiled kernel as ``vigile simulate`` gets it and plays it (:func:`vigile.sim.simulate._model`,
:func:`~vigile.sim.simulate.play_block` block after block, one thread), and their ratio; then
the kernel's first call in a fresh process with an empty numba cache (the compile) and with
the cache warm (its load, what each ``vigile simulate`` pays before its first block).

Both models are loaded and have played once before the rounds; then ``--rounds`` rounds (5),
the engine and the kernel in turn within each, so the machine's load falls on both alike:
min, median and max of each, the ratio of the medians, and the load (``os.getloadavg``).
Its goals are the ones these figures feed: a million runs in under 20 s (``bench/simulate.py
--million``) and, for the compile, the first ``vigile simulate night-raid --runs 20000`` done
within 30 s (``bench/simulate.py --first``); each is printed beside its figure. Last line:
``kernel_runs_per_cpu_s=… engine_runs_per_cpu_s=… vs_engine=…x compile_cold_s=… warm_s=…
load_1min=…`` (the medians).

Run: ``.venv/bin/python bench/kernel.py [RUNS [GAMES]] [--rounds N] [--quick]`` (16,384 kernel
runs and 16 engine games a round by default; ``--quick``: 4,096 runs, 2 games, 2 rounds, and
no compile from an empty cache).

Figures (two shared cores, 2026-12-05):

* the night raid: the turn engine 6.4 runs per CPU-second, the kernel 45,000 to 52,000 (the
  load moves it);
* the raid kernel's model and state as named tuples rather than tuples indexed by constants:
  first compile 30.5 to 33.1 CPU-s before, 32.2 to 34.6 after (36.7 s wall, 1.0 s warm);
  runs per CPU-second 0 to 6% lower with them, by the load (alternating rounds at load 5:
  51,400 before, 50,500 after, on average; the numbers as arrays again, 50,900).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable

import numpy as np

from vigile.scene.loader import load_scenario
from vigile.scene.model import Scenario
from vigile.sim.simulate import _model, blocks, engine_block, play_block

FIRST_CALL = """
import time, numpy as np
start = time.perf_counter()
from vigile.scene.loader import load_scenario
from vigile.sim.simulate import _model
_model(load_scenario("night-raid"), compiled=True).play(1, np.random.default_rng(0))
print(time.perf_counter() - start)
"""


def cpu_rate(work: Callable[[], object], runs: int) -> float:
    start = time.process_time()
    work()
    return runs / (time.process_time() - start)


def first_call(cache: str | None) -> float:
    env = dict(os.environ)
    if cache is not None:
        env["NUMBA_CACHE_DIR"] = cache
    done = subprocess.run(
        [sys.executable, "-c", FIRST_CALL], env=env, capture_output=True, text=True, check=True
    )
    return float(done.stdout.strip().splitlines()[-1])


def spread(rates: list[float], digits: int) -> str:
    return (
        f"{statistics.median(rates):12,.{digits}f} ({min(rates):,.{digits}f}-"
        f"{max(rates):,.{digits}f})"
    )


def main() -> None:
    argv = sys.argv[1:]
    quick = "--quick" in argv
    rounds = 2 if quick else 5
    if "--rounds" in argv:
        rounds = int(argv[argv.index("--rounds") + 1])
        del argv[argv.index("--rounds") : argv.index("--rounds") + 2]
    numbers = [int(a) for a in argv if a.isdigit()]
    runs = numbers[0] if numbers else (4096 if quick else 16_384)
    games = numbers[1] if len(numbers) > 1 else (2 if quick else 16)
    scenario = load_scenario("night-raid")
    kernel = _model(scenario, compiled=True)
    assert not isinstance(kernel, Scenario), "the night raid is the kernel's"
    kernel.play(1, np.random.default_rng(0))  # loaded from the cache, as the CLI does first
    engine_block(scenario, 0, 0, 1)
    load = os.getloadavg()
    engine_rates, kernel_rates = [], []
    for r in range(rounds):
        engine_rates.append(cpu_rate(lambda r=r: engine_block(scenario, r, 0, games), games))
        kernel_rates.append(
            cpu_rate(lambda r=r: [play_block(kernel, r, i, n) for i, n in blocks(runs)], runs)
        )
    engine_rate = statistics.median(engine_rates)
    kernel_rate = statistics.median(kernel_rates)
    print(
        f"night raid, CPU time, {rounds} rounds in turn: the engine {games:,} games, the kernel "
        f"{runs:,} runs a round; load {load[0]:.1f} {load[1]:.1f} {load[2]:.1f} (1, 5, 15 min)"
    )
    print(f"  turn engine   {spread(engine_rates, 1)} runs per CPU-second, median (min-max)")
    print(f"  numba kernel  {spread(kernel_rates, 0)} runs per CPU-second, median (min-max)")
    million_s = 1e6 / kernel_rate / 2
    print(
        f"  the kernel {kernel_rate / engine_rate:,.0f}x the engine (medians); at this rate a "
        f"million runs take about {million_s:.1f} s on 2 cores (goal < 20 s)"
    )
    with tempfile.TemporaryDirectory() as empty:
        if quick:  # no compile: the warm load from this machine's cache only
            cold, warm = float("nan"), first_call(None)
        else:
            cold = first_call(empty)
            warm = first_call(empty)
    print(
        f"  first call, empty numba cache: {cold:.1f} s (goal: 30 s with the first run, "
        f"bench/simulate.py --first); warm cache: {warm:.1f} s"
    )
    print(
        f"kernel_runs_per_cpu_s={kernel_rate:.0f} engine_runs_per_cpu_s={engine_rate:.1f} "
        f"vs_engine={kernel_rate / engine_rate:.0f}x compile_cold_s={cold:.1f} warm_s={warm:.1f} "
        f"load_1min={load[0]:.1f}"
    )


if __name__ == "__main__":
    main()
