"""The one app object of ``vigile serve``: the JSON API under ``/api/v1`` with its OpenAPI
schema (``/openapi.json``, browsed at ``/docs``), problems for every error, a cap on request
bodies, and CORS for an explicit list of origins only (a VTT module in the GM's browser)."""

from __future__ import annotations

import hashlib
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from urllib.parse import urlsplit

from fastapi import FastAPI
from fastapi.middleware.cors import CORSMiddleware

from vigile import __version__
from vigile.errors import InputError
from vigile.store import Store

from . import api, checks, problems
from .context import Context
from .headers import SecurityHeaders
from .limits import MAX_BODY, BodyLimit

DESCRIPTION = """\
vigile adjudicates stealth and detection: exact odds, explained. This API plays live
encounters: the GM's actions, the table's dice, undo, and what each viewer may see.

Authentication: `Authorization: Bearer TOKEN` or `?token=TOKEN`. The server's token (printed
by `vigile serve`) is the GM of every encounter; each encounter's own tokens open its GM's,
the table's or one character's view. Errors are RFC 9457 problems (`application/problem+json`).
"""


def check_origin(origin: str) -> str:
    """A CORS origin as the browser sends it (``scheme://host[:port]``); never ``*``."""
    if origin.strip() == "*" or "*" in origin:
        raise InputError(
            "'*' would let every site call the API: name each origin", where="--cors-origin"
        )
    return web_origin(origin, where="--cors-origin")


def web_origin(url: str, *, where: str) -> str:
    """``scheme://host[:port]`` of an http(s) address with no path, query, fragment or
    credentials (a CORS origin, the public address of ``vigile serve``), lower case."""
    parts = urlsplit(url)
    if (
        parts.scheme not in ("http", "https")
        or not parts.hostname
        or parts.path not in ("", "/")
        or parts.query
        or parts.fragment
        or "@" in parts.netloc
    ):
        raise InputError(
            f"{url!r} is not an address scheme://host[:port], e.g. http://192.168.1.20:8765",
            where=where,
        )
    return f"{parts.scheme}://{parts.netloc}".lower()


def create_app(
    store: Store,
    *,
    gm_token: str | None = None,
    gm_digest: str | None = None,
    cors_origins: Sequence[str] = (),
    max_body: int = MAX_BODY,
    public_base: str | None = None,
) -> FastAPI:
    """The app over ``store``, whose GM is whoever holds ``gm_token`` (or the token whose
    SHA-256 digest is ``gm_digest``: the one the database keeps). ``public_base``: where
    players reach the server, for their join links (else the address of each request)."""
    if gm_token is not None:
        if not gm_token:
            raise InputError("the server's token must not be empty", where="--token")
        gm_digest = hashlib.sha256(gm_token.encode("utf-8")).hexdigest()
    if not gm_digest:
        raise InputError("the server needs a token", where="--token")
    origins = [check_origin(origin) for origin in cors_origins]
    ctx = Context(store, gm_digest, public_base=public_base)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        yield
        ctx.hub.close()

    app = FastAPI(
        title="vigile",
        version=__version__,
        description=DESCRIPTION,
        lifespan=lifespan,
        redoc_url=None,
    )
    app.state.vigile = ctx
    problems.install(app)
    app.include_router(api.router, prefix="/api/v1")
    app.include_router(checks.router, prefix="/api/v1/checks")
    from fastapi.staticfiles import StaticFiles  # the pages; "/" is their list

    from . import pages

    app.include_router(pages.router)
    ctx.page_news = pages.page_news
    from . import editor  # the scenario editor

    app.include_router(editor.router)
    app.mount("/static", StaticFiles(directory=pages.STATIC), name="static")

    app.add_middleware(BodyLimit, max_body=max_body)
    if origins:
        app.add_middleware(
            CORSMiddleware,
            allow_origins=origins,
            allow_methods=["GET", "POST", "DELETE"],
            allow_headers=["Authorization", "Content-Type", "Last-Event-ID", "Accept-Language"],
            allow_credentials=False,
            max_age=600,
        )
    app.add_middleware(SecurityHeaders)  # CSP, nosniff, no referrer: every response
    return app
