"""The scenario editor of ``vigile serve``: draw the board, place the actors, draw
their plans, see the errors as ``vigile scenario validate`` gives them, the risk overlay and the
safest route as the designer moves a guard or a lamp, simulate, sweep, download or save.

The page holds the scenario as YAML text; every edit goes to the server, which applies it to
the text (:mod:`vigile.web.editor_yaml`: only the edited span changes, so the author's comments,
key order and layout stay), validates it (:func:`vigile.scene.loader.check_text`) and answers
with the new text, the errors by line and field, and the map drawn again. Only the server's
token (the GM's) opens the editor.

::

    GET  /editor                       a bundled scenario (?scenario=NAME), a workspace file
                                       (?file=NAME), or a blank one; POST: an uploaded file
    GET  /editor/asset/{path}          a workspace file's background picture
    POST /api/v1/editor/apply          {yaml, edit?} → {yaml, errors, svg, game}
    POST /api/v1/editor/riskmap        {yaml, attitude, actor?} → the overlay and the route
    POST /api/v1/editor/simulate       {yaml, runs, seed?} → SSE: progress, then the outcomes
    POST /api/v1/editor/sweep          {yaml, vary: [1 or 2 fields], runs} → the curves
    GET  /api/v1/editor/file           ?file=NAME → {yaml, hash}
    POST /api/v1/editor/save           {yaml, file, hash?, confirm?} → {file, hash}

Saving: ``vigile serve --workspace DIR`` names the one folder the editor may write in (without
it the editor only downloads). A name that leaves DIR, or holds a control or bidirectional
character, is refused; the file is read and written relative to its folder's descriptor, each
folder on the way opened without following a link, and written atomically
(:func:`vigile.io.files.write_at`): a folder swapped for a link mid-save is refused, never
followed out; a file that changed on disk since the page loaded it (its SHA-256), or an
existing file the page did not load, is replaced only when the user confirms.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import os
import threading
from collections import OrderedDict
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Annotated, Any, Final
from urllib.parse import quote, urlencode

from fastapi import APIRouter, Depends, FastAPI, Query, Request
from fastapi.responses import HTMLResponse, Response, StreamingResponse
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import UploadFile

from vigile.errors import InputError, VigileError
from vigile.io import files
from vigile.io.files import Folder
from vigile.io.i18n import Lang
from vigile.scene.importers import MAX_IMAGE_BYTES
from vigile.scene.loader import ScenarioValidationError, bundled_names, bundled_path, check_text
from vigile.scene.model import IMAGE_SUFFIXES, Scenario
from vigile.scene.reading import MAX_BYTES

from . import editor_work as work
from . import pages, pagetext
from .api import STRICT, known_query
from .auth import ServerGM, is_server_token
from .context import Context, context
from .language import request_lang
from .sse import frame

router = APIRouter()
KNOWN_QUERY = Depends(known_query)
"""The editor's API refuses a query parameter it does not declare, as the rest of the API."""
API: Final = "/api/v1/editor"
ASSET: Final = "/editor/asset/"
MAX_TEXT: Final = 1024 * 1024
"""Characters of a scenario's text the editor takes."""
SUFFIXES: Final = (".yaml", ".yml")
PICTURE_TYPES: Final = {
    ".png": "image/png",
    ".webp": "image/webp",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
}
"""A map's picture, by suffix (every one of :data:`IMAGE_SUFFIXES`)."""
BLANK: Final = """\
# A new scenario: draw the board, place the actors, draw their plans.
ruleset: skirmish
name: New scenario
units: cm
time: night
map: {width: 200, height: 120}
turns: 40

walls: []

actors:
  - {name: Intruder, side: attackers, position: [10, 10], ninja: true}
"""


@dataclass(frozen=True)
class EditorSettings:
    """What ``vigile serve`` gives the editor."""

    workspace: Path | None = None
    """The folder the editor saves in (``--workspace``); None: download only."""
    scheduler: str | None = None
    """A Dask scheduler's address for sweeps (``--scheduler``); None: local processes."""


def configure(app: FastAPI, *, workspace: Path | None = None, scheduler: str | None = None) -> None:
    """Give the app's editor its workspace and its scheduler."""
    app.state.editor = EditorSettings(
        workspace.resolve() if workspace is not None else None, scheduler
    )


def settings_of(request: Request) -> EditorSettings:
    found = getattr(request.app.state, "editor", None)
    return found if isinstance(found, EditorSettings) else EditorSettings()


class SaveRefused(InputError):
    """A save that would overwrite a file the user did not see: 409 until confirmed."""

    status = 409


class NoWorkspace(InputError):
    """The server has no workspace (``--workspace``): the editor only downloads."""

    status = 403


# ------------------------------------------------------------------------------ the workspace


def workspace_path(settings: EditorSettings, name: str) -> Path:
    """``name`` inside the workspace (a relative path with ``/``, no ``..``), as a .yaml file;
    an :class:`InputError` for anything else, and for a name holding a control, invisible or
    bidirectional character (U+202E shows ``evil\\u202egpj.yaml`` as ``evillmay.jpg``).
    The path is for messages: reading and writing go through :func:`_in_workspace`,
    which follows no link."""
    from vigile.io.files import check_name

    if settings.workspace is None:
        raise NoWorkspace(
            "this server has no workspace (vigile serve --workspace DIR): download the file",
            where="file",
        )
    pure = PurePosixPath(name)
    if (
        not name
        or len(name) > 255
        or "\\" in name
        or ":" in name
        or pure.is_absolute()
        or any(part in ("", ".", "..") for part in name.split("/"))
        or any(len(part.encode("utf-8")) > 255 for part in name.split("/"))
    ):
        raise InputError(
            f"{name!r}: a file name inside the workspace (no .., no absolute path)", where="file"
        )
    check_name(name, "file")
    if pure.suffix.lower() not in SUFFIXES:
        raise InputError(f"{name!r}: the editor saves .yaml or .yml files", where="file")
    return settings.workspace.joinpath(*pure.parts)


@contextlib.contextmanager
def _in_workspace(settings: EditorSettings, name: str) -> Iterator[tuple[Folder, str]]:
    """The folder of the workspace file ``name``, held open (each folder on the way opened
    relative to the one before, never through a symbolic link: one swapped for a link mid-way
    is refused, not followed out of the workspace), and the file's own name in it."""
    from vigile.io.files import open_folder

    workspace_path(settings, name)
    assert settings.workspace is not None
    *folders, last = PurePosixPath(name).parts
    with open_folder(settings.workspace, folders, where="file", shown=name) as folder:
        yield folder, last


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def read_workspace(settings: EditorSettings, name: str) -> tuple[str, str]:
    """A workspace file's text and its hash (read without following a link)."""
    from vigile.io.files import read_at

    with _in_workspace(settings, name) as (folder, last):
        data = read_at(folder, last, limit=MAX_TEXT, where="file", shown=name)
    if data is None:
        raise InputError(f"{name!r}: no such file in the workspace", where="file")
    if len(data) > MAX_TEXT:
        raise InputError(f"{name!r} is larger than {MAX_TEXT // 1024} KiB", where="file")
    try:
        return data.decode("utf-8"), digest(data)
    except UnicodeDecodeError:
        raise InputError(f"{name!r} is not UTF-8 text", where="file") from None


def save(settings: EditorSettings, name: str, text: str, loaded: str | None, confirm: bool) -> str:
    """Write ``text`` at ``name`` in the workspace, atomically; its new hash. Refused (409)
    when the file changed on disk since the page loaded it (``loaded``, its hash then), or
    exists and the page did not load it, unless ``confirm``.

    The file is written relative to its folder's descriptor, opened without following a link
    (:func:`vigile.io.files.write_at`): a temporary file created there, then renamed over the
    name in that same folder, and the folder synced. Just before the rename and after it, the
    folder is reached again from the workspace, without a link: when it was moved or swapped
    meanwhile, the save is refused and what it wrote removed, so that nothing lands outside the
    workspace through a folder swapped for a link."""
    from vigile.io.files import read_at, same_folder, write_at

    with _in_workspace(settings, name) as (folder, last):
        assert settings.workspace is not None
        root, folders = settings.workspace, PurePosixPath(name).parts[:-1]
        if not confirm:
            now = read_at(folder, last, limit=MAX_TEXT, where="file", shown=name)
            if now is not None and loaded is None:
                raise SaveRefused(f"{name} exists: confirm to replace it", where="file")
            if now is not None and digest(now) != loaded:
                raise SaveRefused(
                    f"{name} changed on disk since the editor loaded it: confirm to replace it",
                    where="file",
                )
        data = text.encode("utf-8")
        write_at(
            folder,
            last,
            data,
            where="file",
            shown=name,
            unmoved=lambda: same_folder(folder, root, folders),
        )
        if not same_folder(folder, root, folders):
            _take_back(folder, last, data)
            raise InputError(
                f"{name!r}: its folder was moved or replaced during the save; nothing was saved",
                where="file",
            )
    return digest(data)


def _take_back(folder: Folder, last: str, data: bytes) -> None:
    """Remove the file a save just wrote into a folder that moved meanwhile (when it is still
    the one written: same content)."""
    from vigile.io.files import read_at

    with contextlib.suppress(InputError, OSError):
        if read_at(folder, last, limit=len(data), where="file", shown=last) == data:
            target, at = folder.at(last)
            os.unlink(target, **at)


def workspace_files(settings: EditorSettings) -> list[str]:
    """The scenarios in the workspace (its top folder and one level below), sorted: regular
    files only, no symbolic link followed (to a file or to a folder), no name holding a control
    or bidirectional character."""
    from vigile.io.files import check_name, files_below

    root = settings.workspace
    if root is None:
        return []
    found = []
    for name in files_below(root, depth=1, suffixes=SUFFIXES, limit=10_000):
        try:
            check_name(name, "file")
        except InputError:
            continue
        found.append(name)
    return found[:500]


# ------------------------------------------------------------------------------ the map


def background_url(background: str | None, file: str | None, token: str | None) -> str | None:
    """Where the page fetches a workspace file's background picture (:func:`editor_asset`):
    the picture's path beside ``file``, percent-encoded, and the server's token (an ``<image>``
    sends no ``Authorization`` header); None without a picture or a workspace file."""
    if background is None or file is None:
        return None
    path = (PurePosixPath(file).parent / background).as_posix()
    query = "?" + urlencode({"token": token}) if token else ""
    return ASSET + quote(path, safe="/") + query


def map_svg(
    request: Request, scenario: Scenario, lang: Lang, file: str | None, token: str | None
) -> str:
    """The editor's map: the pages' own (``_map.html``) with the plans and handles drawn over
    it (``editor_layers.html``), and the background picture of a workspace file. Every value
    goes through the templates' escaping; the picture's URL through :func:`background_url`."""
    model = work.editor_map(scenario)
    model.background = background_url(scenario.map.background, file, token)
    data = pages.base(
        request,
        lang,
        map=model,
        letters={},
        ladder=(),
        editor_layers=True,
        plans=work.plan_lines(scenario),
        scenario=scenario,
    )
    return pages.templates.get_template("_map.html").render(data)


# ------------------------------------------------------------------------------ the page


def _page(
    request: Request,
    ctx: Context,
    lang: Lang,
    *,
    token: str,
    text: str,
    source: str,
    file: str | None = None,
    loaded: str | None = None,
    message: str | None = None,
    status: int = 200,
) -> HTMLResponse:
    settings = settings_of(request)
    scenario, errors = work.validated(text, source, lang)
    drawn = scenario if scenario is not None else work.board_only(text, source, without_plans=True)
    svg = map_svg(request, drawn, lang, file, token) if drawn is not None else None
    shown = [a for a in drawn.actors if a.name != work.STAND_IN] if drawn is not None else []
    actors = [a.name for a in shown]
    intruders = [a.name for a in shown if a.side.value == "attackers"]
    ruleset = drawn.ruleset if drawn is not None else work.ruleset_written(text)
    game = work.words_of(ruleset, lang.value)
    # a new light's radius: the one the map's own lights have (a d20 game needs one; blank,
    # the game's default for its kind where it has one)
    radii = [light.radius for light in (drawn.lights if drawn is not None else ()) if light.radius]
    t = pagetext.translator(lang)
    labels = {  # the menus' keywords in the page's language (the values stay the YAML's)
        "light": {k: t(f"scene.what.light.{k}") for k in work.LIGHT_KINDS},
        "wall": {k: t(f"editor.tool.{k}") for k in work.WALL_KINDS},
        "state": {s: t(f"editor.state.{s}") for s in work.GUARD_STATES},
        "outcome": {o: t(f"sim.outcome.{o}") for o in work.OUTCOMES},
    }
    return pages.render(
        request,
        "editor.html",
        lang,
        status=status,
        token=token,
        text=text,
        source=source,
        file=file,
        loaded=loaded,
        svg=svg,
        errors=errors,
        message=message,
        scenarios=bundled_names(),
        workspace=settings.workspace is not None,
        files=workspace_files(settings),
        actors=actors,
        intruders=intruders,
        game=game,
        labels=labels,
        light_radius=f"{radii[-1]:g}" if radii else "",
        sweep_example=_sweep_example(scenario, game),
        wall_kinds=work.WALL_KINDS,
        light_kinds=work.LIGHT_KINDS,
        surface_kinds=work.SURFACE_KINDS,
        q=pages.query(lang),
        sweep_max=work.MAX_SWEEP_RUNS,
        runs_max=work.MAX_RUNS,
        scheduler=settings.scheduler,
    )


def _sweep_example(scenario: Scenario | None, game: dict[str, Any]) -> str:
    """The sweep's example field: a number the game's actors carry (its vocabulary), on the
    scenario's first intruder (else its first actor): ``actors.Kage.dice`` on a night raid,
    ``actors.Rogue.bonuses.spot`` on a D&D map, never a skirmish field on a d20 map."""
    numbers = [s["name"] for s in game.get("stats", ()) if s.get("kind") == "number"]
    actors = sorted(scenario.actors, key=lambda a: a.side.value != "attackers") if scenario else []
    if not numbers or not actors:
        return "actors.Kage.dice"
    return f"actors.{actors[0].name}.{numbers[0]}"


def _gm_only(request: Request, ctx: Context, lang: Lang, token: str | None) -> HTMLResponse | None:
    """The login page, unless ``token`` is the server's."""
    if not is_server_token(ctx, token):
        return pages.render(
            request, "login.html", lang, status=401 if token else 200, wrong=bool(token)
        )
    return None


@router.get("/editor", response_class=HTMLResponse, include_in_schema=False)
def editor_page(
    request: Request,
    scenario: str | None = None,
    file: str | None = None,
) -> Response:
    """The editor on a bundled scenario, a workspace file, or a blank scenario."""
    ctx: Context = context(request)
    lang = request_lang(request)
    token = pages.token_of(request) or ""
    refused = _gm_only(request, ctx, lang, token)
    if refused is not None:
        return refused
    try:
        if file:
            text, loaded = read_workspace(settings_of(request), file)
            return _page(
                request, ctx, lang, token=token, text=text, source=file, file=file, loaded=loaded
            )
        if scenario:
            path = bundled_path(scenario)
            text = path.read_text("utf-8")
            return _page(request, ctx, lang, token=token, text=text, source=path.name)
    except VigileError as error:
        status = int(getattr(error, "status", 0) or 422)
        return _page(
            request, ctx, lang, token=token, text=BLANK, source="new.yaml", message=str(error),
            status=status,
        )  # fmt: skip
    return _page(request, ctx, lang, token=token, text=BLANK, source="new.yaml")


@router.post("/editor", response_class=HTMLResponse, include_in_schema=False)
async def editor_upload(request: Request) -> Response:
    """The editor on an uploaded scenario file (YAML). The page's form sends the server's token
    as a field (the request's header or query, when there is one, wins)."""
    ctx: Context = context(request)
    lang = request_lang(request)
    form = await pages.form_of(request)
    try:
        # the token is passed on, never written back into the request: its query parameters
        # are read once and kept (starlette), so a token put into the scope afterwards would
        # never be seen, and the form would always answer with the login page
        sent = form.get("token")
        token = pages.token_of(request) or (sent if isinstance(sent, str) else "")
        refused = _gm_only(request, ctx, lang, token)
        if refused is not None:
            return refused
        upload = form.get("file")
        if not isinstance(upload, UploadFile) or not upload.filename:
            return _page(request, ctx, lang, token=token, text=BLANK, source="new.yaml")
        data = await upload.read(MAX_BYTES + 1)
        source = PurePosixPath(upload.filename[:200]).name or "upload.yaml"
        if len(data) > min(MAX_BYTES, MAX_TEXT):
            message = f"{source}: larger than {MAX_TEXT // 1024} KiB"
            return _page(
                request, ctx, lang, token=token, text=BLANK, source="new.yaml", message=message
            )
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            message = f"{source}: not UTF-8 text"
            return _page(
                request, ctx, lang, token=token, text=BLANK, source="new.yaml", message=message
            )
        return _page(request, ctx, lang, token=token, text=text, source=source)
    finally:
        await form.close()


@router.get("/editor/asset/{path:path}", include_in_schema=False)
def editor_asset(request: Request, path: str) -> Response:
    """A picture of the workspace (a map's background)."""
    ctx: Context = context(request)
    if not is_server_token(ctx, pages.token_of(request)):
        return Response(status_code=401)
    settings = settings_of(request)
    root = settings.workspace
    pure = PurePosixPath(path)
    if (
        root is None
        or pure.is_absolute()
        or any(p in ("", ".", "..") for p in path.split("/"))
        or pure.suffix.lower() not in IMAGE_SUFFIXES
    ):
        return Response(status_code=404)
    *folders, name = pure.parts
    try:  # below a folder held open, never through a link (a folder may be swapped meanwhile)
        with files.open_folder(root, folders, where="path", shown=path) as folder:
            data = files.read_at(folder, name, limit=MAX_IMAGE_BYTES, where="path", shown=path)
    except InputError:
        return Response(status_code=404)
    if data is None or len(data) > MAX_IMAGE_BYTES:
        return Response(status_code=404)
    kind = PICTURE_TYPES[pure.suffix.lower()]
    return Response(data, media_type=kind, headers={"Cache-Control": "no-store"})


# ------------------------------------------------------------------------------ the API

Text = Annotated[str, Field(max_length=MAX_TEXT, description="The scenario's YAML text.")]


class OverlayAsked(BaseModel):
    model_config = STRICT
    attitude: str = Field(default="hidden", max_length=20, pattern=r"^[a-z-]+$")
    actor: str | None = Field(default=None, max_length=80)


class ApplyRequest(BaseModel):
    model_config = STRICT
    yaml: Text
    edit: dict[str, Any] | None = Field(
        default=None, description="One edit: {op: move-actor|add-wall|add-leg|..., ...}."
    )
    file: str = Field(default="scenario.yaml", max_length=255)
    lang: Lang | None = Field(default=None, strict=False)  # a JSON string names the enum
    overlay: OverlayAsked | None = Field(
        default=None, description="Also the risk overlay and the route, as /riskmap gives them."
    )


class RiskRequest(BaseModel):
    model_config = STRICT
    yaml: Text
    attitude: str = Field(
        default="hidden", max_length=20, pattern=r"^[a-z-]+$", description="In the game's words."
    )
    actor: str | None = Field(default=None, max_length=80)
    resolution: float | None = Field(default=None, gt=0, le=10_000)
    grid: bool = Field(default=False, description="Include the risk of every cell.")
    route: bool = True


class SimulateRequest(BaseModel):
    model_config = STRICT
    yaml: Text
    runs: int = Field(default=1000, ge=1, le=work.MAX_RUNS)
    seed: int | None = Field(default=None, ge=0, le=2**63 - 1)


class VaryField(BaseModel):
    model_config = STRICT
    field: str = Field(min_length=1, max_length=200)
    start: float = Field(allow_inf_nan=False)
    stop: float = Field(allow_inf_nan=False)
    step: float = Field(gt=0, allow_inf_nan=False)


class SweepRequest(BaseModel):
    model_config = STRICT
    yaml: Text
    vary: list[VaryField] = Field(min_length=1, max_length=2)
    runs: int = Field(default=500, ge=1, le=work.MAX_SWEEP_RUNS)
    seed: int = Field(default=0, ge=0, le=2**63 - 1)
    outcome: str = Field(default="detected", max_length=40)


class SaveRequest(BaseModel):
    model_config = STRICT
    yaml: Text
    file: str = Field(min_length=1, max_length=255)
    hash: str | None = Field(default=None, max_length=64, description="The hash loaded.")
    confirm: bool = False


CHECKED_KEPT = 8
"""How many texts just validated by ``/apply`` the server keeps, read by ``/riskmap``."""
_checked: OrderedDict[bytes, Scenario] = OrderedDict()  # by the text's SHA-256
_checked_lock = threading.Lock()


def _keep_checked(text: str, scenario: Scenario) -> None:
    """Keep the scenario of a text ``/apply`` just validated: the page asks its risk overlay
    next, which then does not read and check the same text again (a third of a second on a
    map of 1,700 walls). The file's name only names the errors, so the text is the key."""
    key = hashlib.sha256(text.encode("utf-8")).digest()
    with _checked_lock:
        _checked[key] = scenario
        _checked.move_to_end(key)
        while len(_checked) > CHECKED_KEPT:
            _checked.popitem(last=False)


def kept_scenario(text: str) -> Scenario:
    """The scenario of ``text``: the one ``/apply`` kept (:func:`_keep_checked`), else read
    and checked. Only the risk overlay reads it, which changes nothing in it."""
    with _checked_lock:
        kept = _checked.get(hashlib.sha256(text.encode("utf-8")).digest())
    return kept if kept is not None else scenario_of(text)


def scenario_of(text: str, file: str = "scenario.yaml") -> Scenario:
    scenario, issues = check_text(text, file=file)
    if scenario is None:
        raise ScenarioValidationError(issues)
    return scenario


@router.post(f"{API}/apply", tags=["editor"], dependencies=[KNOWN_QUERY])
def apply(body: ApplyRequest, request: Request, _gm: ServerGM) -> dict[str, Any]:
    """Apply one edit to the text (only its span changes), validate it, draw the map."""
    lang = body.lang or request_lang(request)
    text = work.apply_edit(body.yaml, body.edit) if body.edit else body.yaml
    name = PurePosixPath(body.file).name or "scenario.yaml"
    scenario, errors = work.validated(text, name, lang)
    file = body.file if settings_of(request).workspace is not None else None
    token = pages.token_of(request)
    drawn = scenario if scenario is not None else work.board_only(text, name)
    svg = map_svg(request, drawn, lang, file, token) if drawn is not None else None
    actors = [] if drawn is None else [
        {"name": a.name, "side": a.side.value} for a in drawn.actors if a.name != work.STAND_IN
    ]  # fmt: skip
    answer: dict[str, Any] = {
        "yaml": text, "errors": errors, "svg": svg, "changed": text != body.yaml, "actors": actors
    }  # fmt: skip
    if drawn is not None:  # the game's words: its menus follow a changed ruleset
        answer["game"] = work.words_of(drawn.ruleset, lang.value)
    if scenario is not None:
        _keep_checked(text, scenario)
    if body.overlay is not None and scenario is not None:
        try:
            found = work.overlay(
                scenario, body.overlay.attitude, actor=body.overlay.actor, lang=lang
            )
            answer["overlay"] = overlay_json(found)
        except VigileError as error:
            answer["overlay"] = {"error": str(error)}
    return answer


def overlay_json(found: work.Overlay) -> dict[str, Any]:
    shown: dict[str, Any] = {
        "image": found.image,
        "route": found.route,
        "route_error": found.route_error,
        "seconds": round(found.seconds, 4),
    }
    if found.grid is not None:
        shown["grid"] = found.grid
    return shown


@router.post(f"{API}/riskmap", tags=["editor"], dependencies=[KNOWN_QUERY])
def riskmap(body: RiskRequest, request: Request, _gm: ServerGM) -> dict[str, Any]:
    """The risk map (the chance of being seen in one turn, per cell) as an image over the board,
    and the safest route of an intruder to the objective; ``grid`` adds every cell's chance."""
    scenario = kept_scenario(body.yaml)
    found = work.overlay(
        scenario,
        body.attitude,
        actor=body.actor,
        resolution=body.resolution,
        grid=body.grid,
        route=body.route,
        lang=request_lang(request),
    )
    return overlay_json(found)


@router.post(
    f"{API}/simulate", tags=["editor"], dependencies=[KNOWN_QUERY], response_class=StreamingResponse
)
async def simulate_stream(body: SimulateRequest, _gm: ServerGM) -> StreamingResponse:
    """Play ``runs`` games: an SSE stream of ``progress`` frames ``{done, runs}``, then one
    ``result`` frame (``simulate --json``'s outcomes with their 95% intervals, and the heat
    map), or one ``error`` frame."""
    scenario = scenario_of(body.yaml)
    seed = body.seed if body.seed is not None else (scenario.seed or 0)
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[tuple[str, Any]] = asyncio.Queue()
    done = [0]

    def progress(runs: int) -> None:
        done[0] += runs
        loop.call_soon_threadsafe(
            queue.put_nowait, ("progress", {"done": done[0], "runs": body.runs})
        )

    def play() -> None:
        from vigile.sim.simulate import simulate

        try:
            result = simulate(scenario, body.runs, seed=seed, progress=progress)
            found = work.simulation_json(result)
            loop.call_soon_threadsafe(queue.put_nowait, ("result", found))
        except VigileError as error:
            loop.call_soon_threadsafe(queue.put_nowait, ("error", {"detail": str(error)}))
        except Exception as error:  # pragma: no cover - a bug: said, not hidden
            loop.call_soon_threadsafe(queue.put_nowait, ("error", {"detail": repr(error)}))

    async def frames() -> AsyncIterator[bytes]:
        task = loop.run_in_executor(None, play)
        yield frame("progress", None, {"done": 0, "runs": body.runs})
        while True:
            kind, data = await queue.get()
            yield frame(kind, None, data)
            if kind != "progress":
                break
        await task

    return StreamingResponse(
        frames(),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )


@router.post(f"{API}/sweep", tags=["editor"], dependencies=[KNOWN_QUERY])
async def sweep(body: SweepRequest, request: Request, _gm: ServerGM) -> dict[str, Any]:
    """Simulate every combination of one or two fields' values (``run_sweep``: local worker
    processes, or the Dask scheduler the server was given); one curve per value of the second
    field, each point with its 95% interval, and the chart."""
    from vigile.sim.sweep import run_sweep

    scenario = scenario_of(body.yaml)
    if body.outcome not in work.OUTCOMES:
        counted = work.OUTCOMES[1:]
        raise InputError(
            f"{body.outcome!r}: detected or one of {', '.join(counted)}", where="outcome"
        )
    varies = [work.sweep_values(v.field, v.start, v.stop, v.step) for v in body.vary]
    scheduler = settings_of(request).scheduler
    rows = await run_in_threadpool(
        run_sweep,
        scenario,
        varies,
        body.runs,
        seed=body.seed,
        scheduler=scheduler,
        workers=min(work.SWEEP_WORKERS, os.cpu_count() or 1),
    )
    fields = [v.path for v in varies]
    curves = work.sweep_curves(rows, fields, body.runs, body.outcome)
    return {
        "rows": rows,
        "fields": fields,
        "runs": body.runs,
        "outcome": body.outcome,
        "curves": curves,
        "svg": work.sweep_svg(curves, fields[0], body.outcome),
        "where": scheduler or "local",
    }


@router.get(f"{API}/file", tags=["editor"], dependencies=[KNOWN_QUERY])
def load_file(
    request: Request, _gm: ServerGM, file: Annotated[str, Query(max_length=255)]
) -> dict[str, Any]:
    """A workspace file's text and its hash (to give back when saving)."""
    text, loaded = read_workspace(settings_of(request), file)
    return {"file": file, "yaml": text, "hash": loaded}


@router.post(f"{API}/save", tags=["editor"], dependencies=[KNOWN_QUERY])
def save_file(body: SaveRequest, request: Request, _gm: ServerGM) -> dict[str, Any]:
    """Write the text into the workspace, atomically; refused (409) over a file changed on
    disk since it was loaded, or one the page did not load, unless ``confirm``."""
    written = save(settings_of(request), body.file, body.yaml, body.hash, body.confirm)
    _, issues = check_text(body.yaml, file=PurePosixPath(body.file).name)
    lang = request_lang(request)
    return {
        "file": body.file,
        "hash": written,
        "errors": [work.issue_json(i, lang) for i in issues],
    }


__all__ = ["EditorSettings", "configure", "router"]
