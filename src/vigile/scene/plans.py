"""Intruders' plans: legs from waypoint to waypoint, and what they do on arrival.

A plan is a list of legs. Each leg walks in a straight line from where the actor is (its
start position, then the previous waypoint) to ``to`` at the leg's ``speed`` (an attitude of
SK-V3), waits ``wait`` turns there, then performs its ``actions`` in order. A leg without
``to`` stays in place (to wait, or to act before moving). A leg may not pass through a wall,
a closed door, a partition or a closed window, unless it climbs over walls (``climb``) on a
grapple thrown at the previous waypoint, or a door on its way was opened by an earlier action.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Literal

from pydantic import BaseModel, Field

from vigile.awareness.vocabulary import Attitude, Surface
from vigile.scene.actors import MODEL_CONFIG, Name, Point

MAX_WAIT = 1000
MAX_ACTIONS = 20


class GrappleSurface(StrEnum):
    """What a grapple lands on; only tile and stone make noise (SK-N2)."""

    TILE = "tile"
    STONE = "stone"


class Volume(StrEnum):
    """How loud the actor speaks (SK-N7)."""

    WHISPER = "whisper"
    CONVERSATION = "conversation"
    ANIMATED = "animated"


class ThrowGrapple(BaseModel):
    """Throw a grapple wrapped in cloth (SK-N2: 4+ onto tile or stone), to climb the next leg."""

    model_config = MODEL_CONFIG

    do: Literal["throw-grapple"]
    """The action."""
    at: Point | None = None
    """Where the grapple lands; absent: the next leg's waypoint."""
    onto: GrappleSurface | None = None
    """The surface it lands on; absent: inferred from the surfaces at ``at``."""


class Strike(BaseModel):
    """One round of melee against an actor (SK-N2: 4+)."""

    model_config = MODEL_CONFIG

    do: Literal["strike"]
    """The action."""
    target: Name
    """The actor struck."""
    ranged: bool = False
    """Shot or thrown from a distance (a bow, a shuriken): in the d20 games the one struck learns
    only the direction it came from (DD-7 [C])."""


class Kill(BaseModel):
    """Kill an actor; the body (and its weapon) falls and makes noise (SK-N2)."""

    model_config = MODEL_CONFIG

    do: Literal["kill"]
    """The action."""
    target: Name
    """The actor killed."""
    surface: Surface | None = None
    """Where the body falls; absent: inferred from the surfaces at the target's position."""
    ranged: bool = False
    """Killed from a distance (an arrow, a shuriken): the killer need not be next to it."""


class Speak(BaseModel):
    """Speak aloud; enemies who cannot see may overhear (SK-N7)."""

    model_config = MODEL_CONFIG

    do: Literal["speak"]
    """The action."""
    volume: Volume
    """whisper (6+), conversation (5+), animated (4+)."""
    to: Name | None = None
    """Who is spoken to, if anyone in particular."""


class OpenDoor(BaseModel):
    """Open a door (named in ``walls``): legs after this may pass through it."""

    model_config = MODEL_CONFIG

    do: Literal["open-door"]
    """The action."""
    door: Name
    """The door's ``name``."""


class CloseDoor(BaseModel):
    """Close a door (named in ``walls``)."""

    model_config = MODEL_CONFIG

    do: Literal["close-door"]
    """The action."""
    door: Name
    """The door's ``name``."""


Action = Annotated[
    ThrowGrapple | Strike | Kill | Speak | OpenDoor | CloseDoor, Field(discriminator="do")
]
"""An action performed at a waypoint, chosen by its ``do``."""


class Leg(BaseModel):
    """One leg of a plan: go to a waypoint at a speed, wait, act."""

    model_config = MODEL_CONFIG

    to: Point | None = None
    """The waypoint ``[x, y]``; absent: stay where you are."""
    speed: Attitude = Attitude.HALF
    """How it moves (SK-V3): ``hidden`` (from cover to cover), ``immobile``, ``half`` (no
    fumble roll, SK-N3), ``fast`` (a fumble roll per move). In the d20 games ``fast`` is
    more than half speed."""
    climb: bool = False
    """Climbs over the walls this leg crosses, on a grapple thrown at the previous waypoint."""
    wait: Annotated[int, Field(ge=0, le=MAX_WAIT)] = 0
    """Turns spent at the waypoint before acting."""
    actions: Annotated[tuple[Action, ...], Field(max_length=MAX_ACTIONS)] = ()
    """What it does at the waypoint, in order."""
