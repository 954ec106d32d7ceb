"""The intermediate form of an imported map, and reading a map file safely.

Every importer (:mod:`~vigile.scene.importers.uvtt`, :mod:`~vigile.scene.importers.foundry`)
turns its format into one :class:`ImportedMap`, measured in **grid squares** (x rightwards, y
downwards, the map's top-left corner at ``(0, 0)``); :mod:`~vigile.scene.importers.scenario`
then scales it to a scenario's unit. A map file is untrusted input: whatever is wrong with it
is one :class:`MapFileError` (an :class:`~vigile.errors.InputError`, exit code 2) naming the
file, the JSON path (``line_of_sight[3][1].x``) and what is wrong, raised before anything is
written.

Limits (each refusal is a one-line error, never a hang or a memory blow-up):

* :data:`MAX_MAP_BYTES` (80 MiB): a larger file is refused before it is read. A Dungeondraft
  export at its best quality with its image embedded is a few tens of MiB.
* :data:`MAX_JSON_VALUES` (1,000,000): the commas and brackets of the text are counted before it
  is parsed, so a file of millions of tiny values is refused before Python builds them.
* :data:`MAX_IMAGE_BYTES` (48 MiB) of decoded image, measured from the base64 text before it is
  decoded, and :data:`MAX_IMAGE_SIDE` (32,768 pixels) a side, read from the PNG or WebP header.
  Only PNG, WebP and JPEG images are kept (recognised by their first bytes, not by a name).
* :data:`MAX_WALL_POINTS` (100,000): the points of every wall polyline and portal together,
  counted before they are read.
* :data:`MAX_GRID_COORD` (1,000,000 squares): a coordinate farther than this from the map is a
  corrupt file, not a map. Every number must be finite (NaN and infinities are refused, with
  their JSON path).
* The scenario written keeps the scenario format's own limits (at most
  :data:`~vigile.scene.model.MAX_ITEMS` walls and lights, a map at most
  :data:`~vigile.rulesets.limits.Limits.max_distance` wide): a map beyond them is refused by
  :mod:`~vigile.scene.importers.scenario` with the count and the way out (``--simplify``).
"""

from __future__ import annotations

import base64
import binascii
import itertools
import json
import math
import stat
import struct
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from vigile.errors import InputError
from vigile.rulesets.limits import digits_issue
from vigile.scene.actors import MAX_NAME, unsafe_character

MAX_MAP_BYTES = 80 * 1024 * 1024
MAX_JSON_VALUES = 1_000_000
MAX_IMAGE_BYTES = 48 * 1024 * 1024
MAX_IMAGE_SIDE = 32_768
MAX_WALL_POINTS = 100_000
MAX_GRID_COORD = 1_000_000.0

Point = tuple[float, float]


class MapFileError(InputError):
    """A map file that cannot be imported: ``file``, the JSON ``path`` at fault (or None), and
    what is wrong."""

    def __init__(self, message: str, *, file: str, path: str | None = None) -> None:
        self.file = file
        self.path = path
        self.problem = message
        super().__init__(f"{path}: {message}" if path else message, where=file)


# --------------------------------------------------------------------------- the form


@dataclass(frozen=True)
class Segment:
    """One straight barrier, in grid squares."""

    kind: str
    """``wall``, ``door``, ``partition`` or ``window`` (:class:`~vigile.scene.model.WallKind`)."""
    start: Point
    end: Point
    open: bool = False
    """A door or window standing open."""
    name: str | None = None
    """Doors are named (``door 1``) so that plans can open them."""


@dataclass(frozen=True)
class Lamp:
    """A light, in grid squares."""

    at: Point
    radius: float
    """How far it lights, in squares."""


@dataclass(frozen=True)
class MapImage:
    """The map's picture, as the file carried it."""

    data: bytes
    suffix: str
    """``.png``, ``.webp`` or ``.jpg``: what its first bytes say it is."""
    width: int | None = None
    """Pixels, when its header says (PNG, WebP)."""
    height: int | None = None


@dataclass(frozen=True)
class ImportedMap:
    """A map as an importer read it, in grid squares, before it becomes a scenario."""

    source: str
    """What it was read from, for the scenario's header (``Universal VTT 0.2``)."""
    name: str
    """The map's own name, or its file's."""
    width: float
    """In squares."""
    height: float
    walls: tuple[Segment, ...]
    lights: tuple[Lamp, ...]
    image: MapImage | None = None
    """The picture embedded in the file (Universal VTT; a Foundry ``data:`` URI)."""
    image_name: str | None = None
    """The picture a Foundry scene names in Foundry's data folder (not in the file)."""
    square_ft: float | None = None
    """The length of one square in feet, when the file says (Foundry's grid distance)."""
    time: str | None = None
    """``day`` or ``night`` when the file says (Foundry's darkness level and global
    illumination); None when it does not (a Universal VTT file): the scenario says night."""
    notes: tuple[str, ...] = field(default=())
    """What the import left out or changed, one line each."""


# --------------------------------------------------------------------------- reading JSON


def read_bytes(path: Path, shown: str | None = None) -> bytes:
    """The file's bytes, refusing what cannot be a map file before reading it."""
    from vigile.paths import reason, status

    file = shown or str(path)
    try:
        found = status(path)
    except OSError as error:  # too long a name, a loop of links
        raise MapFileError(f"cannot be read ({reason(error)})", file=file) from None
    if found is None:
        raise MapFileError("no such file", file=file)
    if not stat.S_ISREG(found.st_mode):
        raise MapFileError("not a regular file", file=file)
    try:
        size = found.st_size
        if size > MAX_MAP_BYTES:
            raise MapFileError(
                f"{size / 2**20:.0f} MiB: larger than {MAX_MAP_BYTES // 2**20} MiB, the limit "
                "of a map file",
                file=file,
            )
        with path.open("rb") as stream:
            data = stream.read(MAX_MAP_BYTES + 1)
    except OSError as error:
        raise MapFileError(f"cannot be read ({error.strerror or error})", file=file) from None
    if len(data) > MAX_MAP_BYTES:
        raise MapFileError(f"larger than {MAX_MAP_BYTES // 2**20} MiB", file=file)
    return data


class _LongNumber(Exception):
    pass


def _json_int(literal: str) -> int:
    wrong = digits_issue(literal)
    if wrong is not None:
        raise _LongNumber(wrong)
    return int(literal)


def parse_json(data: bytes, file: str) -> Any:
    """The JSON document in ``data``, within the limits; NaN and infinities are kept as floats
    and refused where a number is read (:meth:`Node.number`), with their path."""
    if len(data) > MAX_MAP_BYTES:
        raise MapFileError(f"larger than {MAX_MAP_BYTES // 2**20} MiB", file=file)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise MapFileError(
            f"not UTF-8 text (byte {error.start}): not a map file", file=file
        ) from None
    values = text.count(",") + text.count("{") + text.count("[")
    if values > MAX_JSON_VALUES:
        raise MapFileError(
            f"about {values:,} JSON values: more than {MAX_JSON_VALUES:,}, the limit of a map file",
            file=file,
        )
    try:
        return json.loads(text, parse_int=_json_int)
    except json.JSONDecodeError as error:
        where = f" (line {error.lineno}, column {error.colno})"
        cut = " — the file is truncated" if error.pos >= len(text.rstrip()) else ""
        raise MapFileError(f"not valid JSON: {error.msg}{where}{cut}", file=file) from None
    except RecursionError:
        raise MapFileError("not a map file: JSON nested too deeply", file=file) from None
    except _LongNumber as error:
        raise MapFileError(f"not a map file: {error}", file=file) from None


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a text"
    if isinstance(value, list):
        return "a list"
    return "an object"


@dataclass(frozen=True)
class Node:
    """A value of the JSON document with its path, read with checks: every wrong type or value
    is a :class:`MapFileError` naming the path."""

    value: Any
    path: str
    file: str

    def fail(self, message: str) -> MapFileError:
        return MapFileError(message, file=self.file, path=self.path or None)

    def at(self, key: str | int) -> Node:
        where = (
            f"{self.path}[{key}]"
            if isinstance(key, int)
            else (f"{self.path}.{key}" if self.path else key)
        )
        value = self.value[key] if isinstance(key, int) else self.value.get(key)
        return Node(value, where, self.file)

    def has(self, key: str) -> bool:
        return isinstance(self.value, dict) and self.value.get(key) is not None

    def obj(self) -> Node:
        if not isinstance(self.value, dict):
            raise self.fail(f"should be an object, not {_kind(self.value)}")
        return self

    def key(self, name: str) -> Node:
        """The required field ``name`` of this object."""
        node = self.obj().at(name)
        if node.value is None:
            raise (
                self.fail(f"no `{name}` field")
                if self.path
                else MapFileError(f"no `{name}` field", file=self.file)
            )
        return node

    def items(self) -> list[Node]:
        if not isinstance(self.value, list):
            raise self.fail(f"should be a list, not {_kind(self.value)}")
        return [self.at(index) for index in range(len(self.value))]

    def length(self) -> int:
        if not isinstance(self.value, list):
            raise self.fail(f"should be a list, not {_kind(self.value)}")
        return len(self.value)

    def number(self, *, least: float | None = None, above: float | None = None) -> float:
        value = self.value
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.fail(f"should be a number, not {_kind(value)}")
        number = float(value)
        if math.isnan(number):
            raise self.fail("NaN is not a number a map can hold")
        if math.isinf(number):
            raise self.fail("an infinite number (or one too large for a float)")
        if least is not None and number < least:
            raise self.fail(f"{number:g} is below {least:g}")
        if above is not None and number <= above:
            raise self.fail(f"{number:g} should be more than {above:g}")
        return number

    def coordinate(self) -> float:
        number = self.number()
        if abs(number) > MAX_GRID_COORD:
            raise self.fail(f"{number:g} is far outside any map (at most {MAX_GRID_COORD:g})")
        return number

    def whole(self) -> int:
        value = self.value
        if isinstance(value, float) and value.is_integer():
            return int(value)
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(f"should be a whole number, not {_kind(value)}")
        return value

    def boolean(self) -> bool:
        if not isinstance(self.value, bool):
            raise self.fail(f"should be true or false, not {_kind(self.value)}")
        return self.value

    def text(self) -> str:
        if not isinstance(self.value, str):
            raise self.fail(f"should be a text, not {_kind(self.value)}")
        return self.value


# --------------------------------------------------------------------------- images


def decode_image(node: Node) -> MapImage | None:
    """The base64 image at ``node`` (a bare base64 text or a ``data:`` URI); None when empty.
    Refused: too large (measured before decoding), not base64, not a PNG, WebP or JPEG image,
    or larger than :data:`MAX_IMAGE_SIDE` pixels a side."""
    text = node.text()
    if text.startswith("data:"):
        head, _, text = text.partition(",")
        if not head.endswith(";base64"):
            raise node.fail("a data: URI that is not base64")
    if not text.strip():
        return None
    size = len(text) * 3 // 4
    if size > MAX_IMAGE_BYTES:
        raise node.fail(
            f"an image of about {size / 2**20:.0f} MiB: larger than {MAX_IMAGE_BYTES // 2**20} "
            "MiB, the limit of a map's image"
        )
    try:
        data = base64.b64decode("".join(text.split()), validate=True)
    except (binascii.Error, ValueError):
        raise node.fail("not base64 text (the image is corrupt)") from None
    suffix, width, height = _image_kind(data)
    if suffix is None:
        raise node.fail("not a PNG, WebP or JPEG image")
    for side in (width, height):
        if side is not None and side > MAX_IMAGE_SIDE:
            raise node.fail(
                f"an image of {width} x {height} pixels: at most {MAX_IMAGE_SIDE} a side"
            )
    return MapImage(data, suffix, width, height)


def _image_kind(data: bytes) -> tuple[str | None, int | None, int | None]:
    """What the image's first bytes say: its suffix, and its size where the header gives it."""
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        if len(data) >= 24 and data[12:16] == b"IHDR":
            width, height = struct.unpack(">II", data[16:24])
            return ".png", width, height
        return ".png", None, None
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        chunk = data[12:16]
        if chunk == b"VP8X" and len(data) >= 30:
            width = int.from_bytes(data[24:27], "little") + 1
            height = int.from_bytes(data[27:30], "little") + 1
            return ".webp", width, height
        if chunk == b"VP8L" and len(data) >= 25:
            bits = int.from_bytes(data[21:25], "little")
            return ".webp", (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
        if chunk == b"VP8 " and len(data) >= 30:
            width = int.from_bytes(data[26:28], "little") & 0x3FFF
            height = int.from_bytes(data[28:30], "little") & 0x3FFF
            return ".webp", width, height
        return ".webp", None, None
    if data.startswith(b"\xff\xd8\xff"):
        return ".jpg", None, None
    return None, None, None


# --------------------------------------------------------------------------- polylines


def simplified(points: list[Point], tolerance: float) -> list[Point]:
    """``points`` without the ones within ``tolerance`` squares of the line through their
    neighbours kept (Douglas-Peucker; with 0, only points exactly on a straight run go), and
    without repeated points."""
    unique = [p for i, p in enumerate(points) if i == 0 or p != points[i - 1]]
    if len(unique) < 3:
        return unique
    keep = [False] * len(unique)
    keep[0] = keep[-1] = True
    stack = [(0, len(unique) - 1)]
    limit = max(tolerance, 1e-9)
    while stack:
        first, last = stack.pop()
        (x1, y1), (x2, y2) = unique[first], unique[last]
        length = math.hypot(x2 - x1, y2 - y1)
        farthest, index = -1.0, -1
        for i in range(first + 1, last):
            x, y = unique[i]
            if length == 0:
                distance = math.hypot(x - x1, y - y1)
            else:
                distance = abs((x2 - x1) * (y1 - y) - (x1 - x) * (y2 - y1)) / length
            if distance > farthest:
                farthest, index = distance, i
        if index >= 0 and farthest > limit:
            keep[index] = True
            stack.append((first, index))
            stack.append((index, last))
    return [p for p, kept in zip(unique, keep, strict=True) if kept]


def segments(points: list[Point], kind: str = "wall") -> list[Segment]:
    """The consecutive segments of a polyline."""
    return [Segment(kind, a, b) for a, b in itertools.pairwise(points) if a != b]


def plain_name(text: str, fallback: str) -> str:
    """A name a scenario accepts (no control characters or bidirectional overrides, no spaces
    at its ends, at most :data:`~vigile.scene.actors.MAX_NAME` characters), from a name a map
    file gave; ``fallback`` when nothing is left."""
    kept = "".join(char for char in text if unsafe_character(char) is None)
    kept = " ".join(kept.split())[:MAX_NAME].strip()
    return kept or fallback
