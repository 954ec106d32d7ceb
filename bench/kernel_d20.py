"""Benchmark of the compiled d20 kernel (issue 14) against the turn engine, side by side in one run.

Prints, for each bundled d20 scenario: runs per CPU-second of the turn engine playing game by
game (``vigile simulate`` without numba: :func:`vigile.sim.simulate.engine_block`) and of the
kernel (:func:`vigile.games.dnd35.kernel.compiled`) where it plays the scenario, and their ratio;
then the kernel's first call in a fresh process with an empty numba cache (the compile) and with
the cache warm. Last line, on ``dnd35-invisible-intruder``:
``dnd35_kernel_runs_per_cpu_s=… engine_runs_per_cpu_s=… vs_engine=…x``.

Run: ``.venv/bin/python bench/kernel_d20.py [ENGINE_RUNS [KERNEL_RUNS]]`` (400 and 100,000).

Figures measured behind choices in the d20 kernels and ``vigile simulate``:

* ``geometry.internal`` (no entry from Python): D&D 3.5's first compile took 135 s with the
  entry, 38 s without;
* ``geometry.ZERO`` / ``NOBODY`` rather than a literal 0 / -1: each literal's specialization
  cost about two seconds of LLVM (20 of D&D 3.5's 96 functions had one);
* the round's phases inlined: left as calls, passing the model's arrays cost more than a third
  of the kernel's speed;
* the kernel plays every scenario it covers, however few the runs: the turn engine takes 1 to
  12 ms a game, so past a few hundred games it takes longer than loading the cached kernel.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable

import numpy as np

from vigile import registry
from vigile.scene.loader import load_scenario
from vigile.sim.simulate import engine_block

SCENARIOS = (
    "dnd35-invisible-intruder",
    "dnd35-flour",
    "dnd35-rogue-sneak-attack",
    "starfinder-infiltration",
    "starfinder-sniper",
)
FIRST_CALL = """
import time, numpy as np
start = time.perf_counter()
from vigile.scene.loader import load_scenario
from vigile.games.dnd35.kernel import compiled
compiled(load_scenario("dnd35-invisible-intruder")).play(1, np.random.default_rng(0))
print(time.perf_counter() - start)
"""


def cpu_rate(play: Callable[[int], object], runs: int) -> float:
    start = time.process_time()
    play(runs)
    return runs / (time.process_time() - start)


def first_call(cache: str) -> float:
    env = dict(os.environ, NUMBA_CACHE_DIR=cache)
    done = subprocess.run(
        [sys.executable, "-c", FIRST_CALL], env=env, capture_output=True, text=True, check=True
    )
    return float(done.stdout.strip().splitlines()[-1])


def main() -> None:
    engine_runs = int(sys.argv[1]) if len(sys.argv) > 1 else 400
    kernel_runs = int(sys.argv[2]) if len(sys.argv) > 2 else 100_000
    print(f"CPU time; the engine {engine_runs:,} runs, the kernel {kernel_runs:,} runs")
    figures: dict[str, tuple[float, float | None]] = {}
    for name in SCENARIOS:
        scenario = load_scenario(name)
        plugin = registry.get(scenario.ruleset)
        model = plugin.load(plugin.kernel)(scenario) if plugin.kernel else None
        engine = cpu_rate(lambda runs, s=scenario: engine_block(s, 1, 0, runs), engine_runs)
        kernel = None
        if model is not None:
            model.play(64, np.random.default_rng(0))  # compile (or load from the cache)
            kernel = cpu_rate(
                lambda runs, m=model: m.play(runs, np.random.default_rng(1)), kernel_runs
            )
        figures[name] = (engine, kernel)
        shown = (
            "not played by the kernel yet"
            if kernel is None
            else (f"kernel {kernel:12,.0f}  ({kernel / engine:,.0f}x)")
        )
        print(f"  {name:28} engine {engine:8,.0f}   {shown}")
    with tempfile.TemporaryDirectory() as empty:
        cold = first_call(empty)
        warm = first_call(empty)
    print(f"  first call, empty numba cache: {cold:.1f} s; warm cache: {warm:.1f} s")
    for name, (engine, kernel) in figures.items():
        if kernel is not None and name != "dnd35-invisible-intruder":
            print(f"{name.replace('-', '_')}_vs_engine={kernel / engine:.0f}x", end=" ")
    print()
    engine, kernel = figures["dnd35-invisible-intruder"]
    assert kernel is not None
    print(
        f"dnd35_kernel_runs_per_cpu_s={kernel:.0f} engine_runs_per_cpu_s={engine:.0f} "
        f"vs_engine={kernel / engine:.0f}x compile_cold_s={cold:.1f} warm_s={warm:.1f}"
    )


if __name__ == "__main__":
    main()
