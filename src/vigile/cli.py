"""The ``vigile`` command: thin, it parses, calls the library and renders.

Exit codes: 0 ok, 2 bad input (a one-line error naming the option), 1 internal error.
"""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from vigile.cli_dnd35 import app as dnd35_app
from vigile.cli_run import register as register_run
from vigile.cli_sim import app as sim_app
from vigile.cli_simulate import register as register_simulate
from vigile.cli_skirmish import app as skirmish_app
from vigile.cli_starfinder import app as starfinder_app
from vigile.io.i18n import Lang

app = typer.Typer(
    help="vigile adjudicates stealth and detection in tabletop games: exact odds, explained.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
check_app = typer.Typer(
    help="One check, with its odds and explanation.", no_args_is_help=True, add_completion=False
)
check_app.add_typer(skirmish_app, name="skirmish")
check_app.add_typer(starfinder_app, name="starfinder")
check_app.add_typer(dnd35_app, name="dnd35")
app.add_typer(check_app, name="check")


@app.command()
def rules(
    ruleset: Annotated[str | None, typer.Argument(help="skirmish, starfinder or dnd35")] = None,
    lang: Annotated[Lang, typer.Option("--lang")] = Lang.EN,
    json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """Every rule ID with a one-line statement."""
    from vigile.catalogue import print_rules

    print_rules(ruleset, lang, as_json=json)


register_run(app)
register_simulate(app)
for _command in sim_app.registered_commands:
    app.registered_commands.append(_command)


def main(argv: list[str] | None = None) -> int:
    """Run the command; a user error is one line on stderr and exit code 2, never a traceback."""
    from typer import Abort, Exit
    from typer._click.exceptions import ClickException, NoArgsIsHelpError

    from vigile.errors import VigileError

    command = typer.main.get_command(app)
    try:
        code = command.main(
            args=argv if argv is not None else sys.argv[1:],
            prog_name="vigile",
            standalone_mode=False,
        )
    except NoArgsIsHelpError as error:
        print(error.format_message())
        return 0
    except ClickException as error:
        print(f"vigile: error: {error.format_message()}", file=sys.stderr)
        return 2
    except VigileError as error:
        print(f"vigile: error: {error}", file=sys.stderr)
        return 2
    except Exit as done:
        return int(done.exit_code or 0)
    except Abort:
        print("vigile: aborted", file=sys.stderr)
        return 1
    except BrokenPipeError:
        return 0
    return code if isinstance(code, int) else 0


def entry() -> None:
    sys.exit(main())
