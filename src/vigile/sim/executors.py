"""Where the simulator's work runs: local worker processes, or a Dask scheduler.

``simulate --workers`` and ``sweep`` both hand their tasks to a
:class:`concurrent.futures.Executor` from :func:`executor`: a :class:`ProcessPoolExecutor` of
``workers`` local processes by default, or, given a scheduler's address
(``tcp://host:8786``), that Dask cluster's executor (``Client.get_executor``), so a designer
who outgrows one machine changes nothing else. The tasks carry their own seeds (one per block of
runs), so the numbers never depend on where they ran. Dask is imported only for a scheduler
address, and is an extra: ``pip install 'vigile[sweep]'``.

Every wait is bounded, and the results are collected by :func:`completed`, which wakes every
:data:`POLL_S` seconds:

* Ctrl-C stops at once: the queued tasks are cancelled, the local workers (which ignore SIGINT
  themselves, so a terminal's Ctrl-C reaches only the parent) are terminated, and the
  :class:`KeyboardInterrupt` goes on to the caller, which keeps what was finished
  (:class:`Interrupted`).
* A scheduler address is checked before Dask sees it: only ``tcp://`` (:data:`SCHEMES`); the
  endpoint must answer Dask's handshake within :data:`HANDSHAKE_TIMEOUT_S` (a server that
  accepts and never speaks, or answers something else, is refused); a worker must join within
  :data:`WORKER_TIMEOUT_S`; a scheduler silent, or left without a worker, for
  :data:`LOST_TIMEOUT_S` ends the work. Each is an :class:`~vigile.errors.InputError` naming
  ``--scheduler``: one line, exit code 2.
"""

from __future__ import annotations

import logging
import os
import signal
import socket
import struct
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import (
    FIRST_COMPLETED,
    CancelledError,
    Executor,
    Future,
    ProcessPoolExecutor,
    wait,
)
from contextlib import contextmanager, suppress
from typing import TYPE_CHECKING, Any, TypeVar

from vigile.errors import InputError

if TYPE_CHECKING:
    from dask.distributed import Client

T = TypeVar("T")

CONNECT_TIMEOUT_S = 8
"""How long to wait for a Dask scheduler before saying it cannot be reached."""
HANDSHAKE_TIMEOUT_S = 5
"""How long an endpoint has to answer Dask's handshake once connected."""
WORKER_TIMEOUT_S = 10
"""How long to wait for a first worker to join the scheduler."""
LOST_TIMEOUT_S = 10
"""How long the scheduler may be unreachable, or without any worker, during the work."""
POLL_S = 0.2
"""How often :func:`completed` wakes to check the scheduler (and to let Ctrl-C in)."""
SCHEMES = ("tcp",)
"""The scheduler addresses vigile connects to (``tls://`` would need certificates, ``ucx://``
and ``inproc://`` other transports)."""
MAX_HANDSHAKE = 1 << 16
"""The most bytes a Dask handshake takes (it is a small dict of settings)."""


class Interrupted(KeyboardInterrupt):
    """Ctrl-C stopped a simulation or a sweep; ``partial`` is what was finished before it.

    A :class:`KeyboardInterrupt`, so code that does not look for it stops as before."""

    def __init__(self, partial: Any) -> None:
        super().__init__()
        self.partial = partial


def local_workers(requested: int, tasks: int) -> int:
    """The local worker processes worth starting: no more than asked, than the CPUs, than the
    tasks, and at least one."""
    return max(1, min(requested, os.cpu_count() or 1, tasks))


@contextmanager
def executor(workers: int = 1, scheduler: str | None = None) -> Iterator[Executor]:
    """An executor of ``workers`` local processes, or of the Dask scheduler at ``scheduler``
    (its workers, however many they are); shut down (or disconnected) on leaving.

    Leaving on an exception (Ctrl-C, an error) cancels the queued tasks and terminates the
    local workers at once, instead of waiting for the queue to run. An unreachable or
    unsupported scheduler, or a scheduler address without Dask installed, is an
    :class:`~vigile.errors.InputError` naming ``--scheduler``.
    """
    if scheduler is None:
        pool = ProcessPoolExecutor(max(1, workers), initializer=_ignore_sigint)
        try:
            with _interrupt_between_waits():
                yield pool
        except BaseException:
            _stop(pool)
            raise
        pool.shutdown(wait=True)
        return
    host, port = check_scheduler(scheduler)
    client_class = _dask_client_class()
    _probe(scheduler, host, port)
    quiet = _quiet_dask()
    try:
        client = _connect(client_class, scheduler)
        dask = DaskExecutor(client, scheduler)
        try:
            dask.wait_for_worker()
            with _interrupt_between_waits():
                yield dask
        except BaseException:
            dask.shutdown(wait=False, cancel_futures=True)
            raise
        finally:
            client.close(timeout=2)
    finally:
        quiet()


def completed(pool: Executor, futures: Sequence[Future[T]]) -> Iterator[tuple[int, T]]:
    """(index, result) of each of ``futures`` as it finishes, waking every :data:`POLL_S` s to
    check a Dask scheduler (:meth:`DaskExecutor.check`) and let Ctrl-C in."""
    pending = {future: index for index, future in enumerate(futures)}
    while pending:
        done, _ = wait(pending, timeout=POLL_S, return_when=FIRST_COMPLETED)
        if _ctrl_c.is_set():
            _ctrl_c.clear()
            raise KeyboardInterrupt
        for future in done:
            index = pending.pop(future)
            if isinstance(pool, DaskExecutor):
                yield index, pool.result(future)
            else:
                yield index, future.result()
        if isinstance(pool, DaskExecutor):
            pool.check()


_ctrl_c = threading.Event()
"""Set by Ctrl-C while tasks run; :func:`completed` raises the KeyboardInterrupt."""


@contextmanager
def _interrupt_between_waits() -> Iterator[None]:
    """While tasks run, Ctrl-C sets :data:`_ctrl_c` instead of raising anywhere: a
    KeyboardInterrupt inside :func:`concurrent.futures.wait` can leave a future's lock held,
    and the pool's thread then waits for it forever. :func:`completed` raises it between two
    waits (within :data:`POLL_S`). Outside the main thread nothing changes."""
    _ctrl_c.clear()
    try:
        previous = signal.signal(signal.SIGINT, lambda _signal, _frame: _ctrl_c.set())
    except ValueError:  # not the main thread: signals are not ours to handle
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        _ctrl_c.clear()


def _ignore_sigint() -> None:
    """In each local worker: Ctrl-C is the parent's to handle (it stops the workers)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _stop(pool: ProcessPoolExecutor) -> None:
    """Cancel what is queued and end the workers now, running tasks included; then let the
    pool's own thread see them gone and finish (so nothing is left for the interpreter's exit
    to wait for or to wake).

    A worker ended while sending its result leaves half a message in the result pipe, which
    the pool's thread would wait to complete forever: the parent's end of that pipe is closed
    too, so the thread reads the end of the pipe and finishes."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    for process in processes:
        process.terminate()
    for process in processes:
        process.join(1)
        if process.is_alive():  # pragma: no cover - a worker deaf to SIGTERM
            process.kill()
            process.join(1)
    writer = getattr(getattr(pool, "_result_queue", None), "_writer", None)
    if writer is not None:
        writer.close()
    pool.shutdown(wait=True, cancel_futures=True)


def check_scheduler(address: str) -> tuple[str, int]:
    """The host and port of a scheduler address (``tcp://HOST:PORT``, or ``HOST:PORT``); any
    other scheme is refused before anything is tried."""
    scheme, sep, rest = address.partition("://")
    if not sep:
        scheme, rest = "tcp", address
    if scheme.lower() not in SCHEMES:
        supported = ", ".join(f"{s}://" for s in SCHEMES)
        raise InputError(
            f"{address!r}: {scheme}:// is not supported (supported: {supported})",
            where="--scheduler",
        )
    host, _, port = rest.rpartition(":")
    host = host.strip("[]")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise InputError(f"{address!r}: write tcp://HOST:PORT", where="--scheduler")
    return host, int(port)


def _probe(address: str, host: str, port: int) -> None:
    """Connect and check that the endpoint speaks Dask: it must send its handshake (an 8-byte
    length, then a small message naming its ``pickle-protocol``) within
    :data:`HANDSHAKE_TIMEOUT_S`; the same settings are sent back, so the scheduler sees a
    well-formed client that leaves."""
    try:
        sock = socket.create_connection((host, port), timeout=CONNECT_TIMEOUT_S)
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise InputError(
            f"cannot reach the Dask scheduler at {address} ({reason})", where="--scheduler"
        ) from None
    deadline = time.monotonic() + HANDSHAKE_TIMEOUT_S
    with sock:
        try:
            head = _read(sock, 8, deadline)
            (size,) = struct.unpack("<Q", head)
            body = _read(sock, size, deadline) if 0 < size <= MAX_HANDSHAKE else b""
        except TimeoutError:
            raise InputError(
                f"{address} did not answer as a Dask scheduler within {HANDSHAKE_TIMEOUT_S} s",
                where="--scheduler",
            ) from None
        except OSError as error:
            raise InputError(
                f"{address} closed the connection ({type(error).__name__})", where="--scheduler"
            ) from None
        if b"pickle-protocol" not in body:
            raise InputError(
                f"{address} does not speak Dask (its answer is not a Dask handshake)",
                where="--scheduler",
            )
        with suppress(OSError):  # it answered, then hung up: the client will say
            sock.sendall(head + body)


def _read(sock: socket.socket, size: int, deadline: float) -> bytes:
    """Exactly ``size`` bytes before ``deadline`` (:class:`TimeoutError` after it)."""
    data = bytearray()
    while len(data) < size:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError
        sock.settimeout(left)
        chunk = sock.recv(size - len(data))
        if not chunk:
            raise ConnectionResetError
        data += chunk
    return bytes(data)


def _quiet_dask() -> Callable[[], None]:
    """Keep Dask's own log, and its network library's (reconnection attempts, tracebacks), off
    the user's terminal while vigile talks to the scheduler; returns what restores it."""
    names = ["distributed", "tornado"] + [
        name
        for name in logging.root.manager.loggerDict
        if name.startswith(("distributed.", "tornado."))
    ]
    loggers = [logging.getLogger(name) for name in names]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.CRITICAL + 1)

    def restore() -> None:
        for logger, level in zip(loggers, levels, strict=True):
            logger.setLevel(level)

    return restore


def _dask_client_class() -> type[Client]:
    try:
        from dask.distributed import Client
    except ImportError:
        raise InputError(
            "a Dask scheduler needs Dask: pip install 'vigile[sweep]'", where="--scheduler"
        ) from None
    return Client


def _connect(client_class: type[Client], scheduler: str) -> Client:
    try:
        return client_class(scheduler, timeout=f"{CONNECT_TIMEOUT_S}s", set_as_default=False)
    except Exception as error:  # OSError, TimeoutError, a garbled answer: MemoryError...
        raise InputError(
            f"cannot reach the Dask scheduler at {scheduler!r} within "
            f"{CONNECT_TIMEOUT_S} s ({type(error).__name__})",
            where="--scheduler",
        ) from None


def warm_workers(pool: Executor, name: str, warm: Callable[[], object]) -> None:
    """Run ``warm`` on each worker of a Dask pool before any task: on those there now, and on
    every worker that joins later (a Dask worker plugin named ``name``: registering the same
    name again replaces it). The compiled kernel warms this way — it loads (or, on a machine
    that never ran it, compiles) its machine code before the first block, on every worker at
    once, so no block waits for a compile. Local worker processes need nothing: they share
    this machine's on-disk cache."""
    if not isinstance(pool, DaskExecutor):
        return
    from distributed import WorkerPlugin

    class Warm(WorkerPlugin):
        def setup(self, worker: object) -> None:
            warm()

    pool.client.register_plugin(Warm(), name=name)


class DaskExecutor(Executor):
    """A Dask client's executor that watches its scheduler: :meth:`check` ends the work when
    the scheduler has been unreachable, or without any worker, for :data:`LOST_TIMEOUT_S`."""

    def __init__(self, client: Client, address: str) -> None:
        self.client = client
        self.address = address
        self._pool = client.get_executor(pure=False)
        self._lost_since: float | None = None
        self._idle_since: float | None = None
        self._checked = 0.0

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        future: Future[T] = self._pool.submit(fn, *args, **kwargs)
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self._pool.shutdown(wait=wait and not cancel_futures)

    def wait_for_worker(self) -> None:
        """Wait up to :data:`WORKER_TIMEOUT_S` for a first worker."""
        try:
            self.client.wait_for_workers(1, timeout=WORKER_TIMEOUT_S)
        except Exception:
            raise InputError(
                f"no worker joined {self.address} within {WORKER_TIMEOUT_S} s",
                where="--scheduler",
            ) from None

    def result(self, future: Future[T]) -> T:
        """The future's result; a task cancelled because the scheduler went away is said so."""
        try:
            return future.result()
        except CancelledError:
            raise self._lost() from None
        except Exception:
            if self.client.status != "running":
                raise self._lost() from None
            raise

    def check(self) -> None:
        """End the work when the scheduler has been gone, or has had no worker, too long."""
        now = time.monotonic()
        if self.client.status != "running":
            self._lost_since = self._lost_since or now
            if now - self._lost_since >= LOST_TIMEOUT_S:
                raise self._lost()
            return
        self._lost_since = None
        if now - self._checked < 1:
            return
        self._checked = now
        try:
            workers = self.client.scheduler_info()["workers"].values()
            running = sum(1 for w in workers if w.get("status") == "running")
        except Exception:
            running = 0
        if running:
            self._idle_since = None
            return
        self._idle_since = self._idle_since or now
        if now - self._idle_since >= LOST_TIMEOUT_S:
            raise InputError(
                f"no worker left on {self.address} for {LOST_TIMEOUT_S} s", where="--scheduler"
            )

    def _lost(self) -> InputError:
        return InputError(f"lost the Dask scheduler at {self.address}", where="--scheduler")
