"""What the map commands share with every other command, without the checks: the ``--json``
and ``--lang`` options, JSON that is safe on a terminal, and the help's language.

:mod:`vigile.cli.common` (the checks' options and commands) gives these too; they live here
so that ``vigile riskmap`` and ``vigile route`` start without importing the checks'
declarations, verdicts and dice (:data:`vigile.cli.MAP_COMMANDS`).
"""

from __future__ import annotations

import json
import re
from typing import Annotated

import typer

from vigile.io.i18n import Lang
from vigile.io.safe import printable

JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON object.")]
LangOpt = Annotated[Lang, typer.Option("--lang", help="Language of the explanation.")]


def json_text(data: object, *, indent: int | None = None) -> str:
    """``data`` as JSON (UTF-8 kept) that is safe on the GM's terminal: every character
    :func:`~vigile.io.safe.printable` would escape (a control character, DEL, C1, a
    bidirectional override) is written as a JSON escape (``\\u202e``), so that the value
    read back is the same and the terminal obeys none of it."""
    return _UNPRINTABLE.sub(_json_escape, json.dumps(data, ensure_ascii=False, indent=indent))


_UNPRINTABLE = re.compile(r"[^\x20-\x7e\n]")
"""What may need an escape: json escapes every C0 control in a string, so outside printable
ASCII and the new lines of ``indent``."""


def _json_escape(found: re.Match[str]) -> str:
    char = found.group()
    if printable(char) == char:
        return char
    code = ord(char)
    if code > 0xFFFF:  # a surrogate pair, as JSON writes a character past the BMP
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
    return f"\\u{code:04x}"


_HELP_LANG = [Lang.EN]
"""The language of the help of the commands built from now on (:func:`set_help_lang`)."""


def help_lang() -> Lang:
    """The language the commands built now write their help in: English unless the command
    line names another (``vigile --lang fr check skirmish noise --help``)."""
    return _HELP_LANG[0]


def set_help_lang(lang: Lang) -> None:
    """Build the commands' help in ``lang`` from now on (:func:`vigile.cli.main` calls it with
    the language the command line or ``VIGILE_LANG`` names, before it builds the command)."""
    _HELP_LANG[0] = lang
