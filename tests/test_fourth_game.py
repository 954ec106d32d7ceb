"""A fourth game is a plug-in: the toy game of ``tests/toygame`` (the code of
``docs/plugins.md``) gets every command with no file of vigile's touched: the check,
validation, ``vigile run``, live play and the pages, ``simulate`` (a real located-or-seen
figure from its typed perceptions), the risk map, the route and ``vigile rules``.

Every figure is worked by hand from its two rules: TOY-1 (a watcher glimpses a sneak on one
d6 at 5+, a chance of 1/3) and TOY-2 (nothing beyond 100 cm nor through a wall).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import toygame
from toygame.game import ToyGame
from vigile import registry
from vigile.checks.declare import Check, Checks, Input
from vigile.cli import main
from vigile.engine.game import HOOKS, TurnHooks
from vigile.engine.run import play
from vigile.io.i18n import Lang, messages
from vigile.registry import GamePlugin, PluginError
from vigile.rulesets.skirmish.alarm import alarm_check
from vigile.scene.loader import load_scenario, parse_scenario

ROOT = Path(__file__).resolve().parents[1]
GUIDE = ROOT / "docs" / "plugins.md"
TOKEN = "toy-test-token-0123456789abcdef"
AUTH = {"Authorization": f"Bearer {TOKEN}"}

SCENARIO = """
ruleset: toy
name: A toy raid
map: {width: 50, height: 50}
turns: 3
actors:
  - {name: Sneak, side: attackers, position: [10, 10]}
  - {name: Watcher, side: defenders, position: [40, 40]}
dice_values: [2, 5]
"""

YARD = """
ruleset: toy
name: A walled yard
map: {width: 200, height: 100}
actors:
  - {name: Sneak, side: attackers, position: [10, 10]}
  - {name: Watcher, side: defenders, position: [100, 90]}
walls:
  - {kind: wall, start: [0, 60], end: [150, 60]}
"""
"""The watcher stands 30 cm above a wall that runs from x = 0 to 150 at y = 60: from it, a
line to any point of y = 10 between x = 0 and 190 crosses y = 60 at x = 100 + 0.375 (x - 100)
(at most 133.75), on the wall: the whole south strip is out of its sight (TOY-2)."""


@pytest.fixture
def toy(tmp_path: Path) -> Iterator[Path]:
    registry.register(toygame.PLUGIN)
    path = tmp_path / "toy.yaml"
    path.write_text(SCENARIO)
    yield path
    registry.unregister("toy")


@pytest.fixture
def yard(toy: Path, tmp_path: Path) -> Path:
    path = tmp_path / "yard.yaml"
    path.write_text(YARD)
    return path


# ------------------------------------------------------------------------------ the contract


def test_the_guide_names_every_hook_of_the_contract() -> None:
    """docs/plugins.md names each hook of TurnHooks and of the plug-in, and the toy game's
    turn fills every one (none is the engine's HookMissing default)."""
    guide = GUIDE.read_text("utf-8")
    assert tuple(n for n in vars(TurnHooks) if not n.startswith("_")) == HOOKS
    for hook in HOOKS:
        assert f"`{hook}`" in guide, hook
        if hook != "play_turn":
            assert hook in vars(ToyGame), hook
    for field in GamePlugin.__dataclass_fields__:
        assert f"`{field}`" in guide, field
    for name in ("perceives", "RiskRequest", "RiskSurface", "RiskMapHook", "ruleset.<name>"):
        assert name in guide, name


def test_the_guide_s_code_is_the_toy_game_s() -> None:
    """Each code block of the guide that names a file of tests/toygame is that file."""
    guide = GUIDE.read_text("utf-8")
    blocks = re.findall(r"```\w*\n# tests/(toygame/[\w.]+)\n(.*?)```", guide, flags=re.DOTALL)
    assert {name for name, _ in blocks} >= {
        "toygame/__init__.py",
        "toygame/check.py",
        "toygame/game.py",
        "toygame/riskmap.py",
        "toygame/toy.en.toml",
        "toygame/rules.en.toml",
    }
    for name, code in blocks:
        assert (ROOT / "tests" / name).read_text("utf-8") == code, name


def test_a_missing_message_key_is_refused_at_registration() -> None:
    """Without ``ruleset.<name>`` the check crashed later with a KeyError; now the plug-in is
    refused when it is registered, naming the game, the key and the language."""
    bare = GamePlugin(
        name="bare", title="no messages", unit="cm", rule_prefix="BARE", package="toygame"
    )
    with pytest.raises(PluginError, match=r"'bare'.*'ruleset\.bare' is missing in fr"):
        registry.register(bare)
    assert "bare" not in registry.names()


MUTE = Checks(
    "mute",
    "solo.checks.about",
    (
        Check(
            "mute",
            "shout",
            "mute.checks.shout",
            alarm_check,
            (Input("loud", bool, "mute.checks.loud", False),),
        ),
    ),
)
"""A declaration whose check and input name help that no message file of its game holds."""


def test_a_declared_checks_missing_help_is_refused_at_registration() -> None:
    """The help of a check and of its input, missing from the plug-in's messages, named at
    registration (not when ``vigile check mute shout --help`` first shows them)."""
    mute = GamePlugin(
        name="mute",
        title="checks without help",
        unit="cm",
        rule_prefix="SK",
        package="vigile.rulesets.skirmish",
        messages=("sologame:solo.{lang}.toml",),
        cli="test_fourth_game:MUTE",
    )
    with pytest.raises(
        PluginError,
        match=r"'mute'.*help is missing in en: mute\.checks\.shout, mute\.checks\.loud",
    ):
        registry.register(mute)
    assert "mute" not in registry.names()
    broken = GamePlugin(
        name="mute", title="", unit="cm", rule_prefix="SK", package="vigile.rulesets.skirmish",
        messages=("sologame:solo.{lang}.toml",), cli="test_fourth_game:NO_SUCH_THING",
    )  # fmt: skip
    with pytest.raises(PluginError, match=r"its checks \(test_fourth_game:NO_SUCH_THING\)"):
        registry.register(broken)


def test_the_built_in_games_checks_have_their_help_in_both_languages() -> None:
    """What registration checks for a plug-in's declared checks (left to this test for the
    built-in games, which are not checked at each start)."""
    declared = [
        found
        for name in registry.BUILTIN
        if (plugin := registry.get(name)).cli
        and isinstance(found := plugin.load(plugin.cli), Checks)
    ]
    assert {d.game for d in declared} == {"skirmish", "starfinder", "dnd35"}
    for checks in declared:
        keys = [checks.help] + [
            k for c in checks.checks for k in (c.help, *(i.help for i in c.inputs))
        ]
        for lang in Lang:
            assert all(messages(lang).get(key) for key in keys), (checks.game, lang)


def test_a_message_file_that_overwrites_a_core_key_is_refused() -> None:
    """The bad file re-defines ``engine.event.turn`` (a core message)."""
    thief = GamePlugin(
        name="thief",
        title="steals a core message",
        unit="cm",
        rule_prefix="THIEF",
        package="toygame",
        messages=("toygame_bad:thief.{lang}.toml",),
    )
    with pytest.raises(PluginError, match=r"overwrite core keys: engine\.event\.turn"):
        registry.register(thief)
    assert "thief" not in registry.names()


def test_a_hook_not_filled_is_named() -> None:
    """A turn that fills no hook: the engine's default names the hook and the contract; a d20
    game that leaves out one of the round's abstract hooks cannot be made at all."""
    from vigile.engine.game import Game, HookMissing
    from vigile.games.d20.round import D20Game

    scenario = parse_scenario(SCENARIO.replace("ruleset: toy", "ruleset: skirmish"))
    bare = Game.__new__(Game)
    with pytest.raises(HookMissing, match="Game does not fill the hook 'move_rate' of TurnHooks"):
        bare.move_rate(None, None)  # type: ignore[arg-type]

    class Half(D20Game):
        def perceive(self, intruder: object) -> None: ...

    with pytest.raises(TypeError, match="abstract"):
        Half(scenario, scenario.rules(), None, None)  # type: ignore[abstract, arg-type]


def test_two_games_may_not_share_a_message_key(toy: Path) -> None:
    """A second game whose file holds the toy game's keys: refused when the messages merge."""
    from vigile.io.i18n import Lang, messages

    twin = GamePlugin(
        name="twin",
        title="the toy game's words again",
        unit="cm",
        rule_prefix="TWIN",
        package="toygame",
        messages=("toygame:toy.{lang}.toml", "toygame_bad:twin.{lang}.toml"),
    )
    registry.register(twin)
    try:
        with pytest.raises(PluginError, match=r"'twin'.*overwrite the game 'toy''s: check\.toy"):
            messages(Lang.EN)
    finally:
        registry.unregister("twin")
    assert messages(Lang.EN)["ruleset.toy"] == "Toy game"


# ------------------------------------------------------------------------------ check, run


def test_the_toy_game_is_registered_and_its_scenario_validates(toy: Path) -> None:
    assert "toy" in registry.names()
    scenario = load_scenario(toy)
    assert scenario.ruleset == "toy" and scenario.units.value == "cm"
    assert scenario.rules().num("glimpse.difficulty") == 5


def test_vigile_run_plays_the_toy_game(toy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Dice 2 then 5: turn 1 nothing (5+), turn 2 a glimpse (TOY-1, 1/3 each; 42.4 cm, in
    range, TOY-2)."""
    result = play(load_scenario(toy))
    assert result.outcome.kind == "detected" and result.outcome.turn == 2
    glimpses = [e.verdict for e in result.events if e.verdict is not None]
    assert [v.chance for v in glimpses] == [Fraction(1, 3)] * 2
    (seen,) = [e.perception for e in result.events if e.perception is not None]
    assert (seen.observer, seen.target, seen.state.value, seen.rule) == (
        "Watcher",
        "Sneak",
        "observed",
        "TOY-1",
    )
    assert main(["run", str(toy), "--lang", "fr"]) == 0
    out = capsys.readouterr().out
    assert "Watcher scrute Sneak" in out and "Watcher aperçoit Sneak" in out


def test_vigile_check_runs_the_toy_game_s_commands(
    toy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", "toy", "odds"]) == 0
    assert capsys.readouterr().out.strip() == "1/3"
    assert main(["check", "toy", "glimpse", "--distance", "101", "--json"]) == 0
    far = json.loads(capsys.readouterr().out)
    assert far["chance"] == "0" and [n["rule"] for n in far["notes"]] == ["TOY-2"]
    assert main(["check", "toy", "glimpse", "--distance", "100", "--lang", "fr"]) == 0
    assert "Jeu jouet · coup d'œil" in capsys.readouterr().out
    main(["check", "--help"])
    assert "toy" in capsys.readouterr().out


def test_an_unknown_game_is_a_clear_error(tmp_path: Path) -> None:
    from vigile.scene.loader import scenario_errors

    path = tmp_path / "chess.yaml"
    path.write_text(SCENARIO.replace("ruleset: toy", "ruleset: chess"))
    errors = [str(e) for e in scenario_errors(str(path))]
    assert any("'chess' is not a game vigile knows" in e for e in errors)


# ------------------------------------------------------------------------------ simulate


def test_simulate_counts_the_toy_game_s_perceptions(toy: Path) -> None:
    """Three turns in range, each glimpse 1/3: caught with 1 − (2/3)³ = 19/27 (70.4%), and
    every catch is a glimpse, so located-or-seen is the very same count."""
    from vigile.sim.simulate import simulate

    result = simulate(parse_scenario(SCENARIO.replace("dice_values: [2, 5]", "")), 4000, seed=3)
    caught = result.outcome("caught")
    assert result.detected.count == caught.count > 0
    assert abs(caught.p - 19 / 27) < 4 * (19 / 27 * 8 / 27 / 4000) ** 0.5


def test_simulate_refuses_a_game_that_logs_no_perception(
    toy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A toy game that catches without :meth:`Game.perceives` would read "located or seen
    0.00%": simulate says what is wrong instead (exit 2, one line)."""
    silent = GamePlugin(
        name="silent",
        title="catches without a word",
        unit="cm",
        rule_prefix="TOY",
        package="toygame",
        messages=("toygame_bad:silent.{lang}.toml",),
        game="toygame_bad:SilentGame",
    )
    registry.register(silent)
    try:
        path = toy.with_name("silent.yaml")
        path.write_text(SCENARIO.replace("ruleset: toy", "ruleset: silent").replace("[2, 5]", ""))
        assert main(["simulate", str(path), "--runs", "50"]) == 2
        error = capsys.readouterr().err
        assert "'silent' detected an intruder but logged no perception" in error
    finally:
        registry.unregister("silent")


# ------------------------------------------------------------------------------ risk map, route


def test_the_toy_game_s_risk_map_is_its_rules(
    yard: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """10-cm cells, centres x = 5..195, y = 5..95; one watcher at (100, 90), each glimpse
    1/3 (TOY-1). Rows y = 5, 15, 25: the line to the watcher crosses y = 60 between x = 56.2
    and 143.8, on the wall (0..150): nothing (TOY-2, sight). Row y = 95: every cell within
    95.1 cm, in sight: 1/3. (185, 55): past the wall's end (the line crosses y = 60 at 172.9),
    91.9 cm: 1/3. (195, 45): past the wall's end too (163.3) but 105.1 cm: nothing (range)."""
    assert main(["riskmap", str(yard), "--attitude", "half", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["max"]["exact"] == "1/3" and data["resolution_cm"] == 10
    risk = data["grid"]["risk"]
    assert len(risk) == 10 and len(risk[0]) == 20
    assert all(chance == 0 for row in risk[:3] for chance in row)
    assert risk[9] == [pytest.approx(1 / 3)] * 20
    assert risk[5][18] == pytest.approx(1 / 3)
    assert risk[4][19] == 0
    assert main(["riskmap", str(yard), "--attitude", "hidden"]) == 2
    assert "the toy game's ways are half, fast" in capsys.readouterr().err
    assert main(["riskmap", str(yard), "--attitude", "half", "--noise", "fumble"]) == 2
    assert main(["riskmap", str(yard), "--attitude", "half", "--unsuited-outfit"]) == 2
    assert "this game has no rule for --unsuited-outfit" in capsys.readouterr().err


def test_the_route_keeps_behind_the_wall(yard: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """From (10, 10) to (190, 10): the south strip is out of the watcher's sight, so the
    safest route is seen with a chance of exactly 0, at half speed (10 cm a turn)."""
    assert main(["route", str(yard), "--from", "10,10", "--to", "190,10", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["chance_seen"] == 0
    assert all(y < 60 for _, y in data["waypoints"])


# ------------------------------------------------------------------------------ live play, pages


@pytest.fixture
def client(tmp_path: Path, toy: Path) -> Iterator[TestClient]:
    from vigile.store import Store
    from vigile.web.app import create_app

    store = Store(f"sqlite:///{tmp_path / 'toy.db'}")
    with TestClient(create_app(store, gm_token=TOKEN)) as test_client:
        yield test_client
    store.close()


def test_live_play_and_the_pages(client: TestClient) -> None:
    """With the table's dice. The GM moves the sneak 10 cm at half speed (its rate, [R] of
    the toy game; 15 cm is refused), ends the turn: the glimpse (1/3, TOY-1) needs a die;
    a 2 sees nothing. Next turn a 5: the watcher glimpses the sneak, the game is over. The
    GM's page and the player's show it in the game's words."""
    created = client.post(
        "/api/v1/encounters", json={"text": SCENARIO, "dice": "given"}, headers=AUTH
    )
    assert created.status_code == 201, created.text
    encounter = created.json()["encounter"]["id"]
    sneak = created.json()["tokens"]["players"]["Sneak"]

    def act(action: dict[str, object], **more: object) -> Any:
        answer = client.post(
            f"/api/v1/encounters/{encounter}/actions",
            json={"action": action, **more},
            headers=AUTH,
        )
        assert answer.status_code in (200, 409), answer.text
        return answer.json()

    refused = act({"do": "move", "actor": "Sneak", "to": [25, 10], "speed": "half"})
    assert refused["detail"] == (
        "Sneak moves at most 10 cm a turn when moving at half speed; that point is 15 cm away"
    )
    moved = act({"do": "move", "actor": "Sneak", "to": [20, 10], "speed": "half"})
    assert [e["event"] for e in moved["events"]] == ["move"]
    assert act({"do": "end-turn"})["status"] == 409  # the glimpse's die is the table's
    ended = act({"do": "end-turn"}, dice=[2])
    assert [e["check"]["chance"] for e in ended["events"] if e["event"] == "sight"] == ["1/3"]
    assert not [e for e in ended["events"] if e["event"] == "perceive"]
    act({"do": "move", "actor": "Sneak", "to": [30, 10], "speed": "half"})
    ended = act({"do": "end-turn"}, dice=[5], view=True)
    seen = [e["text"] for e in ended["events"] if e["event"] == "perceive"]
    assert seen == ["Watcher glimpses Sneak"]
    assert ended["view"]["outcome"] is not None
    gm = client.get(f"/encounters/{encounter}?token={TOKEN}&lang=fr")
    assert gm.status_code == 200 and "Watcher aperçoit Sneak" in gm.text
    player = client.get(f"/encounters/{encounter}?token={sneak}&lang=en")
    assert player.status_code == 200 and "Sneak" in player.text


# ------------------------------------------------------------------------------ vigile rules


def test_vigile_rules_lists_the_toy_game_s_rules(
    toy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["rules", "toy", "--lang", "fr"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "Jeu jouet (toy)",
        "  TOY-1  Un guetteur aperçoit un rôdeur sur un d6 à 5 ou plus, une fois par tour.",
        "  TOY-2  Un guetteur n'aperçoit rien au-delà de 100 cm, ni à travers un mur.",
    ]
    assert main(["rules", "--json"]) == 0
    assert set(json.loads(capsys.readouterr().out)["toy"]) == {"TOY-1", "TOY-2"}


def test_rules_coverage_finds_where_the_toy_game_plays_its_rules(toy: Path) -> None:
    """Its check examples cite TOY-1 (the base) and, at 150 cm, TOY-2; its example scenario
    (a second watcher behind the wall) cites both in the engine; its risk map calls the rule
    for cells in sight (TOY-1) and behind the wall (TOY-2)."""
    from vigile.cli.coverage import check_rules, plugin_checks
    from vigile.games.coverage import event_rules, plugin_riskmap_rules, plugin_scenarios

    assert check_rules(plugin_checks()) == {"toy glimpse": {"TOY-1", "TOY-2"}}
    (scenario,) = plugin_scenarios()
    cited = set().union(*(event_rules(e) for e in play(scenario, seed=1).events))
    assert {"TOY-1", "TOY-2"} <= cited
    assert plugin_riskmap_rules(resolution=20.0) == {"TOY-1", "TOY-2"}
