"""Load a scenario from a file or a bundled name, reporting every error at once.

::

    scenario = load_scenario("night-raid")          # a bundled scenario, by name
    scenario = load_scenario("my/raid.yaml")        # a file: YAML, or .json / .toml
    problems = scenario_errors("my/raid.yaml")      # [] when it is valid

A scenario that does not validate raises one :class:`ScenarioValidationError` (a
:class:`~vigile.errors.ScenarioError`, exit code 2) whose message lists every error, one per
line, as ``file:line: field.path: message``; the list is in its ``errors`` attribute. The
limits on what is read (size, nesting, YAML aliases) are in :mod:`vigile.scene.reading`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, get_args

from pydantic import ValidationError
from pydantic_core import ErrorDetails

from vigile import registry
from vigile.errors import Said, ScenarioError
from vigile.scene.consistency import Parts, issues
from vigile.scene.encounters import Ambush, Shadowing
from vigile.scene.games import SHARED_ACTIONS, action_name, own_actions, own_fields
from vigile.scene.model import Scenario
from vigile.scene.paths import Loc, path_text
from vigile.scene.reading import (
    MAX_ALIAS_USES,
    MAX_BYTES,
    MAX_DEPTH,
    MAX_NODES,
    Format,
    Lines,
    Refused,
    format_of,
    parse,
    read_text,
)

__all__ = [
    "MAX_ALIAS_USES",
    "MAX_BYTES",
    "MAX_DEPTH",
    "MAX_NODES",
    "ScenarioIssue",
    "ScenarioValidationError",
    "bundled_names",
    "bundled_path",
    "check_scenario",
    "load_scenario",
    "parse_scenario",
    "scenario_errors",
]

BUNDLED_PACKAGE = "vigile.scenarios"


@dataclass(frozen=True)
class ScenarioIssue:
    """One thing wrong with a scenario file."""

    file: str
    """The file as named by the user (or the bundled scenario's file name)."""
    line: int | None
    """1-based line, when known."""
    field: str | None
    """Field path (``actors[3].position``), when the problem is in a field."""
    message: str
    """What is wrong."""

    def __str__(self) -> str:
        where = self.file if self.line is None else f"{self.file}:{self.line}"
        return (
            f"{where}: {self.field}: {self.message}" if self.field else f"{where}: {self.message}"
        )


class ScenarioValidationError(ScenarioError):
    """A scenario that cannot be read or does not validate; ``errors`` lists every problem."""

    def __init__(self, errors: list[ScenarioIssue]) -> None:
        self.errors = errors
        first = errors[0]
        if len(errors) == 1:
            body = f"{first.field}: {first.message}" if first.field else first.message
            super().__init__(body, file=first.file, line=first.line)
        else:
            listing = "\n".join(str(issue) for issue in errors)
            super().__init__(f"{len(errors)} errors\n{listing}", file=first.file)
            self.line = first.line
        self.field = first.field


# --------------------------------------------------------------------------- bundled


def bundled_names() -> list[str]:
    """Names of the scenarios shipped in the package (``night-raid``...), sorted."""
    folder = resources.files(BUNDLED_PACKAGE)
    return sorted(
        item.name.removesuffix(".yaml")
        for item in folder.iterdir()
        if item.is_file() and item.name.endswith(".yaml")
    )


def bundled_path(name: str) -> Path:
    """The file of the bundled scenario ``name``."""
    if name not in bundled_names():
        raise ScenarioError(
            f"no bundled scenario of that name; bundled: {', '.join(bundled_names())}", file=name
        )
    return Path(str(resources.files(BUNDLED_PACKAGE).joinpath(f"{name}.yaml")))


def _locate(source: str | Path) -> tuple[Path, str]:
    """The path to read and the name to show: an existing file wins over a bundled name."""
    path = Path(source)
    if isinstance(source, str) and source in bundled_names() and not path.exists():
        path = bundled_path(source)
        return path, path.name
    return path, str(source)


# --------------------------------------------------------------------------- loading


def check_scenario(source: str | Path) -> tuple[Scenario | None, list[ScenarioIssue]]:
    """The scenario (None if it has errors) and every error, from a file or a bundled name."""
    path, shown = _locate(source)
    try:
        text = read_text(path)
    except Refused as refused:
        message = refused.message
        if message == "no such file":
            message += f" (bundled scenarios: {', '.join(bundled_names())})"
        return None, [ScenarioIssue(shown, refused.line, None, message)]
    return check_text(text, file=shown, fmt=format_of(path))


def check_text(
    text: str, *, file: str = "<scenario>", fmt: Format = "yaml"
) -> tuple[Scenario | None, list[ScenarioIssue]]:
    """Like :func:`check_scenario`, for a text already in memory."""
    try:
        data, lines, duplicates = parse(text, fmt)
    except Refused as refused:
        field = path_text(refused.field) if refused.field else None
        return None, [ScenarioIssue(file, refused.line, field, refused.message)]
    if data is None:
        return None, [ScenarioIssue(file, None, None, "the file is empty")]
    if not isinstance(data, dict):
        message = "the top level must be a mapping of fields (ruleset, name, map...)"
        return None, [ScenarioIssue(file, lines.get(()), None, message)]
    repeated = [
        ScenarioIssue(file, line, path_text(loc), message) for loc, message, line in duplicates
    ]
    found: list[tuple[Loc, str]] = []
    scenario: Scenario | None = None
    try:
        scenario = Scenario.model_validate(data)
    except ValidationError as error:
        ruleset = data.get("ruleset")
        found += [(tuple(e["loc"]), _message(e, ruleset)) for e in error.errors(include_url=False)]
    found += issues(Parts.of(scenario) if scenario is not None else Parts.salvage(data))
    if not found and not repeated:
        return scenario, []
    located = _located(found, lines, file) + repeated
    return None, sorted(located, key=lambda issue: (issue.line or 0, issue.field or ""))


def scenario_errors(source: str | Path) -> list[ScenarioIssue]:
    """Every error of a scenario file or bundled name; empty when it is valid."""
    return check_scenario(source)[1]


def load_scenario(source: str | Path) -> Scenario:
    """The scenario in a file (YAML, JSON or TOML) or bundled under ``source``.

    Raises :class:`ScenarioValidationError` listing every error with its line and field.

    >>> raid = load_scenario("night-raid")
    >>> raid.name, len(raid.actors), raid.turns
    ('Night raid on the Nagamasa residence', 14, 40)
    """
    scenario, problems = check_scenario(source)
    if scenario is None:
        raise ScenarioValidationError(problems)
    return scenario


def parse_scenario(text: str, *, file: str = "<scenario>", fmt: Format = "yaml") -> Scenario:
    """The scenario in ``text``; errors as :func:`load_scenario`."""
    scenario, problems = check_text(text, file=file, fmt=fmt)
    if scenario is None:
        raise ScenarioValidationError(problems)
    return scenario


# --------------------------------------------------------------------------- error lines


def _tags() -> frozenset[str]:
    """Discriminator values and union labels pydantic puts in an error's path: every plan
    action's ``do`` (the shared ones and each game's own), the dice forms, the encounters."""
    tags: set[str] = {"pool", "skills", "int", "str", "float", "bool", "none"}
    for model in SHARED_ACTIONS:
        tags.add(action_name(model))
    for game in registry.names():
        try:
            tags.update(action_name(model) for model in own_actions(game))
        except Exception:
            continue
    for encounter in (Shadowing, Ambush):
        tags.update(get_args(encounter.model_fields["type"].annotation))
    return frozenset(tags)


_TAGS: dict[int, frozenset[str]] = {}


def _labels() -> frozenset[str]:
    """:func:`_tags`, made again when a game is registered or forgotten."""
    version = registry.version()
    if version not in _TAGS:
        _TAGS.clear()
        _TAGS[version] = _tags()
    return _TAGS[version]


PYDANTIC_SAID: frozenset[str] = frozenset(
    {
        "int_parsing", "int_type", "int_from_float", "float_parsing", "float_type",
        "finite_number", "bool_parsing", "bool_type", "string_type", "missing",
        "extra_forbidden", "greater_than_equal", "greater_than", "less_than_equal", "less_than",
        "too_short", "too_long", "list_type", "dict_type", "model_type",
        "model_attributes_type", "union_tag_not_found",
    }
)  # fmt: skip
"""Pydantic's error types whose message has words in every language (``scene.pydantic.*``,
with the numbers of the error's context): the rest stays pydantic's English."""


def _message(error: ErrorDetails, ruleset: object = None) -> str:
    """Pydantic's message, said in the scenario's words where it helps, and keyed for the
    other languages (:class:`~vigile.errors.Said`) where its type is a common one."""
    message = error["msg"].removeprefix("Value error, ")
    loc = error["loc"]
    kind = error["type"]
    context = dict(error.get("ctx") or {})
    if kind == "extra_forbidden" and len(loc) == 3 and loc[0] == "actors":
        return _not_its_field(str(loc[2]), ruleset)
    if kind == "union_tag_invalid" and len(loc) == 5 and loc[0] == "plans" and loc[3] == "actions":
        return _not_its_action(str(context.get("tag", "")), ruleset) or message
    if kind == "too_short" and loc and loc[-1] in ("points", "area"):
        given = len(error["input"]) if isinstance(error["input"], list | tuple) else 0
        return Said(
            "scene.pydantic.polygon", f"a polygon needs at least 3 vertices, not {given}",
            given=given,
        )  # fmt: skip
    if kind in ("enum", "literal_error"):
        shown = repr(error["input"])
        shown = shown if len(shown) <= 40 else shown[:37] + "..."
        expected = str(context.get("expected", ""))
        first, _, last = expected.rpartition(" or ")
        choices = (
            Said("scene.pydantic.alternatives", expected, first=first, last=last)
            if first
            else expected
        )
        return Said(
            "scene.pydantic.choice", f"{message}, not {shown}", expected=choices, given=shown
        )
    if kind in PYDANTIC_SAID:
        params = {k: v for k, v in context.items() if isinstance(v, int | float | str)}
        return Said(f"scene.pydantic.{kind}", message, **params)
    return message


def _owners(ruleset: object, brings: Callable[[str], bool]) -> list[str]:
    """The other games whose plug-ins bring something (``brings(game)``)."""
    owners: list[str] = []
    for game in registry.names():
        try:
            if game != ruleset and brings(game):
                owners.append(game)
        except Exception:  # a broken plug-in is reported where it is registered
            continue
    return owners


def _not_its_field(name: str, ruleset: object) -> str:
    """An actor field the scenario's game does not have, and the games whose plug-ins bring
    it (a field of the luck game's actors written in a skirmish scenario)."""

    def brings(game: str) -> bool:
        fields = own_fields(game)
        return fields is not None and name in fields.model_fields

    owners = _owners(ruleset, brings)
    game = ruleset if isinstance(ruleset, str) else "this game's"
    said = f"{game} actors have no field {name!r}"
    return f"{said}: it is a field of {' and '.join(owners)}'s" if owners else said


def _not_its_action(do: str, ruleset: object) -> str | None:
    """A plan action the scenario's game does not play, and the games whose plug-ins bring it
    (a Starfinder ``snipe`` written in a skirmish plan); None where no game plays it (pydantic's
    message, which lists the actions the game has, says it better)."""
    owners = _owners(ruleset, lambda game: any(action_name(m) == do for m in own_actions(game)))
    if not owners:
        return None
    game = ruleset if isinstance(ruleset, str) else "this game's"
    return f"{game} plans have no action {do!r}: it is an action of {' and '.join(owners)}'s"


def _is_label(part: Any) -> bool:
    """A union branch or tag (``kill``, ``pool``, ``constrained-int``), not a field name."""
    return isinstance(part, str) and (part in _labels() or not part.isidentifier())


def _resolve(loc: Loc, lines: Lines) -> tuple[Loc, int | None]:
    """The field path as the user wrote it (labels dropped) and the line of its nearest
    ancestor present in the file."""
    path: Loc = ()
    line = lines.get(())
    for part in loc:
        candidate = (*path, part)
        if candidate in lines:
            line = lines[candidate]
        elif _is_label(part):
            continue
        path = candidate
    return path, line


def _located(found: list[tuple[Loc, str]], lines: Lines, file: str) -> list[ScenarioIssue]:
    merged: dict[tuple[int | None, str], list[str]] = {}
    for loc, message in found:
        path, line = _resolve(loc, lines)
        messages = merged.setdefault((line, path_text(path) if path else ""), [])
        if message not in messages:
            messages.append(message)
    return [
        ScenarioIssue(file, line, field or None, _either(messages))
        for (line, field), messages in merged.items()
    ]


def _either(messages: list[str]) -> str:
    """One problem's message, or its alternatives joined by "or"; a lone message keeps its
    key (:class:`vigile.errors.Said`), for the layers that translate it."""
    return messages[0] if len(messages) == 1 else " or ".join(messages)
