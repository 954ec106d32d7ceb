"""Hide against Spot for observers who detect or see invisible creatures (DD-20).

One Hide result meets every observer's own Spot roll ([R], as SF-4): the observers are not
independent, so the chance to stay hidden from all is summed over the hider's d20
(:func:`vigile.dice.d20.hidden_from_all_dnd`).
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from vigile.awareness.ladder import AwarenessState
from vigile.checks.verdict import Line, Modifier, Verdict
from vigile.dice.d20 import hidden_from_all_dnd, hidden_from_all_meet
from vigile.dice.source import FaceSource
from vigile.errors import InputError, LimitError
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

OUTCOMES = ("dnd35.hide.hidden", "dnd35.hide.spotted")
OBSERVER_OUTCOMES = ("dnd35.hide.observer_spots", "dnd35.hide.observer_misses")


_NOTES = (Line("dnd35.hide.sees_invisible", "DD-20"), Line("dnd35.hide.one_roll", "DD-20"))
_TIES = Line("dnd35.hide.ties", "DD-20", companion=True)
_TIES_OFF = Line("dnd35.hide.ties_off", "DD-20")
"""Lines are immutable: the ones without parameters are built once."""


class HideSpeed(StrEnum):
    """How fast the hider moves (DD-20 [C])."""

    HALF = "half"
    """At most half speed: no penalty."""
    FULL = "full"
    """Faster than half speed."""
    RUN = "run"
    """Attacking, running or charging."""


class Size(StrEnum):
    """The hider's size category (DD-20 [C]: Hide size modifiers)."""

    FINE = "fine"
    DIMINUTIVE = "diminutive"
    TINY = "tiny"
    SMALL = "small"
    MEDIUM = "medium"
    LARGE = "large"
    HUGE = "huge"
    GARGANTUAN = "gargantuan"
    COLOSSAL = "colossal"


def hide_check(
    rules: RuleData,
    *,
    hide_bonus: int,
    spot_bonuses: Sequence[int],
    distance_ft: float = 0.0,
    speed: HideSpeed = HideSpeed.HALF,
    size: Size = Size.MEDIUM,
    source: FaceSource | None = None,
) -> Verdict:
    """Does the hider stay hidden from every observer who sees invisible creatures? [DD-20]

    Invisibility does not hide from a creature that detects or sees invisible ones: against it
    the normal Hide vs Spot contest applies. [C] Hide takes −5 faster than half speed and −20
    attacking, running or charging, and a size modifier; each Spot takes −1 per 10 ft. [C] A
    tie goes to the higher modifier; with equal modifiers the two roll again (an observer then
    spots with chance exactly 1/2), which does not change the Hide result the other observers
    face. ``chance`` is the chance to stay hidden from all; each observer's member verdict has
    its own chance to spot the hider, and reaches ``observed``.

    Rolling order: the hider's Hide d20, then each observer's Spot d20 in the order given; a
    tie between equal modifiers rolls again, the hider's d20 then that observer's, until
    settled, before the next observer rolls.
    """
    check_bonus(rules, hide_bonus, where="--hide")
    check_distance(rules, distance_ft)
    if not spot_bonuses:
        raise InputError("give at least one observer's Spot bonus", where="--spot")
    limit = rules.num("limits.max_observers")
    if len(spot_bonuses) > limit:
        raise LimitError(f"--spot: {len(spot_bonuses)} observers; at most {limit}")
    for bonus in spot_bonuses:
        check_bonus(rules, bonus, where="--spot")
    tie_rule = companion(rules, "opposed_tie_rule")
    notes = [*_NOTES, _TIES if tie_rule else _TIES_OFF]
    modifiers = _hider_modifiers(rules, hide_bonus, speed, size, distance_ft)
    hider = sum(m.value for m in modifiers if m.kind != "die")
    shared_spot = sum(m.value for m in modifiers if m.kind == "die")
    totals = [bonus + shared_spot for bonus in spot_bonuses]
    if tie_rule:
        hidden, spots = hidden_from_all_dnd(hider, totals)
    else:  # ties to the hider: the observer must beat the Hide result
        hidden, spots = hidden_from_all_meet(hider + 1, totals)
    observed = AwarenessState.OBSERVED
    shared = tuple(modifiers)
    members = [
        Verdict(
            ruleset=RULESET,
            check="hide",
            question="dnd35.hide.observer_question",
            chance=chance,
            modifiers=(*shared, Modifier(bonus, "dnd35.hide.spot_bonus", "DD-20", kind="die")),
            die_bonus=total,
            dice=0,
            state=observed,
            member_label="dnd35.hide.observer",
            member_params={"index": index, "bonus": bonus},
            dice_kind="opposed",
        )
        for index, (bonus, total, chance) in enumerate(
            zip(spot_bonuses, totals, spots, strict=True), start=1
        )
    ]
    success: bool | None = None
    roll = None
    extra: dict[str, int] = {}
    if source is not None:
        face = source.face(20)
        result = face + hider
        extra["result"] = result
        notes.append(Line("dnd35.hide.rolled", "DD-20", {"result": result}))
        members = [
            _roll_observer(member, total, hider, result, tie_rule, source)
            for member, total in zip(members, totals, strict=True)
        ]
        success = not any(m.success for m in members)
        roll = as_roll([((face,), success)], success, source)
    return Verdict(
        ruleset=RULESET,
        check="hide",
        question="dnd35.hide.question",
        chance=hidden,
        modifiers=shared,
        notes=tuple(notes),
        die_bonus=shared_spot,
        dice=0,
        roll=roll,
        success=success,
        outcome=None if success is None else OUTCOMES[0 if success else 1],
        state=AwarenessState.UNAWARE,
        members=tuple(members),
        members_key="observers",
        extra=extra,
        dice_kind="opposed",
    )


def _hider_modifiers(
    rules: RuleData, hide_bonus: int, speed: HideSpeed, size: Size, distance_ft: float
) -> list[Modifier]:
    """The hider's side (base and difficulty) and what every Spot shares (die) [DD-20]."""
    modifiers = [Modifier(hide_bonus, "dnd35.hide.bonus", "DD-20", kind="base")]
    if speed is not HideSpeed.HALF and companion(rules, "hide_speed"):
        modifiers.append(
            from_data(
                rules,
                f"hide.{speed.value}",
                f"dnd35.hide.speed.{speed.value}",
                "DD-20",
                companion=True,
            )
        )
    if size is not Size.MEDIUM and companion(rules, "hide_size"):
        modifiers.append(
            from_data(
                rules,
                f"hide.size.{size.value}",
                f"dnd35.hide.size.{size.value}",
                "DD-20",
                companion=True,
            )
        )
    steps = distance_steps(rules, "hide.distance_step_ft", distance_ft)
    if steps and companion(rules, "hide_distance"):
        modifiers.append(
            from_data(
                rules,
                "hide.distance",
                "dnd35.hide.distance",
                "DD-20",
                kind="die",
                times=steps,
                params={
                    "distance": ft_param(distance_ft),
                    "step": rules.num("hide.distance_step_ft"),
                },
                companion=True,
            )
        )
    return modifiers


def _roll_observer(
    member: Verdict, total: int, hider: int, result: int, tie_rule: bool, source: FaceSource
) -> Verdict:
    """One observer's Spot against the shared Hide result [DD-20]."""
    face = source.face(20)
    spot = face + total
    faces = [face]
    hider_faces: list[int] = []
    notes: tuple[Line, ...] = ()
    if spot != result:
        spots = spot > result
    elif not tie_rule:
        spots = False
    elif total != hider:
        spots = total > hider
        notes = (Line("dnd35.hide.tie_modifier", "DD-20", {"result": result}),)
    else:  # equal totals and modifiers: this pair rolls again until settled
        again_hider = again_observer = 0
        while again_hider == again_observer:
            again_hider = source.face(20)
            again_observer = source.face(20)
            hider_faces.append(again_hider)
            faces.append(again_observer)
        spots = again_observer > again_hider
        notes = (Line("dnd35.hide.tie_reroll", "DD-20", {"result": result}),)
    dice: list[tuple[tuple[int, ...], bool]] = [(tuple(faces), spots)]
    if hider_faces:
        dice.append((tuple(hider_faces), not spots))
    return Verdict(
        **{
            **member.__dict__,
            "notes": notes,
            "roll": as_roll(dice, spots, source),
            "success": spots,
            "outcome": OBSERVER_OUTCOMES[0 if spots else 1],
            "extra": {"result": spot},
        }
    )
