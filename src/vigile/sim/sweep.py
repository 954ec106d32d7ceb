"""``vigile sweep``: a grid of scenario variants, simulated on worker processes or with Dask.

A variant changes one or more scenario fields, named by a path through the scenario as written in
its file: ``turns``, ``actors.Kage.dice.ninjitsu`` (an actor by name), ``lights.0.radius`` (a list
item by index); fields joined by commas move together, one axis of the grid (a patrol pair:
``actors.Jubei.position.0,actors.Goro.position.0=10..50:10``). Each variant is validated like a
scenario file, then simulated as one task: on local worker processes by default, or on an
existing Dask scheduler given by its address (:mod:`vigile.sim.executors`), so a designer who
outgrows one machine points vigile at a cluster and changes
nothing else.

``vigile sweep --find FIELD=LO..HI --target OUTCOME=P`` searches instead of sweeping: the value
of a field whose chance of OUTCOME is P, by bisection, each step a simulation of the same runs
with the same seed (:func:`find_target`).
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from vigile.errors import InputError, LimitError
from vigile.scene.model import Scenario
from vigile.sim.tally import OUTCOMES

MAX_VARIANTS = 10_000
_SPEC = re.compile(r"^(?P<path>[^=]+)=(?P<start>[^.]+(?:\.\d+)?)\.\.(?P<stop>[^:]+):(?P<step>.+)$")


@dataclass(frozen=True)
class Vary:
    """One axis of the grid: a field ``PATH=START..STOP:STEP`` (both ends included), and the
    fields varied in lockstep with it (``also``: a patrol pair moved together), each with as
    many values: the axis's k-th variant sets every one of them to its k-th value."""

    path: str
    values: tuple[float, ...]
    also: tuple[tuple[str, tuple[float, ...]], ...] = ()

    @property
    def paths(self) -> tuple[str, ...]:
        """Every field of the axis, the first one leading."""
        return (self.path, *(path for path, _ in self.also))

    def settings(self, index: int) -> dict[str, float]:
        """The value of each of the axis's fields in its ``index``-th variant."""
        return {
            self.path: self.values[index],
            **{path: values[index] for path, values in self.also},
        }

    @classmethod
    def parse(cls, text: str) -> Vary:
        """``PATH=START..STOP:STEP``; fields varied together are joined by commas, each with
        its own range (``A=10..50:10,B=20..60:10``: as many values each), or sharing the
        range that follows them (``A,B=10..50:10``)."""
        items = [item.strip() for item in text.split(",")]
        if len(items) == 1:
            path, values = cls._one(items[0])
            return cls(path, values)
        fields: list[tuple[str, tuple[float, ...]]] = []
        waiting: list[str] = []
        for item in items:
            if "=" not in item:
                if not item:
                    raise InputError(f"{text!r}: an empty field between commas", where="--vary")
                waiting.append(item)
                continue
            path, values = cls._one(item)
            fields += [(bare, values) for bare in waiting] + [(path, values)]
            waiting = []
        if waiting:
            raise InputError(
                f"{text!r}: {', '.join(waiting)} has no range: write A,B=START..STOP:STEP",
                where="--vary",
            )
        counts = {len(values) for _, values in fields}
        if len(counts) > 1:
            told = ", ".join(f"{path}: {len(values)}" for path, values in fields)
            raise InputError(
                f"{text!r}: fields varied together need as many values each ({told})",
                where="--vary",
            )
        paths = [path for path, _ in fields]
        if len(set(paths)) < len(paths):
            raise InputError(f"{text!r}: a field named twice", where="--vary")
        (path, values), *rest = fields
        return cls(path, values, tuple(rest))

    @staticmethod
    def _one(text: str) -> tuple[str, tuple[float, ...]]:
        found = _SPEC.match(text.strip())
        if not found:
            raise InputError(
                f"{text!r}: write PATH=START..STOP:STEP, e.g. turns=10..40:10", where="--vary"
            )
        start, stop, step = _range(text, found, "--vary")
        count = math.floor((stop - start) / step + 1e-9) + 1
        if count > MAX_VARIANTS:
            raise LimitError(f"--vary: {text!r} gives {count} values (at most {MAX_VARIANTS})")
        values = tuple(round(start + k * step, 10) for k in range(count))
        return found.group("path").strip(), values


def _range(
    text: str, found: re.Match[str], where: str, no_step: bool = False
) -> tuple[float, float, float]:
    """START, STOP and STEP of a ``PATH=START..STOP:STEP``: numbers, START <= STOP, STEP > 0
    (``no_step``: none written, 1 stands for it)."""
    try:
        start, stop = (float(found.group(k)) for k in ("start", "stop"))
        step = 1.0 if no_step else float(found.group("step"))
    except ValueError:
        raise InputError(f"{text!r}: START, STOP and STEP must be numbers", where=where) from None
    if not all(math.isfinite(v) for v in (start, stop, step)) or step <= 0 or stop < start:
        raise InputError(f"{text!r}: need START <= STOP and STEP > 0", where=where)
    return start, stop, step


def set_path(
    data: dict[str, Any], path: str, value: float, full: dict[str, Any] | None = None
) -> None:
    """Set the field at ``path`` in a scenario's data (as written in its file); ``full`` is the
    same data with every default filled in, for a field the file leaves at its default."""
    node: Any = data
    whole: Any = full if full is not None else data
    parts = path.split(".")
    for depth, part in enumerate(parts):
        last = depth == len(parts) - 1
        if isinstance(node, dict) and isinstance(whole, dict):
            if part not in node and part not in whole:
                raise InputError(
                    f"{path!r} names no scenario field ({part!r} is not there)", where="--vary"
                )
            if part not in node:
                node[part] = _copy(whole[part])
            if last:
                node[part] = _like(node[part], value, path)
                return
            node, whole = node[part], whole.get(part, node[part])
        elif isinstance(node, list) and isinstance(whole, list):
            index = _index(node, part, path)
            if last:
                node[index] = _like(node[index], value, path)
                return
            node, whole = node[index], whole[index] if index < len(whole) else node[index]
        else:
            raise InputError(f"{path!r} names no scenario field", where="--vary")


def _index(items: list[Any], part: str, path: str) -> int:
    if part.isdigit() and int(part) < len(items):
        return int(part)
    for k, item in enumerate(items):
        if isinstance(item, dict) and item.get("name") == part:
            return k
    raise InputError(f"{path!r} names no scenario field (no item {part!r})", where="--vary")


def _like(old: Any, value: float, path: str) -> Any:
    if isinstance(old, bool) or not isinstance(old, int | float):
        raise InputError(f"{path!r} is not a number in the scenario", where="--vary")
    if isinstance(old, int):
        if not float(value).is_integer():
            raise InputError(f"{path!r} takes whole numbers, not {value:g}", where="--vary")
        return int(value)
    return float(value)


def variant_count(varies: Sequence[Vary]) -> int:
    """How many variants the grid has (the product of the values of each ``--vary``), refused
    over :data:`MAX_VARIANTS` before any of them is built."""
    count = math.prod(len(v.values) for v in varies)
    if count > MAX_VARIANTS:
        raise LimitError(f"--vary: {count:,} variants (at most {MAX_VARIANTS:,})")
    return count


def variants(
    scenario: Scenario, varies: Sequence[Vary]
) -> list[tuple[dict[str, float], dict[str, Any]]]:
    """Every combination of the axes' values, as (the value of every varied field, the
    variant's data), validated; the fields of one axis move together."""
    from vigile.scene.loader import parse_scenario

    variant_count(varies)
    base = scenario.model_dump(mode="json", exclude_unset=True)
    full = scenario.model_dump(mode="json")
    found = []
    for indices in itertools.product(*(range(len(v.values)) for v in varies)):
        data = _copy(base)
        chosen: dict[str, float] = {}
        for vary, index in zip(varies, indices, strict=True):
            for path, value in vary.settings(index).items():
                set_path(data, path, value, full)
                chosen[path] = value
        import json

        parse_scenario(json.dumps(data), file=f"variant {chosen}", fmt="json")
        found.append((chosen, data))
    return found


def _copy(data: Any) -> Any:
    import copy

    return copy.deepcopy(data)


def _simulate_variant(
    data: dict[str, Any], runs: int, seed: int, model: str = "auto"
) -> dict[str, float]:
    """One task: validate the variant and simulate it (runs in a worker process) by ``model``
    (:func:`vigile.sim.simulate.simulate`)."""
    from vigile.scene.model import Scenario
    from vigile.sim.simulate import simulate

    scenario = Scenario.model_validate(data)
    result = simulate(scenario, runs, seed=seed, threads=1, model=model)
    row = {name: result.outcome(name).p for name in OUTCOMES}
    row["detected"] = result.detected.p
    return row


def run_sweep(
    scenario: Scenario,
    varies: Sequence[Vary],
    runs: int,
    *,
    seed: int = 0,
    scheduler: str | None = None,
    workers: int = 2,
    progress: Callable[[int], None] | None = None,
    model: str = "auto",
) -> list[dict[str, float]]:
    """Simulate every variant as one task, by ``model`` (settled once for all of them by the
    caller, :func:`vigile.sim.simulate.settle_model`, so that every row comes from the same
    model), on ``workers`` local processes (no more than the
    CPUs) or on the Dask scheduler at ``scheduler`` (:func:`vigile.sim.executors.executor`);
    one row per variant (its values and outcomes), in the grid's order.

    Ctrl-C stops the workers at once and raises :class:`~vigile.sim.executors.Interrupted`
    with a :class:`SweepPartial`: the rows of the variants finished."""
    from vigile.sim.executors import Interrupted, completed, executor, local_workers
    from vigile.sim.simulate import check_counts

    check_counts(runs, workers)
    grid = variants(scenario, varies)
    rows: dict[int, dict[str, float]] = {}
    try:
        with executor(local_workers(workers, len(grid)), scheduler) as pool:
            futures = [pool.submit(_simulate_variant, data, runs, seed, model) for _, data in grid]
            for index, row in completed(pool, futures):
                rows[index] = {**grid[index][0], **row}
                if progress:
                    progress(1)
    except KeyboardInterrupt:
        raise Interrupted(SweepPartial([rows[k] for k in sorted(rows)], len(grid))) from None
    return [rows[k] for k in sorted(rows)]


@dataclass(frozen=True)
class SweepPartial:
    """What a sweep stopped by Ctrl-C had finished: the rows of the variants done (in the
    grid's order), out of ``variants``."""

    rows: list[dict[str, float]]
    variants: int


# ------------------------------------------------------------------------------ target search

TARGETS = (*OUTCOMES, "detected")
"""What ``--target`` may name: an outcome, or "detected" (located or seen by some guard)."""
MAX_FIND_STEPS = 60
"""The most simulations one search plays (the ends, then bisection steps)."""


@dataclass(frozen=True)
class Find:
    """``--find PATH=LO..HI[:RESOLUTION]`` and ``--target OUTCOME=P``: the value of a numeric
    field between LO and HI whose chance of OUTCOME is P. RESOLUTION: the step of the values
    tried (LO + k x RESOLUTION, as ``--vary`` would give them), where the bracket stops
    (default: 1 for a whole-number field, (HI - LO) / 100 else)."""

    path: str
    low: float
    high: float
    resolution: float | None
    outcome: str
    target: float

    @classmethod
    def parse(cls, find: str, target: str) -> Find:
        found = _FIND.match(find.strip())
        if not found:
            raise InputError(
                f"{find!r}: write PATH=LO..HI or PATH=LO..HI:RESOLUTION, e.g. "
                "actors.Kuro.dice=1..6",
                where="--find",
            )
        step = found.group("step")
        start, stop, resolution = _range(find, found, "--find", step is None)
        if stop == start:
            raise InputError(f"{find!r}: LO and HI must differ", where="--find")
        name, _, chance = target.partition("=")
        name = name.strip()
        if name not in TARGETS:
            raise InputError(f"{name!r}: one of {', '.join(TARGETS)}", where="--target")
        try:
            p = float(chance)
        except ValueError:
            raise InputError(
                f"{target!r}: write OUTCOME=P, e.g. objective_unseen=0.5", where="--target"
            ) from None
        if not 0 < p < 1:
            raise InputError(f"{target!r}: P between 0 and 1 (not included)", where="--target")
        path = found.group("path").strip()
        return cls(path, start, stop, resolution if step else None, name, p)


_FIND = re.compile(
    r"^(?P<path>[^=]+)=(?P<start>-?[^.]+(?:\.\d+)?)\.\.(?P<stop>[^:]+)(?::(?P<step>.+))?$"
)


@dataclass(frozen=True)
class Step:
    """One simulation of the search: the field's value, and how many of the runs ended as the
    target's outcome."""

    value: float
    count: int
    runs: int

    @property
    def p(self) -> float:
        return self.count / self.runs

    @property
    def interval(self) -> tuple[float, float]:
        from vigile.sim.simulate import Estimate

        return Estimate(self.count, self.runs).interval

    def holds(self, target: float) -> bool:
        """The target lies inside this step's 95% interval: the noise cannot tell them apart."""
        low, high = self.interval
        return low <= target <= high


class FindStatus(StrEnum):
    """How a search ended (``sim.find.*`` says each in the user's language)."""

    FOUND = "found"
    """A value whose 95% interval holds the target, its bracket at the resolution."""
    BETWEEN = "between"
    """At the resolution, the target lies strictly between the two values' intervals: no value
    on the grid gives it; the nearer is reported."""
    NOISE = "noise"
    """The two ends of the bracket cannot be told apart with these runs (their 95% intervals
    overlap) before the resolution: the value lies somewhere in the bracket; more runs narrow
    it."""
    UNBRACKETED = "unbracketed"
    """The target is not between the chances at LO and HI: no value in the range gives it
    (for an outcome that moves one way with the field)."""


@dataclass(frozen=True)
class FindResult:
    """What :func:`find_target` found."""

    find: Find
    status: FindStatus
    best: Step
    """The tested value whose chance is nearest the target."""
    bracket: tuple[Step, Step]
    """The last bracket: the target's chance lies between its ends' chances."""
    steps: tuple[Step, ...]
    """Every simulation, in the order played."""
    runs: int
    seed: int

    def as_json(self) -> dict[str, Any]:
        def step(s: Step) -> dict[str, Any]:
            low, high = s.interval
            return {
                "value": s.value,
                "p": round(s.p, 6),
                "ci95": [round(low, 6), round(high, 6)],
                "count": s.count,
            }

        return {
            "field": self.find.path,
            "outcome": self.find.outcome,
            "target": self.find.target,
            "status": self.status.value,
            "value": self.best.value,
            "found": step(self.best),
            "bracket": [step(s) for s in self.bracket],
            "runs_per_step": self.runs,
            "seed": self.seed,
            "steps": [step(s) for s in self.steps],
        }


def find_target(
    find: Find,
    measure: Callable[[float], Step],
    *,
    whole: bool,
    runs: int,
    seed: int = 0,
) -> FindResult:
    """Bisect ``find``'s range for the value whose chance is its target, ``measure`` giving
    each value's :class:`Step` (a simulation of ``runs`` runs with ``seed``: the same numbers
    for the same value). ``whole``: the field takes whole numbers (the search stays on them).
    The chance is taken to move one way with the field between LO and HI (a target outside
    the chances at both ends is :data:`FindStatus.UNBRACKETED`); the search stops at the
    resolution, or sooner where the noise of ``runs`` runs cannot separate the bracket's ends
    (:data:`FindStatus.NOISE`)."""
    target = find.target
    resolution = find.resolution or (1.0 if whole else (find.high - find.low) / 100)
    if whole:
        resolution = max(1.0, math.ceil(resolution - 1e-9))
    low, high = measure(find.low), measure(find.high)
    steps = [low, high]

    def between(a: Step, b: Step) -> bool:
        return min(a.p, b.p) <= target <= max(a.p, b.p)

    def nearest(*found: Step) -> Step:
        return min(found, key=lambda s: (abs(s.p - target), s.value))

    def done(status: FindStatus, best: Step) -> FindResult:
        return FindResult(find, status, best, (low, high), tuple(steps), runs, seed)

    if not between(low, high):
        best = nearest(low, high)
        return done(FindStatus.FOUND if best.holds(target) else FindStatus.UNBRACKETED, best)
    while high.value - low.value > resolution + 1e-9 and len(steps) < MAX_FIND_STEPS:
        if _overlap(low, high):
            best = nearest(low, high)
            return done(FindStatus.NOISE, best)
        middle = _on_grid(find.low, resolution, low.value, high.value)
        if middle is None:
            break
        step = measure(middle)
        steps.append(step)
        if between(low, step):
            high = step
        else:
            low = step
    best = nearest(low, high)
    if best.holds(target):
        return done(FindStatus.FOUND, best)
    return done(FindStatus.BETWEEN, best)


def _on_grid(start: float, resolution: float, low: float, high: float) -> float | None:
    """The value of the grid ``start + k * resolution`` at or just below the middle of
    ``low`` and ``high``, or the next one up, strictly between them; None if there is none
    (the values tried are those a ``--vary`` of the same step would give)."""
    k = math.floor(((low + high) / 2 - start) / resolution + 1e-9)
    for step in (k, k + 1):
        value = round(start + step * resolution, 10)
        if low < value < high:
            return value
    return None


def _overlap(a: Step, b: Step) -> bool:
    """Whether the 95% intervals of two steps overlap (the noise cannot separate them)."""
    (a_low, a_high), (b_low, b_high) = a.interval, b.interval
    return a_low <= b_high and b_low <= a_high


def field_value(scenario: Scenario, path: str) -> float:
    """The value of the numeric field at ``path`` (as :func:`set_path` names it), defaults
    filled in; an :class:`~vigile.errors.InputError` for a path that names no number."""
    node: Any = scenario.model_dump(mode="json")
    for part in path.split("."):
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list):
            node = node[_index(node, part, path)]
        else:
            raise InputError(f"{path!r} names no scenario field ({part!r})", where="--find")
    if isinstance(node, bool) or not isinstance(node, int | float):
        raise InputError(f"{path!r} is not a number in the scenario", where="--find")
    return float(node) if isinstance(node, float) else int(node)


def search(
    scenario: Scenario,
    find: Find,
    runs: int,
    *,
    seed: int = 0,
    model: str = "auto",
    progress: Callable[[int], None] | None = None,
) -> FindResult:
    """:func:`find_target` over simulations of the scenario with the field set to each value
    tried (``runs`` runs, ``seed``, ``model``: settled by the caller, as for a sweep)."""
    import json

    from vigile.scene.loader import parse_scenario
    from vigile.sim.simulate import check_counts, simulate

    check_counts(runs, 1)
    whole = isinstance(field_value(scenario, find.path), int)
    if whole and not (float(find.low).is_integer() and float(find.high).is_integer()):
        raise InputError(f"{find.path!r} takes whole numbers: LO and HI too", where="--find")
    base = scenario.model_dump(mode="json", exclude_unset=True)
    full = scenario.model_dump(mode="json")

    def measure(value: float) -> Step:
        data = _copy(base)
        set_path(data, find.path, value, full)
        variant = parse_scenario(json.dumps(data), file=f"{find.path}={value:g}", fmt="json")
        result = simulate(variant, runs, seed=seed, model=model)
        estimate = result.detected if find.outcome == "detected" else result.outcome(find.outcome)
        if progress:
            progress(1)
        return Step(int(value) if whole else value, estimate.count, runs)

    return find_target(find, measure, whole=whole, runs=runs, seed=seed)
