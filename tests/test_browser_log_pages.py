"""The GM's log, paged (issue 34), in Debian's Chromium: a night raid long enough that its log
holds more than one page (``LOG_PAGE`` events) shows the latest page, and "Show earlier
events" fetches the page before, again and again, until the whole log is on the page, oldest
last, each event once, as the API's pages give it.

Skips without playwright or Chromium, except under CI (tests/browser.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from browser import WAIT_MS
from vigile.live.views import LOG_PAGE
from vigile.scene.loader import bundled_path
from web_server import Server

RAID = bundled_path("night-raid").read_text("utf-8").replace("turns: 40", "turns: 400")
TURN = [{"do": "wait", "actor": name} for name in ("Kage", "Tsuki", "Kaze")] + [{"do": "end-turn"}]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(f"sqlite:///{tmp_path_factory.mktemp('log') / 'vigile.db'}").start()
    try:
        yield running
    finally:
        running.stop()


def test_the_gm_pages_back_through_a_long_log(chromium: Any, server: Server) -> None:
    with server.client() as client:
        created = client.post("/api/v1/encounters", json={"text": RAID, "filename": "raid.yaml"})
        assert created.status_code == 201, created.text
        encounter = created.json()["encounter"]["id"]
        whole: list[str] = []
        while True:  # turns until the log holds more than two pages
            for action in TURN:
                played = client.post(
                    f"/api/v1/encounters/{encounter}/actions", json={"action": action}
                )
                assert played.status_code == 200, played.text
            view = client.get(f"/api/v1/encounters/{encounter}/view").json()
            if view["events_from"] > LOG_PAGE:
                break
        total = view["events_from"] + len(view["events"])
        before = view["events_from"]  # the API's pages, newest first, as the page reads them
        whole = [e["text"] for e in view["events"]]
        while before > 0:
            page_ = client.get(
                f"/api/v1/encounters/{encounter}/view", params={"before": before}
            ).json()
            whole = [e["text"] for e in page_["events"]] + whole
            before = page_["events_from"]
    assert len(whole) == total

    context = chromium.new_context(viewport={"width": 1400, "height": 1000}, locale="en-GB")
    page = context.new_page()
    page.goto(f"{server.base}/encounters/{encounter}?token={server.token}")
    shown = page.locator("#log ol.events > li:not(.earlier)")
    assert shown.count() == LOG_PAGE
    clicks = 0
    while page.locator("#log li.earlier button").count():
        count = shown.count()
        label = page.inner_text("#log li.earlier button")
        assert f"({total - count} before these)" in label
        page.click("#log li.earlier button")
        page.wait_for_function(
            "(count) => document.querySelectorAll('#log ol.events > li:not(.earlier)').length"
            " > count",
            arg=count,
            timeout=WAIT_MS,
        )
        clicks += 1
    assert clicks == -(-(total - LOG_PAGE) // LOG_PAGE)  # one page a click
    assert shown.count() == total
    texts = page.eval_on_selector_all(
        "#log ol.events > li:not(.earlier) .ev-text", "spans => spans.map(s => s.textContent)"
    )
    assert [t.strip() for t in reversed(texts)] == [t.strip() for t in whole]  # each once, in order
    context.close()
