"""Who is on the board: the fields every game's actors share (name, side, place, orders,
group, alert, senses, move), and the words a game's own fields are made of.

A game's own fields live in its plug-in (``actor_fields``): the d20 games' bonuses and
invisibility in :mod:`vigile.games.d20.fields`, the skirmish's dice pools (SK-D1), outfit,
ninjas and talking in :mod:`vigile.games.skirmish.fields`. Each game's scenario model adds them
to :class:`Actor` (:mod:`vigile.scene.games`); another game's scenario that writes one is
refused, naming the field and the games it belongs to. The skirmish's skills and dice forms
(:class:`Skill`, :data:`DiceSpec`) stay here, where the checks and the kernels name them.
"""

from __future__ import annotations

import inspect
import unicodedata
from enum import StrEnum
from functools import cache
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Discriminator, Field, Tag
from pydantic._internal._docs_extraction import extract_docstrings_from_cls

from vigile.awareness.vocabulary import Attitude
from vigile.rulesets.limits import LIMITS
from vigile.rulesets.senses import Sense

MAX_NAME = 60
MAX_POOL = LIMITS.max_dice
"""Never more dice in a pool (the limits' one home: :mod:`vigile.rulesets.limits`)."""
MAX_BONUS = LIMITS.max_bonus
MAX_COORD = LIMITS.max_distance
"""No board is larger than a kilometre of table or a hundred thousand feet."""

Coord = Annotated[float, Field(allow_inf_nan=False, ge=-MAX_COORD, le=MAX_COORD)]
Point = tuple[Coord, Coord]
"""A point ``[x, y]`` in the scenario's unit (cm or ft); x grows rightwards, y downwards."""
BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f"  # Arabic letter mark, left-to-right and right-to-left marks
    "\u202a\u202b\u202c\u202d\u202e"  # embeddings, pop, overrides (U+202E)
    "\u2066\u2067\u2068\u2069"  # isolates
)
"""Bidirectional formatting characters: they reorder what a terminal or a page shows
(U+202E turns the rest of a line around), so a scenario may not carry them."""
LINE_BREAKS = frozenset("\n\t")
"""The control characters a long text (a description) may hold: new lines and tabs."""


def unsafe_character(text: str, *, allowed: frozenset[str] = frozenset()) -> str | None:
    """The first character of ``text`` that could drive a terminal or reorder a line: a
    control character (C0, DEL, C1: the escape of ``\\x1b[31m``, the bell), a line or
    paragraph separator, or a bidirectional override; None when there is none. ``allowed``
    lists the exceptions (:data:`LINE_BREAKS` in a description)."""
    for char in text:
        if char in allowed:
            continue
        if char in BIDI_CONTROLS or unicodedata.category(char) in ("Cc", "Zl", "Zp"):
            return char
    return None


def _plain(text: str, allowed: frozenset[str]) -> str:
    char = unsafe_character(text, allowed=allowed)
    if char is not None:
        what = "a bidirectional override" if char in BIDI_CONTROLS else "a control character"
        raise ValueError(
            f"contains U+{ord(char):04X}, {what}: a scenario's text may hold no control "
            "characters and no bidirectional overrides (they would drive the terminal)"
        )
    return text


def _plain_line(text: str) -> str:
    return _plain(text, frozenset())


def _plain_text(text: str) -> str:
    return _plain(text, LINE_BREAKS)


Name = Annotated[
    str,
    Field(min_length=1, max_length=MAX_NAME, pattern=r"^\S(.*\S)?$"),
    AfterValidator(_plain_line),
]
"""A name as the scenario writes it: no leading or trailing spaces, no control characters
(nothing a terminal would obey, :func:`unsafe_character`)."""
Line = Annotated[str, AfterValidator(_plain_line)]
"""A one-line text of a scenario (an ID in ``reproduces``): no control characters."""
Text = Annotated[str, AfterValidator(_plain_text)]
"""A free text of a scenario (a description, a note): new lines and tabs, but no other control
character and no bidirectional override."""
Bonus = Annotated[int, Field(ge=-MAX_BONUS, le=MAX_BONUS)]


def attribute_docstrings(model: type[BaseModel]) -> dict[str, str]:
    """The description each field of ``model`` takes from its attribute docstring (the string
    under ``name: type``), as pydantic's ``use_attribute_docstrings`` gives it: a field the
    class itself annotates takes the class's docstring, an inherited one its first base's (the
    one pydantic copies it from). A field given a ``description`` is not listed; nor is one of
    a class whose source cannot be read (made by ``create_model``) or whose config turns the
    docstrings off."""
    if model.model_config.get("use_attribute_docstrings") is False:
        return {}
    found: dict[str, str] = {}
    own = _class_docstrings(model)
    annotated = inspect.get_annotations(model)
    bases = [base for base in model.__bases__ if issubclass(base, BaseModel)]
    for name, info in model.model_fields.items():
        if info.description is not None:
            continue
        doc = own.get(name)
        if name not in annotated:
            parent = next((base for base in bases if name in base.model_fields), None)
            doc = (None if parent is None else attribute_docstrings(parent).get(name)) or doc
        if doc is not None:
            found[name] = doc
    return found


@cache
def _class_docstrings(model: type) -> dict[str, str]:
    """The attribute docstrings written in ``model``'s ``class`` statement, by attribute name,
    read by pydantic's own reader (the one ``use_attribute_docstrings`` calls, from the class's
    source rather than from the frames of its making)."""
    return extract_docstrings_from_cls(model, use_inspect=True)


def _describe_fields(schema: dict[str, Any], model: type[BaseModel]) -> None:
    """Give each field of ``model``'s JSON schema the description of its attribute docstring
    (:func:`attribute_docstrings`), when the schema is made."""
    properties = schema.get("properties", {})
    for name, doc in attribute_docstrings(model).items():
        if name in properties:
            properties[name]["description"] = doc


MODEL_CONFIG = ConfigDict(
    extra="forbid", frozen=True, defer_build=True, json_schema_extra=_describe_fields
)
"""The config of every scenario model: no unknown field, frozen, built when first used, and
each field described in the JSON schema by its attribute docstring.

pydantic's ``use_attribute_docstrings`` would give the same descriptions, but it reads them
as each class is made, by walking the stack and the source for every model class: most of
what importing the scenario models cost (some 70 ms of every command that reads a scenario);
:func:`_describe_fields` reads them only when a schema is made (``vigile scenario schema``,
the editor). ``defer_build``: a model's validator is made when it first validates, or with
the model that holds it; a map command validates one game's scenario model
(:func:`vigile.scene.model.scenario_model`), so the shared ``Scenario``, ``Actor`` and
``Leg`` and the live actions are never built there (some 35 ms)."""


class Side(StrEnum):
    """Which side an actor plays."""

    ATTACKERS = "attackers"
    DEFENDERS = "defenders"


class GuardState(StrEnum):
    """A guard's orders (SK-G1): stay put, or patrol by scatter die."""

    POSTED = "posted"
    PATROLLING = "patrolling"


class Outfit(StrEnum):
    """Whether the clothes suit hiding (SK-V4: a white kimono at night is ``unsuited``)."""

    NORMAL = "normal"
    UNSUITED = "unsuited"


class Skill(StrEnum):
    """Skirmish skills that a rule reads (SK-D1, SK-S3, SK-A3)."""

    NINJITSU = "ninjitsu"
    """Stealthy moves (SK-N3) and shadowing (SK-S3)."""
    PERCEPTION = "perception"
    """Noise and sight tests (SK-N, SK-V)."""
    ESPIONAGE = "espionage"
    SHADOWING = "shadowing"
    STRATEGY = "strategy"
    CUNNING = "cunning"
    YOJIMBO = "yojimbo"
    POLIORCETICS = "poliorcetics"


SHADOWING_SKILLS = (Skill.NINJITSU, Skill.ESPIONAGE, Skill.SHADOWING)
"""A character with dice in none of these is untrained at shadowing (SK-S3)."""
AMBUSH_SKILLS = (Skill.STRATEGY, Skill.CUNNING, Skill.ESPIONAGE, Skill.YOJIMBO, Skill.POLIORCETICS)
"""Levels in these add to the die when detecting an ambush (SK-A3)."""

Dice = Annotated[int, Field(ge=1, le=MAX_POOL)]
SkillDice = Annotated[int, Field(ge=0, le=MAX_POOL)]


def _dice_form(value: object) -> str | None:
    if isinstance(value, dict):
        return "skills"
    if isinstance(value, int | str) and not isinstance(value, bool):
        return "pool"
    return None


DiceSpec = Annotated[
    Annotated[Dice, Tag("pool")] | Annotated[dict[Skill, SkillDice], Tag("skills")],
    Discriminator(
        _dice_form,
        custom_error_type="dice",
        custom_error_message="dice is a number of dice (2) or dice per skill ({ninjitsu: 2})",
    ),
]
"""One pool for every check, or dice per skill; errors name only the form that was given."""


class Actor(BaseModel):
    """One character or creature on the board."""

    model_config = MODEL_CONFIG

    name: Name
    """Unique name, used by plans, groups, actions and ``--as NAME``."""
    side: Side
    """``attackers`` (intruders, ninjas) or ``defenders`` (guards)."""
    position: Point
    """Where it stands at the start, ``[x, y]`` in the scenario's unit, inside the map."""
    attitude: Attitude | None = None
    """What it does at the start, for a snapshot scenario (SK-V3): hidden, immobile, half,
    fast. Absent: posted guards are immobile, intruders take their first leg's speed."""
    state: GuardState = GuardState.POSTED
    """Orders: ``posted`` (immobile) or ``patrolling`` by scatter die (SK-G1)."""
    group: Name | None = None
    """Name of the group it walks with; a group moves as one and is all on one side (SK-G1)."""
    alert: bool = False
    """On alert ("aux aguets") from the start (SK-N6, SK-V4)."""
    senses: tuple[Sense, ...] = (Sense.SIGHT, Sense.HEARING)
    """How it perceives others."""
    move: Annotated[float, Field(gt=0, le=MAX_COORD, allow_inf_nan=False)] | None = None
    """Distance it may cover in a turn at full speed, in the scenario's unit (half speed:
    half of it). Absent: the engine's default for the ruleset."""
