"""Benchmark of the turn engine (issue 4): turns per second on the bundled night raid.

Plays the night raid with several seeds, then the whole raid to its objective with no alarm
ending it early (a copy whose guards all stand posted in a far corner), and ``vigile demo``'s
game: ``--rounds`` rounds (5), the three in turn within each, each figure the median (min-max)
of the rounds, beside the goal (issue 4: ``vigile demo`` plays the night raid's 40 turns in
under 1 s) and the machine's load (``os.getloadavg``).

Run: ``.venv/bin/python bench/engine.py [--rounds N] [--quick]`` (``--quick``: 2 rounds of 4
games).
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from collections.abc import Callable

from vigile.engine.run import play
from vigile.scene.loader import load_scenario

GOAL_S = 1.0


def main() -> None:
    quick = "--quick" in sys.argv
    rounds = int(sys.argv[sys.argv.index("--rounds") + 1]) if "--rounds" in sys.argv else 5
    rounds = 2 if quick and "--rounds" not in sys.argv else rounds
    games = 4 if quick else 20
    scenario = load_scenario("night-raid")
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
    play(scenario, seed=0)  # warm up
    load = os.getloadavg()
    rates, demo, whole = [], [], []
    for r in range(rounds):
        turns = 0
        start = time.perf_counter()
        for seed in range(r * games, (r + 1) * games):
            turns += play(scenario, seed=seed).outcome.turn
        rates.append(turns / (time.perf_counter() - start))
        demo.append(_timed(lambda: play(scenario)))
        whole.append(_timed(lambda: play(full, seed=1)))
    full_turns = play(full, seed=1).outcome.turn
    print(
        f"night raid, {rounds} rounds in turn, median (min-max); load {load[0]:.1f} "
        f"{load[1]:.1f} {load[2]:.1f} (1, 5, 15 min)"
    )
    print(f"  {games} games a round: {_spread(rates, 1, '.0f')} turns/s")
    met = "met" if statistics.median(demo) < GOAL_S else "MISSED"
    print(
        f"  vigile demo's game (seed 1603): {_spread(demo, 1000, '.0f')} ms "
        f"(goal < {GOAL_S * 1000:.0f} ms: {met})"
    )
    met = "met" if statistics.median(whole) < GOAL_S else "MISSED"
    print(
        f"  the whole raid, {full_turns} turns to the objective (guards out of the way): "
        f"{_spread(whole, 1000, '.0f')} ms (goal < {GOAL_S * 1000:.0f} ms: {met})"
    )
    print(
        f"engine_turns_per_s={statistics.median(rates):.0f} "
        f"demo_ms={statistics.median(demo) * 1000:.0f} "
        f"full_raid_ms={statistics.median(whole) * 1000:.0f} load_1min={load[0]:.1f}"
    )


def _spread(values: list[float], scale: float, form: str) -> str:
    median = statistics.median(values) * scale
    return f"{median:{form}} ({min(values) * scale:{form}}-{max(values) * scale:{form}})"


def _timed(action: Callable[[], object]) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


if __name__ == "__main__":
    main()
