"""The safest route (issue 5, item 4), its plan, the pictures and the two commands."""

from __future__ import annotations

import dataclasses
import itertools
import json
import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from vigile.cli.sim import app
from vigile.errors import InputError
from vigile.games.skirmish.riskmap import RiskMap, risk_map
from vigile.games.skirmish.route import Route, safest_route, step_open
from vigile.rulesets.skirmish.sight import Attitude
from vigile.scene.geometry import crossings
from vigile.scene.loader import load_scenario, parse_scenario
from vigile.scene.model import Scenario

# A yard split by a wall with a gap at the south end, a room with no door, a guard and a lantern.
YARD = """
ruleset: skirmish
name: walled yard
time: night
map: {width: 120, height: 60}
walls:
  - {kind: wall, start: [60, 0], end: [60, 45]}
  - {kind: wall, start: [90, 5], end: [110, 5]}
  - {kind: wall, start: [110, 5], end: [110, 20]}
  - {kind: wall, start: [110, 20], end: [90, 20]}
  - {kind: wall, start: [90, 20], end: [90, 5]}
cover:
  - {points: [[20, 40], [40, 40], [40, 55], [20, 55]]}
lights:
  - {kind: lantern, at: [30, 20], radius: 8}
actors:
  - {name: Ninja, side: attackers, position: [10, 10], dice: {ninjitsu: 2}}
  - {name: Guard, side: defenders, position: [40, 25], dice: 2}
plans:
  Ninja:
    - {to: [12, 12], speed: half}
"""


@pytest.fixture(scope="module")
def yard() -> Scenario:
    return parse_scenario(YARD)


@pytest.fixture(scope="module")
def yard_map(yard: Scenario) -> RiskMap:
    return risk_map(yard, Attitude.HALF, resolution=1)


def legs_are_wall_free(found: RiskMap, route: Route) -> bool:
    barriers = found.board.barriers
    points = np.array(route.waypoints)
    centres = np.array([(found.xs[c], found.ys[r]) for r, c in route.cells])
    for path in (points, centres):
        count = crossings(
            barriers,
            path[:-1, 0],
            path[:-1, 1],
            path[1:, 0],
            path[1:, 1],
            barriers.blocks_movement,
        )
        if count.any():
            return False
    return True


def test_the_route_goes_round_the_wall(yard_map: RiskMap) -> None:
    route = safest_route(yard_map, (10, 10), (80, 10))
    assert route.waypoints[0] == (10, 10) and route.waypoints[-1] == (80, 10)
    assert legs_are_wall_free(yard_map, route)
    assert max(y for _, y in route.waypoints) > 45  # round the south end of the wall
    assert route.length > math.dist((10, 10), (60, 45)) + math.dist((60, 45), (80, 10))


def test_route_chance_is_one_test_per_turn_spread_along_the_route(yard_map: RiskMap) -> None:
    """Each step into a cell of risk p takes ds / move of a turn's test: (1 - p)^(ds / move)."""
    from vigile.games.skirmish.route import turn_length

    route = safest_route(yard_map, (5, 30), (50, 30))
    move = turn_length(yard_map)
    missed = 1.0
    for (r0, c0), cell in itertools.pairwise(route.cells):
        step = yard_map.resolution * math.hypot(cell[0] - r0, cell[1] - c0)
        missed *= (1 - yard_map.risk[cell]) ** (step / move)
    assert route.chance_seen == pytest.approx(1 - missed, rel=1e-9, abs=1e-12)
    assert 0 <= route.chance_seen < 1


def bresenham(a: tuple[int, int], b: tuple[int, int]) -> list[tuple[int, int]]:
    (r0, c0), (r1, c1) = a, b
    steps = max(abs(r1 - r0), abs(c1 - c0))
    return (
        [
            (round(r0 + (r1 - r0) * k / steps), round(c0 + (c1 - c0) * k / steps))
            for k in range(steps + 1)
        ]
        if steps
        else [a]
    )


@settings(max_examples=25, deadline=None)
@given(x1=st.floats(1, 119), y1=st.floats(1, 59), x2=st.floats(1, 119), y2=st.floats(1, 59))
def test_no_riskier_than_the_straight_line(
    yard_map: RiskMap, x1: float, y1: float, x2: float, y2: float
) -> None:
    try:
        route = safest_route(yard_map, (x1, y1), (x2, y2))
    except InputError:
        return  # on a wall, or walled in
    assert route.waypoints[0] == (x1, y1) and route.waypoints[-1] == (x2, y2)
    assert legs_are_wall_free(yard_map, route)
    line = bresenham(route.cells[0], route.cells[-1])
    xs = np.array([yard_map.xs[c] for _, c in line])
    ys = np.array([yard_map.ys[r] for r, _ in line])
    barriers = yard_map.board.barriers
    legal = not crossings(
        barriers, xs[:-1], ys[:-1], xs[1:], ys[1:], barriers.blocks_movement
    ).any() and all(yard_map.risk[cell] < 1 for cell in line[1:-1])
    if legal:
        missed = math.prod(1 - yard_map.risk[cell] for cell in line[1:])
        assert route.chance_seen <= 1 - missed + 1e-12


def test_the_night_raid_route_is_wall_free() -> None:
    found = risk_map(load_scenario("night-raid"), Attitude.HIDDEN, resolution=1)
    route = safest_route(found, (60, 14), (130, 82))
    assert legs_are_wall_free(found, route)
    assert route.chance_seen == 0.0


def _with_certain(found: RiskMap, columns: list[int], gap: int | None = None) -> RiskMap:
    """``found`` with its cells seen for certain in whole ``columns`` (but row ``gap``)."""
    risk = np.array(found.risk) * 0.5  # nothing certain elsewhere
    for column in columns:
        risk[:, column] = 1.0
        if gap is not None:
            risk[gap, column] = 0.0
    return dataclasses.replace(found, risk=risk)


def test_the_least_bad_route_crosses_the_fewest_certain_cells(yard_map: RiskMap) -> None:
    """West of the yard's wall, columns 20 and 40 are seen for certain from top to bottom: every
    way from (10, 10) to (50, 10) crosses each once, so the least-bad route enters 2 such
    cells (a diagonal step into a column enters one cell of it), its chance 100%, and no
    refusal; with a gap at row 50 in both, it goes through the gaps, none certain."""
    walled = _with_certain(yard_map, [20, 40])
    route = safest_route(walled, (10, 10), (50, 10))
    assert route.certain == 2 and route.chance_seen == 1.0
    assert sum(walled.risk[cell] >= 1.0 for cell in route.cells[1:]) == 2
    assert legs_are_wall_free(walled, route)
    gapped = _with_certain(yard_map, [20, 40], gap=50)
    around = safest_route(gapped, (10, 10), (50, 10))
    assert around.certain == 0 and around.chance_seen < 1.0
    assert (50, 20) in around.cells and (50, 40) in around.cells


@pytest.mark.parametrize(
    ("start", "goal", "message"),
    [
        ((60, 20), (80, 10), "inside a wall"),
        ((-1, 20), (80, 10), "off the board"),
        ((10, 10), (100, 12), "no route"),  # the room with no door
        ((10, 10), (121, 10), "off the board"),
    ],
)
def test_bad_ends_are_refused(
    yard_map: RiskMap, start: tuple[float, float], goal: tuple[float, float], message: str
) -> None:
    with pytest.raises(InputError, match=message):
        safest_route(yard_map, start, goal, prepared=step_open(yard_map))


# --------------------------------------------------------------------------- the commands

runner = CliRunner()


def write_yard(tmp_path: Path) -> Path:
    path = tmp_path / "yard.yaml"
    path.write_text(YARD, encoding="utf-8")
    return path


def test_riskmap_prints_a_summary(tmp_path: Path) -> None:
    result = runner.invoke(app, ["riskmap", str(write_yard(tmp_path)), "--attitude", "fast"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("Risk map of “walled yard”: an intruder moving fast")
    assert lines[1] == "Board 120 × 60 cm, grid of 1 cm (120 × 60 cells), 1 guards"
    assert lines[2].startswith("Chance: max 100.00% at (")
    assert "  Ninja at (10, 10): 75.00% (exact 3/4)" in lines  # 33.5 cm, 4+ on 2 dice


def test_riskmap_in_french_with_noise(tmp_path: Path) -> None:
    result = runner.invoke(
        app,
        [
            "riskmap",
            str(write_yard(tmp_path)),
            "--attitude",
            "half",
            "--noise",
            "fumble",
            "--lang",
            "fr",
        ],
    )
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("Carte du bruit de « walled yard » : un échec critique")


def test_riskmap_json(tmp_path: Path) -> None:
    result = runner.invoke(
        app,
        ["riskmap", str(write_yard(tmp_path)), "--attitude", "fast", "--resolution", "2", "--json"],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (data["attitude"], data["resolution_cm"]) == ("fast", 2.0)
    assert len(data["grid"]["risk"]) == 30 and len(data["grid"]["risk"][0]) == 60
    assert data["max"]["exact"] == "1"
    assert data["points"][0] == {
        "actor": "Ninja",
        "at": [10.0, 10.0],
        "chance": 0.75,
        "exact": "3/4",
    }


def test_plots_are_written(tmp_path: Path) -> None:
    png, svg = tmp_path / "map.png", tmp_path / "route.svg"
    result = runner.invoke(
        app,
        ["riskmap", "night-raid", "--attitude", "hidden", "--resolution", "2", "--plot", str(png)],
    )
    assert result.exit_code == 0, result.output
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    result = runner.invoke(
        app,
        [
            "route",
            str(write_yard(tmp_path)),
            "--from",
            "10,10",
            "--to",
            "80,10",
            "--plot",
            str(svg),
        ],
    )
    assert result.exit_code == 0, result.output
    assert b"<svg" in svg.read_bytes()[:2000]


def test_route_writes_the_plan_back(tmp_path: Path) -> None:
    out = tmp_path / "planned.yaml"
    result = runner.invoke(
        app,
        [
            "route",
            str(write_yard(tmp_path)),
            "--to",
            "80,10",
            "--write-plan",
            "Ninja",
            "--out",
            str(out),
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["from"] == [10.0, 10.0] and data["to"] == [80.0, 10.0]
    planned = load_scenario(out)
    legs = planned.plans["Ninja"]
    assert [list(leg.to) for leg in legs if leg.to] == data["waypoints"][1:]
    assert {leg.speed for leg in legs} == {Attitude.HALF}


def test_a_hidden_route_is_written_hidden_only_in_cover(tmp_path: Path) -> None:
    out = tmp_path / "hidden.yaml"
    result = runner.invoke(
        app,
        [
            "route",
            str(write_yard(tmp_path)),
            "--to",
            "30,50",
            "--attitude",
            "hidden",
            "--write-plan",
            "Ninja",
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    legs = load_scenario(out).plans["Ninja"]
    assert legs[-1].to == (30, 50)

    def in_cover(x: float, y: float) -> bool:
        # the yard's one cover, the rectangle (20, 40)-(40, 55) of YARD
        return 20 <= x <= 40 and 40 <= y <= 55

    # hidden needs cover (SK-V3): a leg is written hidden exactly when its waypoint is in cover;
    # out of cover a hidden mover is seen as in motion (SK-V9), so the leg is written at half
    # speed, never as an immobile leg that moves (issue 8)
    written = [(leg.to, leg.speed) for leg in legs if leg.to is not None]
    assert written == [
        (to, Attitude.HIDDEN if in_cover(*to) else Attitude.HALF) for to, _ in written
    ]
    # both cases are met: (30, 50) is in cover; the route leaves (10, 10), 30 cm from the
    # cover to the north-west, through a waypoint out of it
    assert written[-1][1] is Attitude.HIDDEN
    assert any(speed is Attitude.HALF for _, speed in written)


def test_route_text(tmp_path: Path) -> None:
    result = runner.invoke(
        app, ["route", str(write_yard(tmp_path)), "--from", "10,10", "--to", "80,10"]
    )
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert (
        lines[0]
        == "Safest route on “walled yard” for an intruder moving at half speed, grid of 1 cm"
    )
    assert lines[1].startswith("From (10, 10) to (80, 10): ")
    assert lines[2].startswith("Chance of being seen along the route: ")
    assert lines[4].startswith("  (10, 10) → ") and lines[4].endswith(" → (80, 10)")


def test_a_route_seen_for_certain_is_the_least_bad_not_a_refusal() -> None:
    """The D&D intruder at full speed (DD-5, DD-20) cannot cross the hall unnoticed: every way
    passes squares where the guard notices it for certain. The command answers the least-bad
    route, says so, and gives its chance (100%), in text and JSON."""
    args = ["route", "dnd35-invisible-intruder", "--from", "2,22", "--to", "74,25"]
    result = runner.invoke(app, [*args, "--attitude", "full"])
    assert result.exit_code == 0, result.output
    assert "No route avoids every spot seen for certain" in result.stdout
    assert "along the route: 100.00%" in result.stdout
    found = json.loads(runner.invoke(app, [*args, "--attitude", "full", "--json"]).stdout)
    assert found["certain_cells"] >= 1 and found["chance_seen"] == 1.0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["riskmap", "night-raid", "--attitude", "fast", "--resolution", "0"], "--resolution"),
        (["riskmap", "night-raid", "--attitude", "fast", "--resolution", "-2"], "--resolution"),
        (["riskmap", "night-raid", "--attitude", "fast", "--resolution", "0.01"], "cells"),
        (["riskmap", "starfinder-infiltration", "--attitude", "hidden"], "way of moving"),
        (
            ["riskmap", "starfinder-infiltration", "--attitude", "half", "--layer", "heard"],
            "no separate Listen",
        ),
        (["riskmap", "night-raid", "--attitude", "half", "--layer", "heard"], "--layer"),
        (["riskmap", "dnd35-flour", "--attitude", "half", "--noise", "fumble"], "--noise"),
        (
            ["route", "dnd35-flour", "--to", "20,20", "--from", "5,5", "--attitude", "still"],
            "moves",
        ),
        (["riskmap", "night-raid", "--attitude", "fast", "--plot", "x.gif"], "--plot"),
        (["route", "night-raid", "--from", "a,b", "--to", "10,10"], "--from"),
        (["route", "night-raid", "--from", "20", "--to", "10,10"], "--from"),
        (["route", "night-raid", "--from", "20,20", "--to", "10,nan"], "--to"),
        (["route", "night-raid", "--from", "100,50", "--to", "20,20"], "inside a wall"),
        (["route", "night-raid", "--to", "20,20"], "--from"),
        (["route", "night-raid", "--to", "20,20", "--write-plan", "Kage"], "--out"),
        (
            ["route", "night-raid", "--to", "20,20", "--write-plan", "Jubei", "--out", "p.yaml"],
            "defender",
        ),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args: list[str], message: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_a_resolution_that_is_not_a_number_is_exit_2() -> None:
    result = runner.invoke(
        app, ["riskmap", "night-raid", "--attitude", "fast", "--resolution", "fine"]
    )
    assert result.exit_code == 2
