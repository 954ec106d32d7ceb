"""French typography on the live pages: a space before the colon ("Objectif : le mât").

The objective's map tooltip read "Objectif: the comms mast" on a French page. The expected
texts are the locale files' words (web.objective) and the scenario's own description.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from vigile.store import Store
from vigile.web.app import create_app

TOKEN = "french-colon-token-0123456789ab"
AUTH = {"Authorization": f"Bearer {TOKEN}"}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    store = Store(f"sqlite:///{tmp_path / 'colon.db'}")
    with TestClient(create_app(store, gm_token=TOKEN)) as test_client:
        yield test_client
    store.close()


def test_the_objectives_tooltip_has_a_space_before_the_colon_in_french(
    client: TestClient,
) -> None:
    data = {"token": TOKEN, "dice": "rolled", "seed": "7", "scenario": "starfinder-sniper"}
    response = client.post("/encounters", data=data, follow_redirects=False)
    assert response.status_code == 303, response.text
    found = re.match(r"/encounters/([0-9a-f]+)\?token=", response.headers["location"])
    assert found is not None
    # starfinder-sniper.yaml: objective {description: the comms mast, at: [86, 4], radius: 4}
    french = client.get(f"/encounters/{found.group(1)}?lang=fr", headers=AUTH).text
    assert "<title>Objectif : the comms mast</title>" in french
    assert "Objectif:" not in french
    english = client.get(f"/encounters/{found.group(1)}?lang=en", headers=AUTH).text
    assert "<title>Objective: the comms mast</title>" in english
