"""French as a French reader writes it: decimal commas, ``(x ; y)`` points, the games' and the
dice's names in French, no English word left in a French line."""

from __future__ import annotations

from pathlib import Path

import pytest

from vigile.io.i18n import Lang, number_text, point_text, tr


def test_a_decimal_parameter_takes_a_comma_in_french() -> None:
    params = {"actor": "Kuro", "x": 33.16, "y": 50.78, "degrees": 35}
    assert tr("engine.event.patrol", Lang.FR, params) == (
        "Kuro fait sa ronde jusqu'au point (33,16 ; 50,78) (dé de dispersion 35°)"
    )
    assert tr("engine.event.patrol", Lang.EN, params) == (
        "Kuro patrols to (33.16, 50.78) (scatter die 35°)"
    )


def test_integers_and_words_are_left_alone() -> None:
    assert tr("engine.view.turn", Lang.FR, {"turn": 12}) == "— Tour 12 —"


def test_number_text_french_marks() -> None:
    assert number_text(86.36, Lang.FR) == "86,36"
    assert number_text(86.36, Lang.EN) == "86.36"
    assert number_text(12000, Lang.FR, ",") == "12\u202f000"
    assert number_text(12000, Lang.EN, ",") == "12,000"
    assert number_text(2.25, Lang.FR, ".1f") == "2,2"  # round half to even, as Python does
    assert point_text(12.5, 40, Lang.FR) == "(12,5 ; 40)"
    assert point_text(12.5, 40, Lang.EN) == "(12.5, 40)"


def test_a_game_and_the_dice_have_french_names() -> None:
    params = {"id": "ab12", "name": "Raid", "ruleset": "skirmish", "dice": "given", "seed": 7}
    assert tr("console.created", Lang.FR, params) == (
        "Rencontre ab12 créée : Raid (Escarmouche, dés de la table, graine 7)."
    )
    rolled = {**params, "dice": "rolled", "ruleset": "dnd35"}
    assert tr("console.created", Lang.FR, rolled) == (
        "Rencontre ab12 créée : Raid (D&D 3.5, dés lancés par vigile, graine 7)."
    )


def test_what_a_character_knows_is_punctuated_in_french() -> None:
    from vigile.io.views import _known

    assert _known("Kage", "observed", Lang.FR) == "Kage : le voit"
    assert _known("Kage", "observed", Lang.EN) == "Kage: sees it"
    assert tr("engine.view.separator", Lang.FR) == " ; "


def _run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    from vigile.cli import main

    code = main(args)
    found = capsys.readouterr()
    return code, _words(found.out), _words(found.err)


def _words(text: str) -> str:
    """A help page's words, its boxes and line breaks taken out."""
    for sign in "│╭╮╰╯─":
        text = text.replace(sign, " ")
    return " ".join(text.split())


def test_the_help_in_french_with_lang_fr(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(["--lang", "fr", "--help"], capsys)
    assert code == 0
    assert "vigile arbitre la discrétion et la détection des jeux sur table" in out
    assert "Commandes" in out and "Afficher cette aide et quitter." in out
    assert "Vérifier des fichiers de scénario." in out
    assert "Show this message" not in out
    code, out, _ = _run(["--help"], capsys)  # English again without --lang
    assert "Show this message and exit." in out and "Commands" in out
    assert "Check scenario files." in out


def test_the_help_in_french_after_a_french_command(capsys: pytest.CaptureFixture[str]) -> None:
    """A French command first (the French command tree built, its --help option made in
    English: no help page was asked), then the French help: its --help option in French too
    (it failed in CI when test_cli_run's French demo ran first in the same worker)."""
    assert _run(["demo", "--lang", "fr", "--as", "Kage", "--seed", "4"], capsys)[0] == 0
    code, out, _ = _run(["--lang", "fr", "--help"], capsys)
    assert code == 0 and "Afficher cette aide et quitter." in out and "Show this" not in out


def test_a_check_command_helps_in_french(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, _ = _run(["check", "skirmish", "noise", "--lang", "fr", "--help"], capsys)
    assert code == 0
    assert "Lancer les dés (avec --seed pour rejouer)." in out
    assert "Langue de l'explication." in out and "[obligatoire]" in out
    assert "Distance en cm. [défaut : 0,0]" in out
    monkeypatch.setenv("VIGILE_LANG", "fr")
    code, out, _ = _run(["check", "skirmish", "--help"], capsys)
    assert "Un auditeur entend-il un événement hors de vue ?" in out


def test_an_error_line_in_french(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["check", "skirmish", "noise", "--event", "fumble", "--distance", "-1", "--lang", "fr"]
    code, _, err = _run(args, capsys)
    assert code == 2 and err.startswith("vigile : erreur : --distance")
    code, _, err = _run(args[:-2], capsys)
    assert code == 2 and err.startswith("vigile: error: --distance")


def test_an_error_with_a_message_key_is_written_in_french() -> None:
    from vigile.cli import _error_text
    from vigile.engine.live import Refusal

    refusal = Refusal("live.refusal.off_map", "(250.5, 10) is off the map", x=250.5, y=10)
    assert _error_text(refusal, Lang.FR) == "(250,5 ; 10) est hors de la carte"
    assert _error_text(refusal, Lang.EN) == "(250.5, 10) is off the map"


def test_the_pages_name_a_game_by_its_title() -> None:
    """The encounter list and the GM page write ``t("ruleset." ~ row.ruleset)``."""
    from vigile.web.pagetext import translator

    assert translator(Lang.FR)("ruleset.skirmish") == "Escarmouche"
    assert translator(Lang.EN)("ruleset.skirmish") == "Skirmish"
    assert translator(Lang.FR)("ruleset.dnd35") == "D&D 3.5"
    assert translator(Lang.FR)("dice_.given") == "dés de la table"


def test_a_page_writes_a_point_as_a_french_reader_does() -> None:
    from vigile.web import pagetext

    assert pagetext.point([60.5, 10.0], Lang.FR) == "(60,5 ; 10)"
    assert pagetext.point([60.5, 10.0], Lang.EN) == "(60.5, 10)"
    assert pagetext.measure(86.36, "cm", Lang.FR) == "86,36\u00a0cm"


def test_a_risk_map_error_in_french(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["route", "night-raid", "--attitude", "hidden", "--from", "60,10", "--to", "140,60"]
    code, _, err = _run([*args, "--lang", "fr"], capsys)
    assert code == 2 and err.startswith("vigile : erreur : --from:")


BAD_SCENARIO = """\
ruleset: skirmish
name: Past the guard
map: {width: 110, height: 100}
turns: 10
actors:
  - {name: Ninja, side: attackers, position: [120.5, 62], dice: {ninjitsu: 1}}
  - {name: Guard, side: defenders, position: [50, 50], dice: 1}
plans:
  Ninja:
    - {to: [100, 62], speed: half}
  Nobody:
    - {to: [100, 62], speed: half}
"""


def test_a_scenario_s_problems_in_french(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Ninja stands at x = 120.5 on a map 110 cm wide; a plan names no actor."""
    path = tmp_path / "bad.yaml"
    path.write_text(BAD_SCENARIO, encoding="utf-8")
    code, _, err = _run(["scenario", "validate", str(path), "--lang", "fr"], capsys)
    assert code == 2
    assert (
        f"{path}:6: actors[0].position: le personnage « Ninja » au point (120,5 ; 62) est " in err
    )
    assert "hors de la carte (0..110 × 0..100 cm)" in err
    assert f"{path}:11: plans.Nobody: un plan pour « Nobody », qui n'est pas parmi" in err
    code, _, err = _run(["scenario", "validate", str(path)], capsys)
    assert f"{path}:6: actors[0].position: actor 'Ninja' at [120.5, 62] is outside the map" in err
    code, _, err = _run(["run", str(path), "--lang", "fr"], capsys)
    assert code == 2 and err.startswith(f"vigile : erreur : {path}: 2 erreurs")


SCHEMA_ERRORS = """\
ruleset: skirmish
name: schema errors
map: {width: 100, height: 100}
turns: 5
colour: red
actors:
  - {name: Kage, side: attackers, position: [10, 10], dice: many}
  - {name: Jubei, side: defenders, position: [50, 50], dice: 0}
plans:
  Kage:
    - {to: [20, 90], speed: sprint}
cover:
  - {points: [[1, 1], [2, 2]]}
"""


def test_the_schema_s_own_problems_in_french(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Pydantic's messages (a field unknown, not a number, under its least value, not one of
    the speeds, a polygon of 2 vertices) in French, their numbers and choices kept; in
    English, pydantic's own words."""
    path = tmp_path / "schema.yaml"
    path.write_text(SCHEMA_ERRORS, encoding="utf-8")
    code, _, err = _run(["scenario", "validate", str(path), "--lang", "fr"], capsys)
    assert code == 2
    assert f"{path}:5: colour: champ inconnu ici" in err
    assert f"{path}:7: actors[0].dice: la valeur doit être un nombre entier" in err
    assert f"{path}:8: actors[1].dice: la valeur doit être supérieure ou égale à 1" in err
    assert "speed: la valeur doit être 'hidden', 'immobile', 'half' ou 'fast', pas 'sprint'" in err
    assert f"{path}:13: cover[0].points: un polygone a au moins 3 sommets, pas 2" in err
    assert "Input should" not in err
    code, _, err = _run(["scenario", "validate", str(path)], capsys)
    assert f"{path}:8: actors[1].dice: Input should be greater than or equal to 1" in err
    assert "Input should be 'hidden', 'immobile', 'half' or 'fast', not 'sprint'" in err


@pytest.mark.parametrize(
    ("args", "english", "french"),
    [
        (["simulate", "--runs"], "Option '--runs' requires an argument.",
         "L'option '--runs' attend une valeur."),
        (["nosuch"], "No such command 'nosuch'.", "Commande inconnue : 'nosuch'."),
        (["simulate", "night-raid", "--runz", "4"],
         "No such option: --runz (Possible options: --runs)",
         "Option inconnue : --runz (options possibles : --runs)"),
        (["simulate", "night-raid", "--runs", "abc"],
         "Invalid value for '--runs': 'abc' is not a valid int.",
         "Valeur invalide pour '--runs' : 'abc' n'est pas un nombre entier valide."),
        (["riskmap", "night-raid"], "Missing option '--attitude'.",
         "Option manquante : '--attitude'."),
        (["simulate", "night-raid", "extra"], "Got unexpected extra argument(s) (extra)",
         "Argument(s) en trop : (extra)"),
    ],
)  # fmt: skip
def test_click_s_usage_errors_in_french(
    args: list[str], english: str, french: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Typer's click writes its usage errors in English f-strings: each known form in French,
    exit 2 either way."""
    code, _, err = _run(args, capsys)
    assert code == 2 and english in err, err
    code, _, err = _run(["--lang", "fr", *args], capsys)
    assert code == 2 and err.strip() == f"vigile : erreur : {french}", err


def test_the_english_of_a_scenario_message_is_the_code_s() -> None:
    """The English locale repeats what the scene writes itself (vigile.errors.Said)."""
    from vigile.scene.consistency import _no_actor

    said = _no_actor("Kage")
    assert tr(said.key, Lang.EN, said.params) == str(said) == "no actor is called 'Kage'"
    assert tr(said.key, Lang.FR, said.params) == "aucun personnage ne s'appelle « Kage »"
    import pickle

    again = pickle.loads(pickle.dumps(said))
    assert (again, again.key, again.params) == (said, said.key, said.params)


def test_vigile_lang_makes_every_command_french(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``vigile --lang fr rules`` and ``VIGILE_LANG=fr vigile check ...`` write French; a
    ``--lang en`` on the command line wins over the variable."""
    code, out, _ = _run(["--lang", "fr", "rules", "skirmish"], capsys)
    assert code == 0 and out.startswith("Escarmouche (skirmish)")
    monkeypatch.setenv("VIGILE_LANG", "fr")
    check = ["check", "skirmish", "noise", "--event", "fumble", "--distance", "30"]
    code, out, _ = _run(check, capsys)
    assert out.startswith("Escarmouche · bruit : l'auditeur entend-il ?")
    code, out, _ = _run([*check, "--lang", "en"], capsys)
    assert out.startswith("Skirmish · noise: does the listener hear?")


def test_a_word_of_the_file_inside_a_message_is_translated(tmp_path: Path) -> None:
    """The objective (line 8, after the 2 actors) names the guard, who is no attacker: the
    side is written in French."""
    from vigile.io.i18n import issue_line
    from vigile.scene.loader import scenario_errors

    path = tmp_path / "who.yaml"
    text = BAD_SCENARIO.replace("120.5, 62", "10, 62").split("plans:")[0]
    path.write_text(text + "objective: {who: [Guard], area: [[95, 0], [110, 0], [110, 100]]}\n")
    (issue,) = scenario_errors(str(path))
    assert issue_line(issue, Lang.FR) == (
        f"{path}:8: objective.who[0]: « Guard » n'est pas parmi les attaquants"
    )
    assert (
        issue_line(issue, Lang.EN)
        == f"{path}:8: objective.who[0]: 'Guard' is not one of the attackers"
    )
