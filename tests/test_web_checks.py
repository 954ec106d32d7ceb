"""The single checks over HTTP: ``/api/v1/checks`` answers exactly what ``vigile check GAME
CHECK --json`` prints, refuses what it refuses (a value the check's model refuses naming the
option; what the rule refuses with the same one-line message), and lists every check's options
from the declaration both are built from.

The router is tested on an app of its own (no other route, no exception handler), so these
tests hold whatever the rest of the server does."""

from __future__ import annotations

import json
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

import sologame
import toygame
from vigile import registry
from vigile.checks.declare import Checks
from vigile.cli import main
from vigile.web.checks import MAX_BODY_BYTES, router

PREFIX = "/api/v1/checks"
PROBLEM = "application/problem+json"


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    app = FastAPI()
    app.include_router(router, prefix=PREFIX)
    with TestClient(app) as test_client:
        yield test_client


def cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """``vigile ARGS`` through the real entry point: exit code, stdout, stderr."""
    code = main(args)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def post(client: TestClient, game: str, check: str, body: dict[str, Any], **kw: Any) -> Any:
    return client.post(f"{PREFIX}/{game}/{check}", json=body, **kw)


# --- the same JSON as the CLI --------------------------------------------------------------------

CASES: list[tuple[str, str, dict[str, Any], list[str]]] = [
    # (game, check, request body, the same check's command-line arguments)
    ("skirmish", "move", {"options": {"speed": "full", "dice": 2}, "seed": 3},
     ["--speed", "full", "--dice", "2", "--seed", "3"]),
    ("skirmish", "noise",
     {"options": {"event": "death", "surface": "floor", "distance": 120, "walls": 2, "dice": 2,
                  "alert": True}, "seed": 7, "lang": "fr"},
     ["--event", "death", "--surface", "floor", "--distance", "120", "--walls", "2", "--dice",
      "2", "--alert", "--seed", "7", "--lang", "fr"]),
    ("skirmish", "sight",
     {"options": {"attitude": "half", "distance": 15.5, "alert": True, "dice": 2, "bonus": 1,
                  "no_line_of_sight": False}, "dice_values": [4, 2]},
     ["--attitude", "half", "--distance", "15.5", "--alert", "--dice", "2", "--bonus", "1",
      "--dice-values", "4,2"]),
    ("skirmish", "shadow",
     {"options": {"task": "notice", "setting": "countryside", "follower": "rider",
                  "discreet": True}, "seed": 12},
     ["--task", "notice", "--setting", "countryside", "--follower", "rider", "--discreet",
      "--seed", "12"]),
    ("skirmish", "ambush",
     {"options": {"setting": "town", "ambushers": 3, "targets": 2, "party": [1, 2]}, "seed": 5},
     ["--setting", "town", "--ambushers", "3", "--targets", "2", "--party", "1", "--party", "2",
      "--seed", "5"]),
    ("skirmish", "alarm", {"dice_values": [6, 1]}, ["--dice-values", "6,1"]),
    ("skirmish", "noise",
     {"options": {"event": "death", "surface": "floor"},
      "house_rules": "[noise.base]\ndeath_floor = 4\n"},
     ["--event", "death", "--surface", "floor", "--house-rules", "{house_rules}"]),
    ("starfinder", "hide",
     {"options": {"stealth": 5, "perception": "3,-8", "cover": True, "blindsense": "2",
                  "dc-mod": ["+2:dim light", "-1:rain"]}, "seed": 11, "lang": "fr"},
     ["--stealth", "5", "--perception", "3,-8", "--cover", "--blindsense", "2",
      "--dc-mod", "+2:dim light", "--dc-mod", "-1:rain", "--seed", "11", "--lang", "fr"]),
    ("starfinder", "hide",
     {"options": {"stealth": 12, "perception": [3, 8, 1], "total_concealment": True,
                  "speed": "more-than-half", "lost-cover-this-turn": True},
      "seed": 2, "view": "player"},
     ["--stealth", "12", "--perception", "3,8,1", "--total-concealment", "--speed",
      "more-than-half", "--lost-cover-this-turn", "--seed", "2", "--view", "player"]),
    ("starfinder", "attack",
     {"options": {"miss-chance": 20, "blind_fight": True, "awareness": "presence"}},
     ["--miss-chance", "20", "--blind-fight", "--awareness", "presence"]),
    ("dnd35", "spot",
     {"options": {"spot": 4, "distance": 20, "target": "moving", "pinpoint": True},
      "seed": 5, "lang": "fr"},
     ["--spot", "4", "--distance", "20", "--target", "moving", "--pinpoint", "--seed", "5",
      "--lang", "fr"]),
    ("dnd35", "listen",
     {"options": {"listen": 6, "move_silently": 3, "speed": "full", "door": True},
      "dice_values": [11, 9]},
     ["--listen", "6", "--move-silently", "3", "--speed", "full", "--door",
      "--dice-values", "11,9"]),
    ("dnd35", "hide",
     {"options": {"hide": 10, "spot": "3,8", "distance": "10,30", "cover": True}, "seed": 9,
      "view": "player"},
     ["--hide", "10", "--spot", "3,8", "--distance", "10,30", "--cover", "--seed", "9",
      "--view", "player"]),
    ("dnd35", "grope", {"options": {"touch_attack": 3, "touch_ac": 12, "occupied": True},
                        "seed": 1},
     ["--touch-attack", "3", "--touch-ac", "12", "--occupied", "--seed", "1"]),
    ("dnd35", "attack", {"options": {"miss-chance": 50, "square-wrong": True}, "seed": 3,
                         "view": "player"},
     ["--miss-chance", "50", "--square-wrong", "--seed", "3", "--view", "player"]),
]  # fmt: skip


@pytest.mark.parametrize(
    ("game", "check", "body", "args"),
    CASES,
    ids=[f"{game}-{check}-{i}" for i, (game, check, *_) in enumerate(CASES)],
)
def test_the_answer_is_what_the_cli_prints(
    client: TestClient,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    game: str,
    check: str,
    body: dict[str, Any],
    args: list[str],
) -> None:
    if "house_rules" in body:
        house = tmp_path / "house.toml"
        house.write_text(body["house_rules"], encoding="utf-8")
        args = [str(house) if a == "{house_rules}" else a for a in args]
    code, out, err = cli(["check", game, check, *args, "--json"], capsys)
    assert code == 0, err
    answer = post(client, game, check, body)
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"] == "application/json"
    assert answer.json() == json.loads(out)


def test_the_language_comes_from_accept_language(
    client: TestClient, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["--event", "fumble", "--distance", "40", "--seed", "1", "--json"]
    body = {"options": {"event": "fumble", "distance": 40}, "seed": 1}
    french = json.loads(cli(["check", "skirmish", "noise", *args, "--lang", "fr"], capsys)[1])
    english = json.loads(cli(["check", "skirmish", "noise", *args], capsys)[1])
    assert french != english
    headers = {"accept-language": "de-DE, fr-CA;q=0.8, en;q=0.5"}
    assert post(client, "skirmish", "noise", body, headers=headers).json() == french
    assert post(client, "skirmish", "noise", body).json() == english
    assert post(client, "skirmish", "noise", {**body, "lang": "en"}, headers=headers).json() == (
        english
    )


def test_as_many_observers_as_the_cli_allows(
    client: TestClient, capsys: pytest.CaptureFixture[str]
) -> None:
    bonuses = [i % 41 - 20 for i in range(1000)]
    text = ",".join(map(str, bonuses))
    out = cli(["check", "starfinder", "hide", "--stealth", "9", "--perception", text, "--cover",
               "--seed", "8", "--json"], capsys)[1]  # fmt: skip
    body = {"options": {"stealth": 9, "perception": bonuses, "cover": True}, "seed": 8}
    assert post(client, "starfinder", "hide", body).json() == json.loads(out)
    body["options"]["perception"] = text
    assert post(client, "starfinder", "hide", body).json() == json.loads(out)


def test_a_check_without_options_takes_no_body(client: TestClient) -> None:
    answer = client.post(f"{PREFIX}/skirmish/alarm")
    assert answer.status_code == 200
    assert answer.json()["check"] == "alarm"
    assert answer.json()["roll"] is None  # odds only, as without --roll


# --- refused, as the CLI refuses ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "check", "options", "args", "where"),
    [
        ("starfinder", "hide", {"stealth": 3, "perception": "3,x"},
         ["--stealth", "3", "--perception", "3,x"], "--perception"),
        ("starfinder", "hide", {"stealth": 3, "perception": "3", "no-cover": True, "cover": True},
         ["--stealth", "3", "--perception", "3", "--no-cover", "--cover"], "--cover"),
        ("starfinder", "hide", {"stealth": 3, "perception": "3", "blindsense": "2"},
         ["--stealth", "3", "--perception", "3", "--blindsense", "2"], "--blindsense"),
        ("dnd35", "attack", {"miss-chance": 50, "square_correct": True, "square_wrong": True},
         ["--miss-chance", "50", "--square-correct", "--square-wrong"], "--square-wrong"),
        ("dnd35", "attack-roll", {"attack": 5, "ac": 15, "sneak-attack": "21d6"},
         ["--attack", "5", "--ac", "15", "--sneak-attack", "21d6"], "--sneak-attack"),
        ("skirmish", "ambush", {"setting": "town", "ambushers": 2, "targets": 1,
                                "skill-levels": 1, "party": [2]},
         ["--setting", "town", "--ambushers", "2", "--targets", "1", "--skill-levels", "1",
          "--party", "2"], "--skill-levels"),
    ],
)  # fmt: skip
def test_what_the_rule_refuses_is_the_clis_own_message(
    client: TestClient,
    capsys: pytest.CaptureFixture[str],
    game: str,
    check: str,
    options: dict[str, Any],
    args: list[str],
    where: str | None,
) -> None:
    code, out, err = cli(["check", game, check, *args, "--json"], capsys)
    assert (code, out) == (2, "")
    answer = post(client, game, check, {"options": options})
    assert answer.status_code == 422
    assert answer.headers["content-type"] == PROBLEM
    problem = answer.json()
    assert problem["status"] == 422
    assert set(problem) >= {"type", "title", "status", "detail"}
    assert f"vigile: error: {problem['detail']}\n" == err
    assert problem.get("where") == where


@pytest.mark.parametrize(
    ("game", "check", "options", "args", "where"),
    [
        ("starfinder", "hide", {"stealth": "x", "perception": "3"},
         ["--stealth", "x", "--perception", "3"], "--stealth"),
        ("starfinder", "hide", {"stealth": 3}, ["--stealth", "3"], "--perception"),
        ("starfinder", "hide", {"stealth": 3, "perception": "3", "speed": "zz"},
         ["--stealth", "3", "--perception", "3", "--speed", "zz"], "--speed"),
        ("skirmish", "noise", {"event": "fumble", "distance": "inf"},
         ["--event", "fumble", "--distance", "inf"], "--distance"),
        ("skirmish", "noise", {"event": "fumble", "dice": 5.5},
         ["--event", "fumble", "--dice", "5.5"], "--dice"),
        ("skirmish", "noise", {"event": "fumble", "dice": 21},
         ["--event", "fumble", "--dice", "21"], "--dice"),
        ("skirmish", "sight", {"attitude": "half", "distance": -1},
         ["--attitude", "half", "--distance", "-1"], "--distance"),
        ("dnd35", "spot", {"spot": 10**6, "distance": 5, "target": "still"},
         ["--spot", str(10**6), "--distance", "5", "--target", "still"], "--spot"),
        ("dnd35", "spot", {"spot": 101, "distance": 5, "target": "still"},
         ["--spot", "101", "--distance", "5", "--target", "still"], "--spot"),
        ("dnd35", "grope", {"touch-attack": 1, "touch-ac": -1},
         ["--touch-attack", "1", "--touch-ac", "-1"], "--touch-ac"),
        ("dnd35", "attack-roll", {"attack": 1, "ac": 10, "favored-enemy": 21},
         ["--attack", "1", "--ac", "10", "--favored-enemy", "21"], "--favored-enemy"),
        ("starfinder", "attack", {"miss-chance": 101},
         ["--miss-chance", "101"], "--miss-chance"),
    ],
)  # fmt: skip
def test_a_value_out_of_the_declared_type_or_range_is_refused_naming_the_option(
    client: TestClient,
    capsys: pytest.CaptureFixture[str],
    game: str,
    check: str,
    options: dict[str, Any],
    args: list[str],
    where: str,
) -> None:
    """The request model refuses before the rule, naming the option as the CLI's error does;
    the CLI refuses the same value (click's type, or the rule's own limit: the declared range
    is the rule's)."""
    code, out, err = cli(["check", game, check, *args, "--json"], capsys)
    assert (code, out) == (2, "")
    assert where in err
    answer = post(client, game, check, {"options": options})
    assert answer.status_code == 422
    assert answer.headers["content-type"] == PROBLEM
    problem = answer.json()
    assert (problem["status"], problem["where"]) == (422, where)
    assert problem["detail"].startswith(f"{where}: ")


def test_a_seed_out_of_range_is_refused_as_by_the_cli(
    client: TestClient, capsys: pytest.CaptureFixture[str]
) -> None:
    err = cli(["check", "skirmish", "alarm", "--seed", "-1"], capsys)[2]
    problem = post(client, "skirmish", "alarm", {"seed": -1}).json()
    assert (problem["status"], problem["where"]) == (422, "--seed")
    assert err == f"vigile: error: {problem['detail']}\n"


@pytest.mark.parametrize(
    ("path", "where"),
    [("nope/hide", "game"), ("skirmish/hide", "check"), ("dnd35/nope", "check")],
)
def test_an_unknown_game_or_check_is_404(client: TestClient, path: str, where: str) -> None:
    for answer in (client.post(f"{PREFIX}/{path}", json={}), client.get(f"{PREFIX}/{path}")):
        assert answer.status_code == 404
        assert answer.headers["content-type"] == PROBLEM
        assert answer.json()["where"] == where
    assert client.get(f"{PREFIX}/nope").status_code == 404


@pytest.mark.parametrize(
    ("key", "fragment"),
    [
        ("json", "always JSON"),
        ("lang", "'lang' field"),
        ("seed", "'seed' field"),
        ("dice-values", "'dice_values' field"),
        ("dice_values", "'dice_values' field"),
        ("view", "'view' field"),
        ("house-rules", "'house_rules' field"),
        ("help", "GET /api/v1/checks"),
        ("bogus", "No such option: --bogus"),
        ("stelth", "Possible options: --stealth"),
        ("--stealth", "No such option"),
        ("Stealth", "No such option"),
    ],
)
def test_an_option_of_its_own_field_or_unknown_is_refused_by_name(
    client: TestClient, key: str, fragment: str
) -> None:
    options = {"stealth": 3, "perception": "1", key: True}
    problem = post(client, "starfinder", "hide", {"options": options}).json()
    assert problem["status"] == 422
    assert fragment in problem["detail"]
    assert problem["where"] == key


@pytest.mark.parametrize(
    ("options", "fragment"),
    [
        ({"invisible": "yes"}, "--invisible: Input should be a valid boolean"),
        ({"invisible": 1}, "--invisible: Input should be a valid boolean"),
        ({"stealth": [1, 2]}, "--stealth: Input should be a valid integer"),
        ({"speed": ["half"]}, "--speed: Input should be 'half' or 'more-than-half'"),
        ({"perception": [1.5]}, "--perception: Input should be a valid"),
        ({"cover": True, "cover_": True}, "No such option"),
    ],
)
def test_a_value_of_the_wrong_shape_is_refused(
    client: TestClient, options: dict[str, Any], fragment: str
) -> None:
    body = {"options": {"stealth": 3, "perception": "1", **options}}
    problem = post(client, "starfinder", "hide", body).json()
    assert problem["status"] == 422, problem
    assert fragment in problem["detail"]


def test_an_option_given_twice_by_two_names_is_refused(client: TestClient) -> None:
    body = {"options": {"stealth": 3, "perception": "1", "no-cover": True, "no_cover": True}}
    problem = post(client, "starfinder", "hide", body).json()
    assert (problem["status"], problem["where"]) == (422, "no_cover")
    assert "given twice" in problem["detail"]


def test_a_false_flag_is_left_out(client: TestClient, capsys: pytest.CaptureFixture[str]) -> None:
    body = {"options": {"stealth": 3, "perception": "1", "cover": True, "invisible": False}}
    out = cli(["check", "starfinder", "hide", "--stealth", "3", "--perception", "1", "--cover",
               "--json"], capsys)[1]  # fmt: skip
    assert post(client, "starfinder", "hide", body).json() == json.loads(out)


def test_a_value_is_never_read_as_an_option(client: TestClient) -> None:
    """Values travel as ``--name=value``: ``--json`` or ``--house-rules=/etc/passwd`` given as a
    value is that option's (wrong) value, never an option of its own."""
    body = {"options": {"stealth": 3, "perception": "--house-rules=/etc/passwd"}}
    problem = post(client, "starfinder", "hide", body).json()
    assert (problem["status"], problem["where"]) == (422, "--perception")
    assert "'--house-rules=/etc/passwd' is not a whole number" in problem["detail"]


def test_a_field_the_check_does_not_take_is_refused(client: TestClient) -> None:
    problem = post(client, "skirmish", "alarm", {"view": "player"}).json()
    assert (problem["status"], problem["where"]) == (422, "view")
    assert problem["detail"] == "vigile check skirmish alarm takes no --view (view)"


def test_the_gms_dice_and_a_seed_together_are_refused_as_by_the_cli(
    client: TestClient, capsys: pytest.CaptureFixture[str]
) -> None:
    err = cli(["check", "skirmish", "alarm", "--seed", "1", "--dice-values", "3,4"], capsys)[2]
    problem = post(client, "skirmish", "alarm", {"seed": 1, "dice_values": [3, 4]}).json()
    assert err == f"vigile: error: {problem['detail']}\n"


def test_bad_house_rules_name_the_field_and_leave_no_file(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    body = {
        "options": {"event": "death", "surface": "floor"},
        "house_rules": "# ours\n[noise.base]\nfumble = 5\ndeath_flor = 4\n",
    }
    problem = post(client, "skirmish", "noise", body).json()
    assert (problem["status"], problem["where"]) == (422, "house_rules:4")
    assert "death_flor" in problem["detail"]
    assert str(tmp_path) not in problem["detail"]
    ok = post(client, "skirmish", "noise", {**body, "house_rules": "[noise.base]\nfumble = 5\n"})
    assert ok.status_code == 200
    assert list(tmp_path.iterdir()) == []


def test_the_request_shape_is_checked(client: TestClient) -> None:
    for body in (
        {"options": {"stealth": {"nested": 1}}},
        {"options": {"stealth": None}},
        {"options": {"perception": [[1]]}},
        {"options": {f"o{i}": 1 for i in range(100)}},
        {"options": {"perception": "1," * 5000}},
        {"options": {"perception": [1] * 1001}},
        {"dice_values": ["a"]},
        {"view": "god"},
        {"lang": "de"},
        {"unknown": 1},
    ):
        assert post(client, "starfinder", "hide", body).status_code == 422, body


def test_a_body_over_the_cap_is_413(client: TestClient) -> None:
    big = b'{"house_rules": "' + b"#" * MAX_BODY_BYTES + b'"}'
    answer = client.post(
        f"{PREFIX}/skirmish/alarm", content=big, headers={"content-type": "application/json"}
    )
    assert answer.status_code == 413
    assert answer.headers["content-type"] == PROBLEM

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it comes
        yield b'{"house_rules": "'
        for _ in range(MAX_BODY_BYTES // 1024 + 1):
            yield b"#" * 1024
        yield b'"}'

    answer = client.post(
        f"{PREFIX}/skirmish/alarm", content=chunks(), headers={"content-type": "application/json"}
    )
    assert answer.status_code == 413


# --- the list of checks ---------------------------------------------------------------------------


DND35_CHECKS = (
    "spot",
    "listen",
    "hide",
    "grope",
    "attack",
    "attack-roll",
    "struck",
    "signs",
    "senses",
    "gaze",
)


def test_every_check_is_listed_with_its_options(client: TestClient) -> None:
    listing = client.get(PREFIX).json()
    games = {game["name"]: game for game in listing["games"]}
    assert list(games) == ["skirmish", "starfinder", "dnd35"]
    checks = {(g, c["name"]): c for g, game in games.items() for c in game["checks"]}
    assert set(checks) == {
        ("skirmish", name) for name in ("move", "noise", "sight", "shadow", "ambush", "alarm")
    } | {("starfinder", "hide"), ("starfinder", "attack")} | {
        ("dnd35", name) for name in DND35_CHECKS
    }
    hide = checks["starfinder", "hide"]
    options = {o["name"]: o for o in hide["options"]}
    assert options["stealth"] == {
        "name": "stealth",
        "flag": "--stealth",
        "type": "integer",
        "multiple": False,
        "comma": False,
        "choices": None,
        "default": None,
        "required": True,
        "minimum": -100,
        "maximum": 100,
        "metavar": "BONUS",
        "help": "Stealth bonus.",
    }
    assert options["perception"]["comma"] is True
    assert options["perception"]["type"] == "string"  # its text, or a list of numbers
    assert options["speed"]["choices"] == ["half", "more-than-half"]
    assert options["speed"]["default"] == "half"
    assert options["invisible"]["type"] == "boolean"
    assert options["invisible"]["default"] is False
    assert options["distance"]["type"] == "number"
    assert options["dc-mod"]["multiple"] is True
    assert "lost-cover-this-turn" in options
    for check in checks.values():
        names = {o["name"] for o in check["options"]}
        assert not names & {"json", "lang", "seed", "dice-values", "view", "house-rules"}
        assert "roll" in names
    assert set(hide["fields"]) == {"seed", "dice_values", "view", "house_rules", "lang"}
    assert "view" not in checks["skirmish", "move"]["fields"]
    assert "SF-1" in hide["help"]
    json.dumps(listing)  # every default is JSON


def test_one_game_and_one_check_are_listed(client: TestClient) -> None:
    game = client.get(f"{PREFIX}/dnd35").json()
    assert [c["name"] for c in game["checks"]] == list(DND35_CHECKS)
    assert client.get(f"{PREFIX}/dnd35/grope").json() == game["checks"][3]


def test_the_listing_is_in_the_requests_language(client: TestClient) -> None:
    french = client.get(f"{PREFIX}/starfinder/hide", params={"lang": "fr"}).json()
    options = {o["name"]: o for o in french["options"]}
    assert options["stealth"]["help"] == "Bonus de Discrétion."
    assert french["help"].startswith("Celui qui se cache reste-t-il caché")


def test_a_plugin_game_that_declares_its_checks_is_served(
    client: TestClient, capsys: pytest.CaptureFixture[str]
) -> None:
    """A game registered after the server started: its declared check is listed, answered
    over HTTP as on the command line, with the alarm's own rule function."""
    registry.register(sologame.PLUGIN)
    try:
        [game] = [g for g in client.get(PREFIX).json()["games"] if g["name"] == "solo"]
        assert [c["name"] for c in game["checks"]] == ["cry"]
        solo = post(client, "solo", "cry", {"dice_values": [6, 1]}).json()
        code, out, err = cli(["check", "solo", "cry", "--dice-values", "6,1", "--json"], capsys)
    finally:
        registry.unregister("solo")
    assert code == 0, err
    assert solo == json.loads(out)
    assert solo == post(client, "skirmish", "alarm", {"dice_values": [6, 1]}).json()
    assert client.get(f"{PREFIX}/solo").status_code == 404


def test_a_plugin_game_with_a_typer_app_has_its_checks_on_the_cli_only(
    client: TestClient, capsys: pytest.CaptureFixture[str]
) -> None:
    """The toy game names a Typer app of its own: ``vigile check toy`` runs it, the HTTP API
    (built from declarations) does not list it."""
    registry.register(toygame.PLUGIN)
    try:
        code, out, err = cli(["check", "toy", "odds"], capsys)
        games = [g["name"] for g in client.get(PREFIX).json()["games"]]
        missing = client.post(f"{PREFIX}/toy/odds", json={})
    finally:
        registry.unregister("toy")
    assert (code, out) == (0, "1/3\n"), err  # one d6 reaching 5+ (TOY-1): 2 faces of 6
    assert "toy" not in games
    assert missing.status_code == 404


def test_requests_at_once_each_get_their_own_verdict(client: TestClient) -> None:
    answers: dict[int, Any] = {}

    def ask(seed: int) -> None:
        body = {"options": {"stealth": seed, "perception": str(seed)}, "seed": seed}
        answers[seed] = post(client, "starfinder", "hide", {**body, "options": {
            **body["options"], "cover": True}}).json()  # fmt: skip

    threads = [threading.Thread(target=ask, args=(seed,)) for seed in range(1, 13)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for seed, answer in answers.items():
        assert answer["observers"][0]["die_bonus"] == seed
    assert len(answers) == 12


# --- one declaration: the schema, the commands -------------------------------------------------


def test_each_check_has_its_typed_request_and_answer_in_the_schema(client: TestClient) -> None:
    schema = client.app.openapi()  # type: ignore[attr-defined]
    components = schema["components"]["schemas"]
    operation = schema["paths"][f"{PREFIX}/starfinder/hide"]["post"]
    body = operation["requestBody"]["content"]["application/json"]["schema"]
    assert body == {"$ref": "#/components/schemas/StarfinderHideRequest"}
    options = components["StarfinderHideOptions"]
    assert options["additionalProperties"] is False
    assert set(options["required"]) == {"stealth", "perception"}
    stealth = options["properties"]["stealth"]
    assert (stealth["type"], stealth["minimum"], stealth["maximum"]) == ("integer", -100, 100)
    assert options["properties"]["total-concealment"]["default"] is False
    request = components["StarfinderHideRequest"]["properties"]
    assert set(request) == {"options", "lang", "seed", "dice_values", "view", "house_rules"}
    assert "view" not in components["SkirmishAlarmRequest"]["properties"]
    answer = operation["responses"]["200"]["content"]["application/json"]["schema"]
    assert answer["anyOf"] == [
        {"$ref": "#/components/schemas/VerdictAnswer"},
        {"$ref": "#/components/schemas/PlayerAnswer"},
    ]
    assert "chance" in components["VerdictAnswer"]["required"]
    listing = schema["paths"][PREFIX]["get"]["responses"]["200"]["content"]
    assert listing["application/json"]["schema"] == {"$ref": "#/components/schemas/Listing"}


def test_every_check_names_a_rule_function_of_its_rulesets() -> None:
    """A declaration turns options into arguments; the rule is the ruleset's own function."""
    for game in ("skirmish", "starfinder", "dnd35"):
        found = registry.get(game).load(registry.get(game).cli)
        assert isinstance(found, Checks)
        for check in found.checks:
            assert check.rule.__module__.startswith(f"vigile.rulesets.{game}."), check.name


def test_the_commands_options_are_the_declarations() -> None:
    """``vigile check starfinder …``: one option per declared input, then the common ones."""
    import typer

    from vigile.cli.starfinder import app

    declared = registry.get("starfinder").load(registry.get("starfinder").cli)
    group = typer.main.get_command(app)
    for check in declared.checks:
        command = group.commands[check.name]  # type: ignore[attr-defined]
        flags = [param.opts[0] for param in command.params]
        common = ["--view", "--roll", "--dice-values", "--seed", "--json", "--lang"]
        assert flags == [one.flag for one in check.inputs] + common + ["--house-rules"]


def test_the_server_runs_checks_without_the_command_line_parser() -> None:
    """The web app imports neither click nor Typer: a check over HTTP calls its rule function."""
    import subprocess
    import sys

    code = (
        "import sys, vigile.web, vigile.web.checks as c; "
        "c.calculate('dnd35', 'spot', {'options': {'spot': 1, 'distance': 5, 'target': 'still'}}, "
        "c.Lang.EN); print(sorted(m for m in ('click', 'typer') if m in sys.modules))"
    )
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert found.stdout.strip() == "[]"
