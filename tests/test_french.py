"""French as a French reader writes it: decimal commas, ``(x ; y)`` points, the games' and the
dice's names in French, no English word left in a French line."""

from __future__ import annotations

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
