"""``vigile sweep``: a grid of scenario variants, simulated on worker processes or with Dask.

A variant changes one or more scenario fields, named by a path through the scenario as written in
its file: ``turns``, ``actors.Kage.dice.ninjitsu`` (an actor by name), ``lights.0.radius`` (a list
item by index). Each variant is validated like a scenario file, then simulated as one task:
on local worker processes by default, or on an existing Dask scheduler given by its address
(:mod:`vigile.sim.executors`), so a designer who outgrows one machine points vigile at a cluster
and changes nothing else.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from vigile.errors import InputError, LimitError
from vigile.scene.model import Scenario
from vigile.sim.tally import OUTCOMES

MAX_VARIANTS = 10_000
_SPEC = re.compile(r"^(?P<path>[^=]+)=(?P<start>[^.]+(?:\.\d+)?)\.\.(?P<stop>[^:]+):(?P<step>.+)$")


@dataclass(frozen=True)
class Vary:
    """One varied field: ``PATH=START..STOP:STEP`` (both ends included)."""

    path: str
    values: tuple[float, ...]

    @classmethod
    def parse(cls, text: str) -> Vary:
        found = _SPEC.match(text.strip())
        if not found:
            raise InputError(
                f"{text!r}: write PATH=START..STOP:STEP, e.g. turns=10..40:10", where="--vary"
            )
        try:
            start, stop, step = (float(found.group(k)) for k in ("start", "stop", "step"))
        except ValueError:
            raise InputError(
                f"{text!r}: START, STOP and STEP must be numbers", where="--vary"
            ) from None
        if not all(math.isfinite(v) for v in (start, stop, step)) or step <= 0 or stop < start:
            raise InputError(f"{text!r}: need START <= STOP and STEP > 0", where="--vary")
        count = math.floor((stop - start) / step + 1e-9) + 1
        if count > MAX_VARIANTS:
            raise LimitError(f"--vary: {text!r} gives {count} values (at most {MAX_VARIANTS})")
        values = tuple(round(start + k * step, 10) for k in range(count))
        return cls(found.group("path").strip(), values)


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
    """Every combination of the varied values, as (the values, the variant's data), validated."""
    from vigile.scene.loader import parse_scenario

    variant_count(varies)
    base = scenario.model_dump(mode="json", exclude_unset=True)
    full = scenario.model_dump(mode="json")
    found = []
    for values in itertools.product(*(v.values for v in varies)):
        data = _copy(base)
        chosen = {}
        for vary, value in zip(varies, values, strict=True):
            set_path(data, vary.path, value, full)
            chosen[vary.path] = value
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
