"""Where the simulator's work runs: local worker processes, or a Dask scheduler.

``simulate --workers`` and ``sweep`` both hand their tasks to a
:class:`concurrent.futures.Executor` from :func:`executor`: a :class:`ProcessPoolExecutor` of
``workers`` local processes by default, or, given a scheduler's address
(``tcp://host:8786``), that Dask cluster's executor (``Client.get_executor``), so a designer
who outgrows one machine changes nothing else. The tasks carry their own seeds (one per block of
runs), so the numbers never depend on where they ran. Dask is imported only for a scheduler
address, and is an extra: ``pip install 'vigile[sweep]'``.
"""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import Executor, ProcessPoolExecutor
from contextlib import contextmanager
from typing import TYPE_CHECKING

from vigile.errors import InputError

if TYPE_CHECKING:
    from dask.distributed import Client

CONNECT_TIMEOUT_S = 8
"""How long to wait for a Dask scheduler before saying it cannot be reached."""


@contextmanager
def executor(workers: int = 1, scheduler: str | None = None) -> Iterator[Executor]:
    """An executor of ``workers`` local processes, or of the Dask scheduler at ``scheduler``
    (its workers, however many they are); shut down (or disconnected) on leaving.

    An unreachable scheduler, or a scheduler address without Dask installed, is an
    :class:`~vigile.errors.InputError` naming ``--scheduler``.
    """
    if scheduler is None:
        with ProcessPoolExecutor(max(1, workers)) as pool:
            yield pool
        return
    client = _dask_client(scheduler)
    try:
        yield client.get_executor(pure=False)
    finally:
        client.close()


def _dask_client(scheduler: str) -> Client:
    try:
        from dask.distributed import Client
    except ImportError:
        raise InputError(
            "a Dask scheduler needs Dask: pip install 'vigile[sweep]'", where="--scheduler"
        ) from None
    try:
        return Client(scheduler, timeout=f"{CONNECT_TIMEOUT_S}s")
    except (OSError, TimeoutError, ValueError) as error:
        raise InputError(
            f"cannot reach the Dask scheduler at {scheduler!r} within "
            f"{CONNECT_TIMEOUT_S} s ({type(error).__name__})",
            where="--scheduler",
        ) from None
