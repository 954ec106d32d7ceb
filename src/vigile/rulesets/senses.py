"""The senses, what blocks them, and the highest awareness state each can reach (RULES.md §4).

Ruleset-neutral: a sense meets a target's conditions (invisible, ethereal, incorporeal, in a
liquid, not breathing, making noise) and reaches at best one state of the ladder, with the
reason and the rule that says so. A check (Spot, Listen, a Perception roll) then decides
whether the observer really gets there; this module only says how far the sense can go.

Rules cited: DD-1 (no sight sees an invisible creature, darkvision included), DD-3/DD-4
(Spot notices, and at +20 pinpoints, an invisible creature), DD-5 (hearing), DD-6 (touch),
DD-12 (a creature in a liquid betrays its square), DD-13 (scent), DD-15 (blindsight),
DD-17 (ethereal and incorporeal creatures), DD-19 (divination), SF-11 (blindsense pinpoints).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from vigile.awareness.ladder import AwarenessState
from vigile.checks.verdict import Line
from vigile.rulesets.data import RuleData

__all__ = [
    "Condition",
    "Sense",
    "SenseReach",
    "best_reach",
    "dark_at",
    "dark_for",
    "reach",
    "sees_in_dark",
]


class Sense(StrEnum):
    """A way of perceiving a target."""

    SIGHT = "sight"
    DARKVISION = "darkvision"
    HEARING = "hearing"
    SCENT = "scent"
    BLINDSENSE = "blindsense"
    """An imprecise sense that pinpoints: reaches the target's square (SF-11)."""
    BLINDSIGHT = "blindsight"
    """A precise non-visual sense: observes invisible creatures (DD-15)."""
    TOUCH = "touch"
    """Groping with a hand or a weapon (DD-6)."""
    DIVINATION = "divination"
    """Detection magic (DD-19)."""
    SEE_INVISIBLE = "see-invisible"
    """See invisibility, true seeing: a divination, which invisibility does not affect (DD-19):
    invisible creatures are seen, and hide from it only by Hide against Spot (DD-20)."""

    @property
    def precise(self) -> bool:
        """True for a sense that can observe (sight, darkvision, blindsight, divination)."""
        return self in _PRECISE


_PRECISE = frozenset(
    {Sense.SIGHT, Sense.DARKVISION, Sense.BLINDSIGHT, Sense.DIVINATION, Sense.SEE_INVISIBLE}
)


class Condition(StrEnum):
    """What the target is or does that blocks or weakens a sense."""

    INVISIBLE = "invisible"
    ETHEREAL = "ethereal"
    """Ethereal creatures are invisible too and not physically present (DD-17)."""
    INCORPOREAL = "incorporeal"
    IN_LIQUID = "in-liquid"
    """Moving through water or another liquid (DD-12)."""
    NOT_BREATHING = "not-breathing"
    """A construct, an undead, an object (DD-3: Spot DC 40)."""
    MAKING_NOISE = "making-noise"
    """An incorporeal creature that chooses to make noise can be heard (DD-17)."""


@dataclass(frozen=True)
class SenseReach:
    """The highest state one sense can reach against a target, and why."""

    sense: Sense
    state: AwarenessState
    """The best the sense can do; ``unaware`` when it is blocked."""
    line: Line
    """The reason, with its rule ID."""

    @property
    def blocked(self) -> bool:
        """True when the sense tells nothing at all about the target."""
        return self.state is AwarenessState.UNAWARE


def reach(sense: Sense, conditions: Iterable[Condition] = ()) -> SenseReach:
    """The best awareness state ``sense`` can reach against a target with ``conditions``.

    Divination ignores invisibility (DD-19). An ethereal target is invisible and out of reach
    of every other sense (DD-17). Blindsight observes (DD-15), blindsense pinpoints (SF-11),
    scent tracks as if the target were visible (DD-13), but none of them works on an
    incorporeal target (DD-17; [R] blindsense counted with blindsight). Sight and darkvision
    observe a visible target, but an invisible one is at best pinpointed by Spot (DD-1,
    DD-3, DD-4), or by the liquid it disturbs (DD-12). Hearing reaches at best the square
    (DD-5), and an incorporeal target only when it makes noise (DD-17). Touch finds the
    square (DD-6).
    """
    found = frozenset(conditions)
    ethereal = Condition.ETHEREAL in found
    incorporeal = Condition.INCORPOREAL in found
    invisible = ethereal or Condition.INVISIBLE in found
    location = AwarenessState.LOCATION
    unaware = AwarenessState.UNAWARE

    def out(state: AwarenessState, key: str, rule: str) -> SenseReach:
        return SenseReach(sense, state, Line(f"senses.{key}", rule))

    if sense is Sense.DIVINATION:
        return out(AwarenessState.OBSERVED, "divination", "DD-19")
    if sense is Sense.SEE_INVISIBLE:
        return out(AwarenessState.OBSERVED, "see_invisible", "DD-19")
    if ethereal:
        return out(unaware, "ethereal", "DD-17")
    if sense is Sense.BLINDSIGHT:
        if incorporeal:
            return out(unaware, "blindsight_incorporeal", "DD-17")
        return out(AwarenessState.OBSERVED, "blindsight", "DD-15")
    if sense is Sense.BLINDSENSE:
        if incorporeal:
            return out(unaware, "blindsense_incorporeal", "DD-17")
        return out(location, "blindsense", "SF-11")
    if sense is Sense.SCENT:
        if incorporeal:
            return out(unaware, "scent_incorporeal", "DD-17")
        return out(location, "scent", "DD-13")
    if sense is Sense.TOUCH:
        return out(location, "touch", "DD-6")
    if sense is Sense.HEARING:
        if incorporeal:
            if Condition.MAKING_NOISE in found:
                return out(location, "hearing_incorporeal_noise", "DD-17")
            return out(unaware, "hearing_incorporeal_silent", "DD-17")
        return out(location, "hearing", "DD-5")
    # sight and darkvision
    if not invisible:
        return out(AwarenessState.OBSERVED, "sight_visible", "DD-1")
    if Condition.IN_LIQUID in found:
        return out(location, "sight_liquid", "DD-12")
    if incorporeal:
        return out(location, "sight_incorporeal", "DD-17")
    if Condition.NOT_BREATHING in found:
        return out(location, "sight_not_breathing", "DD-3")
    key = "darkvision_invisible" if sense is Sense.DARKVISION else "sight_invisible"
    return out(location, key, "DD-1")


def best_reach(senses: Iterable[Sense], conditions: Iterable[Condition] = ()) -> SenseReach:
    """The farthest any of ``senses`` reaches (the first one listed wins a tie).

    Raises:
        ValueError: if ``senses`` is empty (an observer without senses is a caller's bug).
    """
    found = tuple(conditions)
    best: SenseReach | None = None
    for sense in senses:
        candidate = reach(sense, found)
        if best is None or candidate.state.rank > best.state.rank:
            best = candidate
    if best is None:
        raise ValueError("best_reach needs at least one sense")
    return best


def dark_at(*, night: bool, lit: bool, any_light: bool, dark_without_lights: bool) -> bool:
    """Is a point in darkness? [SF-2, DD-20 C: the d20 games' vision and light]

    By day, never. At night, when no light reaches it (``lit``: a light of the scenario, or
    one a creature carries); but [R] a night scenario that places no light at all is taken as
    lit throughout, its author having said nothing of its lighting, unless the ruleset's
    ``light.dark_without_lights`` (a house rule) says otherwise.
    """
    if not night or lit:
        return False
    return any_light or dark_without_lights


def sees_in_dark(senses: Iterable[Sense], *, distance: float, darkvision_range: float) -> bool:
    """Does an observer see a target in darkness ``distance`` away? [DD-1, SF-2 C] With
    darkvision, within its range (60 ft in both games' companion rules); blindsight and
    blindsense need no light, but they are not sight (:func:`reach`)."""
    return Sense.DARKVISION in frozenset(senses) and distance <= darkvision_range


def dark_for(
    rules: RuleData,
    *,
    night: bool,
    lit: bool,
    any_light: bool,
    senses: Iterable[Sense] = (),
    distance: float = 0.0,
) -> bool:
    """Is the target in darkness for this observer? [SF-2, DD-20 C] In darkness
    (:func:`dark_at`, the ruleset's ``light.dark_without_lights``) and beyond the observer's
    darkvision (:func:`sees_in_dark`, ``light.darkvision_ft``), while the ruleset's companion
    rule ``companion.darkness`` is on. With ``senses`` empty: is the point dark at all."""
    if not rules.flag("companion.darkness"):
        return False
    dark = dark_at(
        night=night,
        lit=lit,
        any_light=any_light,
        dark_without_lights=rules.flag("light.dark_without_lights"),
    )
    range_ft = rules.num("light.darkvision_ft")
    return dark and not sees_in_dark(senses, distance=distance, darkvision_range=range_ft)
