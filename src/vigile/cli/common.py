"""What every ``vigile check`` command shares: the common options, rolling, printing.

The CLI is thin: it parses, calls the library, renders. Options are typed aliases; the options
every check takes (``--roll --dice-values --seed --json --lang --house-rules``, and ``--view``
where the game has secrets) are added to each check's signature by :func:`common_options`,
which hands the command one :class:`Common` instead.
"""

from __future__ import annotations

import functools
import inspect
import json
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Annotated

import typer

from vigile.checks.sink import deliver
from vigile.checks.verdict import Verdict
from vigile.dice.source import FaceSource, GivenFaces, RolledFaces, parse_dice_values
from vigile.errors import InputError
from vigile.io.i18n import Lang
from vigile.io.safe import printable
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


def json_text(data: object, *, indent: int | None = None) -> str:
    """``data`` as JSON (UTF-8 kept) that is safe on the GM's terminal: every character
    :func:`~vigile.io.safe.printable` would escape (a control character, DEL, C1, a
    bidirectional override) is written as a JSON escape (``\\u202e``), so that the value
    read back is the same and the terminal obeys none of it."""
    return _UNPRINTABLE.sub(_json_escape, json.dumps(data, ensure_ascii=False, indent=indent))


_UNPRINTABLE = re.compile(r"[^\x20-\x7e\n]")
"""What may need an escape: json escapes every C0 control in a string, so outside printable
ASCII and the new lines of ``indent``."""


def _json_escape(found: re.Match[str]) -> str:
    char = found.group()
    if printable(char) == char:
        return char
    code = ord(char)
    if code > 0xFFFF:  # a surrogate pair, as JSON writes a character past the BMP
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
    return f"\\u{code:04x}"


def check_seed(seed: int | None, *, where: str = "--seed") -> int | None:
    """Refuse a seed outside 0..``MAX_SEED`` (numpy takes no negative seed), naming the option;
    every command that takes ``--seed`` checks it here."""
    if seed is not None and not 0 <= seed <= MAX_SEED:
        shown = str(seed) if abs(seed) < 10**30 else "that number"
        raise InputError(f"{shown}: a seed is 0 to 2**63 - 1 ({MAX_SEED})", where=where)
    return seed


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
            check_seed(self.seed)
            import numpy as np  # only a roll pays for numpy's import

            return RolledFaces(np.random.default_rng(self.seed))
        return None


COMMON_OPTIONS: dict[str, object] = {
    "view": ViewOpt,
    "roll": RollOpt,
    "dice_values": DiceValuesOpt,
    "seed": SeedOpt,
    "json": JsonOpt,
    "lang": LangOpt,
    "house_rules": HouseRulesOpt,
}
"""The options of :class:`Common`, in the order ``--help`` lists them, with their types."""


def common_options(*, view: bool = False) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """Give a check command the options every check takes, after its own.

    The command declares a keyword-only ``common: Common`` parameter instead of the seven
    options; the decorated function's signature (what Typer reads) has the command's own
    parameters, then ``--view`` (only with ``view=True``: the games with secrets), ``--roll``,
    ``--dice-values``, ``--seed``, ``--json``, ``--lang`` and ``--house-rules``, and it calls
    the command with them gathered in one :class:`Common`::

        @app.command()
        @common_options()
        def alarm(*, common: Common) -> None: ...
    """
    names = [name for name in COMMON_OPTIONS if view or name != "view"]
    defaults = {field.name: field.default for field in fields(Common)}

    def decorate(command: Callable[..., None]) -> Callable[..., None]:
        signature = inspect.signature(command, eval_str=True)
        if "common" not in signature.parameters:
            raise TypeError(f"{command.__name__} takes no 'common' parameter")
        own = [p for p in signature.parameters.values() if p.name != "common"]
        added = [
            inspect.Parameter(
                name,
                inspect.Parameter.KEYWORD_ONLY,
                annotation=COMMON_OPTIONS[name],
                default=defaults[name],
            )
            for name in names
        ]

        @functools.wraps(command)
        def wrapper(**options: object) -> None:
            common = Common(**{name: options.pop(name) for name in names})  # type: ignore[arg-type]
            command(**options, common=common)

        wrapper.__signature__ = signature.replace(  # type: ignore[attr-defined]
            parameters=[*own, *added], return_annotation=signature.return_annotation
        )
        wrapper.__annotations__ = {
            **{p.name: p.annotation for p in [*own, *added]},
            "return": signature.return_annotation,
        }
        return wrapper

    return decorate


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
    """Print a verdict: JSON, rich on a terminal, plain text otherwise; or, when a caller is
    capturing verdicts (the web API, :mod:`vigile.checks.sink`), hand it over unprinted."""
    if deliver(verdict, common.view):
        return
    if common.json:
        from vigile.io.json_out import verdict_json

        data = verdict_json(verdict, common.lang, view=common.view)
        sys.stdout.write(json_text(data) + "\n")
        return
    if sys.stdout.isatty():
        from vigile.io.terminal import print_verdict

        print_verdict(verdict, common.lang, view=common.view)
        return
    from vigile.io.text import explain

    lines = explain(verdict, common.lang, hint_roll=True, view=common.view)
    sys.stdout.write("\n".join(lines) + "\n")
