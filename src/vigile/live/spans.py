"""Which events each record of a live encounter logged: record seq → (first, end) indices.

A replayed state holds one span per action in force (and one for the start, seq 0), so a
long encounter holds thousands. Every undo writes a checkpoint of the state, and every restart
reads one back: a ``dict`` of tuples made both grow with the log (an object per record to
pickle and unpickle). :class:`Spans` keeps them in three numpy arrays that
grow by doubling, pickle as arrays (a copy of memory, no object per record) and are searched
by bisection. Records come in order: a span is only ever added after the last one.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

_FIRST_CAPACITY = 16


class Spans:
    """An ordered mapping seq → (first, end) for increasing ``seq``, backed by arrays."""

    __slots__ = ("_ends", "_len", "_seqs", "_starts")

    def __init__(self, items: dict[int, tuple[int, int]] | None = None) -> None:
        self._seqs = np.empty(_FIRST_CAPACITY, dtype=np.int64)
        self._starts = np.empty(_FIRST_CAPACITY, dtype=np.int64)
        self._ends = np.empty(_FIRST_CAPACITY, dtype=np.int64)
        self._len = 0
        for seq, span in (items or {}).items():
            self[seq] = span

    # ---------------------------------------------------------------- reading

    def __len__(self) -> int:
        return self._len

    def _at(self, seq: int) -> int:
        """The index of ``seq``, or -1."""
        n = self._len
        i = int(np.searchsorted(self._seqs[:n], seq))
        return i if i < n and int(self._seqs[i]) == seq else -1

    def __contains__(self, seq: object) -> bool:
        return isinstance(seq, int) and self._at(seq) >= 0

    def __getitem__(self, seq: int) -> tuple[int, int]:
        i = self._at(seq)
        if i < 0:
            raise KeyError(seq)
        return int(self._starts[i]), int(self._ends[i])

    def get(self, seq: int, default: Any = None) -> Any:
        i = self._at(seq)
        return default if i < 0 else (int(self._starts[i]), int(self._ends[i]))

    def __iter__(self) -> Iterator[int]:
        return iter(self.seqs())

    def items(self) -> Iterator[tuple[int, tuple[int, int]]]:
        n = self._len
        seqs, starts, ends = (a[:n].tolist() for a in (self._seqs, self._starts, self._ends))
        return zip(seqs, zip(starts, ends, strict=True), strict=True)

    def keys(self) -> list[int]:
        return self.seqs()

    def seqs(self, start: int = 0) -> list[int]:
        """The records' seqs, from index ``start`` on."""
        found: list[int] = self._seqs[start : self._len].tolist()
        return found

    def last(self) -> tuple[int, int]:
        """The latest record's span."""
        if not self._len:
            raise KeyError("no span")
        i = self._len - 1
        return int(self._starts[i]), int(self._ends[i])

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Spans):
            return dict(self.items()) == dict(other.items())
        if isinstance(other, dict):
            return dict(self.items()) == other
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Spans({dict(self.items())!r})"

    # ---------------------------------------------------------------- writing

    def __setitem__(self, seq: int, span: tuple[int, int]) -> None:
        n = self._len
        if n and seq <= int(self._seqs[n - 1]):
            raise ValueError(f"span of record {seq} after record {int(self._seqs[n - 1])}")
        if n == len(self._seqs):
            size = 2 * n
            self._seqs, self._starts, self._ends = (
                np.concatenate([a, np.empty(size - n, dtype=np.int64)])
                for a in (self._seqs, self._starts, self._ends)
            )
        self._seqs[n], self._starts[n], self._ends[n] = seq, span[0], span[1]
        self._len = n + 1

    # ---------------------------------------------------------------- pickling, copying

    def __getstate__(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Each array as the differences from one value to the next: mostly small and alike,
        they compress to a third and three times as fast as the values."""
        n = self._len
        return tuple(  # type: ignore[return-value]
            np.diff(a[:n], prepend=np.int64(0)) for a in (self._seqs, self._starts, self._ends)
        )

    def __setstate__(self, state: tuple[np.ndarray, np.ndarray, np.ndarray]) -> None:
        if not (
            isinstance(state, tuple)
            and len(state) == 3
            and all(
                isinstance(a, np.ndarray) and a.dtype == np.int64 and a.ndim == 1 for a in state
            )
            and len(state[0]) == len(state[1]) == len(state[2])
            and bool(np.all(state[0][1:] > 0))
        ):
            raise ValueError("not the spans of a log")
        n = len(state[0])
        size = max(_FIRST_CAPACITY, 2 * n)
        self._seqs, self._starts, self._ends = (
            np.concatenate([np.cumsum(a), np.empty(size - n, dtype=np.int64)]) for a in state
        )
        self._len = n

    def __copy__(self) -> Spans:
        made = Spans.__new__(Spans)
        made._seqs, made._starts, made._ends = (
            a.copy() for a in (self._seqs, self._starts, self._ends)
        )
        made._len = self._len
        return made

    def __deepcopy__(self, memo: dict[int, Any]) -> Spans:
        return self.__copy__()
