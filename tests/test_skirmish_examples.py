"""The skirmish worked examples of RULES.md ([E]), number for number, with the examples' dice."""

from __future__ import annotations

from fractions import Fraction

from vigile import (
    AmbushSetting,
    Attitude,
    GivenFaces,
    NoiseEvent,
    Roller,
    RuleData,
    Setting,
    Surface,
    Task,
    alarm_check,
    ambush_check,
    noise_check,
    shadow_check,
    sight_check,
)


def test_SK_N8_table_wins_by_default(skirmish: RuleData) -> None:
    """The table gives 3+ for a death on a floor: 3 + 1 (shoji) = 4, and a 4 is heard."""
    verdict = noise_check(
        skirmish,
        event=NoiseEvent.DEATH,
        surface=Surface.FLOOR,
        distance_cm=20,
        barriers=1,
        source=GivenFaces([4]),
    )
    assert verdict.difficulty == 4
    assert verdict.success is True
    assert not any(m.overridden for m in verdict.modifiers)


def test_SK_N9_weapon_falls_behind_the_shoji(skirmish_example_floor: RuleData) -> None:
    """With the example's base 4: 4 + 1 (partition) = 5; the guard rolls 4: heard nothing."""
    verdict = noise_check(
        skirmish_example_floor,
        event=NoiseEvent.DEATH,
        surface=Surface.FLOOR,
        distance_cm=20,
        barriers=1,
        source=GivenFaces([4]),
    )
    assert [m.value for m in verdict.modifiers] == [4, 0, 1]
    assert verdict.modifiers[0].overridden  # the explanation says "house rule"
    assert verdict.difficulty == 5
    assert verdict.chance == Fraction(1, 3)
    assert verdict.success is False


def test_SK_N9_fumble_opening_the_door(skirmish: RuleData) -> None:
    """The novice rolls a 1 (fumble) 5 cm behind the guard: 5+; the guard rolls 5: heard."""
    verdict = noise_check(skirmish, event=NoiseEvent.FUMBLE, distance_cm=5, source=GivenFaces([5]))
    assert verdict.difficulty == 5
    assert verdict.success is True
    assert verdict.state is not None and verdict.state.value == "direction"


def test_SK_N9_then_the_initiative_roll(skirmish: RuleData) -> None:
    """He turns round; an initiative roll follows (SK-G5): guard 3 against ninja 3 raises it."""
    assert alarm_check(skirmish, source=GivenFaces([3, 3])).success is True
    assert alarm_check(skirmish, source=GivenFaces([2, 5])).success is False
    assert alarm_check(skirmish).chance == Fraction(21, 36)


def test_SK_V7_under_the_terrace(skirmish: RuleData) -> None:
    not_seen = sight_check(skirmish, attitude=Attitude.HIDDEN, distance_cm=6)
    assert not_seen.impossible and not_seen.chance == 0
    alert = sight_check(skirmish, attitude=Attitude.HIDDEN, distance_cm=3, alert=True)
    assert alert.difficulty == 5  # 6 − 1


def test_SK_V7_immobile_and_running(skirmish: RuleData) -> None:
    assert sight_check(skirmish, attitude=Attitude.IMMOBILE, distance_cm=11).impossible
    running = sight_check(skirmish, attitude=Attitude.FAST, distance_cm=32)
    assert running.difficulty == 4 and running.chance == Fraction(1, 2)
    assert sight_check(skirmish, attitude=Attitude.FAST, distance_cm=32, alert=True).difficulty == 3


def test_SK_S5_sanjiro_follows_tomoe(skirmish: RuleData) -> None:
    follow = shadow_check(
        skirmish,
        task=Task.FOLLOW,
        setting=Setting.CROWD,
        roller=Roller(2),
        source=GivenFaces([2, 6]),
    )
    assert follow.difficulty == 4 and follow.success is True


def test_SK_S5_tomoe_needs_a_six_then_a_six(skirmish: RuleData) -> None:
    notice = shadow_check(skirmish, task=Task.NOTICE, setting=Setting.CROWD, untrained=True)
    assert notice.difficulty == 7  # 6 + 1
    assert notice.chance == Fraction(1, 36)
    assert (
        shadow_check(
            skirmish,
            task=Task.NOTICE,
            setting=Setting.CROWD,
            untrained=True,
            source=GivenFaces([6, 6]),
        ).success
        is True
    )
    assert (
        shadow_check(
            skirmish,
            task=Task.NOTICE,
            setting=Setting.CROWD,
            untrained=True,
            source=GivenFaces([6, 5]),
        ).success
        is False
    )


def test_SK_S5_after_a_double_one_she_needs_a_six(skirmish: RuleData) -> None:
    notice = shadow_check(
        skirmish, task=Task.NOTICE, setting=Setting.CROWD, untrained=True, follower_fumbled=True
    )
    assert notice.difficulty == 6  # 5 + 1


def test_SK_S6_tomoe_follows_sanjiro(skirmish: RuleData) -> None:
    follow = shadow_check(
        skirmish,
        task=Task.FOLLOW,
        setting=Setting.CROWD,
        target_hiding=True,
        untrained=True,
        source=GivenFaces([6]),
    )
    assert follow.difficulty == 6  # difficult (5) + 1
    assert follow.success is True


def test_SK_S6_sanjiro_on_alert_notices_her(skirmish: RuleData) -> None:
    notice = shadow_check(
        skirmish,
        task=Task.NOTICE,
        setting=Setting.CROWD,
        alert=True,
        roller=Roller(2),
        source=GivenFaces([2, 6]),
    )
    assert notice.difficulty == 5 and notice.success is True


def test_SK_A6_tomoe_walks_into_the_ambush(skirmish: RuleData) -> None:
    """Small town ambush by ninjas: 8 + 1 = 9; she rolls 3 < 9: nothing."""
    verdict = ambush_check(
        skirmish,
        setting=AmbushSetting.TOWN,
        ambushers=1,
        targets=1,
        all_ninjas=True,
        source=GivenFaces([3]),
    )
    assert verdict.difficulty == 9
    assert verdict.die_bonus == 0  # SK-S3's untrained +1 does not apply to ambushes
    assert verdict.chance == Fraction(1, 6**4)
    assert verdict.success is False
    assert verdict.notes[-1].reason == "skirmish.ambush.ambushers_first"  # SK-A5
