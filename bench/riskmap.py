"""Benchmark: exact risk maps of the bundled night raid (200 × 120 cm) at 1 cm, and a route;
and d20 risk maps of a 60 × 40 square map (300 × 200 ft) with 10 observers.

Goals: a risk map of a 200 × 120 cm board at 1 cm resolution in under 1 s (issue 5), each of
them: the sight maps (one per attitude) and the noise maps (one per event, 3-5x slower: each
cell sums the walls between it and every guard) are reported apart, each beside the goal; a
d20 risk map of a 60 × 40 square map with 10 observers in under 1 s (issue 13).
Prints the median (and min, max) of ``REPEATS`` runs per case and the machine's load
(``os.getloadavg``); its last lines:
``sight_1cm_s=… (worst attitude) noise_1cm_s=… (worst event) route_s=… goal<1s each`` and
``d20_riskmap_s=… (worst game and way) d20_route_s=… goal<1s``.

The routes are asked where they exist: a route that fails (an :class:`InputError`) stops the
benchmark with its message (exit code 1), never a 0 s figure. Across the board, every way
crosses cells a guard sees for certain: :func:`safest_route` gives the least-bad one, and the
benchmark prints how many such cells it enters.

The skirmish risk map takes about 3 µs a (grid cell, guard) pair, so its limit
(``riskmap.MAX_CELL_GUARDS``, 2,000,000 pairs) is a few seconds of work.

    .venv/bin/python bench/riskmap.py [--quick]

``--quick``: one run per case (a smoke run).
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from collections.abc import Callable

from vigile.errors import InputError
from vigile.games.skirmish.riskmap import Board, risk_map
from vigile.games.skirmish.route import safest_route, step_open
from vigile.rulesets.skirmish.noise import NoiseEvent
from vigile.rulesets.skirmish.sight import Attitude
from vigile.scene.loader import load_scenario, parse_scenario

REPEATS = 1 if "--quick" in sys.argv else 5
GOAL_S = 1.0


def timings(work: Callable[[], object]) -> list[float]:
    """Wall seconds of ``REPEATS`` runs of ``work``."""
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return times


def median_of(work: Callable[[], object]) -> float:
    """The median wall seconds of ``REPEATS`` runs of ``work``."""
    return statistics.median(timings(work))


def shown(times: list[float]) -> str:
    """Median, min and max, and whether the median meets the goal."""
    median = statistics.median(times)
    verdict = "meets" if median < GOAL_S else "MISSES"
    return (
        f"{median:.3f} s median (min {min(times):.3f}, max {max(times):.3f}; {verdict} "
        f"the goal < {GOAL_S:g} s)"
    )


def route_or_die(work: Callable[[], object], label: str) -> None:
    """Run a route once; a failure ends the benchmark loudly."""
    try:
        work()
    except InputError as error:
        print(f"route {label} FAILED: {error}", file=sys.stderr)
        raise SystemExit(1) from error


def main() -> None:
    scenario = load_scenario("night-raid")
    board = Board.of(scenario)
    cells = 200 * 120
    load = os.getloadavg()
    print(
        f"night raid: {scenario.map.width:g} x {scenario.map.height:g} cm, "
        f"{len(board.guards)} guards, {len(scenario.walls)} walls, {cells} cells at 1 cm; "
        f"{REPEATS} runs each; load {load[0]:.1f} {load[1]:.1f} {load[2]:.1f} (1, 5, 15 min)"
    )
    sight = {}
    for attitude in Attitude:
        times = timings(lambda a=attitude: risk_map(board, a, resolution=1))
        sight[attitude] = statistics.median(times)
        print(f"  sight  {attitude.value:<9} {shown(times)}")
    noise = {}
    for event in (NoiseEvent.FUMBLE, NoiseEvent.DEATH, NoiseEvent.WHISPER):
        times = timings(lambda e=event: risk_map(board, Attitude.HALF, resolution=1, noise=e))
        noise[event] = statistics.median(times)
        print(f"  noise  {event.value:<9} {shown(times)}")
    found = risk_map(board, Attitude.HIDDEN, resolution=1)
    prepare = median_of(lambda: step_open(found))
    prepared = step_open(found)
    routes = {}
    for label, start, goal in (
        ("through the yard", (60, 14), (130, 82)),
        ("across the board", (15, 15), (185, 105)),
    ):
        route_or_die(lambda s=start, g=goal: safest_route(found, s, g, prepared=prepared), label)
        route = safest_route(found, start, goal, prepared=prepared)
        times = timings(lambda s=start, g=goal: safest_route(found, s, g, prepared=prepared))
        routes[label] = statistics.median(times)
        print(
            f"  route  {label}: {len(route.cells)} cells, seen {route.chance_seen:.1%}, "
            f"{route.certain} cells seen for certain; search {shown(times)}"
        )
    print(f"  route  walls traced {prepare:.3f} s (once per map, before any search)")
    route_s = prepare + max(routes.values())
    print(
        f"sight_1cm_s={max(sight.values()):.3f} noise_1cm_s={max(noise.values()):.3f} "
        f"route_s={route_s:.3f} goal<1s each load_1min={load[0]:.1f}"
    )


def d20_yard(ruleset: str) -> str:
    """A 300 × 200 ft map (60 × 40 squares): walls with doors, cover, lights, 10 observers."""
    skills = (
        "{hide: 8, move_silently: 10, spot: 4, listen: 4}"
        if ruleset == "dnd35"
        else "{stealth: 14, perception: 6}"
    )
    guard = "{spot: 6, listen: 5}" if ruleset == "dnd35" else "{perception: 12}"
    guards = "\n".join(
        f"  - {{name: G{k}, side: defenders, position: [{25 + 28 * k}, {30 + 15 * (k % 9)}],"
        f" bonuses: {guard}}}"
        for k in range(10)
    )
    return f"""
ruleset: {ruleset}
name: bench yard
units: ft
time: night
map: {{width: 300, height: 200}}
walls:
  - {{kind: wall, start: [100, 0], end: [100, 90]}}
  - {{kind: door, name: west door, start: [100, 90], end: [100, 100]}}
  - {{kind: wall, start: [100, 100], end: [100, 200]}}
  - {{kind: wall, start: [200, 0], end: [200, 140]}}
  - {{kind: door, name: east door, start: [200, 140], end: [200, 150]}}
  - {{kind: wall, start: [200, 150], end: [200, 200]}}
cover:
  - {{points: [[20, 20], [60, 20], [60, 60], [20, 60]]}}
  - {{points: [[130, 120], [170, 120], [170, 180], [130, 180]]}}
lights:
  - {{kind: lantern, at: [50, 150], radius: 30}}
  - {{kind: lantern, at: [250, 50], radius: 40}}
actors:
  - {{name: Thief, side: attackers, position: [5, 5], invisible: true, bonuses: {skills}}}
{guards}
"""


def bench_d20() -> None:
    from vigile.games.dnd35.riskmap import risk_map as dnd35_map
    from vigile.games.starfinder.riskmap import risk_map as starfinder_map

    maps = {"dnd35": dnd35_map, "starfinder": starfinder_map}
    worst = 0.0
    route_s = 0.0
    for ruleset, make in maps.items():
        scenario = parse_scenario(d20_yard(ruleset))
        for way in ("still", "half", "full", "run"):
            took = median_of(lambda m=make, w=way, s=scenario: m(s, w))
            worst = max(worst, took)
            print(f"  {ruleset:<10} {way:<5} 60 x 40 squares, 10 observers: {took:.3f} s")
        found = make(scenario, "half")
        route_or_die(lambda f=found: safest_route(f, (5, 5), (295, 195)), f"{ruleset} yard")
        route = median_of(lambda f=found: safest_route(f, (5, 5), (295, 195)))
        route_s = max(route_s, route)
        doors = [name for _, name in safest_route(found, (5, 5), (295, 195)).doors]
        print(f"  {ruleset:<10} route across the map, doors opened {doors}: {route:.3f} s")
    print(
        f"d20_riskmap_s={worst:.3f} d20_route_s={route_s:.3f} goal<1s "
        f"load_1min={os.getloadavg()[0]:.1f}"
    )


if __name__ == "__main__":
    main()
    bench_d20()
