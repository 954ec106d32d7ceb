"""The rule catalogue, ``vigile rules``: every rule ID with its one-line statement, in the
user's language, as text lines or as JSON."""

from __future__ import annotations

from vigile.io.i18n import Lang, rule_statements, tr
from vigile.rulesets.data import check_ruleset


def rule_catalogue(ruleset: str | None, lang: Lang) -> dict[str, dict[str, str]]:
    """The statements of one ruleset's rules, or of every ruleset's: ruleset → rule ID →
    statement (the JSON of ``vigile rules --json``)."""
    names = [check_ruleset(ruleset)] if ruleset else None
    catalogue = rule_statements(lang)
    return {name: table for name, table in catalogue.items() if names is None or name in names}


def catalogue_lines(chosen: dict[str, dict[str, str]], lang: Lang) -> list[str]:
    """The catalogue as text: each ruleset's title, then one line per rule."""
    lines: list[str] = []
    for name, table in chosen.items():
        lines.append(f"{tr(f'ruleset.{name}', lang)} ({name})")
        lines += [f"  {rule_id:<6} {text}" for rule_id, text in table.items()]
    return lines
