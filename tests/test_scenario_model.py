"""The scenario format and its loader: bundled scenarios, bad input, limits, JSON Schema.

Each bad scenario marks the line the error must point at with a ``# <-`` comment.
"""

from __future__ import annotations

import json
import signal
from collections.abc import Iterator
from pathlib import Path
from types import FrameType

import pytest

from vigile.errors import InputError, ScenarioError
from vigile.games.skirmish.fields import stealth_pool
from vigile.rulesets.skirmish.sight import Attitude
from vigile.scene.actors import Skill
from vigile.scene.loader import (
    MAX_BYTES,
    ScenarioIssue,
    ScenarioValidationError,
    bundled_names,
    bundled_path,
    load_scenario,
    parse_scenario,
    scenario_errors,
)
from vigile.scene.model import Scenario, Units, WallKind, unit_of
from vigile.scene.schema import SCHEMA_ID, scenario_json_schema

BUNDLED = [
    "dnd35-flour",
    "dnd35-invisible-intruder",
    "dnd35-rogue-sneak-attack",
    "night-raid",
    "night-raid-unscouted",
    "sk-a6-ambush",
    "sk-n9-shoji",
    "sk-s5-street",
    "sk-s6-street",
    "sk-v7-terrace",
    "starfinder-infiltration",
    "starfinder-sniper",
]

BASE = """\
ruleset: skirmish
name: test
map: {width: 100, height: 50}
walls:
  - {kind: wall, start: [50, 0], end: [50, 40]}
  - {kind: door, name: gate, start: [50, 40], end: [50, 50]}
cover:
  - {name: bush, points: [[0, 0], [10, 0], [10, 10], [0, 10]]}
actors:
  - {name: Kage, side: attackers, position: [5, 5], dice: {ninjitsu: 2}}
  - {name: Goro, side: defenders, position: [80, 20]}
"""


def write(tmp_path: Path, text: str, name: str = "s.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def marked_line(text: str, marker: str = "# <-") -> int:
    """The 1-based line of ``text`` that carries ``marker``."""
    return next(i for i, line in enumerate(text.splitlines(), 1) if marker in line)


def only_error(tmp_path: Path, text: str) -> ScenarioIssue:
    errors = scenario_errors(write(tmp_path, text))
    assert len(errors) == 1, [str(e) for e in errors]
    return errors[0]


@pytest.fixture
def no_hang() -> Iterator[None]:
    """Fail, rather than hang, if the loader ever loops on a hostile file."""

    def stop(signum: int, frame: FrameType | None) -> None:
        raise AssertionError("the loader took more than 20 s")

    previous = signal.signal(signal.SIGALRM, stop)
    signal.alarm(20)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


# --------------------------------------------------------------------------- bundled


def test_the_bundled_scenarios_are_listed() -> None:
    assert bundled_names() == BUNDLED


@pytest.mark.parametrize("name", BUNDLED)
def test_every_bundled_scenario_validates(name: str) -> None:
    assert scenario_errors(name) == []
    scenario = load_scenario(name)
    assert scenario == load_scenario(bundled_path(name))
    assert scenario.units is unit_of(scenario.ruleset)


def test_the_night_raid_has_what_the_issue_asks_for() -> None:
    raid = load_scenario("night-raid")
    guards = [a for a in raid.actors if a.side.value == "defenders"]
    ninjas = [a for a in raid.actors if a.side.value == "attackers"]
    assert raid.ruleset == "skirmish" and raid.time.value == "night" and raid.turns == 40
    assert len(guards) >= 8
    assert {a.state.value for a in guards} == {"posted", "patrolling"}
    assert all(len(members) == 2 for members in raid.groups().values()) and raid.groups()
    assert len(ninjas) == 3 and len({stealth_pool(a) for a in ninjas}) == 3
    assert {w.kind for w in raid.walls} == set(WallKind)
    assert {w.open for w in raid.walls if w.kind is WallKind.DOOR} == {True, False}
    assert {light.kind.value for light in raid.lights} >= {"lantern", "brazier"}
    assert {s.kind.value for s in raid.surfaces} >= {"floor", "water", "soft-ground", "tile"}
    assert raid.cover and raid.objective is not None and raid.hidden_guards == ("Rin",)
    assert set(raid.plans) == {a.name for a in ninjas}


def test_the_shoji_example_carries_its_house_rule() -> None:
    rules = load_scenario("sk-n9-shoji").rules()
    assert rules.num("noise.base.death_floor") == 4
    assert rules.is_overridden("noise.base.death_floor")
    assert not rules.is_overridden("noise.base.fumble")


def test_the_d20_scenarios_are_in_feet_with_invisible_intruders() -> None:
    starfinder = load_scenario("starfinder-infiltration")
    dnd = load_scenario("dnd35-invisible-intruder")
    assert starfinder.units is Units.FT and dnd.units is Units.FT
    assert starfinder.actor("Nyx").invisible and starfinder.actor("Nyx").bonuses is not None
    assert dnd.actor("Elandra").invisible
    assert any("scent" in a.senses for a in dnd.actors)
    assert {w.kind for w in dnd.walls} == {WallKind.WALL, WallKind.DOOR}


def test_a_bundled_name_that_does_not_exist_lists_the_others() -> None:
    (error,) = scenario_errors("night-raid-2")
    assert "no such file" in error.message and "night-raid" in error.message


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("text", "field", "words"),
    [
        (
            BASE.replace("position: [80, 20]}", "position: [180, 20]}  # <-"),
            "actors[1].position",
            "outside the map",
        ),
        (
            BASE.replace("end: [50, 40]}", "end: [50, 0]}  # <-"),
            "walls[0]",
            "zero-length",
        ),
        (
            BASE.replace("ruleset: skirmish", "ruleset: gurps  # <-"),
            "ruleset",
            "'gurps'",
        ),
        (
            BASE + "lights:\n  - {kind: lantern, at: [30, 60]}  # <-\n",
            "lights[0].at",
            "outside the map",
        ),
        (
            BASE + "surfaces:\n  - {kind: water, points: [[0, 0], [5, 5]]}  # <-\n",
            "surfaces[0].points",
            "at least 3 vertices",
        ),
        (
            BASE + "surfaces:\n  - {kind: water, points: [[0, 0], [5, 5], [9, 9]]}  # <-\n",
            "surfaces[0]",
            "no area",
        ),
        (
            BASE + "plans:\n  Hanzo:  # <-\n    - {to: [5, 5]}\n",
            "plans.Hanzo",
            "not among the actors",
        ),
        (
            BASE + "plans:\n  Kage:\n    - {to: [70, 10]}  # <-\n",
            "plans.Kage[0].to",
            "passes through a wall (walls[0])",
        ),
        (
            BASE + "plans:\n  Kage:\n    - {to: [40, 45]}\n    - {to: [60, 45]}  # <-\n",
            "plans.Kage[1].to",
            "closed door 'gate'",
        ),
        (
            BASE + "plans:\n  Kage:\n    - {to: [5, 60]}  # <-\n",
            "plans.Kage[0].to",
            "outside the map",
        ),
        (
            BASE + "plans:\n  Kage:\n    - {to: [40, 30], climb: true}  # <-\n",
            "plans.Kage[0].climb",
            "grapple",
        ),
        (
            BASE + "plans:\n  Kage:\n    - {to: [40, 30], speed: hidden}  # <-\n",
            "plans.Kage[0].speed",
            "cover",
        ),
        (
            BASE
            + "plans:\n  Kage:\n    - {to: [8, 8], actions: [{do: kill, target: Hanbei}]}  # <-\n",
            "plans.Kage[0].actions[0].target",
            "no actor is called 'Hanbei'",
        ),
        (
            BASE + "plans:\n  Kage:\n    - {to: [8, 8], actions: [{do: kill}]}  # <-\n",
            "plans.Kage[0].actions[0].target",
            "Field required",
        ),
        (
            BASE + "plans:\n  Kage:\n    - {to: [8, 8], actions: [{do: dance}]}  # <-\n",
            "plans.Kage[0].actions[0]",
            "'dance'",
        ),
        (
            BASE
            + "plans:\n  Kage:\n    - {to: [8, 8], actions: [{do: snipe, target: Goro}]}  # <-\n",
            "plans.Kage[0].actions[0]",
            "skirmish plans have no action 'snipe': it is an action of starfinder's",
        ),
        (
            BASE
            + "plans:\n  Kage:\n    - to: [8, 8]\n      actions:\n"
            + "        - {do: kill, target: Goro}\n"
            + "        - {do: cast-invisibility}  # <-\n",
            "plans.Kage[0].actions[1]",
            "skirmish plans have no action 'cast-invisibility': it is an action of starfinder "
            "and dnd35's",
        ),
        (
            BASE.replace("ruleset: skirmish", "ruleset: starfinder").replace(
                "dice: {ninjitsu: 2}}", "bonuses: {stealth: 5}}"
            )
            + "plans:\n  Kage:\n"
            + "    - {to: [8, 8], actions: [{do: attack-square, at: [80, 20]}]}  # <-\n",
            "plans.Kage[0].actions[0]",
            "starfinder plans have no action 'attack-square': it is an action of dnd35's",
        ),
        (
            BASE.replace("ruleset: skirmish", "ruleset: dnd35").replace(
                "dice: {ninjitsu: 2}}", "bonuses: {hide: 5}}"
            )
            + "plans:\n  Kage:\n    - {to: [8, 8], actions: [{do: snipe, target: Goro}]}  # <-\n",
            "plans.Kage[0].actions[0]",
            "dnd35 plans have no action 'snipe': it is an action of starfinder's",
        ),
        (
            BASE.replace("ruleset: skirmish", "ruleset: dnd35").replace(
                "dice: {ninjitsu: 2}}", "bonuses: {hide: 5}}"
            )
            + "plans:\n  Kage:\n    - {to: [8, 8], actions: [{do: throw-grapple}]}  # <-\n",
            "plans.Kage[0].actions[0]",
            "dnd35 plans have no action 'throw-grapple': it is an action of skirmish's",
        ),
        (
            BASE.replace("ruleset: skirmish", "ruleset: skirmish\nunits: ft  # <-"),
            "units",
            "skirmish is played in cm",
        ),
        (
            BASE + "hidden_guards: [Kage]  # <-\n",
            "hidden_guards[0]",
            "not a defender",
        ),
        (
            BASE + "house_rules:\n  noise:\n    base: {death_flor: 4}  # <-\n",
            "house_rules.noise.base.death_flor",
            "unknown key",
        ),
        (
            BASE + "colour: red  # <-\n",
            "colour",
            "Extra inputs are not permitted",
        ),
        (
            BASE.replace("dice: {ninjitsu: 2}}", "dice: {ninjitsu: x}}  # <-"),
            "actors[0].dice.ninjitsu",
            "valid integer",
        ),
        (
            BASE.replace("dice: {ninjitsu: 2}}", "dice: [2]}  # <-"),
            "actors[0].dice",
            "dice per skill",
        ),
        (
            BASE.replace("[5, 5], dice: {ninjitsu: 2}}", "[5, 5], bonuses: {stealth: 4}}  # <-"),
            "actors[0].bonuses",
            "skirmish actors have no field 'bonuses': it is a field of starfinder and dnd35's",
        ),
        (
            BASE.replace("[5, 5], dice: {ninjitsu: 2}}", "[5, 5], invisible: true}  # <-"),
            "actors[0].invisible",
            "skirmish actors have no field 'invisible': it is a field of starfinder and dnd35's",
        ),
        (
            BASE.replace("position: [80, 20]}", "position: [80, 20], group: g}")
            + "  - {name: Tsuki, side: attackers, position: [9, 9], group: g}  # <-\n",
            "actors[2].group",
            "mixes sides",
        ),
        (
            BASE.replace("position: [80, 20]}", "position: [80, 20], state: patrolling, group: g}")
            + "  - {name: Ippei, side: defenders, position: [90, 20], group: g}  # <-\n",
            "actors[2].group",
            "moves as one",
        ),
        (
            BASE.replace("[5, 5], dice: {ninjitsu: 2}}", "[5, 5], state: patrolling}  # <-"),
            "actors[0].state",
            "only defenders patrol",
        ),
        (
            BASE.replace("ruleset: skirmish", "ruleset: dnd35").replace(
                "dice: {ninjitsu: 2}}", "dice: {ninjitsu: 2}}  # <-"
            ),
            "actors[0].dice",
            "dnd35 actors have no field 'dice': it is a field of skirmish's",
        ),
        (
            BASE.replace("ruleset: skirmish", "ruleset: dnd35").replace(
                "dice: {ninjitsu: 2}}", "outfit: unsuited}  # <-"
            ),
            "actors[0].outfit",
            "dnd35 actors have no field 'outfit': it is a field of skirmish's",
        ),
        (
            BASE.replace("ruleset: skirmish", "ruleset: starfinder").replace(
                "dice: {ninjitsu: 2}}", "bonuses: {stealth: 5, hide: 3}}  # <-"
            ),
            "actors[0].bonuses.hide",
            "starfinder has no hide",
        ),
        (
            BASE + "objective: {at: [90, 40], radius: 5, who: [Goro]}  # <-\n",
            "objective.who[0]",
            "not one of the attackers",
        ),
        (
            BASE + "objective: {at: [90, 40]}  # <-\n",
            "objective",
            "needs a radius",
        ),
        (
            BASE + "encounter: {type: ambush, ambushers: [Kage], targets: [Tomoe]}  # <-\n",
            "encounter.targets[0]",
            "no actor is called 'Tomoe'",
        ),
        (
            BASE + "turns: 0  # <-\n",
            "turns",
            "greater than or equal to 1",
        ),
    ],
    ids=lambda value: value if isinstance(value, str) and "\n" not in value else "",
)
def test_a_bad_scenario_names_field_and_line(
    tmp_path: Path, text: str, field: str, words: str
) -> None:
    error = only_error(tmp_path, text)
    assert error.field == field
    assert words in error.message
    assert error.line == marked_line(text)
    assert str(error).startswith(f"{tmp_path / 's.yaml'}:{error.line}: {field}: ")


def test_a_duplicate_name_points_at_the_second_one(tmp_path: Path) -> None:
    text = BASE.replace("name: Goro", "name: Kage")
    error = only_error(tmp_path, text)
    assert (error.field, error.line) == ("actors[1].name", marked_line(text, "[80, 20]"))
    assert "duplicate name 'Kage' (already actors[0])" in error.message


def test_an_open_door_and_a_door_opened_on_the_way_let_a_plan_through(tmp_path: Path) -> None:
    opened = BASE + (
        "plans:\n  Kage:\n    - {to: [45, 45], actions: [{do: open-door, door: gate}]}\n"
        "    - {to: [60, 45], speed: fast}\n"
    )
    assert scenario_errors(write(tmp_path, opened)) == []
    already_open = BASE.replace("name: gate,", "name: gate, open: true,") + (
        "plans:\n  Kage:\n    - {to: [40, 45]}\n    - {to: [60, 45]}\n"
    )
    assert scenario_errors(write(tmp_path, already_open)) == []


def test_a_climb_after_a_grapple_crosses_a_wall_but_not_a_door(tmp_path: Path) -> None:
    climb = BASE + (
        "plans:\n  Kage:\n"
        "    - {to: [45, 20], actions: [{do: throw-grapple, onto: tile}]}\n"
        "    - {to: [60, 20], climb: true}\n"
        "    - {to: [60, 46]}\n"
        "    - {actions: [{do: throw-grapple}]}\n"
        "    - {to: [40, 46], climb: true}  # <-\n"
    )
    error = only_error(tmp_path, climb)
    assert error.field == "plans.Kage[4].to" and "door" in error.message
    assert error.line == marked_line(climb)


def test_every_error_is_reported_at_once_in_file_order(tmp_path: Path) -> None:
    text = """\
ruleset: skirmish
name: many mistakes
map: {width: 100, height: 50}
walls:
  - {start: [10, 10], end: [10, 10]}
  - {start: [50, 0], end: [50, 50]}
surfaces:
  - {kind: lava, points: [[0, 0], [5, 0], [5, 5]]}
actors:
  - {name: Kage, side: attackers, position: [1, 2]}
  - {name: Kage, side: defenders, position: [200, 2]}
plans:
  Kage:
    - {to: [60, 10]}
  Nobody: []
lights:
  - {kind: lantern, at: [300, 3]}
"""
    path = write(tmp_path, text)
    with pytest.raises(ScenarioValidationError) as caught:
        load_scenario(path)
    error = caught.value
    found = [(issue.line, issue.field) for issue in error.errors]
    assert found == [
        (5, "walls[0]"),
        (8, "surfaces[0].kind"),
        (11, "actors[1].name"),
        (11, "actors[1].position"),
        (14, "plans.Kage[0].to"),
        (15, "plans.Nobody"),
        (17, "lights[0].at"),
    ]
    assert isinstance(error, ScenarioError) and isinstance(error, InputError)
    assert (error.file, error.line, error.field) == (str(path), 5, "walls[0]")
    message = str(error)
    assert message.startswith(f"{path}: 7 errors\n")
    assert all(str(issue) in message.splitlines() for issue in error.errors)


def test_one_error_reads_on_one_line(tmp_path: Path) -> None:
    path = write(tmp_path, BASE.replace("[80, 20]", "[80, 90]"))
    with pytest.raises(ScenarioError) as caught:
        load_scenario(path)
    assert str(caught.value) == (
        f"{path}:11: actors[1].position: actor 'Goro' at [80, 90] is outside the map "
        "(0..100 x 0..50 cm)"
    )


def test_json_and_toml_scenarios_load_and_report_lines(tmp_path: Path) -> None:
    kage: dict[str, object] = {"name": "Kage", "side": "attackers", "position": [5, 5]}
    data: dict[str, object] = {
        "ruleset": "skirmish",
        "name": "json",
        "map": {"width": 100, "height": 50},
        "actors": [kage],
    }
    assert load_scenario(write(tmp_path, json.dumps(data), "s.json")).name == "json"
    bad = json.dumps({**data, "actors": [{**kage, "position": [500, 5]}]}, indent=1)
    (error,) = scenario_errors(write(tmp_path, bad, "bad.json"))
    assert error.field == "actors[0].position" and error.line == marked_line(bad, '"position"')
    toml = (
        'ruleset = "skirmish"\nname = "toml"\n[map]\nwidth = 100\nheight = 50\n'
        '[[actors]]\nname = "Kage"\nside = "attackers"\nposition = [5, 5]\n'
        '[[actors]]\nname = "Goro"\nside = "defenders"\nposition = [500, 5]\n'
    )
    (error,) = scenario_errors(write(tmp_path, toml, "s.toml"))
    assert (error.field, error.line) == ("actors[1].position", 13)


def test_units_default_to_the_rulesets(tmp_path: Path) -> None:
    text = BASE.replace("ruleset: skirmish", "ruleset: dnd35").replace(", dice: {ninjitsu: 2}", "")
    assert load_scenario(write(tmp_path, text)).units is Units.FT


def test_the_model_checks_fields_and_consistent_checks_across_them() -> None:
    """Issue 9: the model validates single fields; one function, ``consistent``, runs the
    cross-field checks for the loader, the sweep and any caller."""
    from vigile.scene.consistency import consistent

    scenario = Scenario.model_validate(
        {
            "ruleset": "skirmish",
            "name": "direct",
            "map": {"width": 10, "height": 10},
            "actors": [{"name": "A", "side": "attackers", "position": [20, 1]}],
        }
    )
    with pytest.raises(ScenarioError, match=r"actors\[0\].position: .* outside the map"):
        consistent(scenario)


def test_parse_scenario_reads_text() -> None:
    scenario = parse_scenario(BASE, file="inline")
    assert scenario.actor("Kage").pool(Skill.NINJITSU) == 2
    assert scenario.actor("Kage").detection_pool() == 1  # untrained: one die (SK-D1)
    assert scenario.actor("Goro").attitude is None
    assert Attitude.HIDDEN.value == "hidden"


# --------------------------------------------------------------------------- limits


def test_a_missing_file(tmp_path: Path) -> None:
    (error,) = scenario_errors(tmp_path / "nothing.yaml")
    assert error.message.startswith("no such file") and error.line is None


def test_a_directory(tmp_path: Path) -> None:
    (error,) = scenario_errors(tmp_path)
    assert "directory" in error.message


def test_a_binary_file(tmp_path: Path) -> None:
    path = tmp_path / "s.yaml"
    path.write_bytes(b"ruleset: skirmish\n\x00\x01\x02\xff")
    (error,) = scenario_errors(path)
    assert "binary" in error.message


def test_a_file_that_is_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "s.yaml"
    path.write_bytes("ruleset: skirmish\nname: caf\xe9\n".encode("latin-1"))
    (error,) = scenario_errors(path)
    assert "UTF-8" in error.message and error.line == 2


def test_a_file_over_the_size_limit_is_not_read(tmp_path: Path) -> None:
    path = tmp_path / "s.yaml"
    with path.open("wb") as stream:
        stream.truncate(50 * 1024 * 1024)  # 50 MB, sparse
    (error,) = scenario_errors(path)
    assert "larger than 2 MiB" in error.message
    assert MAX_BYTES == 2 * 1024 * 1024


def test_a_billion_laughs_is_refused(tmp_path: Path, no_hang: None) -> None:
    lines = ['lol0: &lol0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for i in range(1, 10):
        lines.append(f"lol{i}: &lol{i} [" + ", ".join([f"*lol{i - 1}"] * 9) + "]")
    (error,) = scenario_errors(write(tmp_path, "\n".join(lines) + "\n"))
    assert "YAML bomb" in error.message


def test_an_alias_used_too_often_is_refused(tmp_path: Path, no_hang: None) -> None:
    text = "x: &x [1, 2]\ny: [" + ", ".join(["*x"] * 101) + "]  # <-\n"
    (error,) = scenario_errors(write(tmp_path, text))
    assert "more than 100 times" in error.message and error.line == 2


def test_a_recursive_alias_is_refused(tmp_path: Path, no_hang: None) -> None:
    (error,) = scenario_errors(write(tmp_path, "a: &a [1, *a]\n"))
    assert "recursive" in error.message


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("s.yaml", "a: " + "[" * 10_000 + "]" * 10_000 + "\n"),
        ("s.json", "[" * 100_000 + "]" * 100_000),
        ("s.toml", "a = " + "[" * 5_000 + "]" * 5_000 + "\n"),
    ],
)
def test_nesting_too_deep_is_refused(tmp_path: Path, name: str, text: str, no_hang: None) -> None:
    (error,) = scenario_errors(write(tmp_path, text, name))
    assert "nested more than" in error.message or "not valid" in error.message


def test_yaml_syntax_errors_and_odd_documents(tmp_path: Path) -> None:
    (error,) = scenario_errors(write(tmp_path, "name: [1, 2\nruleset: skirmish\n"))
    assert "not valid YAML" in error.message and error.line == 2
    (error,) = scenario_errors(write(tmp_path, ""))
    assert error.message == "the file is empty"
    (error,) = scenario_errors(write(tmp_path, "- a\n- b\n"))
    assert "top level must be a mapping" in error.message
    (error,) = scenario_errors(write(tmp_path, "a: 1\n---\nb: 2\n"))
    assert "single document" in error.message


def test_a_duplicate_key_is_an_error(tmp_path: Path) -> None:
    text = BASE + "name: again  # <-\n"
    error = only_error(tmp_path, text)
    assert error.field == "name" and "duplicate key" in error.message
    assert error.line == marked_line(text)


# --------------------------------------------------------------------------- JSON Schema


def test_the_json_schema_exports_every_field_described() -> None:
    schema = json.loads(json.dumps(scenario_json_schema()))
    assert schema["$id"] == SCHEMA_ID and schema["title"] == "vigile scenario"
    assert schema["$schema"].startswith("https://json-schema.org/")
    assert {
        "ruleset",
        "units",
        "time",
        "map",
        "walls",
        "surfaces",
        "cover",
        "lights",
        "actors",
        "plans",
        "scouting",
        "hidden_guards",
        "turns",
        "objective",
        "seed",
        "dice_values",
    } <= set(schema["properties"])
    assert set(schema["required"]) == {"ruleset", "name", "map", "actors"}
    undescribed = [
        f"{model}.{name}"
        for model, definition in schema["$defs"].items()
        for name, prop in definition.get("properties", {}).items()
        if not prop.get("description")
    ]
    undescribed += [
        name for name, prop in schema["properties"].items() if "description" not in prop
    ]
    assert undescribed == []
    # any game's actor: the shared fields and each game's own (the skirmish's stealth dice)
    actor = schema["$defs"]["AnyGameActor"]["properties"]
    assert actor["side"]["$ref"] == "#/$defs/Side"
    assert "SK-N3" in actor["stealth_dice"]["description"]
    assert "DD-1" in actor["invisible"]["description"]
    d20 = scenario_json_schema("dnd35")
    dnd_actor = d20["$defs"]["Dnd35Actor"]["properties"]
    assert "stealth_dice" not in dnd_actor
    assert {"bonuses", "invisible", "ethereal", "incorporeal", "breathing"} <= set(dnd_actor)
    assert "DD-20" in d20["$defs"]["D20Stats"]["properties"]["hide"]["description"]
    skirmish = scenario_json_schema("skirmish")["$defs"]["SkirmishActor"]["properties"]
    assert "invisible" not in skirmish and "bonuses" not in skirmish
    assert {"dice", "stealth_dice", "outfit", "ninja", "talks"} <= set(skirmish)
    assert not {"dice", "outfit", "ninja", "talks"} & set(dnd_actor)
    assert d20["properties"]["ruleset"]["const"] == "dnd35"


def test_an_immobile_leg_that_moves_is_refused(tmp_path: Path) -> None:
    """Issue 8: an immobile leg with a waypoint moved at half speed but was seen as immobile."""
    from vigile.scene.loader import scenario_errors

    path = tmp_path / "moves.yaml"
    path.write_text(
        "ruleset: skirmish\nname: x\nmap: {width: 50, height: 50}\n"
        "actors:\n  - {name: N, side: attackers, position: [1, 1]}\n"
        "plans:\n  N:\n    - {to: [10, 10], speed: immobile}\n"
    )
    errors = [str(e) for e in scenario_errors(str(path))]
    assert any("plans.N[0].speed" in e and "immobile leg cannot move" in e for e in errors), errors


def test_a_skirmish_field_in_a_d20_scenario_names_the_skirmish() -> None:
    """``stealth_dice`` is the skirmish's own field (games/skirmish/fields.py): a D&D 3.5
    actor that writes it is refused, the error naming the field, its line and its game."""
    text = bundled_path("dnd35-invisible-intruder").read_text("utf-8")
    line = next(i for i, row in enumerate(text.splitlines(), 1) if "name: Sergeant Brom" in row)
    edited = text.replace("{name: Sergeant Brom,", "{name: Sergeant Brom, stealth_dice: 2,")
    with pytest.raises(ScenarioError) as raised:
        parse_scenario(edited, file="tower.yaml")
    assert (
        f"tower.yaml:{line}: actors[1].stealth_dice: dnd35 actors have no field 'stealth_dice': "
        "it is a field of skirmish's"
    ) in str(raised.value)
