"""Noise checks: does a listener hear an event out of sight? (SK-N1..SK-N8)."""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum

from vigile.awareness.ladder import AwarenessState
from vigile.awareness.vocabulary import Surface as Surface
from vigile.checks.numbers import quoted
from vigile.checks.verdict import Line, Modifier, Verdict
from vigile.dice.source import FaceSource
from vigile.errors import InputError
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


class NoiseEvent(StrEnum):
    """What made the noise (SK-N2) or what is overheard (SK-N7)."""

    FUMBLE = "fumble"
    GRAPPLE = "grapple"
    MELEE = "melee"
    DEATH = "death"
    WHISPER = "whisper"
    CONVERSATION = "conversation"
    ANIMATED = "animated"
    ALARM_CRY = "alarm-cry"


GROUND_SOUND = {
    "floor": Surface.FLOOR,
    "water": Surface.WATER,
    "grass": Surface.GRASS,
    "soft-ground": Surface.SOFT_GROUND,
    "tile": Surface.FLOOR,
    "stone": Surface.FLOOR,
}
"""[R] The sound of a body falling on each kind of ground (SK-N2 names floor, water, grass and
soft ground): tile and stone ring as a floor."""


def death_surface(ground: str) -> Surface:
    """How a death sounds on the ground kind ``ground`` of a scenario [SK-N2, R]."""
    return GROUND_SOUND[ground]


def heard_puts_on_alert(rules: RuleData) -> bool:
    """Whether a listener who hears a noise is on alert afterwards [SK-N10: no by default;
    the house rule ``noise.alert_on_noise`` switches it on]."""
    return rules.flag("noise.alert_on_noise")


EAVESDROPPING = {NoiseEvent.WHISPER, NoiseEvent.CONVERSATION, NoiseEvent.ANIMATED}
OUTCOMES = ("skirmish.noise.heard", "skirmish.noise.not_heard")


def checks_noise(*, observed: bool, sight: Callable[[], Verdict]) -> bool:
    """Whether a listener checks a noise made by a character [SK-N1; LP-4, R].

    SK-N1: noises are checked by each enemy who could hear an event *out of his sight*.
    LP-4 [R]: seeing is not a standing state. A listener skips the check only while he both
    has seen the maker (``observed``) and has it in his sight now: ``sight`` is the sight rule
    (:func:`~vigile.rulesets.skirmish.sight.sight_check`) for him on the maker where it stands,
    doing what it does, and "in sight" means that rule sees it or allows a test (a line of
    sight, SK-V6, and by day, SK-V8, or lit, SK-V5, or moving closer than 10 cm, SK-V2, or
    within the band of its attitude, SK-V3). Behind a wall, in the dark beyond the band, the
    rule allows nothing (``impossible``): he checks the noise again. One who never saw the
    maker checks every noise (the sight rule is then not asked). The compiled kernel reads the
    same rule from its sight table, where ``impossible`` is its NEVER code."""
    return not observed or sight().impossible


def base_difficulty(rules: RuleData, event: NoiseEvent, surface: Surface | None) -> Modifier:
    """The event's base difficulty from the table [SK-N2, SK-N7; SK-N8: the table wins]."""
    if event is NoiseEvent.DEATH:
        if surface is None:
            raise InputError(
                "a death needs the surface it falls on (floor, water, grass, soft-ground)",
                where="--surface",
            )
        key = f"noise.base.death_{surface.value.replace('-', '_')}"
        rule = "SK-N8" if surface is Surface.FLOOR else "SK-N2"
        return from_data(
            rules, key, f"skirmish.noise.base.death_{surface.value}", rule, kind="base"
        )
    if surface is not None:
        raise InputError(
            f"a surface only applies to a death, not to {event.value}", where="--surface"
        )
    key = f"noise.base.{event.value.replace('-', '_')}"
    rule = "SK-N7" if event in EAVESDROPPING or event is NoiseEvent.ALARM_CRY else "SK-N2"
    return from_data(rules, key, f"skirmish.noise.base.{event.value}", rule, kind="base")


_STEP_KEY = {TimeOfDay.NIGHT: "noise.night_step_cm", TimeOfDay.DAY: "noise.day_step_cm"}


def distance_step_cm(rules: RuleData, time: TimeOfDay) -> int:
    """The length of one distance step: +1 per whole step between listener and source [SK-N4;
    50 cm at night, 10 cm by day]. The simulator counts whole steps with this same length."""
    return rules.num(_STEP_KEY[time])


def distance_steps(rules: RuleData, distance_cm: float, time: TimeOfDay) -> int:
    """The whole steps in a distance (SK-N4): the rule reads a distance only through them, so
    its verdict is the same for every distance of the same count (the simulator's and the
    risk map's cases)."""
    return int(distance_cm // distance_step_cm(rules, time))


def steps_distance_cm(rules: RuleData, steps: int, time: TimeOfDay) -> float:
    """The shortest distance of ``steps`` whole steps (SK-N4): the one a table of the rule's
    verdicts by steps asks the rule at."""
    return float(steps * distance_step_cm(rules, time))


def distance_modifier(rules: RuleData, distance_cm: float, time: TimeOfDay) -> Modifier:
    """+1 per whole 50 cm at night, per whole 10 cm by day [SK-N4]."""
    step_key = _STEP_KEY[time]
    step = distance_step_cm(rules, time)
    steps = distance_steps(rules, distance_cm, time)
    return Modifier(
        value=steps * rules.num("noise.per_step"),
        reason=f"skirmish.noise.distance_{time.value}",
        rule="SK-N4",
        params={"distance": quoted(distance_cm), "step": step},
        source=step_key,
        overridden=rules.is_overridden(step_key) or rules.is_overridden("noise.per_step"),
    )


def noise_check(
    rules: RuleData,
    *,
    event: NoiseEvent,
    surface: Surface | None = None,
    distance_cm: float = 0.0,
    barriers: int = 0,
    time: TimeOfDay = TimeOfDay.NIGHT,
    alert: bool = False,
    roller: Roller = Roller(),
    source: FaceSource | None = None,
) -> Verdict:
    """Does a listener hear a noisy event it cannot see? [SK-N1..SK-N8]

    ``barriers`` counts the partitions, doors and walls between listener and source (SK-N5).
    An alarm cry is heard at once by listeners on alert, otherwise on 2+ with no distance or
    wall modifier (SK-N7).

    >>> from vigile import GivenFaces, load_rules
    >>> verdict = noise_check(load_rules("skirmish"), event=NoiseEvent.DEATH,
    ...     surface=Surface.FLOOR, distance_cm=20, barriers=1, source=GivenFaces([4]))
    >>> verdict.difficulty, verdict.chance, verdict.success
    (4, Fraction(1, 2), True)
    """
    check_roller(rules, roller)
    check_distance(distance_cm)
    if barriers < 0 or barriers > 1000:
        raise InputError(f"{barriers} is not a number of walls (0 or more)", where="--walls")
    notes = [Line("skirmish.noise.out_of_sight", "SK-N1")]
    base = base_difficulty(rules, event, surface)
    if event is NoiseEvent.ALARM_CRY:
        if alert:
            notes.append(Line("skirmish.noise.alarm_cry_alert", "SK-N7"))
            return settled_verdict(
                check="noise",
                seen=True,
                notes=notes,
                outcomes=OUTCOMES,
                roller=roller,
                state=AwarenessState.DIRECTION,
                modifiers=[base],
            )
        notes.append(Line("skirmish.noise.alarm_cry_no_modifiers", "SK-N7"))
        return pool_verdict(
            check="noise",
            modifiers=[base, *bonus_modifier(roller)],
            roller=roller,
            source=source,
            outcomes=OUTCOMES,
            notes=notes,
            state=AwarenessState.DIRECTION,
        )
    modifiers = [base, distance_modifier(rules, distance_cm, time)]
    if barriers:
        modifiers.append(
            from_data(
                rules,
                "noise.per_barrier",
                "skirmish.noise.barriers",
                "SK-N5",
                times=barriers,
                params={"count": barriers},
            )
        )
    if alert:
        modifiers.append(from_data(rules, "noise.alert", "skirmish.noise.alert", "SK-N6"))
    modifiers += bonus_modifier(roller)
    return pool_verdict(
        check="noise",
        modifiers=modifiers,
        roller=roller,
        source=source,
        outcomes=OUTCOMES,
        notes=notes,
        state=AwarenessState.DIRECTION,
    )
