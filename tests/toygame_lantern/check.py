"""The lantern game's check: a glimpse by lantern light (LANT-1), easier on a hurrying
sneak (LANT-2), as far as the watcher's own lantern reaches (LANT-3)."""

from __future__ import annotations

from fractions import Fraction

from toygame_lantern.fields import MAX_REACH
from vigile.awareness.ladder import AwarenessState
from vigile.checks.verdict import Line, Modifier, Verdict
from vigile.dice.pool import pool_chance, roll_pool
from vigile.dice.source import FaceSource
from vigile.errors import InputError
from vigile.rulesets.data import RuleData, from_data


def glimpse_check(
    rules: RuleData,
    *,
    distance: float,
    in_sight: bool = True,
    fast: bool = False,
    reach: float | None = None,
    source: FaceSource | None = None,
) -> Verdict:
    """Does the watcher's lantern show the sneak ``distance`` cm away? [LANT-1, LANT-2], the
    lantern lighting ``reach`` cm where the watcher has its own [LANT-3]."""
    if reach is not None and not 0 <= reach <= MAX_REACH:
        raise InputError(f"{reach:g}: a lantern reaches 0 to {MAX_REACH} cm", where="--reach")
    far = rules.num("lantern.far") if reach is None else reach
    near = distance <= rules.num("lantern.near")
    lit = in_sight and distance <= far
    key = "lantern.near_difficulty" if near else "lantern.far_difficulty"
    reason = "lantern.glimpse.near" if near else "lantern.glimpse.far"
    base = from_data(rules, key, reason, "LANT-1", kind="base")
    hurry = Modifier(-int(rules.num("lantern.hurry")), "lantern.glimpse.hurry", "LANT-2")
    difficulty = base.value + (hurry.value if fast else 0)
    own = () if reach is None else (Line("lantern.glimpse.reach", "LANT-3", {"reach": reach}),)
    dark = () if lit else (Line("lantern.glimpse.dark", "LANT-1"),)
    roll = roll_pool(1, difficulty, source) if source is not None and lit else None
    success = (roll is not None and roll.success) if source is not None else None
    return Verdict(
        ruleset="lantern",
        check="glimpse",
        question="lantern.glimpse.question",
        chance=pool_chance(1, difficulty) if lit else Fraction(0),
        modifiers=(base, hurry) if fast else (base,),
        notes=own + dark,
        difficulty=difficulty,
        dice=1,
        roll=roll,
        success=success,
        outcome=None
        if success is None
        else ("lantern.glimpse.seen" if success else "lantern.glimpse.not_seen"),
        state=AwarenessState.OBSERVED,
    )
