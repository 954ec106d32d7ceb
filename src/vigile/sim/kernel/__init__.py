"""What every game's compiled kernel shares (issue 14): the geometry of
:mod:`vigile.scene.geometry` compiled with numba (:mod:`~vigile.sim.kernel.geometry`), and walls
by map cell (:mod:`~vigile.sim.kernel.grid`, plain numpy). Imported only when a simulation
chooses the kernel; numba is optional: :func:`available` says whether it is installed."""

from __future__ import annotations

import importlib.util


def available() -> bool:
    """Whether numba is installed (the kernel needs it; without it, the batch plays)."""
    return importlib.util.find_spec("numba") is not None
