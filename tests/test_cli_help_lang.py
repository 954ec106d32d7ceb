"""Every option's and argument's help in French: ``vigile --lang fr COMMAND --help``.

The commands are those of the click tree the program builds (every group, every command, the
checks included), never a list written here: a new option without its French fails
:func:`test_every_option_and_argument_has_its_french_help`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
import typer

from vigile.cli.common import set_help_lang
from vigile.cli.helptext import (
    METAVAR_KEYS,
    SUBCOMMAND_KEYS,
    help_prefixes,
    translate,
    translations,
)
from vigile.io.i18n import Lang, messages


def _tree(lang: Lang) -> Any:
    """The whole click command with its help in ``lang``, as a help page shows it."""
    import vigile.cli

    set_help_lang(lang)
    try:
        command = typer.main.get_command(vigile.cli.build_app()[0])
    finally:
        set_help_lang(Lang.EN)
    translate(command, lang)
    return command


def _params(command: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[str, Any]]:
    """``(where, parameter)`` of every option and argument under ``command``."""
    for param in command.params:
        yield " ".join((*path, param.name or "?")), param
    for name, sub in getattr(command, "commands", {}).items():
        yield from _params(sub, (*path, name))


def _subcommands(command: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[str, Any]]:
    """``(where, command)`` of every command inside a group of ``command``'s groups."""
    for name, sub in getattr(command, "commands", {}).items():
        if len(path) == 1:
            yield f"{path[0]} {name}", sub
        yield from _subcommands(sub, (*path, name))


def _written_alike() -> set[str]:
    """The texts the French locale files write as the English ones do (a rule ID, a word
    French shares: "Invisible (SF-7)."): their translator wrote them so."""
    english, french = messages(Lang.EN), messages(Lang.FR)
    return {text for key, text in english.items() if french.get(key) == text}


def test_every_option_and_argument_has_its_french_help() -> None:
    english = dict(_params(_tree(Lang.EN)))
    french = dict(_params(_tree(Lang.FR)))
    assert english.keys() == french.keys()
    assert len(english) > 300  # the checks' options too
    alike = _written_alike()
    no_help = sorted(where for where, param in english.items() if not param.help)
    assert not no_help, f"options without help: {no_help}"
    untranslated = sorted(
        f"{where}: {param.help}"
        for where, param in french.items()
        if param.help == english[where].help and param.help not in alike
    )
    assert not untranslated, "help without French (add it under cli.param.*):\n" + "\n".join(
        untranslated
    )


def _signs(placeholder: str) -> bool:
    """A placeholder of letters no longer than an abbreviation (``URL``, ``X,Y``, ``V,V,...``),
    the same in French."""
    return all(len(word) <= 3 for word in re.findall(r"[A-Za-z]+", placeholder))


def test_every_placeholder_has_its_french() -> None:
    """``--plot FICHIER``: each placeholder a command shows for a value is French, unless it
    is signs rather than words (``URL``, ``X,Y``, ``N``); the checks' declare their own."""
    english = dict(_params(_tree(Lang.EN)))
    french = dict(_params(_tree(Lang.FR)))
    shown = {
        f"{where}: {param.metavar}"
        for where, param in english.items()
        if param.metavar and not where.startswith("check ")
    }
    assert len(shown) > 30
    untranslated = sorted(
        f"{where}: {param.metavar}"
        for where, param in french.items()
        if f"{where}: {param.metavar}" in shown and not _signs(param.metavar)
    )
    assert not untranslated, "placeholders without French (cli.metavar.*): " + ", ".join(
        untranslated
    )
    assert french["scenario import file"].metavar == "FICHIER"


def test_every_command_of_a_group_has_its_french_line() -> None:
    english = dict(_subcommands(_tree(Lang.EN)))
    french = dict(_subcommands(_tree(Lang.FR)))
    assert {"scenario import", "scenario set", "encounters list"} <= english.keys()
    same = sorted(
        where
        for where, command in french.items()
        if command.get_short_help_str(200) == english[where].get_short_help_str(200)
    )
    assert not same, f"commands without their French line ({SUBCOMMAND_KEYS}...): {same}"


def test_the_help_keys_are_in_both_languages_and_agree() -> None:
    """Each ``cli.param.*`` key has its French, and one English text has one French."""
    english, french = messages(Lang.EN), messages(Lang.FR)
    own = [
        key
        for key in english
        if key.startswith(("cli.param.", f"{SUBCOMMAND_KEYS}.", f"{METAVAR_KEYS}."))
    ]
    assert len(own) > 50
    assert [key for key in own if key not in french] == []
    assert [
        key
        for key in french
        if key.startswith(("cli.param.", f"{METAVAR_KEYS}.")) and key not in english
    ] == []
    seen: dict[str, str] = {}
    for key, text in english.items():
        if key.startswith(help_prefixes()):
            assert seen.setdefault(text, french[key]) == french[key], key
    assert translations(Lang.FR)["Number of games to play."] == "Nombre de parties à jouer."


def _words(text: str) -> str:
    """A help page's words, its boxes and line breaks taken out."""
    for sign in "│╭╮╰╯─":
        text = text.replace(sign, " ")
    return " ".join(text.split())


def _run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    from vigile.cli import main

    code = main(args)
    return code, _words(capsys.readouterr().out)


def test_simulate_helps_in_french(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = _run(["--lang", "fr", "simulate", "--help"], capsys)
    assert code == 0
    assert "Nombre de parties à jouer. [défaut : 10000]" in out
    assert "Un fichier de scénario, ou le nom d'un scénario fourni." in out
    assert "Écrire un objet JSON." in out and "Langue de l'explication." in out
    assert "Number of games" not in out and "Print one JSON object." not in out
    # the usage line and the values' types too (click's own words)
    assert "Utilisation : vigile simulate [OPTIONS]" in out and "Usage:" not in out
    assert "--runs <entier>" in out and "scenario <texte>" in out and "<int>" not in out
    code, out = _run(["simulate", "--help"], capsys)  # English again without --lang
    assert "Number of games to play. [default: 10000]" in out
    assert "Nombre de parties" not in out
    assert "Usage: vigile simulate [OPTIONS]" in out and "--runs <int>" in out


def test_the_map_commands_and_a_group_help_in_french(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("VIGILE_LANG", "fr")
    code, out = _run(["route", "--help"], capsys)
    assert code == 0
    assert "Où l'itinéraire s'achève (cm)." in out
    assert "Comment l'intrus se déplace." in out
    monkeypatch.delenv("VIGILE_LANG")
    code, out = _run(["--lang", "fr", "scenario"], capsys)  # a group named alone: its page
    assert code == 0
    assert "Vérifier un fichier de scénario : toutes les erreurs à la fois" in out
    assert "Afficher cette aide et quitter." in out
    assert "Check a scenario file" not in out
    assert "Utilisation : vigile scenario [OPTIONS] COMMANDE [ARGS]..." in out


def test_serve_helps_in_french_its_address_kept(capsys: pytest.CaptureFixture[str]) -> None:
    """A number's default takes a decimal comma, an address does not; Typer's words of an
    environment variable are French too."""
    code, out = _run(["--lang", "fr", "serve", "--help"], capsys)
    assert code == 0
    assert "[défaut : 127.0.0.1]" in out and "127,0" not in out
    assert "[variable d'environnement : VIGILE_TOKEN]" in out
    assert "Tirer un nouveau jeton du serveur" in out
    code, out = _run(["--lang", "fr", "check", "skirmish", "noise", "--help"], capsys)
    assert "Distance en cm. [défaut : 0,0]" in out
    code, out = _run(["serve", "--help"], capsys)
    assert "[default: 127.0.0.1]" in out and "[env var: VIGILE_TOKEN]" in out
