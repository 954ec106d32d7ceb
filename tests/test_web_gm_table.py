"""The GM's live table (issue 36): the odds of ending the turn before it is ended, the table's
dice a pool at a time (no die for a check the rules decide, the patrols' scatter dice asked),
a demo switched to the table's dice, the page listening to its stream, a round called a round,
and a blow's target never the actor himself. Rendered in-process (TestClient); the browser
plays the same in tests/test_browser_gm_table.py.

The chances are worked out by hand from RULES.md (see tests/test_live_end_turn_preview.py).
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from vigile.store import Store
from vigile.web.app import create_app

TOKEN = "gm-table-test-token-0123456789"
AUTH = {"Authorization": f"Bearer {TOKEN}"}

# A ninja 6 cm from a posted guard (1 die); a patrol of one far away.
CLOSE = """
ruleset: skirmish
name: Close to the guard
map: {width: 110, height: 100}
turns: 10
actors:
  - {name: Ninja, side: attackers, position: [44, 50], dice: {ninjitsu: 1}}
  - {name: Guard, side: defenders, position: [50, 50], dice: 1}
  - {name: Walker, side: defenders, position: [20, 20], state: patrolling, dice: 1}
"""
# A ninja walking past a guard with 2 dice.
WALK = """
ruleset: skirmish
name: Past the guard
map: {width: 110, height: 100}
turns: 10
actors:
  - {name: Ninja, side: attackers, position: [10, 62], dice: {ninjitsu: 1}}
  - {name: Guard, side: defenders, position: [50, 50], dice: 2}
"""


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    store = Store(f"sqlite:///{tmp_path / 'gm.db'}")
    with TestClient(create_app(store, gm_token=TOKEN)) as test_client:
        yield test_client
    store.close()


def start(client: TestClient, text: str | None = None, dice: str = "rolled") -> str:
    """A new encounter: a bundled scenario (the night raid), or ``text`` uploaded."""
    data = {"token": TOKEN, "dice": dice, "seed": "7"}
    if text is None:
        response = client.post(
            "/encounters", data=data | {"scenario": "night-raid"}, follow_redirects=False
        )
    else:
        files = {"file": ("t.yaml", text.encode(), "application/yaml")}
        response = client.post("/encounters", data=data, files=files, follow_redirects=False)
    assert response.status_code == 303, response.text
    found = re.match(r"/encounters/([0-9a-f]+)\?token=", response.headers["location"])
    assert found is not None
    return found.group(1)


def act(client: TestClient, encounter: str, **form: str) -> str:
    response = client.post(f"/encounters/{encounter}/act?lang=en", data=form, headers=AUTH)
    assert response.status_code == 200, response.text
    return response.text


def hidden(page: str, name: str) -> str:
    found = re.search(rf'name="{name}" value="([^"]*)"', page)
    assert found is not None, page
    return html.unescape(found.group(1))


def test_SK_V3_the_end_turn_preview_lists_the_sight_test_with_its_odds(
    client: TestClient,
) -> None:
    encounter = start(client, WALK)
    act(client, encounter, do="move", actor="Ninja", x="25", y="62")
    act(client, encounter, do="end-turn")
    act(client, encounter, do="move", actor="Ninja", x="40", y="62")
    seq = client.get(f"/api/v1/encounters/{encounter}/view", headers=AUTH).json()["seq"]
    preview = client.post(
        f"/encounters/{encounter}/preview?lang=en", data={"do": "end-turn"}, headers=AUTH
    ).text
    # 15.6 cm from the guard, at half speed: 5+ on 2 dice, 1 - (4/6)^2 = 5/9 (SK-V3, SK-D1)
    assert "Checks this action asks for (1)" in preview
    assert "<strong>Guard</strong>" in preview and '<span class="dice">2d6</span>' in preview
    assert 'data-chance="5/9"' in preview and "55.56%" in preview
    assert "[SK-V3]" in preview
    french = client.post(
        f"/encounters/{encounter}/preview?lang=fr", data={"do": "end-turn"}, headers=AUTH
    ).text
    assert "55,56\u00a0%" in french
    # the preview stored nothing
    assert client.get(f"/api/v1/encounters/{encounter}/view", headers=AUTH).json()["seq"] == seq


def test_SK_V2_a_decided_check_is_shown_decided_and_asks_no_die(client: TestClient) -> None:
    encounter = start(client, CLOSE, dice="given")
    act(client, encounter, do="move", actor="Ninja", x="46", y="50")
    preview = client.post(
        f"/encounters/{encounter}/preview?lang=en", data={"do": "end-turn"}, headers=AUTH
    ).text
    decided = re.search(r'<li class="check first decided">(.*?)</li>', preview, re.S)
    assert decided is not None, preview
    assert "decided without dice" in decided.group(1) and "[SK-V1, SK-V2]" in decided.group(1)
    assert 'data-chance="1"' in decided.group(1)
    assert "Scatter dice as the next turn begins (1)" in preview and "[SK-G1]" in preview
    # ending the turn asks first for the ninja's die (SK-G3: he must find the guard), never
    # for the guard's sight test, decided
    asked = act(client, encounter, do="end-turn")
    assert 'data-die="0"' in asked and "<strong>Ninja</strong>" in asked
    assert 'data-chance="1/6"' in asked


def test_a_pool_is_typed_in_one_field(client: TestClient) -> None:
    """Kage (3 dice of ninjitsu) moves fast onto the wall's top: his fumble roll (SK-D4, SK-N3)
    asks for the 3 dice at once; "6 1 3" is no fumble (not every die a 1): no noise, played."""
    encounter = start(client, dice="given")
    form = {"do": "move", "actor": "Kage", "x": "60", "y": "10", "move.speed": "fast"}
    asked = act(client, encounter, **form)
    assert "Dice 1 to 3: 3d6" in asked and 'name="count" value="3"' in asked
    assert 'data-chance="215/216"' in asked  # 1 - (1/6)^3
    played = act(
        client,
        encounter,
        action=hidden(asked, "action"),
        dice=hidden(asked, "dice"),
        bearings=hidden(asked, "bearings"),
        kind=hidden(asked, "kind"),
        die="6 1 3",
    )
    assert 'class="played' in played, played
    record = client.get(f"/api/v1/encounters/{encounter}/view", headers=AUTH).json()
    assert record["seq"] == 1


def test_SK_G1_the_patrols_scatter_die_is_asked_for(client: TestClient) -> None:
    text = CLOSE.replace("position: [44, 50]", "position: [100, 90]")  # far from everyone
    encounter = start(client, text, dice="given")
    asked = act(client, encounter, do="end-turn")
    assert "Scatter die: the patrol of Walker" in asked and "[SK-G1]" in asked
    assert 'name="kind" value="scatter"' in asked
    played = act(
        client,
        encounter,
        action=hidden(asked, "action"),
        dice=hidden(asked, "dice"),
        bearings=hidden(asked, "bearings"),
        kind="scatter",
        die="90",
    )
    assert 'class="played' in played, played
    assert "Walker" in played and "90°" in played


def test_a_demo_switches_to_the_tables_dice(client: TestClient) -> None:
    encounter = start(client)
    page = client.get(f"/encounters/{encounter}?token={TOKEN}&lang=en").text
    assert "Switch to the table&#39;s dice" in page or "Switch to the table's dice" in page
    switched = client.post(
        f"/encounters/{encounter}/dice?lang=en", data={"dice": "given"}, headers=AUTH
    )
    assert switched.status_code == 200 and switched.headers["HX-Refresh"] == "true"
    page = client.get(f"/encounters/{encounter}?token={TOKEN}&lang=en").text
    assert "Play (the table&#39;s dice)" in page or "Play (the table's dice)" in page
    asked = act(
        client, encounter, do="move", actor="Kage", x="60", y="10", **{"move.speed": "fast"}
    )
    assert "Dice 1 to 3: 3d6" in asked  # the table's dice now
    bad = client.post(f"/encounters/{encounter}/dice", data={"dice": "loaded"}, headers=AUTH)
    assert "rolled or given" in bad.text


def test_the_gm_page_listens_to_its_stream_and_keeps_its_form(client: TestClient) -> None:
    encounter = start(client)
    page = client.get(f"/encounters/{encounter}?token={TOKEN}&lang=en").text
    live = re.search(r'<div class="gm-right" id="live"[^>]*>', page)
    assert live is not None
    assert f'data-stream="/api/v1/encounters/{encounter}/stream?token=' in live.group(0)
    assert "data-refresh-oob" in live.group(0)  # panels out of band: the form stays
    assert 'data-seq="0"' in page
    panels = client.get(f"/encounters/{encounter}/panels?lang=en", headers=AUTH).text
    assert 'id="action-form"' not in panels and 'hx-swap-oob="true"' in panels


def test_d20_says_round_and_a_blows_target_is_never_the_actor(client: TestClient) -> None:
    response = client.post(
        "/encounters",
        data={"token": TOKEN, "dice": "rolled", "scenario": "dnd35-invisible-intruder"},
        follow_redirects=False,
    )
    found = re.match(r"/encounters/([0-9a-f]+)\?token=", response.headers["location"])
    assert found is not None
    page = client.get(f"/encounters/{found.group(1)}?token={TOKEN}&lang=en").text
    assert "Round 1 of" in page and "End round" in page and "Turn 1 of" not in page
    # the log's start of the round
    assert '<span class="ev-text">Round 1</span>' in page and ">Turn 1<" not in page
    french = client.get(f"/encounters/{found.group(1)}?token={TOKEN}&lang=fr").text
    assert "Round 1 sur" in french
    skirmish = client.get(f"/encounters/{start(client)}?token={TOKEN}&lang=en").text
    assert "Turn 1 of" in skirmish and '<span class="ev-text">Turn 1</span>' in skirmish
    for do in ("kill", "strike"):
        select = re.search(rf'<select id="{do}-target"[^>]*>(.*?)</select>', skirmish, re.S)
        assert select is not None
        options = re.findall(r'<option value="([^"]*)"', select.group(1))
        assert options[0] == "Jubei"  # the first defender, never Kage himself
        assert not {"Kage", "Tsuki", "Kaze"} & set(options)


def test_a_moves_preview_says_what_ending_the_turn_then_rolls(client: TestClient) -> None:
    """The move itself rolls nothing (half speed: no fumble roll, SK-N3); ending the turn after
    it rolls the guard's sight test, 15.6 cm away: 5/9 (SK-V3, SK-D1). The map's drag asks
    without the form's ``then_end`` and gets the move's own checks only."""
    encounter = start(client, WALK)
    act(client, encounter, do="move", actor="Ninja", x="25", y="62")
    act(client, encounter, do="end-turn")
    form = {"do": "move", "actor": "Ninja", "x": "40", "y": "62"}
    alone = client.post(f"/encounters/{encounter}/preview?lang=en", data=form, headers=AUTH).text
    assert "No check" in alone and "Then ending the turn" not in alone
    shown = client.post(
        f"/encounters/{encounter}/preview?lang=en", data=form | {"then_end": "1"}, headers=AUTH
    ).text
    assert "No check" in shown and "Then ending the turn rolls (1)" in shown
    later = shown[shown.index('class="then-end"') :]
    assert "<strong>Guard</strong>" in later and 'data-chance="5/9"' in later
    view = client.get(f"/api/v1/encounters/{encounter}/view", headers=AUTH).json()
    assert view["seq"] == 2  # nothing stored


def test_a_pool_typed_wrong_is_asked_again_saying_why(client: TestClient) -> None:
    encounter = start(client, dice="given")
    form = {"do": "move", "actor": "Kage", "x": "60", "y": "10", "move.speed": "fast"}
    asked = act(client, encounter, **form)
    again = act(
        client,
        encounter,
        action=hidden(asked, "action"),
        dice=hidden(asked, "dice"),
        kind="die",
        sides="6",
        die="6 7 3",  # a 7 on a d6
    )
    assert 'class="dice-prompt' in again and 'role="alert"' in again
    # what the field takes, in the prompt's own words (web.die_wrong, web.pool_faces)
    assert "&#34;6 7 3&#34; will not do: The 3 dice the table rolled (1 to 6)" in again
    assert "Dice 1 to 3: 3d6" in again  # the same prompt, nothing kept of the pool
    assert client.get(f"/api/v1/encounters/{encounter}/view", headers=AUTH).json()["seq"] == 0
