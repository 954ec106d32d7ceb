"""Benchmark: a Starfinder hide check (SF-4) in-process, beside icepool computing the same numbers.

Goals (issue 3): under 20 µs for one observer and under 1 ms for 100 observers of different
bonuses. Run: ``.venv/bin/python bench/bench_starfinder.py``. Prints medians; asserts nothing
about time (tests never do), but checks that vigile and icepool agree exactly.
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable
from fractions import Fraction

import icepool

from vigile.dice.d20 import hidden_from_all_meet
from vigile.rulesets.data import shipped
from vigile.rulesets.starfinder import hide_check


def median_seconds(work: Callable[[], object], *, repeat: int, warmup: int = 20) -> float:
    for _ in range(warmup):
        work()
    times = []
    for _ in range(repeat):
        start = time.perf_counter_ns()
        work()
        times.append(time.perf_counter_ns() - start)
    return statistics.median(times) / 1e9


def icepool_hidden(stealth: int, perceptions: list[int]) -> Fraction:
    """P(every observer's d20 + Perception < the one d20 + Stealth): ties to the observer."""
    hider = icepool.d20 + stealth
    dice = [icepool.d20 + p for p in perceptions]
    best = dice[0] if len(dice) == 1 else icepool.highest(*dice)
    return Fraction((best < hider).probability(True))


def show(label: str, seconds: float, goal: float | None = None) -> None:
    text = f"  {label:<42} {seconds * 1e6:>12.1f} µs"
    if goal is not None:
        text += f"   (goal < {goal * 1e6:g} µs: {'met' if seconds < goal else 'MISSED'})"
    print(text)


def main() -> None:
    load = os.getloadavg()
    print(f"load {load[0]:.1f} {load[1]:.1f} {load[2]:.1f} (1, 5, 15 min); medians after a warm-up")
    rules = shipped("starfinder")
    cases = [
        ("1 observer", 12, [5], 20e-6, 2000, 50),
        ("100 observers", 15, [(i * 37) % 100 - 40 for i in range(100)], 1e-3, 300, 5),
    ]
    for label, stealth, crowd, goal, repeat, ice_repeat in cases:
        verdict = hide_check(rules, stealth=stealth, observers=crowd, cover=True)
        exact = icepool_hidden(stealth, crowd)
        assert verdict.chance == exact, (verdict.chance, exact)
        print(f"hide check, {label} (distinct bonuses: {len(set(crowd))}):")
        full = median_seconds(
            lambda s=stealth, c=crowd: hide_check(rules, stealth=s, observers=c, cover=True),
            repeat=repeat,
        )
        show("vigile hide_check (verdict tree, exact)", full, goal)
        chance = median_seconds(
            lambda s=stealth, c=crowd: hidden_from_all_meet(s, c), repeat=repeat
        )
        show("vigile chance only (hidden_from_all_meet)", chance)
        ice = median_seconds(
            lambda s=stealth, c=crowd: icepool_hidden(s, c), repeat=ice_repeat, warmup=2
        )
        show("icepool (same chance only)", ice)
        print(f"  icepool / vigile: {ice / full:,.0f}x")


if __name__ == "__main__":
    main()
