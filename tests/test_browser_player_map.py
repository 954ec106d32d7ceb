"""A player's page draws the character's own map (issue 36), live, in Debian's Chromium on a
desktop and on a 375 × 812 touch phone (tests/browser.py): its fellows, the guards it
discovered, and not a guard it never perceived (LP-5); the stream's news redraw its tokens, its
status, what it knows and its new events, not the board; they come in the stream's frames, the
page asks for nothing.

Worked by hand (tests/test_lp5_character_map.py gives the rules): in ``night-raid-unscouted``
Kage knows no guard at the start; once over the north wall at (60, 14), at the end of turn 2,
he sees Sen, Jubei and Goro, each within 20 cm of a light (SK-V5), and discovers them (SK-G3,
SK-G4). Rin, the hidden archer, stands behind the lord's house (SK-V6): never perceived, never
drawn. ``VIGILE_SCREENSHOTS=1`` writes docs/map-player-phone.png.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from browser import DOCS, SHOTS, WAIT_MS
from web_server import Server, new_encounter

DEVICES: dict[str, dict[str, Any]] = {
    "desktop": {"viewport": {"width": 1400, "height": 1000}},
    "phone": {"viewport": {"width": 375, "height": 812}, "is_mobile": True, "has_touch": True},
}
ACTIONS = [
    {"do": "throw-grapple", "actor": "Kage", "at": [60, 10], "onto": "tile"},
    {"do": "end-turn"},
    {"do": "move", "actor": "Kage", "to": [60, 14], "speed": "fast", "climb": True},
    {"do": "end-turn"},
]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(f"sqlite:///{tmp_path_factory.mktemp('pmap') / 'vigile.db'}").start()
    try:
        yield running
    finally:
        running.stop()


def names(page: Any, side: str) -> list[str]:
    found: list[str] = page.eval_on_selector_all(
        f"#map-svg .token[data-side='{side}']", "ts => ts.map(t => t.dataset.name || '?')"
    )
    return sorted(found)


@pytest.mark.parametrize("device", list(DEVICES))
def test_a_player_s_page_draws_its_fellows_and_the_guards_it_discovered(
    chromium: Any, server: Server, device: str
) -> None:
    with server.client() as client:
        created = new_encounter(client, "night-raid-unscouted", seed=1)
    encounter = created["encounter"]["id"]
    token = created["tokens"]["players"]["Kage"]
    context = chromium.new_context(locale="en-GB", **DEVICES[device])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    asked: list[str] = []  # the page's own requests for its panel (its news come in its stream)
    page.on("request", lambda r: asked.append(r.url) if "/panel" in r.url else None)
    page.goto(f"{server.base}/play/{encounter}?token={token}")
    page.wait_for_function("() => document.getElementById('map-svg')?.dataset.zoom")
    # at the start: himself and his fellows, no guard (unscouted, SK-G3)
    assert names(page, "attackers") == ["Kage", "Kaze", "Tsuki"]
    assert names(page, "defenders") == []
    assert page.locator("#map-svg .token.me").get_attribute("data-name") == "Kage"
    mark = page.get_attribute("#pmark", "value")
    told = page.locator("#plog li").count()
    page.evaluate("() => { document.querySelector('#map-svg .ground').dataset.kept = 'yes'; }")
    page.wait_for_timeout(300)  # the stream opens
    with server.client() as client:
        for action in ACTIONS:
            played = client.post(f"/api/v1/encounters/{encounter}/actions", json={"action": action})
            assert played.status_code == 200, played.text
    # live: the page redraws its map from its own stream
    page.wait_for_selector("#map-svg .token[data-name='Sen']", timeout=WAIT_MS)
    page.wait_for_function(
        "() => document.querySelector(\"#map-svg .token.me\")?.dataset.y === '14.0'"
    )
    assert names(page, "defenders") == ["Goro", "Jubei", "Sen"]
    assert names(page, "attackers") == ["Kage", "Kaze", "Tsuki"]
    sen = page.locator("#map-svg .token[data-name='Sen']")
    assert (sen.get_attribute("data-x"), sen.get_attribute("data-y")) == ("78.0", "52.0")
    # only what changed came: the board drawn at the page's load is still there, the log grew
    assert page.get_attribute("#map-svg .ground", "data-kept") == "yes"
    assert page.locator("#plog li").count() > told and page.get_attribute("#pmark", "value") != mark
    assert asked == []  # every news came in the stream's frames (event: news)
    scaled = page.eval_on_selector_all(
        "#map-svg .token > .tk", "gs => gs.map(g => g.getAttribute('transform') || '')"
    )
    assert len(scaled) == 6 and all("scale(" in t for t in scaled)  # kept legible (vigile.js)
    svg = page.inner_html("#map-svg")
    assert "Rin" not in svg and "Kuro" not in svg  # never perceived: not drawn, not named
    assert "Rin" not in page.content()
    # the board zooms as the GM's does, the tokens kept legible
    page.click(".map-tools [data-zoom='in']")
    zoom = float(page.get_attribute("#map-svg", "data-zoom") or 0)
    assert zoom == pytest.approx(1.5)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.evaluate("window.innerWidth")
    if SHOTS and device == "phone":
        page.click(".map-tools [data-zoom='fit']")
        page.locator("#map-svg").screenshot(path=str(DOCS / "map-player-phone.png"))
    assert errors == []
    context.close()
