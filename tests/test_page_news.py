"""A page's news over a real ``vigile serve`` (issue 36, speed): a character's page is sent what
is new in its stream's frame (``event: news``), relative to the mark it shows, so that it asks
the server nothing; the GM's page, showing the same board, is sent its tokens alone; a token
found once is not asked of the database again.

Worked by hand: in the night raid, Kage waiting is an event Kage is told (LP-5: an actor
perceives his own action); the news frame follows the page's mark (``from``) and ends at the
mark the page's whole view has once the wait is played, which is the mark the page itself shows
after a reload. A mark the page does not show (``0.00000000.00000000``) is no base for news:
the stream sends the events (the page asks for its panel), then follows the view it would get.
"""

# ruff: noqa: F811 - the fixtures db_url and server, imported from web_server

from __future__ import annotations

import html
import json
import re
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
from sqlalchemy import event

from test_web_streams import Stream, act
from vigile.store import Store
from web_server import Server, db_url, new_encounter, server  # noqa: F401

WAIT = {"do": "wait", "actor": "Kage"}


def page_of(server: Server, encounter: str, token: str) -> tuple[str, dict[str, str]]:
    """A character's page: the mark it shows and its stream's query (from ``data-stream``)."""
    with httpx.Client(base_url=server.base) as client:
        page = client.get(f"/play/{encounter}", params={"token": token})
    assert page.status_code == 200, page.text
    mark = re.search(r'id="pmark" name="after" value="([^"]+)"', page.text)
    stream = re.search(r'data-stream="([^"]+)"', page.text)
    assert mark and stream, page.text[:500]
    query = parse_qs(urlsplit(html.unescape(stream.group(1))).query)
    return mark.group(1), {k: v[0] for k, v in query.items() if k != "token"}


def test_a_character_s_page_is_sent_its_news_in_its_stream(server: Server) -> None:
    with server.client() as gm:
        created = new_encounter(gm, seed=7)
        encounter = created["encounter"]["id"]
        token = created["tokens"]["players"]["Kage"]
        mark, query = page_of(server, encounter, token)
        assert query["news"] == mark  # the page asks for its news from what it shows
        stream = Stream(server, encounter, token, params=query)
        try:
            act(gm, encounter, WAIT)
            stream.wait_for(lambda frames: bool(frames))
        finally:
            stream.close()
        frame = stream.frames[0]
        assert frame.event == "news", frame
        news: dict[str, Any] = json.loads(frame.data)
        after, _ = page_of(server, encounter, token)
        assert news["from"] == mark and news["mark"] == after != mark
        assert frame.id == str(news["seq"]) == after.split(".")[0]
        told = gm.get(f"/api/v1/encounters/{encounter}/view", params={"as": "Kage"}).json()[
            "events"
        ]
        assert html.escape(told[-1]["text"], quote=False) in news["html"]  # Kage's wait
        assert f'id="pmark" name="after" value="{after}"' in news["html"]
        assert 'class="ground"' not in news["html"]  # the board stays as the page drew it
        assert 'id="map-live"' not in news["html"]  # a wait changes nothing on Kage's map


def test_a_page_showing_another_mark_gets_events_then_news_again(server: Server) -> None:
    with server.client() as gm:
        created = new_encounter(gm, seed=7)
        encounter = created["encounter"]["id"]
        token = created["tokens"]["players"]["Kage"]
        _, query = page_of(server, encounter, token)
        stream = Stream(server, encounter, token, params={**query, "news": "0.00000000.00000000"})
        try:
            act(gm, encounter, WAIT)
            stream.wait_for(lambda frames: len(frames) >= 1)
            reloaded, _ = page_of(server, encounter, token)  # the page asks for its panel
            act(gm, encounter, WAIT)
            stream.wait_for(lambda frames: len(frames) >= 2)
        finally:
            stream.close()
        first, second = stream.frames[:2]
        assert first.event == "events" and json.loads(first.data)["events"]
        assert second.event == "news" and json.loads(second.data)["from"] == reloaded


def test_news_are_a_character_s_and_a_mark_is_checked(server: Server) -> None:
    with server.client() as gm:
        created = new_encounter(gm, seed=7)
        encounter = created["encounter"]["id"]
        url = f"/api/v1/encounters/{encounter}/stream"
        table = created["tokens"]["table"]
        for token, news in ((table, "0.00000000.00000000"), (created["tokens"]["gm"], "x")):
            refused = gm.get(url, params={"token": token, "news": news})
            assert refused.status_code == 422, refused.text
            assert "news" in refused.text


def test_the_gm_s_page_showing_the_board_is_sent_its_tokens_alone(server: Server) -> None:
    with server.client() as gm:
        created = new_encounter(gm, seed=7)
        encounter = created["encounter"]["id"]
        token = created["tokens"]["gm"]
        page = gm.get(f"/encounters/{encounter}", params={"token": token})
        board = re.search(r'id="gboard" name="board" value="([^"]+)"', page.text)
        assert board, page.text[:500]
        act(gm, encounter, WAIT)
        panels = f"/encounters/{encounter}/panels"
        kept = gm.get(panels, params={"token": token, "board": board.group(1)}).text
        whole = gm.get(panels, params={"token": token}).text
        other = gm.get(panels, params={"token": token, "board": "0" + board.group(1)[1:]}).text
        risk = gm.get(
            panels, params={"token": token, "board": board.group(1), "overlay": "half"}
        ).text
    assert 'id="map-live"' in kept and 'id="mapbox"' not in kept and 'class="ground"' not in kept
    assert 'id="status"' in kept and 'id="log"' in kept  # the other panels come whole
    for drawn in (whole, other, risk):
        assert 'id="mapbox"' in drawn and 'class="ground"' in drawn
    assert 'class="risk"' in risk


def test_a_token_found_once_is_not_asked_again(tmp_path: Any) -> None:
    url = f"sqlite:///{tmp_path / 'tokens.db'}"
    made = Store(url)
    other = Store(url)  # another process's store over the same database
    try:
        asked: list[str] = []
        event.listen(other._engine, "before_cursor_execute", lambda *a: asked.append(a[2]))
        row = made.create_encounter(
            name="raid",
            ruleset="skirmish",
            source="x.yaml",
            scenario="map: {}",
            scenario_format="yaml",
            seed=1,
            dice="rolled",
        )
        assert other.find_token(row.id, "not-yet-a-token") is None
        token = made.create_token(row.id, "player", "Kage")
        assert other.find_token(row.id, token) == ("player", "Kage")  # a miss is not kept
        before = len(asked)
        assert other.find_token(row.id, token) == ("player", "Kage")
        assert len(asked) == before
        assert other.find_token("another", token) is None  # kept for its encounter only
    finally:
        made.close()
        other.close()
