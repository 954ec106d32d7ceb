"""The API takes what its schema says and nothing else (issue 34): a JSON body's integer is an
integer (``"5"``, ``5.0`` and ``true`` are not), its boolean a boolean (``"false"`` and ``0`` are
not), and a query parameter the route does not declare is refused; a form's fields are text and
keep being read as such. The OpenAPI schema documents every error as the problem it is."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from vigile.store import Store
from vigile.web import create_app
from vigile.web.problems import MEDIA_TYPE

TOKEN = "strict-test-token-0123456789"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
END_TURN = {"do": "end-turn"}


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    store = Store(f"sqlite:///{tmp_path_factory.mktemp('strict') / 'strict.db'}")
    with TestClient(create_app(store, gm_token=TOKEN)) as test_client:
        yield test_client
    store.close()


def encounter(client: TestClient) -> str:
    response = client.post("/api/v1/encounters", json={"scenario": "night-raid"}, headers=AUTH)
    assert response.status_code == 201, response.text
    found: str = response.json()["encounter"]["id"]
    return found


def refused(response: Any, field: str) -> None:
    assert response.status_code == 422, response.text
    assert response.headers["content-type"] == MEDIA_TYPE
    assert field in response.json()["detail"], response.json()


@pytest.mark.parametrize("seed", ["5", 5.0, True, [5]])
def test_a_new_encounters_seed_is_an_integer_not_its_text(client: TestClient, seed: Any) -> None:
    response = client.post(
        "/api/v1/encounters", json={"scenario": "night-raid", "seed": seed}, headers=AUTH
    )
    refused(response, "seed")


@pytest.mark.parametrize(
    ("field", "value"),
    [("expect_seq", "1"), ("expect_seq", 1.0), ("view", "false"), ("view", 0), ("dice", ["4"])],
)
def test_an_actions_numbers_and_flags_are_json_ones(
    client: TestClient, field: str, value: Any
) -> None:
    played = encounter(client)
    response = client.post(
        f"/api/v1/encounters/{played}/actions",
        json={"action": END_TURN, field: value},
        headers=AUTH,
    )
    refused(response, field)


def test_undo_and_the_checks_seed_are_strict_too(client: TestClient) -> None:
    played = encounter(client)
    response = client.post(
        f"/api/v1/encounters/{played}/undo", json={"expect_seq": "1"}, headers=AUTH
    )
    refused(response, "expect_seq")
    response = client.post(
        "/api/v1/checks/skirmish/sight",
        json={"options": {"attitude": "half", "distance": 5}, "seed": "3"},
    )
    refused(response, "seed")


def test_the_real_types_are_taken(client: TestClient) -> None:
    response = client.post(
        "/api/v1/encounters", json={"scenario": "night-raid", "seed": 5}, headers=AUTH
    )
    assert response.status_code == 201 and response.json()["encounter"]["seed"] == 5
    played = response.json()["encounter"]["id"]
    response = client.post(
        f"/api/v1/encounters/{played}/actions",
        json={"action": END_TURN, "expect_seq": 1, "view": False},
        headers=AUTH,
    )
    assert response.status_code == 200 and "view" not in response.json()


def test_a_forms_fields_are_text_and_still_read_as_numbers(client: TestClient) -> None:
    """The upload is a form: its seed comes as text, and is read as the integer it spells."""
    scenario = (Path(__file__).parents[1] / "src/vigile/scenarios/night-raid.yaml").read_bytes()
    response = client.post(
        "/api/v1/encounters/upload",
        files={"file": ("night-raid.yaml", scenario)},
        data={"seed": "7"},
        headers=AUTH,
    )
    assert response.status_code == 201, response.text
    assert response.json()["encounter"]["seed"] == 7


def test_an_unknown_query_parameter_is_refused(client: TestClient) -> None:
    response = client.get("/api/v1/encounters?limt=5", headers=AUTH)
    refused(response, "'limt'")
    assert client.get("/api/v1/encounters?limit=5&lang=fr", headers=AUTH).status_code == 200
    assert client.get(f"/api/v1/encounters?token={TOKEN}").status_code == 200


def test_the_schema_documents_every_error_as_a_problem(client: TestClient) -> None:
    document = client.get("/openapi.json").json()
    assert "HTTPValidationError" not in document["components"]["schemas"]
    problem = document["components"]["schemas"]["Problem"]
    assert problem["required"] == ["type", "title", "status"]
    for path, item in document["paths"].items():
        for method, operation in item.items():
            responses = operation["responses"]
            assert "4XX" in responses and "5XX" in responses, (method, path)
            for code, response in responses.items():
                if code[0] in "45":
                    assert list(response["content"]) == [MEDIA_TYPE], (method, path, code)
    stream = document["paths"]["/api/v1/encounters/{encounter_id}/stream"]["get"]
    assert "429" in stream["responses"]


NIGHT_RAID = (Path(__file__).parents[1] / "src/vigile/scenarios/night-raid.yaml").read_text("utf-8")


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("simulate", {"runs": "5"}, "runs"),
        ("simulate", {"seed": 1.0}, "seed"),
        ("riskmap", {"grid": "true"}, "grid"),
        ("riskmap", {"resolution": "2"}, "resolution"),
        ("apply", {"lang": 1}, "lang"),
        ("apply", {"colour": "red"}, "colour"),
        ("sweep", {"vary": [{"field": "x", "start": "0", "stop": 1, "step": 1}]}, "start"),
        ("save", {"file": "a.yaml", "confirm": "true"}, "confirm"),
    ],
)
def test_the_editors_api_takes_json_types_too(
    client: TestClient, path: str, body: dict[str, Any], field: str
) -> None:
    """The editor's routes under ``/api/v1/editor`` (their models were lax: ``"5"`` ran 5
    games)."""
    response = client.post(
        f"/api/v1/editor/{path}", json={"yaml": NIGHT_RAID, **body}, headers=AUTH
    )
    refused(response, field)


def test_the_editors_api_refuses_a_query_it_does_not_declare(client: TestClient) -> None:
    response = client.post(
        "/api/v1/editor/apply?limt=5", json={"yaml": NIGHT_RAID, "lang": "fr"}, headers=AUTH
    )
    refused(response, "limt")
    fine = client.post(
        "/api/v1/editor/apply", json={"yaml": NIGHT_RAID, "lang": "fr"}, headers=AUTH
    )
    assert fine.status_code == 200, fine.text
