"""``vigile scenario set FILE FIELD VALUE``: one field of a scenario file changed, the rest of
the file kept byte for byte (comments, key order, blank lines, quoting).

FIELD is a dotted path as ``vigile sweep --vary`` names one: ``turns``, ``actors.Kage.dice``
(an actor, or any named list item, by its name), ``lights.0.radius`` (a list item by index).
VALUE is read as a YAML value (``3``, ``2.5``, ``true``, ``[10, 20]``, ``hidden``); where the
field holds text, VALUE is that text as typed.

The edit is the editor's span-preserving one (:func:`vigile.web.editor_yaml.set_value`): only
the field's own text changes (a field the file leaves at its default is added under its parent).
Before anything is written, the result is checked as a scenario file (:func:`check_text`); an
unknown field, a value of the wrong kind (a word where a number is, a number where a switch
is), or a result that does not validate is one error line naming the field, exit code 2, and the
file is left as it was. The write is atomic (:mod:`vigile.io.files`): in place by default,
elsewhere with ``--out`` (an existing other file only with ``--force``). A bundled scenario,
named by its name, is never edited in place: it needs ``--out``.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from vigile.cli.options import LangOpt
from vigile.errors import InputError
from vigile.io.i18n import Lang, tr
from vigile.io.safe import printable

__all__ = ["SET_SETTINGS", "SetRefused", "edited_text", "set_command"]

SET_SETTINGS = {"ignore_unknown_options": True}
"""A negative VALUE (``-2``) is a value, not an unknown option (click reads ``-2`` as one)."""


class SetRefused(InputError):
    """A refused ``scenario set``: its message in English, and its ``key`` and ``params`` for
    the command line's language (:func:`vigile.cli.errors.error_text`)."""

    def __init__(self, key: str, params: dict[str, object]) -> None:
        self.key = key
        self.params = params
        super().__init__(tr(key, Lang.EN, params))


def _value(text: str) -> Any:
    """VALUE as YAML reads it (a word that is not YAML stays the word)."""
    import yaml

    try:
        return yaml.safe_load(text)
    except yaml.YAMLError:
        return text


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "switch"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "list"
    if isinstance(value, dict):
        return "mapping"
    return "none"


def _resolve(field: str, written: Any, full: Any) -> tuple[list[str | int], Any]:
    """The editor's path for the dotted ``field`` and the value it holds now (from the file,
    else from the scenario's defaults); :class:`SetRefused` where it names nothing."""
    parts = field.split(".")
    if not field or any(not part for part in parts):
        raise SetRefused("cli.set.unknown", {"field": field})
    path: list[str | int] = []
    node: Any = written
    whole: Any = full
    for part in parts:
        here = node if node is not None else whole
        if isinstance(here, dict):
            if part not in here and not (isinstance(whole, dict) and part in whole):
                raise SetRefused("cli.set.unknown", {"field": field})
            path.append(part)
            node = here.get(part) if node is not None else None
            whole = whole.get(part) if isinstance(whole, dict) else None
        elif isinstance(here, list):
            index = _index(here, part)
            if index is None:
                raise SetRefused("cli.set.unknown", {"field": field})
            path.append(part if not part.isdigit() else index)
            node = here[index] if node is not None else None
            whole = whole[index] if isinstance(whole, list) and index < len(whole) else None
        else:
            raise SetRefused("cli.set.unknown", {"field": field})
    return path, node if node is not None else whole


def _index(items: list[Any], part: str) -> int | None:
    if part.isdigit():
        return int(part) if int(part) < len(items) else None
    for k, item in enumerate(items):
        if isinstance(item, dict) and item.get("name") == part:
            return k
    return None


def _fitted(field: str, old: Any, raw: str) -> Any:
    """The new value, of the kind the field holds (text stays the text typed)."""
    new = _value(raw)
    was = _kind(old)
    if was == "text":
        return raw
    if was in ("switch", "number") and _kind(new) != was:
        raise SetRefused(f"cli.set.not_{was}", {"field": field, "value": raw})
    if was == "number" and isinstance(old, int) and isinstance(new, float):
        if not new.is_integer():
            raise SetRefused("cli.set.whole", {"field": field, "value": raw})
        return int(new)
    return new


def edited_text(text: str, field: str, raw: str, *, file: str, lang: Lang = Lang.EN) -> str:
    """The scenario ``text`` with ``field`` set to ``raw`` (as typed), checked as a scenario;
    :class:`SetRefused` (or :class:`InputError` from the YAML edit) where it cannot be."""
    import yaml

    from vigile.io.i18n import issue_line
    from vigile.scene.loader import check_text
    from vigile.web.editor_yaml import set_value

    scenario, _ = check_text(text, file=file)
    try:
        written = yaml.safe_load(text)
    except yaml.YAMLError:
        written = None
    full = scenario.model_dump(mode="json") if scenario is not None else written
    if not isinstance(written, dict):
        raise SetRefused("cli.set.unknown", {"field": field})
    path, old = _resolve(field, written, full)
    new = _fitted(field, old, raw)
    try:
        result = set_value(text, path, new)
    except InputError as error:
        raise SetRefused("cli.set.invalid", {"field": field, "problem": str(error)}) from None
    _, problems = check_text(result, file=file)
    if problems:
        shown = issue_line(problems[0], lang)
        raise SetRefused("cli.set.invalid", {"field": field, "problem": shown})
    return result


def set_command(
    file: Annotated[str, typer.Argument(help="A scenario file (YAML), or a bundled name.")],
    field: Annotated[
        str, typer.Argument(help="A dotted field: turns, actors.Kage.dice, lights.0.radius.")
    ],
    value: Annotated[str, typer.Argument(help="The new value, as YAML writes it.")],
    out: Annotated[
        Path | None,
        typer.Option("--out", help="Write the edited scenario here instead of in place."),
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Replace an existing --out file.")] = False,
    lang: LangOpt = Lang.EN,
) -> None:
    """Change one field of a scenario file, keeping its comments and layout."""
    from vigile.io.files import check_target, same_file, write_text
    from vigile.scene.loader import bundled_names, bundled_path
    from vigile.scene.reading import Refused, format_of, read_text

    source = Path(file)
    bundled = file in bundled_names() and not source.exists()
    if bundled:
        source = bundled_path(file)
        if out is None:
            raise SetRefused("cli.set.bundled", {"file": file})
    if format_of(source) != "yaml" or (out is not None and format_of(out) != "yaml"):
        raise SetRefused("cli.set.yaml_only", {"file": str(out or source)})
    target = out if out is not None else source
    option = "--out" if out is not None else "FILE"
    check_target(
        target,
        option,
        suffixes=(".yaml", ".yml"),
        kind="the scenario",
        force=force,
        may_replace=same_file(target, source),
    )
    try:
        text = read_text(source)
    except Refused as refused:
        raise InputError(f"{file}: {refused.message}") from None
    result = edited_text(text, field, value, file=file, lang=lang)
    write_text(target, result, option=option)
    shown = {"file": printable(str(target)), "field": printable(field), "value": printable(value)}
    sys.stdout.write(tr("cli.set.done", lang, shown) + "\n")
