"""Run the app on uvicorn, on a socket bound here: port 0 picks a free port, and the caller
learns the real one before the first request.

uvicorn's HTTP/1.1 protocol (h11) is run with vigile's guards (:class:`Guards`,
:class:`GuardedProtocol`), so that a slow or hostile client holds nothing for long:

- a request's head (request line and headers) must arrive within :data:`HEAD_TIMEOUT_S` of the
  connection opening or of the previous response's end, and be at most :data:`MAX_HEAD` bytes;
- its body within :data:`BODY_TIMEOUT_S` of its head;
- a connection kept alive with nothing asked is closed after :data:`IDLE_TIMEOUT_S`;
- a client that takes nothing of what is sent to it for :data:`WRITE_TIMEOUT_S` is cut off
  (the socket's ``TCP_USER_TIMEOUT`` too, where the system has it: a phone gone from the network
  does not keep its live stream open);
- at most :data:`MAX_CONNECTIONS` connections at once; one more is answered 503 and closed.

Whatever the server answers outside the app (a request that is not HTTP/1.1, a timeout, too
many connections, an app that ended without answering) is an RFC 9457 problem, as the app's own
errors are (:mod:`vigile.web.problems`); h11's hints above 499 (an unknown transfer coding) are
answered 400: the request is at fault, not the server.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from functools import partial
from http import HTTPStatus
from typing import Any, ClassVar, Final

import h11
import uvicorn
from fastapi import FastAPI
from starlette.types import ASGIApp
from uvicorn.protocols.http.h11_impl import H11Protocol, RequestResponseCycle

from vigile.errors import InputError
from vigile.io.i18n import Lang

from .problems import MEDIA_TYPE, problem
from .sse import end_streams_here

GRACE_S: Final = 2
"""Seconds open streams get to end when the server stops."""
HEAD_TIMEOUT_S: Final = 10.0
"""Seconds a request's line and headers may take to arrive."""
BODY_TIMEOUT_S: Final = 30.0
"""Seconds a request's body may take to arrive after its head (2 MiB at 70 KB/s)."""
IDLE_TIMEOUT_S: Final = 5
"""Seconds a kept-alive connection waits for its next request (uvicorn's keep-alive)."""
WRITE_TIMEOUT_S: Final = 30.0
"""Seconds a client may leave what is sent to it unread before it is cut off."""
MAX_CONNECTIONS: Final = 1280
"""Connections open at once (each live stream is one)."""
MAX_HEAD: Final = 16 * 1024
"""Bytes of a request's head still incomplete (h11's own default)."""


@dataclass(frozen=True)
class Guards:
    """The limits :class:`GuardedProtocol` holds each connection to (tests shorten them)."""

    head_s: float = HEAD_TIMEOUT_S
    body_s: float = BODY_TIMEOUT_S
    idle_s: int = IDLE_TIMEOUT_S
    write_s: float = WRITE_TIMEOUT_S
    connections: int = MAX_CONNECTIONS
    head_bytes: int = MAX_HEAD


class GuardedProtocol(H11Protocol):
    """uvicorn's h11 protocol with :class:`Guards`' timeouts and cap, answering problems."""

    guards: ClassVar[Guards] = Guards()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self._heard = False
        """Bytes arrived since the server began waiting for a request's head."""
        self._error: h11.RemoteProtocolError | None = None
        next_event = self.conn.next_event

        def watched() -> Any:  # the error uvicorn's handle_events does not pass on
            try:
                return next_event()
            except h11.RemoteProtocolError as error:
                self._error = error
                raise

        self.conn.next_event = watched  # type: ignore[method-assign]

    # --- the connection's life

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if len(self.connections) > self.guards.connections:
            self.logger.warning("Over %d connections: one refused.", self.guards.connections)
            self._answer(503, f"over {self.guards.connections} connections", retry=True)
            return
        _user_timeout(transport, self.guards.write_s)
        self._await_head()

    def connection_lost(self, exc: Exception | None) -> None:
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()
        super().connection_lost(exc)

    def shutdown(self) -> None:
        """uvicorn calls this on each open connection as the server begins to stop: the
        event streams this server's loop serves end first (each finishes its response, which
        then closes its connection), rather than be cut at the end of the grace."""
        end_streams_here()
        super().shutdown()

    def data_received(self, data: bytes) -> None:
        self._heard = True
        super().data_received(data)

    def handle_events(self) -> None:
        before = self.cycle
        super().handle_events()
        cycle = self.cycle
        if cycle is not before and cycle is not None:  # a request's head arrived
            self._cancel("head")
            cycle.send_500_response = partial(_crashed, cycle)  # type: ignore[method-assign]
            size = len(cycle.scope["raw_path"]) + len(cycle.scope["query_string"])
            size += sum(len(name) + len(value) + 4 for name, value in cycle.scope["headers"])
            if size > self.guards.head_bytes:  # whole in one read: h11 did not measure it
                self._answer(431, f"a request's head is at most {self.guards.head_bytes} bytes")
                return
            if cycle.more_body:
                self._arm("body", self.guards.body_s, self._body_late)
        if cycle is not None and not cycle.more_body:
            self._cancel("body")

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing() and (self.cycle is None or self.cycle.response_complete):
            self._await_head()

    def pause_writing(self) -> None:
        super().pause_writing()
        self._arm("write", self.guards.write_s, self._write_late)

    def resume_writing(self) -> None:
        self._cancel("write")
        super().resume_writing()

    # --- the guards

    def _await_head(self) -> None:
        self._heard = False
        self._arm("head", self.guards.head_s, self._head_late)

    def _head_late(self) -> None:
        if self._heard:  # part of a head came, not all of it
            self._answer(408, f"a request's head must arrive within {self.guards.head_s:g} s")
        else:  # nothing asked: close quietly, as keep-alive does
            self.transport.close()

    def _body_late(self) -> None:
        self._answer(408, f"a request's body must arrive within {self.guards.body_s:g} s")

    def _write_late(self) -> None:
        self.logger.warning("A client read nothing for %g s: cut off.", self.guards.write_s)
        self.transport.abort()

    def _arm(self, name: str, delay: float, then: Callable[[], None]) -> None:
        self._cancel(name)
        self._timers[name] = self.loop.call_later(delay, then)

    def _cancel(self, name: str) -> None:
        timer = self._timers.pop(name, None)
        if timer is not None:
            timer.cancel()

    # --- answers before the app: problems

    def send_400_response(self, msg: str) -> None:
        error, self._error = self._error, None
        hint = error.error_status_hint if error is not None else 400
        status = hint if 400 <= hint < 500 else 400
        detail = f"not a valid HTTP/1.1 request ({error})" if error else "not a valid request"
        self._answer(status, detail)

    def _answer(self, status: int, detail: str, *, retry: bool = False) -> None:
        """A problem, then the connection closes (an app still reading the request is told the
        client left; one that began answering is cut short)."""
        cycle = self.cycle
        if cycle is not None and not cycle.response_complete:
            if cycle.response_started:
                self.transport.close()
                return
            cycle.disconnected = True
            cycle.message_event.set()
        self._cancel("head")
        self._cancel("body")
        self.transport.write(problem_bytes(status, detail, retry=retry))
        self.transport.close()


def problem_bytes(status: int, detail: str, *, retry: bool = False) -> bytes:
    """A whole HTTP/1.1 response carrying a problem, ``Connection: close`` (English: the
    request's Accept-Language was not read)."""
    body = bytes(problem(status, detail, Lang.EN).body)
    lines = [
        f"HTTP/1.1 {status} {HTTPStatus(status).phrase}",
        f"content-type: {MEDIA_TYPE}",
        f"content-length: {len(body)}",
        "connection: close",
        "cache-control: no-store",
    ]
    if retry:
        lines.append("retry-after: 1")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("ascii") + body


async def _crashed(cycle: RequestResponseCycle) -> None:
    """uvicorn's answer to an app that failed before answering, as a problem."""
    body = bytes(problem(500, None, Lang.EN).body)
    headers = [
        (b"content-type", MEDIA_TYPE.encode("ascii")),
        (b"content-length", str(len(body)).encode("ascii")),
        (b"connection", b"close"),
    ]
    await cycle.send({"type": "http.response.start", "status": 500, "headers": headers})
    await cycle.send({"type": "http.response.body", "body": body, "more_body": False})


def _user_timeout(transport: asyncio.Transport, seconds: float) -> None:
    """Unacknowledged data for ``seconds`` drops the connection (Linux's TCP_USER_TIMEOUT)."""
    option = getattr(socket, "TCP_USER_TIMEOUT", None)
    sock = transport.get_extra_info("socket")
    if option is None or sock is None or sock.family not in (socket.AF_INET, socket.AF_INET6):
        return
    with suppress(OSError):  # refused by the system: the write timer still holds
        sock.setsockopt(socket.IPPROTO_TCP, option, int(seconds * 1000))


def is_loopback(host: str) -> bool:
    """``host`` is reachable from this machine only."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host:port`` (0: a free port); InputError naming the option
    if it cannot be had."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as error:
        raise InputError(f"{host!r}: no such address ({error})", where="--host") from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except OSError as error:
        sock.close()
        raise InputError(
            f"cannot listen on {host}:{port}: {error.strerror}", where="--port"
        ) from None
    sock.set_inheritable(True)
    _enough_files()
    return sock


def _enough_files() -> None:
    """Let this process hold :data:`MAX_CONNECTIONS` sockets and its files (a system's soft
    limit is often 1,024 descriptors): the soft limit raised towards the hard one."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not on this system
        return
    wanted = MAX_CONNECTIONS + 256
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        with suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))


def lan_address(family: int = socket.AF_INET) -> str | None:
    """This machine's address on its local network (the one its default route leaves from),
    or None where it has none. A UDP socket's ``connect`` picks the route and sends nothing."""
    probe_to = ("192.0.2.1", 9) if family == socket.AF_INET else ("2001:db8::1", 9)
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as probe:
            probe.connect(probe_to)
            address = str(probe.getsockname()[0])
    except OSError:
        return None
    found = ipaddress.ip_address(address)
    return None if found.is_loopback or found.is_unspecified else address


def url_base(sock: socket.socket, host: str) -> str:
    """``http://HOST:PORT`` to print: a wildcard address shows as this machine's address on
    its local network (what a phone at the table opens), else as its loopback."""
    port = sock.getsockname()[1]
    shown = host
    if host in ("0.0.0.0", ""):
        shown = lan_address() or "127.0.0.1"
    elif host == "::":
        shown = lan_address(socket.AF_INET6) or "::1"
    if ":" in shown:
        shown = f"[{shown}]"
    return f"http://{shown}:{port}"


def _config(app: Any, guards: Guards, **more: Any) -> uvicorn.Config:
    protocol = (
        GuardedProtocol
        if guards == GuardedProtocol.guards
        else type("GuardedProtocol", (GuardedProtocol,), {"guards": guards})
    )
    return uvicorn.Config(
        app,
        http=protocol,
        log_level="warning",
        access_log=False,
        timeout_graceful_shutdown=GRACE_S,
        timeout_keep_alive=guards.idle_s,
        h11_max_incomplete_event_size=guards.head_bytes,
        server_header=False,
        **more,
    )


def server(app: ASGIApp, guards: Guards = Guards()) -> uvicorn.Server:
    """uvicorn serving ``app`` with :class:`GuardedProtocol` held to ``guards``."""
    return uvicorn.Server(_config(app, guards))


def serve(app: FastAPI, sock: socket.socket, guards: Guards = Guards()) -> None:
    """Serve ``app`` on ``sock`` until SIGINT or SIGTERM."""
    server(app, guards).run(sockets=[sock])


@dataclass(frozen=True)
class Settings:
    """What each worker process of ``vigile serve --workers N`` builds its app from."""

    db: str
    """The database URL (with its password: handed to the workers over a pipe, never shown)."""
    gm_digest: str
    cors_origins: tuple[str, ...] = ()
    public_base: str | None = None
    workspace: str | None = None
    scheduler: str | None = None


def worker_app(settings: Settings) -> FastAPI:
    """One worker's app over its own :class:`~vigile.store.Store` (a process never shares a
    database connection): the same app as a single process serves. Its streams hear the other
    workers' writes through the database (:meth:`vigile.store.Store.listen`)."""
    from pathlib import Path

    from vigile.store import Store

    from .app import create_app
    from .editor import configure

    store = Store(settings.db)
    app = create_app(
        store,
        gm_digest=settings.gm_digest,
        cors_origins=settings.cors_origins,
        public_base=settings.public_base,
    )
    folder = Path(settings.workspace) if settings.workspace is not None else None
    configure(app, workspace=folder, scheduler=settings.scheduler)
    return app


def serve_workers(settings: Settings, sock: socket.socket, workers: int) -> None:
    """Serve on ``sock`` from ``workers`` processes (uvicorn's supervisor: each worker accepts
    on the same socket, one that dies is started again) until SIGINT or SIGTERM."""
    from uvicorn.supervisors import Multiprocess

    config = _config(partial(worker_app, settings), Guards(), factory=True, workers=workers)
    Multiprocess(config, sockets=[sock]).run()
