"""Each game's pages offer its own words: the GM page's action form and risk overlay, and the
editor's menus, read the game's vocabulary (:mod:`vigile.scene.vocabulary`). A D&D 3.5 map
offers no skirmish speed ("hidden") and no grapple; a skirmish map no "runs (DD-5, DD-20)"."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from vigile import registry
from vigile.scene.loader import bundled_path
from vigile.scene.vocabulary import vocabulary_issues, vocabulary_of
from vigile.store import Store
from vigile.web.app import create_app
from vigile.web.editor import configure

TOKEN = "vocabulary-test-token-0123456789"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
MAPS = {
    "skirmish": "night-raid",
    "dnd35": "dnd35-invisible-intruder",
    "starfinder": "starfinder-infiltration",
}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    store = Store(f"sqlite:///{tmp_path / 'words.db'}")
    app = create_app(store, gm_token=TOKEN)
    configure(app, workspace=tmp_path)
    with TestClient(app) as test_client:
        yield test_client
    store.close()


def options(page: str, select_id: str) -> dict[str, str]:
    """The options of the ``<select id=...>``: value -> the text shown."""
    found = re.search(rf'<select id="{select_id}"[^>]*>(.*?)</select>', page, flags=re.DOTALL)
    assert found is not None, select_id
    return {
        html.unescape(value): html.unescape(text).strip()
        for value, text in re.findall(
            r'<option value="([^"]*)"[^>]*>(.*?)</option>', found.group(1), flags=re.DOTALL
        )
    }


def gm_page(client: TestClient, scenario: str, lang: str = "en") -> str:
    response = client.post("/api/v1/encounters", json={"scenario": scenario}, headers=AUTH)
    assert response.status_code == 201, response.text
    encounter = response.json()["encounter"]["id"]
    page = client.get(f"/encounters/{encounter}?token={TOKEN}&lang={lang}")
    assert page.status_code == 200
    return page.text


@pytest.mark.parametrize("game", registry.BUILTIN)
def test_each_built_in_vocabulary_is_sound(game: str) -> None:
    assert vocabulary_issues(vocabulary_of(game)) == []


def test_the_gm_page_of_a_d20_map_offers_d20_words(client: TestClient) -> None:
    """D&D 3.5: a move is still, at most half or more than half speed (DD-3, DD-5, DD-20) and
    may run (DD-5, DD-20); no skirmish "hidden", no grapple; the risk overlay's ways are
    still, half, full, run."""
    page = gm_page(client, MAPS["dnd35"])
    assert options(page, "move-speed") == {
        "half": "at most half speed (DD-5, DD-20)",
        "fast": "more than half speed (DD-5, DD-20)",
        "immobile": "still (DD-3)",
    }
    assert 'name="move.run"> runs (DD-5, DD-20)' in page
    assert 'name="move.climb"' not in page
    actions = options(page, "do")
    assert "throw-grapple" not in actions and "snipe" not in actions
    assert actions["attack-square"] == "attack a square (DD-9)"
    assert list(options(page, "overlay-select")) == ["", "still", "half", "full", "run"]
    french = gm_page(client, MAPS["dnd35"], "fr")
    assert options(french, "move-speed")["half"] == "demi-vitesse au plus (DD-5, DD-20)"
    assert 'name="move.run"> court (DD-5, DD-20)' in french


def test_the_gm_page_of_a_starfinder_map_snipes_and_does_not_attack_a_square(
    client: TestClient,
) -> None:
    page = gm_page(client, MAPS["starfinder"])
    actions = options(page, "do")
    assert actions["snipe"] == "snipe (SF-10, LP-3)"
    assert "attack-square" not in actions and "throw-grapple" not in actions
    assert 'name="move.run"> runs (SF-3)' in page


def test_the_gm_page_of_a_skirmish_map_offers_skirmish_words(client: TestClient) -> None:
    """Skirmish: hidden cover to cover (SK-V3), half and full speed (SK-N3), climbing on a
    grapple (SK-N2); no run, no d20 action."""
    page = gm_page(client, MAPS["skirmish"])
    assert options(page, "move-speed") == {
        "half": "half speed (SK-N3)",
        "fast": "full speed (SK-N3, SK-V3)",
        "hidden": "hidden, cover to cover (SK-V3)",
        "immobile": "immobile (SK-V3)",
    }
    assert 'name="move.run"' not in page
    assert 'name="move.climb"> climbs, on a grapple (SK-N2)' in page
    actions = options(page, "do")
    assert actions["throw-grapple"] == "throw a grapple (SK-N2)"
    assert not {"attack-square", "snipe", "cast-invisibility"} & set(actions)
    assert list(options(page, "overlay-select")) == ["", "hidden", "immobile", "half", "fast"]


@pytest.mark.parametrize("game", registry.BUILTIN)
def test_the_editor_offers_the_game_s_words(client: TestClient, game: str, tmp_path: Path) -> None:
    """The editor's menus (speed, risk overlay) and the words its forms read (#ed-game) are
    the game's; a changed ruleset brings the other game's words with the next edit."""
    (tmp_path / "map.yaml").write_text(bundled_path(MAPS[game]).read_text("utf-8"))
    page = client.get(f"/editor?file=map.yaml&token={TOKEN}&lang=en")
    assert page.status_code == 200
    words = vocabulary_of(game)
    assert list(options(page.text, "ed-speed")) == list(words.names("speeds"))
    assert list(options(page.text, "ed-attitude")) == list(words.names("overlays"))
    script = re.search(r'<script type="application/json" id="ed-game">(.*?)</script>', page.text)
    assert script is not None and f'"ruleset": "{game}"' in html.unescape(script.group(1))
    answer = client.post(
        "/api/v1/editor/apply",
        json={"yaml": bundled_path(MAPS[game]).read_text("utf-8"), "lang": "fr"},
        headers=AUTH,
    ).json()
    shown = answer["game"]
    assert [a["name"] for a in shown["actions"]] == list(words.names("actions"))
    assert [s["name"] for s in shown["stats"]] == list(words.names("stats"))
    assert [m["name"] for m in shown["moves"]] == list(words.names("moves"))


def test_the_editor_s_stats_say_how_they_are_typed(client: TestClient) -> None:
    """D&D 3.5's Spot is a number inside ``bonuses``; skirmish's outfit a choice, its ninja a
    switch; setting ``bonuses.spot`` writes it inside the actor's bonuses."""
    text = bundled_path(MAPS["dnd35"]).read_text("utf-8")
    shown = client.post("/api/v1/editor/apply", json={"yaml": text}, headers=AUTH).json()
    stats = {s["name"]: s for s in shown["game"]["stats"]}
    assert stats["bonuses.spot"]["kind"] == "number"
    assert stats["bonuses.spot"]["label"] == "Spot (DD-3)"
    assert stats["invisible"]["kind"] == "flag"
    skirmish = client.post(
        "/api/v1/editor/apply",
        json={"yaml": bundled_path(MAPS["skirmish"]).read_text("utf-8")},
        headers=AUTH,
    ).json()["game"]
    kinds = {s["name"]: s for s in skirmish["stats"]}
    assert kinds["outfit"]["choices"] == ["normal", "unsuited"]
    assert kinds["ninja"]["kind"] == "flag"
    guard = next(a["name"] for a in shown["actors"] if a["side"] == "defenders")
    edited = client.post(
        "/api/v1/editor/apply",
        json={
            "yaml": text,
            "edit": {"op": "set-actor", "name": guard, "field": "bonuses.spot", "value": 7},
        },
        headers=AUTH,
    ).json()
    assert edited["errors"] == []
    from vigile.scene.loader import parse_scenario

    assert parse_scenario(edited["yaml"]).actor(guard).bonuses.spot == 7  # type: ignore[union-attr]
