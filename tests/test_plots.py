"""Pictures a designer can read (issue 13, part 6), checked on the figure objects, not pixels."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from vigile.games.d20.risk import D20RiskMap
from vigile.games.skirmish.riskmap import risk_map
from vigile.games.skirmish.route import safest_route
from vigile.games.starfinder.riskmap import risk_map as starfinder_map
from vigile.io.i18n import Lang
from vigile.io.plots import heat_figure, risk_figure, sweep_figure
from vigile.rulesets.skirmish.sight import Attitude
from vigile.scene.loader import load_scenario
from vigile.sim.tally import OUTCOMES

pytest.importorskip("matplotlib")


def renderer(figure):  # type: ignore[no-untyped-def]
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    canvas = FigureCanvasAgg(figure)
    canvas.draw()
    return canvas.get_renderer()


def labels(figure):  # type: ignore[no-untyped-def]
    ax = figure.axes[0]
    return [t for t in ax.texts if (t.get_gid() or "").startswith("label:")]


@pytest.fixture(scope="module")
def night_raid_figure():  # type: ignore[no-untyped-def]
    found = risk_map(load_scenario("night-raid"), Attitude.HALF, resolution=5)
    return risk_figure(found, Lang.EN, route=safest_route(found, (60, 14), (130, 82)))


def test_names_do_not_overlap(night_raid_figure) -> None:  # type: ignore[no-untyped-def]
    found = renderer(night_raid_figure)
    boxes = [t.get_window_extent(found) for t in labels(night_raid_figure)]
    assert len(boxes) == len(load_scenario("night-raid").actors)
    for a, b in itertools.combinations(boxes, 2):
        assert not a.overlaps(b)


def test_names_are_dark_with_a_white_halo(night_raid_figure) -> None:  # type: ignore[no-untyped-def]
    from matplotlib.colors import to_rgb

    for text in labels(night_raid_figure):
        assert sum(to_rgb(text.get_color())) < 0.3  # not blue: dark on any cell
        assert text.get_path_effects()


def test_no_dark_red_under_the_names(night_raid_figure) -> None:  # type: ignore[no-untyped-def]
    image = night_raid_figure.axes[0].images[0]
    darkest = image.get_cmap()(1.0)
    assert sum(darkest[:3]) > 0.9  # the scale stops short of dark red


def test_the_objective_and_the_planned_paths_are_drawn(night_raid_figure) -> None:  # type: ignore[no-untyped-def]
    ax = night_raid_figure.axes[0]
    assert [p for p in ax.patches if p.get_gid() == "objective"]
    plans = {line.get_gid() for line in ax.lines if (line.get_gid() or "").startswith("plan:")}
    assert plans == {f"plan:{name}" for name in load_scenario("night-raid").plans}


@pytest.mark.parametrize("name", ["night-raid", "starfinder-infiltration"])
def test_no_blank_bands(name: str) -> None:
    scenario = load_scenario(name)
    if scenario.ruleset == "skirmish":
        figure = risk_figure(risk_map(scenario, Attitude.HALF, resolution=5), Lang.EN)
    else:
        found: D20RiskMap = starfinder_map(scenario, "half")
        figure = risk_figure(found, Lang.EN)  # type: ignore[arg-type]
    used = figure.get_tightbbox(renderer(figure))
    height = figure.get_size_inches()[1]
    assert used.height > 0.85 * height


def test_a_d20_heat_map_is_in_feet_and_draws_the_doors_opened() -> None:
    found = starfinder_map(load_scenario("starfinder-infiltration"), "half")
    figure = risk_figure(found, Lang.EN, route=safest_route(found, (2, 20), (56, 20)))  # type: ignore[arg-type]
    ax = figure.axes[0]
    assert ax.get_xlabel() == "x (ft)"
    assert [line for line in ax.lines if line.get_gid() == "door-opened"]


def test_heat_figure_of_a_d20_simulation_has_its_heat() -> None:
    from vigile.cli.simulate import with_heat
    from vigile.sim.simulate import simulate

    result = with_heat(simulate(load_scenario("dnd35-invisible-intruder"), 30, seed=1))
    assert result.tally.heat.any()
    figure = heat_figure(result, Lang.FR)
    assert figure.axes[0].get_xlabel() == "x (pieds)"


def rows() -> list[dict[str, float]]:
    """A sweep over two fields: dice 1..3 and a distance 10, 20."""
    found = []
    for dice, far in itertools.product((1, 2, 3), (10.0, 20.0)):
        row = dict.fromkeys((*OUTCOMES, "detected"), 0.0)
        row["detected"] = min(1.0, 0.2 * dice + 0.01 * far)
        row["objective_unseen"] = 1 - row["detected"]
        found.append({"actors.Jubei.dice": float(dice), "actors.Jubei.alert": far, **row})
    return found


def test_sweep_has_integer_ticks_error_bars_and_one_curve_per_second_field() -> None:
    from matplotlib.container import ErrorbarContainer

    paths = ["actors.Jubei.dice", "actors.Jubei.alert"]
    figure = sweep_figure(rows(), paths, Lang.EN, "sweep", runs=500)
    renderer(figure)
    dice_axes = [ax for ax in figure.axes if ax.get_xlabel() == paths[0]]
    assert dice_axes
    for ax in dice_axes:
        ticks = ax.get_xticks()
        assert np.array_equal(ticks, np.round(ticks)) and set(ticks) == {1.0, 2.0, 3.0}
        bars = [c for c in ax.containers if isinstance(c, ErrorbarContainer)]
        assert len(bars) == 2  # one curve per distance, never their average
        assert {c.get_label() for c in bars} == {
            "actors.Jubei.alert = 10",
            "actors.Jubei.alert = 20",
        }
