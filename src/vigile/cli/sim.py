"""``vigile riskmap …`` and ``vigile route …``: exact risk maps and the safest route, every game.

Thin: it parses, asks the registry for the scenario's game's risk map (its plug-in's
``riskmap``), calls it and the route, renders with :mod:`vigile.io.risk_out` (text, JSON)
and :mod:`vigile.io.plots` (a picture). Each command is a plain function on :data:`app`;
``vigile`` registers them as top-level commands. A user error is one line on stderr and exit
code 2, here as in ``vigile.cli.main``.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from vigile.cli.options import JsonOpt, LangOpt, json_text
from vigile.errors import InputError, VigileError
from vigile.io.i18n import Lang
from vigile.io.risk_out import riskmap_json, riskmap_text, route_json, route_text

if TYPE_CHECKING:
    from vigile.games.contract import RiskSurface as RiskMap
    from vigile.games.skirmish.route import Route
    from vigile.scene.model import Scenario

app = typer.Typer(
    help="Exact risk maps and the safest route over a board, for every game.",
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
        "--resolution",
        metavar="CM",
        help="Skirmish: cell size in cm (default: 1 cm, coarser on big boards); "
        "d20 games: 5-ft squares.",
    ),
]
AttitudeHelp = (
    "How the intruder moves. Skirmish (SK-V3): immobile, hidden, half, fast; "
    "d20 games: still, half, full, run."
)
LayerOpt = Annotated[
    str | None,
    typer.Option(
        "--layer",
        metavar="LAYER",
        help="d20 games: either (noticed or heard, the default), noticed, heard (DD-5).",
    ),
]
PlotOpt = Annotated[
    Path | None, typer.Option("--plot", metavar="FILE", help="Draw it: FILE.png or FILE.svg.")
]
ForceOpt = Annotated[
    bool, typer.Option("--force", help="Replace an existing --plot or --out file.")
]
PatrolsOpt = Annotated[
    bool,
    typer.Option(
        "--patrols",
        help="Let the patrols walk: the chance averaged over sampled walks of the patrols "
        "(the game's own patrol step), beside the map with the guards held still.",
    ),
]
PatrolSamplesOpt = Annotated[
    int | None,
    typer.Option(
        "--patrol-samples",
        metavar="N",
        help="With --patrols: draws of the patrols' walk (default 64).",
    ),
]
PatrolTurnsOpt = Annotated[
    int | None,
    typer.Option(
        "--turns",
        metavar="T",
        help="With --patrols: the turns averaged, 1 to T (default 3, or the scenario's turns).",
    ),
]
PatrolSeedOpt = Annotated[
    int | None,
    typer.Option("--seed", metavar="S", help="With --patrols: the draws' seed (default 0)."),
]
UnsuitedOpt = Annotated[
    bool,
    typer.Option("--unsuited-outfit", help="The intruder's clothes are ill-suited (SK-V4)."),
]


@contextmanager
def _user_errors() -> Iterator[None]:
    """A VigileError becomes one line on stderr and exit code 2 (in the language the command
    line names: ``vigile : erreur : ...`` with ``--lang fr``)."""
    try:
        yield
    except VigileError as error:
        from vigile.cli.errors import error_line, error_text
        from vigile.cli.options import help_lang

        error_line(error_text(error, help_lang()), help_lang())
        raise typer.Exit(2) from None


@app.command()
def riskmap(
    scenario: ScenarioArg,
    attitude: Annotated[str, typer.Option("--attitude", metavar="WAY", help=AttitudeHelp)],
    noise: Annotated[
        str | None,
        typer.Option(
            "--noise",
            metavar="EVENT",
            help="Map the chance this sound is heard, in the game's words (skirmish: SK-N1).",
        ),
    ] = None,
    layer: LayerOpt = None,
    resolution: ResolutionOpt = None,
    unsuited_outfit: UnsuitedOpt = False,
    patrols: PatrolsOpt = False,
    patrol_samples: PatrolSamplesOpt = None,
    turns: PatrolTurnsOpt = None,
    seed: PatrolSeedOpt = None,
    plot: PlotOpt = None,
    force: ForceOpt = False,
    json_out: JsonOpt = False,
    lang: LangOpt = Lang.EN,
) -> None:
    """The exact chance of being seen (or heard) in one turn at each point of the board;
    with --patrols, its average over sampled walks of the patrols."""
    with _user_errors():
        if plot is not None:
            _check_plot(plot, force)
        loaded = _load(scenario)
        found = _risk_map(
            loaded,
            attitude,
            resolution=resolution,
            noise=noise,
            unsuited=unsuited_outfit,
            layer=layer,
            walks=_walks(patrols, patrol_samples, turns, seed),
        )
        if plot is not None:
            _plot(found, plot, lang, scenario=scenario)
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
    attitude: Annotated[str, typer.Option("--attitude", metavar="WAY", help=AttitudeHelp)] = "half",
    layer: LayerOpt = None,
    resolution: ResolutionOpt = None,
    unsuited_outfit: UnsuitedOpt = False,
    patrols: PatrolsOpt = False,
    patrol_samples: PatrolSamplesOpt = None,
    turns: PatrolTurnsOpt = None,
    seed: PatrolSeedOpt = None,
    plot: PlotOpt = None,
    write_plan: Annotated[
        str | None,
        typer.Option(
            "--write-plan",
            metavar="ACTOR",
            help="Write the route into this attacker's plan: the legs from --from to --to.",
        ),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out", metavar="FILE", help="Where --write-plan writes (YAML; may be SCENARIO)."
        ),
    ] = None,
    force: ForceOpt = False,
    json_out: JsonOpt = False,
    lang: LangOpt = Lang.EN,
) -> None:
    """The route with the least chance of being seen, from --from to --to; with --patrols,
    the least over the patrols' sampled walks."""
    with _user_errors():
        from vigile.games.skirmish.route import safest_route

        walks = _walks(patrols, patrol_samples, turns, seed)
        goal = parse_point(to, "--to")
        origin = parse_point(start, "--from") if start is not None else None
        if (write_plan is None) != (out is None):
            raise InputError(
                "--write-plan ACTOR and --out FILE go together",
                where="--out" if write_plan is not None else "--write-plan",
            )
        if out is not None:
            _check_out(out, scenario, force)
        if plot is not None:
            _check_plot(plot, force)
        loaded = _load(scenario)
        span = None
        if write_plan is not None:
            origin = _plan_start(loaded, write_plan, origin)
            span = _plan_span(loaded, write_plan, origin, goal)
        if origin is None:
            raise InputError("give where the route starts, X,Y", where="--from")
        found = _risk_map(
            loaded,
            attitude,
            resolution=resolution,
            unsuited=unsuited_outfit,
            layer=layer,
            actor=write_plan,
            walks=walks,
        )
        best = safest_route(found, origin, goal)
        if write_plan is not None and out is not None and span is not None:
            _write_plan(scenario, loaded, (found, best), write_plan, span, out)
        if plot is not None:
            _plot(found, plot, lang, best, scenario=scenario)
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


def _risk_map(
    scenario: Scenario,
    attitude: str,
    *,
    resolution: float | None = None,
    layer: str | None = None,
    actor: str | None = None,
    noise: str | None = None,
    unsuited: bool = False,
    walks: tuple[int, int | None, int] | None = None,
) -> RiskMap:
    """The scenario's game's risk map (its plug-in's typed hook,
    :class:`vigile.games.contract.RiskMapHook`), asked with the options given, in the game's
    words: the game refuses what it has no rule for. ``walks``: (draws, turns, seed) of the
    patrols' walk, for the moving-patrol map (:mod:`vigile.games.patrol_risk`)."""
    from vigile.games.contract import RiskRequest, risk_map

    _keep_freed_memory()
    request = RiskRequest(
        attitude,
        resolution=resolution,
        layer=layer,
        actor=actor,
        sound=noise,
        switches=frozenset({"unsuited-outfit"} if unsuited else ()),
    )
    if walks is not None:
        from vigile.games.patrol_risk import patrol_risk_map

        samples, turns, seed = walks
        return patrol_risk_map(scenario, request, samples=samples, turns=turns, seed=seed)
    return risk_map(scenario, request)


MMAP_THRESHOLD = 32 << 20
"""Arrays up to this size (bytes) come from the heap, not a mapping of their own."""
TRIM_THRESHOLD = 256 << 20
"""Freed heap memory up to this size stays with the process."""
_KEPT: list[bool] = []


def _keep_freed_memory() -> None:
    """Have the C allocator (glibc's ``mallopt``) reuse the memory a map frees: a map is
    computed in arrays of some megabytes, each of which glibc would otherwise map anew and
    hand back when freed, so that every page of the next one faults again (the kernel zeroes
    it), a large share of a skirmish map's CPU time (figures: ``bench/map_startup.py`` and its
    commit). Once per process, on Linux only; elsewhere the allocator is left as it is."""
    if _KEPT or not sys.platform.startswith("linux"):
        return
    _KEPT.append(True)
    import ctypes

    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):  # not glibc (musl has it, as a no-op)
        return
    mallopt(-3, MMAP_THRESHOLD)  # M_MMAP_THRESHOLD: fixed, no longer raised as maps are freed
    mallopt(-1, TRIM_THRESHOLD)  # M_TRIM_THRESHOLD


def _walks(
    patrols: bool, samples: int | None, turns: int | None, seed: int | None
) -> tuple[int, int | None, int] | None:
    """(draws, turns, seed) of the patrols' walk with --patrols; its options alone refused."""
    if not patrols:
        for option, value in (("--patrol-samples", samples), ("--turns", turns), ("--seed", seed)):
            if value is not None:
                raise InputError("only with --patrols", where=option)
        return None
    from vigile.games.patrol_risk import DEFAULT_SAMPLES

    return (DEFAULT_SAMPLES if samples is None else samples), turns, (seed or 0)


def _load(source: str) -> Scenario:
    from vigile.scene.loader import load_scenario

    return load_scenario(source)


def _check_plot(path: Path, force: bool) -> None:
    from vigile.io.plots import check_plot_path

    check_plot_path(path, force=force)


def _source(scenario: str) -> Path:
    """The file a scenario argument names (a bundled name: the bundled file)."""
    from vigile.scene.loader import bundled_names, bundled_path

    path = Path(scenario)
    if scenario in bundled_names() and not path.exists():
        return bundled_path(scenario)
    return path


def _check_out(out: Path, scenario: str, force: bool) -> None:
    """``--out`` may replace an existing file with --force, or its own scenario file."""
    from vigile.io.files import check_target, same_file

    check_target(
        out,
        "--out",
        suffixes=(".yaml", ".yml"),
        kind="the scenario",
        force=force,
        may_replace=same_file(out, _source(scenario)),
    )


def _plot(
    found: RiskMap, path: Path, lang: Lang, best: Route | None = None, *, scenario: str
) -> None:
    """The picture, the map's own picture beneath (a note on stderr where it is missing)."""
    from vigile.io.plots import picture_folder, risk_figure, save_figure

    notes: list[str] = []
    figure = risk_figure(found, lang, route=best, folder=picture_folder(scenario), notes=notes)
    save_figure(figure, path)
    for note in notes:
        sys.stderr.write(note + "\n")


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
    return origin if origin is not None else (float(who.position[0]), float(who.position[1]))


def _plan_span(
    scenario: Scenario, actor: str, origin: tuple[float, float], goal: tuple[float, float]
) -> tuple[int, int | None]:
    from vigile.games.skirmish.route import plan_span

    return plan_span(scenario, actor, origin, goal)


def _write_plan(
    source: str,
    scenario: Scenario,
    found: tuple[RiskMap, Route],
    actor: str,
    span: tuple[int, int | None],
    out: Path,
) -> None:
    """The scenario's own text with the route in ``actor``'s plan, written atomically: only
    the legs of ``span`` change; comments and layout are kept (scenario_with_plan)."""
    import yaml

    from vigile.games.skirmish.route import check_attitudes, plan_legs, scenario_with_plan
    from vigile.io.files import write_text
    from vigile.scene.reading import Refused, format_of, parse, read_text

    path = _source(source)
    try:
        text = read_text(path)
        if format_of(path) == "toml":  # written as YAML: TOML's comments cannot follow
            text = yaml.safe_dump(parse(text, "toml")[0], sort_keys=False, allow_unicode=True)
    except Refused as refused:  # pragma: no cover - it was read a moment ago
        raise InputError(f"{path}: {refused.message}", where="SCENARIO") from None
    riskmap, best = found
    legs = plan_legs(best, riskmap)
    check_attitudes(scenario, actor, legs, span)
    written = scenario_with_plan(text, scenario, actor, legs, span)
    write_text(out, written, option="--out")


def _print_json(data: dict[str, Any]) -> None:
    sys.stdout.write(json_text(data) + "\n")
