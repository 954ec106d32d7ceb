"""``vigile run``, ``vigile demo`` and ``vigile scenario …``: play and check scenario files."""

from __future__ import annotations

import json
import sys
from typing import Annotated

import typer

from vigile.cli_common import DiceValuesOpt, JsonOpt, LangOpt
from vigile.dice.source import FaceSource, parse_dice_values
from vigile.errors import InputError
from vigile.io.i18n import Lang

SeedOpt = Annotated[int | None, typer.Option("--seed", help="Seed of the game (replays it).")]
AsOpt = Annotated[
    str | None, typer.Option("--as", metavar="NAME", help="Show only what NAME perceives.")
]
TurnsOpt = Annotated[int | None, typer.Option("--turns", help="Play at most N turns.")]
StepOpt = Annotated[
    bool, typer.Option("--step", help="Type each die at the prompt (Enter rolls it).")
]

scenario_app = typer.Typer(help="Check scenario files.", no_args_is_help=True, add_completion=False)


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
    """Load, play and print a scenario (shared by ``run`` and ``demo``)."""
    from vigile.engine.run import play
    from vigile.engine.views import character_lines, gm_lines, json_lines
    from vigile.scene.loader import load_scenario

    if seed is not None and not 0 <= seed < 2**63:
        raise InputError(f"{seed}: a seed is 0 to 2**63 - 1", where="--seed")
    scenario = load_scenario(source)
    values = parse_dice_values(dice_values) if dice_values is not None else None
    faces: FaceSource | None = None
    if step:
        if values is not None:
            raise InputError("the dice are typed at the prompt, not given", where="--dice-values")
        faces = PromptedFaces(seed if seed is not None else scenario.seed)
    result = play(scenario, seed=seed, dice_values=values, turns=turns, faces=faces)
    if json_out:
        lines = list(json_lines(result, lang, name))
    elif name is not None:
        lines = list(character_lines(result, name, lang))
    else:
        lines = list(gm_lines(result, lang))
    sys.stdout.write("\n".join(lines) + "\n")


class PromptedFaces:
    """The GM types each die at a prompt; an empty answer rolls it (``--step``)."""

    given = True

    def __init__(self, seed: int | None) -> None:
        import numpy as np

        self._rng = np.random.default_rng(seed)

    def face(self, sides: int) -> int:
        while True:
            sys.stderr.write(f"d{sides} (1-{sides}, Enter rolls): ")
            sys.stderr.flush()
            line = sys.stdin.readline()
            if not line:
                raise InputError("no more dice on standard input", where="--step")
            text = line.strip()
            if not text:
                return int(self._rng.integers(1, sides + 1))
            if text.isdigit() and 1 <= int(text) <= sides:
                return int(text)
            sys.stderr.write(f"  {text!r} is not a face of a d{sides}\n")


@scenario_app.command("validate")
def validate(
    file: Annotated[str, typer.Argument(help="A scenario file, or a bundled name.")],
    json_out: JsonOpt = False,
) -> None:
    """Check a scenario file: every error at once, with its line and field."""
    from vigile.scene.loader import scenario_errors

    errors = scenario_errors(file)
    if json_out:
        sys.stdout.write(
            json.dumps({"file": file, "valid": not errors, "errors": [str(e) for e in errors]})
            + "\n"
        )
    elif not errors:
        sys.stdout.write(f"{file}: valid\n")
    if errors:
        if not json_out:
            for error in errors:
                sys.stderr.write(f"{error}\n")
        raise typer.Exit(2)


@scenario_app.command("schema")
def schema() -> None:
    """Print the JSON Schema of scenario files (for editors)."""
    from vigile.scene.schema import scenario_json_schema

    sys.stdout.write(json.dumps(scenario_json_schema(), indent=1) + "\n")


@scenario_app.command("list")
def list_bundled(json_out: JsonOpt = False) -> None:
    """The bundled scenarios, usable by name wherever a file is expected."""
    from vigile.scene.loader import bundled_names, load_scenario

    rows = [(name, load_scenario(name)) for name in bundled_names()]
    if json_out:
        sys.stdout.write(
            json.dumps([{"name": n, "ruleset": s.ruleset.value, "title": s.name} for n, s in rows])
            + "\n"
        )
        return
    for name, scenario in rows:
        sys.stdout.write(f"{name:<26} {scenario.ruleset.value:<10} {scenario.name}\n")


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
            from vigile.demo import run_demo

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
