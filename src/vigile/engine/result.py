"""How a game ended, and everything that happened in it."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Literal

from vigile.engine.events import Event
from vigile.engine.state import Walker
from vigile.scene.model import Scenario

OutcomeKind = Literal["objective", "alarm", "turn_limit", "detected", "lost"]
"""What ended the game in the engine: the objective reached, the alarm (when it ends the
game), the turn limit, the intruders caught or the follower noticed (``detected``), the trail
lost (``lost``)."""


class Ending(StrEnum):
    """How a game ended, in the one vocabulary of the engine's outcome, the simulator's tallies,
    the sweep's columns and the plots (:attr:`Outcome.ending`)."""

    OBJECTIVE_UNSEEN = "objective_unseen"
    """The objective was reached and no defender ever located or saw an intruder."""
    OBJECTIVE_DETECTED = "objective_detected"
    """The objective was reached; a defender located or saw an intruder, but no alarm was
    raised (every one who saw was silenced first)."""
    OBJECTIVE_AFTER_ALARM = "objective_after_alarm"
    """The objective was reached after the alarm (SK-G5: the game goes on after it)."""
    ALARM = "alarm"
    """The alarm ended the game: a scenario whose alarm ends it, or a d20 game that reached its
    round limit after the alarm."""
    TURN_LIMIT = "turn_limit"
    """The turn limit came first."""
    CAUGHT = "caught"
    """Every intruder was caught (d20 games), or the follower was noticed (shadowing)."""
    LOST = "lost"
    """The follower lost the trail (shadowing)."""


@dataclass(frozen=True)
class Outcome:
    """Why the game ended (``objective`` reached, ``alarm`` raised, ``turn_limit``), on which
    turn, and whether no defender ever detected an intruder (``unseen``)."""

    kind: OutcomeKind
    turn: int
    unseen: bool
    by: tuple[str, ...] = ()
    """Who raised the alarm, reached the objective, caught or lost someone."""
    after_alarm: bool = False
    """The alarm had been raised before the game ended (SK-G5: the game goes on after it)."""

    @property
    def ending(self) -> Ending:
        """How the game ended, in the simulator's vocabulary."""
        if self.kind == "objective":
            if self.after_alarm:
                return Ending.OBJECTIVE_AFTER_ALARM
            return Ending.OBJECTIVE_UNSEEN if self.unseen else Ending.OBJECTIVE_DETECTED
        return Ending.CAUGHT if self.kind == "detected" else Ending(self.kind)


@dataclass
class GameResult:
    """The whole game: the scenario, the event log, the outcome and the final state."""

    scenario: Scenario
    events: list[Event]
    outcome: Outcome
    walkers: list[Walker]
