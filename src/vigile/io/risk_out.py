"""Risk maps and routes as text and JSON: what ``vigile riskmap`` and ``vigile route`` print.

Renderers over a game's risk map (a :class:`~vigile.io.risk_view.RiskGrid`: the skirmish's in
cm, a d20 game's on 5-ft squares, the map's ``unit`` says which) and its route (a
:class:`~vigile.io.risk_view.RouteView`); every text comes from the message
catalogue (fr, en). The pictures are drawn by :mod:`vigile.io.plots`."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, cast

from vigile.checks.numbers import fraction_text, percent_text
from vigile.io.i18n import Lang, number_text, point_text, tr

if TYPE_CHECKING:
    from vigile.io.risk_view import D20Grid, RiskGrid, RouteView
    from vigile.scene.geometry import FloatArray

DIGITS = 6
"""Floats in JSON are rounded to this many digits."""
MAX_EXACT_CHARS = 60
"""An exact chance longer than this is shown as a float only."""


def _percent(chance: float, lang: Lang = Lang.EN) -> str:
    return percent_text(chance, comma=lang is Lang.FR)


def _exact(chance: Fraction) -> str:
    text = fraction_text(chance)
    return text if len(text) <= MAX_EXACT_CHARS else f"≈{float(chance):.6g}"


def _num(value: float, lang: Lang = Lang.EN) -> str:
    return number_text(value, lang)


def _d20(found: RiskGrid) -> D20Grid | None:
    """The map as a d20 map (5-ft squares, ``ft``), or None for a skirmish map."""
    return cast("D20Grid", found) if found.unit == "ft" else None


class PatrolGrid(Protocol):
    """A risk map with the patrols walking (:mod:`vigile.games.patrol_risk`): its ``risk`` a
    sampled mean, with a standard error per cell, the guards held still beside it."""

    samples: int
    turns: int
    seed: int
    seconds: float
    patrols: tuple[str, ...]
    error: FloatArray
    held: FloatArray
    held_error: FloatArray
    still: FloatArray

    def max_error(self) -> float: ...

    def held_max_error(self) -> float: ...

    def patrols_json(self) -> dict[str, object]: ...


def _patrol(found: object) -> PatrolGrid | None:
    """The map as a moving-patrol map, or None for an exact one."""
    return cast("PatrolGrid", found) if hasattr(found, "patrols_json") else None


def patrol_lines(found: RiskGrid, lang: Lang) -> list[str]:
    """The line saying a map is a sampled average: draws, turns, seed, error bound, time."""
    patrol = _patrol(found)
    if patrol is None:
        return []
    return [
        tr(
            "sim.text.patrols",
            lang,
            {
                "names": ", ".join(patrol.patrols),
                "samples": patrol.samples,
                "turns": patrol.turns,
                "seed": patrol.seed,
                "error": _percent(patrol.max_error(), lang),
                "seconds": number_text(round(patrol.seconds, 1), lang),
            },
        )
    ]


def _patrol_summary(found: RiskGrid, patrol: PatrolGrid, lang: Lang) -> list[str]:
    """The summary of a moving-patrol map: per turn beside the still guards, standing still
    through the window, and at the attackers' start (their cells: no exact chance)."""
    row, column = found.worst()
    lines = [
        tr(
            "sim.text.patrols_summary",
            lang,
            {
                "max": _percent(float(found.risk[row, column]), lang),
                "x": _num(float(found.xs[column]), lang),
                "y": _num(float(found.ys[row]), lang),
                "mean": _percent(float(found.risk.mean()), lang),
                "still_max": _percent(float(patrol.still.max()), lang),
                "still_mean": _percent(float(patrol.still.mean()), lang),
            },
        ),
        tr(
            "sim.text.patrols_held",
            lang,
            {
                "turns": patrol.turns,
                "max": _percent(float(patrol.held.max()), lang),
                "error": _percent(patrol.held_max_error(), lang),
            },
        ),
    ]
    points = _patrol_points(found, patrol)
    if points:
        lines.append(tr("sim.text.attackers", lang))
        for point in points:
            lines.append(
                "  "
                + tr(
                    "sim.text.patrols_at_actor",
                    lang,
                    {
                        "name": point["actor"],
                        "x": _num(point["at"][0], lang),
                        "y": _num(point["at"][1], lang),
                        "chance": _percent(point["chance"], lang),
                        "error": _percent(point["standard_error"], lang),
                        "held": _percent(point["held"], lang),
                        "still": _percent(point["still"], lang),
                    },
                )
            )
    return lines


def _patrol_points(found: RiskGrid, patrol: PatrolGrid) -> list[dict[str, Any]]:
    """At each attacker's start, its cell's chances (a d20 map: the intruder it is made for)."""
    from vigile.scene.actors import Side

    d20 = _d20(found)
    points: list[dict[str, Any]] = []
    for actor in found.board.scenario.actors:
        if actor.side is not Side.ATTACKERS or (
            d20 is not None and actor is not d20.board.intruder
        ):
            continue
        cell = cast("Any", found).cell_of(*actor.position)
        points.append(
            {
                "actor": actor.name,
                "at": [float(actor.position[0]), float(actor.position[1])],
                "chance": round(float(found.risk[cell]), DIGITS),
                "standard_error": round(float(patrol.error[cell]), DIGITS),
                "held": round(float(patrol.held[cell]), DIGITS),
                "still": round(float(patrol.still[cell]), DIGITS),
            }
        )
    return points


def d20_params(found: D20Grid, lang: Lang) -> dict[str, object]:
    """What a d20 map's titles name: the scenario, the intruder, its way, the layer."""
    return {
        "scenario": found.board.scenario.name,
        "intruder": found.board.intruder.name,
        "way": tr(f"sim.way.{found.attitude.value}", lang),
        "layer": tr(f"sim.layer.{found.layer.value}", lang),
    }


def riskmap_text(found: RiskGrid, lang: Lang, plot: Path | None) -> list[str]:
    """The short summary ``vigile riskmap`` prints."""
    scenario = found.board.scenario
    params: dict[str, object] = {"scenario": scenario.name, "attitude": found.attitude.value}
    d20 = _d20(found)
    if d20 is not None:
        lines = [
            tr("sim.text.d20_riskmap_title", lang, d20_params(d20, lang)),
            tr(
                "sim.text.d20_board",
                lang,
                {
                    "width": _num(scenario.map.width, lang),
                    "height": _num(scenario.map.height, lang),
                    "columns": found.xs.size,
                    "rows": found.ys.size,
                    "guards": len(found.board.guards),
                },
            ),
        ]
    elif found.noise is not None:
        params["event"] = tr(f"sim.event.{found.noise.value}", lang)
        lines = [tr("sim.text.riskmap_title_noise", lang, params)]
    else:
        lines = [tr("sim.text.riskmap_title", lang, params)]
    if d20 is None:
        lines.append(
            tr(
                "sim.text.board",
                lang,
                {
                    "width": _num(scenario.map.width, lang),
                    "height": _num(scenario.map.height, lang),
                    "resolution": _num(found.resolution, lang),
                    "columns": found.xs.size,
                    "rows": found.ys.size,
                    "guards": len(found.board.guards),
                },
            )
        )
    patrol = _patrol(found)
    if patrol is not None:
        lines += patrol_lines(found, lang)
        lines += _patrol_summary(found, patrol, lang)
        lines.append(tr("sim.text.notes", lang))
        lines += [f"  - {tr(key, lang)}" for key in found.notes]
        if plot is not None:
            lines.append(tr("sim.text.picture", lang, {"file": str(plot)}))
        return lines
    row, column = found.worst()
    lines.append(
        tr(
            "sim.text.summary",
            lang,
            {
                "max": _percent(float(found.risk[row, column]), lang),
                "x": _num(float(found.xs[column]), lang),
                "y": _num(float(found.ys[row]), lang),
                "exact": _exact(found.exact(row, column)),
                "mean": _percent(float(found.risk.mean()), lang),
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
                        "x": _num(x, lang),
                        "y": _num(y, lang),
                        "chance": _percent(float(chance), lang),
                        "exact": _exact(chance),
                    },
                )
            )
    lines.append(tr("sim.text.notes", lang))
    lines += [f"  - {tr(key, lang)}" for key in found.notes]
    if plot is not None:
        lines.append(tr("sim.text.picture", lang, {"file": str(plot)}))
    return lines


def _attacker_points(found: RiskGrid) -> list[tuple[str, tuple[float, float], Fraction]]:
    """The exact chance where each attacker starts (a d20 map: the intruder it is made for)."""
    from vigile.scene.actors import Side

    d20 = _d20(found)
    return [
        (actor.name, actor.position, found.risk_at(*actor.position))
        for actor in found.board.scenario.actors
        if actor.side is Side.ATTACKERS and (d20 is None or actor is d20.board.intruder)
    ]


def riskmap_json(found: RiskGrid, lang: Lang, plot: Path | None) -> dict[str, Any]:
    """The risk map as JSON: the summary, exact chances at a few points, and the grid; a
    moving-patrol map has no exact chance, each grid beside its standard error instead."""
    scenario = found.board.scenario
    row, column = found.worst()
    d20 = _d20(found)
    patrol = _patrol(found)
    found_json: dict[str, Any] = {
        "scenario": scenario.name,
        "attitude": found.attitude.value,
    }
    if d20 is not None:
        found_json |= {"intruder": d20.board.intruder.name, "layer": d20.layer.value}
    found_json |= {
        "noise": found.noise.value if found.noise is not None else None,
        "unsuited_outfit": found.unsuited,
        f"resolution_{found.unit}": found.resolution,
        "board": {"width": scenario.map.width, "height": scenario.map.height},
        "guards": found.guards_json(),
    }
    grid: dict[str, Any] = {
        "x": [round(float(v), DIGITS) for v in found.xs],
        "y": [round(float(v), DIGITS) for v in found.ys],
        "risk": found.risk.round(DIGITS).tolist(),
    }
    worst: dict[str, Any] = {"chance": round(float(found.risk[row, column]), DIGITS)}
    if patrol is None:
        worst["exact"] = str(found.exact(row, column))
        points: list[dict[str, Any]] = [
            {"actor": name, "at": [x, y], "chance": round(float(chance), DIGITS),
             "exact": str(chance)}
            for name, (x, y), chance in _attacker_points(found)
        ]  # fmt: skip
    else:
        found_json["patrols"] = patrol.patrols_json()
        worst["standard_error"] = round(float(patrol.error[row, column]), DIGITS)
        points = _patrol_points(found, patrol)
        grid |= {
            "standard_error": patrol.error.round(DIGITS).tolist(),
            "held": patrol.held.round(DIGITS).tolist(),
            "held_standard_error": patrol.held_error.round(DIGITS).tolist(),
            "still": patrol.still.round(DIGITS).tolist(),
        }
    worst["at"] = [float(found.xs[column]), float(found.ys[row])]
    found_json |= {"max": worst, "mean": round(float(found.risk.mean()), DIGITS)}
    if patrol is not None:
        found_json["still"] = {
            "max": round(float(patrol.still.max()), DIGITS),
            "mean": round(float(patrol.still.mean()), DIGITS),
        }
    return found_json | {
        "points": points,
        "notes": [tr(key, lang) for key in found.notes],
        "grid": grid,
        "plot": str(plot) if plot is not None else None,
    }


def route_text(
    best: RouteView,
    found: RiskGrid,
    lang: Lang,
    plot: Path | None,
    actor: str | None,
    out: Path | None,
) -> list[str]:
    """What ``vigile route`` prints."""
    (x1, y1), (x2, y2) = best.start, best.goal
    d20 = _d20(found)
    if d20 is not None:
        return _d20_route_text(best, d20, lang, plot, actor, out)
    lines = [
        tr(
            "sim.text.route_title",
            lang,
            {
                "scenario": found.board.scenario.name,
                "attitude": best.attitude.value,
                "resolution": _num(found.resolution, lang),
            },
        ),
        tr(
            "sim.text.route_ends",
            lang,
            {
                "x1": _num(x1, lang),
                "y1": _num(y1, lang),
                "x2": _num(x2, lang),
                "y2": _num(y2, lang),
                "length": number_text(best.length, lang, ".1f"),
                "count": len(best.waypoints),
            },
        ),
        tr("sim.text.route_chance", lang, {"chance": _percent(best.chance_seen, lang)}),
        *patrol_lines(found, lang),
        *_least_bad(best, lang),
        tr("sim.text.waypoints", lang),
        "  " + " → ".join(point_text(x, y, lang) for x, y in best.waypoints),
        tr("sim.text.notes", lang),
    ]
    notes = [*found.notes, "sim.note.route_independent"]
    if actor is not None:
        from vigile.rulesets.skirmish.sight import Attitude  # not for every map: d20 ones

        if best.attitude is Attitude.HIDDEN:
            notes.append("sim.note.route_plan_hidden")
    lines += [f"  - {tr(key, lang)}" for key in notes]
    if actor is not None and out is not None:
        lines.append(tr("sim.text.plan", lang, {"actor": actor, "file": str(out)}))
    if plot is not None:
        lines.append(tr("sim.text.picture", lang, {"file": str(plot)}))
    return lines


def _least_bad(best: RouteView, lang: Lang) -> list[str]:
    """The line saying that no route avoids the spots seen for certain, if none does."""
    if not best.certain:
        return []
    return [tr("sim.text.route_least_bad", lang, {"count": best.certain})]


def _doors_text(best: RouteView, lang: Lang) -> str:
    return ", ".join(f"{name} {point_text(*best.waypoints[at], lang)}" for at, name in best.doors)


def _d20_route_text(
    best: RouteView,
    found: D20Grid,
    lang: Lang,
    plot: Path | None,
    actor: str | None,
    out: Path | None,
) -> list[str]:
    """What ``vigile route`` prints for a d20 map."""
    (x1, y1), (x2, y2) = best.start, best.goal
    lines = [
        tr("sim.text.d20_route_title", lang, d20_params(found, lang)),
        tr(
            "sim.text.d20_route_ends",
            lang,
            {
                "x1": _num(x1, lang),
                "y1": _num(y1, lang),
                "x2": _num(x2, lang),
                "y2": _num(y2, lang),
                "length": number_text(best.length, lang, ".1f"),
                "count": len(best.waypoints),
            },
        ),
        tr("sim.text.d20_route_chance", lang, {"chance": _percent(best.chance_seen, lang)}),
        *patrol_lines(found, lang),
        *_least_bad(best, lang),
        tr("sim.text.waypoints", lang),
        "  " + " → ".join(point_text(x, y, lang) for x, y in best.waypoints),
    ]
    if best.doors:
        lines.append(tr("sim.text.doors", lang, {"doors": _doors_text(best, lang)}))
    lines.append(tr("sim.text.notes", lang))
    lines += [f"  - {tr(key, lang)}" for key in (*found.notes, "sim.note.d20_route_independent")]
    if actor is not None and out is not None:
        lines.append(tr("sim.text.plan", lang, {"actor": actor, "file": str(out)}))
    if plot is not None:
        lines.append(tr("sim.text.picture", lang, {"file": str(plot)}))
    return lines


def route_json(
    best: RouteView, found: RiskGrid, lang: Lang, plot: Path | None, out: Path | None
) -> dict[str, Any]:
    """The route as JSON."""
    d20 = _d20(found)
    note = "sim.note.route_independent" if d20 is None else "sim.note.d20_route_independent"
    extra: dict[str, Any] = {}
    if best.doors:
        extra["doors"] = [
            {"door": name, "at": [round(v, DIGITS) for v in best.waypoints[at]]}
            for at, name in best.doors
        ]
    patrol = _patrol(found)
    if patrol is not None:
        extra["patrols"] = patrol.patrols_json()
    return {
        "scenario": found.board.scenario.name,
        "attitude": best.attitude.value,
        f"resolution_{found.unit}": found.resolution,
        "from": list(best.start),
        "to": list(best.goal),
        "chance_seen": round(best.chance_seen, DIGITS),
        "certain_cells": best.certain,
        f"length_{found.unit}": round(best.length, DIGITS),
        "waypoints": [[round(x, DIGITS), round(y, DIGITS)] for x, y in best.waypoints],
        **extra,
        "cells": len(best.cells),
        "notes": [tr(key, lang) for key in (*found.notes, note)],
        "plot": str(plot) if plot is not None else None,
        "scenario_written": str(out) if out is not None else None,
    }
