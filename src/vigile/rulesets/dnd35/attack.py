"""Groping for an invisible creature, and attacking one (DD-6, DD-8, DD-9, DD-12, DD-14..DD-17).

Both checks keep the player's secret: a miss reads the same to the player whatever its cause
(an empty square, a failed touch attack, the miss chance), while the GM view says which.
"""

from __future__ import annotations

from dataclasses import replace
from enum import StrEnum
from fractions import Fraction
from functools import partial

from vigile.awareness.ladder import AwarenessState
from vigile.checks.verdict import Figures, Line, Modifier, Verdict
from vigile.dice.d20 import miss_chance_dice, miss_chance_pass
from vigile.dice.roll import Die, single
from vigile.dice.source import FaceSource
from vigile.errors import InputError
from vigile.rulesets.attack_roll import NATURAL_HIT, NATURAL_MISS, AttackRoll
from vigile.rulesets.data import RuleData
from vigile.rulesets.dnd35.common import RULESET, as_roll, companion
from vigile.rulesets.dnd35.traits import extra_damage_lines
from vigile.rulesets.dnd35.traits import invisible_attacker as attacker_gains
from vigile.rulesets.limits import check_ac, check_bonus

GROPE_OUTCOMES = ("dnd35.grope.found", "dnd35.grope.not_found")


class Square(StrEnum):
    """Where an attack on an unlocated invisible creature lands (DD-9)."""

    CORRECT = "correct"
    """The player named the creature's square."""
    WRONG = "wrong"
    """The creature is not there."""


def check_miss_chance(percent: int, *, where: str = "--miss-chance") -> int:
    """Refuse a miss chance that is not a whole percent within 0..100."""
    if isinstance(percent, bool) or not isinstance(percent, int) or not 0 <= percent <= 100:
        raise InputError(f"{percent!r} is not a miss chance (a percent within 0..100)", where=where)
    return percent


def grope_check(
    rules: RuleData,
    *,
    touch_attack: int,
    touch_ac: int,
    occupied: bool = True,
    source: FaceSource | None = None,
) -> Verdict:
    """Does groping two adjacent 5-ft squares pinpoint the invisible creature? [DD-6]

    A standard action: a touch attack (hand or weapon) into two adjacent squares. [C] The touch
    attack is rolled against the creature's touch AC, a natural 1 always missing and a natural
    20 always hitting; on a hit the 50% miss chance is rolled. A connecting touch deals no
    damage but pinpoints the creature (``location``) until it moves. ``occupied=False``: no
    creature is there; the dice are rolled all the same, and the player learns only that
    nothing was found.

    Rolling order: the touch attack d20, then (on a hit) the d100 miss chance. With the
    companion touch attack switched off, only the d100.
    """
    check_bonus(touch_attack, where="--touch-attack")
    check_ac(touch_ac, where="--touch-ac")
    miss = check_miss_chance(rules.num("grope.miss_chance"), where="grope.miss_chance")
    touch = companion(rules, "grope_touch_attack")
    aim = AttackRoll(touch_ac, touch_attack)
    notes = [Line("dnd35.grope.action", "DD-6")]
    modifiers: list[Modifier] = []
    chance_touch = Fraction(1)
    if touch:
        modifiers = [
            Modifier(touch_ac, "dnd35.grope.touch_ac", "DD-6", kind="base", companion=True),
            Modifier(touch_attack, "dnd35.grope.touch_attack", "DD-6", kind="die", companion=True),
        ]
        chance_touch = aim.chance
        notes.append(Line("dnd35.grope.natural", "DD-6", aim.need, companion=True))
    notes.append(Line("dnd35.grope.miss_chance", "DD-6", {"percent": miss}))
    notes.append(Line("dnd35.grope.until_moves", "DD-6"))
    if not occupied:
        notes.append(Line("dnd35.grope.empty", "DD-6"))
    chance = chance_touch * miss_chance_pass(miss) if occupied else Fraction(0)
    roll = None
    success: bool | None = None
    outcome = None
    player_outcome = None
    if source is not None:
        dice: list[Die] = []
        hit = True
        if touch:
            face = source.face(20)
            hit = aim.hits(face)
            dice.append(single(20, face, hit, "touch_attack"))
            if not hit:
                notes.append(Line("dnd35.grope.touch_missed", "DD-6", companion=True))
        if hit:
            percent_face = source.face(100)
            connects = percent_face > miss
            dice.append(single(100, percent_face, connects, "miss_chance"))
            if not connects:
                notes.append(Line("dnd35.grope.miss_chance_struck", "DD-6"))
            hit = connects
        success = hit and occupied
        roll = as_roll(dice, success, source)
        outcome = GROPE_OUTCOMES[0 if success else 1]
        player_outcome = "dnd35.grope.found" if success else "dnd35.grope.player_nothing"
    return Verdict(
        ruleset=RULESET,
        check="grope",
        question="dnd35.grope.question",
        chance=chance,
        modifiers=tuple(modifiers),
        notes=tuple(notes),
        die_bonus=touch_attack if touch else 0,
        dice=0,
        impossible=not occupied,
        roll=roll,
        success=success,
        outcome=outcome,
        state=AwarenessState.LOCATION,
        figures=Figures(chance_touch=chance_touch, miss_chance=miss),
        dice_kind="d20",
        player_notes=(Line("dnd35.grope.player_action", "DD-6"),),
        player_outcome=player_outcome,
    )


def attack_check(
    rules: RuleData,
    *,
    miss_chance: int,
    blind_fight: bool = False,
    blindsight: bool = False,
    in_liquid: bool = False,
    square: Square | None = None,
    incorporeal: bool = False,
    source: FaceSource | None = None,
) -> Verdict:
    """Does the miss chance spare a blow at an invisible creature? [DD-8, DD-9, DD-12, DD-14,
    DD-15, DD-17]

    A located creature is attacked normally with total concealment: ``miss_chance`` (50%, the
    GM may lower it for a slow or very large creature, DD-8). Not located (``square`` given),
    the player names a square: the right one resolves normally; a wrong one rolls the miss
    chance anyway and reports a miss, and the player view of it is the very same as a miss
    from the miss chance on the right square (DD-9). In a liquid the creature has only
    concealment: [C] 20% at most (DD-12). Blind-Fight rolls the miss chance twice and the blow
    lands unless both miss (DD-14). Blindsight attacks with no miss chance (DD-15). Neither
    Blind-Fight nor blindsight works on an incorporeal creature (DD-17).
    ``chance`` is the chance that the miss chance does not stop the blow; the attack roll
    itself against AC is resolved normally, outside this check.

    Rolling order: the d100 miss chance, twice with Blind-Fight (both always rolled, so the
    dice used tell nothing); nothing with blindsight.
    """
    check_miss_chance(miss_chance)
    if blindsight and square is not None:
        raise InputError(
            "blindsight locates the creature (DD-15): there is no square to guess",
            where="--blindsight",
        )
    notes: list[Line] = []
    default = rules.num("attack.total_concealment")
    percent = miss_chance
    if square is None:
        notes.append(Line("dnd35.attack.located", "DD-8", {"percent": miss_chance}))
    else:
        notes.append(Line("dnd35.attack.named_square", "DD-9", {"percent": miss_chance}))
    if miss_chance != default:
        notes.append(
            Line(
                "dnd35.attack.gm_miss_chance", "DD-8", {"percent": miss_chance, "default": default}
            )
        )
    if in_liquid:
        if companion(rules, "in_liquid_miss_chance"):
            percent = min(percent, rules.num("attack.in_liquid"))
            notes.append(Line("dnd35.attack.in_liquid", "DD-12", {"percent": percent}, True))
        else:
            notes.append(Line("dnd35.attack.in_liquid_gm", "DD-12", {"percent": percent}))
    sighted = blindsight
    if blindsight and incorporeal:
        notes.append(Line("dnd35.attack.blindsight_incorporeal", "DD-17"))
        sighted = False
    elif blindsight:
        notes.append(Line("dnd35.attack.blindsight", "DD-15"))
        percent = 0
    fighting = blind_fight and not sighted
    if blind_fight and incorporeal:
        notes.append(Line("dnd35.attack.blind_fight_incorporeal", "DD-17"))
        fighting = False
    elif fighting:
        notes.append(Line("dnd35.attack.blind_fight", "DD-14", {"percent": percent}))
    wrong = square is Square.WRONG
    if wrong:
        notes.append(Line("dnd35.attack.square_wrong", "DD-9"))
    elif square is Square.CORRECT:
        notes.append(Line("dnd35.attack.square_correct", "DD-9"))
    chance = Fraction(0) if wrong else miss_chance_pass(percent, fighting)
    player_notes = (
        Line("dnd35.attack.player_square", "DD-9")
        if square is not None
        else Line("dnd35.attack.player_located", "DD-8"),
    )
    roll = None
    success: bool | None = None
    outcome = None
    player_outcome = None
    if sighted:
        success, outcome, player_outcome = True, "dnd35.attack.lands", "dnd35.attack.player_lands"
    elif source is not None:
        faces = [source.face(100) for _ in range(2 if fighting else 1)]
        spared = any(face > percent for face in faces)
        success = spared and not wrong
        roll = as_roll(miss_chance_dice(faces, percent), success, source)
        if success:
            outcome = "dnd35.attack.lands"
        elif wrong:
            outcome = "dnd35.attack.wrong_square_miss"
        else:
            outcome = "dnd35.attack.miss_chance_struck"
        player_outcome = "dnd35.attack.player_lands" if success else "dnd35.attack.player_miss"
    return Verdict(
        ruleset=RULESET,
        check="attack",
        question="dnd35.attack.question",
        chance=chance,
        notes=tuple(notes),
        dice=0,
        automatic=sighted,
        impossible=wrong,
        roll=roll,
        success=success,
        outcome=outcome,
        state=AwarenessState.OBSERVED if sighted else AwarenessState.LOCATION,
        figures=Figures(miss_chance=percent, blind_fight=fighting),
        dice_kind="percentile",
        player_notes=player_notes,
        player_outcome=player_outcome,
    )


ROLL_OUTCOMES = ("dnd35.attack_roll.hit", "dnd35.attack_roll.miss")


def attack_roll_check(
    rules: RuleData,
    *,
    attack: int,
    ac: int,
    dex: int = 0,
    invisible_attacker: bool = False,
    sees_invisible: bool = False,
    invisible_target: bool = False,
    sneak_attack: int = 0,
    favored_enemy: int = 0,
    source: FaceSource | None = None,
) -> Verdict:
    """Does the attack roll hit the target's AC? [DD-21, DD-2, DD-6]

    d20 + ``attack`` against ``ac``; [C] as for the grope's touch attack (DD-6), a natural 1
    always misses and a natural 20 always hits. An invisible attacker against an opponent who
    can't see it (``invisible_attacker``, and not ``sees_invisible``) gets +2 and the opponent
    loses its Dexterity bonus to AC (``dex``, when positive: a penalty stays) [DD-21 C].
    Attacking an invisible target (``invisible_target``): its invisibility stops sneak attack
    and a favored enemy's extra damage, not critical hits, which the verdict notes (a natural
    20 threatens a critical that applies) [DD-2]. A hit is then subject to the miss chance
    (:func:`attack_check`). The attacker's extra damage on a hit is noted where a rule decides
    it: ``sneak_attack`` dice apply against a target denied its Dexterity bonus by the
    invisible attacker (DD-21 [C]) and never against an invisible target, nor does a
    ``favored_enemy`` bonus (DD-2); no damage is rolled (the round's hit points, optional,
    take a fixed ``damage``: LP-7 [R]).

    Rolling order: one d20, the attack roll.
    """
    check_bonus(attack, where="--attack")
    check_ac(ac, where="--ac")
    check_bonus(dex, where="--dex")
    denied_dex = False
    modifiers = [
        Modifier(ac, "dnd35.attack_roll.ac", "DD-8", kind="base"),
        Modifier(attack, "dnd35.attack_roll.bonus", "DD-8", kind="die"),
    ]
    notes: list[Line] = []
    if invisible_attacker:
        gains, lines = attacker_gains(rules, defender_sees_invisible=sees_invisible)
        modifiers.extend(gains)
        notes.extend(lines)
        denied_dex = bool(gains)
        if gains and dex > 0:
            modifiers.append(
                Modifier(
                    -dex,
                    "dnd35.attack_roll.no_dex",
                    "DD-21",
                    params={"dex": dex},
                    companion=True,
                )
            )
    aim = AttackRoll.of(modifiers)
    notes.append(Line("dnd35.attack_roll.natural", "DD-6", aim.need, companion=True))
    if invisible_target:
        notes.append(Line("dnd35.traits.damage.sneak_attack", "DD-2"))
        notes.append(Line("dnd35.traits.damage.favored_enemy", "DD-2"))
    notes.extend(
        extra_damage_lines(
            sneak_attack=sneak_attack,
            favored_enemy=favored_enemy,
            invisible_target=invisible_target,
            denied_dex=denied_dex,
        )
    )
    roll = None
    success: bool | None = None
    outcome = None
    figures = Figures()
    if source is not None:
        face = source.face(20)
        success = aim.hits(face)
        figures = aim.figures(face)
        if face == NATURAL_HIT:
            notes.append(Line("dnd35.attack_roll.natural_20", "DD-6", companion=True))
            if invisible_target:
                notes.append(Line("dnd35.attack_roll.critical", "DD-2"))
        elif face == NATURAL_MISS:
            notes.append(Line("dnd35.attack_roll.natural_1", "DD-6", companion=True))
        roll = as_roll([single(20, face, success, "attack")], success, source)
        outcome = ROLL_OUTCOMES[0 if success else 1]
    return Verdict(
        ruleset=RULESET,
        check="attack_roll",
        question="dnd35.attack_roll.question",
        chance=aim.chance,
        modifiers=tuple(modifiers),
        notes=tuple(notes),
        difficulty=aim.ac,
        die_bonus=aim.bonus,
        dice=0,
        roll=roll,
        success=success,
        outcome=outcome,
        figures=figures,
        dice_kind="d20",
    )


SQUARE_OUTCOMES = {
    "lands": "dnd35.attack.lands",
    "roll": "dnd35.attack_square.roll_missed",
    "wrong": "dnd35.attack.wrong_square_miss",
    "miss": "dnd35.attack.miss_chance_struck",
}


def attack_square_check(
    rules: RuleData,
    *,
    square: Square,
    miss_chance: int,
    attack: int = 0,
    ac: int | None = None,
    dex: int = 0,
    invisible_attacker: bool = False,
    sees_invisible: bool = False,
    blind_fight: bool = False,
    in_liquid: bool = False,
    incorporeal: bool = False,
    sneak_attack: int = 0,
    favored_enemy: int = 0,
    source: FaceSource | None = None,
) -> Verdict:
    """An attack on a named square: does it hit the creature? [DD-9, DD-8, DD-21, DD-2]

    The player names a square for a creature it has not located. The creature there
    (``square=CORRECT``): the attack resolves normally, its attack roll against ``ac`` (none
    when ``ac`` is None) as :func:`attack_roll_check` says, then the miss chance of total
    concealment as :func:`attack_check` says. Nobody there (``WRONG``): the attack roll and the
    miss chance are rolled all the same and a miss is reported. The player's view is the same
    for every miss, a wrong square, a missed attack roll or the miss chance: "you strike at the
    square you named → you miss" (DD-9); the GM's view says which. ``chance`` is the chance to
    hit: the attack roll's times the miss chance's, 0 on a wrong square. The creature there is
    invisible: the attacker's ``sneak_attack`` and ``favored_enemy`` do not apply (DD-2).

    Rolling order: the attack roll's d20 (on a wrong square too; none against a creature
    without ``ac``), then the d100 miss chance (twice with Blind-Fight), always rolled, even
    after a missed attack roll, so that the dice tell nothing.
    """
    wrong = square is Square.WRONG
    attack_roll = partial(
        attack_roll_check,
        rules,
        attack=attack,
        ac=ac or 0,
        dex=dex,
        invisible_attacker=invisible_attacker,
        sees_invisible=sees_invisible,
        invisible_target=True,
        sneak_attack=sneak_attack,
        favored_enemy=favored_enemy,
    )
    hit_check = None if ac is None or wrong else attack_roll()
    if wrong:
        check_bonus(attack, where="--attack")
    miss_check = partial(
        attack_check,
        rules,
        miss_chance=miss_chance,
        blind_fight=blind_fight,
        in_liquid=in_liquid,
        square=square,
        incorporeal=incorporeal,
    )
    miss = miss_check()
    chance = Fraction(0) if wrong else miss.chance * (hit_check.chance if hit_check else 1)
    notes = [*(hit_check.notes if hit_check else ()), *miss.notes]
    if wrong:
        notes.insert(0, Line("dnd35.attack_square.rolled_anyway", "DD-9"))
    roll = None
    success: bool | None = None
    outcome = None
    player_outcome = None
    figures = miss.figures
    if source is not None:
        dice: list[Die] = []
        hit = True
        if hit_check is not None:
            rolled = attack_roll(source=source)
            hit = bool(rolled.success)
            dice.extend(rolled.roll.dice if rolled.roll else ())
            notes = [*rolled.notes, *miss.notes]
            figures = replace(figures, dc=rolled.figures.dc, result=rolled.figures.result)
        elif wrong:
            face = source.face(20)
            dice.append(single(20, face, False, "attack"))
        spared = miss_check(source=source)
        dice.extend(spared.roll.dice if spared.roll else ())
        success = hit and bool(spared.success) and not wrong
        if wrong:
            key = "wrong"
        elif not hit:
            key = "roll"
        else:
            key = "lands" if success else "miss"
        outcome = SQUARE_OUTCOMES[key]
        roll = as_roll(dice, success, source)
        player_outcome = "dnd35.attack.player_lands" if success else "dnd35.attack.player_miss"
    return Verdict(
        ruleset=RULESET,
        check="attack_square",
        question="dnd35.attack_square.question",
        chance=chance,
        modifiers=hit_check.modifiers if hit_check else (),
        notes=tuple(notes),
        difficulty=hit_check.difficulty if hit_check else None,
        die_bonus=hit_check.die_bonus if hit_check else 0,
        dice=0,
        impossible=wrong,
        roll=roll,
        success=success,
        outcome=outcome,
        state=AwarenessState.LOCATION,
        figures=figures,
        dice_kind="d20" if hit_check or wrong else "percentile",
        player_notes=(Line("dnd35.attack.player_square", "DD-9"),),
        player_outcome=player_outcome,
    )
