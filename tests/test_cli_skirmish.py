"""The ``vigile`` command for skirmish checks: the contract of issue 2, exact output, exit codes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from vigile.cli import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    code, out, err = run(capsys, *args, "--json")
    assert code == 0, err
    data = json.loads(out)
    assert isinstance(data, dict)
    return data


def test_noise_json_has_the_contract_keys(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(
        capsys,
        "check",
        "skirmish",
        "noise",
        "--event",
        "death",
        "--surface",
        "floor",
        "--distance",
        "20",
        "--walls",
        "1",
    )
    for key in (
        "ruleset",
        "check",
        "difficulty",
        "die_bonus",
        "modifiers",
        "chance",
        "chance_percent",
        "automatic",
        "impossible",
        "roll",
        "explanation",
    ):
        assert key in data
    assert (data["ruleset"], data["check"], data["difficulty"], data["chance"]) == (
        "skirmish",
        "noise",
        4,
        "1/2",
    )
    assert data["roll"] is None
    assert {"value": 1, "rule": "SK-N5"}.items() <= data["modifiers"][2].items()
    assert all(isinstance(line, str) for line in data["explanation"])


def test_dice_values_roll_the_gm_dice(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(
        capsys,
        "check",
        "skirmish",
        "shadow",
        "--task",
        "notice",
        "--setting",
        "crowd",
        "--untrained",
        "--dice-values",
        "6,6",
    )
    assert data["difficulty"] == 7 and data["chance"] == "1/36"
    assert data["roll"]["dice"] == [
        {
            "faces": [6, 6],
            "success": True,
            "sides": 6,
            "role": None,
            "status": "kept",
            "face_status": ["chained", "kept"],
        }
    ]
    assert data["success"] is True


def test_seed_replays_the_same_roll(capsys: pytest.CaptureFixture[str]) -> None:
    args = (
        "check",
        "skirmish",
        "sight",
        "--attitude",
        "fast",
        "--distance",
        "32",
        "--dice",
        "3",
        "--seed",
        "11",
    )
    assert run_json(capsys, *args)["roll"] == run_json(capsys, *args)["roll"]


def test_automatic_and_impossible(capsys: pytest.CaptureFixture[str]) -> None:
    auto = run_json(capsys, "check", "skirmish", "move", "--speed", "half")
    assert auto["automatic"] and auto["chance"] == "1" and auto["difficulty"] is None
    never = run_json(
        capsys, "check", "skirmish", "sight", "--attitude", "immobile", "--distance", "11"
    )
    assert never["impossible"] and never["chance"] == "0"


def test_party_lists_each_detector(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(
        capsys,
        "check",
        "skirmish",
        "ambush",
        "--setting",
        "countryside",
        "--ambushers",
        "3",
        "--targets",
        "2",
        "--party",
        "0",
        "--party",
        "2",
        "--dice-values",
        "1,4",
    )
    assert [m["die_bonus"] for m in data["party"]] == [0, 2]
    assert data["success"] is True


def test_french_text_output(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys,
        "check",
        "skirmish",
        "noise",
        "--event",
        "fumble",
        "--distance",
        "5",
        "--dice-values",
        "5",
        "--lang",
        "fr",
    )
    assert code == 0
    assert out.splitlines() == [
        "Escarmouche · bruit : l'auditeur entend-il ?",
        "  [SK-N1] l'événement a lieu hors de vue de l'auditeur : jet de détection de bruit",
        "  base 5     échec critique d'un personnage discret [SK-N2]",
        "  +0         5 cm de nuit : +1 par tranche entière de 50 cm [SK-N4]",
        "Difficulté 5+ · 1 dé : un dé doit faire 5+",
        "Chance : 1/3 (33,33 %)",
        "Jet (dés du MJ) : 5",
        "→ entendu",
        "En cas de réussite : connaît la direction",
    ]


def test_house_rules_option(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    house = tmp_path / "house.toml"
    house.write_text("[noise.base]\ndeath_floor = 4\n")
    data = run_json(
        capsys,
        "check",
        "skirmish",
        "noise",
        "--event",
        "death",
        "--surface",
        "floor",
        "--walls",
        "1",
        "--house-rules",
        str(house),
    )
    assert data["difficulty"] == 5 and data["modifiers"][0]["house_rule"] is True


@pytest.mark.parametrize(
    ("args", "names"),
    [
        (["noise", "--event", "sneeze"], "--event"),
        (["noise", "--event", "melee", "--distance", "-5"], "--distance"),
        (["noise", "--event", "melee", "--distance", "far"], "--distance"),
        (["noise", "--event", "melee", "--dice", "0"], "--dice"),
        (["noise", "--event", "melee", "--dice", "21"], "--dice"),
        (["noise", "--event", "melee", "--dice-values", "7"], "--dice-values"),
        (["noise", "--event", "melee", "--dice-values", "3,4"], "--dice-values"),
        (["noise", "--event", "melee", "--dice-values", "3", "--roll"], "--roll"),
        (["noise", "--event", "melee", "--walls", "-1"], "--walls"),
        (["noise", "--event", "melee", "--house-rules", "/nonexistent.toml"], "nonexistent"),
        (["shadow", "--task", "follow", "--setting", "crowd", "--alert"], "--alert"),
        (["ambush", "--setting", "town", "--ambushers", "0", "--targets", "1"], "--ambushers"),
        (
            [
                "ambush",
                "--setting",
                "town",
                "--ambushers",
                "1",
                "--targets",
                "1",
                "--skill-levels",
                "1",
                "--party",
                "2",
            ],
            "--skill-levels",
        ),
        (["sight", "--attitude", "fast"], "--distance"),
        (["noise", "--event", "melee", "--lang", "de"], "--lang"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], args: list[str], names: str
) -> None:
    code, out, err = run(capsys, "check", "skirmish", *args)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("vigile: error:")
    assert names in err
    assert "Traceback" not in err


def test_bad_house_rule_key_names_key_and_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    house = tmp_path / "house.toml"
    house.write_text("[noise]\nalert = -1\nallert = -2\n")
    code, _, err = run(
        capsys, "check", "skirmish", "noise", "--event", "melee", "--house-rules", str(house)
    )
    assert code == 2 and "house.toml:3" in err and "allert" in err


def test_rules_command_in_both_languages(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules", "skirmish", "--lang", "fr")
    assert code == 0 and "SK-N4" in out and "SF-1" not in out
    code, out, _ = run(capsys, "rules")
    assert code == 0 and all(i in out for i in ("SK-A6", "SF-11", "DD-21"))
    code, _, err = run(capsys, "rules", "chess")
    assert code == 2 and "chess" in err


def test_demo_tour_runs_in_both_languages(capsys: pytest.CaptureFixture[str]) -> None:
    for lang in ("en", "fr"):
        code, out, _ = run(capsys, "demo", "--tour", "--lang", lang)
        assert code == 0 and "SK-A6" in out


def test_console_script_from_the_shell() -> None:
    """The installed entry point, as a user types it: exit 2 and no traceback on bad input."""
    ok = subprocess.run(
        [
            sys.executable,
            "-m",
            "vigile",
            "check",
            "skirmish",
            "noise",
            "--event",
            "melee",
            "--json",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert ok.returncode == 0 and json.loads(ok.stdout)["difficulty"] == 4
    bad = subprocess.run(
        [
            sys.executable,
            "-m",
            "vigile",
            "check",
            "skirmish",
            "noise",
            "--event",
            "melee",
            "--dice",
            "99",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
