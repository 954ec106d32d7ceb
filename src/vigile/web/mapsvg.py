"""The map of a live encounter, as the data an SVG template draws: what each viewer may see.

The board (walls, doors and shoji, windows, ground, cover, lights with the zone each one
lights, the objective) comes from the scenario; the tokens from a view. The GM's map has
every actor, each guard's patrol group, and each guard's awareness of each intruder as a
letter (and a colour: never the colour alone), with an arrow where a guard heard a noise; a
character's map has only what that character knows (:func:`vigile.live.character_view`: itself,
its fellows, the enemies it scouted, found or located, an arrow the way it heard one); the
table's only the intruders (:func:`vigile.live.table_view`). Doors are drawn as they stand for
the GM, as the scenario starts them for everyone else (a door someone opened out of a
character's sight is not news to give away). A board is drawn once per scenario and door state
(:func:`board_layers`); what moves (tokens, patrol links, arrows) is one group of the SVG, which
a player's page gets alone when its stream has news.

Coordinates stay in the scenario's unit (the SVG's ``viewBox``); sizes of marks scale with
the board.
"""

from __future__ import annotations

import base64
import hashlib
import math
import struct
import threading
import zlib
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from itertools import pairwise
from typing import Any, Final

import numpy as np

from vigile import registry
from vigile.engine.board import Board
from vigile.engine.game import Game
from vigile.errors import InputError
from vigile.scene.geometry import Barriers, lit_by
from vigile.scene.model import Scenario

RAYS: Final = 72
"""Rays cast from a light to outline the zone it lights (walls cut it, SK-V5)."""
STEPS: Final = 24
"""Samples along each ray."""
ARROW: Final = 0.09
"""An arrow's length, as a share of the board's larger side."""

Point = tuple[float, float]


def _points(polygon: Iterable[Sequence[float]]) -> str:
    return " ".join(f"{x:g},{y:g}" for x, y in polygon)


@dataclass
class MapModel:
    """Everything the map template draws."""

    width: float
    height: float
    unit: str
    mark: float
    """The size of a token: 2.2% of the board's larger side."""
    surfaces: list[dict[str, Any]] = field(default_factory=list)
    cover: list[dict[str, Any]] = field(default_factory=list)
    lights: list[dict[str, Any]] = field(default_factory=list)
    walls: list[dict[str, Any]] = field(default_factory=list)
    objective: dict[str, Any] | None = None
    grid: float | None = None
    """A square's side (d20 games: 5 ft), or None."""
    tokens: list[dict[str, Any]] = field(default_factory=list)
    links: list[dict[str, Any]] = field(default_factory=list)
    """Patrol groups: dashed lines between members."""
    arrows: list[dict[str, Any]] = field(default_factory=list)
    overlay: dict[str, Any] | None = None
    clickable: bool = False
    background: str | None = None
    """The URL of the map's picture, drawn over the ground (the editor's, for a workspace file:
    :func:`vigile.web.editor.background_url`); the template escapes it like any value."""
    board_mark: str = ""
    """Which board this is (its doors open and its lights): a page showing the same board is
    sent its tokens alone."""


def lit_zone(barriers: Barriers, x: float, y: float, radius: float) -> list[Point]:
    """The outline of what one light lights: along each ray, out to the last point it still
    lights before a wall (the engine's own test, :func:`vigile.scene.geometry.lit_by`)."""
    angles = np.linspace(0, 2 * math.pi, RAYS, endpoint=False)
    reach = radius * (np.arange(1, STEPS + 1) / STEPS) * 0.999
    px = x + np.outer(np.cos(angles), reach)
    py = y + np.outer(np.sin(angles), reach)
    lit = lit_by(barriers, px.ravel(), py.ravel(), [x], [y], [radius]).reshape(px.shape)
    outline: list[Point] = []
    for ray in range(RAYS):
        dark = np.nonzero(~lit[ray])[0]
        last = (dark[0] - 1) if dark.size else STEPS - 1
        if last < 0:
            outline.append((x, y))
        else:
            outline.append((round(float(px[ray, last]), 2), round(float(py[ray, last]), 2)))
    return outline


LIT_ZONES_KEPT: Final = 1024
"""Lit zones kept (:func:`lit_zones`): a few boards' lights, each in the places an editor moved
it to."""

_lit: OrderedDict[tuple[bytes, float, float, float], str] = OrderedDict()
_lit_lock = threading.Lock()


def sight_key(barriers: Barriers) -> bytes:
    """A digest of what a light's zone depends on among the barriers: the ends of those that
    stop sight (:func:`vigile.scene.geometry.lit_by` reads no other), in their order."""
    mask = np.asarray(barriers.blocks_sight, dtype=np.bool_)
    ends = np.stack([barriers.x1, barriers.y1, barriers.x2, barriers.y2]).astype(np.float64)
    return hashlib.blake2b(np.ascontiguousarray(ends[:, mask]).tobytes(), digest_size=20).digest()


def lit_zones(barriers: Barriers, lights: Iterable[tuple[float, float, float]]) -> list[str]:
    """Each light's zone (:func:`lit_zone`, as SVG points), for lights given as (x, y, radius).

    A zone depends on its light's place and reach and on the sight-blocking barriers alone
    (not on the tokens, nor the rest of the scenario): it is kept under those, so that an edit
    that moves a guard, or a board drawn again for a new scenario with the same walls and
    lights, costs no ray cast. A wall or a light changed is a new key, drawn afresh."""
    walls = sight_key(barriers)
    zones: list[str] = []
    for x, y, radius in lights:
        key = (walls, float(x), float(y), float(radius))
        with _lit_lock:
            zone = _lit.get(key)
            if zone is not None:
                _lit.move_to_end(key)
        if zone is None:
            zone = _points(lit_zone(barriers, x, y, radius))
            with _lit_lock:
                _lit[key] = zone
                while len(_lit) > LIT_ZONES_KEPT:
                    _lit.popitem(last=False)
        zones.append(zone)
    return zones


BOARDS_KEPT: Final = 64
"""Boards drawn kept (:func:`board_layers`): an encounter's board for each state of its doors."""

_boards: OrderedDict[tuple[int, frozenset[int], tuple[float, ...]], tuple[Scenario, MapModel]] = (
    OrderedDict()
)
_boards_lock = threading.Lock()


def board_layers(
    scenario: Scenario, board: Board, *, open_doors: frozenset[int] | None = None
) -> MapModel:
    """The board as drawn for a viewer: ``open_doors`` the doors shown open (None: as the
    scenario starts them). No token: the caller adds what its viewer may see.

    The layers are the same for every viewer of one scenario with the same doors open, and
    the lit zones cost a ray cast per light: they
    are drawn once per scenario and door state, and each call gets its own model sharing the
    board's lists (never changed in place: a caller adds tokens, links, arrows, an overlay)."""
    shown_open = (
        open_doors
        if open_doors is not None
        else frozenset(i for i, wall in enumerate(scenario.walls) if wall.open)
    )
    key = (id(scenario), shown_open, tuple(board.light_r.tolist()))
    with _boards_lock:
        found = _boards.get(key)
        if found is not None and found[0] is scenario:  # held here: its id is not reused
            _boards.move_to_end(key)
            return _fresh(found[1])
    drawn = _draw_board(scenario, board, shown_open)
    drawn.board_mark = f"{zlib.crc32(repr((sorted(shown_open), key[2])).encode()):08x}"
    with _boards_lock:
        _boards[key] = (scenario, drawn)
        while len(_boards) > BOARDS_KEPT:
            _boards.popitem(last=False)
    return _fresh(drawn)


def _fresh(board: MapModel) -> MapModel:
    """A model of its own over a drawn board: the board's layers shared, its own (empty)
    tokens, links and arrows."""
    return replace(board, tokens=[], links=[], arrows=[], overlay=None, clickable=False)


def _draw_board(scenario: Scenario, board: Board, shown_open: frozenset[int]) -> MapModel:
    size = scenario.map
    model = MapModel(
        width=size.width,
        height=size.height,
        unit=scenario.units.value,
        mark=max(size.width, size.height) * 0.022,
        grid=5.0 if scenario.units.value == "ft" else None,
    )
    model.surfaces = [
        {"kind": r.kind.value, "points": _points(r.points), "name": r.name or r.kind.value}
        for r in scenario.surfaces
    ]
    model.cover = [{"points": _points(c.points), "name": c.name or ""} for c in scenario.cover]
    barriers = board.barriers_for(shown_open)
    radii = board.light_r.tolist()
    places = [
        (light.at[0], light.at[1], r) for light, r in zip(scenario.lights, radii, strict=True)
    ]
    zones = lit_zones(barriers, places)
    for light, radius, zone in zip(scenario.lights, radii, zones, strict=True):
        x, y = light.at
        model.lights.append({"kind": light.kind.value, "x": x, "y": y, "r": radius, "zone": zone})
    for index, wall in enumerate(scenario.walls):
        (x1, y1), (x2, y2) = wall.start, wall.end
        model.walls.append(
            {
                "kind": wall.kind.value,
                "x1": x1,
                "y1": y1,
                "x2": x2,
                "y2": y2,
                "name": wall.name,
                "open": index in shown_open,
            }
        )
    objective = scenario.objective
    if objective is not None:
        model.objective = {
            "description": objective.description,
            "points": _points(objective.area) if objective.area is not None else None,
            "x": objective.at[0] if objective.at is not None else None,
            "y": objective.at[1] if objective.at is not None else None,
            "r": objective.radius,
        }
    return model


def initials(names: Iterable[str]) -> dict[str, str]:
    """A short label per name, unique: ``Kage`` → ``Ka``, ``Kaze`` → ``Kz``."""
    labels: dict[str, str] = {}
    used: set[str] = set()
    for name in names:
        letters = [c for c in name if c.isalnum()] or ["?"]
        candidates = [letters[0].upper() + c.lower() for c in letters[1:]] or [letters[0].upper()]
        label = next((c for c in candidates if c not in used), None)
        if label is None:
            label = f"{letters[0].upper()}{len(used)}"
        used.add(label)
        labels[name] = label
    return labels


def arrow(start: Point, degrees: float, length: float) -> dict[str, float]:
    """A fixed-length arrow from ``start`` along a bearing (a direction, no distance)."""
    angle = math.radians(degrees)
    return {
        "x1": start[0],
        "y1": start[1],
        "x2": round(start[0] + math.cos(angle) * length, 2),
        "y2": round(start[1] + math.sin(angle) * length, 2),
    }


def gm_tokens(model: MapModel, game: Game, view: Mapping[str, Any]) -> None:
    """Every actor, its group, and each guard's awareness of each intruder."""
    matrix: Mapping[str, Mapping[str, str]] = view["awareness"]
    labels = initials(w.name for w in game.walkers)
    groups: dict[str, list[Point]] = {}
    for walker in game.walkers:
        knows = [
            {"target": target, "label": labels[target], "state": state}
            for target, state in matrix.get(walker.name, {}).items()
            if state != "unaware"
        ]
        model.tokens.append(
            {
                "name": walker.name,
                "label": labels[walker.name],
                "side": walker.side.value,
                "x": round(walker.x, 2),
                "y": round(walker.y, 2),
                "alive": walker.alive,
                "alert": walker.alert,
                "group": walker.actor.group,
                "knows": knows,
                "me": False,
            }
        )
        if walker.actor.group is not None and walker.alive:
            groups.setdefault(walker.actor.group, []).append(walker.at)
        for item in knows:
            if item["state"] != "direction":
                continue
            way = game.perceived(walker, game.by_name[item["target"]])[1]
            if way is not None:
                drawn = arrow(walker.at, way, max(model.width, model.height) * ARROW)
                model.arrows.append({**drawn, "who": walker.name, "target": item["target"]})
    for name, places in groups.items():
        for a, b in pairwise(places):
            model.links.append({"group": name, "x1": a[0], "y1": a[1], "x2": b[0], "y2": b[1]})


def _token(
    name: str | None, label: str, side: str, at: Sequence[float], **extra: Any
) -> dict[str, Any]:
    """One token of a character's or the table's map (an unknown enemy: no name, ``?``)."""
    return {
        "name": name,
        "label": label,
        "side": side,
        "x": at[0],
        "y": at[1],
        "alive": True,
        "alert": False,
        "group": None,
        "knows": [],
        "me": False,
    } | extra


def character_tokens(model: MapModel, game: Game, view: Mapping[str, Any]) -> None:
    """The character itself, its fellows, the enemies it observes, has located or scouted
    (unnamed where it does not know who), and an arrow the way it heard each it only heard
    (:func:`vigile.live.character_view`, nothing more: an enemy it never perceived is not
    drawn, one only heard has no token)."""
    me = view["me"]
    side = game.by_name[me["name"]].side
    fellows = view.get("fellows", [])
    named = [me["name"], *(f["name"] for f in fellows), *(k["name"] for k in view["known"])]
    labels = initials(n for n in named if n is not None)
    model.tokens.append(
        _token(me["name"], labels[me["name"]], side.value, me["at"], alive=me["alive"], me=True)
    )
    for fellow in fellows:
        model.tokens.append(
            _token(
                fellow["name"],
                labels[fellow["name"]],
                side.value,
                fellow["at"],
                alive=fellow["alive"],
                fellow=True,
            )
        )
    enemy_side = next((w.side.value for w in game.walkers if w.side is not side), side.value)
    for known in view["known"]:
        name = known["name"]
        if "at" in known:
            model.tokens.append(
                _token(
                    name,
                    labels[name] if name is not None else "?",
                    enemy_side,
                    known["at"],
                    alive=known.get("alive", True),
                    seen_as=None if known.get("scouted") else known["awareness"],
                    scouted=bool(known.get("scouted")),
                )
            )
        elif "bearing" in known:
            drawn = arrow(tuple(me["at"]), known["bearing"], max(model.width, model.height) * ARROW)
            model.arrows.append({**drawn, "who": me["name"], "target": name})


def table_tokens(model: MapModel, view: Mapping[str, Any]) -> None:
    """The intruders the defenders observe, and the squares where they located someone
    (:func:`vigile.live.table_view`)."""
    labels = initials(i["name"] for i in view["intruders"] if i["name"] is not None)
    for intruder in view["intruders"]:
        name = intruder["name"]
        model.tokens.append(
            _token(
                name,
                labels[name] if name is not None else "?",
                "attackers",
                intruder["at"],
                alive=intruder.get("alive", True),
            )
        )


# ------------------------------------------------------------------------------ risk overlay

OVERLAY_CELLS: Final = 20_000
"""The overlay's grid stays under this many cells (the finest of 1, 2, 5, 10... units)."""


def png(rgba: np.ndarray) -> bytes:
    """A PNG file of an (h, w, 4) uint8 array (no imaging library needed)."""
    height, width, _ = rgba.shape
    raw = b"".join(b"\x00" + rgba[row].tobytes() for row in range(height))

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return (
            struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)
        )

    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )


def overlay_resolution(width: float, height: float) -> float:
    for step in (1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0):
        if math.ceil(width / step) * math.ceil(height / step) <= OVERLAY_CELLS:
            return step
    return 200.0


def game_risk_map(scenario: Scenario, attitude: str, resolution: float | None) -> Any:
    """The game's risk map, by the function its plug-in names
    (:attr:`vigile.registry.GamePlugin.riskmap`), the attitude in the game's words; an
    :class:`~vigile.errors.InputError` for a game that has none."""
    from vigile.games.contract import RiskRequest, risk_map

    if registry.get(scenario.ruleset).riskmap is None:
        raise InputError(f"no risk map for this game ({scenario.ruleset})", where="riskmap")
    return risk_map(scenario, RiskRequest(attitude, resolution=resolution))


def risk_overlay(scenario: Scenario, attitude: str) -> dict[str, Any]:
    """The game's risk map (skirmish or d20) as an image under the map, for an intruder of
    ``attitude``; an :class:`~vigile.errors.InputError` for a game that has none, or an
    attitude it does not know."""
    size = scenario.map
    # a d20 game's map is on its own 5 ft squares (it refuses another resolution)
    resolution = (
        None if scenario.units.value == "ft" else overlay_resolution(size.width, size.height)
    )
    found = game_risk_map(scenario, attitude, resolution)
    risk = np.clip(found.risk, 0.0, 1.0)
    rgba = np.zeros((*risk.shape, 4), dtype=np.uint8)
    rgba[..., 0] = 200
    rgba[..., 1] = (160 * (1 - risk)).astype(np.uint8)
    rgba[..., 2] = 30
    rgba[..., 3] = (np.sqrt(risk) * 170).astype(np.uint8)
    step = found.resolution
    return {
        "href": "data:image/png;base64," + base64.b64encode(png(rgba)).decode("ascii"),
        "width": float(found.xs.size * step),
        "height": float(found.ys.size * step),
        "resolution": step,
        "max": float(risk.max()),
        "attitude": attitude,
        "notes": found.notes,
    }


def scenario_now(scenario: Scenario, game: Game) -> Scenario:
    """The scenario as the board stands now, for the risk overlay: each actor where it stands
    (on alert if it is), the dead left out, the doors as they are. The risk map is the game's
    (it reads the scenario it is given); only where it is read from changes."""
    living = [w for w in game.walkers if w.alive]
    names = {w.name for w in living}
    open_now = frozenset(game.board.open_doors)
    actors = tuple(
        w.actor.model_copy(update={"position": (round(w.x, 6), round(w.y, 6)), "alert": w.alert})
        for w in living
    )
    walls = tuple(
        wall
        if wall.open == (index in open_now)
        else wall.model_copy(update={"open": not wall.open})
        for index, wall in enumerate(scenario.walls)
    )
    return scenario.model_copy(
        update={
            "actors": actors,
            "walls": walls,
            "hidden_guards": tuple(n for n in scenario.hidden_guards if n in names),
            "plans": {n: legs for n, legs in scenario.plans.items() if n in names},
        }
    )


def now_key(game: Game) -> tuple[Any, ...]:
    """What the overlay from where everyone stands depends on: positions, life, alert, doors."""
    return (
        tuple((w.name, round(w.x, 6), round(w.y, 6), w.alive, w.alert) for w in game.walkers),
        tuple(sorted(game.board.open_doors)),
    )
