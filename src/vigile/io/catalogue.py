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


def coverage_catalogue(
    chosen: dict[str, dict[str, str]], rows: dict[str, dict[str, object]], lang: Lang
) -> dict[str, dict[str, dict[str, object]]]:
    """The JSON of ``vigile rules --coverage --json``: ruleset → rule ID → its statement, where
    it is played (``check``, ``engine``, ``simulator``, ``riskmap``), its note (why it changes no
    chance) or null, the scenario reproducing it if it is a worked example, and ``unplayed``."""
    table: dict[str, dict[str, dict[str, object]]] = {}
    for name, statements in chosen.items():
        table[name] = {}
        for rule_id, text in statements.items():
            row = rows[rule_id]
            note = tr(f"coverage.note.{rule_id}", lang) if row["note"] else None
            table[name][rule_id] = {"statement": text, **row, "note": note}
    return table


def coverage_lines(table: dict[str, dict[str, dict[str, object]]], lang: Lang) -> list[str]:
    """The coverage as text: each ruleset's title, then one line per rule saying where it is
    played (or that it is a note, an example, or played nowhere), then a summary."""
    places = ("check", "engine", "simulator", "riskmap")
    lines = [tr("coverage.title", lang)]
    counts = dict.fromkeys((*places, "examples", "notes", "nowhere", "total"), 0)
    for name, rules in table.items():
        lines.append(f"{tr(f'ruleset.{name}', lang)} ({name})")
        for rule_id, row in rules.items():
            counts["total"] += 1
            played = [str(place) for place in _strings(row["played"])]
            for place in played:
                counts[place] += 1
            shown = [tr(f"coverage.{place}", lang) for place in played]
            if row["example"]:
                counts["examples"] += 1
                shown.append(tr("coverage.example", lang, {"scenario": row["example"]}))
            if row["note"]:
                counts["notes"] += 1
                shown.append(str(row["note"]))
            if row["unplayed"]:
                counts["nowhere"] += 1
                shown.append(tr("coverage.nowhere", lang))
            lines.append(f"  {rule_id:<6} {', '.join(shown)}")
    lines.append(tr("coverage.summary", lang, counts))
    return lines


def _strings(value: object) -> list[str]:
    return [str(item) for item in value] if isinstance(value, list) else []
