"""``vigile simulate``: a million raids, in blocks, on one core or several.

Runs are played in blocks of :data:`BLOCK` runs; block ``k`` draws from its own generator,
``SeedSequence(seed, spawn_key=(k,))``, so the numbers depend only on the seed and the number of
runs — not on how many blocks are held in memory at once, nor on how many workers play them.
Memory is bounded by the block size, whatever the number of runs.

A game has two models of a scenario: the turn engine, the reference, which plays game by game,
and its compiled kernel (its plug-in's ``kernel``, numba), which plays the engine's game run by
run from the same uniforms (``tests/test_kernel_*equivalence.py``) hundreds of times faster.
Which plays (:func:`choose`) depends on the work and on whether the kernel is compiled on this
machine (:func:`vigile.sim.warmup.is_compiled`), not on a count of runs:

* a kernel compiled here plays every scenario it covers, however few the runs;
* a kernel not compiled yet costs a first compile (tens of seconds, then cached on disk:
  :mod:`vigile.sim.kernel`). Work the engine finishes sooner than that compile
  (:func:`engine_seconds` against :func:`vigile.sim.warmup.compile_seconds`) is the engine's,
  while the kernel compiles in the background for the next simulation
  (:data:`Notice.ENGINE_FIRST`); more work waits for the compile, done in a child process the
  user may interrupt at once (:data:`Notice.COMPILING`);
* the engine plays a scenario beyond the kernel (a game without one, a scenario beyond its
  tables), and every scenario where numba cannot be imported (:data:`Notice.NO_NUMBA`).

The two models play the same game but draw their numbers differently: the same seed gives the
same numbers with the same model (``model="kernel"`` or ``"engine"`` fixes it). The kernel's
blocks are played on every core of this machine, in threads (the kernel releases the GIL),
unless ``workers`` or a scheduler say otherwise.
"""

from __future__ import annotations

import functools
import hashlib
import math
import os
from collections.abc import Callable, Generator, Iterator
from contextlib import closing
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

import numpy as np

from vigile import registry
from vigile.engine.events import DETECTING
from vigile.errors import InputError, LimitError
from vigile.scene.model import Scenario
from vigile.sim.tally import CODE, OUTCOMES, Batched, Tally

BLOCK = 4096
"""Runs played together; about 10 MB of arrays for the night raid."""
MAX_RUNS = 100_000_000
MAX_WORKERS = 64
MAX_ENGINE_ROUNDS = 500_000
"""The most actor-rounds (runs x turns x actors) the turn engine plays game by game (a scenario
beyond the compiled kernel, or no numba): a fraction of a millisecond each, so a few minutes at
most, with a progress bar."""
Z95 = 1.959963984540054


class Notice(StrEnum):
    """What :func:`simulate` tells its caller about the model it chose (the CLI says it in the
    user's language: ``sim.notice.*``)."""

    NO_NUMBA = "no_numba"
    """numba cannot be imported: the engine plays, game by game (slower)."""
    COMPILING = "compiling"
    """The compiled kernel plays, and is compiled first on this machine (about
    :func:`vigile.sim.warmup.compile_seconds`)."""
    ENGINE_FIRST = "engine_first"
    """The kernel is not compiled on this machine and the engine finishes this work sooner: the
    engine plays it, while the kernel compiles in the background for the next simulation."""


ENGINE_S_PER_ACTOR_ROUND = 0.0004
"""About how long the turn engine takes for one actor's turn of one game (the night raid: 0.2 to
0.5 ms, idle to loaded, on a 2-core machine), to weigh its work against a kernel's compile."""
MODELS = ("auto", "kernel", "engine")
"""What ``model`` may ask for: the choice of :func:`choose`, or one model whatever the cost."""


@dataclass(frozen=True)
class Choice:
    """The model :func:`choose` chose, and what comes with it."""

    kernel: bool
    """The compiled kernel plays (else the engine, game by game)."""
    notice: Notice | None = None
    """What to tell the user, if anything."""
    seconds: float = 0.0
    """About how long the notice's wait is: the compile's, or the engine's work."""
    compile_first: bool = False
    """The kernel is not compiled here: compile it (in a child process) before it plays."""
    compile_behind: bool = False
    """The engine plays; compile the kernel in the background for the next simulation."""


def engine_seconds(scenario: Scenario, runs: int) -> float:
    """About how long the turn engine takes for ``runs`` games of the scenario."""
    return runs * scenario.turns * len(scenario.actors) * ENGINE_S_PER_ACTOR_ROUND


def choose(
    scenario: Scenario,
    runs: int,
    *,
    has_kernel: bool,
    numba: bool = True,
    compiled: bool = True,
    covered: bool = True,
    model: str = "auto",
    workers: int = 1,
) -> Choice:
    """Which model plays ``runs`` runs of the scenario (see the module's docstring), given what
    was found: whether its game has a kernel (``has_kernel``), numba imports, the kernel is
    compiled on this machine, and covers the scenario (``covered``: False once a built kernel
    said the scenario is beyond it). ``model``: "auto", or "kernel" / "engine" to have that
    model whatever the cost (the kernel only where it can play: an
    :class:`~vigile.errors.InputError` else)."""
    if model not in MODELS:
        raise InputError(f"{model!r}: one of {', '.join(MODELS)}", where="--model")
    if model == "engine" or not has_kernel:
        if model == "kernel":
            raise InputError(
                f"the game {scenario.ruleset!r} has no compiled kernel", where="--model"
            )
        return Choice(kernel=False)
    if not numba:
        if model == "kernel":
            raise InputError("numba cannot be imported: no compiled kernel", where="--model")
        seconds = engine_seconds(scenario, runs) / max(1, workers)
        return Choice(kernel=False, notice=Notice.NO_NUMBA, seconds=seconds)
    if not covered:
        if model == "kernel":
            raise InputError("the scenario is beyond its game's compiled kernel", where="--model")
        return Choice(kernel=False)
    if compiled:
        return Choice(kernel=True)
    from vigile.sim.warmup import compile_seconds

    compile_s = compile_seconds(scenario.ruleset)
    engine_s = engine_seconds(scenario, runs) / max(1, workers)
    work = runs * scenario.turns * len(scenario.actors)
    if model == "auto" and engine_s < compile_s and work <= MAX_ENGINE_ROUNDS:
        return Choice(
            kernel=False, notice=Notice.ENGINE_FIRST, seconds=engine_s, compile_behind=True
        )
    return Choice(kernel=True, notice=Notice.COMPILING, seconds=compile_s, compile_first=True)


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
    """False when the turn engine played the games one by one (no heat map tallied)."""
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

    @property
    def intruder_detections(self) -> dict[str, Estimate]:
        """Each intruder's chance of being detected (located or seen by some guard) at least
        once, by name in the scenario's order; with a single intruder, :attr:`detected`
        itself. Empty where the model that played does not record whom its guards detected
        (see :attr:`~vigile.sim.tally.Tally.intruder_detections`)."""
        names = intruder_names(self.scenario)
        counts = self.tally.intruder_detections
        if len(counts) >= len(names):
            return {n: Estimate(int(c), self.runs) for n, c in zip(names, counts, strict=False)}
        if len(names) == 1:
            return {names[0]: self.detected}
        return {}

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
            "intruder_detections": {name: est(e) for name, e in self.intruder_detections.items()},
        }


def block_seed(seed: int, index: int) -> np.random.Generator:
    """The generator of block ``index``: the same whatever the chunking and the workers."""
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(index,)))


def blocks(runs: int) -> Iterator[tuple[int, int]]:
    """(index, size) of each block of a simulation of ``runs`` runs."""
    for index in range(math.ceil(runs / BLOCK)):
        yield index, min(BLOCK, runs - index * BLOCK)


def play_block(model: Batched | Scenario, seed: int, index: int, size: int) -> Tally:
    """Play block ``index``: by the game's compiled kernel, or game by game in the engine."""
    if isinstance(model, Scenario):
        return engine_block(model, seed, index, size)
    return model.play(size, block_seed(seed, index))


def engine_block(scenario: Scenario, seed: int, index: int, size: int) -> Tally:
    """The turn engine playing ``size`` games one by one (a scenario beyond the compiled kernel,
    or no numba); each game gets its own seed."""
    from vigile.dice.source import RolledFaces
    from vigile.engine.run import play

    sequence = np.random.SeedSequence(seed, spawn_key=(index,))
    guards = [a.name for a in scenario.actors if a.side.value == "defenders"]
    intruders = intruder_names(scenario)
    tally = Tally.empty(scenario.turns, len(guards), len(intruders))
    tally.runs = size
    for child in sequence.spawn(size):
        rng = np.random.default_rng(child)
        result = play(scenario, seed=int(rng.integers(2**62)), faces=RolledFaces(rng))
        tally.outcomes[CODE[result.outcome.ending]] += 1
        first = _first_detection(result, guards)
        tally.first_detection[first[0] if first else 0] += 1
        for g in {g for _, g in first[1:]} if first else ():
            tally.guard_detections[g] += 1
        for i in _detected_intruders(result, guards, intruders):
            tally.intruder_detections[i] += 1
    return tally


def intruder_names(scenario: Scenario) -> list[str]:
    """The intruders (attackers), in the scenario's order: the order of
    :attr:`~vigile.sim.tally.Tally.intruder_detections`."""
    return [a.name for a in scenario.actors if a.side.value == "attackers"]


def _detected_intruders(result: Any, guards: list[str], intruders: list[str]) -> set[int]:
    """The intruders some guard detected (located or seen) in a game, by their index."""
    return {
        intruders.index(p.target)
        for e in result.events
        if (p := e.perception) is not None
        and p.detects
        and p.observer in guards
        and p.target in intruders
    }


LOCATED_OR_SEEN = tuple(state.value for state in DETECTING)
"""What "detected" counts, in every game (RULES.md §4): a defender who knows where an intruder
is, or sees him (:data:`vigile.engine.events.DETECTING`); hearing a noise (direction) or
sensing a presence is not a detection. The ``unseen`` of an outcome counts the same."""


def _first_detection(result: Any, guards: list[str]) -> tuple[Any, ...]:
    """(turn of the first detection, (turn, guard index) of each detection), or ().

    Each event's typed :class:`~vigile.engine.events.Perception` names the state its game's
    rule gives: the simulator reads it and rules nothing. A game whose outcome says an
    intruder was detected while its log holds no perception at all breaks the plug-in
    contract (``docs/plugins.md``): :func:`check_perceptions` refuses it rather than count
    no detection."""
    check_perceptions(result)
    found = [
        (e.turn, guards.index(p.observer))
        for e in result.events
        if (p := e.perception) is not None and p.detects and p.observer in guards
    ]
    return (found[0][0], *found) if found else ()


def check_perceptions(result: Any) -> None:
    """Refuse a game that detected an intruder (its outcome is not ``unseen``) without
    logging a single :class:`~vigile.engine.events.Perception`: its located-or-seen figures
    would read 0% though it caught someone (:class:`vigile.registry.PluginError`)."""
    if result.outcome.unseen or any(e.perception is not None for e in result.events):
        return
    raise registry.PluginError(
        f"the game {result.scenario.ruleset!r} detected an intruder but logged no perception "
        "(Game.perceives): its located-or-seen figures cannot be counted; "
        "see docs/plugins.md, 'What the simulator reads'"
    )


def _model(scenario: Scenario, compiled: bool = False) -> Batched | Scenario:
    """What plays a block: the game's compiled model when ``compiled`` and it covers the
    scenario, else the scenario itself, played game by game in the engine."""
    kernel = _kernel(scenario) if compiled else None
    return scenario if kernel is None else kernel


def _kernel(scenario: Scenario) -> Batched | None:
    """The game's compiled model of the scenario (its plug-in's ``kernel``), None where it has
    none or the scenario is beyond it. Imports numba: the caller checked it imports."""
    plugin = registry.get(scenario.ruleset)
    return None if plugin.kernel is None else plugin.load(plugin.kernel)(scenario)


def kernel_notice(scenario: Scenario) -> Notice | None:
    """What to tell the user before the game's kernel plays the scenario on this machine,
    without building it: :data:`Notice.NO_NUMBA` where the game has a kernel and numba cannot
    be imported (the engine plays), :data:`Notice.COMPILING` where no kernel was compiled here
    yet, else None."""
    if registry.get(scenario.ruleset).kernel is None:
        return None
    from vigile.sim.kernel import available, compiled_before

    if not available():
        return Notice.NO_NUMBA
    return None if compiled_before() else Notice.COMPILING


def _chosen_model(
    scenario: Scenario,
    runs: int = 1,
    *,
    model: str = "auto",
    workers: int = 1,
    remote: bool = False,
) -> tuple[Batched | Scenario | None, Choice]:
    """The kernel or the scenario (the engine plays it) that plays, and the :class:`Choice`
    made (:func:`choose`); None for a kernel not built yet, to build once compiled. The kernel
    is built only where numba's cache holds it (:func:`vigile.sim.warmup.kernel_cached`):
    building it may compile some of it. ``remote``: the blocks play on a Dask scheduler's
    workers, which compile the kernel there (:func:`vigile.sim.executors.warm_workers`): this
    machine's cache does not matter."""
    has_kernel = registry.get(scenario.ruleset).kernel is not None
    found: dict[str, bool] = {}
    kernel: Batched | None = None
    if has_kernel and model in ("auto", "kernel"):
        from vigile.sim.kernel import available

        found["numba"] = available()
        if found["numba"]:
            from vigile.sim.warmup import is_compiled, kernel_cached

            found["compiled"] = remote or kernel_cached(scenario.ruleset)
            if found["compiled"]:
                kernel = _kernel(scenario)
                found["covered"] = kernel is not None
                found["compiled"] = remote or (kernel is not None and is_compiled(kernel))
    choice = choose(scenario, runs, has_kernel=has_kernel, model=model, workers=workers, **found)
    if not choice.kernel:
        return scenario, choice
    return kernel, choice


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
    notify: Callable[[Notice, float], None] | None = None,
    model: str = "auto",
    compiling: Callable[[float], None] | None = None,
) -> SimResult:
    """Play ``runs`` runs of ``scenario``; with ``workers`` > 1 in local worker processes, or
    on the Dask scheduler at ``scheduler`` (:func:`vigile.sim.executors.executor`). The
    workers are sent the scenario itself; ``source`` (its file or bundled name) is no longer
    needed and is ignored. The numbers are the same wherever the blocks are played. ``threads``:
    how many threads play the compiled kernel's blocks in this process (default: one per core,
    :func:`kernel_threads`; a sweep's worker processes ask for one). ``model``: "auto" (the
    choice of :func:`choose`), "kernel" or "engine". ``notify`` hears what the choice of the
    model has to say (:class:`Notice`), before any work; ``compiling`` hears the seconds
    elapsed while the kernel compiles first (Ctrl-C then abandons the compile at once:
    :class:`vigile.sim.warmup.CompileInterrupted`, nothing played)."""
    del source  # kept for callers that still pass it
    check_counts(runs, workers)
    played, choice = settle_model(
        scenario,
        runs,
        model=model,
        workers=workers,
        remote=scheduler is not None,
        notify=notify,
        compiling=compiling,
    )
    return _played(
        played, choice.kernel, scenario, runs, seed, workers, scheduler, progress, threads
    )


def settle_model(
    scenario: Scenario,
    runs: int,
    *,
    model: str = "auto",
    workers: int = 1,
    remote: bool = False,
    notify: Callable[[Notice, float], None] | None = None,
    compiling: Callable[[float], None] | None = None,
    limit: bool = True,
) -> tuple[Batched | Scenario, Choice]:
    """Choose the model of ``runs`` runs of the scenario (:func:`choose`), refuse beforehand
    work the engine would play too long, tell ``notify``, and have the kernel compiled: first,
    in a child process (``compiling`` hears the seconds elapsed; Ctrl-C abandons it:
    :class:`vigile.sim.warmup.CompileInterrupted`), or in the background while the engine
    plays. ``vigile sweep`` settles its variants' model this way, once for all of them (with
    ``limit`` false: each variant's simulation checks its own work)."""
    played, choice = _chosen_model(scenario, runs, model=model, workers=workers, remote=remote)
    if isinstance(played, Scenario) and limit:
        check_engine_work(scenario, runs)
    if choice.notice is not None and notify is not None:
        notify(choice.notice, choice.seconds)
    if choice.compile_first or choice.compile_behind:
        from vigile.sim import warmup

        sent = scenario.model_dump_json(exclude_unset=True)
        if choice.compile_first:
            warmup.compile_in_child(sent, compiling)  # failed: it compiles here, as before
        else:
            warmup.compile_in_background(sent)
    if played is None:  # compiled now: built from the cache
        played = _kernel(scenario)
        if played is None:  # beyond the kernel after all
            played, choice = scenario, Choice(kernel=False)
            if limit:
                check_engine_work(scenario, runs)
    return played, choice


def _played(
    played: Batched | Scenario,
    compiled: bool,
    scenario: Scenario,
    runs: int,
    seed: int,
    workers: int,
    scheduler: str | None,
    progress: Callable[[int], None] | None,
    threads: int | None,
) -> SimResult:
    """Play the runs by the chosen model, summing the blocks' tallies as they come; Ctrl-C
    keeps what was played (:class:`vigile.sim.executors.Interrupted`)."""
    guards = [a.name for a in scenario.actors if a.side.value == "defenders"]
    batched = not isinstance(played, Scenario)
    turns = scenario.turns if isinstance(played, Scenario) else played.turns
    total = Tally.empty(turns, len(guards))
    try:
        with closing(
            _tallies(played, scenario, runs, seed, workers, scheduler, compiled, threads)
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
