"""Valid but degenerate scenarios, resource limits, and the GM's terminal (issue 15).

Each case was found by fuzzing and goes through the real CLI (:func:`vigile.cli.main`): it
exits 0 with a sensible answer, or 2 with one line naming the limit and its value; never a
traceback, never a hang.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from vigile.cli import main


def write(tmp_path: Path, scenario: dict[str, Any], name: str = "s.yaml") -> str:
    path = tmp_path / name
    path.write_text(yaml.safe_dump(scenario, allow_unicode=True), encoding="utf-8")
    return str(path)


def skirmish(*actors: dict[str, Any], **more: Any) -> dict[str, Any]:
    return {
        "ruleset": "skirmish",
        "name": "degenerate",
        "map": {"width": 100, "height": 100},
        "actors": list(actors),
        **more,
    }


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def refused(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """The one line of a refusal (exit 2)."""
    code, out, err = cli(capsys, *argv)
    assert code == 2, (out, err)
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


GUARD = {"name": "G", "side": "defenders", "position": [50, 50], "state": "patrolling"}
NINJA = {"name": "A", "side": "attackers", "position": [10, 10]}


# ---------------------------------------------------------------- degenerate scenarios


@pytest.mark.parametrize(
    "actors",
    [[GUARD], [NINJA]],
    ids=["no-attackers", "no-defenders"],
)
def test_a_side_with_no_one_on_it_simulates_to_the_turn_limit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], actors: list[dict[str, Any]]
) -> None:
    path = write(tmp_path, skirmish(*actors, turns=5))
    code, out, err = cli(capsys, "simulate", path, "--runs", "300", "--json")
    assert code == 0, err
    result = json.loads(out)
    assert result["outcomes"]["turn_limit"]["count"] == 300
    assert result["detected"]["count"] == 0


@pytest.mark.parametrize("action", ["kill", "strike"])
def test_a_blow_at_an_ally_is_refused_naming_the_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], action: str
) -> None:
    ally = {"name": "B", "side": "attackers", "position": [12, 10]}
    plans = {"A": [{"to": [12, 12], "actions": [{"do": action, "target": "B"}]}]}
    path = write(tmp_path, skirmish(NINJA, ally, GUARD, plans=plans))
    err = refused(capsys, "simulate", path, "--runs", "10")
    assert "plans.A[0].actions[0].target" in err
    assert f"'A' cannot {action} 'B', one of the attackers too" in err


def test_a_defender_named_in_a_blow_is_still_fine(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plans = {"A": [{"to": [48, 50], "actions": [{"do": "kill", "target": "G"}]}]}
    path = write(tmp_path, skirmish(NINJA, GUARD, plans=plans, turns=5))
    code, _, err = cli(capsys, "simulate", path, "--runs", "50")
    assert code == 0, err


# ---------------------------------------------------------------- the terminal


@pytest.mark.parametrize(
    ("field", "text", "code"),
    [
        ("name", "evil \x1b[31m red", "U+001B"),
        ("name", "ring \x07", "U+0007"),
        ("description", "abc\u202edef", "U+202E"),
        ("description", "csi \x9b31m", "U+009B"),
        ("actor", "Ka\u2066ge", "U+2066"),
        ("actor", "Ka\u200fge", "U+200F"),
        ("reproduces", "SK-N9\x1b", "U+001B"),
    ],
)
def test_control_characters_and_bidi_overrides_are_refused_naming_the_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], field: str, text: str, code: str
) -> None:
    scenario = skirmish(dict(NINJA), GUARD)
    if field == "actor":
        scenario["actors"][0]["name"] = text
        where = "actors[0].name"
    elif field == "reproduces":
        scenario["reproduces"] = [text]
        where = "reproduces[0]"
    else:
        scenario[field] = text
        where = field
    path = write(tmp_path, scenario)
    for command in (("scenario", "validate", path), ("run", path)):
        err = refused(capsys, *command)
        assert f"{where}: contains {code}" in err
        assert "\x1b" not in err and "\x07" not in err and "\u202e" not in err


def test_a_description_keeps_its_new_lines_and_tabs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, skirmish(NINJA, GUARD, description="line one\n\tline two\n"))
    code, _, err = cli(capsys, "scenario", "validate", path)
    assert code == 0, err
