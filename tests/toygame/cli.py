"""``vigile check toy glimpse`` and ``vigile check toy odds``: the toy game's check commands."""

from __future__ import annotations

import json
import sys

import numpy as np
import typer

from toygame.check import glimpse_check
from vigile.dice.source import RolledFaces
from vigile.io.i18n import lang_of
from vigile.io.json_out import verdict_json
from vigile.io.text import explain
from vigile.rulesets.data import shipped

app = typer.Typer(help="The toy game's checks.", no_args_is_help=True, add_completion=False)


@app.command()
def glimpse(
    distance: float = typer.Option(0.0, "--distance", help="How far the sneak is (cm, TOY-2)."),
    no_sight: bool = typer.Option(False, "--no-sight", help="A wall between them (TOY-2)."),
    seed: int | None = typer.Option(None, "--seed", help="Roll the die with this seed."),
    as_json: bool = typer.Option(False, "--json", help="The verdict as JSON."),
    lang: str = typer.Option("en", "--lang", help="fr or en."),
) -> None:
    """Does the watcher glimpse the sneak? (TOY-1, TOY-2)"""
    source = None if seed is None else RolledFaces(np.random.default_rng(seed))
    verdict = glimpse_check(shipped("toy"), distance=distance, in_sight=not no_sight, source=source)
    if as_json:
        sys.stdout.write(json.dumps(verdict_json(verdict, lang_of(lang))) + "\n")
    else:
        sys.stdout.write("\n".join(explain(verdict, lang_of(lang))) + "\n")


@app.command()
def odds() -> None:
    """The exact chance of a glimpse."""
    sys.stdout.write(f"{glimpse_check(shipped('toy')).chance}\n")
