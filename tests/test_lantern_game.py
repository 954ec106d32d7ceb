"""A second toy game, with a risk map in its own words: the lantern game of
``tests/toygame_lantern`` (nothing outside its package). Its scenario validates, ``vigile run``
and ``simulate`` play it, its risk map depends on the way the sneak moves, ``vigile route``
writes a plan at that way, and ``vigile rules`` lists its rules.

Worked by hand from its rules: LANT-1 (a glimpse within 30 cm on a d6 at 4+, within 60 cm at
6, never farther nor through a wall) and LANT-2 (one less for a sneak moving fast).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import pytest
import yaml

import toygame_lantern
from vigile import registry
from vigile.cli import main
from vigile.engine.run import play
from vigile.scene.loader import load_scenario, parse_scenario

COURT = """
ruleset: lantern
name: A lantern court
map: {width: 120, height: 60}
turns: 2
actors:
  - {name: Sneak, side: attackers, position: [10, 10]}
  - {name: Keeper, side: defenders, position: [60, 30]}
plans:
  Sneak:
    - {to: [50, 10], speed: fast}
dice_values: [4, 5]
"""
"""Turn 1: the sneak dashes 20 cm to (30, 10), 36.1 cm from the keeper: at the light's edge,
6 less 1 for the hurry, 5+ (1/3). Turn 2: (50, 10), 22.4 cm: near, 4 less 1, 3+ (2/3)."""


@pytest.fixture
def court(tmp_path: Path) -> Iterator[Path]:
    registry.register(toygame_lantern.PLUGIN)
    path = tmp_path / "court.yaml"
    path.write_text(COURT)
    yield path
    registry.unregister("lantern")


def test_its_scenario_validates_and_plays(court: Path) -> None:
    """Dice 4 then 5: 4 misses the 5+ of turn 1, 5 meets the 3+ of turn 2."""
    assert load_scenario(court).ruleset == "lantern"
    result = play(load_scenario(court))
    chances = [e.verdict.chance for e in result.events if e.verdict is not None]
    assert chances == [Fraction(1, 3), Fraction(2, 3)]
    assert result.outcome.kind == "detected" and result.outcome.turn == 2
    assert [(p.observer, p.rule) for e in result.events if (p := e.perception)] == [
        ("Keeper", "LANT-1")
    ]


def test_simulate_counts_its_perceptions(court: Path) -> None:
    """Caught in two turns with 1 − (1 − 1/3)(1 − 2/3) = 7/9, every catch a perception."""
    from vigile.sim.simulate import simulate

    result = simulate(parse_scenario(COURT.replace("dice_values: [4, 5]", "")), 4000, seed=8)
    caught = result.outcome("caught")
    assert result.detected.count == caught.count
    assert abs(caught.p - 7 / 9) < 4 * (7 / 9 * 2 / 9 / 4000) ** 0.5


@pytest.mark.parametrize(
    ("way", "near", "edge"),
    [("half", Fraction(1, 2), Fraction(1, 6)), ("fast", Fraction(2, 3), Fraction(1, 3))],
)
def test_its_risk_map_depends_on_the_way(
    court: Path, capsys: pytest.CaptureFixture[str], way: str, near: Fraction, edge: Fraction
) -> None:
    """10-cm cells. (55, 25): 7.1 cm from the keeper, near (4+; fast 3+). (15, 5): 51.5 cm,
    the light's edge (6; fast 5+). (115, 55): 60.4 cm, dark."""
    from vigile.games.contract import RiskRequest, risk_map

    found = risk_map(load_scenario(court), RiskRequest(way))
    assert (found.exact(2, 5), found.exact(0, 1), found.exact(5, 11)) == (near, edge, Fraction(0))
    assert main(["riskmap", str(court), "--attitude", way, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["max"]["exact"] == str(near)
    assert main(["riskmap", str(court), "--attitude", "hidden"]) == 2
    assert "the lantern game's ways are half, fast" in capsys.readouterr().err


def test_the_route_writes_a_plan_at_its_way(
    court: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """From the sneak's start to (30, 10), asked at ``fast``: the route ends there, and the
    plan written for the sneak goes there at that way (the surface's ``leg_speed``)."""
    out = tmp_path / "planned.yaml"
    argv = ["route", str(court), "--to", "30,10", "--attitude", "fast", "--json"]
    assert main([*argv, "--write-plan", "Sneak", "--out", str(out)]) == 0
    route = json.loads(capsys.readouterr().out)
    assert route["from"] == [10, 10] and route["waypoints"][-1] == [30, 10]
    legs = yaml.safe_load(out.read_text())["plans"]["Sneak"]
    assert legs[-1]["to"] == [30, 10] and {leg["speed"] for leg in legs} == {"fast"}


def test_vigile_rules_lists_its_rules(court: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "lantern"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "Lantern game (lantern)"
    assert [line.split()[0] for line in lines[1:]] == ["LANT-1", "LANT-2"]
