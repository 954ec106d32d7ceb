"""A live encounter: the scenario it started from, its log in the store, its state by replay.

The store keeps an append-only log per encounter (:mod:`vigile.store`). Each GM action is one
record, ``action``: the action as JSON and every die face it used. ``undo`` records undo the
latest action not yet undone; nothing is ever deleted. The state is the replay of the log: a
new game of the scenario (its plans dropped: the GM plays the intruders), the first turn begun,
then each action not undone, each with its own generators (the encounter's seed and the
record's sequence number, :func:`~vigile.engine.live.action_generators`) and its recorded
faces. So a restart, another process or another machine rebuilds exactly the same game.

Two writers at once: an action is checked and played on the state as of the last record, then
appended with the sequence number that state implies (``expect_seq``). If another writer got
there first, the store refuses it (:class:`~vigile.store.StaleSequence`); without an
``expect_seq`` of the caller's, the action is tried again on the new state.

Checkpoints (:mod:`vigile.live.checkpoints`): every :data:`~vigile.live.checkpoints.EVERY`
records the state is kept in the store, written in the same transaction as the record it
follows. A restart or another process loads the latest and replays the records after it; an
undo goes back to the latest checkpoint whose actions in force are the first of those the undo
leaves, and replays the few after it (it drops, with its record, the checkpoints of the records
it takes back). A log with no checkpoint (written before them) gets them on its first replay.
Whatever a checkpoint holds, the state is the one the whole log's replay gives.
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import functools
import logging
import pickle
import secrets
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from vigile.engine.events import DETECTING, Event
from vigile.engine.game import Game
from vigile.engine.live import (
    Asked,
    EndTurn,
    LiveFaces,
    NeedDice,
    Refusal,
    TableRng,
    action_generators,
    action_json,
    parse_action,
)
from vigile.engine.run import new_game
from vigile.errors import InputError
from vigile.live import checkpoints
from vigile.live.eventlog import EventLog
from vigile.live.spans import Spans
from vigile.scene.actors import Side
from vigile.scene.loader import parse_scenario
from vigile.scene.model import Scenario
from vigile.scene.reading import Format
from vigile.store import (
    Checkpoint,
    CheckpointInfo,
    EncounterRow,
    Record,
    StaleSequence,
    Store,
)

log = logging.getLogger(__name__)

RETRIES = 5
"""How many times an action is tried again when another writer appended first."""
MAX_DICE = 500
"""The most dice one request may give."""
CANDIDATES = 8
"""The stored checkpoints a replay tries, newest first, before it starts from the beginning."""
THIN = (checkpoints.RECENT, checkpoints.SPARSE)
"""Which old checkpoints keep their state (:meth:`vigile.store.Store.save_checkpoints`)."""


class ReplayError(InputError):
    """The log no longer replays (written by another version of vigile's rules)."""

    status = 409


class NothingToUndo(InputError):
    """No action is left to undo (a conflict with the encounter's state, not bad input)."""

    status = 409


@dataclass
class Replayed:
    """A game rebuilt from the log, and which events each record logged."""

    game: Game
    seq: int = 0
    """The last record replayed."""
    spans: Spans = field(default_factory=Spans)
    """Record seq → (first, end) indices in ``game.events`` (0: the start)."""
    done: list[int] = field(default_factory=list)
    """The action records in force, oldest first (an undo pops the last): the seqs of
    ``spans`` after the start's."""
    base: int = 0
    """The stored checkpoint this state follows (0: none): its actions in force begin
    ``done``, its events begin ``game.events``; the next checkpoint's events follow its."""
    base_events: int = 0
    """How many events the game had logged at ``base``."""
    base_done: int = 0
    """How many actions were in force at ``base``."""
    dice: str | None = None
    """The dice as the latest ``dice`` record set them (None: the encounter's own)."""

    def rebase(self, seq: int, events: int, done: int) -> None:
        """Follow the stored checkpoint ``seq``, with this many events and actions in force."""
        self.base, self.base_events, self.base_done = seq, events, done

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without ``done``, which the spans hold (their arrays: a checkpoint writes a
        few objects, not a few a record; :mod:`vigile.live.checkpoints`)."""
        state = dict(self.__dict__)
        del state["done"]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        if not isinstance(self.spans, Spans):
            raise TypeError("not the spans of a log")
        self.done = self.spans.seqs(1)


@dataclass(frozen=True)
class _Snapshot:
    """A state taken during a replay, saved as a checkpoint once the replay is over (if no
    later undo took it back)."""

    seq: int
    done_count: int
    top: int
    event_count: int
    state: bytes


PLACEHOLDER = 1
"""The face a preview gives each die the table would roll (the checks that follow depend on it:
the list is the one a roll of 1s would bring)."""


@dataclass
class Ahead:
    """What an action will roll, before it is played (:meth:`Encounter.preview`): each check in
    order (its verdict before the roll, who rolls, its faces, whether it is decided without
    dice), then the patrols whose scatter die moves them as the next turn begins (SK-G1)."""

    checks: list[Asked]
    patrols: list[list[str]]
    patrol_rule: str | None = None
    """The rule the patrols' scatter die follows (the game's ``rule_of("patrol")``)."""
    refusal: Refusal | None = None
    error: InputError | None = None
    ending: int | None = None
    """Where the checks of the end of the turn that would follow the action begin in
    :attr:`checks` (None: not asked, or the action is itself the end of the turn)."""


@dataclass(frozen=True)
class Played:
    """What one request did: the record it appended and the events it logged."""

    record: Record
    events: list[Event]
    undone: int | None = None
    """For an undo: the action record it undid."""


def _head(events: list[Event], count: int) -> list[Event]:
    """The first ``count`` events (a new list; the pieces of a restart's log not read yet stay
    unread)."""
    return events.head(count) if isinstance(events, EventLog) else events[:count]


@dataclass
class _Chunks:
    """Reads the events of a restored state's log from its checkpoints' chunks, when asked for
    (:class:`~vigile.live.eventlog.EventLog`); a chunk missing or unreadable is dropped and the
    events are replayed instead."""

    encounter: Encounter
    info: CheckpointInfo
    """The checkpoint the state was restored from."""
    state: Replayed | None = None
    """The state restored (once read)."""
    replayed: list[Event] | None = None

    def __call__(self, pieces: list[tuple[int, int, int]]) -> list[list[Event]]:
        encounter = self.encounter
        blobs = encounter.store.checkpoint_chunks(encounter.id, [seq for seq, _, _ in pieces])
        return [self._piece(blobs.get(seq), seq, start, end) for seq, start, end in pieces]

    def _piece(self, blob: bytes | None, seq: int, start: int, end: int) -> list[Event]:
        why: object = "its chunk is gone"
        if blob is not None:
            try:
                events = checkpoints.load_chunk(blob)
            except checkpoints.Unreadable as error:
                why = error
            else:
                if len(events) == end - start:
                    return events
                why = f"{len(events)} events where {end - start} were expected"
        self.encounter._broken(seq, why)
        if self.replayed is None:
            assert self.state is not None
            done = self.state.done[: self.info.done_count]
            self.replayed = self.encounter._replay_events(self.info.seq, done)
            self.state.rebase(0, 0, 0)  # its chain is broken: the next checkpoint starts one
        return self.replayed[start:end]


def _usable(info: CheckpointInfo) -> bool:
    """A checkpoint this program wrote (its format and fingerprint): any other is stale."""
    return info.format == checkpoints.FORMAT and info.fingerprint == checkpoints.fingerprint()


def status_of(game: Game) -> dict[str, Any]:
    """The game as the encounter list shows it, kept with each record: its turn, how it ended
    (None while it goes on), the intruders out of play (down or caught), and those still in
    play that a defender has detected (located or observed, RULES.md §4)."""
    intruders = [w for w in game.walkers if w.side is Side.ATTACKERS]
    defenders = [w for w in game.walkers if w.side is Side.DEFENDERS and w.alive]
    outcome = game.outcome
    return {
        "turn": game.turn,
        "outcome": None if outcome is None else str(outcome.kind),
        "out": [w.name for w in intruders if not w.alive],
        "detected": [
            w.name
            for w in intruders
            if w.alive and any(d.aware_of(w.name) in DETECTING for d in defenders)
        ],
    }


def live_scenario(scenario: Scenario) -> Scenario:
    """The scenario as live play starts it: no plans (the GM moves the intruders)."""
    return scenario.model_copy(update={"plans": {}})


class Encounter:
    """One encounter of the store, with its game replayed on demand (cached per process)."""

    def __init__(
        self,
        store: Store,
        encounter_id: str,
        *,
        checkpoints: bool = True,
        every: int = checkpoints.EVERY,
    ) -> None:
        """``checkpoints`` False: neither read nor write any (every replay from the start);
        ``every``: the records between two checkpoints."""
        self.store = store
        stored = store.encounter(encounter_id)
        self.row: EncounterRow = stored
        self.checkpointing = checkpoints
        self.every = max(1, every)
        fmt: Format = stored.scenario_format  # type: ignore[assignment]
        self.scenario = live_scenario(parse_scenario(stored.scenario, file=stored.source, fmt=fmt))
        self._replayed: Replayed | None = None
        self._pristine: tuple[int, int, bytes] | None = None
        """The state before the action being played with the table's dice (:meth:`_keep`)."""
        self._lock = threading.RLock()

    @property
    def id(self) -> str:
        return self.row.id

    # ---------------------------------------------------------------- creating

    @classmethod
    def create(
        cls,
        store: Store,
        *,
        text: str,
        fmt: Format,
        source: str,
        seed: int | None = None,
        dice: str = "rolled",
        name: str | None = None,
        most: int | None = None,
    ) -> tuple[Encounter, dict[str, str]]:
        """A new encounter of the scenario in ``text`` (validated first: a wrong scenario
        stores nothing); returns it and its tokens: ``gm``, ``table`` and one per character
        (each intruder, and each defender: a guard's player sees only what the guard knows).
        ``most``: the live encounters the store may hold (:class:`~vigile.store.TooManyEncounters`
        beyond)."""
        scenario = parse_scenario(text, file=source, fmt=fmt)
        if seed is None:
            seed = scenario.seed if scenario.seed is not None else secrets.randbits(63)
        row = store.create_encounter(
            name=name or scenario.name,
            ruleset=scenario.ruleset,
            source=source,
            scenario=text,
            scenario_format=fmt,
            seed=seed,
            dice=dice,
            most=most,
        )
        tokens = {
            "gm": store.create_token(row.id, "gm"),
            "table": store.create_token(row.id, "table"),
        }
        for actor in scenario.actors:
            tokens.setdefault(actor.name, store.create_token(row.id, "player", actor.name))
        return cls(store, row.id), tokens

    # ---------------------------------------------------------------- the state

    def _fresh(self) -> Replayed:
        game = new_game(self.scenario, seed=self.row.seed)
        game.rng = action_generators(self.row.seed, 0)[1]
        game.start_live()
        return Replayed(game, 0, Spans({0: (0, len(game.events))}))

    def _replay(
        self,
        replayed: Replayed,
        records: Sequence[Record],
        pending: list[_Snapshot] | None = None,
    ) -> Replayed:
        """Replay ``records`` on ``replayed``; an undo goes back to a checkpoint (or the start)
        and plays the actions it leaves after it. ``pending``: snapshots to take every
        :attr:`every` records (an undo drops those it takes back)."""
        for record in records:
            if record.kind == "undo":
                undone = int(record.payload["undoes"])
                keep = [seq for seq in replayed.done if seq != undone]
                current = replayed if keep == replayed.done[:-1] else None
                dice = replayed.dice  # an undo takes back an action, never a change of dice
                replayed = self._rebuild(
                    upto=record.seq, keep=keep, current=current, pending=pending or ()
                )
                replayed.dice = dice
                if pending is not None:
                    pending[:] = [snap for snap in pending if snap.seq < undone]
            else:
                if record.kind == "action":
                    start = len(replayed.game.events)
                    self._play(replayed.game, record.seq, record.payload)
                    replayed.done.append(record.seq)
                    replayed.spans[record.seq] = (start, len(replayed.game.events))
                elif record.kind == "dice":
                    replayed.dice = str(record.payload.get("dice"))
                replayed.seq = record.seq
            if pending is not None:
                last = max(replayed.base, pending[-1].seq if pending else 0)
                if replayed.seq - last >= self.every:
                    snapshot = self._snapshot(replayed)
                    if snapshot is not None:
                        pending.append(snapshot)
        return replayed

    def _rebuild(
        self,
        *,
        upto: int,
        keep: list[int],
        current: Replayed | None = None,
        pending: Sequence[_Snapshot] = (),
    ) -> Replayed:
        """The game with only the actions ``keep`` (in order), as of record ``upto``: from the
        latest checkpoint (stored, or among ``pending``) whose actions in force begin ``keep``,
        else from the start, then the actions of ``keep`` after it.

        ``current``: a game whose actions in force begin with ``keep`` (the game being undone):
        a checkpoint's log (events, actions in force) is the beginning of its own. Without it,
        the log is read from the store."""
        replayed = self._from_checkpoint(upto, keep, current, pending)
        if replayed is None:
            replayed = self._fresh()
        rest = keep[len(replayed.done) :]
        if rest:
            records = {r.seq: r for r in self.store.records(self.id, after=rest[0] - 1, upto=upto)}
            for seq in rest:
                start = len(replayed.game.events)
                self._play(replayed.game, seq, records[seq].payload)
                replayed.done.append(seq)
                replayed.spans[seq] = (start, len(replayed.game.events))
        replayed.seq = upto
        return replayed

    def _from_checkpoint(
        self,
        upto: int,
        keep: list[int],
        current: Replayed | None,
        pending: Sequence[_Snapshot],
    ) -> Replayed | None:
        if not self.checkpointing:
            return None
        found: list[CheckpointInfo | _Snapshot] = [
            info
            for info in self.store.checkpoints(
                self.id, upto=upto, limit=CANDIDATES, restorable=True
            )
            if _usable(info)
        ]
        found += [snap for snap in pending if snap.seq <= upto]
        found.sort(key=lambda c: c.seq, reverse=True)
        for candidate in found:
            if candidate.done_count > len(keep) or (
                candidate.done_count and keep[candidate.done_count - 1] != candidate.top
            ):
                continue  # an action in force there is not in force here: taken back since
            if current is not None and len(current.game.events) >= candidate.event_count:
                replayed = self._restore(
                    candidate, _head(current.game.events, candidate.event_count)
                )
            elif isinstance(candidate, _Snapshot):
                continue
            else:
                replayed = self._restore_stored(candidate)
            if replayed is not None and replayed.done == keep[: candidate.done_count]:
                return replayed
        return None

    def _cold(self, last: int) -> Replayed:
        """The state as of the latest usable checkpoint (record ``last`` at most), or the start."""
        if self.checkpointing:
            for info in self.store.checkpoints(
                self.id, upto=last, limit=CANDIDATES, restorable=True
            ):
                if not _usable(info):
                    continue
                replayed = self._restore_stored(info)
                if replayed is not None:
                    return replayed
        return self._fresh()

    def _restore_stored(self, info: CheckpointInfo) -> Replayed | None:
        """The state of a stored checkpoint, its events left in the store until asked for;
        None where a link of its chain of chunks is missing."""
        chunks = _Chunks(self, info)
        events = self._events_of(info, chunks)
        return None if events is None else self._restore(info, events, chunks)

    def _events_of(self, info: CheckpointInfo, fetch: _Chunks) -> EventLog | None:
        """The events of the game at checkpoint ``info``, all pending: its chunk after its
        parents' (down the chain of parents); None where a link is missing."""
        links = self.store.checkpoint_links(
            self.id, upto=info.seq, format=checkpoints.FORMAT, fingerprint=checkpoints.fingerprint()
        )
        chain = [(info.seq, info.event_count)]
        parent = info.parent
        while parent:
            if parent not in links:
                return None
            chain.append((parent, links[parent][1]))
            parent = links[parent][0]
        pieces = []
        start = 0
        for seq, count in reversed(chain):
            if count < start:
                return None
            pieces.append((start, count, seq))
            start = count
        return EventLog.pending(pieces, fetch)

    def _replay_events(self, upto: int, keep: Sequence[int]) -> list[Event]:
        """The events of the game with the actions ``keep`` as of record ``upto``, replayed from
        the start (a checkpoint's chunk was lost)."""
        replayed = self._fresh()
        if keep:
            records = {r.seq: r for r in self.store.records(self.id, after=keep[0] - 1, upto=upto)}
            for seq in keep:
                self._play(replayed.game, seq, records[seq].payload)
        return replayed.game.events

    def _restore(
        self,
        found: CheckpointInfo | _Snapshot,
        events: list[Event],
        chunks: _Chunks | None = None,
    ) -> Replayed | None:
        """The state of a checkpoint with its events; None where it does not read back as the
        state it says it is."""
        data = (
            found.state
            if isinstance(found, _Snapshot)
            else self.store.checkpoint_state(self.id, found.seq)
        )
        if data is None:
            return None
        try:
            state = checkpoints.load_state(data, events=events, scenario=self.scenario)
        except checkpoints.Unreadable as error:
            if not isinstance(found, _Snapshot):
                self._broken(found.seq, error)
            return None
        if not (
            isinstance(state, Replayed)
            and isinstance(state.game, Game)
            and state.game.events is events
            and state.seq == found.seq
            and len(state.done) == found.done_count
            and (state.done[-1] if state.done else 0) == found.top
            and len(events) == found.event_count
            and len(state.spans) == len(state.done) + 1
            and state.spans.last()[1] <= found.event_count
        ):
            if not isinstance(found, _Snapshot):
                self._broken(found.seq, "not the state it says it is")
            return None
        if isinstance(found, CheckpointInfo):
            state.rebase(found.seq, found.event_count, found.done_count)
        if chunks is not None:
            chunks.state = state
        return state

    def _broken(self, seq: int, why: object) -> None:
        """Drop a checkpoint of this program's that does not read back (a replay writes it
        again): a cache, never the truth."""
        log.warning("encounter %s: checkpoint %s dropped: %s", self.id, seq, why)
        self.store.drop_checkpoints(self.id, since=seq, until=seq)

    def _snapshot(self, replayed: Replayed) -> _Snapshot | None:
        """The state as a snapshot (None: this game cannot be pickled; it is replayed instead)."""
        try:
            data = checkpoints.dump_state(
                replayed, events=replayed.game.events, scenario=self.scenario
            )
        except (pickle.PicklingError, TypeError, AttributeError):  # pragma: no cover
            return None
        return _Snapshot(
            seq=replayed.seq,
            done_count=len(replayed.done),
            top=replayed.done[-1] if replayed.done else 0,
            event_count=len(replayed.game.events),
            state=data,
        )

    def _checkpoints(self, replayed: Replayed, snapshots: Sequence[_Snapshot]) -> list[Checkpoint]:
        """Snapshots of the game ``replayed`` (taken on its way: their actions in force begin
        its own) as checkpoints, each after the one before, the first after ``base``."""
        made: list[Checkpoint] = []
        parent = replayed.base
        events, done = replayed.base_events, replayed.base_done
        for snap in snapshots:
            if snap.seq <= parent or snap.event_count < events or snap.done_count < done:
                continue
            chunk = replayed.game.events[events : snap.event_count]
            made.append(
                Checkpoint(
                    seq=snap.seq,
                    parent=parent,
                    done_count=snap.done_count,
                    top=snap.top,
                    event_count=snap.event_count,
                    format=checkpoints.FORMAT,
                    fingerprint=checkpoints.fingerprint(),
                    state=snap.state,
                    chunk=checkpoints.dump_chunk(chunk),
                )
            )
            parent, events, done = snap.seq, snap.event_count, snap.done_count
        return made

    def _due(self, replayed: Replayed) -> Checkpoint | None:
        """A checkpoint of the state, if :attr:`every` records have gone since its base."""
        if not self.checkpointing or replayed.seq - replayed.base < self.every:
            return None
        snapshot = self._snapshot(replayed)
        if snapshot is None:  # pragma: no cover
            return None
        return self._checkpoints(replayed, [snapshot])[0]

    def _play(self, game: Game, seq: int, payload: dict[str, Any]) -> None:
        action = parse_action(payload["action"], ruleset=self.scenario.ruleset)
        dice_rng, rng = action_generators(self.row.seed, seq)
        # The recorded faces, told as they were first told: the GM's dice only in an encounter
        # with given dice (a replay reads the same as the first play, restart or not). Every
        # face is recorded; were one missing, the action's own dice generator would give the
        # same face again (rolled), or NeedDice would stop the replay (given). An action played
        # with the table's scatter dice recorded its bearings too (TableRng).
        bearings = payload.get("bearings")
        game.rng = rng if bearings is None else TableRng(rng, bearings, ask=False)  # type: ignore[assignment]
        game.faces = LiveFaces(
            dice_rng, payload.get("faces", []), physical=self.row.dice == "given"
        )
        try:
            game.apply(action)
        except InputError as error:
            raise ReplayError(f"record {seq} no longer replays: {error}", where="log") from None
        finally:
            game.rng = rng  # the state keeps a plain generator (checkpoints pickle it)

    def state(self, *, at_least: int | None = None) -> Replayed:
        """The game as of the last record (replayed from the log, incrementally when it can).

        ``at_least``: a caller who only needs record ``at_least`` takes the cached game without
        asking the database when the cache holds it (a write in this process has just put it
        there); records other processes wrote are found by the callers who ask without it.
        Without a cached game, the latest checkpoint is the start; a replay of more than
        :attr:`every` records leaves checkpoints behind it."""
        with self._lock:
            replayed = self._replayed
            if at_least is not None and replayed is not None and replayed.seq >= at_least:
                return replayed
            if replayed is None:
                last = self.store.last_seq(self.id)
                replayed = self._cold(last)
                records = (
                    list(self.store.records(self.id, after=replayed.seq))
                    if replayed.seq < last
                    else []
                )
            else:  # the records after the cached game's, if any: one question, not two
                records = list(self.store.records(self.id, after=replayed.seq))
            if records:
                # a few records another process wrote (and checkpointed as it wrote them): no
                # snapshot of our own; a long replay (a restart, a cold cache) leaves them
                pending: list[_Snapshot] | None = (
                    [] if self.checkpointing and len(records) >= self.every else None
                )
                replayed = self._replay(replayed, records, pending)
                if pending:
                    self._save(replayed, pending)
            self._replayed = replayed
            if replayed.dice is not None and replayed.dice != self.row.dice:
                self.row = dataclasses.replace(self.row, dice=replayed.dice)
            return replayed

    def _save(self, replayed: Replayed, pending: list[_Snapshot]) -> None:
        """Save the snapshots a replay took, if its last record is still the log's last."""
        made = self._checkpoints(replayed, pending)
        saved = self.store.save_checkpoints(self.id, made, last_seq=replayed.seq, thin=THIN)
        if saved:
            last = made[saved - 1]
            replayed.rebase(last.seq, last.event_count, last.done_count)

    @contextmanager
    def reading(self, *, at_least: int | None = None) -> Iterator[Replayed]:
        """The state as of the last record (see :meth:`state`), held still while the caller
        reads it: no action of another thread is half-played on it meanwhile (a missing die
        stops an action half-way, its events already logged in the cached game, before the
        cache is dropped)."""
        with self._lock:
            yield self.state(at_least=at_least)

    def cached_seq(self) -> int | None:
        """The last record of the game this process holds, if it holds one."""
        replayed = self._replayed
        return None if replayed is None else replayed.seq

    @property
    def game(self) -> Game:
        return self.state().game

    @functools.cached_property
    def actor_names(self) -> frozenset[str]:
        """Every actor's name (they never change: no question to the database after the first)."""
        return frozenset(self.game.by_name)

    # ---------------------------------------------------------------- writing

    def act(
        self,
        data: object,
        *,
        dice: Sequence[int] | None = None,
        expect_seq: int | None = None,
        bearings: Sequence[float] | None = None,
    ) -> Played:
        """Play one action (JSON-like ``data``) and append it to the log.

        ``dice``: the table's dice for the action's checks, in order. In an encounter with
        ``given`` dice every face must come from them (:class:`NeedDice` says which check
        needs the next one); with ``rolled`` dice the faces not given are drawn.
        A refused action, a missing die or a stale ``expect_seq`` stores nothing.

        ``bearings`` (a list, even empty: the GM's table; None: as before, for the API's
        clients): in a ``given`` encounter the dice are the table's check by check: a check
        decided whatever its dice (:func:`~vigile.engine.live.decided`) takes none, and each
        patrol's scatter die is asked too (:class:`~vigile.engine.live.TableRng`), these
        bearings in order (degrees).
        """
        action = parse_action(data, ruleset=self.scenario.ruleset)
        given = list(dice or ())
        if len(given) + len(bearings or ()) > MAX_DICE:
            raise InputError(f"at most {MAX_DICE} dice a request", where="dice")
        for attempt in range(RETRIES):
            with self._lock:
                replayed = self.state()
                seq = replayed.seq + 1
                if expect_seq is not None and expect_seq != seq:
                    raise StaleSequence(self.id, expected=expect_seq, actual=seq)
                events, faces, drawn = self._try(replayed, action, seq, given, bearings)
                try:
                    # The state as of the new record, before the record is written: a stale
                    # sequence or any error below forgets it.
                    replayed.seq = seq
                    replayed.done.append(seq)
                    start = len(replayed.game.events) - len(events)
                    replayed.spans[seq] = (start, len(replayed.game.events))
                    checkpoint = self._due(replayed)
                    record, kept = self.store.append_checkpointed(
                        self.id,
                        "action",
                        {"action": action_json(action), "faces": faces}
                        | ({} if drawn is None else {"bearings": drawn}),
                        expect_seq=seq,
                        checkpoint=checkpoint,
                        thin=THIN,
                        status=status_of(replayed.game),
                    )
                except StaleSequence:
                    self._replayed = None
                    if expect_seq is not None or attempt == RETRIES - 1:
                        raise
                    continue
                except BaseException:
                    self._replayed = None
                    raise
                if kept and checkpoint is not None:
                    replayed.rebase(seq, checkpoint.event_count, checkpoint.done_count)
                return Played(record, events)
        raise AssertionError("unreachable")  # pragma: no cover

    def _try(
        self,
        replayed: Replayed,
        action: BaseModel,
        seq: int,
        given: list[int],
        bearings: Sequence[float] | None = None,
    ) -> tuple[list[Event], list[int], list[float] | None]:
        """Play the action on the cached game; on any error but a refusal (made before anything
        changes), forget the cache (the game may be half-changed) and let the error through.
        Returns its events, its faces and, played with the table's scatter dice, its bearings."""
        game = replayed.game
        dice_rng, rng = action_generators(self.row.seed, seq)
        physical = self.row.dice == "given"
        table = physical and bearings is not None
        if physical:
            self._keep(replayed)
        faces = LiveFaces(dice_rng, given, physical=physical, table=table)
        drawn = TableRng(rng, bearings or (), game=game) if table else None
        game.rng, game.faces = (drawn or rng), faces  # type: ignore[assignment]
        try:
            events = game.apply(action)
            faces.finish()
            if drawn is not None:
                drawn.finish()
        except Refusal:
            raise  # refused before anything changed (Game.apply): the cache stands
        except NeedDice:
            self._replayed = self._kept(replayed)
            raise
        except BaseException:
            self._replayed = None
            raise
        finally:
            game.rng = rng
        return events, faces.faces, None if drawn is None else drawn.bearings

    def _keep(self, replayed: Replayed) -> None:
        """Keep a copy of the state before an action played with the table's dice: each die
        missing stops the action half-way, and the next try (with one more die) starts again
        from this copy instead of replaying the whole log. The copy leaves out the events
        (:mod:`vigile.live.checkpoints`): the half-played game's begin with them."""
        if self._pristine is not None and self._pristine[0] == replayed.seq:
            return
        snapshot = self._snapshot(replayed)
        self._pristine = (
            None if snapshot is None else (snapshot.seq, snapshot.event_count, snapshot.state)
        )  # a game that cannot be copied is replayed instead

    def _kept(self, replayed: Replayed) -> Replayed | None:
        """The copy of the state as of record ``replayed.seq``, the half-played action taken
        back (None: replay it from the log). The log is append-only and its replay exact, so
        the state as of a record never changes."""
        if self._pristine is None or self._pristine[0] != replayed.seq:
            return None
        _, count, data = self._pristine
        # The half-played action logged events, and put nothing in force.
        prefix = _head(replayed.game.events, count)
        try:
            kept = checkpoints.load_state(data, events=prefix, scenario=self.scenario)
        except checkpoints.Unreadable:  # pragma: no cover - our own bytes, made just above
            return None
        assert isinstance(kept, Replayed)
        kept.rebase(replayed.base, replayed.base_events, replayed.base_done)
        return kept

    def set_dice(self, dice: str, *, expect_seq: int | None = None) -> Record:
        """Play on with ``dice``: ``rolled`` (vigile rolls) or ``given`` (the table's dice), a
        ``dice`` record of the log (a demo started with vigile's dice switches to the table's
        from the GM page). Every face of the actions before it is in the log: they replay as
        they were played, whatever the dice after."""
        if dice not in ("rolled", "given"):
            raise InputError("rolled or given", where="dice")
        with self._lock:
            replayed = self.state()
            seq = replayed.seq + 1
            if expect_seq is not None and expect_seq != seq:
                raise StaleSequence(self.id, expected=expect_seq, actual=seq)
            record, _ = self.store.append_checkpointed(
                self.id,
                "dice",
                {"dice": dice},
                expect_seq=seq,
                status=status_of(replayed.game),
            )
            replayed.seq, replayed.dice = seq, dice
            self.row = dataclasses.replace(self.row, dice=dice)
            self._pristine = None
            return record

    def preview(
        self,
        data: object,
        dice: Sequence[int] = (),
        bearings: Sequence[float] = (),
        *,
        then_end: bool = False,
    ) -> Ahead:
        """The checks ``data`` would roll now, in order, each with its exact odds, and the
        patrols whose scatter dice it would draw, played on a copy of the game
        (:func:`copy.deepcopy`) with ``dice`` and ``bearings`` the table's so far, stand-ins
        after them: nothing here changes. An action the rules refuse has its
        :class:`Refusal`; bad input raises.

        ``then_end``: and the checks ending the turn would then roll (a move rolls none of its
        own in the d20 games: its Spot and Listen tests come at the end of the round), from
        :attr:`Ahead.ending` on."""
        action = parse_action(data, ruleset=self.scenario.ruleset)
        with self.reading() as replayed:
            game = copy.deepcopy(replayed.game)
            seq = replayed.seq + 1
        dice_rng, rng = action_generators(self.row.seed, seq)
        faces = LiveFaces(dice_rng, dice, physical=True, table=True, stand_in=PLACEHOLDER)
        drawn = TableRng(rng, bearings, game=game, stand_in=0.0)
        game.rng, game.faces = drawn, faces  # type: ignore[assignment]
        ahead = Ahead(faces.checks, drawn.asked, game.rule_of("patrol"))
        try:
            game.apply(action)
        except Refusal as refusal:
            ahead.refusal = refusal
            return ahead
        except InputError as error:
            ahead.error = error
            return ahead
        if then_end and not isinstance(action, EndTurn) and game.outcome is None:
            ahead.ending = len(faces.checks)
            with contextlib.suppress(InputError):  # a refusal, or the dice: what came is listed
                game.apply(EndTurn(do="end-turn"))
        return ahead

    def pool_left(self, data: object, dice: Sequence[int], bearings: Sequence[float]) -> int:
        """How many dice the check the table's dice ran out in still needs (the rest of its
        pool: ``6 1 3`` typed at once); 1 when it cannot tell. A die that calls for another
        (SK-D3's six rolled again) is asked for once it is known."""
        ahead = self.preview(data, dice, bearings)
        return next((c.stand_ins for c in ahead.checks if c.stand_ins), 1)

    def undo(self, *, expect_seq: int | None = None) -> Played:
        """Undo the latest action still in force: an ``undo`` record (nothing is deleted)."""
        with self._lock:
            replayed = self.state()
            if not replayed.done:
                raise NothingToUndo("nothing to undo", where="undo")
            seq = replayed.seq + 1
            if expect_seq is not None and expect_seq != seq:
                raise StaleSequence(self.id, expected=expect_seq, actual=seq)
            undone = replayed.done[-1]
            # The state after the undo, before its record is written (the cached game stays
            # as it is until then): the latest checkpoint before the undone action, and the
            # actions in force after it.
            after = self._rebuild(upto=seq, keep=replayed.done[:-1], current=replayed)
            after.dice = replayed.dice
            checkpoint = self._due(after)
            record, kept = self.store.append_checkpointed(
                self.id,
                "undo",
                {"undoes": undone},
                expect_seq=seq,
                checkpoint=checkpoint,
                drop_from=undone,
                thin=THIN,
                status=status_of(after.game),
            )
            if kept and checkpoint is not None:
                after.rebase(seq, checkpoint.event_count, checkpoint.done_count)
            self._replayed = after
            return Played(record, [], undone=undone)
