"""HTTP itself against hostile clients (issue 34), over raw sockets to a real uvicorn: every
4xx, at any level (h11's parse, the router, the body's cap, FastAPI's JSON), is an RFC 9457
problem; a client that sends half a head, a body too slowly or nothing at all is cut off after
a timeout; one connection too many, and one live stream too many for a token or for the
server, are refused with a problem. (``vigile.web.serve``, ``vigile.web.sse``)"""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from starlette.types import ASGIApp, Receive, Scope, Send
from uvicorn.server import ServerState

from vigile.store import Store
from vigile.web import create_app
from vigile.web.serve import GuardedProtocol, Guards, bind, server
from web_server import Server

TOKEN = "http-test-token-0123456789"
AUTH = f"Authorization: Bearer {TOKEN}\r\n".encode()
READ_S = 10.0


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes
    closed: bool
    """The server closed the connection after it."""

    def problem(self) -> dict[str, Any]:
        assert self.headers.get("content-type") == "application/problem+json", self
        found: dict[str, Any] = json.loads(self.body)
        assert found["status"] == self.status and found["title"] and found["type"]
        return found


def connect(base: str) -> socket.socket:
    host, port = base.removeprefix("http://").rsplit(":", 1)
    sock = socket.create_connection((host, int(port)), timeout=READ_S)
    return sock


def read_answer(sock: socket.socket, *, to_head: bool = False) -> Answer:
    """One response (by its Content-Length; none to a HEAD), and whether the connection then
    closed (looked at when the answer says ``Connection: close``)."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            raise AssertionError(f"closed with no answer: {data!r}")
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    while lines[0].startswith("HTTP/1.1 100"):  # Continue: the real answer follows
        head, _, body = body.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, _, v in (x.partition(":") for x in lines[1:])}
    length = 0 if to_head else int(headers.get("content-length", "0"))
    while len(body) < length:
        chunk = sock.recv(65536)
        if not chunk:
            break
        body += chunk
    closed = headers.get("connection") == "close" and _closes(sock)
    return Answer(int(lines[0].split()[1]), headers, body[:length], closed)


def _closes(sock: socket.socket, wait: float = 2.0) -> bool:
    sock.settimeout(wait)
    try:
        return sock.recv(1) == b""
    except TimeoutError:
        return False
    except ConnectionResetError:
        return True
    finally:
        sock.settimeout(READ_S)


def send(base: str, raw: bytes) -> Answer:
    with connect(base) as sock:
        sock.sendall(raw)
        return read_answer(sock, to_head=raw.startswith(b"HEAD "))


# ------------------------------------------------------------------------------ every 4xx


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """``vigile serve`` itself (its CLI, its uvicorn), over SQLite."""
    path = tmp_path_factory.mktemp("http") / "vigile.db"
    running = Server(f"sqlite:///{path}", token=TOKEN).start()
    try:
        yield running
    finally:
        running.stop()


def _post(path: str, body: bytes, *headers: bytes) -> bytes:
    lines = [f"POST {path} HTTP/1.1".encode(), b"Host: x", *headers]
    return b"\r\n".join(lines) + b"\r\n" + AUTH + b"\r\n" + body


MALFORMED: dict[str, tuple[bytes, int]] = {
    "not HTTP": (b"GARBAGE\r\n\r\n", 400),
    "no Host in HTTP/1.1": (b"GET /api/v1/health HTTP/1.1\r\n\r\n", 400),
    "Content-Length not a number": (_post("/api/v1/encounters", b"", b"Content-Length: abc"), 400),
    "Content-Length negative": (_post("/api/v1/encounters", b"", b"Content-Length: -1"), 400),
    "two Content-Lengths": (
        _post("/api/v1/encounters", b"ab", b"Content-Length: 1", b"Content-Length: 2"),
        400,
    ),
    "unknown Transfer-Encoding": (
        _post("/api/v1/encounters", b"", b"Transfer-Encoding: gzip"),
        400,
    ),
    "bad chunk": (_post("/api/v1/encounters", b"zz\r\n", b"Transfer-Encoding: chunked"), 400),
    "space in a header name": (b"GET / HTTP/1.1\r\nHost: x\r\nBad Header: 1\r\n\r\n", 400),
    "non-ASCII path": ("GET /é HTTP/1.1\r\nHost: x\r\n\r\n".encode("latin-1"), 400),
    "head over 16 KiB": (b"GET / HTTP/1.1\r\nHost: x\r\nX: " + b"a" * 100_000 + b"\r\n\r\n", 431),
    "malformed JSON": (
        _post(
            "/api/v1/encounters",
            b"{bad}",
            b"Content-Type: application/json",
            b"Content-Length: 5",
        ),
        422,
    ),
    "not JSON's media type": (
        _post("/api/v1/encounters", b"{}", b"Content-Type: text/plain", b"Content-Length: 2"),
        422,
    ),
    "JSON nested 100,000 deep": (
        _post(
            "/api/v1/encounters",
            b"[" * 100_000 + b"]" * 100_000,
            b"Content-Type: application/json",
            b"Content-Length: 200000",
        ),
        400,
    ),
    "body over the cap": (
        _post(
            "/api/v1/encounters",
            b"",
            b"Content-Type: application/json",
            b"Content-Length: 99999999",
        ),
        413,
    ),
    "no boundary in a multipart": (
        _post(
            "/api/v1/encounters/upload",
            b"abc",
            b"Content-Type: multipart/form-data",
            b"Content-Length: 3",
        ),
        400,
    ),
    "unknown route": (b"GET /nope HTTP/1.1\r\nHost: x\r\n\r\n", 404),
    "unknown route, HEAD": (b"HEAD /nope HTTP/1.1\r\nHost: x\r\n\r\n", 404),
    "method not allowed": (
        b"PUT /api/v1/health HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n",
        405,
    ),
    "no token": (b"GET /api/v1/encounters HTTP/1.1\r\nHost: x\r\n\r\n", 401),
    "a token not UTF-8": (
        b"GET /api/v1/encounters HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \xff\r\n\r\n",
        401,
    ),
    "outside the static folder": (b"GET /static/../../etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n", 404),
}


@pytest.mark.parametrize("name", list(MALFORMED))
def test_every_4xx_is_a_problem_at_every_level(served: Server, name: str) -> None:
    raw, status = MALFORMED[name]
    answer = send(served.base, raw)
    assert answer.status == status, answer
    if raw.startswith(b"HEAD"):
        assert answer.headers["content-type"] == "application/problem+json" and not answer.body
        return
    answer.problem()


def test_a_refused_request_names_what_is_wrong(served: Server) -> None:
    answer = send(served.base, _post("/api/v1/encounters", b"", b"Transfer-Encoding: gzip"))
    assert "Transfer-Encoding" in answer.problem()["detail"] and answer.closed


# ------------------------------------------------------------------------------ timeouts, caps


class Running:
    """vigile's app on uvicorn in this process (a thread), with short guards."""

    def __init__(self, tmp_path: Path, guards: Guards, app: ASGIApp | None = None) -> None:
        self.store = Store(f"sqlite:///{tmp_path / 'guarded.db'}")
        self.app = create_app(self.store, gm_token=TOKEN)
        self.sock = bind("127.0.0.1", 0)
        self.base = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        self.server: uvicorn.Server = server(app or self.app, guards)
        self.thread = threading.Thread(target=self.server.run, args=([self.sock],), daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            assert time.monotonic() < deadline and self.thread.is_alive(), "uvicorn did not start"
            time.sleep(0.02)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(15)
        self.sock.close()
        self.store.close()


SHORT = Guards(head_s=1.0, body_s=1.0, idle_s=1, write_s=1.0, connections=6)


@pytest.fixture
def guarded(tmp_path: Path) -> Iterator[Running]:
    running = Running(tmp_path, SHORT)
    try:
        yield running
    finally:
        running.stop()


def _closed_within(sock: socket.socket, seconds: float) -> float:
    """Seconds until the server closes ``sock`` (fails past ``seconds``)."""
    began = time.monotonic()
    sock.settimeout(seconds)
    data = b""
    while True:
        try:
            chunk = sock.recv(65536)
        except ConnectionResetError:
            break
        if not chunk:
            break
        data += chunk
    return time.monotonic() - began


def test_half_a_head_is_answered_408_and_closed_after_the_timeout(guarded: Running) -> None:
    with connect(guarded.base) as sock:
        began = time.monotonic()
        sock.sendall(b"GET /api/v1/health HTTP/1.1\r\nHost: x\r\nX-Slow: ")
        answer = read_answer(sock)
        took = time.monotonic() - began
    assert answer.status == 408 and answer.closed
    assert "head" in answer.problem()["detail"]
    assert SHORT.head_s - 0.1 <= took <= SHORT.head_s + 3


def test_a_head_trickled_a_byte_at_a_time_is_cut_off_all_the_same(guarded: Running) -> None:
    """Each byte comes well within the timeout (0.1 s apart); the head as a whole does not."""
    head = b"GET /api/v1/health HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 100
    cut_after = None
    with connect(guarded.base) as sock:
        sock.settimeout(0.1)
        began = time.monotonic()
        for byte in head:
            try:
                sock.sendall(bytes([byte]))
                sock.recv(65536)  # an answer (408) or the end: cut off
            except TimeoutError:
                continue
            except OSError:
                pass
            cut_after = time.monotonic() - began
            break
    assert cut_after is not None and cut_after <= SHORT.head_s + 2


def test_a_connection_that_asks_nothing_is_closed(guarded: Running) -> None:
    with connect(guarded.base) as sock:
        assert _closed_within(sock, 10) <= SHORT.head_s + 3
    with connect(guarded.base) as sock:  # kept alive after an answer: the idle timeout
        sock.sendall(b"GET /api/v1/health HTTP/1.1\r\nHost: x\r\n\r\n")
        answer = read_answer(sock)
        assert answer.status == 200
        assert _closed_within(sock, 10) <= SHORT.idle_s + 3


def test_a_body_too_slow_is_answered_408(guarded: Running) -> None:
    with connect(guarded.base) as sock:
        sock.sendall(_post("/api/v1/encounters", b'{"scen', b"Content-Length: 40"))
        answer = read_answer(sock)
    assert answer.status == 408 and answer.closed and "body" in answer.problem()["detail"]


def test_a_prompt_client_is_not_cut_off(guarded: Running) -> None:
    """Three requests on one connection, each well within its timeouts."""
    with connect(guarded.base) as sock:
        for _ in range(3):
            sock.sendall(b"GET /api/v1/health HTTP/1.1\r\nHost: x\r\n\r\n")
            answer = read_answer(sock) if _ == 2 else _read_kept(sock)
            assert answer.status == 200
            time.sleep(0.3)


def _read_kept(sock: socket.socket) -> Answer:
    data = b""
    while not data.endswith(b'{"status":"ok"}'):
        data += sock.recv(65536)
    return Answer(int(data.split()[1]), {}, b"", False)


def test_one_connection_too_many_is_answered_503(guarded: Running) -> None:
    held = [connect(guarded.base) for _ in range(SHORT.connections)]
    try:
        time.sleep(0.2)
        with connect(guarded.base) as extra:
            answer = read_answer(extra)
        assert answer.status == 503 and answer.headers["retry-after"] == "1"
        assert "connections" in answer.problem()["detail"]
    finally:
        for sock in held:
            sock.close()
    time.sleep(0.2)
    assert send(guarded.base, b"GET /api/v1/health HTTP/1.1\r\nHost: x\r\n\r\n").status == 200


def test_a_client_that_reads_nothing_is_cut_off() -> None:
    """The protocol's write timer: paused writing past ``write_s`` aborts the connection."""

    class Transport(asyncio.Transport):
        aborted = False

        def close(self) -> None:
            pass

        def get_extra_info(self, name: str, default: Any = None) -> Any:
            return {"peername": ("127.0.0.1", 1), "sockname": ("127.0.0.1", 2)}.get(name)

        def abort(self) -> None:
            self.aborted = True

        def is_closing(self) -> bool:
            return self.aborted

    async def scene() -> bool:
        with Store("sqlite://") as store:
            config = uvicorn.Config(create_app(store, gm_token=TOKEN))
            config.load()
        protocol_class = type("P", (GuardedProtocol,), {"guards": Guards(write_s=0.2)})
        protocol = protocol_class(config=config, server_state=ServerState(), app_state={})
        transport = Transport()
        protocol.connection_made(transport)
        protocol.pause_writing()
        await asyncio.sleep(0.5)
        cut = transport.aborted
        protocol.connection_lost(None)
        return cut

    assert asyncio.run(scene())


def test_an_app_that_fails_before_answering_is_a_500_problem(tmp_path: Path) -> None:
    """uvicorn's own 500 (an app that ends without answering) is a problem too."""

    async def mute(scope: Scope, receive: Receive, send: Send) -> None:
        return None

    running = Running(tmp_path, Guards(), app=mute)
    try:
        answer = send(running.base, b"GET /api/v1/health HTTP/1.1\r\nHost: x\r\n\r\n")
    finally:
        running.stop()
    assert answer.status == 500 and answer.problem()["title"] == "Internal error"


def _stream_request(encounter: str, token: str) -> bytes:
    return (
        f"GET /api/v1/encounters/{encounter}/stream HTTP/1.1\r\nHost: x\r\n"
        f"Authorization: Bearer {token}\r\n\r\n"
    ).encode()


def _open_stream(base: str, encounter: str, token: str) -> tuple[socket.socket, int, bytes]:
    """A stream's socket (left open), its status and what came of its answer so far."""
    sock = connect(base)
    sock.sendall(_stream_request(encounter, token))
    data = b""
    while b"\r\n\r\n" not in data:
        data += sock.recv(65536)
    return sock, int(data.split()[1]), data


def test_one_stream_too_many_for_a_token_or_for_the_server_is_a_429(tmp_path: Path) -> None:
    running = Running(tmp_path, Guards(connections=100))
    hub = running.app.state.vigile.hub
    hub.max_per_token, hub.max_streams = 3, 5
    opened: list[socket.socket] = []
    try:
        created = send(
            running.base,
            _post(
                "/api/v1/encounters",
                b'{"scenario": "night-raid"}',
                b"Content-Type: application/json",
                b"Content-Length: 26",
            ),
        )
        assert created.status == 201, created
        body = json.loads(created.body)
        encounter, tokens = body["encounter"]["id"], body["tokens"]
        for _ in range(3):
            sock, status, _ = _open_stream(running.base, encounter, TOKEN)
            opened.append(sock)
            assert status == 200
        refused = send(running.base, _stream_request(encounter, TOKEN))  # the 4th of a token
        assert refused.status == 429 and "this token has 3" in refused.problem()["detail"]
        for token in (tokens["gm"], tokens["table"]):  # other tokens: 4 and 5 in all
            sock, status, _ = _open_stream(running.base, encounter, token)
            opened.append(sock)
            assert status == 200
        refused = send(running.base, _stream_request(encounter, tokens["players"]["Kage"]))
        assert refused.status == 429 and "5 live streams" in refused.problem()["detail"]
        assert hub.open_streams() == 5

        for sock in opened[:3]:  # a client gone gives its place back
            sock.close()
        deadline = time.monotonic() + 10
        while hub.open_streams() > 2:
            assert time.monotonic() < deadline, hub.open_streams()
            time.sleep(0.05)
        sock, status, _ = _open_stream(running.base, encounter, TOKEN)
        opened.append(sock)
        assert status == 200
    finally:
        for sock in opened:
            sock.close()
        running.stop()


def test_the_readme_documents_each_limit_with_its_value() -> None:
    from vigile.web import pageplay, pages, serve, sse

    readme = (Path(__file__).parents[1] / "README.md").read_text(encoding="utf-8")
    rows = {line.split("|")[1].strip(): line for line in readme.splitlines() if "`serve.py`" in line
            or "`sse.py`" in line or "`pageplay.py`" in line}  # fmt: skip
    assert (
        f"{serve.MAX_HEAD // 1024} KiB (431), arrived within {serve.HEAD_TIMEOUT_S:g} s"
        in (rows["a request's head (request line and headers)"])
    )
    assert f"within {serve.BODY_TIMEOUT_S:g} s" in rows["a request's body"]
    assert f"after {serve.IDLE_TIMEOUT_S} s" in rows["a kept-alive connection asking nothing"]
    assert (
        f"after {serve.WRITE_TIMEOUT_S:g} s"
        in rows["a client taking nothing of what is sent to it"]
    )
    assert f"{serve.MAX_CONNECTIONS} (503)" in rows["connections at once"]
    assert (
        f"{sse.MAX_STREAMS_PER_TOKEN} per token, {sse.MAX_STREAMS} in all"
        in (rows["live streams (SSE) at once"])
    )
    assert f"{pageplay.MAX_DIGITS} at most" in rows["a number typed in a page's form"]
    assert f"1 to {pages.MAX_DIE}" in rows["a number typed in a page's form"]
    assert (
        f"{pageplay.MAX_JSON:,} characters, nesting {pageplay.MAX_DEPTH} deep"
        in (rows["a page form's JSON `action`"])
    )
