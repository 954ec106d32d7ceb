"""Benchmark of the batched simulator (issue 5), everything measured side by side in one run.

Prints the batched simulator's runs per second on the bundled night raid and its ratio to:
- the turn engine playing the same runs one by one;
- an idiomatic Mesa model of the same raid (``bench/mesa_raid.py``; ``pip install -e '.[bench]'``);
- the floor: the time numpy takes just to draw the random numbers those runs consume.
Then one million runs with ``--workers 2`` (time and peak memory), the speed-up of 2 workers
over one, and a risk map of the board at 1 cm. Last line:
``sim_runs_per_s=… vs_engine=…x vs_mesa=…x vs_rng_floor=…x``.

Run: ``.venv/bin/python bench/simulate.py [--million]`` (the million runs take a minute or two).
"""

from __future__ import annotations

import resource
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))

from vigile.dice.source import RolledFaces
from vigile.games.skirmish.batch import Block
from vigile.games.skirmish.model import prepare
from vigile.games.skirmish.raid import SkirmishGame
from vigile.scene.loader import load_scenario
from vigile.sim.simulate import simulate


class CountingRng:
    """A generator that counts the random numbers drawn through it."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng
        self.drawn = 0

    def random(self, size: int) -> Any:
        self.drawn += int(size)
        return self.rng.random(size)

    def uniform(self, low: float, high: float, size: int) -> Any:
        self.drawn += int(size)
        return self.rng.uniform(low, high, size)


def timed(action: Any) -> tuple[float, Any]:
    start = time.perf_counter()
    value = action()
    return time.perf_counter() - start, value


def main() -> None:
    scenario = load_scenario("night-raid")
    model = prepare(scenario)
    rules = scenario.rules()
    runs = 16_384
    Block(model, 512, np.random.default_rng(0)).play()  # warm the tables

    batch_s, _ = timed(lambda: simulate(scenario, runs, seed=1))
    sim_rate = runs / batch_s

    engine_games = 40
    engine_s, _ = timed(
        lambda: [
            SkirmishGame(
                scenario, rules, np.random.default_rng(s), RolledFaces(np.random.default_rng(s))
            ).play()
            for s in range(engine_games)
        ]
    )
    engine_rate = engine_games / engine_s

    try:
        from mesa_raid import RaidModel

        mesa_games = 40
        mesa_s, _ = timed(lambda: [RaidModel(model, s).play() for s in range(mesa_games)])
        mesa_rate: float | None = mesa_games / mesa_s
    except ImportError:
        mesa_rate = None

    counting = CountingRng(np.random.default_rng(2))
    block = Block(model, 4096, np.random.default_rng(2))
    block.rng = counting  # type: ignore[assignment]
    block.play()
    per_run = counting.drawn / 4096
    floor_rng = np.random.default_rng(3)
    total = int(per_run * runs)
    floor_s, _ = timed(
        lambda: [floor_rng.random(min(4096, total - k)) for k in range(0, total, 4096)]
    )
    floor_rate = runs / floor_s

    print(f"batched simulator   : {sim_rate:10.0f} runs/s ({runs} runs in {batch_s:.2f} s)")
    print(
        f"turn engine         : {engine_rate:10.1f} runs/s  "
        f"-> batched is {sim_rate / engine_rate:.0f}x"
    )
    if mesa_rate is not None:
        print(
            f"Mesa model          : {mesa_rate:10.1f} runs/s  "
            f"-> batched is {sim_rate / mesa_rate:.0f}x"
        )
    else:
        print("Mesa model          : not installed (pip install -e '.[bench]')")
    print(
        f"random-number floor : {floor_rate:10.0f} runs/s ({per_run:.0f} draws a run) "
        f"-> batched is {floor_rate / sim_rate:.1f}x slower"
    )

    one_s, _ = timed(lambda: simulate(scenario, 8 * 4096, seed=4, workers=1))
    two_s, _ = timed(lambda: simulate(scenario, 8 * 4096, seed=4, workers=2, source="night-raid"))
    print(
        f"workers             : 1 worker {8 * 4096 / one_s:.0f} runs/s, 2 workers "
        f"{8 * 4096 / two_s:.0f} runs/s -> {one_s / two_s:.2f}x"
    )

    from vigile.games.skirmish.riskmap import risk_map
    from vigile.rulesets.skirmish.sight import Attitude

    risk_map(scenario, Attitude.FAST, resolution=1.0)
    risk_s, _ = timed(lambda: risk_map(scenario, Attitude.FAST, resolution=1.0))
    print(f"risk map 200x120 cm at 1 cm: {risk_s:.3f} s")

    if "--million" in sys.argv:
        million_s, _ = timed(
            lambda: simulate(scenario, 1_000_000, seed=5, workers=2, source="night-raid")
        )
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(
            f"one million runs, 2 workers: {million_s:.1f} s; peak memory {own:.0f} MiB "
            f"(main), {peak:.0f} MiB (largest worker)"
        )

    mesa_ratio = f"{sim_rate / mesa_rate:.0f}" if mesa_rate else "n/a"
    print(
        f"sim_runs_per_s={sim_rate:.0f} vs_engine={sim_rate / engine_rate:.0f}x "
        f"vs_mesa={mesa_ratio}x vs_rng_floor={floor_rate / sim_rate:.1f}x"
    )


if __name__ == "__main__":
    main()
