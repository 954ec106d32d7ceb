"""Risk maps and routes as text and JSON: what ``vigile riskmap`` and ``vigile route`` print.

Renderers over :class:`vigile.games.skirmish.riskmap.RiskMap` and
:class:`vigile.games.skirmish.route.Route`; every text comes from the message catalogue (fr, en).
The pictures are drawn by :mod:`vigile.io.plots`."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from vigile.checks.numbers import fraction_text, percent_text
from vigile.io.i18n import Lang, tr
from vigile.rulesets.skirmish.sight import Attitude

if TYPE_CHECKING:
    from vigile.games.skirmish.riskmap import RiskMap
    from vigile.games.skirmish.route import Route

DIGITS = 6
"""Floats in JSON are rounded to this many digits."""
MAX_EXACT_CHARS = 60
"""An exact chance longer than this is shown as a float only."""


def _percent(chance: float) -> str:
    return percent_text(chance)


def _exact(chance: Fraction) -> str:
    text = fraction_text(chance)
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
