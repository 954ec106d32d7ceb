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

The actions here are those every game plays (a blow, a kill, words, a door). A game's own
actions are its plug-in's ``plan_actions`` (:attr:`vigile.registry.GamePlugin.plan_actions`):
the skirmish's grapple (SK-N2) in :mod:`vigile.games.skirmish.actions`; the d20 games'
invisibility (DD-1, SF-7), D&D 3.5's attack on a square (DD-9) and Starfinder's sniping (SF-10)
in :mod:`vigile.games.d20.actions`. A scenario of one game that plans another's is refused when
it is validated, naming the action and the game it belongs to; so is a leg's ``run`` where the
game does not run (DD-5, DD-20: :func:`vigile.games.checks.run_issues`). A blow of any game
subclasses :class:`Blow`, so that live play and the plans check its reach (LP-7) without
knowing the game.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Literal, NamedTuple

from pydantic import BaseModel, Field

from vigile.awareness.vocabulary import Attitude, Surface
from vigile.scene.actors import MODEL_CONFIG, Name, Point

MAX_WAIT = 1000
MAX_ACTIONS = 20


class Volume(StrEnum):
    """How loud the actor speaks (SK-N7)."""

    WHISPER = "whisper"
    CONVERSATION = "conversation"
    ANIMATED = "animated"


class Aim(NamedTuple):
    """Where a blow goes (LP-7): an actor, or a point (a named square), in melee or shot."""

    target: str | None
    """The actor it is aimed at, if it names one."""
    at: Point | None
    """The point it is aimed at, where it names no actor."""
    ranged: bool
    """A shot (range and a line of sight), not melee (reach, no wall between)."""


class Blow(BaseModel):
    """A plan action that strikes (LP-7): its reach or range and a line of sight are checked
    when it comes due (:meth:`vigile.engine.game.Game._check_reach`). A game's own blow
    (D&D 3.5's attack on a square, Starfinder's sniping) subclasses it."""

    def aim(self) -> Aim:
        """Where it goes; a subclass that names a ``target`` or a point says so."""
        raise NotImplementedError(type(self).__name__)


class ClimbAid(BaseModel):
    """A plan action that lets its actor's next leg climb (``climb: true``): a game's own, such
    as the skirmish's grapple (SK-N2); a game with none has no climb. The plans
    (:mod:`vigile.scene.routes`) and live play (:meth:`vigile.engine.game.Game.apply`) ask for
    one before a climb without naming it."""


class Strike(Blow):
    """One round of melee against an actor (SK-N2: 4+)."""

    model_config = MODEL_CONFIG

    do: Literal["strike"]
    """The action."""
    target: Name
    """The actor struck."""
    ranged: bool = False
    """Shot or thrown from a distance (a bow, a shuriken): in the d20 games the one struck learns
    only the direction it came from (DD-7 [C])."""

    def aim(self) -> Aim:
        """At its target, in melee or shot."""
        return Aim(self.target, None, self.ranged)


class Kill(Blow):
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

    def aim(self) -> Aim:
        """At its target, in melee or shot."""
        return Aim(self.target, None, self.ranged)


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


Action = Annotated[Strike | Kill | Speak | OpenDoor | CloseDoor, Field(discriminator="do")]
"""An action every game's plans take, chosen by its ``do``. A game's own actions are its
plug-in's (``plan_actions``): its legs take them beside these
(:func:`vigile.scene.model.scenario_model`)."""


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
