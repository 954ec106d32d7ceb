"""A live game's events, the oldest read from the store only when someone asks for them.

A restart loads a checkpoint (:mod:`vigile.live.checkpoints`): the state as of a record, without
its events. Reading every event back before the first view would cost as much as the log is
long; most callers want only the newest (the GM's latest page, the events of a new record) or
none at all (the next action). So the game's ``events`` list starts with its older part
*pending*: pieces, each the events of one checkpoint's chunk, read from the store the first time
an index inside one is asked for. Iterating over the whole list, comparing it or copying it reads
everything first; indexing, slicing and :func:`reversed` read only the pieces they reach.

It is a :class:`list` (the engine appends to it, slices it and iterates over it like any list):
the pending slots hold a marker that no accessor ever returns.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any, SupportsIndex, overload

from vigile.engine.events import Event

Fetch = Callable[[list[tuple[int, int, int]]], list[list[Event]]]
"""``fetch(pieces)``: for each piece (checkpoint seq, start, end), the events ``start`` to
``end`` of the log, the chunk of the checkpoint ``seq``; all in one read of the store."""


class _Pending:
    __slots__ = ()

    def __repr__(self) -> str:
        return "<pending event>"


PENDING = _Pending()


class EventLog(list[Event]):
    """The events of a game, some of the oldest still in the store (see the module)."""

    __slots__ = ("_fetch", "_pieces")

    def __init__(self, events: Iterable[Event] = ()) -> None:
        super().__init__(events)
        self._fetch: Fetch | None = None
        self._pieces: dict[int, tuple[int, int]] = {}
        """First index → (end, checkpoint seq) of each piece not read yet."""

    @classmethod
    def pending(cls, pieces: Iterable[tuple[int, int, int]], fetch: Fetch) -> EventLog:
        """A log of only pending events: ``pieces`` are (start, end, checkpoint seq), end to
        end from 0; ``fetch`` reads one."""
        made = cls()
        length = 0
        for start, end, seq in pieces:
            if start != length or end < start:
                raise ValueError(f"piece {start}..{end} does not follow {length}")
            if end > start:
                made._pieces[start] = (end, seq)
            length = end
        pending: list[Any] = [PENDING] * length
        list.extend(made, pending)
        made._fetch = fetch
        return made

    @property
    def complete(self) -> bool:
        """Whether every event has been read."""
        return not self._pieces

    def head(self, count: int) -> EventLog:
        """A new log of the first ``count`` events, sharing the pieces not read yet."""
        for first, (end, _) in list(self._pieces.items()):
            if first < count < end:
                self._read(first, count)  # a piece cut in two: read it now
        made = EventLog()
        list.extend(made, list.__getitem__(self, slice(0, count)))
        made._fetch = self._fetch
        made._pieces = {s: p for s, p in self._pieces.items() if s < count}
        return made

    # ---------------------------------------------------------------- reading the pieces

    def _read(self, start: int, end: int) -> None:
        """Read every pending piece that overlaps ``start`` to ``end``."""
        if not self._pieces or start >= end:
            return
        wanted = [
            (seq, first, last)
            for first, (last, seq) in sorted(self._pieces.items())
            if first < end and last > start
        ]
        if not wanted:
            return
        assert self._fetch is not None
        for (seq, first, last), events in zip(wanted, self._fetch(wanted), strict=True):
            if len(events) != last - first:
                raise RuntimeError(f"checkpoint {seq} gave {len(events)} events")
            list.__setitem__(self, slice(first, last), events)
            del self._pieces[first]

    def _read_all(self) -> None:
        self._read(0, len(self))

    # ---------------------------------------------------------------- list, with reads

    @overload
    def __getitem__(self, index: SupportsIndex) -> Event: ...

    @overload
    def __getitem__(self, index: slice) -> list[Event]: ...

    def __getitem__(self, index: SupportsIndex | slice) -> Event | list[Event]:
        if self._pieces:
            if isinstance(index, slice):
                start, stop, step = index.indices(len(self))
                if step > 0:
                    self._read(start, stop)
                else:
                    self._read(stop + 1, start + 1)
            else:
                at = index.__index__()
                at = at + len(self) if at < 0 else at
                self._read(at, at + 1)
        return list.__getitem__(self, index)

    def __iter__(self) -> Iterator[Event]:
        self._read_all()
        return list.__iter__(self)

    def __reversed__(self) -> Iterator[Event]:
        at = len(self)
        while at > 0:
            at -= 1
            if self._pieces:
                self._read(at, at + 1)
            if at < len(self):
                yield list.__getitem__(self, at)

    def __contains__(self, item: object) -> bool:
        self._read_all()
        return list.__contains__(self, item)

    def __eq__(self, other: object) -> bool:
        self._read_all()
        if isinstance(other, EventLog):
            other._read_all()
        return list.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = None

    def __repr__(self) -> str:
        self._read_all()
        return list.__repr__(self)

    def __reduce_ex__(self, protocol: SupportsIndex) -> Any:
        self._read_all()
        return (EventLog, (list(list.__iter__(self)),))

    def __deepcopy__(self, memo: dict[int, Any]) -> EventLog:
        """A copy of the list sharing its events (frozen, never changed once logged) and its
        pending pieces."""
        return self.head(len(self))

    def __copy__(self) -> EventLog:
        return self.head(len(self))

    def copy(self) -> list[Event]:
        self._read_all()
        return list.copy(self)

    def index(self, value: Event, *args: SupportsIndex) -> int:
        self._read_all()
        return list.index(self, value, *args)

    def count(self, value: Event) -> int:
        self._read_all()
        return list.count(self, value)

    def __add__(self, other: list[Event]) -> list[Event]:  # type: ignore[override]
        self._read_all()
        return list.__add__(self, other)

    def __setitem__(self, index: Any, value: Any) -> None:
        self._read_all()
        list.__setitem__(self, index, value)

    def __delitem__(self, index: SupportsIndex | slice) -> None:
        self._read_all()
        list.__delitem__(self, index)

    def insert(self, index: SupportsIndex, value: Event) -> None:
        self._read_all()
        list.insert(self, index, value)

    def pop(self, index: SupportsIndex = -1) -> Event:
        self._read_all()
        return list.pop(self, index)

    def remove(self, value: Event) -> None:
        self._read_all()
        list.remove(self, value)

    def sort(self, *args: Any, **kwargs: Any) -> None:
        self._read_all()
        list.sort(self, *args, **kwargs)

    def reverse(self) -> None:
        self._read_all()
        list.reverse(self)

    def clear(self) -> None:
        list.clear(self)
        self._pieces = {}
