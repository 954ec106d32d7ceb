"""Invariants of the skirmish checks (hypothesis): chances are probabilities; distance and walls
never make a noise easier to hear; being on alert never makes anything harder to detect."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from vigile import (
    AmbushSetting,
    Attitude,
    NoiseEvent,
    Roller,
    Setting,
    Surface,
    Task,
    TimeOfDay,
    ambush_check,
    noise_check,
    shadow_check,
    sight_check,
)
from vigile.rulesets.data import shipped

RULES = shipped("skirmish")
events = st.sampled_from([e for e in NoiseEvent if e is not NoiseEvent.DEATH])
distances = st.floats(min_value=0, max_value=2000, allow_nan=False)
times = st.sampled_from(list(TimeOfDay))
rollers = st.builds(Roller, st.integers(1, 6), st.integers(-3, 3))


@given(events, distances, st.integers(0, 6), times, st.booleans(), rollers)
def test_noise_chance_is_a_probability(
    event: NoiseEvent, distance: float, walls: int, time: TimeOfDay, alert: bool, roller: Roller
) -> None:
    verdict = noise_check(
        RULES,
        event=event,
        distance_cm=distance,
        barriers=walls,
        time=time,
        alert=alert,
        roller=roller,
    )
    assert 0 <= verdict.chance <= 1


@given(events, distances, distances, st.integers(0, 6), times, rollers)
def test_more_distance_never_makes_a_noise_easier(
    event: NoiseEvent, near: float, far: float, walls: int, time: TimeOfDay, roller: Roller
) -> None:
    near, far = sorted((near, far))
    close = noise_check(
        RULES, event=event, distance_cm=near, barriers=walls, time=time, roller=roller
    )
    distant = noise_check(
        RULES, event=event, distance_cm=far, barriers=walls, time=time, roller=roller
    )
    assert distant.chance <= close.chance


@given(st.sampled_from(list(Surface)), distances, st.integers(0, 5), st.integers(1, 4), rollers)
def test_more_walls_never_make_a_noise_easier(
    surface: Surface, distance: float, walls: int, more: int, roller: Roller
) -> None:
    few = noise_check(
        RULES,
        event=NoiseEvent.DEATH,
        surface=surface,
        distance_cm=distance,
        barriers=walls,
        roller=roller,
    )
    many = noise_check(
        RULES,
        event=NoiseEvent.DEATH,
        surface=surface,
        distance_cm=distance,
        barriers=walls + more,
        roller=roller,
    )
    assert many.chance <= few.chance


@given(events, distances, st.integers(0, 6), times, rollers)
def test_alert_never_makes_a_noise_harder_to_hear(
    event: NoiseEvent, distance: float, walls: int, time: TimeOfDay, roller: Roller
) -> None:
    calm = noise_check(
        RULES, event=event, distance_cm=distance, barriers=walls, time=time, roller=roller
    )
    alert = noise_check(
        RULES,
        event=event,
        distance_cm=distance,
        barriers=walls,
        time=time,
        alert=True,
        roller=roller,
    )
    assert alert.chance >= calm.chance


@given(st.sampled_from(list(Attitude)), distances, st.booleans(), st.booleans(), times, rollers)
def test_alert_never_makes_a_target_harder_to_see(
    attitude: Attitude, distance: float, outfit: bool, lit: bool, time: TimeOfDay, roller: Roller
) -> None:
    def chance(alert: bool) -> object:
        return sight_check(
            RULES,
            attitude=attitude,
            distance_cm=distance,
            alert=alert,
            unsuited_outfit=outfit,
            lit=lit,
            time=time,
            roller=roller,
        ).chance

    assert chance(True) >= chance(False)  # type: ignore[operator]


@given(st.sampled_from(list(Attitude)), distances, distances, rollers)
def test_farther_targets_are_never_easier_to_see(
    attitude: Attitude, a: float, b: float, roller: Roller
) -> None:
    near, far = sorted((a, b))
    close = sight_check(RULES, attitude=attitude, distance_cm=near, roller=roller)
    distant = sight_check(RULES, attitude=attitude, distance_cm=far, roller=roller)
    assert distant.chance <= close.chance


@given(st.sampled_from(list(Setting)), st.booleans(), st.booleans(), rollers)
def test_alert_never_makes_a_follower_harder_to_notice(
    setting: Setting, discreet: bool, untrained: bool, roller: Roller
) -> None:
    discreet = discreet and setting is Setting.COUNTRYSIDE

    def chance(alert: bool) -> object:
        return shadow_check(
            RULES,
            task=Task.NOTICE,
            setting=setting,
            discreet=discreet,
            alert=alert,
            untrained=untrained,
            roller=roller,
        ).chance

    assert chance(True) >= chance(False)  # type: ignore[operator]


@given(
    st.sampled_from(list(AmbushSetting)),
    st.integers(1, 8),
    st.integers(1, 8),
    st.booleans(),
    st.lists(st.integers(0, 5), min_size=1, max_size=4),
)
def test_alert_never_makes_an_ambush_harder_to_detect(
    setting: AmbushSetting, ambushers: int, targets: int, ninjas: bool, party: list[int]
) -> None:
    def chance(alert: bool) -> object:
        return ambush_check(
            RULES,
            setting=setting,
            ambushers=ambushers,
            targets=targets,
            all_ninjas=ninjas,
            alert=alert,
            party=party,
        ).chance

    assert chance(True) >= chance(False)  # type: ignore[operator]
    bigger = ambush_check(
        RULES,
        setting=setting,
        ambushers=ambushers,
        targets=targets,
        all_ninjas=ninjas,
        party=[*party, 0],
    ).chance
    assert bigger >= chance(False)  # type: ignore[operator]
