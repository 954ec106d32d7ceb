"""The toy game's one check: a glimpse, one d6 against ``glimpse.difficulty`` (TOY-1), none
beyond ``glimpse.range`` or out of sight (TOY-2)."""

from __future__ import annotations

from fractions import Fraction

from vigile.awareness.ladder import AwarenessState
from vigile.checks.verdict import Line, Verdict
from vigile.dice.pool import pool_chance, roll_pool
from vigile.dice.source import FaceSource
from vigile.rulesets.data import RuleData, from_data

OUTCOMES = ("toy.glimpse.seen", "toy.glimpse.not_seen")


def glimpse_check(
    rules: RuleData,
    *,
    distance: float = 0.0,
    in_sight: bool = True,
    source: FaceSource | None = None,
) -> Verdict:
    """Does the watcher glimpse the sneak ``distance`` cm away? [TOY-1, TOY-2]"""
    base = from_data(rules, "glimpse.difficulty", "toy.glimpse.base", "TOY-1", kind="base")
    reached = in_sight and distance <= rules.num("glimpse.range")
    notes = () if reached else (Line("toy.glimpse.range", "TOY-2"),)
    roll = roll_pool(1, base.value, source) if source is not None and reached else None
    success = (roll is not None and roll.success) if source is not None else None
    return Verdict(
        ruleset="toy",
        check="glimpse",
        question="toy.glimpse.question",
        chance=pool_chance(1, base.value) if reached else Fraction(0),
        modifiers=(base,),
        notes=notes,
        difficulty=base.value,
        dice=1,
        roll=roll,
        success=success,
        outcome=None if success is None else OUTCOMES[0 if success else 1],
        state=AwarenessState.OBSERVED,
    )
