"""Spot against an invisible creature: noticed, or pinpointed? (DD-1, DD-3, DD-4). Spot on its
footprints in soft ground: its square, or nothing? (DD-11 [R])."""

from __future__ import annotations

from dataclasses import replace
from enum import StrEnum
from fractions import Fraction

from vigile.awareness.ladder import AwarenessState
from vigile.checks.numbers import quoted
from vigile.checks.verdict import Figures, Line, Modifier, Verdict
from vigile.dice.d20 import check_chance
from vigile.dice.roll import single
from vigile.dice.source import FaceSource
from vigile.rulesets.data import RuleData, from_data
from vigile.rulesets.dnd35.common import (
    RULESET,
    as_roll,
    check_distance,
    companion,
    distance_steps,
)
from vigile.rulesets.dnd35.traits import footprints_in_range
from vigile.rulesets.limits import check_bonus

OUTCOMES = ("dnd35.spot.noticed", "dnd35.spot.not_noticed")
PINPOINT_OUTCOMES = ("dnd35.spot.pinpointed", "dnd35.spot.not_pinpointed")
FOOTPRINTS_OUTCOMES = ("dnd35.footprints.seen", "dnd35.footprints.not_seen")
_INVISIBLE = Line("dnd35.spot.invisible", "DD-1")
_PRESENCE_ONLY = Line("dnd35.spot.presence_only", "DD-3")
_PRINTS = Line("dnd35.footprints.prints", "DD-11")
_PRINTS_SHOW = Line("dnd35.footprints.show_square", "DD-11")
"""Lines are immutable: the ones without parameters are built once."""


class SpotTarget(StrEnum):
    """What the invisible target is or does (DD-3): the stiller, the harder.

    [R] The turn engine and its kernel give a breathing creature that moved this round
    ``moving`` (DC 20) and one that did not ``still`` (DC 30): standing still, it still
    breathes and shifts, the seed's "ne bouge pas (ou presque pas)". ``immobile`` (DC 40, "une
    créature totalement immobile") is for a creature that cannot stir at all (paralysed, held,
    petrified), which the round does not play: the GM names it to ``vigile check dnd35 spot``.
    A construct or an undead (``breathing: false``) is ``non-breathing``, DC 40.
    """

    MOVING = "moving"
    STILL = "still"
    """Not moving, or barely."""
    IMMOBILE = "immobile"
    """Completely immobile."""
    OBJECT = "object"
    NON_BREATHING = "non-breathing"
    """A construct, an undead: a creature that does not breathe."""


def spot_conditions(
    rules: RuleData, *, distance_ft: float, distracted: bool = False
) -> list[Modifier]:
    """Spot's own modifiers to the observer's roll [DD-3 C]: −1 per whole
    ``spot.distance_step_ft`` (``spot.distance``) and ``spot.distracted`` when distracted, each
    while its companion switch is on. Every Spot check reads them here (:func:`spot_check`,
    :func:`footprints_check`), so one reading of Spot holds."""
    modifiers: list[Modifier] = []
    steps = distance_steps(rules, "spot.distance_step_ft", distance_ft)
    if steps and companion(rules, "spot_distance"):
        modifiers.append(
            from_data(
                rules,
                "spot.distance",
                "dnd35.spot.distance",
                "DD-3",
                kind="die",
                times=steps,
                params={
                    "distance": quoted(distance_ft),
                    "step": rules.num("spot.distance_step_ft"),
                },
                companion=True,
            )
        )
    if distracted and companion(rules, "spot_distracted"):
        modifiers.append(
            from_data(
                rules,
                "spot.distracted",
                "dnd35.spot.distracted",
                "DD-3",
                kind="die",
                companion=True,
            )
        )
    return modifiers


def spot_check(
    rules: RuleData,
    *,
    spot_bonus: int,
    distance_ft: float,
    target: SpotTarget,
    pinpoint: bool = False,
    distracted: bool = False,
    source: FaceSource | None = None,
) -> Verdict:
    """Does the observer notice the invisible creature (or pinpoint it)? [DD-1, DD-3, DD-4]

    Sight never sees an invisible creature (DD-1); Spot can notice one within 30 ft (DD-3 [R]:
    30 ft or closer; beyond it no check is possible) against DC 20 moving, 30 still, 40 for an
    object, a non-breathing creature or a completely immobile one. [C] Spot takes −1 per 10 ft
    and −5 when distracted. Success gives ``presence``: something is there, not where. To
    pinpoint (``pinpoint=True``) the DC is +20 (DD-4) and success gives ``location``, with the
    target still in total concealment (50% miss). Unpinpointed, a result of DC + 20 or more
    also pinpoints: ``chance_pinpoint`` is its chance.

    >>> from vigile import load_rules
    >>> verdict = spot_check(load_rules("dnd35"), spot_bonus=8, distance_ft=20,
    ...     target=SpotTarget.MOVING)
    >>> verdict.difficulty, verdict.chance
    (20, Fraction(7, 20))

    Rolling order: one d20, the observer's Spot.
    """
    check_bonus(spot_bonus, where="--spot")
    check_distance(distance_ft)
    distance = quoted(distance_ft)
    range_ft = rules.num("spot.range_ft")
    pinpoint_dc = rules.num("spot.pinpoint")
    state = AwarenessState.LOCATION if pinpoint else AwarenessState.PRESENCE
    outcomes = PINPOINT_OUTCOMES if pinpoint else OUTCOMES
    notes = [_INVISIBLE]
    if distance_ft > range_ft:
        notes.append(
            Line("dnd35.spot.out_of_range", "DD-3", {"distance": distance, "range": range_ft})
        )
        return Verdict(
            ruleset=RULESET,
            check="spot",
            question=f"dnd35.spot.question{'_pinpoint' if pinpoint else ''}",
            chance=Fraction(0),
            notes=tuple(notes),
            impossible=True,
            success=False,
            outcome=outcomes[1],
            state=state,
            figures=Figures(chance_pinpoint=Fraction(0)),
            dice_kind="d20",
            dice=0,
        )
    notes.append(Line("dnd35.spot.in_range", "DD-3", {"distance": distance, "range": range_ft}))
    key = target.value.replace("-", "_")
    modifiers = [from_data(rules, f"spot.dc.{key}", f"dnd35.spot.dc.{key}", "DD-3", kind="base")]
    if pinpoint:
        modifiers.append(from_data(rules, "spot.pinpoint", "dnd35.spot.pinpoint", "DD-4"))
    modifiers.append(Modifier(spot_bonus, "dnd35.spot.bonus", "DD-3", kind="die"))
    modifiers += spot_conditions(rules, distance_ft=distance_ft, distracted=distracted)
    dc = sum(m.value for m in modifiers if m.kind != "die")
    bonus = sum(m.value for m in modifiers if m.kind == "die")
    chance = check_chance(bonus, dc)
    chance_pinpoint = chance if pinpoint else check_chance(bonus, dc + pinpoint_dc)
    miss = rules.num("spot.pinpoint_miss_chance")
    if pinpoint:
        notes.append(Line("dnd35.spot.still_concealed", "DD-4", {"percent": miss}))
    else:
        notes.append(_PRESENCE_ONLY)
        notes.append(Line("dnd35.spot.pinpoint_at", "DD-4", {"dc": dc + pinpoint_dc}))
    figures = Figures(chance_pinpoint=chance_pinpoint)
    roll = None
    success: bool | None = None
    outcome = None
    if source is not None:
        face = source.face(20)
        result = face + bonus
        success = result >= dc
        figures = replace(figures, result=result)
        roll = as_roll([single(20, face, success, "spot")], success, source)
        outcome = outcomes[0 if success else 1]
        if success and not pinpoint and result >= dc + pinpoint_dc:
            state = AwarenessState.LOCATION
            outcome = PINPOINT_OUTCOMES[0]
            notes.append(Line("dnd35.spot.beat_by", "DD-4", {"margin": pinpoint_dc}))
            notes.append(Line("dnd35.spot.still_concealed", "DD-4", {"percent": miss}))
    return Verdict(
        ruleset=RULESET,
        check="spot",
        question=f"dnd35.spot.question{'_pinpoint' if pinpoint else ''}",
        chance=chance,
        modifiers=tuple(modifiers),
        notes=tuple(notes),
        difficulty=dc,
        die_bonus=bonus,
        dice=0,
        roll=roll,
        success=success,
        outcome=outcome,
        state=state,
        figures=figures,
        dice_kind="d20",
    )


def footprints_check(
    rules: RuleData,
    *,
    spot_bonus: int,
    distance_ft: float,
    distracted: bool = False,
    source: FaceSource | None = None,
) -> Verdict:
    """Does the observer see an invisible creature's fresh footprints in soft ground? [DD-11, R]

    The seed: "un sol meuble (sable, boue, etc.) risque de les trahir", a risk, not a
    certainty. [R] An awake sighted observer with a line of sight that does not see invisible
    creatures, within ``tracks.range_ft`` of a creature that moved on soft ground this round,
    makes a Spot check against ``tracks.spot_dc`` (10: the Track feat's DC for very soft
    ground, read on Spot, for it watches the prints appear), with Spot's −1 per 10 ft and −5
    when distracted as :func:`spot_check` reads them (:func:`spot_conditions`). Success shows
    the square (``location``) until the creature moves; failure, nothing this round. Beyond
    ``tracks.range_ft`` (or with it 0: off) no check is made: chance 0, the DC alone reported.
    The caller asks only where the creature moved on soft ground
    (:func:`~vigile.rulesets.dnd35.traits.footprints_left`) and no other sign shows its square
    (:func:`~vigile.rulesets.dnd35.traits.sign_shown`).

    >>> from vigile import load_rules
    >>> verdict = footprints_check(load_rules("dnd35"), spot_bonus=3, distance_ft=15)
    >>> verdict.difficulty, verdict.die_bonus, verdict.chance
    (10, 2, Fraction(13, 20))

    Rolling order: one d20, the observer's Spot.
    """
    check_bonus(spot_bonus, where="--spot")
    check_distance(distance_ft)
    distance = quoted(distance_ft)
    range_ft = rules.num("tracks.range_ft")
    modifiers = [
        from_data(rules, "tracks.spot_dc", "dnd35.footprints.dc", "DD-11", kind="base"),
        Modifier(spot_bonus, "dnd35.footprints.bonus", "DD-11", kind="die"),
        *spot_conditions(rules, distance_ft=distance_ft, distracted=distracted),
    ]
    dc = sum(m.value for m in modifiers if m.kind != "die")
    bonus = sum(m.value for m in modifiers if m.kind == "die")
    notes = [_PRINTS]
    roll = None
    success: bool | None = None
    outcome = None
    figures = Figures()
    if footprints_in_range(rules, distance_ft=distance_ft):
        notes.append(
            Line("dnd35.footprints.in_range", "DD-11", {"distance": distance, "range": range_ft})
        )
        notes.append(_PRINTS_SHOW)
        chance = check_chance(bonus, dc)
        if source is not None:
            face = source.face(20)
            result = face + bonus
            success = result >= dc
            figures = Figures(result=result)
            roll = as_roll([single(20, face, success, "spot")], success, source)
            outcome = FOOTPRINTS_OUTCOMES[0 if success else 1]
    else:
        key = "out_of_range" if range_ft > 0 else "off"
        notes.append(
            Line(f"dnd35.footprints.{key}", "DD-11", {"distance": distance, "range": range_ft})
        )
        modifiers = modifiers[:1]  # no check: the DC alone, nothing to the roll
        bonus = 0
        chance = Fraction(0)
        success = False
        outcome = FOOTPRINTS_OUTCOMES[1]
    return Verdict(
        ruleset=RULESET,
        check="footprints",
        question="dnd35.footprints.question",
        chance=chance,
        modifiers=tuple(modifiers),
        notes=tuple(notes),
        difficulty=dc,
        die_bonus=bonus,
        roll=roll,
        success=success,
        outcome=outcome,
        state=AwarenessState.LOCATION,
        figures=figures,
        dice_kind="d20",
    )
