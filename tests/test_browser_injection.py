"""No script runs from a scenario (issue 34): every text field of a scenario (its name and
description, the map's picture, each actor's name and group, the walls', doors', windows' and
partitions' names, the ground's and the cover's names, the objective's description, the plans,
the hidden guards, the examples' notes), the encounter's name and its file's name carry the
classic payloads: ``<script>`` tags, event handlers breaking out of an attribute, a
``javascript:`` URL, a ``</svg>`` that closes the map, quotes of both kinds, a template's
``{{7*7}}`` and an Alpine expression. The scenario goes through the real server (an encounter
made by the API and by the list page's upload form, a workspace file, the editor's own upload
form) and Chromium opens every page and fragment: the list, the GM's table (every action's
preview, a move played, the table's dice asked for, end of turn, undo, join links, the risk
overlay), the table's view, each character's page (by its own link and as the GM sees it), the
editor (a token chosen, the text edited, saved), the calculator, and error pages that echo a
name.

A page fails the test when ``window.__pwned`` is set, a dialog opens, or the page reports a
Content-Security-Policy violation (tests/browser.py watches every page). ``window.__pwned`` is an
accessor that tells the test of every write, whenever it comes (:data:`RECORD`): a handler that
fires late is caught by the next check, and each step is checked once the page is quiet (no
request in flight, no swap under way: :meth:`Tour.quiet`) rather than after a fixed pause. The
tour runs twice: under the server's policy (nothing may even try), and with the policy bypassed
(the templates' escaping alone keeps every payload text). A payload that validation refuses (a
picture's name that closes its attribute) is a clear 422 naming ``map.background``.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

import pytest
import yaml

from browser import WAIT_MS
from web_server import Server, problem_of

SCRIPT = "<script>window.__pwned=1</script>"
IMG = '"><img src=x onerror="window.__pwned=1">'
JS = "javascript:window.__pwned=1"
SVG = "</svg><script>window.__pwned=1</script>"
QUOTES = "'\"><svg onload=window.__pwned=1>"
TEMPLATE = "{{7*7}} ${7*7} <%= 7*7 %>"
ALPINE = "'-(window.__pwned=1)-'"
ATTRIBUTE = "x' onmouseover='window.__pwned=1"
PAYLOADS = (SCRIPT, IMG, JS, SVG, QUOTES, TEMPLATE, ALPINE, ATTRIBUTE)
ALL = "\n".join(PAYLOADS)
PICTURE = "{{7*7}} & #?.png"
"""A picture's file name that is a fine relative name, but for a URL and a template engine."""
BREAKOUT = '"/><img src=x onerror=window.__pwned=1>.png'
"""The review's picture name: it closed the editor's ``href`` (refused at validation now)."""
ENCOUNTER_NAME = "{{7*7}}<img src=x onerror=window.__pwned=1>"
FILE_NAME = "'\"><svg onload=window.__pwned=1>.yaml"
INTRUDERS = (SCRIPT, IMG, ATTRIBUTE)
RECORD = """
(() => {
  let value;
  Object.defineProperty(window, "__pwned", {
    get: () => value,
    set: (v) => { value = v; window.vigilePwned(String(v)); },
  });
})();
"""
"""Run in every page and frame before its own scripts: every write of ``window.__pwned``, by
any script at any time, is told to Python at once (a binding), whichever page is checked then."""
QUIET = """() => new Promise((done) => setTimeout(() => done(
  !document.querySelector(".htmx-request, .htmx-swapping, .htmx-settling")), 0))"""
"""After the tasks queued so far (the handling of a response that just came): whether no htmx
request, swap or settling is under way (htmx marks its elements with these classes meanwhile)."""
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwABBAEAwS2OUAAAAABJRU5ErkJggg=="
)


def hostile(background: str = PICTURE) -> str:
    """A valid skirmish scenario with a payload in every text field."""
    data = {
        "ruleset": "skirmish",
        "name": SCRIPT,
        "description": ALL,
        "reproduces": [TEMPLATE],
        "units": "cm",
        "time": "night",
        "map": {"width": 200, "height": 120, "background": background},
        "turns": 10,
        "walls": [
            {"kind": "wall", "start": [60, 0], "end": [60, 40], "name": TEMPLATE},
            {"kind": "door", "start": [60, 40], "end": [60, 50], "name": ATTRIBUTE},
            {"kind": "partition", "start": [100, 80], "end": [140, 80], "name": SCRIPT},
            {"kind": "window", "start": [150, 0], "end": [150, 10], "name": JS},
        ],
        "surfaces": [{"kind": "water", "points": [[10, 80], [40, 80], [40, 110]], "name": SVG}],
        "cover": [{"points": [[20, 40], [40, 40], [40, 60]], "name": QUOTES}],
        "lights": [{"kind": "lantern", "at": [120, 60]}],
        "actors": [
            {"name": SCRIPT, "side": "attackers", "position": [10, 10], "ninja": True},
            {"name": IMG, "side": "attackers", "position": [20, 20]},
            {"name": ATTRIBUTE, "side": "attackers", "position": [30, 10]},
            {"name": SVG, "side": "defenders", "position": [40, 30], "state": "posted", "dice": 2},
            {
                "name": QUOTES,
                "side": "defenders",
                "position": [150, 60],
                "state": "patrolling",
                "group": ALPINE,
            },
            {
                "name": ALPINE,
                "side": "defenders",
                "position": [155, 65],
                "state": "patrolling",
                "group": ALPINE,
            },
            {"name": JS, "side": "defenders", "position": [120, 100], "state": "posted"},
            {"name": TEMPLATE, "side": "defenders", "position": [180, 30], "state": "posted"},
        ],
        "plans": {
            SCRIPT: [{"to": [50, 20], "speed": "half"}],
            IMG: [
                {
                    "to": [55, 45],
                    "speed": "half",
                    "actions": [{"do": "open-door", "door": ATTRIBUTE}],
                }
            ],
        },
        "hidden_guards": [JS],
        "objective": {"description": ALL, "at": [190, 110], "radius": 5, "who": [SCRIPT]},
        "expected": [
            {"rule": "SK-N1", "check": "noise", "actor": SVG, "target": SCRIPT, "note": ALL}
        ],
    }
    return yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=200)


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("hostile")
    (folder / "hostile.yaml").write_text(hostile(), "utf-8")
    (folder / "breakout.yaml").write_text(hostile(BREAKOUT), "utf-8")
    (folder / PICTURE).write_bytes(PNG)
    return folder


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, workspace: Path) -> Iterator[Server]:
    db = f"sqlite:///{tmp_path_factory.mktemp('injection') / 'vigile.db'}"
    running = Server(db, args=("--workspace", str(workspace))).start()
    try:
        yield running
    finally:
        running.stop()


class Tour:
    """One browser context touring the pages: every step checks that no script ran."""

    def __init__(self, chromium: Any, server: Server, *, policy: bool) -> None:
        self.chromium = chromium
        self.server = server
        self.policy = policy
        self.context = chromium.new_context(
            viewport={"width": 1400, "height": 1000}, locale="en-GB", bypass_csp=not policy
        )
        self.dialogs: list[str] = []
        self.errors: list[str] = []
        self.pwned: list[str] = []
        self.context.on("dialog", self._dialog)
        self.context.expose_binding("vigilePwned", self._pwned)
        self.context.add_init_script(RECORD)
        self.page = self.context.new_page()
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.inflight: set[Any] = set()
        self.page.on("request", self._request)
        self.page.on("requestfinished", self._ended)
        self.page.on("requestfailed", self._ended)
        self.visited: list[str] = []

    def _pwned(self, source: dict[str, Any], value: str) -> None:
        self.pwned.append(f"{source['frame'].url}: window.__pwned = {value}")

    def _request(self, request: Any) -> None:
        if request.resource_type != "eventsource":  # the page's stream: open while it lives
            self.inflight.add(request)

    def _ended(self, request: Any) -> None:
        self.inflight.discard(request)

    def _dialog(self, dialog: Any) -> None:
        self.dialogs.append(f"{dialog.type}: {dialog.message}")
        dialog.dismiss()

    def open(self, path: str, **params: str) -> Any:
        url = self.server.base + path + ("?" + urlencode(params) if params else "")
        self.page.goto(url)
        return self.clean(path)

    def quiet(self) -> None:
        """Wait until the page is quiet: no request in flight (its images, its fetches, htmx's),
        and, once the tasks queued so far have run, no htmx request, swap or settling under
        way. What a response brings in (a fragment's scripts and handlers, the images it asks
        for) has run by then, or is itself in flight: the next round waits for it."""
        for _ in range(WAIT_MS // 10):
            if self.page.evaluate(QUIET) and not self.inflight:
                return
            self.page.wait_for_timeout(10)
        raise AssertionError(f"still busy after {WAIT_MS} ms: {sorted(map(str, self.inflight))}")

    def clean(self, where: str) -> Any:
        """No script ran, no dialog opened, no policy violation was reported so far, once the
        page is quiet (:meth:`quiet`): a script that runs later, on this page, is caught by the
        next check (:data:`RECORD`). A handler that a response brought in (an image's
        ``onerror``), blocked by the policy or run without it, has been seen by then."""
        self.quiet()
        pwned = self.page.evaluate("() => window.__pwned")
        assert pwned is None, f"a script ran on {where} (policy {'on' if self.policy else 'off'})"
        assert self.pwned == [], (where, self.pwned)
        assert self.dialogs == [], (where, self.dialogs)
        assert self.chromium.violations == [], (where, self.chromium.violations)
        self.visited.append(where)
        return self.page

    def close(self) -> None:
        self.quiet()
        assert self.pwned == [], self.pwned
        assert self.errors == [], self.errors
        self.context.close()


def played(tour: Tour, button: str, where: str) -> None:
    """Click a button that plays on the GM's page; roll every die the table is asked for."""
    page = tour.page
    page.evaluate("() => { document.getElementById('result').innerHTML = ''; }")
    page.click(button)
    page.wait_for_selector("#result .played, #result [data-die], #result .alert", timeout=WAIT_MS)
    tour.clean(where)
    for _ in range(100):
        prompt = page.locator("#result [data-die]")
        if not prompt.count():
            return
        index = prompt.get_attribute("data-die")
        asked = prompt.element_handle()
        page.locator("#result [data-die] button.secondary").click()  # roll it for me
        # the next prompt may carry the same index (a scatter die's bearing 0 after a die 0,
        # with the encounter's fresh seed): wait for this prompt to be gone, not its index
        page.wait_for_function("(el) => !el.isConnected", arg=asked, timeout=WAIT_MS)
        tour.clean(f"{where}, die {index}")
    raise AssertionError("too many dice")


def gm_tour(tour: Tour, encounter: str, gm: str, *, previews: bool) -> None:
    """The GM's table: every action's preview, a move played, end of turn, the risk overlay,
    undo, join links; the panels fragment opened by itself."""
    page = tour.open(f"/encounters/{encounter}", token=gm)
    assert TEMPLATE in page.inner_text("main")  # a name, shown as written
    assert page.locator("#map-svg .token").count() == 8
    actions = page.eval_on_selector_all("#do option", "els => els.map(e => e.value)")
    for action in actions if previews else ():
        page.select_option("#do", action)  # its preview: asked at once (the form's change)
        tour.clean(f"gm preview {action}")
    page.select_option("#do", "move")
    page.select_option("#actor", IMG)
    page.fill("#x", "30")
    page.fill("#y", "25")
    page.click("#action-form .buttons button.secondary")  # the odds
    page.wait_for_selector("#preview .preview", timeout=WAIT_MS)
    tour.clean("gm odds")
    played(tour, "#confirm", "gm move")
    played(tour, "#end-turn", "gm end of turn")
    page.select_option("#overlay-select", "hidden")
    page.wait_for_selector("#map-svg image.risk", timeout=WAIT_MS)
    tour.clean("gm risk overlay")
    page.evaluate("() => { document.getElementById('result').innerHTML = ''; }")
    page.click("#undo")
    page.wait_for_selector("#result p.played", timeout=WAIT_MS)
    tour.clean("gm undo")
    page.click("#joins-h ~ button")
    page.wait_for_selector("#joins .join-list", timeout=WAIT_MS)
    tour.clean("gm join links")
    assert page.locator("#joins a[data-join]").count() == 9  # the table and 8 characters
    tour.open(f"/encounters/{encounter}/panels", token=gm)


def player_tour(tour: Tour, encounter: str, created: dict[str, Any], gm: str) -> None:
    """Each character's page by its own link, and as the GM sees it; the table's view."""
    for name, token in created["tokens"]["players"].items():
        tour.open(f"/play/{encounter}", token=token)
        tour.open(f"/play/{encounter}/panel", token=token)
        tour.open(f"/play/{encounter}", token=gm, **{"as": name})
    table = created["tokens"]["table"]
    tour.open(f"/table/{encounter}", token=table)
    tour.open(f"/table/{encounter}/panel", token=table)
    tour.open(f"/table/{encounter}", token=gm)


def error_tour(tour: Tour, encounter: str, gm: str) -> None:
    """Error pages that echo what they were given."""
    for payload in PAYLOADS:
        tour.open(f"/play/{encounter}", token=gm, **{"as": payload})
        tour.open("/encounters/" + quote(payload, safe=""), token=gm)
    tour.open("/", token=SCRIPT)  # a wrong token: the login page


def editor_tour(tour: Tour, gm: str, workspace: Path, saved: str) -> None:
    """The editor on the workspace file: a token and a waypoint chosen, the text edited (the
    server draws the map again), saved under another name; the editor's own upload form."""
    page = tour.open("/editor", file="hostile.yaml", token=gm)
    assert page.locator("#ed-errors .ok").count() == 1
    picture = page.get_attribute("#map-svg image.background", "href") or ""
    assert picture.startswith("/editor/asset/%7B%7B7%2A7%7D%7D%20%26%20%23%3F.png?token=")
    loaded = page.evaluate(  # the body read: the request ends (Tour.quiet waits for it)
        "() => fetch(document.querySelector('#map-svg image.background').getAttribute('href'))"
        ".then(r => r.arrayBuffer().then(() => r.status))"
    )
    assert loaded == 200  # the picture is there, by its encoded name
    tokens = page.locator("#map-svg .token")
    for index in range(tokens.count()):
        tokens.nth(index).click(force=True)  # the select tool: its form
        tour.clean(f"editor token {index}")
    tokens.nth(tokens.count() - 1).click(force=True)
    assert TEMPLATE in page.inner_text("#ed-form")
    page.locator("#map-svg .waypoint").last.click(force=True)
    tour.clean("editor waypoint")
    page.fill("#ed-yaml", page.input_value("#ed-yaml") + "\n# edited\n")
    page.wait_for_function(
        "() => +document.getElementById('ed-mapbox').dataset.overlaySeq > 1", timeout=WAIT_MS
    )
    tour.clean("editor edited")
    page.fill("#ed-save-name", saved)
    page.click("#ed-save")
    page.wait_for_function(
        f"() => document.getElementById('ed-overlay-note').textContent.includes('{saved}')",
        timeout=WAIT_MS,
    )
    tour.clean("editor saved")
    assert (workspace / saved).read_text("utf-8").endswith("# edited\n")
    page = tour.open("/editor", file="breakout.yaml", token=gm)  # the review's file
    assert "map.background" in page.inner_text("#ed-errors")
    upload(tour, hostile(), "editor upload")
    assert tour.page.locator("#ed-errors .ok").count() == 1
    assert SCRIPT in tour.page.input_value("#ed-yaml")
    upload(tour, hostile(BREAKOUT), "editor upload of a refused picture")
    assert "map.background" in tour.page.inner_text("#ed-errors")
    tour.page.evaluate("() => { document.getElementById('ed-errors').innerHTML = ''; }")
    tour.page.fill("#ed-yaml", tour.page.input_value("#ed-yaml") + " ")
    tour.page.wait_for_function(  # the server's errors again, through the script
        "() => document.getElementById('ed-errors').textContent.includes('map.background')",
        timeout=WAIT_MS,
    )
    tour.clean("editor errors redrawn")


def upload(tour: Tour, text: str, where: str) -> None:
    """The editor's own upload form (its token a hidden field, none in the URL)."""
    page = tour.page
    page.locator("details.ed-open").evaluate("el => { el.open = true; }")
    page.set_input_files(
        "#ed-upload", files=[{"name": FILE_NAME, "mimeType": "text/yaml", "buffer": text.encode()}]
    )
    with page.expect_navigation():
        page.locator("#ed-upload ~ button[type=submit]").click()
    assert page.locator("#editor").count() == 1, "the login page, not the editor"
    tour.clean(where)


def calculator_tour(tour: Tour) -> None:
    for payload in PAYLOADS:
        params = {"game": "dnd35", "check": "listen", "lang": "fr", "o.distance": payload}
        params |= {"o.listen": payload, "dice": payload}
        tour.open("/checks", **params)
        assert tour.page.input_value("#o-distance") == payload
        tour.open("/checks/result", **params)
        tour.open("/checks", game=payload, check=payload)


@pytest.mark.parametrize("policy", [True, False], ids=["policy", "no-policy"])
def test_no_script_runs_from_a_hostile_scenario(
    chromium: Any, server: Server, workspace: Path, policy: bool
) -> None:
    gm = server.token
    tour = Tour(chromium, server, policy=policy)
    with server.client() as client:
        refused = client.post(
            "/api/v1/encounters", json={"text": hostile(BREAKOUT), "filename": "x.yaml"}
        )
        assert refused.status_code == 422
        assert "map.background" in problem_of(refused)["detail"] + refused.text
        made = client.post(
            "/api/v1/encounters",
            json={"text": hostile(), "filename": FILE_NAME, "name": ENCOUNTER_NAME},
        )
        assert made.status_code == 201, made.text
        created = made.json()
        given = client.post(
            "/api/v1/encounters",
            json={"text": hostile(), "filename": FILE_NAME, "dice": "given"},
        ).json()
    encounter = created["encounter"]["id"]

    # the list page's own upload form: a new encounter, then its GM page
    page = tour.open("/", token=gm)
    assert ENCOUNTER_NAME in page.inner_text("main")
    page.set_input_files(
        "#file", files=[{"name": FILE_NAME, "mimeType": "text/yaml", "buffer": hostile().encode()}]
    )
    page.fill("#name", ENCOUNTER_NAME)
    with page.expect_navigation():
        page.click("form[enctype] button[type=submit]")
    tour.clean("the GM page of an uploaded scenario")
    assert re.search(r"/encounters/[0-9a-f]+", page.url)
    tour.open("/", token=gm)
    tour.open("/", token=gm, archived="true")

    gm_tour(tour, encounter, gm, previews=True)
    gm_tour(tour, given["encounter"]["id"], gm, previews=False)  # the table's dice asked for
    player_tour(tour, encounter, created, gm)
    error_tour(tour, encounter, gm)
    editor_tour(tour, gm, workspace, f"saved-{'policy' if policy else 'bypassed'}.yaml")
    calculator_tour(tour)
    assert len(tour.visited) > 100
    tour.close()
    assert chromium.taken() == []  # no violation reported (conftest.py checks it too)
