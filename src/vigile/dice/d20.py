"""Exact odds for the d20 games (Starfinder and D&D 3.5).

Every chance is an exact :class:`fractions.Fraction`; floats are never used.
Randomness only comes from an explicit :class:`numpy.random.Generator` passed
by the caller; nothing random happens at import time.

Rule IDs cited below:

* SF-4 -- Starfinder opposed check: the active side (observer) meets or beats
  the passive side (hider); ties go to the observer. [R]: one hider roll is
  shared by every observer.
* DD-6 -- D&D 3.5 attack rolls (touch attacks included): a natural 1 always
  misses, a natural 20 always hits.
* DD-14 -- D&D 3.5 Blind-Fight: the miss chance percentile is rolled twice and
  the blow is stopped only if both rolls miss.
* DD-20 -- D&D 3.5 opposed check: higher total wins; on equal totals the higher
  modifier wins; on equal totals and modifiers the contest is rolled again.
  [R]: one hider roll is shared by every observer.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from vigile.dice.roll import Die, Face, FaceStatus

if TYPE_CHECKING:  # numpy is imported only when dice are really rolled
    import numpy as np

__all__ = [
    "attack_hit_chance",
    "check_chance",
    "hidden_from_all_dnd",
    "hidden_from_all_meet",
    "miss_chance_dice",
    "miss_chance_pass",
    "opposed_dnd_chance",
    "opposed_meet_chance",
    "roll_d20",
    "roll_d100",
]

_FACES = 20


def _faces_at_least(threshold: int) -> int:
    """Number of d20 faces f (1..20) with f >= threshold."""
    return min(_FACES, max(0, _FACES + 1 - threshold))


def check_chance(bonus: int, dc: int) -> Fraction:
    """P(d20 + bonus >= dc) for a skill or ability check.

    Checks have no automatic success on a natural 20 nor automatic failure on
    a natural 1, so the chance is 0 or 1 when the DC is out of reach.
    """
    return Fraction(_faces_at_least(dc - bonus), _FACES)


def attack_hit_chance(bonus: int, ac: int) -> Fraction:
    """P(d20 + bonus >= ac) for an attack roll (DD-6).

    A natural 1 always misses and a natural 20 always hits, so the chance lies
    in [1/20, 19/20] whatever the bonus and armour class.
    """
    # Faces 2..19 count on the numbers; face 20 always hits; face 1 never does.
    middle = max(0, 19 - max(2, ac - bonus) + 1)
    return Fraction(middle + 1, _FACES)


def miss_chance_pass(percent: int, blind_fight: bool = False) -> Fraction:
    """Chance that a d% miss chance of ``percent`` does NOT stop the blow.

    A d100 roll of 1..percent misses. With Blind-Fight (DD-14) the miss chance
    is rolled twice and the blow lands unless both rolls miss, giving
    ``1 - (percent/100)**2``.

    Raises:
        TypeError: if ``percent`` is not an int (bools are refused).
        ValueError: if ``percent`` is outside 0..100.
    """
    if isinstance(percent, bool) or not isinstance(percent, int):
        raise TypeError(f"miss chance must be an integer percent, got {percent!r}")
    if not 0 <= percent <= 100:
        raise ValueError(f"miss chance must be within 0..100, got {percent}")
    miss = Fraction(percent, 100)
    if blind_fight:
        miss *= miss
    return 1 - miss


def miss_chance_dice(faces: Sequence[int], percent: int) -> tuple[Die, ...]:
    """The d% of a miss chance as a roll's dice: one face, or Blind-Fight's two (DD-14).

    Each d% spares the blow on a face above ``percent``. With two, the first is ``kept`` when
    it spares the blow (the second, rolled all the same so that the dice tell nothing, is then
    ``dropped``), and ``rerolled`` when it misses (the second decides).
    """
    dice: list[Die] = []
    settled = False
    for index, face in enumerate(faces):
        spares = face > percent
        status: FaceStatus
        if settled:
            status = "dropped"
        elif spares or index == len(faces) - 1:
            status = "kept"
        else:
            status = "rerolled"
        dice.append(Die(100, (Face(face, status),), spares, "miss_chance"))
        settled = settled or spares
    return tuple(dice)


def opposed_meet_chance(active_bonus: int, passive_bonus: int) -> Fraction:
    """Starfinder opposed check (SF-4): P(d20 + active >= d20 + passive).

    The active side (the observer) succeeds if it meets or beats the passive
    side (the hider); ties go to the observer.
    """
    return Fraction(_meet_wins(passive_bonus - active_bonus), _FACES * _FACES)


@functools.lru_cache(maxsize=256)
def _meet_wins(lead: int) -> int:
    """Of the 400 pairs of faces, those where the active side meets or beats a passive side
    ``lead`` ahead: it depends on nothing else, and the tables of a simulation ask each lead
    thousands of times."""
    return sum(_faces_at_least(face + lead) for face in range(1, 21))


def _strict_and_tie_counts(a_bonus: int, b_bonus: int) -> tuple[int, int]:
    """Over the 400 pairs of d20 faces: (#A total > B total, #equal totals)."""
    diff = b_bonus - a_bonus
    higher = 0
    ties = 0
    for face in range(1, 21):
        # A's face must exceed face + diff to win, equal it to tie.
        target = face + diff
        higher += _faces_at_least(target + 1)
        if 1 <= target <= _FACES:
            ties += 1
    return higher, ties


def opposed_dnd_chance(a_bonus: int, b_bonus: int) -> Fraction:
    """D&D 3.5 opposed check (DD-20): chance that side A wins.

    A wins if its total is higher. On equal totals the higher modifier wins.
    On equal totals and equal modifiers both sides roll again until settled,
    so the chance is P(A > B) / (1 - P(tie)) -- exactly 1/2 by symmetry.
    """
    higher, ties = _strict_and_tie_counts(a_bonus, b_bonus)
    if a_bonus > b_bonus:
        return Fraction(higher + ties, _FACES * _FACES)
    if a_bonus < b_bonus:
        return Fraction(higher, _FACES * _FACES)
    return Fraction(higher, _FACES * _FACES - ties)


# A shared-roll table depends only on the observer's advantage m - h over the
# hider, and is constant beyond +/-_SATURATION, so every table is built once.
_SATURATION = _FACES


@dataclass(frozen=True, slots=True)
class _SpotTable:
    """One observer's odds against each of the hider's 20 faces.

    ``miss[f]`` counts, out of ``scale`` equally likely observer outcomes, those
    that fail to spot the hider when the hider's die shows ``f + 1``.
    """

    miss: tuple[int, ...]
    marginal: Fraction
    always: bool
    never: bool


def _spot_table(spots: tuple[int, ...], scale: int) -> _SpotTable:
    return _SpotTable(
        miss=tuple(scale - count for count in spots),
        marginal=Fraction(sum(spots), scale * _FACES),
        always=all(count == scale for count in spots),
        never=not any(spots),
    )


def _meet_spots(advantage: int) -> tuple[int, ...]:
    """Per hider face: observer faces (of 20) meeting the hider's total (SF-4)."""
    return tuple(_faces_at_least(face - advantage) for face in range(1, 21))


def _dnd_spots(advantage: int) -> tuple[int, ...]:
    """Per hider face: doubled count (of 40) of observer wins (DD-20).

    Doubling keeps integral the half win of a tie between equal modifiers.
    """
    if advantage > 0:
        tie_weight = 2  # equal totals: the higher modifier wins
    elif advantage == 0:
        tie_weight = 1  # equal totals and modifiers: the pair rerolls, 1/2
    else:
        tie_weight = 0
    spots = []
    for face in range(1, 21):
        target = face - advantage  # the observer face that ties
        tie = 1 if 1 <= target <= _FACES else 0
        spots.append(2 * _faces_at_least(target + 1) + tie_weight * tie)
    return tuple(spots)


_MEET_SCALE = _FACES
_DND_SCALE = 2 * _FACES
_MEET_TABLES = {
    adv: _spot_table(_meet_spots(adv), _MEET_SCALE) for adv in range(-_SATURATION, _SATURATION + 1)
}
_DND_TABLES = {
    adv: _spot_table(_dnd_spots(adv), _DND_SCALE) for adv in range(-_SATURATION, _SATURATION + 1)
}


def _hidden_from_all(
    hider_bonus: int,
    observer_bonuses: Sequence[int],
    scale: int,
    tables: dict[int, _SpotTable],
) -> tuple[Fraction, list[Fraction]]:
    """Shared hider roll against independent observer rolls, exactly.

    Sums over the hider's 20 faces the product of the observers' integer miss
    counts, over the denominator ``20 * scale**k``; Fractions are built only
    for the result (marginals come precomputed).
    """
    marginals: list[Fraction] = []
    multiplicity: dict[int, int] = {}
    for raw in observer_bonuses:
        advantage = min(_SATURATION, max(-_SATURATION, int(raw) - hider_bonus))
        marginals.append(tables[advantage].marginal)
        multiplicity[advantage] = multiplicity.get(advantage, 0) + 1

    uncertain: list[tuple[tuple[int, ...], int]] = []
    observers = 0
    for advantage, count in multiplicity.items():
        table = tables[advantage]
        if table.always:
            return Fraction(0), marginals
        if not table.never:  # never-spotters contribute a factor scale/scale
            uncertain.append((table.miss, count))
            observers += count

    total = 0
    for face in range(_FACES):
        product = 1
        for miss, count in uncertain:
            factor = miss[face]
            if factor == 0:
                product = 0
                break
            product *= factor if count == 1 else factor**count
        total += product
    return Fraction(total, _FACES * scale**observers), marginals


def hidden_from_all_meet(
    hider_bonus: int, observer_bonuses: Sequence[int]
) -> tuple[Fraction, list[Fraction]]:
    """Several Starfinder observers against ONE shared hider roll (SF-4 [R]).

    The hider rolls d20 + ``hider_bonus`` once; each observer rolls its own
    d20 + bonus and spots the hider if it meets or beats that single result.
    The observers are therefore not independent: the answer sums over the
    hider's 20 faces.

    Returns:
        (P(no observer meets the hider's result),
         [each observer's marginal chance to meet it], in input order).
    """
    return _hidden_from_all(hider_bonus, observer_bonuses, _MEET_SCALE, _MEET_TABLES)


def hidden_from_all_dnd(
    hider_bonus: int, observer_bonuses: Sequence[int]
) -> tuple[Fraction, list[Fraction]]:
    """Several D&D 3.5 observers against ONE shared hider roll (DD-20 [R]).

    Given the hider's result s, observer i with modifier m_i spots if
    d20 + m_i > s. On a tie it spots if m_i > ``hider_bonus``, does not if
    m_i < ``hider_bonus``, and with equal modifiers that pair rerolls their
    contest, which the observer wins with chance exactly 1/2 (see
    :func:`opposed_dnd_chance`); the reroll does not change the shared result
    faced by the other observers.

    Returns:
        (P(no observer spots the hider),
         [each observer's marginal chance to spot it], in input order).
    """
    return _hidden_from_all(hider_bonus, observer_bonuses, _DND_SCALE, _DND_TABLES)


def roll_d20(rng: np.random.Generator) -> int:
    """Roll one d20 (1..20) with the caller's generator."""
    return int(rng.integers(1, _FACES + 1))


def roll_d100(rng: np.random.Generator) -> int:
    """Roll one d% (1..100) with the caller's generator."""
    return int(rng.integers(1, 101))
