"""Benchmark: exact risk maps of the bundled night raid (200 × 120 cm) at 1 cm, and a route.

Goal (issue 5): a risk map of a 200 × 120 cm board at 1 cm resolution in under 1 s.
Prints the best of a few runs per case; its last line:
``riskmap_1cm_s=… (sight, worst attitude) noise_1cm_s=… (worst event) route_s=… goal<1s``.

    .venv/bin/python bench/riskmap.py
"""

from __future__ import annotations

import time
from collections.abc import Callable

from vigile.games.skirmish.riskmap import Board, risk_map
from vigile.games.skirmish.route import safest_route, step_open
from vigile.rulesets.skirmish.noise import NoiseEvent
from vigile.rulesets.skirmish.sight import Attitude
from vigile.scene.loader import load_scenario

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
    far = best_of(lambda: safest_route(found, (15, 15), (185, 105), prepared=prepared))
    print(
        f"  route  walls traced {prepare:.3f} s, search {search:.3f} s, "
        f"across the board {far:.3f} s"
    )
    route_s = prepare + max(search, far)
    print(
        f"riskmap_1cm_s={max(sight.values()):.3f} noise_1cm_s={max(noise.values()):.3f} "
        f"route_s={route_s:.3f} goal<1s"
    )


if __name__ == "__main__":
    main()
