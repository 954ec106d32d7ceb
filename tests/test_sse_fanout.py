"""Live streams fan out once per encounter (issue 38), and each viewer is still told exactly what
it may be told.

- a write wakes the encounter's channel once: one look (one worker thread) for all its streams,
  whatever their number, and each stream gets its own frame;
- a stream kept open through actions and undos, its told events carried from one look to the
  next, tells each viewer exactly what a fresh view of it holds (LP-5), never more.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

from vigile.io.i18n import Lang
from vigile.live import Encounter, character_view, table_view
from vigile.live.encounter import NothingToUndo
from vigile.scene.loader import bundled_path
from vigile.store import Store
from vigile.web import sse
from vigile.web.sse import Hub, Subscriber, stream

GRAPPLE = {"do": "throw-grapple", "actor": "Kage", "at": [60, 10], "onto": "tile"}
CHARACTERS = ("Kage", "Tsuki", "Kaze", "Jubei", "Goro", "Kuro")


@pytest.fixture()
def store(tmp_path: Path) -> Iterator[Store]:
    opened = Store(f"sqlite:///{tmp_path / 'fanout.db'}")
    yield opened
    opened.close()


def night_raid(store: Store, seed: int = 7) -> Encounter:
    encounter, _ = Encounter.create(
        store,
        text=bundled_path("night-raid").read_text("utf-8"),
        fmt="yaml",
        source="night-raid.yaml",
        seed=seed,
    )
    return Encounter(store, encounter.id)


async def rest(frames: AsyncIterator[bytes]) -> list[str]:
    """The kinds of the frames a stream still sends before it ends."""
    return [parsed(frame)[0] async for frame in frames]


def parsed(frame: bytes) -> tuple[str, int, dict[str, Any]]:
    lines = frame.decode("utf-8").strip().split("\n")
    fields = dict(line.split(": ", 1) for line in lines)
    return fields["event"], int(fields["id"]), json.loads(fields["data"])


def test_one_look_per_write_whatever_the_number_of_streams(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    encounter = night_raid(store)
    looks: list[int] = []
    busy = [0]
    look = sse.Channel._look

    def counted(self: sse.Channel, feeds: list[sse.Feed], fresh: bool, told: int = 0) -> Any:
        looks.append(len(feeds))
        busy[0] += 1
        try:
            return look(self, feeds, fresh, told)
        finally:
            busy[0] -= 1

    monkeypatch.setattr(sse.Channel, "_look", counted)

    async def play() -> None:
        hub = Hub(poll_s=600.0)  # no poll during the test: the write's wake-up alone
        viewers = [Subscriber(encounter, "gm", None, Lang.EN)]
        viewers += [Subscriber(encounter, "player", n, Lang.EN) for _ in (1, 2) for n in CHARACTERS]
        streams: list[AsyncIterator[bytes]] = [stream(v, store, hub, None) for v in viewers]
        firsts = [parsed(await anext(s)) for s in streams]
        assert all(kind == "view" for kind, _, _ in firsts)
        (channel,) = hub._channels[encounter.id]
        quiet = 0
        while quiet < 5:  # the looks the streams' first views asked for are over
            await asyncio.sleep(0.02)
            quiet = quiet + 1 if busy[0] == 0 and not channel._wake.is_set() else 0
        looks.clear()
        played = await asyncio.to_thread(encounter.act, GRAPPLE)
        hub.notify(encounter.id)
        gm_frame = parsed(await asyncio.wait_for(anext(streams[0]), 5))
        assert gm_frame[:2] == ("events", played.record.seq)
        kage = [parsed(await asyncio.wait_for(anext(s), 5)) for s in streams[1::6]]
        assert [(kind, seq) for kind, seq, _ in kage] == [("events", firsts[1][1] + 1)] * 2
        # one look for the 13 streams: not one per stream
        assert looks == [len(viewers)]
        hub.close()  # every stream ends, once it has sent what it holds
        for s in streams:
            left = await asyncio.wait_for(rest(s), 5)
            assert left in ([], ["events"])

    asyncio.run(play())


def fresh_events(encounter: Encounter, role: str, name: str | None) -> list[dict[str, Any]]:
    state = encounter.state()
    if role == "table":
        return list(table_view(encounter, state, Lang.EN)["events"])
    assert name is not None
    return list(character_view(encounter, state, name, Lang.EN)["events"])


def test_a_stream_kept_open_through_undos_tells_what_a_fresh_view_holds(store: Store) -> None:
    encounter = night_raid(store)
    viewers = [("table", None), *(("player", n) for n in CHARACTERS)]
    subscribers = {v: Subscriber(encounter, v[0], v[1], Lang.EN) for v in viewers}  # type: ignore[arg-type]
    told: dict[tuple[str, str | None], list[dict[str, Any]]] = {}
    sent: dict[tuple[str, str | None], int] = {}
    for viewer, subscriber in subscribers.items():
        sent[viewer], shown = subscriber.whole_view()
        told[viewer] = list(shown["events"])
    steps: list[dict[str, Any] | str] = [
        GRAPPLE, {"do": "wait", "actor": "Kaze"}, {"do": "end-turn"}, "undo",
        {"do": "end-turn"}, {"do": "wait", "actor": "Tsuki"}, "undo", "undo",
        {"do": "end-turn"}, {"do": "end-turn"},
    ]  # fmt: skip
    undos = 0
    for step in steps:
        if step == "undo":
            try:
                encounter.undo()
                undos += 1
            except NothingToUndo:
                continue
        else:
            encounter.act(step)
        for viewer, subscriber in subscribers.items():
            frames, sent[viewer], more = subscriber.advance(sent[viewer], None)
            assert not more
            for frame in frames:
                kind, number, data = parsed(frame)
                if kind == "view":  # something it perceived was undone: told again
                    told[viewer] = list(data["events"])
                else:
                    told[viewer] += data["events"]
                assert number == len(told[viewer])
            assert told[viewer] == fresh_events(encounter, *viewer), (viewer, step)
    assert undos == 3


def test_a_write_heard_from_another_process_is_read_without_asking_its_number(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Another process's write, as LISTEN/NOTIFY tells it (the encounter and the record's
    # number): the channel reads the records after its cached game, and never asks the
    # database for the last record's number, which the news gave.
    encounter = night_raid(store)
    other = Encounter(store, encounter.id)  # the other process's copy of the encounter
    other.state()  # (its game cached, as a process that serves it has)
    asked: list[str] = []
    last_seq = store.last_seq

    def counted(encounter_id: str) -> int:
        asked.append(encounter_id)
        return last_seq(encounter_id)

    async def play() -> None:
        hub = Hub(poll_s=600.0)  # no poll during the test: the news alone
        streams = [stream(Subscriber(encounter, "player", "Kage", Lang.EN), store, hub, None)]
        streams.append(stream(Subscriber(encounter, "gm", None, Lang.EN), store, hub, None))
        firsts = [parsed(await anext(s)) for s in streams]
        await asyncio.sleep(0.2)  # the looks the first views asked for are over
        monkeypatch.setattr(store, "last_seq", counted)
        played = await asyncio.to_thread(other.act, GRAPPLE)
        hub._heard(encounter.id, played.record.seq)
        kage = parsed(await asyncio.wait_for(anext(streams[0]), 5))
        gm = parsed(await asyncio.wait_for(anext(streams[1]), 5))
        assert kage[:2] == ("events", firsts[0][1] + 1)  # Kage's own throw (LP-5)
        assert gm[:2] == ("events", played.record.seq)
        first, end = other.state().spans[played.record.seq]
        assert len(gm[2]["events"]) == end - first > 0  # the record's every event
        hub.close()

    asyncio.run(play())
    assert asked == []
