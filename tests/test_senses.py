"""The senses and what blocks them (RULES.md §4; DD-1, DD-3, DD-5, DD-6, DD-12, DD-13, DD-15,
DD-17, DD-19; SF-11)."""

from __future__ import annotations

import itertools

import pytest

from vigile.awareness.ladder import AwarenessState
from vigile.io.i18n import Lang, tr
from vigile.rulesets.senses import Condition, Sense, best_reach, reach

INVISIBLE = (Condition.INVISIBLE,)
ALL_CONDITION_SETS = [
    combo
    for size in range(len(Condition) + 1)
    for combo in itertools.combinations(list(Condition), size)
]


def test_DD1_no_sight_sees_an_invisible_creature() -> None:
    for sense in (Sense.SIGHT, Sense.DARKVISION):
        found = reach(sense, INVISIBLE)
        assert found.state is not AwarenessState.OBSERVED
        assert found.line.rule == "DD-1"
    assert reach(Sense.SIGHT).state is AwarenessState.OBSERVED


def test_DD3_DD4_spot_at_best_pinpoints_an_invisible_creature() -> None:
    assert reach(Sense.SIGHT, INVISIBLE).state is AwarenessState.LOCATION
    breathless = reach(Sense.SIGHT, (Condition.INVISIBLE, Condition.NOT_BREATHING))
    assert breathless.state is AwarenessState.LOCATION
    assert breathless.line.rule == "DD-3"


def test_DD5_hearing_reaches_the_square_at_best() -> None:
    found = reach(Sense.HEARING, INVISIBLE)
    assert found.state is AwarenessState.LOCATION
    assert found.line.rule == "DD-5"


def test_DD6_touch_finds_the_square() -> None:
    assert reach(Sense.TOUCH, INVISIBLE).state is AwarenessState.LOCATION


def test_DD12_a_liquid_betrays_the_square() -> None:
    found = reach(Sense.SIGHT, (Condition.INVISIBLE, Condition.IN_LIQUID))
    assert found.state is AwarenessState.LOCATION
    assert found.line.rule == "DD-12"


def test_DD13_scent_tracks_as_if_visible() -> None:
    found = reach(Sense.SCENT, INVISIBLE)
    assert found.state is AwarenessState.LOCATION
    assert found.line.rule == "DD-13"


def test_DD15_blindsight_observes_invisible_creatures() -> None:
    found = reach(Sense.BLINDSIGHT, INVISIBLE)
    assert found.state is AwarenessState.OBSERVED
    assert found.line.rule == "DD-15"


def test_SF11_blindsense_reaches_location_not_observed() -> None:
    found = reach(Sense.BLINDSENSE, INVISIBLE)
    assert found.state is AwarenessState.LOCATION
    assert found.line.rule == "SF-11"
    assert not Sense.BLINDSENSE.precise and Sense.BLINDSIGHT.precise


DIVINATIONS = (Sense.DIVINATION, Sense.SEE_INVISIBLE)
"""DD-19: invisibility does not affect divination spells, see invisibility among them."""


@pytest.mark.parametrize("sense", [s for s in Sense if s not in DIVINATIONS])
def test_DD17_ethereal_is_out_of_reach_of_every_sense_but_divination(sense: Sense) -> None:
    found = reach(sense, (Condition.ETHEREAL,))
    assert found.blocked
    assert found.line.rule == "DD-17"


@pytest.mark.parametrize("sense", DIVINATIONS)
def test_DD19_divination_sees_even_an_ethereal_creature(sense: Sense) -> None:
    found = reach(sense, (Condition.INVISIBLE, Condition.ETHEREAL))
    assert found.state is AwarenessState.OBSERVED and not found.blocked
    assert found.line.rule in ("DD-19", "DD-20")


def test_DD17_incorporeal_blocks_scent_blindsight_but_not_spot_or_noise() -> None:
    ghost = (Condition.INVISIBLE, Condition.INCORPOREAL)
    for sense in (Sense.SCENT, Sense.BLINDSIGHT, Sense.BLINDSENSE):
        assert reach(sense, ghost).blocked
        assert reach(sense, ghost).line.rule == "DD-17"
    assert reach(Sense.SIGHT, ghost).state is AwarenessState.LOCATION
    assert reach(Sense.HEARING, ghost).blocked
    noisy = (*ghost, Condition.MAKING_NOISE)
    assert reach(Sense.HEARING, noisy).state is AwarenessState.LOCATION


@pytest.mark.parametrize("conditions", ALL_CONDITION_SETS)
def test_DD19_divination_ignores_invisibility(conditions: tuple[Condition, ...]) -> None:
    found = reach(Sense.DIVINATION, conditions)
    assert found.state is AwarenessState.OBSERVED
    assert found.line.rule == "DD-19"


def test_best_reach_takes_the_farthest_sense() -> None:
    found = best_reach([Sense.SIGHT, Sense.SCENT, Sense.BLINDSIGHT], INVISIBLE)
    assert found.sense is Sense.BLINDSIGHT
    tie = best_reach([Sense.HEARING, Sense.SCENT], INVISIBLE)
    assert tie.sense is Sense.HEARING
    with pytest.raises(ValueError):
        best_reach([], INVISIBLE)


def test_ethereal_is_invisible_too() -> None:
    assert reach(Sense.SIGHT, (Condition.ETHEREAL,)).blocked


@pytest.mark.parametrize("conditions", ALL_CONDITION_SETS)
@pytest.mark.parametrize("sense", list(Sense))
def test_every_reach_renders_in_both_languages(
    sense: Sense, conditions: tuple[Condition, ...]
) -> None:
    found = reach(sense, conditions)
    for lang in Lang:
        assert tr(found.line.reason, lang, found.line.params)
        assert tr(f"senses.name.{sense.value}", lang)
