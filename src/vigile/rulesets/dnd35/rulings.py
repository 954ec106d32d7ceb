"""The rules of invisibility that need no dice, as checks: what a struck character learns
(DD-7), what shows an invisible creature's square (DD-10, DD-11, DD-12, DD-16), how far each
sense reaches (DD-1, DD-13, DD-15, DD-17, DD-19), gaze attacks (DD-18).

Each check wraps the very ruling the turn engine calls (:mod:`vigile.rulesets.dnd35.traits`,
:mod:`vigile.rulesets.senses`) in a verdict: chance 1 when it happens, 0 when it does not, the
awareness state it gives, its reasons with their rule IDs. No die is rolled, so the outcome is
known before any roll; but for footprints in soft ground (DD-11 [R]), which the signs check
reads on the observer's Spot (:func:`vigile.rulesets.dnd35.spot.footprints_check`): one d20.
The rulings' [R] are documented where they live (``traits``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from enum import StrEnum
from fractions import Fraction

from vigile.awareness.ladder import AwarenessState
from vigile.checks.verdict import Line, Verdict
from vigile.dice.source import FaceSource
from vigile.errors import InputError
from vigile.rulesets.data import RuleData
from vigile.rulesets.dnd35 import traits
from vigile.rulesets.dnd35.common import RULESET, check_distance
from vigile.rulesets.dnd35.spot import footprints_check
from vigile.rulesets.limits import check_bonus
from vigile.rulesets.senses import Condition, Sense, best_reach, reach

_SIGNS_OUTCOMES = ("dnd35.signs.shown", "dnd35.signs.nothing")


class Carried(StrEnum):
    """What an invisible creature carries, for DD-10."""

    OWN_GEAR = "own-gear"
    """Its own gear: invisible with it."""
    VISIBLE = "visible"
    """A visible object it picked up: stays visible."""
    TUCKED = "tucked"
    """A small visible object it tucked away: vanishes."""


def _ruling(
    check: str,
    happens: bool,
    notes: Sequence[Line],
    *,
    state: AwarenessState | None,
    outcome: str,
) -> Verdict:
    """A verdict of a rule that needs no dice: it happens (chance 1) or not (chance 0)."""
    return Verdict(
        ruleset=RULESET,
        check=check,
        question=f"dnd35.{check}.question",
        chance=Fraction(int(happens)),
        notes=tuple(notes),
        success=happens,
        outcome=outcome,
        state=state,
        dice_kind="none",
        player_notes=tuple(notes),
    )


def struck_check(
    rules: RuleData,
    *,
    reach_ft: float = traits.SQUARE_FT,
    ranged: bool = False,
    moved_at_once: bool = False,
) -> Verdict:
    """What does a character struck by an invisible creature learn of it? [DD-7]

    Where it is (``location``), unless it has reach over 5 ft (its ``direction``; [C] so does
    a ranged attacker), or [R] it moved at once (``presence``): :func:`traits.struck_by_invisible`,
    as the turn engine asks. It always learns something (``chance`` 1): the verdict's state
    says what.
    """
    state, line = traits.struck_by_invisible(
        rules, reach_ft=reach_ft, ranged=ranged, moved_at_once=moved_at_once
    )
    notes = [line]
    if state is AwarenessState.LOCATION:
        notes.append(Line("dnd35.struck.until_moves", "DD-7"))
    return _ruling(
        "struck",
        True,
        notes,
        state=state,
        outcome=f"dnd35.struck.{state.value}",
    )


def signs_check(
    rules: RuleData,
    *,
    distance_ft: float,
    night: bool = True,
    carried: Carried = Carried.OWN_GEAR,
    floured: bool = False,
    flour_throw_ft: float | None = None,
    flour_miss_ft: float = 0.0,
    light_ft: int = 0,
    moved: bool = False,
    soft_ground: bool = False,
    in_liquid: bool = False,
    spot_bonus: int = 0,
    distracted: bool = False,
    source: FaceSource | None = None,
) -> Verdict:
    """Does something show an invisible creature's square to an observer ``distance_ft`` away?
    [DD-10, DD-11, DD-12, DD-16]

    The observer is awake, sighted, with a line of sight, and does not see invisible creatures.
    A visible object it picked up stays visible, one tucked away vanishes (DD-10); flour thrown
    at it (``flour_throw_ft`` away, at a point ``flour_miss_ft`` from it) covers it as
    :func:`traits.flour_covers` says, or it is ``floured`` already; then
    :func:`traits.sign_shown` decides, as in the turn engine, what shows the square for certain:
    the visible object or the flour, a carried light at night, a liquid it moves through
    (``chance`` 1). Where none does and it moved on soft ground (:func:`traits.footprints_left`),
    its footprints may betray it (DD-11 [R]): the observer's Spot (``spot_bonus``, ``distracted``)
    against ``tracks.spot_dc``, :func:`~vigile.rulesets.dnd35.spot.footprints_check`, whose
    exact chance, DC, modifiers and roll (from ``source``) the verdict carries. Else chance 0.
    """
    check_bonus(spot_bonus, where="--spot")
    check_distance(distance_ft)
    if light_ft < 0:
        raise InputError(f"{light_ft}: a light's radius is 0 or more feet", where="--light")
    notes: list[Line] = []
    visible, line = traits.carried_object_visible(
        picked_up_visible=carried is not Carried.OWN_GEAR, tucked_away=carried is Carried.TUCKED
    )
    notes.append(line)
    if flour_throw_ft is not None:
        check_distance(flour_throw_ft, where="--flour-throw")
        check_distance(flour_miss_ft, where="--flour-miss")
        covers, line = traits.flour_covers(rules, throw_ft=flour_throw_ft, miss_ft=flour_miss_ft)
        notes.append(line)
        floured = floured or covers
    if light_ft:
        notes.append(traits.light_source(lit=True)[1])
    notes.append(traits.tracks(soft_ground=soft_ground)[1])
    conditions = [Condition.INVISIBLE, *([Condition.IN_LIQUID] if in_liquid else [])]
    sign = traits.sign_shown(
        rules,
        distance_ft=distance_ft,
        night=night,
        conditions=conditions,
        visible_object=visible or floured,
        light_ft=light_ft,
        moved=moved,
    )
    if sign is None and traits.footprints_left(soft_ground=soft_ground, moved=moved):
        prints = footprints_check(
            rules,
            spot_bonus=spot_bonus,
            distance_ft=distance_ft,
            distracted=distracted,
            source=source,
        )
        notes += prints.notes
        outcome = None if prints.success is None else _SIGNS_OUTCOMES[not prints.success]
        return replace(
            prints,
            check="signs",
            question="dnd35.signs.question",
            notes=tuple(notes),
            outcome=outcome,
            player_notes=tuple(notes),
        )
    if sign is not None:
        notes.append(sign[1])
        notes.append(Line("dnd35.signs.until_moves", sign[1].rule))
    return _ruling(
        "signs",
        sign is not None,
        notes,
        state=AwarenessState.LOCATION,
        outcome=_SIGNS_OUTCOMES[sign is None],
    )


def senses_check(
    senses: Sequence[Sense], conditions: Iterable[Condition] = (Condition.INVISIBLE,)
) -> Verdict:
    """How far do the observer's senses reach against a target with ``conditions``? [DD-1,
    DD-3, DD-5, DD-6, DD-12, DD-13, DD-15, DD-17, DD-19, SF-11]

    Each sense's reach, as :func:`vigile.rulesets.senses.reach` gives it to the turn engine;
    the verdict's state is the farthest (a check such as Spot or Listen then decides whether the
    observer gets there). Scent tracks the creature as if it were visible (DD-13), unless it is
    ethereal or incorporeal (DD-17). ``chance`` is 1 when some sense tells anything at all.
    """
    if not senses:
        raise InputError("give at least one sense", where="--sense")
    found = tuple(dict.fromkeys(conditions))
    chosen = tuple(dict.fromkeys(senses))
    notes = [reach(sense, found).line for sense in chosen]
    best = best_reach(chosen, found)
    return _ruling(
        "senses",
        not best.blocked,
        notes,
        state=best.state,
        outcome=f"dnd35.senses.{best.state.value}",
    )


def gaze_check(*, invisible: bool) -> Verdict:
    """May the creature use its gaze attack? [DD-18] Not while it is invisible. The turn
    engine plays no gaze attacks (it has no saving throws): this check is where DD-18 is played.
    """
    allowed, line = traits.gaze_attack_allowed(invisible=invisible)
    return _ruling(
        "gaze",
        allowed,
        [line],
        state=None,
        outcome="dnd35.gaze.allowed" if allowed else "dnd35.gaze.refused",
    )
