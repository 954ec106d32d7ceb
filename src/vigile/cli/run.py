"""``vigile run``, ``vigile demo`` and ``vigile scenario …``: play and check scenario files."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING, Annotated

import typer

from vigile.cli.common import DiceValuesOpt, check_seed
from vigile.cli.options import JsonOpt, LangOpt
from vigile.cli.scenario_import import import_command
from vigile.cli.scenario_set import SET_SETTINGS, set_command
from vigile.dice.source import FaceSource, GivenFaces, OutOfDice, parse_dice_values
from vigile.errors import InputError, VigileError
from vigile.io.i18n import Lang, tr
from vigile.io.safe import printable

if TYPE_CHECKING:
    from vigile.checks.verdict import Verdict
    from vigile.engine.events import Event
    from vigile.engine.game import Game

SeedOpt = Annotated[int | None, typer.Option("--seed", help="Seed of the game (replays it).")]
AsOpt = Annotated[
    str | None, typer.Option("--as", metavar="NAME", help="Show only what NAME perceives.")
]
TurnsOpt = Annotated[int | None, typer.Option("--turns", help="Play at most N turns.")]
StepOpt = Annotated[
    bool, typer.Option("--step", help="Type each die at the prompt (Enter rolls it).")
]

scenario_app = typer.Typer(help="Check scenario files.", no_args_is_help=True, add_completion=False)
scenario_app.command("import")(import_command)
scenario_app.command("set", context_settings=SET_SETTINGS)(set_command)


def run_scenario(
    source: str,
    *,
    seed: int | None,
    name: str | None,
    turns: int | None,
    step: bool,
    json_out: bool,
    lang: Lang,
    dice_values: str | None,
) -> None:
    """Load, play and print a scenario (shared by ``run`` and ``demo``).

    A game with no seed (neither ``--seed`` nor the scenario's) draws one from the OS entropy
    and prints it, when the game used it, so that ``--seed`` replays it. With ``--step`` the log
    is printed as it goes and each die is asked for at a prompt, after the check it is for. When
    play stops half-way (the GM's dice run out, standard input ends, Ctrl-C), the log so far is
    printed, then why it stopped: one error line (exit 2), or, for Ctrl-C, exit 130.
    """
    from vigile.engine.run import check_turns, new_game, play_game
    from vigile.io.views import character_name
    from vigile.scene.loader import load_scenario

    check_seed(seed)
    check_turns(turns)
    scenario = load_scenario(source)
    values = parse_dice_values(dice_values) if dice_values is not None else None
    drawn: int | None = None
    if seed is None and scenario.seed is None:
        import secrets

        drawn = seed = secrets.randbelow(2**32)
    faces: FaceSource | None = None
    if step:
        if values is not None:
            raise InputError("the dice are typed at the prompt, not given", where="--dice-values")
        faces = PromptedFaces(seed if seed is not None else scenario.seed, lang)
    elif values is not None:
        faces = GivenFaces(values)
    elif scenario.dice_values is not None:
        faces = GivenFaces(scenario.dice_values, where="dice_values")
    game = new_game(scenario, seed=seed, faces=faces)
    if name is not None:
        name = character_name(game.walkers, name)
    log = GameLog(lang, name, json_out, seed=drawn)
    if step:
        log.write(log.view.header(game.walkers))
    state = game.rng.bit_generator.state

    def forget_unused_seed() -> None:
        if not step and game.rng.bit_generator.state == state:
            log.view.seed = None  # the game drew nothing: its seed does not matter

    try:
        result = play_game(game, turns, log.stream if step else None)
    except KeyboardInterrupt:
        forget_unused_seed()
        log.stopped(game, "engine.run.interrupted", streamed=step)
        raise typer.Exit(130) from None
    except OutOfDice as error:
        forget_unused_seed()
        log.stopped(game, "engine.run.stopped", streamed=step)
        raise _out_of_dice(error, lang) from None
    except VigileError:
        forget_unused_seed()
        log.stopped(game, "engine.run.stopped", streamed=step)
        raise
    if step:
        log.write(log.view.end(result))
        return
    forget_unused_seed()
    log.write(log.view.whole(result))
    if isinstance(faces, GivenFaces):
        cut = turns is not None and result.outcome.kind == "turn_limit"
        if faces.used < faces.count and not cut:
            raise InputError(
                tr("engine.run.left_over", lang, {"given": faces.count, "used": faces.used}),
                where=faces.where,
            )


def _out_of_dice(error: OutOfDice, lang: Lang) -> InputError:
    """The GM's dice ran out: name the check and who needed the die, in the GM's language."""
    if error.question is None or error.who is None:
        return error
    params = {"given": error.given, "who": error.who, "question": tr(error.question, lang)}
    return InputError(tr("engine.run.out_of_dice", lang, params), where=error.where)


class GameLog:
    """The log of one game as ``vigile run`` prints it: whole at the end, or event by event
    (``--step``); its lines come from :class:`vigile.io.views.LogView`."""

    def __init__(self, lang: Lang, name: str | None, json_out: bool, *, seed: int | None) -> None:
        from vigile.io.views import LogView

        self.view = LogView(lang, name, json_out, seed=seed)

    @staticmethod
    def write(lines: Iterable[str]) -> None:
        for line in lines:
            sys.stdout.write(line + "\n")
        sys.stdout.flush()

    def stream(self, event: Event) -> None:
        """Print one event as soon as it is logged (``Game.on_event``)."""
        self.write(self.view.event(event))

    def stopped(self, game: Game, why: str, *, streamed: bool) -> None:
        """Play stopped half-way: the log so far (unless already printed), then why."""
        if not streamed:
            lines = self.view.header(game.walkers)
            for event in game.events:
                lines += self.view.event(event)
            self.write(lines)
        if not self.view.json:
            self.write(["", tr(why, self.view.lang, {"turn": game.turn})])


class PromptedFaces:
    """The GM types each die at a prompt, told first which check it is for; an empty answer
    rolls it (``--step``)."""

    given = True

    def __init__(self, seed: int | None, lang: Lang = Lang.EN) -> None:
        import numpy as np

        self._rng = np.random.default_rng(seed)
        self._lang = lang

    def announce(self, verdict: Verdict, who: str) -> None:
        """Tell the GM the check about to be rolled: who, what, the difficulty and the odds."""
        from vigile.io.text import summary_line

        if verdict.automatic or verdict.impossible:
            return  # no die to ask for
        params = {
            "who": who,
            "question": tr(verdict.question, self._lang),
            "summary": summary_line(verdict, self._lang),
        }
        sys.stderr.write(tr("engine.run.check", self._lang, params) + "\n")

    def face(self, sides: int) -> int:
        while True:
            sys.stderr.write(tr("engine.run.prompt", self._lang, {"sides": sides}))
            sys.stderr.flush()
            line = sys.stdin.readline()
            if not line:
                raise InputError("no more dice on standard input", where="--step")
            text = line.strip()
            if not text:
                return int(self._rng.integers(1, sides + 1))
            if text.isdigit() and 1 <= int(text) <= sides:
                return int(text)
            message = tr("engine.run.not_a_face", self._lang, {"text": repr(text), "sides": sides})
            sys.stderr.write(f"  {message}\n")


@scenario_app.command("validate")
def validate(
    file: Annotated[str, typer.Argument(help="A scenario file, or a bundled name.")],
    json_out: JsonOpt = False,
    lang: LangOpt = Lang.EN,
) -> None:
    """Check a scenario file: every error at once, with its line and field."""
    from vigile.io.i18n import issue_line
    from vigile.scene.loader import scenario_errors

    errors = scenario_errors(file)
    if json_out:
        shown = [issue_line(e, lang) for e in errors]
        sys.stdout.write(json.dumps({"file": file, "valid": not errors, "errors": shown}) + "\n")
    elif not errors:
        sys.stdout.write(tr("cli.valid", lang, {"file": printable(file)}) + "\n")
    if errors:
        if not json_out:
            for error in errors:
                sys.stderr.write(f"{printable(issue_line(error, lang))}\n")
        raise typer.Exit(2)


@scenario_app.command("schema")
def schema(
    ruleset: Annotated[
        str | None,
        typer.Option(
            "--ruleset",
            help="One game's schema: its own actor fields and plan actions too.",
        ),
    ] = None,
) -> None:
    """Print the JSON Schema of scenario files (for editors)."""
    from vigile import registry
    from vigile.scene.schema import scenario_json_schema

    if ruleset is not None:
        registry.get(ruleset, where="--ruleset")
    sys.stdout.write(json.dumps(scenario_json_schema(ruleset), indent=1) + "\n")


@scenario_app.command("list")
def list_bundled(json_out: JsonOpt = False) -> None:
    """The bundled scenarios, usable by name wherever a file is expected."""
    from vigile.scene.loader import bundled_names, load_scenario

    rows = [(name, load_scenario(name)) for name in bundled_names()]
    if json_out:
        sys.stdout.write(
            json.dumps([{"name": n, "ruleset": s.ruleset, "title": s.name} for n, s in rows]) + "\n"
        )
        return
    for name, scenario in rows:
        sys.stdout.write(f"{name:<26} {scenario.ruleset:<10} {scenario.name}\n")


def register(app: typer.Typer) -> None:
    """Add ``run``, ``demo`` and ``scenario`` to the main command."""

    @app.command()
    def run(
        scenario: Annotated[str, typer.Argument(help="A scenario file, or a bundled name.")],
        seed: SeedOpt = None,
        as_name: AsOpt = None,
        turns: TurnsOpt = None,
        step: StepOpt = False,
        json_out: JsonOpt = False,
        lang: LangOpt = Lang.EN,
        dice_values: DiceValuesOpt = None,
    ) -> None:
        """Play a scenario turn by turn: the GM's log, or one character's view (--as)."""
        run_scenario(
            scenario,
            seed=seed,
            name=as_name,
            turns=turns,
            step=step,
            json_out=json_out,
            lang=lang,
            dice_values=dice_values,
        )

    @app.command()
    def demo(
        seed: SeedOpt = None,
        as_name: AsOpt = None,
        turns: TurnsOpt = None,
        step: StepOpt = False,
        json_out: JsonOpt = False,
        lang: LangOpt = Lang.EN,
        dice_values: DiceValuesOpt = None,
        tour: Annotated[
            bool, typer.Option("--tour", help="A tour of single checks (the worked examples).")
        ] = False,
    ) -> None:
        """The bundled night raid (same options as run); --tour for single checks."""
        if tour:
            from vigile.cli.demo import run_demo

            check_seed(seed)
            run_demo(lang, seed if seed is not None else 7, as_json=json_out)
            return
        run_scenario(
            "night-raid",
            seed=seed,
            name=as_name,
            turns=turns,
            step=step,
            json_out=json_out,
            lang=lang,
            dice_values=dice_values,
        )

    app.add_typer(scenario_app, name="scenario")
