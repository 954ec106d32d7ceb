"""Every D&D 3.5 invisibility rule, by its RULES.md ID (DD-1..DD-21)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from vigile.awareness.ladder import AwarenessState
from vigile.checks.verdict import Verdict
from vigile.dice.d20 import opposed_dnd_chance
from vigile.dice.source import GivenFaces
from vigile.errors import InputError, LimitError
from vigile.rulesets.data import RuleData, load
from vigile.rulesets.dnd35 import (
    HideSpeed,
    ListenSpeed,
    Size,
    SpotTarget,
    Square,
    attack_check,
    grope_check,
    hide_check,
    listen_check,
    spot_check,
    traits,
)
from vigile.rulesets.senses import Condition

RULES = load("dnd35")


def house(tmp_path: Path, text: str) -> RuleData:
    path = tmp_path / "house.toml"
    path.write_text(text, encoding="utf-8")
    return load("dnd35", path)


def rules_of(verdict: Verdict) -> set[str]:
    return {n.rule for n in verdict.notes} | {m.rule for m in verdict.modifiers}


def given(*faces: int) -> GivenFaces:
    return GivenFaces(list(faces))


# DD-1 ----------------------------------------------------------------------------------------


def test_DD1_spot_says_an_invisible_creature_cannot_be_seen() -> None:
    verdict = spot_check(RULES, spot_bonus=30, distance_ft=0, target=SpotTarget.MOVING)
    assert verdict.notes[0].rule == "DD-1"
    assert verdict.state is AwarenessState.PRESENCE  # never observed


# DD-2 ----------------------------------------------------------------------------------------


def test_DD2_critical_hits_yes_sneak_attack_and_favored_enemy_no() -> None:
    assert traits.extra_damage_applies(traits.ExtraDamage.CRITICAL)[0]
    assert not traits.extra_damage_applies(traits.ExtraDamage.SNEAK_ATTACK)[0]
    applies, line = traits.extra_damage_applies(traits.ExtraDamage.FAVORED_ENEMY)
    assert not applies and line.rule == "DD-2"


# DD-3 ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("target", "dc"),
    [
        (SpotTarget.MOVING, 20),
        (SpotTarget.STILL, 30),
        (SpotTarget.IMMOBILE, 40),
        (SpotTarget.OBJECT, 40),
        (SpotTarget.NON_BREATHING, 40),
    ],
)
def test_DD3_spot_dc_by_target(target: SpotTarget, dc: int) -> None:
    verdict = spot_check(RULES, spot_bonus=0, distance_ft=0, target=target)
    assert verdict.difficulty == dc
    assert verdict.dice_kind == "d20"
    assert verdict.chance == Fraction(max(0, min(20, 21 - dc)), 20)


def test_DD3_within_30_ft_only() -> None:
    at_30 = spot_check(RULES, spot_bonus=25, distance_ft=30, target=SpotTarget.MOVING)
    assert not at_30.impossible and at_30.chance > 0
    beyond = spot_check(RULES, spot_bonus=25, distance_ft=30.5, target=SpotTarget.MOVING)
    assert beyond.impossible and beyond.chance == 0
    assert any(n.rule == "DD-3" and n.reason == "dnd35.spot.out_of_range" for n in beyond.notes)


def test_DD3_companion_distance_and_distraction() -> None:
    verdict = spot_check(
        RULES, spot_bonus=10, distance_ft=25, target=SpotTarget.MOVING, distracted=True
    )
    companions = [m for m in verdict.modifiers if m.companion]
    assert [m.value for m in companions] == [-2, -5]
    assert verdict.die_bonus == 3
    assert verdict.chance == Fraction(4, 20)  # d20 + 3 >= 20: 17..20


def test_DD3_companion_rules_switch_off(tmp_path: Path) -> None:
    rules = house(tmp_path, "[companion]\nspot_distance = false\nspot_distracted = false\n")
    verdict = spot_check(
        rules, spot_bonus=10, distance_ft=25, target=SpotTarget.MOVING, distracted=True
    )
    assert not any(m.companion for m in verdict.modifiers)
    assert verdict.die_bonus == 10


def test_DD3_success_gives_presence_only() -> None:
    verdict = spot_check(
        RULES, spot_bonus=5, distance_ft=5, target=SpotTarget.MOVING, source=given(15)
    )
    assert verdict.success and verdict.state is AwarenessState.PRESENCE
    assert verdict.outcome == "dnd35.spot.noticed"


def test_DD3_house_rule_number_is_marked(tmp_path: Path) -> None:
    rules = house(tmp_path, "[spot.dc]\nmoving = 15\n")
    verdict = spot_check(rules, spot_bonus=0, distance_ft=0, target=SpotTarget.MOVING)
    assert verdict.difficulty == 15
    assert verdict.modifiers[0].overridden


# DD-4 ----------------------------------------------------------------------------------------


def test_DD4_pinpoint_adds_20_and_keeps_total_concealment() -> None:
    verdict = spot_check(
        RULES, spot_bonus=25, distance_ft=0, target=SpotTarget.MOVING, pinpoint=True
    )
    assert verdict.difficulty == 40
    assert verdict.state is AwarenessState.LOCATION
    concealed = [n for n in verdict.notes if n.reason == "dnd35.spot.still_concealed"]
    assert concealed and concealed[0].rule == "DD-4" and concealed[0].params["percent"] == 50
    plain = spot_check(RULES, spot_bonus=25, distance_ft=0, target=SpotTarget.MOVING)
    assert plain.figures.chance_pinpoint == verdict.chance


def test_DD4_a_result_20_over_the_dc_pinpoints() -> None:
    verdict = spot_check(
        RULES, spot_bonus=20, distance_ft=0, target=SpotTarget.MOVING, source=given(20)
    )
    assert verdict.state is AwarenessState.LOCATION
    assert verdict.outcome == "dnd35.spot.pinpointed"


# DD-5 ----------------------------------------------------------------------------------------


def test_DD5_ties_go_to_the_listener() -> None:
    verdict = listen_check(RULES, listen_bonus=0, move_silently=0)
    assert verdict.chance == Fraction(210, 400)  # meet or beat over 400 pairs
    tie = listen_check(RULES, listen_bonus=0, move_silently=0, source=given(12, 12))
    assert tie.success and tie.outcome == "dnd35.listen.heard"
    assert tie.state is AwarenessState.DIRECTION


def test_DD5_pinpoint_on_a_margin_of_20() -> None:
    hit = listen_check(RULES, listen_bonus=20, move_silently=0, source=given(1, 1))
    assert hit.figures.dc == 1 and hit.figures.result == 21
    assert hit.state is AwarenessState.LOCATION and hit.outcome == "dnd35.listen.pinpointed"
    short = listen_check(RULES, listen_bonus=19, move_silently=0, source=given(1, 1))
    assert short.state is AwarenessState.DIRECTION


def test_DD5_speaking_is_dc_0_and_only_the_listener_rolls() -> None:
    verdict = listen_check(RULES, listen_bonus=-5, speaking=True, distance_ft=40)
    assert verdict.dice_kind == "d20" and verdict.difficulty == 4
    assert verdict.chance == Fraction(12, 20)  # d20 - 5 >= 4: 9..20
    rolled = listen_check(RULES, listen_bonus=0, speaking=True, source=given(7))
    assert rolled.roll is not None and len(rolled.roll.dice) == 1


@pytest.mark.parametrize(("speed", "value"), [("half", 0), ("full", -4), ("run", -20)])
def test_DD5_speed_table(speed: str, value: int) -> None:
    verdict = listen_check(RULES, listen_bonus=0, move_silently=5, speed=ListenSpeed(speed))
    speeds = [m for m in verdict.modifiers if m.source == f"listen.{speed}"]
    assert speeds[0].value == value and speeds[0].companion
    assert verdict.chance == listen_check(RULES, listen_bonus=-value, move_silently=5).chance


def test_DD5_dex_with_armor_penalty_for_no_ranks() -> None:
    verdict = listen_check(RULES, listen_bonus=0, dex=3, armor_penalty=2)
    assert [m.value for m in verdict.modifiers[:2]] == [3, -2]
    same = listen_check(RULES, listen_bonus=0, dex=3, armor_penalty=-2)
    assert (
        same.chance == verdict.chance == listen_check(RULES, listen_bonus=0, move_silently=1).chance
    )


def test_DD5_distance_door_wall_distracted_asleep() -> None:
    verdict = listen_check(
        RULES,
        listen_bonus=0,
        move_silently=0,
        distance_ft=35,
        door=True,
        stone_wall=True,
        distracted=True,
        asleep=True,
    )
    dc_part = sum(m.value for m in verdict.modifiers if m.kind != "die")
    assert dc_part == 3 + 5 + 15 + 5
    assert verdict.die_bonus == -10
    assert all(m.companion for m in verdict.modifiers if m.source)


def test_DD5_companion_table_off(tmp_path: Path) -> None:
    rules = house(tmp_path, "[companion]\nlisten_dc_table = false\nlisten_conditions = false\n")
    verdict = listen_check(
        rules, listen_bonus=0, move_silently=2, distance_ft=50, door=True, asleep=True
    )
    assert [m.value for m in verdict.modifiers] == [2, 0]
    with pytest.raises(InputError):
        listen_check(rules, listen_bonus=0, speaking=True)  # DC falls back on Move Silently


def test_DD5_contradictions_are_refused() -> None:
    with pytest.raises(InputError, match="--dex"):
        listen_check(RULES, listen_bonus=0, move_silently=1, dex=1)
    with pytest.raises(InputError, match="--armor-penalty"):
        listen_check(RULES, listen_bonus=0, move_silently=1, armor_penalty=2)
    with pytest.raises(InputError, match="--speed"):
        listen_check(RULES, listen_bonus=0, speaking=True, speed=ListenSpeed.FULL)
    with pytest.raises(InputError, match="--move-silently"):
        listen_check(RULES, listen_bonus=0)


# DD-6 ----------------------------------------------------------------------------------------


def test_DD6_touch_attack_then_50_percent() -> None:
    verdict = grope_check(RULES, touch_attack=2, touch_ac=12)
    assert verdict.chance == Fraction(11, 20) * Fraction(1, 2)
    assert verdict.figures.chance_touch == Fraction(11, 20)
    assert verdict.state is AwarenessState.LOCATION


def test_DD6_natural_1_misses_natural_20_hits_and_rolls_the_miss_chance() -> None:
    one = grope_check(RULES, touch_attack=50, touch_ac=0, source=given(1))
    assert not one.success and one.roll is not None and len(one.roll.dice) == 1
    twenty = grope_check(RULES, touch_attack=0, touch_ac=100, source=given(20, 51))
    assert twenty.success and twenty.outcome == "dnd35.grope.found"
    struck = grope_check(RULES, touch_attack=0, touch_ac=100, source=given(20, 50))
    assert not struck.success


def test_DD6_empty_squares_find_nothing_and_read_like_a_miss() -> None:
    empty = grope_check(RULES, touch_attack=5, touch_ac=10, occupied=False, source=given(15, 90))
    assert empty.chance == 0 and not empty.success
    missed = grope_check(RULES, touch_attack=5, touch_ac=10, source=given(15, 10))
    assert empty.player_outcome == missed.player_outcome == "dnd35.grope.player_nothing"
    assert empty.player_notes == missed.player_notes


def test_DD6_touch_attack_switch_off(tmp_path: Path) -> None:
    rules = house(tmp_path, "[companion]\ngrope_touch_attack = false\n")
    verdict = grope_check(rules, touch_attack=0, touch_ac=30, source=given(51))
    assert verdict.chance == Fraction(1, 2) and verdict.success


# DD-7 ----------------------------------------------------------------------------------------


def test_DD7_struck_location_or_direction() -> None:
    assert traits.struck_by_invisible(RULES)[0] is AwarenessState.LOCATION
    state, line = traits.struck_by_invisible(RULES, reach_ft=10)
    assert state is AwarenessState.DIRECTION and line.rule == "DD-7"
    ranged, line = traits.struck_by_invisible(RULES, ranged=True)
    assert ranged is AwarenessState.DIRECTION and line.companion
    assert traits.struck_by_invisible(RULES, moved_at_once=True)[0] is AwarenessState.PRESENCE
    with pytest.raises(InputError):
        traits.struck_by_invisible(RULES, reach_ft=-5)


def test_DD7_ranged_companion_off(tmp_path: Path) -> None:
    rules = house(tmp_path, "[companion]\nranged_gives_direction = false\n")
    assert traits.struck_by_invisible(rules, ranged=True)[0] is AwarenessState.LOCATION


# DD-8 ----------------------------------------------------------------------------------------


def test_DD8_located_total_concealment_and_gm_may_lower_it() -> None:
    assert attack_check(RULES, miss_chance=50).chance == Fraction(1, 2)
    lowered = attack_check(RULES, miss_chance=20)
    assert lowered.chance == Fraction(4, 5)
    assert any(n.reason == "dnd35.attack.gm_miss_chance" for n in lowered.notes)
    for bad in (-1, 101):
        with pytest.raises(InputError, match="--miss-chance"):
            attack_check(RULES, miss_chance=bad)


# DD-9 ----------------------------------------------------------------------------------------


def test_DD9_wrong_square_always_misses_but_rolls_the_miss_chance() -> None:
    source = given(99)
    verdict = attack_check(RULES, miss_chance=50, square=Square.WRONG, source=source)
    source.finish()  # the d100 was rolled anyway
    assert verdict.chance == 0 and not verdict.success
    assert verdict.outcome == "dnd35.attack.wrong_square_miss"
    right = attack_check(RULES, miss_chance=50, square=Square.CORRECT, source=given(10))
    assert right.outcome == "dnd35.attack.miss_chance_struck"
    assert verdict.player_outcome == right.player_outcome == "dnd35.attack.player_miss"
    assert verdict.player_notes == right.player_notes
    assert verdict.question == right.question


# DD-10, DD-11 --------------------------------------------------------------------------------


def test_DD10_objects_and_flour() -> None:
    assert traits.carried_object_visible(picked_up_visible=True)[0]
    assert not traits.carried_object_visible(picked_up_visible=True, tucked_away=True)[0]
    assert not traits.carried_object_visible(picked_up_visible=False)[0]
    state, line = traits.flour_reveals()
    assert state is AwarenessState.LOCATION and line.rule == "DD-10"
    assert traits.flour_reveals(flour_fallen=True)[0] is AwarenessState.UNAWARE


def test_DD11_tracks() -> None:
    trackable, line = traits.tracks(soft_ground=True)
    assert trackable and line.rule == "DD-11" and "soft_ground" in line.reason
    assert traits.tracks()[0]


# DD-12 ---------------------------------------------------------------------------------------


def test_DD12_in_water_only_concealment() -> None:
    verdict = attack_check(RULES, miss_chance=50, in_liquid=True)
    assert verdict.chance == Fraction(4, 5)
    assert verdict.figures.miss_chance == 20
    assert attack_check(RULES, miss_chance=10, in_liquid=True).chance == Fraction(9, 10)


def test_DD12_companion_off_keeps_the_gm_number(tmp_path: Path) -> None:
    rules = house(tmp_path, "[companion]\nin_liquid_miss_chance = false\n")
    assert attack_check(rules, miss_chance=30, in_liquid=True).chance == Fraction(7, 10)


# DD-13 ---------------------------------------------------------------------------------------


def test_DD13_scent_tracks_invisible_creatures() -> None:
    works, line = traits.scent_tracks()
    assert works and line.rule == "DD-13"
    assert not traits.scent_tracks((Condition.INVISIBLE, Condition.INCORPOREAL))[0]


# DD-14 ---------------------------------------------------------------------------------------


def test_DD14_blind_fight_rolls_twice() -> None:
    verdict = attack_check(RULES, miss_chance=50, blind_fight=True)
    assert verdict.chance == Fraction(3, 4)
    source = given(10, 60)
    rolled = attack_check(RULES, miss_chance=50, blind_fight=True, source=source)
    source.finish()
    assert rolled.success
    assert not attack_check(RULES, miss_chance=50, blind_fight=True, source=given(10, 50)).success
    assert traits.blind_fight_works()[0]


# DD-15 ---------------------------------------------------------------------------------------


def test_DD15_blindsight_no_miss_chance_no_dice() -> None:
    source = given()
    verdict = attack_check(RULES, miss_chance=50, blindsight=True, blind_fight=True, source=source)
    source.finish()
    assert verdict.chance == 1 and verdict.automatic and verdict.success
    assert verdict.state is AwarenessState.OBSERVED
    with pytest.raises(InputError):
        attack_check(RULES, miss_chance=50, blindsight=True, square=Square.WRONG)


# DD-16 ---------------------------------------------------------------------------------------


def test_DD16_invisible_light_still_lights() -> None:
    lit, line = traits.light_source(lit=True)
    assert lit and line.rule == "DD-16"
    assert not traits.light_source(lit=False)[0]


# DD-17 ---------------------------------------------------------------------------------------


def test_DD17_blind_fight_and_blindsight_fail_on_incorporeal() -> None:
    verdict = attack_check(RULES, miss_chance=50, blind_fight=True, incorporeal=True)
    assert verdict.chance == Fraction(1, 2)
    seeing = attack_check(RULES, miss_chance=50, blindsight=True, incorporeal=True)
    assert seeing.chance == Fraction(1, 2) and not seeing.automatic
    assert "DD-17" in rules_of(verdict) and "DD-17" in rules_of(seeing)
    assert not traits.blind_fight_works((Condition.ETHEREAL,))[0]
    assert not traits.blind_fight_works((Condition.INCORPOREAL,))[0]


# DD-18, DD-19 --------------------------------------------------------------------------------


def test_DD18_no_gaze_while_invisible() -> None:
    allowed, line = traits.gaze_attack_allowed(invisible=True)
    assert not allowed and line.rule == "DD-18"
    assert traits.gaze_attack_allowed(invisible=False)[0]


def test_DD19_divination_sees_through_invisibility() -> None:
    works, line = traits.divination_works((Condition.ETHEREAL,))
    assert works and line.rule == "DD-19"


# DD-20 ---------------------------------------------------------------------------------------


def test_DD20_one_observer_is_the_opposed_check() -> None:
    for hide, spot in [(5, 5), (5, 3), (3, 5), (0, 19), (19, 0)]:
        verdict = hide_check(RULES, hide_bonus=hide, spot_bonuses=[spot])
        assert verdict.members[0].chance == opposed_dnd_chance(spot, hide)
        assert verdict.chance == 1 - opposed_dnd_chance(spot, hide)
        assert verdict.members[0].state is AwarenessState.OBSERVED


def test_DD20_one_hide_roll_for_all_observers() -> None:
    verdict = hide_check(RULES, hide_bonus=5, spot_bonuses=[5, 5])
    independent = (1 - verdict.members[0].chance) * (1 - verdict.members[1].chance)
    assert verdict.chance > independent  # a good Hide roll beats both at once
    source = given(20, 3, 4)
    hide_check(RULES, hide_bonus=5, spot_bonuses=[5, 5], source=source)
    source.finish()  # one Hide die, one Spot die each


def test_DD20_tie_rule_higher_modifier_then_reroll() -> None:
    higher = hide_check(RULES, hide_bonus=3, spot_bonuses=[5], source=given(12, 10))
    assert higher.members[0].success  # 15 = 15, Spot +5 > Hide +3
    lower = hide_check(RULES, hide_bonus=5, spot_bonuses=[3], source=given(10, 12))
    assert not lower.members[0].success
    source = given(10, 10, 7, 7, 4, 9)  # tie, equal modifiers: rerolled until settled
    again = hide_check(RULES, hide_bonus=5, spot_bonuses=[5], source=source)
    source.finish()
    assert again.members[0].success
    assert again.members[0].notes[0].reason == "dnd35.hide.tie_reroll"


def test_DD20_tie_rule_off_ties_to_the_hider(tmp_path: Path) -> None:
    rules = house(tmp_path, "[companion]\nopposed_tie_rule = false\n")
    verdict = hide_check(rules, hide_bonus=0, spot_bonuses=[5], source=given(15, 10))
    assert not verdict.members[0].success
    strict = Fraction(sum(1 for h in range(1, 21) for o in range(1, 21) if o + 5 > h), 400)
    assert verdict.members[0].chance == strict


def test_DD20_speed_size_and_distance() -> None:
    verdict = hide_check(
        RULES,
        hide_bonus=10,
        spot_bonuses=[4],
        speed=HideSpeed.RUN,
        size=Size.SMALL,
        distance_ft=20,
    )
    assert [m.value for m in verdict.modifiers] == [10, -20, 4, -2]
    assert all(m.companion for m in verdict.modifiers[1:])
    full = hide_check(RULES, hide_bonus=10, spot_bonuses=[4], speed=HideSpeed.FULL)
    assert full.modifiers[1].value == -5
    assert verdict.members[0].chance == opposed_dnd_chance(2, -6)


def test_DD20_limits() -> None:
    with pytest.raises(InputError):
        hide_check(RULES, hide_bonus=0, spot_bonuses=[])
    with pytest.raises(LimitError):
        hide_check(RULES, hide_bonus=0, spot_bonuses=[0] * 1001)
    with pytest.raises(LimitError):
        hide_check(RULES, hide_bonus=1000, spot_bonuses=[0])


# DD-21 ---------------------------------------------------------------------------------------


def test_DD21_invisible_attacker_plus_2_no_dex() -> None:
    modifiers, lines = traits.invisible_attacker(RULES)
    assert [m.value for m in modifiers] == [2]
    assert modifiers[0].companion and modifiers[0].rule == "DD-21"
    assert lines[0].reason == "dnd35.traits.attacker.no_dex"
    assert traits.invisible_attacker(RULES, defender_sees_invisible=True)[0] == ()


def test_DD21_switch_off(tmp_path: Path) -> None:
    rules = house(tmp_path, "[companion]\ninvisible_attacker = false\n")
    assert traits.invisible_attacker(rules) == ((), ())
