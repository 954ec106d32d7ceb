"""``impossible`` and ``automatic`` follow the exact chance of every d20 check: a check that
cannot succeed is impossible, one that cannot fail is automatic (chance 0 ⇔ impossible,
chance 1 ⇔ automatic), checked against brute-force enumeration of the dice worked out from
the rule text, not from the engine."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from vigile.checks.verdict import Verdict
from vigile.cli.dnd35 import app as dnd35_app
from vigile.cli.starfinder import app as starfinder_app
from vigile.rulesets.data import load
from vigile.rulesets.dnd35 import (
    ListenSpeed,
    SpotTarget,
    attack_check,
    grope_check,
    hide_check,
    listen_check,
    spot_check,
)
from vigile.rulesets.starfinder import attack_check as sf_attack_check
from vigile.rulesets.starfinder import hide_check as sf_hide_check

DND = load("dnd35")
SF = load("starfinder")
D20 = range(1, 21)
D100 = range(1, 101)
runner = CliRunner()

# DD-3: DC 20 moving, 30 still, 40 immobile, object or non-breathing; DD-4 +20 to pinpoint;
# [C] Spot −1 per whole 10 ft, −5 distracted; beyond 30 ft no check.
SPOT_DC = {
    SpotTarget.MOVING: 20,
    SpotTarget.STILL: 30,
    SpotTarget.IMMOBILE: 40,
    SpotTarget.OBJECT: 40,
    SpotTarget.NON_BREATHING: 40,
}
# DD-5 [C]: the Move Silently result at half speed, −4 at full speed, −20 running.
LISTEN_SPEED = {ListenSpeed.HALF: 0, ListenSpeed.FULL: -4, ListenSpeed.RUN: -20}

bonuses = st.integers(min_value=-30, max_value=70)


def assert_flags(verdict: Verdict, chance: Fraction) -> None:
    """The verdict's chance is the brute-force one, and its flags say so."""
    assert verdict.chance == chance
    assert verdict.impossible == (chance == 0)
    assert verdict.automatic == (chance == 1)


def brute_spot(bonus: int, dc: int) -> Fraction:
    """A skill check: no automatic result on a natural 1 or 20."""
    return Fraction(sum(1 for f in D20 if f + bonus >= dc), 20)


@settings(max_examples=300, deadline=None)
@given(
    spot=bonuses,
    distance=st.integers(min_value=0, max_value=40),
    target=st.sampled_from(list(SpotTarget)),
    pinpoint=st.booleans(),
    distracted=st.booleans(),
)
def test_spot_flags_match_enumeration(
    spot: int, distance: int, target: SpotTarget, pinpoint: bool, distracted: bool
) -> None:
    verdict = spot_check(
        DND,
        spot_bonus=spot,
        distance_ft=distance,
        target=target,
        pinpoint=pinpoint,
        distracted=distracted,
    )
    if distance > 30:
        chance = Fraction(0)
    else:
        dc = SPOT_DC[target] + (20 if pinpoint else 0)
        chance = brute_spot(spot - distance // 10 - (5 if distracted else 0), dc)
    assert_flags(verdict, chance)


@settings(max_examples=200, deadline=None)
@given(
    listen=bonuses,
    move_silently=bonuses,
    speed=st.sampled_from(list(ListenSpeed)),
    speaking=st.booleans(),
    distance=st.integers(min_value=0, max_value=60),
    door=st.booleans(),
    wall=st.booleans(),
    asleep=st.booleans(),
)
def test_listen_flags_match_enumeration(
    listen: int,
    move_silently: int,
    speed: ListenSpeed,
    speaking: bool,
    distance: int,
    door: bool,
    wall: bool,
    asleep: bool,
) -> None:
    verdict = listen_check(
        DND,
        listen_bonus=listen,
        move_silently=move_silently,
        speed=None if speaking else speed,
        speaking=speaking,
        distance_ft=distance,
        door=door,
        stone_wall=wall,
        asleep=asleep,
    )
    # DD-5 [C]: +1 DC per whole 10 ft, +5 behind a door, +15 behind a stone wall; asleep −10.
    around = distance // 10 + (5 if door else 0) + (15 if wall else 0)
    bonus = listen - (10 if asleep else 0)
    if speaking:  # DC 0, one die
        chance = Fraction(sum(1 for f in D20 if f + bonus >= around), 20)
    else:  # the DC is the creature's d20: both dice, ties to the listener
        part = move_silently + LISTEN_SPEED[speed] + around
        chance = Fraction(
            sum(1 for h, f in itertools.product(D20, D20) if f + bonus >= h + part), 400
        )
    assert_flags(verdict, chance)


@settings(max_examples=150, deadline=None)
@given(hide=bonuses, spots=st.lists(bonuses, min_size=1, max_size=2))
def test_dnd35_hide_flags_match_enumeration(hide: int, spots: list[int]) -> None:
    """DD-20: one Hide d20 against each Spot d20; higher total wins, a tie to the higher
    modifier, equal modifiers roll again (1/2 for the observer)."""
    verdict = hide_check(DND, hide_bonus=hide, spot_bonuses=spots)
    hidden = Fraction(0)
    for h in D20:
        unseen = Fraction(1)
        for m in spots:
            spots_it = Fraction(0)
            for f in D20:
                if f + m > h + hide or (f + m == h + hide and m > hide):
                    spots_it += 1
                elif f + m == h + hide and m == hide:
                    spots_it += Fraction(1, 2)
            unseen *= 1 - spots_it / 20
        hidden += unseen / 20
    assert_flags(verdict, hidden)


@settings(max_examples=150, deadline=None)
@given(stealth=bonuses, perceptions=st.lists(bonuses, min_size=1, max_size=2))
def test_starfinder_hide_flags_match_enumeration(stealth: int, perceptions: list[int]) -> None:
    """SF-4: one Stealth d20 is the DC of each Perception d20, ties to the observer; with
    cover (SF-2) and half speed nothing else counts."""
    verdict = sf_hide_check(SF, stealth=stealth, observers=perceptions, cover=True)
    hidden = Fraction(0)
    for h in D20:
        unseen = Fraction(1)
        for p in perceptions:
            unseen *= Fraction(sum(1 for f in D20 if f + p < h + stealth), 20)
        hidden += unseen / 20
    assert_flags(verdict, hidden)


@settings(max_examples=150, deadline=None)
@given(touch=bonuses, ac=st.integers(min_value=0, max_value=60), occupied=st.booleans())
def test_grope_flags_match_enumeration(touch: int, ac: int, occupied: bool) -> None:
    """DD-6: a touch attack (natural 1 misses, natural 20 hits), then d% > 50 connects."""
    hits = sum(1 for f in D20 if f == 20 or (f != 1 and f + touch >= ac))
    connects = sum(1 for r in D100 if r > 50)
    chance = Fraction(hits * connects, 2000) if occupied else Fraction(0)
    assert_flags(grope_check(DND, touch_attack=touch, touch_ac=ac, occupied=occupied), chance)


@settings(max_examples=200, deadline=None)
@given(percent=st.integers(min_value=0, max_value=100), blind_fight=st.booleans())
def test_attack_flags_match_enumeration(percent: int, blind_fight: bool) -> None:
    """DD-8, DD-14 and SF-8: a d% of 1..percent stops the blow; Blind-Fight rolls twice and
    the blow is stopped only if both stop it."""
    if blind_fight:
        lands = sum(1 for a, b in itertools.product(D100, D100) if a > percent or b > percent)
        chance = Fraction(lands, 10_000)
    else:
        chance = Fraction(sum(1 for r in D100 if r > percent), 100)
    assert_flags(attack_check(DND, miss_chance=percent, blind_fight=blind_fight), chance)
    assert_flags(sf_attack_check(SF, miss_chance=percent, blind_fight=blind_fight), chance)


def test_cli_spot_pinpoint_out_of_reach_is_impossible() -> None:
    """DD-3, DD-4: a non-breathing creature is DC 40, pinpointing +20: DC 60. Spot +14 at 0 ft
    reaches at most 20 + 14 = 34 < 60: chance 0, impossible."""
    result = runner.invoke(
        dnd35_app,
        [
            "spot",
            "--spot",
            "14",
            "--distance",
            "0",
            "--target",
            "non-breathing",
            "--pinpoint",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["chance"] == "0" and data["impossible"] is True and data["automatic"] is False


def test_cli_attack_without_miss_chance_is_automatic() -> None:
    """DD-8: a miss chance of 0% never stops the blow (d% 1..0 is no face): chance 1."""
    result = runner.invoke(dnd35_app, ["attack", "--miss-chance", "0", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["chance"] == "1" and data["automatic"] is True and data["impossible"] is False
    result = runner.invoke(starfinder_app, ["attack", "--miss-chance", "0", "--json"])
    data = json.loads(result.stdout)
    assert data["chance"] == "1" and data["automatic"] is True
