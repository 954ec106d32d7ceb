"""The Starfinder plug-in's compiled simulation model: :func:`compiled` gives a
:class:`KernelRound` (a :class:`vigile.sim.tally.Batched`) for a scenario the kernel plays, None
for one it does not yet (:func:`~.tables.unsupported`: simulate then plays the engine). numba
is imported only when a model is built.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from vigile.games.d20 import kernel as d20
from vigile.scene.model import Scenario

Array = np.ndarray[Any, Any]


def extra_state(n_g: int, n_i: int) -> tuple[Array, ...]:
    """A run's Starfinder working arrays (:data:`~.play.STATE`), for ``n_g`` defenders and
    ``n_i`` intruders."""
    return (np.zeros(n_g, np.int64), np.zeros(n_i, np.int64), np.zeros((n_g, n_i), np.int64))


class KernelRound(d20.KernelRound):
    """The Starfinder plug-in's compiled model of a scenario (:class:`vigile.sim.tally.Batched`)."""

    def __init__(self, model: d20.Model) -> None:
        from vigile.games.starfinder.kernel import play

        super().__init__(model, (play.Model, play.State), extra_state, play.play_runs)


def compiled(scenario: Scenario) -> KernelRound | None:
    """The compiled model of ``scenario``, or None when the kernel does not play it yet (the
    engine does: :func:`~vigile.games.starfinder.kernel.tables.unsupported` says why)."""
    from vigile.games.starfinder.kernel.tables import build, unsupported

    if unsupported(scenario) is not None:
        return None
    return KernelRound(build(scenario))
