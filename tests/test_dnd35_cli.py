"""``vigile check dnd35 …``: the command-line contract, bad input, JSON keys, both languages and
both views of every verdict (DD-9: a wrong square reads exactly like the miss chance)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

import vigile.cli
from vigile.checks.verdict import Verdict
from vigile.cli.dnd35 import app
from vigile.dice.source import GivenFaces
from vigile.io.i18n import Lang
from vigile.io.json_out import verdict_json
from vigile.io.text import explain
from vigile.rulesets.data import load
from vigile.rulesets.dnd35 import (
    HideSpeed,
    ListenSpeed,
    Size,
    SpotTarget,
    Square,
    attack_check,
    grope_check,
    hide_check,
    listen_check,
    spot_check,
)

RULES = load("dnd35")
runner = CliRunner()


def invoke_json(*args: str) -> dict[str, Any]:
    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


@pytest.fixture
def main(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """``vigile.cli.main`` with the dnd35 commands under ``check dnd35`` (as the lead wires it)."""
    root = typer.Typer()
    check = typer.Typer()
    check.add_typer(app, name="dnd35")
    root.add_typer(check, name="check")
    monkeypatch.setattr(vigile.cli, "app", root)
    yield


# JSON keys -----------------------------------------------------------------------------------


def test_spot_json() -> None:
    data = invoke_json("spot", "--spot", "8", "--distance", "20", "--target", "moving")
    assert data["chance"] == "7/20"  # d20 + 8 - 2 >= 20: 14..20
    assert data["state"] == "presence"
    assert data["chance_pinpoint"] == "0"
    pinned = invoke_json(
        "spot", "--spot", "30", "--distance", "0", "--target", "still", "--pinpoint"
    )
    assert pinned["state"] == "location" and pinned["difficulty"] == 50


def test_listen_json() -> None:
    data = invoke_json("listen", "--listen", "0", "--move-silently", "0")
    assert data["chance"] == "21/40"
    assert data["chance_pinpoint"] == "0"  # a d20 never beats another d20 by 20
    near = invoke_json("listen", "--listen", "1", "--move-silently", "0")
    assert near["chance_pinpoint"] == "1/400"  # only 20 against 1
    assert data["state"] == "direction"
    rolled = invoke_json(
        "listen", "--listen", "5", "--dex", "2", "--armor-penalty", "3", "--dice-values", "4,9"
    )
    assert rolled["dc"] == 3 and rolled["result"] == 14 and rolled["success"] is True


def test_hide_json_observers() -> None:
    data = invoke_json("hide", "--hide", "6", "--spot", "2,6,9", "--speed", "full")
    observers = data["observers"]
    assert len(observers) == 3
    assert all(set(o) >= {"chance", "state", "label"} for o in observers)
    assert {o["state"] for o in observers} == {"observed"}
    assert data["state"] == "unaware"


def test_grope_and_attack_json() -> None:
    grope = invoke_json("grope", "--touch-attack", "2", "--touch-ac", "12", "--occupied")
    assert grope["chance"] == "11/40" and grope["chance_touch"] == "11/20"
    empty = invoke_json("grope", "--touch-attack", "2", "--touch-ac", "12")
    assert empty["chance"] == "0"
    attack = invoke_json("attack", "--miss-chance", "50", "--blind-fight")
    assert attack["chance"] == "3/4" and attack["miss_chance"] == 50
    water = invoke_json("attack", "--miss-chance", "50", "--in-water")
    assert water["chance"] == "4/5"
    seeing = invoke_json("attack", "--miss-chance", "50", "--blindsight", "--blind-fight")
    assert seeing["chance"] == "1" and seeing["state"] == "observed"


def test_seed_replays_the_same_roll() -> None:
    args = ("hide", "--hide", "4", "--spot", "3,5", "--seed", "11")
    assert invoke_json(*args) == invoke_json(*args)


# bad input: one line, exit 2 -----------------------------------------------------------------


@pytest.mark.usefixtures("main")
@pytest.mark.parametrize(
    "args",
    [
        ["listen", "--listen", "3", "--move-silently", "2", "--dex", "1"],
        ["listen", "--listen", "3", "--speaking", "--speed", "full"],
        ["listen", "--listen", "3", "--move-silently", "2", "--armor-penalty", "1"],
        ["listen", "--listen", "3"],
        ["attack", "--miss-chance", "50", "--square-correct", "--square-wrong"],
        ["attack", "--miss-chance", "101"],
        ["attack", "--miss-chance", "-1"],
        ["attack", "--miss-chance", "50", "--blindsight", "--square-wrong"],
        ["spot", "--spot", "3", "--distance", "-5", "--target", "moving"],
        ["spot", "--spot", "3", "--distance", "abc", "--target", "moving"],
        ["spot", "--spot", "3", "--distance", "nan", "--target", "moving"],
        ["spot", "--spot", "3", "--distance", "inf", "--target", "moving"],
        ["listen", "--listen", "3", "--move-silently", "2", "--distance", "-1"],
        ["hide", "--hide", "3", "--spot", "2,,4"],
        ["hide", "--hide", "3", "--spot", "2,x"],
        ["hide", "--hide", "3", "--spot", "2", "--distance", "-10"],
        ["grope", "--touch-attack", "2", "--touch-ac", "-3"],
        ["spot", "--spot", "3", "--distance", "5", "--target", "moving", "--dice-values", "4,5"],
        ["spot", "--spot", "3", "--distance", "5", "--target", "moving", "--dice-values", "21"],
        ["senses", "--sense", "sight", "--visible", "--ethereal"],
        ["senses", "--sense", "smell"],
        ["attack-roll", "--attack", "3", "--ac", "12", "--sneak-attack", "2d8"],
        ["attack-roll", "--attack", "3", "--ac", "12", "--favored-enemy", "-1"],
        ["struck", "--reach", "-5"],
        ["signs", "--distance", "-1"],
        ["signs", "--distance", "5", "--flour-throw", "nan"],
        ["signs", "--distance", "5", "--light", "-20"],
        ["signs", "--distance", "5", "--soft-ground", "--moved", "--spot", "1000"],
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    args: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert vigile.cli.main(["check", "dnd35", *args]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and captured.err.startswith("vigile: error: ")


@pytest.mark.usefixtures("main")
def test_good_input_through_main(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["check", "dnd35", "attack", "--miss-chance", "50", "--blindsight", "--blind-fight"]
    assert vigile.cli.main(args) == 0
    assert "[DD-15]" in capsys.readouterr().out


# DD-9: the player cannot tell a wrong square from the miss chance ----------------------------


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("blind_fight", [False, True])
def test_DD9_player_view_is_byte_for_byte_identical(lang: str, blind_fight: bool) -> None:
    extra = ["--blind-fight"] if blind_fight else []
    faces = "10,20" if blind_fight else "10"

    def run(square: str, view: str, as_json: bool) -> str:
        args = ["attack", "--miss-chance", "50", square, "--dice-values", faces]
        args += [*extra, "--view", view, "--lang", lang] + (["--json"] if as_json else [])
        result = runner.invoke(app, args)
        assert result.exit_code == 0, result.output
        return result.stdout

    for as_json in (False, True):
        wrong = run("--square-wrong", "player", as_json)
        right_missed = run("--square-correct", "player", as_json)
        assert wrong == right_missed
        assert run("--square-wrong", "gm", as_json) != run("--square-correct", "gm", as_json)
    # and the same with seeded rolls whenever the miss chance struck on the right square
    for seed in range(40):
        right = runner.invoke(
            app,
            ["attack", "--miss-chance", "50", "--square-correct", "--seed", str(seed), "--json"],
        )
        if json.loads(right.stdout)["success"] is False:
            args = ["attack", "--miss-chance", "50", "--seed", str(seed), "--view", "player"]
            wrong_p = runner.invoke(app, [*args, "--square-wrong"]).stdout
            right_p = runner.invoke(app, [*args, "--square-correct"]).stdout
            assert wrong_p == right_p


def test_DD9_player_json_hides_the_cause() -> None:
    wrong = attack_check(RULES, miss_chance=50, square=Square.WRONG, source=GivenFaces([90]))
    right = attack_check(RULES, miss_chance=50, square=Square.CORRECT, source=GivenFaces([3]))
    for lang in Lang:
        assert verdict_json(wrong, lang, view="player") == verdict_json(right, lang, view="player")
        assert explain(wrong, lang, view="player") == explain(right, lang, view="player")
        assert explain(wrong, lang) != explain(right, lang)


# every verdict renders in both languages and both views --------------------------------------


def every_verdict() -> Iterator[Verdict]:
    for target in SpotTarget:
        for pinpoint in (False, True):
            yield spot_check(RULES, spot_bonus=5, distance_ft=25, target=target, pinpoint=pinpoint)
            yield spot_check(
                RULES,
                spot_bonus=25,
                distance_ft=10,
                target=target,
                pinpoint=pinpoint,
                distracted=True,
                source=GivenFaces([20]),
            )
    yield spot_check(RULES, spot_bonus=5, distance_ft=35, target=SpotTarget.MOVING)
    yield spot_check(
        RULES, spot_bonus=0, distance_ft=5, target=SpotTarget.MOVING, source=GivenFaces([1])
    )
    for speed in (None, *ListenSpeed):
        yield listen_check(
            RULES, listen_bonus=4, move_silently=3, speed=speed, distance_ft=30, door=True
        )
    yield listen_check(
        RULES, listen_bonus=4, dex=2, armor_penalty=1, stone_wall=True, distracted=True, asleep=True
    )
    for faces in ([1, 20], [20, 1], [10, 10]):
        yield listen_check(RULES, listen_bonus=4, move_silently=3, source=GivenFaces(faces))
    yield listen_check(RULES, listen_bonus=4, speaking=True, source=GivenFaces([20]))
    for speed in HideSpeed:
        for size in Size:
            yield hide_check(
                RULES, hide_bonus=5, spot_bonuses=[3, 5], speed=speed, size=size, distance_ft=20
            )
    yield hide_check(
        RULES, hide_bonus=5, spot_bonuses=[7, 3, 5], source=GivenFaces([10, 8, 12, 10, 3, 9])
    )
    yield hide_check(RULES, hide_bonus=5, spot_bonuses=[1], source=GivenFaces([20, 1]))
    for occupied in (True, False):
        yield grope_check(RULES, touch_attack=3, touch_ac=12, occupied=occupied)
        for faces in ([1], [15, 20], [15, 90]):
            yield grope_check(
                RULES, touch_attack=3, touch_ac=12, occupied=occupied, source=GivenFaces(faces)
            )
    for square in (None, *Square):
        for blind_fight in (False, True):
            for in_liquid in (False, True):
                for incorporeal in (False, True):
                    kwargs: dict[str, Any] = {
                        "miss_chance": 40,
                        "square": square,
                        "blind_fight": blind_fight,
                        "in_liquid": in_liquid,
                        "incorporeal": incorporeal,
                    }
                    yield attack_check(RULES, **kwargs)
                    faces = [30, 70] if blind_fight and not incorporeal else [30]
                    yield attack_check(RULES, source=GivenFaces(faces), **kwargs)
    yield attack_check(RULES, miss_chance=50, blindsight=True)
    yield attack_check(RULES, miss_chance=50, blindsight=True, incorporeal=True)


@pytest.mark.parametrize("lang", list(Lang))
def test_every_verdict_renders_in_both_languages_and_views(lang: Lang) -> None:
    count = 0
    for verdict in every_verdict():
        for view in ("gm", "player"):
            lines = explain(verdict, lang, view=view)
            assert lines and all(isinstance(line, str) for line in lines)
            json.dumps(verdict_json(verdict, lang, view=view))
        count += 1
    assert count > 100


def test_traits_render_in_both_languages() -> None:
    from vigile.io.i18n import tr
    from vigile.rulesets.dnd35 import traits
    from vigile.rulesets.senses import Condition

    lines = [traits.extra_damage_applies(kind)[1] for kind in traits.ExtraDamage]
    lines += [
        traits.struck_by_invisible(RULES)[1],
        traits.struck_by_invisible(RULES, reach_ft=10)[1],
        traits.struck_by_invisible(RULES, ranged=True)[1],
        traits.struck_by_invisible(RULES, moved_at_once=True)[1],
        traits.carried_object_visible(picked_up_visible=True)[1],
        traits.carried_object_visible(picked_up_visible=True, tucked_away=True)[1],
        traits.carried_object_visible(picked_up_visible=False)[1],
        traits.flour_reveals()[1],
        traits.flour_reveals(flour_fallen=True)[1],
        traits.tracks()[1],
        traits.tracks(soft_ground=True)[1],
        traits.scent_tracks()[1],
        traits.blind_fight_works()[1],
        traits.blind_fight_works((Condition.ETHEREAL,))[1],
        traits.blind_fight_works((Condition.INCORPOREAL,))[1],
        traits.light_source(lit=True)[1],
        traits.light_source(lit=False)[1],
        traits.gaze_attack_allowed(invisible=True)[1],
        traits.gaze_attack_allowed(invisible=False)[1],
        traits.divination_works()[1],
        *traits.invisible_attacker(RULES)[1],
        *traits.invisible_attacker(RULES, defender_sees_invisible=True)[1],
    ]
    modifiers = traits.invisible_attacker(RULES)[0]
    for lang in Lang:
        for line in lines:
            assert tr(line.reason, lang, line.params)
        for modifier in modifiers:
            assert tr(modifier.reason, lang, modifier.params)


def test_locale_files_have_identical_keys() -> None:
    from vigile.io.i18n import _catalogue

    assert set(_catalogue("dnd35.en.toml")) == set(_catalogue("dnd35.fr.toml"))
