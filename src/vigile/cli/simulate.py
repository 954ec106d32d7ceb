"""``vigile simulate`` and ``vigile sweep``: the designer's Monte Carlo, thin over vigile.sim.

They parse, call :mod:`vigile.sim`, and render with :mod:`vigile.io.sim_text` (text, JSON) and
:mod:`vigile.io.plots` (pictures).
"""

from __future__ import annotations

import csv
import functools
import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NoReturn

import typer

from vigile.cli.common import JsonOpt, LangOpt, check_seed, json_text
from vigile.io.i18n import Lang, tr
from vigile.io.sim_text import simulation_text, sweep_interrupted_text, sweep_json, sweep_text

if TYPE_CHECKING:
    from vigile.sim.simulate import Notice, SimResult
    from vigile.sim.sweep import SweepPartial

RunsOpt = Annotated[int, typer.Option("--runs", help="Number of games to play.")]
SeedOpt = Annotated[int, typer.Option("--seed", help="Seed: the same seed, the same numbers.")]
PlotOpt = Annotated[
    Path | None, typer.Option("--plot", metavar="FILE", help="Draw it: FILE.png or FILE.svg.")
]
ForceOpt = Annotated[
    bool, typer.Option("--force", help="Replace an existing --plot or --out file.")
]
WorkersOpt = Annotated[
    int,
    typer.Option(
        "--workers",
        help="Worker processes (the compiled kernel already plays on every core, in threads).",
    ),
]


@contextmanager
def progress_bar(total: int, label: str) -> Iterator[Callable[[int], None]]:
    """A progress bar on the terminal's stderr; nothing when stderr is not a terminal."""
    if not sys.stderr.isatty():
        yield lambda _done: None
        return
    from rich.console import Console
    from rich.progress import Progress

    with Progress(console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(label, total=total)
        yield lambda done: bar.advance(task, done)


def register(app: typer.Typer) -> None:
    """Add ``simulate`` and ``sweep`` to the main command."""

    @app.command()
    def simulate(
        scenario: Annotated[str, typer.Argument(help="A scenario file, or a bundled name.")],
        runs: RunsOpt = 10_000,
        seed: SeedOpt = 0,
        json_out: JsonOpt = False,
        plot: PlotOpt = None,
        force: ForceOpt = False,
        workers: WorkersOpt = 1,
        lang: LangOpt = Lang.EN,
    ) -> None:
        """Play a scenario many times (any game): outcome odds with 95% intervals, when and by
        whom intruders are detected, and where (a heat map with --plot)."""
        from vigile.io.plots import check_plot_path
        from vigile.scene.loader import load_scenario
        from vigile.sim.simulate import check_counts
        from vigile.sim.simulate import simulate as run_simulation

        check_counts(runs, workers)
        check_seed(seed)
        if plot is not None:
            check_plot_path(plot, force=force)
        loaded = load_scenario(scenario)
        from vigile.sim.executors import Interrupted

        try:
            with progress_bar(runs, tr("sim.progress_text.run", lang)) as advance:
                result = run_simulation(
                    loaded,
                    runs,
                    seed=seed,
                    workers=workers,
                    source=scenario,
                    progress=advance,
                    notify=functools.partial(say_notice, lang=lang),
                )
        except Interrupted as stop:
            stopped_simulation(stop.partial, json_out, lang)
        if plot is not None:
            from vigile.io.plots import heat_figure, save_figure

            save_figure(heat_figure(with_heat(result), lang), plot)
        if json_out:
            sys.stdout.write(json_text(result.as_json()) + "\n")
            return
        sys.stdout.write("\n".join(simulation_text(result, lang, plot)) + "\n")

    @app.command()
    def sweep(
        scenario: Annotated[str, typer.Argument(help="A scenario file, or a bundled name.")],
        vary: Annotated[
            list[str],
            typer.Option("--vary", metavar="PATH=START..STOP:STEP", help="A field to vary."),
        ],
        runs: RunsOpt = 2000,
        seed: SeedOpt = 0,
        scheduler: Annotated[
            str | None,
            typer.Option("--scheduler", metavar="ADDRESS", help="An existing Dask scheduler."),
        ] = None,
        workers: Annotated[int, typer.Option("--workers", help="Local worker processes.")] = 2,
        out: Annotated[
            Path | None, typer.Option("--out", metavar="FILE.csv", help="Write the table here.")
        ] = None,
        plot: PlotOpt = None,
        force: ForceOpt = False,
        json_out: JsonOpt = False,
        lang: LangOpt = Lang.EN,
    ) -> None:
        """Simulate a grid of scenario variants on local worker processes, or on a Dask
        scheduler (--scheduler, the sweep extra)."""
        from vigile.io.plots import check_plot_path
        from vigile.scene.loader import load_scenario
        from vigile.sim.executors import Interrupted
        from vigile.sim.sweep import Vary, run_sweep, variant_count

        check_seed(seed)
        varies = [Vary.parse(v) for v in vary]
        if out is not None:
            check_table_path(out, force=force)
        if plot is not None:
            check_plot_path(plot, force=force)
        loaded = load_scenario(scenario)
        count = variant_count(varies)  # refused over the limit before any variant is built
        from vigile.sim.simulate import kernel_notice

        notice = kernel_notice(loaded)  # the workers on this machine play as it would
        if notice is not None:
            say_notice(notice, lang=lang)
        paths = [v.path for v in varies]
        try:
            with progress_bar(count, tr("sim.progress_text.sweep", lang)) as advance:
                rows = run_sweep(
                    loaded,
                    varies,
                    runs,
                    seed=seed,
                    scheduler=scheduler,
                    workers=workers,
                    progress=advance,
                )
        except Interrupted as stop:
            stopped_sweep(stop.partial, paths, runs, seed, json_out, lang)
        if out is not None:
            write_table(rows, out)
        if plot is not None:
            from vigile.io.plots import save_figure, sweep_figure

            title = tr("sim.plot.sweep_title", lang, {"scenario": loaded.name, "runs": runs})
            save_figure(sweep_figure(rows, paths, lang, title, runs=runs), plot)
        if json_out:
            sys.stdout.write(json.dumps(sweep_json(rows, runs, seed)) + "\n")
            return
        sys.stdout.write("\n".join(sweep_text(rows, paths)) + "\n")


def say_notice(notice: Notice, *, lang: Lang) -> None:
    """What the simulator says of the model it chose, one line on stderr in ``lang``."""
    sys.stderr.write(tr(f"sim.notice.{notice}", lang) + "\n")


def with_heat(result: SimResult) -> SimResult:
    """The result with its heat map: a simulation the engine played game by game (the d20
    games) tallies none, so its games are played again, with the same seeds, to find where
    they caught their intruders (:func:`vigile.sim.caught.replayed_heat`)."""
    if result.batched or result.tally.heat.any() or result.interrupted:
        return result
    from dataclasses import replace

    from vigile.sim.caught import replayed_heat

    heat, _ = replayed_heat(result.scenario, result.runs, result.seed)
    return replace(result, tally=replace(result.tally, heat=heat))


def check_table_path(out: Path, *, force: bool = False) -> Path:
    """Refuse, before any work, a ``--out`` the table may not be written to (a ``.csv`` only,
    an existing file only with ``--force``; :func:`vigile.io.files.check_target`)."""
    from vigile.io.files import check_target

    return check_target(out, "--out", suffixes=(".csv",), kind="the table", force=force)


def write_table(rows: list[dict[str, float]], out: Path) -> None:
    """The sweep's rows as CSV, written atomically (checked first by :func:`check_table_path`)."""
    import io

    from vigile.io.files import write_text

    buffer = io.StringIO(newline="")
    writer = csv.DictWriter(buffer, fieldnames=list(rows[0]))
    writer.writeheader()
    writer.writerows(rows)
    write_text(out, buffer.getvalue(), option="--out")


def stopped_simulation(partial: SimResult, json_out: bool, lang: Lang) -> NoReturn:
    """Ctrl-C during ``simulate``: print what the runs played so far found (with its
    intervals), then exit with code 130, as a shell does for Ctrl-C."""
    if json_out:
        sys.stdout.write(json_text(partial.as_json()) + "\n")
    else:
        sys.stdout.write("\n".join(simulation_text(partial, lang, None)) + "\n")
    sys.stdout.flush()
    raise typer.Exit(130)


def stopped_sweep(
    partial: SweepPartial, paths: list[str], runs: int, seed: int, json_out: bool, lang: Lang
) -> NoReturn:
    """Ctrl-C during ``sweep``: print the rows of the variants finished, then exit with code
    130 (no table or picture is written)."""
    if json_out:
        found = {**sweep_json(partial.rows, runs, seed), "interrupted": True}
        sys.stdout.write(json.dumps({**found, "variants": partial.variants}) + "\n")
    else:
        lines = [sweep_interrupted_text(len(partial.rows), partial.variants, runs, lang)]
        lines += sweep_text(partial.rows, paths)
        sys.stdout.write("\n".join(lines) + "\n")
    sys.stdout.flush()
    raise typer.Exit(130)
