"""What a rolled D&D 3.5 check gives the character who made it, on the ladder (RULES.md §4).

The turn engine asks here which state a check reached and which rule says so, instead of
choosing a rule ID itself: Spot notices (DD-3) or pinpoints (DD-4), Listen gives the direction
or the square (DD-5), Spot against Hide observes (DD-20), groping pinpoints (DD-6), Spot on
footprints in soft ground shows the square (DD-11 [R]).
"""

from __future__ import annotations

from vigile.awareness.ladder import AwarenessState
from vigile.checks.verdict import Verdict

_RULES: dict[tuple[str, AwarenessState], str] = {
    ("spot", AwarenessState.PRESENCE): "DD-3",
    ("spot", AwarenessState.LOCATION): "DD-4",
    ("listen", AwarenessState.DIRECTION): "DD-5",
    ("listen", AwarenessState.LOCATION): "DD-5",
    ("hide", AwarenessState.OBSERVED): "DD-20",
    ("grope", AwarenessState.LOCATION): "DD-6",
    ("footprints", AwarenessState.LOCATION): "DD-11",
}


def reached(verdict: Verdict) -> tuple[AwarenessState, str] | None:
    """The state a rolled check's success gives the one who made it, with its rule ID; None
    when it failed, was not rolled, or gives no state [DD-3..DD-6, DD-20]."""
    if not verdict.success or verdict.state is None:
        return None
    rule = _RULES.get((verdict.check, verdict.state))
    return None if rule is None else (verdict.state, rule)
