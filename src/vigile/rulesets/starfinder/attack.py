"""Attacks on a creature that is invisible or in total concealment (SF-8), and attacks from
hiding, which catch the target flat-footed (SF-9)."""

from __future__ import annotations

from fractions import Fraction

from vigile.awareness.ladder import AwarenessState
from vigile.checks.verdict import Figures, Line, Verdict
from vigile.dice.d20 import miss_chance_dice, miss_chance_pass
from vigile.dice.roll import Roll
from vigile.dice.source import FaceSource
from vigile.errors import InputError
from vigile.rulesets.data import RuleData
from vigile.rulesets.starfinder.awareness import can_attack
from vigile.rulesets.starfinder.common import RULESET, Ruling

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
