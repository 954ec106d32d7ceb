"""``vigile simulate``: a million raids, in blocks, on one core or several.

Runs are played in blocks of :data:`BLOCK` runs; block ``k`` draws from its own generator,
``SeedSequence(seed, spawn_key=(k,))``, so the numbers depend only on the seed and the number of
runs — not on how many blocks are held in memory at once, nor on how many workers play them.
Memory is bounded by the block size, whatever the number of runs.

From :data:`KERNEL_RUNS` runs, a game with a compiled model (its plug-in's ``kernel``: a numba
kernel) plays every block with it: the first call after install compiles it (tens of seconds,
then cached on disk), so shorter simulations stay on the numpy batch, which answers
at once. A scenario the engine would play game by game (no batched model: the d20 games, day
encounters) goes to the kernel from :data:`ENGINE_KERNEL_RUNS` runs, where the engine would
already take longer than loading it. Without numba, a one-line notice and the batch (or the
engine). The kernel's blocks are played on every core of this machine, in threads (the kernel
releases the GIL), unless ``workers`` or a scheduler say otherwise. The choice depends only on
the number of runs, so the same seed gives the same numbers whatever the workers and threads.
"""

from __future__ import annotations

import functools
import hashlib
import math
import os
import sys
from collections.abc import Callable, Generator, Iterator
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from vigile import registry
from vigile.errors import InputError, LimitError
from vigile.scene.model import Scenario
from vigile.sim.tally import CODE, OUTCOMES, Batched, Tally

BLOCK = 4096
"""Runs played together; about 10 MB of arrays for the night raid."""
MAX_RUNS = 100_000_000
MAX_WORKERS = 64
MAX_ENGINE_ROUNDS = 500_000
"""The most actor-rounds (runs x turns x actors) the turn engine plays game by game for a
scenario with no batched model (the d20 games, day encounters): a fraction of a millisecond each,
so a few minutes at most, with a progress bar."""
Z95 = 1.959963984540054
KERNEL_RUNS = 20_000
"""From this many runs, the compiled kernel plays (when the game has one and numba is installed)."""
ENGINE_KERNEL_RUNS = 1_000
"""From this many runs, the compiled kernel plays a scenario that has no batched model: from
there the engine, game by game, takes longer than loading the cached kernel."""
NO_NUMBA = (
    "vigile: numba is not installed, so the numpy batch plays (slower); "
    "pip install 'vigile[kernel]' for the compiled kernel\n"
)


@dataclass(frozen=True)
class Estimate:
    """A probability estimated from runs, with its 95% Wilson score interval."""

    count: int
    runs: int

    @property
    def p(self) -> float:
        return self.count / self.runs if self.runs else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% Wilson interval, which stays inside [0, 1] even at 0 or 1 successes."""
        n, p, z = self.runs, self.p, Z95
        if n == 0:
            return (0.0, 1.0)
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True)
class SimResult:
    """What ``simulate`` found over all its runs."""

    scenario: Scenario
    runs: int
    seed: int
    tally: Tally
    guards: list[str]
    batched: bool = True
    """False when the turn engine played the games one by one."""
    requested: int | None = None
    """The runs asked for, when Ctrl-C stopped the simulation before them (``runs`` were
    played); None when every run was played."""

    @property
    def interrupted(self) -> bool:
        return self.requested is not None

    def outcome(self, name: str) -> Estimate:
        return Estimate(int(self.tally.outcomes[OUTCOMES.index(name)]), self.runs)

    @property
    def detected(self) -> Estimate:
        """Runs in which some guard detected an intruder."""
        return Estimate(self.runs - int(self.tally.first_detection[0]), self.runs)

    def as_json(self) -> dict[str, Any]:
        def est(e: Estimate) -> dict[str, Any]:
            low, high = e.interval
            return {"p": round(e.p, 6), "ci95": [round(low, 6), round(high, 6)], "count": e.count}

        stopped = {"interrupted": True, "requested": self.requested} if self.interrupted else {}
        return {
            "scenario": self.scenario.name,
            "runs": self.runs,
            **stopped,
            "seed": self.seed,
            "outcomes": {name: est(self.outcome(name)) for name in OUTCOMES},
            "detected": est(self.detected),
            "first_detection_turn": {
                str(t): int(c) for t, c in enumerate(self.tally.first_detection) if t and c
            },
            "guard_detections": {
                g: est(Estimate(int(c), self.runs))
                for g, c in zip(self.guards, self.tally.guard_detections, strict=True)
            },
        }


def block_seed(seed: int, index: int) -> np.random.Generator:
    """The generator of block ``index``: the same whatever the chunking and the workers."""
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(index,)))


def blocks(runs: int) -> Iterator[tuple[int, int]]:
    """(index, size) of each block of a simulation of ``runs`` runs."""
    for index in range(math.ceil(runs / BLOCK)):
        yield index, min(BLOCK, runs - index * BLOCK)


def play_block(model: Batched | Scenario, seed: int, index: int, size: int) -> Tally:
    """Play block ``index``: batched when the game has a batched model, else game by game in
    the engine."""
    if isinstance(model, Scenario):
        return engine_block(model, seed, index, size)
    return model.play(size, block_seed(seed, index))


def engine_block(scenario: Scenario, seed: int, index: int, size: int) -> Tally:
    """The turn engine playing ``size`` games one by one (the scenarios the batched simulator
    does not play: d20 games and day encounters); each game gets its own seed."""
    from vigile.dice.source import RolledFaces
    from vigile.engine.run import play

    sequence = np.random.SeedSequence(seed, spawn_key=(index,))
    guards = [a.name for a in scenario.actors if a.side.value == "defenders"]
    tally = Tally.empty(scenario.turns, len(guards))
    tally.runs = size
    for child in sequence.spawn(size):
        rng = np.random.default_rng(child)
        result = play(scenario, seed=int(rng.integers(2**62)), faces=RolledFaces(rng))
        tally.outcomes[CODE[result.outcome.ending]] += 1
        first = _first_detection(result, guards)
        tally.first_detection[first[0] if first else 0] += 1
        for g in {g for _, g in first[1:]} if first else ():
            tally.guard_detections[g] += 1
    return tally


LOCATED_OR_SEEN = ("location", "observed")
"""What "detected" counts, in every game (RULES.md §4): a defender who knows where an intruder
is, or sees him; hearing a noise (direction) or sensing a presence is not a detection. The
``unseen`` of an outcome counts the same."""


def _first_detection(result: Any, guards: list[str]) -> tuple[Any, ...]:
    """(turn of the first detection, (turn, guard index) of each detection), or ().

    A character's ``perceive`` event names the state its rule gives (``state``), in every
    game (``tests/test_perceive_states.py``): the simulator reads it and rules nothing."""
    found = [
        (e.turn, guards.index(e.actor))
        for e in result.events
        if e.kind == "perceive" and e.actor in guards and e.params["state"] in LOCATED_OR_SEEN
    ]
    return (found[0][0], *found) if found else ()


def _model(scenario: Scenario, compiled: bool = False) -> Batched | Scenario:
    """What plays a block: the game's compiled model (its plug-in's ``kernel``) when
    ``compiled`` and it covers the scenario, else its batched model (``batch``) when it has one
    for the scenario, else the scenario itself, played game by game in the engine."""
    kernel = _kernel(scenario) if compiled else None
    if kernel is not None:
        return kernel
    plugin = registry.get(scenario.ruleset)
    model: Batched | None = plugin.load(plugin.batch)(scenario) if plugin.batch else None
    return scenario if model is None else model


def _kernel(scenario: Scenario) -> Batched | None:
    """The game's compiled model of the scenario (its plug-in's ``kernel``), None where it has
    none or the scenario is beyond it. Imports numba: the caller checked it is installed."""
    plugin = registry.get(scenario.ruleset)
    return None if plugin.kernel is None else plugin.load(plugin.kernel)(scenario)


def _kernel_ready(scenario: Scenario, runs: int, threshold: int) -> bool:
    """Whether the game's compiled model may play: the game has one, ``runs`` reaches
    ``threshold``, and numba is installed — without it, a one-line notice on stderr."""
    if runs < threshold or registry.get(scenario.ruleset).kernel is None:
        return False
    from vigile.sim.kernel import available

    if not available():
        sys.stderr.write(NO_NUMBA)
        return False
    return True


def _chosen_model(scenario: Scenario, runs: int) -> tuple[Batched | Scenario, bool]:
    """What plays ``runs`` runs of the scenario (see the module's docstring), and whether it is
    the game's compiled model: from :data:`KERNEL_RUNS`, the compiled model where the game has
    one for the scenario, built before the batched model (which would be built for nothing);
    from :data:`ENGINE_KERNEL_RUNS`, the compiled model of a scenario the engine would play
    game by game; else the batched model, else the engine."""
    if _kernel_ready(scenario, runs, KERNEL_RUNS):
        kernel = _kernel(scenario)
        return (kernel, True) if kernel is not None else (_model(scenario), False)
    model = _model(scenario)
    # from KERNEL_RUNS the first question was asked (and the notice given, if any)
    engine = isinstance(model, Scenario) and runs < KERNEL_RUNS
    if engine and _kernel_ready(scenario, runs, ENGINE_KERNEL_RUNS):
        kernel = _kernel(scenario)
        if kernel is not None:
            return kernel, True
    return model, False


def kernel_threads() -> int:
    """The threads that play the compiled kernel's blocks: one per core this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not on Linux
        return max(1, os.cpu_count() or 1)


def _threaded(model: Batched | Scenario, seed: int, runs: int, threads: int) -> Iterator[Tally]:
    """The blocks played by ``threads`` threads of this process, each tally as it finishes.
    Only for a compiled model: its kernel releases the GIL, and each call of ``play`` has its
    own working arrays. Leaving early (Ctrl-C) cancels the blocks not started."""
    from concurrent.futures import ThreadPoolExecutor, as_completed

    with ThreadPoolExecutor(threads, thread_name_prefix="vigile-kernel") as pool:
        futures = [
            pool.submit(play_block, model, seed, index, size) for index, size in blocks(runs)
        ]
        try:
            for future in as_completed(futures):
                yield future.result()
        finally:
            for future in futures:
                future.cancel()


@functools.lru_cache(maxsize=4)
def _worker_model(scenario_json: str, compiled: bool = False) -> Batched | Scenario:
    """The model a worker plays, prepared once per process for each scenario it is sent."""
    return _model(Scenario.model_validate_json(scenario_json), compiled)


def _warm(scenario_json: str) -> None:
    """Prepare a worker's compiled model of the scenario and play one run (its kernel loaded,
    or compiled on a machine that never ran it): :func:`vigile.sim.executors.warm_workers`."""
    model = _worker_model(scenario_json, True)
    if not isinstance(model, Scenario):
        model.play(1, np.random.default_rng(0))


def _worker_block(
    scenario_json: str, seed: int, index: int, size: int, compiled: bool = False
) -> Tally:
    """One task: block ``index`` of the scenario sent as JSON (so it runs on any machine),
    played by the compiled model when ``compiled``."""
    return play_block(_worker_model(scenario_json, compiled), seed, index, size)


def check_counts(runs: int, workers: int) -> None:
    """Refuse run and worker counts that are zero, negative or absurd."""
    if runs < 1:
        raise InputError(f"{runs}: at least one run", where="--runs")
    if runs > MAX_RUNS:
        raise LimitError(f"--runs: {runs} is over the limit of {MAX_RUNS:,} runs")
    if not 1 <= workers <= MAX_WORKERS:
        raise InputError(f"{workers}: 1 to {MAX_WORKERS} workers", where="--workers")


def check_engine_work(scenario: Scenario, runs: int) -> None:
    """Refuse, before any work, a game-by-game simulation beyond :data:`MAX_ENGINE_ROUNDS`."""
    work = runs * scenario.turns * len(scenario.actors)
    if work > MAX_ENGINE_ROUNDS:
        most = max(1, MAX_ENGINE_ROUNDS // (scenario.turns * len(scenario.actors)))
        raise LimitError(
            f"--runs: {runs:,} runs of {scenario.turns} turns with {len(scenario.actors)} actors "
            f"is {work:,} actor-rounds, over the limit of {MAX_ENGINE_ROUNDS:,} for a game the "
            f"engine plays one by one ({scenario.ruleset}); at most {most:,} runs"
        )


def simulate(
    scenario: Scenario,
    runs: int,
    *,
    seed: int = 0,
    workers: int = 1,
    scheduler: str | None = None,
    source: str | Path | None = None,
    progress: Callable[[int], None] | None = None,
    threads: int | None = None,
) -> SimResult:
    """Play ``runs`` runs of ``scenario``; with ``workers`` > 1 in local worker processes, or
    on the Dask scheduler at ``scheduler`` (:func:`vigile.sim.executors.executor`). The
    workers are sent the scenario itself; ``source`` (its file or bundled name) is no longer
    needed and is ignored. The numbers are the same wherever the blocks are played. ``threads``:
    how many threads play the compiled kernel's blocks in this process (default: one per core,
    :func:`kernel_threads`; a sweep's worker processes ask for one)."""
    del source  # kept for callers that still pass it
    check_counts(runs, workers)
    model, compiled = _chosen_model(scenario, runs)
    if isinstance(model, Scenario):
        check_engine_work(scenario, runs)
    guards = [a.name for a in scenario.actors if a.side.value == "defenders"]
    batched = not isinstance(model, Scenario)
    turns = scenario.turns if isinstance(model, Scenario) else model.turns
    total = Tally.empty(turns, len(guards))
    try:
        with closing(
            _tallies(model, scenario, runs, seed, workers, scheduler, compiled, threads)
        ) as tallies:
            for tally in tallies:
                total = total + tally
                if progress:
                    progress(tally.runs)
    except KeyboardInterrupt:
        from vigile.sim.executors import Interrupted

        partial = SimResult(scenario, total.runs, seed, total, guards, batched, requested=runs)
        raise Interrupted(partial) from None
    return SimResult(scenario, runs, seed, total, guards, batched)


def _tallies(
    model: Batched | Scenario,
    scenario: Scenario,
    runs: int,
    seed: int,
    workers: int,
    scheduler: str | None,
    compiled: bool = False,
    threads: int | None = None,
) -> Generator[Tally, None, None]:
    """Each block's tally: played here one after the other, or by worker processes or a Dask
    scheduler as they finish (in any order: the sum is the same). Closing it early (Ctrl-C)
    stops the workers at once. ``compiled``: the workers play the compiled model."""
    if workers == 1 and scheduler is None:
        threads = (threads or kernel_threads()) if compiled else 1
        if threads == 1 or runs <= BLOCK:
            for index, size in blocks(runs):
                yield play_block(model, seed, index, size)
            return
        yield from _threaded(model, seed, runs, threads)
        return
    from vigile.sim.executors import completed, executor, local_workers, warm_workers

    sent = scenario.model_dump_json(exclude_unset=True)
    with executor(local_workers(workers, math.ceil(runs / BLOCK)), scheduler) as pool:
        if compiled:
            digest = hashlib.sha256(sent.encode()).hexdigest()[:12]
            warm_workers(pool, f"vigile-kernel-{digest}", functools.partial(_warm, sent))
        futures = [
            pool.submit(_worker_block, sent, seed, index, size, compiled)
            for index, size in blocks(runs)
        ]
        for _, tally in completed(pool, futures):
            yield tally
