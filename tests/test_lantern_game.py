"""A second toy game, with scenario fields and a risk map of its own: the lantern game of
``tests/toygame_lantern`` (nothing outside its package). Its watchers' ``lantern`` (an actor
field of its own) validates and is refused by another game; its turn and its risk map both read
it, and the route avoids the light accordingly. Its check (a declaration: the command and the
HTTP route), scenario validation, ``vigile run``, live play and the pages, ``simulate``, the
risk map (which also depends on the way the sneak moves), ``vigile route`` and ``vigile rules``
(with ``--coverage``) all play it.

Worked by hand from its rules (``tests/toygame_lantern/rules.toml``): LANT-1 (a glimpse within
30 cm on a d6 at 4+, within 60 cm at 6, never farther nor through a wall), LANT-2 (one less for
a sneak moving fast) and LANT-3 (a watcher's own ``lantern`` lights that far instead of 60 cm).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import yaml
from fastapi.testclient import TestClient

import toygame_lantern
from toygame_lantern.fields import VOCABULARY, LanternFields
from vigile import registry
from vigile.cli import main
from vigile.engine.run import play
from vigile.scene.loader import check_text, load_scenario, parse_scenario
from vigile.scene.vocabulary import vocabulary_issues

TOKEN = "lantern-test-token-0123456789"
AUTH = {"Authorization": f"Bearer {TOKEN}"}

COURT = """
ruleset: lantern
name: A lantern court
map: {width: 120, height: 60}
turns: 2
actors:
  - {name: Sneak, side: attackers, position: [10, 10]}
  - {name: Keeper, side: defenders, position: [60, 30]}
plans:
  Sneak:
    - {to: [50, 10], speed: fast}
dice_values: [4, 5]
"""
"""Turn 1: the sneak dashes 20 cm to (30, 10), 36.1 cm from the keeper: at the light's edge,
6 less 1 for the hurry, 5+ (1/3). Turn 2: (50, 10), 22.4 cm: near, 4 less 1, 3+ (2/3)."""


def lit(text: str, lantern: int) -> str:
    """``text`` with the keeper's own lantern reaching ``lantern`` cm (LANT-3)."""
    return re.sub(r"(name: Keeper, .*\])\}", rf"\1, lantern: {lantern}}}", text)


def errors(text: str) -> list[str]:
    scenario, found = check_text(text, file="court.yaml")
    assert scenario is None
    return [str(issue) for issue in found]


@pytest.fixture
def court(tmp_path: Path) -> Iterator[Path]:
    registry.register(toygame_lantern.PLUGIN)
    path = tmp_path / "court.yaml"
    path.write_text(COURT)
    yield path
    registry.unregister("lantern")


def test_its_scenario_validates_and_plays(court: Path) -> None:
    """Dice 4 then 5: 4 misses the 5+ of turn 1, 5 meets the 3+ of turn 2."""
    assert load_scenario(court).ruleset == "lantern"
    result = play(load_scenario(court))
    chances = [e.verdict.chance for e in result.events if e.verdict is not None]
    assert chances == [Fraction(1, 3), Fraction(2, 3)]
    assert result.outcome.kind == "detected" and result.outcome.turn == 2
    assert [(p.observer, p.rule) for e in result.events if (p := e.perception)] == [
        ("Keeper", "LANT-1")
    ]


def test_simulate_counts_its_perceptions(court: Path) -> None:
    """Caught in two turns with 1 − (1 − 1/3)(1 − 2/3) = 7/9, every catch a perception."""
    from vigile.sim.simulate import simulate

    result = simulate(parse_scenario(COURT.replace("dice_values: [4, 5]", "")), 4000, seed=8)
    caught = result.outcome("caught")
    assert result.detected.count == caught.count
    assert abs(caught.p - 7 / 9) < 4 * (7 / 9 * 2 / 9 / 4000) ** 0.5


@pytest.mark.parametrize(
    ("way", "near", "edge"),
    [("half", Fraction(1, 2), Fraction(1, 6)), ("fast", Fraction(2, 3), Fraction(1, 3))],
)
def test_its_risk_map_depends_on_the_way(
    court: Path, capsys: pytest.CaptureFixture[str], way: str, near: Fraction, edge: Fraction
) -> None:
    """10-cm cells. (55, 25): 7.1 cm from the keeper, near (4+; fast 3+). (15, 5): 51.5 cm,
    the light's edge (6; fast 5+). (115, 55): 60.4 cm, dark."""
    from vigile.games.contract import RiskRequest, risk_map

    found = risk_map(load_scenario(court), RiskRequest(way))
    assert (found.exact(2, 5), found.exact(0, 1), found.exact(5, 11)) == (near, edge, Fraction(0))
    assert main(["riskmap", str(court), "--attitude", way, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["max"]["exact"] == str(near)
    assert main(["riskmap", str(court), "--attitude", "hidden"]) == 2
    assert "the lantern game's ways are half, fast" in capsys.readouterr().err


def test_the_route_writes_a_plan_at_its_way(
    court: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """From the sneak's start to (30, 10), asked at ``fast``: the route ends there, and the
    plan written for the sneak goes there at that way (the surface's ``leg_speed``)."""
    out = tmp_path / "planned.yaml"
    argv = ["route", str(court), "--to", "30,10", "--attitude", "fast", "--json"]
    assert main([*argv, "--write-plan", "Sneak", "--out", str(out)]) == 0
    route = json.loads(capsys.readouterr().out)
    assert route["from"] == [10, 10] and route["waypoints"][-1] == [30, 10]
    legs = yaml.safe_load(out.read_text())["plans"]["Sneak"]
    assert legs[-1]["to"] == [30, 10] and {leg["speed"] for leg in legs} == {"fast"}


def test_vigile_rules_lists_its_rules(court: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "lantern"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "Lantern game (lantern)"
    assert [line.split()[0] for line in lines[1:]] == ["LANT-1", "LANT-2", "LANT-3"]
    assert main(["rules", "lantern", "--lang", "fr"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == (
        "  LANT-3 Un guetteur dont la lanterne a sa propre portée (0 à 120 cm) aperçoit aussi "
        "loin qu'elle éclaire, au lieu de 60 cm."
    )
    assert main(["rules", "--json"]) == 0
    assert set(json.loads(capsys.readouterr().out)["lantern"]) == {"LANT-1", "LANT-2", "LANT-3"}


# ------------------------------------------------------------------------------ its own field


def test_its_field_validates_and_is_typed(court: Path) -> None:
    scenario = parse_scenario(lit(COURT, 90))
    keeper = scenario.actor("Keeper")
    assert isinstance(keeper, LanternFields) and keeper.lantern == 90
    assert scenario.actor("Sneak").lantern is None  # type: ignore[attr-defined]
    assert vocabulary_issues(VOCABULARY) == [] and "lantern" in VOCABULARY.names("stats")


def test_a_wrong_value_of_its_field_names_the_field_and_the_line(court: Path) -> None:
    """The keeper is on line 8 of COURT (its first line is empty); LANT-3: 0 to 120 cm."""
    assert "court.yaml:8: actors[1].lantern: Input should be less than or equal to 120" in errors(
        lit(COURT, 121)
    )
    assert "court.yaml:8: actors[1].lantern: Input should be greater than or equal to 0" in errors(
        lit(COURT, -5)
    )


def test_another_game_refuses_its_field(court: Path) -> None:
    found = errors(lit(COURT, 90).replace("ruleset: lantern", "ruleset: skirmish"))
    assert (
        "court.yaml:8: actors[1].lantern: skirmish actors have no field 'lantern': it is a field "
        "of lantern's"
    ) in found


def test_its_turn_reads_the_field(court: Path) -> None:
    """The keeper's lantern reaches 20 cm: the sneak, 36.1 then 22.4 cm away, is out of its
    light both turns (LANT-3; the 22.4 cm would be near, 3+, by LANT-1's 60 cm): chance 0, no
    die, never glimpsed. Reaching 40 cm, as the data file's 60: 1/3 then 2/3 (the test above)."""
    dark = play(parse_scenario(lit(COURT, 20).replace("dice_values: [4, 5]", "")))
    chances = [e.verdict.chance for e in dark.events if e.verdict is not None]
    assert chances == [Fraction(0), Fraction(0)] and dark.outcome.kind == "turn_limit"
    assert {n.rule for e in dark.events if e.verdict for n in e.verdict.notes} == {
        "LANT-1",
        "LANT-3",
    }
    near = play(parse_scenario(lit(COURT, 40)))
    assert [e.verdict.chance for e in near.events if e.verdict is not None] == [
        Fraction(1, 3),
        Fraction(2, 3),
    ]


@pytest.mark.parametrize(
    ("lantern", "expected"),
    [
        (None, (Fraction(1, 2), Fraction(1, 2), Fraction(1, 6), Fraction(0))),
        (20, (Fraction(1, 2), Fraction(0), Fraction(0), Fraction(0))),
        (90, (Fraction(1, 2), Fraction(1, 2), Fraction(1, 6), Fraction(1, 6))),
    ],
)
def test_its_risk_map_reads_the_field(
    court: Path, lantern: int | None, expected: tuple[Fraction, ...]
) -> None:
    """At half speed, 10-cm cells, the keeper at (60, 30). (55, 25): 7.1 cm, near (4+, 1/2)
    whatever the reach. (85, 25): 25.5 cm, near, but beyond a 20-cm lantern. (15, 5): 51.5 cm,
    the edge (6, 1/6), dark with a 20-cm lantern. (115, 55): 60.4 cm, beyond the data file's
    60 cm, lit at 6 by a 90-cm lantern (LANT-3)."""
    from vigile.games.contract import RiskRequest, risk_map

    text = COURT if lantern is None else lit(COURT, lantern)
    found = risk_map(parse_scenario(text), RiskRequest("half"))
    cells = ((2, 5), (2, 8), (0, 1), (5, 11))
    assert tuple(found.exact(row, column) for row, column in cells) == expected


FIELD = """
ruleset: lantern
name: A lantern field
map: {width: 200, height: 160}
actors:
  - {name: Sneak, side: attackers, position: [10, 10]}
  - {name: Keeper, side: defenders, position: [100, 60]}
"""
"""A field 200 by 160 cm, the keeper at (100, 60): the sneak crosses from (10, 10) to
(190, 10)."""


def test_the_route_avoids_the_light_its_field_casts(
    court: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every point of the line y = 10 is at least 50 cm from the keeper. With a 40-cm lantern
    the straight line is dark: the route is that line, seen with a chance of 0. With the data
    file's 60 cm, every point of the line x = 100 up to y = 120 is lit: the dark way goes over
    the top, through a waypoint above y = 120 (a segment crossing x = 100 above it has an end
    above it), still 0. With a 120-cm lantern the whole line x = 100 is within 100 cm, lit:
    no route is dark."""
    path = tmp_path / "field.yaml"

    def route(text: str) -> dict[str, Any]:
        path.write_text(text)
        argv = ["route", str(path), "--from", "10,10", "--to", "190,10", "--json"]
        assert main(argv) == 0
        found: dict[str, Any] = json.loads(capsys.readouterr().out)
        return found

    straight = route(lit(FIELD, 40))
    assert straight["chance_seen"] == 0 and straight["waypoints"] == [[10, 10], [190, 10]]
    around = route(FIELD)
    assert around["chance_seen"] == 0 and max(y for _, y in around["waypoints"]) > 120
    glare = route(lit(FIELD, 120))
    assert glare["chance_seen"] > 0


# ------------------------------------------------------------------------------ its check


def test_vigile_check_runs_its_declared_check(
    court: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """90 cm with a 100-cm lantern: lit, at the edge, 6 (1/6), citing LANT-1 and LANT-3; 130
    cm is refused naming --reach; 20 cm hurrying: near, 4 less 1, 3+ (2/3); behind a wall,
    nothing (LANT-1)."""
    assert (
        main(["check", "lantern", "glimpse", "--distance", "90", "--reach", "100", "--json"]) == 0
    )
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["chance"] == "1/6"
    assert [m["rule"] for m in verdict["modifiers"]] == ["LANT-1"]
    assert [n["rule"] for n in verdict["notes"]] == ["LANT-3"]
    assert main(["check", "lantern", "glimpse", "--distance", "90", "--reach", "130"]) == 2
    assert "--reach: 130: a lantern reaches 0 to 120 cm" in capsys.readouterr().err
    assert main(["check", "lantern", "glimpse", "--distance", "20", "--fast", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["chance"] == "2/3"
    assert main(["check", "lantern", "glimpse", "--distance", "20", "--wall", "--lang", "fr"]) == 0
    assert "hors de sa lumière ou de sa vue" in capsys.readouterr().out


# ------------------------------------------------------------------------------ live play, pages


@pytest.fixture
def client(tmp_path: Path, court: Path) -> Iterator[TestClient]:
    from vigile.store import Store
    from vigile.web.app import create_app

    store = Store(f"sqlite:///{tmp_path / 'lantern.db'}")
    with TestClient(create_app(store, gm_token=TOKEN)) as test_client:
        yield test_client
    store.close()


LIVE = """
ruleset: lantern
name: A long lantern
map: {width: 200, height: 60}
actors:
  - {name: Sneak, side: attackers, position: [150, 30]}
  - {name: Keeper, side: defenders, position: [60, 30], lantern: 100}
"""


def test_live_play_and_the_pages(client: TestClient) -> None:
    """With the table's dice. The sneak creeps 10 cm (its half-speed rate [R]) to (140, 30),
    80 cm from the keeper: beyond the data file's 60 cm, but the keeper's lantern reaches 100
    (LANT-3): at the edge, 6 (1/6), so the end of the turn asks for a die; a 6 glimpses it.
    The HTTP check answers the same 1/6. The GM's page and the player's show it."""
    created = client.post("/api/v1/encounters", json={"text": LIVE, "dice": "given"}, headers=AUTH)
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

    moved = act({"do": "move", "actor": "Sneak", "to": [140, 30], "speed": "half"})
    assert [e["event"] for e in moved["events"]] == ["move"]
    assert act({"do": "end-turn"})["status"] == 409  # the glimpse's die is the table's
    ended = act({"do": "end-turn"}, dice=[6], view=True)
    assert [e["check"]["chance"] for e in ended["events"] if e["event"] == "sight"] == ["1/6"]
    seen = [e["text"] for e in ended["events"] if e["event"] == "perceive"]
    assert seen == ["Keeper glimpses Sneak in the lantern light"]
    assert ended["view"]["outcome"] is not None
    asked = client.post(
        "/api/v1/checks/lantern/glimpse", json={"options": {"distance": 80, "reach": 100}}
    )
    assert asked.status_code == 200, asked.text
    assert asked.json()["chance"] == "1/6"
    gm = client.get(f"/encounters/{encounter}?token={TOKEN}&lang=fr")
    assert gm.status_code == 200 and "Keeper aperçoit Sneak à la lueur de la lanterne" in gm.text
    player = client.get(f"/encounters/{encounter}?token={sneak}&lang=en")
    assert player.status_code == 200 and "Sneak" in player.text


# ------------------------------------------------------------------------------ coverage, names


def test_rules_coverage_finds_where_it_plays_its_rules(court: Path) -> None:
    """Its check examples cite LANT-1 and LANT-2 (20 cm, hurrying) and LANT-3 (a 100-cm
    lantern); its example scenario (a lookout whose lantern reaches 90 cm, the sneak
    hurrying) cites all three in the engine; its risk map, asked for its two ways, all three."""
    from vigile.cli.coverage import check_rules, plugin_checks
    from vigile.games.coverage import event_rules, plugin_riskmap_rules, plugin_scenarios

    assert check_rules(plugin_checks()) == {"lantern glimpse": {"LANT-1", "LANT-2", "LANT-3"}}
    (scenario,) = plugin_scenarios()
    cited = set().union(*(event_rules(e) for e in play(scenario, seed=1).events))
    assert {"LANT-1", "LANT-2", "LANT-3"} <= cited
    assert plugin_riskmap_rules(resolution=20.0) == {"LANT-1", "LANT-2", "LANT-3"}


def test_no_file_of_vigile_names_the_lantern_game() -> None:
    """Everything above came from its package: nothing under ``src/vigile`` names it."""
    source = Path(__file__).parents[1] / "src" / "vigile"
    named = [
        path
        for path in source.rglob("*")
        if path.is_file()
        and path.suffix in (".py", ".toml", ".html", ".js", ".yaml")
        and re.search(r"toygame_lantern|LANT-\d|LanternFields|LanternGame", path.read_text("utf-8"))
    ]
    assert named == []
