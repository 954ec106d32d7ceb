"""Each Starfinder rule of RULES.md §2, by ID (SF-1..SF-11), with exact odds against brute force."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vigile.awareness.ladder import AwarenessState
from vigile.checks.verdict import Verdict
from vigile.dice.source import GivenFaces
from vigile.errors import InputError, LimitError
from vigile.rulesets.data import RuleData, apply_overrides, shipped
from vigile.rulesets.starfinder import (
    Concealment,
    DcMod,
    Observer,
    Sense,
    Speed,
    adjacent_melee_attack,
    attack_check,
    can_attack,
    flat_footed,
    hide_check,
    is_immobile,
    is_unseen,
    may_stay_hidden,
    notice_chance,
    noticed_state,
    observer_outcome,
    parse_dc_mod,
    perception_success,
    state_chances_after,
    unseen_effects,
)

A = AwarenessState
FACES = range(1, 21)


@pytest.fixture
def sf() -> RuleData:
    return shipped("starfinder")


def override(text: str) -> RuleData:
    return apply_overrides(shipped("starfinder"), text, "house.toml")


def cited(verdict: Verdict) -> set[str]:
    return {m.rule for m in verdict.modifiers} | {n.rule for n in verdict.notes}


def reasons(verdict: Verdict) -> dict[str, int]:
    return {m.reason: m.value for m in verdict.modifiers}


def bf_hidden(stealth: int, perceptions: list[int]) -> Fraction:
    """Every face of the hider's d20 and of each observer's: hidden iff no observer meets."""
    hits = 0
    total = 0
    for faces in itertools.product(FACES, repeat=1 + len(perceptions)):
        total += 1
        result = faces[0] + stealth
        if all(f + p < result for f, p in zip(faces[1:], perceptions, strict=True)):
            hits += 1
    return Fraction(hits, total)


def bf_notice(stealth: int, perception: int) -> Fraction:
    return Fraction(sum(1 for h in FACES for o in FACES if o + perception >= h + stealth), 400)


# --- SF-1 ----------------------------------------------------------------------------------


def test_SF1_stealth_is_a_dex_skill_with_the_armor_check_penalty(sf: RuleData) -> None:
    verdict = hide_check(sf, stealth=9, observers=[3], cover=True, armor_penalty=2)
    assert reasons(verdict) == {"starfinder.hide.stealth": 9, "starfinder.hide.armor_penalty": -2}
    assert "SF-1" in cited(verdict)
    assert verdict.figures.opposed.bonus == 7
    assert verdict.chance == bf_hidden(7, [3])
    # A penalty written as in a stat block (-2) is the same penalty.
    negative = hide_check(sf, stealth=9, observers=[3], cover=True, armor_penalty=-2)
    assert negative.chance == verdict.chance


# --- SF-2 ----------------------------------------------------------------------------------


def test_SF2_no_cover_no_concealment_no_diversion_is_refused_with_its_reason(sf: RuleData) -> None:
    verdict = hide_check(sf, stealth=20, observers=[0, 1])
    assert verdict.impossible and verdict.chance == 0 and verdict.success is False
    assert [n.rule for n in verdict.notes] == ["SF-2"]
    assert verdict.notes[0].reason == "starfinder.hide.no_shelter"
    assert all(m.chance == 1 and m.state is A.OBSERVED for m in verdict.members)
    assert verdict.player_notes == verdict.notes


@pytest.mark.parametrize(
    ("kwargs", "reason"),
    [
        ({"cover": True}, "allowed_cover"),
        ({"concealment": Concealment.PARTIAL}, "allowed_concealment"),
        ({"concealment": Concealment.TOTAL}, "allowed_total_concealment"),
        ({"invisible": True}, "allowed_invisible"),
        ({"special_ability": True}, "allowed_ability"),
        ({"bluff_diversion": True}, "allowed_diversion"),
    ],
)
def test_SF2_each_way_to_hide_is_allowed(
    sf: RuleData, kwargs: dict[str, object], reason: str
) -> None:
    verdict = hide_check(sf, stealth=5, observers=[5], **kwargs)  # type: ignore[arg-type]
    assert not verdict.impossible
    assert verdict.notes[0].reason == f"starfinder.hide.{reason}"
    assert verdict.notes[0].rule == "SF-2"


# --- SF-3 ----------------------------------------------------------------------------------


def test_SF3_half_speed_no_penalty_faster_and_bluff_minus_10_each_stacking(sf: RuleData) -> None:
    half = hide_check(sf, stealth=10, observers=[0], cover=True)
    assert reasons(half) == {"starfinder.hide.stealth": 10}
    assert any(n.reason == "starfinder.hide.half_speed" and n.rule == "SF-3" for n in half.notes)
    fast = hide_check(sf, stealth=10, observers=[0], cover=True, speed=Speed.MORE_THAN_HALF)
    assert reasons(fast)["starfinder.hide.faster"] == -10
    both = hide_check(
        sf, stealth=10, observers=[0], cover=True, speed=Speed.MORE_THAN_HALF, bluff_diversion=True
    )
    assert reasons(both)["starfinder.hide.bluff"] == -10
    assert both.figures.opposed.bonus == -10
    assert both.chance == bf_hidden(-10, [0])
    assert {m.rule for m in both.modifiers} == {"SF-1", "SF-3"}


def test_SF3_the_penalties_are_house_rule_numbers() -> None:
    rules = override("[stealth]\nfaster_than_half = -5\n")
    verdict = hide_check(rules, stealth=0, observers=[0], cover=True, speed=Speed.MORE_THAN_HALF)
    faster = next(m for m in verdict.modifiers if m.rule == "SF-3")
    assert faster.value == -5 and faster.overridden and faster.source == "stealth.faster_than_half"


# --- SF-4 ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("stealth", "perception"),
    [(0, 0), (5, 3), (3, 5), (12, 5), (-4, 10), (30, 0), (0, 30), (19, 0), (0, 19), (20, 0)],
)
def test_SF4_ties_go_to_the_observer_against_brute_force(
    sf: RuleData, stealth: int, perception: int
) -> None:
    verdict = hide_check(sf, stealth=stealth, observers=[perception], cover=True)
    assert verdict.chance == bf_hidden(stealth, [perception])
    assert verdict.members[0].chance == bf_notice(stealth, perception)
    assert verdict.chance + verdict.members[0].chance == 1
    assert verdict.dice_kind == "opposed"


@pytest.mark.parametrize("advantage", range(-45, 46))
def test_SF4_one_observer_closed_form_against_brute_force(advantage: int) -> None:
    assert notice_chance(advantage) == bf_notice(0, advantage)


def test_SF4_equal_bonuses_favour_the_observer(sf: RuleData) -> None:
    # 210 of 400 pairs meet or beat: the tie goes to the observer.
    assert hide_check(sf, stealth=4, observers=[4], cover=True).members[0].chance == Fraction(
        21, 40
    )


@pytest.mark.parametrize(
    ("stealth", "perceptions"),
    [(10, [5, 5]), (8, [2, 12]), (0, [-3, 4]), (15, [0, 25]), (5, [3, 6, 9])],
)
def test_SF4_one_stealth_roll_is_the_dc_of_every_observer(
    sf: RuleData, stealth: int, perceptions: list[int]
) -> None:
    verdict = hide_check(sf, stealth=stealth, observers=perceptions, cover=True)
    assert verdict.chance == bf_hidden(stealth, perceptions)
    for member, p in zip(verdict.members, perceptions, strict=True):
        assert member.chance == bf_notice(stealth, p)
    # Not independent: the product of each observer's miss chance is not the answer.
    independent = Fraction(1)
    for member in verdict.members:
        independent *= 1 - member.chance
    assert verdict.chance != independent


def test_SF4_gm_circumstance_modifiers_each_with_its_label(sf: RuleData) -> None:
    verdict = hide_check(
        sf,
        stealth=5,
        observers=[5],
        cover=True,
        dc_mods=[DcMod(2, "dim light"), DcMod(-3, "noisy boots")],
    )
    mods = [m for m in verdict.modifiers if m.reason == "starfinder.hide.dc_mod"]
    assert [(m.value, m.params["label"], m.rule) for m in mods] == [
        (2, "dim light", "SF-4"),
        (-3, "noisy boots", "SF-4"),
    ]
    assert verdict.chance == bf_hidden(4, [5])
    assert parse_dc_mod("+2:dim light") == DcMod(2, "dim light")
    assert parse_dc_mod("−1: fog ") == DcMod(-1, "fog")
    for bad in ("2", "x:fog", "2:"):
        with pytest.raises(InputError, match="--dc-mod"):
            parse_dc_mod(bad)
    with pytest.raises(LimitError, match="--dc-mod"):
        parse_dc_mod("500:far")


def test_SF4_sound_distance_companion_is_off_by_default_and_switchable(sf: RuleData) -> None:
    off = hide_check(sf, stealth=5, observers=[5], cover=True, distance_ft=35)
    assert off.chance == bf_hidden(5, [5])
    assert any(n.reason == "starfinder.hide.no_distance_modifier" for n in off.notes)
    rules = override("[companion]\nsound_distance = true\n")
    on = hide_check(rules, stealth=5, observers=[5], cover=True, distance_ft=35)
    sound = next(m for m in on.modifiers if m.reason == "starfinder.hide.sound")
    assert sound.value == 3 and sound.companion and sound.rule == "SF-4"
    assert on.chance == bf_hidden(8, [5])
    forest = hide_check(rules, stealth=5, observers=[5], cover=True, distance_ft=35, forest=True)
    assert reasons(forest)["starfinder.hide.sound_forest"] == 6


def test_SF4_rolling_takes_stealth_first_then_each_observer_in_order(sf: RuleData) -> None:
    # Stealth 10 + 5 = 15; observers +5 and +0 roll 10 (meets: ties go to the observer) and 14.
    verdict = hide_check(
        sf, stealth=5, observers=[5, 0], cover=True, source=GivenFaces([10, 10, 14])
    )
    assert verdict.figures.opposed.result == 15
    assert [m.success for m in verdict.members] == [True, False]
    assert [m.difficulty for m in verdict.members] == [15, 15]
    assert verdict.success is False and verdict.outcome == "starfinder.hide.noticed"
    assert verdict.noticed_by == 1
    assert verdict.members[0].figures.state_after == AwarenessState.OBSERVED
    assert verdict.members[1].figures.state_after == AwarenessState.UNAWARE
    hidden = hide_check(sf, stealth=5, observers=[5], cover=True, source=GivenFaces([11, 10]))
    assert hidden.success is True and hidden.outcome == "starfinder.hide.hidden"
    assert hidden.player_outcome == "starfinder.hide.player_unknown"


def test_SF4_seeded_rolls_replay(sf: RuleData) -> None:
    import numpy as np

    from vigile.dice.source import RolledFaces

    def once() -> Verdict:
        return hide_check(
            sf,
            stealth=5,
            observers=[1, 2, 3],
            cover=True,
            source=RolledFaces(np.random.default_rng(9)),
        )

    assert once() == once()


# --- SF-5 ----------------------------------------------------------------------------------


def test_SF5_failing_and_succeeding_observers_map_to_states(sf: RuleData) -> None:
    seen = hide_check(sf, stealth=5, observers=[5], cover=True)
    assert seen.members[0].state is A.OBSERVED and seen.state is A.UNAWARE
    assert {"starfinder.hide.failing_observers", "starfinder.hide.succeeding_observe"} <= {
        n.reason for n in seen.notes
    }
    for kwargs in ({"invisible": True}, {"concealment": Concealment.TOTAL}):
        total = hide_check(sf, stealth=5, observers=[5], **kwargs)  # type: ignore[arg-type]
        assert total.members[0].state is A.LOCATION
        assert any(n.reason == "starfinder.hide.succeeding_locate" for n in total.notes)
    assert noticed_state(True) is A.LOCATION and noticed_state(False) is A.OBSERVED


def test_SF5_observer_outcome() -> None:
    assert observer_outcome(True, total_concealment=False).after is A.OBSERVED
    assert observer_outcome(True, total_concealment=True).after is A.LOCATION
    # A success never loses knowledge.
    assert observer_outcome(True, total_concealment=True, before=A.OBSERVED).after is A.OBSERVED
    failed = observer_outcome(False, total_concealment=False, before=A.PRESENCE)
    assert failed.after is A.UNAWARE and failed.line.rule == "SF-5"
    out = observer_outcome(False, total_concealment=False, keeps_shelter=False)
    assert out.after is A.OBSERVED
    assert observer_outcome(False, total_concealment=True, keeps_shelter=False).after is A.UNAWARE


# --- SF-6 ----------------------------------------------------------------------------------


def test_SF6_staying_hidden_needs_cover_or_concealment_at_the_end_of_the_turn(sf: RuleData) -> None:
    assert may_stay_hidden(lost_shelter_during_turn=False, shelter_at_end_of_turn=True).allowed
    regained = may_stay_hidden(lost_shelter_during_turn=True, shelter_at_end_of_turn=True)
    assert regained.allowed and regained.line.rule == "SF-6"
    assert not may_stay_hidden(lost_shelter_during_turn=True, shelter_at_end_of_turn=False).allowed
    refused = hide_check(sf, stealth=5, observers=[5], lost_shelter_this_turn=True)
    assert refused.impossible and [n.rule for n in refused.notes] == ["SF-2", "SF-6"]
    allowed = hide_check(sf, stealth=5, observers=[5], cover=True, lost_shelter_this_turn=True)
    assert not allowed.impossible and "SF-6" in cited(allowed)


# --- SF-7 ----------------------------------------------------------------------------------


def test_SF7_invisible_or_totally_concealed_and_immobile_plus_40_invisible_moving_plus_20(
    sf: RuleData,
) -> None:
    still = hide_check(sf, stealth=5, observers=[5], invisible=True, immobile=True)
    assert reasons(still)["starfinder.hide.invisible_immobile"] == 40
    assert any(n.reason == "starfinder.hide.immobile_definition" for n in still.notes)
    total = hide_check(sf, stealth=5, observers=[5], concealment=Concealment.TOTAL, immobile=True)
    assert reasons(total)["starfinder.hide.total_immobile"] == 40
    moving = hide_check(sf, stealth=5, observers=[5], invisible=True)
    assert reasons(moving)["starfinder.hide.invisible_moving"] == 20
    assert moving.chance == bf_hidden(25, [5])
    # Total concealment without invisibility gives nothing while moving.
    total_moving = hide_check(sf, stealth=5, observers=[5], concealment=Concealment.TOTAL)
    assert "SF-7" not in {m.rule for m in total_moving.modifiers}
    with pytest.raises(InputError, match="--immobile"):
        hide_check(
            sf, stealth=5, observers=[5], invisible=True, immobile=True, speed=Speed.MORE_THAN_HALF
        )


@pytest.mark.parametrize(
    ("your_turn", "moved_this_turn", "moved_since", "immobile"),
    [
        (True, False, True, True),
        (True, True, True, False),
        (False, False, False, True),
        (False, False, True, False),
        (True, True, False, True),
    ],
)
def test_SF7_immobility_definition(
    your_turn: bool, moved_this_turn: bool, moved_since: bool, immobile: bool
) -> None:
    assert (
        is_immobile(
            your_turn=your_turn,
            moved_this_turn=moved_this_turn,
            moved_since_last_turn_start=moved_since,
        )
        is immobile
    )


# --- SF-8 ----------------------------------------------------------------------------------


def bf_pass(percent: int, rolls: int) -> Fraction:
    outcomes = list(itertools.product(range(1, 101), repeat=rolls))
    return Fraction(sum(1 for r in outcomes if any(f > percent for f in r)), len(outcomes))


@pytest.mark.parametrize("percent", [0, 1, 20, 50, 99, 100])
def test_SF8_the_miss_chance_against_every_percentile(sf: RuleData, percent: int) -> None:
    verdict = attack_check(sf, miss_chance=percent)
    assert verdict.chance == bf_pass(percent, 1)
    assert verdict.dice_kind == "percentile" and "SF-8" in cited(verdict)
    blind = attack_check(sf, miss_chance=percent, blind_fight=True)
    assert blind.chance == bf_pass(percent, 2)
    assert any(n.companion and n.reason == "starfinder.attack.blind_fight" for n in blind.notes)


def test_SF8_located_default_fifty_percent_and_refused_unless_located(sf: RuleData) -> None:
    assert attack_check(sf).chance == Fraction(1, 2)
    assert attack_check(sf).figures.miss_chance == 50
    for state in (A.UNAWARE, A.PRESENCE):
        refused = attack_check(sf, awareness=state)
        assert refused.impossible and refused.chance == 0
        assert refused.notes[0].rule == "SF-8"
    assert attack_check(sf, awareness=A.OBSERVED).chance == 1


def test_SF8_rolls_one_d100_or_two_with_blind_fight(sf: RuleData) -> None:
    stopped = attack_check(sf, source=GivenFaces([50]))
    assert stopped.success is False and stopped.outcome == "starfinder.attack.stopped"
    lands = attack_check(sf, source=GivenFaces([51]))
    assert lands.success is True
    source = GivenFaces([10, 90])
    blind = attack_check(sf, blind_fight=True, source=source)
    source.finish()
    assert blind.success is True and blind.roll is not None and len(blind.roll.dice) == 2
    assert attack_check(sf, blind_fight=True, source=GivenFaces([10, 50])).success is False


def test_SF8_bad_miss_chance_and_blind_fight_switched_off(sf: RuleData) -> None:
    for bad in (-1, 101):
        with pytest.raises(InputError, match="--miss-chance"):
            attack_check(sf, miss_chance=bad)
    rules = override("[companion]\nblind_fight = false\n")
    with pytest.raises(InputError, match="--blind-fight"):
        attack_check(rules, blind_fight=True)


# --- SF-9 ----------------------------------------------------------------------------------


def test_SF9_flat_footed_against_the_first_attack_and_while_invisible(sf: RuleData) -> None:
    assert flat_footed(hidden=True, first_attack=True).allowed
    assert not flat_footed(hidden=False, first_attack=True).allowed
    assert flat_footed(hidden=True, first_attack=False, still_invisible=True).allowed
    assert not flat_footed(
        hidden=True, first_attack=False, still_invisible=True, located=True
    ).allowed
    assert not flat_footed(hidden=True, first_attack=False, still_invisible=False).allowed
    assert flat_footed(hidden=True, first_attack=True).line.rule == "SF-9"
    verdict = hide_check(sf, stealth=5, observers=[5], cover=True)
    assert any(
        n.reason == "starfinder.hide.flat_footed" and n.rule == "SF-9" for n in verdict.notes
    )


# --- SF-10 ---------------------------------------------------------------------------------


def test_SF10_sniping_minus_20_and_ten_feet_or_more(sf: RuleData) -> None:
    verdict = hide_check(sf, stealth=25, observers=[5], cover=True, sniping=True, distance_ft=10)
    assert reasons(verdict)["starfinder.hide.sniping"] == -20
    assert verdict.chance == bf_hidden(5, [5])
    assert any(n.rule == "SF-10" and n.params["distance"] == 10 for n in verdict.notes)
    # A rule that forbids the attempt is a verdict (refused, SF-10's 10 ft minimum); a missing
    # distance is an input error.
    near = hide_check(sf, stealth=25, observers=[5], cover=True, sniping=True, distance_ft=9.5)
    assert near.impossible and near.chance == 0 and near.outcome == "starfinder.hide.refused"
    assert [(n.rule, n.params["least"]) for n in near.notes] == [("SF-10", 10)]
    with pytest.raises(InputError, match="--sniping"):
        hide_check(sf, stealth=25, observers=[5], cover=True, sniping=True)
    house = override("[sniping]\nmin_distance_ft = 30\n")
    far = hide_check(house, stealth=25, observers=[5], cover=True, sniping=True, distance_ft=20)
    assert far.impossible and [n.params["least"] for n in far.notes] == [30]


# --- SF-11 ---------------------------------------------------------------------------------


def test_SF11_the_four_states_and_the_unseen() -> None:
    assert [is_unseen(s) for s in (A.UNAWARE, A.PRESENCE, A.LOCATION, A.OBSERVED)] == [
        True,
        True,
        True,
        False,
    ]
    effects = unseen_effects(A.LOCATION)
    assert [line.reason.rsplit(".", 1)[1] for line in effects] == [
        "unseen_concealment",
        "unseen_flat_footed",
        "unseen_stealth_bonus",
    ]
    assert effects[0].params["percent"] == 50 and all(line.rule == "SF-11" for line in effects)
    assert unseen_effects(A.LOCATION, blindsense=True)[2].reason.endswith("unseen_blindsense")
    assert unseen_effects(A.OBSERVED)[0].reason.endswith(".seen")
    assert [can_attack(s).allowed for s in (A.UNAWARE, A.PRESENCE, A.LOCATION, A.OBSERVED)] == [
        False,
        False,
        True,
        True,
    ]


def test_SF11_precise_senses_observe_imprecise_ones_locate_blindsense_at_once() -> None:
    assert perception_success(A.UNAWARE, Sense.BLINDSIGHT).after is A.OBSERVED
    assert perception_success(A.UNAWARE, Sense.SIGHT).after is A.OBSERVED
    blocked = perception_success(A.PRESENCE, Sense.SIGHT, target_invisible=True)
    assert blocked.after is A.PRESENCE
    assert perception_success(A.UNAWARE, Sense.BLINDSENSE).after is A.LOCATION
    assert perception_success(A.UNAWARE, Sense.HEARING).after is A.PRESENCE
    assert perception_success(A.PRESENCE, Sense.HEARING).after is A.LOCATION
    assert perception_success(A.OBSERVED, Sense.SCENT).after is A.OBSERVED


def test_SF11_an_adjacent_melee_attack_reveals_the_location() -> None:
    change = adjacent_melee_attack(A.UNAWARE)
    assert change.after is A.LOCATION and change.line.rule == "SF-11"
    assert adjacent_melee_attack(A.OBSERVED).after is A.OBSERVED


def test_SF11_blindsense_negates_the_invisibility_bonus(sf: RuleData) -> None:
    verdict = hide_check(
        sf,
        stealth=5,
        observers=[Observer(5), Observer(5, blindsense=True)],
        invisible=True,
        immobile=True,
    )
    plain, sensing = verdict.members
    assert plain.chance == bf_notice(45, 5)
    assert sensing.chance == bf_notice(5, 5)
    assert sensing.modifiers[0].value == -40 and sensing.modifiers[0].rule == "SF-11"
    assert verdict.chance == bf_hidden(45, [5, 45])
    rolled = hide_check(
        sf,
        stealth=5,
        observers=[Observer(5, blindsense=True)],
        invisible=True,
        immobile=True,
        source=GivenFaces([10, 10]),
    )
    assert rolled.members[0].difficulty == 15 and rolled.members[0].success is True
    off = override("[companion]\nblindsense_negates = false\n")
    same = hide_check(off, stealth=5, observers=[Observer(5, True)], invisible=True, immobile=True)
    assert same.members[0].chance == bf_notice(45, 5)


def test_SF11_state_chances_after_several_checks() -> None:
    half = Fraction(1, 2)
    hearing = state_chances_after(half, 2, Sense.HEARING)
    assert hearing[A.UNAWARE] == Fraction(1, 4)
    assert hearing[A.PRESENCE] == Fraction(1, 2)
    assert hearing[A.LOCATION] == Fraction(1, 4)
    assert sum(hearing.values()) == 1
    assert state_chances_after(half, 1, Sense.BLINDSENSE)[A.LOCATION] == half
    with pytest.raises(InputError):
        state_chances_after(Fraction(3, 2), 1, Sense.HEARING)


# --- limits --------------------------------------------------------------------------------


def test_bad_input_is_refused_clearly(sf: RuleData) -> None:
    with pytest.raises(LimitError, match="--stealth"):
        hide_check(sf, stealth=101, observers=[0], cover=True)
    with pytest.raises(LimitError, match="--perception"):
        hide_check(sf, stealth=0, observers=[-101], cover=True)
    with pytest.raises(InputError, match="--perception"):
        hide_check(sf, stealth=0, observers=[], cover=True)
    with pytest.raises(LimitError, match="1000"):
        hide_check(sf, stealth=0, observers=[0] * 1001, cover=True)
    for distance in (-1.0, float("nan"), float("inf")):
        with pytest.raises(InputError, match="--distance"):
            hide_check(sf, stealth=0, observers=[0], cover=True, distance_ft=distance)
    with pytest.raises(InputError, match="--forest"):
        hide_check(sf, stealth=0, observers=[0], cover=True, forest=True)
    with pytest.raises(LimitError, match="--armor-penalty"):
        hide_check(sf, stealth=0, observers=[0], cover=True, armor_penalty=500)


def test_a_thousand_observers_are_exact(sf: RuleData) -> None:
    verdict = hide_check(sf, stealth=30, observers=[i % 21 - 10 for i in range(1000)], cover=True)
    assert 0 <= verdict.chance <= 1 and len(verdict.members) == 1000


# --- properties ----------------------------------------------------------------------------

bonus = st.integers(min_value=-40, max_value=40)


@given(bonus, bonus, st.integers(min_value=0, max_value=30))
def test_a_better_perception_never_lowers_the_chance_to_notice(
    stealth: int, perception: int, better: int
) -> None:
    rules = shipped("starfinder")
    low = hide_check(rules, stealth=stealth, observers=[perception], cover=True)
    high = hide_check(rules, stealth=stealth, observers=[perception + better], cover=True)
    assert high.members[0].chance >= low.members[0].chance
    assert high.chance <= low.chance


@given(bonus, st.lists(bonus, min_size=1, max_size=6), bonus)
def test_another_observer_never_helps_the_hider(stealth: int, crowd: list[int], extra: int) -> None:
    rules = shipped("starfinder")
    before = hide_check(rules, stealth=stealth, observers=crowd, cover=True)
    after = hide_check(rules, stealth=stealth, observers=[*crowd, extra], cover=True)
    assert 0 <= after.chance <= before.chance <= 1
    # Hidden from all is never likelier than hidden from any one of them.
    assert all(before.chance <= 1 - m.chance for m in before.members)


@given(
    st.fractions(min_value=0, max_value=1),
    st.integers(min_value=0, max_value=6),
    st.sampled_from(list(Sense)),
    st.booleans(),
)
def test_pinpointing_is_never_likelier_than_noticing(
    p: Fraction, checks: int, sense: Sense, invisible: bool
) -> None:
    chances = state_chances_after(p, checks, sense, target_invisible=invisible)
    notice = 1 - chances[A.UNAWARE]
    pinpoint = chances[A.LOCATION] + chances[A.OBSERVED]
    assert pinpoint <= notice
    assert sum(chances.values()) == 1


@given(st.integers(min_value=0, max_value=100))
def test_blind_fight_never_lowers_the_chance_to_hit(percent: int) -> None:
    rules = shipped("starfinder")
    plain = attack_check(rules, miss_chance=percent).chance
    assert attack_check(rules, miss_chance=percent, blind_fight=True).chance >= plain
