"""Validation equals play (issue 33): whatever ``vigile scenario validate`` accepts, play accepts
(``vigile run``, ``simulate``, a live encounter's first turn); whatever play refuses, validation
refuses first, naming the field, with exit code 2.

The case found: a patrolling guard on the map's edge. Its patrol bounces off the edge (SK-G1),
so the board's tracer wants every walker strictly inside the map; validation let the edge
through (the map spans ``0..width`` borders included), and play answered with a traceback
("movers must start strictly inside the map"), the live GM page with a 500.
"""

from __future__ import annotations

import contextlib
import copy
import io
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from vigile.cli import main
from vigile.engine.run import new_game, play_game
from vigile.errors import ScenarioError
from vigile.live.encounter import live_scenario
from vigile.scene.loader import parse_scenario

# The bundled scenarios with a patrolling guard, one per game: (name, index of the guard).
PATROLS = [
    ("night-raid", 5),  # Kuro, west patrol (skirmish, cm)
    ("starfinder-infiltration", 1),  # Guard Ortiz (Starfinder, ft)
    ("dnd35-invisible-intruder", 3),  # the watchdog (D&D 3.5, ft)
]


def bundled(name: str) -> dict[str, Any]:
    text = resources.files("vigile.scenarios").joinpath(f"{name}.yaml").read_text("utf-8")
    document: dict[str, Any] = yaml.safe_load(text)
    return document


def cli(args: list[str]) -> tuple[int, str]:
    """``vigile ARGS``: exit code and stderr (an exception out of main fails the test)."""
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        code = main(args)
    return code, err.getvalue()


def edges(width: float, height: float, x: float, y: float) -> list[list[float]]:
    """The guard's own point moved onto each of the four edges, and two corners."""
    return [[0, y], [width, y], [x, 0], [x, height], [0, 0], [width, height]]


@pytest.mark.parametrize(("name", "index"), PATROLS)
def test_sk_g1_a_patrolling_guard_on_the_edge_is_refused_by_validation(
    name: str, index: int, tmp_path: Path
) -> None:
    """SK-G1: a patrol bounces off the map's edge, so it starts strictly inside. Each edge
    point is refused by ``scenario validate`` (exit 2, the field ``actors[i].position``), and
    ``run`` refuses it the same way, with no traceback."""
    document = bundled(name)
    width, height = document["map"]["width"], document["map"]["height"]
    guard = document["actors"][index]
    assert guard["state"] == "patrolling"
    for point in edges(width, height, *guard["position"]):
        guard["position"] = point
        path = tmp_path / "edge.yaml"
        path.write_text(yaml.safe_dump(document), encoding="utf-8")
        code, err = cli(["scenario", "validate", str(path)])
        assert code == 2, (point, err)
        assert f"actors[{index}].position" in err and "edge" in err and "SK-G1" in err, err
        code, err = cli(["run", str(path), "--turns", "2", "--seed", "1"])
        assert code == 2 and "Traceback" not in err and f"actors[{index}].position" in err


def test_sk_g1_the_issue_s_guard_at_0_30_names_its_field() -> None:
    """The issue's case: the west patrol's Kuro at [0, 30] of the 200 x 120 cm night raid."""
    document = bundled("night-raid")
    document["actors"][5]["position"] = [0, 30]
    with pytest.raises(ScenarioError) as raised:
        parse_scenario(yaml.safe_dump(document), file="raid.yaml")
    assert "actors[5].position" in str(raised.value)
    assert "'Kuro' at [0, 30] is on the map's edge" in str(raised.value)


def test_sk_g1_a_patrol_just_inside_the_edge_and_a_posted_guard_on_it_play() -> None:
    """Strictly inside is enough: 0.001 cm from the west edge, the patrol plays (it bounces
    back in); a posted guard never moves, so the edge is its to stand on (the map spans
    0..width, borders included)."""
    document = bundled("night-raid")
    document["actors"][5]["position"] = [0.001, 30]
    document["actors"][6]["position"] = [0.001, 32]  # his group moves as one: both inside
    document["actors"][4]["position"] = [0, 104]  # Goro, posted, on the west edge
    scenario = parse_scenario(yaml.safe_dump(document))
    play_game(new_game(scenario, seed=1), turns=3)
    new_game(live_scenario(scenario), seed=1).start_live()


# --------------------------------------------------------------------------- validated ⇒ plays

SMALL = ("night-raid", "starfinder-infiltration", "dnd35-invisible-intruder", "dnd35-flour")
"""Bundled scenarios that play three turns in a few hundredths of a second."""


@st.composite
def near_edges(draw: st.DrawFn, size: float) -> float:
    """A coordinate where play and validation could disagree: the edges, just inside or
    outside them, the middle, or anywhere."""
    return draw(
        st.sampled_from([0.0, 1e-9, 0.001, size / 2, size - 0.001, size, size + 0.001, -0.001])
        | st.floats(0, size, allow_nan=False)
    )


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(data=st.data(), name=st.sampled_from(SMALL))
def test_what_validation_accepts_plays(data: st.DataObject, name: str) -> None:
    """The property: move any actors anywhere near the edges (a guard patrolling or posted),
    any plan's waypoints too; either validation refuses the scenario (a ScenarioError naming
    a field), or three turns of play and a live encounter's first turn play without an
    exception."""
    document = copy.deepcopy(bundled(name))
    width, height = document["map"]["width"], document["map"]["height"]
    actors = document["actors"]
    for _ in range(data.draw(st.integers(1, 3))):
        i = data.draw(st.integers(0, len(actors) - 1))
        actors[i]["position"] = [data.draw(near_edges(width)), data.draw(near_edges(height))]
        if actors[i]["side"] == "defenders" and actors[i].get("group") is None:
            actors[i]["state"] = data.draw(st.sampled_from(["posted", "patrolling"]))
    plans = document.get("plans") or {}
    if plans and data.draw(st.booleans()):
        legs = plans[data.draw(st.sampled_from(sorted(plans)))]
        leg = legs[data.draw(st.integers(0, len(legs) - 1))]
        if "to" in leg:
            leg["to"] = [data.draw(near_edges(width)), data.draw(near_edges(height))]
    try:
        scenario = parse_scenario(yaml.safe_dump(document))
    except ScenarioError as error:
        assert "actors[" in str(error) or "plans." in str(error), str(error)
        return
    play_game(new_game(scenario, seed=data.draw(st.integers(0, 2**32))), turns=3)
    new_game(live_scenario(scenario), seed=1).start_live()
