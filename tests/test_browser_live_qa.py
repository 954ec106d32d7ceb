"""The live table as its users meet it, in Debian's Chromium (tests/browser.py): the GM's
page on a laptop and on a 390 x 844 touch phone, a real ``vigile serve`` behind it.

A button that plays something (play the action, end the turn, undo) plays it once per press:
a double click, or a second press while the first one's answer is still on its way (a slow
server, a phone over Wi-Fi), is not a second action.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from browser import WAIT_MS
from web_server import Server

DEVICES: dict[str, dict[str, Any]] = {
    "desktop": {"viewport": {"width": 1400, "height": 1000}},
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(f"sqlite:///{tmp_path_factory.mktemp('liveqa') / 'vigile.db'}").start()
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture(params=list(DEVICES))
def device(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def create(server: Server, **options: Any) -> str:
    with server.client() as client:
        response = client.post("/api/v1/encounters", json={"seed": 7, **options})
    assert response.status_code == 201, response.text
    return str(response.json()["encounter"]["id"])


def seq_of(server: Server, encounter: str) -> int:
    with server.client() as client:
        return int(client.get(f"/api/v1/encounters/{encounter}/view").json()["seq"])


def gm_page(chromium: Any, server: Server, encounter: str, device: str) -> Any:
    context = chromium.new_context(locale="en-GB", **DEVICES[device])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.vigile_errors = errors
    page.goto(f"{server.base}/encounters/{encounter}?token={server.token}&lang=en")
    page.wait_for_selector("#action-form")
    return page


def settled_seq(page: Any, seq: int) -> None:
    """Wait until the page shows record ``seq``, then long enough for a second request."""
    page.wait_for_function(
        f"() => document.querySelector('#status').dataset.seq === '{seq}'", timeout=WAIT_MS
    )
    page.wait_for_timeout(1000)


def test_a_double_click_plays_the_action_once(chromium: Any, server: Server, device: str) -> None:
    encounter = create(server, scenario="night-raid")
    page = gm_page(chromium, server, encounter, device)
    page.select_option("#do", "wait")
    page.select_option("#actor", "Kage")
    page.dblclick("#confirm")
    settled_seq(page, 1)
    assert seq_of(server, encounter) == 1  # Kage waits once, not twice
    page.dblclick("#end-turn")
    settled_seq(page, 2)
    assert seq_of(server, encounter) == 2
    assert "Turn 2 of" in page.inner_text("#status")
    page.dblclick("#undo")
    settled_seq(page, 3)
    assert seq_of(server, encounter) == 3  # one undo: the turn's end, not Kage's wait
    assert "Turn 1 of" in page.inner_text("#status")
    assert not page.vigile_errors
    page.context.close()


def test_a_second_press_while_the_answer_is_on_its_way(
    chromium: Any, server: Server, device: str
) -> None:
    """The first press's answer is held until a second press is made: the second press
    sends nothing (the answer comes: Kage has waited once); once it has come, the button
    plays again."""
    encounter = create(server, scenario="night-raid")
    page = gm_page(chromium, server, encounter, device)
    page.select_option("#do", "wait")
    page.select_option("#actor", "Kage")
    sent: list[Any] = []

    def held(route: Any) -> None:  # the first request waits; the others go
        sent.append(route)
        if len(sent) > 1:
            route.continue_()

    page.route("**/act?*", held)
    press = page.tap if device == "phone" else page.click
    press("#confirm")
    page.wait_for_timeout(300)
    press("#confirm", no_wait_after=True)
    page.wait_for_timeout(300)
    sent[0].continue_()
    settled_seq(page, 1)
    assert len(sent) == 1, [route.request.url for route in sent]
    assert seq_of(server, encounter) == 1
    press("#end-turn")
    settled_seq(page, 2)
    assert "Turn 2 of" in page.inner_text("#status")
    assert not page.vigile_errors
    page.context.close()


def test_a_french_gm_is_told_to_click_the_map_in_french(
    chromium: Any, server: Server, device: str
) -> None:
    """A move chosen before its point: the preview, and Play pressed anyway, say in French
    what is missing (the point, to click on the map), not pydantic's "Field required"."""
    encounter = create(server, scenario="dnd35-invisible-intruder")
    context = chromium.new_context(locale="fr-FR", **DEVICES[device])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server.base}/encounters/{encounter}?token={server.token}")
    page.wait_for_selector("#action-form")
    assert page.get_attribute("html", "lang") == "fr"
    page.select_option("#do", "move")
    page.wait_for_selector("#preview .alert", timeout=WAIT_MS)
    shown = page.inner_text("#preview")
    assert "cliquez sur la carte" in shown, shown
    assert "Field required" not in shown and "action.move" not in shown
    page.click("#confirm")
    page.wait_for_selector("#result .alert", timeout=WAIT_MS)
    played = page.inner_text("#result")
    assert "cliquez sur la carte" in played and "Field required" not in played, played
    assert seq_of(server, encounter) == 0
    # a patrol's scatter die left empty: its field named, in French
    page.select_option("#do", "scatter")
    page.wait_for_function(
        "() => document.querySelector('#preview').innerText.includes('dé de dispersion')",
        timeout=WAIT_MS,
    )
    assert "Field required" not in page.inner_text("#preview")
    assert not errors
    context.close()


def test_a_late_risk_map_does_not_bring_back_the_board_before_an_action(
    chromium: Any, server: Server, device: str
) -> None:
    """The GM picks a risk map, then plays before it comes (a slow server, a phone over
    Wi-Fi): the risk map's answer, drawn before the action, comes last. The page keeps the
    state after the action (its record, its log) and shows the risk map it asked for."""
    encounter = create(server, scenario="night-raid")
    page = gm_page(chromium, server, encounter, device)
    held: list[tuple[Any, Any]] = []

    def hold(route: Any) -> None:  # the first risk map's answer waits, drawn as of now
        if held:
            route.continue_()
        else:
            held.append((route, route.fetch()))

    page.route("**/panels?*overlay=half*", hold)
    page.select_option("#overlay-select", "half")
    for _ in range(WAIT_MS // 50):
        if held:
            break
        page.wait_for_timeout(50)
    assert held
    page.select_option("#do", "wait")
    page.select_option("#actor", "Kage")
    page.click("#confirm")
    settled_seq(page, 1)
    route, answer = held[0]
    route.fulfill(response=answer)  # the answer of before the action, last
    page.wait_for_timeout(1500)
    assert page.get_attribute("#status", "data-seq") == "1"
    assert "record 1 " in page.inner_text("#status")
    page.wait_for_selector("#map-svg image.risk", timeout=WAIT_MS)
    assert page.input_value("#overlay-select") == "half"
    assert not page.vigile_errors
    page.context.close()


HIDE = """(hidden) => {
  const state = () => hidden ? "hidden" : "visible";
  Object.defineProperty(document, "visibilityState", {configurable: true, get: state});
  Object.defineProperty(document, "hidden", {configurable: true, get: () => hidden});
  document.dispatchEvent(new Event("visibilitychange"));
}"""
"""A tab put in the background, or brought back (headless Chromium's tabs are all visible)."""


def test_tabs_in_the_background_leave_the_gm_page_its_connections(
    chromium: Any, server: Server
) -> None:
    """A browser opens at most 6 connections to one server, and each live page holds one
    (its stream): with the GM page, the table's screen and four characters' pages open in one
    browser, the GM's End turn waited for ever. A page in a background tab lets its stream go,
    and takes it up again, missing nothing, when it comes back."""
    encounter = create(server, scenario="night-raid")
    context = chromium.new_context(viewport={"width": 1200, "height": 900}, locale="en-GB")
    gm = context.new_page()
    gm.goto(f"{server.base}/encounters/{encounter}?token={server.token}&lang=en")
    gm.wait_for_selector("#action-form")
    others = []
    for who in ("table", "Kage", "Tsuki", "Jubei", "Goro"):
        page = context.new_page()
        if who == "table":
            page.goto(f"{server.base}/table/{encounter}?token={server.token}&lang=en")
        else:
            page.goto(f"{server.base}/play/{encounter}?token={server.token}&as={who}&lang=en")
        page.wait_for_selector("#live")
        page.evaluate(HIDE, True)
        others.append(page)
    gm.bring_to_front()
    gm.click("#end-turn")
    settled_seq(gm, 1)
    assert "Turn 2 of" in gm.inner_text("#status")
    jubei = others[3]
    jubei.evaluate(HIDE, False)  # back: what happened meanwhile comes
    jubei.wait_for_function(
        "() => document.querySelector('#player .status').innerText.includes('Turn 2')",
        timeout=WAIT_MS,
    )
    context.close()


# A ninja 2 cm from a guard (within strike reach, SK-N10): with seed 3 his kill rolls no
# fumble (his one die shows 3, SK-D4) and the guard dies.
KILL = """
ruleset: skirmish
name: A guard killed
map: {width: 110, height: 100}
turns: 10
actors:
  - {name: Ninja, side: attackers, position: [25, 62], dice: {ninjitsu: 1}}
  - {name: Guard, side: defenders, position: [27, 62], dice: 2}
  - {name: Watch, side: defenders, position: [90, 20], dice: 1}
"""


def choices(page: Any, selector: str) -> list[str]:
    found: list[str] = page.eval_on_selector(
        selector, "(s) => Array.from(s.options).map((o) => o.value).filter((v) => v)"
    )
    return found


def test_the_form_offers_the_living_after_a_kill_and_its_undo(
    chromium: Any, server: Server, device: str
) -> None:
    """The GM's form lists the living: a guard killed leaves the defenders' and the targets'
    lists at once (no reload), and comes back to them when the kill is undone."""
    encounter = create(server, text=KILL, format="yaml", seed=3)
    page = gm_page(chromium, server, encounter, device)
    assert choices(page, "#defender") == ["Guard", "Watch"]
    page.select_option("#do", "kill")
    page.select_option("#kill-target", "Guard")
    page.click("#confirm")
    settled_seq(page, 1)
    with server.client() as client:
        actors = client.get(f"/api/v1/encounters/{encounter}/view").json()["actors"]
    assert {a["name"]: a["alive"] for a in actors} == {"Ninja": True, "Guard": False, "Watch": True}
    assert choices(page, "#defender") == ["Watch"]
    assert choices(page, "#kill-target") == ["Watch"]
    assert choices(page, "#strike-target") == ["Watch"]
    assert page.input_value("#kill-target") == "Watch"
    page.click("#undo")
    settled_seq(page, 2)
    assert choices(page, "#defender") == ["Guard", "Watch"]
    assert choices(page, "#kill-target") == ["Guard", "Watch"]
    assert page.input_value("#actor") == "Ninja"
    assert not page.vigile_errors
    page.context.close()


def test_the_gm_page_fits_a_phone_s_width(chromium: Any, server: Server) -> None:
    """The night raid's who-knows-what tables (11 guards wide) scroll in their own box: the
    page itself is no wider than a 390 px phone (their screen-reader words, placed out of
    sight, once stretched it to 472 px, and the phone showed the whole page zoomed out)."""
    encounter = create(server, scenario="night-raid")
    for lang in ("en", "fr"):
        page = gm_page(chromium, server, encounter, "phone")
        page.goto(f"{server.base}/encounters/{encounter}?token={server.token}&lang={lang}")
        page.wait_for_selector("#matrix table")
        # a phone's browser zooms out to the widest content (innerWidth follows): the
        # device's own width, 390 px, is the measure
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= DEVICES["phone"]["viewport"]["width"], (lang, width)
        assert not page.vigile_errors
        page.context.close()


def test_a_die_typed_wrong_is_said_in_french(chromium: Any, server: Server, device: str) -> None:
    """The table's dice on a French page: a 7 typed for Kage's three d6 (his fumble roll on
    the wall's top, SK-D4, SK-N3) asks again, saying in French what the field takes (the
    prompt's own words), not "is not a whole number"; nothing is played."""
    encounter = create(server, scenario="night-raid", dice="given")
    context = chromium.new_context(locale="fr-FR", **DEVICES[device])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server.base}/encounters/{encounter}?token={server.token}")
    page.wait_for_selector("#action-form")
    page.select_option("#actor", "Kage")
    page.select_option("#move-speed", "fast")
    page.fill("#x", "60")
    page.fill("#y", "10")
    page.click("#confirm")
    page.wait_for_selector(".dice-prompt")
    page.fill(".dice-prompt #die", "7 1 3")
    page.click("#enter-die")
    page.wait_for_selector(".dice-prompt .alert", timeout=WAIT_MS)
    said = page.inner_text(".dice-prompt .alert")
    assert "« 7 1 3 »" in said and "de 1 à 6" in said, said
    assert "whole number" not in said and "dice:" not in said
    assert seq_of(server, encounter) == 0
    assert not errors
    context.close()


def test_undo_pressed_while_an_action_is_on_its_way_undoes_nothing_else(
    chromium: Any, server: Server, device: str
) -> None:
    """Play, then Undo at once, before Play's answer: the undo was sent at once and reached the
    server first, taking back the action before (Kage's wait) instead. Now it is not sent (the
    GM sees the action played and may undo it then)."""
    encounter = create(server, scenario="night-raid")
    page = gm_page(chromium, server, encounter, device)
    page.select_option("#do", "wait")
    page.select_option("#actor", "Kage")
    page.click("#confirm")
    settled_seq(page, 1)
    sent: list[Any] = []

    def held(route: Any) -> None:
        sent.append(route)

    page.route("**/act?*", held)
    page.select_option("#actor", "Tsuki")
    page.click("#confirm")
    for _ in range(WAIT_MS // 50):
        if sent:
            break
        page.wait_for_timeout(50)
    page.click("#undo", no_wait_after=True)
    page.wait_for_timeout(500)
    sent[0].continue_()
    settled_seq(page, 2)
    with server.client() as client:
        view = client.get(f"/api/v1/encounters/{encounter}/view").json()
    assert view["seq"] == 2
    waited = [e["actor"] for e in view["events"] if e["event"] == "action"]
    assert waited == ["Kage", "Tsuki"], view["events"]
    assert not page.vigile_errors
    page.context.close()
