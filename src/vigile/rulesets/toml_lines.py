"""Where each key of a TOML text stands: one line locator for house-rule files and scenarios.

tomllib keeps no positions, so the text is read the simple way these files are written: table
headers (``[a.b]``), arrays of tables (``[[a]]``) and ``key = value`` lines, dotted and quoted
keys included. A house-rule error and a TOML scenario's error both name their line with it.
"""

from __future__ import annotations

import re

Path = tuple[str | int, ...]
"""Keys and array indices from the top: ``("actors", 3, "position")``."""
Lines = dict[Path, int]

_ARRAY = re.compile(r"^\s*\[\[\s*([^\]]+?)\s*\]\]")
_TABLE = re.compile(r"^\s*\[\s*([^\]]+?)\s*\]")
_KEY = re.compile(r"^\s*([A-Za-z0-9_\"'. -]+?)\s*=")


def toml_lines(text: str) -> Lines:
    """The 1-based line of every header and ``key =`` line, by path (the top is line 1)."""
    lines: Lines = {(): 1}
    arrays: dict[Path, int] = {}
    table: Path = ()
    for number, raw in enumerate(text.splitlines(), start=1):
        array = _ARRAY.match(raw)
        found = array or _TABLE.match(raw)
        if found:
            table = _resolve(_keys(found.group(1)), arrays)
            if array:
                arrays[table] = arrays.get(table, -1) + 1
                lines.setdefault(table, number)
                table = (*table, arrays[table])
            lines.setdefault(table, number)
            continue
        key = _KEY.match(raw)
        if key:
            lines.setdefault((*table, *_keys(key.group(1))), number)
    return lines


def line_of(lines: Lines, path: Path) -> int | None:
    """The line of ``path``: its own, else its first sub-key's (``[a.b]`` defines ``a``), else
    its nearest ancestor's (a key of an inline table); None if none is in the text."""
    if path in lines:
        return lines[path]
    below = [line for key, line in lines.items() if key[: len(path)] == path]
    if below:
        return min(below)
    for end in range(len(path) - 1, 0, -1):
        if path[:end] in lines:
            return lines[path[:end]]
    return None


def key_line(text: str, dotted: str) -> int | None:
    """The line of the dotted key ``dotted`` (``noise.base.fumble``) in a TOML text."""
    return line_of(toml_lines(text), _keys(dotted))


def _keys(dotted: str) -> tuple[str, ...]:
    return tuple(part.strip().strip("\"'") for part in dotted.split("."))


def _resolve(keys: tuple[str, ...], arrays: dict[Path, int]) -> Path:
    """A header's path, with the current index of every array of tables it goes through."""
    path: Path = ()
    for key in keys:
        path = (*path, key)
        if path in arrays and path != keys:
            path = (*path, arrays[path])
    return path


_STRING_OR_COMMENT = re.compile(r"\"(?:[^\"\\]|\\.)*\"|'[^']*'|#.*")
_NUMBER = re.compile(r"(?<![A-Za-z0-9_.])[+-]?[0-9][0-9_]*")


def long_number(text: str, max_digits: int) -> tuple[int, Path, str] | None:
    """The first number literal of more than ``max_digits`` digits in a TOML text, found in
    the text before it is parsed (tomllib would convert it, or fail to): its line, the path of
    the key on that line (or of its table), and the literal."""
    lines: Lines | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        bare = _STRING_OR_COMMENT.sub("", raw)
        for found in _NUMBER.finditer(bare):
            literal = found.group()
            if sum(1 for char in literal if char.isdigit()) > max_digits:
                lines = toml_lines(text) if lines is None else lines
                paths = [path for path, line in lines.items() if line == number]
                return number, max(paths, key=len, default=()), literal
    return None
