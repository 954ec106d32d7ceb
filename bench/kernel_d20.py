"""Benchmark of the compiled d20 kernel (issue 14) against the turn engine, side by side in one run.

Prints, for each bundled d20 scenario: runs per CPU-second of the turn engine playing game by
game (``vigile simulate --model engine``: :func:`vigile.sim.simulate.engine_block`) and of the
kernel as ``vigile simulate`` plays it (:func:`vigile.sim.simulate.play_block`, block after
block, one thread) where it plays the scenario, and their ratio; then the kernel's first call in
a fresh process with an empty numba cache (the compile) and with the cache warm.

Both models are loaded and have played once before the rounds; then ``ROUNDS`` rounds (3), the
engine and the kernel in turn within each; each rate the median (min-max) of the rounds, the
ratio of the medians beside the goal (issue 14: a D&D 3.5 scenario at least 50x its turn
engine), and the machine's load (``os.getloadavg``). Last line, on
``dnd35-invisible-intruder``:
``dnd35_kernel_runs_per_cpu_s=… engine_runs_per_cpu_s=… vs_engine=…x … load_1min=…``.

Run: ``.venv/bin/python bench/kernel_d20.py [ENGINE_RUNS [KERNEL_RUNS]] [--quick]`` (400 and
100,000 a round; ``--quick``: 20 and 8,192, 2 rounds, no compile from an empty cache).

Figures measured behind choices in the d20 kernels and ``vigile simulate``:

* ``geometry.internal`` (no entry from Python): D&D 3.5's first compile took 135 s with the
  entry, 38 s without;
* ``geometry.ZERO`` / ``NOBODY`` rather than a literal 0 / -1: each literal's specialization
  cost about two seconds of LLVM (20 of D&D 3.5's 96 functions had one);
* the round's phases inlined: left as calls, passing the model's arrays cost more than a third
  of the kernel's speed;
* the shared d20 helpers a round calls per intruder, op or defender (``walk_to``, ``act``,
  ``most_known``, ``closes_on``, ``blow_hits``, the round's frame) inlined too: left as calls,
  Starfinder's infiltration ran 11% and D&D 3.5's flour 10% slower than before they were
  shared (40 engine and 20,000 kernel runs, load 3-5); inlined, within 7% either way of it;
* the kernel plays every scenario it covers, however few the runs: the turn engine takes 1 to
  12 ms a game, so past a few hundred games it takes longer than loading the cached kernel.
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

from vigile import registry
from vigile.scene.loader import load_scenario
from vigile.sim.simulate import blocks, engine_block, play_block

QUICK = "--quick" in sys.argv
ROUNDS = 2 if QUICK else 3
GOAL_X = 50.0

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


def spread(rates: list[float]) -> str:
    return f"{statistics.median(rates):12,.0f} ({min(rates):,.0f}-{max(rates):,.0f})"


def main() -> None:
    numbers = [int(a) for a in sys.argv[1:] if a.isdigit()]
    engine_runs = numbers[0] if numbers else (20 if QUICK else 400)
    kernel_runs = numbers[1] if len(numbers) > 1 else (8192 if QUICK else 100_000)
    load = os.getloadavg()
    print(
        f"CPU time, {ROUNDS} rounds in turn: the engine {engine_runs:,} runs, the kernel "
        f"{kernel_runs:,} runs a round; median (min-max) runs per CPU-second; load "
        f"{load[0]:.1f} {load[1]:.1f} {load[2]:.1f} (1, 5, 15 min); goal: the kernel at least "
        f"{GOAL_X:g}x the engine"
    )
    figures: dict[str, tuple[float, float | None]] = {}
    for name in SCENARIOS:
        scenario = load_scenario(name)
        plugin = registry.get(scenario.ruleset)
        model = plugin.load(plugin.kernel)(scenario) if plugin.kernel else None
        engine_block(scenario, 0, 0, 1)  # the engine's imports and tables
        if model is not None:
            model.play(1, np.random.default_rng(0))  # loaded from the cache (or compiled)
        engines, kernels = [], []
        for r in range(ROUNDS):
            engines.append(
                cpu_rate(lambda runs, s=scenario, r=r: engine_block(s, r, 0, runs), engine_runs)
            )
            if model is not None:
                kernels.append(
                    cpu_rate(
                        lambda runs, m=model, r=r: [
                            play_block(m, r, i, n) for i, n in blocks(runs)
                        ],
                        kernel_runs,
                    )
                )
        engine = statistics.median(engines)
        kernel = statistics.median(kernels) if kernels else None
        figures[name] = (engine, kernel)
        if kernel is None:
            shown = "not played by the kernel yet"
        else:
            met = "met" if kernel / engine >= GOAL_X else "MISSED"
            shown = f"kernel {spread(kernels)}  ({kernel / engine:,.0f}x: {met})"
        print(f"  {name:28} engine {spread(engines)}   {shown}")
    with tempfile.TemporaryDirectory() as empty:
        cold = float("nan") if QUICK else first_call(empty)
        warm = float("nan") if QUICK else first_call(empty)
    print(f"  first call, empty numba cache: {cold:.1f} s; warm cache: {warm:.1f} s")
    for name, (engine, kernel) in figures.items():
        if kernel is not None and name != "dnd35-invisible-intruder":
            print(f"{name.replace('-', '_')}_vs_engine={kernel / engine:.0f}x", end=" ")
    print()
    engine, kernel = figures["dnd35-invisible-intruder"]
    assert kernel is not None
    print(
        f"dnd35_kernel_runs_per_cpu_s={kernel:.0f} engine_runs_per_cpu_s={engine:.0f} "
        f"vs_engine={kernel / engine:.0f}x compile_cold_s={cold:.1f} warm_s={warm:.1f} "
        f"load_1min={load[0]:.1f}"
    )


if __name__ == "__main__":
    main()
