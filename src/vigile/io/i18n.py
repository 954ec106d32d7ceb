"""Translations: every user-facing text exists in French and English.

Messages live in ``locales/<lang>.toml`` (flat tables of dotted keys) and rule statements in
``locales/rules.<lang>.toml``. A message is formatted with its parameters; a text parameter
that names a term (an attitude, a surface) is itself translated from ``term.<value>``.
"""

from __future__ import annotations

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
    text = file.read_text("utf-8")
    flat: dict[str, str] = {}
    _flatten(tomllib.loads(text), "", flat)
    return flat


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
)
"""The core's message files of one language; each game's plug-in adds its own (keys disjoint)."""


def messages(lang: Lang) -> dict[str, str]:
    """Every message of one language, by dotted key: the core's, then each game's."""
    return _messages(lang, registry.version())


@cache
def _messages(lang: Lang, version: int) -> dict[str, str]:
    merged: dict[str, str] = {}
    folder = resources.files("vigile.io").joinpath("locales")
    for pattern in MESSAGE_FILES:
        name = pattern.format(lang=lang.value)
        if folder.joinpath(name).is_file():
            merged.update(_catalogue(name))
    for plugin in registry.games():
        for pattern in plugin.messages:
            package, _, name = pattern.format(lang=lang.value).rpartition(":")
            merged.update(_catalogue(name, package or "vigile.io"))
    return merged


def rule_statements(lang: Lang) -> dict[str, dict[str, str]]:
    """One-line statements of every rule, by ruleset then rule ID (``vigile rules``)."""
    text = resources.files("vigile.io").joinpath("locales", f"rules.{lang.value}.toml")
    data = tomllib.loads(text.read_text("utf-8"))
    return {name: {k: str(v) for k, v in table.items()} for name, table in data.items()}


def tr(key: str, lang: Lang, params: Mapping[str, object] | None = None) -> str:
    """The message ``key`` in ``lang``, formatted with ``params``.

    A missing key is a bug, not a user error: it raises KeyError (the test suite checks that
    every key used exists in both languages).
    """
    catalogue = messages(lang)
    template = catalogue[key]
    if not params:
        return template
    shown = {name: _term(value, catalogue) for name, value in params.items()}
    return template.format(**shown)


def _term(value: object, catalogue: Mapping[str, str]) -> object:
    if isinstance(value, str):
        return catalogue.get(f"term.{value}", value)
    return value
