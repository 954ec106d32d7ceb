"""The mutable state of one game: each actor's place, life, alert, plan progress and knowledge
(a game adds its own by subclassing :class:`Walker`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from vigile.awareness.ladder import AwarenessState
from vigile.awareness.vocabulary import Attitude
from vigile.scene.actors import Actor, Side
from vigile.scene.plans import Leg

Point = tuple[float, float]


@dataclass
class Walker:
    """One actor during play: what every game keeps of it.

    A game that keeps more of each creature (the d20 games: an invisibility cast or ended, the
    flour thrown on it) subclasses it, a dataclass whose new fields have defaults, and names
    the subclass as its :attr:`vigile.engine.game.Game.walker_type`: its walkers are then of
    that class, pickled with the game in live play's checkpoints and copied by its undo."""

    actor: Actor
    x: float
    y: float
    alive: bool = True
    alert: bool = False
    legs: tuple[Leg, ...] = ()
    leg: int = 0
    """Index of the leg being walked."""
    waiting: int | None = None
    """Turns still to wait at the current waypoint; None until it is reached."""
    moved: bool = False
    """Moved this turn."""
    moved_as: Attitude | None = None
    """How it moved this turn (the leg's speed), None if it did not: what a guard sees it do
    (SK-V3, SK-V9), even after it reached its waypoint and stopped."""
    climbed: bool = False
    """Its current leg's climb is done (the climb's fumble roll is made once, SK-N3)."""
    awareness: dict[str, AwarenessState] = field(default_factory=dict)
    """What it knows of each enemy, by name (RULES.md §4)."""
    knows_position: set[str] = field(default_factory=set)
    """Enemies whose position it knows (SK-G3: scouted, or seen)."""

    @property
    def name(self) -> str:
        return self.actor.name

    @property
    def side(self) -> Side:
        return self.actor.side

    @property
    def at(self) -> Point:
        return (self.x, self.y)

    @property
    def current_leg(self) -> Leg | None:
        return self.legs[self.leg] if self.leg < len(self.legs) else None

    def aware_of(self, name: str) -> AwarenessState:
        return self.awareness.get(name, AwarenessState.UNAWARE)

    def learn(self, name: str, state: AwarenessState) -> bool:
        """Raise what it knows of ``name``; True when that is news."""
        before = self.aware_of(name)
        after = before.raised_to(state)
        self.awareness[name] = after
        return after is not before
