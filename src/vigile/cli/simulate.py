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
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer

from vigile.cli.common import check_seed
from vigile.cli.options import JsonOpt, LangOpt, json_text
from vigile.io.i18n import Lang, number_text, tr
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


ModelOpt = Annotated[
    str,
    typer.Option(
        "--model",
        help="auto: the compiled kernel where it is compiled or worth compiling, else the turn "
        "engine; kernel or engine: that model (the same seed gives the same numbers with the "
        "same model).",
    ),
]


class Bar:
    """What a simulation's progress is shown on (called with the runs done, as the simulator's
    ``progress``), and the seconds a first compile of the kernel has taken, against about how
    long it takes (:attr:`expected`)."""

    def __init__(self, progress: Any = None, label: str = "") -> None:
        self._progress = progress
        self._runs = None if progress is None else progress.add_task(label, total=None)
        self._compile: Any = None
        self.expected = 0.0
        self.compile_label = ""

    def __call__(self, done: int) -> None:
        if self._progress is None:
            return
        if self._compile is not None:
            self._progress.remove_task(self._compile)
            self._compile = None
            self._progress.update(self._runs, visible=True)
        self._progress.advance(self._runs, done)

    def total(self, total: int) -> None:
        if self._progress is not None:
            self._progress.update(self._runs, total=total)

    def compiling(self, elapsed: float) -> None:
        """The compile has taken ``elapsed`` seconds (the bar fills over :attr:`expected`)."""
        if self._progress is None:
            return
        most = max(1.0, self.expected)
        if self._compile is None:
            self._compile = self._progress.add_task(self.compile_label, total=most)
            self._progress.update(self._runs, visible=False)
        self._progress.update(self._compile, completed=min(elapsed, 0.99 * most))


@contextmanager
def progress_bar(total: int, label: str) -> Iterator[Callable[[int], None]]:
    """A progress bar on the terminal's stderr (a :class:`Bar`); nothing when stderr is not a
    terminal."""
    if not sys.stderr.isatty():
        yield Bar()
        return
    from rich.console import Console
    from rich.progress import Progress

    with Progress(console=Console(stderr=True), transient=True) as progress:
        bar = Bar(progress, label)
        bar.total(total)
        yield bar


def _compile_bar(advance: Callable[[int], None], lang: Lang) -> Bar | None:
    """The :class:`Bar` behind ``advance``, told its compile label; None for another."""
    if not isinstance(advance, Bar):
        return None
    advance.compile_label = tr("sim.progress_text.compile", lang)
    return advance


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
        model: ModelOpt = "auto",
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
        from vigile.sim.warmup import CompileInterrupted

        try:
            with progress_bar(runs, tr("sim.progress_text.run", lang)) as advance:
                bar = _compile_bar(advance, lang)
                result = run_simulation(
                    loaded,
                    runs,
                    seed=seed,
                    workers=workers,
                    source=scenario,
                    progress=advance,
                    notify=functools.partial(say_notice, lang=lang, runs=runs, bar=bar),
                    model=model,
                    compiling=bar.compiling if bar is not None else None,
                )
        except CompileInterrupted:
            sys.stderr.write(tr("sim.notice.compile_interrupted", lang) + "\n")
            raise typer.Exit(130) from None
        except Interrupted as stop:
            stopped_simulation(stop.partial, json_out, lang)
        if plot is not None:
            from vigile.io.plots import heat_figure, picture_folder, save_figure

            notes: list[str] = []
            folder = picture_folder(scenario)
            save_figure(heat_figure(with_heat(result), lang, folder=folder, notes=notes), plot)
            for note in notes:
                sys.stderr.write(note + "\n")
        if json_out:
            sys.stdout.write(json_text(result.as_json()) + "\n")
            return
        sys.stdout.write("\n".join(simulation_text(result, lang, plot)) + "\n")

    @app.command()
    def sweep(
        scenario: Annotated[str, typer.Argument(help="A scenario file, or a bundled name.")],
        vary: Annotated[
            list[str] | None,
            typer.Option(
                "--vary",
                metavar="PATH=START..STOP:STEP",
                help="A field to vary (an axis of the grid); fields varied together joined by "
                "commas: A,B=10..50:10 or A=10..50:10,B=20..60:10.",
            ),
        ] = None,
        find: Annotated[
            str | None,
            typer.Option(
                "--find",
                metavar="PATH=LO..HI[:RESOLUTION]",
                help="Search this numeric field for the value that gives --target (bisection, "
                "each step a simulation of --runs runs with the same seed), instead of --vary.",
            ),
        ] = None,
        target: Annotated[
            str | None,
            typer.Option(
                "--target",
                metavar="OUTCOME=P",
                help="With --find: an outcome (or detected) and its chance, e.g. "
                "objective_unseen=0.5.",
            ),
        ] = None,
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
        scheduler (--scheduler, the sweep extra); or, with --find and --target, search a field
        for the value that gives a chance."""
        from vigile.errors import InputError
        from vigile.io.plots import check_plot_path
        from vigile.scene.loader import load_scenario
        from vigile.sim.executors import Interrupted
        from vigile.sim.sweep import Find, Vary, run_sweep, variant_count

        check_seed(seed)
        if find is not None or target is not None:
            if vary:
                raise InputError(
                    "--find searches one field: give it without --vary", where="--find"
                )
            if find is None or target is None:
                raise InputError("--find and --target go together", where="--find")
            if scheduler is not None or out is not None or plot is not None:
                raise InputError(
                    "--find plays its steps one after the other on this machine and writes no "
                    "table or picture: drop --scheduler, --out and --plot",
                    where="--find",
                )
            find_and_say(scenario, Find.parse(find, target), runs, seed, json_out, lang)
            return
        if not vary:
            raise InputError(
                "give a field to vary (--vary), or --find and --target", where="--vary"
            )
        varies = [Vary.parse(v) for v in vary]
        if out is not None:
            check_table_path(out, force=force)
        if plot is not None:
            check_plot_path(plot, force=force)
        loaded = load_scenario(scenario)
        count = variant_count(varies)  # refused over the limit before any variant is built
        from vigile.sim.simulate import settle_model
        from vigile.sim.warmup import CompileInterrupted

        paths = [path for v in varies for path in v.paths]
        leads = [v.path for v in varies]  # one per axis: what the picture draws along
        try:
            with progress_bar(count, tr("sim.progress_text.sweep", lang)) as advance:
                bar = _compile_bar(advance, lang)
                # one model for every variant, settled (and compiled) here, once
                _, choice = settle_model(
                    loaded,
                    runs * count,
                    workers=workers,
                    remote=scheduler is not None,
                    notify=functools.partial(say_notice, lang=lang, runs=runs * count, bar=bar),
                    compiling=bar.compiling if bar is not None else None,
                    limit=False,
                )
                rows = run_sweep(
                    loaded,
                    varies,
                    runs,
                    seed=seed,
                    scheduler=scheduler,
                    workers=workers,
                    progress=advance,
                    model="auto" if choice.kernel else "engine",
                )
        except CompileInterrupted:
            sys.stderr.write(tr("sim.notice.compile_interrupted", lang) + "\n")
            raise typer.Exit(130) from None
        except Interrupted as stop:
            stopped_sweep(stop.partial, paths, runs, seed, json_out, lang)
        if out is not None:
            write_table(rows, out)
        if plot is not None:
            from vigile.io.plots import save_figure, sweep_figure

            title = tr("sim.plot.sweep_title", lang, {"scenario": loaded.name, "runs": runs})
            together = {v.path: v.paths[1:] for v in varies if v.also}
            figure = sweep_figure(rows, leads, lang, title, runs=runs, together=together)
            save_figure(figure, plot)
        if json_out:
            sys.stdout.write(json.dumps(sweep_json(rows, runs, seed)) + "\n")
            return
        sys.stdout.write("\n".join(sweep_text(rows, paths)) + "\n")


def find_and_say(
    scenario: str, find: Any, runs: int, seed: int, json_out: bool, lang: Lang
) -> None:
    """``sweep --find``: the search (:func:`vigile.sim.sweep.search`), each step's simulation
    by the model settled once here, then its answer as text or JSON."""
    from vigile.io.sim_text import find_text
    from vigile.scene.loader import load_scenario
    from vigile.sim.executors import Interrupted
    from vigile.sim.simulate import settle_model
    from vigile.sim.sweep import MAX_FIND_STEPS, search
    from vigile.sim.warmup import CompileInterrupted

    loaded = load_scenario(scenario)
    played: list[int] = []

    def step_done(done: int) -> None:
        played.append(done)
        advance(done)

    try:
        with progress_bar(MAX_FIND_STEPS, tr("sim.progress_text.sweep", lang)) as advance:
            bar = _compile_bar(advance, lang)
            _, choice = settle_model(
                loaded,
                runs,
                notify=functools.partial(say_notice, lang=lang, runs=runs, bar=bar),
                compiling=bar.compiling if bar is not None else None,
            )
            found = search(
                loaded,
                find,
                runs,
                seed=seed,
                model="auto" if choice.kernel else "engine",
                progress=step_done,
            )
    except CompileInterrupted:
        sys.stderr.write(tr("sim.notice.compile_interrupted", lang) + "\n")
        raise typer.Exit(130) from None
    except Interrupted:
        sys.stderr.write(tr("sim.find.interrupted", lang, {"steps": len(played)}) + "\n")
        raise typer.Exit(130) from None
    if json_out:
        sys.stdout.write(json_text({"scenario": loaded.name, **found.as_json()}) + "\n")
        return
    sys.stdout.write("\n".join(find_text(found, loaded.name, lang)) + "\n")


def say_notice(
    notice: Notice, seconds: float = 0.0, *, lang: Lang, runs: int = 0, bar: Bar | None = None
) -> None:
    """What the simulator says of the model it chose, one line on stderr in ``lang``, with
    about how long its wait takes (``seconds``), at once (piped too)."""
    rounded = max(5, 5 * round(seconds / 5)) if seconds >= 5 else max(1, round(seconds))
    words = {"seconds": rounded, "runs": number_text(runs, lang, ",")}
    if bar is not None and notice == "compiling":
        bar.expected = seconds
    sys.stderr.write(tr(f"sim.notice.{notice}", lang, words) + "\n")
    sys.stderr.flush()


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
