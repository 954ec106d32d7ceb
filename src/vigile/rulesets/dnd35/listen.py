"""Listen against an invisible creature: the direction, or the square on a margin of 20 (DD-5)."""

from __future__ import annotations

from enum import StrEnum
from fractions import Fraction

from vigile.awareness.ladder import AwarenessState
from vigile.checks.verdict import Line, Modifier, Verdict
from vigile.dice.d20 import check_chance, opposed_meet_chance
from vigile.dice.source import FaceSource
from vigile.errors import InputError
from vigile.rulesets.data import RuleData, from_data
from vigile.rulesets.dnd35.common import (
    RULESET,
    as_roll,
    check_bonus,
    check_distance,
    companion,
    distance_steps,
    ft_param,
)

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
    check_bonus(rules, listen_bonus, where="--listen")
    check_distance(rules, distance_ft)
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
            check_bonus(rules, value, where=name)
    check_bonus(rules, armor_penalty, where="--armor-penalty")
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
    extra: dict[str, Fraction | int | None] = {"chance_pinpoint": chance_pinpoint}
    state = AwarenessState.DIRECTION
    roll = None
    success: bool | None = None
    outcome = None
    if source is not None:
        dice: list[tuple[tuple[int, ...], bool]] = []
        dc = dc_part
        if not fixed:
            hider_face = source.face(20)
            dc = hider_face + dc_part
        face = source.face(20)
        result = face + bonus
        success = result >= dc
        if not fixed:
            dice.append(((hider_face,), not success))
        dice.append(((face,), success))
        roll = as_roll(dice, success, source, target=dc - bonus)
        extra |= {"dc": dc, "result": result}
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
        extra=extra,
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
                    "distance": ft_param(distance_ft),
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
