"""A stealthy move: does the mover fumble and make noise? (SK-N3, SK-D4)."""

from __future__ import annotations

from enum import StrEnum
from fractions import Fraction

from vigile.checks.verdict import Line, Verdict
from vigile.dice.pool import fumble_chance, roll_plain
from vigile.dice.source import FaceSource
from vigile.rulesets.data import RuleData
from vigile.rulesets.skirmish.common import RULESET, Roller, check_roller, settled_verdict

OUTCOMES = ("skirmish.move.silent", "skirmish.move.fumbled")


class Speed(StrEnum):
    HALF = "half"
    FULL = "full"


def move_check(
    rules: RuleData, *, speed: Speed, roller: Roller = Roller(), source: FaceSource | None = None
) -> Verdict:
    """Does a character moving stealthily stay silent? [SK-N3, SK-D4]

    At half speed no roll is needed. Faster, the character rolls its pool once: if every die
    shows 1 it fumbles, and the fumble is a noise of SK-N2 ("fumble", 5+) for every listener.
    """
    check_roller(rules, roller)
    if speed is Speed.HALF:
        return settled_verdict(
            check="move",
            seen=True,
            outcomes=OUTCOMES,
            roller=roller,
            notes=[Line("skirmish.move.half_speed", "SK-N3")],
        )
    notes = (
        Line("skirmish.move.fumble_rule", "SK-D4", {"dice": roller.dice}),
        Line("skirmish.move.fumble_noise", "SK-N3"),
    )
    roll = roll_plain(roller.dice, source) if source is not None else None
    success = None if roll is None else roll.success
    return Verdict(
        ruleset=RULESET,
        check="move",
        question="skirmish.move.question",
        chance=Fraction(1) - fumble_chance(roller.dice),
        notes=notes,
        dice=roller.dice,
        roll=roll,
        success=success,
        outcome=None if success is None else OUTCOMES[0 if success else 1],
    )
