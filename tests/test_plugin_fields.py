"""A game's plug-in brings its own scenario fields, plan actions and words, with no file of
vigile's touched: the luck game (``tests/toygame_fields``) gives its actors a ``luck``, its legs
a ``whistle``, and its pages its own speeds, actions and stats.

Its field validates as any other (a wrong value is an error naming the field and its line; a
field of another game is refused), its game reads it (a lucky sneak is glimpsed later, worked
below from LUCK-1 and LUCK-2), the JSON schema of its scenarios describes it, and the GM page
and the editor offer its words.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

import toygame_fields
from toygame_fields.fields import VOCABULARY, LuckFields, Whistle
from vigile import registry
from vigile.cli import main
from vigile.engine.run import play
from vigile.scene.loader import check_text, parse_scenario
from vigile.scene.schema import scenario_json_schema
from vigile.scene.vocabulary import vocabulary_issues
from vigile.store import Store
from vigile.web.app import create_app
from vigile.web.editor import configure

TOKEN = "luck-test-token-0123456789"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
SCENARIO = """\
ruleset: luckgame
name: A lucky raid
map: {width: 50, height: 50}
turns: 3
actors:
  - {name: Sneak, side: attackers, position: [10, 10], luck: 2}
  - {name: Watcher, side: defenders, position: [40, 40]}
plans:
  Sneak:
    - to: [20, 20]
      actions: [{do: whistle, tune: high}]
dice_values: [5, 6]
"""


@pytest.fixture
def luck() -> Iterator[None]:
    registry.register(toygame_fields.PLUGIN)
    yield
    registry.unregister("luckgame")


@pytest.fixture
def client(tmp_path: Path, luck: None) -> Iterator[TestClient]:
    store = Store(f"sqlite:///{tmp_path / 'luck.db'}")
    app = create_app(store, gm_token=TOKEN)
    configure(app, workspace=tmp_path)
    with TestClient(app) as test_client:
        yield test_client
    store.close()


def errors(text: str) -> list[str]:
    scenario, found = check_text(text, file="luck.yaml")
    assert scenario is None
    return [str(issue) for issue in found]


# ------------------------------------------------------------------------------ validation


def test_its_field_and_its_action_validate_and_are_typed(luck: None) -> None:
    scenario = parse_scenario(SCENARIO)
    sneak = scenario.actor("Sneak")
    assert isinstance(sneak, LuckFields) and sneak.luck == 2
    assert isinstance(scenario.actor("Watcher"), LuckFields)
    assert scenario.actor("Watcher").luck == 0  # type: ignore[attr-defined]
    (leg,) = scenario.plans["Sneak"]
    assert leg.actions == (Whistle(do="whistle", tune="high"),)


def test_a_wrong_value_of_its_field_names_the_field_and_the_line(luck: None) -> None:
    found = errors(SCENARIO.replace("luck: 2", "luck: 4").replace("tune: high", "tune: loud"))
    assert "luck.yaml:6: actors[0].luck: Input should be less than or equal to 3" in found
    assert (
        "luck.yaml:11: plans.Sneak[0].actions[0].tune: Input should be 'low' or 'high', not 'loud'"
    ) in found
    assert "luck.yaml:6: actors[0].luk: luckgame actors have no field 'luk'" in errors(
        SCENARIO.replace("luck: 2", "luk: 2")
    )


def test_its_field_and_its_action_are_its_own(luck: None) -> None:
    """A skirmish scenario has no luck and no whistle: the game's words are its own."""
    found = errors(SCENARIO.replace("ruleset: luckgame", "ruleset: skirmish"))
    assert (
        "luck.yaml:6: actors[0].luck: skirmish actors have no field 'luck': it is a field of "
        "luckgame's"
    ) in found
    assert any(e.startswith("luck.yaml:11: plans.Sneak[0].actions[0]: ") for e in found)
    assert any("'whistle'" in e for e in found)


def test_its_scenarios_have_a_json_schema_with_its_field(
    luck: None, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["scenario", "schema", "--ruleset", "luckgame"]) == 0
    schema = json.loads(capsys.readouterr().out)
    actor = schema["$defs"]["LuckgameActor"]["properties"]
    assert actor["luck"]["maximum"] == 3 and actor["luck"]["minimum"] == 0
    assert "LUCK-2" in actor["luck"]["description"]
    assert "Whistle" in schema["$defs"]
    assert schema["properties"]["ruleset"]["const"] == "luckgame"
    assert "luck" not in scenario_json_schema("skirmish")["$defs"]["SkirmishActor"]["properties"]
    assert "luck" in scenario_json_schema()["$defs"]["AnyGameActor"]["properties"]


# ------------------------------------------------------------------------------ play


def test_its_game_reads_the_field(luck: None) -> None:
    """LUCK-1: one d6 at 4+; LUCK-2: +1 per point of the sneak's luck. Luck 2: 6+, a chance of
    1/6; the dice 5 then 6: nothing on turn 1, a glimpse on turn 2. Luck 0: 4+, 1/2, and the 5
    of turn 1 glimpses."""
    lucky = play(parse_scenario(SCENARIO))
    assert lucky.outcome.kind == "detected" and lucky.outcome.turn == 2
    chances = [e.verdict.chance for e in lucky.events if e.verdict is not None]
    assert chances == [Fraction(1, 6)] * 2
    plain = play(parse_scenario(SCENARIO.replace("luck: 2", "luck: 0")))
    assert plain.outcome.kind == "detected" and plain.outcome.turn == 1
    assert [e.verdict.chance for e in plain.events if e.verdict is not None] == [Fraction(1, 2)]


# ------------------------------------------------------------------------------ the pages


def options(page: str, select_id: str) -> dict[str, str]:
    found = re.search(rf'<select id="{select_id}"[^>]*>(.*?)</select>', page, flags=re.DOTALL)
    assert found is not None, select_id
    return {
        html.unescape(value): html.unescape(text).strip()
        for value, text in re.findall(
            r'<option value="([^"]*)"[^>]*>(.*?)</option>', found.group(1), flags=re.DOTALL
        )
    }


def test_its_vocabulary_is_sound() -> None:
    assert vocabulary_issues(VOCABULARY) == []


def test_the_gm_page_offers_its_words(client: TestClient) -> None:
    created = client.post("/api/v1/encounters", json={"text": SCENARIO}, headers=AUTH)
    assert created.status_code == 201, created.text
    encounter = created.json()["encounter"]["id"]
    page = client.get(f"/encounters/{encounter}?token={TOKEN}&lang=en").text
    assert options(page, "move-speed") == {"half": "creeps (LUCK-1)", "fast": "dashes (LUCK-1)"}
    assert 'name="move.run"' not in page and 'name="move.climb"' not in page
    actions = options(page, "do")
    assert not {"throw-grapple", "attack-square", "snipe", "kill", "strike"} & set(actions)
    assert {"move", "hide", "wait"} <= set(actions)
    assert list(options(page, "overlay-select")) == ["", "half", "fast"]
    french = client.get(f"/encounters/{encounter}?token={TOKEN}&lang=fr").text
    assert options(french, "move-speed") == {"half": "rampe (LUCK-1)", "fast": "fonce (LUCK-1)"}


def test_its_plan_action_is_played_live(client: TestClient) -> None:
    """A plug-in's own plan action (the whistle, LUCK-3) joins live play as it joins plans:
    offered on the GM page with its field, played over the API, its field checked; a
    skirmish encounter knows no whistle."""
    created = client.post("/api/v1/encounters", json={"text": SCENARIO}, headers=AUTH)
    encounter = created.json()["encounter"]["id"]
    page = client.get(f"/encounters/{encounter}?token={TOKEN}&lang=en").text
    assert options(page, "do")["whistle"] == "whistles a tune (LUCK-3)"
    assert 'name="whistle.tune"' in page
    url = f"/api/v1/encounters/{encounter}/actions"
    played = client.post(
        url, json={"action": {"do": "whistle", "actor": "Sneak", "tune": "high"}}, headers=AUTH
    )
    assert played.status_code == 200, played.text
    wrong = client.post(
        url, json={"action": {"do": "whistle", "actor": "Sneak", "tune": "shrill"}}, headers=AUTH
    )
    assert wrong.status_code == 422 and "action.whistle.tune" in wrong.text
    raid = client.post("/api/v1/encounters", json={"scenario": "night-raid"}, headers=AUTH)
    other = raid.json()["encounter"]["id"]
    refused = client.post(
        f"/api/v1/encounters/{other}/actions",
        json={"action": {"do": "whistle", "actor": "Kage"}},
        headers=AUTH,
    )
    assert refused.status_code == 422 and "unknown action 'whistle'" in refused.text


def test_the_editor_offers_its_words_and_sets_its_field(client: TestClient, tmp_path: Path) -> None:
    (tmp_path / "luck.yaml").write_text(SCENARIO)
    page = client.get(f"/editor?file=luck.yaml&token={TOKEN}&lang=fr").text
    assert options(page, "ed-speed") == {"half": "rampe (LUCK-1)", "fast": "fonce (LUCK-1)"}
    answer = client.post(
        "/api/v1/editor/apply",
        json={
            "yaml": SCENARIO,
            "edit": {"op": "set-actor", "name": "Sneak", "field": "luck", "value": 3},
        },
        headers=AUTH,
    ).json()
    assert answer["errors"] == []
    assert parse_scenario(answer["yaml"]).actor("Sneak").luck == 3  # type: ignore[attr-defined]
    words = answer["game"]
    assert words["ruleset"] == "luckgame"
    assert words["stats"] == [
        {"name": "luck", "label": "luck (LUCK-2)", "rules": ["LUCK-2"], "kind": "number"}
    ]
    assert words["actions"] == [
        {
            "name": "whistle",
            "label": "whistles a tune (LUCK-3)",
            "rules": ["LUCK-3"],
            "field": "tune",  # what the editor's one input fills
            "kind": "choice",
            "choices": ["low", "high"],
        }
    ]
    assert [m["name"] for m in words["moves"]] == []
    wrong = client.post(
        "/api/v1/editor/apply",
        json={
            "yaml": SCENARIO,
            "edit": {"op": "set-actor", "name": "Sneak", "field": "luck", "value": 9},
        },
        headers=AUTH,
    ).json()
    assert [(e["line"], e["field"]) for e in wrong["errors"]] == [(6, "actors[0].luck")]


def test_no_file_of_vigile_names_the_luck_game() -> None:
    """Everything above came from its package: nothing under ``src/vigile`` names it."""
    source = Path(__file__).parents[1] / "src" / "vigile"
    named = [
        path
        for path in source.rglob("*")
        if path.is_file()
        and path.suffix in (".py", ".toml", ".html", ".js")
        and re.search("luckgame|toygame_fields|LUCK-", path.read_text("utf-8"))
    ]
    assert named == []


def test_a_plug_in_s_fields_and_words_are_checked() -> None:
    """A field the shared actor has, or a word for an action the game does not have, is named
    (what registration reports)."""
    from dataclasses import replace

    from vigile.scene.games import plugin_problems

    assert plugin_problems(toygame_fields.PLUGIN) == []
    clash = replace(toygame_fields.PLUGIN, actor_fields="vigile.scene.actors:Actor")
    assert "actor_fields: 'name' is a shared actor field" in plugin_problems(clash)
    silent = replace(toygame_fields.PLUGIN, plan_actions=None)
    assert plugin_problems(silent) == [
        "vocabulary: the action 'whistle' is not one of its plan actions"
    ]
    missing = replace(toygame_fields.PLUGIN, actor_fields="toygame_fields.fields:Nowhere")
    assert plugin_problems(missing)[0].startswith("its scenario fields or actions:")


def test_its_actors_go_into_a_checkpoint_of_live_play(luck: None) -> None:
    """Live play keeps checkpoints of a game's state (a pickle read back through an
    unpickler that builds only vigile's classes): a game's own actor model is one of them,
    made again by name where it was not yet."""
    from vigile.engine.run import new_game
    from vigile.live import checkpoints
    from vigile.scene import model as games

    scenario = parse_scenario(SCENARIO)
    game = new_game(scenario, seed=0)
    actors = [walker.actor for walker in game.walkers]
    data = checkpoints.dump_state(actors, events=[], scenario=scenario)
    games._models.cache_clear()  # as in a process that has made none of its models yet
    sneak = checkpoints.load_state(data, events=[], scenario=scenario)[0]
    assert isinstance(sneak, LuckFields) and sneak.luck == 2


def test_registering_a_plug_in_with_a_broken_vocabulary_is_refused() -> None:
    from dataclasses import replace

    silent = replace(toygame_fields.PLUGIN, plan_actions=None)
    with pytest.raises(registry.PluginError, match="'whistle' is not one of its plan actions"):
        registry.register(silent)
    assert "luckgame" not in registry.names()


def test_the_guide_shows_the_luck_game_s_fields() -> None:
    """docs/plugins.md's code block for the luck game's fields is that file."""
    root = Path(__file__).parents[1]
    guide = (root / "docs" / "plugins.md").read_text("utf-8")
    blocks = re.findall(r"```\w*\n# tests/(toygame_fields/[\w.]+)\n(.*?)```", guide, re.DOTALL)
    assert [name for name, _ in blocks] == ["toygame_fields/fields.py"]
    for name, code in blocks:
        assert (root / "tests" / name).read_text("utf-8") == code, name
