"""What every ``vigile check`` command shares: the common options, rolling, printing, and the
commands built from a game's declaration of its checks.

The CLI is thin: it parses, calls the library, renders. A game declares its checks once
(:mod:`vigile.checks.declare`); :func:`check_app` turns the declaration into its Typer commands,
one option per input, with the options every check takes (``--roll --dice-values --seed --json
--lang --house-rules``, and ``--view`` where the game has secrets). A plug-in that writes its own
Typer app gets the common options with :func:`common_options`, which hands the command one
:class:`Common` instead.
"""

from __future__ import annotations

import functools
import inspect
import sys
from collections.abc import Callable
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Annotated, Any

import typer

from vigile.checks.declare import MAX_SEED, Check, Checks, Input, check_seed, face_source
from vigile.checks.verdict import Verdict
from vigile.cli.options import JsonOpt, LangOpt, help_lang, json_text, set_help_lang
from vigile.dice.source import FaceSource, GivenFaces, parse_dice_values
from vigile.io.i18n import Lang, tr
from vigile.io.text import View
from vigile.rulesets.data import RuleData, load

__all__ = [
    "MAX_SEED",
    "Common",
    "check_app",
    "check_seed",
    "common_options",
    "help_lang",
    "run_check",
    "set_help_lang",
    "show",
]

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
        values = None
        if self.dice_values is not None:  # refused with a roll before it is read
            rolled = self.roll or self.seed is not None
            values = [] if rolled else parse_dice_values(self.dice_values)
        return face_source(roll=self.roll, dice_values=values, seed=self.seed)


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

    def decorate(command: Callable[..., None]) -> Callable[..., None]:
        signature = inspect.signature(command, eval_str=True)
        if "common" not in signature.parameters:
            raise TypeError(f"{command.__name__} takes no 'common' parameter")
        own = [p for p in signature.parameters.values() if p.name != "common"]
        wrapper = _with_common(own, view, command)
        functools.update_wrapper(wrapper, command, updated=())
        return _signed(wrapper, own, view)

    return decorate


def _with_common(
    own: list[inspect.Parameter], view: bool, command: Callable[..., None]
) -> Callable[..., None]:
    names = [name for name in COMMON_OPTIONS if view or name != "view"]

    def wrapper(**options: object) -> None:
        common = Common(**{name: options.pop(name) for name in names})  # type: ignore[arg-type]
        command(**options, common=common)

    return wrapper


def _signed(
    wrapper: Callable[..., None], own: list[inspect.Parameter], view: bool
) -> Callable[..., None]:
    """``wrapper`` with the signature Typer reads: ``own``, then the common options."""
    defaults = {field.name: field.default for field in fields(Common)}
    added = [
        inspect.Parameter(
            name,
            inspect.Parameter.KEYWORD_ONLY,
            annotation=_common_annotation(name),
            default=defaults[name],
        )
        for name in COMMON_OPTIONS
        if view or name != "view"
    ]
    wrapper.__signature__ = inspect.Signature([*own, *added])  # type: ignore[attr-defined]
    wrapper.__annotations__ = {p.name: p.annotation for p in [*own, *added]}
    return wrapper


# --- the commands of a declaration ---------------------------------------------------------------


def check_app(declared: Checks) -> typer.Typer:
    """The ``vigile check GAME`` commands of a game's declaration, one per check, with the help
    of the declaration's messages in the help's language (:func:`help_lang`)."""
    app = typer.Typer(help=_helped(declared.help), no_args_is_help=True, add_completion=False)
    for check in declared.checks:
        app.command(check.name, help=_helped(check.help))(check_command(check))
    return app


def check_command(check: Check) -> Callable[..., None]:
    """One check's command: its inputs as options, then the common ones; it reads the inputs
    (:meth:`Check.values`), turns them into the rule's arguments, then rolls, checks and
    prints as every check does (:func:`run_check`)."""
    own = [
        inspect.Parameter(
            one.name,
            inspect.Parameter.KEYWORD_ONLY,
            annotation=_option(one),
            default=inspect.Parameter.empty if one.required else one.default,
        )
        for one in check.inputs
    ]

    def command(*, common: Common, **given: object) -> None:
        arguments = check.arguments(check.values(given))
        run_check(check.game, common, lambda rules, source: check.verdict(rules, arguments, source))

    wrapper = _with_common(own, check.view, command)
    wrapper.__name__ = check.name.replace("-", "_")
    return _signed(wrapper, own, check.view)


def _option(one: Input) -> object:
    """The Typer annotation of an input's option."""
    kind: Any = one.kind
    if one.many == "comma" or one.parse is not None:
        kind = str  # its text, read by the declaration's parser
    elif one.many == "repeat":
        kind = list[kind]
    if one.default is None:
        kind = kind | None
    return Annotated[kind, typer.Option(one.flag, help=_helped(one.help), metavar=one.metavar)]


def _helped(key: str) -> str:
    """A help text in the help's language."""
    return tr(key, help_lang())


_COMMON_FLAGS: dict[str, tuple[object, str, str | None]] = {
    "view": (View, "--view", None),
    "roll": (bool, "--roll", None),
    "dice_values": (str | None, "--dice-values", "V,V,..."),
    "seed": (int | None, "--seed", None),
    "json": (bool, "--json", None),
    "lang": (Lang, "--lang", None),
    "house_rules": (Path | None, "--house-rules", "FILE"),
}
"""The type, flag and metavar of each option of :class:`Common` (:data:`COMMON_OPTIONS`)."""


def _common_annotation(name: str) -> object:
    """The Typer annotation of a common option: :data:`COMMON_OPTIONS`' in English, else the
    same option with its help (``check.common.NAME``) in the help's language."""
    if help_lang() is Lang.EN:
        return COMMON_OPTIONS[name]
    kind, flag, metavar = _COMMON_FLAGS[name]
    option = typer.Option(flag, help=_helped(f"check.common.{name}"), metavar=metavar)
    return Annotated[kind, option]


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
        sys.stdout.write(json_text(data) + "\n")
        return
    if sys.stdout.isatty():
        from vigile.io.terminal import print_verdict

        print_verdict(verdict, common.lang, view=common.view)
        return
    from vigile.io.text import explain

    lines = explain(verdict, common.lang, hint_roll=True, view=common.view)
    sys.stdout.write("\n".join(lines) + "\n")
