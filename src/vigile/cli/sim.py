"""``vigile riskmap …`` and ``vigile route …``: exact risk maps and the safest route (skirmish).

Thin: it parses, calls :mod:`vigile.sim`, renders (text, JSON, a picture). Each command is a
plain function on :data:`app`; ``vigile`` registers them as top-level commands. A user error is
one line on stderr and exit code 2, here as in ``vigile.cli.main``.
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from vigile.cli.common import JsonOpt, LangOpt
from vigile.errors import InputError, VigileError
from vigile.io.i18n import Lang, tr
from vigile.rulesets.skirmish.noise import NoiseEvent
from vigile.rulesets.skirmish.sight import Attitude

if TYPE_CHECKING:
    from vigile.scene.model import Scenario
    from vigile.sim.riskmap import RiskMap
    from vigile.sim.route import Route

app = typer.Typer(
    help="Exact risk maps and the safest route over a skirmish board.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

ScenarioArg = Annotated[
    str, typer.Argument(metavar="SCENARIO", help="A scenario file, or a bundled name.")
]
ResolutionOpt = Annotated[
    float | None,
    typer.Option(
        "--resolution", metavar="CM", help="Cell size in cm (default: 1 cm, coarser on big boards)."
    ),
]
PlotOpt = Annotated[
    Path | None, typer.Option("--plot", metavar="FILE", help="Draw it: FILE.png or FILE.svg.")
]
UnsuitedOpt = Annotated[
    bool,
    typer.Option("--unsuited-outfit", help="The intruder's clothes are ill-suited (SK-V4)."),
]
DIGITS = 6
"""Floats in JSON are rounded to this many digits."""
MAX_EXACT_CHARS = 60
"""An exact chance longer than this is shown as a float only."""


@contextmanager
def _user_errors() -> Iterator[None]:
    """A VigileError becomes one line on stderr and exit code 2."""
    try:
        yield
    except VigileError as error:
        typer.echo(f"vigile: error: {error}", err=True)
        raise typer.Exit(2) from None


@app.command()
def riskmap(
    scenario: ScenarioArg,
    attitude: Annotated[
        Attitude, typer.Option("--attitude", help="What the intruder does (SK-V3).")
    ],
    noise: Annotated[
        NoiseEvent | None,
        typer.Option("--noise", metavar="EVENT", help="Map the chance this noise is heard."),
    ] = None,
    resolution: ResolutionOpt = None,
    unsuited_outfit: UnsuitedOpt = False,
    plot: PlotOpt = None,
    json_out: JsonOpt = False,
    lang: LangOpt = Lang.EN,
) -> None:
    """The exact chance of being seen (or heard) in one turn at each point of the board."""
    with _user_errors():
        from vigile.sim.riskmap import risk_map

        loaded = _load(scenario)
        if plot is not None:
            _check_plot(plot)
        found = risk_map(
            loaded, attitude, resolution=resolution, noise=noise, unsuited=unsuited_outfit
        )
        if plot is not None:
            _plot(found, plot, lang)
        if json_out:
            _print_json(riskmap_json(found, lang, plot))
        else:
            sys.stdout.write("\n".join(riskmap_text(found, lang, plot)) + "\n")


@app.command()
def route(
    scenario: ScenarioArg,
    to: Annotated[str, typer.Option("--to", metavar="X,Y", help="Where the route ends (cm).")],
    start: Annotated[
        str | None,
        typer.Option(
            "--from", metavar="X,Y", help="Where it starts (cm); default: the --write-plan actor."
        ),
    ] = None,
    attitude: Annotated[
        Attitude, typer.Option("--attitude", help="How the intruder moves (SK-V3).")
    ] = Attitude.HALF,
    resolution: ResolutionOpt = None,
    unsuited_outfit: UnsuitedOpt = False,
    plot: PlotOpt = None,
    write_plan: Annotated[
        str | None,
        typer.Option("--write-plan", metavar="ACTOR", help="Replace this attacker's plan."),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option("--out", metavar="FILE", help="Where --write-plan writes (YAML)."),
    ] = None,
    json_out: JsonOpt = False,
    lang: LangOpt = Lang.EN,
) -> None:
    """The route with the least chance of being seen, from --from to --to."""
    with _user_errors():
        from vigile.sim.riskmap import outfit_unsuited, risk_map
        from vigile.sim.route import safest_route

        goal = parse_point(to, "--to")
        origin = parse_point(start, "--from") if start is not None else None
        if (write_plan is None) != (out is None):
            raise InputError(
                "--write-plan ACTOR and --out FILE go together",
                where="--out" if write_plan is not None else "--write-plan",
            )
        if out is not None and out.suffix.lower() not in (".yaml", ".yml"):
            raise InputError(f"{out.name}: the scenario is written as YAML (.yaml)", where="--out")
        if plot is not None:
            _check_plot(plot)
        loaded = _load(scenario)
        if write_plan is not None:
            origin = _plan_start(loaded, write_plan, origin)
        if origin is None:
            raise InputError("give where the route starts, X,Y", where="--from")
        unsuited = unsuited_outfit or outfit_unsuited(loaded, write_plan)
        found = risk_map(loaded, attitude, resolution=resolution, unsuited=unsuited)
        best = safest_route(found, origin, goal)
        if write_plan is not None and out is not None:
            _write_plan(loaded, found, best, write_plan, out)
        if plot is not None:
            _plot(found, plot, lang, best)
        if json_out:
            _print_json(route_json(best, found, lang, plot, out))
        else:
            sys.stdout.write("\n".join(route_text(best, found, lang, plot, write_plan, out)) + "\n")


# --------------------------------------------------------------------------- helpers


def parse_point(text: str, where: str) -> tuple[float, float]:
    """``"X,Y"`` as two finite numbers (cm)."""
    parts = text.split(",")
    if len(parts) != 2:
        raise InputError(f"{text!r} is not a point: write X,Y (e.g. 60,14)", where=where)
    try:
        x, y = (float(part) for part in parts)
    except ValueError:
        raise InputError(f"{text!r} is not a point: X and Y are numbers", where=where) from None
    if not (math.isfinite(x) and math.isfinite(y)):
        raise InputError(f"{text!r} is not a point: X and Y are finite numbers", where=where)
    return x, y


def _load(source: str) -> Scenario:
    from vigile.scene.loader import load_scenario

    return load_scenario(source)


def _check_plot(path: Path) -> None:
    from vigile.io.plots import check_plot_path

    check_plot_path(path)


def _plot(found: RiskMap, path: Path, lang: Lang, best: Route | None = None) -> None:
    from vigile.io.plots import risk_figure, save_figure

    save_figure(risk_figure(found, lang, route=best), path)


def _plan_start(
    scenario: Scenario, actor: str, origin: tuple[float, float] | None
) -> tuple[float, float]:
    from vigile.scene.actors import Side

    try:
        who = scenario.actor(actor)
    except KeyError:
        raise InputError(
            f"no actor named {actor!r} in the scenario", where="--write-plan"
        ) from None
    if who.side is not Side.ATTACKERS:
        raise InputError(f"{actor} is a defender: only attackers have plans", where="--write-plan")
    position = (float(who.position[0]), float(who.position[1]))
    if origin is not None and origin != position:
        raise InputError(
            f"{actor}'s plan starts where {actor} stands, ({position[0]:g}, {position[1]:g}): "
            "give that --from, or none",
            where="--from",
        )
    return position


def _write_plan(scenario: Scenario, found: RiskMap, best: Route, actor: str, out: Path) -> None:
    import yaml

    from vigile.scene.loader import parse_scenario
    from vigile.sim.route import plan_legs, scenario_with_plan

    data = scenario_with_plan(scenario, actor, plan_legs(best, found))
    text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True)
    parse_scenario(text, file=str(out))  # what is written loads
    try:
        out.write_text(text, encoding="utf-8")
    except OSError as error:
        raise InputError(f"cannot write {out} ({error.strerror})", where="--out") from None


def _print_json(data: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False) + "\n")


def _percent(chance: float) -> str:
    return f"{100 * chance:.2f}%"


def _exact(chance: Fraction) -> str:
    text = str(chance)
    return text if len(text) <= MAX_EXACT_CHARS else f"≈{float(chance):.6g}"


def _num(value: float) -> str:
    return f"{value:g}"


def riskmap_text(found: RiskMap, lang: Lang, plot: Path | None) -> list[str]:
    """The short summary ``vigile riskmap`` prints."""
    scenario = found.board.scenario
    params: dict[str, object] = {"scenario": scenario.name, "attitude": found.attitude.value}
    if found.noise is not None:
        params["event"] = tr(f"sim.event.{found.noise.value}", lang)
        lines = [tr("sim.text.riskmap_title_noise", lang, params)]
    else:
        lines = [tr("sim.text.riskmap_title", lang, params)]
    lines.append(
        tr(
            "sim.text.board",
            lang,
            {
                "width": _num(scenario.map.width),
                "height": _num(scenario.map.height),
                "resolution": _num(found.resolution),
                "columns": found.xs.size,
                "rows": found.ys.size,
                "guards": len(found.board.guards),
            },
        )
    )
    row, column = found.worst()
    lines.append(
        tr(
            "sim.text.summary",
            lang,
            {
                "max": _percent(float(found.risk[row, column])),
                "x": _num(float(found.xs[column])),
                "y": _num(float(found.ys[row])),
                "exact": _exact(found.exact(row, column)),
                "mean": _percent(float(found.risk.mean())),
            },
        )
    )
    points = _attacker_points(found)
    if points:
        lines.append(tr("sim.text.attackers", lang))
        for name, (x, y), chance in points:
            lines.append(
                "  "
                + tr(
                    "sim.text.at_actor",
                    lang,
                    {
                        "name": name,
                        "x": _num(x),
                        "y": _num(y),
                        "chance": _percent(float(chance)),
                        "exact": _exact(chance),
                    },
                )
            )
    lines.append(tr("sim.text.notes", lang))
    lines += [f"  - {tr(key, lang)}" for key in found.notes]
    if plot is not None:
        lines.append(tr("sim.text.picture", lang, {"file": str(plot)}))
    return lines


def _attacker_points(found: RiskMap) -> list[tuple[str, tuple[float, float], Fraction]]:
    from vigile.scene.actors import Side

    return [
        (actor.name, actor.position, found.risk_at(*actor.position))
        for actor in found.board.scenario.actors
        if actor.side is Side.ATTACKERS
    ]


def riskmap_json(found: RiskMap, lang: Lang, plot: Path | None) -> dict[str, Any]:
    """The risk map as JSON: the summary, exact chances at a few points, and the grid."""
    scenario = found.board.scenario
    row, column = found.worst()
    return {
        "scenario": scenario.name,
        "attitude": found.attitude.value,
        "noise": found.noise.value if found.noise is not None else None,
        "unsuited_outfit": found.unsuited,
        "resolution_cm": found.resolution,
        "board": {"width": scenario.map.width, "height": scenario.map.height},
        "guards": [
            {"name": g.name, "at": [g.x, g.y], "dice": g.dice, "alert": g.alert}
            for g in found.board.guards
        ],
        "max": {
            "chance": round(float(found.risk[row, column]), DIGITS),
            "exact": str(found.exact(row, column)),
            "at": [float(found.xs[column]), float(found.ys[row])],
        },
        "mean": round(float(found.risk.mean()), DIGITS),
        "points": [
            {
                "actor": name,
                "at": [x, y],
                "chance": round(float(chance), DIGITS),
                "exact": str(chance),
            }
            for name, (x, y), chance in _attacker_points(found)
        ],
        "notes": [tr(key, lang) for key in found.notes],
        "grid": {
            "x": [round(float(v), DIGITS) for v in found.xs],
            "y": [round(float(v), DIGITS) for v in found.ys],
            "risk": found.risk.round(DIGITS).tolist(),
        },
        "plot": str(plot) if plot is not None else None,
    }


def route_text(
    best: Route,
    found: RiskMap,
    lang: Lang,
    plot: Path | None,
    actor: str | None,
    out: Path | None,
) -> list[str]:
    """What ``vigile route`` prints."""
    (x1, y1), (x2, y2) = best.start, best.goal
    lines = [
        tr(
            "sim.text.route_title",
            lang,
            {
                "scenario": found.board.scenario.name,
                "attitude": best.attitude.value,
                "resolution": _num(found.resolution),
            },
        ),
        tr(
            "sim.text.route_ends",
            lang,
            {
                "x1": _num(x1),
                "y1": _num(y1),
                "x2": _num(x2),
                "y2": _num(y2),
                "length": f"{best.length:.1f}",
                "count": len(best.waypoints),
            },
        ),
        tr("sim.text.route_chance", lang, {"chance": _percent(best.chance_seen)}),
        tr("sim.text.waypoints", lang),
        "  " + " → ".join(f"({_num(x)}, {_num(y)})" for x, y in best.waypoints),
        tr("sim.text.notes", lang),
    ]
    notes = [*found.notes, "sim.note.route_independent"]
    if actor is not None and best.attitude is Attitude.HIDDEN:
        notes.append("sim.note.route_plan_hidden")
    lines += [f"  - {tr(key, lang)}" for key in notes]
    if actor is not None and out is not None:
        lines.append(tr("sim.text.plan", lang, {"actor": actor, "file": str(out)}))
    if plot is not None:
        lines.append(tr("sim.text.picture", lang, {"file": str(plot)}))
    return lines


def route_json(
    best: Route, found: RiskMap, lang: Lang, plot: Path | None, out: Path | None
) -> dict[str, Any]:
    """The route as JSON."""
    return {
        "scenario": found.board.scenario.name,
        "attitude": best.attitude.value,
        "resolution_cm": found.resolution,
        "from": list(best.start),
        "to": list(best.goal),
        "chance_seen": round(best.chance_seen, DIGITS),
        "length_cm": round(best.length, DIGITS),
        "waypoints": [[round(x, DIGITS), round(y, DIGITS)] for x, y in best.waypoints],
        "cells": len(best.cells),
        "notes": [tr(key, lang) for key in (*found.notes, "sim.note.route_independent")],
        "plot": str(plot) if plot is not None else None,
        "scenario_written": str(out) if out is not None else None,
    }
