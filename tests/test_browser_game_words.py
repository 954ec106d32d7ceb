"""The editor's forms follow the game, in a real browser (Playwright, Debian's Chromium; as
tests/test_browser_editor.py): on a D&D 3.5 map the leg form offers D&D's speeds and actions
and a "runs (DD-5, DD-20)" switch that writes ``run: true``, an attack on a square (DD-9)
takes its point from the one input; the actor form offers Spot
(DD-3) and writes it inside ``bonuses``; no skirmish speed, grapple or dice."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browser import WAIT_MS
from vigile.scene.loader import bundled_path
from web_server import Server


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("workspace")
    text = bundled_path("dnd35-invisible-intruder").read_text("utf-8")
    (folder / "tower.yaml").write_text(text, "utf-8")
    return folder


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, workspace: Path) -> Iterator[Server]:
    db = f"sqlite:///{tmp_path_factory.mktemp('words') / 'vigile.db'}"
    running = Server(db, args=("--workspace", str(workspace))).start()
    try:
        yield running
    finally:
        running.stop()


def values(page: Any, selector: str) -> list[str]:
    found: list[str] = page.eval_on_selector_all(
        selector + " option", "options => options.map(o => o.value)"
    )
    return found


def test_the_editor_s_forms_on_a_d20_map(chromium: Any, server: Server) -> None:
    context = chromium.new_context(viewport={"width": 1500, "height": 1000}, locale="en-GB")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server.base}/editor?file=tower.yaml&token={server.token}&lang=en")
    assert page.locator("#ed-errors .ok").count() == 1
    assert values(page, "#ed-speed") == ["half", "fast", "immobile"]
    assert values(page, "#ed-attitude") == ["still", "half", "full", "run"]

    page.locator('#map-svg .waypoint[data-actor="Elandra"][data-leg="0"]').click()
    page.wait_for_selector("#ed-form select[data-leg='speed']", timeout=WAIT_MS)
    assert values(page, "#ed-form select[data-leg='speed']") == ["half", "fast", "immobile"]
    actions = values(page, "#ed-action-do")
    assert "attack-square" in actions and "cast-invisibility" in actions
    assert "throw-grapple" not in actions and "snipe" not in actions
    run = page.locator("#ed-form input[data-flag='run']")
    assert "runs (DD-5, DD-20)" in (page.text_content("#ed-form") or "")
    assert page.locator("#ed-form input[data-flag='climb']").count() == 0
    run.check()
    page.wait_for_function(
        "() => document.getElementById('ed-yaml').value.includes("
        "'{to: [12, 18], speed: half, run: true}')",
        timeout=WAIT_MS,
    )

    page.locator('#map-svg .waypoint[data-actor="Elandra"][data-leg="0"]').click()
    page.wait_for_selector("#ed-action-do", timeout=WAIT_MS)
    page.select_option("#ed-action-do", "attack-square")
    page.fill("#ed-action-what", "30 20")
    page.click("#ed-action-add")
    page.wait_for_function(
        "() => document.getElementById('ed-yaml').value.includes("
        "'actions: [{do: attack-square, at: [30, 20]}]')",
        timeout=WAIT_MS,
    )

    page.locator('#map-svg .token[data-name="Sergeant Brom"]').click()
    page.wait_for_selector("#ed-form input[data-set='bonuses.spot']", timeout=WAIT_MS)
    text = page.text_content("#ed-form") or ""
    assert "Spot (DD-3)" in text and "dice" not in text
    page.fill("#ed-form input[data-set='bonuses.spot']", "9")
    page.dispatch_event("#ed-form input[data-set='bonuses.spot']", "change")
    page.wait_for_function(
        "() => /Sergeant Brom[^\\n]*\\n?[^\\n]*spot: 9/"
        ".test(document.getElementById('ed-yaml').value)",
        timeout=WAIT_MS,
    )
    assert errors == []
    context.close()
