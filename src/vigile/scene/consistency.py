"""Cross-field checks of a scenario: what no single field can check by itself.

The checks run on :class:`Parts`, the pieces of a scenario that validated, each with its index
in the file. Built from a valid :class:`~vigile.scene.model.Scenario` they cover everything;
built by the loader from raw data that has structural errors too, they check what they can,
so that a file's errors are all reported at once. Each issue is ``(loc, message)`` where
``loc`` is the field path as pydantic writes it (``("actors", 3, "position")``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from pydantic import TypeAdapter, ValidationError

from vigile import registry
from vigile.checks.numbers import quoted
from vigile.errors import Said, ScenarioError
from vigile.scene.actors import Actor, Point, Side
from vigile.scene.encounters import Encounter
from vigile.scene.house import house_rule_issues
from vigile.scene.model import (
    Cover,
    Light,
    MapSize,
    Objective,
    Region,
    Ruleset,
    Scenario,
    Scouting,
    Units,
    Wall,
    item_models,
    unit_of,
)
from vigile.scene.paths import Loc, path_text
from vigile.scene.plans import Leg
from vigile.scene.routes import route_issues

__all__ = ["Issue", "Parts", "consistent", "issues", "path_text"]

Issue = tuple[Loc, str]
HOSTILE = ("kill", "strike")
"""The actions aimed at an enemy: their target must be on the other side."""
T = TypeVar("T")
Indexed = list[tuple[int, T]]


@dataclass
class Parts:
    """The validated pieces of a scenario, each list item with its index in the file."""

    ruleset: Ruleset | None = None
    units: Units | None = None
    map: MapSize | None = None
    walls: Indexed[Wall] = field(default_factory=list)
    surfaces: Indexed[Region] = field(default_factory=list)
    cover: Indexed[Cover] = field(default_factory=list)
    lights: Indexed[Light] = field(default_factory=list)
    actors: Indexed[Actor] = field(default_factory=list)
    plans: dict[str, list[Leg | None]] = field(default_factory=dict)
    """Legs by actor; None stands for a leg that did not validate."""
    scouting: Scouting | None = None
    hidden_guards: Indexed[str] = field(default_factory=list)
    objective: Objective | None = None
    encounter: Encounter | None = None
    house_rules: dict[str, Any] = field(default_factory=dict)
    dice_values: Indexed[int] = field(default_factory=list)
    """The GM's dice: which faces they may be depends on the game's dice."""
    unread: frozenset[str] = frozenset()
    """The names of actors the file lists that did not validate: their own errors say what
    is wrong, so a plan for one is not also "for no actor"."""

    @classmethod
    def of(cls, scenario: Scenario) -> Parts:
        """All the pieces of a valid scenario."""
        return cls(
            ruleset=scenario.ruleset,
            units=scenario.units,
            map=scenario.map,
            walls=list(enumerate(scenario.walls)),
            surfaces=list(enumerate(scenario.surfaces)),
            cover=list(enumerate(scenario.cover)),
            lights=list(enumerate(scenario.lights)),
            actors=list(enumerate(scenario.actors)),
            plans={name: list(legs) for name, legs in scenario.plans.items()},
            scouting=scenario.scouting,
            hidden_guards=list(enumerate(scenario.hidden_guards)),
            objective=scenario.objective,
            encounter=scenario.encounter,
            house_rules=dict(scenario.house_rules),
            dice_values=list(enumerate(scenario.dice_values or ())),
        )

    @classmethod
    def salvage(cls, raw: Mapping[str, Any]) -> Parts:
        """The pieces of raw scenario data that validate on their own, item by item."""
        ruleset = _one(Ruleset, raw.get("ruleset"))
        units = _one(Units, raw.get("units", unit_of(ruleset).value if ruleset else None))
        actor, leg_model = item_models(ruleset)  # the game's own fields and actions too
        plans: dict[str, list[Leg | None]] = {}
        raw_plans = raw.get("plans")
        if isinstance(raw_plans, Mapping):
            for name, legs in raw_plans.items():
                if isinstance(name, str) and isinstance(legs, list):
                    plans[name] = [_one(leg_model, leg) for leg in legs]
        house = raw.get("house_rules")
        return cls(
            ruleset=ruleset,
            units=units,
            map=_one(MapSize, raw.get("map")),
            walls=_many(Wall, raw.get("walls")),
            surfaces=_many(Region, raw.get("surfaces")),
            cover=_many(Cover, raw.get("cover")),
            lights=_many(Light, raw.get("lights")),
            actors=_many(actor, raw.get("actors")),
            plans=plans,
            scouting=_one(Scouting, raw.get("scouting")),
            hidden_guards=_many(str, raw.get("hidden_guards")),
            objective=_one(Objective, raw.get("objective")),
            encounter=_one(Encounter, raw.get("encounter")),  # type: ignore[arg-type]
            house_rules=house if isinstance(house, dict) else {},
            dice_values=_many(int, raw.get("dice_values")),
            unread=_unread(raw.get("actors"), _many(actor, raw.get("actors"))),
        )


_ADAPTERS: dict[Any, TypeAdapter[Any]] = {}


def _adapter(kind: Any) -> TypeAdapter[Any]:
    adapter = _ADAPTERS.get(kind)
    if adapter is None:
        adapter = _ADAPTERS[kind] = TypeAdapter(kind)
    return adapter


def _one(kind: type[T], value: object) -> T | None:
    if value is None:
        return None
    try:
        result: T = _adapter(kind).validate_python(value)
    except ValidationError:
        return None
    return result


def _unread(raw: object, valid: Indexed[Actor]) -> frozenset[str]:
    """The names written in the file's actors that did not validate."""
    if not isinstance(raw, list | tuple):
        return frozenset()
    names = {item.get("name") for item in raw if isinstance(item, Mapping)}
    return frozenset(n for n in names if isinstance(n, str)) - {a.name for _, a in valid}


def _many(kind: type[T], value: object) -> Indexed[T]:
    if not isinstance(value, list | tuple):
        return []
    found: Indexed[T] = []
    for index, item in enumerate(value):
        valid = _one(kind, item)
        if valid is not None:
            found.append((index, valid))
    return found


def consistent(scenario: Scenario, *, file: str = "<scenario>") -> Scenario:
    """The scenario, once its cross-field checks pass: the one function the loader, the sweep
    and any caller that builds a :class:`Scenario` by hand run (the model itself validates
    single fields only). A :class:`~vigile.errors.ScenarioError` lists every issue otherwise."""
    found = issues(Parts.of(scenario))
    if found:
        raise ScenarioError(
            "; ".join(f"{path_text(loc)}: {message}" for loc, message in found), file=file
        )
    return scenario


def issues(parts: Parts) -> list[Issue]:
    """Every cross-field problem of the scenario, in the order of the file's sections."""
    found: list[Issue] = []
    for check in (
        _units,
        _inside_map,
        _names,
        _groups,
        _ruleset_fields,
        _plans,
        _hidden,
        _objective,
        _encounter,
    ):
        found += check(parts)
    found += house_rule_issues(parts.ruleset, parts.house_rules)
    found += route_issues(parts.walls, parts.cover, parts.actors, parts.plans)
    return found


def _units(parts: Parts) -> list[Issue]:
    if parts.ruleset is None or parts.units is None:
        return []
    unit = unit_of(parts.ruleset)
    if parts.units is unit:
        return []
    text = f"{parts.ruleset} is played in {unit.value}, not {parts.units.value}"
    said = Said(
        "scene.units", text, ruleset=parts.ruleset, unit=unit.value, given=parts.units.value
    )
    return [(("units",), said)]


def _inside_map(parts: Parts) -> list[Issue]:
    if parts.map is None:
        return []
    width, height = parts.map.width, parts.map.height
    unit = parts.units.value if parts.units else ""

    def outside(point: Point) -> bool:
        x, y = point
        return not (0 <= x <= width and 0 <= y <= height)

    def message(what: str, point: Point) -> str:
        text = (
            f"{what} at [{point[0]:g}, {point[1]:g}] is outside the map "
            f"(0..{width:g} x 0..{height:g} {unit})"
        ).rstrip()
        x, y = point
        size = {"width": quoted(width), "height": quoted(height), "unit": unit}
        return Said("scene.outside", text, what=what, x=quoted(x), y=quoted(y), **size)

    def what(key: str, english: str, **params: object) -> Said:
        return Said(f"scene.what.{key}", english, **params)

    def on_edge(point: Point) -> bool:
        x, y = point
        return x in (0, width) or y in (0, height)

    def edge_message(name: str, point: Point) -> str:
        # A patrol bounces off the map's edge (SK-G1): a walker starting on the edge has no
        # inside to bounce into, so play (engine, kernels, live play) refuses it.
        text = (
            f"patrolling guard {name!r} at [{point[0]:g}, {point[1]:g}] is on the map's edge: "
            f"a patrol bounces off the edge (SK-G1), so it must start strictly inside "
            f"(0 < x < {width:g}, 0 < y < {height:g}{' ' + unit if unit else ''})"
        )
        x, y = point
        size = {"width": quoted(width), "height": quoted(height), "unit": unit}
        return Said("scene.on_edge", text, name=name, x=quoted(x), y=quoted(y), **size)

    found: list[Issue] = []
    for i, actor in parts.actors:
        if outside(actor.position):
            found.append(
                (
                    ("actors", i, "position"),
                    message(
                        what("actor", f"actor {actor.name!r}", name=actor.name), actor.position
                    ),
                )
            )
        elif actor.state.value == "patrolling" and on_edge(actor.position):
            found.append((("actors", i, "position"), edge_message(actor.name, actor.position)))
    for i, wall in parts.walls:
        for end in ("start", "end"):
            point = wall.start if end == "start" else wall.end
            if outside(point):
                found.append(
                    (
                        ("walls", i, end),
                        message(
                            what(f"{wall.kind.value}_end", f"this {wall.kind.value} end"), point
                        ),
                    )
                )
    for section, regions in (("surfaces", parts.surfaces), ("cover", parts.cover)):
        for i, region in regions:
            for j, point in enumerate(region.points):
                if outside(point):
                    found.append(
                        ((section, i, "points", j), message(what("vertex", "a vertex"), point))
                    )
    for i, light in parts.lights:
        if outside(light.at):
            found.append(
                (
                    ("lights", i, "at"),
                    message(what(f"light.{light.kind.value}", f"a {light.kind.value}"), light.at),
                )
            )
    for name, legs in parts.plans.items():
        for i, leg in enumerate(legs):
            if leg is None:
                continue
            if leg.to is not None and outside(leg.to):
                found.append(
                    (("plans", name, i, "to"), message(what("waypoint", "the waypoint"), leg.to))
                )
            for k, action in enumerate(leg.actions):
                at = getattr(action, "at", None)
                if at is not None and outside(at):
                    found.append(
                        (
                            ("plans", name, i, "actions", k, "at"),
                            message(what("grapple", "the grapple"), at),
                        )
                    )
    objective = parts.objective
    if objective is not None:
        if objective.at is not None and outside(objective.at):
            found.append(
                (("objective", "at"), message(what("objective", "the objective"), objective.at))
            )
        for j, point in enumerate(objective.area or ()):
            if outside(point):
                found.append((("objective", "area", j), message(what("vertex", "a vertex"), point)))
    return found


def _names(parts: Parts) -> list[Issue]:
    return [
        *_repeated("actors", "scene.duplicate_actor", ((i, a.name) for i, a in parts.actors)),
        *_repeated("walls", "scene.duplicate_wall", ((i, w.name) for i, w in parts.walls)),
    ]


def _repeated(where: str, key: str, names: Iterable[tuple[int, str | None]]) -> list[Issue]:
    """Each name of ``where`` given again (a nameless item aside), with the first one's index."""
    found: list[Issue] = []
    first: dict[str, int] = {}
    for i, name in names:
        if name is None:
            continue
        j = first.setdefault(name, i)
        if j != i:
            said = Said(key, f"duplicate name {name!r} (already {where}[{j}])", name=name, index=j)
            found.append(((where, i, "name"), said))
    return found


def _groups(parts: Parts) -> list[Issue]:
    found: list[Issue] = []
    first: dict[str, Actor] = {}
    for i, actor in parts.actors:
        if actor.state.value == "patrolling" and actor.side is Side.ATTACKERS:
            found.append(
                (
                    ("actors", i, "state"),
                    Said("scene.attacker_patrols", "only defenders patrol (SK-G1)"),
                )
            )
        if actor.group is None:
            continue
        leader = first.setdefault(actor.group, actor)
        if leader.side is not actor.side:
            found.append(
                (
                    ("actors", i, "group"),
                    Said(
                        "scene.group_sides",
                        f"group {actor.group!r} mixes sides: {leader.name!r} is with the "
                        f"{leader.side.value}, {actor.name!r} with the {actor.side.value}",
                        group=actor.group,
                        leader=leader.name,
                        leader_side=_word("side", leader.side.value),
                        name=actor.name,
                        side=_word("side", actor.side.value),
                    ),
                )
            )
        elif leader.state is not actor.state:
            found.append(
                (
                    ("actors", i, "group"),
                    Said(
                        "scene.group_states",
                        f"group {actor.group!r} moves as one (SK-G1), but {leader.name!r} is "
                        f"{leader.state.value} and {actor.name!r} {actor.state.value}",
                        group=actor.group,
                        leader=leader.name,
                        leader_state=_word("state", leader.state.value),
                        name=actor.name,
                        state=_word("state", actor.state.value),
                    ),
                )
            )
    return found


def _ruleset_fields(parts: Parts) -> list[Issue]:
    """The game's own checks (its plug-in's ``scenario_issues``): fields that belong to
    another game, skills the game has not, rules the game does not play."""
    if parts.ruleset is None:
        return []
    plugin = registry.get(parts.ruleset)
    if plugin.scenario_issues is None:
        return []
    found: list[Issue] = plugin.load(plugin.scenario_issues)(parts)
    return found


def _actor_sides(parts: Parts) -> dict[str, Side]:
    """Each name's side; with a duplicate name (reported apart), the first actor's."""
    sides: dict[str, Side] = {}
    for _, actor in parts.actors:
        sides.setdefault(actor.name, actor.side)
    return sides


def _plans(parts: Parts) -> list[Issue]:
    sides = _actor_sides(parts)
    doors = {wall.name for _, wall in parts.walls if wall.name and wall.kind.value == "door"}
    found: list[Issue] = []
    for name, legs in parts.plans.items():
        if name not in sides:
            if name not in parts.unread:
                found.append(
                    (
                        ("plans", name),
                        Said(
                            "scene.plan_stranger",
                            f"a plan for {name!r}, who is not among the actors",
                            name=name,
                        ),
                    )
                )
            continue
        if sides[name] is not Side.ATTACKERS:
            found.append(
                (
                    ("plans", name),
                    Said(
                        "scene.plan_defender",
                        f"{name!r} is a defender; plans are for attackers",
                        name=name,
                    ),
                )
            )
        for i, leg in enumerate(legs):
            if leg is None:
                continue
            for k, action in enumerate(leg.actions):
                where = ("plans", name, i, "actions", k)
                target = getattr(action, "target", None) or getattr(action, "to", None)
                if target is not None:
                    key = "target" if hasattr(action, "target") else "to"
                    if target not in sides:
                        found.append(((*where, key), _no_actor(target)))
                    elif target == name:
                        found.append(
                            (
                                (*where, key),
                                Said(
                                    "scene.self_target",
                                    f"{name!r} cannot {action.do} itself",
                                    name=name,
                                    do=_word("do", action.do),
                                ),
                            )
                        )
                    elif action.do in HOSTILE and sides[target] is sides[name]:
                        found.append(
                            (
                                (*where, key),
                                Said(
                                    "scene.same_side",
                                    f"{name!r} cannot {action.do} {target!r}, one of the "
                                    f"{sides[name].value} too: a blow is for the other side",
                                    name=name,
                                    do=_word("do", action.do),
                                    target=target,
                                    side=_word("side", sides[name].value),
                                ),
                            )
                        )
                door = getattr(action, "door", None)
                if door is not None and door not in doors:
                    found.append(
                        (
                            (*where, "door"),
                            Said(
                                "scene.no_door", f"no door is called {door!r} in walls", name=door
                            ),
                        )
                    )
    return found


def _hidden(parts: Parts) -> list[Issue]:
    sides = _actor_sides(parts)
    found: list[Issue] = []
    for i, name in parts.hidden_guards:
        if name not in sides:
            found.append((("hidden_guards", i), _no_actor(name)))
        elif sides[name] is not Side.DEFENDERS:
            found.append(
                (
                    ("hidden_guards", i),
                    Said(
                        "scene.hidden_not_defender",
                        f"{name!r} is not a defender (SK-G4)",
                        name=name,
                    ),
                )
            )
    return found


def _objective(parts: Parts) -> list[Issue]:
    if parts.objective is None:
        return []
    return _named(parts, parts.objective.who, ("objective", "who"), Side.ATTACKERS)


def _encounter(parts: Parts) -> list[Issue]:
    encounter = parts.encounter
    if encounter is None:
        return []
    found: list[Issue] = []
    if encounter.type == "shadowing":
        for role in ("follower", "followed"):
            found += _named(
                parts, (getattr(encounter, role),), ("encounter", role), None, index=False
            )
        if encounter.follower == encounter.followed:
            found.append(
                (
                    ("encounter", "followed"),
                    Said("scene.follow_oneself", "one cannot follow oneself"),
                )
            )
        return found
    found += _named(parts, encounter.ambushers, ("encounter", "ambushers"), None)
    found += _named(parts, encounter.targets, ("encounter", "targets"), None)
    both = set(encounter.ambushers) & set(encounter.targets)
    if both:
        names = sorted(both)
        text = f"{names} both ambush and are ambushed"
        listed = Said("scene.quoted", repr(names[0]), name=names[0])
        for name in names[1:]:
            item = Said("scene.quoted", repr(name), name=name)
            listed = Said("scene.list_next", f"{listed}, {item}", head=listed, item=item)
        found.append((("encounter", "targets"), Said("scene.ambush_both", text, names=listed)))
    return found


def _named(
    parts: Parts, names: Iterable[str], where: Loc, side: Side | None, *, index: bool = True
) -> list[Issue]:
    sides = _actor_sides(parts)
    found: list[Issue] = []
    for j, name in enumerate(names):
        loc: Loc = (*where, j) if index else where
        if name not in sides:
            found.append((loc, _no_actor(name)))
        elif side is not None and sides[name] is not side:
            found.append(
                (
                    loc,
                    Said(
                        "scene.wrong_side",
                        f"{name!r} is not one of the {side.value}",
                        name=name,
                        side=_word("side", side.value),
                    ),
                )
            )
    return found


def _no_actor(name: str) -> Said:
    return Said("scene.no_actor", f"no actor is called {name!r}", name=name)


def _word(kind: str, value: str) -> Said:
    """A word of the scenario file (a side, a guard's state, an action) inside a message:
    the file's own word in English, its translation elsewhere (``scene.side.attackers``)."""
    return Said(f"scene.{kind}.{value}", value)
