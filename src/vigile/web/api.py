"""The JSON API under ``/api/v1``: encounters, their actions, dice and undo, views, streams.

Handlers are plain ``def``: FastAPI runs them in its thread pool, where the store's blocking
calls belong. Each answers JSON; every error is a problem (:mod:`vigile.web.problems`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Final, Literal
from urllib.parse import quote

from fastapi import APIRouter, Depends, File, Form, Header, Query, Request, UploadFile
from fastapi.dependencies.models import Dependant
from fastapi.responses import Response, StreamingResponse
from fastapi.routing import APIRoute
from pydantic import BaseModel, ConfigDict, Field

from vigile.engine.live import ACTION_NAMES
from vigile.errors import InputError
from vigile.io.i18n import Lang
from vigile.live import Encounter, Role, view
from vigile.live.encounter import MAX_DICE
from vigile.live.views import events_for
from vigile.scene.loader import bundled_names, bundled_path
from vigile.scene.reading import MAX_BYTES, Format, format_of
from vigile.store import EncounterRow

from . import limits
from .auth import GM, AnyViewer, Ctx, EncounterId, ServerGM, Token, Viewer, forbidden
from .context import Context
from .language import request_lang
from .problems import MEDIA_TYPE, PROBLEM_SCHEMA
from .sse import MAX_STREAMS, MAX_STREAMS_PER_TOKEN, Stream, Subscriber, stream

MAX_SEED: Final = 2**63 - 1
MAX_SEQ: Final = 2**62
MAX_LIST: Final = 1000
MAX_FACE: Final = 100
MAX_NAME: Final = 200


def language(
    request: Request,
    lang: Annotated[
        Lang | None,
        Query(description="fr or en; else the best of Accept-Language; else en."),
    ] = None,
) -> Lang:
    """The language of the answer (refusals, titles, check texts)."""
    return lang or request_lang(request)


Language = Annotated[Lang, Depends(language)]

_QUERY_NAMES: dict[int, frozenset[str]] = {}


def _query_names(dependant: Dependant) -> set[str]:
    """The query parameters a route (its dependencies with it) declares."""
    names = {field.alias for field in dependant.query_params}
    for sub in dependant.dependencies:
        names |= _query_names(sub)
    return names


def known_query(request: Request) -> None:
    """Refuse a query parameter the route does not declare (422): a misspelt ``?limt=5`` is not
    ignored, as a body's unknown field is not (the API's models forbid them). ``token`` is the
    security scheme's, allowed everywhere."""
    route = request.scope.get("route")
    if not isinstance(route, APIRoute):  # pragma: no cover - the API's routes are all APIRoutes
        return
    known = _QUERY_NAMES.get(id(route))
    if known is None:
        known = _QUERY_NAMES.setdefault(id(route), frozenset(_query_names(route.dependant)))
    unknown = sorted(set(request.query_params) - known - {"token"})
    if unknown:
        shown = ", ".join(repr(name[:40]) for name in unknown[:5])
        raise InputError(f"no such parameter: {shown}", where="query")


PROBLEM: Final[dict[str, Any]] = {
    "content": {MEDIA_TYPE: {"schema": PROBLEM_SCHEMA}},
    "description": "A problem (RFC 9457).",
}
ERRORS: Final[dict[int | str, dict[str, Any]]] = {
    code: PROBLEM for code in (401, 403, 404, 409, 413, 422)
}

router = APIRouter(dependencies=[Depends(language), Depends(known_query)], responses=ERRORS)


# ---------------------------------------------------------------------------------- models


STRICT: Final = ConfigDict(extra="forbid", strict=True)
"""The request bodies' models: no field the schema does not name, and each value of the type
it declares (``"5"`` or ``true`` is not an integer, ``0`` not a boolean): JSON has its types."""


class Options(BaseModel):
    """How a new encounter is played."""

    model_config = STRICT

    seed: int | None = Field(
        None, ge=0, le=MAX_SEED, description="Seed of its dice (else the scenario's, else drawn)."
    )
    dice: Literal["rolled", "given"] = Field(
        "rolled", description="rolled: seeded dice; given: the table's physical dice."
    )
    name: str | None = Field(
        None, min_length=1, max_length=MAX_NAME, description="Its name (else the scenario's)."
    )


class NewEncounter(Options):
    """A new encounter of a bundled scenario (``scenario``) or of a scenario's text."""

    scenario: str | None = Field(
        None, min_length=1, max_length=100, description="A bundled scenario's name."
    )
    text: str | None = Field(
        None, max_length=MAX_BYTES, description="A scenario file's text (YAML, TOML or JSON)."
    )
    format: Format | None = Field(None, description="The text's format (else by filename).")
    filename: str | None = Field(
        None, min_length=1, max_length=MAX_NAME, description="The file's name, for errors."
    )


class ActionRequest(BaseModel):
    """One live action, perhaps with the table's dice."""

    model_config = STRICT

    action: dict[str, Any] = Field(
        description="The action: `do` (one of " + ", ".join(ACTION_NAMES) + ", or one of "
        "the game's own plan actions), `actor` and "
        "its fields, as in a plan.",
        examples=[{"do": "move", "actor": "Kage", "to": [60, 12], "speed": "half"}],
    )
    dice: list[Annotated[int, Field(ge=1, le=MAX_FACE)]] | None = Field(
        None, max_length=MAX_DICE, description="The table's dice for the action's checks, in order."
    )
    expect_seq: int | None = Field(
        None, ge=1, le=MAX_SEQ, description="The record number this action must get (else 409)."
    )
    view: bool = Field(
        True,
        description="Answer with the GM's whole view after the action too (false: only the "
        "action's own record and events, for a client that follows the stream).",
    )


class UndoRequest(BaseModel):
    model_config = STRICT

    expect_seq: int | None = Field(None, ge=1, le=MAX_SEQ)


# ---------------------------------------------------------------------------------- helpers


def encounter_json(row: EncounterRow, *, gm: bool) -> dict[str, Any]:
    """An encounter as listed; its seed (which decides every roll to come) for the GM only."""
    shown: dict[str, Any] = {
        "id": row.id,
        "name": row.name,
        "ruleset": row.ruleset,
        "source": row.source,
        "dice": row.dice,
        "created": row.created.isoformat(),
        "archived": row.archived,
        "last_seq": row.last_seq,
    }
    if gm:
        shown["format"] = row.scenario_format
        shown["seed"] = row.seed
        shown["status"] = row.status
        shown["played"] = None if row.played is None else row.played.isoformat()
    return shown


def public_root(request: Request) -> str:
    """Where a player's phone reaches this server: the address ``vigile serve`` printed for
    the table (its LAN address when it listens on every interface), else the request's."""
    ctx: Context = request.app.state.vigile
    return (ctx.public_base or str(request.base_url)).rstrip("/")


def join_url(request: Request, encounter_id: str, token: str) -> str:
    """The link a viewer opens: the encounter's page with its token."""
    base = public_root(request)
    return f"{base}/encounters/{encounter_id}?token={quote(token, safe='')}"


def created(request: Request, encounter: Encounter, tokens: dict[str, str]) -> dict[str, Any]:
    players = {who: token for who, token in tokens.items() if who not in ("gm", "table")}
    return {
        "encounter": encounter_json(encounter.row, gm=True),
        "tokens": {"gm": tokens["gm"], "table": tokens["table"], "players": players},
        "urls": {
            "gm": join_url(request, encounter.id, tokens["gm"]),
            "table": join_url(request, encounter.id, tokens["table"]),
            "players": {who: join_url(request, encounter.id, t) for who, t in players.items()},
        },
    }


def create(
    ctx: Ctx,
    *,
    text: str,
    fmt: Format,
    source: str,
    options: Options,
) -> tuple[Encounter, dict[str, str]]:
    encounter, tokens = Encounter.create(
        ctx.store,
        text=text,
        fmt=fmt,
        source=source,
        seed=options.seed,
        dice=options.dice,
        name=options.name,
        most=limits.MAX_ENCOUNTERS,
    )
    return encounter, tokens


def target(viewer: Viewer, shown_as: str | None) -> tuple[Role, str | None]:
    """Whose view a request asks for: the token's own, or for the GM any (``?as=``)."""
    if shown_as is None:
        return viewer.role, viewer.character
    if viewer.role == "gm":
        if shown_as in ("gm", "table"):
            return shown_as, None  # type: ignore[return-value]
        return "player", shown_as
    if viewer.role == "player" and shown_as == viewer.character:
        return "player", shown_as
    if viewer.role == "table" and shown_as == "table":
        return "table", None
    raise forbidden("only the GM may see another viewer's view")


def checked_target(
    encounter: Encounter, viewer: Viewer, shown_as: str | None
) -> tuple[Role, str | None]:
    role, character = target(viewer, shown_as)
    if role == "player" and (character is None or character not in encounter.actor_names):
        raise InputError(f"no actor is called {character!r}", where="as")
    return role, character


AsParam = Annotated[
    str | None,
    Query(
        alias="as",
        min_length=1,
        max_length=MAX_NAME,
        description="The GM only: an actor's name, `table` or `gm`.",
    ),
]


# ---------------------------------------------------------------------------------- routes


@router.get("/health", tags=["server"])
def health() -> dict[str, str]:
    """The server answers."""
    return {"status": "ok"}


@router.get("/scenarios", tags=["encounters"])
def scenarios() -> dict[str, list[str]]:
    """The bundled scenarios an encounter may start from."""
    return {"scenarios": bundled_names()}


@router.post("/encounters", status_code=201, tags=["encounters"])
def create_encounter(
    body: NewEncounter, ctx: Ctx, _gm: ServerGM, request: Request
) -> dict[str, Any]:
    """A new encounter, from a bundled scenario or a scenario's text; its tokens and links.

    A scenario that does not validate is a 422 problem listing every error with its line and
    field, and stores nothing.
    """
    if (body.scenario is None) == (body.text is None):
        raise InputError("give either 'scenario' (a bundled name) or 'text'", where="scenario")
    if body.scenario is not None:
        path = bundled_path(body.scenario)
        text, fmt, source = path.read_text("utf-8"), "yaml", path.name
    else:
        assert body.text is not None
        source = body.filename or "scenario.yaml"
        text = body.text
        fmt = body.format or format_of_name(source)
    encounter, tokens = create(ctx, text=text, fmt=fmt, source=source, options=body)  # type: ignore[arg-type]
    return created(request, encounter, tokens)


def format_of_name(filename: str) -> Format:
    """A file's format by its name's suffix (YAML unless .json or .toml)."""
    return format_of(Path(filename))


@router.post("/encounters/upload", status_code=201, tags=["encounters"])
def upload_encounter(
    file: Annotated[UploadFile, File(description="A scenario file (YAML, TOML or JSON).")],
    ctx: Ctx,
    _gm: ServerGM,
    request: Request,
    seed: Annotated[int | None, Form(ge=0, le=MAX_SEED)] = None,
    dice: Annotated[Literal["rolled", "given"], Form()] = "rolled",
    name: Annotated[str | None, Form(min_length=1, max_length=MAX_NAME)] = None,
    format: Annotated[Format | None, Form()] = None,
) -> dict[str, Any]:
    """A new encounter from an uploaded scenario file (multipart), as ``POST /encounters``."""
    data = file.file.read(MAX_BYTES + 1)
    filename = (file.filename or "upload.yaml")[:MAX_NAME] or "upload.yaml"
    if len(data) > MAX_BYTES:
        raise InputError(f"larger than {MAX_BYTES // (1024 * 1024)} MiB", where=filename)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError("not UTF-8 text", where=filename) from None
    options = Options(seed=seed, dice=dice, name=name)
    fmt = format or format_of_name(filename)
    encounter, tokens = create(ctx, text=text, fmt=fmt, source=filename, options=options)
    return created(request, encounter, tokens)


@router.get("/encounters", tags=["encounters"])
def list_encounters(
    ctx: Ctx,
    _gm: ServerGM,
    archived: Annotated[bool, Query(description="The archived ones instead.")] = False,
    limit: Annotated[int, Query(ge=1, le=MAX_LIST)] = 100,
) -> dict[str, Any]:
    """The encounters, newest first."""
    rows = ctx.store.encounters(archived=archived, limit=limit + 1)  # one more: "more"
    return {
        "encounters": [encounter_json(row, gm=True) for row in rows[:limit]],
        "more": len(rows) > limit,
    }


@router.get("/encounters/{encounter_id}", tags=["encounters"])
def get_encounter(encounter_id: EncounterId, ctx: Ctx, viewer: AnyViewer) -> dict[str, Any]:
    """One encounter (its seed for the GM only)."""
    return encounter_json(ctx.store.encounter(encounter_id), gm=viewer.role == "gm")


@router.delete(
    "/encounters/{encounter_id}", status_code=204, response_class=Response, tags=["encounters"]
)
def archive_encounter(encounter_id: EncounterId, ctx: Ctx, _gm: GM) -> Response:
    """Archive the encounter: it can still be read, never played."""
    ctx.store.archive(encounter_id)
    ctx.forget(encounter_id)
    ctx.hub.notify(encounter_id)
    return Response(status_code=204)


@router.post("/encounters/{encounter_id}/actions", tags=["play"])
def post_action(
    encounter_id: EncounterId, body: ActionRequest, ctx: Ctx, _gm: GM, lang: Language
) -> dict[str, Any]:
    """Play one action (the GM only): its record's number, its events (each check with its
    verdict) and the GM's view after it.

    With the table's dice (an encounter with ``given`` dice) a missing die is a 409 problem
    whose ``needs`` says which die, who rolls it, and the check with its exact odds; nothing is
    stored: post the action again with one more die. A refused action (through a wall, too
    far, a dead or unknown actor) is a 409 problem naming why; a stale ``expect_seq`` too.
    """
    encounter = ctx.encounter(encounter_id)
    played = encounter.act(body.action, dice=body.dice, expect_seq=body.expect_seq)
    ctx.hub.notify(encounter.id)
    answer = {
        "seq": played.record.seq,
        "faces": played.record.payload.get("faces", []),
        "events": events_for(
            encounter.state(at_least=played.record.seq).game, "gm", None, played.events, lang
        ),
    }
    if body.view:
        answer["view"] = view(encounter, "gm", None, lang)
    return answer


@router.post("/encounters/{encounter_id}/undo", tags=["play"])
def post_undo(
    encounter_id: EncounterId,
    ctx: Ctx,
    _gm: GM,
    lang: Language,
    body: UndoRequest | None = None,
) -> dict[str, Any]:
    """Undo the latest action still in force (an ``undo`` record: nothing is deleted)."""
    encounter = ctx.encounter(encounter_id)
    played = encounter.undo(expect_seq=body.expect_seq if body is not None else None)
    ctx.hub.notify(encounter.id)
    return {
        "seq": played.record.seq,
        "undone": played.undone,
        "view": view(encounter, "gm", None, lang),
    }


@router.get("/encounters/{encounter_id}/view", tags=["play"])
def get_view(
    encounter_id: EncounterId,
    ctx: Ctx,
    viewer: AnyViewer,
    lang: Language,
    shown_as: AsParam = None,
    before: Annotated[
        int | None,
        Query(
            ge=0,
            le=2**31,
            description="The GM's log: the page of events before this index (``events_from`` "
            "of the page after it); the latest page without it.",
        ),
    ] = None,
) -> dict[str, Any]:
    """The token's own view: the GM's (everything, the awareness matrix too, and a page of
    the log: the latest events, ``events_from`` the index of the first), a character's (only
    what it perceives) or the table's. The GM may ask for any with ``?as=``."""
    encounter = ctx.encounter(encounter_id)
    role, character = checked_target(encounter, viewer, shown_as)
    return view(encounter, role, character, lang, before=before)


@router.get(
    "/encounters/{encounter_id}/stream",
    tags=["play"],
    response_class=StreamingResponse,
    responses={
        200: {"content": {"text/event-stream": {}}, "description": "SSE frames."},
        429: {
            **PROBLEM,
            "description": f"Over {MAX_STREAMS_PER_TOKEN} streams open for this token, or "
            f"{MAX_STREAMS} in all.",
        },
    },
)
def get_stream(
    encounter_id: EncounterId,
    ctx: Ctx,
    viewer: AnyViewer,
    token: Token,
    lang: Language,
    shown_as: AsParam = None,
    after: Annotated[
        int | None, Query(ge=0, le=MAX_SEQ, description="Resume after this record.")
    ] = None,
    last_event_id: Annotated[
        str | None, Header(max_length=32, description="Set by EventSource on reconnecting.")
    ] = None,
    news: Annotated[
        str | None,
        Query(
            max_length=200,
            pattern=r"^\d+\.[0-9a-f-]+\.[0-9a-f]+$",
            description="A character's page: the mark of the view it shows; its news come as "
            "`event: news` frames of HTML instead of `events`.",
        ),
    ] = None,
) -> StreamingResponse:
    """The viewer's live stream (Server-Sent Events): ``id:`` is the record's number;
    ``event: events`` the events of one record as this viewer is told them; ``event: view``
    the whole view (first, unless resuming, and after an undo); with ``?news=``, a
    character's page gets ``event: news``, its HTML fragment, instead of ``events``.
    ``Last-Event-ID`` or ``?after=`` resumes after a record: nothing is missed. A token may
    hold a few streams open at once and the server a few hundred in all: one more is a 429
    problem."""
    encounter = ctx.encounter(encounter_id)
    role, character = checked_target(encounter, viewer, shown_as)
    if last_event_id is not None and last_event_id.strip():
        try:
            after = int(last_event_id)
        except ValueError:
            raise InputError("must be a record number", where="Last-Event-ID") from None
        if not 0 <= after <= MAX_SEQ:
            raise InputError("must be a record number", where="Last-Event-ID")
    subscriber = Subscriber(encounter, role, character, lang)
    if news is not None:
        if character is None:
            raise InputError("only a character's stream sends a page's news", where="news")
        subscriber.news, subscriber.mark = ctx.page_news, news
    assert token is not None  # the viewer was found by it
    release = ctx.hub.open_stream(token)  # the last thing that may fail: it is given back
    return Stream(
        stream(subscriber, ctx.store, ctx.hub, after),
        release,
        media_type="text/event-stream",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )
