"""A scenario's consistency problems (a leg through a wall, hiding out of cover, an immobile leg
that moves, a die face the skirmish has not) in the reader's language: French with --lang fr,
the scene's own English otherwise. The expected lines are worked out from the scenario below."""

from __future__ import annotations

from pathlib import Path

import pytest

from vigile.errors import Said
from vigile.io.i18n import Lang, said

THROUGH_THE_WALL = """\
ruleset: skirmish
name: Through the wall
map: {width: 100, height: 100}
turns: 10
walls:
  - {start: [50, 0], end: [50, 50]}
  - {start: [70, 0], end: [70, 50], kind: door, name: gate}
actors:
  - {name: Kage, side: attackers, position: [10, 10], dice: {ninjitsu: 1}}
  - {name: Jubei, side: defenders, position: [80, 80], dice: 2}
dice_values: [7]
plans:
  Kage:
    - {to: [90, 10], speed: half}
    - {to: [90, 20.5], speed: hidden}
    - {to: [90, 30], speed: immobile}
"""
"""Kage's first leg, y = 10 from x = 10 to 90, crosses the wall at x = 50 and the closed door
at x = 70 (both span y 0..50); the second hides at [90, 20.5], with no cover area in the
scenario (SK-V3); the third is immobile yet has a waypoint (SK-V3); 7 is no face of a d6
(SK-D1). Nothing else is wrong: both actors stand inside the 100 x 100 map."""


def _validate(path: Path, capsys: pytest.CaptureFixture[str], *lang: str) -> tuple[int, str]:
    from vigile.cli import main

    code = main(["scenario", "validate", str(path), *lang])
    return code, capsys.readouterr().err


@pytest.fixture
def scenario(tmp_path: Path) -> Path:
    path = tmp_path / "wall.yaml"
    path.write_text(THROUGH_THE_WALL, encoding="utf-8")
    return path


def test_a_leg_through_a_wall_in_french(scenario: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, err = _validate(scenario, capsys, "--lang", "fr")
    assert code == 2
    lines = [line for line in err.splitlines() if line.startswith(f"{scenario}:")]
    assert lines == [
        f"{scenario}:11: dice_values[0]: 7 n'est pas une face d'un d6 (1 à 6) : "
        "l'escarmouche lance des d6",
        f"{scenario}:14: plans.Kage[0].to: le trajet de (10 ; 10) à (90 ; 10) traverse "
        "un mur (walls[0]), une porte fermée « gate » (walls[1])",
        f"{scenario}:15: plans.Kage[1].speed: se cacher demande un couvert (SK-V3), mais le "
        "point (90 ; 20,5) n'est dans aucune zone de couvert",
        f"{scenario}:16: plans.Kage[2].speed: un trajet immobile ne peut pas aller à une "
        "étape (SK-V3) : retirez son « to », ou donnez-lui une allure (hidden, half ou fast)",
    ], err


def test_the_same_problems_in_english(scenario: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, err = _validate(scenario, capsys)
    assert code == 2
    lines = [line for line in err.splitlines() if line.startswith(f"{scenario}:")]
    assert lines == [
        f"{scenario}:11: dice_values[0]: 7 is not a face of a d6 (1 to 6): skirmish rolls d6",
        f"{scenario}:14: plans.Kage[0].to: the leg from [10, 10] to [90, 10] passes through "
        "a wall (walls[0]), a closed door 'gate' (walls[1])",
        f"{scenario}:15: plans.Kage[1].speed: hidden needs cover (SK-V3), but [90, 20.5] is "
        "in no cover area",
        f"{scenario}:16: plans.Kage[2].speed: an immobile leg cannot move to a waypoint "
        "(SK-V3): drop its 'to', or give it a speed (hidden, half or fast)",
    ], err


def test_five_barriers_are_three_and_two_more() -> None:
    """A leg through five barriers names the first three, then how many more."""
    from vigile.scene.routes import _listing

    walls = [Said("scene.barrier.wall", f"a wall (walls[{i}])", name="", index=i) for i in range(5)]
    listed = _listing(walls)
    assert listed == "a wall (walls[0]), a wall (walls[1]), a wall (walls[2]) and 2 more"
    assert said(listed, Lang.FR) == (
        "un mur (walls[0]), un mur (walls[1]), un mur (walls[2]) et encore 2"
    )


def test_two_who_ambush_and_are_ambushed_in_french() -> None:
    """An ambush whose targets are ambushers too: the names, quoted in each language."""
    from vigile.scene.consistency import Parts, _encounter

    class Ambush:
        type = "ambush"
        ambushers = ("Kage", "Oni")
        targets = ("Oni", "Kage")

    found = _encounter(Parts(encounter=Ambush()))  # type: ignore[arg-type]
    messages = [message for loc, message in found if loc == ("encounter", "targets")]
    assert messages == ["['Kage', 'Oni'] both ambush and are ambushed"]
    assert said(messages[0], Lang.FR) == (
        "« Kage », « Oni » tendent l'embuscade et la subissent à la fois"
    )


def test_a_word_the_french_catalogue_lacks_stays_the_file_s() -> None:
    """An action with no French word (``attack-square``) is written as the file writes it,
    inside the French sentence; a message whose key no catalogue has is its English."""
    word = Said("scene.do.attack-square", "attack-square")
    step = Said("scene.spent.action", "attack-square", do=word)
    assert said(step, Lang.FR) == "l'action attack-square"
    assert said(Said("scene.no_such_key", "as the code says"), Lang.FR) == "as the code says"
