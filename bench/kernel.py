"""Benchmark of the simulator's two models of a skirmish raid, side by side in one run.

Prints, on the bundled night raid: runs per CPU-second of the turn engine, game by game as
``vigile simulate`` plays it without numba (:func:`vigile.sim.simulate.engine_block`), and of
the compiled kernel (:class:`vigile.games.skirmish.kernel.raid.KernelRaid`), and their ratio;
then the kernel's first call in a fresh process with an empty numba cache (the compile) and
with the cache warm. Last line:
``kernel_runs_per_cpu_s=… engine_runs_per_cpu_s=… vs_engine=…x compile_cold_s=… warm_s=…``.

Run: ``.venv/bin/python bench/kernel.py [RUNS [GAMES]]`` (16,384 kernel runs, 64 engine games
by default).

Figures (two shared cores, 2026-12-05):

* the night raid: the turn engine 6.4 runs per CPU-second, the kernel 45,000 to 52,000 (the
  load moves it), the retired numpy batch 1,641;
* the raid kernel's model and state as named tuples rather than tuples indexed by constants:
  first compile 30.5 to 33.1 CPU-s before, 32.2 to 34.6 after (36.7 s wall, 1.0 s warm);
  runs per CPU-second 0 to 6% lower with them, by the load (alternating rounds at load 5:
  51,400 before, 50,500 after, on average; the numbers as arrays again, 50,900).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time

import numpy as np

from vigile.games.skirmish.kernel.raid import KernelRaid
from vigile.scene.loader import load_scenario
from vigile.sim.simulate import engine_block

FIRST_CALL = """
import time, numpy as np
start = time.perf_counter()
from vigile.scene.loader import load_scenario
from vigile.games.skirmish.kernel.raid import KernelRaid
KernelRaid.of(load_scenario("night-raid")).play(1, np.random.default_rng(0))
print(time.perf_counter() - start)
"""


def cpu_rate(play: object, runs: int) -> float:
    start = time.process_time()
    play(runs, np.random.default_rng(1))  # type: ignore[operator]
    return runs / (time.process_time() - start)


def first_call(cache: str | None) -> float:
    env = dict(os.environ)
    if cache is not None:
        env["NUMBA_CACHE_DIR"] = cache
    done = subprocess.run(
        [sys.executable, "-c", FIRST_CALL], env=env, capture_output=True, text=True, check=True
    )
    return float(done.stdout.strip().splitlines()[-1])


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 16_384
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 64
    scenario = load_scenario("night-raid")
    kernel = KernelRaid.of(scenario)
    kernel.play(256, np.random.default_rng(0))  # compile (or load) and fill the tables
    engine_block(scenario, 0, 0, 2)
    engine_rate = cpu_rate(lambda n, _rng: engine_block(scenario, 1, 0, n), games)
    kernel_rate = cpu_rate(kernel.play, runs)
    print(f"night raid, CPU time: the engine {games:,} games, the kernel {runs:,} runs")
    print(f"  turn engine   {engine_rate:10,.1f} runs per CPU-second")
    print(f"  numba kernel  {kernel_rate:10,.0f} runs per CPU-second")
    with tempfile.TemporaryDirectory() as empty:
        cold = first_call(empty)
        warm_cache = os.path.join(empty, "warm")
        first_call(warm_cache)
        warm = first_call(warm_cache)
    print(f"  first call, empty numba cache: {cold:.1f} s; warm cache: {warm:.1f} s")
    print(
        f"kernel_runs_per_cpu_s={kernel_rate:.0f} engine_runs_per_cpu_s={engine_rate:.1f} "
        f"vs_engine={kernel_rate / engine_rate:.0f}x compile_cold_s={cold:.1f} warm_s={warm:.1f}"
    )


if __name__ == "__main__":
    main()
