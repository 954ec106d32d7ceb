"""Benchmark: exact risk maps of the bundled night raid (200 × 120 cm) at 1 cm, and a route;
and d20 risk maps of a 60 × 40 square map (300 × 200 ft) with 10 observers.

Goals: a risk map of a 200 × 120 cm board at 1 cm resolution in under 1 s (issue 5); a d20 risk
map of a 60 × 40 square map with 10 observers in under 1 s (issue 13).
Prints the best of a few runs per case; its last lines:
``riskmap_1cm_s=… (sight, worst attitude) noise_1cm_s=… (worst event) route_s=… goal<1s`` and
``d20_riskmap_s=… (worst game and way) d20_route_s=… goal<1s``.

The skirmish risk map takes about 3 µs a (grid cell, guard) pair, so its limit
(``riskmap.MAX_CELL_GUARDS``, 2,000,000 pairs) is a few seconds of work.

    .venv/bin/python bench/riskmap.py
"""

from __future__ import annotations

import time
from collections.abc import Callable

from vigile.errors import InputError
from vigile.games.skirmish.riskmap import Board, risk_map
from vigile.games.skirmish.route import safest_route, step_open
from vigile.rulesets.skirmish.noise import NoiseEvent
from vigile.rulesets.skirmish.sight import Attitude
from vigile.scene.loader import load_scenario, parse_scenario

REPEATS = 3


def best_of(work: Callable[[], object]) -> float:
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    scenario = load_scenario("night-raid")
    board = Board.of(scenario)
    cells = 200 * 120
    print(
        f"night raid: {scenario.map.width:g} x {scenario.map.height:g} cm, "
        f"{len(board.guards)} guards, {len(scenario.walls)} walls, {cells} cells at 1 cm"
    )
    sight = {}
    for attitude in Attitude:
        sight[attitude] = best_of(lambda a=attitude: risk_map(board, a, resolution=1))
        print(f"  sight  {attitude.value:<9} {sight[attitude]:.3f} s")
    noise = {}
    for event in (NoiseEvent.FUMBLE, NoiseEvent.DEATH, NoiseEvent.WHISPER):
        noise[event] = best_of(
            lambda e=event: risk_map(board, Attitude.HALF, resolution=1, noise=e)
        )
        print(f"  noise  {event.value:<9} {noise[event]:.3f} s")
    found = risk_map(board, Attitude.HIDDEN, resolution=1)
    prepare = best_of(lambda: step_open(found))
    prepared = step_open(found)
    search = best_of(lambda: safest_route(found, (60, 14), (130, 82), prepared=prepared))
    try:
        far = best_of(lambda: safest_route(found, (15, 15), (185, 105), prepared=prepared))
    except InputError as error:  # the raid's walls and guards may close that way
        print(f"  route  across the board: {error}")
        far = 0.0
    print(
        f"  route  walls traced {prepare:.3f} s, search {search:.3f} s, "
        f"across the board {far:.3f} s"
    )
    route_s = prepare + max(search, far)
    print(
        f"riskmap_1cm_s={max(sight.values()):.3f} noise_1cm_s={max(noise.values()):.3f} "
        f"route_s={route_s:.3f} goal<1s"
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
            took = best_of(lambda m=make, w=way, s=scenario: m(s, w))
            worst = max(worst, took)
            print(f"  {ruleset:<10} {way:<5} 60 x 40 squares, 10 observers: {took:.3f} s")
        found = make(scenario, "half")
        route = best_of(lambda f=found: safest_route(f, (5, 5), (295, 195)))
        route_s = max(route_s, route)
        doors = [name for _, name in safest_route(found, (5, 5), (295, 195)).doors]
        print(f"  {ruleset:<10} route across the map, doors opened {doors}: {route:.3f} s")
    print(f"d20_riskmap_s={worst:.3f} d20_route_s={route_s:.3f} goal<1s")


if __name__ == "__main__":
    main()
    bench_d20()
