"""What every skirmish check shares: who rolls, how a pool verdict is assembled (SK-D1..SK-D3)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from vigile.awareness.ladder import AwarenessState
from vigile.awareness.vocabulary import TimeOfDay as TimeOfDay
from vigile.checks.verdict import Line, Modifier, Verdict
from vigile.dice.pool import SIDES, die_chance, pool_chance, roll_pool, target_number
from vigile.dice.source import FaceSource
from vigile.rulesets.data import RuleData
from vigile.rulesets.limits import LIMITS, check_bonus, check_count, whole
from vigile.rulesets.limits import check_distance as limits_distance

RULESET = "skirmish"
MAX_DISTANCE_CM = LIMITS.max_distance
"""A kilometre of table: anything farther is a typo (:mod:`vigile.rulesets.limits`)."""


@dataclass(frozen=True)
class Roller:
    """Who rolls: dice in the relevant skill (SK-D1) and a bonus to each die (SK-D2)."""

    dice: int = 1
    bonus: int = 0
    untrained: str | None = None
    """The skill family (``perception``, ``ninjitsu``, ``shadowing``) in which the character has
    no dice, when its one die is SK-D1's untrained die; None when its pool is its skill's, or
    when the caller does not know (a ``vigile check`` names only a number of dice)."""


def check_roller(rules: RuleData, roller: Roller, *, where: str = "--dice") -> None:
    """Refuse a pool of no dice or of too many [SK-D1], or a bonus beyond the limit [SK-D2]
    (:mod:`vigile.rulesets.limits`)."""
    check_count(whole(roller.dice, where=where), LIMITS.max_dice, "dice", where=where, least=1)
    check_bonus(roller.bonus, where="--bonus")


def check_distance(distance_cm: float, *, where: str = "--distance") -> float:
    """Refuse a distance that is negative, not a number, or beyond the limit, in cm."""
    return limits_distance(distance_cm, "cm", where=where)


def bonus_modifier(roller: Roller) -> list[Modifier]:
    """The roller's own bonus to each die, if any [SK-D2]."""
    if roller.bonus == 0:
        return []
    return [Modifier(roller.bonus, "skirmish.die_bonus", "SK-D2", kind="die")]


def pool_lines(roller: Roller, target: int) -> list[Line]:
    """What the pool rules decide for this roll, each with its rule [SK-D1, SK-D3]:

    * a pool of several dice succeeds when any one die reaches the target (SK-D1);
    * an untrained character rolls one die (SK-D1), said when the caller knows it;
    * ``t = difficulty − bonus`` of 1 or less succeeds without a roll (SK-D3);
    * above 6, a die succeeds only on a 6 rolled again against ``t − 1`` (SK-D3), with the
      exact chance of one die, ``(1/6)^(t − 5)``.

    A single trained die against 2+ to 6+ needs no line: the difficulty line says it all.
    """
    if target <= 1:
        return [Line("skirmish.pool.automatic", "SK-D3", {"target": target})]
    lines = []
    if roller.untrained is not None:
        lines.append(Line(f"skirmish.pool.untrained_{roller.untrained}", "SK-D1"))
    if roller.dice > 1:
        lines.append(Line("skirmish.pool.any_die", "SK-D1", {"dice": roller.dice}))
    if target > SIDES:
        per_die = die_chance(target)
        lines.append(
            Line(
                "skirmish.pool.chain",
                "SK-D3",
                {
                    "target": target,
                    "next": target - 1,
                    "per_die": f"{per_die.numerator}/{per_die.denominator}",
                },
            )
        )
    return lines


def pool_verdict(
    *,
    check: str,
    modifiers: Sequence[Modifier],
    roller: Roller,
    source: FaceSource | None,
    outcomes: tuple[str, str],
    notes: Sequence[Line] = (),
    state: AwarenessState | None = None,
    question: str | None = None,
) -> Verdict:
    """Assemble the verdict of a pool of d6 against a difficulty [SK-D1..SK-D3].

    The difficulty is the sum of the base and difficulty modifiers; the die bonus is the sum
    of the die modifiers. ``outcomes`` are the message keys for success and failure. The pool
    rules' own lines (:func:`pool_lines`) follow ``notes``.
    """
    difficulty = sum(m.value for m in modifiers if m.kind in ("base", "difficulty"))
    die_bonus = sum(m.value for m in modifiers if m.kind == "die")
    target = target_number(difficulty, die_bonus)
    chance = pool_chance(roller.dice, target)
    automatic = target <= 1
    roll = None
    success: bool | None = None
    if automatic:
        success = True
    elif source is not None:
        roll = roll_pool(roller.dice, target, source)
        success = roll.success
    return Verdict(
        ruleset=RULESET,
        check=check,
        question=question or f"skirmish.{check}.question",
        chance=chance,
        modifiers=tuple(modifiers),
        notes=(*notes, *pool_lines(roller, target)),
        difficulty=difficulty,
        die_bonus=die_bonus,
        dice=roller.dice,
        automatic=automatic,
        roll=roll,
        success=success,
        outcome=None if success is None else outcomes[0 if success else 1],
        state=state,
    )


def settled_verdict(
    *,
    check: str,
    seen: bool,
    notes: Sequence[Line],
    outcomes: tuple[str, str],
    roller: Roller,
    state: AwarenessState | None = None,
    modifiers: Sequence[Modifier] = (),
    question: str | None = None,
) -> Verdict:
    """A verdict the rules settle without a roll: automatic success, or no chance at all."""
    return Verdict(
        ruleset=RULESET,
        check=check,
        question=question or f"skirmish.{check}.question",
        chance=Fraction(1) if seen else Fraction(0),
        modifiers=tuple(modifiers),
        notes=tuple(notes),
        difficulty=None,
        dice=roller.dice,
        automatic=seen,
        impossible=not seen,
        success=seen,
        outcome=outcomes[0 if seen else 1],
        state=state,
    )
