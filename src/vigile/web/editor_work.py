"""What the editor computes from a scenario's text: the edits, the errors by line, the map, the
risk overlay with the safest route, a simulation's outcomes and heat map, a sweep's curves.

No HTTP here (:mod:`vigile.web.editor` serves it): plain functions over the YAML text, each
calling the library's own (``check_text`` for the errors, so they read as ``vigile scenario
validate`` prints them; ``risk_map`` and ``safest_route``; ``simulate``; ``run_sweep``).
"""

from __future__ import annotations

import base64
import itertools
import json
import math
import re
import threading
import types
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Annotated, Any, Final, Literal, Union, get_args, get_origin

import numpy as np
from pydantic import BaseModel

from vigile import registry
from vigile.awareness.vocabulary import Attitude
from vigile.engine.result import Ending
from vigile.errors import InputError, LimitError, Said, VigileError
from vigile.io.i18n import Lang, issue_line, said
from vigile.scene.actors import GuardState
from vigile.scene.games import SHARED_ACTIONS, action_name, own_actions
from vigile.scene.loader import ScenarioIssue, check_text
from vigile.scene.model import Scenario, item_models
from vigile.scene.reading import Refused, parse
from vigile.scene.vocabulary import vocabulary_of

from . import editor_yaml as ey
from . import mapsvg
from .editor_yaml import PathPart

MAX_RUNS: Final = 20_000
"""The most games one simulation from the page plays."""
MAX_SWEEP_RUNS: Final = 5_000
"""The most games per variant of a sweep from the page."""
MAX_SWEEP_VALUES: Final = 12
"""The most values of one varied field on the page."""
SWEEP_WORKERS: Final = 4
"""Local worker processes of a sweep (no more than the CPUs)."""
ATTITUDES: Final = tuple(a.value for a in Attitude)
WALL_KINDS: Final = ("wall", "door", "partition", "window")
LIGHT_KINDS: Final = ("brazier", "lantern", "lit-door", "lit-window")
SURFACE_KINDS: Final = ("floor", "water", "grass", "soft-ground", "tile", "stone")
SPEEDS: Final = ATTITUDES
AREA_LAYERS: Final = ("cover", "surfaces")
GUARD_STATES: Final = (*(state.value for state in GuardState), "group")
"""A guard placed from the page: its orders (SK-G1), or one of a group."""
OUTCOMES: Final = ("detected", *(ending.value for ending in Ending))
"""What a sweep from the page counts: the simulation's outcomes, and ``detected``."""
LEG_FLAGS: Final = ("climb", "run")
"""A leg's switches; a game's vocabulary says which of them its legs play (``moves``)."""

Point = tuple[float, float]


# ------------------------------------------------------------------------------ errors


def issue_json(issue: ScenarioIssue, lang: Lang = Lang.EN) -> dict[str, Any]:
    """An error as the page shows it: its line, its field, its message, and the line
    ``vigile scenario validate --lang LANG`` prints, in the page's language where the message
    has a key (:func:`vigile.io.i18n.said`)."""
    return {
        "line": issue.line,
        "field": issue.field,
        "message": said(issue.message, lang),
        "text": issue_line(issue, lang),
    }


def validated(
    text: str, file: str, lang: Lang = Lang.EN
) -> tuple[Scenario | None, list[dict[str, Any]]]:
    scenario, issues = check_text(text, file=file)
    return scenario, [issue_json(i, lang) for i in issues]


class NoRoute(InputError):
    """A route the editor cannot look for, its message keyed for the page's language."""

    def __init__(self, message: Said, *, where: str) -> None:
        super().__init__(message, where=where)
        self.said = message

    def shown(self, lang: Lang) -> str:
        return f"{self.where}: {said(self.said, lang)}"


# ------------------------------------------------------------------------------ the edits


def _point(value: Any, where: str) -> list[float]:
    if (
        not isinstance(value, Sequence)
        or isinstance(value, str)
        or len(value) != 2
        or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
        or not all(math.isfinite(float(v)) for v in value)
    ):
        raise InputError("a point is [x, y], two finite numbers", where=where)
    return [_tidy(float(v)) for v in value]


def _tidy(value: float) -> float:
    """A coordinate to 0.1 of the unit, as a designer places it with the mouse."""
    rounded = round(value, 1)
    return float(int(rounded)) if rounded.is_integer() else rounded


def _points(value: Any, where: str) -> list[list[float]]:
    if not isinstance(value, Sequence) or isinstance(value, str) or len(value) < 3:
        raise InputError("a polygon has at least 3 points", where=where)
    return [_point(p, where) for p in value]


def _choice(value: Any, allowed: Sequence[str], where: str) -> str:
    if value not in allowed:
        raise InputError(f"{value!r}: one of {', '.join(allowed)}", where=where)
    return str(value)


def _name(value: Any, where: str) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > 80:
        raise InputError("a name of 1 to 80 characters", where=where)
    return value.strip()


def _index(value: Any, where: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise InputError("an index (0, 1, 2...)", where=where)
    return value


def _path(value: Any) -> list[PathPart]:
    if not isinstance(value, list) or not value or len(value) > 8:
        raise InputError("a path of 1 to 8 keys and indices", where="edit.path")
    for part in value:
        if isinstance(part, bool) or not isinstance(part, str | int):
            raise InputError("a path holds keys (text) and indices (numbers)", where="edit.path")
    return list(value)


def _optional(edit: Mapping[str, Any], names: Sequence[str]) -> dict[str, Any]:
    return {name: edit[name] for name in names if edit.get(name) not in (None, "")}


def apply_edit(text: str, edit: Mapping[str, Any]) -> str:
    """``text`` with one edit of the editor applied (:mod:`vigile.web.editor_yaml`: every
    byte outside the edited span is kept). The operations:

    - ``move-actor`` {name, to}; ``set-actor`` {name, field, value} (value null: removed; a
      dotted field sets a stat inside one, ``bonuses.spot``);
      ``add-actor`` {name, side, position, state?, group?, dice?}
    - ``add-wall`` {kind, start, end, name?, open?}; ``set-wall`` {index, start?, end?, kind?}
    - ``add-light`` {kind, at, radius?}; ``move-light`` {index, to}; ``set-light`` {index,
      kind?, radius?}
    - ``add-area`` {layer: cover|surfaces, points, kind?, name?}; ``set-area`` {layer, index,
      points}
    - ``add-leg`` {actor, to?, speed?, climb?, wait?, actions?}; ``set-leg`` {actor, index,
      to?, speed?}; ``add-action`` {actor, index, action}
    - ``delete`` {path}; ``set`` {path, value}
    """
    op = edit.get("op")
    if op == "move-actor":
        name = _name(edit.get("name"), "edit.name")
        return ey.set_value(text, ["actors", name, "position"], _point(edit.get("to"), "edit.to"))
    if op == "set-actor":
        name = _name(edit.get("name"), "edit.name")
        field = _name(edit.get("field"), "edit.field")
        if not all(field.split(".")):
            raise InputError("a field, or a dotted path of fields", where="edit.field")
        where: list[PathPart] = ["actors", name, *field.split(".")]  # a stat: bonuses.spot
        if edit.get("value") is None:
            return ey.delete(text, where)
        return ey.set_value(text, where, edit["value"])
    if op == "add-actor":
        side = _choice(edit.get("side"), ("attackers", "defenders"), "edit.side")
        actor: dict[str, Any] = {
            "name": _name(edit.get("name"), "edit.name"),
            "side": side,
            "position": _point(edit.get("position"), "edit.position"),
        }
        if side == "defenders":
            actor["state"] = _choice(edit.get("state") or "posted", GUARD_STATES, "edit.state")
        actor.update(_optional(edit, ("group", "dice")))
        return ey.append(text, ["actors"], actor)
    if op == "add-wall":
        wall: dict[str, Any] = {
            "kind": _choice(edit.get("kind"), WALL_KINDS, "edit.kind"),
            "start": _point(edit.get("start"), "edit.start"),
            "end": _point(edit.get("end"), "edit.end"),
        }
        wall.update(_optional(edit, ("name",)))
        if edit.get("open"):
            wall["open"] = True
        return ey.append(text, ["walls"], wall)
    if op == "set-wall":
        index = _index(edit.get("index"), "edit.index")
        for key in ("start", "end"):
            if key in edit:
                text = ey.set_value(text, ["walls", index, key], _point(edit[key], f"edit.{key}"))
        if "kind" in edit:
            kind = _choice(edit["kind"], WALL_KINDS, "edit.kind")
            text = ey.set_value(text, ["walls", index, "kind"], kind)
        return text
    if op == "add-light":
        light: dict[str, Any] = {
            "kind": _choice(edit.get("kind"), LIGHT_KINDS, "edit.kind"),
            "at": _point(edit.get("at"), "edit.at"),
        }
        light.update(_optional(edit, ("radius",)))
        return ey.append(text, ["lights"], light)
    if op == "move-light":
        index = _index(edit.get("index"), "edit.index")
        return ey.set_value(text, ["lights", index, "at"], _point(edit.get("to"), "edit.to"))
    if op == "set-light":
        index = _index(edit.get("index"), "edit.index")
        if "kind" in edit:
            kind = _choice(edit["kind"], LIGHT_KINDS, "edit.kind")
            text = ey.set_value(text, ["lights", index, "kind"], kind)
        if "radius" in edit:
            if edit["radius"] is None:
                text = ey.delete(text, ["lights", index, "radius"])
            else:
                text = ey.set_value(text, ["lights", index, "radius"], edit["radius"])
        return text
    if op == "add-area":
        layer = _choice(edit.get("layer"), AREA_LAYERS, "edit.layer")
        area: dict[str, Any] = {}
        if layer == "surfaces":
            area["kind"] = _choice(edit.get("kind"), SURFACE_KINDS, "edit.kind")
        area.update(_optional(edit, ("name",)))
        area["points"] = _points(edit.get("points"), "edit.points")
        return ey.append(text, [layer], area)
    if op == "set-area":
        layer = _choice(edit.get("layer"), AREA_LAYERS, "edit.layer")
        index = _index(edit.get("index"), "edit.index")
        return ey.set_value(
            text, [layer, index, "points"], _points(edit.get("points"), "edit.points")
        )
    if op == "add-leg":
        actor_name = _name(edit.get("actor"), "edit.actor")
        leg: dict[str, Any] = {}
        if edit.get("to") is not None:
            leg["to"] = _point(edit["to"], "edit.to")
        leg["speed"] = _choice(edit.get("speed") or "half", SPEEDS, "edit.speed")
        if edit.get("climb"):
            leg["climb"] = True
        leg.update(_optional(edit, ("wait", "actions")))
        return ey.append(text, ["plans", actor_name], leg)
    if op == "set-leg":
        actor_name = _name(edit.get("actor"), "edit.actor")
        index = _index(edit.get("index"), "edit.index")
        if "to" in edit:
            text = ey.set_value(
                text, ["plans", actor_name, index, "to"], _point(edit["to"], "edit.to")
            )
        if "speed" in edit:
            speed = _choice(edit["speed"], SPEEDS, "edit.speed")
            text = ey.set_value(text, ["plans", actor_name, index, "speed"], speed)
        return text
    if op == "add-action":
        actor_name = _name(edit.get("actor"), "edit.actor")
        index = _index(edit.get("index"), "edit.index")
        action = edit.get("action")
        if not isinstance(action, Mapping) or not isinstance(action.get("do"), str):
            raise InputError("an action is {do: ..., ...}", where="edit.action")
        return ey.append(text, ["plans", actor_name, index, "actions"], dict(action))
    if op == "delete":
        return ey.delete(text, _path(edit.get("path")))
    if op == "set":
        return ey.set_value(text, _path(edit.get("path")), edit.get("value"))
    raise InputError(f"{op!r} is not an edit of the editor", where="edit.op")


# ------------------------------------------------------------------------------ the map


STAND_IN: Final = "editor stand-in"
"""The one actor a board without actors yet is drawn with (:func:`board_only`), not shown."""


def board_only(text: str, file: str, *, without_plans: bool = False) -> Scenario | None:
    """The board of a text that does not validate yet, so that there is a map to edit: a map
    just imported (``actors: []``), drawn with one stand-in actor that the map does not show;
    with ``without_plans``, also the actors without their plans and objective (a page opened
    on a plan that crosses a wall; while editing, the map last drawn stays instead, its
    waypoints there to drag back). None if the board itself is wrong (the errors say why)."""
    try:
        data, _, _ = parse(text, "yaml")
    except (Refused, VigileError):
        return None
    if not isinstance(data, dict):
        return None
    board = {key: value for key, value in data.items() if key not in ("plans", "objective")}
    size = board.get("map")
    w, h = (size.get(k) for k in ("width", "height")) if isinstance(size, dict) else (None, None)
    tries = [board] if board.get("actors") and without_plans else []
    if not board.get("actors") and isinstance(w, int | float) and isinstance(h, int | float):
        for fx, fy in ((0.5, 0.5), (0.25, 0.25), (0.75, 0.75)):
            stand_in = {"name": STAND_IN, "side": "attackers", "position": [w * fx, h * fy]}
            tries.append({**board, "actors": [stand_in]})
    for variant in tries:
        scenario, _ = check_text(json.dumps(variant, default=str), file=file, fmt="json")
        if scenario is not None:
            return scenario
    return None


def editor_map(scenario: Scenario) -> mapsvg.MapModel:
    """The board as :mod:`vigile.web.mapsvg` draws it, every actor where the scenario puts
    it, and a place for the risk overlay."""
    from vigile.engine.run import new_game

    game = new_game(scenario, seed=0)
    model = mapsvg.board_layers(scenario, game.board)
    labels = mapsvg.initials(a.name for a in scenario.actors)
    groups: dict[str, list[Point]] = {}
    for actor in scenario.actors:
        if actor.name == STAND_IN:
            continue
        x, y = float(actor.position[0]), float(actor.position[1])
        model.tokens.append(
            {
                "name": actor.name,
                "label": labels[actor.name],
                "side": actor.side.value,
                "x": x,
                "y": y,
                "alive": True,
                "alert": actor.alert,
                "group": actor.group,
                "knows": [],
                "me": False,
            }
        )
        if actor.group is not None:
            groups.setdefault(actor.group, []).append((x, y))
    for name, places in groups.items():
        for a, b in itertools.pairwise(places):
            model.links.append({"group": name, "x1": a[0], "y1": a[1], "x2": b[0], "y2": b[1]})
    model.clickable = True
    model.overlay = {"href": "", "width": model.width, "height": model.height}
    return model


def plan_lines(scenario: Scenario) -> list[dict[str, Any]]:
    """Each plan as a path from the actor's place through its waypoints, with the legs'
    speeds and the actions at each point."""
    drawn: list[dict[str, Any]] = []
    for name, legs in scenario.plans.items():
        try:
            actor = scenario.actor(name)
        except KeyError:
            continue
        at = (float(actor.position[0]), float(actor.position[1]))
        points: list[dict[str, Any]] = [
            {
                "x": at[0],
                "y": at[1],
                "index": -1,
                "speed": "",
                "actions": [],
                "flags": [],
                "to": False,
            }
        ]
        for index, leg in enumerate(legs):
            if leg.to is not None:
                at = (float(leg.to[0]), float(leg.to[1]))
            points.append(
                {
                    "x": at[0],
                    "y": at[1],
                    "index": index,
                    "speed": leg.speed.value,
                    "climb": leg.climb,
                    "flags": [flag for flag in LEG_FLAGS if getattr(leg, flag)],
                    "wait": leg.wait,
                    "actions": [a.do for a in leg.actions],
                    "to": leg.to is not None,
                }
            )
        drawn.append(
            {
                "actor": name,
                "points": points,
                "path": " ".join(f"{p['x']:g},{p['y']:g}" for p in points),
            }
        )
    return drawn


# ------------------------------------------------------------------------------ risk overlay


@dataclass(frozen=True)
class Overlay:
    """A risk map as the page draws it, and the safest route over it."""

    image: dict[str, Any]
    grid: dict[str, Any] | None
    route: dict[str, Any] | None
    route_error: str | None
    seconds: float


_prepared: OrderedDict[str, Any] = OrderedDict()
_prepared_lock = threading.Lock()


def _route_grid(riskmap: Any) -> Any:
    """:func:`step_open` of a map, kept for the next map of the same walls and grid (moving a
    guard or a lamp changes the risk, not which steps a wall blocks)."""
    from vigile.games.skirmish.route import step_open

    scenario = riskmap.board.scenario
    key = "|".join(
        (
            str(riskmap.resolution),
            scenario.map.model_dump_json(),
            *(wall.model_dump_json() for wall in scenario.walls),
        )
    )
    with _prepared_lock:
        found = _prepared.get(key)
        if found is not None:
            _prepared.move_to_end(key)
            return found
    found = step_open(riskmap)
    with _prepared_lock:
        _prepared[key] = found
        while len(_prepared) > 8:
            _prepared.popitem(last=False)
    return found


def game_risk_map(scenario: Scenario, attitude: str, resolution: float | None) -> Any:
    """The game's risk map (:func:`vigile.web.mapsvg.game_risk_map`)."""
    return mapsvg.game_risk_map(scenario, attitude, resolution)


def attitudes_of(scenario: Scenario) -> tuple[str, ...]:
    """The ways of moving a risk map of this scenario's game takes, in its words (its
    vocabulary's ``overlays``: a d20 game's still, half, full, run)."""
    return vocabulary_of(scenario.ruleset).names("overlays")


RULESET_LINE: Final = re.compile(r"^ruleset:[ \t]*[\"']?([A-Za-z0-9_-]+)", re.MULTILINE)


def ruleset_written(text: str) -> str | None:
    """The game a text that does not validate names on its ``ruleset:`` line, if it names a
    registered one: the menus of a D&D map whose plan crosses a wall stay D&D's."""
    found = RULESET_LINE.search(text)
    return found.group(1) if found and found.group(1) in registry.names() else None


def words_of(ruleset: str | None, lang: str) -> dict[str, Any]:
    """What the editor's menus offer for this game, labelled in ``lang`` with the rules: its
    ways of moving, the flags of a leg, its actions and the stats of its actors
    (:func:`vigile.scene.vocabulary.vocabulary_of`); a blank editor (no game yet) offers the
    first registered game's, the game a new scenario starts with."""
    known = ruleset if ruleset in registry.names() else registry.names()[0]
    words: dict[str, Any] = {"ruleset": known, **vocabulary_of(known).page(lang)}
    actor, _ = item_models(known)
    for stat in words["stats"]:
        stat.update(stat_input(actor, stat["name"]))
    models = {action_name(model): model for model in (*SHARED_ACTIONS, *own_actions(known))}
    for action in words["actions"]:
        model = models.get(action["name"])
        if model is not None:
            action.update(action_input(model))
    return words


def action_input(model: type[BaseModel]) -> dict[str, Any]:
    """The one input the editor's "add an action" row gives an action: its first required
    field (else its first field), how it is typed, and the choices of a choice (``speak``:
    ``volume``, one of whisper, conversation, animated; ``attack-square``: ``at``, a point)."""
    fields = [(name, info) for name, info in model.model_fields.items() if name != "do"]
    if not fields:
        return {}
    name, info = next(((n, i) for n, i in fields if i.is_required()), fields[0])
    inner = _bare(info.annotation)
    if get_origin(inner) is tuple:
        return {"field": name, "kind": "point"}
    return {"field": name, **stat_input(model, name)}


def stat_input(model: type[BaseModel], path: str) -> dict[str, Any]:
    """How the actor form takes the stat at ``path`` (``luck``, ``bonuses.spot``) of the
    game's actor ``model``: ``flag`` (true/false), ``choice`` (with its ``choices``),
    ``number`` or ``text``."""
    fields = model.model_fields
    *parents, last = path.split(".")
    for part in parents:
        info = fields.get(part)
        inner = _bare(info.annotation) if info is not None else None
        if not (isinstance(inner, type) and issubclass(inner, BaseModel)):
            return {"kind": "text"}
        fields = inner.model_fields
    info = fields.get(last)
    inner = _bare(info.annotation) if info is not None else None
    if inner is bool:
        return {"kind": "flag"}
    if isinstance(inner, type) and issubclass(inner, Enum):
        return {"kind": "choice", "choices": [str(m.value) for m in inner]}
    if get_origin(inner) is Literal:
        return {"kind": "choice", "choices": [str(a) for a in get_args(inner)]}
    if inner in (int, float):
        return {"kind": "number"}
    return {"kind": "text"}


def _bare(annotation: Any) -> Any:
    """A field's type without ``Annotated`` and ``| None``; of a union of forms, the first
    (``dice``: the one pool)."""
    while True:
        origin = get_origin(annotation)
        if origin is Annotated:
            annotation = get_args(annotation)[0]
        elif origin in (Union, types.UnionType):
            annotation = next(a for a in get_args(annotation) if a is not type(None))
        else:
            return annotation


def route_ends(scenario: Scenario, actor: str | None) -> tuple[str, Point, Point]:
    """Who the route is for (``actor``, else the objective's first intruder, else the first
    intruder), where it starts (past its plan's last climb, else where it stands) and where
    it goes (the objective's point, or its area's centre)."""
    attackers = [a.name for a in scenario.actors if a.side.value == "attackers"]
    if not attackers:
        raise NoRoute(
            Said("web.editor.no_route_for.intruder", "no intruder to route"), where="actor"
        )
    objective = scenario.objective
    if actor is None:
        wanted = [n for n in (objective.who if objective else ()) if n in attackers]
        actor = (wanted or attackers)[0]
    if actor not in attackers:
        raise NoRoute(
            Said("web.editor.no_route_for.actor", f"{actor!r} is not an intruder", actor=actor),
            where="actor",
        )
    who = scenario.actor(actor)
    start: Point = (float(who.position[0]), float(who.position[1]))
    for leg in scenario.plans.get(actor, ()):
        if leg.climb and leg.to is not None:
            start = (float(leg.to[0]), float(leg.to[1]))
    if objective is None or (objective.at is None and objective.area is None):
        door = door_waypoint(scenario, actor)
        if door is None:
            raise NoRoute(
                Said(
                    "web.editor.no_route_for.objective", "the scenario has no objective to route to"
                ),
                where="objective",
            )
        return actor, start, door
    if objective.at is not None:
        goal: Point = (float(objective.at[0]), float(objective.at[1]))
    else:
        assert objective.area is not None
        xs = [float(p[0]) for p in objective.area]
        ys = [float(p[1]) for p in objective.area]
        goal = (sum(xs) / len(xs), sum(ys) / len(ys))
    return actor, start, goal


def door_waypoint(scenario: Scenario, actor: str) -> Point | None:
    """The waypoint where ``actor``'s plan first opens a door, if it does."""
    for leg in scenario.plans.get(actor, ()):
        if leg.to is not None and any(a.do == "open-door" for a in leg.actions):
            return (float(leg.to[0]), float(leg.to[1]))
    return None


def overlay(
    scenario: Scenario,
    attitude: str,
    *,
    actor: str | None = None,
    resolution: float | None = None,
    grid: bool = False,
    route: bool = True,
    lang: Lang = Lang.EN,
) -> Overlay:
    """The risk overlay (a PNG over the board) and, in the skirmish game, the safest route of
    an intruder to the objective; why there is no route, in ``lang`` where it can."""
    import time

    began = time.perf_counter()
    found = game_risk_map(scenario, attitude, resolution)
    risk = np.clip(np.asarray(found.risk, dtype=np.float64), 0.0, 1.0)
    step = float(found.resolution)
    image = {
        "href": "data:image/png;base64," + base64.b64encode(mapsvg.png(_colours(risk))).decode(),
        "width": float(len(found.xs) * step),
        "height": float(len(found.ys) * step),
        "resolution": step,
        "max": float(risk.max()) if risk.size else 0.0,
        "mean": float(risk.mean()) if risk.size else 0.0,
        "attitude": attitude,
        "cells": int(risk.size),
    }
    shown_grid = None
    if grid:
        shown_grid = {
            "xs": [float(x) for x in found.xs],
            "ys": [float(y) for y in found.ys],
            "risk": risk.tolist(),
        }
    best: dict[str, Any] | None = None
    error: str | None = None
    if route and hasattr(found, "per_turn"):
        from vigile.games.skirmish.route import safest_route

        try:
            who, start, goal = route_ends(scenario, actor)
            prepared = _route_grid(found)
            try:
                path = safest_route(found, start, goal, prepared=prepared)
            except InputError:  # no way through: up to the door its plan opens, if any
                door = door_waypoint(scenario, who)
                if door is None:
                    raise
                path = safest_route(found, start, door, prepared=prepared)
            best = {
                "actor": who,
                "points": [[round(x, 2), round(y, 2)] for x, y in path.waypoints],
                "chance_seen": path.chance_seen,
                "length": path.length,
                "certain": path.certain,
            }
        except (InputError, LimitError) as refused:
            error = refused.shown(lang) if isinstance(refused, NoRoute) else str(refused)
    elif route:
        error = said(
            Said(
                "web.editor.no_route_for.game",
                f"no route for this game ({scenario.ruleset})",
                ruleset=scenario.ruleset,
            ),
            lang,
        )
    return Overlay(image, shown_grid, best, error, time.perf_counter() - began)


def _colours(risk: np.ndarray) -> np.ndarray:
    """Risk as colour: clear at 0, yellow to deep red as it grows (and more opaque)."""
    rgba = np.zeros((*risk.shape, 4), dtype=np.uint8)
    rgba[..., 0] = 200
    rgba[..., 1] = (170 * (1 - risk)).astype(np.uint8)
    rgba[..., 2] = 30
    rgba[..., 3] = (np.sqrt(risk) * 190).astype(np.uint8)
    return rgba


# ------------------------------------------------------------------------------ simulate


def check_runs(runs: int, most: int, where: str) -> int:
    if not 1 <= runs <= most:
        raise InputError(f"{runs}: 1 to {most:,} games from the page", where=where)
    return runs


def heat_image(result: Any) -> dict[str, Any]:
    """The simulation's heat map (where intruders were detected) as a PNG over the board."""
    size = result.scenario.map
    heat = np.asarray(result.tally.heat, dtype=np.float64).T / max(result.runs, 1)
    top = float(heat.max()) if heat.size else 0.0
    scaled = heat / top if top > 0 else heat
    rgba = np.zeros((*heat.shape, 4), dtype=np.uint8)
    rgba[..., 0] = 120
    rgba[..., 1] = 20
    rgba[..., 2] = (200 * scaled).astype(np.uint8)
    rgba[..., 3] = np.where(heat > 0, 60 + 180 * np.sqrt(scaled), 0).astype(np.uint8)
    return {
        "href": "data:image/png;base64," + base64.b64encode(mapsvg.png(rgba)).decode(),
        "width": float(size.width),
        "height": float(size.height),
        "max": top,
    }


def simulation_json(result: Any) -> dict[str, Any]:
    """``simulate --json``'s numbers, with the heat map."""
    found: dict[str, Any] = result.as_json()
    found["heat"] = heat_image(result)
    return found


# ------------------------------------------------------------------------------ sweep


def sweep_values(field: str, start: float, stop: float, step: float) -> Any:
    from vigile.sim.sweep import Vary

    vary = Vary.parse(f"{field}={start:g}..{stop:g}:{step:g}")
    if len(vary.values) > MAX_SWEEP_VALUES:
        raise LimitError(f"{field}: {len(vary.values)} values; at most {MAX_SWEEP_VALUES} here")
    return vary


def sweep_curves(
    rows: Sequence[Mapping[str, float]], fields: Sequence[str], runs: int, outcome: str
) -> list[dict[str, Any]]:
    """One curve per value of the second field (never averaged over it): points (x, p, low,
    high) with the 95% Wilson interval of ``runs`` games."""
    from vigile.sim.simulate import Estimate

    curves: dict[Any, list[dict[str, float]]] = {}
    for row in rows:
        key = row[fields[1]] if len(fields) > 1 else None
        p = float(row[outcome])
        low, high = Estimate(round(p * runs), runs).interval
        curves.setdefault(key, []).append({"x": row[fields[0]], "p": p, "low": low, "high": high})
    return [
        {"label": None if key is None else f"{fields[1]} = {key:g}", "points": points}
        for key, points in curves.items()
    ]


PALETTE: Final = ("#1f5f8b", "#b5179e", "#2a9d8f", "#e76f51", "#6a4c93", "#8d5a2b")


def sweep_svg(curves: Sequence[Mapping[str, Any]], xlabel: str, ylabel: str) -> str:
    """The curves with their error bars, as an SVG chart (0 to 100% up the side)."""
    from html import escape

    width, height, left, bottom, top, right = 520.0, 300.0, 50.0, 40.0, 15.0, 150.0
    xs = [p["x"] for c in curves for p in c["points"]]
    lo, hi = (min(xs), max(xs)) if xs else (0.0, 1.0)
    span = (hi - lo) or 1.0
    plot_w, plot_h = width - left - right, height - top - bottom

    def sx(x: float) -> float:
        return round(left + (x - lo) / span * plot_w, 2)

    def sy(p: float) -> float:
        return round(top + (1 - p) * plot_h, 2)

    parts = [
        f'<svg class="sweep-plot" viewBox="0 0 {width:g} {height:g}" role="img" '
        f'aria-label="{escape(ylabel)}">',
        f'<line x1="{left}" y1="{sy(0)}" x2="{left + plot_w}" y2="{sy(0)}" class="axis"/>',
        f'<line x1="{left}" y1="{sy(0)}" x2="{left}" y2="{sy(1)}" class="axis"/>',
    ]
    for tick in (0, 0.25, 0.5, 0.75, 1):
        y = sy(tick)
        parts.append(f'<text x="{left - 6}" y="{y + 4}" text-anchor="end">{tick:.0%}</text>')
        parts.append(f'<line x1="{left}" y1="{y}" x2="{left + plot_w}" y2="{y}" class="gridline"/>')
    for x in sorted(set(xs)):
        parts.append(f'<text x="{sx(x)}" y="{sy(0) + 16}" text-anchor="middle">{x:g}</text>')
    middle = left + plot_w / 2
    parts.append(
        f'<text x="{middle}" y="{height - 6}" text-anchor="middle">{escape(xlabel)}</text>'
    )
    for k, curve in enumerate(curves):
        colour = PALETTE[k % len(PALETTE)]
        points = curve["points"]
        line = " ".join(f"{sx(p['x'])},{sy(p['p'])}" for p in points)
        parts.append(f'<polyline points="{line}" fill="none" stroke="{colour}" stroke-width="2"/>')
        for p in points:
            x, low, high, at = sx(p["x"]), sy(p["low"]), sy(p["high"]), sy(p["p"])
            shown = f"{p['x']:g}: {p['p']:.1%} [{p['low']:.1%}, {p['high']:.1%}]"
            parts.append(
                f'<line class="errorbar" x1="{x}" y1="{low}" x2="{x}" y2="{high}" '
                f'stroke="{colour}"/>'
                f'<line x1="{x - 4}" y1="{low}" x2="{x + 4}" y2="{low}" stroke="{colour}"/>'
                f'<line x1="{x - 4}" y1="{high}" x2="{x + 4}" y2="{high}" stroke="{colour}"/>'
                f'<circle cx="{x}" cy="{at}" r="3" fill="{colour}"><title>{shown}</title></circle>'
            )
        label = curve["label"] or ylabel
        y = top + 14 + k * 16
        key_x = width - right + 10
        parts.append(
            f'<line x1="{key_x}" y1="{y - 4}" x2="{key_x + 16}" y2="{y - 4}" '
            f'stroke="{colour}" stroke-width="2"/>'
            f'<text x="{key_x + 20}" y="{y}">{escape(label)}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)
