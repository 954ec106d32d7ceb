"""What happens in a game, one event at a time: the log the GM reads and the replay test compares.

An event holds message keys and values, never text: the views translate it (fr, en). Each event
says who perceives it, so a character's view shows only what that character knows.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from vigile.awareness.ladder import AwarenessState
from vigile.checks.verdict import Param, Verdict

DETECTING = (AwarenessState.LOCATION, AwarenessState.OBSERVED)
"""What "detected" counts, in every game (RULES.md §4): knowing an intruder's square, or seeing
it; hearing a noise (direction) or sensing a presence is not a detection."""


@dataclass(frozen=True)
class Perception:
    """What one character now knows of another, as its game's rule says: the typed half of a
    ``perceive`` event, the one thing the simulator reads of a game's log (its located-or-seen
    figures, where the engine's games catch their intruders). A game plug-in records it with
    :meth:`vigile.engine.game.Game.perceives`; a game that never records one has no
    located-or-seen figures, and ``vigile simulate`` says so rather than count none."""

    observer: str
    """Who perceives (a defender watching, an intruder overhearing)."""
    target: str
    """Whom it perceives."""
    state: AwarenessState
    """What it knows of the target now (RULES.md §4)."""
    rule: str | None = None
    """The rule ID that gave it."""

    @property
    def detects(self) -> bool:
        """Whether it is a detection (:data:`DETECTING`)."""
        return self.state in DETECTING


@dataclass(frozen=True)
class Event:
    """One thing that happened in a turn."""

    turn: int
    kind: str
    """``start``, ``patrol``, ``move``, ``action``, ``noise``, ``sight``, ``perceive``,
    ``initiative``, ``alarm``, ``objective``, ``end``."""
    message: str
    """Message key describing it (``engine.event.move``)."""
    params: Mapping[str, Param] = field(default_factory=dict)
    actor: str | None = None
    target: str | None = None
    at: tuple[float, float] | None = None
    verdict: Verdict | None = None
    """The check behind the event, with its whole explanation."""
    perceived_by: frozenset[str] = frozenset()
    """Who knows of it; empty for events everyone knows (the start, the end, a raised alarm)."""
    public: bool = False
    """True when every character knows of it."""
    unnamed: frozenset[tuple[str, str]] = frozenset()
    """(viewer, name): a viewer who perceives the event without knowing who ``name`` (its actor
    or its target, an enemy) is: a noise heard, a blow from an unseen attacker (LP-5). The
    viewer is told "someone"."""
    perception: Perception | None = None
    """What the observer now knows of its target, typed (``perceive`` events)."""

    def known_to(self, name: str) -> bool:
        return self.public or name in self.perceived_by

    def unnamed_for(self, viewer: str) -> frozenset[str]:
        """The names ``viewer`` does not know in this event (LP-5)."""
        return frozenset(name for who, name in self.unnamed if who == viewer)
