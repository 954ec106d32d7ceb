"""The pages' words and numbers: messages in the reader's language, chances and distances
written as a French or an English reader writes them (``33,33 %`` / ``33.33%``; in French,
metres beside the d20 games' feet: ``30 ft (9 m)``, 1,5 m a 5-ft square as the French books
count it)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any, Final

from vigile.checks.numbers import percent_text, quoted
from vigile.io.i18n import Lang, messages, tr

METRES_PER_FOOT: Final = Fraction(3, 10)
"""1,5 m per 5-ft square: the French editions' conversion."""
LADDER: Final = ("unaware", "presence", "direction", "location", "observed")
"""The awareness ladder, lowest first (RULES.md §4)."""


def text(key: str, lang: Lang, **params: object) -> str:
    """A page's message ``web.KEY`` in ``lang``."""
    return tr(f"web.{key}", lang, params)


def translator(lang: Lang) -> Callable[..., str]:
    """``t(key, **params)`` for the templates: ``web.KEY``, else ``KEY`` itself (a term of
    the rules, ``term.observed``), else the key's last part (the name of a field that an
    action gained since: the tests ask for its text in both languages)."""

    def t(key: str, **params: object) -> str:
        known = messages(lang)
        own = f"web.{key}"
        if own not in known and key not in known:
            return key.rpartition(".")[2]  # a field a game added since: its own name
        return tr(own if own in known else key, lang, params)

    return t


def has_text(key: str, lang: Lang) -> bool:
    return key in messages(lang)


def chance(value: Fraction | str | float, lang: Lang) -> str:
    """A chance for display: ``33.33%``, in French ``33,33 %`` (a no-break space)."""
    if isinstance(value, str):
        value = Fraction(value)
    return percent_text(value, comma=lang is Lang.FR).replace(" %", "\u00a0%")


def number(value: float, lang: Lang) -> str:
    """A measure as vigile quotes it (two decimals at most), with a French decimal comma."""
    shown = str(quoted(value))
    return shown.replace(".", ",") if lang is Lang.FR else shown


METAVARS: Final = "cli.metavar"
"""The table of the marks of options' values (the command line's), by their English."""


def placeholder(option: Mapping[str, Any], lang: Lang) -> str:
    """A check option's placeholder on the calculator: its default (a number with the
    language's decimal mark), else the mark of its value in the language (``cli.metavar.*``,
    the command line's own: ``FT`` is ``PIEDS``)."""
    default = option.get("default")
    if default is not None:
        numeric = isinstance(default, int | float) and not isinstance(default, bool)
        return number(default, lang) if numeric else str(default)
    mark = str(option.get("metavar") or "")
    english, other = messages(Lang.EN), messages(lang)
    for key, text in english.items():
        if key.startswith(f"{METAVARS}.") and text == mark and key in other:
            return other[key]
    return mark


def measure(value: float, unit: str, lang: Lang) -> str:
    """A distance with its unit; in French, feet also in metres: ``30 ft (9 m)``."""
    shown = f"{number(value, lang)}\u00a0{unit}"
    if unit == "ft" and lang is Lang.FR:
        shown += f" ({number(float(Fraction(str(value)) * METRES_PER_FOOT), lang)}\u00a0m)"
    return shown


def point(at: tuple[float, float] | list[float], lang: Lang) -> str:
    """``(12, 40)``; in French ``(12,5 ; 40)``."""
    x, y = (number(v, lang) for v in at)
    return f"({x} ; {y})" if lang is Lang.FR else f"({x}, {y})"


def awareness_letter(state: str, lang: Lang) -> str:
    """The one-letter mark of an awareness state (never shown by colour alone)."""
    return text(f"letter.{state}", lang)


def term(value: str, lang: Lang) -> str:
    """A term of the rules (``term.observed``), or the value itself."""
    found: Mapping[str, str] = messages(lang)
    return found.get(f"term.{value}", value)
