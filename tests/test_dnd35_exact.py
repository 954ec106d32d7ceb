"""Exact D&D 3.5 chances against brute-force enumeration of every die face, and properties.

Every chance a check states is recounted by rolling the check itself with every possible face
(every d20, every pair of d20s, every percentile), so the closed forms and the rolling path
agree exactly (DD-3, DD-4, DD-5, DD-6, DD-8, DD-9, DD-12, DD-14, DD-20).
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vigile.awareness.ladder import AwarenessState
from vigile.dice.source import GivenFaces
from vigile.rulesets.data import load
from vigile.rulesets.dnd35 import (
    HideSpeed,
    ListenSpeed,
    SpotTarget,
    Square,
    attack_check,
    grope_check,
    hide_check,
    listen_check,
    spot_check,
)

RULES = load("dnd35")
D20 = range(1, 21)
D100 = range(1, 101)
bonuses = st.integers(min_value=-30, max_value=60)


@pytest.mark.parametrize("target", list(SpotTarget))
@pytest.mark.parametrize("bonus", [-5, 0, 7, 19, 25, 40])
@pytest.mark.parametrize("pinpoint", [False, True])
def test_DD3_DD4_spot_by_every_face(target: SpotTarget, bonus: int, pinpoint: bool) -> None:
    verdict = spot_check(RULES, spot_bonus=bonus, distance_ft=15, target=target, pinpoint=pinpoint)
    successes = pinpoints = 0
    for face in D20:
        rolled = spot_check(
            RULES,
            spot_bonus=bonus,
            distance_ft=15,
            target=target,
            pinpoint=pinpoint,
            source=GivenFaces([face]),
        )
        successes += bool(rolled.success)
        pinpoints += rolled.state is AwarenessState.LOCATION and bool(rolled.success)
    assert verdict.chance == Fraction(successes, 20)
    assert verdict.figures.chance_pinpoint == Fraction(pinpoints, 20)


@pytest.mark.parametrize(
    ("listen", "move_silently", "speed"),
    [
        (0, 0, None),
        (5, 2, ListenSpeed.FULL),
        (-3, 10, None),
        (25, 0, ListenSpeed.RUN),
        (0, 30, None),
    ],
)
def test_DD5_listen_by_every_pair_of_faces(
    listen: int, move_silently: int, speed: ListenSpeed | None
) -> None:
    kwargs = {"listen_bonus": listen, "move_silently": move_silently, "speed": speed}
    verdict = listen_check(RULES, distance_ft=20, **kwargs)  # type: ignore[arg-type]
    heard = pinpointed = 0
    for hider, listener in itertools.product(D20, D20):
        rolled = listen_check(
            RULES,
            distance_ft=20,
            source=GivenFaces([hider, listener]),
            **kwargs,  # type: ignore[arg-type]
        )
        heard += bool(rolled.success)
        pinpointed += rolled.state is AwarenessState.LOCATION
        # the plain definition: Listen result at least the DC
        dc = (
            hider + move_silently + {None: 0, ListenSpeed.FULL: -4, ListenSpeed.RUN: -20}[speed] + 2
        )
        assert rolled.success == (listener + listen >= dc)
    assert verdict.chance == Fraction(heard, 400)
    assert verdict.figures.chance_pinpoint == Fraction(pinpointed, 400)


def _brute_hidden(hide: int, spots: list[int]) -> tuple[Fraction, list[Fraction]]:
    """Every hider face and every observer face; a tie between equal modifiers counts 1/2.

    Counted in whole numbers (each observer's win in halves: 0, 1 or 2) and divided once at
    the end: the same exact sums as adding Fractions face by face, a tenth of the time."""
    n = len(spots)
    hidden = 0  # in units of 1 / (2**n * 20**(n + 1))
    spotted = [0] * n  # in units of 1 / (2 * 20**(n + 1))
    for faces in itertools.product(D20, repeat=n + 1):
        hider = faces[0] + hide
        miss_all = 1
        for index, (face, spot) in enumerate(zip(faces[1:], spots, strict=True)):
            total = face + spot
            if total > hider or (total == hider and spot > hide):
                halves = 2
            elif total == hider and spot == hide:
                halves = 1
            else:
                halves = 0
            spotted[index] += halves
            miss_all *= 2 - halves
        hidden += miss_all
    outcomes = 20 ** (n + 1)
    return Fraction(hidden, 2**n * outcomes), [Fraction(s, 2 * outcomes) for s in spotted]


@pytest.mark.parametrize(
    ("hide", "spots"), [(5, [5]), (5, [3, 5]), (0, [2, 8]), (10, [10, 10]), (4, [1, 6, 4])]
)
def test_DD20_hide_against_brute_force(hide: int, spots: list[int]) -> None:
    verdict = hide_check(RULES, hide_bonus=hide, spot_bonuses=spots)
    hidden, spotted = _brute_hidden(hide, spots)
    assert verdict.chance == hidden
    assert [m.chance for m in verdict.members] == spotted


@pytest.mark.parametrize(("hide", "spots"), [(5, [3, 7]), (0, [-2, 2])])
def test_DD20_hide_rolling_path_by_every_face(hide: int, spots: list[int]) -> None:
    """Distinct modifiers never reroll, so every triple of faces is one outcome."""
    verdict = hide_check(RULES, hide_bonus=hide, spot_bonuses=spots)
    stayed = 0
    for faces in itertools.product(D20, repeat=3):
        rolled = hide_check(RULES, hide_bonus=hide, spot_bonuses=spots, source=GivenFaces(faces))
        stayed += bool(rolled.success)
    assert verdict.chance == Fraction(stayed, 8000)


@pytest.mark.parametrize(("bonus", "ac"), [(0, 10), (5, 30), (30, 5), (2, 12), (-10, 40)])
@pytest.mark.parametrize("occupied", [True, False])
def test_DD6_grope_by_every_face(bonus: int, ac: int, occupied: bool) -> None:
    verdict = grope_check(RULES, touch_attack=bonus, touch_ac=ac, occupied=occupied)
    found = 0
    for attack, percent in itertools.product(D20, D100):
        source = GivenFaces([attack, percent])
        rolled = grope_check(
            RULES, touch_attack=bonus, touch_ac=ac, occupied=occupied, source=source
        )
        if rolled.roll is not None and len(rolled.roll.dice) == 2:
            source.finish()
        found += bool(rolled.success)
    assert verdict.chance == Fraction(found, 2000)


@pytest.mark.parametrize("percent", [0, 1, 20, 33, 50, 75, 99, 100])
@pytest.mark.parametrize("blind_fight", [False, True])
@pytest.mark.parametrize("square", [None, Square.CORRECT, Square.WRONG])
def test_DD8_DD9_DD14_attack_by_every_percentile(
    percent: int, blind_fight: bool, square: Square | None
) -> None:
    verdict = attack_check(RULES, miss_chance=percent, blind_fight=blind_fight, square=square)
    rolls = list(itertools.product(D100, repeat=2 if blind_fight else 1))
    landed = 0
    for faces in rolls:
        source = GivenFaces(faces)
        rolled = attack_check(
            RULES, miss_chance=percent, blind_fight=blind_fight, square=square, source=source
        )
        source.finish()
        landed += bool(rolled.success)
    assert verdict.chance == Fraction(landed, len(rolls))


@pytest.mark.parametrize("percent", [0, 20, 50, 100])
def test_DD12_in_water_by_every_percentile(percent: int) -> None:
    verdict = attack_check(RULES, miss_chance=percent, in_liquid=True)
    landed = sum(
        bool(
            attack_check(
                RULES, miss_chance=percent, in_liquid=True, source=GivenFaces([face])
            ).success
        )
        for face in D100
    )
    assert verdict.chance == Fraction(landed, 100)


# properties ----------------------------------------------------------------------------------


@given(bonus=bonuses, distance=st.integers(0, 30), target=st.sampled_from(list(SpotTarget)))
def test_spot_pinpoint_never_likelier_and_better_spot_never_worse(
    bonus: int, distance: int, target: SpotTarget
) -> None:
    verdict = spot_check(RULES, spot_bonus=bonus, distance_ft=distance, target=target)
    better = spot_check(RULES, spot_bonus=bonus + 1, distance_ft=distance, target=target)
    pinpoint = verdict.figures.chance_pinpoint
    assert isinstance(pinpoint, Fraction)
    assert 0 <= pinpoint <= verdict.chance <= 1
    assert better.chance >= verdict.chance
    farther = spot_check(RULES, spot_bonus=bonus, distance_ft=distance + 10, target=target)
    assert farther.chance <= verdict.chance


@given(listen=bonuses, hider=bonuses, speaking=st.booleans(), distance=st.integers(0, 200))
def test_listen_pinpoint_never_likelier_and_better_listen_never_worse(
    listen: int, hider: int, speaking: bool, distance: int
) -> None:
    def check(bonus: int) -> Fraction:
        verdict = listen_check(
            RULES,
            listen_bonus=bonus,
            move_silently=None if speaking else hider,
            speaking=speaking,
            distance_ft=distance,
        )
        pinpoint = verdict.figures.chance_pinpoint
        assert isinstance(pinpoint, Fraction)
        assert 0 <= pinpoint <= verdict.chance <= 1
        return verdict.chance

    assert check(listen + 1) >= check(listen)


@settings(max_examples=60)
@given(
    hide=bonuses,
    spots=st.lists(bonuses, min_size=1, max_size=6),
    which=st.integers(0, 5),
    speed=st.sampled_from(list(HideSpeed)),
)
def test_hide_better_spot_never_helps_the_hider(
    hide: int, spots: list[int], which: int, speed: HideSpeed
) -> None:
    index = which % len(spots)
    verdict = hide_check(RULES, hide_bonus=hide, spot_bonuses=spots, speed=speed)
    better_spots = [s + (i == index) for i, s in enumerate(spots)]
    better = hide_check(RULES, hide_bonus=hide, spot_bonuses=better_spots, speed=speed)
    assert 0 <= verdict.chance <= 1
    assert better.chance <= verdict.chance
    assert better.members[index].chance >= verdict.members[index].chance
    # staying hidden from all is never likelier than from any one observer
    assert all(verdict.chance <= 1 - m.chance for m in verdict.members)


@given(
    percent=st.integers(0, 100), in_liquid=st.booleans(), square=st.sampled_from([None, *Square])
)
def test_blind_fight_never_lowers_the_chance_to_hit(
    percent: int, in_liquid: bool, square: Square | None
) -> None:
    plain = attack_check(RULES, miss_chance=percent, in_liquid=in_liquid, square=square)
    fighting = attack_check(
        RULES, miss_chance=percent, in_liquid=in_liquid, square=square, blind_fight=True
    )
    assert 0 <= plain.chance <= fighting.chance <= 1


@given(bonus=bonuses, ac=st.integers(0, 60))
def test_grope_never_likelier_than_the_touch_or_the_miss_chance(bonus: int, ac: int) -> None:
    verdict = grope_check(RULES, touch_attack=bonus, touch_ac=ac)
    touch = verdict.figures.chance_touch
    assert isinstance(touch, Fraction)
    assert Fraction(1, 40) <= verdict.chance <= min(touch, Fraction(1, 2))
