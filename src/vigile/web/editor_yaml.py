"""Edits to a scenario's YAML that keep the author's file: every byte outside the edited span
stays as it was (comments, key order, blank lines, flow or block style, quoting).

The text is composed (libyaml's composer; ruamel.yaml's round-trip composer marks the same
places, slower), each node knowing where it starts and ends; an edit replaces, inserts or
removes only that span (the technique of
:func:`vigile.games.skirmish.route.scenario_with_plan`, which ``route --write-plan`` uses and
which the editor calls for a route's legs). New values are written in flow style on one line
(``{kind: wall, start: [10, 10], end: [20, 10]}``), as the bundled scenarios write them; a new
item of a block list takes the prefix (indent and ``- ``) of the list's first item. An edit whose
result would not parse is refused (an :class:`~vigile.errors.InputError`) and changes nothing.

A path names a node as the sweep's paths do: keys of mappings, indices of lists, and an actor's
(or any named item's) name in a list: ``("actors", "Kage", "position")``,
``("plans", "Kage", 3, "speed")``, ``("lights", 0, "radius")``.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from typing import Any, Final

from vigile.errors import InputError

__all__ = ["PathPart", "append", "delete", "flow", "node_at", "set_value"]

PathPart = str | int
PLAIN: Final = re.compile(r"[A-Za-z_][A-Za-z0-9 _'.-]*")
"""A string written without quotes (anything else is written as a JSON string, valid YAML)."""
RESERVED: Final = frozenset({"true", "false", "yes", "no", "on", "off", "null", "y", "n", "~"})


# ------------------------------------------------------------------------------ writing values


def _number(value: float) -> str:
    if not math.isfinite(value):
        raise InputError(f"{value} is not a finite number", where="edit")
    if float(value).is_integer() and abs(value) < 2**53:
        return str(int(value))
    return repr(float(value))


def flow(value: Any) -> str:
    """``value`` as a flow YAML node on one line."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return _number(value)
    if isinstance(value, str):
        plain = PLAIN.fullmatch(value) and value.lower() not in RESERVED and value == value.strip()
        return value if plain else json.dumps(value, ensure_ascii=False)
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{flow(str(k))}: {flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, Sequence):
        return "[" + ", ".join(flow(v) for v in value) + "]"
    raise InputError(f"{value!r} cannot be written in a scenario", where="edit")


# ------------------------------------------------------------------------------ nodes and spans


def _compose(text: str) -> Any:
    """The text's node tree, each node with its marks (libyaml's composer where there is one:
    its marks count characters, as ruamel.yaml's do, and it is much faster)."""
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        return yaml.compose(text, Loader=loader)
    except yaml.YAMLError as error:
        raise InputError(
            f"the YAML does not parse: {str(error).splitlines()[0]}; fix it in the text first",
            where="yaml",
        ) from None


def _is(node: Any, kind: str) -> bool:
    from yaml.nodes import MappingNode, ScalarNode, SequenceNode

    return isinstance(node, {"map": MappingNode, "seq": SequenceNode, "scalar": ScalarNode}[kind])


def _content_end(node: Any) -> int:
    """Where a node's own text ends (a block collection: its last value's end, not the
    comments and blank lines after it)."""
    if (_is(node, "map") or _is(node, "seq")) and not node.flow_style and node.value:
        last = node.value[-1]
        return _content_end(last[1] if _is(node, "map") else last)
    return int(node.end_mark.index)


def _line_start(text: str, index: int) -> int:
    return text.rfind("\n", 0, index) + 1


def _line_end(text: str, index: int) -> int:
    """Just past the end of the line holding ``index`` (its newline included)."""
    end = text.find("\n", index)
    return len(text) if end < 0 else end + 1


def _shown(path: Sequence[PathPart]) -> str:
    return ".".join(str(p) for p in path) or "(the file)"


def _child(node: Any, part: PathPart) -> tuple[Any, Any] | None:
    """(key node or None, value node) of ``part`` in ``node``, or None."""
    if _is(node, "map"):
        for key, value in node.value:
            if getattr(key, "value", None) == str(part):
                return key, value
        return None
    if _is(node, "seq"):
        if isinstance(part, int):
            return (None, node.value[part]) if 0 <= part < len(node.value) else None
        for item in node.value:
            found = _child(item, "name") if _is(item, "map") else None
            if found is not None and getattr(found[1], "value", None) == part:
                return None, item
        return None
    return None


def node_at(text: str, path: Sequence[PathPart]) -> Any:
    """The node at ``path``, or None."""
    node = _compose(text)
    for part in path:
        found = _child(node, part) if node is not None else None
        if found is None:
            return None
        node = found[1]
    return node


def _walk(root: Any, path: Sequence[PathPart]) -> list[tuple[Any, Any]]:
    """(key node, node) of each step of ``path``; shorter when the path stops existing."""
    steps: list[tuple[Any, Any]] = [(None, root)]
    for part in path:
        found = _child(steps[-1][1], part)
        if found is None:
            break
        steps.append(found)
    return steps


def _checked(text: str) -> str:
    """``text`` if it parses (libyaml's composer where there is one: fast), else an
    :class:`InputError` (the edit is refused, nothing changes)."""
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        yaml.compose(text, Loader=loader)
    except yaml.YAMLError as error:
        raise InputError(
            f"the edit would break the YAML ({str(error).splitlines()[0]}): not applied",
            where="edit",
        ) from None
    return text


# ------------------------------------------------------------------------------ the edits


def set_value(text: str, path: Sequence[PathPart], value: Any) -> str:
    """``text`` with the node at ``path`` set to ``value`` (a new key where it is absent;
    its parents are made as needed)."""
    if not path:
        raise InputError("an edit names a field", where="edit.path")
    root = _compose(text)
    if root is None:
        raise InputError("the file is empty", where="yaml")
    steps = _walk(root, path)
    if len(steps) == len(path) + 1:
        node = steps[-1][1]
        if (_is(node, "map") or _is(node, "seq")) and not node.flow_style and node.value:
            key = steps[-1][0]
            if key is None:
                raise InputError(
                    f"{_shown(path)} is a block list item: edit its fields", where="edit"
                )
            # the whole block value gives way to a flow value on the key's line (its comment kept)
            colon = text.index(":", key.end_mark.index)
            rest_of_line = text[colon + 1 : _line_end(text, colon)]
            end = _line_end(text, _content_end(node))
            edited = text[: colon + 1] + " " + flow(value) + rest_of_line + text[end:]
            return _checked(edited)
        start, end = node.start_mark.index, _content_end(node)
        return _checked(text[:start] + flow(value) + text[end:])
    # build the missing part from the last node that exists
    depth = len(steps) - 1
    parent = steps[-1][1]
    missing = path[depth:]
    nested: Any = value
    for part in reversed(missing[1:]):
        if isinstance(part, int):
            raise InputError(f"{_shown(path)}: no item {part} there", where="edit.path")
        nested = {part: nested}
    head = missing[0]
    if not _is(parent, "map") or isinstance(head, int):
        raise InputError(f"{_shown(path[: depth + 1])} is not there", where="edit.path")
    return _checked(_insert_key(text, parent, str(head), nested))


def _insert_key(text: str, mapping: Any, key: str, value: Any) -> str:
    """``key: value`` added at the end of ``mapping``."""
    if mapping.flow_style:
        close = int(mapping.end_mark.index) - 1  # the "}"
        separator = ", " if mapping.value else ""
        return text[:close] + f"{separator}{flow(key)}: {flow(value)}" + text[close:]
    if not mapping.value:  # pragma: no cover - an empty block mapping is written {}
        raise InputError("an empty mapping", where="edit.path")
    first_key = mapping.value[0][0]
    indent = " " * first_key.start_mark.column
    at = _line_end(text, _content_end(mapping))
    lines = _block_entry(key, value, indent)
    if at == len(text) and not text.endswith("\n"):
        lines = "\n" + lines
    return text[:at] + lines + text[at:]


def _block_entry(key: str, value: Any, indent: str) -> str:
    """``key: value`` as block lines at ``indent``: a list of mappings one item a line, a
    mapping of lists one key a line, anything else on the key's line."""
    if isinstance(value, list) and value:
        items = "".join(f"{indent}  - {flow(v)}\n" for v in value)
        return f"{indent}{flow(key)}:\n{items}"
    if isinstance(value, Mapping) and value:
        inner = "".join(_block_entry(str(k), v, indent + "  ") for k, v in value.items())
        return f"{indent}{flow(key)}:\n{inner}"
    return f"{indent}{flow(key)}: {flow(value)}\n"


def append(text: str, path: Sequence[PathPart], value: Any) -> str:
    """``text`` with ``value`` added at the end of the list at ``path`` (made if absent)."""
    root = _compose(text)
    steps = _walk(root, path) if root is not None else []
    if len(steps) != len(path) + 1:
        return set_value(text, path, [value])
    key, node = steps[-1]
    if not _is(node, "seq"):
        if _is(node, "scalar") and node.value in ("", "null", "~"):
            return set_value(text, path, [value])
        raise InputError(f"{_shown(path)} is not a list", where="edit.path")
    if node.flow_style:
        if node.value:
            at = _content_end(node.value[-1])
            return _checked(text[:at] + ", " + flow(value) + text[at:])
        start, end = node.start_mark.index, node.end_mark.index
        if key is not None and len(path) == 1:  # a top-level "walls: []" becomes a block list
            return _checked(text[:start].rstrip(" ") + "\n  - " + flow(value) + text[end:])
        return _checked(text[:start] + "[" + flow(value) + "]" + text[end:])
    first = node.value[0]
    prefix = text[_line_start(text, first.start_mark.index) : first.start_mark.index]
    if prefix.strip() != "-":
        prefix = " " * prefix.find("-") + "- " if "-" in prefix else "- "
    at = _line_end(text, _content_end(node.value[-1]))
    line = prefix + flow(value) + "\n"
    if at == len(text) and not text.endswith("\n"):
        line = "\n" + line
    return _checked(text[:at] + line + text[at:])


def delete(text: str, path: Sequence[PathPart]) -> str:
    """``text`` without the list item or mapping key at ``path``."""
    root = _compose(text)
    steps = _walk(root, path) if root is not None else []
    if not path or len(steps) != len(path) + 1:
        raise InputError(f"{_shown(path)} is not there", where="edit.path")
    parent = steps[-2][1]
    key, node = steps[-1]
    if _is(parent, "seq"):
        items = list(parent.value)
        index = next(k for k, item in enumerate(items) if item is node)
        if parent.flow_style:
            return _checked(
                _cut_flow(text, [(i.start_mark.index, _content_end(i)) for i in items], index)
            )
        if len(items) == 1:
            return _checked(_emptied(text, steps[-3][1] if len(steps) > 2 else None, parent))
        start = _line_start(text, node.start_mark.index)
        end = _line_end(text, _content_end(node))
        return _checked(text[:start] + text[end:])
    pairs = list(parent.value)
    index = next(k for k, (k_node, _) in enumerate(pairs) if k_node is key)
    if parent.flow_style:
        spans = [(k.start_mark.index, _content_end(v)) for k, v in pairs]
        return _checked(_cut_flow(text, spans, index))
    start = _line_start(text, key.start_mark.index)
    end = _line_end(text, _content_end(node))
    return _checked(text[:start] + text[end:])


def _cut_flow(text: str, spans: list[tuple[int, int]], index: int) -> str:
    """Remove item ``index`` of a flow collection and one separator beside it."""
    start, end = spans[index]
    if index + 1 < len(spans):
        end = spans[index + 1][0]
    elif index > 0:
        start = spans[index - 1][1]
    return text[:start] + text[end:]


def _emptied(text: str, grandparent: Any, seq: Any) -> str:
    """The only item of a block list removed: the list becomes ``[]`` on its key's line."""
    key = None
    if grandparent is not None and _is(grandparent, "map"):
        key = next((k for k, v in grandparent.value if v is seq), None)
    if key is None:
        raise InputError("the last item of this list cannot be removed", where="edit.path")
    colon = text.index(":", key.end_mark.index)
    end = _line_end(text, _content_end(seq))
    return text[: colon + 1] + " []\n" + text[end:]
