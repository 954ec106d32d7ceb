"""The D&D 3.5 plug-in's compiled simulation model (issue 14): :func:`compiled` gives a
:class:`KernelRound` (a :class:`vigile.sim.tally.Batched`) for a scenario the kernel plays, None
for one it does not yet (:func:`~.tables.unsupported`: simulate then plays the engine).

``play(runs, rng)`` plays ``runs`` runs, each to its own end, from the uniforms
``rng.random()`` gives, in order, and tallies them; the stream is drawn in chunks, and a run
that reaches the end of a chunk is played again from its first uniform once it is refilled (the
same uniforms, the same run): a block's numbers depend only on its generator.
:meth:`KernelRound.trace` plays given uniforms and returns every run's end (the exact test
against the turn engine, ``tests/test_kernel_d20_equivalence.py``). numba is imported only
when a model is built.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from vigile.scene.model import Scenario
from vigile.sim.tally import HEAT_BINS, Tally

if TYPE_CHECKING:
    from vigile.games.dnd35.kernel.tables import D20Model

CHUNK = 1 << 16
"""Uniforms drawn from the generator at a time."""

Array = np.ndarray[Any, Any]


def model_tuple(model: D20Model) -> tuple[Array, ...]:
    """The model as the kernel reads it: the shared arrays
    (:data:`vigile.sim.kernel.d20.PREFIX`), then the game's (:data:`~.play.MODEL`)."""
    from vigile.games.dnd35.kernel.play import MODEL
    from vigile.sim.kernel.d20 import PREFIX

    a = model.arrays
    return (model.floats, model.ints, *(a[n] for n in PREFIX), *(a[n] for n in MODEL))


def state_tuple(model: D20Model) -> tuple[Array, ...]:
    """A run's working arrays (reset by the kernel at each run)."""
    from vigile.sim.kernel.d20 import state

    n_g = max(1, len(model.defenders))
    n_i = max(1, len(model.intruders))
    extra = (np.zeros(n_g, np.int64), np.zeros(n_i, np.int64), np.zeros(n_g, np.int64))
    return state(n_g, n_i, int(model.ints[3]), extra)


@dataclass
class Runs:
    """How each run ended, run by run (:meth:`KernelRound.trace`)."""

    outcome: Array
    """The tally's code of each run's ending (:data:`vigile.sim.tally.CODE`)."""
    end: Array
    """The turn it ended."""
    first: Array
    """The turn of its first detection, 0 for none."""
    pairs: Array
    """(run, defender, intruder): the defender located or saw the intruder in the run."""
    alive: Array
    """(run, intruder): still free at the end."""
    alert: Array
    """(run, defender): on alert at the end."""
    aware: Array
    """(run, defender, intruder): what the defender knew of the intruder at the end (the rank
    on the awareness ladder)."""
    used: Array
    """Uniforms each run drew."""
    heat: Array


class KernelRound:
    """The D&D 3.5 plug-in's compiled model of a scenario (:class:`vigile.sim.tally.Batched`)."""

    def __init__(self, model: D20Model) -> None:
        from vigile.games.dnd35.kernel import play

        self.model = model
        self._m = model_tuple(model)
        self._play: Any = play.play_runs

    @property
    def turns(self) -> int:
        return self.model.turns

    def _outputs(self, runs: int) -> tuple[Array, ...]:
        n_g = max(1, len(self.model.defenders))
        n_i = max(1, len(self.model.intruders))
        return (
            np.zeros(runs, np.int64),
            np.zeros(runs, np.int64),
            np.zeros(runs, np.int64),
            np.zeros((runs, n_g, n_i), np.bool_),
            np.zeros((runs, n_i), np.int64),
            np.zeros((runs, n_g), np.int64),
            np.zeros((runs, n_g, n_i), np.int64),
            np.zeros((HEAT_BINS, HEAT_BINS), np.int64),
        )

    def _heat_scale(self) -> Array:
        floats = self.model.floats
        return np.array([HEAT_BINS / floats[0], HEAT_BINS / floats[1]])

    def play(self, runs: int, rng: np.random.Generator) -> Tally:
        """Play ``runs`` runs from ``rng``'s uniforms and tally them."""
        outputs = self._outputs(runs)
        outcome, _, first, pairs, _, _, _, heat = outputs
        state = state_tuple(self.model)
        ctx = np.zeros(2, np.int64)
        uniforms = rng.random(CHUNK)
        done = 0
        scale = self._heat_scale()
        while done < runs:
            done = self._play(self._m, state, uniforms, ctx, done, runs, *outputs, scale)
            if ctx[1]:
                uniforms = np.concatenate([uniforms[ctx[0] :], rng.random(CHUNK)])
                ctx[:] = 0
        guards = len(self.model.defenders)
        tally = Tally.empty(self.turns, guards)
        tally.runs = runs
        tally.outcomes = np.bincount(outcome, minlength=len(tally.outcomes)).astype(np.int64)
        tally.first_detection = np.bincount(first, minlength=self.turns + 1).astype(np.int64)[
            : self.turns + 1
        ]
        tally.guard_detections = pairs.any(axis=2).sum(axis=0).astype(np.int64)[:guards]
        tally.heat = heat
        return tally

    def trace(self, uniforms: Array, runs: int) -> Runs:
        """Play ``runs`` runs one after the other from the given uniforms (they must be
        enough); every run's end, and the uniforms each drew."""
        outputs = self._outputs(runs)
        state = state_tuple(self.model)
        ctx = np.zeros(2, np.int64)
        used = np.zeros(runs, np.int64)
        uniforms = np.asarray(uniforms, np.float64)
        scale = self._heat_scale()
        for r in range(runs):
            before = int(ctx[0])
            if self._play(self._m, state, uniforms, ctx, r, r + 1, *outputs, scale) <= r:
                raise ValueError(f"run {r} needs more than the {len(uniforms)} uniforms given")
            used[r] = int(ctx[0]) - before
        outcome, end, first, pairs, alive, alert, aware, heat = outputs
        return Runs(outcome, end, first, pairs, alive, alert, aware, used, heat)


def compiled(scenario: Scenario) -> KernelRound | None:
    """The compiled model of ``scenario``, or None when the kernel does not play it yet (the
    engine does: :func:`~vigile.games.dnd35.kernel.tables.unsupported` says why)."""
    from vigile.games.dnd35.kernel.tables import build, unsupported

    if unsupported(scenario) is not None:
        return None
    return KernelRound(build(scenario))
