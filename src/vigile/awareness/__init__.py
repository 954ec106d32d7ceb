"""The awareness ladder shared by every ruleset (RULES.md §4)."""

from vigile.awareness.ladder import AwarenessState

__all__ = ["AwarenessState"]
