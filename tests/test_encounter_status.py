"""The encounter list shows each encounter's status (issue 36: "turn, who is caught, last
played"), kept with each record so that the list replays nothing.

Worked by hand on tests/scenarios/walk-past-guard.yaml, with the table's dice: the ninja walks
at half speed along y = 62; at x = 25 he is 27.7 cm from the guard at (50, 50), beyond the 20 cm
of half speed: no sight test (SK-V3); at x = 40 he is 15.6 cm away: one 5+ test on the guard's
one die, and the table's 6 sees him (the guard, out of striking reach, cries: SK-G5, the game
goes on)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from vigile.live import Encounter
from vigile.store import Store
from vigile.web.app import create_app

WALK = (Path(__file__).parent / "scenarios" / "walk-past-guard.yaml").read_text("utf-8")
TOKEN = "status-test-token-0123456789"


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with Store(f"sqlite:///{tmp_path / 'status.db'}") as opened:
        yield opened


def test_each_record_keeps_the_encounters_status(store: Store) -> None:
    made, _ = Encounter.create(store, text=WALK, fmt="yaml", source="walk.yaml", dice="given")
    assert store.encounter(made.id).status is None and store.encounter(made.id).played is None
    encounter = Encounter(store, made.id)
    encounter.act({"do": "move", "actor": "Ninja", "to": [25, 62], "speed": "half"})
    encounter.act({"do": "end-turn"})  # 27.7 cm: no test
    row = store.encounter(made.id)
    assert row.status == {"turn": 2, "outcome": None, "out": [], "detected": []}
    assert row.played is not None
    encounter.act({"do": "move", "actor": "Ninja", "to": [40, 62], "speed": "half"})
    encounter.act({"do": "end-turn"}, dice=[6])  # 15.6 cm: 5+, the 6 sees him
    assert store.encounter(made.id).status == {
        "turn": 3,
        "outcome": None,
        "out": [],
        "detected": ["Ninja"],
    }
    encounter.undo()  # the end of turn 2 taken back
    assert store.encounter(made.id).status == {
        "turn": 2,
        "outcome": None,
        "out": [],
        "detected": [],
    }
    listed = {row.id: row for row in store.encounters()}[made.id]
    assert listed.status == store.encounter(made.id).status


def test_the_list_page_shows_turn_detected_and_last_played(store: Store) -> None:
    made, _ = Encounter.create(store, text=WALK, fmt="yaml", source="walk.yaml", dice="given")
    fresh, _ = Encounter.create(store, text=WALK, fmt="yaml", source="walk.yaml", name="Fresh")
    encounter = Encounter(store, made.id)
    encounter.act({"do": "move", "actor": "Ninja", "to": [25, 62], "speed": "half"})
    encounter.act({"do": "end-turn"})
    encounter.act({"do": "move", "actor": "Ninja", "to": [40, 62], "speed": "half"})
    encounter.act({"do": "end-turn"}, dice=[6])
    with TestClient(create_app(store, gm_token=TOKEN)) as client:
        page = client.get(f"/?token={TOKEN}&lang=en").text
        row = page[page.index(f"/encounters/{made.id}?") :]
        row = row[: row.index("</tr>")]
        assert "Turn 3" in row and "detected: Ninja" in row
        assert re.search(r"last played \d{4}-\d\d-\d\d \d\d:\d\d UTC", row)
        other = page[page.index(f"/encounters/{fresh.id}?") :]
        assert "not started" in other[: other.index("</tr>")]
        french = client.get(f"/?token={TOKEN}&lang=fr").text
        assert "Tour 3" in french and "repérés : Ninja" in french
        listed = client.get("/api/v1/encounters", headers={"Authorization": f"Bearer {TOKEN}"})
        shown = {e["id"]: e for e in listed.json()["encounters"]}[made.id]
        assert shown["status"]["detected"] == ["Ninja"] and shown["played"] is not None
