"""Foundry VTT scene exports (the JSON of "Export Data" on a scene), from Foundry 0.7 to 13.

What is read::

    {"name": "Crypt", "width": 4000, "height": 3000, "padding": 0.25,
     "grid": {"type": 1, "size": 100, "distance": 5, "units": "ft"},      # v10+
     "grid": 100, "gridDistance": 5, "gridUnits": "ft",                     # before v10
     "background": {"src": "maps/crypt.webp", "offsetX": 0, "offsetY": 0}, # v10+ ("img" before)
     "walls": [{"c": [x1, y1, x2, y2], "move": 20, "sight": 20, "sound": 20,
                "door": 0, "ds": 0}, ...],
     "lights": [{"x": 500, "y": 700, "config": {"dim": 30, "bright": 15}}, ...]}   # v10+
                                                      # ("dim", "bright" on the light before)

Coordinates are canvas pixels: the canvas has a margin of ``padding`` times the scene's size,
rounded up to whole squares, and the picture is shifted by ``background.offsetX/Y`` (``shiftX/Y``
before v10); vigile subtracts both, so the map's corner is ``(0, 0)``, and divides by the grid
``size`` to get squares. Light radii are in the grid's ``distance`` units, so a light reaches
``radius / distance`` squares.

Walls, from their flags (``move``, ``sight`` — ``sense`` before v9 —, ``sound``, ``door``):

==============================================  ============================================
Foundry                                         vigile
==============================================  ============================================
``door`` 1 (door) or 2 (secret door)            ``door``, open when ``ds`` is 1 (open); closed
                                                when 0 (closed) or 2 (locked) [R: vigile has
                                                no locks]; named ``door N`` / ``secret door N``
blocks movement and sight (normal)              ``wall``
blocks movement, not sight (sight 0), or        ``window``: a barrier one sees through, not
blocks movement with proximity sight (30: one   walks through (the ruleset's
sees through it from near it; the Universal     ``barrier.window``); [R] a proximity wall is
Battlemap Importer's windows)                   seen through at any distance, with a note
limited sight (a "terrain" wall), or sight      ``partition`` [R]: a light barrier (a shoji,
without movement (an "ethereal" wall), or       a hedge); vigile's partitions stop walkers,
sound only                                      which Foundry's ethereal walls do not
blocks nothing (light only, or nothing)         left out, with a note
==============================================  ============================================

Flag values: 0 none; 10 (v9+) or 2 (``sense`` before v9) limited; 1 (before v9), 20 normal
and 40 reverse proximity (v11+) block [R: vigile has no proximity walls; a note counts them];
30 proximity, see the table. Any other value is refused. A one-way wall (``dir`` 1 or 2) blocks
both ways in vigile, with a note.

Lights: the ``bright`` radius when it has one, else the ``dim`` [R]: vigile's light is where
one is seen distinctly (SK-V5); dim light is the rules' shadowy illumination. A light switched
off (``hidden``) or a darkness source (``config.negative``) is left out, with a note.

Day or night [R]: the scene is ``time: day`` when Foundry lights it throughout: its global
illumination is on (``environment.globalLight.enabled`` from v12, ``globalLight`` before) and
its darkness level (``environment.darknessLevel``, ``darkness`` before) is within the global
light's threshold (``environment.globalLight.darkness.max``, ``globalLightThreshold``; none:
always); else ``night``, where only the lights light. The note names both values.

Grid: vigile's board is measured in squares of the grid's ``size``; a hex grid (``type`` 2 to
5, ``gridType`` before v10) or a gridless scene is read the same way, with a note.

Scale: one square is the grid's ``distance`` in ``units``; the d20 games take it (feet; metres
are converted at 1.5 m = 5 ft, the usual convention [R]). The picture is not in the export:
Foundry names it in its data folder; the scenario's background names the same file, to copy
beside it (a ``data:`` URI picture is decoded and kept).

Versions: the ``coreVersion`` the export records (``_stats`` from v10,
``flags.exportSource`` before) must be 0.x or 9 to 13; without one the fields decide.
"""

from __future__ import annotations

import math
import re

from vigile.scene.importers.imported import (
    MAX_WALL_POINTS,
    ImportedMap,
    Lamp,
    MapImage,
    Node,
    Segment,
    decode_image,
    plain_name,
)

CORE_VERSIONS = (0, 9, 10, 11, 12, 13)
"""The Foundry major versions whose scene exports vigile reads."""
NONE, LIMITED, NORMAL = "none", "limited", "normal"
PROXIMITY, REVERSE = "proximity", "reverse proximity"
_SENSES = {0: NONE, 10: LIMITED, 2: LIMITED, 1: NORMAL, 20: NORMAL, 30: PROXIMITY, 40: REVERSE}
_HEX_GRIDS = {
    2: "hex, odd rows",
    3: "hex, even rows",
    4: "hex, odd columns",
    5: "hex, even columns",
}
_MOVES = {0: NONE, 1: NORMAL, 20: NORMAL}
FEET_PER_METRE = 5 / 1.5
"""The tables' convention: a 1.5 m square is a 5 ft square."""
IMAGE_SUFFIXES = (".png", ".webp", ".jpg", ".jpeg")


def looks_like_foundry(data: object) -> bool:
    """A JSON document that is a Foundry scene (by its fields)."""
    return isinstance(data, dict) and "walls" in data and ("grid" in data or "width" in data)


def read_foundry(data: object, *, file: str, name: str) -> ImportedMap:
    """The map in a parsed Foundry scene export; ``name`` is used when the scene has none."""
    root = Node(data, "", file).obj()
    version = _version(root)
    width = root.key("width").number(above=0)
    height = root.key("height").number(above=0)
    size, distance, units = _grid(root)
    padding = root.at("padding").number(least=0) if root.has("padding") else 0.0
    if padding > 0.5:
        raise root.at("padding").fail(f"{padding:g}: Foundry's padding is 0 to 0.5")
    background = root.at("background") if root.has("background") else None
    if (
        background is not None
        and background.value is not None
        and not isinstance(background.value, dict)
    ):
        background = None  # before v10, "background" was a colour
    offset_x = _offset(root, background, "offsetX", "shiftX")
    offset_y = _offset(root, background, "offsetY", "shiftY")
    scene_x = math.ceil(round(padding * width / size, 9)) * size - offset_x
    scene_y = math.ceil(round(padding * height / size, 9)) * size - offset_y
    walls_node = root.key("walls")
    if 2 * walls_node.length() > MAX_WALL_POINTS:
        raise walls_node.fail(
            f"{walls_node.length():,} walls: more than {MAX_WALL_POINTS // 2:,}, the limit"
        )
    notes: list[str] = []
    walls: list[Segment] = []
    counts = {"door": 0, "secret door": 0}
    odd = {"one-way": 0, PROXIMITY: 0, REVERSE: 0}
    for wall in walls_node.items():
        wall.obj()
        c = wall.key("c")
        if c.length() != 4:
            raise c.fail(f"a wall has 4 coordinates [x1, y1, x2, y2], not {c.length()}")
        x1, y1, x2, y2 = (v.coordinate() for v in c.items())
        start = ((x1 - scene_x) / size, (y1 - scene_y) / size)
        end = ((x2 - scene_x) / size, (y2 - scene_y) / size)
        kind, is_open, label = _kind(wall, odd)
        if kind is None:
            notes.append(
                f"{wall.path}: a wall that blocks neither movement, sight nor sound, left out"
            )
            continue
        if start == end:
            notes.append(f"{wall.path}: a wall of no length, left out")
            continue
        named = None
        if label is not None:
            counts[label] += 1
            named = f"{label} {counts[label]}"
        walls.append(Segment(kind, start, end, open=is_open, name=named))
    _wall_notes(odd, notes)
    _grid_note(root, notes)
    time = _time(root, notes)
    lights = _lights(root, scene_x, scene_y, size, distance, notes)
    image, image_name = _picture(root, background)
    if version is None:
        notes.append("the export records no Foundry version: read by its fields")
    return ImportedMap(
        source="Foundry VTT scene" + (f" (core {version})" if version else ""),
        name=plain_name(root.at("name").text(), name) if root.has("name") else name,
        width=width / size,
        height=height / size,
        walls=tuple(walls),
        lights=tuple(lights),
        image=image,
        image_name=image_name,
        square_ft=_feet(distance, units),
        time=time,
        notes=tuple(notes),
    )


def _version(root: Node) -> str | None:
    for path in (("_stats", "coreVersion"), ("flags", "exportSource", "coreVersion")):
        node = root
        for key in path:
            if not node.has(key):
                break
            node = node.at(key)
        else:
            text = str(node.value) if isinstance(node.value, int | float) else node.text()
            found = re.fullmatch(r"(\d{1,4})(\.\d{1,6}){0,3}", text.strip())
            major = int(found.group(1)) if found else None
            if major not in CORE_VERSIONS:
                known = "0.x, " + ", ".join(str(v) for v in CORE_VERSIONS[1:])
                raise node.fail(f"Foundry version {text[:20]!r} is not one vigile reads ({known})")
            return text.strip()
    return None


def _grid(root: Node) -> tuple[float, float, str]:
    """The grid's size in pixels, its distance and its units (v10+ object, or older fields)."""
    grid = root.key("grid")
    if isinstance(grid.value, dict):
        size = grid.key("size").number(above=0)
        distance = grid.key("distance").number(above=0) if grid.has("distance") else 5.0
        units = grid.at("units").text() if grid.has("units") else "ft"
    else:
        size = grid.number(above=0)
        distance = root.at("gridDistance").number(above=0) if root.has("gridDistance") else 5.0
        units = root.at("gridUnits").text() if root.has("gridUnits") else "ft"
    if size < 1:
        raise grid.fail(f"a grid of {size:g} pixels: at least 1")
    return size, distance, units


def _offset(root: Node, background: Node | None, new: str, old: str) -> float:
    if background is not None and background.has(new):
        return background.at(new).coordinate()
    if root.has(old):
        return root.at(old).coordinate()
    return 0.0


def _sense(wall: Node, *names: str) -> str:
    for name in names:
        if wall.has(name):
            node = wall.at(name)
            value = node.whole()
            if value not in _SENSES:
                raise node.fail(f"{value} is not a Foundry restriction (0, 10, 20, 30, 40)")
            return _SENSES[value]
    return NORMAL  # Foundry's default


def _kind(wall: Node, odd: dict[str, int]) -> tuple[str | None, bool, str | None]:
    """vigile's kind, whether open, and the name's stem for doors (see the module's table);
    ``odd`` counts what vigile reads otherwise (one-way and proximity walls)."""
    if wall.has("dir"):
        way = wall.at("dir").whole()
        if way not in (0, 1, 2):
            raise wall.at("dir").fail(f"{way} is not a Foundry wall direction (0, 1, 2)")
        odd["one-way"] += way != 0
    door = wall.at("door").whole() if wall.has("door") else 0
    if door not in (0, 1, 2):
        raise wall.at("door").fail(f"{door} is not a Foundry door type (0, 1, 2)")
    if door:
        state = wall.at("ds").whole() if wall.has("ds") else 0
        if state not in (0, 1, 2):
            raise wall.at("ds").fail(f"{state} is not a Foundry door state (0, 1, 2)")
        return "door", state == 1, "door" if door == 1 else "secret door"
    move = NORMAL
    if wall.has("move"):
        value = wall.at("move").whole()
        if value not in _MOVES:
            raise wall.at("move").fail(f"{value} is not a Foundry movement type (0, 1, 20)")
        move = _MOVES[value]
    sight = _sense(wall, "sight", "sense")
    sound = _sense(wall, "sound")
    for strange in (PROXIMITY, REVERSE):
        odd[strange] += strange in (sight, sound)
    if sight == PROXIMITY and move == NORMAL:
        sight = NONE  # the Universal Battlemap Importer's window: seen through
    sight, sound = (NORMAL if v in (PROXIMITY, REVERSE) else v for v in (sight, sound))
    if move == NORMAL and sight == NORMAL:
        return "wall", False, None
    if move == NORMAL and sight == NONE:
        return "window", False, None
    if sight != NONE or sound != NONE:
        return "partition", False, None
    return None, False, None


def _wall_notes(odd: dict[str, int], notes: list[str]) -> None:
    if odd["one-way"]:
        notes.append(
            f"{odd['one-way']} one-way wall(s) (Foundry's direction): they block both ways in "
            "vigile"
        )
    if odd[PROXIMITY]:
        notes.append(
            f"{odd[PROXIMITY]} proximity wall(s) (seen through from near them in Foundry): a "
            "wall that stops walkers is a window, seen through at any distance; another blocks"
        )
    if odd[REVERSE]:
        notes.append(
            f"{odd[REVERSE]} reverse-proximity wall(s) (seen through from afar in Foundry): they "
            "block at any distance in vigile"
        )


def _grid_note(root: Node, notes: list[str]) -> None:
    grid = root.at("grid")
    node = grid.at("type") if grid.has("type") else root.at("gridType")
    if node.value is None:
        return
    kind = node.whole()
    if kind in _HEX_GRIDS:
        notes.append(
            f"a hex grid ({_HEX_GRIDS[kind]}): vigile's board has no grid of its own; its "
            "squares are the hexes' size, the walls and lights where they were drawn"
        )
    elif kind == 0:
        notes.append("a gridless scene: one square is the scene's grid size")


def _time(root: Node, notes: list[str]) -> str | None:
    """``day`` when Foundry lights the scene throughout, else ``night`` (see the module's
    docstring); None when the scene says nothing of its light."""
    environment = root.at("environment") if root.has("environment") else None
    if environment is not None and isinstance(environment.value, dict):
        level = environment.at("darknessLevel") if environment.has("darknessLevel") else None
        light = environment.at("globalLight") if environment.has("globalLight") else None
        enabled = light.at("enabled") if light is not None and light.has("enabled") else None
        top = None
        if light is not None and light.has("darkness") and light.at("darkness").has("max"):
            top = light.at("darkness").at("max")
    else:
        level = root.at("darkness") if root.has("darkness") else None
        enabled = root.at("globalLight") if root.has("globalLight") else None
        top = root.at("globalLightThreshold") if root.has("globalLightThreshold") else None
    if level is None and enabled is None:
        return None
    darkness = level.number(least=0) if level is not None else 0.0
    if level is not None and darkness > 1:
        raise level.fail(f"{darkness:g}: Foundry's darkness level is 0 to 1")
    lit = enabled.boolean() if enabled is not None else False
    threshold = top.number(least=0) if top is not None else None
    day = lit and (threshold is None or darkness <= threshold)
    said = "on" if lit else "off"
    if lit and threshold is not None:
        said += f" up to darkness {threshold:g}"
    notes.append(
        f"darkness level {darkness:g}, global illumination {said}: "
        + (
            "lit throughout, `time: day`"
            if day
            else "`time: night`, lit only where a light reaches"
        )
    )
    return "day" if day else "night"


def _lights(
    root: Node, scene_x: float, scene_y: float, size: float, distance: float, notes: list[str]
) -> list[Lamp]:
    lights: list[Lamp] = []
    if not root.has("lights"):
        return lights
    for light in root.at("lights").items():
        light.obj()
        at = (
            (light.key("x").coordinate() - scene_x) / size,
            (light.key("y").coordinate() - scene_y) / size,
        )
        source = light.at("config") if light.has("config") else light
        source.obj()
        if light.has("hidden") and light.at("hidden").boolean():
            notes.append(f"{light.path}: a light switched off in Foundry, left out")
            continue
        if source.has("negative") and source.at("negative").boolean():
            notes.append(f"{light.path}: a darkness source, left out (vigile has none)")
            continue
        bright = source.at("bright").number(least=0) if source.has("bright") else 0.0
        dim = source.at("dim").number(least=0) if source.has("dim") else 0.0
        reach = bright or dim
        if reach == 0:
            notes.append(f"{light.path}: a light with no radius, left out")
            continue
        lights.append(Lamp(at, reach / distance))
    return lights


def _picture(root: Node, background: Node | None) -> tuple[MapImage | None, str | None]:
    source = None
    if background is not None and background.has("src"):
        source = background.at("src")
    elif root.has("img"):
        source = root.at("img")
    if source is None:
        return None, None
    text = source.text()
    if text.startswith("data:"):
        return decode_image(source), None
    base = text.rsplit("/", 1)[-1].split("?", 1)[0]
    if not base.lower().endswith(IMAGE_SUFFIXES) or base.startswith("."):
        return None, None
    return None, base


def _feet(distance: float, units: str) -> float | None:
    """One square in feet, when the grid's units say feet or metres."""
    unit = units.strip().lower().rstrip(".")
    if unit in ("ft", "feet", "foot", "pieds", "pi"):
        return distance
    if unit in ("m", "metre", "metres", "meter", "meters", "mètres", "mètre"):
        return round(distance * FEET_PER_METRE, 6)
    return None
