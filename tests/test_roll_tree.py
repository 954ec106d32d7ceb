"""The verdict's roll keeps every die it rolled, as avrae's d20 tree does: its size, every face
it showed (chains, rerolls, dropped rolls) and what became of each, checked against the GM's
own dice (``GivenFaces``, ``--dice-values``)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from vigile.awareness.ladder import AwarenessState
from vigile.checks import Die, Face, Roll
from vigile.cli import app
from vigile.dice.pool import roll_pool
from vigile.dice.source import GivenFaces
from vigile.rulesets.data import shipped
from vigile.rulesets.dnd35 import attack_check, grope_check, hide_check
from vigile.rulesets.starfinder import attack_check as sf_attack_check

DND = shipped("dnd35")
SF = shipped("starfinder")


def statuses(die: Die) -> list[str]:
    return [face.status for face in die.rolled]


def test_SK_D3_a_chain_of_sixes_keeps_every_face() -> None:
    """Target 8: a six chains (7), another six chains (6), then 3 misses; the second die's 2
    cannot start a chain."""
    given = GivenFaces([6, 6, 3, 2])
    roll = roll_pool(2, 8, given)
    given.finish()
    assert roll.faces == (6, 6, 3, 2)
    assert [d.sides for d in roll.dice] == [6, 6]
    assert statuses(roll.dice[0]) == ["chained", "chained", "kept"]
    assert statuses(roll.dice[1]) == ["kept"]
    assert not roll.success and not any(d.success for d in roll.dice)


def test_DD20_a_tie_between_equal_modifiers_is_rolled_again_and_kept() -> None:
    """Hide +5 against Spot +5: 10 and 10 tie, the pair rolls again 7 and 7 (a tie again), then
    3 and 12: the observer wins. Every face stays in the tree, the rerolled ones marked."""
    faces = [10, 10, 7, 7, 3, 12]
    given = GivenFaces(faces)
    verdict = hide_check(DND, hide_bonus=5, spot_bonuses=[5], cover=True, source=given)
    given.finish()
    assert verdict.roll is not None
    (hider,) = verdict.roll.dice
    assert (hider.sides, hider.faces, hider.role) == (20, (10,), "hide")
    observer = verdict.members[0].roll
    assert observer is not None
    spot, again = observer.dice
    assert (spot.sides, spot.faces, spot.role) == (20, (10, 7, 12), "spot")
    assert statuses(spot) == ["rerolled", "rerolled", "kept"] and spot.success
    assert (again.faces, again.role) == ((7, 3), "hide")
    assert statuses(again) == ["rerolled", "kept"] and not again.success
    assert sorted(verdict.roll.faces + observer.faces) == sorted(faces)


def test_DD8_the_miss_chance_is_one_d100() -> None:
    verdict = attack_check(DND, miss_chance=50, source=GivenFaces([30]))
    assert verdict.roll == Roll((Die(100, (Face(30),), False, "miss_chance"),), False, True)


def test_DD6_groping_rolls_a_d20_then_a_d100() -> None:
    verdict = grope_check(DND, touch_attack=2, touch_ac=12, source=GivenFaces([15, 70]))
    assert verdict.roll is not None
    touch, miss = verdict.roll.dice
    assert (touch.sides, touch.faces, touch.role, touch.success) == (
        20,
        (15,),
        "touch_attack",
        True,
    )
    assert (miss.sides, miss.faces, miss.role, miss.success) == (100, (70,), "miss_chance", True)


@pytest.mark.parametrize("game", ["dnd35", "starfinder"])
@pytest.mark.parametrize(
    ("faces", "first", "second", "lands"),
    [
        ((20, 70), "rerolled", "kept", True),  # the first misses: the second decides
        ((70, 20), "kept", "dropped", True),  # the first spares the blow: the second is unused
        ((20, 30), "rerolled", "kept", False),  # both miss
    ],
)
def test_DD14_SF8_blind_fight_rolls_twice_and_says_which_counted(
    game: str, faces: tuple[int, int], first: str, second: str, lands: bool
) -> None:
    given = GivenFaces(faces)
    if game == "dnd35":
        verdict = attack_check(DND, miss_chance=50, blind_fight=True, source=given)
    else:
        verdict = sf_attack_check(
            SF, miss_chance=50, blind_fight=True, awareness=AwarenessState.LOCATION, source=given
        )
    given.finish()
    assert verdict.roll is not None and verdict.roll.faces == faces
    assert [d.sides for d in verdict.roll.dice] == [100, 100]
    assert [d.status for d in verdict.roll.dice] == [first, second]
    assert verdict.success is lands


def run_json(*args: str) -> dict[str, object]:
    result = CliRunner().invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert isinstance(data, dict)
    return data


def test_the_json_roll_lists_every_die_with_its_size_and_faces() -> None:
    data = run_json(
        "check", "dnd35", "attack", "--miss-chance", "50", "--blind-fight", "--dice-values", "20,70"
    )
    roll = data["roll"]
    assert isinstance(roll, dict)
    assert roll["dice"] == [
        {
            "faces": [20],
            "success": False,
            "sides": 100,
            "role": "miss_chance",
            "status": "rerolled",
            "face_status": ["rerolled"],
        },
        {
            "faces": [70],
            "success": True,
            "sides": 100,
            "role": "miss_chance",
            "status": "kept",
            "face_status": ["kept"],
        },
    ]
    assert data["miss_chance"] == 50 and data["blind_fight"] is True


def test_the_json_of_a_d20_check_says_d20() -> None:
    data = run_json(
        "check",
        "dnd35",
        "spot",
        "--spot",
        "5",
        "--distance",
        "0",
        "--target",
        "moving",
        "--dice-values",
        "11",
    )
    roll = data["roll"]
    assert isinstance(roll, dict)
    assert [(d["sides"], d["faces"]) for d in roll["dice"]] == [(20, [11])]
    assert data["result"] == 16
