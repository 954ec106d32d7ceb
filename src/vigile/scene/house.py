"""A scenario's inline house rules: checked against the ruleset's data file, then applied.

``house_rules`` in a scenario is the same tree as a house-rule file (DESIGN.md "House rules"):
only keys the shipped data file has, each with a value of the same type.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from vigile.rulesets.data import MAX_ABS_NUMBER, RuleData, shipped
from vigile.scene.paths import Loc

Issue = tuple[Loc, str]


def _shipped(ruleset: str) -> RuleData | None:
    try:
        return shipped(ruleset)
    except (FileNotFoundError, ModuleNotFoundError):
        return None


def house_rule_issues(ruleset: str | None, overrides: Mapping[str, Any]) -> list[Issue]:
    """Unknown keys and values of the wrong type in a scenario's ``house_rules``."""
    if ruleset is None or not overrides:
        return []
    data = _shipped(ruleset)
    if data is None:
        return [(("house_rules",), f"no rule numbers ship for {ruleset} yet")]
    return _walk(data.values, overrides, ("house_rules",))


def _walk(base: Mapping[str, Any], over: Mapping[str, Any], loc: Loc) -> list[Issue]:
    found: list[Issue] = []
    for key, value in over.items():
        where: Loc = (*loc, str(key))
        if key not in base:
            known = ", ".join(sorted(base))
            found.append((where, f"unknown key {key!r} (known here: {known})"))
            continue
        old = base[key]
        if isinstance(old, dict):
            if isinstance(value, Mapping):
                found += _walk(old, value, where)
            else:
                found.append((where, "must be a mapping of rule numbers"))
        elif isinstance(old, bool):
            if not isinstance(value, bool):
                found.append((where, "must be true or false"))
        elif isinstance(value, bool) or not isinstance(value, int):
            found.append((where, "must be a whole number"))
        elif abs(value) > MAX_ABS_NUMBER:
            found.append((where, f"{value} is absurd for a rule number"))
    return found


def scenario_rules(ruleset: str, house_rules: Mapping[str, Any]) -> RuleData:
    """The game's numbers with a scenario's house rules applied (overridden keys marked)."""
    base = shipped(ruleset)
    if not house_rules:
        return base
    changed: set[str] = set()
    values = _merge(base.values, house_rules, "", changed)
    return RuleData(base.ruleset, values, base.overridden | frozenset(changed))


def _merge(
    base: Mapping[str, Any], over: Mapping[str, Any], prefix: str, changed: set[str]
) -> dict[str, Any]:
    result = dict(base)
    for key, value in over.items():
        if isinstance(base.get(key), dict) and isinstance(value, Mapping):
            result[key] = _merge(base[key], value, f"{prefix}{key}.", changed)
        else:
            result[key] = value
            changed.add(f"{prefix}{key}")
    return result
