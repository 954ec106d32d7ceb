"""The Starfinder command line (``vigile check starfinder``) and its texts in French and English."""

from __future__ import annotations

import json
import tomllib
from importlib import resources
from typing import Any

import pytest
from typer.testing import CliRunner

from vigile.awareness.ladder import AwarenessState
from vigile.checks.verdict import Line, Verdict
from vigile.cli.starfinder import app
from vigile.dice.source import GivenFaces
from vigile.errors import InputError
from vigile.io.i18n import Lang
from vigile.io.json_out import verdict_json
from vigile.io.text import explain, note_line
from vigile.rulesets.data import apply_overrides, shipped
from vigile.rulesets.starfinder import (
    Concealment,
    DcMod,
    Observer,
    Sense,
    Speed,
    adjacent_melee_attack,
    attack_check,
    can_attack,
    flat_footed,
    hide_check,
    may_stay_hidden,
    observer_outcome,
    perception_success,
    unseen_effects,
)

runner = CliRunner()


def invoke_json(*args: str) -> dict[str, Any]:
    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def main(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """Run ``vigile check starfinder ARGS`` through the real entry point (exit codes)."""
    from vigile import cli

    if not any(group.name == "starfinder" for group in cli.check_app.registered_groups):
        cli.check_app.add_typer(app, name="starfinder")
    code = cli.main(["check", "starfinder", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


# --- hide ----------------------------------------------------------------------------------


def test_hide_json_carries_chance_state_and_observers() -> None:
    data = invoke_json("hide", "--stealth", "12", "--perception", "5,8,-2", "--cover")
    assert data["ruleset"] == "starfinder" and data["check"] == "hide"
    assert data["state"] == "unaware"
    assert data["chance"] == "44981/80000"  # brute force over 20**4 faces
    assert [o["chance"] for o in data["observers"]] == ["91/400", "17/50", "21/400"]
    assert {o["state"] for o in data["observers"]} == {"observed"}
    assert data["stealth_bonus"] == 12 and data["stealth_roll"] is None
    assert "SF-4" in {n["rule"] for n in data["notes"]}


def test_hide_invisible_observers_only_locate() -> None:
    data = invoke_json("hide", "--stealth", "3", "--perception", "5", "--invisible")
    assert data["observers"][0]["state"] == "location"


def test_hide_without_cover_is_a_refusal_verdict_not_an_error() -> None:
    for extra in ([], ["--no-cover"]):
        data = invoke_json("hide", "--stealth", "3", "--perception", "5", *extra)
        assert data["impossible"] is True and data["chance"] == "0"
        assert [n["rule"] for n in data["notes"]] == ["SF-2"]


def test_hide_with_the_gms_dice_in_order() -> None:
    data = invoke_json(
        "hide", "--stealth", "5", "--perception", "5,0", "--cover", "--dice-values", "10,10,14"
    )
    assert data["stealth_result"] == 15 and data["success"] is False
    assert [o["success"] for o in data["observers"]] == [True, False]
    assert data["roll"]["dice"][0]["faces"] == [10] and data["roll"]["given"] is True


def test_hide_all_options_together() -> None:
    data = invoke_json(
        "hide",
        "--stealth",
        "20",
        "--perception",
        "5,-3",
        "--speed",
        "more-than-half",
        "--bluff-diversion",
        "--invisible",
        "--sniping",
        "--distance",
        "30",
        "--dc-mod",
        "+2:dim light",
        "--dc-mod",
        "-1:alarm ringing",
        "--armor-penalty",
        "1",
        "--blindsense",
        "2",
        "--seed",
        "4",
        "--lang",
        "fr",
    )
    values = [m["value"] for m in data["modifiers"]]
    assert values == [20, -1, -10, -10, 20, -20, 2, -1]
    assert data["observers"][1]["modifiers"][0]["value"] == -20
    assert data["success"] in (True, False)


def test_hide_player_view_keeps_the_observers_secret() -> None:
    result = runner.invoke(
        app,
        [
            "hide",
            "--stealth",
            "5",
            "--perception",
            "5",
            "--cover",
            "--seed",
            "1",
            "--view",
            "player",
        ],
    )
    assert result.exit_code == 0
    assert "observer 1" not in result.stdout and "Chance" not in result.stdout
    assert "the GM knows who noticed you" in result.stdout


@pytest.mark.parametrize(
    ("args", "where"),
    [
        (["--cover", "--no-cover"], "--cover"),
        (["--concealment", "--total-concealment"], "--concealment"),
        (["--cover", "--sniping"], "--sniping"),
        (["--cover", "--distance", "-5"], "--distance"),
        (["--cover", "--distance", "nan"], "--distance"),
        (["--cover", "--dc-mod", "two:fog"], "--dc-mod"),
        (["--cover", "--blindsense", "3"], "--blindsense"),
        (["--cover", "--immobile", "--speed", "more-than-half"], "--immobile"),
        (["--cover", "--stealth", "500"], "--stealth"),
    ],
)
def test_hide_bad_input_is_one_line_and_exit_2(
    args: list[str], where: str, capsys: pytest.CaptureFixture[str]
) -> None:
    base = ["hide", "--perception", "5"]
    if "--stealth" not in args:
        base += ["--stealth", "3"]
    code, out, err = main([*base, *args], capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and where in err and err.startswith("vigile: error: ")
    assert runner.invoke(app, [*base, *args]).exit_code != 0


def test_hide_bad_numbers_are_refused_by_the_parser(capsys: pytest.CaptureFixture[str]) -> None:
    for args in (["--distance", "far"], ["--perception", "5,x"], ["--perception", "5,,6"]):
        code, _, err = main(
            ["hide", "--stealth", "3", "--perception", "5", "--cover", *args], capsys
        )
        assert code == 2 and err.count("\n") == 1


def test_hide_negative_bonuses_parse(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = main(
        ["hide", "--stealth", "-3", "--perception", "-2,4", "--cover", "--json"], capsys
    )
    assert code == 0 and json.loads(out)["stealth_bonus"] == -3


def test_input_errors_surface_through_clirunner_too() -> None:
    result = runner.invoke(
        app, ["hide", "--stealth", "3", "--perception", "5", "--cover", "--no-cover"]
    )
    assert isinstance(result.exception, InputError)


def test_too_many_observers_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    crowd = ",".join(["1"] * 1001)
    code, _, err = main(["hide", "--stealth", "3", "--perception", crowd, "--cover"], capsys)
    assert code == 2 and "1000" in err


# --- attack --------------------------------------------------------------------------------


def test_attack_json_and_blind_fight() -> None:
    data = invoke_json("attack", "--miss-chance", "50")
    assert data["chance"] == "1/2" and data["state"] == "location" and data["miss_chance"] == 50
    blind = invoke_json("attack", "--miss-chance", "50", "--blind-fight", "--dice-values", "20,70")
    assert blind["chance"] == "3/4" and blind["success"] is True
    assert [d["faces"] for d in blind["roll"]["dice"]] == [[20], [70]]


@pytest.mark.parametrize("pct", ["-1", "101", "fifty"])
def test_attack_bad_miss_chance(pct: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = main(["attack", "--miss-chance", pct], capsys)
    assert code == 2 and err.count("\n") == 1 and "--miss-chance" in err


def test_attack_dice_count_must_match(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = main(["attack", "--blind-fight", "--dice-values", "20"], capsys)
    assert code == 2 and "--dice-values" in err


def test_attack_house_rule_file(tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "house.toml"
    path.write_text("[attack]\nmiss_chance = 20\n", encoding="utf-8")
    code, out, _ = main(["attack", "--house-rules", str(path), "--json"], capsys)
    assert code == 0 and json.loads(out)["chance"] == "4/5"


# --- texts ---------------------------------------------------------------------------------


def _flat(node: dict[str, Any], prefix: str = "") -> set[str]:
    keys: set[str] = set()
    for key, value in node.items():
        keys |= _flat(value, f"{prefix}{key}.") if isinstance(value, dict) else {prefix + key}
    return keys


def test_both_languages_have_the_same_keys() -> None:
    folder = resources.files("vigile.io").joinpath("locales")
    en = _flat(tomllib.loads(folder.joinpath("starfinder.en.toml").read_text("utf-8")))
    fr = _flat(tomllib.loads(folder.joinpath("starfinder.fr.toml").read_text("utf-8")))
    assert en == fr
    assert all(k.startswith(("starfinder.", "check.starfinder.")) for k in en)


def every_verdict() -> list[Verdict]:
    sf = shipped("starfinder")
    sound = apply_overrides(sf, "[companion]\nsound_distance = true\n", "house.toml")
    hide = [
        hide_check(sf, stealth=5, observers=[5]),
        hide_check(sf, stealth=5, observers=[5], lost_shelter_this_turn=True),
        hide_check(sf, stealth=5, observers=[5, 3], cover=True),
        hide_check(sf, stealth=5, observers=[5], concealment=Concealment.PARTIAL, armor_penalty=1),
        hide_check(sf, stealth=5, observers=[5], concealment=Concealment.TOTAL, immobile=True),
        hide_check(
            sf,
            stealth=5,
            observers=[Observer(5, True), Observer(2)],
            invisible=True,
            immobile=True,
            source=GivenFaces([3, 20, 1]),
        ),
        hide_check(
            sf,
            stealth=5,
            observers=[5],
            invisible=True,
            speed=Speed.MORE_THAN_HALF,
            bluff_diversion=True,
            special_ability=True,
            sniping=True,
            distance_ft=20,
            dc_mods=[DcMod(2, "rain")],
            lost_shelter_this_turn=True,
            source=GivenFaces([20, 1]),
        ),
        hide_check(sound, stealth=5, observers=[5], cover=True, distance_ft=25),
        hide_check(sound, stealth=5, observers=[5], cover=True, distance_ft=25, forest=True),
        hide_check(sf, stealth=5, observers=[5], cover=True, distance_ft=25),
    ]
    attack = [
        attack_check(sf),
        attack_check(sf, miss_chance=0),
        attack_check(sf, blind_fight=True, source=GivenFaces([1, 2])),
        attack_check(sf, source=GivenFaces([99])),
        attack_check(sf, awareness=AwarenessState.UNAWARE),
        attack_check(sf, awareness=AwarenessState.OBSERVED),
    ]
    return hide + attack


def every_line() -> list[Line]:
    lines = [
        observer_outcome(n, total_concealment=t, keeps_shelter=k).line
        for n in (True, False)
        for t in (True, False)
        for k in (True, False)
    ]
    lines += [
        may_stay_hidden(lost_shelter_during_turn=a, shelter_at_end_of_turn=b).line
        for a in (True, False)
        for b in (True, False)
    ]
    lines += [
        flat_footed(hidden=h, first_attack=f, still_invisible=i, located=loc).line
        for h in (True, False)
        for f in (True, False)
        for i in (True, False)
        for loc in (True, False)
    ]
    for state in AwarenessState:
        lines += list(unseen_effects(state)) + list(unseen_effects(state, blindsense=True))
        lines.append(can_attack(state).line)
        lines.append(adjacent_melee_attack(state).line)
        for sense in Sense:
            lines.append(perception_success(state, sense).line)
            lines.append(perception_success(state, sense, target_invisible=True).line)
    return lines


@pytest.mark.parametrize("lang", [Lang.FR, Lang.EN])
def test_every_verdict_and_line_renders_in_both_languages(lang: Lang) -> None:
    for verdict in every_verdict():
        for view in ("gm", "player"):
            assert explain(verdict, lang, view=view)  # type: ignore[arg-type]
            json.dumps(verdict_json(verdict, lang, view=view))  # type: ignore[arg-type]
    for line in every_line():
        assert note_line(line, lang)


def test_french_uses_the_french_starfinder_vocabulary() -> None:
    verdict = every_verdict()[6]
    text = "\n".join(explain(verdict, Lang.FR))
    for word in ("Discrétion", "Perception", "tir embusqué", "Bluff", "pris au dépourvu"):
        assert word in text
    assert "camouflage total" in "\n".join(explain(every_verdict()[4], Lang.FR))


def test_SF10_sniping_too_close_is_a_refused_verdict(capsys: pytest.CaptureFixture[str]) -> None:
    """SF-10: sniping is only against a creature 10 ft (3 m) or more away. At 5 ft the rule
    forbids the attempt: a verdict (exit 0), impossible, chance 0, naming the 10 ft minimum,
    and the observer sees the sniper (no Stealth check is rolled, as with SF-2)."""
    args = ["hide", "--stealth", "10", "--perception", "5", "--cover", "--sniping"]
    code, out, _ = main([*args, "--distance", "5", "--json"], capsys)
    assert code == 0
    data = json.loads(out)
    assert data["impossible"] is True and data["chance"] == "0" and data["success"] is False
    assert [n["rule"] for n in data["notes"]] == ["SF-10"]
    assert "10 ft or more" in data["notes"][0]["text"] and "5 ft away" in data["notes"][0]["text"]
    assert [o["state"] for o in data["observers"]] == ["observed"]
    code, out, _ = main([*args, "--distance", "5", "--lang", "fr"], capsys)
    assert code == 0 and "10 pieds ou plus" in out
