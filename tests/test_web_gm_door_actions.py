"""The GM form offers opening or closing a door only on a map that has a door to name.

On starfinder-sniper (rubble and an ore cart for cover, no wall, no door) the GM was offered
"open a door"; choosing it said "Indiquez Porte." with an empty list of doors. The maps'
doors are read from the bundled scenarios' own text.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from vigile.scene.loader import bundled_path
from vigile.store import Store
from vigile.web.app import create_app

TOKEN = "gm-door-actions-token-012345678"
AUTH = {"Authorization": f"Bearer {TOKEN}"}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    store = Store(f"sqlite:///{tmp_path / 'doors.db'}")
    with TestClient(create_app(store, gm_token=TOKEN)) as test_client:
        yield test_client
    store.close()


def gm_page(client: TestClient, scenario: str, lang: str) -> str:
    data = {"token": TOKEN, "dice": "rolled", "seed": "7", "scenario": scenario}
    response = client.post("/encounters", data=data, follow_redirects=False)
    assert response.status_code == 303, response.text
    found = re.match(r"/encounters/([0-9a-f]+)\?token=", response.headers["location"])
    assert found is not None
    return client.get(f"/encounters/{found.group(1)}?lang={lang}", headers=AUTH).text


def offered(page: str) -> list[str]:
    """The actions of the GM form's action menu."""
    menu = re.search(r'<select[^>]*name="do"[^>]*>(.*?)</select>', page, re.S)
    assert menu is not None, page
    return re.findall(r'<option value="([^"]+)"', menu.group(1))


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_map_without_a_door_offers_no_door_action(client: TestClient, lang: str) -> None:
    assert "door" not in bundled_path("starfinder-sniper").read_text("utf-8")
    actions = offered(gm_page(client, "starfinder-sniper", lang))
    assert "move" in actions and "snipe" in actions
    assert "open-door" not in actions and "close-door" not in actions


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_map_with_a_door_offers_it_by_name(client: TestClient, lang: str) -> None:
    # starfinder-infiltration.yaml: {kind: door, name: blast door, start: [40, 15], ...}
    page = gm_page(client, "starfinder-infiltration", lang)
    actions = offered(page)
    assert "open-door" in actions and "close-door" in actions
    assert '<option value="blast door">blast door</option>' in page
