"""LP-5: no screen tells a viewer what it did not perceive (the leak walker).

Every bundled scenario is played turn by turn by its plans, several seeds; after each turn every
viewer (the GM, the table's shared screen, each character) is shown its view in French and
English, and the walker fails on:

- a **name**: an enemy named to a viewer who never knew who it was (observed it, or knew its
  position beforehand, SK-G3); the table's shared screen knows the defenders, and an intruder
  only once some defender observed it (unless the scenario opens the table);
- a **position**: an enemy's square told to a viewer who neither observes nor has located it
  at that moment (the table: no living defender has);
- a **count**: a character's or the table's sequence number is more than the events it was
  told (nobody counts the GM's unseen actions).

Then the same through the pages, the JSON views and the streams of a live encounter of each
scenario, served by the web app over a real store.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from fastapi.testclient import TestClient

from vigile.awareness.ladder import AwarenessState
from vigile.engine.game import Game
from vigile.engine.run import new_game
from vigile.engine.state import Walker
from vigile.io.i18n import Lang
from vigile.live import Encounter, character_view, gm_view, table_view
from vigile.live.encounter import Replayed
from vigile.scene.actors import Side
from vigile.scene.loader import bundled_names, bundled_path, load_scenario
from vigile.store import Store
from vigile.web.app import create_app
from vigile.web.sse import Subscriber

SEEDS = (1, 2, 3)
TURNS = 12
"""Turns walked per game: enough for the bundled plans' detections, alarms and blows."""
LANGS = (Lang.EN, Lang.FR)


def word(name: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w]){re.escape(name)}(?![\w])")


def pairs(data: Any) -> Iterator[tuple[float, float]]:
    """Every [x, y] pair of numbers anywhere in a JSON value."""
    if isinstance(data, list):
        if len(data) == 2 and all(isinstance(v, int | float) for v in data):
            yield (float(data[0]), float(data[1]))
        for item in data:
            yield from pairs(item)
    elif isinstance(data, dict):
        for item in data.values():
            yield from pairs(item)


def located(viewer: Walker, enemy: Walker) -> bool:
    return viewer.aware_of(enemy.name) in (AwarenessState.LOCATION, AwarenessState.OBSERVED)


class Knowledge:
    """What each viewer has known, turn after turn: the names it may read."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.names: dict[str, set[str]] = {
            w.name: {a.name for a in game.walkers if a.side is w.side} for w in game.walkers
        }
        self.names["table"] = {w.name for w in game.walkers if w.side is Side.DEFENDERS}
        if game.scenario.open_table:
            self.names["table"] |= {w.name for w in game.walkers}
        self.places: dict[str, set[tuple[float, float]]] = {viewer: set() for viewer in self.names}
        """Where each viewer perceived an enemy at some moment (a defender's are the table's)."""

    def update(self) -> None:
        for viewer in self.game.walkers:
            for other in self.game.walkers:
                if self.game.knows_who(viewer, other):
                    self.names[viewer.name].add(other.name)
                    if viewer.side is Side.DEFENDERS:
                        self.names["table"].add(other.name)
                if other.side is not viewer.side and (
                    located(viewer, other) or self.game.knows_who(viewer, other)
                ):
                    place = (round(other.x, 2), round(other.y, 2))
                    self.places[viewer.name].add(place)
                    if viewer.side is Side.DEFENDERS:
                        self.places["table"].add(place)

    def unknown(self, viewer: str) -> list[str]:
        return [w.name for w in self.game.walkers if w.name not in self.names[viewer]]


def hidden_places(game: Game, viewer: str) -> list[tuple[float, float]]:
    """The true places of the enemies this viewer neither observes nor has located now."""
    if viewer == "table":
        if game.scenario.open_table:
            return []
        watchers = [w for w in game.walkers if w.side is Side.DEFENDERS and w.alive]
        return [
            (round(w.x, 2), round(w.y, 2))
            for w in game.walkers
            if w.side is Side.ATTACKERS and not any(located(d, w) for d in watchers)
        ]
    me = game.by_name[viewer]
    return [
        (round(w.x, 2), round(w.y, 2))
        for w in game.walkers
        if w.side is not me.side and not located(me, w) and not game.knows_who(me, w)
    ]


def assert_no_leak(game: Game, knowledge: Knowledge, viewer: str, view: dict[str, Any]) -> None:
    # the scenario's own title may name its characters: the author wrote it for everyone
    text = json.dumps(view, ensure_ascii=False).replace(game.scenario.name, "")
    for name in knowledge.unknown(viewer):
        assert not word(name).search(text), f"{viewer} is told the name {name!r}: {text}"
    shown = set(pairs(view))
    own = None if viewer == "table" else tuple(view["me"]["at"])
    for place in hidden_places(game, viewer):
        if place != own and place not in knowledge.places[viewer]:
            assert place not in shown, f"{viewer} is told the square {place}: {text}"
    assert view["seq"] == len(view["events"]), f"{viewer} can count: {view['seq']}"


def views(game: Game, lang: Lang) -> Iterator[tuple[str, dict[str, Any]]]:
    encounter: Any = SimpleNamespace(id="walker", row=SimpleNamespace(dice="rolled"))
    replayed = Replayed(game)
    gm_view(encounter, replayed, lang)  # the GM sees everything: it only has to render
    yield "table", table_view(encounter, replayed, lang)
    for walker in game.walkers:
        yield walker.name, character_view(encounter, replayed, walker.name, lang)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("name", bundled_names())
def test_LP5_no_view_tells_a_name_a_square_or_a_count_not_perceived(name: str, seed: int) -> None:
    game = new_game(load_scenario(bundled_path(name)), seed=seed)
    knowledge = Knowledge(game)
    while game.outcome is None and game.turn < min(TURNS, game.scenario.turns):
        game.play_turn()
        knowledge.update()
        for lang in LANGS:
            for viewer, view in views(game, lang):
                assert_no_leak(game, knowledge, viewer, view)


# ------------------------------------------------------------------ through the web


@pytest.fixture()
def store(tmp_path: Path) -> Iterator[Store]:
    opened = Store(f"sqlite:///{tmp_path / 'walker.db'}")
    yield opened
    opened.close()


@pytest.fixture()
def client(store: Store) -> Iterator[TestClient]:
    with TestClient(create_app(store, gm_token="gm-secret")) as test_client:
        yield test_client


def live_steps(game: Game) -> list[dict[str, Any]]:
    """A few GM actions of live play: each living intruder waits, then the turn ends."""
    return [
        *({"do": "wait", "actor": w.name} for w in game.intruders()),
        {"do": "end-turn"},
    ]


@pytest.mark.parametrize("name", bundled_names())
def test_LP5_pages_views_and_streams_of_a_live_encounter(
    client: TestClient, store: Store, name: str
) -> None:
    text = bundled_path(name).read_text("utf-8")
    headers = {"Authorization": "Bearer gm-secret"}
    created = client.post(
        "/api/v1/encounters", json={"text": text, "filename": f"{name}.yaml", "seed": 4},
        headers=headers,
    )  # fmt: skip
    assert created.status_code == 201, created.text
    encounter_id = created.json()["encounter"]["id"]
    tokens = created.json()["tokens"]
    encounter = Encounter(store, encounter_id)
    players = {who: token for who, token in tokens["players"].items()}
    streams = {
        viewer: Subscriber(encounter, "table" if viewer == "table" else "player",
                           None if viewer == "table" else viewer, Lang.EN)
        for viewer in ["table", *players]
    }  # fmt: skip
    sent = {viewer: stream.whole_view()[0] for viewer, stream in streams.items()}
    told: dict[str, list[str]] = {viewer: [] for viewer in streams}
    for _turn in range(3):
        game = encounter.state().game
        if game.outcome is not None:
            break
        for action in live_steps(game):
            answer = client.post(
                f"/api/v1/encounters/{encounter_id}/actions", json={"action": action},
                headers=headers,
            )  # fmt: skip
            assert answer.status_code in (200, 409), answer.text
            for viewer, stream in streams.items():
                frames, upto = stream.catch_up(store, sent[viewer])
                assert upto >= sent[viewer] or any(b"event: view" in f for f in frames)
                told[viewer] += [f.decode("utf-8") for f in frames]
                sent[viewer] = upto
    game = encounter.state().game
    knowledge = Knowledge(game)
    knowledge.update()
    for viewer, token in [("table", tokens["table"]), *players.items()]:
        for lang in LANGS:
            shown = client.get(
                f"/api/v1/encounters/{encounter_id}/view",
                params={"token": token, "lang": lang.value},
            ).json()
            assert_no_leak(game, knowledge, viewer, shown)
            page = "table" if viewer == "table" else "play"
            html = client.get(
                f"/{page}/{encounter_id}", params={"token": token, "lang": lang.value}
            )
            assert html.status_code == 200
            body = html.text.split("<main", 1)[-1].replace(game.scenario.name, "")
            for other in knowledge.unknown(viewer):
                assert not word(other).search(body), f"{viewer}'s page names {other!r}"
        stream_text = "\n".join(told[viewer])
        for other in knowledge.unknown(viewer):
            assert not word(other).search(stream_text), f"{viewer}'s stream names {other!r}"
        ids = [int(m) for m in re.findall(r"^id: (\d+)$", stream_text, re.M)]
        assert ids == sorted(ids), f"{viewer}'s stream ids go back: {ids}"
