"""Translations: every user-facing text exists in French and English.

Messages live in ``locales/<lang>.toml`` (flat tables of dotted keys) and rule statements in
``locales/rules.<lang>.toml``. A message is formatted with its parameters; a text parameter
that names a term (an attitude, a surface) is itself translated from ``term.<value>``.
"""

from __future__ import annotations

import os
import sys
import tomllib
from collections.abc import Mapping
from enum import StrEnum
from functools import cache
from importlib import resources

from vigile import registry
from vigile.errors import InputError


class Lang(StrEnum):
    FR = "fr"
    EN = "en"


def lang_of(value: str) -> Lang:
    try:
        return Lang(value)
    except ValueError:
        raise InputError(f"{value!r}: choose fr or en", where="--lang") from None


@cache
def _catalogue(name: str, package: str = "vigile.io") -> dict[str, str]:
    """A message file: ``locales/NAME`` in vigile's ``io`` package, or ``NAME`` in a game's
    own package."""
    root = resources.files(package)
    file = root.joinpath("locales", name) if package == "vigile.io" else root.joinpath(name)
    return _parsed(file.read_text("utf-8"))


PARSED_CACHE = "VIGILE_MESSAGES_CACHE"
"""The environment variable naming the folder of parsed message files (``0``: none); by
default ``vigile/messages`` in the user's cache directory."""


def _parsed(text: str) -> dict[str, str]:
    """A message file's flat table, kept as JSON in the cache folder under the digest of its
    text: parsing the TOML of both languages' messages is some 25 ms of each command (every
    game's files are read when its plug-in is loaded), reading the JSON 2 ms. A cache that
    cannot be read or written is skipped: the text is parsed, as it would be without it."""
    import hashlib
    import json

    folder = _cache_folder()
    digest = hashlib.blake2b(text.encode("utf-8"), digest_size=16).hexdigest()
    path = os.path.join(folder, f"{digest}.json") if folder else None
    if path is not None:
        try:
            with open(path, encoding="utf-8") as kept:
                found = json.load(kept)
        except (OSError, ValueError):
            pass
        else:
            if isinstance(found, dict) and all(isinstance(v, str) for v in found.values()):
                return found
    flat: dict[str, str] = {}
    _flatten(tomllib.loads(text), "", flat)
    if path is not None:
        _keep(path, json.dumps(flat, ensure_ascii=False))
    return flat


def _cache_folder() -> str | None:
    """Where parsed message files are kept (:data:`PARSED_CACHE`), or None."""
    named = os.environ.get(PARSED_CACHE)
    if named is not None:
        return None if named in ("", "0") else named
    if sys.platform.startswith("linux"):  # platformdirs' answer, without its 30 ms import
        base = os.environ.get("XDG_CACHE_HOME", "").strip()
        if not os.path.isabs(base):
            base = os.path.join(os.path.expanduser("~"), ".cache")
        return os.path.join(base, "vigile", "messages")
    from platformdirs import user_cache_path

    return str(user_cache_path("vigile", appauthor=False) / "messages")


def _keep(path: str, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all (another process may read it meanwhile:
    :func:`vigile.io.files.write_text`); a folder that cannot be written is passed over."""
    from pathlib import Path

    from vigile.errors import InputError
    from vigile.io.files import write_text

    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        write_text(Path(path), text, option=PARSED_CACHE)
    except (OSError, InputError):
        pass  # a read-only home, a full disk: parsed again next time


def _flatten(node: Mapping[str, object], prefix: str, out: dict[str, str]) -> None:
    for key, value in node.items():
        if isinstance(value, Mapping):
            _flatten(value, f"{prefix}{key}.", out)
        else:
            out[f"{prefix}{key}"] = str(value)


MESSAGE_FILES = (
    "{lang}.toml",
    "engine.{lang}.toml",
    "sim.{lang}.toml",
    "live.{lang}.toml",
    "play.{lang}.toml",
    "web.{lang}.toml",
    "checks.{lang}.toml",
    "cli.{lang}.toml",
    "scene.{lang}.toml",
)
"""The core's message files of one language; each game's plug-in adds its own (keys disjoint)."""


REQUIRED_KEYS = ("ruleset.{name}",)
"""The message keys every game provides in each language (``{name}``: the game's name): its
title in ``vigile rules`` and in a verdict's explanation. A game's verdicts also need
``check.{name}.{check}`` for each check they name (:attr:`vigile.checks.verdict.Verdict.check`),
and every key its events and verdicts use (``docs/plugins.md``)."""


def messages(lang: Lang) -> dict[str, str]:
    """Every message of one language, by dotted key: the core's, then each game's."""
    return _messages(lang, registry.version())


@cache
def _core(lang: Lang) -> dict[str, str]:
    """The core's messages of one language (:data:`MESSAGE_FILES`)."""
    merged: dict[str, str] = {}
    folder = resources.files("vigile.io").joinpath("locales")
    for pattern in MESSAGE_FILES:
        name = pattern.format(lang=lang.value)
        if folder.joinpath(name).is_file():
            merged.update(_catalogue(name))
    return merged


def _game_messages(plugin: registry.GamePlugin, lang: Lang) -> dict[str, str]:
    """A game's own messages of one language (its plug-in's ``messages`` files)."""
    own: dict[str, str] = {}
    for pattern in plugin.messages:
        package, _, name = pattern.format(lang=lang.value).rpartition(":")
        own.update(_catalogue(name, package or "vigile.io"))
    return own


@cache
def _messages(lang: Lang, version: int) -> dict[str, str]:
    merged = dict(_core(lang))
    owner = dict.fromkeys(merged, "the core")
    for plugin in registry.games():
        own = _game_messages(plugin, lang)
        taken = sorted(key for key in own if key in owner)
        if taken:
            raise registry.PluginError(
                f"the game plug-in {plugin.name!r}: its {lang.value} messages overwrite "
                f"{owner[taken[0]]}'s: {', '.join(taken[:5])}"
            )
        merged.update(own)
        owner.update(dict.fromkeys(own, f"the game {plugin.name!r}"))
    return merged


def _declared_help(plugin: registry.GamePlugin) -> tuple[list[str], str | None]:
    """The message keys of the help of a plug-in's declared checks (its ``cli`` when it is a
    :class:`~vigile.checks.declare.Checks`: the game's, each check's and each input's), and
    why they cannot be read, if so. The built-in games' are checked by the test suite, not at
    each start (their checks are imported only where a command needs them)."""
    if not plugin.cli or plugin.name in registry.BUILTIN:
        return [], None
    from vigile.checks.declare import Checks

    try:
        declared = plugin.load(plugin.cli)
    except Exception as error:  # a plug-in's own code: whatever it raises is its problem
        return [], f"its checks ({plugin.cli}) cannot be loaded ({type(error).__name__}: {error})"
    if not isinstance(declared, Checks):
        return [], None  # a Typer app of its own: its help is its own
    keys = [declared.help]
    for check in declared.checks:
        keys.append(check.help)
        keys += [one.help for one in check.inputs]
    return list(dict.fromkeys(keys)), None


def plugin_problems(plugin: registry.GamePlugin) -> list[str]:
    """What is wrong with a game's messages and rule statements, one line each: a file that
    cannot be read, a key of the core it would overwrite, a key of :data:`REQUIRED_KEYS` or a
    declared check's help (:func:`_declared_help`) missing in a language, a statement of a rule
    not its own. Run when the plug-in is registered or loaded
    (:func:`vigile.registry.add_check`)."""
    found: list[str] = []
    helps, unreadable = _declared_help(plugin)
    if unreadable:
        found.append(unreadable)
    for lang in Lang:
        try:
            own = _game_messages(plugin, lang)
        except (OSError, ModuleNotFoundError, tomllib.TOMLDecodeError) as error:
            found.append(f"its {lang.value} message file cannot be read ({error})")
            continue
        core = _core(lang)
        taken = sorted(key for key in own if key in core)
        if taken:
            found.append(f"its {lang.value} messages overwrite core keys: {', '.join(taken[:5])}")
        for pattern in REQUIRED_KEYS:
            key = pattern.format(name=plugin.name)
            if key not in own and key not in core:
                found.append(f"the message key {key!r} is missing in {lang.value}")
        absent = [key for key in helps if key not in own and key not in core]
        if absent:
            found.append(
                f"its checks' help is missing in {lang.value}: {', '.join(absent[:5])}"
                + (f" (and {len(absent) - 5} more)" if len(absent) > 5 else "")
            )
        try:
            statements = _game_statements(plugin, lang)
        except (OSError, ModuleNotFoundError, tomllib.TOMLDecodeError) as error:
            found.append(f"its {lang.value} rule statements cannot be read ({error})")
            continue
        strangers = [rule for rule in statements if not rule.startswith(f"{plugin.rule_prefix}-")]
        if strangers:
            found.append(
                f"its {lang.value} rule statements name rules not its own "
                f"({plugin.rule_prefix}-…): {', '.join(strangers[:5])}"
            )
    return found


registry.add_check(plugin_problems)


def _game_statements(plugin: registry.GamePlugin, lang: Lang) -> dict[str, str]:
    """A game's own rule statements of one language (its plug-in's ``rule_statements``)."""
    own: dict[str, str] = {}
    for pattern in plugin.rule_statements:
        package, _, name = pattern.format(lang=lang.value).rpartition(":")
        own.update(_catalogue(name, package or "vigile.io"))
    return own


def rule_statements(lang: Lang) -> dict[str, dict[str, str]]:
    """One-line statements of every rule, by ruleset then rule ID (``vigile rules``): the
    built-in games' from ``rules.<lang>.toml``, each other game's from its plug-in."""
    text = resources.files("vigile.io").joinpath("locales", f"rules.{lang.value}.toml")
    data = tomllib.loads(text.read_text("utf-8"))
    found = {name: {k: str(v) for k, v in table.items()} for name, table in data.items()}
    for plugin in registry.games():
        own = _game_statements(plugin, lang)
        if own:
            found.setdefault(plugin.name, {}).update(own)
    return found


def tr(key: str, lang: Lang, params: Mapping[str, object] | None = None) -> str:
    """The message ``key`` in ``lang``, formatted with ``params``.

    A missing key is a bug, not a user error: it raises KeyError (the test suite checks that
    every key used exists in both languages).
    """
    catalogue = messages(lang)
    template = catalogue[key]
    if not params:
        return template
    shown = {name: _shown(name, value, catalogue, lang) for name, value in params.items()}
    return template.format(**shown)


TITLED_PARAMS = {"ruleset": "ruleset.{}", "dice": "dice_mode.{}"}
"""Parameters whose text value is a name with a title in each language: ``ruleset`` a game
(``skirmish``: "Escarmouche" in French), ``dice`` a live encounter's dice (``given``: the
table's dice)."""


def _shown(name: str, value: object, catalogue: Mapping[str, str], lang: Lang) -> object:
    if name in TITLED_PARAMS and isinstance(value, str):
        titled = catalogue.get(TITLED_PARAMS[name].format(value))
        if titled is not None:
            return titled
    return _term(value, catalogue, lang)


def said(message: str, lang: Lang) -> str:
    """A message from a layer below the translations in ``lang``: a
    :class:`vigile.errors.Said` from its key (its parameters that are ``Said`` too), else the
    message as it is (English: a key the catalogue lacks, or a text with no key)."""
    key = getattr(message, "key", None)
    if lang is Lang.EN or not isinstance(key, str) or key not in messages(lang):
        return str(message)  # the English is the message itself
    params: Mapping[str, object] = getattr(message, "params", {})
    shown = {
        name: said(value, lang) if isinstance(value, str) and hasattr(value, "key") else value
        for name, value in params.items()
    }
    return tr(key, lang, shown)


def issue_line(issue: object, lang: Lang) -> str:
    """One problem of a scenario (:class:`vigile.scene.loader.ScenarioIssue`) on one line,
    ``file:line: field: message``, its message in ``lang`` where it has a key (pydantic's own
    messages stay English)."""
    message: str = getattr(issue, "message", "")
    if lang is Lang.EN or not hasattr(message, "key"):
        return str(issue)
    file, line, field = (getattr(issue, name, None) for name in ("file", "line", "field"))
    where = f"{file}:{line}" if line is not None else str(file)
    text = said(message, lang)
    return f"{where}: {field}: {text}" if field else f"{where}: {text}"


def _term(value: object, catalogue: Mapping[str, str], lang: Lang) -> object:
    """A parameter as the message shows it: a term translated, a decimal number with the
    language's decimal mark (``86,36`` in French)."""
    if isinstance(value, str):
        return catalogue.get(f"term.{value}", value)
    if isinstance(value, float) and lang is Lang.FR:
        return french_decimal(value)
    return value


def number_text(value: float, lang: Lang, spec: str = "g") -> str:
    """``value`` formatted with ``spec`` as a reader of ``lang`` writes it: in French a decimal
    comma and a narrow no-break space between thousands (``10\u202f000,5``)."""
    shown = format(value, spec)
    if lang is Lang.FR:
        return shown.replace(",", "\u202f").replace(".", ",")
    return shown


def point_text(x: float, y: float, lang: Lang, spec: str = "g") -> str:
    """A point: ``(12.5, 40)``, in French ``(12,5 ; 40)`` (the comma is the decimal mark)."""
    sx, sy = number_text(x, lang, spec), number_text(y, lang, spec)
    return f"({sx} ; {sy})" if lang is Lang.FR else f"({sx}, {sy})"


def french_decimal(value: float) -> str:
    """A decimal number as a French reader writes it: ``86,36`` for ``86.36`` (the same digits
    as the English text: the caller rounds, :func:`vigile.checks.numbers.quoted`)."""
    return str(value).replace(".", ",")
