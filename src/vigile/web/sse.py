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
- ``event: news``: ``{"seq": N, "from": MARK, "mark": MARK, "html": "..."}``, to a character's
  page that asks for its news (``?news=MARK``, the mark of the view it shows,
  :func:`vigile.live.views.view_mark`): instead of ``events``, the page's fragment of what is new
  since ``from`` (rendered by :attr:`Context.page_news <vigile.web.context.Context.page_news>`)
  and the page's mark after it; a page that shows another mark asks for its panel instead;
- ``: keep-alive`` comments about every 15 s.

A write wakes its encounter once, whatever the number of its open streams (:class:`Hub`,
:class:`Channel`): one look at the game, in one worker thread, for all the encounter's streams,
each viewer told only what it may be told, and each stream handed its frames on the event loop.
The records other processes write reach the streams through the database: over PostgreSQL at
once (LISTEN/NOTIFY, :meth:`vigile.store.Store.listen`), over SQLite within :data:`POLL_S`
(each channel looks at the encounter's last record that often).

Streams are counted (:meth:`Hub.open_stream`): at most :data:`MAX_STREAMS_PER_TOKEN` open at once
for one token and :data:`MAX_STREAMS` in all; one more is refused (a 429 problem) and a stream's
place is given back however it ends (:class:`Stream`).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import threading
import weakref
from collections import deque
from collections.abc import AsyncIterator, Callable
from contextlib import suppress
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
from vigile.live.views import (
    character_view,
    events_for,
    gm_view,
    table_view,
    tell,
    view_mark,
    viewer_sees,
)
from vigile.store import Listener, Store

POLL_S: Final = 1.0
"""Seconds between two looks at the database for other processes' records (SQLite)."""
LISTENING_POLL_S: Final = 15.0
"""The same while the database tells of every write (PostgreSQL's LISTEN/NOTIFY): a net
under a lost connection, not the way the news comes."""
KEEPALIVE_S: Final = 15.0
MAX_FRAMES: Final = 200
"""Records turned into frames in one go (a client far behind catches up in several)."""
MAX_STREAMS_PER_TOKEN: Final = 8
"""Streams one token may hold open at once (a page in a few tabs or devices, and a reconnection
overlapping the stream it replaces)."""
MAX_STREAMS: Final = 1024
"""Streams open at once in all, every token together."""


class TooManyStreams(LimitError):
    """One stream more than :data:`MAX_STREAMS_PER_TOKEN` or :data:`MAX_STREAMS`."""

    status = 429


class Hub:
    """The live streams of this process, one :class:`Channel` per encounter (and event loop):
    a writer calls :meth:`notify` (from any thread) and each channel of that encounter wakes
    once, whatever the number of its streams.

    Over PostgreSQL the hub listens for the records other processes write
    (:meth:`vigile.store.Store.listen`: LISTEN/NOTIFY) from its first stream on; over SQLite
    each channel looks at the encounter's last record every :attr:`poll_s` seconds."""

    def __init__(
        self,
        max_streams: int = MAX_STREAMS,
        max_per_token: int = MAX_STREAMS_PER_TOKEN,
        poll_s: float = POLL_S,
    ) -> None:
        self._lock = threading.Lock()
        self._channels: dict[str, list[Channel]] = {}
        self.closed = False
        self.max_streams = max_streams
        self.max_per_token = max_per_token
        self.poll_s = poll_s
        self._streams: dict[bytes, int] = {}
        """Open streams by token (its digest: the tokens themselves are not kept)."""
        self._listener: Listener | None = None
        self._listen_asked = False
        _HUBS.add(self)

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

    @property
    def listening(self) -> bool:
        """Whether other processes' writes reach this hub as they happen (LISTEN/NOTIFY)."""
        listener = self._listener
        return listener is not None and listener.connected

    def poll_interval(self) -> float:
        """Seconds a channel waits before it asks the database: :attr:`poll_s`, or
        :data:`LISTENING_POLL_S` while the database tells of every write."""
        return LISTENING_POLL_S if self.listening else self.poll_s

    def channel(self, encounter: Encounter, store: Store) -> Channel:
        """The encounter's channel in the running event loop (call from that loop)."""
        loop = asyncio.get_running_loop()
        if not self._listen_asked:
            self._listen_asked = True
            self._listener = store.listen(self._heard)
        with self._lock:
            for found in self._channels.get(encounter.id, ()):
                if found.loop is loop and not found.ended:
                    return found
            made = Channel(self, encounter, store, loop)
            self._channels.setdefault(encounter.id, []).append(made)
        made.start()
        return made

    def _gone(self, channel: Channel) -> None:
        with self._lock:
            found = self._channels.get(channel.encounter.id)
            if found is not None and channel in found:
                found.remove(channel)
                if not found:
                    del self._channels[channel.encounter.id]

    def notify(self, encounter_id: str, *, fresh: bool = False, told: int = 0) -> None:
        """Wake the streams of one encounter: after a write of this process (its cached game
        holds the record), or, ``fresh``, after another's (the database is asked), or after
        another's whose record ``told`` the database said was written (LISTEN/NOTIFY: the
        records are read, the last one is not asked)."""
        with self._lock:
            channels = list(self._channels.get(encounter_id, ()))
        for channel in channels:
            channel.wake_threadsafe(fresh=fresh, told=told)

    def _heard(self, encounter_id: str | None, seq: int = 0) -> None:
        """The listener's news: record ``seq`` of an encounter written by another process (0:
        an archive, the database is asked); None: anything may have been written, the
        listener was not listening."""
        if encounter_id is not None:
            self.notify(encounter_id, fresh=seq <= 0, told=seq)
            return
        with self._lock:
            channels = [c for found in self._channels.values() for c in found]
        for channel in channels:
            channel.wake_threadsafe(fresh=True)

    def close(self) -> None:
        """End every stream (the server is stopping)."""
        self.closed = True
        listener, self._listener = self._listener, None
        if listener is not None:
            listener.stop()
        self._heard(None)

    def end_streams_in(self, loop: asyncio.AbstractEventLoop) -> None:
        """End the streams served by ``loop`` (call from it): each finishes its response."""
        with self._lock:
            channels = [c for found in self._channels.values() for c in found if c.loop is loop]
        for channel in channels:
            for feed in list(channel.feeds):
                feed.end()


_HUBS: weakref.WeakSet[Hub] = weakref.WeakSet()
"""This process's hubs (one per app)."""


def end_streams_here() -> None:
    """End the streams the running event loop serves, whichever app's they are: its server
    is stopping, and a stream left open would hold it up to the end of its grace."""
    loop = asyncio.get_running_loop()
    for hub in list(_HUBS):
        hub.end_streams_in(loop)


@dataclass(eq=False)
class Feed:
    """One stream's place in its channel: the frames waiting to be sent, and how far its
    viewer has been told (None until its first view is sent)."""

    subscriber: Subscriber
    sent: int | None = None
    frames: deque[bytes] = field(default_factory=deque)
    ready: asyncio.Event = field(default_factory=asyncio.Event)
    wanted: bool = False
    """A look it was left out of (still sending), or more to send than one look gives."""
    error: BaseException | None = None
    ended: bool = False

    def push(self, frames: list[bytes]) -> None:
        if frames:
            self.frames.extend(frames)
            self.ready.set()

    def fail(self, error: BaseException) -> None:
        self.error = error
        self.ready.set()

    def end(self) -> None:
        self.ended = True
        self.ready.set()


class Channel:
    """One encounter's streams in one event loop. A wake-up (:meth:`wake`) makes one look at
    the encounter, in one worker thread, for all its streams: the database asked at most once,
    the game read once per viewer, each viewer told only what it may be told
    (:meth:`Subscriber.advance`); the frames go to each stream's :class:`Feed` without another
    thread hop."""

    def __init__(
        self, hub: Hub, encounter: Encounter, store: Store, loop: asyncio.AbstractEventLoop
    ) -> None:
        self.hub = hub
        self.encounter = encounter
        self.store = store
        self.loop = loop
        self.feeds: list[Feed] = []
        self.ended = False
        self._wake = asyncio.Event()
        self._fresh = True
        self._told = 0
        """The last record another process was heard writing since the last look (0: none)."""
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = self.loop.create_task(self._run())

    def join(self, feed: Feed) -> None:
        self.feeds.append(feed)

    def leave(self, feed: Feed) -> None:
        with suppress(ValueError):
            self.feeds.remove(feed)
        if not self.feeds:
            self._wake.set()  # the channel ends

    def wake(self, *, fresh: bool, told: int = 0) -> None:
        """Look at the encounter again (call from the loop); ``fresh``: ask the database for
        its last record; ``told``: a record the database said another process wrote."""
        self._fresh = self._fresh or fresh
        self._told = max(self._told, told)
        self._wake.set()

    def wake_threadsafe(self, *, fresh: bool, told: int = 0) -> None:
        with suppress(RuntimeError):  # the loop is closed: the server is stopping
            self.loop.call_soon_threadsafe(partial(self.wake, fresh=fresh, told=told))

    async def _run(self) -> None:
        try:
            while self.feeds and not self.hub.closed:
                try:
                    async with asyncio.timeout(self.hub.poll_interval()):
                        await self._wake.wait()
                except TimeoutError:
                    self._fresh = True
                if not self.feeds or self.hub.closed:
                    break
                self._wake.clear()
                fresh, self._fresh = self._fresh, False
                told, self._told = self._told, 0
                looked = []
                for feed in self.feeds:
                    if feed.sent is None or feed.error is not None:
                        continue
                    if feed.frames:  # still sending: it asks again once done
                        feed.wanted = True
                    else:
                        looked.append(feed)
                if not looked:
                    continue
                try:
                    found = await run_in_threadpool(self._look, looked, fresh, told)
                except Exception as error:  # the encounter cannot be read: end its streams
                    for feed in self.feeds:
                        feed.fail(error)
                    break
                for feed, (frames, sent, more) in zip(looked, found, strict=True):
                    if isinstance(frames, BaseException):
                        feed.fail(frames)
                        continue
                    feed.sent = sent
                    feed.wanted = feed.wanted or more
                    feed.push(frames)
        finally:
            self.ended = True
            self.hub._gone(self)
            for feed in self.feeds:
                feed.end()

    def _look(
        self, feeds: list[Feed], fresh: bool, told: int = 0
    ) -> list[tuple[list[bytes] | BaseException, int, bool]]:
        """Each feed's new frames (in a worker thread): the encounter's last record asked
        once (``fresh``), or the record another process was heard writing (``told``), or the
        game this process caches."""
        last = self.store.last_seq(self.encounter.id) if fresh else (told or None)
        found: list[tuple[list[bytes] | BaseException, int, bool]] = []
        for feed in feeds:
            assert feed.sent is not None
            try:
                found.append(feed.subscriber.advance(feed.sent, last))
            except Exception as error:  # this viewer's stream ends; the others go on
                found.append((error, feed.sent, False))
        return found


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


PageNews = Callable[[Encounter, Replayed, str, Lang, str], "tuple[str, str] | None"]
"""A character page's news after a mark, in its stream (encounter, game, character, language,
mark): the page's HTML fragment and its mark after it; None where the page needs its whole
panel again (:func:`vigile.web.pages.page_news`)."""


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
    news: PageNews | None = None
    """A page's news, sent instead of its events (``event: news``)."""
    mark: str | None = None
    """The mark of what the page shows, as far as this stream told it (with :attr:`news`)."""
    looked: int = field(default=-1, init=False, repr=False)
    """The last record of the log this stream looked at (no new record: no work)."""
    _keys: list[tuple[int, int]] = field(default_factory=list, init=False, repr=False)
    _keys_seq: int = field(default=-1, init=False, repr=False)
    """The record :attr:`_keys` reach (-1: none yet)."""

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
            if self.news is not None:  # what the page shows once it asks for its whole panel
                self.mark = view_mark(shown)
            return int(shown["seq"]), shown

    def _told_keys(self, replayed: Replayed) -> list[tuple[int, int]]:
        """(record, index in its events) of each event this viewer is told, in order.

        Kept from one look to the next: the records since the last look are read alone while
        each of them is an action still in force (no undo among them: an undo is a record with
        no events, and it is the only way an earlier record leaves the game); else all of
        them are read again."""
        game = replayed.game
        spans = replayed.spans
        new = range(self._keys_seq + 1, replayed.seq + 1)
        if self._keys_seq < 0 or self._keys_seq > replayed.seq or any(s not in spans for s in new):
            self._keys = [
                (seq, index - start)
                for seq, (start, end) in spans.items()
                for index in range(start, end)
                if viewer_sees(game, self.role, self.character, game.events[index])
            ]
        else:
            for seq in new:
                start, end = spans[seq]
                self._keys += [
                    (seq, index - start)
                    for index in range(start, end)
                    if viewer_sees(game, self.role, self.character, game.events[index])
                ]
        self._keys_seq = replayed.seq
        return self._keys

    def catch_up(self, store: Store, sent: int, *, polled: bool = True) -> tuple[list[bytes], int]:
        """The frames after ``sent`` (in this viewer's sequence), and the number they reach:
        :meth:`advance`, the database asked for the last record (``polled``) or not."""
        last = store.last_seq(self.encounter.id) if polled else None
        frames, upto, _more = self.advance(sent, last)
        return frames, upto

    def advance(self, sent: int, last: int | None) -> tuple[list[bytes], int, bool]:
        """The frames after ``sent`` (in this viewer's sequence), the number they reach, and
        whether there is more to send than one go gives (:data:`MAX_FRAMES`).

        ``last`` None (woken by a write of this process): the game it cached is enough, no
        question to the database; else ``last`` is the log's last record as the database gave
        it (the records other processes wrote are read)."""
        if self.role == "gm":
            return self._records(sent, last)
        if last is None:
            cached = self.encounter.cached_seq()
            if cached is None or cached == self.looked:
                return [], sent, False
            at_least = cached
        elif last == self.looked:
            return [], sent, False
        else:
            at_least = last
        with self.encounter.reading(at_least=at_least) as replayed:
            self.looked = replayed.seq
            keys = self._told_keys(replayed)
            if sent > len(keys) or (
                sent > 0 and self.last_told is not None and keys[sent - 1] != self.last_told
            ):  # something this viewer perceived was undone: tell it again
                seq, shown = self.whole_view()
                return [frame("view", seq, shown)], seq, False
            if len(keys) == sent:
                return [], sent, False
            upto = min(len(keys), sent + MAX_FRAMES)
            game = replayed.game
            events = [game.events[replayed.spans[k[0]][0] + k[1]] for k in keys[sent:upto]]
            self.last_told = keys[upto - 1]
            more = upto < len(keys)
            if self.news is not None and self.mark is not None and not more:
                assert self.character is not None
                made = self.news(self.encounter, replayed, self.character, self.lang, self.mark)
                if made is not None:
                    data = {"seq": upto, "from": self.mark, "mark": made[1], "html": made[0]}
                    self.mark = made[1]
                    return [frame("news", upto, data)], upto, False
            told_now = tell(game, self.role, self.character, events, self.lang)
            if self.news is not None:  # the page asks for its whole panel: the view's mark now
                assert self.character is not None
                shown = character_view(self.encounter, replayed, self.character, self.lang)
                self.mark = view_mark(shown)
            if more:
                self.looked = -1  # more to send: look again at once
            return [frame("events", upto, {"seq": upto, "events": told_now})], upto, more

    def _records(self, sent: int, last: int | None) -> tuple[list[bytes], int, bool]:
        """The GM's frames: one per record after ``sent``."""
        at_least: int | None = None
        if last is None:
            cached = self.encounter.cached_seq()
            if cached is None or cached <= sent:
                return [], sent, False
            at_least = sent + 1
        elif last == sent:
            return [], sent, False
        elif last > sent:
            at_least = last
        frames: list[bytes] = []
        with self.encounter.reading(at_least=at_least) as replayed:
            if replayed.seq < sent:  # the client knows of records this log lacks
                seq, shown = self.whole_view()
                return [frame("view", seq, shown)], seq, False
            upto = min(replayed.seq, sent + MAX_FRAMES)
            for seq in range(sent + 1, upto + 1):
                span = replayed.spans.get(seq)
                if span is None:  # undone, or an undo: the story changed, tell it again
                    seq, shown = self.whole_view()
                    return [*frames, frame("view", seq, shown)], seq, False
                events = replayed.game.events[span[0] : span[1]]
                told = events_for(replayed.game, "gm", None, events, self.lang)
                if told:
                    frames.append(frame("events", seq, {"seq": seq, "events": told}))
            return frames, upto, upto < replayed.seq


async def stream(
    subscriber: Subscriber,
    store: Store,
    hub: Hub,
    after: int | None,
    *,
    keepalive_s: float = KEEPALIVE_S,
) -> AsyncIterator[bytes]:
    """The viewer's stream, from record ``after`` (None: its whole view first): the frames its
    encounter's :class:`Channel` hands it."""
    channel = hub.channel(subscriber.encounter, store)
    feed = Feed(subscriber)
    channel.join(feed)
    try:
        if after is None:
            sent, shown = await run_in_threadpool(subscriber.whole_view)
        else:
            sent, shown = after, None
        # In the channel's looks from now on, whatever was written meanwhile included: its
        # frames wait in the feed, sent after the view.
        feed.sent = sent
        channel.wake(fresh=True)
        if shown is not None:
            yield frame("view", sent, shown)
        while True:
            while feed.frames:
                yield feed.frames.popleft()
            if feed.error is not None:
                raise feed.error
            if feed.ended or hub.closed:
                return
            if feed.wanted:
                feed.wanted = False
                channel.wake(fresh=True)
            feed.ready.clear()
            try:
                async with asyncio.timeout(keepalive_s):
                    await feed.ready.wait()
            except TimeoutError:
                yield b": keep-alive\n\n"
    finally:
        channel.leave(feed)
