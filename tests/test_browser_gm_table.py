"""The GM's live table in Debian's Chromium (issue 36, tests/browser.py): the odds of ending the
turn listed before it is ended, a pool of the table's dice typed in one field ("6 1 3"), and a
second GM tab that follows the first one's actions live, its half-filled form untouched. On a
desktop and on a 375 x 812 touch phone.

The chances are worked out by hand from RULES.md (tests/test_live_end_turn_preview.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from browser import WAIT_MS
from web_server import Server

DEVICES = {
    "desktop": {"viewport": {"width": 1400, "height": 1000}},
    "phone": {"viewport": {"width": 375, "height": 812}, "is_mobile": True, "has_touch": True},
}

# A ninja at (25, 62) who walks to (40, 62), 15.6 cm from a guard with 2 dice at (50, 50).
WALK = """
ruleset: skirmish
name: Past the guard
map: {width: 110, height: 100}
turns: 10
actors:
  - {name: Ninja, side: attackers, position: [25, 62], dice: {ninjitsu: 1}}
  - {name: Guard, side: defenders, position: [50, 50], dice: 2}
"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(f"sqlite:///{tmp_path_factory.mktemp('gmtable') / 'vigile.db'}").start()
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


def gm_page(chromium: Any, server: Server, encounter: str, device: str) -> Any:
    context = chromium.new_context(locale="en-GB", **DEVICES[device])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.vigile_errors = errors
    page.goto(f"{server.base}/encounters/{encounter}?token={server.token}&lang=en")
    page.wait_for_selector("#action-form")
    return page


def test_the_end_turn_preview_lists_its_checks(chromium: Any, server: Server, device: str) -> None:
    encounter = create(server, text=WALK, format="yaml")
    with server.client() as client:
        walked = client.post(
            f"/api/v1/encounters/{encounter}/actions",
            json={"action": {"do": "move", "actor": "Ninja", "to": [40, 62]}},
        )
    assert walked.status_code in (200, 201), walked.text
    page = gm_page(chromium, server, encounter, device)
    page.select_option("#do", "end-turn")
    page.wait_for_selector("#preview .checks li")
    item = page.inner_text("#preview .checks li")
    # the guard's sight test at 15.6 cm, at half speed: 5+ on 2 dice, 5/9 (SK-V3, SK-D1)
    assert "Guard" in item and "2d6" in item and "55.56%" in item, item
    assert page.get_attribute("#preview .checks li .odds", "data-chance") == "5/9"
    page.click("#preview .checks li summary")
    assert "[SK-V3]" in page.inner_text("#preview .checks li .explain")
    # the same from the status bar's button, beside "End turn", whatever the form holds
    page.select_option("#do", "wait")
    page.wait_for_function("() => !document.querySelector('#preview .checks')")
    page.click("#end-turn-odds")
    page.wait_for_selector("#preview .checks li")
    assert page.get_attribute("#preview .checks li .odds", "data-chance") == "5/9"
    assert not page.vigile_errors
    page.context.close()


def test_a_pool_typed_in_one_field(chromium: Any, server: Server, device: str) -> None:
    """Kage (3 dice) moves fast onto the wall's top: his fumble roll (SK-D4, SK-N3) asks for
    the 3 dice at once; "6 1 3" is no fumble: no noise, the move is played."""
    encounter = create(server, scenario="night-raid", dice="given")
    page = gm_page(chromium, server, encounter, device)
    page.select_option("#actor", "Kage")
    page.select_option("#move-speed", "fast")
    page.fill("#x", "60")
    page.fill("#y", "10")
    page.click("#confirm")
    page.wait_for_selector(".dice-prompt")
    assert "3d6" in page.inner_text(".dice-prompt h3")
    assert page.get_attribute(".dice-prompt .odds", "data-chance") == "215/216"
    page.fill(".dice-prompt #die", "6 1 3")
    page.click("#enter-die")
    page.wait_for_selector("#result .played")
    page.wait_for_function("() => document.querySelector('#status').dataset.seq === '1'")
    with server.client() as client:
        view = client.get(f"/api/v1/encounters/{encounter}/view").json()
    assert view["seq"] == 1
    assert not page.vigile_errors
    page.context.close()


def test_a_second_gm_tab_follows_live(chromium: Any, server: Server, device: str) -> None:
    encounter = create(server, scenario="night-raid")
    first = gm_page(chromium, server, encounter, device)
    second = first.context.new_page()
    errors: list[str] = []
    second.on("pageerror", lambda error: errors.append(str(error)))
    second.goto(f"{server.base}/encounters/{encounter}?token={server.token}&lang=en")
    second.wait_for_selector("#action-form")
    # the second tab's GM is filling in a move: the update must leave it as it is
    second.select_option("#actor", "Tsuki")
    second.fill("#x", "66")
    second.fill("#y", "9")
    first.select_option("#do", "end-turn")
    first.click("#confirm")
    first.wait_for_selector("#result .played")
    second.wait_for_function(
        "() => document.querySelector('#status').dataset.seq === '1'", timeout=WAIT_MS
    )
    assert "Turn 2 of" in second.inner_text("#status")
    assert second.input_value("#actor") == "Tsuki"
    assert (second.input_value("#x"), second.input_value("#y")) == ("66", "9")
    # and an undo in the second tab reaches the first
    second.click("#undo")
    first.wait_for_function(
        "() => document.querySelector('#status').dataset.seq === '2'", timeout=WAIT_MS
    )
    assert "Turn 1 of" in first.inner_text("#status")
    assert not errors and not first.vigile_errors
    first.context.close()


def test_a_demo_switches_to_the_tables_dice_and_asks_the_scatter_dice(
    chromium: Any, server: Server, device: str
) -> None:
    """The night raid, started with vigile's dice, switched to the table's from the status
    bar; ending the first turn asks for each patrol's scatter die (SK-G1): the west patrol's,
    then the east's; each patrol moves 10 cm the way typed."""
    encounter = create(server, scenario="night-raid")
    page = gm_page(chromium, server, encounter, device)
    assert "vigile rolls" in page.inner_text("#status")
    with page.expect_navigation():  # the page reloads (its live stream may update the
        page.click("#switch-dice")  # status first, on the page about to go)
    page.wait_for_function(
        "() => document.querySelector('#status')?.innerText.includes(\"the table's dice\")"
    )
    assert "Play (the table's dice)" in page.inner_text("#confirm")
    page.select_option("#do", "end-turn")
    page.wait_for_selector("#preview .scatter li")
    assert "Kuro, Shiro" in page.inner_text("#preview .scatter")
    page.click("#confirm")
    for bearing, patrol in (("90", "Kuro, Shiro"), ("180", "Tetsu, Hanbei")):
        page.wait_for_selector(
            f".dice-prompt[data-kind='scatter'][data-die='{bearing == '180':d}']"
        )
        assert patrol in page.inner_text(".dice-prompt h3")
        page.fill(".dice-prompt #die", bearing)
        page.click("#enter-die")
    page.wait_for_selector("#result .played")
    with server.client() as client:
        records = client.get(f"/api/v1/encounters/{encounter}/view").json()
    assert records["seq"] == 2  # the switch, then the end of the turn
    assert not page.vigile_errors
    page.context.close()
