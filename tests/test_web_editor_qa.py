"""The scenario editor in French and with a map that does not validate yet, in-process: what a
designer reads on the page is in the page's language where vigile has the words (the errors
``vigile scenario validate --lang fr`` prints in French, why there is no route), and the menus
of a D&D map whose plan crosses a wall stay D&D's. The browser tests are
tests/test_browser_editor*.py."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from vigile.store import Store
from vigile.web.app import create_app
from vigile.web.editor import configure

TOKEN = "editor-qa-token-0123456789"
AUTH = {"Authorization": f"Bearer {TOKEN}"}

CRYPT = """\
ruleset: dnd35
name: crypt
units: ft
map: {width: 60, height: 40}
walls:
  - {kind: wall, start: [35, 5], end: [35, 35]}
actors:
  - {name: Rogue, side: attackers, position: [8, 30]}
  - {name: Guard, side: defenders, position: [30, 10]}
plans:
  Rogue:
    - {to: [50, 30]}
"""
"""An imported crypt for D&D 3.5, a wall down its middle, no objective; the rogue's one leg
crosses the wall (written as a designer first writes it)."""
CROSSING_LINE = CRYPT.splitlines().index("    - {to: [50, 30]}") + 1
FINE = CRYPT.replace("- {to: [50, 30]}", "- {to: [20, 30]}")
"""The same with a leg on the rogue's side of the wall: it validates."""


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    workspace = tmp_path / "work"
    workspace.mkdir()
    (workspace / "crypt.yaml").write_text(CRYPT, encoding="utf-8")
    store = Store(f"sqlite:///{tmp_path / 'editor.db'}")
    app = create_app(store, gm_token=TOKEN)
    configure(app, workspace=workspace)
    with TestClient(app) as test_client:
        yield test_client
    store.close()


def test_a_keyed_error_reads_in_the_page_s_language(client: TestClient) -> None:
    """``units: cm`` on a D&D map: scene.fr.toml's ``units_mismatch`` says, in French, that
    D&D 3.5 is played in feet; the line is the ``units`` line, 3."""
    text = FINE.replace("units: ft", "units: cm")
    english = client.post(
        "/api/v1/editor/apply", json={"yaml": text, "edit": None, "lang": "en"}, headers=AUTH
    ).json()["errors"]
    french = client.post(
        "/api/v1/editor/apply", json={"yaml": text, "edit": None, "lang": "fr"}, headers=AUTH
    ).json()["errors"]
    assert [(e["line"], e["field"]) for e in english] == [(3, "units")]
    assert english[0]["message"] == "dnd35 is played in ft, not cm"
    assert [(e["line"], e["field"]) for e in french] == [(3, "units")]
    assert french[0]["message"] == "D&D 3.5 se joue en pieds, pas en cm"
    assert french[0]["text"] == "scenario.yaml:3: units: D&D 3.5 se joue en pieds, pas en cm"


def test_the_page_of_a_map_that_does_not_validate(client: TestClient) -> None:
    """Opened in French, the crossing leg's error names its line, and the menus offer D&D's
    ways of moving (the text says ``ruleset: dnd35``), not the first game's."""
    page = client.get(f"/editor?file=crypt.yaml&token={TOKEN}&lang=fr")
    assert page.status_code == 200
    assert f'data-line="{CROSSING_LINE}"' in page.text
    # its board is drawn, the actors on it (not the plan that is wrong), to edit it there
    assert 'id="map-svg"' in page.text and 'data-name="Rogue"' in page.text
    assert 'class="waypoint' not in page.text
    # while editing, an answer that crosses a wall draws no map: the page keeps the last one,
    # its waypoint there to drag back
    crossing = client.post(
        "/api/v1/editor/apply", json={"yaml": CRYPT, "edit": None, "lang": "fr"}, headers=AUTH
    ).json()
    assert crossing["svg"] is None and crossing["errors"]
    game = re.search(
        r'<script type="application/json" id="ed-game">(.*?)</script>', page.text, re.S
    )
    assert game is not None
    assert json.loads(game.group(1))["ruleset"] == "dnd35"
    apply = client.post(
        "/api/v1/editor/apply", json={"yaml": FINE, "edit": None, "lang": "fr"}, headers=AUTH
    ).json()
    assert apply["errors"] == [] and apply["game"]["ruleset"] == "dnd35"
    assert speeds(page.text) == [(s["name"], s["label"]) for s in apply["game"]["speeds"]]
    assert all("DD-" in label for _, label in speeds(page.text))


def speeds(html: str) -> list[tuple[str, str]]:
    """The ways of moving the page's leg menu offers: (name, label)."""
    menu = re.search(r'<select id="ed-speed">(.*?)</select>', html, re.S)
    assert menu is not None
    return re.findall(r'<option value="([^"]+)"[^>]*>([^<]+)</option>', menu.group(1))


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "objective: the scenario has no objective to route to"),
        ("fr", "objective: le scénario n'a pas d'objectif vers où chercher un itinéraire"),
    ],
)
def test_why_there_is_no_route_reads_in_the_page_s_language(
    client: TestClient, lang: str, said: str
) -> None:
    answer = client.post(
        "/api/v1/editor/riskmap",
        json={"yaml": FINE, "attitude": "half"},
        headers={**AUTH, "Accept-Language": lang},
    )
    assert answer.status_code == 200, answer.text
    assert answer.json()["route_error"] == said
    edited = client.post(
        "/api/v1/editor/apply",
        json={"yaml": FINE, "edit": None, "lang": lang, "overlay": {"attitude": "half"}},
        headers=AUTH,
    ).json()
    assert edited["overlay"]["route_error"] == said


def test_the_overlay_after_an_edit_reads_the_scenario_the_edit_checked(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The page asks the overlay of the text ``/apply`` just checked: ``/riskmap`` takes the
    scenario ``/apply`` kept (not read and checked again, a third of a second on a big map),
    and draws that text's board; another text is read and checked."""
    from collections import OrderedDict

    from vigile.scene.loader import check_text as real
    from vigile.web import editor

    monkeypatch.setattr(editor, "_checked", OrderedDict(), raising=False)
    checked: list[str] = []

    def counted(text: str, **options: object) -> object:
        checked.append(text)
        return real(text, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(editor, "check_text", counted)
    move = {"op": "move-actor", "name": "Guard", "to": [20, 20]}
    asked = {"attitude": "half"}
    edited = client.post(
        "/api/v1/editor/apply",
        json={"yaml": FINE, "edit": move, "overlay": asked},
        headers=AUTH,
    ).json()
    assert "position: [20, 20]" in edited["yaml"]
    checked.clear()

    def risk(text: str) -> dict[str, object]:
        answer = client.post("/api/v1/editor/riskmap", json={"yaml": text, **asked}, headers=AUTH)
        assert answer.status_code == 200, answer.text
        found: dict[str, object] = answer.json()
        return found

    kept = risk(edited["yaml"])
    assert checked == []  # the scenario /apply kept
    assert kept["image"] == edited["overlay"]["image"]  # the edited board's risk
    before = risk(FINE)
    assert checked == [FINE]  # a text /apply did not check: read and checked
    assert before["image"] != kept["image"]  # the guard elsewhere
