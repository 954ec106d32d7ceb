"""What every game's compiled kernel shares: the geometry of
:mod:`vigile.scene.geometry` compiled with numba (:mod:`~vigile.sim.kernel.geometry`), and walls
by map cell (:mod:`~vigile.sim.kernel.grid`, plain numpy). Imported only when a simulation
chooses the kernel. numba is a dependency, but one that may fail to install or import on a
platform: :func:`available` says whether it imports (without it the engine plays).

Where numba keeps the compiled code: numba's own on-disk cache checks only the date of the
file a function is written in, so a kernel whose helpers changed in another file would load
its old machine code (the helpers inlined as they were). Importing this package therefore
points numba's cache at a folder named after a digest of every kernel's sources and numba's
version (:func:`cache_dir`, in the user's cache directory), unless ``NUMBA_CACHE_DIR`` says
where: a change anywhere in the kernels compiles afresh, and a read-only installation still
caches. Worker processes on the same machine find the same folder warm."""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import os
from pathlib import Path

KERNEL_SOURCES = (
    "vigile/sim/kernel",
    "vigile/games/d20",
    "vigile/games/skirmish/kernel",
    "vigile/games/dnd35/kernel",
    "vigile/games/starfinder/kernel",
)
"""The folders (under the ``vigile`` package's parent) of every compiled kernel's sources."""


@functools.cache
def available() -> bool:
    """Whether numba imports (the kernel needs it; without it, the engine plays): installed,
    and built for this Python and numpy."""
    try:
        import numba  # noqa: F401
    except Exception:  # ImportError, or a numba built for another numpy
        return False
    return True


def compiled_before() -> bool:
    """Whether this machine holds compiled code of the kernels as they are now (their cache
    folder exists); with ``NUMBA_CACHE_DIR`` set, numba's own folder, which is not known."""
    return bool(os.environ.get("NUMBA_CACHE_DIR")) or cache_dir().exists()


def cache_dir() -> Path:
    """The folder of the kernels' compiled code: the user's cache directory, then a digest of
    numba's version and every kernel source file (so any change compiles afresh)."""
    from platformdirs import user_cache_path

    root = Path(__file__).resolve().parents[3]
    digest = hashlib.sha256()
    spec = importlib.util.find_spec("numba")
    if spec is not None and spec.origin is not None:
        version = Path(spec.origin).parent / "_version.py"
        digest.update(version.read_bytes() if version.exists() else b"")
    for folder in KERNEL_SOURCES:
        for source in sorted((root / folder).glob("*.py")):
            digest.update(source.name.encode())
            digest.update(source.read_bytes())
    return user_cache_path("vigile", appauthor=False) / "numba" / digest.hexdigest()[:16]


def _point_numba_at_cache() -> None:
    if os.environ.get("NUMBA_CACHE_DIR") or not available():
        return
    import numba

    numba.config.CACHE_DIR = str(cache_dir())  # type: ignore[attr-defined]


_point_numba_at_cache()
