"""LP-5: a blow from an unseen attacker gives the square it came from, not the name.

For each game, a blow by an attacker its victim does not perceive, as the victim's page, the
table's shared screen and the events (JSON) tell it. Worked out from RULES.md:

- D&D 3.5, dnd35-rogue-sneak-attack: Sable, invisible (DD-1), at (17, 20), square (3, 4),
  strikes Guard Osric at (22, 20), square (4, 4), next to her (LP-7). Struck by an invisible
  creature, he knows where it is (DD-7): the square (3, 4), its centre (17.5, 22.5).
- Starfinder, starfinder-sniper with Ix put at (60, 20), square (12, 4): Ix, invisible
  (unseen, SF-11), strikes Sentry Kade at (65, 20), square (13, 4), from the next square: an
  unseen creature that attacks in melee from an adjacent square reveals its location (SF-11),
  the centre (62.5, 22.5).
- Starfinder, Vex's shot from the rubble at (5, 20), 60 ft from Kade: a shot is no blow
  (LP-7 tells a melee blow from a shot); SF-11 says only an adjacent melee attack reveals the
  square, and a sniper rolls to stay hidden (SF-10): Kade knows something is there
  (``presence``, SF-11 [R]), no square, no name.
- Skirmish: a guard struck and not silenced sees his attacker (SK-G5 [R], ``alarm.struck_sees``):
  the attacker is not unseen, nothing of LP-5's blow applies (tests/test_lp5_secrets.py).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from vigile.io.i18n import Lang
from vigile.live import Encounter, character_view, table_view
from vigile.scene.loader import bundled_path
from vigile.store import Store
from vigile.web.app import create_app

TOKEN = "lp5-blow-square-token-012345678"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
IX_NEXT_TO_KADE = ("position: [40, 5]", "position: [60, 20]")


@pytest.fixture()
def store(tmp_path: Path) -> Iterator[Store]:
    opened = Store(f"sqlite:///{tmp_path / 'blow.db'}")
    yield opened
    opened.close()


def encounter_of(store: Store, name: str, seed: int, text: str) -> Encounter:
    encounter, _ = Encounter.create(store, text=text, fmt="yaml", source=f"{name}.yaml", seed=seed)
    return encounter


def learned(view: dict[str, Any]) -> list[dict[str, Any]]:
    return [e for e in view["events"] if e["event"] == "perceive"]


CASES = [
    (
        "dnd35-rogue-sneak-attack",
        1,
        None,
        {"do": "strike", "actor": "Sable", "target": "Guard Osric"},
        "Guard Osric",
        "Sable",
        [17.5, 22.5],
    ),
    (
        "starfinder-sniper",
        10,
        IX_NEXT_TO_KADE,
        {"do": "strike", "actor": "Ix", "target": "Sentry Kade"},
        "Sentry Kade",
        "Ix",
        [62.5, 22.5],
    ),
]


@pytest.mark.parametrize(("name", "seed", "moved", "blow", "victim", "attacker", "square"), CASES)
def test_LP5_a_melee_blow_from_an_unseen_attacker_gives_its_square_in_every_view(
    store: Store,
    name: str,
    seed: int,
    moved: tuple[str, str] | None,
    blow: dict[str, str],
    victim: str,
    attacker: str,
    square: list[float],
) -> None:
    text = bundled_path(name).read_text("utf-8")
    encounter = encounter_of(store, name, seed, text.replace(*moved) if moved else text)
    encounter.act(blow)
    for lang in (Lang.EN, Lang.FR):
        page = character_view(encounter, encounter.state(), victim, lang)
        table = table_view(encounter, encounter.state(), lang)
        for view in (page, table):
            assert attacker not in json.dumps(view, ensure_ascii=False)  # the square, not the name
            found = learned(view)
            assert [e["at"] for e in found] == [square], found
            assert found[0]["target"] is None
        assert {"name": None, "awareness": "location", "at": square} in page["known"]
        assert {"name": None, "at": square, "awareness": "location"} in table["intruders"]


def test_LP5_a_shot_from_hiding_gives_presence_only_no_square_no_name(store: Store) -> None:
    text = bundled_path("starfinder-sniper").read_text("utf-8")
    encounter = encounter_of(store, "starfinder-sniper", 10, text)
    encounter.act({"do": "snipe", "actor": "Vex", "target": "Sentry Kade"})
    page = character_view(encounter, encounter.state(), "Sentry Kade", Lang.EN)
    table = table_view(encounter, encounter.state(), Lang.EN)
    assert page["known"] == [{"name": None, "awareness": "presence"}]
    assert table["intruders"] == []
    for view in (page, table):
        assert "Vex" not in json.dumps(view)
        assert [e["at"] for e in learned(view)] == [None]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    opened = Store(f"sqlite:///{tmp_path / 'pages.db'}")
    with TestClient(create_app(opened, gm_token=TOKEN)) as test_client:
        yield test_client
    opened.close()


def test_LP5_the_victims_page_and_the_table_say_the_square_in_words(client: TestClient) -> None:
    text = bundled_path("starfinder-sniper").read_text("utf-8").replace(*IX_NEXT_TO_KADE)
    created = client.post(
        "/api/v1/encounters", json={"text": text, "format": "yaml", "seed": 10}, headers=AUTH
    )
    assert created.status_code == 201, created.text
    body = created.json()
    encounter, tokens = body["encounter"]["id"], body["tokens"]
    acted = client.post(
        f"/api/v1/encounters/{encounter}/actions",
        json={"action": {"do": "strike", "actor": "Ix", "target": "Sentry Kade"}},
        headers=AUTH,
    )
    assert acted.status_code in (200, 201), acted.text
    kade = tokens["players"]["Sentry Kade"]
    page = client.get(f"/play/{encounter}?token={kade}&lang=fr").text
    # fr.toml: location = "connaît la case"; a French point is (62,5 ; 22,5)
    assert "quelqu&#39;un</strong> : connaît la case (62,5 ; 22,5)" in page
    assert 'connaît la case [SF-11] <span class="ev-at">(62,5 ; 22,5)</span>' in page
    table = client.get(f"/table/{encounter}?token={tokens['table']}&lang=en").text
    assert 'knows the square [SF-11] <span class="ev-at">(62.5, 22.5)</span>' in table
    for shown in (page, table):
        assert "Ix" not in shown
