"""Intruders' plans: legs from waypoint to waypoint, and what they do on arrival.

A plan is a list of legs. Each leg walks in a straight line from where the actor is (its
start position, then the previous waypoint) to ``to`` at the leg's ``speed`` (an attitude of
SK-V3), waits ``wait`` turns there, then performs its ``actions`` in order. A leg without
``to`` stays in place (to wait, or to act before moving). A leg may not pass through a wall,
a closed door, a partition or a closed window, unless it climbs over walls (``climb``) on a
grapple thrown at the previous waypoint, or a door on its way was opened by an earlier action.

The turn live play keeps, the plans keep. In the d20 games a leg's actions are
played in one round, the round it arrives (after its move there) unless it waits first or is
already there, so they must fit what that round gives (LP-1, the game's ``[actions]`` and
``[round]``): validation refuses a waypoint that holds more, naming the action
(:func:`vigile.games.checks.economy_issues`); the next leg begins the next round. And a
planned blow (``strike``, ``kill``, ``snipe``, ``attack-square``) needs its reach or range and
a line of sight where its target stands when it comes due (LP-7): beyond, it is not made, the
log says why, and the plan goes on (:meth:`vigile.engine.game.Game._blow_refused`).

Some actions belong to the d20 games only (Starfinder, D&D 3.5), and a skirmish scenario that
plans them is refused when it is validated (:mod:`vigile.games.checks`): ``attack-square``
(DD-9), ``cast-invisibility`` and ``end-invisibility`` (DD-1, SF-7), ``snipe`` (SF-10,
Starfinder only), and a leg's ``run`` (DD-5, DD-20). Live play hands any of these to the game's
``_act`` as it hands the rest.
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


class AttackSquare(BaseModel):
    """Attack a named 5-ft square, d20 games (DD-9): the player names the square of a creature
    it cannot see and has not located.

    The square is the one of ``at`` (``[x // 5, y // 5]``). If an enemy it cannot see stands
    there, the attack resolves normally (its attack roll against that enemy's AC, when it has
    one) with the miss chance of total concealment (DD-8); if none does, the attack roll and
    the miss chance are rolled all the same and a miss is announced. The attacker's own view
    reads the same in every case of a miss (a wrong square, the attack roll, the miss chance).
    An enemy it sees in that square is simply struck (``strike``).
    """

    model_config = MODEL_CONFIG

    do: Literal["attack-square"]
    """The action."""
    at: Point
    """A point of the named square, in feet."""
    ranged: bool = False
    """Shot or thrown: the one struck learns only the direction it came from (DD-7 [C])."""


class CastInvisibility(BaseModel):
    """Become invisible from now on (the spell's effect, d20 games): DD-1, SF-7.

    It lasts until ``end-invisibility``; [R] attacking does not end it by itself (the spell's
    own limit is not in the seed texts): a plan that plays the spell ends it after the blow.
    """

    model_config = MODEL_CONFIG

    do: Literal["cast-invisibility"]
    """The action."""


class EndInvisibility(BaseModel):
    """Become visible from now on (d20 games): the defenders' sight works on it again (DD-1),
    and it is no longer flat-footed's cause (SF-9: "until you become visible")."""

    model_config = MODEL_CONFIG

    do: Literal["end-invisibility"]
    """The action."""


class Snipe(BaseModel):
    """Sniping, Starfinder (SF-10): hidden from ``target``, 10 ft or more away, leave cover
    for one ranged attack against it, then roll Stealth at −20 to stay hidden, if the sniper's
    square has cover or concealment to get back into.

    The attack is rolled (SF-9: the target flat-footed against an attack from hiding); then
    one Stealth roll at −20 meets the Perception of every defender in a line of sight (SF-4).
    Too near (under 10 ft), or not hidden from the target: no sniping, the shot is an
    ordinary ranged ``strike`` and the sniper stays in plain sight of whoever looks.
    """

    model_config = MODEL_CONFIG

    do: Literal["snipe"]
    """The action."""
    target: Name
    """The actor shot at."""


Action = Annotated[
    ThrowGrapple
    | Strike
    | Kill
    | Speak
    | OpenDoor
    | CloseDoor
    | AttackSquare
    | CastInvisibility
    | EndInvisibility
    | Snipe,
    Field(discriminator="do"),
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
    run: bool = False
    """d20 games: runs, whatever its ``speed``: a full-round action (LP-1), so the waypoint it
    reaches holds no action that costs one in that round (a charge is not played); it
    covers ``turn.run_multiplier`` times its move a round (D&D 3.5 [C]: ×4), and is heard as
    running (DD-5: its Move Silently result −20) and hides as running (DD-20: −20); in
    Starfinder it is more than half speed (SF-3: −10)."""
    wait: Annotated[int, Field(ge=0, le=MAX_WAIT)] = 0
    """Turns spent at the waypoint before acting."""
    actions: Annotated[tuple[Action, ...], Field(max_length=MAX_ACTIONS)] = ()
    """What it does at the waypoint, in order."""
