"""A character's view shows only what that character perceives (audit of the views).

A failed perception check (a guard who heard or saw nothing, a Spot or Listen roll that found
nothing, a watch for a follower or an ambush that noticed nothing) is not in the checker's own
view at all; what a character does perceive carries no number it could not know (distances,
difficulties, odds); its own action checks keep their question and outcome.
"""

from __future__ import annotations

import json
import re

import pytest

from vigile.cli import main
from vigile.engine.events import Event
from vigile.engine.result import GameResult
from vigile.engine.run import play
from vigile.io.i18n import Lang, tr
from vigile.io.views import character_lines, json_lines
from vigile.scene.loader import bundled_names, load_scenario

DISTANCE = re.compile(r"\d\s*(cm|ft)\b")
NUMBERS = ("Chance", "Difficulty", "Difficulté", "DC ", " DD ", "Roll", "Jet", "%")
PERCEPTION = {"noise", "sight", "notice", "ambush"}
GAMES = [(name, seed) for name in bundled_names() for seed in (None, 1, 2, 3)]


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main(list(args)) == 0
    return capsys.readouterr().out


def _failed_perceptions(result: GameResult, name: str) -> list[Event]:
    return [
        e
        for e in result.events
        if e.kind in PERCEPTION
        and e.actor == name
        and e.target is not None
        and e.verdict is not None
        and not e.verdict.success
    ]


def test_SK_N9_the_guard_who_heard_nothing_knows_nothing_of_the_death(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # SK-N9: the guard rolls 4 against 5+ for the weapon falling 20 cm away: he heard nothing,
    # so his view has no death, no 20 cm, no listening at all on turn 1.
    out = _run(capsys, "run", "sk-n9-shoji", "--as", "Inattentive guard")
    turn_1 = out.split("Turn 1")[1].split("Turn 2")[0]
    assert turn_1.strip(" \n—") == ""
    assert "death" not in out and "20 cm" not in out and not DISTANCE.search(out)
    fr = _run(capsys, "run", "sk-n9-shoji", "--as", "Inattentive guard", "--lang", "fr")
    assert "une mort" not in fr and not DISTANCE.search(fr)


def test_SK_N9_the_ninja_still_sees_his_own_fumble_roll(capsys: pytest.CaptureFixture[str]) -> None:
    # The intruder's own action check keeps its question and outcome (SK-N3, SK-D4).
    out = _run(capsys, "run", "sk-n9-shoji", "--as", "Novice ninja")
    assert "rolls for a fumble → fumble: noise!" in out
    assert not any(word in out for word in NUMBERS)


@pytest.mark.parametrize(("scenario", "seed"), GAMES)
def test_no_character_view_leaks(scenario: str, seed: int | None) -> None:
    result = play(load_scenario(scenario), seed=seed)
    for lang in Lang:
        for walker in result.walkers:
            name = walker.name
            lines = list(character_lines(result, name, lang))
            text = "\n".join(lines)
            assert not DISTANCE.search(text), (name, text)
            assert not any(word in text for word in NUMBERS), (name, text)
            for event in _failed_perceptions(result, name):
                assert event.verdict is not None
                key = event.verdict.player_outcome or event.verdict.outcome
                assert key is not None
                failed = f" → {tr(key, lang)}"
                assert not any(line.endswith(failed) for line in lines), (name, failed)
            perceptions = {
                (e.turn, e.kind)
                for e in result.events
                if e.kind in PERCEPTION and e.actor == name and e.target and e.verdict
            }
            for line in json_lines(result, lang, name):
                data = json.loads(line)
                assert not DISTANCE.search(data.get("text", "")), data
                check = data.get("check", {})
                assert not {"difficulty", "chance", "roll", "modifiers"} & set(check), data
                if (data["turn"], data["event"]) in perceptions and data["actor"] == name:
                    assert data["at"] is None and data["target"] is None, data


def test_night_raid_guards_hear_no_numbers(capsys: pytest.CaptureFixture[str]) -> None:
    # The night raid: no guard's view shows a listening with its distance ("listens (…, N cm
    # away)"), heard or not; what a guard heard reads "hears a noise (…)".
    for seed in ("4", "9"):
        for guard in ("Jubei", "Goro", "Ippei", "Masa", "Daisuke"):
            out = _run(capsys, "run", "night-raid", "--seed", seed, "--as", guard)
            assert "listens (" not in out and "looks at" not in out, out
            assert not DISTANCE.search(out), out


def test_d20_views_keep_the_numbers_to_the_gm(capsys: pytest.CaptureFixture[str]) -> None:
    # D&D 3.5: the Watchdog smells someone (DD-13) without knowing the distance to a tenth of a
    # foot, nor who it is (LP-5: the scent locates, it does not see Elandra); Sergeant Brom's
    # failed Spot and Listen rolls ("notices nothing", DD-3, DD-5) are not in his view.
    # Starfinder: Nyx does not learn how many observers her Stealth faces.
    dog = _run(capsys, "run", "dnd35-invisible-intruder", "--seed", "1", "--as", "Watchdog")
    assert "smells someone [DD-13]" in dog and not DISTANCE.search(dog)
    assert "Elandra" not in dog.split("10 rounds at most.")[1]
    brom = _run(capsys, "run", "dnd35-invisible-intruder", "--seed", "1", "--as", "Sergeant Brom")
    assert "notices nothing" not in brom and "hears nothing" not in brom
    assert "rolls Spot (" not in brom and "rolls Listen (" not in brom
    nyx = _run(capsys, "run", "starfinder-infiltration", "--seed", "1", "--as", "Nyx")
    assert "Nyx rolls Stealth →" in nyx and "observer(s)" not in nyx


def test_day_encounters_hide_a_watch_that_noticed_nothing(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # SK-S5: Tomoe rolls 3 against 7 and notices nothing: her view does not know Sanjiro
    # follows her. SK-S6: Sanjiro (on alert, 5+) rolls 2 and 6 and notices Tomoe.
    tomoe = _run(capsys, "run", "sk-s5-street", "--as", "Tomoe")
    assert "Sanjiro" not in tomoe.split("Turn 1")[1]
    sanjiro = _run(capsys, "run", "sk-s6-street", "--as", "Sanjiro")
    assert "Sanjiro notices Tomoe following" in sanjiro and "watches for" not in sanjiro
    # SK-A6: Tomoe rolls 3 against 9 and detects nothing; she learns of the ambush only when
    # it is sprung (SK-A5), which everyone knows.
    ambushed = _run(capsys, "run", "sk-a6-ambush", "--as", "Tomoe")
    assert "watches for an ambush" not in ambushed and "ambushers act first" in ambushed
