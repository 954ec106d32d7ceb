"""Many servers on one database (issue 38): a write in one ``vigile serve`` process reaches a
stream served by another through PostgreSQL's LISTEN/NOTIFY, not the poll.

Real processes over a real PostgreSQL (``VIGILE_TEST_PG_URL``; skipped without it, failed under
CI): the frame must arrive within :data:`WAIT_S`, under the streams' poll while the database
tells of every write (:data:`vigile.web.sse.LISTENING_POLL_S`), so the poll cannot be what
brought it; its content is checked against what the writing process answered."""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from httpx_sse import ServerSentEvent, connect_sse

from vigile.store import Store
from vigile.web.sse import LISTENING_POLL_S
from web_server import Server, new_encounter, pg_schema

WAIT_S = 10.0
GRAPPLE = {"do": "throw-grapple", "actor": "Kage", "at": [60, 10], "onto": "tile"}


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A fresh PostgreSQL schema (skips without ``VIGILE_TEST_PG_URL``, fails under CI)."""
    yield from pg_schema()


class Reader:
    """One SSE stream read in a thread."""

    def __init__(self, base: str, encounter: str, token: str) -> None:
        self.url = f"{base}/api/v1/encounters/{encounter}/stream"
        self.token = token
        self.frames: list[ServerSentEvent] = []
        self.error: BaseException | None = None
        self.ended = threading.Event()
        """Set once the stream ended, with :attr:`error` or without."""
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        headers = {"Authorization": f"Bearer {self.token}"}
        try:
            with (
                httpx.Client(timeout=httpx.Timeout(60.0)) as client,
                connect_sse(client, "GET", self.url, headers=headers) as source,
            ):
                assert source.response.status_code == 200, source.response.read()
                for frame in source.iter_sse():
                    self.frames.append(frame)
        except BaseException as error:
            self.error = error
        finally:
            self.ended.set()

    def first(self, kind: str, *, after: int = 0, wait_s: float = WAIT_S) -> ServerSentEvent:
        """The first frame of ``kind`` after the first ``after`` frames."""
        deadline = time.monotonic() + wait_s
        while True:
            found = [f for f in self.frames[after:] if f.event == kind]
            if found:
                return found[0]
            assert self.error is None, self.error
            assert time.monotonic() < deadline, [(f.event, f.id) for f in self.frames]
            time.sleep(0.02)


def test_the_bound_is_under_the_poll() -> None:
    assert WAIT_S < LISTENING_POLL_S


def test_a_store_hears_another_stores_writes_and_not_its_own(pg_url: str) -> None:
    heard: queue.Queue[tuple[str | None, int]] = queue.Queue()
    with Store(pg_url) as writer, Store(pg_url) as reader:
        listener = reader.listen(lambda encounter, seq: heard.put((encounter, seq)))
        assert listener is not None
        deadline = time.monotonic() + WAIT_S
        while not listener.connected:
            assert time.monotonic() < deadline
            time.sleep(0.02)
        assert heard.get(timeout=WAIT_S) == (None, 0)  # connected: "look at everything"
        own = reader.create_encounter(
            name="own", ruleset="skirmish", source="a.yaml", scenario="x: 1",
            scenario_format="yaml", seed=1, dice="rolled",
        )  # fmt: skip
        reader.append(own.id, "note", {"n": 1})  # its own write: not heard
        other = writer.create_encounter(
            name="other", ruleset="skirmish", source="b.yaml", scenario="x: 1",
            scenario_format="yaml", seed=1, dice="rolled",
        )  # fmt: skip
        writer.append(other.id, "note", {"n": 1})
        writer.append(other.id, "note", {"n": 2})
        writer.archive(other.id)
        # Delivered in commit order: had the reader heard its own write, it would come first.
        # (Other tests may write to the same database meanwhile: their encounters are not ours.)
        ours: list[tuple[str | None, int]] = []
        while len(ours) < 3:
            found = heard.get(timeout=WAIT_S)
            if found[0] in (own.id, other.id):
                ours.append(found)
        assert ours == [(other.id, 1), (other.id, 2), (other.id, 0)]  # each record; the archive
        listener.stop()
        assert not listener.connected


def test_sqlite_tells_nothing_its_readers_look(tmp_path: Any) -> None:
    with Store(f"sqlite:///{tmp_path / 'v.db'}") as store:
        assert store.listen(lambda _id, _seq: None) is None


def test_a_write_in_one_server_reaches_a_stream_in_another(pg_url: str) -> None:
    writer = Server(pg_url).start()
    try:
        watcher = Server(pg_url).start()
        try:
            with writer.client() as gm:
                made = new_encounter(gm)
                encounter = made["encounter"]["id"]
                tokens = made["tokens"]
                gm_stream = Reader(watcher.base, encounter, tokens["gm"])
                kage = Reader(watcher.base, encounter, tokens["players"]["Kage"])
                start = gm_stream.first("view")
                told = kage.first("view")
                answer = gm.post(f"/api/v1/encounters/{encounter}/actions",
                                 json={"action": GRAPPLE, "view": False})  # fmt: skip
                assert answer.status_code == 200, answer.text
                played = answer.json()
                # The GM's frame: this record, its events as the writing process told them.
                frame = gm_stream.first("events")
                assert int(frame.id) == played["seq"] == int(start.id) + 1
                assert frame.json() == {"seq": played["seq"], "events": played["events"]}
                assert any(e["event"] == "noise" for e in played["events"]), played["events"]
                # Kage's frame: what his own view on the writing server says he was told.
                frame = kage.first("events")
                seen = httpx.get(
                    f"{writer.base}/api/v1/encounters/{encounter}/view",
                    headers={"Authorization": f"Bearer {tokens['players']['Kage']}"},
                ).json()
                body = frame.json()
                assert body["seq"] == int(frame.id) == seen["seq"] > int(told.id)
                assert body["events"] == seen["events"][int(told.id) :]
        finally:
            watcher.stop()
    finally:
        writer.stop()


def test_workers_over_sqlite_serve_every_action_to_every_stream(tmp_path: Any) -> None:
    # Two workers share the port: the GM's posts and the streams land on either; a stream
    # served by the other worker sees the records within its poll (a second), nothing missed.
    running = Server(f"sqlite:///{tmp_path / 'workers.db'}", args=("--workers", "2")).start()
    try:
        deadline = time.monotonic() + WAIT_S
        while not any("2 workers over SQLite" in line for line in running.output):
            assert time.monotonic() < deadline, running.output
            time.sleep(0.02)
        with running.client() as gm:
            made = new_encounter(gm)
            encounter = made["encounter"]["id"]
            streams = [Reader(running.base, encounter, made["tokens"]["gm"]) for _ in range(4)]
            # every stream's first view before the first post (a stream opened late would
            # start from a later view, and miss nothing, but not be this test)
            start = int(streams[0].first("view").id)
            assert [int(r.first("view").id) for r in streams] == [start] * len(streams)
            played = []
            for action in (GRAPPLE, {"do": "wait", "actor": "Kage"}, {"do": "end-turn"}):
                answer = gm.post(f"/api/v1/encounters/{encounter}/actions",
                                 json={"action": action, "view": False})  # fmt: skip
                assert answer.status_code == 200, answer.text
                played.append(answer.json())
        for reader in streams:
            assert int(reader.first("view").id) == start
            for index, answer in enumerate(played):
                frame = reader.first("events", after=1 + index)
                assert frame.json() == {"seq": answer["seq"], "events": answer["events"]}
    finally:
        running.stop()
