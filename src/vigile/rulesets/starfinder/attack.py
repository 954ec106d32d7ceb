"""Attacks on a creature that is invisible or in total concealment (SF-8), and attacks from
hiding, which catch the target flat-footed (SF-9)."""

from __future__ import annotations

from fractions import Fraction

from vigile.awareness.ladder import AwarenessState
from vigile.checks.verdict import Figures, Line, Modifier, Verdict
from vigile.dice.d20 import miss_chance_dice, miss_chance_pass
from vigile.dice.roll import Roll
from vigile.dice.source import FaceSource
from vigile.errors import InputError
from vigile.rulesets.attack_roll import AttackRoll
from vigile.rulesets.data import RuleData, from_data
from vigile.rulesets.limits import check_ac, check_bonus
from vigile.rulesets.starfinder.awareness import can_attack
from vigile.rulesets.starfinder.common import RULESET, Ruling, one_d20

OUTCOMES = ("starfinder.attack.lands", "starfinder.attack.stopped")
_BLIND_FIGHT = Line("starfinder.attack.blind_fight", "SF-8", companion=True)


def attack_check(
    rules: RuleData,
    *,
    miss_chance: int | None = None,
    blind_fight: bool = False,
    awareness: AwarenessState = AwarenessState.LOCATION,
    source: FaceSource | None = None,
) -> Verdict:
    """Does the miss chance let the blow through? [SF-8, SF-11]

    The attacker must have located the target (aware of its location) or observe it: unaware
    of it, or aware only of its presence, it cannot attack, and the verdict is refused (SF-8,
    SF-11). A located target keeps total concealment: a d% of 1 to ``miss_chance`` (50 by
    default, from the data file) stops the blow. Blind-Fight is not in the Starfinder seed: as a
    companion/house option (``companion.blind_fight``), it rolls the miss chance twice and the
    blow is stopped only if both rolls miss. ``chance`` is the chance the blow is not stopped.
    """
    if blind_fight and not rules.flag("companion.blind_fight"):
        raise InputError(
            "Blind-Fight is switched off by the house rules (companion.blind_fight = false)",
            where="--blind-fight",
        )
    if miss_chance is None:
        miss_chance = 0 if awareness is AwarenessState.OBSERVED else rules.num("attack.miss_chance")
    if isinstance(miss_chance, bool) or not isinstance(miss_chance, int):
        raise InputError(f"{miss_chance!r} is not a whole percent", where="--miss-chance")
    if not 0 <= miss_chance <= 100:
        raise InputError(f"{miss_chance}% is not a percent (0 to 100)", where="--miss-chance")
    ruling = can_attack(awareness)
    if not ruling.allowed:
        return Verdict(
            ruleset=RULESET,
            check="attack",
            question="starfinder.attack.question",
            chance=Fraction(0),
            notes=(ruling.line,),
            impossible=True,
            success=False,
            outcome="starfinder.attack.not_located",
            figures=Figures(miss_chance=miss_chance, miss_rolls=0),
            dice_kind="percentile",
            player_notes=(ruling.line,),
        )
    notes = [
        ruling.line,
        Line(
            "starfinder.attack.miss_rule",
            "SF-8",
            {"percent": miss_chance, "pass": 100 - miss_chance},
        ),
    ]
    if blind_fight:
        notes.append(_BLIND_FIGHT)
    rolls = 2 if blind_fight else 1
    roll = None
    success: bool | None = None
    if source is not None:
        dice = miss_chance_dice([source.face(100) for _ in range(rolls)], miss_chance)
        success = any(d.success for d in dice)
        roll = Roll(dice, success, source.given)
    return Verdict(
        ruleset=RULESET,
        check="attack",
        question="starfinder.attack.question",
        chance=miss_chance_pass(miss_chance, blind_fight),
        notes=tuple(notes),
        automatic=miss_chance == 0,
        roll=roll,
        success=success,
        outcome=None if success is None else OUTCOMES[0 if success else 1],
        state=awareness,
        figures=Figures(miss_chance=miss_chance, miss_rolls=rolls),
        dice_kind="percentile",
    )


def flat_footed(
    *, hidden: bool, first_attack: bool, still_invisible: bool = False, located: bool = False
) -> Ruling:
    """Is the creature flat-footed against your attack from hiding? [SF-9]

    Against your first attack from hiding, if you were hidden from it. After that, only while
    you remain invisible and until it locates you with Perception.
    """
    if not hidden:
        return Ruling(False, Line("starfinder.attack.not_hidden", "SF-9"))
    if first_attack:
        return Ruling(True, Line("starfinder.attack.flat_footed_first", "SF-9"))
    if still_invisible and not located:
        return Ruling(True, Line("starfinder.attack.flat_footed_invisible", "SF-9"))
    if located:
        return Ruling(False, Line("starfinder.attack.flat_footed_located", "SF-9"))
    return Ruling(False, Line("starfinder.attack.flat_footed_visible", "SF-9"))


ROLL_OUTCOMES = ("starfinder.attack_roll.hit", "starfinder.attack_roll.miss")


def attack_roll_check(
    rules: RuleData,
    *,
    attack: int,
    ac: int,
    flat_footed: Ruling | None = None,
    source: FaceSource | None = None,
) -> Verdict:
    """Does the attack roll hit the target's AC? [SF-9]

    d20 + ``attack`` against ``ac``; a natural 1 always misses and a natural 20 always hits.
    ``flat_footed``: the ruling of :func:`flat_footed` for an attack from hiding; when it holds,
    the target takes [C] the flat-footed penalty to its AC (``attack.flat_footed_ac``, −2 in
    the Starfinder Core Rulebook's conditions; the seed names the condition only), and its
    reason is noted either way. A hit is then subject to any miss chance (:func:`attack_check`).

    Rolling order: one d20, the attack roll.
    """
    check_bonus(attack, where="--attack")
    check_ac(ac, where="--ac")
    modifiers = [
        Modifier(ac, "starfinder.attack_roll.ac", "SF-9", kind="base"),
        Modifier(attack, "starfinder.attack_roll.bonus", "SF-9", kind="die"),
    ]
    notes: list[Line] = []
    if flat_footed is not None:
        notes.append(flat_footed.line)
        if flat_footed.allowed:
            modifiers.append(
                from_data(
                    rules,
                    "attack.flat_footed_ac",
                    "starfinder.attack_roll.flat_footed",
                    "SF-9",
                    companion=True,
                )
            )
    aim = AttackRoll.of(modifiers, least_ac=0)
    notes.append(Line("starfinder.attack_roll.natural", "SF-9", aim.need))
    roll = None
    success: bool | None = None
    figures = Figures()
    if source is not None:
        face = source.face(20)
        success = aim.hits(face)
        figures = aim.figures(face)
        roll = one_d20(face, success, source.given, "attack")
    return Verdict(
        ruleset=RULESET,
        check="attack_roll",
        question="starfinder.attack_roll.question",
        chance=aim.chance,
        modifiers=tuple(modifiers),
        notes=tuple(notes),
        difficulty=aim.ac,
        die_bonus=aim.bonus,
        roll=roll,
        success=success,
        outcome=None if success is None else ROLL_OUTCOMES[0 if success else 1],
        state=None,
        figures=figures,
        dice_kind="d20",
    )
