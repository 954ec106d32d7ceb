"""The JSON API of ``vigile serve`` against a real server (uvicorn on a free loopback port),
on SQLite and on PostgreSQL: encounters, an improvised night raid with refusals, the table's
dice, undo, views and tokens, problems for every error, limits, CORS."""

# ruff: noqa: F811 - the fixtures db_url and server, imported from web_server

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from vigile.cli import main
from vigile.web.language import parse_accept_language
from web_server import Server, db_url, new_encounter, problem_of, server  # noqa: F401

GRAPPLE = {"do": "throw-grapple", "actor": "Kage", "at": [60, 10], "onto": "tile"}
BROKEN = """\
ruleset: skirmish
name: broken
map: {width: 60, height: 40}
actors:
  - {name: A, side: attackers, position: [10, 10]}
  - {name: B, side: defenders, position: [500, 10]}
  - {name: C, side: nobody, position: [20, 10]}
"""
SMALL = """\
ruleset: skirmish
name: two in a yard
map: {width: 60, height: 40}
actors:
  - {name: Kage, side: attackers, position: [10, 10], ninja: true, move: 15}
  - {name: Gen, side: defenders, position: [12, 10], state: posted, dice: 1}
  - {name: Hachi, side: defenders, position: [50, 30], state: posted, dice: 1}
"""


def act(
    client: httpx.Client, encounter: str, action: dict[str, Any], **more: Any
) -> httpx.Response:
    return client.post(f"/api/v1/encounters/{encounter}/actions", json={"action": action, **more})


def last_seq(client: httpx.Client, encounter: str) -> int:
    response = client.get(f"/api/v1/encounters/{encounter}")
    assert response.status_code == 200, response.text
    seq: int = response.json()["last_seq"]
    return seq


# ---------------------------------------------------------------------------- encounters


def test_health_and_bundled_scenarios(server: Server) -> None:
    assert httpx.get(f"{server.base}/api/v1/health").json() == {"status": "ok"}
    names = httpx.get(f"{server.base}/api/v1/scenarios").json()["scenarios"]
    assert "night-raid" in names and "dnd35-invisible-intruder" in names


def test_create_from_bundled_lists_gets_and_archives(server: Server) -> None:
    with server.client() as gm:
        created = new_encounter(gm, name="Tuesday's raid", seed=12)
        encounter = created["encounter"]
        assert encounter["name"] == "Tuesday's raid" and encounter["seed"] == 12
        assert encounter["last_seq"] == 0 and encounter["source"] == "night-raid.yaml"
        tokens = created["tokens"]
        assert set(tokens["players"]) >= {"Kage", "Tsuki", "Kaze", "Jubei"}
        assert created["urls"]["players"]["Kage"].endswith(tokens["players"]["Kage"])
        listed = gm.get("/api/v1/encounters").json()["encounters"]
        assert encounter["id"] in [row["id"] for row in listed]
        assert gm.get(f"/api/v1/encounters/{encounter['id']}").json()["seed"] == 12

        with server.client(tokens["players"]["Kage"]) as kage:
            shown = kage.get(f"/api/v1/encounters/{encounter['id']}").json()
            assert shown["name"] == "Tuesday's raid" and "seed" not in shown  # the dice to come

        assert gm.delete(f"/api/v1/encounters/{encounter['id']}").status_code == 204
        listed = gm.get("/api/v1/encounters").json()["encounters"]
        assert encounter["id"] not in [row["id"] for row in listed]
        archived = gm.get("/api/v1/encounters", params={"archived": "true"}).json()
        assert encounter["id"] in [row["id"] for row in archived["encounters"]]
        refused = problem_of(act(gm, encounter["id"], GRAPPLE))
        assert refused["status"] == 409 and "archived" in refused["detail"]
        assert gm.get(f"/api/v1/encounters/{encounter['id']}/view").status_code == 200


def test_create_from_text_and_from_upload(server: Server) -> None:
    with server.client() as gm:
        response = gm.post(
            "/api/v1/encounters", json={"text": SMALL, "filename": "yard.yaml", "dice": "given"}
        )
        assert response.status_code == 201, response.text
        assert response.json()["encounter"]["source"] == "yard.yaml"
        assert response.json()["encounter"]["dice"] == "given"
        uploaded = gm.post(
            "/api/v1/encounters/upload",
            files={"file": ("yard.yaml", SMALL.encode(), "application/yaml")},
            data={"seed": "5", "name": "uploaded yard"},
        )
        assert uploaded.status_code == 201, uploaded.text
        assert uploaded.json()["encounter"]["seed"] == 5
        assert uploaded.json()["encounter"]["name"] == "uploaded yard"


def test_an_invalid_scenario_is_a_422_with_every_error_by_line_and_stores_nothing(
    server: Server,
) -> None:
    with server.client() as gm:
        before = len(gm.get("/api/v1/encounters").json()["encounters"])
        for response in (
            gm.post("/api/v1/encounters", json={"text": BROKEN, "filename": "raid.yaml"}),
            gm.post(
                "/api/v1/encounters/upload",
                files={"file": ("raid.yaml", BROKEN.encode(), "application/yaml")},
            ),
        ):
            problem = problem_of(response)
            assert response.status_code == 422
            assert problem["type"] == "urn:vigile:problem:invalid-scenario"
            lines = {(e["file"], e["line"]) for e in problem["errors"]}
            assert ("raid.yaml", 6) in lines and ("raid.yaml", 7) in lines
            assert any(e["field"] == "actors[2].side" for e in problem["errors"])
            assert problem["detail"].startswith("raid.yaml")  # the CLI's own lines
        assert len(gm.get("/api/v1/encounters").json()["encounters"]) == before
        unknown = problem_of(gm.post("/api/v1/encounters", json={"scenario": "no-such-raid"}))
        assert unknown["status"] == 422 and "bundled" in unknown["detail"]
        neither = problem_of(gm.post("/api/v1/encounters", json={"seed": 3}))
        assert neither["status"] == 422 and neither["where"] == "scenario"


# ---------------------------------------------------------------------------- tokens


def test_tokens_roles_and_views(server: Server) -> None:
    with server.client() as gm:
        created = new_encounter(gm)
        other = new_encounter(gm)
    encounter = created["encounter"]["id"]
    tokens = created["tokens"]
    url = f"/api/v1/encounters/{encounter}"
    with server.client("") as nobody:
        problem = problem_of(nobody.get(f"{url}/view"))
        assert problem["status"] == 401
        assert nobody.get(f"{url}/view").headers["www-authenticate"] == "Bearer"
        assert problem_of(nobody.get("/api/v1/encounters"))["status"] == 401
        wrong = nobody.get(f"{url}/view", headers={"Authorization": "Bearer not-a-token"})
        assert problem_of(wrong)["status"] == 401
        by_query = nobody.get(f"{url}/view", params={"token": tokens["players"]["Kage"]})
        assert by_query.json()["character"] == "Kage"
        # another encounter's token opens nothing here
        foreign = nobody.get(f"{url}/view", params={"token": other["tokens"]["gm"]})
        assert problem_of(foreign)["status"] == 401
    with server.client(tokens["players"]["Kage"]) as kage:
        own = kage.get(f"{url}/view").json()
        assert own["role"] == "player" and own["character"] == "Kage"
        assert "awareness" not in own
        assert kage.get(f"{url}/view", params={"as": "Kage"}).status_code == 200
        assert problem_of(kage.get(f"{url}/view", params={"as": "Tsuki"}))["status"] == 403
        assert problem_of(kage.get(f"{url}/view", params={"as": "gm"}))["status"] == 403
        assert problem_of(act(kage, encounter, GRAPPLE))["status"] == 403
        assert problem_of(kage.post(f"{url}/undo"))["status"] == 403
        assert problem_of(kage.delete(url))["status"] == 403
        assert problem_of(kage.get("/api/v1/encounters"))["status"] == 401
    with server.client(tokens["table"]) as table:
        shown = table.get(f"{url}/view").json()
        # LP-5: the shared screen shows what the defenders perceive: nobody yet
        assert shown["role"] == "table" and shown["intruders"] == []
        assert problem_of(table.get(f"{url}/view", params={"as": "Kage"}))["status"] == 403
    with server.client(tokens["gm"]) as own_gm:
        assert act(own_gm, encounter, GRAPPLE).status_code == 200
        assert "awareness" in own_gm.get(f"{url}/view").json()
        assert own_gm.get(f"{url}/view", params={"as": "table"}).json()["role"] == "table"
        assert own_gm.get(f"{url}/view", params={"as": "Jubei"}).json()["character"] == "Jubei"
        nobody_called = problem_of(own_gm.get(f"{url}/view", params={"as": "Nobody"}))
        assert nobody_called["status"] == 422 and nobody_called["where"] == "as"
        # an encounter's GM is not the server's: no listing, no new encounters
        assert problem_of(own_gm.get("/api/v1/encounters"))["status"] == 401
        # nor the GM of another encounter
        assert (
            problem_of(own_gm.get(f"/api/v1/encounters/{other['encounter']['id']}/view"))["status"]
            == 401
        )


# ---------------------------------------------------------------------------- a night raid


def test_an_improvised_night_raid_with_refusals_that_change_nothing(server: Server) -> None:
    with server.client() as gm:
        encounter = new_encounter(gm, seed=7)["encounter"]["id"]
        played = act(gm, encounter, GRAPPLE).json()
        assert played["seq"] == 1
        listens = [e for e in played["events"] if e["event"] == "noise" and "check" in e]
        assert len(listens) >= 10  # every guard listens to the grapple
        check = listens[0]["check"]
        assert check["chance"] and check["roll"] and any(m["rule"] for m in check["modifiers"])
        assert played["view"]["seq"] == 1 and "awareness" in played["view"]
        assert len(played["faces"]) >= 10

        before = gm.get(f"/api/v1/encounters/{encounter}/view").json()
        refusals: dict[str, tuple[dict[str, Any], str | None]] = {
            "wall": ({"do": "move", "actor": "Tsuki", "to": [66, 11]}, "SK-G1"),
            "too far": ({"do": "move", "actor": "Kaze", "to": [54, 30]}, "LP-1"),
            "unknown": ({"do": "wait", "actor": "Nobody"}, None),
            "defender": ({"do": "wait", "actor": "Jubei"}, "LP-6"),
        }
        for name, (action, rule) in refusals.items():
            problem = problem_of(act(gm, encounter, action))
            assert problem["status"] == 409, name
            assert problem["type"] == "urn:vigile:problem:refused", name
            assert problem["where"] == "action"
            assert problem.get("rule") == rule, name
        unknown_do = problem_of(act(gm, encounter, {"do": "fly", "actor": "Kage"}))
        assert unknown_do["status"] == 422 and unknown_do["where"] == "action"
        assert "unknown action 'fly'" in unknown_do["detail"]
        assert last_seq(gm, encounter) == 1
        assert gm.get(f"/api/v1/encounters/{encounter}/view").json() == before

        french = problem_of(
            gm.post(
                f"/api/v1/encounters/{encounter}/actions",
                json={"action": {"do": "wait", "actor": "Nobody"}},
                headers={"Accept-Language": "fr-CA,fr;q=0.9,en;q=0.5"},
            )
        )
        assert french["title"] == "Les règles interdisent cette action"
        assert "Nobody" in french["detail"] and "aucun" in french["detail"]

        assert act(gm, encounter, {"do": "end-turn"}).json()["seq"] == 2
        climbed = act(gm, encounter, {"do": "move", "actor": "Kage", "to": [60, 11], "climb": True})
        assert climbed.status_code == 200, climbed.text
        again = problem_of(act(gm, encounter, {"do": "move", "actor": "Kage", "to": [60, 12]}))
        assert again["status"] == 409 and "already moved" in again["detail"]
        stale = problem_of(act(gm, encounter, {"do": "end-turn"}, expect_seq=3))
        assert stale["type"] == "urn:vigile:problem:stale-sequence" and stale["actual"] == 4
        assert last_seq(gm, encounter) == 3
        assert act(gm, encounter, {"do": "end-turn"}, expect_seq=4).json()["seq"] == 4


def test_a_dead_target_is_refused(server: Server) -> None:
    with server.client() as gm:
        created = gm.post("/api/v1/encounters", json={"text": SMALL, "seed": 3})
        encounter = created.json()["encounter"]["id"]
        killed = act(gm, encounter, {"do": "kill", "actor": "Kage", "target": "Gen"})
        assert killed.status_code == 200, killed.text
        problem = problem_of(act(gm, encounter, {"do": "kill", "actor": "Kage", "target": "Gen"}))
        assert problem["status"] == 409 and "dead" in problem["detail"]
        assert last_seq(gm, encounter) == 1


def test_the_tables_dice_asked_one_by_one_with_the_odds(server: Server) -> None:
    with server.client() as gm:
        encounter = new_encounter(gm, dice="given")["encounter"]["id"]
        dice: list[int] = []
        asked = []
        while True:
            response = act(gm, encounter, GRAPPLE, dice=dice)
            if response.status_code == 200:
                break
            problem = problem_of(response)
            assert problem["type"] == "urn:vigile:problem:needs-dice", problem
            needs = problem["needs"]
            assert needs["index"] == len(dice) and needs["sides"] == 6
            assert needs["check"]["chance"] and needs["check"]["roll"] is None
            asked.append(needs["who"])
            assert last_seq(gm, encounter) == 0  # nothing stored while dice are missing
            dice.append(len(dice) % 6 + 1)
        played = response.json()
        assert played["faces"] == dice and played["seq"] == 1
        assert asked[0] == "Jubei"
        rolled = [
            face
            for event in played["events"]
            if "check" in event and event["check"].get("roll")
            for die in event["check"]["roll"]["dice"]
            for face in die["faces"]
        ]
        assert rolled == dice  # every face in the log, in order
        too_many = problem_of(act(gm, encounter, {"do": "end-turn"}, dice=[3]))
        assert too_many["status"] == 422 and too_many["where"] == "dice"
        not_a_face = problem_of(
            act(
                gm,
                encounter,
                {"do": "throw-grapple", "actor": "Tsuki", "at": [70, 10], "onto": "tile"},
                dice=[7],
            )
        )
        assert not_a_face["status"] == 422 and "not a face of a d6" in not_a_face["detail"]
        assert last_seq(gm, encounter) == 1


def test_undo(server: Server) -> None:
    with server.client() as gm:
        encounter = new_encounter(gm)["encounter"]["id"]
        url = f"/api/v1/encounters/{encounter}"
        assert problem_of(gm.post(f"{url}/undo"))["status"] == 409  # nothing to undo
        start = gm.get(f"{url}/view").json()
        act(gm, encounter, GRAPPLE)
        undone = gm.post(f"{url}/undo", json={"expect_seq": 2})
        assert undone.status_code == 200, undone.text
        assert undone.json()["undone"] == 1 and undone.json()["seq"] == 2
        after = gm.get(f"{url}/view").json()
        assert after["events"] == start["events"] and after["seq"] == 2
        assert after["awareness"] == start["awareness"]
        stale = problem_of(gm.post(f"{url}/undo", json={"expect_seq": 2}))
        assert stale["status"] == 409


def test_LP6_the_GM_moves_a_guard_a_player_cannot_and_undo_puts_him_back(
    server: Server,
) -> None:
    """Hachi, posted at (50, 30), walks 5 cm west to (45, 30) at the GM's word (within his 15
    cm of half speed, LP-6 [R]); Kage's token may not (403); a defender does not ``move``
    and an intruder does not ``guard-move`` (409, LP-6); undo puts Hachi back."""
    with server.client() as gm:
        created = gm.post("/api/v1/encounters", json={"text": SMALL, "filename": "yard.yaml"})
        assert created.status_code == 201, created.text
        encounter = created.json()["encounter"]["id"]
        kage_token = created.json()["tokens"]["players"]["Kage"]
        url = f"/api/v1/encounters/{encounter}"

        def hachi() -> list[float]:
            actors = gm.get(f"{url}/view").json()["actors"]
            at: list[float] = next(a["at"] for a in actors if a["name"] == "Hachi")
            return at

        assert hachi() == [50, 30]
        with server.client(kage_token) as kage:
            order = {"do": "guard-move", "actor": "Hachi", "to": [45, 30]}
            assert problem_of(act(kage, encounter, order))["status"] == 403
        moved = act(gm, encounter, {"do": "guard-move", "actor": "Hachi", "to": [45, 30]})
        assert moved.status_code == 200, moved.text
        assert "Hachi walks 5 cm to (45, 30)" in str(moved.json()["events"])
        assert hachi() == [45, 30]
        for action in (
            {"do": "move", "actor": "Hachi", "to": [45, 25]},
            {"do": "guard-move", "actor": "Kage", "to": [12, 12]},
            {"do": "hold", "actor": "Hachi"},  # he moved this turn
        ):
            problem = problem_of(act(gm, encounter, action))
            assert problem["status"] == 409 and problem["type"] == "urn:vigile:problem:refused"
        undone = gm.post(f"{url}/undo")
        assert undone.status_code == 200, undone.text
        assert hachi() == [50, 30]
        assert act(gm, encounter, {"do": "hold", "actor": "Hachi"}).status_code == 200


# ---------------------------------------------------------------------------- problems, limits


def test_every_error_is_a_problem(server: Server) -> None:
    with server.client() as gm:
        assert problem_of(gm.get("/api/v1/nothing-here"))["status"] == 404
        assert problem_of(gm.put("/api/v1/health"))["status"] == 405
        unknown = problem_of(gm.get(f"/api/v1/encounters/{'0' * 32}"))
        assert unknown["status"] == 404 and unknown["where"] == "encounter"
        bad_seed = problem_of(
            gm.post("/api/v1/encounters", json={"scenario": "night-raid", "seed": -1})
        )
        assert bad_seed["status"] == 422 and bad_seed["errors"][0]["field"] == "body.seed"
        malformed = gm.post(
            "/api/v1/encounters", content=b"{not json", headers={"Content-Type": "application/json"}
        )
        assert problem_of(malformed)["status"] == 422
        extra = problem_of(gm.post("/api/v1/encounters", json={"scenario": "night-raid", "x": 1}))
        assert extra["status"] == 422
        french = problem_of(gm.get("/api/v1/nothing-here", params={"lang": "fr"}))
        assert french["title"] == "Introuvable"
        bad_lang = problem_of(gm.get("/api/v1/health", params={"lang": "de"}))
        assert bad_lang["status"] == 422
        encounter = new_encounter(gm)["encounter"]["id"]
        many = problem_of(act(gm, encounter, {"do": "end-turn"}, dice=[1] * 501))
        assert many["status"] == 422


def test_a_body_over_the_cap_is_a_413_and_stores_nothing(server: Server) -> None:
    with server.client() as gm:
        before = len(gm.get("/api/v1/encounters").json()["encounters"])
        huge = "# " + "x" * (3 * 1024 * 1024) + "\n" + SMALL
        problem = problem_of(gm.post("/api/v1/encounters", json={"text": huge}))
        assert problem["status"] == 413
        assert len(gm.get("/api/v1/encounters").json()["encounters"]) == before


def test_cors_allows_the_listed_origin_only(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'cors.db'}"
    running = Server(db, args=("--cors-origin", "http://vtt.example:30000")).start()
    try:
        with running.client() as gm:
            allowed = gm.get("/api/v1/encounters", headers={"Origin": "http://vtt.example:30000"})
            assert allowed.headers["access-control-allow-origin"] == "http://vtt.example:30000"
            other = gm.get("/api/v1/encounters", headers={"Origin": "http://evil.example"})
            assert "access-control-allow-origin" not in other.headers
            preflight = gm.options(
                "/api/v1/encounters",
                headers={
                    "Origin": "http://vtt.example:30000",
                    "Access-Control-Request-Method": "POST",
                    "Access-Control-Request-Headers": "authorization,content-type",
                },
            )
            assert preflight.status_code == 200
            assert preflight.headers["access-control-allow-origin"] == "http://vtt.example:30000"
            assert preflight.headers.get("access-control-allow-origin") != "*"
    finally:
        running.stop()


def test_serve_refuses_a_wildcard_origin_and_a_short_token(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = f"sqlite:///{tmp_path / 'x.db'}"
    assert main(["serve", "--db", db, "--cors-origin", "*"]) == 2
    assert "--cors-origin" in capsys.readouterr().err
    assert main(["serve", "--db", db, "--token", "short"]) == 2
    assert "--token" in capsys.readouterr().err


def test_a_lan_host_is_warned_about(tmp_path: Path) -> None:
    running = Server(f"sqlite:///{tmp_path / 'lan.db'}", args=("--host", "0.0.0.0"))
    try:
        running.start()
        assert any("warning" in line and "0.0.0.0" in line for line in running.output)
    finally:
        running.stop()


@pytest.mark.parametrize(
    ("header", "lang"),
    [
        ("fr-CA,fr;q=0.9,en;q=0.8", "fr"),
        ("en-GB,fr;q=0.9", "en"),
        ("de,fr;q=0.5", "fr"),
        ("de", None),
        ("fr;q=0,en;q=0.1", "en"),
        ("", None),
    ],
)
def test_accept_language(header: str, lang: str | None) -> None:
    found = parse_accept_language(header)
    assert (found.value if found else None) == lang


def test_demo_starts_a_night_raid_and_prints_its_links(tmp_path: Path) -> None:
    running = Server(f"sqlite:///{tmp_path / 'demo.db'}", args=("--demo",))
    try:
        running.start()
        deadline = time.monotonic() + 10
        while not any(line.strip().startswith("Kage: ") for line in running.output):
            assert time.monotonic() < deadline, running.output
            time.sleep(0.05)
        assert f"API docs: {running.base}/docs\n" in running.output
        kage = next(line for line in running.output if line.strip().startswith("Kage: "))
        link = httpx.URL(kage.split(": ", 1)[1].strip())
        encounter = link.path.rsplit("/", 1)[-1]
        with running.client(link.params["token"]) as player:
            view = player.get(f"/api/v1/encounters/{encounter}/view").json()
        # LP-5: Kage's own sequence, the events he was told (the start and turn 1)
        assert view["character"] == "Kage" and view["seq"] == len(view["events"]) == 2
    finally:
        running.stop()
