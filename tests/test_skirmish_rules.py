"""Each skirmish rule of RULES.md §1, by ID."""

from __future__ import annotations

from fractions import Fraction

import pytest

from vigile import (
    AmbushSetting,
    Attitude,
    GivenFaces,
    InputError,
    LimitError,
    Mount,
    NoiseEvent,
    Roller,
    RuleData,
    Setting,
    Speed,
    Surface,
    Task,
    TimeOfDay,
    ambush_check,
    move_check,
    noise_check,
    shadow_check,
    sight_check,
)


def rules_cited(verdict: object) -> set[str]:
    from vigile.checks.verdict import Verdict

    assert isinstance(verdict, Verdict)
    return {m.rule for m in verdict.modifiers} | {n.rule for n in verdict.notes}


# --- noise --------------------------------------------------------------------------------


def test_SK_N1_a_noise_check_is_for_what_is_out_of_sight(skirmish: RuleData) -> None:
    assert "SK-N1" in rules_cited(noise_check(skirmish, event=NoiseEvent.MELEE))


@pytest.mark.parametrize(
    ("event", "surface", "base"),
    [
        (NoiseEvent.FUMBLE, None, 5),
        (NoiseEvent.GRAPPLE, None, 4),
        (NoiseEvent.MELEE, None, 4),
        (NoiseEvent.DEATH, Surface.FLOOR, 3),
        (NoiseEvent.DEATH, Surface.WATER, 3),
        (NoiseEvent.DEATH, Surface.GRASS, 4),
        (NoiseEvent.DEATH, Surface.SOFT_GROUND, 4),
    ],
)
def test_SK_N2_base_difficulties(
    skirmish: RuleData, event: NoiseEvent, surface: Surface | None, base: int
) -> None:
    verdict = noise_check(skirmish, event=event, surface=surface)
    assert verdict.difficulty == base
    assert verdict.modifiers[0].kind == "base"


def test_SK_N2_a_death_needs_its_surface(skirmish: RuleData) -> None:
    with pytest.raises(InputError, match="--surface"):
        noise_check(skirmish, event=NoiseEvent.DEATH)
    with pytest.raises(InputError, match="--surface"):
        noise_check(skirmish, event=NoiseEvent.MELEE, surface=Surface.GRASS)


def test_SK_N3_half_speed_needs_no_roll(skirmish: RuleData) -> None:
    verdict = move_check(skirmish, speed=Speed.HALF, source=GivenFaces([]))
    assert verdict.automatic and verdict.chance == 1 and verdict.roll is None


def test_SK_N3_faster_rolls_the_pool_once_for_a_fumble(skirmish: RuleData) -> None:
    verdict = move_check(skirmish, speed=Speed.FULL, roller=Roller(2), source=GivenFaces([1, 1]))
    assert verdict.chance == Fraction(35, 36)
    assert verdict.success is False and verdict.roll is not None and verdict.roll.fumble
    assert "SK-N3" in rules_cited(verdict) and "SK-D4" in rules_cited(verdict)
    assert move_check(skirmish, speed=Speed.FULL, source=GivenFaces([2])).success is True


@pytest.mark.parametrize(
    ("distance", "time", "steps"),
    [
        (0, TimeOfDay.NIGHT, 0),
        (49.9, TimeOfDay.NIGHT, 0),
        (50, TimeOfDay.NIGHT, 1),
        (120, TimeOfDay.NIGHT, 2),
        (9, TimeOfDay.DAY, 0),
        (10, TimeOfDay.DAY, 1),
        (35, TimeOfDay.DAY, 3),
    ],
)
def test_SK_N4_distance_in_whole_steps(
    skirmish: RuleData, distance: float, time: TimeOfDay, steps: int
) -> None:
    verdict = noise_check(skirmish, event=NoiseEvent.MELEE, distance_cm=distance, time=time)
    assert verdict.difficulty == 4 + steps


def test_SK_N5_one_per_partition_door_or_wall(skirmish: RuleData) -> None:
    assert noise_check(skirmish, event=NoiseEvent.MELEE, barriers=3).difficulty == 7


def test_SK_N6_listeners_on_alert(skirmish: RuleData) -> None:
    assert noise_check(skirmish, event=NoiseEvent.MELEE, alert=True).difficulty == 3


@pytest.mark.parametrize(
    ("event", "base"),
    [(NoiseEvent.WHISPER, 6), (NoiseEvent.CONVERSATION, 5), (NoiseEvent.ANIMATED, 4)],
)
def test_SK_N7_eavesdropping_then_distance_and_walls(
    skirmish: RuleData, event: NoiseEvent, base: int
) -> None:
    verdict = noise_check(skirmish, event=event, distance_cm=60, barriers=1, alert=True)
    assert verdict.difficulty == base + 1 + 1 - 1


def test_SK_N7_alarm_cry(skirmish: RuleData) -> None:
    on_alert = noise_check(skirmish, event=NoiseEvent.ALARM_CRY, alert=True, distance_cm=300)
    assert on_alert.automatic and on_alert.chance == 1
    calm = noise_check(skirmish, event=NoiseEvent.ALARM_CRY, distance_cm=300, barriers=4)
    assert calm.difficulty == 2 and calm.chance == Fraction(5, 6)  # fails only on a 1


def test_SK_N8_house_rule_reproduces_the_example(
    skirmish: RuleData, skirmish_example_floor: RuleData
) -> None:
    table = noise_check(skirmish, event=NoiseEvent.DEATH, surface=Surface.FLOOR)
    example = noise_check(skirmish_example_floor, event=NoiseEvent.DEATH, surface=Surface.FLOOR)
    assert (table.difficulty, example.difficulty) == (3, 4)
    assert example.modifiers[0].rule == "SK-N8" and example.modifiers[0].overridden


# --- sight --------------------------------------------------------------------------------


def test_SK_V1_night_visibility_is_cited(skirmish: RuleData) -> None:
    assert "SK-V1" in rules_cited(sight_check(skirmish, attitude=Attitude.HALF, distance_cm=15))


@pytest.mark.parametrize("attitude", [Attitude.HALF, Attitude.FAST])
def test_SK_V2_moving_within_10_cm_is_seen(skirmish: RuleData, attitude: Attitude) -> None:
    assert sight_check(skirmish, attitude=attitude, distance_cm=9.9).automatic
    assert not sight_check(skirmish, attitude=attitude, distance_cm=10).automatic  # SK-V8


@pytest.mark.parametrize(
    ("attitude", "band", "difficulty"),
    [
        (Attitude.HIDDEN, 5, 6),
        (Attitude.IMMOBILE, 10, 6),
        (Attitude.HALF, 20, 5),
        (Attitude.FAST, 40, 4),
    ],
)
def test_SK_V3_bands_and_difficulties(
    skirmish: RuleData, attitude: Attitude, band: int, difficulty: int
) -> None:
    inside = sight_check(skirmish, attitude=attitude, distance_cm=band - 0.5)
    if inside.automatic:  # SK-V2 for moving targets close by
        inside = sight_check(skirmish, attitude=attitude, distance_cm=max(10, band - 0.5))
    assert inside.difficulty == difficulty
    assert sight_check(skirmish, attitude=attitude, distance_cm=band + 1).impossible


def test_SK_V4_alert_and_outfit(skirmish: RuleData) -> None:
    verdict = sight_check(
        skirmish, attitude=Attitude.IMMOBILE, distance_cm=5, alert=True, unsuited_outfit=True
    )
    assert verdict.difficulty == 4


def test_SK_V5_lit_targets_are_seen_unless_hidden(skirmish: RuleData) -> None:
    assert sight_check(skirmish, attitude=Attitude.IMMOBILE, distance_cm=30, lit=True).automatic
    hidden = sight_check(skirmish, attitude=Attitude.HIDDEN, distance_cm=3, lit=True)
    assert hidden.difficulty == 6 and "SK-V5" in rules_cited(hidden)


def test_SK_V6_no_line_of_sight_no_sight(skirmish: RuleData) -> None:
    verdict = sight_check(skirmish, attitude=Attitude.FAST, distance_cm=2, line_of_sight=False)
    assert verdict.impossible and "SK-V6" in rules_cited(verdict)


def test_SK_V8_bands_are_strict_and_day_needs_no_test(skirmish: RuleData) -> None:
    assert sight_check(skirmish, attitude=Attitude.FAST, distance_cm=40).impossible
    assert sight_check(skirmish, attitude=Attitude.HIDDEN, distance_cm=5).impossible
    assert sight_check(skirmish, attitude=Attitude.FAST, distance_cm=39.9).difficulty == 4
    day = sight_check(skirmish, attitude=Attitude.IMMOBILE, distance_cm=500, time=TimeOfDay.DAY)
    assert day.automatic


def test_SK_V9_hidden_beats_moving(skirmish: RuleData) -> None:
    verdict = sight_check(skirmish, attitude=Attitude.HIDDEN, distance_cm=4)
    assert not verdict.automatic and verdict.difficulty == 6
    assert "SK-V9" in rules_cited(verdict)


# --- shadowing ----------------------------------------------------------------------------


def test_SK_S1_rolls_are_secret_for_the_umpire(skirmish: RuleData) -> None:
    verdict = shadow_check(skirmish, task=Task.FOLLOW, setting=Setting.CROWD)
    assert "SK-S1" in rules_cited(verdict)


def test_SK_S2_crowd_difficulties(skirmish: RuleData) -> None:
    def diff(**kw: object) -> int | None:
        return shadow_check(skirmish, setting=Setting.CROWD, **kw).difficulty  # type: ignore[arg-type]

    assert diff(task=Task.FOLLOW) == 4
    assert diff(task=Task.FOLLOW, target_hiding=True) == 5
    assert diff(task=Task.NOTICE) == 6
    assert diff(task=Task.NOTICE, alert=True) == 5
    assert diff(task=Task.NOTICE, follower_fumbled=True) == 5


def test_SK_S3_untrained_adds_one_to_shadowing_only(skirmish: RuleData) -> None:
    verdict = shadow_check(skirmish, task=Task.FOLLOW, setting=Setting.CROWD, untrained=True)
    assert verdict.difficulty == 5 and "SK-S3" in rules_cited(verdict)


def test_SK_S4_countryside(skirmish: RuleData) -> None:
    rider = shadow_check(
        skirmish, task=Task.FOLLOW, setting=Setting.COUNTRYSIDE, target=Mount.RIDER
    )
    assert rider.automatic
    walker = shadow_check(skirmish, task=Task.FOLLOW, setting=Setting.COUNTRYSIDE)
    assert walker.difficulty == 2
    hiding = shadow_check(
        skirmish, task=Task.FOLLOW, setting=Setting.COUNTRYSIDE, target_hiding=True
    )
    assert hiding.difficulty == 3
    assert (
        shadow_check(
            skirmish, task=Task.NOTICE, setting=Setting.COUNTRYSIDE, follower=Mount.RIDER
        ).difficulty
        == 2
    )
    discreet = shadow_check(
        skirmish, task=Task.NOTICE, setting=Setting.COUNTRYSIDE, discreet=True, alert=True
    )
    assert (discreet.difficulty, discreet.die_bonus, discreet.target) == (4, 1, 3)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"task": Task.FOLLOW, "setting": Setting.CROWD, "alert": True},
        {"task": Task.NOTICE, "setting": Setting.CROWD, "target_hiding": True},
        {"task": Task.NOTICE, "setting": Setting.CROWD, "discreet": True},
        {"task": Task.NOTICE, "setting": Setting.COUNTRYSIDE, "follower_fumbled": True},
        {"task": Task.FOLLOW, "setting": Setting.CROWD, "target": Mount.RIDER},
    ],
)
def test_SK_S4_contradictory_flags_are_refused(
    skirmish: RuleData, kwargs: dict[str, object]
) -> None:
    with pytest.raises(InputError):
        shadow_check(skirmish, **kwargs)  # type: ignore[arg-type]


# --- ambush -------------------------------------------------------------------------------


def test_SK_A1_no_cover_no_ambush(skirmish: RuleData) -> None:
    verdict = ambush_check(
        skirmish, setting=AmbushSetting.TOWN, ambushers=3, targets=1, cover=False
    )
    assert verdict.automatic and verdict.success and "SK-A1" in rules_cited(verdict)


def test_SK_A2_dice_are_not_pooled(skirmish: RuleData) -> None:
    """Two characters each with one die: 1 − (1 − p)², not one pool of two dice."""
    verdict = ambush_check(
        skirmish,
        setting=AmbushSetting.COUNTRYSIDE,
        ambushers=2,
        targets=2,
        party=[0, 2],
        source=GivenFaces([3, 5]),
    )
    p0 = Fraction(1, 36)  # small countryside ambush, 7+: a 6 then a 6
    p2 = Fraction(2, 6)  # the same with +2 to the die: 5+
    assert verdict.chance == 1 - (1 - p0) * (1 - p2)
    assert [m.success for m in verdict.members] == [False, True]
    assert verdict.success is True


def test_SK_A3_countryside(skirmish: RuleData) -> None:
    def diff(ambushers: int, targets: int, **kw: object) -> tuple[int | None, int]:
        v = ambush_check(
            skirmish, setting=AmbushSetting.COUNTRYSIDE, ambushers=ambushers, targets=targets, **kw
        )  # type: ignore[arg-type]
        return v.difficulty, v.die_bonus

    assert diff(3, 2) == (6, 0)
    assert diff(2, 2) == (7, 0)
    assert diff(2, 2, alert=True) == (6, 0)
    assert diff(2, 2, all_ninjas=True) == (8, 0)
    assert diff(2, 2, party=[3]) == (7, 3)


def test_SK_A4_town(skirmish: RuleData) -> None:
    large = ambush_check(skirmish, setting=AmbushSetting.TOWN, ambushers=4, targets=2, alert=True)
    assert (large.difficulty, large.die_bonus) == (7, 1)
    assert (
        ambush_check(skirmish, setting=AmbushSetting.TOWN, ambushers=2, targets=2).difficulty == 8
    )


def test_SK_A5_who_acts_first(skirmish: RuleData) -> None:
    detected = ambush_check(
        skirmish,
        setting=AmbushSetting.COUNTRYSIDE,
        ambushers=3,
        targets=2,
        party=[4],
        source=GivenFaces([2]),
    )
    assert detected.success and detected.notes[-1].reason == "skirmish.ambush.simultaneous"


# --- limits -------------------------------------------------------------------------------


@pytest.mark.parametrize("dice", [0, -1, 21])
def test_SK_D1_absurd_pools_are_refused(skirmish: RuleData, dice: int) -> None:
    with pytest.raises(LimitError, match="--dice"):
        noise_check(skirmish, event=NoiseEvent.MELEE, roller=Roller(dice))


@pytest.mark.parametrize("distance", [-1, float("nan"), float("inf")])
def test_absurd_distances_are_refused(skirmish: RuleData, distance: float) -> None:
    with pytest.raises(InputError, match="--distance"):
        noise_check(skirmish, event=NoiseEvent.MELEE, distance_cm=distance)


def test_distances_beyond_the_limit_are_limit_errors(skirmish: RuleData) -> None:
    with pytest.raises(LimitError, match=r"--distance: 1e\+09 cm is beyond the limit"):
        noise_check(skirmish, event=NoiseEvent.MELEE, distance_cm=1e9)


# --- alarm --------------------------------------------------------------------------------


def test_SK_G5_guard_raises_the_alarm_on_equal_or_higher(skirmish: RuleData) -> None:
    from vigile import alarm_check
    from vigile.rulesets.data import apply_overrides

    assert alarm_check(skirmish).chance == Fraction(7, 12)
    outcomes = {
        (g, i): alarm_check(skirmish, source=GivenFaces([g, i])).success
        for g in range(1, 7)
        for i in range(1, 7)
    }
    assert all(outcomes[g, i] == (g >= i) for g, i in outcomes)
    strict = apply_overrides(skirmish, "[alarm]\nguard_wins_ties = false\n", "house.toml")
    assert alarm_check(strict).chance == Fraction(15, 36)
