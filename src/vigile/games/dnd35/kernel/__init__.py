"""The D&D 3.5 plug-in's compiled simulation model: :func:`compiled` gives a
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

from typing import TYPE_CHECKING, Any

import numpy as np

from vigile.games.d20 import kernel as d20
from vigile.scene.model import Scenario

if TYPE_CHECKING:
    from vigile.games.dnd35.kernel.tables import D20Model


Array = np.ndarray[Any, Any]


def model_tuple(model: D20Model) -> tuple[Array, ...]:
    """The model as the kernel reads it: the shared arrays
    (:data:`vigile.games.d20.kernel.PREFIX`), then the game's (:data:`~.play.MODEL`)."""
    from vigile.games.d20.kernel import PREFIX
    from vigile.games.dnd35.kernel.play import MODEL

    a = model.arrays
    return (model.floats, model.ints, *(a[n] for n in PREFIX), *(a[n] for n in MODEL))


def state_tuple(model: D20Model) -> tuple[Array, ...]:
    """A run's working arrays (reset by the kernel at each run)."""
    from vigile.games.d20.kernel import state

    n_g = max(1, len(model.defenders))
    n_i = max(1, len(model.intruders))
    extra = (
        np.zeros(n_g, np.int64),
        np.zeros(n_i, np.int64),
        np.zeros(n_g, np.int64),
        np.zeros(n_g, np.int64),
    )
    return state(n_g, n_i, int(model.ints[3]), model.arrays["every_wall"], extra)


class KernelRound(d20.KernelRound):
    """The D&D 3.5 plug-in's compiled model of a scenario (:class:`vigile.sim.tally.Batched`)."""

    def __init__(self, model: D20Model) -> None:
        from vigile.games.dnd35.kernel import play

        super().__init__(model, model_tuple(model), lambda: state_tuple(model), play.play_runs)


def compiled(scenario: Scenario) -> KernelRound | None:
    """The compiled model of ``scenario``, or None when the kernel does not play it yet (the
    engine does: :func:`~vigile.games.dnd35.kernel.tables.unsupported` says why)."""
    from vigile.games.dnd35.kernel.tables import build, unsupported

    if unsupported(scenario) is not None:
        return None
    return KernelRound(build(scenario))
