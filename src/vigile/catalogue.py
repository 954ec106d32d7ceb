"""``vigile rules``: every rule ID with its one-line statement, in the user's language."""

from __future__ import annotations

import json
import sys

from vigile.io.i18n import Lang, rule_statements, tr
from vigile.rulesets.data import check_ruleset


def print_rules(ruleset: str | None, lang: Lang, *, as_json: bool = False) -> None:
    """Print the catalogue of one ruleset, or of all three."""
    names = [check_ruleset(ruleset)] if ruleset else None
    catalogue = rule_statements(lang)
    chosen = {name: table for name, table in catalogue.items() if names is None or name in names}
    if as_json:
        sys.stdout.write(json.dumps(chosen, ensure_ascii=False, indent=1) + "\n")
        return
    lines: list[str] = []
    for name, table in chosen.items():
        lines.append(f"{tr(f'ruleset.{name}', lang)} ({name})")
        lines += [f"  {rule_id:<6} {text}" for rule_id, text in table.items()]
    sys.stdout.write("\n".join(lines) + "\n")
