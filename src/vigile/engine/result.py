"""How a game ended, and everything that happened in it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from vigile.engine.events import Event
from vigile.engine.state import Walker
from vigile.scene.model import Scenario

OutcomeKind = Literal["objective", "alarm", "turn_limit", "detected", "lost"]


@dataclass(frozen=True)
class Outcome:
    """Why the game ended (``objective`` reached, ``alarm`` raised, ``turn_limit``), on which
    turn, and whether no defender ever detected an intruder (``unseen``)."""

    kind: OutcomeKind
    turn: int
    unseen: bool
    by: str = ""
    """Who raised the alarm, or who reached the objective."""
    after_alarm: bool = False
    """The alarm had been raised before the game ended (SK-G5: the game goes on after it)."""


@dataclass
class GameResult:
    """The whole game: the scenario, the event log, the outcome and the final state."""

    scenario: Scenario
    events: list[Event]
    outcome: Outcome
    walkers: list[Walker]
