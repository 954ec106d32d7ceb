"""The single checks over HTTP: ``/api/v1/checks``, the same checks as ``vigile check``.

Each game declares its checks once (:mod:`vigile.checks.declare`); from the declaration this
module builds, per check, a strict request model (every input typed, with its range, default
and help; ``options`` by the option's name, ``total-concealment`` or ``total_concealment``),
the route that takes it, and so the OpenAPI schema of both the request and the answer (the
verdict's JSON, :class:`VerdictAnswer`). ``POST /api/v1/checks/{game}/{check}`` calls the
check's rule function directly, as ``vigile check GAME CHECK --json`` does, and answers the JSON
it prints: no command-line parsing, no captured output.

The routes of the games known when the server starts are documented one by one; a game
registered since is served by the same handler under ``/{game}/{check}``.

::

    GET  /api/v1/checks                   every game, its checks and each check's options
    GET  /api/v1/checks/{game}            one game's checks
    GET  /api/v1/checks/{game}/{check}    one check
    POST /api/v1/checks/{game}/{check}    run it: {"options": {...}, "lang", "seed",
                                          "dice_values", "view", "house_rules"}

Errors are RFC 9457 problems (:mod:`vigile.web.problems`): an unknown game or check is 404; a
value the model refuses is 422 with ``where`` naming the option (``--stealth``) or the field;
what the rule refuses is 422 with its own one-line message, as on the command line.

A check runs on the event loop, not in a worker thread: it is a few hundred microseconds of
arithmetic, less than the hop to a thread would cost.
"""

from __future__ import annotations

import difflib
import inspect
import json
from collections.abc import Callable, Coroutine, Mapping
from functools import cache
from typing import Annotated, Any, Final, Literal

from fastapi import APIRouter, Body, Request
from fastapi.routing import APIRoute
from pydantic import (
    AliasChoices,
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictFloat,
    StrictInt,
    StrictStr,
    ValidationError,
    create_model,
)
from starlette.responses import JSONResponse, Response

from vigile import registry
from vigile.checks.declare import Check, Checks, Input, face_source
from vigile.dice.source import GivenFaces
from vigile.errors import HouseRuleError, InputError, VigileError
from vigile.io.i18n import Lang, tr
from vigile.io.json_out import verdict_json
from vigile.io.safe import printable
from vigile.rulesets.data import MAX_HOUSE_RULE_BYTES, RuleData, apply_overrides, shipped
from vigile.rulesets.limits import LIMITS

from .language import request_lang
from .problems import issue, problem, vigile_problem

MAX_BODY_BYTES: Final = 128 * 1024
"""The largest request body read (a house-rule file is at most 64 KiB)."""
MAX_TEXT: Final = 8 * LIMITS.max_observers
"""Characters of an option's text: room for every observer's bonus (``-100,``)."""
MAX_DICE_VALUES: Final = 1024
HOUSE_RULES: Final = "house_rules"
"""What an error about the request's house rules calls them."""

OWN_FIELDS: Final = {
    "seed": "seed",
    "dice-values": "dice_values",
    "dice_values": "dice_values",
    "view": "view",
    "house-rules": "house_rules",
    "house_rules": "house_rules",
    "lang": "lang",
}
"""The common options the request gives in fields of their own, not in ``options``."""
REFUSED: Final = {
    "json": "the answer is always JSON",
    "help": "the checks and their options are at GET /api/v1/checks",
}
ROLL = Input("roll", bool, "check.common.roll", False)
"""``--roll``: the one common option a request gives among the check's options."""


# --- the models of a check, from its declaration ----------------------------------------------

_SCALARS: Final[dict[type, Any]] = {
    bool: StrictBool,
    int: StrictInt,
    float: StrictFloat | StrictInt,
    str: StrictStr,
}


def _scalar(one: Input) -> Any:
    """The type of one value of an input, with its range."""
    base = _SCALARS.get(one.kind, one.kind)
    if one.kind is str:
        return Annotated[base, Field(max_length=MAX_TEXT)]
    if one.ge is None and one.le is None:
        return base
    return Annotated[base, Field(ge=one.ge, le=one.le)]


def _field_type(one: Input) -> Any:
    """The request's type of an input: one value; a list (or its comma-separated text)."""
    kind = _scalar(one)
    if one.many != "one":
        kind = Annotated[list[kind], Field(max_length=one.max_items)]  # type: ignore[valid-type]
        if one.many == "comma":
            kind = kind | Annotated[StrictStr, Field(max_length=MAX_TEXT)]
    elif one.parse is not None:
        kind = Annotated[StrictStr, Field(max_length=MAX_TEXT)]
    return kind | None if one.default is None else kind


def _field(one: Input) -> tuple[Any, Any]:
    names = (one.dashed, one.name) if one.dashed != one.name else (one.name,)
    default = ... if one.required else one.default
    return _field_type(one), Field(
        default,
        validation_alias=AliasChoices(*names),
        description=tr(one.help, Lang.EN) + (" Or their text: 3,8." if one.many == "comma" else ""),
    )


def _title(check: Check) -> str:
    words = [check.game, *check.name.replace("_", "-").split("-")]
    return "".join(word[:1].upper() + word[1:] for word in words)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False)


_MODELS: dict[int, tuple[Check, type[BaseModel]]] = {}


def request_model(check: Check) -> type[BaseModel]:
    """The request a check takes: its options (its inputs, and ``roll``), then the fields every
    check shares; built once per check."""
    found = _MODELS.get(id(check))
    if found is None or found[0] is not check:
        found = _MODELS[id(check)] = (check, _request_model(check))
    return found[1]


def _request_model(check: Check) -> type[BaseModel]:
    title = _title(check)
    options = create_model(  # type: ignore[call-overload]
        f"{title}Options",
        __base__=_Strict,
        __doc__=f"The options of `{check.title}`, by the option's name.",
        **{one.name: _field(one) for one in (*check.inputs, ROLL)},
    )
    required = any(one.required for one in check.inputs)
    shared: dict[str, Any] = {
        "options": (options, ... if required else Field(default_factory=options)),
        "lang": (
            Lang | None,
            Field(None, description="Language of the answer; else `?lang=`, else Accept-Language."),
        ),
        "seed": (StrictInt | None, Field(None, description=tr("check.common.seed", Lang.EN))),
        "dice_values": (
            Annotated[list[StrictInt], Field(max_length=MAX_DICE_VALUES)] | None,
            Field(None, description=tr("check.common.dice_values", Lang.EN)),
        ),
        "house_rules": (
            Annotated[StrictStr, Field(max_length=MAX_HOUSE_RULE_BYTES)] | None,
            Field(None, description=tr("check.common.house_rules_text", Lang.EN)),
        ),
    }
    if check.view:
        shared["view"] = (
            Literal["gm", "player"] | None,
            Field(None, description=tr("check.common.view", Lang.EN)),
        )
    model: type[BaseModel] = create_model(
        f"{title}Request",
        __base__=_Strict,
        __doc__=tr(check.help, Lang.EN).splitlines()[0],
        **shared,
    )
    return model


# --- the answer's models (the OpenAPI schema; the answer is written by verdict_json) ----------


class ModifierAnswer(BaseModel):
    """One number that went into the check, with why and which rule."""

    value: int
    kind: Literal["base", "difficulty", "die"]
    reason: str
    rule: str
    source: str | None
    house_rule: bool
    companion: bool


class NoteAnswer(BaseModel):
    rule: str
    text: str


class DieAnswer(BaseModel):
    """One die: every face it showed, its success, size and role."""

    faces: list[int]
    success: bool | None
    sides: int
    role: str | None
    status: str | None
    face_status: list[str | None]


class RollAnswer(BaseModel):
    dice: list[DieAnswer]
    given: bool
    success: bool | None
    outcome: str | None


class VerdictAnswer(BaseModel):
    """The verdict as ``vigile check … --json`` prints it (the GM's view). A check may add
    figures (``chance_pinpoint``, ``miss_chance``, ``stealth_roll``...) and its members
    (``observers``, ``party``), each a verdict of its own."""

    model_config = ConfigDict(extra="allow")

    ruleset: str
    check: str
    question: str
    difficulty: int | None
    die_bonus: int
    dice: int
    modifiers: list[ModifierAnswer]
    notes: list[NoteAnswer]
    chance: str = Field(description='The exact chance: "p/q", "0" or "1".')
    chance_percent: float
    automatic: bool
    impossible: bool
    roll: RollAnswer | None
    success: bool | None
    outcome: str | None
    state: str | None
    explanation: list[str]


class PlayerAnswer(BaseModel):
    """The verdict as the acting character perceives it (``view: player``)."""

    ruleset: str
    check: str
    view: Literal["player"]
    question: str
    outcome: str | None
    explanation: list[str]


class OptionInfo(BaseModel):
    """One option of a check."""

    name: str = Field(description="Its name in `options` (underscores may stand for dashes).")
    flag: str
    type: Literal["integer", "number", "boolean", "string"]
    multiple: bool = Field(description="A list: the option given several times.")
    comma: bool = Field(description="A list in one option, its values joined by commas.")
    choices: list[str] | None
    default: Any
    required: bool
    minimum: float | None
    maximum: float | None
    metavar: str | None
    help: str


class CheckInfo(BaseModel):
    game: str
    name: str
    help: str
    options: list[OptionInfo]
    fields: list[str] = Field(description="The request's fields the check takes besides options.")


class GameChecks(BaseModel):
    name: str
    title: str | None = None
    unit: str | None = None
    checks: list[CheckInfo]


class Listing(BaseModel):
    games: list[GameChecks]


_JSON_TYPES: Final = {bool: "boolean", int: "integer", float: "number"}


def describe(check: Check, lang: Lang) -> dict[str, Any]:
    """The check for ``GET /api/v1/checks``: its options and fields, the help in ``lang``."""

    def option(one: Input) -> dict[str, Any]:
        read = one.many == "comma" or one.parse is not None  # its text is read
        return {
            "name": one.dashed,
            "flag": one.flag,
            "type": "string" if read else _JSON_TYPES.get(one.kind, "string"),
            "multiple": one.many == "repeat",
            "comma": one.many == "comma",
            "choices": one.choices,
            "default": None if one.many == "repeat" else one.written_default,
            "required": one.required,
            "minimum": one.ge,
            "maximum": one.le,
            "metavar": one.metavar,
            "help": tr(one.help, lang),
        }

    fields = ["seed", "dice_values", *(["view"] if check.view else []), "house_rules", "lang"]
    return {
        "game": check.game,
        "name": check.name,
        "help": tr(check.help, lang),
        "options": [option(one) for one in (*check.inputs, ROLL)],
        "fields": fields,
    }


# --- the checks, from each game's declaration -------------------------------------------------


@cache
def _game_checks(game: str, version: int) -> dict[str, Check]:
    """A game's declared checks (per registry version); none for a game whose plug-in names a
    Typer app of its own (its commands are the CLI's only)."""
    del version  # the cache key: a game registered since rebuilds
    plugin = registry.get(game, where="game")
    if plugin.cli is None:
        return {}
    found = plugin.load(plugin.cli)
    return found.by_name() if isinstance(found, Checks) else {}


def game_checks(game: str) -> dict[str, Check]:
    """Every check of ``game``; :class:`~vigile.errors.InputError` for an unknown game."""
    return _game_checks(game, registry.version())


class NotFound(Exception):
    """No such game or check (404)."""

    def __init__(self, message: str, *, where: str) -> None:
        super().__init__(message)
        self.where = where


def _checks_of(game: str) -> dict[str, Check]:
    try:
        return game_checks(game)
    except InputError as error:
        raise NotFound(printable(str(error)), where="game") from None


def find_check(game: str, check: str) -> Check:
    """The check ``game check``; :class:`NotFound` when there is none."""
    checks = _checks_of(game)
    if check not in checks:
        known = f" (one of: {', '.join(checks)})" if checks else ""
        raise NotFound(f"{printable(check)!r} is not a check of {game}{known}", where="check")
    return checks[check]


# --- running a check ----------------------------------------------------------------------------


def _rules(game: str, text: str | None) -> RuleData:
    """The game's numbers, with the request's house rules."""
    if text is None:
        return shipped(game)
    if len(text.encode("utf-8")) > MAX_HOUSE_RULE_BYTES:
        raise HouseRuleError(
            f"larger than {MAX_HOUSE_RULE_BYTES // 1024} KiB: not a house-rule file",
            file=HOUSE_RULES,
        )
    return apply_overrides(shipped(game), text, HOUSE_RULES)


def verdict_of(check: Check, request: BaseModel) -> Any:
    """The check's verdict for a validated request, as ``vigile check`` makes it: the rule's
    arguments from the options, the rules, the dice, the rule function, every GM's die used."""
    given = dict(request.options.__dict__)  # type: ignore[attr-defined]
    roll = given.pop("roll")
    arguments = check.arguments(check.values(given))
    rules = _rules(check.game, request.house_rules)  # type: ignore[attr-defined]
    source = face_source(
        roll=roll,
        dice_values=request.dice_values,  # type: ignore[attr-defined]
        seed=request.seed,  # type: ignore[attr-defined]
    )
    verdict = check.verdict(rules, arguments, source)
    if isinstance(source, GivenFaces):
        source.finish()
    return verdict


def answer(check: Check, body: bytes, lang: Callable[[], Lang]) -> Response:
    """Validate ``body`` with the check's model, run the check, answer its JSON (or the problem
    it makes); ``lang`` gives the request's language where the body names none."""
    try:
        request = request_model(check).model_validate_json(body or b"{}")
    except ValidationError as error:
        return model_problem(check, error, lang())
    chosen = request.lang or lang()  # type: ignore[attr-defined]
    try:
        verdict = verdict_of(check, request)
    except VigileError as error:
        return vigile_problem(error, chosen)
    player = getattr(request, "view", None) == "player"
    return JSONResponse(verdict_json(verdict, chosen, view="player" if player else "gm"))


def model_problem(check: Check, error: ValidationError, lang: Lang) -> Response:
    """A request the check's model refuses: 422, ``where`` naming the option (``--stealth``) or
    the field; an unknown option named as the CLI would, with the options it may have meant."""
    found = error.errors(include_url=False)
    errors = [_issue(check, e) for e in found]
    first = errors[0]
    detail = first["message"] + (f" (and {len(errors) - 1} more)" if len(errors) > 1 else "")
    return problem(422, detail, lang, kind="invalid-input", where=first["field"], errors=errors)


def _issue(check: Check, error: Mapping[str, Any]) -> dict[str, Any]:
    loc = tuple(error.get("loc", ()))
    message = str(error.get("msg", "invalid"))
    if not loc:
        return issue(message)
    if loc[0] != "options" or len(loc) < 2:
        field = str(loc[0])
        if error.get("type") == "extra_forbidden" and field in OWN_FIELDS.values():
            flag = "--" + field.replace("_", "-")
            return issue(f"{check.title} takes no {flag} ({field})", field=field)
        return issue(f"{field}: {message}", field=field)
    key = str(loc[1])
    if error.get("type") == "extra_forbidden":
        return issue(_unknown(check, key), field=key)
    one = next((i for i in (*check.inputs, ROLL) if key in (i.name, i.dashed)), None)
    where = one.flag if one is not None else key
    return issue(f"{where}: {message}", field=where)


def _unknown(check: Check, key: str) -> str:
    """Why ``options`` may not hold ``key``: an option given twice, a field of its own, or no
    such option (and the options it may have meant)."""
    if key.replace("_", "-") in {one.dashed for one in check.inputs}:
        return f"{key}: given twice (by its name with dashes and with underscores)"
    if key in OWN_FIELDS:
        return f"--{key.replace('_', '-')}: give it as the request's {OWN_FIELDS[key]!r} field"
    if key in REFUSED:
        return f"--{key}: {REFUSED[key]}"
    plain = key.replace("-", "").replace("_", "").isalnum() and key[:1].isalnum()
    message = (
        f"No such option: --{printable(key)}"
        if plain
        else (f"No such option: {printable(key[:64])!r}")
    )
    names = [one.dashed for one in (*check.inputs, ROLL)]
    close = difflib.get_close_matches(key, names)
    if close:
        message += f" (Possible options: {', '.join('--' + c for c in sorted(close))})"
    return message


# --- the routes --------------------------------------------------------------------------------


async def _read(request: Request) -> bytes | None:
    """The body, at most :data:`MAX_BODY_BYTES`; None beyond."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_BODY_BYTES:
        return None
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            return None
        chunks.append(chunk)
    return b"".join(chunks)


def _too_large(request: Request) -> Response:
    return problem(
        413, f"a request body is at most {MAX_BODY_BYTES // 1024} KiB", request_lang(request)
    )


class CheckRoute(APIRoute):
    """``POST`` a check: the body read (at most :data:`MAX_BODY_BYTES`, 413 beyond) and
    validated by the check's own model, then the check run: FastAPI's own request handling
    (a dependency graph, a second validation) is skipped; its endpoint only documents the
    route. The game and the check are the route's own, or its path's."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        fixed: tuple[str, str] | None = getattr(self.endpoint, "check", None)

        async def handle(request: Request) -> Response:
            body = await _read(request)
            if body is None:
                return _too_large(request)
            if fixed is None:
                game, name = request.path_params["game"], request.path_params["check"]
            else:
                game, name = fixed
            try:
                found = find_check(game, name)
            except NotFound as error:
                return _not_found(error, request)
            return answer(found, body, lambda: request_lang(request))

        return handle


router = APIRouter(tags=["checks"])

_PROBLEM: Final[dict[int | str, dict[str, Any]]] = {
    status: {"description": text, "content": {"application/problem+json": {}}}
    for status, text in (
        (404, "No such game or check."),
        (413, "The request body is too large."),
        (422, "A value the check refuses: `where` names the option or the field."),
    )
}


def _not_found(error: NotFound, request: Request) -> Response:
    return problem(404, str(error), request_lang(request), where=error.where)


@router.get("", summary="Every game's checks and their options")
def list_checks(request: Request) -> Listing:
    """Every game with checks, each check with its options (name, type, range, choices,
    default, help, required) and the request fields it takes (``seed``, ``view``...), the help
    in the request's language."""
    return Listing.model_validate(listing(request_lang(request)))


def listing(lang: Lang) -> dict[str, Any]:
    """Every game's declared checks, described in ``lang``."""
    games = []
    for plugin in registry.games():
        checks = game_checks(plugin.name)
        if checks:
            games.append(
                {
                    "name": plugin.name,
                    "title": plugin.title,
                    "unit": plugin.unit,
                    "checks": [describe(check, lang) for check in checks.values()],
                }
            )
    return {"games": games}


@router.get("/{game}", summary="One game's checks", responses=_PROBLEM, response_model=GameChecks)
def list_game_checks(game: str, request: Request) -> Any:
    """One game's checks and their options."""
    lang = request_lang(request)
    try:
        checks = _checks_of(game)
    except NotFound as error:
        return _not_found(error, request)
    return {"name": game, "checks": [describe(check, lang) for check in checks.values()]}


@router.get(
    "/{game}/{check}",
    summary="One check and its options",
    responses=_PROBLEM,
    response_model=CheckInfo,
)
def describe_check(game: str, check: str, request: Request) -> Any:
    """One check, its options and the request fields it takes."""
    try:
        return describe(find_check(game, check), request_lang(request))
    except NotFound as error:
        return _not_found(error, request)


Answer = VerdictAnswer | PlayerAnswer


def _documented(check: Check) -> Callable[..., Any]:
    """The endpoint that documents one check's route (never called: :class:`CheckRoute`
    answers)."""
    model = request_model(check)
    required = model.model_fields["options"].is_required()
    annotation: Any = Annotated[model if required else model | None, Body()]

    def run_one_check(body: Any) -> Answer:  # pragma: no cover - documents the route
        raise NotImplementedError

    run_one_check.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [
            inspect.Parameter(
                "body",
                inspect.Parameter.POSITIONAL_OR_KEYWORD,
                annotation=annotation,
                default=inspect.Parameter.empty if required else None,
            )
        ],
        return_annotation=Answer,
    )
    run_one_check.__doc__ = tr(check.help, Lang.EN)
    run_one_check.check = (check.game, check.name)  # type: ignore[attr-defined]
    return run_one_check


def _add_check_routes() -> None:
    """A documented route per check of the games known now, then the one that serves a game
    registered since."""
    for plugin in registry.games():
        for check in game_checks(plugin.name).values():
            router.routes.append(
                CheckRoute(
                    f"/{check.game}/{check.name}",
                    _documented(check),
                    methods=["POST"],
                    summary=f"Run `{check.title}`",
                    responses=_PROBLEM,
                    response_model=Answer,
                    tags=["checks"],
                    operation_id=f"check_{check.game}_{check.name.replace('-', '_')}",
                )
            )

    def run_check(
        game: str, check: str, body: Annotated[dict[str, Any] | None, Body()] = None
    ) -> Answer:
        """A check of a game registered since the server started (see ``GET
        /api/v1/checks/{game}/{check}`` for its options)."""
        raise NotImplementedError  # pragma: no cover - CheckRoute answers

    router.routes.append(
        CheckRoute(
            "/{game}/{check}",
            run_check,
            methods=["POST"],
            summary="Run a check of a game registered since the server started",
            responses=_PROBLEM,
            response_model=Answer,
            tags=["checks"],
        )
    )


_add_check_routes()


def calculate(game: str, check: str, body: dict[str, Any], lang: Lang) -> tuple[int, Any]:
    """The status and JSON of ``POST /api/v1/checks/{game}/{check}`` with ``body``, without
    HTTP (the calculator's page)."""
    found = find_check(game, check)
    response = answer(found, json.dumps(body).encode(), lambda: lang)
    return response.status_code, json.loads(bytes(response.body))
