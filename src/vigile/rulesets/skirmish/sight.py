"""Sight: does an observer see a character moving or hiding? (SK-V1..SK-V9)."""

from __future__ import annotations

from dataclasses import dataclass

from vigile.awareness.ladder import AwarenessState
from vigile.awareness.vocabulary import Attitude as Attitude
from vigile.checks.numbers import quoted
from vigile.checks.verdict import Line, Verdict
from vigile.dice.source import FaceSource
from vigile.rulesets.data import RuleData, from_data
from vigile.rulesets.skirmish.common import (
    Roller,
    TimeOfDay,
    bonus_modifier,
    check_distance,
    check_roller,
    pool_verdict,
    settled_verdict,
)

OUTCOMES = ("skirmish.sight.seen", "skirmish.sight.not_seen")


@dataclass(frozen=True)
class SightDistances:
    """The distances the night sight rule compares a gap with, and the cases they make (SK-V2,
    SK-V3, SK-V8): the one home of those numbers and of their cases. The rule reads a distance
    only through them, both comparisons strict (SK-V8), so its verdict is the same for every
    distance of a case; the simulator's tables and the risk map hold one verdict per case.
    Each number is read from ``rules`` when asked (``sight_check`` asks one or two per call)."""

    rules: RuleData

    @property
    def auto_cm(self) -> int:
        """A moving target closer than this is seen (SK-V2: ``sight.auto_moving_cm``)."""
        return self.rules.num("sight.auto_moving_cm")

    def band_cm(self, attitude: Attitude) -> int:
        """A test is allowed only closer than the attitude's band (SK-V3: ``sight.band_cm``)."""
        return self.rules.num(f"sight.band_cm.{attitude.value}")

    def near(self, distance_cm: float) -> bool:
        """Closer than the automatic distance (SK-V2, strict)."""
        return distance_cm < self.auto_cm

    def in_band(self, attitude: Attitude, distance_cm: float) -> bool:
        """Closer than the attitude's band (SK-V3, strict: SK-V8)."""
        return distance_cm < self.band_cm(attitude)

    def reach(self, attitude: Attitude) -> float:
        """From this distance on, neither near nor in the attitude's band."""
        return float(max(self.auto_cm, self.band_cm(attitude)))

    def representative(self, attitude: Attitude, near: bool, in_band: bool) -> float:
        """A distance of the case (``near``, ``in_band``) for ``attitude``: the case's
        shortest, or its nearest distance where the case holds none (near but not in a band
        shorter than the automatic distance: the rule reads that case's verdict there)."""
        if near and in_band:
            return 0.0
        if in_band:
            return float(self.auto_cm)
        if near:
            return float(self.band_cm(attitude))
        return self.reach(attitude)

    def thresholds(self) -> list[float]:
        """0 and every distance the rule compares with, sorted: its verdict is the same
        everywhere between two consecutive ones."""
        return sorted({0.0, float(self.auto_cm), *(float(self.band_cm(a)) for a in Attitude)})


def sight_distances(rules: RuleData) -> SightDistances:
    """The sight rule's distances as ``rules`` gives them (``sight.auto_moving_cm``,
    ``sight.band_cm.*``)."""
    return SightDistances(rules)


def seen_attitude(moved_as: Attitude | None, *, in_cover: bool) -> Attitude:
    """What an observer sees the target doing this turn [SK-V3, SK-V9].

    ``moved_as`` is how the target moved this turn (the speed of the leg it walked, even if it
    reached its waypoint and stopped), or None when it did not move. The one home of this
    ruling: the turn engine, the simulator, the risk map and the route all ask it.

    * Not moving: hidden when in cover, else immobile (SK-V3: "cachée (à couvert…) ou immobile").
    * Moving hidden, from cover to cover: hidden while in cover (SK-V9: hidden beats moving);
      out of cover it is a character in motion, at the slowest moving attitude, half speed.
    * Moving at half speed or fast: that attitude, in cover or not (a runner does not hide).
    """
    if moved_as is None or moved_as is Attitude.IMMOBILE:
        return Attitude.HIDDEN if in_cover else Attitude.IMMOBILE
    if moved_as is Attitude.HIDDEN:
        return Attitude.HIDDEN if in_cover else Attitude.HALF
    return moved_as


def patrol_attitude(*, moved: bool, shown: Attitude | None, in_cover: bool) -> Attitude:
    """What an intruder sees a guard doing this turn, the roles of SK-V3 reversed (SK-G3 [R]):
    a guard who moved (a patrol: 10 cm, under the half-speed rate) is in motion at half speed;
    one who did not is immobile, or hidden when the scenario shows it hidden and it stands in
    cover (:func:`seen_attitude`)."""
    if moved:
        return seen_attitude(Attitude.HALF, in_cover=in_cover)
    if shown is Attitude.HIDDEN:
        return seen_attitude(None, in_cover=in_cover)
    return Attitude.IMMOBILE


def sight_check(
    rules: RuleData,
    *,
    attitude: Attitude,
    distance_cm: float,
    alert: bool = False,
    unsuited_outfit: bool = False,
    lit: bool = False,
    light: str | None = None,
    time: TimeOfDay = TimeOfDay.NIGHT,
    line_of_sight: bool = True,
    roller: Roller = Roller(),
    source: FaceSource | None = None,
) -> Verdict:
    """Does the observer see the target? [SK-V1..SK-V9]

    In order: no line of sight, no sight (SK-V6); by day, seen unless hidden by the scenery
    (SK-V8, SK-S1); at night, a lit target not hidden in cover is seen (SK-V5), a moving one
    closer than 10 cm is seen (SK-V2, never a hidden one: SK-V9); otherwise a test is allowed
    only closer than the attitude's band (SK-V3, strict: SK-V8), with alert and outfit (SK-V4).

    ``light``: the kind of the scenario's light that reaches a ``lit`` target (``lantern``,
    ``brazier``, ``lit-door``, ``lit-window``), when the caller knows it: the light is the
    scenario's (SK-G2), and the verdict says which kind made the target lit.
    """
    check_roller(rules, roller)
    check_distance(distance_cm)
    state = AwarenessState.OBSERVED

    def settled(seen: bool, notes: list[Line]) -> Verdict:
        return settled_verdict(
            check="sight", seen=seen, notes=notes, outcomes=OUTCOMES, roller=roller, state=state
        )

    distance = quoted(distance_cm)
    if not line_of_sight:
        return settled(False, [Line("skirmish.sight.no_line", "SK-V6")])
    if time is TimeOfDay.DAY:
        if attitude is Attitude.HIDDEN:
            return settled(False, [Line("skirmish.sight.day_hidden", "SK-S1")])
        return settled(True, [Line("skirmish.sight.day", "SK-V8")])
    notes = [
        Line(
            "skirmish.sight.night", "SK-V1", {"visibility": rules.num("sight.night_visibility_cm")}
        )
    ]
    if attitude is Attitude.HIDDEN:
        notes.append(Line("skirmish.sight.hidden_beats_moving", "SK-V9"))
    if lit:
        if light is not None:
            notes.append(Line(f"skirmish.sight.scenario_light.{light}", "SK-G2"))
        if attitude is not Attitude.HIDDEN:
            notes.append(
                Line("skirmish.sight.lit", "SK-V5", {"radius": rules.num("sight.lit_radius_cm")})
            )
            return settled(True, notes)
        notes.append(Line("skirmish.sight.lit_but_hidden", "SK-V5"))
    cases = sight_distances(rules)
    if attitude.moving and cases.near(distance_cm):
        auto = cases.auto_cm
        notes.append(
            Line("skirmish.sight.auto_moving", "SK-V2", {"distance": distance, "band": auto})
        )
        return settled(True, notes)
    band = cases.band_cm(attitude)
    if not cases.in_band(attitude, distance_cm):
        notes.append(
            Line(
                "skirmish.sight.beyond_band",
                "SK-V8",
                {"distance": distance, "band": band, "attitude": attitude.value},
            )
        )
        return settled(False, notes)
    notes.append(
        Line(
            "skirmish.sight.within_band",
            "SK-V3",
            {"distance": distance, "band": band, "attitude": attitude.value},
        )
    )
    modifiers = [
        from_data(
            rules,
            f"sight.difficulty.{attitude.value}",
            f"skirmish.sight.base.{attitude.value}",
            "SK-V3",
            kind="base",
        )
    ]
    if alert:
        modifiers.append(from_data(rules, "sight.alert", "skirmish.sight.alert", "SK-V4"))
    if unsuited_outfit:
        modifiers.append(
            from_data(rules, "sight.unsuited_outfit", "skirmish.sight.outfit", "SK-V4")
        )
    modifiers += bonus_modifier(roller)
    return pool_verdict(
        check="sight",
        modifiers=modifiers,
        roller=roller,
        source=source,
        outcomes=OUTCOMES,
        notes=notes,
        state=state,
    )
