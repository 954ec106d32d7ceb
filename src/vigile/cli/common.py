"""What every ``vigile check`` command shares: the common options, rolling, printing.

The CLI is thin: it parses, calls the library, renders. Options are typed aliases so each
command lists them in its own signature (the contract of the README) without repeating help.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

import typer

from vigile.checks.verdict import Verdict
from vigile.dice.source import FaceSource, GivenFaces, RolledFaces, parse_dice_values
from vigile.errors import InputError
from vigile.io.i18n import Lang
from vigile.io.text import View
from vigile.rulesets.data import RuleData, load

MAX_SEED = 2**63 - 1

RollOpt = Annotated[bool, typer.Option("--roll", help="Roll the dice (with --seed to replay).")]
DiceValuesOpt = Annotated[
    str | None,
    typer.Option(
        "--dice-values",
        metavar="V,V,...",
        help="The GM's own dice, in order (a die that must chain takes the next values).",
    ),
]
SeedOpt = Annotated[int | None, typer.Option("--seed", help="Seed of the roll (implies --roll).")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON object.")]
LangOpt = Annotated[Lang, typer.Option("--lang", help="Language of the explanation.")]
ViewOpt = Annotated[
    View, typer.Option("--view", help="gm: everything; player: what the character knows.")
]
HouseRulesOpt = Annotated[
    Path | None,
    typer.Option("--house-rules", metavar="FILE", help="TOML file overriding rule numbers."),
]


@dataclass(frozen=True)
class Common:
    """The options every check takes."""

    roll: bool = False
    dice_values: str | None = None
    seed: int | None = None
    json: bool = False
    lang: Lang = Lang.EN
    house_rules: Path | None = None
    view: View = "gm"

    def face_source(self) -> FaceSource | None:
        """Where the faces come from: the GM's dice, a seeded generator, or nowhere (odds only)."""
        if self.dice_values is not None:
            if self.roll or self.seed is not None:
                flag = "--roll" if self.roll else "--seed"
                raise InputError("the GM's dice are given, so nothing is rolled", where=flag)
            return GivenFaces(parse_dice_values(self.dice_values))
        if self.roll or self.seed is not None:
            if self.seed is not None and not 0 <= self.seed <= MAX_SEED:
                raise InputError(f"{self.seed}: a seed is 0 to {MAX_SEED}", where="--seed")
            import numpy as np  # only a roll pays for numpy's import

            return RolledFaces(np.random.default_rng(self.seed))
        return None


def run_check(
    ruleset: str, common: Common, build: Callable[[RuleData, FaceSource | None], Verdict]
) -> None:
    """Load the rules (with house rules), build the verdict, check the GM's dice were all used,
    and print it."""
    rules = load(ruleset, common.house_rules)
    source = common.face_source()
    verdict = build(rules, source)
    if isinstance(source, GivenFaces):
        source.finish()
    show(verdict, common)


def show(verdict: Verdict, common: Common) -> None:
    """Print a verdict: JSON, rich on a terminal, plain text otherwise."""
    if common.json:
        from vigile.io.json_out import verdict_json

        data = verdict_json(verdict, common.lang, view=common.view)
        sys.stdout.write(json.dumps(data, ensure_ascii=False) + "\n")
        return
    if sys.stdout.isatty():
        from vigile.io.terminal import print_verdict

        print_verdict(verdict, common.lang, view=common.view)
        return
    from vigile.io.text import explain

    lines = explain(verdict, common.lang, hint_roll=True, view=common.view)
    sys.stdout.write("\n".join(lines) + "\n")
