"""Universal VTT files: ``.dd2vtt`` (Dungeondraft), ``.df2vtt`` (DungeonFog), ``.uvtt``
(Arkenforge and others).

The format is one JSON object, every position in grid squares from the map's origin::

    {"format": 0.3,
     "resolution": {"map_origin": {"x": 0, "y": 0}, "map_size": {"x": 30, "y": 20},
                    "pixels_per_grid": 256},
     "line_of_sight": [[{"x": 1, "y": 1}, {"x": 9, "y": 1}, ...], ...],
     "objects_line_of_sight": [[...], ...],
     "portals": [{"position": {...}, "bounds": [{...}, {...}], "rotation": 1.57,
                  "closed": true, "freestanding": false}, ...],
     "lights": [{"position": {...}, "range": 5, "intensity": 1, "color": "ffeccd8b",
                 "shadows": true}, ...],
     "environment": {"baked_lighting": false, "ambient_light": "ffffffff"},
     "image": "iVBORw0KGgo..."}

What becomes what (the choices marked [R] are vigile's, not the format's):

* ``line_of_sight``: each polyline becomes its consecutive segments, kind ``wall``; points on a
  straight run are merged (and, with ``simplify``, points within that many squares of it).
* ``objects_line_of_sight`` (pillars, boulders, furniture that blocks sight): walls too [R]:
  the format says they block sight, and vigile's other barriers (a partition, a window) are
  things of a building. Where a polyline is closed, so is the wall around the object.
* ``portals``, from ``bounds[0]`` to ``bounds[1]``, read as the Universal Battlemap Importer
  (Foundry's ``dd-import`` module) reads them: a ``closed`` portal (one that blocks light) is a
  closed door, named ``door 1``, ``door 2``... in the file's order so that plans can open it; a
  portal that is not ``closed`` (Dungeondraft's windows: portals that let light through) is a
  closed ``window``, which stops walkers and lets sight through (the ruleset's
  ``barrier.window``), never an open door. A ``freestanding`` portal (one not set in a wall)
  is read the same way.
* ``lights``: lanterns [R] at ``position`` lighting ``range`` squares (intensity, colour and
  shadows have no counterpart in the rules); a light of range 0 is left out, with a note.
* ``resolution``: ``map_size`` is the map's size in squares, ``map_origin`` is subtracted from
  every position; ``pixels_per_grid`` only checks that the image fits the map.
* ``environment``: its ``ambient_light`` (the light where no lamp reaches) has no counterpart;
  the scenario says ``time: night``, and the summary names the ambient light, bright or dark.
* ``image``: the map's picture (PNG, WebP or JPEG, base64), kept as the scenario's background.
  A file that names its picture instead (``"image": "crypt.png"``) is read for its walls, doors
  and lights, and the summary says which picture to copy beside the scenario; so is a file
  with no picture.

Versions read: ``format`` 0.1, 0.2, 0.3 and 1.0 (the same fields); any other is refused, since
its fields may mean something else.
"""

from __future__ import annotations

import re

from vigile.scene.importers.imported import (
    MAX_WALL_POINTS,
    ImportedMap,
    Lamp,
    MapFileError,
    MapImage,
    Node,
    Point,
    Segment,
    decode_image,
    segments,
    simplified,
)

FORMATS = (0.1, 0.2, 0.3, 1.0)
"""The ``format`` versions vigile reads."""
SUFFIXES = (".dd2vtt", ".df2vtt", ".uvtt")
IMAGE_SUFFIXES = (".png", ".webp", ".jpg", ".jpeg")


def looks_like_uvtt(data: object) -> bool:
    """A JSON document that is a Universal VTT map (by its fields, whatever the file's name)."""
    return (
        isinstance(data, dict)
        and "resolution" in data
        and ("line_of_sight" in data or "portals" in data or "format" in data)
    )


def read_uvtt(data: object, *, file: str, name: str, simplify: float = 0.0) -> ImportedMap:
    """The map in a parsed Universal VTT document; ``name`` is the map's (the file's stem)."""
    root = Node(data, "", file).obj()
    version = _version(root)
    resolution = root.key("resolution").obj()
    origin: Point = (0.0, 0.0)
    if resolution.has("map_origin"):
        origin = _point(resolution.at("map_origin"), origin)
    size = resolution.key("map_size").obj()
    width = size.key("x").number(above=0)
    height = size.key("y").number(above=0)
    pixels = (
        resolution.key("pixels_per_grid").number(above=0)
        if resolution.has("pixels_per_grid")
        else None
    )
    _count_points(root)
    walls: list[Segment] = []
    for field in ("line_of_sight", "objects_line_of_sight"):
        if root.has(field):
            for line in root.at(field).items():
                points = [_point(p, origin) for p in line.items()]
                walls += segments(simplified(points, simplify))
    notes: list[str] = []
    doors = windows = 0
    if root.has("portals"):
        for portal in root.at("portals").items():
            portal.obj()
            bounds = portal.key("bounds")
            if bounds.length() != 2:
                raise bounds.fail(f"a portal has 2 bounds, not {bounds.length()}")
            start, end = (_point(p, origin) for p in bounds.items())
            closed = portal.key("closed").boolean() if portal.has("closed") else True
            if start == end:
                notes.append(f"{portal.path}: a portal of no width, left out")
                continue
            if closed:
                doors += 1
                walls.append(Segment("door", start, end, name=f"door {doors}"))
            else:
                windows += 1
                walls.append(Segment("window", start, end))
    if windows:
        notes.append(
            f"{windows} portal(s) that let light through (windows, as the Universal Battlemap "
            "Importer reads them): closed windows, seen through, not walked through"
        )
    lights: list[Lamp] = []
    if root.has("lights"):
        for light in root.at("lights").items():
            light.obj()
            at = _point(light.key("position"), origin)
            reach = light.key("range").number(least=0)
            if reach == 0:
                notes.append(f"{light.path}: a light of range 0, left out")
                continue
            lights.append(Lamp(at, reach))
    image, image_name = _picture(root, notes)
    _environment(root, notes)
    if image is not None and pixels is not None and image.width is not None:
        expected = round(width * pixels)
        if abs(image.width - expected) > max(2, expected // 100):
            notes.append(
                f"the image is {image.width} pixels wide, not {expected} ({width:g} squares of "
                f"{pixels:g} pixels): check that it lines up with the walls"
            )
    return ImportedMap(
        source=f"Universal VTT {version:g}",
        name=name,
        width=width,
        height=height,
        walls=tuple(walls),
        lights=tuple(lights),
        image=image,
        image_name=image_name,
        notes=tuple(notes),
    )


def _version(root: Node) -> float:
    if not root.has("format"):
        raise MapFileError(
            "no `format` field: not a Universal VTT file (.dd2vtt, .df2vtt, .uvtt)",
            file=root.file,
        )
    node = root.at("format")
    version = node.number()
    if not any(abs(version - known) < 1e-9 for known in FORMATS):
        known = ", ".join(f"{v:g}" for v in FORMATS)
        raise node.fail(f"format version {version:g} is not one vigile reads ({known})")
    return version


def _picture(root: Node, notes: list[str]) -> tuple[MapImage | None, str | None]:
    """The embedded picture, or the name of the picture the file points to (a path: it has a
    dot, which base64 never has), with a note when the picture is not in the file."""
    node = root.at("image") if root.has("image") else None
    text = node.text().strip() if node is not None else ""
    if node is None or not text:
        notes.append("no picture in the file: its walls, doors and lights only")
        return None, None
    if text.startswith("data:") or "." not in text:
        return decode_image(node), None
    base = re.split(r"[/\\]", text)[-1].split("?", 1)[0]
    if base.lower().endswith(IMAGE_SUFFIXES) and not base.startswith("."):
        notes.append(
            f"the picture is not in the file, which names {base}: its walls, doors and lights only"
        )
        return None, base
    notes.append(
        f"`image` names {text[:60]!r}, not a picture in the file: its walls, doors and lights only"
    )
    return None, None


def _environment(root: Node, notes: list[str]) -> None:
    """Name the map's ambient light: vigile has no counterpart (the scenario says night)."""
    if not root.has("environment"):
        return
    environment = root.at("environment").obj()
    if not environment.has("ambient_light"):
        return
    colour = environment.at("ambient_light").text().strip().lower()
    if not re.fullmatch(r"[0-9a-f]{6}([0-9a-f]{2})?", colour):
        raise environment.at("ambient_light").fail(f"{colour[:20]!r} is not a colour (AARRGGBB)")
    red, green, blue = (int(colour[-6:][k : k + 2], 16) / 255 for k in (0, 2, 4))
    bright = 0.2126 * red + 0.7152 * green + 0.0722 * blue >= 0.5
    notes.append(
        f"the map's ambient light is {colour} ({'bright' if bright else 'dark'}): vigile has "
        "no ambient light; the scenario says `time: night`, where only the lights light"
        + (" (write `time: day` for a map played in daylight)" if bright else "")
    )


def _point(node: Node, origin: Point) -> Point:
    node.obj()
    return (node.key("x").coordinate() - origin[0], node.key("y").coordinate() - origin[1])


def _count_points(root: Node) -> None:
    """Refuse more than :data:`MAX_WALL_POINTS` points before reading any."""
    total = 0
    for field in ("line_of_sight", "objects_line_of_sight"):
        if root.has(field):
            for line in root.at(field).items():
                total += line.length()
                if total > MAX_WALL_POINTS:
                    raise line.fail(
                        f"more than {MAX_WALL_POINTS:,} wall points in the file, the limit"
                    )
    if root.has("portals"):
        total += 2 * root.at("portals").length()
        if total > MAX_WALL_POINTS:
            raise root.at("portals").fail(
                f"more than {MAX_WALL_POINTS:,} wall and portal points in the file, the limit"
            )
