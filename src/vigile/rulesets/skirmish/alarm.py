"""The alarm's initiative roll: does a guard who detected an intruder raise the alarm? (SK-G5)."""

from __future__ import annotations

from fractions import Fraction

from vigile.awareness.ladder import AwarenessState
from vigile.checks.verdict import Line, Verdict
from vigile.dice.roll import Roll, single
from vigile.dice.source import FaceSource
from vigile.rulesets.data import RuleData
from vigile.rulesets.skirmish.common import RULESET

OUTCOMES = ("skirmish.alarm.raised", "skirmish.alarm.struck_first")


def alarm_chance(rules: RuleData) -> Fraction:
    """Exact chance that the guard's d6 beats (or, by default, ties) the intruder's d6 [SK-G5]."""
    ties = rules.flag("alarm.guard_wins_ties")
    wins = sum(1 for g in range(1, 7) for i in range(1, 7) if g > i or (ties and g == i))
    return Fraction(wins, 36)


def within_reach(rules: RuleData, distance_cm: float) -> bool:
    """Whether an intruder this far from the guard who detected him is within striking reach,
    so that initiative decides who acts first [SK-G5; ``alarm.strike_reach_cm``, 5 cm or
    closer by default: the example's ninja is 5 cm behind the guard]. Beyond it the guard
    cries the alarm, with no roll."""
    return distance_cm <= rules.num("alarm.strike_reach_cm")


def struck_guard_sees(rules: RuleData) -> AwarenessState | None:
    """What a guard struck by an intruder, and not silenced by the blow, knows of him
    [SK-G5 R: the texts have no combat; the house rule ``alarm.struck_sees``, on by default]:
    he sees his attacker (``observed``: a detection, and the alarm's roll follows), or, the
    rule off, the blow teaches him nothing the melee's noise does not (None)."""
    return AwarenessState.OBSERVED if rules.flag("alarm.struck_sees") else None


def striker_knows(rules: RuleData) -> AwarenessState | None:
    """What an intruder who strikes or kills a guard knows of him [SK-G5 R: the house rule
    ``alarm.striker_knows``, on by default]: where he stood (``observed``), or, the rule off,
    no more than before (None)."""
    return AwarenessState.OBSERVED if rules.flag("alarm.striker_knows") else None


def alarm_check(rules: RuleData, *, source: FaceSource | None = None) -> Verdict:
    """The guard and the intruder each roll 1d6; the guard raises the alarm on ≥ [SK-G5].

    Once raised, every defender is on alert (SK-N6, SK-V4): the turn engine applies that.
    The guard's die is read first, then the intruder's.
    """
    ties = rules.flag("alarm.guard_wins_ties")
    notes = [
        Line("skirmish.alarm.rule" if ties else "skirmish.alarm.rule_strict", "SK-G5"),
        Line("skirmish.alarm.all_alert", "SK-G5"),
    ]
    roll = None
    success = None
    if source is not None:
        guard, intruder = source.face(6), source.face(6)
        success = guard > intruder or (ties and guard == intruder)
        roll = Roll(
            (single(6, guard, success, "guard"), single(6, intruder, not success, "intruder")),
            success,
            source.given,
        )
    return Verdict(
        ruleset=RULESET,
        check="alarm",
        question="skirmish.alarm.question",
        chance=alarm_chance(rules),
        notes=tuple(notes),
        dice=2,
        roll=roll,
        success=success,
        outcome=None if success is None else OUTCOMES[0 if success else 1],
    )
