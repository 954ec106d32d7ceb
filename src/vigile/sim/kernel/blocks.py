"""Blocks of runs from a stream of uniforms: what drives every game's compiled kernel.

Every kernel (the skirmish raid and day encounters, the d20 games) has one compiled entry
point, its ``play_runs``, called as ``play_runs(*lead, uniforms, ctx, first, last, *tail)``:
``lead`` the game's model and a run's working arrays, ``uniforms`` and ``ctx`` the stream
(:mod:`~vigile.sim.kernel.dice`), ``tail`` the outputs each run's end is recorded into (and
what the recording reads, the heat's scale). It plays runs ``first`` .. ``last - 1`` and returns
the first run it did not play; a run that stopped early is not recorded: ``ctx[C_STATUS]`` says
why and ``ctx[C_POS]`` is back at the run's first uniform. :class:`Blocks` is the Python side
around it, the same for every game: draw the stream in chunks, refill it when a run reaches the
end (:data:`~vigile.sim.kernel.dice.EXHAUSTED`), let the game settle any other stop (the raid's
hearing cases not yet asked of the rule), and play the run again from its first uniform: the
same uniforms, the same run, so a block's numbers depend only on its generator.
:meth:`Blocks.trace` plays given uniforms run by run and counts what each drew (the exact tests
against the engine); :func:`tally` counts a block's runs.

The compiled half (:func:`record_end`, :func:`record_detections`) records what every game's run
ends with: its ending, its turns, and who detected whom where. What each game records beyond
(who is alive, on alert, aware of whom: per guard in the raid, per intruder in the d20 games)
stays in its own ``play_runs``, as does the loop over the runs itself: numba caches neither a
function that takes another compiled function as an argument nor one closed over it (each
process would compile the raid afresh, minutes), so each game writes its own loop, which calls
the game's own function for a run or plays a run's turns in the loop itself.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from vigile.sim.kernel.dice import C_POS, C_STATUS, EXHAUSTED
from vigile.sim.kernel.geometry import compiled
from vigile.sim.tally import HEAT_BINS, Tally

Array = np.ndarray[Any, Any]

_local = threading.local()


def _stream_buffer(size: int) -> Array:
    """This thread's buffer for the stream of uniforms, at least ``size`` long. Kept from one
    block to the next: a fresh 8 MiB array each block would cost its pages' first touch (the
    kernel zeroing them) every block."""
    buffer: Array | None = getattr(_local, "buffer", None)
    if buffer is None or buffer.shape[0] < size:
        buffer = np.empty(size)
        _local.buffer = buffer
    return buffer


@compiled
def record_end(
    r: int, code: int, turn: int, first: int, outcome: np.ndarray, end: np.ndarray,
    first_seen: np.ndarray,
) -> None:  # fmt: skip
    """Run r's ending (``code``: the tally's code, :data:`vigile.sim.tally.CODE`), the turn it
    ended and the turn of its first detection (0: none)."""
    outcome[r] = code
    end[r] = turn
    first_seen[r] = first


@compiled
def record_detections(
    r: int, run_pairs: np.ndarray, count: int, xs: np.ndarray, ys: np.ndarray, pairs: np.ndarray,
    heat: np.ndarray, heat_scale: np.ndarray,
) -> None:  # fmt: skip
    """Who detected whom in run r (``run_pairs[g, i]``: guard g detected intruder i) into
    ``pairs[r]``, and where the intruder stood at each of the run's ``count`` detections
    (``xs``, ``ys``) into the heat grid: ``heat_scale`` cells per unit in x and y, a place off
    the map in the nearest cell."""
    for g in range(run_pairs.shape[0]):
        for i in range(run_pairs.shape[1]):
            pairs[r, g, i] = run_pairs[g, i]
    bins_x, bins_y = heat.shape[0], heat.shape[1]
    for h in range(count):
        bx = min(bins_x - 1, max(0, int(xs[h] * heat_scale[0])))
        by = min(bins_y - 1, max(0, int(ys[h] * heat_scale[1])))
        heat[bx, by] += 1


def heat_scale(width: float, height: float) -> Array:
    """The heat grid's cells per unit of a map ``width`` by ``height``
    (:func:`record_detections`)."""
    return np.array([HEAT_BINS / width, HEAT_BINS / height])


@dataclass(frozen=True)
class Blocks:
    """How a game's compiled entry point plays blocks of runs (see the module's docstring).
    It holds nothing a call writes: each call brings its own working arrays and outputs (so
    that blocks played on several threads share nothing they write), and makes its own
    context array."""

    play_runs: Any
    """The game's compiled entry point (numba's dispatcher, untyped)."""
    chunk: int
    """Uniforms drawn from the generator at a time."""
    context: int = 2
    """The length of the context array: the stream's position and status, then whatever else
    the game keeps there (the raid: the hearing cases it missed)."""
    settle: Callable[[Array], None] | None = None
    """What to do with a run stopped for another reason than the end of the stream, before it
    is played again (the raid: ask the rule for the cases it missed); None where the stream's
    end is the only stop."""

    def play(
        self, runs: int, rng: np.random.Generator, lead: tuple[Any, ...], tail: tuple[Any, ...]
    ) -> None:
        """Play runs ``0`` .. ``runs - 1`` from ``rng``'s uniforms, in order, into ``tail``'s
        outputs. A run that reaches the end of a chunk is played again from its first uniform,
        on what was left of the chunk followed by a fresh one: the stream is the generator's,
        unbroken."""
        ctx = np.zeros(self.context, np.int64)
        buffer = _stream_buffer(2 * self.chunk)
        drawn = self.chunk
        rng.random(out=buffer[:drawn])
        done = 0
        while done < runs:
            done = self.play_runs(*lead, buffer[:drawn], ctx, done, runs, *tail)
            if ctx[C_STATUS] & EXHAUSTED:
                rest = drawn - int(ctx[C_POS])
                left = buffer[drawn - rest : drawn]
                if rest + self.chunk > buffer.shape[0]:  # a run longer than a chunk
                    left = left.copy()
                    buffer = _stream_buffer(2 * (rest + self.chunk))
                buffer[:rest] = left  # numpy copies overlapping slices as if through a copy
                rng.random(out=buffer[rest : rest + self.chunk])
                drawn = rest + self.chunk
                ctx[C_POS] = 0
            self._resume(ctx)

    def trace(
        self, uniforms: Array, runs: int, lead: tuple[Any, ...], tail: tuple[Any, ...]
    ) -> Array:
        """Play runs ``0`` .. ``runs - 1`` one after the other from the given uniforms (they
        must be enough: :class:`ValueError` if not) into ``tail``'s outputs; the uniforms each
        run drew."""
        ctx = np.zeros(self.context, np.int64)
        used = np.zeros(runs, np.int64)
        uniforms = np.asarray(uniforms, np.float64)
        for r in range(runs):
            before = int(ctx[C_POS])
            while self.play_runs(*lead, uniforms, ctx, r, r + 1, *tail) <= r:
                if ctx[C_STATUS] & EXHAUSTED:
                    raise ValueError(f"run {r} needs more than the {len(uniforms)} uniforms given")
                self._resume(ctx)
            used[r] = int(ctx[C_POS]) - before
        return used

    def _resume(self, ctx: Array) -> None:
        """Clear a stop, the stream refilled: the game settles any other reason first."""
        if ctx[C_STATUS] & ~EXHAUSTED:
            if self.settle is None:
                status = int(ctx[C_STATUS])
                raise RuntimeError(f"a run stopped for no known reason (status {status})")
            self.settle(ctx)
        ctx[C_STATUS] = 0


@dataclass
class Runs:
    """How each run ended, run by run: what a kernel's ``trace`` returns (the exact tests
    against the engine)."""

    outcome: Array
    """The tally's code of each run's ending (:data:`vigile.sim.tally.CODE`)."""
    end: Array
    """The turn it ended."""
    first: Array
    """The turn of its first detection, 0 for none."""
    pairs: Array
    """(run, guard, intruder): the guard detected the intruder in the run."""
    alive: Array
    """(run, one of the side the game keeps alive): still in the game at the end."""
    alert: Array
    """(run, guard): on alert at the end."""
    aware: Array
    """(run, one side, the other): what each knew of the other at the end (its rank on the
    awareness ladder): a defender of an intruder in the d20 games, an intruder of a guard in
    the raid."""
    used: Array
    """Uniforms each run drew."""
    heat: Array
    """Detections by where the intruder stood (:func:`record_detections`)."""


def tally(
    turns: int, guards: int, outcome: Array, first: Array, detected: Array, heat: Array | None
) -> Tally:
    """A block's tally from its runs' ends: each run's ending (``outcome``, the tally's codes)
    and turn of its first detection (``first``, 0: none); ``detected[run, g, ...]``: whom guard
    g detected in the run (a guard that detected anyone counts once; guards beyond ``guards``:
    padding, not counted), and by intruder where its third axis is the intruder (``detected[run,
    g, i]``): runs in which some guard detected intruder i; the heat grid, None for a game that
    records none."""
    counted = Tally.empty(turns, guards)
    if detected.ndim == 3:  # detected[run, g, i]: whom each guard detected
        counted.intruder_detections = detected[:, :guards].any(axis=1).sum(axis=0).astype(np.int64)
    if detected.ndim > 2:
        detected = np.asarray(detected.any(axis=tuple(range(2, detected.ndim))))
    counted.runs = len(outcome)
    counted.outcomes = np.bincount(outcome, minlength=len(counted.outcomes)).astype(np.int64)
    counted.first_detection = np.bincount(first, minlength=turns + 1).astype(np.int64)[: turns + 1]
    counted.guard_detections = detected[:, :guards].sum(axis=0).astype(np.int64)
    if heat is not None:
        counted.heat = heat
    return counted
