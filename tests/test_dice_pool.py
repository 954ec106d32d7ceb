"""d6 pools against N+ (SK-D1..SK-D4): exact chances against brute force and icepool."""

from __future__ import annotations

import itertools
from fractions import Fraction

import icepool
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from vigile.dice.pool import die_chance, fumble_chance, pool_chance, roll_plain, roll_pool
from vigile.dice.source import GivenFaces, RolledFaces, parse_dice_values
from vigile.errors import InputError


def brute_force_pool(dice: int, target: int) -> Fraction:
    """Enumerate every sequence of faces the roll could read, through the real roll code.

    Each die may need up to ``max(1, target − 5)`` faces (SK-D3); unused faces are
    independent, so the share of full sequences that succeed is the exact chance.
    """
    depth = max(1, target - 5)
    total = hits = 0
    for faces in itertools.product(range(1, 7), repeat=dice * depth):
        source = GivenFaces(faces)
        total += 1
        hits += roll_pool(dice, target, source).success
    return Fraction(hits, total)


def icepool_pool(dice: int, target: int) -> Fraction:
    """The same chance built with icepool: a die that chains on a natural 6 only (SK-D3)."""

    def chained(t: int) -> icepool.Die:
        if t <= 1:
            return icepool.Die([True])
        if t <= 6:
            return icepool.d6 >= t
        return icepool.d6.map(lambda face: chained(t - 1) if face == 6 else False)

    successes = dice @ chained(target)
    return Fraction(successes.probability(">=", 1))


CASES = [(n, t) for n in (1, 2, 3) for t in range(0, 9) if n * max(1, t - 5) <= 6]


@pytest.mark.parametrize(("dice", "target"), CASES)
def test_SK_D3_pool_chance_matches_brute_force(dice: int, target: int) -> None:
    assert pool_chance(dice, target) == brute_force_pool(dice, target)


@pytest.mark.parametrize("dice", [1, 2, 3, 5, 10])
@pytest.mark.parametrize("target", [-1, 1, 2, 4, 6, 7, 8, 9, 11])
def test_SK_D1_pool_chance_matches_icepool(dice: int, target: int) -> None:
    assert pool_chance(dice, target) == icepool_pool(dice, target)


def test_SK_D3_icepool_explode_is_not_our_chain() -> None:
    """icepool's exploding d6 adds rerolls; ours needs a natural 6 then a 6 for a 7."""
    explode = Fraction((icepool.d6.explode() >= 7).probability(True))
    assert explode == Fraction(1, 6)  # any 6, then anything ≥ 1
    assert pool_chance(1, 7) == Fraction(1, 36)


def test_SK_D3_closed_forms() -> None:
    assert die_chance(1) == 1
    assert die_chance(2) == Fraction(5, 6)
    assert die_chance(6) == Fraction(1, 6)
    assert die_chance(7) == Fraction(1, 36)  # "6 + 1 = 7: a 6 then another 6"
    assert die_chance(8) == Fraction(1, 216)  # 6, 6, 6


def test_SK_D2_bonus_applies_to_each_die() -> None:
    """Success iff highest + k ≥ difficulty: the target drops by k for every die."""
    for k in range(0, 4):
        for dice in (1, 2, 3):
            direct = sum(
                1 for faces in itertools.product(range(1, 7), repeat=dice) if max(faces) + k >= 5
            )
            assert pool_chance(dice, 5 - k) == Fraction(direct, 6**dice)


@pytest.mark.parametrize("dice", [1, 2, 3, 4])
def test_SK_D4_fumble_is_every_die_showing_one(dice: int) -> None:
    fumbles = sum(1 for faces in itertools.product(range(1, 7), repeat=dice) if set(faces) == {1})
    assert fumble_chance(dice) == Fraction(fumbles, 6**dice)
    assert roll_plain(dice, GivenFaces([1] * dice)).fumble
    assert roll_plain(dice, GivenFaces([1] * (dice - 1) + [2])).success


def test_SK_D3_given_dice_chain_in_order() -> None:
    """With the GM's dice, a die that must chain takes the next values in order."""
    roll = roll_pool(2, 7, GivenFaces([6, 3, 2]))
    assert [d.faces for d in roll.dice] == [(6, 3), (2,)]
    assert not roll.success
    roll = roll_pool(1, 7, GivenFaces([6, 6]))
    assert roll.dice[0].faces == (6, 6) and roll.success


def test_given_faces_complain_when_short_or_left_over() -> None:
    with pytest.raises(InputError, match="needs more dice"):
        roll_pool(2, 4, GivenFaces([3]))
    source = GivenFaces([3, 4, 5])
    roll_pool(2, 4, source)
    with pytest.raises(InputError, match="used only 2"):
        source.finish()
    with pytest.raises(InputError, match="not a face"):
        roll_pool(1, 4, GivenFaces([7]))


@pytest.mark.parametrize("text", ["", "2,,6", "a", "2;6"])
def test_dice_values_parse_errors_name_the_option(text: str) -> None:
    with pytest.raises(InputError, match="--dice-values"):
        parse_dice_values(text)


def test_same_seed_same_roll() -> None:
    first = roll_pool(3, 7, RolledFaces(np.random.default_rng(42)))
    second = roll_pool(3, 7, RolledFaces(np.random.default_rng(42)))
    assert first == second


def test_monte_carlo_agrees_with_exact_chance() -> None:
    """20,000 seeded rolls of 2 dice against 5+ land within 4 standard errors of 5/9."""
    rng = np.random.default_rng(7)
    source = RolledFaces(rng)
    runs = 20_000
    hits = sum(roll_pool(2, 5, source).success for _ in range(runs))
    p = float(pool_chance(2, 5))
    assert abs(hits / runs - p) < 4 * (p * (1 - p) / runs) ** 0.5


@given(st.integers(1, 20), st.integers(-10, 15))
def test_chance_is_a_probability(dice: int, target: int) -> None:
    assert 0 <= pool_chance(dice, target) <= 1


@given(st.integers(1, 10), st.integers(-5, 12))
def test_more_dice_or_lower_target_never_hurts(dice: int, target: int) -> None:
    assert pool_chance(dice + 1, target) >= pool_chance(dice, target)
    assert pool_chance(dice, target - 1) >= pool_chance(dice, target)
