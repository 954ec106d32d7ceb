"""Pictures of a board: the map drawn, a risk map as a heat map over it, a route on top.

matplotlib (the ``plot`` extra) is imported only when a picture is made (Agg backend, no
window); without it, asking for a picture is a one-line error naming the extra. The file format
follows the file's extension: ``.png`` or ``.svg``. Texts come from the message catalogue, in
French or English. Coordinates are the scenario's: x to the right, y downwards, in its unit
(cm or ft).

Legibility: names are dark text with a white halo, placed so that no two overlap
(:func:`declutter`); the heat scales stop short of their darkest shades, so no name or marker
sits on a near-black cell; the objective and every attacker's planned path are drawn; the
figure's height follows the map's shape (no blank bands); a sweep's axis of whole-number values
(dice) has whole-number ticks, every point has its 95% interval as an error bar, and a second
varied field gets one curve per value, never an average.

The map's picture: where a scenario's ``map.background`` names one (a file beside the scenario,
:class:`vigile.scene.model.MapSize`), the risk map, the route and the heat map draw it under
their cells, spanning the whole board (the editor's rule: the name is relative to the scenario
file's folder, :func:`picture_folder`). A picture that is missing or unreadable is not an error:
the figure is drawn without it and a note says so (the caller prints it). The heat map's cells
are grouped into at most :data:`HEAT_CELLS` a side, so that a single detection is a cell one can
see.
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Final, cast

import numpy as np

from vigile.errors import InputError
from vigile.io.files import check_target, write_with
from vigile.io.i18n import Lang, number_text, tr
from vigile.scene.actors import Side
from vigile.scene.model import Scenario, WallKind

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from vigile.io.risk_view import D20Grid, RiskGrid, RouteView
    from vigile.rulesets.data import RuleData
    from vigile.sim.simulate import SimResult

__all__ = [
    "FORMATS",
    "HEAT_CELLS",
    "check_plot_path",
    "declutter",
    "draw_background",
    "draw_scene",
    "heat_figure",
    "picture_folder",
    "risk_figure",
    "save_figure",
    "sweep_figure",
]

FORMATS: Final = (".png", ".svg")
HEAT_CELLS: Final = 25
"""The heat map's cells a side at most, as drawn: the simulation's finer grid (HEAT_BINS) is
summed in blocks, so that one detection is a cell large enough to see."""
PICTURE_PIXELS: Final = 2048
"""A map picture is drawn at most this many pixels on its longer side (a large picture is
scaled down first: the figure is 1350 pixels wide)."""
PICTURE_ALPHA: Final = 0.6
"""The risk and heat cells' opacity over a map picture (the picture shows through them)."""
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


def draw_scene(
    ax: Axes,
    scenario: Scenario,
    lang: Lang,
    *,
    default_radius: float,
    pictured: bool = False,
) -> list[Any]:
    """Draw the board: surfaces lightly coloured, cover hatched, walls by kind, lights as circles
    of their radius, defenders and attackers marked and labelled. Returns the legend's handles
    (one per kind of thing drawn). ``pictured``: the map's picture is drawn beneath, and the
    ground's tint left off (it would veil the picture)."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Circle, Patch, Polygon
    from matplotlib.patheffects import withStroke

    size = scenario.map
    handles: dict[str, Any] = {}
    if not pictured:
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
    _draw_objective(ax, scenario, lang, handles)
    _draw_plans(ax, scenario, lang, handles)
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
            xytext=(5, 5),
            textcoords="offset points",
            fontsize=7,
            color="#111111",
            path_effects=[withStroke(linewidth=2.5, foreground="white")],
            gid=f"label:{actor.name}",
            zorder=7,
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
    suffix = "_ft" if _unit(scenario) == "ft" else ""
    ax.set_xlabel(tr(f"sim.plot.x_axis{suffix}", lang))
    ax.set_ylabel(tr(f"sim.plot.y_axis{suffix}", lang))
    return list(handles.values())


def picture_folder(source: str | Path) -> Path:
    """The folder a scenario's picture is named from: the scenario file's (a bundled name: the
    bundled scenarios' folder)."""
    from vigile.scene.loader import bundled_names, bundled_path

    path = Path(source)
    if isinstance(source, str) and source in bundled_names() and not path.exists():
        path = bundled_path(source)
    return path.parent


def _read_picture(path: Path) -> Any:
    """The picture's pixels (an array, rows from the top), at most :data:`PICTURE_PIXELS` on
    its longer side; an :class:`OSError` or :class:`ValueError` where it cannot be read."""
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(path) as opened:
            opened.thumbnail((PICTURE_PIXELS, PICTURE_PIXELS))
            return np.asarray(opened.convert("RGBA"))
    except (UnidentifiedImageError, Image.DecompressionBombError) as error:
        raise ValueError(str(error)) from None


def draw_background(
    ax: Axes, scenario: Scenario, folder: Path | None, lang: Lang
) -> tuple[bool, str | None]:
    """Draw the map's picture (``map.background``, named from ``folder``) over the whole board,
    beneath everything else (gid ``background``). Returns (drawn, a note where the scenario names
    a picture that cannot be drawn: missing or unreadable)."""
    name = scenario.map.background
    if name is None or folder is None:
        return False, None
    path = folder / name
    try:
        pixels = _read_picture(path)
    except FileNotFoundError:
        return False, tr("sim.plot.background_missing", lang, {"file": str(path)})
    except (OSError, ValueError) as error:
        reason = getattr(error, "strerror", None) or str(error)
        return False, tr(
            "sim.plot.background_unreadable", lang, {"file": str(path), "reason": reason}
        )
    size = scenario.map
    ax.imshow(
        pixels,
        extent=(0.0, float(size.width), float(size.height), 0.0),
        origin="upper",
        interpolation="bilinear",
        zorder=0.2,
        gid="background",
    )
    return True, None


def _unit(scenario: Scenario) -> str:
    return str(getattr(scenario.units, "value", scenario.units))


def _draw_objective(ax: Axes, scenario: Scenario, lang: Lang, handles: dict[str, Any]) -> None:
    """The objective: a ringed disc of its radius, and its description."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Circle, Polygon

    objective = scenario.objective
    if objective is None:
        return
    style: dict[str, Any] = {
        "facecolor": "#2e7d32",
        "alpha": 0.25,
        "edgecolor": "#1b5e20",
        "linewidth": 1.8,
        "zorder": 4.5,
        "gid": "objective",
    }
    if objective.at is not None:
        at = (float(objective.at[0]), float(objective.at[1]))
        ax.add_patch(Circle(at, float(objective.radius or 0.0), **style))
    else:
        assert objective.area is not None
        points = [(float(x), float(y)) for x, y in objective.area]
        ax.add_patch(Polygon(points, closed=True, **style))
        at = (sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points))
    ax.plot(*at, marker="P", color="#1b5e20", markersize=9, zorder=4.6)
    handles.setdefault(
        "objective",
        Line2D(
            [],
            [],
            marker="P",
            color="#1b5e20",
            linestyle="none",
            markersize=8,
            label=tr("sim.plot.objective", lang),
        ),
    )


def _draw_plans(ax: Axes, scenario: Scenario, lang: Lang, handles: dict[str, Any]) -> None:
    """Each attacker's planned path: from where it starts through its waypoints, dashed."""
    from matplotlib.lines import Line2D

    for name, legs in scenario.plans.items():
        try:
            actor = scenario.actor(name)
        except KeyError:  # pragma: no cover - a validated scenario names its actors
            continue
        points = [(float(actor.position[0]), float(actor.position[1]))]
        points += [(float(leg.to[0]), float(leg.to[1])) for leg in legs if leg.to is not None]
        if len(points) < 2:
            continue
        ax.plot(
            [p[0] for p in points],
            [p[1] for p in points],
            color="#37474f",
            linewidth=1.3,
            linestyle=(0, (4, 2)),
            marker=".",
            markersize=4,
            zorder=4.8,
            gid=f"plan:{name}",
        )
    if scenario.plans:
        handles.setdefault(
            "plan",
            Line2D([], [], color="#37474f", linestyle=(0, (4, 2)), label=tr("sim.plot.plan", lang)),
        )


_OFFSETS: Final = ((5, 5), (5, -11), (-5, 5), (-5, -11), (8, -3), (-8, -3), (0, 10), (0, -16))
"""Where a name may go around its point (points): tried in this order."""


def declutter(figure: Figure, ax: Axes) -> None:
    """Move the actors' names (``label:`` gids) so that no two overlap: each takes the first of
    :data:`_OFFSETS` where it overlaps no name already placed (the last one tried otherwise)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    canvas = FigureCanvasAgg(figure)
    canvas.draw()  # type: ignore[no-untyped-call]
    renderer = canvas.get_renderer()  # type: ignore[no-untyped-call]
    placed: list[Any] = []
    for text in ax.texts:
        gid = text.get_gid() or ""
        if not gid.startswith("label:"):
            continue
        for dx, dy in _OFFSETS:
            text.set_position((dx, dy))
            text.set_horizontalalignment("left" if dx >= 0 else "right")
            box = text.get_window_extent(renderer).expanded(1.05, 1.1)
            if not any(box.overlaps(other) for other in placed):
                break
        placed.append(text.get_window_extent(renderer))


def _figure_size(width: float, height: float) -> tuple[float, float]:
    """A figure whose height follows the map's shape: the axes get the width left by the
    colour bar and the margins, and the height that width gives the map; then the title and
    the legend below (no blank band above or below the map)."""
    axes_width = 6.4
    return 9.0, max(3.0, axes_width * height / width) + 2.3


def _clipped(name: str, top: float = 0.82) -> Any:
    """A sequential colour map without its darkest shades (names stay legible on it)."""
    import matplotlib
    from matplotlib.colors import ListedColormap

    base = matplotlib.colormaps[name]
    return ListedColormap(base(np.linspace(0.0, top, 256)), name=f"{name}_clipped")


def _legend(ax: Axes, handles: list[Any]) -> None:
    ax.legend(
        handles=handles,
        loc="upper center",
        bbox_to_anchor=(0.5, -0.1),
        ncol=4,
        fontsize=7,
        frameon=False,
    )


def risk_figure(
    riskmap: RiskGrid,
    lang: Lang,
    *,
    route: RouteView | None = None,
    folder: Path | None = None,
    notes: list[str] | None = None,
) -> Figure:
    """The map with the risk map as a heat map (cells of risk 0 left clear), a colour bar, a
    title saying what (scenario, attitude or noise, resolution) and the route if given; the
    map's picture beneath, named from ``folder`` (:func:`draw_background`; a note is added to
    ``notes`` where it cannot be drawn)."""
    _agg()
    from matplotlib.figure import Figure

    scenario = riskmap.board.scenario
    size = scenario.map
    figure = Figure(figsize=_figure_size(size.width, size.height), layout="constrained")
    ax = figure.add_subplot()
    pictured, note = draw_background(ax, scenario, folder, lang)
    if note is not None and notes is not None:
        notes.append(note)
    handles = draw_scene(
        ax,
        scenario,
        lang,
        default_radius=_default_lit_radius(riskmap.board.rules),
        pictured=pictured,
    )
    risk = np.ma.masked_where(riskmap.risk <= 0, riskmap.risk)
    extent = (0.0, riskmap.xs.size * riskmap.resolution, riskmap.ys.size * riskmap.resolution, 0.0)
    image = ax.imshow(
        risk,
        extent=extent,
        origin="upper",
        cmap=_clipped("YlOrRd"),
        vmin=0.0,
        vmax=1.0,
        alpha=PICTURE_ALPHA if pictured else 0.75,
        interpolation="nearest",
        zorder=1,
    )
    d20 = riskmap.unit == "ft"
    bar = figure.colorbar(image, ax=ax, shrink=0.8, aspect=25)
    ax.set_xlim(0, size.width)
    ax.set_ylim(size.height, 0)
    if d20:
        from vigile.io.risk_out import d20_params

        params = d20_params(cast("D20Grid", riskmap), lang)
        bar.set_label(tr("sim.plot.colour_bar_d20", lang, params))
        title = tr("sim.plot.d20_title", lang, params)
    else:
        label = "sim.plot.colour_bar_noise" if riskmap.noise is not None else "sim.plot.colour_bar"
        bar.set_label(tr(label, lang))
        params = {
            "scenario": scenario.name,
            "attitude": riskmap.attitude.value,
            "resolution": number_text(riskmap.resolution, lang),
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
        for at, _door in route.doors:
            ax.plot(
                *route.waypoints[at],
                marker="D",
                color="#8b4513",
                markeredgecolor="white",
                markersize=7,
                zorder=6.5,
                gid="door-opened",
            )
        key = "sim.plot.d20_route_title" if d20 else "sim.plot.route_title"
        title += "\n" + tr(
            key,
            lang,
            {
                "chance": number_text(100 * route.chance_seen, lang, ".2f"),
                "length": number_text(route.length, lang, ".0f"),
            },
        )
    walks = getattr(riskmap, "patrols_json", None)  # a moving-patrol map (games.patrol_risk)
    if walks is not None:
        walk = walks()
        title += "\n" + tr(
            "sim.plot.patrols_note",
            lang,
            {
                "samples": walk["samples"],
                "turns": walk["turns"],
                "error": number_text(100 * walk["max_standard_error"], lang, ".1f"),
            },
        )
    if riskmap.attitude.value == "hidden":
        title += "\n" + tr("sim.plot.hidden_note", lang)
    ax.set_title(title, fontsize=10)
    _legend(ax, handles)
    declutter(figure, ax)
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


def _coarse(heat: Any, cells: int) -> Any:
    """``heat`` (rows y, columns x) summed in square blocks of whole cells, so that it has at
    most ``cells`` a side (a side that does not divide evenly: its last block is smaller)."""
    rows, columns = heat.shape
    block = max(1, -(-max(rows, columns) // cells))
    if block == 1:
        return heat
    ys = np.arange(0, rows, block)
    xs = np.arange(0, columns, block)
    return np.add.reduceat(np.add.reduceat(heat, ys, axis=0), xs, axis=1)


def heat_figure(
    result: SimResult,
    lang: Lang,
    *,
    folder: Path | None = None,
    notes: list[str] | None = None,
) -> Figure:
    """Where the intruders were standing when detected, over the map, from ``simulate``: the
    detections per run in cells of at most :data:`HEAT_CELLS` a side; the map's picture beneath
    as in :func:`risk_figure`."""
    _agg()
    from matplotlib.figure import Figure

    scenario = result.scenario
    size = scenario.map
    figure = Figure(figsize=_figure_size(size.width, size.height), layout="constrained")
    ax = figure.add_subplot()
    pictured, note = draw_background(ax, scenario, folder, lang)
    if note is not None and notes is not None:
        notes.append(note)
    handles = draw_scene(
        ax,
        scenario,
        lang,
        default_radius=_default_lit_radius(scenario.rules()),
        pictured=pictured,
    )
    fine = result.tally.heat.T.astype(np.float64)
    heat = _coarse(fine, HEAT_CELLS) / max(result.runs, 1)
    shown = np.ma.masked_where(heat <= 0, heat)
    # the blocks' extent: whole fine cells (the last block may reach past a side that the
    # blocks do not divide evenly; it is clipped by the axes' limits)
    block = max(1, -(-max(fine.shape) // HEAT_CELLS))
    cell_x = size.width / fine.shape[1] * block
    cell_y = size.height / fine.shape[0] * block
    image = ax.imshow(
        shown,
        extent=(0.0, cell_x * heat.shape[1], cell_y * heat.shape[0], 0.0),
        origin="upper",
        cmap=_clipped("magma_r", 0.75),
        vmin=0.0,
        vmax=max(float(heat.max()), 1e-9),
        alpha=PICTURE_ALPHA if pictured else 0.8,
        interpolation="nearest",
        zorder=1,
    )
    bar = figure.colorbar(image, ax=ax, shrink=0.8, aspect=25)
    key = "sim.plot.heat_bar_ft" if _unit(scenario) == "ft" else "sim.plot.heat_bar"
    bar.set_label(tr(key, lang, {"cell": number_text(round(cell_x, 2), lang)}))
    ax.set_xlim(0, size.width)
    ax.set_ylim(size.height, 0)
    ax.set_title(
        tr(
            "sim.plot.heat_title",
            lang,
            {"scenario": scenario.name, "runs": number_text(result.runs, lang, ",")},
        ),
        fontsize=10,
    )
    _legend(ax, handles)
    declutter(figure, ax)
    return figure


def sweep_figure(
    rows: list[dict[str, float]],
    paths: list[str],
    lang: Lang,
    title: str,
    *,
    runs: int | None = None,
    together: Mapping[str, Sequence[str]] | None = None,
) -> Figure:
    """Each outcome's probability against each varied field: one panel per (outcome, field),
    one curve per value of the other varied fields (never averaged over them), each point
    with its 95% Wilson interval as an error bar when ``runs`` (per variant) is given; a field
    of whole numbers (dice) has whole-number ticks. ``together``: the fields varied in
    lockstep with an axis's field, named under its axis."""
    _agg()
    from matplotlib.figure import Figure
    from matplotlib.ticker import FixedLocator, MaxNLocator

    from vigile.sim.simulate import Estimate
    from vigile.sim.tally import OUTCOMES

    outcomes = [o for o in (*OUTCOMES, "detected") if any(r[o] for r in rows)] or ["detected"]
    figure = Figure(
        figsize=(max(6.0, 4.6 * len(paths)), 2.6 * len(outcomes) + 1.0), layout="constrained"
    )
    grid = figure.subplots(len(outcomes), len(paths), squeeze=False, sharex="col")
    for row_index, outcome in enumerate(outcomes):
        for column, path in enumerate(paths):
            ax = grid[row_index][column]
            others = [p for p in paths if p != path]
            groups = sorted({tuple(r[o] for o in others) for r in rows})
            for group in groups:
                chosen = sorted(
                    (r for r in rows if tuple(r[o] for o in others) == group),
                    key=lambda r: r[path],
                )
                xs = [r[path] for r in chosen]
                ps = [r[outcome] for r in chosen]
                label = ", ".join(f"{o} = {v:g}" for o, v in zip(others, group, strict=True))
                if runs:
                    bounds = [Estimate(round(p * runs), runs).interval for p in ps]
                    low = [max(0.0, p - b[0]) for p, b in zip(ps, bounds, strict=True)]
                    high = [max(0.0, b[1] - p) for p, b in zip(ps, bounds, strict=True)]
                    ax.errorbar(
                        xs, ps, yerr=[low, high], marker="o", capsize=3, label=label or None
                    )
                else:
                    ax.plot(xs, ps, marker="o", label=label or None)
            values = sorted({r[path] for r in rows})
            if all(float(v).is_integer() for v in values):
                if len(values) <= 12:
                    ax.xaxis.set_major_locator(FixedLocator([float(v) for v in values]))
                else:
                    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
            moved = (together or {}).get(path, ())
            ax.set_xlabel(path + "".join(f"\n+ {other}" for other in moved))
            ax.set_ylabel(tr(f"sim.outcome.{outcome}", lang), fontsize=8)
            ax.set_ylim(-0.02, 1.02)
            ax.grid(alpha=0.3)
            if others and row_index == 0:
                ax.legend(fontsize=7)
    # Wrapped to the figure's width (about 11 characters an inch at 10 pt): a long scenario
    # name is never cut off at the edges.
    width = max(20, int(figure.get_figwidth() * 11))
    wrapped = "\n".join(textwrap.wrap(title, width))
    figure.suptitle(wrapped + "\n" + tr("sim.plot.probability", lang), fontsize=10)
    return figure
