"""Pictures of a board: the map drawn, a risk map as a heat map over it, a route on top.

matplotlib (the ``plot`` extra) is imported only when a picture is made (Agg backend, no
window); without it, asking for a picture is a one-line error naming the extra. The file format
follows the file's extension: ``.png`` or ``.svg``. Texts come from the message catalogue, in
French or English. Coordinates are the scenario's: x to the right, y downwards, in cm.
"""

from __future__ import annotations

from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Final

import numpy as np

from vigile.errors import InputError
from vigile.io.files import check_target, write_with
from vigile.io.i18n import Lang, tr
from vigile.scene.actors import Side
from vigile.scene.model import Scenario, WallKind

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from vigile.games.skirmish.riskmap import RiskMap
    from vigile.games.skirmish.route import Route
    from vigile.rulesets.data import RuleData
    from vigile.sim.simulate import SimResult

__all__ = [
    "FORMATS",
    "check_plot_path",
    "draw_scene",
    "heat_figure",
    "risk_figure",
    "save_figure",
    "sweep_figure",
]

FORMATS: Final = (".png", ".svg")
_SURFACE_COLOURS: Final = {
    "floor": "#c8a165",
    "water": "#6fa8dc",
    "grass": "#b6d7a8",
    "soft-ground": "#b08d57",
    "tile": "#999999",
    "stone": "#cccccc",
}
_WALL_STYLES: Final[dict[str, dict[str, Any]]] = {
    "wall": {"color": "black", "linewidth": 2.6, "linestyle": "-"},
    "door": {"color": "#8b4513", "linewidth": 3.2, "linestyle": "-"},
    "door-open": {"color": "#8b4513", "linewidth": 1.2, "linestyle": ":"},
    "partition": {"color": "#444444", "linewidth": 1.6, "linestyle": "--"},
    "window": {"color": "#1f6fb2", "linewidth": 2.6, "linestyle": "-"},
    "window-open": {"color": "#1f6fb2", "linewidth": 1.2, "linestyle": ":"},
}


def check_plot_path(path: Path, *, force: bool = False) -> Path:
    """Refuse, before any work, a picture file vigile may not write (:func:`check_target`): an
    extension that is not a known format, a folder, a missing folder, an unwritable place, or
    an existing file without ``--force``."""
    check_target(path, "--plot", suffixes=FORMATS, kind="the picture", force=force)
    _agg()
    return path


def _agg() -> None:
    """Draw off-screen (Agg); matplotlib is an extra: name it when it is missing."""
    try:
        import matplotlib
    except ImportError:
        raise InputError(
            "pictures need matplotlib: pip install 'vigile[plot]'", where="--plot"
        ) from None
    matplotlib.use("Agg")


def _default_lit_radius(rules: RuleData) -> float:
    """A light's radius when the scenario gives none: the skirmish's ``sight.lit_radius_cm``
    (SK-V5); none in the d20 games, whose lights carry their own radius (scene/model.py)."""
    try:
        return float(rules.num("sight.lit_radius_cm"))
    except KeyError:
        return 0.0


def draw_scene(ax: Axes, scenario: Scenario, lang: Lang, *, default_radius: float) -> list[Any]:
    """Draw the board: surfaces lightly coloured, cover hatched, walls by kind, lights as circles
    of their radius, defenders and attackers marked and labelled. Returns the legend's handles
    (one per kind of thing drawn)."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Circle, Patch, Polygon

    size = scenario.map
    handles: dict[str, Any] = {}
    ax.add_patch(
        Polygon(
            [(0, 0), (size.width, 0), (size.width, size.height), (0, size.height)],
            closed=True,
            facecolor=_SURFACE_COLOURS.get(scenario.default_surface, "white"),
            alpha=0.25,
            edgecolor="none",
            zorder=0,
        )
    )
    for region in scenario.surfaces:
        colour = _SURFACE_COLOURS.get(region.kind.value, "white")
        ax.add_patch(
            Polygon(
                region.points,
                closed=True,
                facecolor=colour,
                alpha=0.35,
                edgecolor="none",
                zorder=0.5,
            )
        )
        handles.setdefault(
            f"surface-{region.kind.value}",
            Patch(
                facecolor=colour,
                alpha=0.35,
                label=tr(f"sim.plot.surface.{region.kind.value}", lang),
            ),
        )
    for area in scenario.cover:
        ax.add_patch(
            Polygon(
                area.points,
                closed=True,
                facecolor="none",
                edgecolor="#2e7d32",
                hatch="///",
                linewidth=1.0,
                zorder=2,
            )
        )
        handles.setdefault(
            "cover",
            Patch(
                facecolor="none", edgecolor="#2e7d32", hatch="///", label=tr("sim.plot.cover", lang)
            ),
        )
    for wall in scenario.walls:
        style = wall.kind.value
        if wall.open and wall.kind in (WallKind.DOOR, WallKind.WINDOW):
            style += "-open"
        (x1, y1), (x2, y2) = wall.start, wall.end
        ax.plot([x1, x2], [y1, y2], solid_capstyle="butt", zorder=3, **_WALL_STYLES[style])
        handles.setdefault(
            style, Line2D([], [], label=tr(f"sim.plot.wall.{style}", lang), **_WALL_STYLES[style])
        )
    for light in scenario.lights:
        radius = light.radius_or(default_radius)
        ax.add_patch(
            Circle(
                light.at,
                radius,
                facecolor="none",
                edgecolor="#f0a30a",
                linestyle="--",
                linewidth=1.0,
                zorder=4,
            )
        )
        ax.plot(
            *light.at,
            marker="*",
            color="#f0a30a",
            markersize=10,
            markeredgecolor="black",
            markeredgewidth=0.5,
            zorder=4,
        )
        handles.setdefault(
            "light",
            Line2D(
                [],
                [],
                marker="*",
                color="#f0a30a",
                linestyle="--",
                markeredgecolor="black",
                label=tr("sim.plot.light", lang),
            ),
        )
    for actor in scenario.actors:
        defender = actor.side is Side.DEFENDERS
        marker, colour = ("^", "#1565c0") if defender else ("o", "#c62828")
        x, y = actor.position
        ax.plot(
            x,
            y,
            marker=marker,
            color=colour,
            markersize=7,
            markeredgecolor="white",
            markeredgewidth=0.8,
            linestyle="none",
            zorder=5,
        )
        ax.annotate(
            actor.name,
            (x, y),
            xytext=(4, -4),
            textcoords="offset points",
            fontsize=7,
            color=colour,
            zorder=5,
        )
        key = "defender" if defender else "attacker"
        handles.setdefault(
            key,
            Line2D(
                [],
                [],
                marker=marker,
                color=colour,
                linestyle="none",
                label=tr(f"sim.plot.{key}", lang),
            ),
        )
    ax.set_xlim(0, size.width)
    ax.set_ylim(size.height, 0)
    ax.set_aspect("equal")
    ax.set_xlabel(tr("sim.plot.x_axis", lang))
    ax.set_ylabel(tr("sim.plot.y_axis", lang))
    return list(handles.values())


def _legend(ax: Axes, handles: list[Any]) -> None:
    ax.legend(
        handles=handles,
        loc="upper center",
        bbox_to_anchor=(0.5, -0.1),
        ncol=4,
        fontsize=7,
        frameon=False,
    )


def risk_figure(riskmap: RiskMap, lang: Lang, *, route: Route | None = None) -> Figure:
    """The map with the risk map as a heat map (cells of risk 0 left clear), a colour bar, a
    title saying what (scenario, attitude or noise, resolution) and the route if given."""
    _agg()
    from matplotlib.figure import Figure

    scenario = riskmap.board.scenario
    size = scenario.map
    figure = Figure(figsize=(9.0, 9.0 * size.height / size.width + 2.2), layout="constrained")
    ax = figure.add_subplot()
    handles = draw_scene(
        ax, scenario, lang, default_radius=_default_lit_radius(riskmap.board.rules)
    )
    risk = np.ma.masked_where(riskmap.risk <= 0, riskmap.risk)
    extent = (0.0, riskmap.xs.size * riskmap.resolution, riskmap.ys.size * riskmap.resolution, 0.0)
    image = ax.imshow(
        risk,
        extent=extent,
        origin="upper",
        cmap="YlOrRd",
        vmin=0.0,
        vmax=1.0,
        alpha=0.75,
        interpolation="nearest",
        zorder=1,
    )
    label = "sim.plot.colour_bar_noise" if riskmap.noise is not None else "sim.plot.colour_bar"
    bar = figure.colorbar(image, ax=ax, shrink=0.6, aspect=25)
    bar.set_label(tr(label, lang))
    ax.set_xlim(0, size.width)
    ax.set_ylim(size.height, 0)
    params = {
        "scenario": scenario.name,
        "attitude": riskmap.attitude.value,
        "resolution": f"{riskmap.resolution:g}",
        "event": tr(f"sim.event.{riskmap.noise.value}", lang) if riskmap.noise else "",
    }
    title = tr("sim.plot.title_noise" if riskmap.noise else "sim.plot.title", lang, params)
    if route is not None:
        xs = [x for x, _ in route.waypoints]
        ys = [y for _, y in route.waypoints]
        (line,) = ax.plot(
            xs,
            ys,
            color="#6a1b9a",
            linewidth=2.2,
            marker=".",
            markersize=5,
            zorder=6,
            label=tr("sim.plot.route", lang),
        )
        handles.append(line)
        ax.plot(*route.start, marker="s", color="#6a1b9a", markersize=8, zorder=6)
        ax.plot(*route.goal, marker="X", color="#6a1b9a", markersize=9, zorder=6)
        title += "\n" + tr(
            "sim.plot.route_title",
            lang,
            {"chance": f"{100 * route.chance_seen:.2f}", "length": f"{route.length:.0f}"},
        )
    if riskmap.attitude.value == "hidden":
        title += "\n" + tr("sim.plot.hidden_note", lang)
    ax.set_title(title, fontsize=10)
    _legend(ax, handles)
    return figure


def save_figure(figure: Figure, path: Path) -> None:
    """Write the figure as PNG or SVG, by the file's extension, atomically (checked first by
    :func:`check_plot_path`). The same figure gives the same bytes: no date in the file, and
    the SVG's element ids come from a fixed salt."""
    import matplotlib

    fmt = path.suffix.lower().lstrip(".")
    metadata: dict[str, Any] = {"Date": None} if fmt == "svg" else {}

    def draw(stream: IO[bytes]) -> None:
        with matplotlib.rc_context({"svg.hashsalt": "vigile"}):
            figure.savefig(stream, format=fmt, dpi=150, metadata=metadata)

    write_with(path, draw, option="--plot")


def heat_figure(result: SimResult, lang: Lang) -> Figure:
    """Where the intruders were standing when detected, over the map, from ``simulate``."""
    _agg()
    from matplotlib.figure import Figure

    from vigile.sim.tally import HEAT_BINS

    scenario = result.scenario
    size = scenario.map
    figure = Figure(figsize=(9.0, 9.0 * size.height / size.width + 2.2), layout="constrained")
    ax = figure.add_subplot()
    handles = draw_scene(ax, scenario, lang, default_radius=_default_lit_radius(scenario.rules()))
    heat = result.tally.heat.T.astype(np.float64) / max(result.runs, 1)
    shown = np.ma.masked_where(heat <= 0, heat)
    image = ax.imshow(
        shown,
        extent=(0.0, size.width, size.height, 0.0),
        origin="upper",
        cmap="magma_r",
        alpha=0.8,
        interpolation="nearest",
        zorder=1,
    )
    bar = figure.colorbar(image, ax=ax, shrink=0.6, aspect=25)
    bar.set_label(tr("sim.plot.heat_bar", lang, {"cell": f"{size.width / HEAT_BINS:g}"}))
    ax.set_xlim(0, size.width)
    ax.set_ylim(size.height, 0)
    ax.set_title(
        tr("sim.plot.heat_title", lang, {"scenario": scenario.name, "runs": f"{result.runs:,}"}),
        fontsize=10,
    )
    _legend(ax, handles)
    return figure


def sweep_figure(rows: list[dict[str, float]], paths: list[str], lang: Lang, title: str) -> Figure:
    """Each outcome's probability against each varied field (averaged over the others)."""
    _agg()
    from matplotlib.figure import Figure

    from vigile.sim.tally import OUTCOMES

    figure = Figure(figsize=(max(7.5, 5.0 * len(paths)), 4.6), layout="constrained")
    axes = figure.subplots(1, len(paths), squeeze=False)[0]
    for ax, path in zip(axes, paths, strict=True):
        values = sorted({row[path] for row in rows})
        for outcome in (*OUTCOMES, "detected"):
            if not any(r[outcome] for r in rows):
                continue  # an outcome this scenario never has
            means = [float(np.mean([r[outcome] for r in rows if r[path] == v])) for v in values]
            ax.plot(values, means, marker="o", label=tr(f"sim.outcome.{outcome}", lang))
        ax.set_xlabel(path)
        ax.set_ylabel(tr("sim.plot.probability", lang))
        ax.set_ylim(-0.02, 1.02)
        ax.grid(alpha=0.3)
    axes[0].legend(fontsize=8)
    figure.suptitle(title, fontsize=10)
    return figure
