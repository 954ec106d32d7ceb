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
* ``portals``: doors, from ``bounds[0]`` to ``bounds[1]``, open unless ``closed``, named
  ``door 1``, ``door 2``... in the file's order so that plans can open them. A ``freestanding``
  portal (one not set in a wall) is a door all the same [R]: the format has no windows, and a
  window in Dungeondraft is a portal like a door.
* ``lights``: lanterns [R] at ``position`` lighting ``range`` squares (intensity, colour and
  shadows have no counterpart in the rules); a light of range 0 is left out.
* ``resolution``: ``map_size`` is the map's size in squares, ``map_origin`` is subtracted from
  every position; ``pixels_per_grid`` only checks that the image fits the map.
* ``environment`` has no counterpart (vigile's scenario says ``time: night`` or ``day``).
* ``image``: the map's picture (PNG, WebP or JPEG, base64), kept as the scenario's background.

Versions read: ``format`` 0.1, 0.2 and 0.3; any other is refused, since its fields may mean
something else.
"""

from __future__ import annotations

from vigile.scene.importers.imported import (
    MAX_WALL_POINTS,
    ImportedMap,
    Lamp,
    MapFileError,
    Node,
    Point,
    Segment,
    decode_image,
    segments,
    simplified,
)

FORMATS = (0.1, 0.2, 0.3)
"""The ``format`` versions vigile reads."""
SUFFIXES = (".dd2vtt", ".df2vtt", ".uvtt")


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
    doors = 0
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
            doors += 1
            walls.append(Segment("door", start, end, open=not closed, name=f"door {doors}"))
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
    image = decode_image(root.at("image")) if root.has("image") else None
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
