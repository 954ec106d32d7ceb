"""The ``vigile`` command: thin, it parses, calls the library and renders.

Exit codes: 0 ok, 2 bad input (a one-line error naming the option), 1 internal error.

The help is written in the language ``--lang`` names anywhere on the command line, else
``VIGILE_LANG`` (``fr`` or ``en``), else English: ``vigile --lang fr --help``, ``vigile --lang
fr check skirmish noise --help``. That language is read before the command is built, since
Typer builds the help with it; its texts are the ``cli.*`` messages and the checks' own. It
is also the default of every command's ``--lang`` (``vigile --lang fr run x``,
``VIGILE_LANG=fr vigile run x``) and the language of the one-line errors.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Annotated, Any

import typer

from vigile import registry
from vigile.cli.errors import error_line as _error
from vigile.cli.errors import error_text as _error_text
from vigile.io.i18n import Lang, messages, tr

HELP = "vigile adjudicates stealth and detection in tabletop games: exact odds, explained."
LANG_VARIABLE = "VIGILE_LANG"
"""The environment variable naming the help's language when the command line names none."""


def _version(shown: bool) -> None:
    if shown:
        from vigile import __version__

        sys.stdout.write(f"vigile {__version__}\n")
        raise typer.Exit()


def _said(key: str) -> str:
    """A text of the command in the help's language."""
    from vigile.cli.options import help_lang

    return tr(key, help_lang())


def _root() -> typer.Typer:
    root = typer.Typer(
        help=_said("cli.help"),
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
    )

    @root.callback()
    def options(
        version: Annotated[
            bool,
            typer.Option("--version", callback=_version, is_eager=True, help=_said("cli.version")),
        ] = False,
        lang: Annotated[Lang, typer.Option("--lang", help=_said("cli.lang"))] = Lang.EN,
    ) -> None:
        """vigile adjudicates stealth and detection in tabletop games: exact odds, explained."""

    return root


def _check_group() -> typer.Typer:
    return typer.Typer(help=_said("cli.command.check"), no_args_is_help=True, add_completion=False)


def _titled(root: typer.Typer) -> None:
    """Give each command and group of ``root`` its line of help in the help's language
    (``cli.command.NAME``); in French, its page's help too (the English one is its docstring)."""
    from vigile.cli.options import help_lang

    lang, known = help_lang(), messages(help_lang())
    for command in root.registered_commands:
        name = command.name or (command.callback.__name__ if command.callback else "")
        key = f"cli.command.{name}"
        if key in known:
            command.short_help = tr(key, lang)
            if lang is not Lang.EN:
                command.help = tr(key, lang)
    for group in root.registered_groups:
        key = f"cli.command.{group.name}"
        if key in known and group.typer_instance is not None:
            group.typer_instance.info.help = tr(key, lang)


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
        ruleset: Annotated[str | None, typer.Argument(help=_said("cli.rules.ruleset"))] = None,
        lang: Annotated[Lang, typer.Option("--lang", help=_said("check.common.lang"))] = Lang.EN,
        json: Annotated[bool, typer.Option("--json", help=_said("cli.rules.json"))] = False,
        coverage: Annotated[
            bool, typer.Option("--coverage", help=_said("cli.rules.coverage"))
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
    _titled(root)
    return root, checks


def _one_ruleset(name: str) -> typer.Typer:
    """Just ``vigile check NAME …``: a check at the table starts fast, without loading the
    other games, the engine or the simulator."""
    root = _root()
    root.add_typer(_checks([name]), name="check")
    _titled(root)
    return root


MAP_COMMANDS = ("riskmap", "route")
"""Commands run without building the whole command (:func:`_command_for`): a map is a
fraction of a second of work, which building every command would double."""


def _maps() -> typer.Typer:
    """Just ``vigile riskmap …`` and ``vigile route …`` (:mod:`vigile.cli.sim`), without the
    help's texts (their pages come from the whole command)."""
    from vigile.cli.sim import app as sim_app

    root = typer.Typer(add_completion=False, pretty_exceptions_enable=False)

    @root.callback()
    def options() -> None:
        """The map commands."""

    root.registered_commands.extend(sim_app.registered_commands)
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
    checks (a check at the table starts fast), ``riskmap`` and ``route`` only themselves
    (:data:`MAP_COMMANDS`), anything else the whole command."""
    from vigile.cli.options import help_lang

    lang = help_lang()
    if len(argv) > 2 and argv[0] == "check" and argv[2] != "--help" and _has_checks(argv[1]):
        key = (f"check {argv[1]} {lang.value}", registry.version())
        if key not in _COMMANDS:
            _COMMANDS[key] = typer.main.get_command(_one_ruleset(argv[1]))
        return _COMMANDS[key]
    if argv[:1] and argv[0] in MAP_COMMANDS and not {"--help", "-h"} & set(argv):
        key = (f"maps {lang.value}", registry.version())
        if key not in _COMMANDS:
            _COMMANDS[key] = typer.main.get_command(_maps())
        return _COMMANDS[key]
    key = (f"all {lang.value}", registry.version())
    if key not in _COMMANDS:
        built: Any = globals().get("app")
        fresh = isinstance(built, typer.Typer) and globals().get("_games_version") == key[1]
        if lang is not Lang.EN:
            built = build_app()[0]  # vigile.cli.app stays the English one
        elif not fresh:
            built = __getattr__("app")
        _COMMANDS[key] = typer.main.get_command(built)
    return _COMMANDS[key]


def _lang_defaults(command: Any, lang: Lang) -> dict[str, Any]:
    """Click's ``default_map`` that makes ``lang`` the default of every ``--lang`` option of
    ``command`` and its subcommands: ``vigile --lang fr run x`` and ``VIGILE_LANG=fr vigile
    run x`` explain in French, as ``vigile run x --lang fr`` does."""
    found: dict[str, Any] = {}
    if any(param.name == "lang" for param in getattr(command, "params", ())):
        found["lang"] = lang.value
    for name, sub in getattr(command, "commands", {}).items():
        below = _lang_defaults(sub, lang)
        if below:
            found[name] = below
    return found


def _asked_lang(args: list[str]) -> Lang:
    """The language the command line names (``--lang fr``, ``--lang=fr``, before any ``--``),
    else ``VIGILE_LANG``, else English: the help's and the errors' language."""
    named: str | None = None
    for index, arg in enumerate(args):
        if arg == "--":
            break
        if arg == "--lang" and index + 1 < len(args):
            named = args[index + 1]
        elif arg.startswith("--lang="):
            named = arg.partition("=")[2]
    for value in (named, os.environ.get(LANG_VARIABLE)):
        if value in ("fr", "en"):
            return Lang(value)
    return Lang.EN


_TYPER_WORDS = {
    "OPTIONS_PANEL_TITLE": "cli.panel.options",
    "COMMANDS_PANEL_TITLE": "cli.panel.commands",
    "ARGUMENTS_PANEL_TITLE": "cli.panel.arguments",
    "REQUIRED_LONG_STRING": "cli.panel.required",
    "DEFAULT_STRING": "cli.panel.default",
    "ENVVAR_STRING": "cli.panel.envvar",
    "DEPRECATED_STRING": "cli.panel.deprecated",
}
"""The titles of the panels of Typer's help pages, by their name in :mod:`typer.rich_utils`."""


_HELP_OPTION: dict[Lang, Any] = {}
"""Typer's click's ``help_option`` decorator, in English, then the one of each language."""


def _help_option(lang: Lang) -> Any:
    """Typer's click ``help_option`` whose option says its help in ``lang``: Typer's click
    writes "Show this message and exit." as it is, when a command first prints its help."""
    from typer._click import decorators

    english = _HELP_OPTION.setdefault(Lang.EN, decorators.help_option)
    if lang is Lang.EN:
        return english

    def help_option(*args: Any, **kwargs: Any) -> Any:
        decorate = english(*args, **kwargs)

        def apply(command: Any) -> Any:
            done = decorate(command)
            command.params[-1].help = tr("cli.panel.help_option", lang)
            return done

        return apply

    _HELP_OPTION[lang] = help_option
    return help_option


def _speak(lang: Lang) -> None:
    """Make click's and Typer's own words of a help page (the panels' titles, the ``--help``
    option's) those of ``lang``: they read them from module globals when they write it. Its
    ``Usage:`` stays: French says ``Usage`` too."""
    from typer._click import decorators

    decorators.help_option = _HELP_OPTION.get(lang) or _help_option(lang)
    try:
        from typer import rich_utils
    except ImportError:  # Typer without rich: click's plain help
        return
    for name, key in _TYPER_WORDS.items():
        setattr(rich_utils, name, tr(key, lang))
    if lang is Lang.FR:
        rich_utils.DEFAULT_STRING = _FrenchDefault(rich_utils.DEFAULT_STRING)


class _FrenchDefault(str):
    """Typer's ``[défaut : {}]``, whose number takes a decimal comma: ``[défaut : 0,5]`` (a
    number only: an address stays ``[défaut : 127.0.0.1]``)."""

    def format(self, *args: object, **kwargs: object) -> str:
        import re

        shown = [re.sub(r"^(-?\d+)\.(\d+)$", r"\1,\2", str(arg)) for arg in args]
        return super().format(*shown, **kwargs)


def main(argv: list[str] | None = None) -> int:
    """Run the command; a user error is one line on stderr and exit code 2, never a traceback."""
    from vigile.cli.options import set_help_lang
    from vigile.errors import VigileError

    args = argv if argv is not None else sys.argv[1:]
    if any("\x00" in arg for arg in args):  # never from a shell: argv is C strings
        print("vigile: error: an argument holds a NUL character", file=sys.stderr)
        return 2
    lang = _asked_lang(args)
    set_help_lang(lang)
    command = _command_for(args)
    helped = "--help" in args or _group_page(command, args)
    if (helped and lang is not Lang.EN) or "typer.rich_utils" in sys.modules:
        _speak(lang)  # (not for a check at the table: rich is slow to import)
    if helped and lang is not Lang.EN:
        from vigile.cli.helptext import translate

        translate(command, lang)  # the options' help in lang, once per command built
    extra = {"default_map": _lang_defaults(command, lang)} if lang is not Lang.EN else {}
    try:
        code = command.main(args=args, prog_name="vigile", standalone_mode=False, **extra)
    except typer.TyperException as error:  # Typer's own click: its usage errors subclass it
        if _is_help(error):
            print(error.format_message())
            return 0
        message = error.format_message()
        if lang is Lang.FR:
            from vigile.cli.usage_fr import french

            message = french(message)
        _error(message, lang)
        return 2
    except VigileError as error:
        _error(_error_text(error, lang), lang)
        return 2
    except typer.Exit as done:
        return int(done.exit_code or 0)
    except (typer.Abort, KeyboardInterrupt):  # Ctrl-C before a command's own handling
        print(tr("cli.interrupted", lang), file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except OSError as error:
        if error.filename is None:
            raise
        # A path the user gave that the system refuses where no command words it (too long a
        # name, a loop of links...): the path and the system's reason, on one line.
        _error(f"{error.filename}: {error.strerror or error}", lang)
        return 2
    return code if isinstance(code, int) else 0


def _group_page(command: Any, args: list[str]) -> bool:
    """``args`` name a group and nothing more (``vigile``, ``vigile --lang fr scenario``,
    ``vigile check skirmish``): Typer shows that group's help page."""
    found, named = command, False
    for arg in args:
        if named:
            named = False
        elif arg == "--lang":
            named = True
        elif arg.startswith("-"):
            if not arg.startswith("--lang="):
                return False  # an option: a command's work, or an error
        else:
            found = getattr(found, "commands", {}).get(arg)
    return found is not None and hasattr(found, "commands")


def _is_help(error: typer.TyperException) -> bool:
    """A group called with no arguments: Typer raises its help text as an error, whose class
    is not public; Typer itself tells it by its name (``typer.rich_utils``)."""
    return any(kind.__name__ == "NoArgsIsHelpError" for kind in type(error).__mro__)


def entry() -> None:
    sys.exit(main())
