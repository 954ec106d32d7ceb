"""A cap on request bodies: a larger body is a 413 problem, before any route reads it."""

from __future__ import annotations

from typing import Final

from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .language import request_lang
from .problems import problem

MAX_BODY: Final = 2 * 1024 * 1024
"""Bytes of a request body, by default: a scenario's text, even JSON-escaped, fits."""
MAX_ENCOUNTERS: Final = 1000
"""Live (not archived) encounters a server holds: starting one more is a 409 problem (kind
``limit``) until one is archived. Checked by the store under its write lock
(:meth:`vigile.store.Store.create_encounter`)."""


class BodyLimit:
    """ASGI middleware: reads the body (at most ``max_body`` bytes) before the app runs.

    A ``Content-Length`` over the cap is refused at once; a body that grows past it while it is
    read is refused as soon as it does. The app then reads the body from memory.
    """

    def __init__(self, app: ASGIApp, max_body: int = MAX_BODY) -> None:
        self.app = app
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None:
            if not declared.isdigit():
                await self._refuse(scope, send, 400, "Content-Length is not a number")
                return
            if int(declared) > self.max_body:
                await self._too_large(scope, send)
                return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client went away
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body:
                await self._too_large(scope, send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        given = False

        async def replay() -> Message:
            nonlocal given
            if not given:
                given = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _too_large(self, scope: Scope, send: Send) -> None:
        await self._refuse(scope, send, 413, f"a request body is at most {self.max_body} bytes")

    async def _refuse(self, scope: Scope, send: Send, status: int, detail: str) -> None:
        response = problem(
            status, detail, request_lang(Request(scope)), headers={"Connection": "close"}
        )

        async def no_body() -> Message:
            return {"type": "http.disconnect"}

        await response(scope, no_body, send)
