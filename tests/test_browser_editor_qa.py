"""The scenario editor while the server has not answered yet: a designer's quick hands on an
imported map (the crypt of tests/test_import_uvtt.py, imported for D&D 3.5), in Debian's
Chromium at 1366x768 against a real ``vigile serve --workspace DIR``.

Each test holds the answers to the editor's edits (``/api/v1/editor/apply``) in the page's
``fetch`` until it releases them, so that the designer's next gesture always comes while an
edit is on its way, as it does on a slow server or a big map: a save, a second click of a tool,
a second deletion, an undo, typing in the text, another attitude for the risk overlay.

Skips without playwright or Chromium, except under CI (tests/browser.py).
"""

from __future__ import annotations

import base64
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
  - {name: crates, points: [[40, 5], [46, 5], [46, 11], [40, 11]]}
  - {name: barrels, points: [[40, 15], [46, 15], [46, 21], [40, 21]]}
  - {name: sacks, points: [[40, 25], [46, 25], [46, 31], [40, 31]]}
actors:
  - {name: Rogue, side: attackers, position: [8, 30]}
  - {name: Guard, side: defenders, position: [30, 10]}
plans:
  Rogue:
    - {to: [15, 30]}
    - {to: [30, 30]}
"""
"""What the designer adds to the imported crypt: three cover areas east of the room (outside
its walls), a rogue with a plan of two legs, a guard."""


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("qa")
    doc = room(image=base64.b64encode(png(48, 32)).decode())
    doc["resolution"]["pixels_per_grid"] = 4
    source = folder / "crypt.dd2vtt"
    source.write_text(json.dumps(doc), "utf-8")
    out = folder / "crypt.yaml"
    assert main(["scenario", "import", str(source), "--ruleset", "dnd35", "--out", str(out)]) == 0
    (folder / "fresh.yaml").write_text(out.read_text("utf-8"), "utf-8")  # as imported
    text = out.read_text("utf-8").replace("actors: []\n", "").replace("plans: {}\n", "")
    out.write_text(text + ADDED, "utf-8")
    assert main(["scenario", "validate", str(out)]) == 0
    return folder


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, workspace: Path) -> Iterator[Server]:
    db = f"sqlite:///{tmp_path_factory.mktemp('qa-db') / 'vigile.db'}"
    running = Server(db, args=("--workspace", str(workspace))).start()
    try:
        yield running
    finally:
        running.stop()


HOLD = """() => {
  const real = window.fetch;
  window.__held = []; window.__pending = 0; let hold = true;
  window.fetch = (url, init) => {
    const answer = real(url, init);
    if (!String(url).endsWith('/apply')) return answer;
    window.__pending += 1;
    const given = hold
      ? new Promise((resolve) => window.__held.push(() => resolve(answer)))
      : answer;
    return given.finally(() => { window.__pending -= 1; });
  };
  window.__release = () => { hold = false; window.__held.forEach((go) => go()); };
}"""
"""From now on the editor's edits are answered only at ``__release()``."""


@pytest.fixture
def page(
    chromium: Any, server: Server, workspace: Path, request: pytest.FixtureRequest
) -> Iterator[Any]:
    """The editor on a fresh copy of the crypt (one file per test), its first overlay shown;
    a JavaScript error on the page fails the test. A test named ``..._fr`` opens it in French."""
    name = f"{request.node.name.removeprefix('test_')[:40]}.yaml"
    lang = "fr" if request.node.name.split("[")[0].endswith("_fr") else "en"
    (workspace / name).write_text((workspace / "crypt.yaml").read_text("utf-8"), "utf-8")
    locale = "fr-FR" if lang == "fr" else "en-GB"
    context = chromium.new_context(viewport={"width": 1366, "height": 768}, locale=locale)
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    opened.goto(f"{server.base}/editor?file={name}&token={server.token}&lang={lang}")
    opened.wait_for_function(
        "() => +document.getElementById('ed-mapbox').dataset.overlaySeq > 0", timeout=WAIT_MS
    )
    opened.file = workspace / name
    yield opened
    assert errors == []
    context.close()


def text_of(page: Any) -> str:
    return str(page.input_value("#ed-yaml"))


def released(page: Any) -> str:
    """The text once every held edit is answered and the page has taken the answers in."""
    page.evaluate("() => window.__release()")
    page.wait_for_function("() => window.__pending === 0", timeout=WAIT_MS)
    page.wait_for_timeout(400)  # an answer (or an edit queued behind it) is in by now
    page.wait_for_function("() => window.__pending === 0", timeout=WAIT_MS)
    return text_of(page)


def lines_with(text: str, word: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if word in line]


def no_message(page: Any) -> None:
    assert page.locator("#ed-message").is_hidden(), page.text_content("#ed-message")


def test_a_save_while_an_edit_is_on_its_way_saves_the_edit(page: Any) -> None:
    page.evaluate(HOLD)
    page.click("button[data-tool=guard]")
    page.mouse.click(*screen_of(page, 50, 35))
    page.click("#ed-save")
    text = released(page)
    page.wait_for_function(
        "() => document.getElementById('ed-overlay-note').textContent.includes('.yaml')",
        timeout=WAIT_MS,
    )
    assert lines_with(text, "position: [50, 35]")
    assert page.file.read_text("utf-8") == text
    no_message(page)


HOLD_RISK = """() => {
  const real = window.fetch;
  window.__risks = []; let hold = true;
  window.fetch = (url, init) => {
    const answer = real(url, init);
    if (!hold || !String(url).endsWith('/riskmap')) return answer;
    return new Promise((resolve) => window.__risks.push(() => resolve(answer)));
  };
  window.__releaseRisk = () => { hold = false; window.__risks.forEach((go) => go()); };
}"""
"""From now on the risk overlays are answered only at ``__releaseRisk()``."""


def test_a_save_s_note_is_not_replaced_by_the_overlay_s(page: Any) -> None:
    """A guard placed, then Save at once: the edit's overlay comes after the save's answer
    (held here; a big map, or a busy server). The note still says where the text was saved."""
    page.evaluate(HOLD_RISK)
    page.click("button[data-tool=guard]")
    page.mouse.click(*screen_of(page, 50, 35))
    page.click("#ed-save")
    page.wait_for_function("() => window.__risks.length > 0", timeout=WAIT_MS)
    page.wait_for_timeout(300)  # a save that did not wait for the overlay is answered by now
    page.evaluate("() => window.__releaseRisk()")
    page.wait_for_function(
        "() => document.getElementById('ed-overlay-note').textContent.includes('.yaml')",
        timeout=WAIT_MS,
    )
    page.wait_for_timeout(300)  # nothing comes after to replace it
    assert ".yaml" in (page.text_content("#ed-overlay-note") or "")
    assert lines_with(page.file.read_text("utf-8"), "position: [50, 35]")
    no_message(page)


def test_quick_clicks_of_a_tool_give_each_item_its_own_name(page: Any) -> None:
    page.evaluate(HOLD)
    page.click("button[data-tool=guard]")
    for x in (50, 53, 56):
        page.mouse.click(*screen_of(page, x, 36))
    text = released(page)
    names = [line.split("name: ")[1].split(",")[0] for line in lines_with(text, "36], state")]
    assert sorted(names) == ["Guard 1", "Guard 2", "Guard 3"], text
    assert page.locator("#ed-errors .ok").count() == 1  # the scenario still validates

    # two doors drawn one after the other (the second starts where the first ended)
    page.evaluate(HOLD)
    page.click("button[data-tool=door]")
    for x in (48, 52, 56):
        page.mouse.click(*screen_of(page, x, 2))
    text = released(page)
    assert lines_with(text, "name: door 2") and lines_with(text, "name: door 3"), text
    assert page.locator("#ed-errors .ok").count() == 1
    no_message(page)


def test_quick_deletions_delete_what_was_clicked(page: Any) -> None:
    page.evaluate(HOLD)
    page.click("button[data-tool=delete]")
    page.mouse.click(*screen_of(page, 43, 8))  # the crates (cover 1)
    page.mouse.click(*screen_of(page, 43, 18))  # the barrels (cover 2)
    page.mouse.click(*screen_of(page, 22.5, 15))  # the pillar's north side (wall 6)
    page.mouse.click(*screen_of(page, 25, 17.5))  # its east side (wall 7)
    text = released(page)
    assert [line for line in lines_with(text, "name: ") if line.startswith("- {")] == [
        "- {kind: door, name: door 1, start: [35, 20], end: [35, 25]}",
        "- {name: sacks, points: [[40, 25], [46, 25], [46, 31], [40, 31]]}",
        "- {name: Rogue, side: attackers, position: [8, 30]}",
        "- {name: Guard, side: defenders, position: [30, 10]}",
    ]
    assert "[25, 20], end: [20, 20]" in text and "[20, 20], end: [20, 15]" in text
    assert "start: [20, 15], end: [25, 15]" not in text, "the north side was clicked"
    assert "start: [25, 15], end: [25, 20]" not in text, "the east side was clicked"
    no_message(page)


def test_an_undo_right_after_a_drag_undoes_the_drag_only(page: Any) -> None:
    before = text_of(page)
    page.click("button[data-tool=light]")
    page.mouse.click(*screen_of(page, 50, 35))
    page.wait_for_function(
        "(before) => document.getElementById('ed-yaml').value !== before",
        arg=before,
        timeout=WAIT_MS,
    )
    with_light = text_of(page)
    assert lines_with(with_light, "at: [50, 35]")

    page.click("button[data-tool=select]")
    page.evaluate(HOLD)
    start, end = screen_of(page, 30, 10), screen_of(page, 30, 30)
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move(*end, steps=6)
    page.mouse.up()
    page.mouse.move(*screen_of(page, 55, 2))
    page.keyboard.press("Control+z")  # before the move's answer: it undoes the move
    text = released(page)
    assert text == with_light  # the guard back where he was, the light still there
    page.keyboard.press("Control+y")
    page.wait_for_function(
        "() => document.getElementById('ed-yaml').value.includes('Guard, side: defenders,"
        " position: [30, 30]')",
        timeout=WAIT_MS,
    )
    no_message(page)


def test_typing_while_a_map_edit_is_on_its_way_keeps_both(page: Any) -> None:
    page.evaluate(HOLD)
    page.click("button[data-tool=intruder]")
    page.mouse.click(*screen_of(page, 50, 35))
    page.click("#ed-yaml")
    page.keyboard.press("Control+End")
    page.keyboard.type("# the east yard\n")
    text = released(page)
    page.wait_for_timeout(600)  # the typing's own check (400 ms after the last key)
    text = released(page)
    assert lines_with(text, "# the east yard")
    assert lines_with(text, "name: Intruder 1, side: attackers, position: [50, 35]"), text
    no_message(page)


def test_the_overlay_follows_an_attitude_chosen_while_an_edit_is_on_its_way(page: Any) -> None:
    attitudes = page.eval_on_selector_all("#ed-attitude option", "os => os.map(o => o.value)")
    assert len(attitudes) >= 2
    page.evaluate(HOLD)
    page.click("button[data-tool=guard]")
    page.mouse.click(*screen_of(page, 12, 30))  # a guard beside the rogue's way
    page.select_option("#ed-attitude", attitudes[1])
    text = released(page)
    assert lines_with(text, "position: [12, 30]")
    page.wait_for_timeout(1500)  # every risk map asked for is in
    shown, fresh = page.evaluate(
        """async () => {
          const root = document.getElementById('editor');
          const answer = await fetch('/api/v1/editor/riskmap', {method: 'POST',
            headers: {'Content-Type': 'application/json',
                      'Authorization': 'Bearer ' + root.dataset.token},
            body: JSON.stringify({yaml: document.getElementById('ed-yaml').value,
              attitude: document.getElementById('ed-attitude').value, actor: null})});
          const found = await answer.json();
          return [document.querySelector('#map-svg image.risk').getAttribute('href'),
                  found.image.href];
        }"""
    )
    assert shown == fresh  # the risk of the board as it is now, for the attitude chosen


def test_a_double_click_finishes_an_area_and_draws_no_wall(page: Any) -> None:
    """The hint says: an area's corners, then a double click (on the last corner). The first
    click of the two draws the corner's mark under the pointer: the double click must still
    reach the map, and give that corner once. A double click with a wall tool is one end."""
    before = text_of(page)
    page.click("button[data-tool=cover]")
    for x, y in ((48, 5), (56, 5), (56, 12)):
        page.mouse.click(*screen_of(page, x, y))
    page.mouse.dblclick(*screen_of(page, 48, 12))
    page.wait_for_function(
        "(before) => document.getElementById('ed-yaml').value !== before",
        arg=before,
        timeout=WAIT_MS,
    )
    assert lines_with(text_of(page), "[48, 5]") == [
        "- {points: [[48, 5], [56, 5], [56, 12], [48, 12]]}"
    ]

    page.click("button[data-tool=wall]")
    page.mouse.dblclick(*screen_of(page, 50, 37))
    page.mouse.click(*screen_of(page, 55, 37))
    page.wait_for_function(
        "() => document.getElementById('ed-yaml').value.includes('end: [55, 37]')",
        timeout=WAIT_MS,
    )
    page.wait_for_timeout(300)
    assert lines_with(text_of(page), "[50, 37]") == [
        "- {kind: wall, start: [50, 37], end: [55, 37]}"
    ]
    assert page.locator("#ed-errors .ok").count() == 1
    no_message(page)


def test_another_game_typed_in_gets_its_risk_overlay(page: Any) -> None:
    """The crypt typed over as a skirmish map: the attitudes become the skirmish's, and the
    overlay is drawn for one of them (D&D's "still" is not a skirmish attitude)."""
    seq = int(page.get_attribute("#ed-mapbox", "data-overlay-seq") or 0)
    assert page.input_value("#ed-attitude") == "still"
    text = text_of(page).replace("ruleset: dnd35", "ruleset: skirmish")
    page.fill("#ed-yaml", text.replace("units: ft", "units: cm"))
    page.wait_for_function(
        "() => [...document.querySelectorAll('#ed-attitude option')]"
        ".some(o => o.value === 'hidden')",
        timeout=WAIT_MS,
    )
    page.wait_for_function(
        "(seq) => +document.getElementById('ed-mapbox').dataset.overlaySeq > seq",
        arg=seq,
        timeout=WAIT_MS,
    )
    note = str(page.text_content("#ed-overlay-note"))
    assert "attitude" not in note and "risk of being seen" in note, note
    assert page.evaluate(
        "() => document.querySelector('#map-svg image.risk').style.display !== 'none'"
    )
    no_message(page)


def options_of(page: Any, selector: str) -> list[tuple[str, str]]:
    return [
        (str(value), str(label))
        for value, label in page.eval_on_selector_all(
            f"{selector} option", "os => os.map(o => [o.value, o.textContent])"
        )
    ]


def test_the_menus_and_forms_in_french_fr(page: Any) -> None:
    """The keywords of the menus read in French (their values stay the YAML's): the lights
    (scene.fr.toml), a guard's state, the sweep's outcomes (sim.fr.toml), and the forms of a
    chosen item. A guard's form starts blank, so that any state chosen is a change."""
    assert options_of(page, "#ed-light-kind")[:2] == [
        ("brazier", "un brasero"),
        ("lantern", "une lanterne"),
    ]
    assert options_of(page, "#ed-guard-state") == [
        ("posted", "en poste"),
        ("patrolling", "en patrouille"),
        ("group", "en groupe"),
    ]
    assert ("objective_unseen", "objectif atteint, jamais localisé ni vu") in options_of(
        page, "select[name=outcome]"
    )

    # a patrolling guard put down, chosen, then posted from his form
    page.select_option("#ed-guard-state", "patrolling")
    page.click("button[data-tool=guard]")
    page.mouse.click(*screen_of(page, 50, 35))
    page.wait_for_function(
        "() => document.getElementById('ed-yaml').value.includes('[50, 35], state: patrolling')",
        timeout=WAIT_MS,
    )
    page.click("button[data-tool=select]")
    page.mouse.click(*screen_of(page, 50, 35))
    page.wait_for_selector("#ed-form select[data-set=state]", timeout=WAIT_MS)
    assert "état" in str(page.text_content("#ed-form"))
    # not "posted" for a patrolling guard (choosing the option shown sends no change)
    assert page.input_value("#ed-form select[data-set=state]") == ""
    page.select_option("#ed-form select[data-set=state]", "posted")
    page.wait_for_function(
        "() => document.getElementById('ed-yaml').value.includes('[50, 35], state: posted')",
        timeout=WAIT_MS,
    )

    # the lantern's form
    page.mouse.click(*screen_of(page, 10, 10))
    page.wait_for_selector("#ed-form select[data-light=kind]", timeout=WAIT_MS)
    assert ("lantern", "une lanterne") in options_of(page, "#ed-form select[data-light=kind]")
    assert "rayon" in str(page.text_content("#ed-form"))
    no_message(page)


HOLD_BODIES = """() => {
  const real = window.fetch;
  window.__held = []; window.__pending = 0; let hold = true;
  window.fetch = async (url, init) => {
    const answer = await real(url, init);
    if (!String(url).endsWith('/apply')) return answer;
    window.__pending += 1;
    const read = answer.json.bind(answer);
    answer.json = () => {
      const body = hold ? new Promise((go) => window.__held.push(go)).then(read) : read();
      return body.finally(() => { window.__pending -= 1; });
    };
    return answer;
  };
  window.__release = () => { hold = false; window.__held.forEach((go) => go()); };
}"""
"""From now on the bodies of the edits' answers arrive only at ``__release()`` (their heads at
once): the page is between its two reads of an answer."""


def test_an_undo_s_answer_read_after_the_redo_is_dropped(page: Any) -> None:
    """CI's flaky race, made certain: the undo's answer had come (its head) but its body was
    still on its way when the redo put the light back; read then, it put the undone text back
    (tests/test_browser_editor_maps.py met it about once in ten)."""
    before = text_of(page)
    page.click("button[data-tool=light]")
    page.mouse.click(*screen_of(page, 50, 35))
    page.wait_for_function(
        "(before) => document.getElementById('ed-yaml').value !== before",
        arg=before,
        timeout=WAIT_MS,
    )
    with_light = text_of(page)
    page.click("button[data-tool=select]")
    page.mouse.move(*screen_of(page, 55, 2))
    page.evaluate(HOLD_BODIES)
    page.keyboard.press("Control+z")
    page.wait_for_function("() => window.__held.length === 1", timeout=WAIT_MS)
    assert text_of(page) == before
    page.keyboard.press("Control+y")
    page.wait_for_function(
        "(light) => document.getElementById('ed-yaml').value === light",
        arg=with_light,
        timeout=WAIT_MS,
    )
    assert released(page) == with_light
    assert page.is_enabled("#ed-undo") and not page.is_enabled("#ed-redo")
    no_message(page)


def test_a_map_just_imported_opens_with_its_map_to_put_the_actors_on(
    page: Any, workspace: Path
) -> None:
    """``vigile scenario import`` writes ``actors: []`` and says: add the actors. Opened so,
    the scenario does not validate (it has no actor), and the editor showed no map to put
    them on. It draws the board; a guard clicked onto it is the first actor."""
    page.file.write_text((workspace / "fresh.yaml").read_text("utf-8"), "utf-8")
    page.reload()
    page.wait_for_selector("#map-svg", timeout=WAIT_MS)
    assert page.locator("#ed-errors li").count() == 1  # no actor yet: still said
    assert page.locator("#map-svg .wall-hit").count() == 10  # the crypt's 9 walls and door
    assert page.locator("#map-svg .token").count() == 0
    assert page.get_attribute("#map-svg image.background", "href")
    page.wait_for_timeout(1000)  # an overlay asked for would be answered by now
    # no risk for a board without actors: the error list says why, the note does not repeat it
    assert page.text_content("#ed-overlay-note") == ""
    box = page.evaluate(
        "() => { const r = document.getElementById('map-svg').getBoundingClientRect();"
        " return [r.top, r.bottom, innerHeight]; }"
    )
    assert box[0] >= 0 and box[1] <= box[2], box  # the whole map on the screen
    assert all("DD-" in label for label in page.eval_on_selector_all(
        "#ed-speed option", "os => os.map(o => o.textContent)"
    ))  # fmt: skip

    before = text_of(page)
    page.click("button[data-tool=guard]")
    page.mouse.click(*screen_of(page, 30, 10))
    page.wait_for_function(
        "(before) => document.getElementById('ed-yaml').value !== before",
        arg=before,
        timeout=WAIT_MS,
    )
    assert lines_with(text_of(page), "Guard 1") == [
        "- {name: Guard 1, side: defenders, position: [30, 10], state: posted}"
    ]
    page.wait_for_selector('#map-svg .token[data-name="Guard 1"]', timeout=WAIT_MS)
    assert page.locator("#map-svg .token").count() == 1
    no_message(page)


def test_a_problem_s_lines_in_french_fr(page: Any, workspace: Path) -> None:
    """A simulation asked for on a map with no actor yet: the problem lists the error by its
    line, as the page's error list does, in French (web.fr.toml's ``line``)."""
    page.file.write_text((workspace / "fresh.yaml").read_text("utf-8"), "utf-8")
    page.reload()
    page.wait_for_selector("#map-svg", timeout=WAIT_MS)
    line = page.get_attribute("#ed-errors li", "data-line")
    page.fill("#ed-runs", "10")
    page.click("#ed-simulate")
    page.wait_for_function(
        "() => document.getElementById('ed-sim-result').textContent !== ''", timeout=WAIT_MS
    )
    said = str(page.text_content("#ed-sim-result"))
    assert f"ligne {line} : actors" in said and "line " not in said, said


def test_a_light_put_on_a_d20_map_has_the_map_s_radius(page: Any) -> None:
    """A D&D 3.5 light needs a radius (the scenario does not validate without one): the light
    tool used to add one with none, so the first light put down broke the scenario and never
    showed on the map. The tool's radius starts as the map's own lights' (the crypt's lantern:
    15 ft)."""
    assert page.input_value("#ed-light-radius") == "15"
    page.click("button[data-tool=light]")
    page.mouse.click(*screen_of(page, 50, 35))
    page.wait_for_selector("#map-svg .light-handle[data-index='1']", state="attached")
    assert lines_with(text_of(page), "at: [50, 35]") == [
        "- {kind: brazier, at: [50, 35], radius: 15}"
    ]
    assert page.locator("#ed-errors .ok").count() == 1
    no_message(page)


HOLD_RISK = """() => {
  const real = window.fetch;
  window.__risks = []; let hold = true;
  window.fetch = (url, init) => {
    const answer = real(url, init);
    if (!String(url).endsWith('/riskmap')) return answer;
    return hold ? new Promise((go) => window.__risks.push(() => go(answer))) : answer;
  };
  window.__releaseRisk = () => { hold = false; window.__risks.forEach((go) => go()); };
}"""
"""From now on the risk overlays are answered only at ``__releaseRisk()``."""


def test_an_edit_is_on_the_map_before_its_overlay(page: Any) -> None:
    """On a big map the risk overlay takes seconds: the edit is drawn as soon as its answer
    comes, the overlay of the board before it dimmed, and the new overlay follows."""
    seq = int(page.get_attribute("#ed-mapbox", "data-overlay-seq") or 0)
    page.evaluate(HOLD_RISK)
    page.click("button[data-tool=guard]")
    page.mouse.click(*screen_of(page, 50, 35))
    page.wait_for_selector('#map-svg .token[data-name="Guard 1"]', timeout=WAIT_MS)
    assert lines_with(text_of(page), "name: Guard 1, side: defenders, position: [50, 35]")
    page.wait_for_function("() => window.__risks.length === 1", timeout=WAIT_MS)
    assert page.get_attribute("#ed-mapbox", "data-overlay-seq") == str(seq)  # not yet
    assert page.get_attribute("#ed-mapbox", "data-overlay-due") == "1"
    page.evaluate("() => window.__releaseRisk()")
    page.wait_for_function(
        "(seq) => +document.getElementById('ed-mapbox').dataset.overlaySeq > seq",
        arg=seq,
        timeout=WAIT_MS,
    )
    assert page.get_attribute("#ed-mapbox", "data-overlay-due") is None
    no_message(page)


def test_an_undo_right_after_typing_undoes_the_typing_only(page: Any) -> None:
    """An Undo clicked before the typing's own check (400 ms after the last key) undoes the
    typing, not also the edit before it."""
    before = text_of(page)
    page.click("button[data-tool=light]")
    page.mouse.click(*screen_of(page, 50, 35))
    page.wait_for_function(
        "(before) => document.getElementById('ed-yaml').value !== before",
        arg=before,
        timeout=WAIT_MS,
    )
    with_light = text_of(page)
    page.click("#ed-yaml")
    page.keyboard.press("Control+End")
    page.keyboard.type("# the east yard\n")
    typed = text_of(page)
    page.click("#ed-undo")  # within 400 ms of the last key
    page.wait_for_timeout(1000)  # the typing's check and the undo are answered by now
    assert text_of(page) == with_light
    page.click("#ed-redo")
    page.wait_for_function(
        "(typed) => document.getElementById('ed-yaml').value === typed", arg=typed, timeout=WAIT_MS
    )
    no_message(page)


def test_a_selected_wall_s_form_follows_a_deletion_before_it(page: Any) -> None:
    """The pillar's east side (wall 7) selected, then its north side (wall 6) deleted while
    the deletion is on its way: the form's change goes to the east side, now the sixth wall,
    not to the wall after it."""
    page.click("button[data-tool=select]")
    page.mouse.click(*screen_of(page, 25, 17.5))  # the east side
    kinds = page.eval_on_selector_all(
        "#ed-form [data-wall=kind] option", "os => os.map(o => o.value)"
    )
    other = next(kind for kind in kinds if kind != "wall")
    page.evaluate(HOLD)
    page.click("button[data-tool=delete]")
    page.mouse.click(*screen_of(page, 22.5, 15))  # the north side
    page.select_option("#ed-form [data-wall=kind]", other)
    text = released(page)
    assert "start: [20, 15], end: [25, 15]" not in text, "the north side was deleted"
    assert f"{{kind: {other}, start: [25, 15], end: [25, 20]}}" in text, text
    assert "{kind: wall, start: [25, 20], end: [20, 20]}" in text, "the south side is as it was"
    no_message(page)


def test_a_heat_map_is_not_drawn_over_an_edited_board(page: Any) -> None:
    """The heat map of a simulation shows the text simulated: an edit takes it off the map,
    an undo back to that text puts it back."""
    page.fill("#ed-runs", "40")
    page.click("#ed-simulate")
    page.wait_for_selector("#map-svg image.heat", state="attached", timeout=WAIT_MS)
    before = text_of(page)
    page.click("button[data-tool=guard]")
    page.mouse.click(*screen_of(page, 50, 35))
    page.wait_for_selector('#map-svg .token[data-name="Guard 1"]', timeout=WAIT_MS)
    assert page.locator("#map-svg image.heat").count() == 0
    page.click("#ed-undo")
    page.wait_for_function(
        "(before) => document.getElementById('ed-yaml').value === before",
        arg=before,
        timeout=WAIT_MS,
    )
    page.wait_for_selector("#map-svg image.heat", state="attached", timeout=WAIT_MS)
    no_message(page)
