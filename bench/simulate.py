"""Benchmark of ``vigile simulate``'s models of a raid, side by side in one run, on the same work.

On the bundled night raid, wall time and CPU time of each, the same scenario, the same game:

- the compiled kernel, as ``vigile simulate`` gets it (:func:`vigile.sim.simulate._model`) and
  plays it (:func:`~vigile.sim.simulate.play_block`, block after block of 4,096 runs; one
  thread here: the CLI runs one such thread per core);
- the turn engine, as ``vigile simulate --model engine`` plays it
  (:func:`~vigile.sim.simulate.engine_block`, game by game);
- an idiomatic Mesa model of the raid (``bench/mesa_raid.py``; ``pip install -e '.[bench]'``):
  not a model a user can get, what a designer would otherwise write; it plays the same game to
  the same end (on past the alarm), lighter than the engine in a few ways its docstring lists;
- the random-number floor: the time numpy takes just to draw the uniforms the kernel's runs
  consume (counted run by run by :meth:`KernelRaid.trace`), in the kernel's chunks.

Every model is loaded and has played one run before the rounds (the kernel loaded from numba's
cache, as the CLI loads it before its first block: that load and the first compile are
``--compile``'s figures). Then ``ROUNDS`` rounds, the models in turn within each round (the
machine's load falls on all alike): each round the kernel plays ``KERNEL_RUNS`` runs, the
engine and Mesa ``GAMES`` games each (fewer: their rates are per run). Printed for each: runs
per CPU-second, min/median/max over the rounds, and how its games ended (the same game: the
same endings, within sampling); the ratios are of the medians. Each model plays on one core;
the machine may be shared: the load (``os.getloadavg``) is printed at the start and the end.

Then the raids made from the night raid with 5, 11, 50 and 200 guards (the cost should grow
with the guards, about linearly) and with 27 and 500 walls: the same 27 walls cut in 500 pieces
(the same board: the cost should stay about flat, a query gathering its walls by map cell),
and 473 more short walls spread over the board (denser: each query meets more). Each is shown
with every model a user can get there: the kernel, and the engine (``--model engine``; on
fewer games, its rate per run), the rounds interleaved likewise, and which one
``vigile simulate``'s automatic choice takes for 10,000 runs.

With ``--million``, ``simulate(night raid, 1,000,000 runs, seed=5)`` in a fresh process, as
``vigile simulate`` plays it (the kernel's blocks in one thread per core), then the same on two
worker processes: wall time, CPU time and peak memory (the process's ``VmHWM``, and the largest
worker's ``ru_maxrss``).

Goals (issue 14, on the night raid): a million runs in under 20 s of wall time on 2 cores;
the kernel within 25x of the random-number floor; the cost linear in guards and flat in walls;
peak memory under 500 MiB per worker. Each is printed beside its figure.
Last line: ``sim_runs_per_cpu_s=… vs_engine=…x vs_mesa=…x vs_rng_floor=…x load_1min=…``
(the medians; ``vs_rng_floor``: how many times the kernel is slower than drawing its uniforms).

Run: ``.venv/bin/python bench/simulate.py [--quick] [--million]`` (a few minutes; ``--quick``:
2 rounds of small samples, a smoke run). The first run after install compiles the kernel
(about 30 s).

``--compile`` alone: each compiled kernel's first compile, in a fresh process with an empty
numba cache, then its load from that cache: wall and CPU seconds (the helper process's that
:func:`vigile.sim.warmup.warm` starts for the night raid included) and peak memory (the
process's, and the helper's beside it; a few minutes). ``--first`` alone: ``vigile simulate
night-raid --runs 20000`` on an empty cache, piped: when its first line comes (goal: 2 s)
and when it ends (goal: 30 s). Measured 2026-12-06 on 2 shared cores: first line after
0.6-0.7 s, done after 27.6 s (load 1.1) and 30.7 s (load 1.4), against 40.4 s (load 1.3)
before the patrol's move was compiled apart and the helper process compiled the run's
callees beside the model's build (34.4 s at load 3.1, where no core is free).

``--scheduler`` alone: the kernel on a Dask cluster, as ``vigile simulate --scheduler`` plays
it: two local clusters (``distributed.LocalCluster``), of 1 and of 2 worker processes (one
thread each), the same runs on each in turn, round after round; prints the scaling efficiency
(the 1-worker median wall time over twice the 2-worker one: 1.0 is perfect), and the same for
``run_sweep`` over 4 variants of the raid (``turns=30..36:2``, one task each), and how each
worker got its compiled kernel: ``vigile simulate`` registers a Dask worker plugin
(:func:`vigile.sim.executors.warm_workers`) that, on every worker (those there and those that
join later), loads the kernel from that machine's numba cache before the first block (or
compiles it there, once, into that cache); the local workers here share this machine's cache
folder (printed), so they load it. ``vigile sweep --scheduler`` sends each variant as a task
that calls ``simulate`` on the worker: it loads the kernel from the worker machine's cache the
same way, in the first task a worker runs (no plugin: a worker machine that never compiled it
compiles it in its first variant).
"""

from __future__ import annotations

import functools
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))

from vigile.games.skirmish.kernel.raid import CHUNK, KernelRaid
from vigile.scene.loader import load_scenario, parse_scenario
from vigile.scene.model import Scenario
from vigile.sim.tally import OUTCOMES, Tally

Point = tuple[float, ...]

QUICK = "--quick" in sys.argv
ROUNDS = 2 if QUICK else 5
"""Rounds of each comparison; every model gets as many, in turn."""
KERNEL_RUNS = 4096 if QUICK else 4 * 4096
GAMES = 3 if QUICK else 16
"""Games of the engine and of Mesa a round: their rates are per run."""
MILLION_GOAL_S = 20.0
FLOOR_GOAL_X = 25.0
MEMORY_GOAL_MIB = 500.0

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


def spread(rates: list[float]) -> str:
    """Median, min and max of a list of rates."""
    return f"{statistics.median(rates):11,.1f} ({min(rates):,.1f}-{max(rates):,.1f})"


def endings(counts: Counter[str], runs: int) -> str:
    """The share of each ending met, in the tallies' order."""
    return ", ".join(
        f"{name.replace('objective_', 'obj. ').replace('_', ' ')} {counts[name] / runs:.0%}"
        for name in OUTCOMES
        if counts[name]
    )


def tally_endings(tally: Tally) -> Counter[str]:
    return Counter({name: int(n) for name, n in zip(OUTCOMES, tally.outcomes, strict=True)})


class Rounds:
    """One model's rounds: each round's timing, and the endings of its games."""

    def __init__(self, label: str) -> None:
        self.label, self.timings, self.ends = label, list[Timing](), Counter[str]()

    def add(self, runs: int, work: Callable[[], Counter[str] | None]) -> None:
        found: list[Counter[str] | None] = []
        self.timings.append(timed(runs, lambda: found.append(work())))
        if found[0] is not None:
            self.ends += found[0]

    @property
    def median(self) -> float:
        return statistics.median(t.per_cpu_s for t in self.timings)

    def line(self, note: str = "") -> str:
        runs = sum(t.runs for t in self.timings)
        wall = statistics.median(t.per_wall_s for t in self.timings)
        ends = f"; ends: {endings(self.ends, runs)}" if self.ends else ""
        return (
            f"  {self.label:<20}{spread([t.per_cpu_s for t in self.timings])} runs/CPU-s, "
            f"{wall:,.1f} runs/s wall ({len(self.timings)} rounds of {self.timings[0].runs:,} "
            f"runs){note}{ends}"
        )


def kernel_rounds(model: Any, runs: int, seed: int) -> Counter[str]:
    """The CLI's kernel path on one thread: its blocks, one after the other."""
    from vigile.sim.simulate import blocks, play_block

    total = Counter[str]()
    for index, size in blocks(runs):
        total += tally_endings(play_block(model, seed, index, size))
    return total


def engine_rounds(scenario: Scenario, games: int, seed: int) -> Counter[str]:
    """The CLI's engine path (``--model engine``): game by game."""
    from vigile.sim.simulate import engine_block

    return tally_endings(engine_block(scenario, seed, 0, games))


def cli_kernel(scenario: Scenario) -> Any:
    """The compiled model ``vigile simulate`` plays the scenario with, loaded and warm (one
    run played); None where the kernel does not cover it."""
    from vigile.sim.simulate import _model

    model = _model(scenario, compiled=True)
    if isinstance(model, Scenario):
        return None
    model.play(1, np.random.default_rng(0))
    return model


def auto_choice(scenario: Scenario, runs: int = 10_000) -> str:
    """Which model ``vigile simulate``'s automatic choice plays ``runs`` runs with here."""
    from vigile.sim.simulate import _chosen_model

    _, choice = _chosen_model(scenario, runs)
    return "kernel" if choice.kernel else "engine"


def load_line(when: str) -> str:
    one, five, fifteen = os.getloadavg()
    return f"load {one:.1f} {five:.1f} {fifteen:.1f} (1, 5, 15 min) {when}"


def main() -> None:
    scenario = load_scenario("night-raid")
    start_load = os.getloadavg()[0]
    print(
        "night raid (11 guards, 3 intruders, 27 walls, 40 turns): each model as vigile simulate "
        f"plays it, one core; {ROUNDS} rounds, the models in turn; {load_line('at the start')}"
    )
    kernel = cli_kernel(scenario)
    assert kernel is not None, "the night raid is the kernel's"
    engine_rounds(scenario, 1, 99)  # the engine's imports and tables, as the kernel's load
    k, e = Rounds("compiled kernel"), Rounds("turn engine")
    floor = Rounds("random-number floor")
    mesa: Rounds | None = Rounds("Mesa model")
    try:
        from mesa_raid import RaidModel, Sim

        sim = Sim.of(scenario)
        RaidModel(sim, 99).play()
    except ImportError:
        mesa = None

    def mesa_games(seed: int) -> Counter[str]:
        return Counter(str(RaidModel(sim, seed * GAMES + g).play()) for g in range(GAMES))

    sample = 256 if QUICK else 1024
    traced = kernel.trace(np.random.default_rng(2).random(sample * 6000), sample)
    per_run = float(traced.used.sum()) / sample
    floor_runs = 16 * KERNEL_RUNS  # a round of a few milliseconds is all noise: 16x the runs
    total = int(per_run * floor_runs)
    floor_rng = np.random.default_rng(3)

    def draw() -> None:
        for start in range(0, total, CHUNK):
            floor_rng.random(min(CHUNK, total - start))
        return None

    for r in range(ROUNDS):
        k.add(KERNEL_RUNS, functools.partial(kernel_rounds, kernel, KERNEL_RUNS, r))
        e.add(GAMES, functools.partial(engine_rounds, scenario, GAMES, r))
        if mesa is not None:
            mesa.add(GAMES, functools.partial(mesa_games, r))
        floor.add(floor_runs, draw)
    print(k.line())
    print(e.line(f"  -> kernel {k.median / e.median:,.0f}x"))
    if mesa is not None:
        print(mesa.line(f"  -> kernel {k.median / mesa.median:,.0f}x (not a user's model)"))
    else:
        print("  Mesa model            not installed (pip install -e '.[bench]')")
    slower = floor.median / k.median
    print(
        floor.line(
            f"  -> {per_run:,.0f} uniforms a run; kernel {slower:.1f}x slower "
            f"(goal: within {FLOOR_GOAL_X:g}x: {'met' if slower <= FLOOR_GOAL_X else 'MISSED'})"
        )
    )

    scaled(scenario)

    if "--million" in sys.argv:
        million()

    mesa_ratio = f"{k.median / mesa.median:.0f}" if mesa else "n/a"
    print(load_line("at the end"))
    print(
        f"sim_runs_per_cpu_s={k.median:.0f} vs_engine={k.median / e.median:.0f}x "
        f"vs_mesa={mesa_ratio}x vs_rng_floor={slower:.1f}x load_1min={start_load:.1f}"
    )


def scaled(scenario: Scenario) -> None:
    """The raid as it grows, with every model a user can get there."""
    engine_games = 1 if QUICK else 4
    kernel_runs = 1024 if QUICK else 4096
    rounds = ROUNDS if not QUICK else 1
    print(
        f"the raid as it grows: the kernel ({kernel_runs:,} runs a round) and the engine "
        f"({engine_games} games a round: fewer, its rate is per run), {rounds} rounds in turn; "
        "runs per CPU-second, median (min-max); us per guard-turn: CPU per run, per turn "
        "played, per guard (goal: about flat across guards, and from 27 walls to the 27 cut)"
    )
    variants = [
        *((f"{n} guards", with_guards(scenario, n)) for n in (5, 11, 50, 200)),
        ("27 walls", scenario),
        ("500 walls, the 27 cut", with_walls_cut(scenario, 500)),
        ("500 walls, 473 more", with_walls(scenario, 500)),
    ]
    if QUICK:
        variants = variants[::3]
    for label, variant in variants:
        guards = sum(1 for a in variant.actors if a.side.value == "defenders")
        model = cli_kernel(variant)
        engine_rounds(variant, 1, 99)
        k, e = Rounds("kernel"), Rounds("engine")
        for r in range(rounds):
            if model is not None:
                k.add(kernel_runs, functools.partial(kernel_rounds, model, kernel_runs, r))
            e.add(engine_games, functools.partial(engine_rounds, variant, engine_games, r))
        turns = mean_turns(model, 64 if QUICK else 256) if model is not None else float("nan")
        print(
            f"  {label} ({len(variant.walls)} walls, {guards} guards; "
            f"vigile simulate --runs 10000 plays the {auto_choice(variant)}):"
        )
        if model is not None:
            per = 1e6 / k.median / turns / guards
            print(
                f"    kernel {spread([t.per_cpu_s for t in k.timings])} runs/CPU-s; "
                f"{turns:4.1f} turns a run, {per:6.3f} us per guard-turn"
            )
        else:
            print("    kernel: beyond it (the engine plays this raid)")
        per_e = 1e6 / e.median / turns / guards if model is not None else float("nan")
        ratio = f"; the kernel {k.median / e.median:,.0f}x" if model is not None else ""
        print(
            f"    engine {spread([t.per_cpu_s for t in e.timings])} runs/CPU-s; "
            f"{per_e:8.1f} us per guard-turn{ratio}"
        )


def million() -> None:
    for workers, how in ((1, "threads, one per core"), (2, "2 worker processes")):
        done = subprocess.run(
            [sys.executable, "-c", MILLION, str(workers)],
            capture_output=True,
            text=True,
            check=True,
        )
        wall, cpu, worker_kib, main_kib, unseen = (float(v) for v in done.stdout.split()[-5:])
        peak = max(main_kib, worker_kib) / 1024
        print(
            f"one million runs, simulate(seed=5), {how}, fresh process: {wall:.1f} s wall "
            f"(goal < {MILLION_GOAL_S:g} s: {'met' if wall < MILLION_GOAL_S else 'MISSED'}), "
            f"{cpu:.1f} s CPU, {1e6 / wall:,.0f} runs/s; peak memory {main_kib / 1024:.0f} "
            f"MiB the process, {worker_kib / 1024:.0f} MiB the largest worker (goal < "
            f"{MEMORY_GOAL_MIB:g} MiB: {'met' if peak < MEMORY_GOAL_MIB else 'MISSED'}); "
            f"objective unseen {unseen:.4f}"
        )


# ------------------------------------------------- on a Dask cluster


def _worker_cache(dask_worker: Any) -> dict[str, Any]:
    """On a Dask worker: where its numba cache is, which vigile warm-up plugins it ran, and
    whether the night raid's kernel is compiled in this process (its entry point loaded)."""
    import numba

    from vigile.sim.warmup import entry_point

    kernel = KernelRaid.of(load_scenario("night-raid"))
    dispatcher = entry_point(kernel)
    return {
        "cache": str(numba.config.CACHE_DIR) or "(beside the sources)",  # type: ignore[attr-defined]
        "NUMBA_CACHE_DIR": os.environ.get("NUMBA_CACHE_DIR", ""),
        "plugins": sorted(p for p in dask_worker.plugins if p.startswith("vigile-kernel")),
        "loaded": bool(getattr(dispatcher, "overloads", None)),
    }


def scheduler_scaling() -> None:
    """The kernel on Dask: 1 and 2 local worker processes, the same runs in turn; the scaling
    efficiency, and how the workers got the compiled kernel."""
    from dask.distributed import Client, LocalCluster

    from vigile.sim.simulate import BLOCK, simulate
    from vigile.sim.sweep import Vary, run_sweep

    scenario = load_scenario("night-raid")
    runs = (4 if QUICK else 32) * BLOCK
    rounds = 2 if QUICK else 3
    options = {
        "threads_per_worker": 1,
        "processes": True,
        "host": "127.0.0.1",
        "scheduler_port": 0,
        "dashboard_address": ":0",
        "worker_dashboard_address": None,
        "silence_logs": 50,
    }
    print(
        f"the kernel on a Dask cluster of local worker processes, {runs:,} runs a round, "
        f"{rounds} rounds, 1 and 2 workers in turn; {load_line('at the start')}"
    )
    with (
        LocalCluster(n_workers=1, **options) as one,  # type: ignore[no-untyped-call]
        LocalCluster(n_workers=2, **options) as two,  # type: ignore[no-untyped-call]
    ):
        clusters = {1: one.scheduler_address, 2: two.scheduler_address}
        for workers, address in clusters.items():  # the warm-up plugin: the kernel loaded
            start = time.perf_counter()
            simulate(scenario, BLOCK, seed=0, scheduler=address, model="kernel")
            print(
                f"  {workers} worker(s): first call, the warm-up on each worker included: "
                f"{time.perf_counter() - start:.1f} s"
            )
        walls: dict[int, list[float]] = {1: [], 2: []}
        sweeps: dict[int, list[float]] = {1: [], 2: []}
        grid = [Vary.parse("turns=30..36:2")]  # 4 variants, one task each
        for r in range(rounds):
            for workers, address in clusters.items():
                start = time.perf_counter()
                simulate(scenario, runs, seed=r + 1, scheduler=address, model="kernel")
                walls[workers].append(time.perf_counter() - start)
                start = time.perf_counter()
                run_sweep(scenario, grid, runs // 4, seed=r, scheduler=address, model="kernel")
                sweeps[workers].append(time.perf_counter() - start)
        with Client(two.scheduler_address, set_as_default=False) as client:  # type: ignore[no-untyped-call]
            found = client.run(_worker_cache)
    for worker, info in sorted(found.items()):
        print(
            f"  worker {worker}: numba cache {info['cache']} (NUMBA_CACHE_DIR "
            f"{info['NUMBA_CACHE_DIR'] or 'unset: vigile points numba at its user cache'}); "
            f"warm-up plugins {info['plugins']}; kernel loaded in the worker: {info['loaded']}"
        )
    print(f"  this process's numba cache: {_own_cache()}")
    found_efficiency = {}
    for label, times in (("simulate", walls), ("sweep, 4 variants", sweeps)):
        one_s, two_s = (statistics.median(times[n]) for n in (1, 2))
        found_efficiency[label] = efficiency = one_s / (2 * two_s)
        print(
            f"  {label}: wall time a round, median (min-max): "
            + "; ".join(
                f"{n} worker(s) {statistics.median(w):.2f} s ({min(w):.2f}-{max(w):.2f})"
                for n, w in times.items()
            )
        )
        print(
            f"    scaling from 1 to 2 workers: speed-up {one_s / two_s:.2f}, efficiency "
            f"{efficiency:.2f} (1.00: perfect)"
        )
    print(f"  the machine's cores are shared: {load_line('now')}")
    print(
        f"dask_efficiency_simulate={found_efficiency['simulate']:.2f} "
        f"dask_efficiency_sweep={found_efficiency['sweep, 4 variants']:.2f} "
        f"load_1min={os.getloadavg()[0]:.1f}"
    )


def _own_cache() -> str:
    import numba

    import vigile.sim.kernel  # noqa: F401  (points numba at vigile's cache folder)

    return str(numba.config.CACHE_DIR)  # type: ignore[attr-defined]


# ------------------------------------------------- the first compile, and the first simulation

COMPILE = """
import resource, sys, time
import vigile.sim.kernel  # numba imported: its own import is not the compile
from vigile.scene.loader import load_scenario
from vigile.sim import warmup
scenario = load_scenario(sys.argv[1])
start, cpu = time.perf_counter(), time.process_time()
warmup.warm(scenario)
wall, cpu = time.perf_counter() - start, time.process_time() - cpu
helper = resource.getrusage(resource.RUSAGE_CHILDREN)  # warm's helper process, if it ran one
with open("/proc/self/status") as status:
    own_kib = next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
print(wall, cpu + helper.ru_utime + helper.ru_stime, own_kib, helper.ru_maxrss)
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
                found.append([float(v) for v in done.stdout.split()[-4:]])
        (wall, cpu, kib, helper_kib), (cached_wall, _, cached_kib, _) = found
        helper = f" (helper {helper_kib / 1024:.0f} MiB)" if helper_kib else ""
        print(
            f"  {label:<24} compile {wall:5.1f} s wall {cpu:5.1f} s CPU, peak {kib / 1024:4.0f} "
            f"MiB{helper}; from the cache {cached_wall:4.1f} s, peak {cached_kib / 1024:4.0f} MiB"
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
    if "--scheduler" in sys.argv:
        scheduler_scaling()
    elif "--compile" in sys.argv or "--first" in sys.argv:
        if "--compile" in sys.argv:
            compile_costs()
        if "--first" in sys.argv:
            first_simulation()
    else:
        main()
