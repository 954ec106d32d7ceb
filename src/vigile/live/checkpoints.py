"""Checkpoints: a live encounter's replayed state as bytes, kept in the store beside its log.

A restart, an undo or a viewer who joins late would otherwise replay the whole log. Every
:data:`EVERY` records the encounter keeps a checkpoint (:mod:`vigile.live.encounter`): the
state as of a record, which a replay then continues. The log stays the truth; a checkpoint is a
cache of its replay, used only when it can give what the replay gives:

* its ``format`` is :data:`FORMAT` and its ``fingerprint`` is this program's
  (:func:`fingerprint`: vigile's own code and data files, Python's and numpy's versions): a
  checkpoint written by any other vigile is stale and ignored;
* it reads back (an error of any kind: ignored), and it is the state as of its record with the
  actions in force the replay needs (checked after reading);
* otherwise the log is replayed from an earlier checkpoint, or from the start.

So a checkpoint can make a replay faster, never different; the tests replay random games both
ways and compare every viewer's view and the next rolls.

The bytes are a :mod:`pickle` of the game, compressed (zlib). Pickle runs code named in the
bytes when it reads them, which is safe only for bytes one wrote oneself: these are written by
vigile only, from its own state, into the server's own database; no request ever carries them
in or out, so reading one is as trusted as reading the server's own files. Reading also goes
through an unpickler that builds only the classes a game's state is made of (vigile's game,
scene, rules and dice classes; numpy's generators and arrays; a few builtins), so bytes
someone slipped into the database cannot call anything else (``os.system`` and the like).

What is pickled, and what not:

* the state without its events (the game's ``events``, which grow with the log), so that a
  checkpoint's size does not grow much with the log's: each checkpoint's *chunk* holds only
  the events logged since its parent checkpoint. An undo in a running server takes the events
  from the game it holds (the state it goes back to logged a prefix of them); a restart gives
  the state an :class:`~vigile.live.eventlog.EventLog` whose older events are read from the
  chunks down the chain of parents only when asked for. The actions in force and which events
  each logged (two integers a record) are part of the state;
* the scenario, which the encounter has already read, is the encounter's own object;
* the board's memos (answers of pure functions of the walls and doors, up to 100,000 of them)
  start empty again.

Old checkpoints keep their chunk (a link of the chain) but lose their state
(:data:`RECENT`, :data:`SPARSE`): an undo far back starts from a sparser one.
"""

from __future__ import annotations

import copyreg
import functools
import hashlib
import io
import pickle
import sys
import zlib
from pathlib import Path
from typing import Any, Final

import numpy as np

import vigile
from vigile.engine.board import Board
from vigile.engine.events import Event

FORMAT: Final = 3
"""The checkpoints' format: raised whenever what a checkpoint holds changes shape."""
EVERY: Final = 10
"""Records between two checkpoints: an undo, a restart or a late joiner replays fewer than this
many actions after loading one. Each checkpoint costs a pickle of the state without its events
(tens of kilobytes) and of the events since the last one, written with the record."""
RECENT: Final = 8
"""The newest checkpoints that all keep their state."""
SPARSE: Final = 10 * EVERY
"""Older ones keep their state only if newest in their window of this many records."""
LEVEL: Final = 1
"""zlib's level: fast, and about a seventh of the pickle's size."""
BOARD_MEMOS: Final = ("_seen", "_lit", "_cover")
"""The board's caches of pure answers (:class:`~vigile.engine.board.Board`), left out."""

_STATE_PACKAGES: Final = frozenset(
    {"awareness", "checks", "dice", "engine", "games", "live", "rulesets", "scene"}
)
"""vigile's packages whose classes a game's state is made of."""
_ALLOWED: Final = frozenset(
    {
        ("builtins", "set"),
        ("builtins", "frozenset"),
        ("builtins", "complex"),
        ("builtins", "slice"),
        ("collections", "OrderedDict"),
        ("collections", "defaultdict"),
        ("collections", "deque"),
        ("copyreg", "_reconstructor"),
        ("builtins", "object"),
        ("fractions", "Fraction"),
        ("numpy", "dtype"),
        ("numpy", "ndarray"),
        ("numpy._core.numeric", "_frombuffer"),
        ("numpy.core.numeric", "_frombuffer"),
        ("numpy._core.multiarray", "_reconstruct"),
        ("numpy.core.multiarray", "_reconstruct"),
        ("numpy._core.multiarray", "scalar"),
        ("numpy.core.multiarray", "scalar"),
        ("numpy.random._pickle", "__bit_generator_ctor"),
        ("numpy.random._pickle", "__generator_ctor"),
        ("numpy.random._pickle", "__randomstate_ctor"),
        ("numpy.random._generator", "Generator"),
        ("numpy.random._pcg64", "PCG64"),
        ("numpy.random._pcg64", "PCG64DXSM"),
        ("numpy.random._philox", "Philox"),
        ("numpy.random._sfc64", "SFC64"),
        ("numpy.random._mt19937", "MT19937"),
        ("numpy.random.bit_generator", "SeedSequence"),
        ("numpy.random.bit_generator", "__pyx_unpickle_SeedSequence"),
    }
)
"""What else a state may name (numpy's names in numpy 1 and 2)."""


class Unreadable(Exception):
    """A checkpoint's bytes do not read back as a state of this program."""


@functools.cache
def fingerprint() -> str:
    """What a checkpoint is only good for: this checkpoint format, vigile's code and data files
    (every ``.py`` and ``.toml`` of the package: its version alone does not change with each
    edit), and Python's and numpy's versions. SHA-256, hex."""
    digest = hashlib.sha256()
    digest.update(
        f"format {FORMAT}|python {sys.version_info[:2]}|numpy {np.__version__}|"
        f"vigile {vigile.__version__}".encode()
    )
    root = Path(vigile.__file__).parent
    for path in sorted(root.rglob("*")):
        if path.suffix in (".py", ".toml") and path.is_file():
            digest.update(b"\0" + path.relative_to(root).as_posix().encode() + b"\0")
            digest.update(path.read_bytes())
    return digest.hexdigest()


class _EventIndex(dict[int, int]):
    """Where each event of a list is, by identity, worked out only if the state refers to
    one (it rarely does: a restart's list need not be read for the state to be pickled)."""

    def __init__(self, events: list[Event]) -> None:
        super().__init__()
        self._events = events

    def get(self, key: int, default: Any = None) -> Any:
        if not self and self._events:
            self.update((id(event), i) for i, event in enumerate(self._events))
        return super().get(key, default)


class _Pickler(pickle.Pickler):
    def __init__(self, file: io.BytesIO, events: list[Event] | None, scenario: object) -> None:
        super().__init__(file, protocol=5)
        self._named: dict[int, str] = {}
        self._index: dict[int, int] = {}
        if events is not None:
            self._named[id(events)] = "events"
            self._index = _EventIndex(events)
        if scenario is not None:
            self._named[id(scenario)] = "scenario"

    def persistent_id(self, obj: Any) -> Any:
        name = self._named.get(id(obj))
        if name is not None:
            return name
        if type(obj) is Event:
            at = self._index.get(id(obj))
            if at is not None:
                return ("event", at)
        return None

    def reducer_override(self, obj: Any) -> Any:
        if isinstance(obj, Board):
            state = dict(vars(obj))
            for name in BOARD_MEMOS:
                if name in state:
                    state[name] = {}
            return (copyreg.__newobj__, (type(obj),), state)  # type: ignore[attr-defined]
        return NotImplemented


class _Unpickler(pickle.Unpickler):
    def __init__(self, file: io.BytesIO, events: list[Event] | None, scenario: object) -> None:
        super().__init__(file)
        self._events = events
        self._named: dict[str, object] = {}
        if events is not None:
            self._named["events"] = events
        if scenario is not None:
            self._named["scenario"] = scenario

    def persistent_load(self, pid: Any) -> Any:
        if isinstance(pid, str) and pid in self._named:
            return self._named[pid]
        if (
            self._events is not None
            and isinstance(pid, tuple)
            and len(pid) == 2
            and pid[0] == "event"
            and type(pid[1]) is int
            and 0 <= pid[1] < len(self._events)
        ):
            return self._events[pid[1]]
        raise pickle.UnpicklingError(f"unknown persistent id {pid!r}")

    def find_class(self, module: str, name: str) -> Any:
        if "." in name:
            raise pickle.UnpicklingError(f"{module}:{name}: no dotted names")
        if (module, name) in _ALLOWED:
            return super().find_class(module, name)
        parts = module.split(".")
        if len(parts) >= 2 and parts[0] == "vigile" and parts[1] in _STATE_PACKAGES:
            found = super().find_class(module, name)
            if isinstance(found, type):
                return found
        raise pickle.UnpicklingError(f"{module}.{name} is not part of a game's state")


def dump_state(state: object, *, events: list[Event], scenario: object) -> bytes:
    """The state's bytes: its ``events`` (the list itself) and ``scenario`` (the encounter's)
    are named, not copied; each event the state refers to is named by its index in
    ``events``."""
    buffer = io.BytesIO()
    _Pickler(buffer, events, scenario).dump(state)
    return zlib.compress(buffer.getvalue(), LEVEL)


def load_state(data: bytes, *, events: list[Event], scenario: object) -> Any:
    """The state :func:`dump_state` gave, with ``events`` (which it then owns) and the
    encounter's ``scenario`` put back; :class:`Unreadable` for any bytes that do not read
    back."""
    return _load(data, events, scenario)


def dump_chunk(events: list[Event]) -> bytes:
    """A run of a log's events as bytes."""
    buffer = io.BytesIO()
    _Pickler(buffer, None, None).dump(list(events))
    return zlib.compress(buffer.getvalue(), LEVEL)


def load_chunk(data: bytes) -> list[Event]:
    """The run :func:`dump_chunk` gave; :class:`Unreadable` otherwise."""
    found = _load(data, None, None)
    if not (isinstance(found, list) and all(type(e) is Event for e in found)):
        raise Unreadable("not a run of a log")
    return found


def _load(data: bytes, events: list[Event] | None, scenario: object) -> Any:
    try:
        return _Unpickler(io.BytesIO(zlib.decompress(data)), events, scenario).load()
    except Exception as error:  # any failure to read is the same: not a usable checkpoint
        raise Unreadable(f"{type(error).__name__}: {error}") from None
