"""The security headers on every response of ``vigile serve``.

The pages run only the server's own script files: no inline script, no event-handler attribute,
no ``eval`` (the pages' JavaScript is ``static/vigile.js`` and ``static/editor.js``, beside the
vendored htmx; the Alpine.js they once used is gone, its standard build compiling expressions
with ``new Function``). So a name, a note or a file name that slipped through the templates'
escaping would still run nothing. The policy (:data:`POLICY`):

* ``script-src 'self'``: script files from the server only; no inline script, no ``eval``;
* ``style-src 'self'`` with ``style-src-attr 'unsafe-inline'``: style sheets from the server,
  ``style="..."`` attributes allowed (the map's ``--m`` mark size: a style attribute runs no
  script), no ``<style>`` element;
* ``img-src 'self' data:``: the risk overlay and the heat map are PNG ``data:`` URLs;
* ``connect-src 'self'``: the pages' requests and their streams go to the server only;
* ``object-src 'none'``, ``base-uri 'none'``, ``form-action 'self'``;
* ``frame-ancestors 'none'`` (and ``X-Frame-Options: DENY`` for older browsers): no other site
  frames a page.

Beside it, ``X-Content-Type-Options: nosniff`` and ``Referrer-Policy: no-referrer`` (the join
links carry their token in the URL: no page sends it on to another site).

The API's documentation (``/docs``, FastAPI's Swagger UI) loads its script and style sheet from
``cdn.jsdelivr.net`` and starts with one inline script: that page alone gets
:data:`DOCS_POLICY`, which allows the CDN and that one script by its SHA-256 (computed from the
page as it is served; the page holds no user text). A response that sets a header itself keeps
it.
"""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Iterable
from typing import Final

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

POLICY: Final = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "style-src-attr 'unsafe-inline'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)
"""The Content-Security-Policy of every response (but the API's documentation page)."""

CDN: Final = "https://cdn.jsdelivr.net"
"""Where FastAPI's Swagger UI page loads its script and style sheet."""
DOCS_POLICY: Final = "; ".join(
    (
        "default-src 'none'",
        f"script-src {CDN} {{hashes}}",
        f"style-src {CDN} 'unsafe-inline'",
        f"img-src 'self' data: {CDN} https://fastapi.tiangolo.com",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)
"""The policy of the API's documentation page: ``{hashes}`` its inline scripts' hashes."""

HEADERS: Final = {
    "Content-Security-Policy": POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}
"""Every response's security headers."""

_INLINE = re.compile(rb"<script>(.*?)</script>", re.DOTALL)


def script_hashes(html: bytes) -> list[str]:
    """The CSP source of each inline ``<script>`` of ``html`` (``'sha256-...'``)."""
    return [
        "'sha256-" + base64.b64encode(hashlib.sha256(found).digest()).decode("ascii") + "'"
        for found in _INLINE.findall(html)
    ]


class SecurityHeaders:
    """ASGI middleware: :data:`HEADERS` on every HTTP response (streams included), the
    documentation's own policy on ``docs`` paths."""

    def __init__(self, app: ASGIApp, docs: Iterable[str] = ("/docs", "/docs/oauth2-redirect")):
        self.app = app
        self.docs = frozenset(docs)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if scope.get("path") in self.docs:
            await self._docs(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in HEADERS.items():
                    if name not in headers:
                        headers[name] = value
            await send(message)

        await self.app(scope, receive, send_with_headers)

    async def _docs(self, scope: Scope, receive: Receive, send: Send) -> None:
        """The documentation page, held until its body is whole (a few kB) to hash its
        inline script."""
        start: Message | None = None
        body: list[bytes] = []

        async def held(message: Message) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                start = message
                return
            if message["type"] != "http.response.body" or start is None:
                await send(message)
                return
            body.append(message.get("body", b""))
            if message.get("more_body", False):
                return
            whole = b"".join(body)
            headers = MutableHeaders(scope=start)
            policy = DOCS_POLICY.format(hashes=" ".join(script_hashes(whole))).replace(" ;", ";")
            for name, value in {**HEADERS, "Content-Security-Policy": policy}.items():
                if name not in headers:
                    headers[name] = value
            await send(start)
            await send({"type": "http.response.body", "body": whole, "more_body": False})

        await self.app(scope, receive, held)


__all__ = ["DOCS_POLICY", "HEADERS", "POLICY", "SecurityHeaders", "script_hashes"]
