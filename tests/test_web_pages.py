"""The pages of ``vigile serve`` (issue 12), rendered in-process: what each viewer's page holds
and what it must not, the GM's odds before the roll and the table's dice, the calculator's
numbers against ``vigile check``, languages and number formats. The browser tests
(tests/test_browser.py) play the same pages in Chromium."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from vigile.cli import build_app
from vigile.store import Store
from vigile.web.app import create_app
from vigile.web.mapsvg import initials, lit_zone
from vigile.web.pageplay import FORMS, action_from_form
from vigile.web.pagetext import chance, measure

TOKEN = "page-test-token-0123456789"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
INTRUDERS = ("Kage", "Tsuki", "Kaze")


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    store = Store(f"sqlite:///{tmp_path / 'pages.db'}")
    with TestClient(create_app(store, gm_token=TOKEN)) as test_client:
        yield test_client
    store.close()


def start(client: TestClient, scenario: str = "night-raid", dice: str = "rolled") -> str:
    """A new encounter through the list page's form; its id (from the GM page it opens)."""
    response = client.post(
        "/encounters",
        data={"token": TOKEN, "scenario": scenario, "dice": dice},
        follow_redirects=False,
    )
    assert response.status_code == 303, response.text
    found = re.match(r"/encounters/([0-9a-f]+)\?token=", response.headers["location"])
    assert found is not None
    return found.group(1)


def tokens(client: TestClient, scenario: str = "night-raid", **options: Any) -> dict[str, Any]:
    response = client.post(
        "/api/v1/encounters", json={"scenario": scenario, **options}, headers=AUTH
    )
    assert response.status_code == 201
    created: dict[str, Any] = response.json()
    return created


# ------------------------------------------------------------------------------ the list


def test_the_list_asks_for_the_server_token_and_speaks_the_readers_language(
    client: TestClient,
) -> None:
    page = client.get("/", headers={"Accept-Language": "fr-CA,fr;q=0.9,en;q=0.5"})
    assert page.status_code == 200
    assert '<html lang="fr">' in page.text and "jeton du serveur" in page.text
    assert client.get("/?token=wrong").status_code == 401
    listed = client.get(f"/?token={TOKEN}&lang=en")
    assert '<html lang="en">' in listed.text and "night-raid" in listed.text
    assert "lang=fr" in listed.text  # the switch


def test_start_resume_and_archive(client: TestClient) -> None:
    encounter = start(client)
    listed = client.get(f"/?token={TOKEN}")
    assert f"/encounters/{encounter}?token=" in listed.text
    archived = client.post(
        f"/encounters/{encounter}/archive", data={"token": TOKEN}, follow_redirects=False
    )
    assert archived.status_code == 303
    assert f"/encounters/{encounter}?" not in client.get(f"/?token={TOKEN}").text
    assert f"/encounters/{encounter}?" in client.get(f"/?token={TOKEN}&archived=true").text
    gm = client.get(f"/encounters/{encounter}?token={TOKEN}")
    assert gm.status_code == 200 and "archived" in gm.text  # still readable


def test_an_uploaded_scenario_that_does_not_validate_shows_its_errors_by_line(
    client: TestClient,
) -> None:
    text = (
        "ruleset: skirmish\nname: broken\nmap: {width: 100, height: 50}\nactors:\n  - {name: A}\n"
    )
    response = client.post(
        "/encounters",
        data={"token": TOKEN, "dice": "rolled"},
        files={"file": ("broken.yaml", text.encode(), "application/yaml")},
    )
    assert response.status_code == 422
    assert "line 5" in response.text
    assert not client.get("/api/v1/encounters", headers=AUTH).json()["encounters"]


# ------------------------------------------------------------------------------ the GM's table


def test_the_gm_map_draws_the_board_and_who_knows_what(client: TestClient) -> None:
    encounter = start(client)
    page = client.get(f"/encounters/{encounter}?token={TOKEN}&lang=en").text
    for drawn in ('class="wall w-wall', "w-partition", "w-door", "w-window", 'class="cover"',
                  'class="lit"', 'class="objective"', "group-link", "s-water"):  # fmt: skip
        assert drawn in page, drawn
    assert 'class="wall w-door open"' in page  # the west door starts open
    for name in ("Kage", "Jubei", "Lord Nagamasa"):
        assert f'data-name="{name}"' in page
    # the matrix: a letter beside each colour
    assert page.count('<span class="chip st-unaware" aria-hidden="true">U</span>') >= 33
    french = client.get(f"/encounters/{encounter}?token={TOKEN}&lang=fr").text
    assert '<span class="chip st-unaware" aria-hidden="true">I</span>' in french


def test_the_odds_before_the_roll_then_the_tables_dice_one_by_one(client: TestClient) -> None:
    encounter = start(client, dice="given")
    form = {"do": "throw-grapple", "actor": "Kage", "x": "60", "y": "10"}
    preview = client.post(f"/encounters/{encounter}/preview?lang=fr", data=form, headers=AUTH)
    first = re.search(r'data-chance="([^"]+)"', preview.text)
    assert first is not None
    api = client.post(
        f"/api/v1/encounters/{encounter}/actions",
        json={"action": action_from_form(form)},
        headers=AUTH,
    )
    assert api.status_code == 409
    assert api.json()["needs"]["check"]["chance"] == first.group(1) == "11/36"
    assert "30,56\u00a0%" in preview.text  # French: 30,56 %
    assert client.get(f"/api/v1/encounters/{encounter}/view", headers=AUTH).json()["seq"] == 0

    dice: list[str] = []
    response = client.post(f"/encounters/{encounter}/act", data=form, headers=AUTH)
    while 'class="played' not in response.text:
        asked = re.search(r'data-die="(\d+)"', response.text)
        assert asked is not None, response.text
        assert int(asked.group(1)) == len(dice)
        action = re.search(r'name="action" value="([^"]+)"', response.text)
        assert action is not None
        dice.append("6" if not dice else "1")
        response = client.post(
            f"/encounters/{encounter}/act",
            data={"action": html.unescape(action.group(1)), "dice": ",".join(dice[:-1]),
                  "die": dice[-1]},
            headers=AUTH,
        )  # fmt: skip
    assert "Jubei hears Kage" in response.text
    assert 'hx-swap-oob="true"' in response.text  # the map, matrix and log follow
    view = client.get(f"/api/v1/encounters/{encounter}/view", headers=AUTH).json()
    assert view["awareness"]["Jubei"]["Kage"] == "direction"

    undone = client.post(f"/encounters/{encounter}/undo", headers=AUTH)
    assert "Jubei hears Kage" not in undone.text


def test_a_refused_action_names_its_rule_and_changes_nothing(client: TestClient) -> None:
    encounter = start(client)
    form = {"do": "move", "actor": "Kage", "x": "60", "y": "11"}  # through the compound wall
    preview = client.post(f"/encounters/{encounter}/preview", data=form, headers=AUTH)
    assert "SK-G1" in preview.text
    played = client.post(f"/encounters/{encounter}/act", data=form, headers=AUTH)
    assert "SK-G1" in played.text and 'role="alert"' in played.text
    assert client.get(f"/api/v1/encounters/{encounter}/view", headers=AUTH).json()["seq"] == 0


def test_LP6_the_gm_page_acts_for_a_defender(client: TestClient) -> None:
    """The GM page offers the defenders' actions with a menu of the living defenders; Goro,
    posted at (92, 104), walks 10 cm west at the GM's word (LP-6, 15 cm of half speed)."""
    encounter = start(client)
    page = client.get(f"/encounters/{encounter}?token={TOKEN}&lang=en").text
    assert '<option value="guard-move">move a defender (the GM' in page
    assert '<option value="scatter">type a patrol' in page
    guards = re.search(r'<select id="defender" name="actor"[^>]*>(.*?)</select>', page, re.S)
    assert guards is not None and '<option value="Goro">' in guards.group(1)
    assert '<option value="Kage">' not in guards.group(1)
    french = client.get(f"/encounters/{encounter}?token={TOKEN}&lang=fr").text
    assert "déplacer un défenseur (ordre du MJ)" in french
    form = {"do": "guard-move", "actor": "Goro", "x": "82", "y": "104"}
    played = client.post(f"/encounters/{encounter}/act", data=form, headers=AUTH)
    assert "Goro walks 10 cm to (82, 104)" in played.text
    view = client.get(f"/api/v1/encounters/{encounter}/view", headers=AUTH).json()
    assert next(a["at"] for a in view["actors"] if a["name"] == "Goro") == [82, 104]
    form = {"do": "scatter", "actor": "Goro", "scatter.bearing": "90"}
    refused = client.post(f"/encounters/{encounter}/act", data=form, headers=AUTH)
    assert "Goro does not patrol" in refused.text and 'role="alert"' in refused.text


def test_only_the_gm_acts(client: TestClient) -> None:
    created = tokens(client)
    encounter = created["encounter"]["id"]
    player = created["tokens"]["players"]["Kage"]
    denied = client.post(
        f"/encounters/{encounter}/act",
        data={"do": "wait", "actor": "Kage"},
        headers={"Authorization": f"Bearer {player}"},
    )
    assert "only the GM" in denied.text
    assert client.get(f"/api/v1/encounters/{encounter}/view", headers=AUTH).json()["seq"] == 0
    assert client.get(f"/encounters/{encounter}").status_code == 401


def test_a_risk_overlay_for_the_skirmish_and_for_a_d20_game(client: TestClient) -> None:
    skirmish = start(client)
    page = client.get(f"/encounters/{skirmish}/panels?overlay=half", headers=AUTH).text
    assert '<image class="risk" href="data:image/png;base64,' in page
    # a d20 game's own risk map, on its 5 ft squares, for its own ways of moving
    d20 = start(client, scenario="dnd35-invisible-intruder")
    page = client.get(f"/encounters/{d20}/panels?overlay=half&lang=fr", headers=AUTH).text
    assert '<image class="risk" href="data:image/png;base64,' in page
    assert "Pas de carte des risques" not in page
    # metres beside feet in French: the torch's lit zone
    assert "20\u00a0ft (6\u00a0m)" in page


def test_join_links_open_each_characters_own_page(client: TestClient) -> None:
    encounter = start(client)
    links = client.post(f"/encounters/{encounter}/joins", headers=AUTH).text
    assert links.count("<svg") >= 15  # a QR code each: the table and 14 characters
    jubei = re.search(r'href="(http://testserver/play/[^"]+)"[^>]*data-join="Jubei"', links)
    assert jubei is not None
    page = client.get(jubei.group(1).replace("&amp;", "&").replace("http://testserver", ""))
    assert page.status_code == 200 and "<h1>Jubei</h1>" in page.text
    for intruder in INTRUDERS:  # a guard who perceived no one shows no one
        assert intruder not in page.text


def test_a_players_link_on_the_gm_page_goes_to_its_own_page(client: TestClient) -> None:
    created = tokens(client)
    encounter = created["encounter"]["id"]
    player = created["tokens"]["players"]["Kage"]
    response = client.get(f"/encounters/{encounter}?token={player}", follow_redirects=False)
    assert response.status_code == 303 and response.headers["location"].startswith("/play/")
    page = client.get(response.headers["location"]).text
    # its own view: its fellows where they stand, the guards it scouted, not Rin, the hidden
    # archer it knows nothing of (SK-G4)
    assert 'data-name="Kage"' in page and 'data-name="Tsuki"' in page
    assert 'data-name="Jubei"' in page and "Rin" not in page
    table = client.get(f"/encounters/{encounter}?token={created['tokens']['table']}")
    # LP-5: the shared screen shows no intruder that no defender perceived
    assert "<h1>Night raid" in table.text and not any(name in table.text for name in INTRUDERS)
    assert "Jubei" not in table.text


# ------------------------------------------------------------------------------ the calculator


CASES = [
    ("skirmish", "sight", {"attitude": "half", "distance": "15", "lit": "on"}),
    ("skirmish", "noise", {"event": "death", "surface": "floor", "distance": "30", "walls": "1"}),
    ("starfinder", "attack", {"miss-chance": "50"}),
    ("dnd35", "spot", {"spot": "5", "distance": "40", "target": "moving"}),
    ("dnd35", "hide", {"hide": "8", "spot": "2,4", "distance": "30"}),
]


@pytest.mark.parametrize(("game", "check", "options"), CASES)
def test_the_calculator_gives_vigile_checks_numbers(
    client: TestClient, game: str, check: str, options: dict[str, str]
) -> None:
    args = ["check", game, check, "--json"]
    for name, value in options.items():
        args += [f"--{name}"] if value == "on" else [f"--{name}", value]
    result = CliRunner().invoke(build_app()[0], args)
    assert result.exit_code == 0, result.output
    expected = json.loads(result.stdout)["chance"]
    query = {"game": game, "check": check, **{f"o.{k}": v for k, v in options.items()}}
    response = client.get("/checks/result", params=query)
    assert f'id="check-chance" data-chance="{expected}"' in response.text
    assert response.headers["HX-Replace-Url"].startswith(f"/checks?game={game}&check={check}")
    page = client.get("/checks", params=query)  # bookmarked
    assert f'data-chance="{expected}"' in page.text


def test_the_calculator_says_what_is_missing_and_what_is_wrong(client: TestClient) -> None:
    missing = client.get("/checks/result", params={"game": "skirmish", "check": "sight"})
    assert "--attitude" not in missing.text and "attitude" in missing.text
    wrong = client.get(
        "/checks/result",
        params={"game": "skirmish", "check": "sight", "o.attitude": "half", "o.distance": "x"},
    )
    assert 'role="alert"' in wrong.text


# ------------------------------------------------------------------------------ small parts


def test_numbers_as_a_french_reader_writes_them() -> None:
    from vigile.io.i18n import Lang

    assert chance("1/3", Lang.FR) == "33,33\u00a0%"
    assert chance("1/3", Lang.EN) == "33.33%"
    assert measure(30, "ft", Lang.FR) == "30\u00a0ft (9\u00a0m)"
    assert measure(30, "ft", Lang.EN) == "30\u00a0ft"
    assert measure(12.5, "cm", Lang.FR) == "12,5\u00a0cm"


def test_every_live_action_has_a_form_and_a_name_in_both_languages() -> None:
    from vigile.engine.live import ACTION_NAMES
    from vigile.io.i18n import Lang, messages

    assert set(FORMS) == set(ACTION_NAMES) - {"end-turn"}
    for lang in Lang:
        for name in ACTION_NAMES:
            assert f"web.do.{name}" in messages(lang)
        for form in FORMS.values():
            for field in form.fields:
                if field.kind not in ("point",) and field.name != "actor":
                    assert f"web.field.{field.name}" in messages(lang), field.name


def test_the_web_messages_have_the_same_keys_in_both_languages() -> None:
    from vigile.io.i18n import Lang, messages

    keys = {lang: {k for k in messages(lang) if k.startswith("web.")} for lang in Lang}
    assert keys[Lang.FR] == keys[Lang.EN]


def test_short_labels_are_unique_and_a_wall_cuts_a_lit_zone() -> None:
    labels = initials(["Kage", "Kaze", "Kuro", "Kage2"])
    assert len(set(labels.values())) == 4
    from vigile.scene.geometry import Barriers, KindRule, Segment

    wall = Barriers.from_segments(
        [Segment(5, -10, 5, 10, "wall")], {"wall": KindRule(True, True, True)}
    )
    outline = lit_zone(wall, 0, 0, 10)
    assert max(x for x, _ in outline) <= 5.01
    assert min(x for x, _ in outline) < -9
