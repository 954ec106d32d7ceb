"""The ``vigile`` command: thin, it parses, calls the library and renders.

Exit codes: 0 ok, 2 bad input (a one-line error naming the option), 1 internal error.
"""

from __future__ import annotations

import json
import sys
from typing import Annotated, Any

import typer

from vigile import registry
from vigile.io.i18n import Lang

HELP = "vigile adjudicates stealth and detection in tabletop games: exact odds, explained."


def _version(shown: bool) -> None:
    if shown:
        from vigile import __version__

        sys.stdout.write(f"vigile {__version__}\n")
        raise typer.Exit()


def _root() -> typer.Typer:
    root = typer.Typer(
        help=HELP, no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False
    )

    @root.callback()
    def options(
        version: Annotated[
            bool,
            typer.Option(
                "--version", callback=_version, is_eager=True, help="Print vigile's version."
            ),
        ] = False,
    ) -> None:
        """vigile adjudicates stealth and detection in tabletop games: exact odds, explained."""

    return root


def _check_group() -> typer.Typer:
    return typer.Typer(
        help="One check, with its odds and explanation.", no_args_is_help=True, add_completion=False
    )


def _rules(ruleset: str | None, lang: Lang, as_json: bool, coverage: bool = False) -> None:
    """Print the rule catalogue of one ruleset, or of every one; with ``coverage``, where each
    rule is played instead."""
    from vigile.io.catalogue import catalogue_lines, rule_catalogue

    chosen = rule_catalogue(ruleset, lang)
    if coverage:
        _coverage(chosen, lang, as_json)
        return
    if as_json:
        sys.stdout.write(json.dumps(chosen, ensure_ascii=False, indent=1) + "\n")
        return
    sys.stdout.write("\n".join(catalogue_lines(chosen, lang)) + "\n")


def _coverage(chosen: dict[str, dict[str, str]], lang: Lang, as_json: bool) -> None:
    """Print where each chosen rule is played (``vigile rules --coverage``)."""
    from vigile.cli.coverage import coverage
    from vigile.games.coverage import coverage_rows
    from vigile.io.catalogue import coverage_catalogue, coverage_lines

    ids = [rule_id for table in chosen.values() for rule_id in table]
    rows = coverage_rows(ids, {place: set(found) for place, found in coverage().items()})
    table = coverage_catalogue(chosen, rows, lang)
    if as_json:
        sys.stdout.write(json.dumps(table, ensure_ascii=False, indent=1) + "\n")
        return
    sys.stdout.write("\n".join(coverage_lines(table, lang)) + "\n")


def _checks(names: list[str]) -> typer.Typer:
    """The ``check`` group with these games' commands: each game's plug-in names its
    declaration of its checks (:class:`vigile.checks.declare.Checks`, whose commands are built
    here) or a Typer app of its own (see :mod:`vigile.registry`)."""
    from vigile.checks.declare import Checks

    checks = _check_group()
    for name in names:
        plugin = registry.get(name)
        if plugin.cli is not None:
            found = plugin.load(plugin.cli)
            if isinstance(found, Checks):
                from vigile.cli.common import check_app

                found = check_app(found)
            checks.add_typer(found, name=name)
    return checks


def _has_checks(name: str) -> bool:
    """``name`` is a game with ``vigile check`` commands."""
    return name in registry.names() and registry.get(name).cli is not None


def build_app() -> tuple[typer.Typer, typer.Typer]:
    """The whole command: every check, ``rules``, ``run``, ``demo``, ``scenario``, ``simulate``,
    ``sweep``, ``riskmap`` and ``route``. Returns it and its ``check`` group."""
    from vigile.cli.encounters import register as register_encounters
    from vigile.cli.play import register as register_play
    from vigile.cli.run import register as register_run
    from vigile.cli.serve import register as register_serve
    from vigile.cli.sim import app as sim_app
    from vigile.cli.simulate import register as register_simulate

    root, checks = _root(), _checks(registry.names())
    root.add_typer(checks, name="check")

    @root.command()
    def rules(
        ruleset: Annotated[str | None, typer.Argument(help="skirmish, starfinder or dnd35")] = None,
        lang: Annotated[Lang, typer.Option("--lang")] = Lang.EN,
        json: Annotated[bool, typer.Option("--json")] = False,
        coverage: Annotated[
            bool,
            typer.Option(
                "--coverage",
                help="Where each rule is played: check, engine, simulator, risk map (a few s).",
            ),
        ] = False,
    ) -> None:
        """Every rule ID with a one-line statement."""
        _rules(ruleset, lang, json, coverage)

    register_run(root)
    register_simulate(root)
    register_serve(root)
    register_play(root)
    register_encounters(root)
    for command in sim_app.registered_commands:
        root.registered_commands.append(command)
    return root, checks


def _one_ruleset(name: str) -> typer.Typer:
    """Just ``vigile check NAME …``: a check at the table starts fast, without loading the
    other games, the engine or the simulator."""
    root = _root()
    root.add_typer(_checks([name]), name="check")
    return root


def __getattr__(name: str) -> typer.Typer:
    """``vigile.cli.app`` and ``vigile.cli.check_app``, built on first use (and again when a
    game is registered since)."""
    if name in ("app", "check_app"):
        built, checks = build_app()
        globals().update(app=built, check_app=checks, _games_version=registry.version())
        return built if name == "app" else checks
    raise AttributeError(f"module 'vigile.cli' has no attribute {name!r}")


_COMMANDS: dict[tuple[str, int], Any] = {}
"""The click command of each app built, by (which, the registry's version): turning a Typer app
into click commands costs more than most checks, so it is done once (a click command keeps no
state between invocations)."""


def _command_for(argv: list[str]) -> Any:
    """The click command to run ``argv``: ``vigile check GAME …`` only builds that game's
    checks (a check at the table starts fast), anything else the whole command."""
    if len(argv) > 2 and argv[0] == "check" and argv[2] != "--help" and _has_checks(argv[1]):
        key = (f"check {argv[1]}", registry.version())
        if key not in _COMMANDS:
            _COMMANDS[key] = typer.main.get_command(_one_ruleset(argv[1]))
        return _COMMANDS[key]
    key = ("all", registry.version())
    if key not in _COMMANDS:
        built = globals().get("app")
        if not (isinstance(built, typer.Typer) and globals().get("_games_version") == key[1]):
            built = __getattr__("app")
        _COMMANDS[key] = typer.main.get_command(built)
    return _COMMANDS[key]


def main(argv: list[str] | None = None) -> int:
    """Run the command; a user error is one line on stderr and exit code 2, never a traceback."""
    from vigile.errors import VigileError
    from vigile.io.safe import printable

    args = argv if argv is not None else sys.argv[1:]
    if any("\x00" in arg for arg in args):  # never from a shell: argv is C strings
        print("vigile: error: an argument holds a NUL character", file=sys.stderr)
        return 2
    command = _command_for(args)
    try:
        code = command.main(
            args=args,
            prog_name="vigile",
            standalone_mode=False,
        )
    except typer.TyperException as error:  # Typer's own click: its usage errors subclass it
        if _is_help(error):
            print(error.format_message())
            return 0
        print(f"vigile: error: {printable(error.format_message())}", file=sys.stderr)
        return 2
    except VigileError as error:
        print(f"vigile: error: {printable(str(error))}", file=sys.stderr)
        return 2
    except typer.Exit as done:
        return int(done.exit_code or 0)
    except (typer.Abort, KeyboardInterrupt):  # Ctrl-C before a command's own handling
        print("vigile: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except OSError as error:
        if error.filename is None:
            raise
        # A path the user gave that the system refuses where no command words it (too long a
        # name, a loop of links...): the path and the system's reason, on one line.
        shown = printable(str(error.filename))
        print(f"vigile: error: {shown}: {error.strerror or error}", file=sys.stderr)
        return 2
    return code if isinstance(code, int) else 0


def _is_help(error: typer.TyperException) -> bool:
    """A group called with no arguments: Typer raises its help text as an error, whose class
    is not public; Typer itself tells it by its name (``typer.rich_utils``)."""
    return any(kind.__name__ == "NoArgsIsHelpError" for kind in type(error).__mro__)


def entry() -> None:
    sys.exit(main())
