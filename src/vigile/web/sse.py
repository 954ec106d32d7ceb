"""Live updates over Server-Sent Events: each viewer's stream of one encounter.

Each viewer's events are numbered in its own sequence (RULES.md LP-5). The GM's stream's
``id:`` is the sequence number of the encounter's record it reports; a character's or the
table's is how many events that viewer has been told (1, 2, 3...), so that nobody counts what
it did not perceive. A client that reconnects with ``Last-Event-ID`` (or ``?after=N``) in its
own sequence gets everything after it, missing nothing. Frames:

- ``event: view``: the viewer's whole view (:func:`vigile.live.view`), on a fresh connection
  (no ``Last-Event-ID``), and after an undo of something this viewer perceived (for the GM:
  after any undo);
- ``event: events``: ``{"seq": N, "events": [...]}``, the events new to this viewer as it is
  told them (:func:`vigile.live.views.events_for`), N its sequence number after them. A record
  whose events this viewer does not perceive, or the undo of one, sends nothing at all: a
  player's stream carries no trace of a secret roll;
- ``: keep-alive`` comments about every 15 s.

Writers in this process wake the streams of their encounter at once (:class:`Hub`); a stream
also looks at the encounter's last sequence number about once a second, so that the records
another process appends (``vigile play`` on the same database) reach it too.

Streams are counted (:meth:`Hub.open_stream`): at most :data:`MAX_STREAMS_PER_TOKEN` open at once
for one token and :data:`MAX_STREAMS` in all; one more is refused (a 429 problem) and a stream's
place is given back however it ends (:class:`Stream`).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Final

from starlette.concurrency import run_in_threadpool
from starlette.responses import StreamingResponse
from starlette.types import Receive, Scope, Send

from vigile.errors import LimitError
from vigile.io.i18n import Lang
from vigile.live import Encounter, Role
from vigile.live.encounter import Replayed
from vigile.live.views import character_view, events_for, gm_view, table_view, tell, viewer_sees
from vigile.store import Store

POLL_S: Final = 1.0
KEEPALIVE_S: Final = 15.0
MAX_FRAMES: Final = 200
"""Records turned into frames in one go (a client far behind catches up in several)."""
MAX_STREAMS_PER_TOKEN: Final = 8
"""Streams one token may hold open at once (a page in a few tabs or devices, and a reconnection
overlapping the stream it replaces)."""
MAX_STREAMS: Final = 256
"""Streams open at once in all, every token together."""


class TooManyStreams(LimitError):
    """One stream more than :data:`MAX_STREAMS_PER_TOKEN` or :data:`MAX_STREAMS`."""

    status = 429


class Hub:
    """Per-encounter wake-ups: a writer calls :meth:`notify` (from any thread), each stream of
    that encounter wakes."""

    def __init__(
        self, max_streams: int = MAX_STREAMS, max_per_token: int = MAX_STREAMS_PER_TOKEN
    ) -> None:
        self._lock = threading.Lock()
        self._waiting: dict[str, set[tuple[asyncio.AbstractEventLoop, asyncio.Event]]] = {}
        self.closed = False
        self.max_streams = max_streams
        self.max_per_token = max_per_token
        self._streams: dict[bytes, int] = {}
        """Open streams by token (its digest: the tokens themselves are not kept)."""

    def open_stream(self, token: str) -> Callable[[], None]:
        """Count one more stream of ``token`` (:class:`TooManyStreams` over a cap); the function
        that gives its place back (once, from any thread)."""
        key = hashlib.sha256(token.encode("utf-8")).digest()
        with self._lock:
            if sum(self._streams.values()) >= self.max_streams:
                raise TooManyStreams(f"{self.max_streams} live streams are open: the most at once")
            if self._streams.get(key, 0) >= self.max_per_token:
                raise TooManyStreams(
                    f"this token has {self.max_per_token} live streams open: the most at once; "
                    "close one first"
                )
            self._streams[key] = self._streams.get(key, 0) + 1
        given_back = False

        def release() -> None:
            nonlocal given_back
            with self._lock:
                if given_back:
                    return
                given_back = True
                left = self._streams[key] - 1
                if left:
                    self._streams[key] = left
                else:
                    del self._streams[key]

        return release

    def open_streams(self) -> int:
        """Streams open now, every token together."""
        with self._lock:
            return sum(self._streams.values())

    @contextmanager
    def subscribe(self, encounter_id: str) -> Iterator[asyncio.Event]:
        """An event set when the encounter has news (call from the event loop)."""
        wake = asyncio.Event()
        entry = (asyncio.get_running_loop(), wake)
        with self._lock:
            self._waiting.setdefault(encounter_id, set()).add(entry)
        try:
            yield wake
        finally:
            with self._lock:
                waiting = self._waiting.get(encounter_id)
                if waiting is not None:
                    waiting.discard(entry)
                    if not waiting:
                        del self._waiting[encounter_id]

    def notify(self, encounter_id: str) -> None:
        """Wake the streams of one encounter."""
        with self._lock:
            waiting = list(self._waiting.get(encounter_id, ()))
        for loop, wake in waiting:
            with suppress(RuntimeError):  # the loop is closed: the server is stopping
                loop.call_soon_threadsafe(wake.set)

    def close(self) -> None:
        """Wake every stream so that it ends (the server is stopping)."""
        self.closed = True
        with self._lock:
            encounters = list(self._waiting)
        for encounter_id in encounters:
            self.notify(encounter_id)


class Stream(StreamingResponse):
    """A live stream that gives its place back (:meth:`Hub.open_stream`) however it ends: the
    client gone, the server stopping, an error."""

    def __init__(
        self, content: AsyncIterator[bytes], release: Callable[[], None], **kwargs: Any
    ) -> None:
        super().__init__(content, **kwargs)
        self.release = release

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self.release()


def frame(kind: str | None, seq: int | None, data: Any) -> bytes:
    """One SSE message (JSON on one line: ``json.dumps`` escapes every newline)."""
    lines = []
    if seq is not None:
        lines.append(f"id: {seq}")
    if kind is not None:
        lines.append(f"event: {kind}")
    lines.append("data: " + json.dumps(data, ensure_ascii=False, separators=(",", ":")))
    return ("\n".join(lines) + "\n\n").encode("utf-8")


@dataclass
class Subscriber:
    """Whose stream: the viewer and the language it reads; for a character or the table, the
    last event it was told (to see whether an undo took back something it perceived)."""

    encounter: Encounter
    role: Role
    character: str | None
    lang: Lang
    last_told: tuple[int, int] | None = None
    """(record, index in the record's events) of the last event sent, when known."""
    looked: int = field(default=-1, init=False, repr=False)
    """The last record of the log this stream looked at (no new record: no work)."""

    def whole_view(self) -> tuple[int, dict[str, Any]]:
        with self.encounter.reading() as replayed:
            if self.role == "gm":
                shown = gm_view(self.encounter, replayed, self.lang)
            elif self.role == "table":
                shown = table_view(self.encounter, replayed, self.lang)
            else:
                assert self.character is not None
                shown = character_view(self.encounter, replayed, self.character, self.lang)
            if self.role != "gm":
                keys = self._told_keys(replayed)
                self.last_told = keys[-1] if keys else None
            return int(shown["seq"]), shown

    def _told_keys(self, replayed: Replayed) -> list[tuple[int, int]]:
        """(record, index in its events) of each event this viewer is told, in order."""
        game = replayed.game
        return [
            (seq, index - start)
            for seq, (start, end) in replayed.spans.items()
            for index in range(start, end)
            if viewer_sees(game, self.role, self.character, game.events[index])
        ]

    def catch_up(self, store: Store, sent: int, *, polled: bool = True) -> tuple[list[bytes], int]:
        """The frames after ``sent`` (in this viewer's sequence), and the number they reach.

        Woken by a write of this process (``polled`` false), the game it cached is enough: no
        question to the database, whatever the number of streams; the poll (``polled``) asks the
        database, for the records other processes wrote."""
        if self.role == "gm":
            return self._records(store, sent, polled=polled)
        if polled:
            if store.last_seq(self.encounter.id) == self.looked:
                return [], sent
            at_least = None
        else:
            cached = self.encounter.cached_seq()
            if cached is None or cached == self.looked:
                return [], sent
            at_least = cached
        with self.encounter.reading(at_least=at_least) as replayed:
            self.looked = replayed.seq
            keys = self._told_keys(replayed)
            if sent > len(keys) or (
                sent > 0 and self.last_told is not None and keys[sent - 1] != self.last_told
            ):  # something this viewer perceived was undone: tell it again
                seq, shown = self.whole_view()
                return [frame("view", seq, shown)], seq
            if len(keys) == sent:
                return [], sent
            upto = min(len(keys), sent + MAX_FRAMES)
            game = replayed.game
            events = [game.events[replayed.spans[k[0]][0] + k[1]] for k in keys[sent:upto]]
            told_now = tell(game, self.role, self.character, events, self.lang)
            self.last_told = keys[upto - 1]
            if upto < len(keys):
                self.looked = -1  # more to send: look again at once
            return [frame("events", upto, {"seq": upto, "events": told_now})], upto

    def _records(self, store: Store, sent: int, *, polled: bool) -> tuple[list[bytes], int]:
        """The GM's frames: one per record after ``sent``."""
        at_least: int | None = None
        if not polled:
            cached = self.encounter.cached_seq()
            if cached is None or cached <= sent:
                return [], sent
            at_least = sent + 1
        elif store.last_seq(self.encounter.id) == sent:
            return [], sent
        frames: list[bytes] = []
        with self.encounter.reading(at_least=at_least) as replayed:
            if replayed.seq < sent:  # the client knows of records this log lacks
                seq, shown = self.whole_view()
                return [frame("view", seq, shown)], seq
            upto = min(replayed.seq, sent + MAX_FRAMES)
            for seq in range(sent + 1, upto + 1):
                span = replayed.spans.get(seq)
                if span is None:  # undone, or an undo: the story changed, tell it again
                    seq, shown = self.whole_view()
                    return [*frames, frame("view", seq, shown)], seq
                events = replayed.game.events[span[0] : span[1]]
                told = events_for(replayed.game, "gm", None, events, self.lang)
                if told:
                    frames.append(frame("events", seq, {"seq": seq, "events": told}))
            return frames, upto


async def stream(
    subscriber: Subscriber,
    store: Store,
    hub: Hub,
    after: int | None,
    *,
    poll_s: float = POLL_S,
    keepalive_s: float = KEEPALIVE_S,
) -> AsyncIterator[bytes]:
    """The viewer's stream, from record ``after`` (None: its whole view first)."""
    encounter_id = subscriber.encounter.id
    with hub.subscribe(encounter_id) as wake:
        if after is None:
            sent, shown = await run_in_threadpool(subscriber.whole_view)
            yield frame("view", sent, shown)
        else:
            sent = after
        quiet_since = time.monotonic()
        polled = True
        while not hub.closed:
            frames, sent = await run_in_threadpool(
                partial(subscriber.catch_up, store, sent, polled=polled)
            )
            for data in frames:
                yield data
            if frames:
                quiet_since = time.monotonic()
                continue  # perhaps more to catch up
            polled = True
            with suppress(TimeoutError):
                await asyncio.wait_for(wake.wait(), timeout=poll_s)
                polled = False  # woken by a write of this process
            wake.clear()
            if time.monotonic() - quiet_since >= keepalive_s:
                yield b": keep-alive\n\n"
                quiet_since = time.monotonic()
