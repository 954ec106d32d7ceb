"""A restart reads a long log's events only when a view asks for them, and the GM's log is
paged (issue 34: the first view after a restart costs about the same at 10 and 10,000
records). The log stays the truth: the pages, read one after the other, are the whole log's
events; a restarted game's events, read in full, are the replay's."""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from vigile.engine.events import Event
from vigile.io.i18n import Lang
from vigile.live import Encounter, view, views
from vigile.live.eventlog import EventLog
from vigile.scene.loader import bundled_path
from vigile.store import Store
from vigile.web.app import create_app

RAID = bundled_path("night-raid").read_text("utf-8").replace("turns: 40", "turns: 400")
TOKEN = "log-pages-token-0123456789"


def _events(first: int, count: int) -> list[Event]:
    return [Event(turn=i, kind="k", message=f"e{i}") for i in range(first, first + count)]


class Fetching:
    """A store of pieces (checkpoint seq → its events) that counts what is read."""

    def __init__(self, sizes: list[int]) -> None:
        self.pieces: list[tuple[int, int, int]] = []
        self.events: dict[int, list[Event]] = {}
        start = 0
        for seq, size in enumerate(sizes, start=1):
            self.pieces.append((start, start + size, seq))
            self.events[seq] = _events(start, size)
            start += size
        self.read: list[int] = []

    def __call__(self, wanted: list[tuple[int, int, int]]) -> list[list[Event]]:
        self.read += [seq for seq, _, _ in wanted]
        return [self.events[seq] for seq, _, _ in wanted]

    def log(self) -> EventLog:
        return EventLog.pending(self.pieces, self)


def test_an_event_log_reads_only_the_pieces_asked_for() -> None:
    store = Fetching([3, 4, 5])  # events 0-2 (piece 1), 3-6 (2), 7-11 (3)
    log = store.log()
    assert len(log) == 12 and not log.complete and store.read == []
    assert log[-1].message == "e11" and store.read == [3]
    assert [e.message for e in log[2:4]] == ["e2", "e3"] and store.read == [3, 1, 2]
    assert log.complete
    assert list(log) == _events(0, 12) and store.read == [3, 1, 2]  # nothing read twice


def test_reversed_reads_from_the_end_and_stops_where_the_caller_stops() -> None:
    store = Fetching([3, 4, 5])
    log = store.log()
    newest = reversed(log)
    assert [next(newest).message for _ in range(6)] == ["e11", "e10", "e9", "e8", "e7", "e6"]
    assert store.read == [3, 2]
    log.append(Event(turn=12, kind="k", message="e12"))
    assert log[-1].message == "e12" and store.read == [3, 2]


def test_a_head_or_a_copy_shares_the_pieces_not_read_yet() -> None:
    store = Fetching([3, 4, 5])
    log = store.log()
    first = log.head(7)  # pieces 1 and 2 whole: nothing read
    assert len(first) == 7 and store.read == []
    cut = log.head(5)  # cuts piece 2: read at once
    assert store.read == [2] and [e.message for e in cut] == [f"e{i}" for i in range(5)]
    twin = copy.deepcopy(log)
    twin.append(Event(turn=99, kind="k", message="new"))
    assert len(log) == 12 and len(twin) == 13
    assert twin[:12] == list(log) and twin[-1].message == "new"


def test_an_event_log_compares_and_refuses_what_does_not_add_up() -> None:
    store = Fetching([2, 2])
    assert store.log() == _events(0, 4)
    assert store.log() != _events(0, 3)
    with pytest.raises(ValueError, match="does not follow"):
        EventLog.pending([(0, 2, 1), (3, 5, 2)], store)
    short = Fetching([2, 2])
    short.events[2] = _events(2, 1)
    with pytest.raises(RuntimeError, match="checkpoint 2 gave 1 events"):
        list(short.log())


# -- restart and paging, on a real encounter ---------------------------------------------------


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with Store(f"sqlite:///{tmp_path / 'log.db'}") as opened:
        yield opened


def _played(store: Store, actions: int) -> Encounter:
    made, _ = Encounter.create(store, text=RAID, fmt="yaml", source="raid.yaml", seed=5)
    encounter = Encounter(store, made.id, every=4)
    for i in range(actions):
        encounter.act({"do": "end-turn"} if i % 4 == 3 else {"do": "wait", "actor": "Kage"})
    return encounter


def test_a_restart_reads_the_events_of_the_gms_page_only(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    encounter = _played(store, 40)  # checkpoints at 4, 8, ..., 40
    whole = Encounter(store, encounter.id, checkpoints=False).game.events
    assert len(whole) > 30
    monkeypatch.setattr(views, "LOG_PAGE", 5)
    read: list[int] = []
    chunks = Store.checkpoint_chunks

    def counted(self: Store, encounter_id: str, seqs: Any) -> dict[int, bytes]:
        read.extend(seqs)
        return chunks(self, encounter_id, seqs)

    monkeypatch.setattr(Store, "checkpoint_chunks", counted)
    restarted = Encounter(store, encounter.id, every=4)
    shown = view(restarted, "gm", None, Lang.EN)
    assert shown["events_from"] == len(whole) - 5
    assert len(shown["events"]) == 5
    assert read == [40]  # the last piece holds the latest 5 events (4 records, 7+ events)
    assert len(restarted.state().game.events) == len(whole)


def test_the_gms_pages_read_one_after_the_other_are_the_whole_log(store: Store) -> None:
    encounter = _played(store, 30)
    whole = view(Encounter(store, encounter.id, checkpoints=False), "gm", None, Lang.FR)["events"]
    restarted = Encounter(store, encounter.id, every=4)
    pages: list[list[dict[str, Any]]] = []
    before: int | None = None
    page = 7
    with restarted.reading() as replayed:
        while before != 0:
            shown = views.gm_view(restarted, replayed, Lang.FR, before=before)
            assert len(shown["events"]) == min(page, before or len(whole)) or before is None
            pages.insert(0, shown["events"])
            before = shown["events_from"]
            page = views.LOG_PAGE
    assert [e for p in pages for e in p] == whole
    beyond = views.gm_view(restarted, restarted.state(), Lang.FR, before=10**6)
    assert beyond["events"] == whole[-views.LOG_PAGE :]


def test_the_gm_page_shows_the_latest_events_and_a_button_for_the_earlier(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(views, "LOG_PAGE", 6)
    store = Store(f"sqlite:///{tmp_path / 'pages.db'}")
    auth = {"Authorization": f"Bearer {TOKEN}"}
    with TestClient(create_app(store, gm_token=TOKEN)) as client:
        made = client.post("/api/v1/encounters", json={"scenario": "night-raid"}, headers=auth)
        encounter_id = made.json()["encounter"]["id"]
        for _ in range(4):
            played = client.post(
                f"/api/v1/encounters/{encounter_id}/actions",
                json={"action": {"do": "end-turn"}},
                headers=auth,
            )
            assert played.status_code == 200, played.text
        count = len(Encounter(store, encounter_id).game.events)
        assert count > 12
        page = client.get(f"/encounters/{encounter_id}?token={TOKEN}&lang=en").text
        log = page[page.index('id="log"') :]
        assert log.count('<li class="event') == 6
        assert f'start="{count}"' in log
        button = re.search(r'hx-get="(/encounters/[^"]+/log\?[^"]+)"', log)
        assert button is not None and f"before={count - 6}" in button.group(1)
        assert f"Show earlier events ({count - 6} before these)" in log
        earlier = client.get(button.group(1).replace("&amp;", "&"), headers=auth)
        assert earlier.status_code == 200
        assert earlier.text.count('<li class="event') == 6
        assert f"before={count - 12}" in earlier.text
        # the player's token does not read the GM's log (an error where the fragment would
        # go: htmx swaps only 200 answers); a bad index is a 4xx
        tokens = made.json()["tokens"]["players"]
        denied = client.get(
            f"/encounters/{encounter_id}/log?before=3",
            headers={"Authorization": f"Bearer {tokens['Kage']}"},
        )
        assert '<li class="event' not in denied.text and 'role="alert"' in denied.text
        bad = client.get(f"/encounters/{encounter_id}/log?before=-1", headers=auth)
        assert 400 <= bad.status_code < 500
    store.close()
