"""The Monte Carlo as text and JSON: what ``vigile simulate`` and ``vigile sweep`` print.

Renderers over :class:`vigile.sim.simulate.SimResult` and the sweep's rows; every text comes
from the message catalogue (fr, en). The pictures are drawn by :mod:`vigile.io.plots`.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from vigile.checks.numbers import percent_text
from vigile.io.i18n import Lang, number_text, tr

if TYPE_CHECKING:
    from vigile.sim.simulate import Estimate, SimResult
    from vigile.sim.sweep import FindResult, Step

SWEEP_COLUMNS = ("objective_unseen", "objective_after_alarm", "alarm", "detected")
"""The outcomes a sweep's table shows after the varied fields."""


def simulation_text(result: SimResult, lang: Lang, plot: Path | None) -> list[str]:
    """The summary a designer reads: outcomes with intervals, first detection, guards."""
    from vigile.sim.tally import OUTCOMES

    french = lang is Lang.FR

    def pct(e: Estimate) -> str:
        return chance_text(e.p, e.interval, lang, width=6)

    lines = []
    if result.requested is not None:
        figures = {
            "runs": number_text(result.runs, lang, ","),
            "requested": number_text(result.requested, lang, ","),
        }
        lines.append(tr("sim.sim.interrupted", lang, figures))
    lines += [
        tr(
            "sim.sim.title",
            lang,
            {
                "scenario": result.scenario.name,
                "runs": number_text(result.runs, lang, ","),
                "seed": result.seed,
            },
        )
    ]
    for name in OUTCOMES:
        if name in ("caught", "lost") and not result.outcome(name).count:
            continue
        lines.append(f"  {tr(f'sim.outcome.{name}', lang):<50} {pct(result.outcome(name))}")
    lines.append(f"  {tr('sim.outcome.detected', lang):<50} {pct(result.detected)}")
    turns = result.tally.first_detection
    detected = int(turns[1:].sum())
    if detected:
        import numpy as np

        mean = float((np.arange(len(turns))[1:] * turns[1:]).sum() / detected)
        cumulative = np.cumsum(turns[1:])
        median = int(np.searchsorted(cumulative, detected / 2) + 1)
        lines.append(
            tr("sim.sim.first", lang, {"mean": number_text(mean, lang, ".1f"), "median": median})
        )
    order = sorted(
        zip(result.guards, result.tally.guard_detections, strict=True),
        key=lambda item: -int(item[1]),
    )
    percent = "\u00a0%" if french else "%"
    shown = [
        f"{g} {number_text(100 * int(c) / result.runs, lang, '.1f')}{percent}"
        for g, c in order
        if c
    ][:8]
    if shown:
        lines.append(tr("sim.sim.guards", lang, {"list": ", ".join(shown)}))
    intruders = result.intruder_detections
    if intruders:
        lines.append(tr("sim.sim.intruders", lang))
        for name, estimate in intruders.items():
            lines.append(f"  {name:<50} {pct(estimate)}")
    elif sum(a.side.value == "attackers" for a in result.scenario.actors) > 1:
        lines.append(tr("sim.sim.intruders_unknown", lang))
    if plot is not None:
        lines.append(tr("sim.sim.plot", lang, {"path": str(plot)}))
    return lines


def chance_text(p: float, interval: tuple[float, float], lang: Lang, width: int = 0) -> str:
    """A chance and its 95% interval: ``12.3%  [11.1, 13.6]`` (French: ``12,3 %  [11,1 ; 13,6]``
    with a no-break space)."""
    french = lang is Lang.FR
    bare = [percent_text(x, sign="", comma=french) for x in (p, *interval)]
    if french:
        return f"{bare[0]:>{width}} %  [{bare[1]} ; {bare[2]}]"
    return f"{bare[0]:>{width}}%  [{bare[1]}, {bare[2]}]"


def find_text(result: FindResult, scenario: str, lang: Lang) -> list[str]:
    """What ``vigile sweep --find`` prints: the value found (or why none), with its chance and
    95% interval, then every simulation the search played."""
    find = result.find

    def chance(step: Step) -> str:
        return chance_text(step.p, step.interval, lang)

    low, high = sorted(result.bracket, key=lambda s: s.value)
    words = {
        "scenario": scenario,
        "field": find.path,
        "target": percent_text(find.target, sign="", comma=lang is Lang.FR)
        + ("\u00a0%" if lang is Lang.FR else "%"),
        "outcome": tr(f"sim.outcome.{find.outcome}", lang),
        "runs": number_text(result.runs, lang, ","),
        "seed": result.seed,
        "value": f"{result.best.value:g}",
        "chance": chance(result.best),
        "below": f"{low.value:g}",
        "above": f"{high.value:g}",
        "chance_below": chance(low),
        "chance_above": chance(high),
        "low": f"{low.value:g}",
        "high": f"{high.value:g}",
        "chance_low": chance(low),
        "chance_high": chance(high),
    }
    lines = [tr("sim.find.title", lang, words), tr(f"sim.find.{result.status.value}", lang, words)]
    lines.append(tr("sim.find.steps", lang, words))
    for step in result.steps:
        lines.append(f"  {find.path} = {step.value:<12g} {chance(step)}")
    return lines


def sweep_text(rows: list[dict[str, float]], paths: list[str]) -> list[str]:
    """The sweep's table: one row per variant, the varied fields then the outcomes."""
    header = [*paths, *SWEEP_COLUMNS]
    lines = ["  ".join(f"{h:>18}" for h in header)]
    for row in rows:
        lines.append("  ".join(f"{row[h]:>18.4g}" for h in header))
    return lines


def sweep_interrupted_text(done: int, variants: int, runs: int, lang: Lang) -> str:
    """The line above a sweep stopped by Ctrl-C: how many of its variants were finished."""
    figures = {"done": done, "variants": variants, "runs": number_text(runs, lang, ",")}
    return tr("sim.sim.sweep_interrupted", lang, figures)


def sweep_json(rows: list[dict[str, float]], runs: int, seed: int) -> dict[str, Any]:
    """The sweep as JSON: its runs per variant, its seed and its rows."""
    return {"runs": runs, "seed": seed, "rows": rows}
