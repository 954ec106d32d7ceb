"""The rules the turn engine played alone, now played by ``vigile check dnd35`` too (issue 10):
``attack-roll`` (DD-21, DD-2), ``struck`` (DD-7), ``signs`` (DD-10, DD-11, DD-12, DD-16),
``senses`` (DD-1, DD-13, DD-15, DD-17, DD-19), ``gaze`` (DD-18). Worked out by hand from the
seed text and rules.toml: an attack roll hits when face + bonus >= AC, a natural 1 always
missing and a natural 20 always hitting (DD-6 [C]); [attack] invisible_attacker = 2;
[flour] range 10 ft, burst 5 ft, until it falls; [objects] sight 60 ft; [tracks] 30 ft, Spot DC 10;
[spot] range 30 ft."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import pytest
from typer.testing import CliRunner

from vigile.cli.dnd35 import app, parse_sneak_attack
from vigile.errors import InputError
from vigile.io.i18n import Lang

runner = CliRunner()


def check(*args: str) -> dict[str, Any]:
    """The JSON verdict of ``vigile check dnd35 ARGS``; the text in both languages and the
    player view render too."""
    for lang in Lang:
        text = runner.invoke(app, [*args, "--lang", lang.value])
        assert text.exit_code == 0, text.output
        player = runner.invoke(app, [*args, "--view", "player", "--lang", lang.value])
        assert player.exit_code == 0, player.output
    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def rules_of(data: dict[str, Any]) -> list[str]:
    return [line["rule"] for line in data["notes"]] + [m["rule"] for m in data["modifiers"]]


def brute_force_hit(bonus: int, ac: int) -> Fraction:
    """Every face of the d20: 20 hits, 1 misses, any other hits on face + bonus >= ac."""
    hits = sum(1 for f in range(1, 21) if f == 20 or (f != 1 and f + bonus >= ac))
    return Fraction(hits, 20)


# --- DD-21 and DD-2: the attack roll -------------------------------------------------------------


def test_DD21_an_invisible_attacker_gets_2_and_the_target_loses_its_dex() -> None:
    """+5 against AC 16 whose Dex bonus is +2: the invisible attacker rolls at +5 + 2 = +7
    against 16 - 2 = 14; the d20 needs 7+: faces 7..20, 14 of 20 = 7/10. Sneak attack 2d6
    applies (the target is denied its Dex bonus, DD-21 [C]); the favored enemy +2 applies
    (the target is visible)."""
    data = check(
        "attack-roll", "--attack", "5", "--ac", "16", "--dex-to-ac", "2",
        "--invisible-attacker", "--sneak-attack", "2d6", "--favored-enemy", "2",
    )  # fmt: skip
    assert data["difficulty"] == 14 and data["die_bonus"] == 7
    assert Fraction(data["chance"]) == Fraction(7, 10) == brute_force_hit(7, 14)
    assert [(m["value"], m["rule"]) for m in data["modifiers"]] == [
        (16, "DD-8"), (5, "DD-8"), (2, "DD-21"), (-2, "DD-21"),
    ]  # fmt: skip
    texts = " ".join(line["text"] for line in data["notes"])
    assert "sneak attack +2d6 applies" in texts
    assert "favored enemy bonus (+2) applies" in texts


def test_DD21_no_gain_against_one_who_sees_invisible() -> None:
    """Seen through see invisibility: +5 against the full 16, the d20 needs 11+: 10/20."""
    data = check(
        "attack-roll", "--attack", "5", "--ac", "16", "--dex-to-ac", "2",
        "--invisible-attacker", "--sees-invisible",
    )  # fmt: skip
    assert Fraction(data["chance"]) == Fraction(1, 2) == brute_force_hit(5, 16)
    assert "DD-21" in rules_of(data)


def test_DD2_an_invisible_target_is_spared_sneak_attack_not_the_critical() -> None:
    """Against an invisible target: sneak attack 2d6 and favored enemy +3 do not apply; the
    GM's d20 shows 20: a natural 20 hits (+5 against 16 needs 11) and the critical applies."""
    args = ("attack-roll", "--attack", "5", "--ac", "16", "--invisible-target",
            "--sneak-attack", "2", "--favored-enemy", "3")  # fmt: skip
    data = check(*args, "--dice-values", "20")
    texts = [line["text"] for line in data["notes"]]
    spared = "[DD-2] the target is invisible: the attacker's sneak attack (+2d6) does not apply"
    assert spared in texts
    assert "[DD-2] the target is invisible: the favored enemy bonus (+3) does not apply" in texts
    assert any("critical: applies" in t for t in texts)
    assert data["success"] is True
    one = check(*args, "--dice-values", "1")
    assert one["success"] is False
    assert not any("critical" in line["text"] for line in one["notes"])


def test_DD6_natural_one_misses_and_twenty_hits_whatever_the_numbers() -> None:
    """+30 against AC 10: every face but 1 hits, 19/20; +0 against AC 40: only 20, 1/20."""
    high = check("attack-roll", "--attack", "30", "--ac", "10", "--dice-values", "1")
    assert Fraction(high["chance"]) == Fraction(19, 20) == brute_force_hit(30, 10)
    assert high["success"] is False
    low = check("attack-roll", "--attack", "0", "--ac", "40", "--dice-values", "20")
    assert Fraction(low["chance"]) == Fraction(1, 20) == brute_force_hit(0, 40)
    assert low["success"] is True


@pytest.mark.parametrize(("text", "dice"), [("2d6", 2), ("3", 3), ("0", 0), (" 4D6 ", 4)])
def test_sneak_attack_dice_are_read(text: str, dice: int) -> None:
    assert parse_sneak_attack(text) == dice


@pytest.mark.parametrize("text", ["2d8", "x", "-1", "21d6"])
def test_sneak_attack_refuses_what_is_not_d6(text: str) -> None:
    with pytest.raises(InputError):
        parse_sneak_attack(text)


# --- DD-7: struck --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "state"),
    [
        ((), "location"),  # a Medium attacker (5 ft): its square
        (("--reach", "5"), "location"),  # "over 5 ft": 5 ft is not over
        (("--reach", "10"), "direction"),  # reach over 5 ft: only its direction
        (("--ranged",), "direction"),  # [C] a ranged attack: only its direction
        (("--moved-at-once",), "presence"),  # [R] it moved at once: only that it is there
    ],
)
def test_DD7_what_a_struck_character_learns(args: tuple[str, ...], state: str) -> None:
    data = check("struck", *args)
    assert data["state"] == state and data["success"] is True
    assert set(rules_of(data)) == {"DD-7"}


# --- DD-10, DD-11, DD-12, DD-16: signs -----------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "shown", "rule"),
    [
        (("--distance", "5", "--flour-throw", "8", "--flour-miss", "4"), True, "DD-10"),
        (("--distance", "5", "--flour-throw", "12"), False, "DD-10"),  # beyond 10 ft
        (("--distance", "5", "--flour-throw", "8", "--flour-miss", "6"), False, "DD-10"),  # > 5
        (("--distance", "60", "--carries", "visible"), True, "DD-10"),  # 60 ft: seen
        (("--distance", "61", "--carries", "visible"), False, "DD-10"),  # beyond 60 ft
        (("--distance", "5", "--carries", "tucked"), False, "DD-10"),  # tucked away: vanishes
        (("--distance", "31", "--soft-ground", "--moved"), False, "DD-11"),  # beyond 30 ft
        (("--distance", "5", "--soft-ground"), False, "DD-11"),  # it did not move: no prints
        (("--distance", "50", "--light", "20"), True, "DD-16"),  # at night, at any distance
        (("--distance", "50", "--light", "20", "--time", "day"), False, "DD-16"),
        (("--distance", "30", "--in-water", "--moved"), True, "DD-12"),  # within Spot's 30 ft
    ],
)
def test_DD10_DD11_DD16_what_shows_the_square(
    args: tuple[str, ...], shown: bool, rule: str
) -> None:
    data = check("signs", *args)
    assert data["success"] is shown
    assert Fraction(data["chance"]) == int(shown)
    assert rule in rules_of(data)
    if shown:
        assert data["notes"][-2]["rule"] == rule  # the sign, then: until it moves


def test_DD11_footprints_within_30_ft_are_a_spot_check() -> None:
    """Within [tracks] 30 ft, footprints are no certainty: Spot (+0 by default) against DC 10,
    -1 per whole 10 ft: at 30 ft, -3, the d20 needs 13+: 8/20 (DD-11 [R]; the figures are
    worked in tests/test_dd11_footprints.py)."""
    data = check("signs", "--distance", "30", "--soft-ground", "--moved")
    assert data["success"] is None and Fraction(data["chance"]) == Fraction(8, 20)
    assert "DD-11" in rules_of(data)


# --- DD-1, DD-13, DD-15, DD-17, DD-19: senses ----------------------------------------------------


@pytest.mark.parametrize(
    ("args", "state", "rules"),
    [
        (("--sense", "scent"), "location", {"DD-13"}),  # tracks it as if visible
        (("--sense", "scent", "--incorporeal"), "unaware", {"DD-17"}),
        (("--sense", "blindsight"), "observed", {"DD-15"}),
        (("--sense", "blindsight", "--incorporeal"), "unaware", {"DD-17"}),
        (("--sense", "sight", "--sense", "hearing", "--ethereal"), "unaware", {"DD-17"}),
        (("--sense", "see-invisible", "--ethereal"), "observed", {"DD-19"}),
        (("--sense", "darkvision"), "location", {"DD-1"}),  # darkvision: Spot at best
        (("--sense", "sight", "--visible"), "observed", {"DD-1"}),
    ],
)
def test_DD13_DD17_how_far_each_sense_reaches(
    args: tuple[str, ...], state: str, rules: set[str]
) -> None:
    data = check("senses", *args)
    assert data["state"] == state
    assert data["success"] is (state != "unaware")
    assert set(rules_of(data)) == rules


# --- DD-18: gaze ---------------------------------------------------------------------------------


def test_DD18_no_gaze_attack_while_invisible() -> None:
    refused = check("gaze", "--invisible")
    assert refused["success"] is False and Fraction(refused["chance"]) == 0
    assert rules_of(refused) == ["DD-18"]
    allowed = check("gaze")
    assert allowed["success"] is True and rules_of(allowed) == ["DD-18"]
