"""Benchmark of the turn engine (issue 4): turns per second on the bundled night raid.

Plays the night raid with several seeds, then the whole raid to its objective with no alarm
ending it early (a copy whose guards all stand posted in a far corner), and prints turns per
second and the time of ``vigile demo``'s game. Run: ``.venv/bin/python bench/engine.py``.
"""

from __future__ import annotations

import statistics
import time

from vigile.engine.run import play
from vigile.scene.loader import load_scenario


def main() -> None:
    scenario = load_scenario("night-raid")
    play(scenario, seed=0)  # warm up
    turns = 0
    start = time.perf_counter()
    for seed in range(20):
        turns += play(scenario, seed=seed).outcome.turn
    elapsed = time.perf_counter() - start
    demo = statistics.median(_timed(lambda: play(scenario)) for _ in range(5))
    full = scenario.model_copy(
        update={
            "actors": tuple(
                a
                if a.side.value == "attackers"
                else a.model_copy(update={"position": (195.0, 115.0), "state": "posted"})
                for a in scenario.actors
            )
        }
    )
    full_time = _timed(lambda: play(full, seed=1))
    full_turns = play(full, seed=1).outcome.turn
    print(
        f"night raid, 20 games: {turns} turns in {elapsed:.2f} s -> {turns / elapsed:.0f} turns/s"
    )
    print(f"vigile demo's game (seed 1603): {demo * 1000:.0f} ms")
    print(
        f"the whole raid, {full_turns} turns to the objective (guards out of the way): "
        f"{full_time * 1000:.0f} ms"
    )
    print(
        f"engine_turns_per_s={turns / elapsed:.0f} demo_ms={demo * 1000:.0f} "
        f"full_raid_ms={full_time * 1000:.0f}"
    )


def _timed(action: object) -> float:
    start = time.perf_counter()
    action()  # type: ignore[operator]
    return time.perf_counter() - start


if __name__ == "__main__":
    main()
