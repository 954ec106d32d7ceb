"""Hide against Spot for observers who detect or see invisible creatures (DD-20).

One Hide result meets every observer's own Spot roll ([R], as SF-4): the observers are not
independent, so the chance to stay hidden from all is summed over the hider's d20
(:func:`vigile.dice.d20.hidden_from_all_dnd`).
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from fractions import Fraction

from vigile.awareness.ladder import AwarenessState
from vigile.checks.numbers import quoted
from vigile.checks.verdict import Figures, Line, Modifier, Verdict
from vigile.dice.d20 import hidden_from_all_dnd, hidden_from_all_meet
from vigile.dice.roll import rerolled, single
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

OUTCOMES = ("dnd35.hide.hidden", "dnd35.hide.spotted")
OBSERVER_OUTCOMES = ("dnd35.hide.observer_spots", "dnd35.hide.observer_misses")


_NOTES = (
    Line("dnd35.hide.see_invisibility", "DD-19"),
    Line("dnd35.hide.sees_invisible", "DD-20"),
    Line("dnd35.hide.one_roll", "DD-20"),
)
_TIES = Line("dnd35.hide.ties", "DD-20", companion=True)
_TIES_OFF = Line("dnd35.hide.ties_off", "DD-20")
_ALLOWED = {
    "cover": Line("dnd35.hide.allowed_cover", "DD-20"),
    "concealment": Line("dnd35.hide.allowed_concealment", "DD-20"),
    "invisible": Line("dnd35.hide.allowed_invisible", "DD-20"),
}
_NO_SHELTER = Line("dnd35.hide.no_shelter", "DD-20")
_SEEN = Line("dnd35.hide.in_plain_sight", "DD-20")
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
    distance_ft: float | Sequence[float] = 0.0,
    speed: HideSpeed = HideSpeed.HALF,
    size: Size = Size.MEDIUM,
    cover: bool = False,
    concealment: bool = False,
    invisible: bool = True,
    source: FaceSource | None = None,
) -> Verdict:
    """Does the hider stay hidden from every observer who sees invisible creatures? [DD-20]

    Invisibility does not hide from a creature that detects or sees invisible ones: against it
    the normal Hide vs Spot contest applies. Hiding needs cover or concealment: [R] the hider's
    invisibility counts as the concealment it needs (the seed: knowing how to hide is useful
    even when invisible); without cover, concealment nor invisibility no Hide check is allowed,
    and the verdict is refused: every observer sees the hider, no die is rolled. ``invisible``
    is True by default: the check's premise is an invisible hider.
    [C] Hide takes −5 faster than half speed and −20 attacking, running or charging, and a size
    modifier; each Spot takes −1 per 10 ft of its own distance (``distance_ft``: one for every
    observer, or one per observer in order). [C] A tie goes to the higher modifier; with equal
    modifiers the two roll again (an observer then spots with chance exactly 1/2), which does
    not change the Hide result the other observers face. ``chance`` is the chance to stay
    hidden from all; each observer's member verdict has its own chance to spot the hider, and
    reaches ``observed``.

    Rolling order: the hider's Hide d20, then each observer's Spot d20 in the order given; a
    tie between equal modifiers rolls again, the hider's d20 then that observer's, until
    settled, before the next observer rolls.
    """
    check_bonus(hide_bonus, where="--hide")
    if not spot_bonuses:
        raise InputError("give at least one observer's Spot bonus", where="--spot")
    check_count(len(spot_bonuses), LIMITS.max_observers, "observers", where="--spot")
    for bonus in spot_bonuses:
        check_bonus(bonus, where="--spot")
    distances = _distances(rules, distance_ft, len(spot_bonuses))
    reasons = [
        key
        for key, present in (
            ("cover", cover),
            ("concealment", concealment),
            ("invisible", invisible),
        )
        if present
    ]
    if not reasons:
        return _refused(spot_bonuses)
    tie_rule = companion(rules, "opposed_tie_rule")
    notes = [
        *(_NOTES if invisible else _NOTES[2:]),
        *(_ALLOWED[key] for key in reasons),
        _TIES if tie_rule else _TIES_OFF,
    ]
    modifiers = _hider_modifiers(rules, hide_bonus, speed, size)
    own = [_distance_modifier(rules, d) for d in distances]
    if len(set(distances)) == 1 and own[0] is not None:  # one distance: every Spot shares it
        modifiers.append(own[0])
        own = [None] * len(own)
    hider = sum(m.value for m in modifiers if m.kind != "die")
    shared_spot = sum(m.value for m in modifiers if m.kind == "die")
    totals = [
        bonus + shared_spot + (mod.value if mod is not None else 0)
        for bonus, mod in zip(spot_bonuses, own, strict=True)
    ]
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
            modifiers=(
                *shared,
                *(() if mod is None else (mod,)),
                Modifier(bonus, "dnd35.hide.spot_bonus", "DD-20", kind="die"),
            ),
            die_bonus=total,
            dice=0,
            state=observed,
            member_label="dnd35.hide.observer",
            member_params={"index": index, "bonus": bonus},
            dice_kind="opposed",
        )
        for index, (bonus, mod, total, chance) in enumerate(
            zip(spot_bonuses, own, totals, spots, strict=True), start=1
        )
    ]
    success: bool | None = None
    roll = None
    figures = Figures()
    if source is not None:
        face = source.face(20)
        result = face + hider
        figures = Figures(result=result)
        notes.append(Line("dnd35.hide.rolled", "DD-20", {"result": result}))
        members = [
            _roll_observer(member, total, hider, result, tie_rule, source)
            for member, total in zip(members, totals, strict=True)
        ]
        success = not any(m.success for m in members)
        roll = as_roll([single(20, face, success, "hide")], success, source)
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
        figures=figures,
        dice_kind="opposed",
        player_outcome=None if success is None else "dnd35.hide.player_unknown",
    )


def _distances(rules: RuleData, distance_ft: float | Sequence[float], count: int) -> list[float]:
    """One distance for every observer, or one each, checked [DD-20]."""
    if isinstance(distance_ft, int | float):
        return [check_distance(distance_ft)] * count
    if len(distance_ft) != count:
        raise InputError(
            f"{len(distance_ft)} distances for {count} observers: give one distance, "
            "or one per observer in the order of --spot",
            where="--distance",
        )
    return [check_distance(d) for d in distance_ft]


def _refused(spot_bonuses: Sequence[int]) -> Verdict:
    """No Hide check without cover or concealment [DD-20 R]: every observer sees the hider."""
    members = tuple(
        Verdict(
            ruleset=RULESET,
            check="hide",
            question="dnd35.hide.observer_question",
            chance=Fraction(1),
            notes=(_SEEN,),
            die_bonus=bonus,
            dice=0,
            success=True,
            outcome="dnd35.hide.observer_sees",
            state=AwarenessState.OBSERVED,
            member_label="dnd35.hide.observer",
            member_params={"index": index, "bonus": bonus},
            dice_kind="opposed",
        )
        for index, bonus in enumerate(spot_bonuses, start=1)
    )
    return Verdict(
        ruleset=RULESET,
        check="hide",
        question="dnd35.hide.question",
        chance=Fraction(0),
        notes=(_NO_SHELTER,),
        dice=0,
        success=False,
        outcome="dnd35.hide.refused",
        members=members,
        members_key="observers",
        dice_kind="opposed",
        player_notes=(_NO_SHELTER,),
    )


def _hider_modifiers(
    rules: RuleData, hide_bonus: int, speed: HideSpeed, size: Size
) -> list[Modifier]:
    """The hider's side (base and difficulty) [DD-20]."""
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
    return modifiers


def _distance_modifier(rules: RuleData, distance_ft: float) -> Modifier | None:
    """An observer's Spot −1 per 10 ft of its own distance [DD-20 C]; None within 10 ft."""
    steps = distance_steps(rules, "hide.distance_step_ft", distance_ft)
    if not steps or not companion(rules, "hide_distance"):
        return None
    return from_data(
        rules,
        "hide.distance",
        "dnd35.hide.distance",
        "DD-20",
        kind="die",
        times=steps,
        params={"distance": quoted(distance_ft), "step": rules.num("hide.distance_step_ft")},
        companion=True,
    )


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
    dice = [rerolled(20, faces, spots, "spot")]
    if hider_faces:
        dice.append(rerolled(20, hider_faces, not spots, "hide"))
    return Verdict(
        **{
            **member.__dict__,
            "notes": notes,
            "roll": as_roll(dice, spots, source),
            "success": spots,
            "outcome": OBSERVER_OUTCOMES[0 if spots else 1],
            "figures": Figures(result=spot),
        }
    )
