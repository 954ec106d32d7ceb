"""A scenario's inline house rules: checked against the ruleset's data file, then applied.

``house_rules`` in a scenario is the same tree as a house-rule file (DESIGN.md "House rules"):
only keys the shipped data file has, each with a value of the same type.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from vigile.rulesets.data import RuleData, override_issues, shipped, with_overrides
from vigile.scene.paths import Loc

Issue = tuple[Loc, str]


def _shipped(ruleset: str) -> RuleData | None:
    try:
        return shipped(ruleset)
    except (FileNotFoundError, ModuleNotFoundError):
        return None


def house_rule_issues(ruleset: str | None, overrides: Mapping[str, Any]) -> list[Issue]:
    """Unknown keys and values of the wrong type in a scenario's ``house_rules``: the same
    validation as a house-rule file's (:func:`vigile.rulesets.data.override_issues`)."""
    if ruleset is None or not overrides:
        return []
    data = _shipped(ruleset)
    if data is None:
        return [(("house_rules",), f"no rule numbers ship for {ruleset} yet")]
    return [
        (("house_rules", *path), message)
        for path, message in override_issues(data.values, overrides)
    ]


def scenario_rules(ruleset: str, house_rules: Mapping[str, Any]) -> RuleData:
    """The game's numbers with a scenario's house rules applied (overridden keys marked)."""
    return with_overrides(shipped(ruleset), house_rules)
