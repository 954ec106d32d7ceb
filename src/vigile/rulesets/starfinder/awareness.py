"""The four states of awareness and the unseen (SF-5, SF-8, SF-11), on the shared ladder.

Starfinder's states map onto RULES.md §4: unaware → ``unaware``, aware of presence →
``presence``, aware of location → ``location``, observing → ``observed`` (Starfinder has no
``direction``; where it meets one from another game it counts as presence). Each function maps
a situation to a state and says why with a :class:`~vigile.checks.verdict.Line` citing its rule;
these are pure functions for the scenario engine, which runs them turn by turn.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from vigile.awareness.ladder import AwarenessState
from vigile.checks.verdict import Line
from vigile.errors import InputError
from vigile.rulesets.senses import Sense
from vigile.rulesets.starfinder.common import Ruling

MAX_CHECKS = 1000


@dataclass(frozen=True)
class StateChange:
    """One observer's state before and after something happened, and why."""

    before: AwarenessState
    after: AwarenessState
    line: Line


def noticed_state(total_concealment: bool) -> AwarenessState:
    """The state of an observer who beats your Stealth [SF-5]: it observes you, or, where you
    have total concealment (invisible, or in total concealment), only locates you."""
    return AwarenessState.LOCATION if total_concealment else AwarenessState.OBSERVED


def observer_outcome(
    noticed: bool,
    *,
    total_concealment: bool,
    keeps_shelter: bool = True,
    before: AwarenessState = AwarenessState.UNAWARE,
) -> StateChange:
    """Where one observer stands after your hide check [SF-5].

    A success observes you (or locates you, under total concealment); knowledge is never lost
    by a success. A failure treats you as having total concealment while you keep real cover
    or concealment: you are hidden from it, unaware [R]. Once you lose them, it sees you again,
    unless you are still invisible (then you stay unseen, SF-11).
    """
    if noticed:
        after = before.raised_to(noticed_state(total_concealment))
        key = "locates" if after is AwarenessState.LOCATION else "observes"
        return StateChange(before, after, Line(f"starfinder.awareness.{key}", "SF-5"))
    if keeps_shelter:
        return StateChange(
            before, AwarenessState.UNAWARE, Line("starfinder.awareness.fails_hidden", "SF-5")
        )
    if total_concealment:
        return StateChange(
            before,
            AwarenessState.UNAWARE,
            Line("starfinder.awareness.out_of_cover_invisible", "SF-11", companion=True),
        )
    return StateChange(
        before, AwarenessState.OBSERVED, Line("starfinder.awareness.out_of_cover_seen", "SF-5")
    )


def refused_outcome(before: AwarenessState = AwarenessState.UNAWARE) -> StateChange:
    """Where an observer stands when no Stealth check was allowed [SF-2]: it observes you."""
    return StateChange(
        before, AwarenessState.OBSERVED, Line("starfinder.awareness.plain_sight", "SF-2")
    )


def is_unseen(state: AwarenessState) -> bool:
    """A creature you are unaware of, or aware of only by presence or location, is unseen
    [SF-11]; only observing it makes it seen."""
    return state is not AwarenessState.OBSERVED


def unseen_effects(
    state: AwarenessState, *, blindsense: bool = False, miss_chance: int = 50
) -> tuple[Line, ...]:
    """What being unseen by an observer gives the creature [SF-11]: total concealment (its
    miss chance), the observer flat-footed against its attacks, and the +40/+20 of SF-7,
    negated for an observer with blindsense."""
    if not is_unseen(state):
        return (Line("starfinder.awareness.seen", "SF-11", companion=True),)
    return (
        Line(
            "starfinder.awareness.unseen_concealment",
            "SF-11",
            {"percent": miss_chance},
            companion=True,
        ),
        Line("starfinder.awareness.unseen_flat_footed", "SF-11", companion=True),
        Line(
            "starfinder.awareness.unseen_blindsense"
            if blindsense
            else "starfinder.awareness.unseen_stealth_bonus",
            "SF-11",
            companion=True,
        ),
    )


def can_attack(state: AwarenessState) -> Ruling:
    """May an observer attack an unseen creature? [SF-8, SF-11]

    Not while unaware of it or aware only of its presence: it must first pinpoint it with
    Perception. Located, it attacks with the miss chance of total concealment; observing, normally.
    """
    if state is AwarenessState.OBSERVED:
        return Ruling(True, Line("starfinder.awareness.attack_observed", "SF-11", companion=True))
    if state is AwarenessState.LOCATION:
        return Ruling(True, Line("starfinder.awareness.attack_located", "SF-8"))
    return Ruling(False, Line("starfinder.awareness.attack_unlocated", "SF-8"))


def perception_success(
    before: AwarenessState, sense: Sense, *, target_invisible: bool = False
) -> StateChange:
    """One successful Perception check against an unseen creature [SF-11].

    A precise sense (sight on a visible creature, blindsight) observes it. Sight cannot reach an
    invisible creature: nothing changes. Blindsense pinpoints on the first success (location).
    Another imprecise sense (hearing, scent) goes one step [R]: unaware → presence, then a
    pinpointing check → location. A success never lowers the state.
    """
    if sense in (Sense.SIGHT, Sense.DARKVISION) and target_invisible:
        return StateChange(before, before, Line("starfinder.awareness.sight_blocked", "SF-11"))
    if sense.precise:
        after = AwarenessState.OBSERVED
        key = "precise"
    elif sense is Sense.BLINDSENSE:
        after = before.raised_to(AwarenessState.LOCATION)
        key = "blindsense"
    elif before is AwarenessState.UNAWARE:
        after = AwarenessState.PRESENCE
        key = "imprecise_presence"
    else:
        after = before.raised_to(AwarenessState.LOCATION)
        key = "imprecise_location"
    return StateChange(before, after, Line(f"starfinder.awareness.{key}", "SF-11", companion=True))


def adjacent_melee_attack(before: AwarenessState) -> StateChange:
    """An unseen creature that attacks you in melee from an adjacent square reveals its
    location [SF-11]; one you observe stays observed."""
    return StateChange(
        before,
        before.raised_to(AwarenessState.LOCATION),
        Line("starfinder.awareness.adjacent_melee", "SF-11", companion=True),
    )


def vanished(before: AwarenessState) -> StateChange:
    """An observer who saw you become invisible [SF-11, R]: you are unseen by it now, but it
    is aware of the square you vanished in (``location``)."""
    return StateChange(
        before,
        AwarenessState.LOCATION,
        Line("starfinder.awareness.vanishes", "SF-11", companion=True),
    )


def location_lost(before: AwarenessState = AwarenessState.LOCATION) -> StateChange:
    """A creature an observer was aware of the location of (SF-5, SF-11) moved: the square is
    where it *was* (LP-2). [R] The observer stays aware of its presence only (Starfinder's
    ladder has no direction) and must succeed at Perception again to locate it."""
    return StateChange(
        before,
        AwarenessState.PRESENCE,
        Line("starfinder.awareness.location_lost", "SF-11", companion=True),
    )


def ranged_attack_from_unseen(before: AwarenessState) -> StateChange:
    """Struck by a ranged attack from an unseen creature [SF-11, R]: you know something is
    there (``presence``), not where; only an adjacent melee attack reveals the square."""
    return StateChange(
        before,
        before.raised_to(AwarenessState.PRESENCE),
        Line("starfinder.awareness.ranged_attack", "SF-11", companion=True),
    )


def state_chances_after(
    success: Fraction,
    checks: int,
    sense: Sense,
    *,
    target_invisible: bool = False,
    start: AwarenessState = AwarenessState.UNAWARE,
) -> dict[AwarenessState, Fraction]:
    """Exact chance of each state after ``checks`` Perception checks, each succeeding with
    chance ``success`` and moving the state as :func:`perception_success` says [SF-11].

    For the scenario engine (an observer searching turn after turn); the states reached are
    ordered, so the chance to pinpoint is never above the chance to notice.
    """
    if not 0 <= success <= 1:
        raise InputError(f"{success} is not a chance (0 to 1)", where="success")
    if not 0 <= checks <= MAX_CHECKS:
        raise InputError(f"{checks}: 0 to {MAX_CHECKS} checks", where="checks")
    dist: dict[AwarenessState, Fraction] = {start: Fraction(1)}
    for _ in range(checks):
        nxt: dict[AwarenessState, Fraction] = {}
        for state, p in dist.items():
            after = perception_success(state, sense, target_invisible=target_invisible).after
            nxt[after] = nxt.get(after, Fraction(0)) + p * success
            nxt[state] = nxt.get(state, Fraction(0)) + p * (1 - success)
        dist = {s: p for s, p in nxt.items() if p}
    return {s: dist.get(s, Fraction(0)) for s in AwarenessState}
