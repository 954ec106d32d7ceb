"""``vigile check toy glimpse``."""

from __future__ import annotations

import json
import sys

import typer

from toygame.check import glimpse_check
from vigile.dice.source import RolledFaces
from vigile.rulesets.data import shipped

app = typer.Typer(help="The toy game's checks.", no_args_is_help=True, add_completion=False)


@app.command()
def glimpse(seed: int = typer.Option(0, "--seed")) -> None:
    """Does the watcher glimpse the sneak? (TOY-1)"""
    import numpy as np

    verdict = glimpse_check(shipped("toy"), source=RolledFaces(np.random.default_rng(seed)))
    sys.stdout.write(
        json.dumps(
            {"check": verdict.check, "chance": str(verdict.chance), "success": verdict.success}
        )
        + "\n"
    )


@app.command()
def odds() -> None:
    """The exact chance of a glimpse."""
    sys.stdout.write(f"{glimpse_check(shipped('toy')).chance}\n")
