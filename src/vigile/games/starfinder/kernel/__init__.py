"""The Starfinder plug-in's compiled simulation model: :func:`compiled` gives a
:class:`KernelRound` (a :class:`vigile.sim.tally.Batched`) for a scenario the kernel plays, None
for one it does not yet (:func:`~.tables.unsupported`: simulate then plays the engine). numba
is imported only when a model is built.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from vigile.games.d20 import kernel as d20
from vigile.scene.model import Scenario

if TYPE_CHECKING:
    from vigile.games.starfinder.kernel.tables import SfModel

Array = np.ndarray[Any, Any]


class KernelRound(d20.KernelRound):
    """The Starfinder plug-in's compiled model of a scenario (:class:`vigile.sim.tally.Batched`)."""

    def __init__(self, model: SfModel) -> None:
        from vigile.games.starfinder.kernel import play

        a = model.arrays
        m = (
            model.floats,
            model.ints,
            *(a[n] for n in d20.PREFIX),
            *(a[n] for n in play.MODEL),
        )
        n_g, n_i = len(model.defenders), len(model.intruders)

        def state() -> tuple[Array, ...]:
            extra = (
                np.zeros(max(1, n_g), np.int64),
                np.zeros(max(1, n_i), np.int64),
                np.zeros((max(1, n_g), max(1, n_i)), np.int64),
            )
            every_wall = model.arrays["every_wall"]
            return d20.state(n_g, n_i, int(model.ints[3]), every_wall, extra)

        super().__init__(model, m, state, play.play_runs)


def compiled(scenario: Scenario) -> KernelRound | None:
    """The compiled model of ``scenario``, or None when the kernel does not play it yet (the
    engine does: :func:`~vigile.games.starfinder.kernel.tables.unsupported` says why)."""
    from vigile.games.starfinder.kernel.tables import build, unsupported

    if unsupported(scenario) is not None:
        return None
    return KernelRound(build(scenario))
