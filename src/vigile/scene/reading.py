"""Reading a scenario file safely, and knowing the line of every field.

Limits (each refusal is a clear error, never a hang or a memory blow-up):

* ``MAX_BYTES`` (2 MiB): larger files are refused before they are read; a scenario, even a
  big one, is a few tens of KiB.
* not a regular file (a directory, a device), not UTF-8, or NUL bytes (a binary file): refused.
* YAML: at most ``MAX_NODES`` nodes once aliases are expanded, no alias used more than
  ``MAX_ALIAS_USES`` times, no recursive alias, at most ``MAX_DEPTH`` levels of nesting.
  The parser's events are counted before any node is built, and the node graph is measured
  (each shared node once) before anything expands it, so a "billion laughs" is refused in
  milliseconds. The worst legal-size file takes about a second.
* JSON and TOML: at most ``MAX_DEPTH`` levels of nesting.
* every format: no whole number of more than ``MAX_DIGITS`` digits (a seed has 19), refused
  from its text before it is converted (Python refuses to convert more than 4300 digits).

Lines come from the YAML node tree (``yaml.compose``): each mapping key and sequence item
records its 1-based line under its field path. JSON is composed the same way (it is YAML);
TOML lines come from its headers and ``key =`` lines.
"""

from __future__ import annotations

import json
import re
import stat
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from vigile.rulesets.limits import MAX_DIGITS, digits_issue
from vigile.rulesets.toml_lines import long_number, toml_lines
from vigile.scene.paths import Loc

MAX_BYTES = 2 * 1024 * 1024
MAX_NODES = 100_000
MAX_ALIAS_USES = 100
MAX_DEPTH = 32

Format = Literal["yaml", "json", "toml"]
Lines = dict[Loc, int]
Duplicate = tuple[Loc, str, int]
"""A repeated mapping key: its path, the message, its line."""


class Refused(Exception):
    """The file cannot be read as a scenario; ``line`` and ``field`` where known."""

    def __init__(self, message: str, line: int | None = None, field: Loc | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.field = field


class _LongNumber(Exception):
    """A JSON number with too many digits (raised before json converts it)."""


def format_of(path: Path) -> Format:
    """By suffix: ``.json``, ``.toml``; anything else is read as YAML."""
    suffix = path.suffix.lower()
    if suffix == ".json":
        return "json"
    if suffix == ".toml":
        return "toml"
    return "yaml"


def read_text(path: Path) -> str:
    """The file's text, refusing what cannot be a scenario file (a name the system refuses, too
    long or a loop of links, says why)."""
    from vigile.paths import reason, status

    try:
        found = status(path)
    except OSError as error:
        raise Refused(f"cannot be read ({reason(error)})") from None
    if found is None:
        raise Refused("no such file")
    if stat.S_ISDIR(found.st_mode):
        raise Refused("is a directory, not a scenario file")
    if not stat.S_ISREG(found.st_mode):
        raise Refused("is not a regular file")
    try:
        if found.st_size > MAX_BYTES:
            raise Refused(f"larger than {MAX_BYTES // (1024 * 1024)} MiB: not a scenario file")
        with path.open("rb") as stream:
            data = stream.read(MAX_BYTES + 1)
    except OSError as error:
        raise Refused(f"cannot be read ({error.strerror or error})") from None
    if len(data) > MAX_BYTES:
        raise Refused(f"larger than {MAX_BYTES // (1024 * 1024)} MiB: not a scenario file")
    return decode(data)


def decode(data: bytes) -> str:
    """UTF-8 text (a BOM is allowed); a NUL byte or invalid UTF-8 means a binary file."""
    if b"\x00" in data:
        raise Refused("a binary file (it contains NUL bytes), not a scenario")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise Refused(f"not UTF-8 text (byte {error.start})", line) from None


def parse(text: str, fmt: Format) -> tuple[object, Lines, list[Duplicate]]:
    """The data, the line of each field path, and problems found on the way (duplicate keys)."""
    if len(text) > MAX_BYTES:
        raise Refused(f"larger than {MAX_BYTES // (1024 * 1024)} MiB: not a scenario")
    if fmt == "yaml":
        root = _compose(text)
        if root is None:
            return None, {}, []
        lines, duplicates = _node_lines(root)
        _check_digits(root)
        try:
            data = _construct(root)
        except yaml.YAMLError as error:
            raise Refused(f"not valid YAML: {_problem(error)}", _mark_line(error)) from None
        return data, lines, duplicates
    if fmt == "json":
        try:
            data = json.loads(text, parse_int=_json_int)
        except json.JSONDecodeError as error:
            raise Refused(f"not valid JSON: {error.msg}", error.lineno) from None
        except RecursionError:
            raise Refused(f"nested more than {MAX_DEPTH} levels deep") from None
        except _LongNumber as error:
            root = _compose(text)  # JSON is YAML: its node tree says which field
            if root is not None:
                _check_digits(root)
            raise Refused(str(error)) from None
        _check_depth(data)
        lines, duplicates = {}, []
        try:
            root = _compose(text)
        except Refused:
            root = None
        if root is not None:
            lines, duplicates = _node_lines(root)
        return data, lines, duplicates
    too_long = long_number(text, MAX_DIGITS)
    if too_long is not None:
        line, path, literal = too_long
        raise Refused(digits_issue(literal) or literal, line, path or None)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        found = re.search(r"line (\d+)", str(error))
        raise Refused(f"not valid TOML: {error}", int(found.group(1)) if found else None) from None
    except RecursionError:
        raise Refused(f"nested more than {MAX_DEPTH} levels deep") from None
    _check_depth(data)
    return data, toml_lines(text), []


# --------------------------------------------------------------------------- YAML


_Loader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml's parser when PyYAML has it (several times faster), else the pure-Python one."""


def _scan(text: str) -> None:
    """Walk the YAML events (no node built yet) and refuse a bomb or deep nesting early."""
    nodes = 0
    depth = 0
    alias_uses: dict[str, int] = {}
    for event in yaml.parse(text, Loader=_Loader):
        line = event.start_mark.line + 1 if event.start_mark is not None else None
        if isinstance(event, yaml.AliasEvent):
            anchor = str(event.anchor)
            alias_uses[anchor] = alias_uses.get(anchor, 0) + 1
            if alias_uses[anchor] > MAX_ALIAS_USES:
                raise Refused(
                    f"the alias *{anchor} is used more than {MAX_ALIAS_USES} times (a YAML bomb?)",
                    line,
                )
        elif isinstance(event, yaml.ScalarEvent | yaml.CollectionStartEvent):
            nodes += 1
            if nodes > MAX_NODES:
                raise Refused(f"more than {MAX_NODES} YAML nodes: not a scenario", line)
            if depth + 1 > MAX_DEPTH:
                raise Refused(f"nested more than {MAX_DEPTH} levels deep", line)
            if isinstance(event, yaml.CollectionStartEvent):
                depth += 1
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1


def _compose(text: str) -> Node | None:
    """The node tree of a single YAML document, within the limits."""
    try:
        _scan(text)
        root = yaml.compose(text, Loader=_Loader)
    except yaml.YAMLError as error:
        raise Refused(f"not valid YAML: {_problem(error)}", _mark_line(error)) from None
    if root is not None:
        _check_expansion(root)
    return root


def _construct(root: Node) -> object:
    """The Python data of a node tree already checked by :func:`_compose`."""
    loader = _Loader("")
    try:
        return loader.construct_document(root)
    finally:
        loader.dispose()


def _children(node: Node) -> Iterator[Node]:
    if isinstance(node, SequenceNode):
        yield from node.value
    elif isinstance(node, MappingNode):
        for key, value in node.value:
            yield key
            yield value


def _check_expansion(root: Node) -> None:
    """Refuse a node graph that expands (aliases followed) beyond the limits, or loops."""
    size: dict[int, int] = {}
    depth: dict[int, int] = {}
    open_nodes: set[int] = set()
    stack: list[tuple[Node, bool]] = [(root, False)]
    while stack:
        node, finished = stack.pop()
        key = id(node)
        if finished:
            kids = list(_children(node))
            size[key] = 1 + sum(size[id(kid)] for kid in kids)
            depth[key] = 1 + max((depth[id(kid)] for kid in kids), default=0)
            open_nodes.discard(key)
            if size[key] > MAX_NODES:
                raise Refused(
                    f"expands to more than {MAX_NODES} YAML nodes through aliases (a YAML bomb?)",
                    node.start_mark.line + 1,
                )
            if depth[key] > MAX_DEPTH:
                raise Refused(
                    f"nested more than {MAX_DEPTH} levels deep (through aliases)",
                    node.start_mark.line + 1,
                )
            continue
        if key in size:
            continue
        open_nodes.add(key)
        stack.append((node, True))
        for kid in _children(node):
            if id(kid) in open_nodes:
                raise Refused(
                    "a recursive alias (a node that contains itself)", kid.start_mark.line + 1
                )
            if id(kid) not in size:
                stack.append((kid, False))


_INT_TAG = "tag:yaml.org,2002:int"


def _check_digits(root: Node) -> None:
    """Refuse a whole number with more than ``MAX_DIGITS`` digits, naming its field, before the
    node tree is converted to Python values."""
    stack: list[tuple[Node, Loc]] = [(root, ())]
    while stack:
        node, path = stack.pop()
        if isinstance(node, ScalarNode):
            wrong = digits_issue(node.value) if node.tag == _INT_TAG else None
            if wrong is not None:
                raise Refused(wrong, node.start_mark.line + 1, path or None)
        elif isinstance(node, SequenceNode):
            stack.extend((item, (*path, index)) for index, item in enumerate(node.value))
        elif isinstance(node, MappingNode):
            for key, value in node.value:
                name = str(key.value) if isinstance(key, ScalarNode) else "?"
                stack.append((key, path))
                stack.append((value, (*path, name)))


def _json_int(literal: str) -> int:
    wrong = digits_issue(literal)
    if wrong is not None:
        raise _LongNumber(wrong)
    return int(literal)


def _node_lines(root: Node) -> tuple[Lines, list[Duplicate]]:
    lines: Lines = {(): root.start_mark.line + 1}
    duplicates: list[Duplicate] = []

    def walk(node: Node, path: Loc) -> None:
        if isinstance(node, MappingNode):
            first: dict[str, int] = {}
            for key, value in node.value:
                if not isinstance(key, ScalarNode):
                    continue
                name = str(key.value)
                line = key.start_mark.line + 1
                where = (*path, name)
                if name in first and name != "<<":
                    message = f"duplicate key {name!r} (first on line {first[name]})"
                    duplicates.append((where, message, line))
                first.setdefault(name, line)
                lines[where] = line  # YAML keeps the last value of a repeated key
                walk(value, where)
        elif isinstance(node, SequenceNode):
            for index, item in enumerate(node.value):
                where = (*path, index)
                lines.setdefault(where, item.start_mark.line + 1)
                walk(item, where)

    walk(root, ())
    return lines, duplicates


def _problem(error: yaml.YAMLError) -> str:
    if isinstance(error, yaml.MarkedYAMLError):
        said = [str(part) for part in (error.context, error.problem) if part]
        return ", ".join(said) or "syntax error"
    return str(error)


def _mark_line(error: yaml.YAMLError) -> int | None:
    mark = getattr(error, "problem_mark", None)
    return None if mark is None else int(mark.line) + 1


# --------------------------------------------------------------------------- JSON and TOML


def _check_depth(data: Any) -> None:
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        value, level = stack.pop()
        if level > MAX_DEPTH:
            raise Refused(f"nested more than {MAX_DEPTH} levels deep")
        if isinstance(value, dict):
            stack.extend((item, level + 1) for item in value.values())
        elif isinstance(value, list):
            stack.extend((item, level + 1) for item in value)
