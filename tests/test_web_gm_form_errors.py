"""The GM form's badly typed numbers and bearings are said in the page's language.

A French GM who typed ``4a`` for a point's x, or a scatter die of 400°, read the parser's
English (``x: '4a' is not a number``) on a French page. The texts are worked out from the
locale files' wording, not from the program's output.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from vigile.store import Store
from vigile.web.app import create_app

TOKEN = "gm-form-errors-token-0123456789"
AUTH = {"Authorization": f"Bearer {TOKEN}"}

CLOSE = """
ruleset: skirmish
name: Close to the guard
map: {width: 110, height: 100}
turns: 10
actors:
  - {name: Ninja, side: attackers, position: [44, 50], dice: {ninjitsu: 1}}
  - {name: Guard, side: defenders, position: [50, 50], dice: 1}
"""


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    store = Store(f"sqlite:///{tmp_path / 'gm.db'}")
    with TestClient(create_app(store, gm_token=TOKEN)) as test_client:
        yield test_client
    store.close()


def start(client: TestClient) -> str:
    files = {"file": ("t.yaml", CLOSE.encode(), "application/yaml")}
    data = {"token": TOKEN, "dice": "rolled", "seed": "7"}
    response = client.post("/encounters", data=data, files=files, follow_redirects=False)
    assert response.status_code == 303, response.text
    found = re.match(r"/encounters/([0-9a-f]+)\?token=", response.headers["location"])
    assert found is not None
    return found.group(1)


def said(client: TestClient, encounter: str, endpoint: str, lang: str, form: dict[str, str]) -> str:
    response = client.post(
        f"/encounters/{encounter}/{endpoint}?lang={lang}", data=form, headers=AUTH
    )
    assert response.status_code == 200, response.text
    text = re.sub(r"<[^>]+>", " ", response.text).replace("&#39;", "'").replace("&#34;", '"')
    return re.sub(r"\s+", " ", text).replace("&quot;", '"')


MOVE = {"do": "move", "actor": "Ninja", "x": "4a", "y": "50", "speed": "half"}


@pytest.mark.parametrize("endpoint", ["preview", "act"])
def test_a_point_typed_wrong_is_said_in_french_and_in_english(
    client: TestClient, endpoint: str
) -> None:
    encounter = start(client)
    french = said(client, encounter, endpoint, "fr", MOVE)
    assert "x : « 4a » n'est pas un nombre" in french
    assert "is not a number" not in french
    english = said(client, encounter, endpoint, "en", MOVE)
    assert 'x: "4a" is not a number' in english


def test_a_scatter_die_typed_wrong_is_said_in_french_and_in_english(client: TestClient) -> None:
    encounter = start(client)
    form = {"do": "end-turn", "bearings": "400"}
    french = said(client, encounter, "act", "fr", form)
    assert "Dés de dispersion déjà saisis : 400 n'est pas une direction de 0 à 360 degrés" in french
    assert "is not a bearing" not in french
    english = said(client, encounter, "act", "en", form)
    assert "Scatter dice so far: 400 is not a bearing from 0 to 360 degrees" in english
    decimal = said(client, encounter, "act", "fr", {"do": "end-turn", "bearings": "361,5"})
    assert "361,5 n'est pas une direction" in decimal
    word = said(client, encounter, "act", "fr", {"do": "end-turn", "bearings": "nord"})
    assert "Dés de dispersion déjà saisis : « nord » n'est pas un nombre" in word


@pytest.mark.parametrize("endpoint", ["preview", "act"])
def test_the_scatter_actions_bearing_out_of_range_is_said_in_french(
    client: TestClient, endpoint: str
) -> None:
    # the GM types a patrol's scatter die (LP-6) of 400: a bearing runs from 0 up to 360
    encounter = start(client)
    form = {"do": "scatter", "actor": "Guard", "scatter.bearing": "400"}
    french = said(client, encounter, endpoint, "fr", form)
    assert "400 n'est pas une direction de 0 à 360 degrés" in french
    assert "Input should be" not in french and "action.scatter" not in french
