"""From an :class:`~vigile.scene.importers.imported.ImportedMap` (in squares) to a scenario:
its data, the skeleton file, and the merge into an existing scenario.

* :func:`draft` scales the map to the scenario's unit (one square is ``scale`` cm or ft: by
  default 2.5 cm in the skirmish game, a 25 mm base being one square, and 5 ft or the Foundry
  grid's distance in the d20 games), clips every wall to the map (a wall or light wholly outside
  is left out, with a note), rounds to 0.01 of the unit, and drops the walls that repeat.
* :func:`skeleton_text` writes a new scenario with ruamel.yaml: a header comment saying where
  it came from, ``ruleset``, ``name``, ``units``, ``time``, ``map`` (with its ``background``),
  ``walls`` and ``lights`` one per line, and ``actors: []`` under a comment asking for them. It
  is complete but for the actors: it validates once they are added.
* :func:`merged_text` puts the imported map, walls and lights into an existing scenario's YAML,
  editing only those spans of its text (found with ruamel.yaml's round-trip composer): every
  other byte is kept, so are comments, key order and layout. ``walls`` and ``lights`` are
  replaced (comments between the old items go with them); ``map.width``, ``map.height`` and
  ``map.background`` are set, the map's other keys kept.
"""

from __future__ import annotations

import io
import json
import math
import re
from dataclasses import dataclass, field
from typing import Any

from vigile.errors import InputError
from vigile.rulesets.limits import LIMITS
from vigile.scene.importers.imported import ImportedMap, MapFileError, Point, Segment
from vigile.scene.model import MAX_ITEMS, Units, unit_of

DEFAULT_SQUARE = {Units.CM: 2.5, Units.FT: 5.0}
"""One grid square in each unit, unless ``--scale`` or the file says otherwise."""
DECIMALS = 2
"""Coordinates are rounded to 0.01 of the unit (cm or ft)."""


@dataclass(frozen=True)
class Draft:
    """The imported part of a scenario, in its unit."""

    ruleset: str
    name: str
    units: Units
    scale: float
    """One square, in ``units``."""
    width: float
    height: float
    walls: tuple[dict[str, Any], ...]
    """``{kind, start, end[, open][, name]}``, as a scenario writes them."""
    lights: tuple[dict[str, Any], ...]
    source: str
    file: str
    notes: tuple[str, ...]
    time: str = "night"
    """``day`` or ``night``: the file's (Foundry's lighting), else night."""
    house_rules: dict[str, Any] = field(default_factory=dict)
    """The scenario's house rules the map asks for: a map with no light at night is dark
    throughout (``light.dark_without_lights``, in the games that have it)."""

    @property
    def doors(self) -> int:
        return sum(1 for wall in self.walls if wall["kind"] == "door")

    @property
    def windows(self) -> int:
        return sum(1 for wall in self.walls if wall["kind"] == "window")


def default_scale(imported: ImportedMap, units: Units) -> float:
    """One square in ``units``: the Foundry grid's distance in feet for the d20 games, else
    :data:`DEFAULT_SQUARE`."""
    if units is Units.FT and imported.square_ft is not None:
        return imported.square_ft
    return DEFAULT_SQUARE[units]


def draft(
    imported: ImportedMap,
    *,
    ruleset: str,
    file: str,
    scale: float | None = None,
    name: str | None = None,
) -> Draft:
    """``imported`` scaled to ``ruleset``'s unit (see the module's docstring)."""
    units = unit_of(ruleset)
    if scale is not None and (not math.isfinite(scale) or scale <= 0):
        raise InputError(
            f"{scale}: one square is a length above 0 ({units.value})", where="--scale"
        )
    square = scale if scale is not None else default_scale(imported, units)
    width, height = _num(imported.width * square), _num(imported.height * square)
    for side, length in (("wide", width), ("high", height)):
        if length > LIMITS.max_distance:
            raise MapFileError(
                f"the map is {length:g} {units.value} {side} at {square:g} {units.value} a "
                f"square: at most {LIMITS.max_distance:g}; give a smaller --scale",
                file=file,
            )
    notes = list(imported.notes)
    walls: list[dict[str, Any]] = []
    seen: set[tuple[Point, Point]] = set()
    clipped = outside = repeated = 0
    for segment in imported.walls:
        cut = _clip(segment, imported.width, imported.height)
        if cut is None:
            outside += 1
            continue
        start, end = (_point(p, square, width, height) for p in cut)
        if start == end:
            outside += 1
            continue
        if cut != (segment.start, segment.end):
            clipped += 1
        key = (min(start, end), max(start, end))
        if key in seen and segment.name is None:
            repeated += 1
            continue
        seen.add(key)
        walls.append(_wall(segment, start, end))
    if outside:
        notes.append(f"{outside} wall(s) outside the map (or shorter than 0.01), left out")
    if clipped:
        notes.append(f"{clipped} wall(s) cut at the map's edge")
    if repeated:
        notes.append(f"{repeated} wall(s) drawn twice, kept once")
    lights: list[dict[str, Any]] = []
    dark = 0
    for lamp in imported.lights:
        x, y = lamp.at
        if not (0 <= x <= imported.width and 0 <= y <= imported.height):
            dark += 1
            continue
        radius = min(_num(lamp.radius * square), LIMITS.max_distance)
        lights.append(
            {
                "kind": "lantern",
                "at": list(_point(lamp.at, square, width, height)),
                "radius": max(radius, 10.0**-DECIMALS),
            }
        )
    if dark:
        notes.append(f"{dark} light(s) outside the map, left out")
    time = imported.time or "night"
    house_rules: dict[str, Any] = {}
    if time == "night" and not lights:
        house_rules = _unlit(ruleset, notes)
    for what, items in (("walls", walls), ("lights", lights)):
        if len(items) > MAX_ITEMS:
            raise MapFileError(
                f"{len(items)} {what} once imported: a scenario holds at most {MAX_ITEMS}; "
                "merge the wall points that are nearly on a line with --simplify 0.05 (squares)",
                file=file,
            )
    return Draft(
        ruleset=ruleset,
        name=name if name is not None else imported.name,
        units=units,
        scale=square,
        width=width,
        height=height,
        walls=tuple(walls),
        lights=tuple(lights),
        source=imported.source,
        file=file,
        notes=tuple(notes),
        time=time,
        house_rules=house_rules,
    )


UNLIT = "light.dark_without_lights"
"""The d20 games' house rule: a night scenario with no light at all is dark throughout."""


def _unlit(ruleset: str, notes: list[str]) -> dict[str, Any]:
    """A map with no light, at night: dark throughout. In the games whose night without any
    light is lit throughout unless :data:`UNLIT` says otherwise (its author having said
    nothing of its lighting), the scenario's house rule says so, as the map does."""
    from vigile.rulesets.data import shipped

    try:
        shipped(ruleset).flag(UNLIT)
    except (KeyError, FileNotFoundError, ModuleNotFoundError):
        notes.append("no light on the map: at night it is dark throughout")
        return {}
    notes.append(
        f"no light on the map: at night it is dark throughout (house_rules {UNLIT}: true; "
        "without it, this game takes a night with no light as lit throughout)"
    )
    return {"light": {"dark_without_lights": True}}


def _num(value: float) -> float:
    rounded = round(value, DECIMALS)
    return float(int(rounded)) if rounded.is_integer() else rounded


def _point(point: Point, square: float, width: float, height: float) -> Point:
    x, y = point
    return (min(max(_num(x * square), 0.0), width), min(max(_num(y * square), 0.0), height))


def _wall(segment: Segment, start: Point, end: Point) -> dict[str, Any]:
    wall: dict[str, Any] = {"kind": segment.kind}
    if segment.name is not None:
        wall["name"] = segment.name
    wall["start"], wall["end"] = list(start), list(end)
    if segment.open:
        wall["open"] = True
    return wall


def _clip(segment: Segment, width: float, height: float) -> tuple[Point, Point] | None:
    """The part of ``segment`` inside ``0..width`` x ``0..height`` (Liang-Barsky), or None."""
    (x1, y1), (x2, y2) = segment.start, segment.end
    dx, dy = x2 - x1, y2 - y1
    low, high = 0.0, 1.0
    for p, q in ((-dx, x1), (dx, width - x1), (-dy, y1), (dy, height - y1)):
        if p == 0:
            if q < 0:
                return None
            continue
        t = q / p
        if p < 0:
            low = max(low, t)
        else:
            high = min(high, t)
        if low > high:
            return None
    if low == 0 and high == 1:
        return segment.start, segment.end
    return (x1 + low * dx, y1 + low * dy), (x1 + high * dx, y1 + high * dy)


# --------------------------------------------------------------------------- the skeleton


def _flow(items: dict[str, Any]) -> Any:
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    mapping = CommentedMap()
    for key, value in items.items():
        if isinstance(value, list):
            seq = CommentedSeq(_plain(v) for v in value)
            seq.fa.set_flow_style()
            mapping[key] = seq
        else:
            mapping[key] = _plain(value)
    mapping.fa.set_flow_style()
    return mapping


def _flow_tree(items: dict[str, Any]) -> Any:
    from ruamel.yaml.comments import CommentedMap

    mapping = CommentedMap()
    for key, value in items.items():
        mapping[key] = _flow_tree(value) if isinstance(value, dict) else _plain(value)
    mapping.fa.set_flow_style()
    return mapping


def _plain(value: Any) -> Any:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def header(draft: Draft) -> list[str]:
    """The lines saying where the map came from and what was left out."""
    windows = f"{draft.windows} windows, " if draft.windows else ""
    walls = len(draft.walls) - draft.doors - draft.windows
    lines = [
        f"Imported by `vigile scenario import` from {draft.file} ({draft.source}):",
        f"{walls} walls, {draft.doors} doors, {windows}{len(draft.lights)} lights;"
        f" one square is {draft.scale:g} {draft.units.value}.",
    ]
    lines += [f"note: {note}" for note in draft.notes]
    return lines


def skeleton_text(draft: Draft, background: str | None) -> str:
    """A new scenario file: everything but the actors (see the module's docstring)."""
    from ruamel.yaml import YAML
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    root = CommentedMap()
    root["ruleset"] = draft.ruleset
    root["name"] = draft.name
    root["units"] = draft.units.value
    root["time"] = draft.time
    board = CommentedMap()
    board["width"] = _plain(draft.width)
    board["height"] = _plain(draft.height)
    if background is not None:
        board["background"] = background
        board.yaml_add_eol_comment("the map's picture, beside this file", "background")
    root["map"] = board
    walls = CommentedSeq(_flow(wall) for wall in draft.walls)
    root["walls"] = walls
    root["lights"] = CommentedSeq(_flow(light) for light in draft.lights)
    if draft.house_rules:
        root["house_rules"] = _flow_tree(draft.house_rules)
    actors = CommentedSeq()
    actors.fa.set_flow_style()
    root["actors"] = actors
    plans = CommentedMap()
    plans.fa.set_flow_style()
    root["plans"] = plans
    root.yaml_set_start_comment("\n".join(header(draft)))
    root.yaml_set_comment_before_after_key(
        "actors",
        before=(
            "\nAdd the actors (at least one), then the attackers' plans, for instance:\n"
            "  actors:\n"
            "    - {name: Intruder, side: attackers, position: [X, Y], ...}\n"
            "    - {name: Guard, side: defenders, position: [X, Y], ...}\n"
            "  plans:\n"
            "    Intruder:\n"
            "      - {to: [X, Y], speed: half}\n"
            "each with its dice (skirmish) or bonuses (d20 games), as in the bundled scenarios\n"
            "(vigile scenario list; vigile scenario schema). Then: vigile scenario validate FILE"
        ),
    )
    yaml = YAML(typ="rt")
    yaml.width = 4096
    yaml.indent(mapping=2, sequence=4, offset=2)
    out = io.StringIO()
    yaml.dump(root, out)
    return out.getvalue()


# --------------------------------------------------------------------------- the merge


_PLAIN = re.compile(r"[A-Za-z][A-Za-z0-9 _.-]*[A-Za-z0-9_]|[A-Za-z]")
_WORDS = frozenset(("true", "false", "null", "yes", "no", "on", "off", "y", "n"))
"""Words YAML would read as something else than a text: they are quoted."""


def _scalar(value: Any) -> str:
    """A YAML flow value: numbers and booleans plainly, texts plain when safe, else quoted."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        number = _plain(value)
        return str(number) if isinstance(number, int) else repr(float(number))
    if isinstance(value, list):
        return "[" + ", ".join(_scalar(v) for v in value) + "]"
    text = str(value)
    if _PLAIN.fullmatch(text) and text.lower() not in _WORDS:
        return text
    return json.dumps(text, ensure_ascii=False)


def _item(values: dict[str, Any]) -> str:
    return "{" + ", ".join(f"{key}: {_scalar(value)}" for key, value in values.items()) + "}"


def _top(root: Any, key: str) -> tuple[Any, Any] | None:
    from ruamel.yaml.nodes import MappingNode

    if not isinstance(root, MappingNode):
        return None
    for k, v in root.value:
        if getattr(k, "value", None) == key:
            return k, v
    return None


def _content_end(node: Any) -> int:
    """Where a node's own text ends (a block collection: its last value's end, not the comments
    and blank lines after it)."""
    from ruamel.yaml.nodes import MappingNode, SequenceNode

    if isinstance(node, MappingNode | SequenceNode) and not node.flow_style and node.value:
        last = node.value[-1]
        return _content_end(last[1] if isinstance(node, MappingNode) else last)
    return int(node.end_mark.index)


def _line_start(text: str, index: int) -> int:
    return text.rfind("\n", 0, index) + 1


def _line_end(text: str, index: int) -> int:
    end = text.find("\n", index)
    return len(text) if end < 0 else end + 1


def _list_edits(text: str, pair: tuple[Any, Any], items: list[str]) -> list[tuple[int, int, str]]:
    """The edits replacing the list under a top-level key by ``items``, one per line. A block
    list's lines give way to the new ones (its comment lines among them go too); a flow list
    (``[]``) or an empty value is removed and the items follow the key's line, whose comment
    stays there."""
    from ruamel.yaml.nodes import SequenceNode

    key, value = pair
    if isinstance(value, SequenceNode) and not value.flow_style and value.value:
        first, last = value.value[0], value.value[-1]
        start = _line_start(text, first.start_mark.index)
        prefix = text[start : first.start_mark.index]
        prefix = prefix if prefix.strip() == "-" else "  - "
        body = "".join(f"{prefix}{item}\n" for item in items)
        if not items:  # no items: the key's value becomes []
            colon = text.find(":", key.end_mark.index) + 1
            return [(start, _line_end(text, _content_end(last) - 1), ""), (colon, colon, " []")]
        return [(start, _line_end(text, _content_end(last) - 1), body)]
    colon = text.find(":", key.end_mark.index) + 1
    end = max(value.end_mark.index, colon)
    if not items:
        return [(colon, end, " []")]
    indent = " " * key.start_mark.column
    body = "".join(f"{indent}  - {item}\n" for item in items)
    after = _line_end(text, end)
    if after == len(text) and not text.endswith("\n"):
        body = "\n" + body
    return [(colon, end, ""), (after, after, body)]


def _map_edits(text: str, value: Any, fields: dict[str, Any]) -> list[tuple[int, int, str]]:
    """Edits setting ``fields`` in the map's mapping (block or flow), its other keys kept."""
    from ruamel.yaml.nodes import MappingNode

    if not isinstance(value, MappingNode):
        raise InputError("the scenario's `map` is not a mapping (width, height)", where="--into")
    edits: list[tuple[int, int, str]] = []
    present = {getattr(k, "value", None): (k, v) for k, v in value.value}
    missing = {k: v for k, v in fields.items() if k not in present}
    for name, new in fields.items():
        if name in present:
            _, old = present[name]
            edits.append((old.start_mark.index, old.end_mark.index, _scalar(new)))
    if missing:
        if value.flow_style:
            close = text.rfind("}", 0, value.end_mark.index)
            extra = "".join(f", {k}: {_scalar(v)}" for k, v in missing.items())
            edits.append((close, close, extra))
        else:
            last_key, last_value = value.value[-1]
            at = _line_end(text, _content_end(last_value) - 1)
            indent = " " * last_key.start_mark.column
            extra = "".join(f"{indent}{k}: {_scalar(v)}\n" for k, v in missing.items())
            if at == len(text) and not text.endswith("\n"):
                extra = "\n" + extra
            edits.append((at, at, extra))
    return edits


def merged_text(text: str, draft: Draft, background: str | None) -> str:
    """``text`` (an existing scenario's YAML) with ``draft``'s map, walls and lights."""
    from ruamel.yaml import YAML
    from ruamel.yaml.error import YAMLError

    try:
        root = YAML(typ="rt").compose(text)
    except YAMLError as error:
        raise InputError(f"not valid YAML ({str(error).splitlines()[0]})", where="--into") from None
    board = _top(root, "map")
    if board is None:
        raise InputError("the scenario has no `map`", where="--into")
    fields: dict[str, Any] = {"width": draft.width, "height": draft.height}
    if background is not None:
        fields["background"] = background
    edits = _map_edits(text, board[1], fields)
    anchor = _top(root, "actors")
    for name, values in (("walls", draft.walls), ("lights", draft.lights)):
        items = [_item(v) for v in values]
        pair = _top(root, name)
        if pair is not None:
            edits += _list_edits(text, pair, items)
            continue
        block = f"{name}:" + ("".join(f"\n  - {item}" for item in items) if items else " []")
        at = _line_start(text, anchor[0].start_mark.index) if anchor else len(text)
        lead = "" if at == 0 or text[at - 1] == "\n" else "\n"
        edits.append((at, at, f"{lead}{block}\n"))
    joined: dict[tuple[int, int], str] = {}
    for start, end, new in edits:  # two insertions at one place: in the order made
        joined[(start, end)] = joined.get((start, end), "") + new
    for (start, end), new in sorted(joined.items(), reverse=True):
        text = text[:start] + new + text[end:]
    return text
