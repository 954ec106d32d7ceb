"""A ruleset's numbers: its shipped data file, plus a group's house-rule overrides.

The shipped file (``rulesets/<name>/rules.toml``) is also the schema of the overrides: a
house-rule file may only set keys that the shipped file has, with a value of the same type
(a whole number for a number, true/false for a switch). An unknown key is an error that names
the key and its line. Every value a house rule changed is remembered, so that explanations
can say so.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from vigile import registry
from vigile.checks.verdict import Modifier, ModifierKind, Param
from vigile.errors import HouseRuleError, InputError

MAX_HOUSE_RULE_BYTES = 64 * 1024
MAX_ABS_NUMBER = 10_000
"""No rule number of any game is larger; a house rule beyond it is a typo."""

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
    name = str(path)
    if not path.exists():
        raise HouseRuleError("no such file", file=name)
    if not path.is_file():
        raise HouseRuleError("not a file", file=name)
    if path.stat().st_size > MAX_HOUSE_RULE_BYTES:
        raise HouseRuleError(
            f"larger than {MAX_HOUSE_RULE_BYTES // 1024} KiB: not a house-rule file", file=name
        )
    try:
        return path.read_bytes().decode("utf-8")
    except UnicodeDecodeError:
        raise HouseRuleError("not UTF-8 text", file=name) from None
    except OSError as error:
        raise HouseRuleError(f"cannot be read ({error.strerror})", file=name) from None


def apply_overrides(base: RuleData, text: str, name: str) -> RuleData:
    """Merge the overrides in ``text`` over ``base``, checking each key against the shipped data."""
    try:
        overrides = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        line = _line_of_decode_error(error)
        raise HouseRuleError(f"not valid TOML ({error})", file=name, line=line) from None
    changed: set[str] = set()
    merged = _merge(base.values, overrides, "", text, name, changed)
    return RuleData(base.ruleset, merged, base.overridden | frozenset(changed))


def _merge(base: Table, over: Table, prefix: str, text: str, name: str, changed: set[str]) -> Table:
    result = dict(base)
    for key, value in over.items():
        dotted = f"{prefix}{key}"
        line = key_line(text, dotted)
        if key not in base:
            raise HouseRuleError(
                f"unknown key {dotted!r} (no such rule number in this ruleset)",
                file=name,
                line=line,
            )
        old = base[key]
        if isinstance(old, dict):
            if not isinstance(value, dict):
                raise HouseRuleError(f"{dotted!r} must be a table of numbers", file=name, line=line)
            result[key] = _merge(old, value, dotted + ".", text, name, changed)
            continue
        _check_value(old, value, dotted, name, line)
        result[key] = value
        changed.add(dotted)
    return result


def _check_value(old: object, value: object, dotted: str, name: str, line: int | None) -> None:
    if isinstance(old, bool):
        if not isinstance(value, bool):
            raise HouseRuleError(f"{dotted!r} must be true or false", file=name, line=line)
        return
    if isinstance(value, bool) or not isinstance(value, int):
        raise HouseRuleError(f"{dotted!r} must be a whole number", file=name, line=line)
    if abs(value) > MAX_ABS_NUMBER:
        raise HouseRuleError(
            f"{dotted!r} = {value} is absurd for a rule number", file=name, line=line
        )


_HEADER = re.compile(r"^\s*\[\s*([^\]]+?)\s*\]\s*(#.*)?$")
_ASSIGN = re.compile(r"^\s*([A-Za-z0-9_.\"' -]+?)\s*=")


def key_line(text: str, dotted: str) -> int | None:
    """The 1-based line of ``dotted`` in a TOML text (a header ``[a.b]`` or a key ``b = …``).

    tomllib keeps no positions, so this reads the text the simple way TOML house-rule files are
    written: table headers and ``key = value`` lines, dotted keys included.
    """
    table = ""
    for number, raw in enumerate(text.splitlines(), start=1):
        header = _HEADER.match(raw)
        if header:
            table = _clean(header.group(1))
            if table == dotted or table.startswith(dotted + "."):
                return number
            continue
        assign = _ASSIGN.match(raw)
        if assign:
            key = _clean(assign.group(1))
            full = f"{table}.{key}" if table else key
            if full == dotted or dotted.startswith(full + "."):
                return number
    return None


def _clean(key: str) -> str:
    return ".".join(part.strip().strip("\"'") for part in key.split("."))


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
