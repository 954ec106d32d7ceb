"""The scenario editor in a real browser (issue 13): Playwright drives Debian's Chromium against
a real ``vigile serve --workspace DIR`` (tests/web_server.py). The night raid opened, a guard
dragged on the map: the YAML's line for him changes (and nothing else), the risk overlay comes
back for the new board; a small simulation streams its progress and shows its outcomes and the
heat map; the file saved into the workspace keeps its comments.

Without playwright or /usr/bin/chromium the test skips, except under CI, where it fails
(tests/test_browser.py's pattern). ``VIGILE_SCREENSHOTS=1`` writes docs/editor.png.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browser import DOCS, SHOTS, WAIT_MS
from vigile.scene.loader import bundled_path
from web_server import Server


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("workspace")
    (folder / "raid.yaml").write_text(bundled_path("night-raid").read_text("utf-8"), "utf-8")
    return folder


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, workspace: Path) -> Iterator[Server]:
    db = f"sqlite:///{tmp_path_factory.mktemp('editor') / 'vigile.db'}"
    running = Server(db, args=("--workspace", str(workspace))).start()
    try:
        yield running
    finally:
        running.stop()


def screen_of(page: Any, x: float, y: float) -> tuple[float, float]:
    """Where the scenario's point (x, y) is on the screen."""
    at = page.evaluate(
        """([x, y]) => { const svg = document.getElementById('map-svg');
            const p = svg.createSVGPoint(); p.x = x; p.y = y;
            const q = p.matrixTransform(svg.getScreenCTM()); return [q.x, q.y]; }""",
        [x, y],
    )
    return float(at[0]), float(at[1])


def overlay_after(page: Any, seq: int) -> int:
    page.wait_for_function(
        f"() => +document.getElementById('ed-mapbox').dataset.overlaySeq > {seq}", timeout=WAIT_MS
    )
    return int(page.get_attribute("#ed-mapbox", "data-overlay-seq") or 0)


def test_the_editor_on_the_night_raid(chromium: Any, server: Server, workspace: Path) -> None:
    context = chromium.new_context(viewport={"width": 1500, "height": 1000}, locale="en-GB")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server.base}/editor?file=raid.yaml&token={server.token}")
    assert page.locator("#ed-errors .ok").count() == 1  # it validates
    first = overlay_after(page, 0)
    risk_before = page.get_attribute("#map-svg image.risk", "href")
    assert risk_before and risk_before.startswith("data:image/png")
    original = page.input_value("#ed-yaml")

    # drag Goro (posted by the gate, [92, 104]) to [80, 96]
    start = screen_of(page, 92, 104)
    end = screen_of(page, 80, 96)
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move((start[0] + end[0]) / 2, (start[1] + end[1]) / 2, steps=4)
    page.mouse.move(*end, steps=4)
    page.mouse.up()
    page.wait_for_function(
        "() => document.getElementById('ed-yaml').value.includes('name: Goro, side: defenders, "
        "position: [80, 96]')",
        timeout=WAIT_MS,
    )
    overlay_after(page, first)
    risk_after = page.get_attribute("#map-svg image.risk", "href")
    assert risk_after and risk_after != risk_before  # the overlay follows the guard
    edited = page.input_value("#ed-yaml")
    changed = [
        (a, b) for a, b in zip(original.splitlines(), edited.splitlines(), strict=True) if a != b
    ]
    assert len(changed) == 1 and "Goro" in changed[0][0]
    token = page.locator('#map-svg .token[data-name="Goro"]')
    assert "translate(80.0 96.0)" in (token.get_attribute("transform") or "")

    # a small simulation: progress, then the outcomes with intervals and the heat map
    page.fill("#ed-runs", "300")
    page.click("#ed-simulate")
    page.wait_for_selector("#ed-sim-result table.ed-outcomes", timeout=WAIT_MS * 2)
    assert page.get_attribute("#ed-sim-result table", "data-runs") == "300"
    assert page.get_attribute("#ed-progress", "data-done") == "300"
    assert page.locator("#ed-sim-result tr[data-outcome='detected']").count() == 1
    assert page.locator("#map-svg image.heat").count() == 1

    # saved into the workspace: the author's comments are all there
    page.click("#ed-save")
    page.wait_for_function(
        "() => document.getElementById('ed-overlay-note').textContent.includes('raid.yaml')",
        timeout=WAIT_MS,
    )
    saved = (workspace / "raid.yaml").read_text("utf-8")
    assert saved == edited
    assert [x for x in saved.splitlines() if "#" in x] == [
        x for x in original.splitlines() if "#" in x
    ]
    if SHOTS:
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(DOCS / "editor.png"), full_page=False)

    # a lamp dragged moves: the lantern at [160, 100] to [150, 100] (its handle's place changes
    # under the pointer; the edit must still find it)
    page.evaluate("window.scrollTo(0, 0)")  # the simulation's table scrolled the map away
    start, end = screen_of(page, 160, 100), screen_of(page, 150, 100)
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move(*end, steps=4)
    page.mouse.up()
    page.wait_for_function(
        "() => document.getElementById('ed-yaml').value"
        ".includes('{kind: lantern, at: [150, 100]}')",
        timeout=WAIT_MS,
    )
    assert errors == []
    context.close()
