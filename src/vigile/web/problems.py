"""Every error the server answers is an RFC 9457 problem: ``application/problem+json``.

A problem has ``type`` (a URI naming the kind of problem, ``about:blank`` for a plain HTTP
status), ``title`` (short, in the request's language), ``status`` and ``detail`` (what went
wrong this time: the CLI's own one-line message, or a refusal in the request's language), and
where they apply:

- ``where``: the option, field or file:line at fault (:attr:`vigile.errors.InputError.where`);
- ``rule``: the RULES.md ID that forbids an action;
- ``errors``: a list of ``{file, line, field, message}``, every error of a scenario that does
  not validate (:class:`~vigile.scene.loader.ScenarioValidationError`) or of a request that
  does not match the API's schema;
- ``needs``: the GM's next physical die (:func:`vigile.live.needs_json`);
- ``expected`` and ``actual`` for a stale sequence number.

An error of vigile's hierarchy keeps its ``status`` when it has one (the store's errors, a
refusal, a missing die); otherwise bad input is 422. An exception that is not vigile's is a
bug: it is logged with its traceback and answered 500 with no detail.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping, Sequence
from http import HTTPStatus
from typing import Any, Final

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.responses import JSONResponse, Response

from vigile.engine.live import NeedDice, Refusal
from vigile.errors import InputError, LimitError, RuleError, VigileError
from vigile.io.i18n import Lang, tr
from vigile.live import needs_json
from vigile.scene.loader import ScenarioValidationError
from vigile.store import StaleSequence

from .language import request_lang

MEDIA_TYPE: Final = "application/problem+json"
LOG = logging.getLogger("vigile.web")

TYPES: Final = "urn:vigile:problem:"
"""Prefix of vigile's own problem types (``urn:vigile:problem:refused``...)."""

TITLES: Final[dict[str, dict[Lang, str]]] = {
    "invalid-scenario": {
        Lang.EN: "The scenario does not validate",
        Lang.FR: "Le scénario n'est pas valide",
    },
    "invalid-request": {
        Lang.EN: "The request does not match the API",
        Lang.FR: "La requête ne correspond pas à l'API",
    },
    "invalid-input": {Lang.EN: "Bad input", Lang.FR: "Entrée incorrecte"},
    "refused": {
        Lang.EN: "The rules forbid this action",
        Lang.FR: "Les règles interdisent cette action",
    },
    "needs-dice": {
        Lang.EN: "The table's next die is needed",
        Lang.FR: "Le prochain dé de la table est demandé",
    },
    "stale-sequence": {
        Lang.EN: "The encounter has moved on",
        Lang.FR: "La rencontre a avancé",
    },
    "rule": {Lang.EN: "A rule forbids it", Lang.FR: "Une règle l'interdit"},
    "limit": {Lang.EN: "Over a limit", Lang.FR: "Au-delà d'une limite"},
    "store": {
        Lang.EN: "The database cannot be used",
        Lang.FR: "La base de données est inutilisable",
    },
}
"""Titles of vigile's own problem types, in each language."""

HTTP_TITLES: Final[dict[int, dict[Lang, str]]] = {
    400: {Lang.EN: "Bad request", Lang.FR: "Requête incorrecte"},
    401: {Lang.EN: "A valid token is needed", Lang.FR: "Un jeton valide est nécessaire"},
    403: {Lang.EN: "This token may not do that", Lang.FR: "Ce jeton ne le permet pas"},
    404: {Lang.EN: "Not found", Lang.FR: "Introuvable"},
    405: {Lang.EN: "Method not allowed", Lang.FR: "Méthode non permise"},
    408: {Lang.EN: "The request came too slowly", Lang.FR: "La requête est arrivée trop lentement"},
    409: {Lang.EN: "Conflict", Lang.FR: "Conflit"},
    413: {Lang.EN: "Request body too large", Lang.FR: "Corps de requête trop grand"},
    415: {Lang.EN: "Unsupported media type", Lang.FR: "Type de contenu non pris en charge"},
    422: {Lang.EN: "Unprocessable content", Lang.FR: "Contenu impossible à traiter"},
    429: {Lang.EN: "Too many at once", Lang.FR: "Trop à la fois"},
    431: {
        Lang.EN: "Request headers too large",
        Lang.FR: "En-têtes de requête trop grands",
    },
    500: {Lang.EN: "Internal error", Lang.FR: "Erreur interne"},
    503: {Lang.EN: "Service unavailable", Lang.FR: "Service indisponible"},
}


def http_title(status: int, lang: Lang) -> str:
    """The title of a plain HTTP status, in ``lang`` (HTTP's own phrase where none is ours)."""
    titles = HTTP_TITLES.get(status)
    if titles is not None:
        return titles[lang]
    return _phrase(status) or "Error"


def _phrase(status: int) -> str | None:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return None


def problem(
    status: int,
    detail: str | None,
    lang: Lang,
    *,
    kind: str | None = None,
    headers: Mapping[str, str] | None = None,
    **extra: object,
) -> JSONResponse:
    """A problem response: ``kind`` one of :data:`TITLES` (else a plain HTTP status)."""
    body: dict[str, Any] = {
        "type": TYPES + kind if kind else "about:blank",
        "title": TITLES[kind][lang] if kind else http_title(status, lang),
        "status": status,
    }
    if detail:
        body["detail"] = detail
    body.update({key: value for key, value in extra.items() if value is not None})
    return JSONResponse(body, status_code=status, media_type=MEDIA_TYPE, headers=headers)


def issue(
    message: str, *, field: str | None = None, file: str | None = None, line: int | None = None
) -> dict[str, Any]:
    """One entry of a problem's ``errors``."""
    return {"file": file, "line": line, "field": field, "message": message}


def vigile_problem(error: VigileError, lang: Lang) -> JSONResponse:
    """The problem for one of vigile's errors (see the module's docstring)."""
    status = int(getattr(error, "status", 0) or 0)
    where = getattr(error, "where", None)
    if isinstance(error, ScenarioValidationError):
        errors = [issue(e.message, field=e.field, file=e.file, line=e.line) for e in error.errors]
        return problem(
            status or 422, str(error), lang, kind="invalid-scenario", where=where, errors=errors
        )
    if isinstance(error, Refusal):
        detail = tr(error.key, lang, error.params) + (f" [{error.rule}]" if error.rule else "")
        return problem(status or 409, detail, lang, kind="refused", where=where, rule=error.rule)
    if isinstance(error, NeedDice):
        return problem(
            status or 409,
            str(error),
            lang,
            kind="needs-dice",
            where=where,
            needs=needs_json(error, lang),
        )
    if isinstance(error, StaleSequence):
        return problem(
            status or 409,
            str(error),
            lang,
            kind="stale-sequence",
            where=where,
            expected=error.expected,
            actual=error.actual,
        )
    if isinstance(error, RuleError):
        return problem(status or 409, str(error), lang, kind="rule", rule=error.rule)
    if isinstance(error, LimitError):
        return problem(status or 422, str(error), lang, kind="limit")
    if isinstance(error, InputError):
        kind = "store" if status == 503 else None if status in (404,) else "invalid-input"
        return problem(status or 422, str(error), lang, kind=kind, where=where)
    return problem(status or 422, str(error), lang, kind="invalid-input")


def _location(loc: Sequence[int | str]) -> str:
    """A request field's path as ``body.action.do``, ``query.as``."""
    parts: list[str] = []
    for part in loc:
        if isinstance(part, int):
            parts.append(f"[{part}]")
        else:
            parts.append(("." if parts else "") + str(part))
    return "".join(parts)


def validation_problem(error: RequestValidationError, lang: Lang) -> JSONResponse:
    """FastAPI's own 422 (the request does not match its schema), as a problem."""
    errors = [
        issue(str(e.get("msg", "")), field=_location(e.get("loc", ()))) for e in error.errors()
    ]
    first = errors[0] if errors else issue("invalid request")
    detail = f"{first['field']}: {first['message']}" if first["field"] else first["message"]
    if len(errors) > 1:
        detail += f" (and {len(errors) - 1} more)"
    return problem(422, detail, lang, kind="invalid-request", where=first["field"], errors=errors)


PROBLEM_SCHEMA: Final[dict[str, Any]] = {
    "type": "object",
    "description": "A problem (RFC 9457).",
    "required": ["type", "title", "status"],
    "properties": {
        "type": {"type": "string"},
        "title": {"type": "string"},
        "status": {"type": "integer"},
        "detail": {"type": "string"},
        "where": {"type": "string"},
        "rule": {"type": "string"},
        "errors": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "file": {"type": ["string", "null"]},
                    "line": {"type": ["integer", "null"]},
                    "field": {"type": ["string", "null"]},
                    "message": {"type": "string"},
                },
            },
        },
        "needs": {"type": "object"},
        "expected": {"type": "integer"},
        "actual": {"type": "integer"},
    },
}
"""The JSON schema of every problem (``#/components/schemas/Problem`` in the OpenAPI schema)."""
_PROBLEM_REF: Final = {"$ref": "#/components/schemas/Problem"}
ANY_4XX: Final[dict[str, Any]] = {
    "description": "The request is refused (a problem): 400 not HTTP/1.1, or a body that "
    "cannot be parsed; 401 or 403 the token; 404; 408 too slow; 413 a body over the cap; 422 not "
    "what the API takes; 429 too many streams at once; 431 a head too large.",
}
ANY_5XX: Final[dict[str, Any]] = {
    "description": "The server failed (500, logged) or its database cannot be used (503): a "
    "problem.",
}
_METHODS: Final = {"get", "put", "post", "delete", "options", "head", "patch", "trace"}


def document(schema: dict[str, Any]) -> dict[str, Any]:
    """The OpenAPI ``schema`` with every error documented as it is answered: each operation's
    4xx and 5xx answers are problems, and ``4XX`` and ``5XX`` cover what any request may get
    (HTTP itself refusing it, a limit); FastAPI's own validation error, never sent, goes."""
    for item in schema.get("paths", {}).values():
        for method, operation in item.items():
            if method not in _METHODS:
                continue
            responses = operation.setdefault("responses", {})
            responses.setdefault("4XX", dict(ANY_4XX))
            responses.setdefault("5XX", dict(ANY_5XX))
            for code, response in responses.items():
                if code[0] in "45":
                    response["content"] = {MEDIA_TYPE: {"schema": _PROBLEM_REF}}
                    if response.get("description") == "Validation Error":
                        response["description"] = "The request does not match the API (a problem)."
    schemas = schema.setdefault("components", {}).setdefault("schemas", {})
    schemas["Problem"] = PROBLEM_SCHEMA
    for unused in ("HTTPValidationError", "ValidationError"):
        if f'"#/components/schemas/{unused}"' not in json.dumps(schema):
            schemas.pop(unused, None)
    return schema


def install(app: FastAPI) -> None:
    """Answer every error with a problem: vigile's, FastAPI's validation, HTTP's (404 for an
    unknown route, 405...) and any other exception (500, logged); and say so in the app's
    OpenAPI schema (:func:`document`)."""
    generate = app.openapi

    def openapi() -> dict[str, Any]:
        schema = generate()  # FastAPI's, made once and kept: documented once
        if "Problem" not in schema.get("components", {}).get("schemas", {}):
            document(schema)
        return schema

    app.openapi = openapi  # type: ignore[method-assign]

    async def on_vigile(request: Request, error: Exception) -> Response:
        assert isinstance(error, VigileError)
        return vigile_problem(error, request_lang(request))

    async def on_validation(request: Request, error: Exception) -> Response:
        assert isinstance(error, RequestValidationError)
        return validation_problem(error, request_lang(request))

    async def on_http(request: Request, error: Exception) -> Response:
        assert isinstance(error, StarletteHTTPException)
        lang = request_lang(request)
        detail: str | None = error.detail if isinstance(error.detail, str) else None
        if detail in (http_title(error.status_code, Lang.EN), _phrase(error.status_code)):
            detail = None  # Starlette's default detail says no more than the title
        return problem(error.status_code, detail, lang, headers=error.headers)

    async def on_crash(request: Request, error: Exception) -> Response:
        LOG.error("%s %s failed", request.method, request.url.path, exc_info=error)
        return problem(500, None, request_lang(request))

    app.add_exception_handler(VigileError, on_vigile)
    app.add_exception_handler(RequestValidationError, on_validation)
    app.add_exception_handler(StarletteHTTPException, on_http)
    app.add_exception_handler(Exception, on_crash)
