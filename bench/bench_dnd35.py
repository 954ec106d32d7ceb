"""Benchmark: D&D 3.5 Spot (DD-3) and Hide vs Spot (DD-20) in-process, beside icepool.

Goals (issue 3): under 20 µs for one observer and under 1 ms for 100 observers of different
bonuses. Run: ``.venv/bin/python bench/bench_dnd35.py``. Prints medians; asserts nothing about
time (tests never do), but checks that vigile and icepool agree exactly.
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import partial

import icepool

from vigile.dice.d20 import check_chance, hidden_from_all_dnd
from vigile.rulesets.data import shipped
from vigile.rulesets.dnd35 import SpotTarget, hide_check, spot_check


def median_seconds(work: Callable[[], object], *, repeat: int, warmup: int = 20) -> float:
    for _ in range(warmup):
        work()
    times = []
    for _ in range(repeat):
        start = time.perf_counter_ns()
        work()
        times.append(time.perf_counter_ns() - start)
    return statistics.median(times) / 1e9


def icepool_spot(bonus: int, dc: int) -> Fraction:
    """P(d20 + bonus >= dc): a skill check, no automatic 1 or 20."""
    return Fraction((icepool.d20 + bonus).probability(">=", dc))


def icepool_hidden(hide: int, spots: Sequence[int]) -> Fraction:
    """P(no observer spots the hider), one shared Hide roll, with the 3.5 tie rule (DD-20):
    a tie goes to the higher modifier, equal modifiers roll again (the observer wins 1/2)."""
    observers = [(icepool.d20 + s, s) for s in spots]
    total = Fraction(0)
    for result, weight in (icepool.d20 + hide).items():
        hidden = Fraction(1)
        for die, spot in observers:
            tie = Fraction(die.probability("==", result))
            win = 1 if spot > hide else Fraction(1, 2) if spot == hide else 0
            hidden *= Fraction(die.probability("<", result)) + tie * (1 - win)
        total += hidden * weight
    denominator: int = (icepool.d20 + hide).denominator()
    return total / denominator


def show(label: str, seconds: float, goal: float | None = None) -> None:
    text = f"  {label:<44} {seconds * 1e6:>12.1f} µs"
    if goal is not None:
        text += f"   (goal < {goal * 1e6:g} µs: {'met' if seconds < goal else 'MISSED'})"
    print(text)


def bench_spot() -> None:
    rules = shipped("dnd35")
    verdict = spot_check(rules, spot_bonus=7, distance_ft=20, target=SpotTarget.MOVING)
    assert verdict.difficulty is not None
    assert verdict.chance == icepool_spot(verdict.die_bonus, verdict.difficulty)
    print("spot check, 1 observer (DD-3, moving, 20 ft):")
    full = median_seconds(
        lambda: spot_check(rules, spot_bonus=7, distance_ft=20, target=SpotTarget.MOVING),
        repeat=3000,
    )
    show("vigile spot_check (verdict tree, exact)", full, 20e-6)
    show(
        "vigile chance only (check_chance)",
        median_seconds(lambda: check_chance(5, 20), repeat=3000),
    )
    ice = median_seconds(lambda: icepool_spot(5, 20), repeat=300, warmup=5)
    show("icepool (same chance only)", ice)
    print(f"  icepool / vigile: {ice / full:,.1f}x")


def bench_hide() -> None:
    rules = shipped("dnd35")
    cases = [
        ("1 observer", 8, [6], 20e-6, 3000, 50),
        ("100 observers", 10, [(i * 37) % 100 - 40 for i in range(100)], 1e-3, 300, 3),
    ]
    for label, hide, crowd, goal, repeat, ice_repeat in cases:
        verdict = hide_check(rules, hide_bonus=hide, spot_bonuses=crowd)
        exact = icepool_hidden(hide, crowd)
        assert verdict.chance == exact, (verdict.chance, exact)
        assert verdict.chance == hidden_from_all_dnd(hide, crowd)[0]
        print(f"hide check (DD-20), {label} (distinct bonuses: {len(set(crowd))}):")
        full = median_seconds(
            partial(hide_check, rules, hide_bonus=hide, spot_bonuses=crowd), repeat=repeat
        )
        show("vigile hide_check (verdict tree, exact)", full, goal)
        chance = median_seconds(partial(hidden_from_all_dnd, hide, crowd), repeat=repeat)
        show("vigile chance only (hidden_from_all_dnd)", chance)
        ice = median_seconds(partial(icepool_hidden, hide, crowd), repeat=ice_repeat, warmup=1)
        show("icepool (same chance only)", ice)
        print(f"  icepool / vigile: {ice / full:,.0f}x")


def main() -> None:
    load = os.getloadavg()
    print(f"load {load[0]:.1f} {load[1]:.1f} {load[2]:.1f} (1, 5, 15 min); medians after a warm-up")
    bench_spot()
    bench_hide()


if __name__ == "__main__":
    main()
