"""A fourth game is a plug-in: registered, its scenario validates, ``vigile run`` plays it and
``vigile check`` lists it, with no file of vigile's engine, sim, scene or io touched (issue 9).
The toy game lives in ``tests/toygame``."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import pytest

import toygame
from vigile import registry
from vigile.cli import main
from vigile.engine.run import play
from vigile.scene.loader import load_scenario

SCENARIO = """
ruleset: toy
name: A toy raid
map: {width: 50, height: 50}
turns: 3
actors:
  - {name: Sneak, side: attackers, position: [10, 10]}
  - {name: Watcher, side: defenders, position: [40, 40]}
dice_values: [2, 5]
"""


@pytest.fixture
def toy(tmp_path: Path) -> Iterator[Path]:
    registry.register(toygame.PLUGIN)
    path = tmp_path / "toy.yaml"
    path.write_text(SCENARIO)
    yield path
    registry.unregister("toy")


def test_the_toy_game_is_registered_and_its_scenario_validates(toy: Path) -> None:
    assert "toy" in registry.names()
    scenario = load_scenario(toy)
    assert scenario.ruleset == "toy" and scenario.units.value == "cm"
    assert scenario.rules().num("glimpse.difficulty") == 5


def test_vigile_run_plays_the_toy_game(toy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Dice 2 then 5: turn 1 nothing (5+), turn 2 a glimpse (TOY-1, 1/3 each)."""
    result = play(load_scenario(toy))
    assert result.outcome.kind == "detected" and result.outcome.turn == 2
    glimpses = [e.verdict for e in result.events if e.verdict is not None]
    assert [v.chance for v in glimpses] == [Fraction(1, 3)] * 2
    assert main(["run", str(toy), "--lang", "fr"]) == 0
    out = capsys.readouterr().out
    assert "Watcher scrute Sneak" in out and "aperçu" in out


def test_vigile_check_lists_the_toy_game(toy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "toy", "odds"]) == 0
    assert capsys.readouterr().out.strip() == "1/3"
    main(["check", "--help"])
    assert "toy" in capsys.readouterr().out


def test_an_unknown_game_is_a_clear_error(tmp_path: Path) -> None:
    from vigile.scene.loader import scenario_errors

    path = tmp_path / "chess.yaml"
    path.write_text(SCENARIO.replace("ruleset: toy", "ruleset: chess"))
    errors = [str(e) for e in scenario_errors(str(path))]
    assert any("'chess' is not a game vigile knows" in e for e in errors)
