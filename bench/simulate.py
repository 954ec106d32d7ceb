"""Benchmark of ``vigile simulate``'s compiled kernel (issue 14), side by side in one run.

On the bundled night raid, wall time and CPU time of each, the same scenario:

- the compiled kernel (:class:`vigile.games.skirmish.kernel.raid.KernelRaid`), runs per second;
- the turn engine playing games one by one (:class:`vigile.games.skirmish.raid.SkirmishGame`);
- an idiomatic Mesa model of the raid (``bench/mesa_raid.py``; ``pip install -e '.[bench]'``);
- the random-number floor: the time numpy takes just to draw the uniforms the kernel's runs
  consume (counted run by run by :meth:`KernelRaid.trace`), in the kernel's chunks;

then the kernel on raids made from the night raid with 5, 11, 50 and 200 guards (the cost
should grow with the guards, about linearly) and with 27 and 500 walls: the same 27 walls cut
in 500 pieces (the same board: the cost should stay about flat, a query gathering its walls by
map cell), and 473 more short walls spread over the board (denser: each query meets more);
with ``--million``, ``simulate(night raid, 1,000,000 runs, seed=5)`` in a fresh process, as
``vigile simulate`` plays it (the kernel's blocks in one thread per core), then the same on two
worker processes: wall time, CPU time and peak memory (the process's ``VmHWM``, and the largest
worker's ``ru_maxrss``).

The ratios are of CPU-second rates: each model plays on one core, and the machine may be shared
(the kernel: the best of three rounds).
Last line: ``sim_runs_per_s=… vs_engine=…x vs_mesa=…x vs_rng_floor=…x``
(``sim_runs_per_s``: the kernel's runs per CPU-second; ``vs_rng_floor``: how many times the
kernel is slower than drawing its uniforms).

Run: ``.venv/bin/python bench/simulate.py [--million]`` (two or three minutes; the million
runs add about a minute). The first run after install compiles the kernel (about 30 s).

``--compile`` alone: each compiled kernel's first compile, in a fresh process with an empty
numba cache, then its load from that cache: wall and CPU seconds and peak memory (a few
minutes). ``--first`` alone: ``vigile simulate night-raid --runs 20000`` on an empty cache,
piped: when its first line comes (goal: 2 s) and when it ends (goal: 30 s).
"""

from __future__ import annotations

import functools
import json
import math
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))

from vigile.dice.source import RolledFaces
from vigile.games.skirmish.kernel.raid import CHUNK, KernelRaid
from vigile.games.skirmish.raid import SkirmishGame
from vigile.scene.loader import load_scenario, parse_scenario
from vigile.scene.model import Scenario

Point = tuple[float, ...]

MILLION = """
import resource, sys, time
from vigile.scene.loader import load_scenario
from vigile.sim.simulate import simulate
scenario = load_scenario("night-raid")
start, cpu = time.perf_counter(), time.process_time()
result = simulate(scenario, 1_000_000, seed=5, workers=int(sys.argv[1]))
wall, cpu = time.perf_counter() - start, time.process_time() - cpu
children = resource.getrusage(resource.RUSAGE_CHILDREN)
# the process's own peak from /proc (VmHWM, KiB): Linux carries ru_maxrss over an exec, so
# RUSAGE_SELF would report the benchmark's own peak (the scaled raids), not this process's
with open("/proc/self/status") as status:
    own_kib = next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
print(wall, cpu + children.ru_utime + children.ru_stime, children.ru_maxrss, own_kib,
      result.outcome("objective_unseen").p)
"""


class Timing:
    """Wall and CPU seconds of a piece of work of ``runs`` runs."""

    def __init__(self, runs: int, wall: float, cpu: float) -> None:
        self.runs, self.wall, self.cpu = runs, wall, cpu

    @property
    def per_wall_s(self) -> float:
        return self.runs / self.wall

    @property
    def per_cpu_s(self) -> float:
        return self.runs / self.cpu

    def line(self, label: str, note: str = "") -> str:
        return (
            f"  {label:<22}{self.per_wall_s:11,.1f} runs/s wall {self.per_cpu_s:11,.1f} "
            f"runs/CPU-s  ({self.runs:,} runs, {self.wall:.2f} s){note}"
        )


def timed(runs: int, work: Callable[[], Any]) -> Timing:
    wall, cpu = time.perf_counter(), time.process_time()
    work()
    return Timing(runs, time.perf_counter() - wall, time.process_time() - cpu)


def kernel_timing(kernel: KernelRaid, least_s: float = 1.0, seed: int = 1) -> Timing:
    """The kernel's rate on enough runs to take ``least_s`` CPU seconds (doubling from 256)."""
    runs = 256
    while True:
        timing = timed(runs, functools.partial(kernel.play, runs, np.random.default_rng(seed)))
        if timing.cpu >= least_s or runs >= 1 << 20:
            return timing
        runs *= max(2, min(16, math.ceil(least_s / max(timing.cpu, 1e-3))))


# ---------------------------------------------------------------- the scaled raids


def raid_data(scenario: Scenario) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(scenario.model_dump_json(exclude_unset=True))
    return data


def _legs(data: dict[str, Any]) -> list[tuple[Point, Point]]:
    """The intruders' ways, as segments from their start through each waypoint."""
    ways: list[tuple[Point, Point]] = []
    for actor in data["actors"]:
        at = tuple(actor["position"])
        for leg in data.get("plans", {}).get(actor["name"], []):
            if leg.get("to") is not None:
                ways.append((at, tuple(leg["to"])))
                at = tuple(leg["to"])
    return ways


def _to_segment(p: Point, a: Point, b: Point) -> float:
    """Distance from point p to segment a-b."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = dx * dx + dy * dy
    t = (
        0.0
        if length == 0
        else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length))
    )
    return math.dist(p, (a[0] + t * dx, a[1] + t * dy))


def _near(a: Point, b: Point, c: Point, d: Point, margin: float) -> bool:
    """Whether segments a-b and c-d cross or come within ``margin`` of each other."""

    def side(p: Point, q: Point, r: Point) -> float:
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])

    if side(c, d, a) * side(c, d, b) < 0 and side(a, b, c) * side(a, b, d) < 0:
        return True
    gaps = (_to_segment(a, c, d), _to_segment(b, c, d), _to_segment(c, a, b), _to_segment(d, a, b))
    return min(gaps) < margin


def with_guards(scenario: Scenario, count: int) -> Scenario:
    """The night raid with ``count`` guards: fewer keeps those the plans name (their victims)
    and the first others; more adds copies of its guards (their dice, posted or patrolling,
    each alone) at positions spread over the map."""
    data = raid_data(scenario)
    guards = [a for a in data["actors"] if a["side"] == "defenders"]
    intruders = [a for a in data["actors"] if a["side"] == "attackers"]
    named = {
        action.get("target")
        for legs in data.get("plans", {}).values()
        for leg in legs
        for action in leg.get("actions", [])
    }
    if count <= len(guards):
        kept = [g for g in guards if g["name"] in named]
        kept += [g for g in guards if g["name"] not in named][: count - len(kept)]
        data["hidden_guards"] = [
            n for n in data.get("hidden_guards", []) if n in {g["name"] for g in kept}
        ]
        data["actors"] = intruders + kept
        return parse_scenario(json.dumps(data), fmt="json")
    columns = math.ceil(math.sqrt((count - len(guards)) * 180 / 100))
    rows = math.ceil((count - len(guards)) / columns)
    added = []
    for k in range(count - len(guards)):
        model = guards[k % len(guards)]
        copy = {key: value for key, value in model.items() if key not in ("group", "name")}
        copy["name"] = f"{model['name']} {k + 2}"
        col, row = k % columns, k // columns
        copy["position"] = [
            round(12.3 + 176 * (col + 0.5) / columns, 2),
            round(12.7 + 96 * (row + 0.5) / rows, 2),
        ]
        added.append(copy)
    data["actors"] = intruders + guards + added
    return parse_scenario(json.dumps(data), fmt="json")


def with_walls_cut(scenario: Scenario, count: int) -> Scenario:
    """The night raid with its walls cut in pieces, ``count`` segments in all (the longest
    cut first): the same board, more walls. A piece keeps its wall's kind; a named wall (a door
    the plans open) stays whole."""
    data = raid_data(scenario)
    walls = [dict(w) for w in data["walls"]]
    pieces = [1] * len(walls)
    length = [0.0 if w.get("name") else math.dist(w["start"], w["end"]) for w in walls]
    while sum(pieces) < count:
        longest = max(range(len(walls)), key=lambda j: length[j] / pieces[j])
        pieces[longest] += 1
    cut = []
    for wall, n in zip(walls, pieces, strict=True):
        (x1, y1), (x2, y2) = wall["start"], wall["end"]
        for k in range(n):
            a, b = k / n, (k + 1) / n
            piece = dict(wall)
            piece["start"] = [x1 + a * (x2 - x1), y1 + a * (y2 - y1)]
            piece["end"] = [x1 + b * (x2 - x1), y1 + b * (y2 - y1)]
            cut.append(piece)
    data["walls"] = cut
    return parse_scenario(json.dumps(data), fmt="json")


def with_walls(scenario: Scenario, count: int) -> Scenario:
    """The night raid with ``count`` walls: its own, and short wall segments (2 cm) spread
    over the map on a grid, leaving the intruders' ways and everyone's place clear."""
    data = raid_data(scenario)
    walls = list(data["walls"])
    ways = _legs(data)
    places = [tuple(a["position"]) for a in data["actors"]]
    columns = 36
    k = 0
    while len(walls) < count and k < 40_000:
        col, row = k % columns, (k // columns) % 24
        turn = k // (columns * 24)
        x = 11.1 + 178 * (col + 0.5 + 0.37 * turn) / columns % 178
        y = 11.3 + 98 * (row + 0.5 + 0.29 * turn) / 24 % 98
        angle = (k * 2.399963) % math.pi
        start = (round(x, 2), round(y, 2))
        end = (round(x + 2 * math.cos(angle), 2), round(y + 2 * math.sin(angle), 2))
        k += 1
        if any(_near(start, end, a, b, 1.0) for a, b in ways):
            continue
        if any(math.dist(start, p) < 3 or math.dist(end, p) < 3 for p in places):
            continue
        if not (10.5 < end[0] < 189.5 and 10.5 < end[1] < 109.5):
            continue
        walls.append({"kind": "wall", "start": list(start), "end": list(end)})
    data["walls"] = walls
    return parse_scenario(json.dumps(data), fmt="json")


def mean_turns(kernel: KernelRaid, runs: int = 256) -> float:
    """The turns a run lasts, on average (a sample of runs, traced)."""
    budget = 6000
    while True:
        try:
            traced = kernel.trace(np.random.default_rng(7).random(runs * budget), runs)
        except ValueError:  # runs drawing more than the budget: a bigger stream
            budget *= 4
            continue
        return float(np.mean(traced.end))


# ---------------------------------------------------------------- the benchmark


def main() -> None:
    scenario = load_scenario("night-raid")
    rules = scenario.rules()
    print("night raid (11 guards, 3 intruders, 27 walls, 40 turns); wall and CPU time, one core")

    kernel = KernelRaid.of(scenario)
    kernel.play(512, np.random.default_rng(0))  # compile (or load from the cache), fill tables
    rounds = [kernel_timing(kernel, least_s=2.0) for _ in range(3)]
    k = max(rounds, key=lambda timing: timing.per_cpu_s)
    print(k.line("compiled kernel"))

    games = 16
    engine = timed(
        games,
        lambda: [
            SkirmishGame(
                scenario, rules, np.random.default_rng(s), RolledFaces(np.random.default_rng(s))
            ).play()
            for s in range(games)
        ],
    )
    print(engine.line("turn engine", f"  -> kernel {k.per_cpu_s / engine.per_cpu_s:,.0f}x"))

    mesa: Timing | None
    try:
        from mesa_raid import RaidModel, Sim

        sim = Sim.of(scenario)
        mesa = timed(games, lambda: [RaidModel(sim, s).play() for s in range(games)])
        print(mesa.line("Mesa model", f"  -> kernel {k.per_cpu_s / mesa.per_cpu_s:,.0f}x"))
    except ImportError:
        mesa = None
        print("  Mesa model            not installed (pip install -e '.[bench]')")

    sample = 1024
    traced = kernel.trace(np.random.default_rng(2).random(sample * 6000), sample)
    per_run = float(traced.used.sum()) / sample
    total = int(per_run * k.runs)
    floor_rng = np.random.default_rng(3)
    floor = timed(
        k.runs, lambda: [floor_rng.random(min(CHUNK, total - s)) for s in range(0, total, CHUNK)]
    )
    print(
        floor.line(
            "random-number floor",
            f"  -> {per_run:,.0f} uniforms a run; "
            f"kernel {floor.per_cpu_s / k.per_cpu_s:.0f}x slower",
        )
    )

    print(
        "the kernel as the raid grows (us per guard-turn: CPU per run, per turn played, per guard)"
    )
    for label, variant in [
        *((f"{n} guards", with_guards(scenario, n)) for n in (5, 11, 50, 200)),
        ("27 walls", scenario),
        ("500 walls, the 27 cut", with_walls_cut(scenario, 500)),
        ("500 walls, 473 more", with_walls(scenario, 500)),
    ]:
        model = KernelRaid.of(variant)
        model.play(64, np.random.default_rng(0))
        turns = mean_turns(model)
        timing = kernel_timing(model, least_s=1.0)
        guards = sum(1 for a in variant.actors if a.side.value == "defenders")
        per = 1e6 / timing.per_cpu_s / turns / guards
        print(
            f"  {label:<22}{timing.per_cpu_s:10,.0f} runs/CPU-s {timing.per_wall_s:10,.0f} runs/s "
            f"wall; {turns:4.1f} turns a run, {per:6.2f} us per guard-turn "
            f"({len(variant.walls)} walls, {guards} guards)"
        )

    if "--million" in sys.argv:
        for workers, how in ((1, "threads, one per core"), (2, "2 worker processes")):
            done = subprocess.run(
                [sys.executable, "-c", MILLION, str(workers)],
                capture_output=True,
                text=True,
                check=True,
            )
            wall, cpu, worker_kib, main_kib, unseen = (float(v) for v in done.stdout.split()[-5:])
            print(
                f"one million runs, simulate(seed=5), {how}, fresh process: {wall:.1f} s wall, "
                f"{cpu:.1f} s CPU, {1e6 / wall:,.0f} runs/s; peak memory {main_kib / 1024:.0f} "
                f"MiB the process, {worker_kib / 1024:.0f} MiB the largest worker; objective "
                f"unseen {unseen:.4f}"
            )

    mesa_ratio = f"{k.per_cpu_s / mesa.per_cpu_s:.0f}" if mesa else "n/a"
    print(
        f"sim_runs_per_s={k.per_cpu_s:.0f} vs_engine={k.per_cpu_s / engine.per_cpu_s:.0f}x "
        f"vs_mesa={mesa_ratio}x vs_rng_floor={floor.per_cpu_s / k.per_cpu_s:.1f}x"
    )


# ------------------------------------------------- the first compile, and the first simulation

COMPILE = """
import sys, time
import vigile.sim.kernel  # numba imported: its own import is not the compile
from vigile.scene.loader import load_scenario
from vigile.sim import warmup
scenario = load_scenario(sys.argv[1])
start, cpu = time.perf_counter(), time.process_time()
warmup.warm(scenario)
wall, cpu = time.perf_counter() - start, time.process_time() - cpu
with open("/proc/self/status") as status:
    own_kib = next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
print(wall, cpu, own_kib)
"""
KERNELS = {
    "skirmish night raid": "night-raid",
    "skirmish day encounter": "sk-s5-street",
    "D&D 3.5 round": "dnd35-invisible-intruder",
    "Starfinder round": "starfinder-infiltration",
}
"""A bundled scenario of each compiled kernel."""
FIRST_LINE_GOAL_S = 2.0
FIRST_RUN_GOAL_S = 30.0


def _fresh_cache(env_dir: str) -> dict[str, str]:
    return {**os.environ, "NUMBA_CACHE_DIR": env_dir}


def compile_costs() -> None:
    """Each kernel's first compile in a fresh process with an empty numba cache (its own
    folder, so no kernel finds another's shared code compiled), then the same load from the
    cache it filled: wall and CPU seconds, and the process's peak memory (``VmHWM``)."""
    print(f"first compile of each kernel (load average {os.getloadavg()[0]:.1f}, 1 min)")
    for label, name in KERNELS.items():
        with tempfile.TemporaryDirectory(prefix="vigile-numba-") as folder:
            found = []
            for _ in ("compile", "cached"):
                done = subprocess.run(
                    [sys.executable, "-c", COMPILE, name],
                    capture_output=True,
                    text=True,
                    env=_fresh_cache(folder),
                    check=True,
                )
                found.append([float(v) for v in done.stdout.split()[-3:]])
        (wall, cpu, kib), (cached_wall, _, cached_kib) = found
        print(
            f"  {label:<24} compile {wall:5.1f} s wall {cpu:5.1f} s CPU, peak {kib / 1024:4.0f} "
            f"MiB; from the cache {cached_wall:4.1f} s, peak {cached_kib / 1024:4.0f} MiB"
        )


def first_simulation() -> None:
    """``vigile simulate night-raid --runs 20000`` on a fresh install (an empty numba cache),
    piped: when its first line comes, when it ends, and its exit code."""
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="vigile-numba-") as folder:
        start = time.perf_counter()
        child = subprocess.Popen(
            [sys.executable, "-m", "vigile", "simulate", "night-raid", "--runs", "20000"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=_fresh_cache(folder),
        )
        assert child.stderr is not None
        first = child.stderr.readline()
        first_s = time.perf_counter() - start
        out, _ = child.communicate()
        total_s = time.perf_counter() - start
    print(f"first simulation, fresh cache (load average {load:.1f}, 1 min): {first.strip()!r}")
    print(
        f"  first line after {first_s:.1f} s (goal {FIRST_LINE_GOAL_S:.0f} s), done after "
        f"{total_s:.1f} s (goal {FIRST_RUN_GOAL_S:.0f} s), exit {child.returncode}, "
        f"{len(out.splitlines())} lines of result"
    )


if __name__ == "__main__":
    if "--compile" in sys.argv or "--first" in sys.argv:
        if "--compile" in sys.argv:
            compile_costs()
        if "--first" in sys.argv:
            first_simulation()
    else:
        main()
