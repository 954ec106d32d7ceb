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
"""

from __future__ import annotations

import pickle
import secrets
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from vigile.engine.events import Event
from vigile.engine.game import Game
from vigile.engine.live import (
    LiveFaces,
    NeedDice,
    Refusal,
    action_generators,
    action_json,
    parse_action,
)
from vigile.engine.run import new_game
from vigile.errors import InputError
from vigile.scene.loader import parse_scenario
from vigile.scene.model import Scenario
from vigile.scene.reading import Format
from vigile.store import EncounterRow, Record, StaleSequence, Store

RETRIES = 5
"""How many times an action is tried again when another writer appended first."""
MAX_DICE = 500
"""The most dice one request may give."""


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
    spans: dict[int, tuple[int, int]] = field(default_factory=dict)
    """Record seq → (first, end) indices in ``game.events`` (0: the start)."""
    done: list[int] = field(default_factory=list)
    """The action records in force, oldest first (an undo pops the last)."""


@dataclass(frozen=True)
class Played:
    """What one request did: the record it appended and the events it logged."""

    record: Record
    events: list[Event]
    undone: int | None = None
    """For an undo: the action record it undid."""


def live_scenario(scenario: Scenario) -> Scenario:
    """The scenario as live play starts it: no plans (the GM moves the intruders)."""
    return scenario.model_copy(update={"plans": {}})


class Encounter:
    """One encounter of the store, with its game replayed on demand (cached per process)."""

    def __init__(self, store: Store, encounter_id: str) -> None:
        self.store = store
        self.row: EncounterRow = store.encounter(encounter_id)
        fmt: Format = self.row.scenario_format  # type: ignore[assignment]
        self.scenario = live_scenario(
            parse_scenario(self.row.scenario, file=self.row.source, fmt=fmt)
        )
        self._replayed: Replayed | None = None
        self._pristine: tuple[int, bytes] | None = None
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
    ) -> tuple[Encounter, dict[str, str]]:
        """A new encounter of the scenario in ``text`` (validated first: a wrong scenario
        stores nothing); returns it and its tokens: ``gm``, ``table`` and one per character
        (each intruder, and each defender: a guard's player sees only what the guard knows)."""
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
        return Replayed(game, 0, {0: (0, len(game.events))})

    def _replay(self, replayed: Replayed, records: Sequence[Record]) -> Replayed:
        """Replay ``records`` on ``replayed``; an undo starts again from the start."""
        for record in records:
            if record.kind == "undo":
                undone = int(record.payload["undoes"])
                keep = [seq for seq in replayed.done if seq != undone]
                replayed = self._rebuild(upto=record.seq, keep=keep)
                continue
            if record.kind == "action":
                start = len(replayed.game.events)
                self._play(replayed.game, record.seq, record.payload)
                replayed.done.append(record.seq)
                replayed.spans[record.seq] = (start, len(replayed.game.events))
            replayed.seq = record.seq
        return replayed

    def _rebuild(self, *, upto: int, keep: list[int]) -> Replayed:
        """The game with only the actions ``keep`` (in order), as of record ``upto``."""
        replayed = self._fresh()
        records = {r.seq: r for r in self.store.records(self.id, limit=None) if r.seq <= upto}
        for seq in keep:
            start = len(replayed.game.events)
            self._play(replayed.game, seq, records[seq].payload)
            replayed.done.append(seq)
            replayed.spans[seq] = (start, len(replayed.game.events))
        replayed.seq = upto
        return replayed

    def _play(self, game: Game, seq: int, payload: dict[str, Any]) -> None:
        action = parse_action(payload["action"])
        dice_rng, rng = action_generators(self.row.seed, seq)
        game.rng = rng
        # The recorded faces, told as they were first told: the GM's dice only in an encounter
        # with given dice (a replay reads the same as the first play, restart or not). Every
        # face is recorded; were one missing, the action's own dice generator would give the
        # same face again (rolled), or NeedDice would stop the replay (given).
        game.faces = LiveFaces(
            dice_rng, payload.get("faces", []), physical=self.row.dice == "given"
        )
        try:
            game.apply(action)
        except InputError as error:
            raise ReplayError(f"record {seq} no longer replays: {error}", where="log") from None

    def state(self, *, at_least: int | None = None) -> Replayed:
        """The game as of the last record (replayed from the log, incrementally when it can).

        ``at_least``: a caller who only needs record ``at_least`` takes the cached game without
        asking the database when the cache holds it (a write in this process has just put it
        there); records other processes wrote are found by the callers who ask without it."""
        with self._lock:
            cached = self._replayed
            if at_least is not None and cached is not None and cached.seq >= at_least:
                return cached
            last = self.store.last_seq(self.id)
            replayed = self._replayed
            if replayed is None:
                replayed = self._fresh()
            if replayed.seq < last:
                replayed = self._replay(replayed, self.store.records(self.id, after=replayed.seq))
            self._replayed = replayed
            return replayed

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

    # ---------------------------------------------------------------- writing

    def act(
        self,
        data: object,
        *,
        dice: Sequence[int] | None = None,
        expect_seq: int | None = None,
    ) -> Played:
        """Play one action (JSON-like ``data``) and append it to the log.

        ``dice``: the table's dice for the action's checks, in order. In an encounter with
        ``given`` dice every face must come from them (:class:`NeedDice` says which check
        needs the next one); with ``rolled`` dice the faces not given are drawn.
        A refused action, a missing die or a stale ``expect_seq`` stores nothing.
        """
        action = parse_action(data)
        given = list(dice or ())
        if len(given) > MAX_DICE:
            raise InputError(f"at most {MAX_DICE} dice a request", where="dice")
        for attempt in range(RETRIES):
            with self._lock:
                replayed = self.state()
                seq = replayed.seq + 1
                if expect_seq is not None and expect_seq != seq:
                    raise StaleSequence(self.id, expected=expect_seq, actual=seq)
                events, faces = self._try(replayed, action, seq, given)
                try:
                    record = self.store.append(
                        self.id,
                        "action",
                        {"action": action_json(action), "faces": faces},
                        expect_seq=seq,
                    )
                except StaleSequence:
                    self._replayed = None
                    if expect_seq is not None or attempt == RETRIES - 1:
                        raise
                    continue
                except BaseException:
                    self._replayed = None
                    raise
                replayed.seq = record.seq
                replayed.done.append(record.seq)
                start = len(replayed.game.events) - len(events)
                replayed.spans[record.seq] = (start, len(replayed.game.events))
                return Played(record, events)
        raise AssertionError("unreachable")  # pragma: no cover

    def _try(
        self, replayed: Replayed, action: BaseModel, seq: int, given: list[int]
    ) -> tuple[list[Event], list[int]]:
        """Play the action on the cached game; on any error but a refusal (made before anything
        changes), forget the cache (the game may be half-changed) and let the error through."""
        game = replayed.game
        dice_rng, rng = action_generators(self.row.seed, seq)
        physical = self.row.dice == "given"
        if physical:
            self._keep(replayed)
        faces = LiveFaces(dice_rng, given, physical=physical)
        game.rng, game.faces = rng, faces
        try:
            events = game.apply(action)
            faces.finish()
        except Refusal:
            raise  # refused before anything changed (Game.apply): the cache stands
        except NeedDice:
            self._replayed = self._kept(replayed.seq)
            raise
        except BaseException:
            self._replayed = None
            raise
        return events, faces.faces

    def _keep(self, replayed: Replayed) -> None:
        """Keep a copy of the state before an action played with the table's dice: each die
        missing stops the action half-way, and the next try (with one more die) starts again
        from this copy instead of replaying the whole log."""
        if self._pristine is not None and self._pristine[0] == replayed.seq:
            return
        try:
            self._pristine = (replayed.seq, pickle.dumps(replayed, pickle.HIGHEST_PROTOCOL))
        except (pickle.PicklingError, TypeError, AttributeError):  # pragma: no cover
            self._pristine = None  # a game that cannot be copied is replayed instead

    def _kept(self, seq: int) -> Replayed | None:
        """The copy of the state as of record ``seq`` (None: replay it from the log). The log
        is append-only and its replay exact, so the state as of a record never changes."""
        if self._pristine is None or self._pristine[0] != seq:
            return None
        kept: Replayed = pickle.loads(self._pristine[1])  # our own bytes, made just above
        return kept

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
            record = self.store.append(self.id, "undo", {"undoes": undone}, expect_seq=seq)
            self._replayed = None
            self.state()
            return Played(record, [], undone=undone)
