"""Undetected ambushers act first (SK-A5).

Every expected number is worked out by hand from the rule text (RULES.md §1), in the
docstrings, never copied from the engine's output.
"""

from __future__ import annotations

from pathlib import Path

from vigile.dice.source import GivenFaces
from vigile.engine.result import GameResult
from vigile.engine.run import play
from vigile.io.i18n import Lang
from vigile.io.views import character_lines, gm_lines
from vigile.scene.loader import load_scenario


def _play(tmp_path: Path, text: str, dice: list[int]) -> GameResult:
    """Play with the GM's dice, and check that every die was used."""
    path = tmp_path / "ambush.yaml"
    path.write_text(text)
    faces = GivenFaces(dice)
    result = play(load_scenario(str(path)), faces=faces)
    faces.finish()
    return result


# ---------------------------------------------------------------- SK-A5: who acts first

AMBUSH = """ruleset: skirmish
name: ambush
units: cm
time: day
map: {width: 300, height: 60}
turns: 1
actors:
  - {name: Sanjiro, side: attackers, position: [40, 20], dice: {ninjitsu: 2}}
  - {name: Tomoe, side: defenders, position: [TOMOE, 40], dice: {}}
encounter: {type: ambush, ambushers: [Sanjiro], targets: [Tomoe], setting: countryside}
"""


def _acts_first(result: GameResult) -> list[tuple[str, str, str]]:
    return [
        (e.message, e.actor or "", e.target or "")
        for e in result.events
        if e.message.startswith("engine.day.acts_first")
    ]


def test_SK_A5_undetected_ambusher_moves_and_fights_a_near_target(tmp_path: Path) -> None:
    """Countryside, one ambusher, one target: small, 7+ (SK-A3): a 6 then a 6 (SK-D3). Tomoe
    rolls 3: undetected, Sanjiro acts first (SK-A5). She is sqrt(20² + 20²) = 28.3 cm away,
    within one fast move (30 cm): [R] he moves and fights in melee."""
    result = _play(tmp_path, AMBUSH.replace("TOMOE", "60"), [3])
    assert result.outcome.kind == "objective"
    assert _acts_first(result) == [("engine.day.acts_first_melee", "Sanjiro", "Tomoe")]
    (event,) = [e for e in result.events if e.message == "engine.day.acts_first_melee"]
    assert event.public
    fr = "\n".join(gm_lines(result, Lang.FR))
    assert "Sanjiro agit en premier : il se porte sur Tomoe et engage le combat" in fr


def test_SK_A5_undetected_ambusher_shoots_a_far_target(tmp_path: Path) -> None:
    """Tomoe at (100, 40): sqrt(60² + 20²) = 63.2 cm, beyond a fast move (30 cm): [R] a shot.
    She rolls 6 then 2 (7+ needs a 6 then a 6, SK-D3): undetected."""
    result = _play(tmp_path, AMBUSH.replace("TOMOE", "100"), [6, 2])
    assert _acts_first(result) == [("engine.day.acts_first_shot", "Sanjiro", "Tomoe")]
    en = "\n".join(gm_lines(result, Lang.EN))
    assert "Sanjiro acts first: a shot at Tomoe" in en
    tomoe = "\n".join(character_lines(result, "Tomoe", Lang.EN))
    assert "Sanjiro acts first: a shot at Tomoe" in tomoe  # she perceives the attack


def test_SK_A5_detected_both_sides_act_at_once(tmp_path: Path) -> None:
    """Tomoe rolls 6 then 6: 7+ reached (SK-D3), the ambush is detected: both sides act at
    once (SK-A5), no one acts first."""
    result = _play(tmp_path, AMBUSH.replace("TOMOE", "60"), [6, 6])
    assert result.outcome.kind == "detected"
    assert not _acts_first(result)
    en = "\n".join(gm_lines(result, Lang.EN))
    assert "the ambush is detected, both sides act at once" in en


def test_SK_A6_sanjiro_acts_first_with_a_shot() -> None:
    """SK-A6: Tomoe rolls 3 < 9, nothing; Sanjiro, at (37, 37), is sqrt(17² + 43²) = 46.2 cm
    from her (20, 80), beyond a fast move (30 cm): [R] a shot."""
    result = play(load_scenario("sk-a6-ambush"))
    assert _acts_first(result) == [("engine.day.acts_first_shot", "Sanjiro", "Tomoe")]
