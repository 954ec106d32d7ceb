"""Who is asking: the server's GM token, or one of an encounter's own tokens.

- The server's token (printed by ``vigile serve``) is the GM of every encounter, and the only
  token that may create or list encounters. It is compared in constant time
  (:func:`hmac.compare_digest`).
- Each encounter has its own tokens (:meth:`vigile.live.Encounter.create`): its GM, the table
  (the public view), and one per intruder (that character's view only). Only their digests are
  stored; :meth:`vigile.store.Store.find_token` compares them in constant time.

A token comes in ``Authorization: Bearer …`` or, for an ``EventSource`` that cannot set
headers, in ``?token=…``. No token or a wrong one: 401. A token whose role may not do what is
asked (a player posting an action, a player asking for another character's view): 403.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from typing import Annotated, Final

from fastapi import Depends, HTTPException, Path, Security
from fastapi.security import APIKeyQuery, HTTPAuthorizationCredentials, HTTPBearer

from vigile.live import Role

from .context import Context, context

MAX_TOKEN: Final = 256
CHALLENGE: Final = {"WWW-Authenticate": "Bearer"}

bearer = HTTPBearer(auto_error=False, description="A token in `Authorization: Bearer …`.")
query_token = APIKeyQuery(
    name="token",
    auto_error=False,
    description="The same token in the query, for an EventSource (it cannot set headers).",
)

EncounterId = Annotated[
    str,
    Path(
        min_length=1,
        max_length=64,
        pattern=r"^[0-9a-f]+$",
        description="The encounter's id (32 hex digits).",
    ),
]


@dataclass(frozen=True)
class Viewer:
    """Who a request speaks for, in one encounter (or, for the server's token, in all)."""

    role: Role
    """``gm``, ``player`` or ``table``."""
    character: str | None = None
    """The player's character."""
    server: bool = False
    """The server's own token: GM of every encounter."""


def presented(
    header: Annotated[HTTPAuthorizationCredentials | None, Security(bearer)],
    query: Annotated[str | None, Security(query_token)],
) -> str | None:
    """The token the request presents: the header's, else the query's."""
    token = header.credentials if header is not None else query
    if token is None or not token or len(token) > MAX_TOKEN:
        return None
    return token


Token = Annotated[str | None, Depends(presented)]
Ctx = Annotated[Context, Depends(context)]


def unauthorized(detail: str) -> HTTPException:
    return HTTPException(401, detail, headers=CHALLENGE)


def forbidden(detail: str) -> HTTPException:
    return HTTPException(403, detail)


def is_server_token(ctx: Context, token: str | None) -> bool:
    if token is None:
        return False
    digest = hashlib.sha256(token.encode("utf-8")).hexdigest()
    return hmac.compare_digest(digest, ctx.gm_digest)


def server_gm(ctx: Ctx, token: Token) -> Viewer:
    """Only the server's token (creating and listing encounters)."""
    if token is None:
        raise unauthorized("a token is needed: Authorization: Bearer TOKEN, or ?token=TOKEN")
    if not is_server_token(ctx, token):
        raise unauthorized("this needs the server's token (printed by vigile serve)")
    return Viewer("gm", server=True)


def encounter_viewer(ctx: Ctx, token: Token, encounter_id: EncounterId) -> Viewer:
    """Any token of this encounter, or the server's."""
    if token is None:
        raise unauthorized("a token is needed: Authorization: Bearer TOKEN, or ?token=TOKEN")
    if is_server_token(ctx, token):
        return Viewer("gm", server=True)
    found = ctx.store.find_token(encounter_id, token)
    if found is None:
        raise unauthorized("this token opens no such encounter")
    role, character = found
    if role not in ("gm", "player", "table"):  # pragma: no cover - the store allows no other
        raise unauthorized("this token has no role")
    return Viewer(role, character)  # type: ignore[arg-type]


def encounter_gm(viewer: Annotated[Viewer, Depends(encounter_viewer)]) -> Viewer:
    """The GM of this encounter (its own GM token, or the server's)."""
    if viewer.role != "gm":
        raise forbidden(f"only the GM may do this; this token is the {viewer.role}'s")
    return viewer


ServerGM = Annotated[Viewer, Depends(server_gm)]
AnyViewer = Annotated[Viewer, Depends(encounter_viewer)]
GM = Annotated[Viewer, Depends(encounter_gm)]
