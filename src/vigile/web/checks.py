"""The single checks over HTTP: ``/api/v1/checks``, the same checks as ``vigile check``.

``POST /api/v1/checks/{game}/{check}`` runs exactly what ``vigile check GAME CHECK --json``
runs and answers exactly the JSON it prints. The request's options become the command's own
arguments (``{"stealth": 5, "perception": "3,8", "invisible": true}`` →
``--stealth=5 --perception=3,8 --invisible``) and the game's click command parses them, so a
value is checked, refused and explained exactly as on the command line. The command runs in
this process and hands its verdict to :mod:`vigile.checks.sink` instead of printing it.

The server does not import the CLI (the CLI sits above it): each game's check commands are
found through the registry, as the game's plug-in names them (:attr:`GamePlugin.cli`), and
their click commands are built once per game.

::

    GET  /api/v1/checks                   every game, its checks and each check's options
    GET  /api/v1/checks/{game}            one game's checks
    GET  /api/v1/checks/{game}/{check}    one check
    POST /api/v1/checks/{game}/{check}    run it: {"options": {...}, "lang", "seed",
                                          "dice_values", "view", "house_rules"}

Errors are RFC 9457 problems (:mod:`vigile.web.problems`): an unknown game or check is 404; a
bad option is 422 with the CLI's own one-line message and ``where`` naming the option.
"""

from __future__ import annotations

import difflib
import inspect
import re
import tempfile
from collections.abc import Callable, Coroutine, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from enum import Enum
from functools import cache
from pathlib import Path
from typing import Annotated, Any, Final, Literal

import typer
from fastapi import APIRouter, Body, Request
from fastapi.routing import APIRoute
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictFloat, StrictInt
from starlette.responses import JSONResponse, Response
from starlette.types import Message
from typer.core import TyperOption

from vigile import registry
from vigile.checks.sink import Captured, capture
from vigile.errors import HouseRuleError, InputError, VigileError
from vigile.io.i18n import Lang
from vigile.io.json_out import verdict_json
from vigile.io.safe import printable
from vigile.rulesets.data import MAX_HOUSE_RULE_BYTES
from vigile.rulesets.limits import LIMITS

from .language import request_lang
from .problems import problem, vigile_problem

MAX_BODY_BYTES: Final = 128 * 1024
"""The largest request body read (a house-rule file is at most 64 KiB)."""
MAX_OPTIONS: Final = 64
MAX_LIST: Final = LIMITS.max_observers
"""Values in one option's list: one per observer, as many as a check allows."""
MAX_TEXT: Final = 8 * LIMITS.max_observers
"""Characters in one option's value: room for every observer's bonus (``-100,``)."""
MAX_DICE_VALUES: Final = 1024

OWN_FIELDS: Final = {
    "--seed": "seed",
    "--dice-values": "dice_values",
    "--view": "view",
    "--house-rules": "house_rules",
    "--lang": "lang",
}
"""The common options the request gives in fields of their own, not in ``options``."""
REFUSED: Final = {
    "--json": "the answer is always JSON",
    "--help": "the checks and their options are at GET /api/v1/checks",
}
_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}")
_HOUSE_RULES_NAME: Final = "house_rules"
"""What an error about the request's house rules calls them (not the temporary file)."""

_TYPES: Final = {
    "integer": "integer",
    "int": "integer",
    "float": "number",
    "boolean": "boolean",
    "bool": "boolean",
    "text": "string",
    "str": "string",
    "string": "string",
    "choice": "string",
}
"""JSON types of click's parameter types, by click's name for them (click's own, or the one
of the click that Typer vendors)."""


# --- the request -----------------------------------------------------------------------------

Text = Annotated[str, Field(max_length=MAX_TEXT)]
Scalar = StrictBool | StrictInt | StrictFloat | Text
OptionValue = Scalar | Annotated[list[Scalar], Field(max_length=MAX_LIST)]


class CheckRequest(BaseModel):
    """What to check: the command's options, and the options every check shares."""

    model_config = ConfigDict(extra="forbid")

    options: Annotated[
        dict[Annotated[str, Field(max_length=64)], OptionValue],
        Field(
            max_length=MAX_OPTIONS,
            description="The check's options by name (`stealth`, `total-concealment` or "
            "`total_concealment`): a number, a string or a boolean (a flag), or a list of them "
            "(one per repeat of an option given several times; joined with commas for an option "
            "that takes a comma-separated list).",
            examples=[{"stealth": 5, "perception": "3,8", "invisible": True}],
        ),
    ] = {}
    lang: Lang | None = Field(
        default=None, description="Language of the answer; else `?lang=`, else Accept-Language."
    )
    seed: StrictInt | None = Field(
        default=None, description="Roll the dice with this seed (--seed)."
    )
    dice_values: Annotated[list[StrictInt], Field(max_length=MAX_DICE_VALUES)] | None = Field(
        default=None, description="The GM's own dice, in order (--dice-values)."
    )
    view: Literal["gm", "player"] | None = Field(
        default=None, description="gm: everything; player: what the character knows (--view)."
    )
    house_rules: Annotated[str, Field(max_length=MAX_HOUSE_RULE_BYTES)] | None = Field(
        default=None, description="A house-rule file's TOML text (--house-rules)."
    )


# --- the checks, from each game's click commands -----------------------------------------------


@dataclass(frozen=True)
class Option:
    """One option of a check command, as the API names it."""

    name: str
    """The long flag without its dashes (``total-concealment``)."""
    param: TyperOption

    @property
    def flag(self) -> str:
        return f"--{self.name}"

    @property
    def type(self) -> str:
        """The JSON type of a value: ``integer``, ``number``, ``boolean`` or ``string``."""
        if self.param.is_flag:
            return "boolean"
        name = self.param.type.name
        return _TYPES.get(name, name)

    @property
    def choices(self) -> list[str] | None:
        found = getattr(self.param.type, "choices", None)
        return None if found is None else [str(_json_value(c)) for c in found]

    def describe(self) -> dict[str, Any]:
        """The option for ``GET /api/v1/checks``."""
        param = self.param
        return {
            "name": self.name,
            "flag": self.flag,
            "type": self.type,
            "multiple": param.multiple,
            "choices": self.choices,
            "default": None if param.multiple else _json_value(param.default),
            "required": param.required,
            "metavar": param.metavar,
            "help": param.help,
        }


@dataclass(frozen=True)
class Check:
    """One ``vigile check GAME CHECK`` command and its options."""

    game: str
    name: str
    command: Any
    """The click command (Typer's vendored click: typed loosely)."""
    options: dict[str, Option]
    """The options a request may give, by name (and by name with underscores)."""
    flags: frozenset[str]
    """Every long flag the command takes (the common ones too)."""

    @property
    def title(self) -> str:
        return f"vigile check {self.game} {self.name}"

    @property
    def listed(self) -> list[Option]:
        return list({id(o): o for o in self.options.values()}.values())

    def describe(self) -> dict[str, Any]:
        """The check for ``GET /api/v1/checks``."""
        return {
            "game": self.game,
            "name": self.name,
            "help": inspect.cleandoc(self.command.help or ""),
            "options": [option.describe() for option in self.listed],
            "fields": [
                field
                for flag, field in OWN_FIELDS.items()
                if flag in self.flags and field != "lang"
            ]
            + ["lang"],  # the API renders the answer in any language
        }


def _json_value(value: object) -> object:
    if isinstance(value, Enum):
        value = value.value
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return str(value)


def _long_flag(param: TyperOption) -> str | None:
    names = [o for o in param.opts if o.startswith("--")]
    return names[0] if names else None


def _check(game: str, name: str, command: Any) -> Check:
    options: dict[str, Option] = {}
    flags: set[str] = set()
    for param in command.params:
        if not isinstance(param, TyperOption):
            continue
        flag = _long_flag(param)
        if flag is None:
            continue
        flags.add(flag)
        if flag in OWN_FIELDS or flag in REFUSED:
            continue
        option = Option(flag[2:], param)
        options[option.name] = option
        options.setdefault(option.name.replace("-", "_"), option)
    return Check(game, name, command, options, frozenset(flags))


@cache
def _game_checks(game: str, version: int) -> dict[str, Check]:
    """A game's checks, built once (per registry version) from its plug-in's Typer app."""
    del version  # the cache key: a game registered since rebuilds
    plugin = registry.get(game, where="game")
    if plugin.cli is None:
        return {}
    group = typer.main.get_command(plugin.load(plugin.cli))
    # An app of one command is that command (Typer makes no group of it).
    commands: dict[str, Any] = getattr(group, "commands", None) or {group.name: group}
    return {name: _check(game, name, command) for name, command in commands.items()}


def game_checks(game: str) -> dict[str, Check]:
    """Every check of ``game``; :class:`~vigile.errors.InputError` for an unknown game."""
    return _game_checks(game, registry.version())


def find_check(game: str, check: str) -> Check:
    """The check ``game check``; :class:`NotFound` when there is none."""
    checks = _checks_of(game)
    if check not in checks:
        known = f" (one of: {', '.join(checks)})" if checks else ""
        raise NotFound(f"{printable(check)!r} is not a check of {game}{known}", where="check")
    return checks[check]


def _checks_of(game: str) -> dict[str, Check]:
    try:
        return game_checks(game)
    except InputError as error:
        raise NotFound(printable(str(error)), where="game") from None


class NotFound(Exception):
    """No such game or check (404)."""

    def __init__(self, message: str, *, where: str) -> None:
        super().__init__(message)
        self.where = where


class BadOption(Exception):
    """An option the request may not give, or gives wrongly, before click sees it (422)."""

    def __init__(self, message: str, *, where: str) -> None:
        super().__init__(message)
        self.where = where


# --- from the request to the command's arguments -------------------------------------------------


def _text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def option_args(check: Check, options: dict[str, OptionValue]) -> list[str]:
    """The command-line arguments for the request's options: a value as ``--name=value`` (so
    no value can pass for an option), a flag as ``--name`` when true."""
    args: list[str] = []
    seen: dict[Option, str] = {}
    for key, value in options.items():
        option = _option(check, key)
        if option in seen:
            raise BadOption(f"{key}: given twice (also as {seen[option]})", where=key)
        seen[option] = key
        args.extend(_option_args(option, value, key))
    return args


def _option(check: Check, key: str) -> Option:
    found = check.options.get(key)
    if found is not None:
        return found
    flag = "--" + key.replace("_", "-")
    if flag in OWN_FIELDS:
        field = OWN_FIELDS[flag]
        raise BadOption(f"{flag}: give it as the request's {field!r} field", where=key)
    if flag in REFUSED:
        raise BadOption(f"{flag}: {REFUSED[flag]}", where=key)
    shown = printable(key) if _NAME.fullmatch(key) else repr(printable(key[:64]))
    message = f"No such option: --{shown}" if _NAME.fullmatch(key) else f"No such option: {shown}"
    close = difflib.get_close_matches(key, [o.name for o in check.listed])
    if close:
        message += f" (Possible options: {', '.join('--' + c for c in sorted(close))})"
    raise BadOption(message, where=key)


def _option_args(option: Option, value: OptionValue, key: str) -> list[str]:
    param = option.param
    if param.is_flag:
        if not isinstance(value, bool):
            raise BadOption(f"{option.flag} is a flag: true or false", where=key)
        if value:
            return [option.flag]
        if param.secondary_opts:
            return [param.secondary_opts[0]]
        if not param.default:
            return []
        raise BadOption(f"{option.flag} is always on", where=key)
    if isinstance(value, list):
        if param.multiple:
            return [f"{option.flag}={_text(v)}" for v in value]
        if option.type != "string" or option.choices is not None:
            raise BadOption(f"{option.flag} takes one value, not a list", where=key)
        return [f"{option.flag}={','.join(_text(v) for v in value)}"]
    return [f"{option.flag}={_text(value)}"]


def command_args(check: Check, body: CheckRequest, house_rules: Path | None) -> list[str]:
    """Every argument of the command: the options, then the request's own fields."""
    args = option_args(check, body.options)
    fields: list[tuple[str, str | None]] = [
        ("--seed", None if body.seed is None else str(body.seed)),
        (
            "--dice-values",
            None if body.dice_values is None else ",".join(map(str, body.dice_values)),
        ),
        ("--view", body.view),
        ("--house-rules", None if house_rules is None else str(house_rules)),
    ]
    for flag, value in fields:
        if value is None:
            continue
        if flag not in check.flags:
            field = OWN_FIELDS[flag]
            raise BadOption(
                f"vigile check {check.game} {check.name} takes no {flag} ({field})", where=field
            )
        args.append(f"{flag}={value}")
    return args


@contextmanager
def _house_rules_file(text: str | None) -> Iterator[Path | None]:
    """The request's house rules as a file for the command, deleted afterwards."""
    if text is None:
        yield None
        return
    with tempfile.TemporaryDirectory(prefix="vigile-house-rules-") as folder:
        path = Path(folder, f"{_HOUSE_RULES_NAME}.toml")
        path.write_text(text, encoding="utf-8")
        yield path


def _renamed(error: VigileError, path: Path | None) -> VigileError:
    """An error about the temporary house-rule file, naming the request's field instead."""
    if path is None or not isinstance(error, HouseRuleError) or error.file != str(path):
        return error
    where = _HOUSE_RULES_NAME + (f":{error.line}" if error.line is not None else "")
    message = str(error).removeprefix(f"{error.where}: ")
    return InputError(message.replace(str(path), _HOUSE_RULES_NAME), where=where)


def _click_where(error: typer.TyperException) -> str | None:
    """The option a click error is about."""
    param = getattr(error, "param", None)
    if isinstance(param, TyperOption):
        return _long_flag(param) or param.name
    name = getattr(error, "option_name", None)
    return name if isinstance(name, str) else None


def invoke(check: Check, args: list[str]) -> list[Captured]:
    """Parse ``args`` with the check's click command and run it, catching its verdict."""
    command = check.command
    with capture() as caught, command.make_context(check.title, args) as context:
        command.invoke(context)
    return caught


def run(check: Check, body: CheckRequest, lang: Lang) -> Response:
    """Run the check as ``vigile check GAME CHECK --json`` would, and answer its JSON (or the
    problem its error makes)."""
    try:
        with _house_rules_file(body.house_rules) as path:
            try:
                caught = invoke(check, command_args(check, body, path))
            except VigileError as error:
                return vigile_problem(_renamed(error, path), lang)
    except BadOption as error:
        return problem(422, str(error), lang, kind="invalid-input", where=error.where)
    except typer.TyperException as error:  # click's usage errors (Typer vendors click)
        detail = printable(error.format_message())
        return problem(422, detail, lang, kind="invalid-input", where=_click_where(error))
    if len(caught) != 1:
        raise RuntimeError(
            f"vigile check {check.game} {check.name} delivered {len(caught)} verdicts, not one"
        )
    verdict, view = caught[0]
    return JSONResponse(verdict_json(verdict, lang, view="player" if view == "player" else "gm"))


# --- the routes --------------------------------------------------------------------------------


class CappedRoute(APIRoute):
    """A route that reads at most :data:`MAX_BODY_BYTES` of a request's body (413 beyond)."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def capped(request: Request) -> Response:
            if request.method not in ("POST", "PUT", "PATCH"):
                return await handler(request)
            too_large = problem(
                413,
                f"a request body is at most {MAX_BODY_BYTES // 1024} KiB",
                request_lang(request),
            )
            declared = request.headers.get("content-length", "")
            if declared.isdigit() and int(declared) > MAX_BODY_BYTES:
                return too_large
            chunks: list[bytes] = []
            size = 0
            async for chunk in request.stream():
                size += len(chunk)
                if size > MAX_BODY_BYTES:
                    return too_large
                chunks.append(chunk)
            return await handler(Request(request.scope, _replay(b"".join(chunks), request)))

        return capped


def _replay(body: bytes, request: Request) -> Callable[[], Coroutine[Any, Any, Message]]:
    """A ``receive`` that gives the body already read, then listens to the client again."""
    sent = False

    async def receive() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await request.receive()

    return receive


router = APIRouter(tags=["checks"], route_class=CappedRoute)

_PROBLEM: Final[dict[int | str, dict[str, Any]]] = {
    status: {"description": text, "content": {"application/problem+json": {}}}
    for status, text in (
        (404, "No such game or check."),
        (413, "The request body is too large."),
        (422, "A bad option: the CLI's own message, `where` names the option."),
    )
}


def _not_found(error: NotFound, request: Request) -> Response:
    return problem(404, str(error), request_lang(request), where=error.where)


@router.get("", summary="Every game's checks and their options")
def list_checks() -> dict[str, Any]:
    """Every game with checks, each check with its options (name, type, choices, default,
    help, required) and the request fields it takes (``seed``, ``view``...)."""
    games = []
    for plugin in registry.games():
        checks = game_checks(plugin.name)
        if checks:
            games.append(
                {
                    "name": plugin.name,
                    "title": plugin.title,
                    "unit": plugin.unit,
                    "checks": [check.describe() for check in checks.values()],
                }
            )
    return {"games": games}


@router.get("/{game}", summary="One game's checks", responses=_PROBLEM)
def list_game_checks(game: str, request: Request) -> Any:
    """One game's checks and their options."""
    try:
        checks = _checks_of(game)
    except NotFound as error:
        return _not_found(error, request)
    return {"name": game, "checks": [check.describe() for check in checks.values()]}


@router.get("/{game}/{check}", summary="One check and its options", responses=_PROBLEM)
def describe_check(game: str, check: str, request: Request) -> Any:
    """One check, its options and the request fields it takes."""
    try:
        return find_check(game, check).describe()
    except NotFound as error:
        return _not_found(error, request)


@router.post(
    "/{game}/{check}",
    summary="Run one check, as `vigile check GAME CHECK --json`",
    responses=_PROBLEM,
)
def run_check(
    game: str,
    check: str,
    request: Request,
    body: Annotated[CheckRequest | None, Body()] = None,
) -> Response:
    """Run the check: the answer is the JSON ``vigile check GAME CHECK --json`` prints with the
    same options (the explanation in the request's language)."""
    asked = body or CheckRequest()
    try:
        found = find_check(game, check)
    except NotFound as error:
        return _not_found(error, request)
    return run(found, asked, asked.lang or request_lang(request))
