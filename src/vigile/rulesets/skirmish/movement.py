"""A stealthy move: does the mover fumble and make noise? (SK-N3, SK-D4)."""

from __future__ import annotations

from enum import StrEnum
from fractions import Fraction

from vigile.checks.verdict import Line, Verdict
from vigile.dice.pool import fumble_chance, roll_plain
from vigile.dice.source import FaceSource
from vigile.rulesets.data import RuleData
from vigile.rulesets.skirmish.common import RULESET, Roller, check_roller, settled_verdict
from vigile.rulesets.skirmish.sight import Attitude

OUTCOMES = ("skirmish.move.silent", "skirmish.move.fumbled")

_RATE_KEY = {Attitude.FAST: "turn.fast_cm", Attitude.HALF: "turn.half_cm"}


def turn_rate(rules: RuleData, speed: Attitude, move: float | None = None) -> float:
    """How far a character moves in one turn at ``speed`` [R, the turn engine's ruling].

    The data file gives the rates of an ordinary character (``[turn]``: fast, half, hidden);
    a character with its own ``move`` (its fast rate) scales all three by ``move / fast_cm``.
    The one home of this ruling: the engine, the simulator's schedule and the route ask it.
    An immobile character does not move: asking its rate is an error of the caller.
    """
    if speed is Attitude.IMMOBILE:
        raise ValueError("an immobile character does not move")
    rate = float(rules.num(_RATE_KEY.get(speed, "turn.hidden_cm")))
    if move is None:
        return rate
    return rate * float(move) / float(rules.num("turn.fast_cm"))


def rolls_for_fumble(speed: Attitude) -> bool:
    """A move faster than half speed rolls the pool for a fumble; half speed or slower needs no
    roll [SK-N3]."""
    return speed is Attitude.FAST


class Speed(StrEnum):
    HALF = "half"
    FULL = "full"


def move_check(
    rules: RuleData, *, speed: Speed, roller: Roller = Roller(), source: FaceSource | None = None
) -> Verdict:
    """Does a character moving stealthily stay silent? [SK-N3, SK-D4]

    At half speed no roll is needed. Faster, the character rolls its pool once: if every die
    shows 1 it fumbles, and the fumble is a noise of SK-N2 ("fumble", 5+) for every listener.
    An untrained character's pool is one die (SK-D1), said when the roller knows it.
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
    untrained = (
        [Line(f"skirmish.pool.untrained_{roller.untrained}", "SK-D1")] if roller.untrained else []
    )
    notes = (
        *untrained,
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
