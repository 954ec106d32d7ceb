"""The language of a request: ``?lang=fr|en``, else the best of ``Accept-Language``, else en."""

from __future__ import annotations

from starlette.requests import HTTPConnection

from vigile.io.i18n import Lang

MAX_HEADER = 512
"""Characters of ``Accept-Language`` read; the rest is ignored."""


def parse_accept_language(header: str) -> Lang | None:
    """The language of ours that the header prefers most (``fr-CA;q=0.8, en;q=0.5`` → fr);
    None when it names neither."""
    best: tuple[float, int, Lang] | None = None
    for position, item in enumerate(header[:MAX_HEADER].split(",")):
        tag, _, params = item.strip().partition(";")
        primary = tag.strip().split("-")[0].lower()
        try:
            lang = Lang(primary)
        except ValueError:
            continue
        quality = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name.strip().lower() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        if not 0 < quality <= 1:
            continue
        candidate = (quality, -position, lang)
        if best is None or candidate[:2] > best[:2]:
            best = candidate
    return None if best is None else best[2]


def request_lang(request: HTTPConnection) -> Lang:
    """The request's language; never fails (an unknown ``?lang`` falls back to the header:
    the route's own parameter refuses it with a 422)."""
    asked = request.query_params.get("lang")
    if asked is not None:
        try:
            return Lang(asked)
        except ValueError:
            pass
    return parse_accept_language(request.headers.get("accept-language", "")) or Lang.EN
