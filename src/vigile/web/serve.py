"""Run the app on uvicorn, on a socket bound here: port 0 picks a free port, and the caller
learns the real one before the first request."""

from __future__ import annotations

import ipaddress
import socket
from typing import Final

import uvicorn
from fastapi import FastAPI

from vigile.errors import InputError

GRACE_S: Final = 2
"""Seconds open streams get to end when the server stops."""


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
    return sock


def url_base(sock: socket.socket, host: str) -> str:
    """``http://HOST:PORT`` to print: a wildcard address shows as this machine's loopback."""
    port = sock.getsockname()[1]
    shown = host
    if host in ("0.0.0.0", ""):
        shown = "127.0.0.1"
    elif host == "::":
        shown = "::1"
    if ":" in shown:
        shown = f"[{shown}]"
    return f"http://{shown}:{port}"


def serve(app: FastAPI, sock: socket.socket) -> None:
    """Serve ``app`` on ``sock`` until SIGINT or SIGTERM."""
    config = uvicorn.Config(
        app,
        log_level="warning",
        access_log=False,
        timeout_graceful_shutdown=GRACE_S,
        server_header=False,
    )
    uvicorn.Server(config).run(sockets=[sock])
