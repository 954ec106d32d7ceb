"""The editor with a map someone else drew (issue 37): a Universal VTT map imported by
``vigile scenario import`` for D&D 3.5, opened in Debian's Chromium at 1366x768 against a real
``vigile serve --workspace DIR``. The picture shows under the walls; the whole map fits the
window; the sweep's example field is a D&D one; a door drawn on it gets a name a plan can open;
the Delete key removes the chosen item; Ctrl+Z and Ctrl+Y undo and redo the edits; a plan's
line does not take a click meant for the token it starts from, and the delete tool on a
waypoint drawn over a cover area deletes the waypoint, not the area.

Skips without playwright or Chromium, except under CI (tests/browser.py).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browser import WAIT_MS
from test_browser_editor import screen_of
from test_import_uvtt import png, room
from vigile.cli import main
from web_server import Server

ADDED = """\
cover:
  - {name: crates, points: [[25, 25], [35, 25], [35, 34], [25, 34]]}
actors:
  - {name: Rogue, side: attackers, position: [8, 30]}
  - {name: Guard, side: defenders, position: [30, 10]}
plans:
  Rogue:
    - {to: [30, 30]}
    - {to: [30, 12]}
"""
"""What the designer adds to the imported map: crates (cover) under the Rogue's first waypoint."""


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The crypt of tests/test_import_uvtt.py (12 x 8 squares, one door, one lamp) with a
    picture of 48 x 32 pixels, imported for D&D 3.5, then given its actors and a plan."""
    folder = tmp_path_factory.mktemp("maps")
    doc = room(image=__import__("base64").b64encode(png(48, 32)).decode())
    doc["resolution"]["pixels_per_grid"] = 4
    source = folder / "crypt.dd2vtt"
    source.write_text(json.dumps(doc), "utf-8")
    assert (
        main(
            [
                "scenario",
                "import",
                str(source),
                "--ruleset",
                "dnd35",
                "--out",
                str(folder / "crypt.yaml"),
            ]
        )
        == 0
    )
    text = (folder / "crypt.yaml").read_text("utf-8")
    text = text.replace("actors: []\n", "").replace("plans: {}\n", "")
    (folder / "crypt.yaml").write_text(text + ADDED, "utf-8")
    assert main(["scenario", "validate", str(folder / "crypt.yaml")]) == 0
    return folder


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, workspace: Path) -> Iterator[Server]:
    db = f"sqlite:///{tmp_path_factory.mktemp('maps-db') / 'vigile.db'}"
    running = Server(db, args=("--workspace", str(workspace))).start()
    try:
        yield running
    finally:
        running.stop()


ANSWERS = """(() => {
  const real = window.fetch;
  window.__held = []; window.__pending = 0; window.__holding = false;
  window.fetch = (url, init) => {
    const answer = real(url, init);
    if (!String(url).endsWith('/apply')) return answer;
    window.__pending += 1;
    const given = window.__holding
      ? new Promise((resolve) => window.__held.push(() => resolve(answer)))
      : answer;
    return given.finally(() => { window.__pending -= 1; });
  };
  window.__release = () => {  // the latest at once, each earlier one 200 ms after the one before
    window.__holding = false;
    window.__held.reverse().forEach((go, i) => setTimeout(go, 200 * i));
  };
})()"""
"""The page's edits, counted while they wait for their answer (``__pending``); from
``__holding = true`` on, answered only at ``__release()``, the latest first."""


def editing(page: Any) -> str:
    """What the page's edits stand at, for a failure's message."""
    return str(
        page.evaluate(
            "() => ({pending: window.__pending, held: window.__held.length, "
            "undo: !document.getElementById('ed-undo').disabled, "
            "redo: !document.getElementById('ed-redo').disabled, "
            "focus: document.activeElement.tagName + '#' + document.activeElement.id, "
            "doors: document.getElementById('ed-yaml').value.split('\\n')"
            ".filter(l => l.includes('door')).join(' | ')})"
        )
    )


def lines_with(page: Any, word: str) -> list[str]:
    return [line.strip() for line in page.input_value("#ed-yaml").splitlines() if word in line]


def door_lines(page: Any, count: int) -> str:
    """The YAML once it holds ``count`` lines naming door 2 (an edit's answer is in)."""
    try:
        page.wait_for_function(
            "(count) => document.getElementById('ed-yaml').value.split('\\n')"
            ".filter(l => l.includes('door 2')).length === count",
            arg=count,
            timeout=WAIT_MS,
        )
    except Exception as error:
        raise AssertionError(f"not {count} door 2 line(s): {editing(page)}") from error
    return str(page.input_value("#ed-yaml"))


def settled(page: Any, before: str) -> str:
    """The YAML once an edit changed it (the server answered)."""
    page.wait_for_function(
        "(before) => document.getElementById('ed-yaml').value !== before",
        arg=before,
        timeout=WAIT_MS,
    )
    return str(page.input_value("#ed-yaml"))


def test_the_editor_on_an_imported_map(chromium: Any, server: Server) -> None:
    context = chromium.new_context(viewport={"width": 1366, "height": 768}, locale="en-GB")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.add_init_script(ANSWERS)
    page.goto(f"{server.base}/editor?file=crypt.yaml&token={server.token}")
    page.wait_for_function(
        "() => +document.getElementById('ed-mapbox').dataset.overlaySeq > 0", timeout=WAIT_MS
    )

    # the picture: served (its link carries the token) and drawn over the ground, on the walls
    href = page.get_attribute("#map-svg image.background", "href")
    assert href and href.startswith("/editor/asset/crypt.png?token=")
    assert page.request.get(f"{server.base}{href}").status == 200
    assert page.evaluate(
        """() => { const order = [...document.querySelectorAll('#map-svg > *')];
            const i = order.indexOf(document.querySelector('#map-svg image.background'));
            return i > order.indexOf(document.querySelector('#map-svg rect.ground')); }"""
    )
    box = page.evaluate(
        "() => { const r = document.getElementById('map-svg').getBoundingClientRect();"
        " return [r.top, r.bottom, innerHeight]; }"
    )
    assert box[0] >= 0 and box[1] <= box[2], box  # the whole map on the screen
    assert page.get_attribute("input[name=field1]", "placeholder") == "actors.Rogue.bonuses.spot"

    # a door drawn from (40, 30) to (50, 30) is named (the imported one is "door 1")
    page.click("button[data-tool=door]")
    text = page.input_value("#ed-yaml")
    page.mouse.click(*screen_of(page, 40, 30))
    page.mouse.click(*screen_of(page, 50, 30))
    text = settled(page, text)
    assert "- {kind: door, start: [40, 30], end: [50, 30], name: door 2}" in lines_with(
        page, "door 2"
    )
    page.keyboard.press("Escape")

    # chosen, the Delete key removes it; Ctrl+Z brings it back, Ctrl+Y removes it again
    page.click("button[data-tool=select]")
    page.mouse.click(*screen_of(page, 45, 30))
    page.wait_for_selector("#ed-form select[data-wall=kind]", timeout=WAIT_MS)
    page.mouse.move(*screen_of(page, 55, 5))  # the key goes to the page, not to a field
    page.keyboard.press("Delete")
    text = door_lines(page, 0)
    page.keyboard.press("Control+z")
    text = door_lines(page, 1)
    page.keyboard.press("Control+y")
    text = door_lines(page, 0)
    assert lines_with(page, "door 2") == []
    # the buttons follow the history once the page has taken the redo in (a moment after)
    page.wait_for_selector("#ed-redo:disabled", timeout=WAIT_MS)
    assert page.is_enabled("#ed-undo") and not page.is_enabled("#ed-redo")

    # the same undo and redo with the undo's answer held back until the redo is pressed, then
    # answered last: the late answer does not bring the door back
    page.wait_for_function("() => window.__pending === 0", timeout=WAIT_MS)
    page.evaluate("() => { window.__holding = true; }")
    page.keyboard.press("Control+z")
    door_lines(page, 1)
    page.keyboard.press("Control+y")
    door_lines(page, 0)
    page.evaluate("() => window.__release()")
    page.wait_for_function("() => window.__pending === 0", timeout=WAIT_MS)
    page.wait_for_timeout(300)  # a late answer would be shown by now
    assert lines_with(page, "door 2") == [], editing(page)
    assert page.is_enabled("#ed-undo") and not page.is_enabled("#ed-redo")

    # the Rogue's plan starts on his token: a click there chooses him, not the plan
    page.mouse.click(*screen_of(page, 8, 30))
    page.wait_for_function(
        "() => document.getElementById('ed-form').textContent.includes('Rogue (attackers)')",
        timeout=WAIT_MS,
    )

    # the delete tool on the first waypoint (over the crates) deletes the leg, not the crates
    page.click("button[data-tool=delete]")
    page.mouse.click(*screen_of(page, 30, 30))
    text = settled(page, text)
    assert lines_with(page, "crates") and lines_with(page, "[30, 30]") == []
    assert lines_with(page, "{to: [30, 12]}")
    assert errors == []
    context.close()
