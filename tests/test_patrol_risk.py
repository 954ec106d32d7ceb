"""The risk a moving patrol gives (issue 37): the still-guard map averaged over the patrols'
walks, by hand on an open yard and against ``simulate``."""

from __future__ import annotations

import json
import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from vigile.cli.sim import app
from vigile.errors import InputError, LimitError
from vigile.games.contract import RiskRequest, risk_map
from vigile.games.patrol_risk import patrol_positions, patrol_risk_map
from vigile.games.skirmish.route import safest_route
from vigile.scene.loader import parse_scenario
from vigile.scene.model import Scenario
from vigile.sim.simulate import simulate

# An open yard at night, no wall, no light: one patrolling guard (1 die) at (52.5, 42.5); the
# ninja stands still (immobile, no plan) 10 cm east of it, at a 5-cm cell's centre. Three
# turns of 10 cm keep the guard 30 cm or less from its start: it never meets the edge.
YARD = """
ruleset: skirmish
name: patrol yard
time: night
turns: {turns}
map: {{width: 120, height: 90}}
actors:
  - {{name: Ninja, side: attackers, position: [{x}, {y}]}}
  - {{name: Guard, side: defenders, position: [52.5, 42.5], dice: 1, state: patrolling}}
"""

runner = CliRunner()


def yard(turns: int = 1, x: float = 62.5, y: float = 42.5) -> Scenario:
    return parse_scenario(YARD.format(turns=turns, x=x, y=y))


def still_map(scenario: Scenario) -> RiskRequest:
    return RiskRequest("immobile", resolution=5.0)


def test_the_patrol_walks_by_the_engines_own_step() -> None:
    """SK-G1: each turn the guard moves exactly 10 cm (open ground), one draw repeatable."""
    scenario = yard(turns=3)
    places = patrol_positions(scenario, 3, seed=7)
    assert places == patrol_positions(scenario, 3, seed=7)
    previous = (52.5, 42.5)
    for at in places:
        assert math.dist(previous, at["Guard"]) == pytest.approx(10.0)
        previous = at["Guard"]


def test_one_turn_by_hand() -> None:
    """Turn 1, the ninja 10 cm from the guard's start. After its move the guard stands on the
    circle of radius 10 around its start, at a uniform angle; it sees an immobile ninja only
    closer than 10 cm (SK-V1, SK-V3, strict: SK-V8), on a 6 (1/6). Closer than 10 cm: the law
    of cosines, 100 + 100 − 200 cos θ < 100, cos θ > 1/2: one third of the circle. So the
    chance is 1/3 · 1/6 = 1/18; each draw gives 1/6 or 0, so the standard error of the mean of
    n draws is (1/6)·√(1/3 · 2/3 / n)."""
    samples = 600
    found = patrol_risk_map(yard(), still_map(yard()), samples=samples, turns=1, seed=3)
    cell = found.cell_of(62.5, 42.5)
    assert (float(found.xs[cell[1]]), float(found.ys[cell[0]])) == (62.5, 42.5)
    error = (1 / 6) * math.sqrt((1 / 3) * (2 / 3) / samples)
    assert abs(found.risk[cell] - 1 / 18) < 4 * error
    assert found.error[cell] == pytest.approx(error, rel=0.25)
    assert found.held[cell] == found.risk[cell]  # one turn: the two chances are one
    # the still guard, 10 cm away exactly, cannot see it (strict band): the map said 0
    assert found.still[cell] == 0
    assert risk_map(yard(), still_map(yard())).risk_at(62.5, 42.5) == Fraction(0)


def test_far_from_the_patrol_nothing_changes() -> None:
    """40 cm from the guard's start a one-turn patrol (10 cm) is still out of sight: 0."""
    found = patrol_risk_map(yard(), still_map(yard()), samples=8, turns=1, seed=1)
    assert found.risk[found.cell_of(102.5, 42.5)] == 0
    assert found.error[found.cell_of(102.5, 42.5)] == 0


@pytest.mark.parametrize(("x", "y"), [(62.5, 42.5), (72.5, 52.5)])
def test_held_chance_agrees_with_simulate(x: float, y: float) -> None:
    """A ninja standing still through three turns: the map's chance of being detected at
    least once equals simulate's detection frequency within four standard errors (the map's
    and the simulation's together)."""
    scenario = yard(turns=3, x=x, y=y)
    found = patrol_risk_map(scenario, still_map(scenario), samples=300, turns=3, seed=11)
    cell = found.cell_of(x, y)
    runs = 2000
    result = simulate(scenario, runs, seed=5, model="engine")
    seen = result.detected.p
    spread = math.sqrt(found.held_error[cell] ** 2 + seen * (1 - seen) / runs)
    assert spread > 0
    assert abs(found.held[cell] - seen) < 4 * spread, (found.held[cell], seen, spread)


def test_a_route_minimises_the_patrol_map() -> None:
    """The route over the patrol map is the one route code, over the averaged chances. In
    turn 1 the guard is 10 cm from its start, and sees a half-speed mover only closer than
    20 cm (SK-V3): nothing farther than 30 cm from (52.5, 42.5) is at risk, so a route that
    goes around (the yard is 90 cm high) has chance 0, and the straight line has not."""
    scenario = yard(turns=3, x=5, y=5)
    request = RiskRequest("half", resolution=5.0)
    found = patrol_risk_map(scenario, request, samples=16, turns=1, seed=2)
    best = safest_route(found, (7.5, 42.5), (112.5, 42.5))
    assert best.chance_seen == 0
    straight = found.risk[found.cell_of(52.5, 42.5)]
    assert straight > 0  # the straight line crosses the patrol


def test_refusals() -> None:
    scenario = yard(turns=3)
    request = still_map(scenario)
    with pytest.raises(InputError, match="--turns"):
        patrol_risk_map(scenario, request, turns=4)
    with pytest.raises(InputError, match="2 draws"):
        patrol_risk_map(scenario, request, samples=1)
    with pytest.raises(LimitError):
        patrol_risk_map(scenario, request, samples=10**5, turns=3)
    posted = parse_scenario(YARD.format(turns=1, x=5, y=5).replace(", state: patrolling", ""))
    with pytest.raises(InputError, match="patrols"):
        patrol_risk_map(posted, request)


def test_the_grid_is_coarsened_to_the_budget() -> None:
    """Without --resolution, maps whose cells × guards × maps pass the budget are made on a
    coarser grid: the cell's side doubled, the same grid whatever the machine."""
    scenario = yard(turns=3)
    fine = patrol_risk_map(scenario, RiskRequest("half"), samples=2, turns=1, budget=10**12)
    coarse = patrol_risk_map(scenario, RiskRequest("half"), samples=2, turns=1, budget=1)
    assert coarse.resolution > fine.resolution
    # 1 cm (the automatic grid of a 120 × 90 cm yard), doubled until a side has 4 cells or
    # fewer: 16 cm gives 8 × 6, 32 cm gives 4 × 3 (floor(120/32 + 1/2) = 4)
    assert (fine.resolution, coarse.resolution) == (1.0, 32.0)
    assert coarse.risk.shape == (3, 4)
    assert np.shape(coarse.still) == np.shape(coarse.risk)


def test_the_cli_says_it_is_a_sampled_average(tmp_path: Path) -> None:
    """``vigile riskmap --patrols`` and ``vigile route --patrols``: text and JSON name the
    draws, the turns and the error bound; the patrol options alone are refused."""
    path = tmp_path / "yard.yaml"
    path.write_text(YARD.format(turns=3, x=5, y=5), encoding="utf-8")
    common = ["--resolution", "5", "--patrols", "--patrol-samples", "8", "--turns", "2"]
    result = runner.invoke(app, ["riskmap", str(path), "--attitude", "half", *common])
    assert result.exit_code == 0, result.output
    assert "a sampled average over 8 draws of their walk, turns 1 to 2 (seed 0)" in result.output
    assert "Monte-Carlo error at most" in result.output
    result = runner.invoke(
        app, ["riskmap", str(path), "--attitude", "half", *common, "--json", "--seed", "4"]
    )
    data = json.loads(result.output)
    assert data["patrols"]["samples"] == 8
    assert data["patrols"]["turns"] == 2
    assert data["patrols"]["seed"] == 4
    assert data["patrols"]["patrolling"] == ["Guard"]
    assert np.shape(data["grid"]["standard_error"]) == np.shape(data["grid"]["risk"])
    assert data["patrols"]["max_standard_error"] == pytest.approx(
        max(max(row) for row in data["grid"]["standard_error"]), abs=1e-6
    )
    route = ["route", str(path), "--from", "7.5,42.5", "--to", "112.5,42.5", *common]
    result = runner.invoke(app, [*route, "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["patrols"]["samples"] == 8
    result = runner.invoke(app, ["riskmap", str(path), "--attitude", "half", "--turns", "2"])
    assert result.exit_code == 2
    assert "--turns" in result.output


# A D&D 3.5 yard by day, brush everywhere (the rogue may Hide, DD-20): one patrolling guard
# (Spot +2) wanders half its speed a round; the rogue stands still (no noise, DD-5).
D20_YARD = """
ruleset: dnd35
name: d20 patrol yard
units: ft
time: day
map: {{width: 120, height: 120}}
turns: 3
default_surface: floor
cover:
  - {{name: brush, points: [[0, 0], [120, 0], [120, 120], [0, 120]]}}
actors:
  - {{name: Rogue, side: attackers, position: [{x}, {y}], move: 30,
     bonuses: {{hide: 4, move_silently: 4}}}}
  - {{name: Guard, side: defenders, position: [62.5, 62.5], state: patrolling,
     bonuses: {{spot: 2, listen: 2}}}}
"""


@pytest.mark.parametrize(("x", "y"), [(72.5, 62.5), (112.5, 112.5)])
def test_a_d20_patrol_agrees_with_simulate(x: float, y: float) -> None:
    """The same on a d20 game: its own wandering guard (the round's patrol step), its own
    map (noticed or heard), against simulate's detection frequency over three rounds."""
    scenario = parse_scenario(D20_YARD.format(x=x, y=y))
    found = patrol_risk_map(scenario, RiskRequest("still"), samples=100, turns=3, seed=1)
    cell = found.cell_of(x, y)
    assert found.max_error() > 0  # the guard's walk changes the chances
    runs = 1500
    seen = simulate(scenario, runs, seed=3, model="engine").detected.p
    spread = math.sqrt(found.held_error[cell] ** 2 + seen * (1 - seen) / runs)
    assert abs(found.held[cell] - seen) < 4 * spread, (found.held[cell], seen, spread)
