"""The scenario format (DESIGN.md "Scenarios"): what a scenario file may say, validated.

A scenario is a frozen tree of pydantic models. Each model checks itself (a wall has length,
a polygon has 3 vertices and an area); :class:`Scenario` then checks what spans several fields
(:mod:`vigile.scene.consistency`: everything inside the map, names unique and known, groups on
one side, plans not walking through walls, fields that fit the ruleset). Read a file with
:func:`vigile.scene.loader.load_scenario`, which reports every error at once with its line.

Coordinates are ``[x, y]`` in the scenario's unit: centimetres of table for the skirmish game,
feet for the d20 games (5-ft squares: the square of a point is ``(x // 5, y // 5)``). The map
spans ``0..width`` by ``0..height``, borders included (but a patrolling guard starts strictly
inside: its patrol bounces off the edge, SK-G1).
"""

from __future__ import annotations

from enum import StrEnum
from functools import cache
from typing import Annotated, Any, Literal, Self, Union

from pydantic import AfterValidator, BaseModel, Field, create_model, model_validator
from pydantic_core import from_json

from vigile import registry
from vigile.awareness.vocabulary import TimeOfDay
from vigile.rulesets.data import RuleData
from vigile.scene.actors import (
    MAX_COORD,
    MAX_NAME,
    MODEL_CONFIG,
    Actor,
    Line,
    Name,
    Point,
    Text,
    unsafe_character,
)
from vigile.scene.encounters import Encounter, Expected
from vigile.scene.games import SHARED_ACTIONS, action_name, own_actions, own_fields
from vigile.scene.house import scenario_rules
from vigile.scene.plans import MAX_ACTIONS, Leg

MAX_ITEMS = 2000
"""No list of a scenario (walls, actors, vertices...) is longer."""
MAX_DICE_VALUES = 10_000
MAX_TURNS = 1000

Positive = Annotated[float, Field(gt=0, le=MAX_COORD, allow_inf_nan=False)]
Polygon = Annotated[tuple[Point, ...], Field(min_length=3, max_length=MAX_ITEMS)]
"""Vertices ``[[x, y], ...]`` in order (at least 3); the last joins the first."""


def _known_game(name: str) -> str:
    """A game the registry knows (:mod:`vigile.registry`): the built-in three, or a plug-in."""
    if name not in registry.names():
        raise ValueError(
            f"{name!r} is not a game vigile knows (one of: {', '.join(registry.names())})"
        )
    return name


Ruleset = Annotated[str, AfterValidator(_known_game)]
"""The game whose rules play the scenario, by its name in the registry (``skirmish``)."""


def unit_of(ruleset: str) -> Units:
    """The unit a game's distances are written in (its plug-in says)."""
    return Units(registry.get(ruleset).unit)


class Units(StrEnum):
    """Unit of every coordinate and distance."""

    CM = "cm"
    FT = "ft"


class WallKind(StrEnum):
    """A barrier segment. All block movement; a door or window only while closed."""

    WALL = "wall"
    DOOR = "door"
    PARTITION = "partition"
    """A light inner partition, e.g. a shoji: blocks sight (SK-V6), counts for noise (SK-N5)."""
    WINDOW = "window"


class SurfaceKind(StrEnum):
    """What the ground is made of (noise of a death or a grapple, SK-N2)."""

    FLOOR = "floor"
    WATER = "water"
    GRASS = "grass"
    SOFT_GROUND = "soft-ground"
    TILE = "tile"
    STONE = "stone"


class LightKind(StrEnum):
    """A light source (SK-G2, SK-V5)."""

    BRAZIER = "brazier"
    LANTERN = "lantern"
    LIT_DOOR = "lit-door"
    LIT_WINDOW = "lit-window"


IMAGE_SUFFIXES = (".png", ".webp", ".jpg", ".jpeg")
"""The pictures a map's ``background`` may name."""
MARKUP_CHARACTERS = frozenset("\"'<>`")
"""Characters a picture's file name may not hold: quotes, angle brackets and the backtick end
an attribute or start a tag in the pages that draw the map (a background of
``"/><img src=x onerror=...>.png`` would be a script in the editor)."""


def _relative_image(path: str) -> str:
    """A picture beside the scenario, or below its folder: a relative path with ``/``, no
    ``..``, no drive, no URL, no quote or angle bracket, ending in one of
    :data:`IMAGE_SUFFIXES`."""
    parts = path.split("/")
    if unsafe_character(path) is not None:
        raise ValueError(f"{path!r}: a file name holds no control characters")
    markup = sorted(MARKUP_CHARACTERS.intersection(path))
    if markup:
        raise ValueError(
            f"{path!r}: a picture's file name holds no quote, angle bracket or backtick "
            f"(found {' '.join(markup)})"
        )
    if path.startswith(("/", "\\")) or "\\" in path or ":" in path:
        raise ValueError(
            f"{path!r}: a relative path, with /, to a picture beside the scenario (no drive, "
            "no URL, no backslash)"
        )
    if any(part in ("", ".", "..") for part in parts):
        raise ValueError(f"{path!r}: a relative path below the scenario's folder (no . or ..)")
    if not path.lower().endswith(IMAGE_SUFFIXES):
        raise ValueError(f"{path!r}: a picture is {', '.join(IMAGE_SUFFIXES)}")
    return path


ImagePath = Annotated[str, Field(min_length=1, max_length=255), AfterValidator(_relative_image)]


class MapSize(BaseModel):
    """The board: ``0..width`` by ``0..height`` in the scenario's unit."""

    model_config = MODEL_CONFIG

    width: Positive
    """Width (x extent)."""
    height: Positive
    """Height (y extent)."""
    background: ImagePath | None = None
    """The map's picture, drawn under the board: a PNG, WebP or JPEG file named relative to the
    scenario's folder (``crypt.png``, ``maps/crypt.webp``), spanning the whole board. Written by
    ``vigile scenario import``; the rules never read it."""


class Wall(BaseModel):
    """A straight barrier from ``start`` to ``end``: a wall, a door, a partition or a window."""

    model_config = MODEL_CONFIG

    kind: WallKind = WallKind.WALL
    """wall, door, partition (shoji) or window."""
    start: Point
    """One end ``[x, y]``."""
    end: Point
    """The other end ``[x, y]``."""
    open: bool = False
    """Doors and windows only: open at the start (an open door blocks nothing)."""
    name: Name | None = None
    """A name, so that plans can open or close it (doors)."""

    @model_validator(mode="after")
    def _has_length(self) -> Wall:
        if self.start == self.end:
            x, y = self.start
            raise ValueError(
                f"a zero-length {self.kind.value}: it starts and ends at [{x:g}, {y:g}]"
            )
        if self.open and self.kind not in (WallKind.DOOR, WallKind.WINDOW):
            raise ValueError(f"only a door or a window can be open, not a {self.kind.value}")
        return self

    @property
    def blocks_movement(self) -> bool:
        """Walls and partitions always; doors and windows while closed."""
        return not self.open


class Region(BaseModel):
    """A polygon of ground of one kind; where regions overlap, the last listed wins."""

    model_config = MODEL_CONFIG

    kind: SurfaceKind
    """floor, water, grass, soft-ground, tile or stone."""
    points: Polygon
    """The polygon's vertices."""
    name: Name | None = None
    """A label for the GM ("pond", "engawa")."""

    @model_validator(mode="after")
    def _has_area(self) -> Region:
        _check_area(self.points)
        return self


class Cover(BaseModel):
    """An area where a character can hide (SK-V3: a bush, a wall corner, under a floor)."""

    model_config = MODEL_CONFIG

    points: Polygon
    """The polygon's vertices."""
    name: Name | None = None
    """A label for the GM ("bush", "under the terrace")."""

    @model_validator(mode="after")
    def _has_area(self) -> Cover:
        _check_area(self.points)
        return self


class Light(BaseModel):
    """A light: anyone close enough is seen distinctly at night (SK-V5)."""

    model_config = MODEL_CONFIG

    kind: LightKind
    """brazier, lantern, lit-door or lit-window."""
    at: Point
    """Where it is."""
    radius: Positive | None = None
    """How far it lights, in the scenario's unit. Absent in skirmish: the rules' 20 cm
    (``sight.lit_radius_cm``, SK-V5). Required in the d20 games."""

    def radius_or(self, default: float) -> float:
        """The radius, or ``default`` (the ruleset's) when the scenario gives none."""
        return self.radius if self.radius is not None else default


class Objective(BaseModel):
    """Where the attackers must go: an area, or within ``radius`` of a point."""

    model_config = MODEL_CONFIG

    description: Text = Field(default="", max_length=500)
    """What it is ("the lord's room")."""
    area: Polygon | None = None
    """The zone to reach, as a polygon."""
    at: Point | None = None
    """The point to reach (with ``radius``)."""
    radius: Positive | None = None
    """Distance from ``at`` that counts as reached."""
    who: Annotated[tuple[Name, ...], Field(max_length=MAX_ITEMS)] = ()
    """Attackers concerned; empty: every attacker."""
    require: Literal["any", "all"] = "any"
    """Whether one of them reaching it is enough (``any``) or all must (``all``)."""

    @model_validator(mode="after")
    def _one_target(self) -> Objective:
        if (self.area is None) == (self.at is None):
            raise ValueError("give either an area, or a point `at` with a radius")
        if self.at is not None and self.radius is None:
            raise ValueError("a point objective needs a radius")
        if self.area is not None and self.radius is not None:
            raise ValueError("a radius only goes with a point `at`, not with an area")
        return self


class Scouting(BaseModel):
    """What the attackers learnt beforehand (SK-G3)."""

    model_config = MODEL_CONFIG

    observed_beforehand: bool = False
    """They observed the place: they know every (not hidden) guard's position."""
    detected_while_scouting: bool = False
    """They were seen scouting: every defender starts on alert."""

    @model_validator(mode="after")
    def _scouted_first(self) -> Scouting:
        if self.detected_while_scouting and not self.observed_beforehand:
            raise ValueError("detected while scouting needs observed_beforehand: true")
        return self


class Scenario(BaseModel):
    """A whole scenario: the board, who is on it, what the intruders plan, and the limits."""

    model_config = MODEL_CONFIG

    ruleset: Ruleset
    """The game, by its name in the registry: skirmish, starfinder, dnd35, or a plug-in's. It
    chooses the model the rest validates with: a plug-in's actors may carry its own fields and
    its legs its own actions (:mod:`vigile.scene.games`)."""
    name: Name
    """Short title."""
    description: Text = Field(default="", max_length=5000)
    """What happens, for the GM."""
    reproduces: Annotated[
        tuple[Annotated[Line, Field(max_length=MAX_NAME)], ...], Field(max_length=MAX_ITEMS)
    ] = ()
    """RULES.md IDs of the worked examples this scenario reproduces."""
    units: Units
    """cm for skirmish, ft for starfinder and dnd35; absent: the ruleset's."""
    time: TimeOfDay = TimeOfDay.NIGHT
    """night or day (SK-V1, SK-S1, SK-N4)."""
    map: MapSize
    """The board's size."""
    walls: Annotated[tuple[Wall, ...], Field(max_length=MAX_ITEMS)] = ()
    """Walls, doors, partitions (shoji) and windows."""
    surfaces: Annotated[tuple[Region, ...], Field(max_length=MAX_ITEMS)] = ()
    """Ground areas; a point in none is on ``default_surface``."""
    default_surface: Literal["floor", "water", "grass", "soft-ground", "tile", "stone"] = "grass"
    """The ground outside every listed surface."""
    cover: Annotated[tuple[Cover, ...], Field(max_length=MAX_ITEMS)] = ()
    """Areas to hide in (SK-V3)."""
    lights: Annotated[tuple[Light, ...], Field(max_length=MAX_ITEMS)] = ()
    """Braziers, lanterns, lit doors and windows (SK-G2, SK-V5)."""
    actors: Annotated[tuple[Actor, ...], Field(min_length=1, max_length=MAX_ITEMS)]
    """Everyone on the board."""
    plans: Annotated[dict[Name, tuple[Leg, ...]], Field(max_length=MAX_ITEMS)] = Field(
        default_factory=dict
    )
    """Each attacker's plan: a list of legs, by actor name."""
    scouting: Scouting = Field(default_factory=Scouting)
    """Whether the attackers scouted the place, and were seen doing it (SK-G3)."""
    hidden_guards: Annotated[tuple[Name, ...], Field(max_length=MAX_ITEMS)] = ()
    """Defenders unknown to the attackers even after scouting (SK-G4)."""
    turns: Annotated[int, Field(ge=1, le=MAX_TURNS)] = 40
    """Turn limit (rounds in the d20 games)."""
    objective: Objective | None = None
    """Where the attackers must go."""
    alarm_ends: bool = False
    """The game ends when the alarm is raised. By default it goes on, every defender who
    heard the cry on alert (SK-G5)."""
    open_table: bool = False
    """Live play: the table's shared screen shows every intruder where it stands. Off by
    default: it shows what the defenders collectively perceive, at that precision (LP-5)."""
    encounter: Encounter | None = None
    """A day situation to play instead of a night raid: shadowing or ambush."""
    house_rules: dict[str, Any] = Field(default_factory=dict)
    """Overrides of the ruleset's numbers, as in a house-rule file
    (``{noise: {base: {death_floor: 4}}}``); unknown keys are errors."""
    seed: Annotated[int, Field(ge=0, le=2**63 - 1)] | None = None
    """Seed of the dice, for a replay."""
    dice_values: (
        Annotated[
            tuple[Annotated[int, Field(ge=1, le=100)], ...], Field(max_length=MAX_DICE_VALUES)
        ]
        | None
    ) = None
    """The GM's dice, in the order the engine asks for them, to replay a game at the table."""
    expected: Annotated[tuple[Expected, ...], Field(max_length=MAX_ITEMS)] = ()
    """Verdicts this scenario must reproduce (worked examples)."""

    @model_validator(mode="before")
    @classmethod
    def _default_units(cls, data: Any) -> Any:
        if isinstance(data, dict) and "units" not in data:
            ruleset = data.get("ruleset")
            # An unknown ruleset is reported on its own: no second error for the units.
            unit = unit_of(ruleset) if ruleset in registry.names() else Units.CM
            return {**data, "units": unit.value}
        return data

    @classmethod
    def model_validate(cls, obj: Any, **options: Any) -> Self:
        """The scenario in ``obj``, validated by the model of its ``ruleset:``: a game whose
        plug-in brings actor fields or plan actions of its own validates with them
        (:func:`vigile.scene.games.model_for`), every other with this one."""
        if cls is Scenario and isinstance(obj, dict):
            chosen = model_for(obj.get("ruleset"))
            if chosen is not None:
                made: Self = chosen.model_validate(obj, **options)
                return made
        return super().model_validate(obj, **options)

    @classmethod
    def model_validate_json(cls, json_data: str | bytes | bytearray, **options: Any) -> Self:
        """As :meth:`model_validate`, from JSON text."""
        if cls is Scenario:
            data = from_json(json_data)
            if isinstance(data, dict) and model_for(data.get("ruleset")) is not None:
                return cls.model_validate(data, **options)
        return super().model_validate_json(json_data, **options)

    def actor(self, name: str) -> Actor:
        """The actor called ``name`` (KeyError if none)."""
        for actor in self.actors:
            if actor.name == name:
                return actor
        raise KeyError(name)

    def rules(self) -> RuleData:
        """The ruleset's numbers with this scenario's ``house_rules`` applied."""
        return scenario_rules(self.ruleset, self.house_rules)

    def groups(self) -> dict[str, tuple[Actor, ...]]:
        """Actors by group name (SK-G1: a group moves as one)."""
        result: dict[str, list[Actor]] = {}
        for actor in self.actors:
            if actor.group is not None:
                result.setdefault(actor.group, []).append(actor)
        return {name: tuple(members) for name, members in result.items()}


def _check_area(points: tuple[Point, ...]) -> None:
    twice_area = sum(
        x1 * y2 - x2 * y1
        for (x1, y1), (x2, y2) in zip(points, points[1:] + points[:1], strict=True)
    )
    if twice_area == 0:
        raise ValueError("the polygon has no area (its vertices are on one line)")


# ------------------------------------------------------------------ each game's own models
#
# A game's plug-in may bring actor fields and plan actions of its own (:mod:`vigile.scene.games`):
# its scenario model is a subclass of :class:`Scenario`, made once per game.


def model_for(ruleset: Any) -> type[Any] | None:
    """The scenario model of the game named ``ruleset``, or None where the shared one serves
    (a game with nothing of its own). An unknown or missing game gets the model that takes
    every game's fields (:func:`any_game_model`): its ``ruleset`` is the one error reported,
    not each field of the game it meant."""
    found = _models_of(ruleset)
    return None if found is None else found[0]


def item_models(ruleset: Any) -> tuple[type[Actor], type[Leg]]:
    """The models of one actor and one leg of the game named ``ruleset`` (the shared ones
    where it brings nothing of its own): what the scene's checks read item by item."""
    found = _models_of(ruleset)
    return (Actor, Leg) if found is None else (found[1], found[2])


def _models_of(ruleset: Any) -> tuple[type[Any], type[Actor], type[Leg]] | None:
    if not isinstance(ruleset, str) or ruleset not in registry.names():
        return _any_game(registry.version())
    return _models(ruleset, registry.version())


def scenario_model(ruleset: str) -> type[Any]:
    """The model that validates a scenario of ``ruleset``: the shared
    :class:`~vigile.scene.model.Scenario`, or its subclass with the game's fields and
    actions."""
    return model_for(ruleset) or Scenario


def _title(ruleset: str) -> str:
    """The start of the names of a game's models (``luck_game``: ``LuckGame``)."""
    return "".join(part.capitalize() for part in ruleset.split("_"))


KINDS = ("Scenario", "Actor", "Leg")
"""What each game's models are called after its title (``LuckgameActor``)."""


def __getattr__(name: str) -> type[Any]:
    """A game's model by its name (``LuckgameActor``), made if it was not yet: what
    :mod:`pickle` asks for when it reads a game's state back (a checkpoint of live play holds
    the actors), maybe in a process that has not validated a scenario of that game yet."""
    for ruleset in registry.names():
        title = _title(ruleset)
        if name.startswith(title) and name[len(title) :] in KINDS:
            found = _models_of(ruleset)
            if found is not None:
                made: type[Any] = found[KINDS.index(name[len(title) :])]
                if made.__name__ == name:
                    return made
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@cache
def _models(ruleset: str, version: int) -> tuple[type[Any], type[Actor], type[Leg]] | None:
    """Made once per game and registry version (a game registered again is read again)."""
    fields, actions = own_fields(ruleset), own_actions(ruleset)
    if fields is None and not actions:
        return None
    return _build(_title(ruleset), f"a {ruleset}", () if fields is None else (fields,), actions)


def any_game_model() -> type[Any]:
    """The scenario model that takes every game's own fields and actions at once: what the
    JSON schema of any scenario describes (a game's own model is stricter)."""
    return _any_game(registry.version())[0]


@cache
def _any_game(version: int) -> tuple[type[Any], type[Actor], type[Leg]]:
    fields: list[type[BaseModel]] = []
    actions: dict[str, type[BaseModel]] = {}
    for ruleset in registry.names():
        own = own_fields(ruleset)
        if own is not None and own not in fields:
            fields.append(own)
        actions.update((action_name(model), model) for model in own_actions(ruleset))
    return _build("AnyGame", "any game's", tuple(fields), tuple(actions.values()))


def _build(
    title: str,
    what: str,
    fields: tuple[type[BaseModel], ...],
    actions: tuple[type[BaseModel], ...],
) -> tuple[type[Any], type[Actor], type[Leg]]:
    """The scenario, actor and leg models with these actor ``fields`` models and plan
    ``actions`` beside the shared ones, named ``{title}Scenario`` and so on."""
    actor: type[Actor] = Actor
    if fields:
        bases: Any = (Actor, *fields)  # the shared fields, then the game's
        actor = create_model(
            f"{title}Actor",
            __base__=bases,
            __module__=__name__,
            __doc__=f"An actor of {what} scenario: "
            + "; ".join(model.__doc__ or model.__name__ for model in fields),
        )
    leg: type[Leg] = Leg
    if actions:
        one = Annotated[
            Union[*SHARED_ACTIONS, *actions],  # type: ignore[valid-type]
            Field(discriminator="do"),
        ]
        leg = create_model(
            f"{title}Leg",
            __base__=Leg,
            __module__=__name__,
            __doc__=f"A leg of {what} plan: the shared actions and the game's own.",
            actions=(
                Annotated[tuple[one, ...], Field(max_length=MAX_ACTIONS)],
                Field((), description="What it does at the waypoint, in order."),
            ),
        )
    one_actor: Any = actor
    one_leg: Any = leg
    made: type[Scenario] = create_model(
        f"{title}Scenario",
        __base__=Scenario,
        __module__=__name__,
        __doc__=f"{what[0].upper()}{what[1:]} scenario: the shared fields, its actors and legs.",
        actors=(
            Annotated[tuple[one_actor, ...], Field(min_length=1, max_length=MAX_ITEMS)],
            Field(description="Everyone on the board."),
        ),
        plans=(
            Annotated[dict[Name, tuple[one_leg, ...]], Field(max_length=MAX_ITEMS)],
            Field(
                default_factory=dict,
                description="Each attacker's plan: a list of legs, by actor name.",
            ),
        ),
    )
    return made, actor, leg
