"""Issue 15, numbers from any file: one validation layer, a clear one-line error (exit 2).

Each case was found by fuzzing and is played through the real CLI (:func:`vigile.cli.main`):
exit code 2, one line on stderr naming the file, the line, the key or field and the allowed
range, and no traceback. House-rule ranges live in :data:`vigile.rulesets.limits.RULE_RANGES`,
applied by :func:`vigile.rulesets.data.override_issues` for house-rule files and scenarios alike.
"""

from __future__ import annotations

import json
import re
from importlib import resources
from pathlib import Path

import pytest

from vigile.cli import main
from vigile.rulesets.data import RuleData, override_issues, shipped
from vigile.rulesets.limits import (
    LIMITS,
    MAX_DIGITS,
    RULE_RANGES,
    digits_issue,
    rule_range,
    shown,
)
from vigile.scene.loader import scenario_errors

SHOJI = resources.files("vigile.scenarios").joinpath("sk-n9-shoji.yaml").read_text("utf-8")
SHOJI_HOUSE = "house_rules: {noise: {base: {death_floor: 4}}}"
STARFINDER = (
    resources.files("vigile.scenarios").joinpath("starfinder-infiltration.yaml").read_text("utf-8")
)
NOISE = ["check", "skirmish", "noise", "--event", "fumble", "--distance", "30"]


def refused(capsys: pytest.CaptureFixture[str], args: list[str]) -> str:
    """Run ``vigile ARGS``: it must exit 2 with one line on stderr; that line."""
    code = main(args)
    err = capsys.readouterr().err
    assert code == 2, err
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    return lines[0]


def house_file(tmp_path: Path, text: str | bytes) -> str:
    path = tmp_path / "house.toml"
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return str(path)


def shoji_with(tmp_path: Path, house: str, name: str = "raid.yaml") -> str:
    path = tmp_path / name
    path.write_text(SHOJI.replace(SHOJI_HOUSE, f"house_rules: {house}"), encoding="utf-8")
    return str(path)


# --------------------------------------------------------------------------- house-rule ranges


@pytest.mark.parametrize(
    ("text", "key", "allowed"),
    [
        ("[noise]\nnight_step_cm = 0\n", "noise.night_step_cm", "1 to 100000 cm"),
        ("[sight]\nlit_radius_cm = -5\n", "sight.lit_radius_cm", "0 to 100000 cm"),
        ("[sight.band_cm]\nfast = -1\n", "sight.band_cm.fast", "0 to 100000 cm"),
        ("[turn]\npatrol_bounces = -1\n", "turn.patrol_bounces", "0 to 10"),
        ("[turn]\nfast_cm = -30\n", "turn.fast_cm", "1 to 10000 cm"),
        ("[noise]\nper_step = 101\n", "noise.per_step", "-100 to 100"),
    ],
)
def test_check_refuses_a_house_rule_out_of_range(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str, key: str, allowed: str
) -> None:
    path = house_file(tmp_path, "# my table\n" + text)
    line = refused(capsys, [*NOISE, "--house-rules", path])
    assert f"{path}:3: '{key}'" in line and "out of range" in line and line.endswith(allowed)


def test_run_and_simulate_refuse_a_night_step_of_zero_in_a_scenario(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = shoji_with(tmp_path, "{noise: {night_step_cm: 0}}")
    for args in (["run", path], ["simulate", path, "--runs", "10"]):
        line = refused(capsys, args)
        assert f"{path}:28: house_rules.noise.night_step_cm:" in line
        assert "1 to 100000 cm" in line
    assert "night_step_cm" in str(scenario_errors(path)[0])


@pytest.mark.parametrize(
    "house",
    ["{sight: {lit_radius_cm: -5}}", "{turn: {patrol_bounces: -1}}", "{turn: {fast_cm: -30}}"],
)
def test_run_refuses_negative_radii_bounces_and_moves(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, house: str
) -> None:
    line = refused(capsys, ["run", shoji_with(tmp_path, house)])
    assert ":28: house_rules." in line and "out of range" in line


def test_every_shipped_rule_number_is_within_its_range() -> None:
    """The ranges allow every game's own numbers, and each number has a named range (the
    catch-all "a modifier" only for keys that are one)."""
    for game in ("skirmish", "starfinder", "dnd35"):
        assert override_issues(shipped(game).values, shipped(game).values) == []
    assert rule_range("noise.night_step_cm").least == 1
    assert rule_range("spot.distance_step_ft").least == 1
    assert rule_range("turn.sense_range_ft").least == 0
    assert rule_range("attack.miss_chance").most == 100
    assert rule_range("spot.dc.moving").what == "a DC"
    assert rule_range("noise.base.fumble").most == 20
    assert rule_range("dice.untrained_pool").most == LIMITS.max_dice
    assert RULE_RANGES[-1][0] == ("*",)


def test_a_scenario_and_a_house_rule_file_share_one_validation() -> None:
    data: RuleData = shipped("skirmish")
    issues = override_issues(data.values, {"noise": {"night_step_cm": 0}})
    assert issues == [
        (
            ("noise", "night_step_cm"),
            "'noise.night_step_cm' = 0 is out of range: "
            "a distance step (the rules divide by it) is 1 to 100000 cm",
        )
    ]


# --------------------------------------------------------------------------- too many digits


def test_a_house_rule_of_5000_digits_is_refused_from_its_text(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = house_file(tmp_path, "[noise.base]\nfumble = " + "9" * 5000 + "\n")
    line = refused(capsys, [*NOISE, "--house-rules", path])
    assert line.endswith(f"{path}:2: noise.base.fumble: a number of 5000 digits (at most 30)")


def test_a_house_rule_nested_too_deep_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = house_file(tmp_path, "a = " + "[" * 3000 + "]" * 3000 + "\n")
    assert "nested too deep" in refused(capsys, [*NOISE, "--house-rules", path])


def test_a_house_rule_file_may_start_with_a_bom(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = house_file(tmp_path, b"\xef\xbb\xbf[noise.base]\nfumble = 4\n")
    assert main([*NOISE, "--house-rules", path]) == 0
    assert "house rule" in capsys.readouterr().out.lower()


@pytest.mark.parametrize("command", [["scenario", "validate"], ["run"], ["simulate"]])
def test_a_scenario_difficulty_of_5000_digits(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, command: list[str]
) -> None:
    path = shoji_with(tmp_path, "{noise: {base: {fumble: " + "9" * 5000 + "}}}")
    line = refused(capsys, [*command, path])
    assert f"{path}:28: house_rules.noise.base.fumble: a number of 5000 digits" in line


@pytest.mark.parametrize("command", [["scenario", "validate"], ["run"], ["simulate"]])
def test_a_seed_of_100000_digits_in_yaml(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, command: list[str]
) -> None:
    path = tmp_path / "raid.yaml"
    path.write_text(SHOJI.replace("turns: 3", "turns: 3\nseed: " + "9" * 100_000))
    line = refused(capsys, [*command, str(path)])
    assert f"{path}:28: seed: a number of 100000 digits (at most {MAX_DIGITS})" in line


def test_a_number_of_5000_digits_in_json_and_toml(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    big = "9" * 5000
    as_json = tmp_path / "raid.json"
    as_json.write_text(
        json.dumps({"ruleset": "skirmish", "name": "x"})[:-1] + f', "turns": {big}}}'
    )
    line = refused(capsys, ["scenario", "validate", str(as_json)])
    assert f"{as_json}:1: turns: a number of 5000 digits" in line
    as_toml = tmp_path / "raid.toml"
    as_toml.write_text(f'ruleset = "skirmish"\nname = "x # 1"\n[map]\nwidth = {big}\n')
    line = refused(capsys, ["run", str(as_toml)])
    assert f"{as_toml}:4: map.width: a number of 5000 digits" in line


def test_long_digit_runs_in_strings_and_comments_are_not_numbers() -> None:
    from vigile.rulesets.toml_lines import long_number

    text = 'name = "' + "1" * 50 + '"  # ' + "2" * 50 + "\nkey99999 = 3\nx = 1.5\n"
    assert long_number(text, MAX_DIGITS) is None
    assert digits_issue("1_000") is None
    assert shown(10**40).startswith("a number of about 41 digits")


# --------------------------------------------------------------------------- seeds


@pytest.mark.parametrize(
    "args",
    [
        ["simulate", "night-raid", "--runs", "10", "--seed", "-1"],
        ["demo", "--tour", "--seed", "-1"],
        ["run", "night-raid", "--seed", "-1"],
        [*NOISE, "--seed", "-1"],
        ["simulate", "night-raid", "--runs", "10", "--seed", str(2**63)],
    ],
)
def test_a_seed_out_of_range_is_refused_the_same_everywhere(
    capsys: pytest.CaptureFixture[str], args: list[str]
) -> None:
    line = refused(capsys, args)
    assert re.search(r"--seed: -?\d+: a seed is 0 to 2\*\*63 - 1 \(9223372036854775807\)$", line)


# --------------------------------------------------------------------------- validate = play


def test_validate_refuses_dice_values_that_play_would_refuse(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "raid.yaml"
    path.write_text(SHOJI.replace("dice_values: [4, 1, 5, 2, 5]", "dice_values: [4, 1, 7, 2, 5]"))
    for command in (["scenario", "validate"], ["run"]):
        line = refused(capsys, [*command, str(path)])
        assert f"{path}:29: dice_values[2]: 7 is not a face of a d6 (1 to 6)" in line


def test_validate_refuses_more_guards_than_a_check_takes(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    many = LIMITS.max_observers + 1
    guards = "".join(
        f"  - {{name: g{i}, side: defenders, position: [{i % 40}, 1], "
        "bonuses: {perception: 1}}\n"
        for i in range(many)
    )
    path = tmp_path / "crowd.yaml"
    path.write_text(STARFINDER.replace("actors:\n", "actors:\n" + guards, 1))
    # the line of the `actors:` key, wherever the bundled scenario puts it
    actors_line = STARFINDER.splitlines().index("actors:") + 1
    for command in (["scenario", "validate"], ["run"]):
        line = refused(capsys, [*command, str(path)])
        assert "--perception" not in line
        assert line.endswith(
            f"{path}:{actors_line}: actors: {many + 3} defenders: at most {LIMITS.max_observers} "
            "on one side (the observers of one check)"
        )
