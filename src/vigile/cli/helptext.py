"""The help of every option and argument, and of the commands inside a group, in the help's
language.

The commands write their options' help in English where they declare them
(``typer.Option(help=...)``); the locale files hold each of those texts under a
``cli.param.*`` (or ``check.common.*``) key in both languages (``cli.param.simulate.runs``),
the English one word for word. A help page asked in another language
(:func:`vigile.cli.main`) walks the click command once and puts in each parameter's place the
text of the same key in that language: the English text is the key's identity, so an option
whose English changes in the code keeps its new English until its translation follows
(``tests/test_cli_help_lang.py`` lists those). A command inside a group (``vigile scenario
import``) takes its line from ``cli.subcommand.GROUP.NAME``. Nothing of this runs for an
English page, nor for a command that is not asked for its help.
"""

from __future__ import annotations

import copy
from typing import Any

from vigile.io.i18n import Lang, messages

HELP_KEYS = ("cli.param", "check.common")
"""The prefixes of the options' and arguments' help keys: the commands' own, and those of the
options every check takes that other commands share (``--json``, ``--lang``, ``--dice-values``)."""

METAVAR_KEYS = "cli.metavar"
"""The table of the placeholders an option shows for its value (``--plot FILE``), by the
English one: ``FICHIER`` in French."""

SUBCOMMAND_KEYS = "cli.subcommand"
"""The prefix of the lines of the commands inside a group (``cli.subcommand.GROUP.NAME``)."""

_DONE = "_vigile_help_lang"
"""The attribute that marks a click command already given its help in a language."""


def help_prefixes() -> tuple[str, ...]:
    """The beginnings of the help keys' names (``cli.param.``, ``check.common.``)."""
    return tuple(f"{table}." for table in HELP_KEYS)


def translations(lang: Lang, prefixes: tuple[str, ...] | None = None) -> dict[str, str]:
    """Each English text of the keys that begin with ``prefixes`` (the help keys,
    :func:`help_prefixes`, unless told), with its text in ``lang``."""
    english, other = messages(Lang.EN), messages(lang)
    chosen = help_prefixes() if prefixes is None else prefixes
    return {
        text: other[key] for key, text in english.items() if key.startswith(chosen) and key in other
    }


def translate(command: Any, lang: Lang) -> None:
    """Give ``command`` (a click command or group) and everything under it the help of
    ``lang``: its options' and arguments' from :func:`translations`, their placeholders from
    ``cli.metavar.*``, its subcommands' lines from ``cli.subcommand.*``. A text the locale
    files do not hold stays as it is (the checks' options are already built in ``lang``,
    :mod:`vigile.cli.common`)."""
    if lang is Lang.EN or getattr(command, _DONE, None) is lang:
        return
    helps, placeholders = translations(lang), translations(lang, (f"{METAVAR_KEYS}.",))
    _walk(command, (), (helps, placeholders, messages(lang)))
    setattr(command, _DONE, lang)


def _walk(
    command: Any,
    path: tuple[str, ...],
    tables: tuple[dict[str, str], dict[str, str], dict[str, str]],
) -> None:
    helps, placeholders, known = tables
    if getattr(command, "_help_option", None) is not None:
        # click keeps a command's --help option once made: one made before this help page
        # (the command built for a French ``demo``, say) says its help in English
        command._help_option = None
    _usage(command, placeholders, known)
    for param in getattr(command, "params", ()):
        text = getattr(param, "help", None)
        if isinstance(text, str) and text in helps:
            param.help = helps[text]
        shown = getattr(param, "metavar", None)
        if isinstance(shown, str) and shown in placeholders:
            param.metavar = placeholders[shown]
        elif shown is None and not getattr(param, "is_flag", False):
            _type_label(param, placeholders)
    if len(path) == 2:
        key = f"{SUBCOMMAND_KEYS}.{path[0]}.{path[1]}"
        if key in known:
            command.help = command.short_help = known[key]
    for name, sub in getattr(command, "commands", {}).items():
        _walk(sub, (*path, name), tables)


def _type_label(param: Any, placeholders: dict[str, str]) -> None:
    """The label of a value's type (click's ``<int>``) in the help's language: an option shows
    it as its placeholder; an argument, whose placeholder is its name, shows its type's name,
    so its type is a copy named in that language (the value is read as before)."""
    kind = getattr(param.type, "name", None)
    label = placeholders.get(f"<{kind}>") if isinstance(kind, str) else None
    if label is None:
        return
    if param.param_type_name == "option":
        param.metavar = label
    else:
        param.type = copy.copy(param.type)
        param.type.name = label.strip("<>")


def _usage(command: Any, placeholders: dict[str, str], known: dict[str, str]) -> None:
    """The command's usage line in the help's language: its prefix (``cli.usage.prefix``), and
    the marks of its options and subcommands."""
    english = messages(Lang.EN)
    options = placeholders.get(english[f"{METAVAR_KEYS}.options"])
    if options is not None and hasattr(command, "options_metavar"):
        command.options_metavar = options
    subcommand = placeholders.get(english[f"{METAVAR_KEYS}.command"])
    if subcommand is not None and hasattr(command, "subcommand_metavar"):
        command.subcommand_metavar = subcommand
    prefix = known.get("cli.usage.prefix")
    if prefix is None:
        return

    def format_usage(ctx: Any, formatter: Any) -> None:
        pieces = command.collect_usage_pieces(ctx)
        formatter.write_usage(ctx.command_path, " ".join(pieces), prefix=prefix)

    command.format_usage = format_usage
