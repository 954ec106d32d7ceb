"""The store's limits as the server answers them (issue 34): a cap on live encounters, a 409
problem (kind ``limit``) beyond it; a listing with ``limit=1`` reads one row of settings and no
scenario's text."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event

from vigile.store import Store
from vigile.web import limits
from vigile.web.app import create_app

TOKEN = "limits-server-token-0123456789"
AUTH = {"Authorization": f"Bearer {TOKEN}"}


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with Store(f"sqlite:///{tmp_path / 'limits.db'}") as opened:
        yield opened


@pytest.fixture
def client(store: Store) -> Iterator[TestClient]:
    with TestClient(create_app(store, gm_token=TOKEN)) as test_client:
        yield test_client


def _create(client: TestClient) -> Any:
    return client.post("/api/v1/encounters", json={"scenario": "night-raid"}, headers=AUTH)


def test_the_cap_is_documented() -> None:
    readme = (Path(__file__).parents[1] / "README.md").read_text("utf-8")
    assert f"{limits.MAX_ENCOUNTERS:,}" in readme and "MAX_ENCOUNTERS" in readme


def test_a_full_server_refuses_a_new_encounter_with_a_problem(
    client: TestClient, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(limits, "MAX_ENCOUNTERS", 2)
    first = _create(client)
    assert first.status_code == 201 and _create(client).status_code == 201
    refused = _create(client)
    assert refused.status_code == 409
    assert refused.headers["content-type"].startswith("application/problem+json")
    problem = refused.json()
    assert problem["type"].endswith("limit") and problem["status"] == 409
    assert "at most 2 live encounters" in problem["detail"]
    assert store.count_encounters() == 2
    # The page's form says so too, and stores nothing.
    page = client.post("/encounters", data={"token": TOKEN, "scenario": "night-raid"})
    assert page.status_code == 422 and "at most 2 live encounters" in page.text
    assert store.count_encounters() == 2
    # Archiving one frees its place.
    encounter = first.json()["encounter"]["id"]
    assert client.delete(f"/api/v1/encounters/{encounter}", headers=AUTH).status_code == 204
    assert _create(client).status_code == 201


def test_a_listing_of_one_reads_one_row_and_no_scenario(client: TestClient, store: Store) -> None:
    for _ in range(3):
        assert _create(client).status_code == 201
    statements: list[str] = []

    def record(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        statements.append(statement)

    event.listen(store._engine, "before_cursor_execute", record)
    listed = client.get("/api/v1/encounters", params={"limit": 1}, headers=AUTH)
    assert listed.status_code == 200 and len(listed.json()["encounters"]) == 1
    assert statements and not any(re.search(r"\bscenario\b", s) for s in statements)
