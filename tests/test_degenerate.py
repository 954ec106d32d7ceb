"""Valid but degenerate scenarios, resource limits, and the GM's terminal (issue 15).

Each case was found by fuzzing and goes through the real CLI (:func:`vigile.cli.main`): it
exits 0 with a sensible answer, or 2 with one line naming the limit and its value; never a
traceback, never a hang.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import yaml

from vigile.cli import main
from vigile.games.skirmish.riskmap import MAX_CELL_GUARDS, MAX_CELLS
from vigile.games.skirmish.route import MAX_ROUTE_CELLS


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
    code, out, err = cli(capsys, "scenario", "validate", path)
    assert (code, err) == (0, "") and "valid" in out
    code, out, err = cli(capsys, "simulate", path, "--runs", "50", "--json")
    assert (code, err) == (0, "")
    result = json.loads(out)
    # every run is played to its end: no objective on this map, an alarm that does not end
    # the game (alarm_ends is off by default: SK-G5), no d20 capture and no shadowing, so
    # each of the 50 runs ends on the turn limit, whether the blow was struck or not
    assert result["runs"] == 50
    assert {k: v["count"] for k, v in result["outcomes"].items() if v["count"]} == {
        "turn_limit": 50
    }
    # and the blow is in play: when A reaches its waypoint the plan's blow at G is struck, or
    # said not made (G patrolled out of reach, LP-7), an action of A's on G either way
    code, out, err = cli(capsys, "run", path, "--seed", "1", "--json")
    assert (code, err) == (0, "")
    events = [json.loads(line) for line in out.splitlines()]
    assert [(e["actor"], e["target"]) for e in events if e["event"] == "action"] == [("A", "G")]


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


# ---------------------------------------------------------------- resource limits


def crowd(guards: int, **more: Any) -> dict[str, Any]:
    rng = np.random.default_rng(15)
    actors = [dict(NINJA)] + [
        {"name": f"G{i}", "side": "defenders", "position": [float(x), float(y)]}
        for i, (x, y) in enumerate(rng.uniform((0, 0), (200, 120), size=(guards, 2)).round(1))
    ]
    walls = [{"start": [100, 20], "end": [100, 100]}]
    return {
        "ruleset": "skirmish",
        "name": "crowd",
        "map": {"width": 200, "height": 120},
        "actors": actors,
        "walls": walls,
        **more,
    }


def test_many_guards_coarsen_the_default_risk_map_to_its_budget(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, crowd(300))
    code, out, err = cli(capsys, "riskmap", path, "--attitude", "half", "--json")
    assert code == 0, err
    resolution = json.loads(out)["resolution_cm"]
    assert resolution == 2  # 1 cm would make 24,000 cells x 300 guards > MAX_CELL_GUARDS
    err = refused(capsys, "riskmap", path, "--attitude", "half", "--resolution", "1")
    assert f"at most {MAX_CELL_GUARDS:,}" in err and "--resolution: 1 cm" in err


def test_a_route_finer_than_its_cell_limit_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, crowd(1))
    err = refused(capsys, "route", path, "--from", "1,1", "--to", "190,110", "--resolution", "0.2")
    assert f"at most {MAX_ROUTE_CELLS:,}" in err and "600,000 cells" in err
    err = refused(capsys, "route", path, "--from", "1,1", "--to", "190,110", "--resolution", "0.01")
    assert f"at most {MAX_CELLS:,}" in err


def test_simulating_the_largest_board_finishes_in_bounded_memory(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scenario = {
        "ruleset": "skirmish",
        "name": "a kilometre of table",
        "map": {"width": 100_000, "height": 100_000},
        "walls": [
            {"start": [10, 10], "end": [90_000, 10]},
            {"start": [50_000, 100], "end": [50_000, 90_000]},
        ],
        "actors": [
            dict(NINJA, position=[1, 1]),
            {"name": "G", "side": "defenders", "position": [50, 50], "state": "patrolling"},
        ],
        "plans": {"A": [{"to": [5, 90_000]}]},
        "turns": 10,
    }
    path = write(tmp_path, scenario)
    code, out, err = cli(capsys, "simulate", path, "--runs", "200", "--json")
    assert code == 0, err
    assert json.loads(out)["runs"] == 200


def test_a_file_name_with_escapes_is_printed_escaped(tmp_path: Path) -> None:
    """What the user typed reaches the terminal escaped: a file name with ESC and a bidi
    override in an error (issue 15)."""
    import contextlib
    import io

    name = str(tmp_path / "evil\x1b[31m\u202e.yaml")
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        assert main(["scenario", "validate", name]) == 2
    assert "\x1b" not in err.getvalue() and "\u202e" not in err.getvalue()
    assert "\\x1b" in err.getvalue() and "\\u202e" in err.getvalue()


def test_a_game_played_one_by_one_is_bounded_before_any_work(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without the compiled kernel (numba missing), the engine plays each run, so the work
    (runs x turns x actors) is bounded up front (issue 15: a Starfinder simulate that did not
    finish). 12 rounds x 4 actors: 10,000 runs are 480,000 actor-rounds, allowed; 20,000 are
    not."""
    import vigile.sim.kernel
    from vigile.errors import LimitError
    from vigile.scene.loader import load_scenario
    from vigile.sim.simulate import check_engine_work

    scenario = load_scenario("starfinder-infiltration")
    assert scenario.turns * len(scenario.actors) == 48
    check_engine_work(scenario, 10_000)
    with pytest.raises(LimitError, match="over the limit of 500,000"):
        check_engine_work(scenario, 20_000)
    monkeypatch.setattr(vigile.sim.kernel, "available", lambda: False)
    assert main(["simulate", "starfinder-infiltration", "--runs", "20000"]) == 2
    assert "over the limit of 500,000" in capsys.readouterr().err
