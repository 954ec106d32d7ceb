"""One awareness ladder for all three games (RULES.md §4).

Each observer holds, for each target, one state; the state is per observer and per target,
never global. The states are ordered: a later state knows more than an earlier one.
"""

from __future__ import annotations

from enum import StrEnum


class AwarenessState(StrEnum):
    """What one observer knows of one target, from least to most (RULES.md §4)."""

    UNAWARE = "unaware"
    """Does not know the target is there."""
    PRESENCE = "presence"
    """Knows something is there (Starfinder: aware of presence; D&D 3.5: Spot success, DD-3)."""
    DIRECTION = "direction"
    """Knows which way (skirmish: noise heard; D&D 3.5: Listen, DD-5; struck with reach, DD-7)."""
    LOCATION = "location"
    """Knows the square; attacks still suffer the miss chance (pinpointed, DD-4..DD-7)."""
    OBSERVED = "observed"
    """Sees the target (skirmish: seen; Starfinder: observing; D&D 3.5: seen, blindsight DD-15)."""

    @property
    def rank(self) -> int:
        """Position on the ladder, 0 for unaware up to 4 for observed."""
        return _ORDER.index(self)

    def at_least(self, other: AwarenessState) -> bool:
        """True when this state knows at least as much as ``other``."""
        return self.rank >= other.rank

    def raised_to(self, other: AwarenessState) -> AwarenessState:
        """The higher of the two states: knowledge is never lost by a new success."""
        return self if self.rank >= other.rank else other


_ORDER = list(AwarenessState)
