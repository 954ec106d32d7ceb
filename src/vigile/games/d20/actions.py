"""The d20 games' own plan actions: invisibility (DD-1, SF-7), D&D 3.5's attack on a named
square (DD-9) and Starfinder's sniping (SF-10).

The shared d20 round (:class:`vigile.games.d20.round.D20Game`) plays them all, so their models
live here; each game's plug-in lists only those its rules have (``plan_actions``:
:data:`DND35_ACTIONS`, :data:`STARFINDER_ACTIONS`), so a Starfinder scenario that plans an
attack on a square, or a D&D 3.5 one that snipes, is refused when it is validated, naming the
action and the game it belongs to.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

from vigile.scene.actors import MODEL_CONFIG, Name, Point
from vigile.scene.plans import Aim, Blow


class AttackSquare(Blow):
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

    def aim(self) -> Aim:
        """At the point named, in melee or shot."""
        return Aim(None, self.at, self.ranged)


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


class Snipe(Blow):
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

    def aim(self) -> Aim:
        """At its target, a shot."""
        return Aim(self.target, None, True)


DND35_ACTIONS = (CastInvisibility, EndInvisibility, AttackSquare)
"""D&D 3.5's own plan actions: invisibility (DD-1) and the attack on a square (DD-9)."""
STARFINDER_ACTIONS = (CastInvisibility, EndInvisibility, Snipe)
"""Starfinder's own plan actions: invisibility (SF-7) and sniping (SF-10)."""
