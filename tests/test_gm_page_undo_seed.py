"""Two things a GM hit (issue 36): undo says what it undid, and a new raid draws a fresh seed,
shown on the GM page, unless one is typed (the bundled night raid's own seed, 1603, made every
new raid repeat the same patrol dice)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from vigile.store import Store
from vigile.web.app import create_app

TOKEN = "undo-seed-token-0123456789"
AUTH = {"Authorization": f"Bearer {TOKEN}"}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with (
        Store(f"sqlite:///{tmp_path / 'pages.db'}") as store,
        TestClient(create_app(store, gm_token=TOKEN)) as test_client,
    ):
        yield test_client


def start(client: TestClient, **form: str) -> str:
    response = client.post(
        "/encounters",
        data={"token": TOKEN, "scenario": "night-raid", "dice": "rolled", **form},
        follow_redirects=False,
    )
    assert response.status_code == 303, response.text
    found = re.match(r"/encounters/([0-9a-f]+)\?token=", response.headers["location"])
    assert found is not None
    return found.group(1)


def seed_of(client: TestClient, encounter: str) -> int:
    page = client.get(f"/encounters/{encounter}?token={TOKEN}&lang=en").text
    shown = re.search(r"seed (\d+)", page)
    assert shown is not None
    return int(shown.group(1))


def test_a_new_raid_draws_a_fresh_seed_unless_one_is_typed(client: TestClient) -> None:
    first, second = start(client), start(client)
    seeds = {seed_of(client, first), seed_of(client, second)}
    assert len(seeds) == 2 and 1603 not in seeds  # 1 chance in 2^63 each of a clash
    api = client.get(f"/api/v1/encounters/{first}", headers=AUTH).json()
    assert api["seed"] == seed_of(client, first)
    assert seed_of(client, start(client, seed="1603")) == 1603


def test_undo_says_what_it_undid(client: TestClient) -> None:
    encounter = start(client, seed="7")
    move = {"do": "move", "actor": "Kage", "to": [60, 10], "speed": "half"}
    played = client.post(
        f"/api/v1/encounters/{encounter}/actions", json={"action": move}, headers=AUTH
    )
    assert played.status_code == 200, played.text
    undone = client.post(f"/encounters/{encounter}/undo?lang=en", headers=AUTH)
    assert "Record 1 undone: Kage: move → (60, 10)." in undone.text
    client.post(f"/api/v1/encounters/{encounter}/actions", json={"action": move}, headers=AUTH)
    french = client.post(f"/encounters/{encounter}/undo?lang=fr", headers=AUTH)
    assert "Entrée 3 annulée : Kage : se déplacer → (60 ; 10)" in french.text
