"""``vigile run``, ``demo`` and ``scenario``: the commands of issue 4, and their bad input."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from vigile.cli import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_demo_plays_the_night_raid(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "demo")
    assert code == 0, err
    # the bundled night raid, played with its own seed (1603, in night-raid.yaml): the very log
    # of ``vigile run night-raid``, and of it with that seed given
    assert run(capsys, "run", "night-raid")[1] == out
    assert run(capsys, "run", "night-raid", "--seed", "1603")[1] == out
    assert out.startswith("  Night raid on the Nagamasa residence — turn limit 40.")
    # a whole game: turns 1, 2, ... up to the last, then one outcome naming that last turn,
    # the one the JSON log of the same game ends on
    turns = [int(t) for t in re.findall(r"^— Turn (\d+) —$", out, flags=re.MULTILINE)]
    assert turns == list(range(1, len(turns) + 1)) and 1 <= len(turns) <= 40
    endings = re.findall(
        r"^(Objective reached on turn (\d+) by .+\.|Alarm raised on turn (\d+) by .+|"
        r"Turn limit reached \(turn (\d+)\)\.)$",
        out,
        flags=re.MULTILINE,
    )
    assert len(endings) == 1
    assert int(next(t for t in endings[0][1:] if t)) == turns[-1]
    _, lines, _ = run(capsys, "demo", "--json")
    last = json.loads(lines.splitlines()[-1])
    assert last["event"] == "outcome" and last["turn"] == turns[-1]


def test_demo_in_french_and_as_a_character(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "demo", "--lang", "fr", "--as", "Kage", "--seed", "4")
    assert code == 0 and out.startswith("Ce que sait Kage")
    assert "Chance" not in out


def test_as_finds_a_character_in_any_case(capsys: pytest.CaptureFixture[str]) -> None:
    exact = run(capsys, "demo", "--as", "Kage", "--seed", "4")
    assert exact[0] == 0 and exact[1].startswith("What Kage knows")
    assert run(capsys, "demo", "--as", "kage", "--seed", "4")[1] == exact[1]
    assert run(capsys, "demo", "--as", "KAGE", "--seed", "4")[1] == exact[1]
    code, _, err = run(capsys, "demo", "--as", "kag")
    assert code == 2 and "no character called 'kag'" in err and "Kage, Tsuki, Kaze" in err


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    from vigile import __version__

    code, out, _ = run(capsys, "--version")
    assert code == 0 and out == f"vigile {__version__}\n"
    assert re.fullmatch(r"\d+\.\d+\.\d+\S*", __version__)


def test_run_json_lines_replay(capsys: pytest.CaptureFixture[str]) -> None:
    _, first, _ = run(capsys, "run", "night-raid", "--seed", "9", "--json")
    _, again, _ = run(capsys, "run", "night-raid", "--seed", "9", "--json")
    assert first == again
    events = [json.loads(line) for line in first.splitlines()]
    assert events[0]["event"] == "start" and events[-1]["event"] == "outcome"


def test_run_with_the_gm_dice(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "run", "sk-n9-shoji", "--dice-values", "6,2,3,3")
    assert code == 0 and "heard" in out and "cries the alarm" in out  # a tie: the guard (SK-G5)


def test_step_reads_the_dice_typed_at_the_prompt(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("4\n1\n5\n2\n5\n"))
    code, out, err = run(capsys, "run", "sk-n9-shoji", "--step")
    assert code == 0 and "d6 (1-6, Enter rolls)" in err
    assert "the intruder strikes first" in out


def test_scenario_list_validate_schema(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "scenario", "list")
    assert code == 0 and "night-raid" in out and "dnd35-invisible-intruder" in out
    code, out, _ = run(capsys, "scenario", "validate", "night-raid")
    assert code == 0 and "valid" in out
    code, out, _ = run(capsys, "scenario", "schema")
    assert code == 0 and json.loads(out)["properties"]["actors"]


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("ruleset: chess\nname: x\nmap: {width: 10, height: 10}\nactors: []\n", "ruleset"),
        (
            "ruleset: skirmish\nname: x\nmap: {width: 10, height: 10}\n"
            "actors:\n  - {name: a, side: attackers, position: [50, 5]}\n",
            ":5: actors[0]",
        ),
        (
            "ruleset: skirmish\nname: x\nmap: {width: 10, height: 10}\n"
            "walls:\n  - {start: [1, 1], end: [1, 1]}\n"
            "actors:\n  - {name: a, side: attackers, position: [5, 5]}\n",
            "zero-length",
        ),
    ],
)
def test_bad_scenarios_exit_2_with_line_and_field(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str, needle: str
) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    code, out, err = run(capsys, "run", str(path))
    assert code == 2 and out == "" and needle in err and "Traceback" not in err
    code, _, err = run(capsys, "scenario", "validate", str(path))
    assert code == 2 and needle in err


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["run", "no-such-scenario"], "no-such-scenario"),
        (["run", "night-raid", "--turns", "0"], "--turns"),
        (["run", "night-raid", "--as", "Nobody"], "--as"),
        (["run", "night-raid", "--step", "--dice-values", "1"], "--dice-values"),
        (["run", "night-raid", "--seed", "-1"], "--seed"),
    ],
)
def test_bad_run_options(capsys: pytest.CaptureFixture[str], args: list[str], needle: str) -> None:
    code, _, err = run(capsys, *args)
    assert code == 2 and needle in err and "Traceback" not in err
