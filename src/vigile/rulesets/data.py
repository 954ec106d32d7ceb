"""A ruleset's numbers: its shipped data file, plus a group's house-rule overrides.

The shipped file (``rulesets/<name>/rules.toml``) is also the schema of the overrides: a
house-rule file may only set keys that the shipped file has, with a value of the same type
(a whole number for a number, true/false for a switch, one of its words for a word). An
unknown key is an error that names the key and its line. Every value a house rule changed is
remembered, so that explanations can say so.
"""

from __future__ import annotations

import re
import stat
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from vigile import registry
from vigile.checks.verdict import Modifier, ModifierKind, Param
from vigile.errors import HouseRuleError, InputError
from vigile.rulesets.limits import MAX_DIGITS, digits_issue, rule_range_issue, rule_word_issue
from vigile.rulesets.toml_lines import key_line, long_number

MAX_HOUSE_RULE_BYTES = 64 * 1024

Table = dict[str, Any]


@dataclass(frozen=True)
class RuleData:
    """The numbers one ruleset plays with, after house rules."""

    ruleset: str
    values: Table
    overridden: frozenset[str] = field(default_factory=frozenset)
    """Dotted keys a house rule changed."""
    _flat: dict[str, object] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        flat: dict[str, object] = {}
        _flatten(self.values, "", flat)
        object.__setattr__(self, "_flat", flat)

    def num(self, key: str) -> int:
        """A whole number from the data (``noise.base.fumble``)."""
        value = self._get(key)
        if isinstance(value, bool) or not isinstance(value, int):
            raise KeyError(f"{self.ruleset}: {key} is not a number")
        return value

    def flag(self, key: str) -> bool:
        """A switch from the data (``companion.distance_penalty``)."""
        value = self._get(key)
        if not isinstance(value, bool):
            raise KeyError(f"{self.ruleset}: {key} is not a switch")
        return value

    def word(self, key: str) -> str:
        """A word from the data (``actions.strike``: ``standard``, LP-1)."""
        value = self._get(key)
        if not isinstance(value, str):
            raise KeyError(f"{self.ruleset}: {key} is not a word")
        return value

    def keys(self, prefix: str) -> list[str]:
        """The dotted keys that start with ``prefix`` (``round.free_once.``), in file order."""
        return [key for key in self._flat if key.startswith(prefix)]

    def is_overridden(self, key: str) -> bool:
        return key in self.overridden

    def _get(self, key: str) -> object:
        try:
            return self._flat[key]
        except KeyError:
            raise KeyError(f"{self.ruleset}: no rule number {key}") from None


def _flatten(table: Table, prefix: str, out: dict[str, object]) -> None:
    for key, value in table.items():
        if isinstance(value, dict):
            _flatten(value, f"{prefix}{key}.", out)
        else:
            out[prefix + key] = value


@cache
def shipped(ruleset: str) -> RuleData:
    """The ruleset's own numbers, as shipped in the package."""
    package = registry.get(ruleset).package  # the game's plug-in says where its data lives
    text = resources.files(package).joinpath("rules.toml").read_text("utf-8")
    return RuleData(ruleset, tomllib.loads(text))


def load(ruleset: str, house_rules: Path | str | None = None) -> RuleData:
    """The ruleset's numbers with a house-rule file applied (if any), validated."""
    base = shipped(ruleset)
    if house_rules is None:
        return base
    path = Path(house_rules)
    text = read_house_rule_text(path)
    return apply_overrides(base, text, str(path))


def read_house_rule_text(path: Path) -> str:
    """Read a house-rule file, refusing what is not a small UTF-8 text file."""
    from vigile.paths import reason, status

    name = str(path)
    try:
        found = status(path)
    except OSError as error:  # too long a name, a loop of links
        raise HouseRuleError(f"cannot be read ({reason(error)})", file=name) from None
    if found is None:
        raise HouseRuleError("no such file", file=name)
    if not stat.S_ISREG(found.st_mode):
        raise HouseRuleError("not a file", file=name)
    if found.st_size > MAX_HOUSE_RULE_BYTES:
        raise HouseRuleError(
            f"larger than {MAX_HOUSE_RULE_BYTES // 1024} KiB: not a house-rule file", file=name
        )
    try:
        return path.read_bytes().decode("utf-8-sig")  # a BOM is allowed, as in a scenario
    except UnicodeDecodeError:
        raise HouseRuleError("not UTF-8 text", file=name) from None
    except OSError as error:
        raise HouseRuleError(f"cannot be read ({error.strerror})", file=name) from None


def apply_overrides(base: RuleData, text: str, name: str) -> RuleData:
    """Merge the overrides in ``text`` over ``base``, checking each key against the shipped data;
    the first wrong key is a :class:`HouseRuleError` naming the file and its line."""
    text = text.removeprefix("\ufeff")
    too_long = long_number(text, MAX_DIGITS)
    if too_long is not None:  # refused from its text: tomllib would convert it first
        at, path, literal = too_long
        key = ".".join(str(part) for part in path) or "a value"
        raise HouseRuleError(f"{key}: {digits_issue(literal)}", file=name, line=at)
    try:
        overrides = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        line = _line_of_decode_error(error)
        raise HouseRuleError(f"not valid TOML ({error})", file=name, line=line) from None
    except RecursionError:
        raise HouseRuleError("nested too deep: not a house-rule file", file=name) from None
    found = override_issues(base.values, overrides)
    if found:
        path, message = found[0]
        raise HouseRuleError(message, file=name, line=key_line(text, ".".join(path)))
    return with_overrides(base, overrides)


Issue = tuple[tuple[str, ...], str]
"""A wrong override: the path of its key, and what is wrong with it."""


def override_issues(base: Mapping[str, Any], over: Mapping[str, Any]) -> list[Issue]:
    """Every override in ``over`` that the shipped data ``base`` does not allow: an unknown key,
    a table where a number is, a value of the wrong type, a number outside its range
    (:data:`vigile.rulesets.limits.RULE_RANGES`: a step of 0, a negative radius or move...).

    The one validation of house rules, for a house-rule file and a scenario's ``house_rules``.
    """
    return _issues(base, over, ())


def _issues(base: Mapping[str, Any], over: Mapping[str, Any], path: tuple[str, ...]) -> list[Issue]:
    found: list[Issue] = []
    for key, value in over.items():
        where = (*path, str(key))
        name = ".".join(where)
        if key not in base:
            known = ", ".join(sorted(base))
            found.append(
                (where, f"unknown key {name!r} (no such rule number; known here: {known})")
            )
            continue
        old = base[key]
        if isinstance(old, dict):
            if isinstance(value, Mapping):
                found += _issues(old, value, where)
            else:
                found.append((where, f"{name!r} must be a table of rule numbers"))
        elif isinstance(old, bool):
            if not isinstance(value, bool):
                found.append((where, f"{name!r} must be true or false"))
        elif isinstance(old, str):
            wrong = rule_word_issue(name, value)
            if wrong is not None:
                found.append((where, wrong))
        elif isinstance(value, bool) or not isinstance(value, int):
            found.append((where, f"{name!r} must be a whole number"))
        else:
            wrong = rule_range_issue(name, value)
            if wrong is not None:
                found.append((where, wrong))
    return found


def with_overrides(base: RuleData, over: Mapping[str, Any]) -> RuleData:
    """``base`` with the (valid) overrides ``over`` merged in, every changed key marked."""
    if not over:
        return base
    changed: set[str] = set()
    values = _merge(base.values, over, "", changed)
    return RuleData(base.ruleset, values, base.overridden | frozenset(changed))


def _merge(
    base: Mapping[str, Any], over: Mapping[str, Any], prefix: str, changed: set[str]
) -> Table:
    result = dict(base)
    for key, value in over.items():
        if isinstance(base.get(key), dict) and isinstance(value, Mapping):
            result[key] = _merge(base[key], value, f"{prefix}{key}.", changed)
        else:
            result[key] = value
            changed.add(f"{prefix}{key}")
    return result


def _line_of_decode_error(error: tomllib.TOMLDecodeError) -> int | None:
    found = re.search(r"line (\d+)", str(error))
    return int(found.group(1)) if found else None


def from_data(
    rules: RuleData,
    key: str,
    reason: str,
    rule: str,
    *,
    kind: ModifierKind = "difficulty",
    times: int = 1,
    params: dict[str, Param] | None = None,
    companion: bool = False,
) -> Modifier:
    """A modifier whose value is the data file's number at ``key`` (times ``times``), marked
    when a house rule changed it; every ruleset builds its numbered modifiers with this."""
    return Modifier(
        value=rules.num(key) * times,
        reason=reason,
        rule=rule,
        kind=kind,
        params=params or {},
        source=key,
        overridden=rules.is_overridden(key),
        companion=companion,
    )


def check_ruleset(name: str) -> str:
    """Refuse an unknown ruleset name with the list of known ones."""
    known = registry.names()
    if name not in known:
        raise InputError(f"unknown ruleset {name!r}; known: {', '.join(known)}", where="RULESET")
    return name
