"""``vigile scenario set``: one field changed, every other byte of the file kept; a refused edit
leaves the file as it was (issue 37)."""

from __future__ import annotations

from pathlib import Path

import pytest

from vigile.cli import main

SCENARIO = """\
# a test raid: comments and key order must survive
ruleset: skirmish
name: Set test   # the title
units: cm
time: night
map: {width: 100, height: 60}
turns: 20       # twenty turns

lights:
  - {kind: lantern, at: [50, 30]}   # the lantern

actors:
  # the intruder
  - {name: Kage, side: attackers, position: [10, 10], ninja: true, move: 15,
     dice: {ninjitsu: 3, perception: 2}}
  - {name: Jubei, side: defenders, position: [80, 50], state: posted, dice: 2}
"""


@pytest.fixture
def raid(tmp_path: Path) -> Path:
    path = tmp_path / "raid.yaml"
    path.write_text(SCENARIO, encoding="utf-8")
    return path


def test_a_number_changes_and_nothing_else(raid: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scenario", "set", str(raid), "turns", "30"]) == 0
    assert raid.read_text(encoding="utf-8") == SCENARIO.replace("turns: 20 ", "turns: 30 ")
    assert "turns = 30" in capsys.readouterr().out


def test_an_actor_by_name(raid: Path) -> None:
    assert main(["scenario", "set", str(raid), "actors.Kage.dice.ninjitsu", "4"]) == 0
    assert raid.read_text(encoding="utf-8") == SCENARIO.replace("ninjitsu: 3", "ninjitsu: 4")


def test_a_default_field_is_added_in_its_item(raid: Path) -> None:
    """A lantern's radius is left at the rules' default: set, it is added to that item only."""
    assert main(["scenario", "set", str(raid), "lights.0.radius", "25"]) == 0
    expected = SCENARIO.replace("at: [50, 30]}", "at: [50, 30], radius: 25}")
    assert raid.read_text(encoding="utf-8") == expected


def test_out_writes_elsewhere_and_keeps_the_source(raid: Path, tmp_path: Path) -> None:
    out = tmp_path / "copy.yaml"
    assert main(["scenario", "set", str(raid), "name", "Other", "--out", str(out)]) == 0
    assert raid.read_text(encoding="utf-8") == SCENARIO
    assert out.read_text(encoding="utf-8") == SCENARIO.replace("name: Set test", "name: Other")
    assert main(["scenario", "set", str(raid), "turns", "5", "--out", str(out)]) == 2
    assert "turns: 20" in out.read_text(encoding="utf-8")
    assert main(["scenario", "set", str(raid), "turns", "5", "--out", str(out), "--force"]) == 0
    assert "turns: 5 " in out.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("field", "value", "said"),
    [
        ("actors.Nobody.dice", "3", "actors.Nobody.dice: no such field"),
        ("turnz", "3", "turnz: no such field"),
        ("lights.4.radius", "3", "lights.4.radius: no such field"),
        ("turns", "many", "turns takes a number, not many"),
        ("turns", "2.5", "turns takes a whole number"),
        ("actors.Kage.ninja", "7", "actors.Kage.ninja takes true or false"),
        ("turns", "0", "turns: the scenario would not be valid"),
        ("actors.Kage.side", "martians", "actors.Kage.side: the scenario would not be valid"),
    ],
)
def test_a_refused_edit_leaves_the_file(
    raid: Path, field: str, value: str, said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    before = raid.stat().st_mtime_ns
    assert main(["scenario", "set", str(raid), field, value]) == 2
    err = capsys.readouterr().err
    assert said in err
    assert err.count("\n") == 1
    assert raid.read_text(encoding="utf-8") == SCENARIO
    assert raid.stat().st_mtime_ns == before
    assert [p.name for p in raid.parent.iterdir()] == ["raid.yaml"]


def test_french_refusal(raid: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scenario", "set", str(raid), "actors.Nobody.dice", "3", "--lang", "fr"]) == 2
    assert "aucun champ de ce nom" in capsys.readouterr().err
    assert raid.read_text(encoding="utf-8") == SCENARIO


def test_a_bundled_scenario_needs_out(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scenario", "set", "night-raid", "turns", "30"]) == 2
    assert "--out" in capsys.readouterr().err
    out = tmp_path / "raid.yaml"
    assert main(["scenario", "set", "night-raid", "turns", "30", "--out", str(out)]) == 0
    from vigile.scene.loader import bundled_path

    original = bundled_path("night-raid").read_text(encoding="utf-8")
    assert out.read_text(encoding="utf-8") == original.replace("turns: 40", "turns: 30", 1)


def test_a_negative_value_and_a_block_written_actor(tmp_path: Path) -> None:
    """``-2`` is a value, not an option; an actor written as a block keeps its layout."""
    from vigile.scene.loader import bundled_path

    original = bundled_path("dnd35-flour").read_text(encoding="utf-8")
    path = tmp_path / "flour.yaml"
    path.write_text(original, encoding="utf-8")
    assert main(["scenario", "set", str(path), "actors.Wisp.bonuses.hide", "-2"]) == 0
    assert main(["scenario", "set", str(path), "actors.Wisp.move", "20"]) == 0
    expected = original.replace(
        "    move: 30\n    bonuses: {move_silently: 8, hide: 8,",
        "    move: 20\n    bonuses: {move_silently: 8, hide: -2,",
    )
    assert expected != original
    assert path.read_text(encoding="utf-8") == expected
