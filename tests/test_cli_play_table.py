"""``vigile play`` at the table (issue 36): with vigile's dice the odds of each check are shown
before it is rolled; with the table's, a pool is typed on one line ("6 1") and each patrol's
scatter die is asked for (SK-G1). The chances are worked out by hand from RULES.md: the guard's
2 dice against 5+ at 15.6 cm, half speed (SK-V3, SK-D1): 1 - (4/6)^2 = 5/9; a cry heard unless
the die shows 1 (SK-N7): 5/6."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from vigile.cli import main
from vigile.live import Encounter
from vigile.store import Store

WALK = """\
ruleset: skirmish
name: Past the guard
map: {width: 110, height: 100}
turns: 10
actors:
  - {name: Ninja, side: attackers, position: [10, 62], dice: {ninjitsu: 1}}
  - {name: Guard, side: defenders, position: [50, 50], dice: 2}
  - {name: Walker, side: defenders, position: [20, 20], state: patrolling, dice: 1}
"""


def play(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, script: str, *args: str
) -> str:
    monkeypatch.setattr("sys.stdin", io.StringIO(script))
    assert main(["play", *args]) == 0
    out, _ = capsys.readouterr()
    return out


def test_rolled_dice_show_the_odds_before_the_roll(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    scenario = tmp_path / "walk.yaml"
    scenario.write_text(WALK)
    script = "move Ninja 25 62\nend\nmove Ninja 40 62\nend\nquit\n"
    db = f"sqlite:///{tmp_path / 'x.db'}"
    out = play(capsys, monkeypatch, script, str(scenario), "--db", db, "--seed", "7")
    odds = out.index("  Guard will roll 2d6: does the observer see the target? — Difficulty 5+")
    assert "Chance: 5/9 (55.56%)" in out[odds : out.index("\n", odds)]
    assert odds < out.index("  Guard looks at Ninja")  # before the roll
    assert out.count("will roll") == 1  # the moves and the first end of turn roll nothing


def test_the_tables_pool_on_one_line_and_the_patrols_scatter_die(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    scenario = tmp_path / "walk.yaml"
    scenario.write_text(WALK)
    db = f"sqlite:///{tmp_path / 'x.db'}"
    script = "move Ninja 25 62\nend\n90\nmove Ninja 40 62\nend\n6 1\n2\n45\nquit\n"
    out = play(
        capsys, monkeypatch, script, str(scenario), "--db", db, "--seed", "7", "--dice", "given"
    )
    assert "scatter die of the patrol Walker [SK-G1]" in out
    assert "(scatter die 90°)" in out and "(scatter die 45°)" in out
    assert '  dice 1 on: 2d6, on one line ("6 1 3"; 1-6, or cancel): 6 1' in out
    assert "Chance: 5/6 (83.33%)" in out  # the cry (SK-N7), asked after the pool
    store = Store(db)
    (row,) = store.encounters()
    records = store.records(row.id)
    assert records[1].payload["bearings"] == [90]
    assert records[3].payload["faces"] == [6, 1, 2]
    assert records[3].payload["bearings"] == [45]
    walker = Encounter(store, row.id, checkpoints=False).game.by_name["Walker"]
    assert walker.at == Encounter(store, row.id).game.by_name["Walker"].at


def test_a_d20_encounter_says_round(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    db = f"sqlite:///{tmp_path / 'x.db'}"
    out = play(capsys, monkeypatch, "quit\n", "dnd35-invisible-intruder", "--db", db)
    assert "Round 1 of 10; 0 record(s)" in out and "round 1> quit" in out
    assert "Turn 1 of" not in out and "turn 1>" not in out
    french = play(
        capsys, monkeypatch, "quit\n", "dnd35-invisible-intruder", "--db", db, "--lang", "fr"
    )
    assert "Round 1 sur 10" in french
    skirmish = play(capsys, monkeypatch, "quit\n", "night-raid", "--db", db)
    assert "Turn 1 of" in skirmish and "turn 1> quit" in skirmish
