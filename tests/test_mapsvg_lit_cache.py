"""The lit zones a board draws are cast once per walls and light, and drawn again when either
changes (:func:`vigile.web.mapsvg.lit_zones`): an edit that moves a guard reuses them, an edit
of a wall or a light never gets a stale zone."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from vigile.engine.run import new_game
from vigile.scene.loader import load_scenario
from vigile.scene.model import Scenario
from vigile.web import mapsvg


@pytest.fixture(autouse=True)
def casts(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[float, float, float]]]:
    """The ray casts made (light x, y, radius), with no zone kept from an earlier test."""
    made: list[tuple[float, float, float]] = []
    cast = mapsvg.lit_zone

    def counted(barriers: object, x: float, y: float, radius: float) -> list[mapsvg.Point]:
        made.append((x, y, radius))
        return cast(barriers, x, y, radius)  # type: ignore[arg-type]

    monkeypatch.setattr(mapsvg, "lit_zone", counted)
    with mapsvg._lit_lock:
        mapsvg._lit.clear()
    yield made
    with mapsvg._lit_lock:
        mapsvg._lit.clear()


def drawn(scenario: Scenario) -> mapsvg.MapModel:
    """The board as the editor draws it after an edit: a new scenario, a new game's board."""
    return mapsvg.board_layers(scenario, new_game(scenario, seed=0).board)


def uncached(scenario: Scenario) -> list[str]:
    """Each light's zone cast afresh, with no cache at all."""
    board = new_game(scenario, seed=0).board
    barriers = board.barriers_for(frozenset(i for i, w in enumerate(scenario.walls) if w.open))
    return [
        mapsvg._points(mapsvg.lit_zone(barriers, light.at[0], light.at[1], radius))
        for light, radius in zip(scenario.lights, board.light_r.tolist(), strict=True)
    ]


def zone_of(model: mapsvg.MapModel, kind: str) -> str:
    (light,) = [light for light in model.lights if light["kind"] == kind]
    zone: str = light["zone"]
    return zone


def south(zone: str) -> float:
    return max(float(point.split(",")[1]) for point in zone.split())


def test_a_guard_moved_reuses_the_zones_and_draws_the_same(
    casts: list[tuple[float, float, float]],
) -> None:
    scenario = load_scenario("night-raid")
    lights = len(scenario.lights)
    first = drawn(scenario)
    assert len(casts) == lights
    fresh = uncached(scenario)
    assert [light["zone"] for light in first.lights] == fresh
    casts.clear()
    actors = list(scenario.actors)
    actors[0] = actors[0].model_copy(update={"position": (actors[0].position[0] + 5, 40.0)})
    moved = scenario.model_copy(update={"actors": actors})  # an editor's edit: a new scenario
    again = drawn(moved)
    assert casts == []  # no light cast again
    assert again.lights == first.lights
    assert [light["zone"] for light in again.lights] == fresh


def test_a_wall_removed_is_drawn_again(casts: list[tuple[float, float, float]]) -> None:
    scenario = load_scenario("night-raid")
    closed = zone_of(drawn(scenario), "brazier")
    # The brazier at (100, 104) lights 20 cm round (SK-V5); the closed gate at y = 110 stops
    # its ray due south. Without the gate the ray reaches 104 + 20 (less the outline's 0.1%).
    assert south(closed) < 110
    walls = [wall for wall in scenario.walls if wall.name != "main gate"]
    assert len(walls) == len(scenario.walls) - 1
    casts.clear()
    gateless = scenario.model_copy(update={"walls": walls})
    opened = zone_of(drawn(gateless), "brazier")
    assert south(opened) == pytest.approx(124 - 0.02, abs=0.01)
    assert len(casts) == len(scenario.lights)  # every zone: the walls they see changed
    assert [light["zone"] for light in drawn(gateless).lights] == uncached(gateless)


def test_a_light_moved_or_resized_is_drawn_again(
    casts: list[tuple[float, float, float]],
) -> None:
    scenario = load_scenario("night-raid")
    before = drawn(scenario)
    lights = list(scenario.lights)
    (k,) = [i for i, light in enumerate(lights) if light.kind.value == "brazier"]
    casts.clear()
    lights[k] = lights[k].model_copy(update={"at": (100.0, 90.0)})  # 20 cm north of the gate
    moved = scenario.model_copy(update={"lights": lights})
    after = drawn(moved)
    assert len(casts) == 1  # the other lights' zones are kept
    assert zone_of(after, "brazier") != zone_of(before, "brazier")
    assert [light["zone"] for light in after.lights] == uncached(moved)
    # Its radius given in the scenario (5 cm, not the rules' 20): the brazier at (100, 90)
    # now lights no further south than 95.
    lights[k] = lights[k].model_copy(update={"radius": 5.0})
    smaller = scenario.model_copy(update={"lights": lights})
    casts.clear()
    zone = zone_of(drawn(smaller), "brazier")
    assert len(casts) == 1
    assert south(zone) == pytest.approx(95 - 0.005, abs=0.01)
    assert [light["zone"] for light in drawn(smaller).lights] == uncached(smaller)


def test_the_zones_kept_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mapsvg, "LIT_ZONES_KEPT", 3)
    scenario = load_scenario("night-raid")
    barriers = new_game(scenario, seed=0).board.barriers_for(frozenset())
    mapsvg.lit_zones(barriers, [(50.0 + k, 50.0, 10.0) for k in range(5)])
    assert len(mapsvg._lit) == 3
