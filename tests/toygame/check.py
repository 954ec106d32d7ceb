"""The toy game's one check (TOY-1): one d6 against ``glimpse.difficulty``."""

from __future__ import annotations

from vigile.awareness.ladder import AwarenessState
from vigile.checks.verdict import Verdict
from vigile.dice.pool import pool_chance, roll_pool
from vigile.dice.source import FaceSource
from vigile.rulesets.data import RuleData, from_data

OUTCOMES = ("toy.glimpse.seen", "toy.glimpse.not_seen")


def glimpse_check(rules: RuleData, *, source: FaceSource | None = None) -> Verdict:
    """Does the watcher glimpse the sneak? [TOY-1]"""
    base = from_data(rules, "glimpse.difficulty", "toy.glimpse.base", "TOY-1", kind="base")
    roll = roll_pool(1, base.value, source) if source is not None else None
    success = None if roll is None else roll.success
    return Verdict(
        ruleset="toy",
        check="glimpse",
        question="toy.glimpse.question",
        chance=pool_chance(1, base.value),
        modifiers=(base,),
        difficulty=base.value,
        dice=1,
        roll=roll,
        success=success,
        outcome=None if success is None else OUTCOMES[0 if success else 1],
        state=AwarenessState.OBSERVED,
    )
