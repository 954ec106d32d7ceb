"""The pages of ``vigile serve``: the GM's table, a page per character, the table's
view, the check calculator and the list of encounters. Server-rendered HTML (Jinja2) with
htmx fragments and a little script of our own (static/vigile.js); no build step.

The server decides what each viewer sees: every page and fragment is rendered here from
:mod:`vigile.live`'s views (the GM's, one character's, the table's), with the token the
request presents (``?token=`` in a join link, then ``Authorization: Bearer`` on the page's own
requests). A player's page holds nothing its character does not know: not in the map, not in
the markup, not in the stream it listens to (the API's, :mod:`vigile.web.sse`, filtered per
viewer).

::

    GET  /                                 encounters (the server's token): start, resume, archive
    POST /encounters                       start one (a bundled scenario or an uploaded file)
    POST /encounters/{id}/archive
    GET  /encounters/{id}                  the GM's table (a player's or the table's token:
                                           redirected to its own page)
    GET  /encounters/{id}/panels           the GM's map, status, who-knows-what and log
    POST /encounters/{id}/preview          the checks an action would trigger, with their odds
    POST /encounters/{id}/dice             play on with vigile's dice or the table's
    POST /encounters/{id}/act              play it (rolled, or the table's dice check by check)
    POST /encounters/{id}/undo
    POST /encounters/{id}/joins            new join links (and QR codes) for every character
    GET  /play/{id}, /play/{id}/panel      a character's page
    GET  /table/{id}, /table/{id}/panel    the table's view
    GET  /checks, /checks/result           the check calculator
"""

from __future__ import annotations

import dataclasses
import json
import secrets
from collections.abc import Mapping
from pathlib import Path, PurePath
from typing import Annotated, Any, Final
from urllib.parse import urlencode

from fastapi import APIRouter, Depends, HTTPException, Query, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates
from starlette.datastructures import FormData, UploadFile

from vigile.engine.live import DEFENDER_NAMES, NeedDice, Refusal
from vigile.errors import InputError, VigileError
from vigile.io.i18n import Lang
from vigile.live import Encounter, character_view, gm_view, needs_json, table_view
from vigile.live.encounter import MAX_DICE, Replayed
from vigile.live.views import character_news, events_for, view_mark
from vigile.scene.actors import Side
from vigile.scene.loader import ScenarioValidationError, bundled_names, bundled_path
from vigile.scene.reading import MAX_BYTES, format_of

from . import checks as check_api
from . import limits, mapsvg, pageplay, pagetext
from .api import public_root
from .auth import Viewer, encounter_viewer, is_server_token, presented
from .context import Context, context
from .language import request_lang

HERE: Final = Path(__file__).parent
STATIC: Final = HERE / "static"
templates = Jinja2Templates(directory=str(HERE / "templates"))
templates.env.auto_reload = False  # the templates are the package's: no stat of each at each page
templates.env.filters["chance"] = lambda value, lang: pagetext.chance(value, lang)
templates.env.filters["measure"] = lambda value, unit, lang: pagetext.measure(value, unit, lang)
templates.env.filters["number"] = lambda value, lang: pagetext.number(value, lang)
templates.env.filters["point"] = lambda value, lang: pagetext.point(value, lang)
templates.env.filters["term"] = lambda value, lang: pagetext.term(value, lang)
templates.env.filters["placeholder"] = lambda option, lang: pagetext.placeholder(option, lang)
templates.env.filters["tojson_attr"] = lambda value: json.dumps(value, ensure_ascii=False)

MAX_DIE: Final = 100
"""Sides of a die, and the largest face, typed or rolled on a page."""
MAX_FACES: Final = MAX_DICE
"""Faces in one form's ``dice`` (an action's dice, as the API takes)."""
MAX_SEED: Final = 2**63 - 1

router = APIRouter(include_in_schema=False)
Ctx = Annotated[Context, Depends(context)]


class Denied(Exception):
    """The request's token does not open this page."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


# ------------------------------------------------------------------------------ helpers


def token_of(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, credentials = header.partition(" ")
    from_header = credentials.strip() if scheme.lower() == "bearer" else None
    return presented(None, from_header or request.query_params.get("token"))


def viewer_of(ctx: Context, request: Request, encounter_id: str) -> tuple[Viewer, str]:
    """Who the request speaks for in this encounter, and its token."""
    token = token_of(request)
    try:
        viewer = encounter_viewer(ctx, token, encounter_id)
    except HTTPException as error:
        raise Denied(error.status_code, str(error.detail)) from None
    assert token is not None
    return viewer, token


def base(request: Request, lang: Lang, **extra: Any) -> dict[str, Any]:
    """What every template is given."""
    other = Lang.EN if lang is Lang.FR else Lang.FR
    return {
        "request": request,
        "lang": lang,
        "t": pagetext.translator(lang),
        "other_lang": other,
        "switch_url": str(request.url.include_query_params(lang=other.value)),
        **extra,
    }


def render(
    request: Request, name: str, lang: Lang, status: int = 200, **context: Any
) -> HTMLResponse:
    response = templates.TemplateResponse(
        request, name, base(request, lang, **context), status_code=status
    )
    response.headers["Content-Language"] = lang.value
    response.headers["Cache-Control"] = "no-store"
    return response


def error_page(request: Request, lang: Lang, status: int, message: str) -> HTMLResponse:
    return render(request, "error.html", lang, status=status, message=message)


def fragment_error(request: Request, lang: Lang, message: str) -> HTMLResponse:
    """An error shown where the fragment would go (htmx swaps 200 answers only)."""
    return render(request, "_alert.html", lang, message=message)


def guarded(request: Request, lang: Lang, error: Exception, *, fragment: bool) -> HTMLResponse:
    if isinstance(error, Denied):
        status, message = error.status, str(error)
    elif isinstance(error, pageplay.FormError):  # a value typed wrong: in the page's language
        status, message = 422, error.said(lang)
    elif isinstance(error, VigileError):
        status, message = int(getattr(error, "status", 0) or 422), str(error)
    else:  # pragma: no cover - only Denied and VigileError are passed here
        raise error
    if fragment:
        return fragment_error(request, lang, message)
    return error_page(request, lang, status, message)


async def form_of(request: Request) -> FormData:
    """The request's form (close it: an uploaded file is a temporary file)."""
    return await request.form(max_files=1, max_fields=200)


async def fields_of(request: Request) -> dict[str, str]:
    """The form's text fields (files dropped)."""
    form = await form_of(request)
    try:
        return {key: value for key, value in form.items() if isinstance(value, str)}
    finally:
        await form.close()


def query(lang: Lang, **params: object) -> str:
    """``?lang=fr&...`` for the pages' own links (the token travels in a header)."""
    shown = {"lang": lang.value, **{k: v for k, v in params.items() if v not in (None, "")}}
    return "?" + urlencode(shown)


# ------------------------------------------------------------------------------ the list


@router.get("/", response_class=HTMLResponse)
def index(request: Request, ctx: Ctx, archived: bool = False) -> HTMLResponse:
    """The encounters (the server's token): start one, resume one, archive one."""
    lang = request_lang(request)
    token = token_of(request)
    if not is_server_token(ctx, token):
        return render(request, "login.html", lang, status=401 if token else 200, wrong=bool(token))
    return list_page(request, ctx, lang, token or "", archived=archived)


def list_page(
    request: Request,
    ctx: Context,
    lang: Lang,
    token: str,
    *,
    archived: bool = False,
    errors: list[dict[str, Any]] | None = None,
    message: str | None = None,
    status: int = 200,
) -> HTMLResponse:
    rows = ctx.store.encounters(archived=archived)
    return render(
        request,
        "index.html",
        lang,
        status=status,
        token=token,
        rows=rows,
        archived=archived,
        scenarios=bundled_names(),
        errors=errors or [],
        message=message,
    )


@router.post("/encounters", response_class=HTMLResponse)
async def start(request: Request, ctx: Ctx) -> Response:
    """A new encounter from a bundled scenario or an uploaded file; its GM page."""
    lang = request_lang(request)
    form = await form_of(request)
    try:
        return await _start(request, ctx, lang, form)
    finally:
        await form.close()


async def _start(request: Request, ctx: Context, lang: Lang, form: FormData) -> Response:
    token = str(form.get("token") or "") or token_of(request) or ""
    if not is_server_token(ctx, token):
        return error_page(request, lang, 401, pagetext.text("need_server_token", lang))
    upload = form.get("file")
    dice = str(form.get("dice") or "rolled")
    seed_text = str(form.get("seed") or "").strip()
    name = str(form.get("name") or "").strip() or None
    try:
        # a blank seed draws a fresh one (shown on the GM page): a new raid rolls new dice,
        # where the scenario's own seed would repeat the last raid's patrols
        seed = (
            pageplay.whole(seed_text, "seed", 0, MAX_SEED)
            if seed_text
            else secrets.randbelow(MAX_SEED + 1)
        )
    except InputError:
        message = pagetext.text("bad_seed", lang)
        return list_page(request, ctx, lang, token, message=message, status=422)
    try:
        if dice not in ("rolled", "given"):
            raise InputError("rolled or given", where="dice")
        if isinstance(upload, UploadFile) and upload.filename:
            data = await upload.read(MAX_BYTES + 1)
            source = upload.filename[:200]
            if len(data) > MAX_BYTES:
                raise InputError(f"larger than {MAX_BYTES // (1024 * 1024)} MiB", where=source)
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                raise InputError("not UTF-8 text", where=source) from None
            fmt = format_of(Path(PurePath(source).name))
        else:
            path = bundled_path(str(form.get("scenario") or ""))
            text, fmt, source = path.read_text("utf-8"), "yaml", path.name
        encounter, _ = Encounter.create(
            ctx.store,
            text=text,
            fmt=fmt,
            source=source,
            seed=seed,
            dice=dice,
            name=name,
            most=limits.MAX_ENCOUNTERS,
        )
    except ScenarioValidationError as error:
        errors = [
            {"file": e.file, "line": e.line, "field": e.field, "message": e.message}
            for e in error.errors
        ]
        return list_page(request, ctx, lang, token, errors=errors, status=422)
    except VigileError as error:
        return list_page(request, ctx, lang, token, message=str(error), status=422)
    target = f"/encounters/{encounter.id}?" + urlencode({"token": token, "lang": lang.value})
    return RedirectResponse(target, status_code=303)


@router.post("/encounters/{encounter_id}/archive")
async def archive(request: Request, ctx: Ctx, encounter_id: str) -> Response:
    lang = request_lang(request)
    form = await fields_of(request)
    token = form.get("token") or token_of(request) or ""
    if not is_server_token(ctx, token):
        return error_page(request, lang, 401, pagetext.text("need_server_token", lang))
    try:
        ctx.store.archive(encounter_id)
    except VigileError as error:
        return error_page(request, lang, int(getattr(error, "status", 0) or 404), str(error))
    ctx.forget(encounter_id)
    ctx.hub.notify(encounter_id)
    return RedirectResponse("/?" + urlencode({"token": token, "lang": lang.value}), status_code=303)


# ------------------------------------------------------------------------------ the GM's table


def gm_context(
    request: Request, ctx: Context, encounter: Encounter, lang: Lang, overlay: str | None
) -> dict[str, Any]:
    """The GM's map, status, who-knows-what and log."""
    with encounter.reading() as replayed:
        shown = gm_view(encounter, replayed, lang)
        game = replayed.game
        model = mapsvg.board_layers(
            encounter.scenario, game.board, open_doors=frozenset(game.board.open_doors)
        )
        mapsvg.gm_tokens(model, game, shown)
        words = pageplay.game_forms(encounter.scenario.ruleset, lang.value)
        overlay_error = None
        if overlay in {name for name, _ in words.overlays}:
            try:
                model.overlay = overlay_of(encounter, game, overlay)
            except InputError as error:
                overlay_error = str(error)
    model.clickable = True
    sides = {a["name"]: a["side"] for a in shown["actors"]}
    observers = [a["name"] for a in shown["actors"] if a["side"] == Side.DEFENDERS.value]
    intruders = [a["name"] for a in shown["actors"] if a["side"] == Side.ATTACKERS.value]
    return {
        "encounter": encounter,
        "view": shown,
        "map": model,
        "overlay": overlay,
        "overlay_error": overlay_error,
        "attitudes": words.overlays,
        "words": words,
        "sides": sides,
        "observers": observers,
        "short": mapsvg.initials(a["name"] for a in shown["actors"]),
        "intruders": intruders,
        "letters": {s: pagetext.awareness_letter(s, lang) for s in pagetext.LADDER},
        "ladder": pagetext.LADDER,
        "q": query(lang, overlay=overlay),
        "archived": encounter.row.archived or ctx.store.encounter(encounter.id).archived,
    }


_overlays: dict[tuple[Any, ...], dict[str, Any]] = {}


def overlay_of(encounter: Encounter, game: Any, attitude: str) -> dict[str, Any]:
    """The risk overlay from where the guards stand now (not where the scenario starts
    them: :func:`mapsvg.scenario_now`), computed once per attitude and board state."""
    key = (encounter.id, attitude, mapsvg.now_key(game))
    found = _overlays.get(key)
    if found is None:
        found = mapsvg.risk_overlay(mapsvg.scenario_now(encounter.scenario, game), attitude)
        if len(_overlays) > 64:
            _overlays.clear()
        _overlays[key] = found
    return found


@router.get("/encounters/{encounter_id}", response_class=HTMLResponse)
def gm_page(request: Request, ctx: Ctx, encounter_id: str) -> Response:
    """The GM's table; a player's or the table's token goes to its own page."""
    lang = request_lang(request)
    try:
        viewer, token = viewer_of(ctx, request, encounter_id)
        if viewer.role != "gm":
            page = "play" if viewer.role == "player" else "table"
            params = urlencode({"token": token, "lang": lang.value})
            return RedirectResponse(f"/{page}/{encounter_id}?{params}", status_code=303)
        encounter = ctx.encounter(encounter_id)
        overlay = request.query_params.get("overlay")
        data = gm_context(request, ctx, encounter, lang, overlay)
    except (Denied, VigileError) as error:
        return guarded(request, lang, error, fragment=False)
    game = encounter.game
    doors = sorted(game.board.door_index)
    forms = pageplay.with_doors(data["words"].forms, doors)  # no door on the map: no door action
    return render(
        request,
        "gm.html",
        lang,
        token=token,
        server=viewer.server,
        forms=forms,
        point_actions=[f.do for f in forms.values() if any(x.kind == "point" for x in f.fields)],
        actor_actions=[f.do for f in forms.values() if f.needs_actor],
        action_names=[n for n in forms if n != "end-turn"],
        living_intruders=[w.name for w in game.intruders() if w.alive],
        defender_actions=list(DEFENDER_NAMES),  # LP-6: the actor is a defender
        living_defenders=[w.name for w in game.defenders() if w.alive],
        all_actors=[w.name for w in game.walkers],
        doors=doors,
        stream=stream_url(encounter.id, token, lang, data["view"], {}),
        **data,
    )


@router.get("/encounters/{encounter_id}/panels", response_class=HTMLResponse)
def gm_panels(request: Request, ctx: Ctx, encounter_id: str) -> Response:
    lang = request_lang(request)
    try:
        viewer_gm(ctx, request, encounter_id)
        encounter = ctx.encounter(encounter_id)
        data = gm_context(request, ctx, encounter, lang, request.query_params.get("overlay"))
    except (Denied, VigileError) as error:
        return guarded(request, lang, error, fragment=True)
    shown = data["map"]  # the board the page shows, no overlay on it: its tokens alone
    kept = request.query_params.get("board") == shown.board_mark and shown.overlay is None
    return render(
        request, "_gm_panels.html", lang, board_kept=kept and not data["overlay_error"], **data
    )


@router.get("/encounters/{encounter_id}/log", response_class=HTMLResponse)
def gm_log_page(
    request: Request,
    ctx: Ctx,
    encounter_id: str,
    before: Annotated[int, Query(ge=0, le=2**31)],
) -> Response:
    """A page of the GM's log: the events before the index ``before`` (the log shows the
    latest; each page ends with the button for the one before it)."""
    lang = request_lang(request)
    try:
        viewer_gm(ctx, request, encounter_id)
        encounter = ctx.encounter(encounter_id)
        with encounter.reading() as replayed:
            shown = gm_view(encounter, replayed, lang, before=before)
    except (Denied, VigileError) as error:
        return guarded(request, lang, error, fragment=True)
    words = pageplay.game_forms(encounter.scenario.ruleset, lang.value)  # its turn's word
    return render(request, "_log_page.html", lang, encounter=encounter, view=shown, words=words)


def viewer_gm(ctx: Context, request: Request, encounter_id: str) -> Viewer:
    viewer, _ = viewer_of(ctx, request, encounter_id)
    if viewer.role != "gm":
        raise Denied(403, f"only the GM may do this; this token is the {viewer.role}'s")
    return viewer


def _action(fields: Mapping[str, str]) -> dict[str, Any]:
    """The action: a JSON ``action`` field (a dice prompt's), else built from the form."""
    given = fields.get("action")
    if given:
        pageplay.check_json(given, "action")
        try:
            data = json.loads(given)
        except json.JSONDecodeError:
            raise InputError("not JSON", where="action") from None
        if not isinstance(data, dict):
            raise InputError("an action is an object", where="action")
        return data
    return pageplay.action_from_form(fields)


def _dice(text: str) -> list[int]:
    """Dice faces typed in a form, ``4,2`` or ``4 2``: each a whole number from 1 to
    :data:`MAX_DIE` in ASCII digits, at most :data:`MAX_FACES` of them."""
    parts = [part for part in text.replace(" ", ",").split(",") if part.strip()]
    if len(parts) > MAX_FACES:
        raise InputError(f"at most {MAX_FACES} dice", where="dice")
    return [pageplay.whole(part, "dice", 1, MAX_DIE) for part in parts]


@router.post("/encounters/{encounter_id}/preview", response_class=HTMLResponse)
async def preview(request: Request, ctx: Ctx, encounter_id: str) -> Response:
    """The checks the action in the form would trigger, each with its exact odds."""
    lang = request_lang(request)
    fields = await fields_of(request)
    try:
        viewer_gm(ctx, request, encounter_id)
        encounter = ctx.encounter(encounter_id)
        data = _action(fields)
        then_end = fields.get("then_end") == "1"  # the GM's form: and the end of the turn
        lacking = None if fields.get("action") else pageplay.missing(data, lang)
        if lacking:
            shown = pageplay.Preview(action=data, error=lacking)
        else:
            shown = pageplay.preview(encounter, data, lang, then_end=then_end)
    except (Denied, VigileError) as error:
        return guarded(request, lang, error, fragment=True)
    return render(request, "_preview.html", lang, preview=shown, dice=encounter.row.dice)


@router.get("/encounters/{encounter_id}/reach")
def reach(request: Request, ctx: Ctx, encounter_id: str) -> Response:
    """What is left of an actor's move this turn, as the game says (the map's ruler draws it
    round the actor as a range): JSON."""
    lang = request_lang(request)
    params = request.query_params
    try:
        viewer_gm(ctx, request, encounter_id)
        encounter = ctx.encounter(encounter_id)
        found = pageplay.reach(
            encounter,
            params.get("actor", ""),
            params.get("speed", ""),
            params.get("run", "") in ("on", "true", "1"),
            lang,
        )
    except Denied as error:
        return JSONResponse({"error": str(error)}, status_code=error.status)
    except VigileError as error:
        return JSONResponse({"error": str(error)}, status_code=422)
    return JSONResponse(dataclasses.asdict(found))


@router.post("/encounters/{encounter_id}/act", response_class=HTMLResponse)
async def act(request: Request, ctx: Ctx, encounter_id: str) -> Response:
    """Play the action. With the table's dice, each missing die is asked for in turn (the
    check it is for, with its odds); ``roll`` draws the next one here instead."""
    lang = request_lang(request)
    fields = await fields_of(request)
    try:
        viewer_gm(ctx, request, encounter_id)
        encounter = ctx.encounter(encounter_id)
        data = _action(fields)
        lacking = None if fields.get("action") else pageplay.missing(data, lang)
        if lacking:
            return fragment_error(request, lang, lacking)
        dice = _dice(fields.get("dice", ""))
        bearings = pageplay.bearings(fields.get("bearings", ""))
        typed = fields.get("die", "").strip()
        wrong = None  # a die typed wrong: the same prompt again, saying why
        if fields.get("roll") and fields.get("kind") == "scatter":
            bearings.append(float(secrets.randbelow(360)))
        elif fields.get("roll"):
            sides = pageplay.whole(fields.get("sides", ""), "sides", 1, MAX_DIE)
            count = pageplay.whole(fields.get("count", "1") or "1", "count", 1, MAX_FACES)
            dice.extend(1 + secrets.randbelow(sides) for _ in range(count))
        elif typed:
            try:
                if fields.get("kind") == "scatter":
                    bearings.extend(pageplay.bearings(typed))
                else:
                    dice.extend(pageplay.faces(typed, fields.get("sides", "")))
            except InputError:
                wrong = typed  # said again with the prompt's own words, below
        try:  # the table's dice check by check, its patrols' scatter dice too (bearings)
            played = encounter.act(data, dice=dice or None, bearings=bearings)
        except NeedDice as need:
            count = 1 if need.kind == "scatter" else encounter.pool_left(data, dice, bearings)
            if wrong is not None:
                wrong = pagetext.text("die_wrong", lang, typed=wrong[:40], expected=_expected(
                    need.kind, count, need.sides, lang))  # fmt: skip
            return render(
                request,
                "_dice.html",
                lang,
                encounter=encounter,
                action=json.dumps(data, ensure_ascii=False),
                dice=",".join(str(d) for d in dice),
                given=dice,
                bearings=pageplay.bearings_text(bearings),
                given_bearings=bearings,
                needs=needs_json(need, lang),
                kind=need.kind,
                members=need.members,
                rule=need.rule,
                count=count,
                wrong=wrong,
                q=query(lang, overlay=fields.get("overlay")),
            )
        except Refusal as refusal:
            return fragment_error(request, lang, pageplay.refusal_text(refusal, lang))
        ctx.hub.notify(encounter.id)
        events = events_for(
            encounter.state(at_least=played.record.seq).game, "gm", None, played.events, lang
        )
        panels = gm_context(request, ctx, encounter, lang, fields.get("overlay"))
    except (Denied, VigileError) as error:
        return guarded(request, lang, error, fragment=True)
    return render(
        request,
        "_played.html",
        lang,
        events=events,
        faces=played.record.payload.get("faces", []),
        seq=played.record.seq,
        **panels,
    )


def _expected(kind: str, count: int, sides: int, lang: Lang) -> str:
    """What a dice prompt's field takes, in the prompt's own words (its label)."""
    if kind == "scatter":
        return pagetext.text("bearing_face", lang)
    if count > 1:
        return pagetext.text("pool_faces", lang, count=count, sides=sides)
    return pagetext.text("die_face", lang, sides=sides)


@router.post("/encounters/{encounter_id}/undo", response_class=HTMLResponse)
async def undo(request: Request, ctx: Ctx, encounter_id: str) -> Response:
    lang = request_lang(request)
    fields = await fields_of(request)
    try:
        viewer_gm(ctx, request, encounter_id)
        encounter = ctx.encounter(encounter_id)
        played = encounter.undo()
        ctx.hub.notify(encounter.id)
        panels = gm_context(request, ctx, encounter, lang, fields.get("overlay"))
        what = undone_words(ctx, encounter, played.undone, lang)
    except (Denied, VigileError) as error:
        return guarded(request, lang, error, fragment=True)
    return render(request, "_undone.html", lang, undone=played.undone, what=what, **panels)


@router.post("/encounters/{encounter_id}/dice", response_class=HTMLResponse)
async def switch_dice(request: Request, ctx: Ctx, encounter_id: str) -> Response:
    """Play on with vigile's dice or the table's (a ``dice`` record): the page reloads, its
    buttons and prompts following the dice now played."""
    lang = request_lang(request)
    fields = await fields_of(request)
    try:
        viewer_gm(ctx, request, encounter_id)
        encounter = ctx.encounter(encounter_id)
        encounter.set_dice(fields.get("dice", ""))
        ctx.hub.notify(encounter.id)
    except (Denied, VigileError) as error:
        return guarded(request, lang, error, fragment=True)
    return HTMLResponse("", headers={"HX-Refresh": "true"})


def undone_words(ctx: Context, encounter: Encounter, seq: int | None, lang: Lang) -> str:
    """What an undo took back, in the GM's words: who did what, to whom or where
    (``Kage: move → (60, 10)``; in French ``(60,5 ; 10)``)."""
    if seq is None:
        return ""
    found = ctx.store.records(encounter.id, after=seq - 1, upto=seq)
    if not found or not isinstance(found[0].payload.get("action"), dict):
        return ""
    action: dict[str, Any] = found[0].payload["action"]
    said = pagetext.text(f"do.{action.get('do')}", lang)
    actor = action.get("actor")
    parts = [pagetext.text("undone_who", lang, who=actor, what=said) if actor else said]
    for key in ("target", "door", "at", "to"):
        value = action.get(key)
        if isinstance(value, list):
            value = pagetext.point([float(v) for v in value], lang)
        if value is not None:
            parts.append(f"→ {value}")
    if action.get("speed"):
        parts.append(pagetext.term(str(action["speed"]), lang))
    return " ".join(parts)


@router.post("/encounters/{encounter_id}/joins", response_class=HTMLResponse)
def joins(request: Request, ctx: Ctx, encounter_id: str) -> Response:
    """New join links for the table and every character (the store keeps only the tokens'
    digests: a link is shown once, here; the links made before stay valid)."""
    lang = request_lang(request)
    try:
        viewer_gm(ctx, request, encounter_id)
        encounter = ctx.encounter(encounter_id)
        root = public_root(request)
        links: list[dict[str, Any]] = []
        table = ctx.store.create_token(encounter.id, "table")
        shared = pagetext.text("table", lang)
        links.append(join("table", f"{root}/table/{encounter.id}", table, lang, shared))
        for actor in encounter.scenario.actors:
            token = ctx.store.create_token(encounter.id, "player", actor.name)
            page = f"{root}/play/{encounter.id}"
            links.append(join(actor.side.value, page, token, lang, actor.name))
    except (Denied, VigileError) as error:
        return guarded(request, lang, error, fragment=True)
    return render(request, "_joins.html", lang, links=links)


def join(side: str, page: str, token: str, lang: Lang, who: str) -> dict[str, Any]:
    url = f"{page}?" + urlencode({"token": token, "lang": lang.value})
    return {"who": who, "side": side, "url": url, "qr": qr_svg(url)}


def qr_svg(url: str) -> str | None:
    """The link as an inline SVG QR code (segno), or None when segno is missing."""
    try:
        import segno
    except ImportError:  # pragma: no cover - segno is a dependency of the pages
        return None
    code = segno.make(url, error="m")
    svg: str = code.svg_inline(scale=2, border=2, dark="#000", light="#fff", omitsize=True)
    return svg


# ------------------------------------------------------------------------------ a character's page


def stream_url(
    encounter_id: str,
    token: str,
    lang: Lang,
    shown: dict[str, Any],
    as_param: dict[str, str],
    mark: str | None = None,
) -> str:
    """The page's live stream, resuming after the view it was drawn with (``after``, in the
    viewer's own sequence): an action played before the stream connects is still sent. A
    character's page gives the ``mark`` of what it shows: its stream sends its news
    (:func:`page_news`)."""
    news = {} if mark is None else {"news": mark}
    return f"/api/v1/encounters/{encounter_id}/stream?" + urlencode(
        {"token": token, "lang": lang.value, **as_param, "after": int(shown["seq"]), **news}
    )


def player_context(
    encounter: Encounter, name: str, lang: Lang, after: str | None = None
) -> dict[str, Any]:
    """A character's page; ``after``: the mark of the view its page shows (``news``: only
    what changed since, :func:`vigile.live.views.character_news`)."""
    with encounter.reading() as replayed:
        return _player_data(encounter, replayed, name, lang, after)


def page_news(
    encounter: Encounter, replayed: Replayed, name: str, lang: Lang, mark: str
) -> tuple[str, str] | None:
    """A character page's news after ``mark``, for its stream (:data:`vigile.web.sse.PageNews`):
    ``_play_news.html`` and the page's mark after it; None where the page needs its panel
    again. The page then asks nothing: its news come with the stream's frame."""
    data = _player_data(encounter, replayed, name, lang, mark)
    if not data["news"]:
        return None
    page = templates.get_template("_play_news.html")
    html = page.render({"lang": lang, "t": pagetext.translator(lang), **data})
    return html, str(data["mark"])


def _player_data(
    encounter: Encounter, replayed: Replayed, name: str, lang: Lang, after: str | None
) -> dict[str, Any]:
    news = None if after is None else character_news(encounter, replayed, name, lang, after)
    shown = news or character_view(encounter, replayed, name, lang)
    model = mapsvg.board_layers(encounter.scenario, replayed.game.board)
    mapsvg.character_tokens(model, replayed.game, shown)
    return {
        "view": shown,
        "map": model,
        "news": news is not None,
        "mark": shown["mark"] if news is not None else view_mark(shown),
        "letters": {s: pagetext.awareness_letter(s, lang) for s in pagetext.LADDER},
    }


@router.get("/play/{encounter_id}", response_class=HTMLResponse)
def play_page(request: Request, ctx: Ctx, encounter_id: str) -> Response:
    """A character's page: what it knows, live."""
    lang = request_lang(request)
    try:
        viewer, token = viewer_of(ctx, request, encounter_id)
        encounter = ctx.encounter(encounter_id)
        name = viewer.character or request.query_params.get("as")
        if viewer.role == "table" or name is None:
            raise Denied(403, pagetext.text("not_a_character", lang))
        if viewer.role == "player" and name != viewer.character:
            raise Denied(403, pagetext.text("not_a_character", lang))
        if name not in encounter.actor_names:
            raise InputError(f"no actor is called {name!r}", where="as")
        data = player_context(encounter, name, lang)
    except (Denied, VigileError) as error:
        return guarded(request, lang, error, fragment=False)
    as_param = {"as": name} if viewer.role == "gm" else {}
    return render(
        request,
        "play.html",
        lang,
        token=token,
        encounter_id=encounter.id,
        stream=stream_url(encounter.id, token, lang, data["view"], as_param, data["mark"]),
        q=query(lang, **as_param),
        **data,
    )


@router.get("/play/{encounter_id}/panel", response_class=HTMLResponse)
def play_panel(request: Request, ctx: Ctx, encounter_id: str) -> Response:
    lang = request_lang(request)
    try:
        viewer, _ = viewer_of(ctx, request, encounter_id)
        encounter = ctx.encounter(encounter_id)
        name = viewer.character if viewer.role == "player" else None
        if viewer.role == "gm":
            name = request.query_params.get("as")
        if name is None or name not in encounter.actor_names:
            raise Denied(403, pagetext.text("not_a_character", lang))
        data = player_context(encounter, name, lang, request.query_params.get("after"))
    except (Denied, VigileError) as error:
        return guarded(request, lang, error, fragment=True)
    if data["news"]:  # its parts, each out of band: the page's board stays as it is
        response = render(request, "_play_news.html", lang, **data)
        response.headers["HX-Reswap"] = "none"
        return response
    return render(request, "_play_panel.html", lang, **data)


# ------------------------------------------------------------------------------ the table's view


def table_context(encounter: Encounter, lang: Lang) -> dict[str, Any]:
    with encounter.reading() as replayed:
        shown = table_view(encounter, replayed, lang)
        model = mapsvg.board_layers(encounter.scenario, replayed.game.board)
    mapsvg.table_tokens(model, shown)
    return {"view": shown, "map": model}


@router.get("/table/{encounter_id}", response_class=HTMLResponse)
def table_page(request: Request, ctx: Ctx, encounter_id: str) -> Response:
    lang = request_lang(request)
    try:
        viewer, token = viewer_of(ctx, request, encounter_id)
        if viewer.role == "player":
            raise Denied(403, pagetext.text("not_the_table", lang))
        encounter = ctx.encounter(encounter_id)
        data = table_context(encounter, lang)
    except (Denied, VigileError) as error:
        return guarded(request, lang, error, fragment=False)
    as_param = {"as": "table"} if viewer.role == "gm" else {}
    return render(
        request,
        "table.html",
        lang,
        token=token,
        encounter=encounter,
        stream=stream_url(encounter.id, token, lang, data["view"], as_param),
        q=query(lang),
        **data,
    )


@router.get("/table/{encounter_id}/panel", response_class=HTMLResponse)
def table_panel(request: Request, ctx: Ctx, encounter_id: str) -> Response:
    lang = request_lang(request)
    try:
        viewer, _ = viewer_of(ctx, request, encounter_id)
        if viewer.role == "player":
            raise Denied(403, pagetext.text("not_the_table", lang))
        data = table_context(ctx.encounter(encounter_id), lang)
    except (Denied, VigileError) as error:
        return guarded(request, lang, error, fragment=True)
    return render(request, "_table_panel.html", lang, **data)


# ------------------------------------------------------------------------------ the calculator


def calculator_state(params: Mapping[str, str], lang: Lang) -> dict[str, Any]:
    """The calculator's state from the query: ``game``, ``check``, ``o.<option>``, ``seed``,
    ``dice``, ``view``; the checks as the API lists them, their help in ``lang``."""
    listing = check_api.listing(lang)["games"]
    games = {g["name"]: g for g in listing}
    game = params.get("game") or (listing[0]["name"] if listing else "")
    if game not in games:
        game = listing[0]["name"]
    checks = {c["name"]: c for c in games[game]["checks"]}
    name = params.get("check") or next(iter(checks))
    if name not in checks:
        name = next(iter(checks))
    check = checks[name]
    values = {o["name"]: params.get(f"o.{o['name']}", "") for o in check["options"]}
    return {
        "games": listing,
        "game": games[game],
        "check": check,
        "values": values,
        "seed": params.get("seed", ""),
        "dice": params.get("dice", ""),
        "view": params.get("view", "gm"),
    }


def _option_value(option: Mapping[str, Any], text: str) -> object:
    if option["type"] == "boolean":
        return text in ("on", "true", "1")
    if option["multiple"]:
        return [part.strip() for part in text.split(";") if part.strip()]
    try:  # a number in ASCII digits; anything else goes as typed, for the check to explain
        if option["type"] == "integer":
            sign = -1 if text.startswith("-") else 1
            return sign * pageplay.whole(text.removeprefix("-"), option["name"], 0, MAX_SEED)
        if option["type"] == "number":
            return pageplay.number(text, option["name"])
    except InputError:
        return text
    return text


def calculate(state: Mapping[str, Any], lang: Lang) -> tuple[dict[str, Any] | None, str | None]:
    """The check's JSON (``vigile check --json``'s own, through the check API), or the
    error it makes."""
    check = state["check"]
    options: dict[str, Any] = {}
    for option in check["options"]:
        text = state["values"].get(option["name"], "").strip()
        if text == "" or (option["type"] == "boolean" and text not in ("on", "true", "1")):
            continue
        options[option["name"]] = _option_value(option, text)
    missing = [o["name"] for o in check["options"] if o["required"] and o["name"] not in options]
    if missing:
        return None, pagetext.text("calc.missing", lang, names=", ".join(missing))
    body: dict[str, Any] = {"options": options, "lang": lang.value}
    fields = check["fields"]
    try:
        if state["seed"].strip() and "seed" in fields:
            body["seed"] = _seed(state["seed"])
        if state["dice"].strip() and "dice_values" in fields:
            body["dice_values"] = _dice(state["dice"])
    except ValueError as error:
        return None, pagetext.text("calc.bad_number", lang, detail=str(error).splitlines()[0])
    except InputError as error:
        return None, str(error)
    if "view" in fields and state["view"] in ("gm", "player"):
        body["view"] = state["view"]
    status, payload = check_api.calculate(state["game"]["name"], check["name"], body, lang)
    if status != 200:
        return None, str(payload.get("detail") or payload.get("title"))
    return payload, None


def _seed(text: str) -> int:
    """The calculator's seed, a ValueError if it is not one (the page says "not a number")."""
    try:
        return pageplay.whole(text, "seed", 0, MAX_SEED)
    except InputError as error:
        raise ValueError(str(error)) from None


def calculator_url(state: Mapping[str, Any]) -> str:
    params: dict[str, str] = {"game": state["game"]["name"], "check": state["check"]["name"]}
    for name, value in state["values"].items():
        if value:
            params[f"o.{name}"] = value
    for key in ("seed", "dice"):
        if state[key]:
            params[key] = state[key]
    if state["view"] != "gm":
        params["view"] = state["view"]
    return "/checks?" + urlencode(params)


@router.get("/checks", response_class=HTMLResponse)
def calculator(request: Request) -> Response:
    """Every ``vigile check`` as a form; the state is the URL's query."""
    lang = request_lang(request)
    state = calculator_state(request.query_params, lang)
    result, error = calculate(state, lang)
    return render(
        request,
        "checks.html",
        lang,
        state=state,
        result=result,
        error=error,
        unit=state["game"]["unit"],
    )


@router.get("/checks/result", response_class=HTMLResponse)
def calculator_result(request: Request) -> Response:
    lang = request_lang(request)
    state = calculator_state(request.query_params, lang)
    result, error = calculate(state, lang)
    response = render(request, "_check_result.html", lang, state=state, result=result, error=error)
    shown = calculator_url(state) + "&" + urlencode({"lang": lang.value})
    response.headers["HX-Replace-Url"] = shown
    return response
