"""Listen against an invisible creature: the direction, or the square on a margin of 20 (DD-5)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from fractions import Fraction

from vigile.awareness.ladder import AwarenessState
from vigile.checks.numbers import quoted
from vigile.checks.verdict import Figures, Line, Modifier, Opposed, Verdict
from vigile.dice.d20 import check_chance, hidden_from_all_meet, opposed_meet_chance
from vigile.dice.roll import Die, single
from vigile.dice.source import FaceSource
from vigile.errors import InputError
from vigile.rulesets.data import RuleData, from_data
from vigile.rulesets.dnd35.common import (
    RULESET,
    as_roll,
    check_distance,
    companion,
    distance_steps,
)
from vigile.rulesets.limits import LIMITS, check_bonus, check_count

OUTCOMES = ("dnd35.listen.heard", "dnd35.listen.not_heard")
PINPOINTED = "dnd35.listen.pinpointed"
_NOTES = (Line("dnd35.listen.free_action", "DD-5"), Line("dnd35.listen.ties", "DD-5"))
"""Lines are immutable: the ones without parameters are built once."""


class ListenSpeed(StrEnum):
    """How fast the invisible creature moves (DD-5 [C])."""

    HALF = "half"
    FULL = "full"
    RUN = "run"
    """Running or charging."""


def listen_check(
    rules: RuleData,
    *,
    listen_bonus: int,
    move_silently: int | None = None,
    dex: int | None = None,
    armor_penalty: int = 0,
    speed: ListenSpeed | None = None,
    speaking: bool = False,
    distance_ft: float = 0.0,
    door: bool = False,
    stone_wall: bool = False,
    distracted: bool = False,
    asleep: bool = False,
    source: FaceSource | None = None,
) -> Verdict:
    """Does the listener hear the invisible creature, and pinpoint it? [DD-5]

    The listener succeeds when its Listen result is at least the DC (ties go to the listener;
    the DD-20 tie rule does not apply), and then knows something invisible is in a certain
    direction; beating the DC by 20 or more pinpoints it (``chance_pinpoint``).
    The DC is the hider's Move Silently result (a creature without ranks rolls Dexterity with
    its armor check penalty, ``armor_penalty`` given as 2 or −2) and, [C] from the same game's
    table: 0 instead when the creature fights or speaks; −4 at full speed, −20 running or
    charging; +1 per 10 ft; +5 behind a door; +15 behind a stone wall; +5 for a distracted
    listener; −10 to the check of an asleep one. [R] The table's speed replaces Move Silently's
    own speed penalties: speed counts once. The DC holds the hider's roll, so both dice are
    random and the chance is exact over both.

    Rolling order: the hider's Move Silently (or Dexterity) d20 first, then the listener's
    Listen d20; with a fixed DC (speaking, DC 0) only the listener's d20.
    """
    check_bonus(listen_bonus, where="--listen")
    check_distance(distance_ft)
    if move_silently is not None and dex is not None:
        raise InputError("give --move-silently or --dex (no ranks), not both", where="--dex")
    if armor_penalty and dex is None:
        raise InputError(
            "only with --dex: a Move Silently bonus already counts the armor",
            where="--armor-penalty",
        )
    if speaking and speed is not None:
        raise InputError(
            "a speaking creature has no --speed; give one or the other", where="--speed"
        )
    table = companion(rules, "listen_dc_table")
    conditions = companion(rules, "listen_conditions")
    fixed = speaking and table
    if not fixed and move_silently is None and dex is None:
        raise InputError(
            "give the hider's --move-silently bonus, or --dex for a creature without ranks",
            where="--move-silently",
        )
    for name, value in (("--move-silently", move_silently), ("--dex", dex)):
        if value is not None:
            check_bonus(value, where=name)
    check_bonus(armor_penalty, where="--armor-penalty")
    notes = list(_NOTES)
    modifiers: list[Modifier] = []
    if fixed:
        modifiers.append(
            from_data(
                rules,
                "listen.speaking",
                "dnd35.listen.speaking",
                "DD-5",
                kind="base",
                companion=True,
            )
        )
    else:
        if speaking:
            notes.append(Line("dnd35.listen.speaking_off", "DD-5"))
        if move_silently is not None:
            modifiers.append(Modifier(move_silently, "dnd35.listen.move_silently", "DD-5", "base"))
        else:
            modifiers.append(Modifier(dex or 0, "dnd35.listen.dex", "DD-5", "base"))
            if armor_penalty:
                modifiers.append(
                    Modifier(-abs(armor_penalty), "dnd35.listen.armor_penalty", "DD-5")
                )
        if table:
            chosen = speed or ListenSpeed.HALF
            modifiers.append(
                from_data(
                    rules,
                    f"listen.{chosen.value}",
                    f"dnd35.listen.speed.{chosen.value}",
                    "DD-5",
                    companion=True,
                )
            )
            notes.append(Line("dnd35.listen.speed_once", "DD-5"))
    if table:
        modifiers += _surroundings(rules, distance_ft, door, stone_wall)
    if conditions and distracted:
        modifiers.append(
            from_data(rules, "listen.distracted", "dnd35.listen.distracted", "DD-5", companion=True)
        )
    modifiers.append(Modifier(listen_bonus, "dnd35.listen.bonus", "DD-5", kind="die"))
    if conditions and asleep:
        modifiers.append(
            from_data(
                rules, "listen.asleep", "dnd35.listen.asleep", "DD-5", kind="die", companion=True
            )
        )
    dc_part = sum(m.value for m in modifiers if m.kind != "die")
    bonus = sum(m.value for m in modifiers if m.kind == "die")
    margin = rules.num("listen.pinpoint_margin")
    if fixed:
        chance = check_chance(bonus, dc_part)
        chance_pinpoint = check_chance(bonus, dc_part + margin)
    else:
        notes.append(Line("dnd35.listen.dc_rolled", "DD-5", {"modifier": dc_part}))
        chance = opposed_meet_chance(bonus, dc_part)
        chance_pinpoint = opposed_meet_chance(bonus, dc_part + margin)
    notes.append(Line("dnd35.listen.pinpoint_rule", "DD-5", {"margin": margin}))
    figures = Figures(chance_pinpoint=chance_pinpoint)
    state = AwarenessState.DIRECTION
    roll = None
    success: bool | None = None
    outcome = None
    if source is not None:
        dice: list[Die] = []
        dc = dc_part
        if not fixed:
            hider_face = source.face(20)
            dc = hider_face + dc_part
        face = source.face(20)
        result = face + bonus
        success = result >= dc
        if not fixed:
            dice.append(single(20, hider_face, not success, "move_silently"))
        dice.append(single(20, face, success, "listen"))
        roll = as_roll(dice, success, source)
        figures = replace(figures, dc=dc, result=result)
        notes.append(Line("dnd35.listen.rolled", "DD-5", {"dc": dc, "result": result}))
        outcome = OUTCOMES[0 if success else 1]
        if result >= dc + margin:
            state = AwarenessState.LOCATION
            outcome = PINPOINTED
    return Verdict(
        ruleset=RULESET,
        check="listen",
        question="dnd35.listen.question",
        chance=chance,
        modifiers=tuple(modifiers),
        notes=tuple(notes),
        difficulty=dc_part if fixed else None,
        die_bonus=bonus,
        dice=0,
        roll=roll,
        success=success,
        outcome=outcome,
        state=state,
        figures=figures,
        dice_kind="d20" if fixed else "opposed",
    )


def _surroundings(
    rules: RuleData, distance_ft: float, door: bool, stone_wall: bool
) -> list[Modifier]:
    """Distance, a door, a stone wall between listener and creature [DD-5 [C]]."""
    modifiers = []
    steps = distance_steps(rules, "listen.distance_step_ft", distance_ft)
    if steps:
        modifiers.append(
            from_data(
                rules,
                "listen.distance",
                "dnd35.listen.distance",
                "DD-5",
                times=steps,
                params={
                    "distance": quoted(distance_ft),
                    "step": rules.num("listen.distance_step_ft"),
                },
                companion=True,
            )
        )
    if door:
        modifiers.append(
            from_data(rules, "listen.door", "dnd35.listen.door", "DD-5", companion=True)
        )
    if stone_wall:
        modifiers.append(
            from_data(rules, "listen.stone_wall", "dnd35.listen.stone_wall", "DD-5", companion=True)
        )
    return modifiers


@dataclass(frozen=True)
class Listener:
    """One listener of a group Listen check (DD-5): its bonus and its own surroundings."""

    listen_bonus: int
    distance_ft: float = 0.0
    door: bool = False
    stone_wall: bool = False
    distracted: bool = False
    asleep: bool = False


_ONE_ROLL = Line("dnd35.listen.one_roll", "DD-20")
ALL_OUTCOMES = ("dnd35.listen.unheard_by_all", "dnd35.listen.heard_by_some")


def listen_all_check(
    rules: RuleData,
    *,
    listeners: Sequence[Listener],
    move_silently: int | None = None,
    dex: int | None = None,
    armor_penalty: int = 0,
    speed: ListenSpeed | None = None,
    speaking: bool = False,
    source: FaceSource | None = None,
) -> Verdict:
    """Does the invisible creature stay unheard by every listener? [DD-5, DD-20 R]

    One Move Silently result meets every listener's own Listen roll ([R] DD-20, as SF-4): each
    listener's DC is that one result with its own distance, door, stone wall and distraction,
    and each rolls its own d20 (:func:`listen_check` gives each member's DC and chance). The
    listeners are not independent: ``chance``, the chance that none hears it, is summed over
    the creature's d20. When the creature fights or speaks (DC 0) there is no shared roll and
    the listeners are independent.

    Rolling order: the creature's Move Silently d20 (none at DC 0), then each listener's
    Listen d20 in the order given.
    """
    if not listeners:
        raise InputError("give at least one listener's Listen bonus", where="--listen")
    check_count(len(listeners), LIMITS.max_observers, "listeners", where="--listen")
    members = [
        listen_check(
            rules,
            listen_bonus=one.listen_bonus,
            move_silently=move_silently,
            dex=dex,
            armor_penalty=armor_penalty,
            speed=speed,
            speaking=speaking,
            distance_ft=one.distance_ft,
            door=one.door,
            stone_wall=one.stone_wall,
            distracted=one.distracted,
            asleep=one.asleep,
        )
        for one in listeners
    ]
    fixed = members[0].difficulty is not None
    parts = [
        m.difficulty
        if m.difficulty is not None
        else sum(x.value for x in m.modifiers if x.kind != "die")
        for m in members
    ]
    if fixed:
        unheard = Fraction(1)
        for member in members:
            unheard *= 1 - member.chance
    else:
        unheard, _ = hidden_from_all_meet(
            0, [m.die_bonus - p for m, p in zip(members, parts, strict=True)]
        )
    members = [
        replace(m, member_label="dnd35.listen.listener", member_params={"index": i, "bonus": b})
        for i, (m, b) in enumerate(
            zip(members, (x.listen_bonus for x in listeners), strict=True), start=1
        )
    ]
    notes = [] if fixed else [_ONE_ROLL]
    roll = None
    success: bool | None = None
    figures = Figures(opposed=None if fixed else Opposed("move_silently"))
    if source is not None:
        face = None if fixed else source.face(20)
        margin = rules.num("listen.pinpoint_margin")
        members = [
            _roll_listener(m, p if face is None else face + p, margin, face, source)
            for m, p in zip(members, parts, strict=True)
        ]
        success = not any(m.success for m in members)
        if face is not None:
            figures = Figures(opposed=Opposed("move_silently", face))
            notes.append(Line("dnd35.listen.move_silently_rolled", "DD-5", {"face": face}))
            roll = as_roll([single(20, face, success, "move_silently")], success, source)
    return Verdict(
        ruleset=RULESET,
        check="listen",
        question="dnd35.listen.all_question",
        chance=unheard,
        notes=tuple(notes),
        dice=0,
        roll=roll,
        success=success,
        outcome=None if success is None else ALL_OUTCOMES[0 if success else 1],
        state=AwarenessState.UNAWARE,
        members=tuple(members),
        members_key="listeners",
        figures=figures,
        dice_kind="opposed",
        player_outcome=None if success is None else "dnd35.listen.player_unknown",
    )


def _roll_listener(
    member: Verdict, dc: int, margin: int, hider_face: int | None, source: FaceSource
) -> Verdict:
    """One listener's d20 against its DC, the shared Move Silently result in it [DD-5]."""
    face = source.face(20)
    result = face + member.die_bonus
    heard = result >= dc
    pinpointed = result >= dc + margin
    figures = replace(
        member.figures,
        dc=dc,
        result=result,
        opposed=None if hider_face is None else Opposed("move_silently", hider_face),
    )
    return replace(
        member,
        notes=(*member.notes, Line("dnd35.listen.rolled", "DD-5", {"dc": dc, "result": result})),
        roll=as_roll([single(20, face, heard, "listen")], heard, source),
        success=heard,
        outcome=PINPOINTED if pinpointed else OUTCOMES[0 if heard else 1],
        state=AwarenessState.LOCATION if pinpointed else AwarenessState.DIRECTION,
        figures=figures,
    )
