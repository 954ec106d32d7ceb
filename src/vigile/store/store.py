"""The store of live encounters: each is the scenario it started from plus an append-only log.

A record is never updated or deleted (an undo is a record too). Each write is one transaction:
on SQLite ``BEGIN IMMEDIATE`` (the write lock first), on PostgreSQL ``SELECT ... FOR UPDATE``
on the encounter's row; either way the next sequence number is read and written under the
lock, and ``(encounter_id, seq)`` is the records' primary key, so two writers at once lose
nothing and never share a number.

Checkpoints (the replayed state as of a record, :mod:`vigile.live.checkpoints`) are a cache
beside the log: this module stores their bytes and never reads into them. A checkpoint is
written with the record it follows (:meth:`Store.append_checkpointed`) or, after a replay, only
while its encounter's last record is still the one the caller replayed to
(:meth:`Store.save_checkpoints`); an undo drops, in its own transaction, the checkpoints of the
records it takes back.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, fields
from datetime import UTC, datetime
from types import TracebackType
from typing import Any, Final

from alembic.util.exc import CommandError
from sqlalchemy import Column, Engine, Row, Table, delete, false, func, insert, select, update
from sqlalchemy import text as sql_text
from sqlalchemy.engine import Connection
from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError

from vigile.errors import InputError

from . import schema
from .engine import (
    WRITE,
    check_sqlite_file,
    hide_password,
    make_engine,
    one_line,
    resolve_url,
)
from .errors import (
    ArchivedEncounter,
    StaleSequence,
    StoreError,
    TooManyEncounters,
    UnknownEncounter,
)
from .migrate import revisions, upgrade
from .notify import CHANNEL, Listener, payload

SERVER_TOKEN: Final = "server_token"
"""The setting that holds the digest of the server's token."""
MAX_NAME: Final = 200
"""Characters in an encounter's name, its source, a token's character."""
MAX_RULESET: Final = 40
MAX_KIND: Final = 40
MAX_SCENARIO_BYTES: Final = 1024 * 1024
MAX_PAYLOAD_BYTES: Final = 256 * 1024
MAX_SEED: Final = 2**63 - 1
FORMATS: Final = ("yaml", "toml", "json")
DICE: Final = ("rolled", "given")
ROLES: Final = ("gm", "player", "table")
KNOWN_TOKENS: Final = 4096
"""Tokens a store remembers having found (every request presents one; most are the same few)."""
CREATE_LOCK: Final = 0x76696769_6C66
"""The PostgreSQL advisory lock key held while counting the live encounters to create one."""


@dataclass(frozen=True)
class EncounterRow:
    """An encounter as listed: its settings and how far its log goes, not its scenario's text
    (:class:`EncounterWithScenario`), so that a listing reads no scenario."""

    id: str
    """uuid4 hex."""
    name: str
    ruleset: str
    source: str
    """The bundled scenario's name or the uploaded file's name."""
    scenario_format: str
    """``yaml``, ``toml`` or ``json``."""
    seed: int
    dice: str
    """``rolled`` (seeded dice) or ``given`` (the table's dice)."""
    created: datetime
    """UTC."""
    archived: bool
    last_seq: int
    """The last record's sequence number; 0 before the first."""
    status: dict[str, Any] | None
    """The game as of the last record, as the live layer summed it up (its turn, its outcome,
    who is out, who is detected: :func:`vigile.live.encounter.status_of`); None before the
    first."""
    played: datetime | None
    """When the last record was written (UTC); None before the first."""


@dataclass(frozen=True)
class EncounterWithScenario(EncounterRow):
    """An encounter as stored: what it started from, and how far its log goes."""

    scenario: str
    """The scenario file's full text."""


@dataclass(frozen=True)
class CheckpointInfo:
    """What a checkpoint is, without its bytes (see :mod:`vigile.live.checkpoints`)."""

    seq: int
    """The record it is the state as of."""
    parent: int
    """The checkpoint whose chunk its own follows (0: none, its chunk starts at the start)."""
    done_count: int
    """How many actions are in force in it."""
    top: int
    """The last of them (0: none)."""
    event_count: int
    """How many events its game has logged."""
    format: int
    fingerprint: str
    """What wrote it: the checkpoint format, vigile's code, Python's and numpy's versions."""


@dataclass(frozen=True)
class Checkpoint(CheckpointInfo):
    """A checkpoint with its bytes: the state without what grows with the log, and what the log
    gained since the parent checkpoint."""

    state: bytes
    chunk: bytes


@dataclass(frozen=True)
class Record:
    """One entry of an encounter's log."""

    encounter_id: str
    seq: int
    """1, 2, 3... per encounter, no gap."""
    kind: str
    """Chosen by the caller: ``action``, ``undo``, ``dice``..."""
    payload: dict[str, Any]
    at: datetime
    """UTC."""


class Store:
    """Encounters in a database: SQLite by default, PostgreSQL (``postgresql+psycopg://``) or
    any URL SQLAlchemy knows.

    ``url`` None: ``$VIGILE_DB`` (a URL or a file path), else ``vigile.db`` in the user's data
    directory. Opening migrates the database to the newest schema. :class:`StoreError` if the
    database cannot be used. Safe to share between threads; each process opens its own.
    """

    def __init__(self, url: str | None = None) -> None:
        resolved = resolve_url(url)
        self._shown = hide_password(resolved)
        check_sqlite_file(resolved, self._shown, revisions)
        self._engine: Engine = make_engine(resolved)
        self._writer = self._engine.execution_options(**{WRITE: True})
        self._notifies = self._engine.dialect.name == "postgresql"
        """Each write tells the other processes (:mod:`.notify`)."""
        self._origin = secrets.token_hex(8)
        self._listeners: list[Listener] = []
        self._known_tokens: dict[tuple[str, str], tuple[str, str | None]] = {}
        """Tokens found before, by (encounter, digest): a token is never changed or taken back
        once made, so what was found stays true in every process (one not found is asked
        again: another process may have made it since)."""
        try:
            upgrade(self._engine)
        except BaseException as error:
            self._engine.dispose()
            if isinstance(error, CommandError):
                raise StoreError(
                    f"cannot migrate the schema ({one_line(error)}); is it from a newer vigile?",
                    url=self._shown,
                ) from None
            if isinstance(error, DBAPIError):  # the driver cannot connect, or the database fails
                raise StoreError(one_line(error), url=self._shown) from None
            raise

    @property
    def url(self) -> str:
        """The database URL, its password hidden."""
        return self._shown

    def close(self) -> None:
        """Close every connection (the store is not usable after)."""
        for listener in self._listeners:
            listener.stop()
        self._listeners.clear()
        self._engine.dispose()

    def listen(self, heard: Callable[[str | None, int], None]) -> Listener | None:
        """Hear the records other processes write as they commit (:mod:`.notify`): ``heard``
        gets each one's encounter id and number (0: an archive), from a thread of its own
        (None, 0: anything may have been written, e.g. on connecting). None where the database
        tells of no write (SQLite): its readers must look now and then. Stopped by
        :meth:`Listener.stop` or :meth:`close`."""
        if not self._notifies:
            return None
        listener = Listener(self._engine, self._origin, heard)
        self._listeners.append(listener)
        listener.start()
        return listener

    def _tell(self, connection: Connection, encounter_id: str, seq: int) -> None:
        """NOTIFY the listeners, on the commit of the transaction ``connection`` is in."""
        if self._notifies:
            connection.execute(
                sql_text("SELECT pg_notify(:channel, :payload)"),
                {"channel": CHANNEL, "payload": payload(encounter_id, seq, self._origin)},
            )

    def __enter__(self) -> Store:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Store({self._shown!r})"

    # -- encounters ---------------------------------------------------------------------------

    def create_encounter(
        self,
        *,
        name: str,
        ruleset: str,
        source: str,
        scenario: str,
        scenario_format: str,
        seed: int,
        dice: str,
        most: int | None = None,
    ) -> EncounterWithScenario:
        """A new encounter, with no record yet.

        ``most``: how many live (not archived) encounters the store may hold; with as many
        already, :class:`TooManyEncounters` and nothing is written. Counted and written under
        one lock, so creators racing cannot pass it."""
        _text("name", name, MAX_NAME)
        _text("ruleset", ruleset, MAX_RULESET)
        _text("source", source, MAX_NAME)
        _scenario(scenario)
        _choice("scenario_format", scenario_format, FORMATS)
        _choice("dice", dice, DICE)
        if type(seed) is not int or not 0 <= seed <= MAX_SEED:
            raise InputError(f"must be an integer from 0 to {MAX_SEED}", where="seed")
        row = EncounterWithScenario(
            id=uuid.uuid4().hex,
            name=name,
            ruleset=ruleset,
            source=source,
            scenario=scenario,
            scenario_format=scenario_format,
            seed=seed,
            dice=dice,
            created=_now(),
            archived=False,
            last_seq=0,
            status=None,
            played=None,
        )
        table = schema.encounters
        with self._guard(), self._writer.begin() as connection:
            if most is not None:
                if connection.dialect.name == "postgresql":  # SQLite: BEGIN IMMEDIATE already
                    connection.execute(
                        sql_text("SELECT pg_advisory_xact_lock(:key)"), {"key": CREATE_LOCK}
                    )
                live = connection.execute(
                    select(func.count()).select_from(table).where(table.c.archived == false())
                ).scalar_one()
                if live >= most:
                    raise TooManyEncounters(most)
            connection.execute(
                insert(schema.encounters).values(
                    id=row.id,
                    name=name,
                    ruleset=ruleset,
                    source=source,
                    scenario=scenario,
                    scenario_format=scenario_format,
                    seed=seed,
                    dice=dice,
                    created=row.created,
                    archived=False,
                    last_seq=0,
                )
            )
        return row

    def encounters(self, *, archived: bool = False, limit: int | None = None) -> list[EncounterRow]:
        """The encounters, newest first: the live ones, or with ``archived`` the archived ones;
        at most ``limit``. Their settings only: a listing reads no scenario's text."""
        if limit is not None and (type(limit) is not int or limit < 0):
            raise InputError("must be an integer, 0 or more", where="limit")
        table = schema.encounters
        query = (
            select(*_listed(table))
            .where(table.c.archived == bool(archived))
            .order_by(table.c.created.desc(), table.c.id.desc())
        )
        if limit is not None:
            query = query.limit(limit)
        with self._guard(), self._engine.connect() as connection:
            return [_listed_row(row) for row in connection.execute(query)]

    def count_encounters(self, *, archived: bool = False) -> int:
        """How many encounters are live (or with ``archived``, archived)."""
        table = schema.encounters
        query = select(func.count()).select_from(table).where(table.c.archived == bool(archived))
        with self._guard(), self._engine.connect() as connection:
            return int(connection.execute(query).scalar_one())

    def encounter(self, encounter_id: str) -> EncounterWithScenario:
        """One encounter with its scenario's text; :class:`UnknownEncounter` if there is none
        with this id."""
        table = schema.encounters
        with self._guard(), self._engine.connect() as connection:
            row = connection.execute(select(table).where(table.c.id == encounter_id)).first()
        if row is None:
            raise UnknownEncounter(encounter_id)
        return _encounter(row)

    def archive(self, encounter_id: str) -> None:
        """Archive an encounter: its records stay, it takes no more."""
        table = schema.encounters
        with self._guard(), self._writer.begin() as connection:
            done = connection.execute(
                update(table).where(table.c.id == encounter_id).values(archived=True)
            )
            if done.rowcount == 0:
                raise UnknownEncounter(encounter_id)
            self._tell(connection, encounter_id, 0)

    # -- records ------------------------------------------------------------------------------

    def append(
        self,
        encounter_id: str,
        kind: str,
        payload: dict[str, Any],
        *,
        expect_seq: int | None = None,
    ) -> Record:
        """Append one record; see :meth:`append_many`."""
        return self.append_many(encounter_id, [(kind, payload)], expect_seq=expect_seq)[0]

    def append_many(
        self,
        encounter_id: str,
        items: Sequence[tuple[str, dict[str, Any]]],
        *,
        expect_seq: int | None = None,
    ) -> list[Record]:
        """Append records in one transaction, numbered ``last_seq + 1``, ``+ 2``...

        ``expect_seq``, when given, is the number the first new record must get (the caller saw
        ``last_seq == expect_seq - 1``); otherwise :class:`StaleSequence` and nothing is written.
        :class:`ArchivedEncounter` for an archived encounter, :class:`UnknownEncounter` for an
        unknown one.
        """
        return self._append(encounter_id, items, expect_seq=expect_seq)[0]

    def append_checkpointed(
        self,
        encounter_id: str,
        kind: str,
        payload: dict[str, Any],
        *,
        expect_seq: int,
        checkpoint: Checkpoint | None = None,
        drop_from: int | None = None,
        thin: tuple[int, int] | None = None,
        status: dict[str, Any] | None = None,
    ) -> tuple[Record, bool]:
        """Append one record as :meth:`append` does, and in the same transaction drop the
        checkpoints numbered ``drop_from`` or more (an undo's: they hold what it takes back),
        then save ``checkpoint``, the state as of the new record (its ``seq`` must be
        ``expect_seq``), unless its parent is not stored (then it is left out: a cache).
        ``thin``: see :meth:`save_checkpoints`. ``status``: the game as of the new record, kept
        on the encounter's row for its listing. Returns the record, and whether the checkpoint
        is stored."""
        if checkpoint is not None and checkpoint.seq != expect_seq:
            raise InputError("must be the new record's", where="checkpoint.seq")
        records, saved = self._append(
            encounter_id,
            [(kind, payload)],
            expect_seq=expect_seq,
            checkpoint=checkpoint,
            drop_from=drop_from,
            thin=thin,
            status=status,
        )
        return records[0], saved

    def _append(
        self,
        encounter_id: str,
        items: Sequence[tuple[str, dict[str, Any]]],
        *,
        expect_seq: int | None,
        checkpoint: Checkpoint | None = None,
        drop_from: int | None = None,
        thin: tuple[int, int] | None = None,
        status: dict[str, Any] | None = None,
    ) -> tuple[list[Record], bool]:
        if expect_seq is not None and (type(expect_seq) is not int or expect_seq < 1):
            raise InputError("must be a positive integer", where="expect_seq")
        prepared = [(_kind(kind), _payload(payload)) for kind, payload in items]
        at = _now()
        table = schema.encounters
        with self._guard(), self._writer.begin() as connection:
            state = connection.execute(
                select(table.c.archived, table.c.last_seq)
                .where(table.c.id == encounter_id)
                .with_for_update()
            ).first()
            if state is None:
                raise UnknownEncounter(encounter_id)
            if state.archived:
                raise ArchivedEncounter(encounter_id)
            first = state.last_seq + 1
            if expect_seq is not None and expect_seq != first:
                raise StaleSequence(encounter_id, expected=expect_seq, actual=first)
            if not prepared:
                return [], False
            rows = [
                {"encounter_id": encounter_id, "seq": first + i, "kind": k, "payload": p, "at": at}
                for i, (k, p) in enumerate(prepared)
            ]
            connection.execute(insert(schema.records), rows)
            values: dict[str, Any] = {"last_seq": first + len(rows) - 1, "played": at}
            if status is not None:
                values["status"] = _payload(status)
            connection.execute(update(table).where(table.c.id == encounter_id).values(**values))
            self._tell(connection, encounter_id, values["last_seq"])
            if drop_from is not None:
                _drop_checkpoints(connection, encounter_id, drop_from)
            saved = checkpoint is not None and _save_checkpoint(
                connection, encounter_id, checkpoint, at
            )
            if saved and thin is not None:
                _thin(connection, encounter_id, *thin)
        records = [
            Record(encounter_id, row["seq"], row["kind"], json.loads(row["payload"]), at)
            for row in rows
        ]
        return records, saved

    def records(
        self,
        encounter_id: str,
        *,
        after: int = 0,
        limit: int | None = None,
        upto: int | None = None,
    ) -> list[Record]:
        """The encounter's records numbered above ``after`` (and at most ``upto``), ascending,
        at most ``limit`` of them."""
        if type(after) is not int or after < 0:
            raise InputError("must be an integer, 0 or more", where="after")
        if limit is not None and (type(limit) is not int or limit < 0):
            raise InputError("must be an integer, 0 or more", where="limit")
        if upto is not None and (type(upto) is not int or upto < 0):
            raise InputError("must be an integer, 0 or more", where="upto")
        table = schema.records
        query = (
            select(table)
            .where(table.c.encounter_id == encounter_id, table.c.seq > after)
            .order_by(table.c.seq)
        )
        if upto is not None:
            query = query.where(table.c.seq <= upto)
        if limit is not None:
            query = query.limit(limit)
        with self._guard(), self._engine.connect() as connection:
            rows = connection.execute(query).all()
            if not rows:
                _exists(connection, encounter_id)
        return [
            Record(row.encounter_id, row.seq, row.kind, json.loads(row.payload), _utc(row.at))
            for row in rows
        ]

    def last_seq(self, encounter_id: str) -> int:
        """The encounter's last sequence number; 0 before its first record."""
        table = schema.encounters
        with self._guard(), self._engine.connect() as connection:
            value = connection.execute(
                select(table.c.last_seq).where(table.c.id == encounter_id)
            ).scalar()
        if value is None:
            raise UnknownEncounter(encounter_id)
        return int(value)

    # -- checkpoints --------------------------------------------------------------------------

    def checkpoints(
        self,
        encounter_id: str,
        *,
        upto: int | None = None,
        limit: int | None = None,
        restorable: bool = False,
    ) -> list[CheckpointInfo]:
        """The encounter's checkpoints numbered ``upto`` or less, newest first, at most
        ``limit``; what each is, not its bytes. ``restorable``: only those that still hold
        their state (not thinned out)."""
        table = schema.checkpoints
        query = (
            select(*_checkpoint_columns(table))
            .where(table.c.encounter_id == encounter_id)
            .order_by(table.c.seq.desc())
        )
        if upto is not None:
            query = query.where(table.c.seq <= upto)
        if restorable:
            query = query.where(table.c.state.is_not(None))
        if limit is not None:
            query = query.limit(limit)
        with self._guard(), self._engine.connect() as connection:
            return [_checkpoint_info(row) for row in connection.execute(query)]

    def checkpoint_links(
        self, encounter_id: str, *, upto: int, format: int, fingerprint: str
    ) -> dict[int, tuple[int, int]]:
        """Seq → (parent, event count) of the encounter's checkpoints numbered ``upto`` or
        less written by one program (``format``, ``fingerprint``): the chain of chunks a
        restored state's events are read from, in one light query."""
        table = schema.checkpoints
        query = select(table.c.seq, table.c.parent, table.c.event_count).where(
            table.c.encounter_id == encounter_id,
            table.c.seq <= upto,
            table.c.format == format,
            table.c.fingerprint == fingerprint,
        )
        with self._guard(), self._engine.connect() as connection:
            rows = connection.execute(query).all()
        return {int(seq): (int(parent), int(count)) for seq, parent, count in rows}

    def checkpoint_state(self, encounter_id: str, seq: int) -> bytes | None:
        """The bytes of the checkpoint's state (None: no such checkpoint, dropped meanwhile)."""
        table = schema.checkpoints
        query = select(table.c.state).where(
            table.c.encounter_id == encounter_id, table.c.seq == seq
        )
        with self._guard(), self._engine.connect() as connection:
            found = connection.execute(query).scalar()
        return None if found is None else bytes(found)

    def checkpoint_chunks(self, encounter_id: str, seqs: Sequence[int]) -> dict[int, bytes]:
        """The bytes of the chunks of these checkpoints, by number (the missing ones left out)."""
        table = schema.checkpoints
        wanted = sorted(set(seqs))
        found: dict[int, bytes] = {}
        with self._guard(), self._engine.connect() as connection:
            for start in range(0, len(wanted), 500):
                query = select(table.c.seq, table.c.chunk).where(
                    table.c.encounter_id == encounter_id,
                    table.c.seq.in_(wanted[start : start + 500]),
                )
                found.update((row.seq, bytes(row.chunk)) for row in connection.execute(query))
        return found

    def save_checkpoints(
        self,
        encounter_id: str,
        checkpoints: Sequence[Checkpoint],
        *,
        last_seq: int,
        thin: tuple[int, int] | None = None,
    ) -> int:
        """Save checkpoints (oldest first, each the parent of the next) made by replaying the
        log up to record ``last_seq``, only while that is still the encounter's last record (a
        record written meanwhile may be an undo that takes some of them back: then none is
        saved). Stops at the first whose parent is not stored. Returns how many, from the
        first, are stored now (one stored already by the same program counts).

        ``thin``: ``(recent, sparse)``: then the newest ``recent`` checkpoints keep their
        state, and the older ones only the newest in each window of ``sparse`` records; the
        others keep their chunk only (a link of the chain)."""
        table = schema.encounters
        at = _now()
        saved = 0
        with self._guard(), self._writer.begin() as connection:
            state = connection.execute(
                select(table.c.last_seq).where(table.c.id == encounter_id).with_for_update()
            ).first()
            if state is None:
                raise UnknownEncounter(encounter_id)
            if state.last_seq != last_seq:
                return 0
            for checkpoint in checkpoints:
                if not (0 < checkpoint.seq <= last_seq) or not _save_checkpoint(
                    connection, encounter_id, checkpoint, at
                ):
                    break
                saved += 1
            if saved and thin is not None:
                _thin(connection, encounter_id, *thin, added=saved)
        return saved

    def drop_checkpoints(
        self, encounter_id: str, *, since: int = 0, until: int | None = None
    ) -> int:
        """Drop the encounter's checkpoints numbered ``since`` or more (``until`` at most);
        how many went."""
        with self._guard(), self._writer.begin() as connection:
            return _drop_checkpoints(connection, encounter_id, since, until)

    # -- tokens -------------------------------------------------------------------------------

    def server_token_digest(self) -> str | None:
        """The digest of the server's token kept in the database (None: none yet)."""
        table = schema.settings
        query = select(table.c.value).where(table.c.name == SERVER_TOKEN)
        with self._guard(), self._engine.connect() as connection:
            found = connection.execute(query).scalar()
        return None if found is None else str(found)

    def keep_server_token(self, token: str) -> str:
        """Keep the server's token (its SHA-256 digest only, as every token) so that the GM's
        link still opens the encounters after a restart; returns the digest."""
        digest = _digest(token)
        table = schema.settings
        now = datetime.now(UTC)
        with self._guard(), self._writer.begin() as connection:
            done = connection.execute(
                update(table).where(table.c.name == SERVER_TOKEN).values(value=digest, changed=now)
            )
            if done.rowcount == 0:
                connection.execute(
                    insert(table).values(name=SERVER_TOKEN, value=digest, changed=now)
                )
        return digest

    def create_token(self, encounter_id: str, role: str, character: str | None = None) -> str:
        """A new access token to the encounter for ``role`` (``gm``, ``player``, ``table``),
        and for a player the ``character``. Only its SHA-256 digest is stored: the token itself
        is shown once, here."""
        _choice("role", role, ROLES)
        if character is not None:
            _text("character", character, MAX_NAME)
        token = secrets.token_urlsafe(32)
        table = schema.encounters
        with self._guard(), self._writer.begin() as connection:
            archived = connection.execute(
                select(table.c.archived).where(table.c.id == encounter_id)
            ).scalar()
            if archived is None:
                raise UnknownEncounter(encounter_id)
            if archived:
                raise ArchivedEncounter(encounter_id)
            connection.execute(
                insert(schema.tokens).values(
                    digest=_digest(token),
                    encounter_id=encounter_id,
                    role=role,
                    character=character,
                    created=_now(),
                )
            )
        return token

    def find_token(self, encounter_id: str, token: str) -> tuple[str, str | None] | None:
        """``(role, character)`` of this encounter's token, or None for any other string.

        Every digest of the encounter is compared in constant time (:func:`hmac.compare_digest`),
        so the time taken tells nothing about how close a guess came. A token found once is
        remembered (by its digest): the next request with it asks the database nothing.
        """
        if not isinstance(token, str) or not token or len(token) > 256:
            return None
        wanted = _digest(token)
        known = self._known_tokens.get((encounter_id, wanted))
        if known is not None:
            return known
        table = schema.tokens
        with self._guard(), self._engine.connect() as connection:
            rows = connection.execute(
                select(table.c.digest, table.c.role, table.c.character).where(
                    table.c.encounter_id == encounter_id
                )
            ).all()
        found: tuple[str, str | None] | None = None
        for row in rows:
            if hmac.compare_digest(row.digest, wanted):
                found = (row.role, row.character)
        if found is not None:
            if len(self._known_tokens) >= KNOWN_TOKENS:
                self._known_tokens.clear()
            self._known_tokens[(encounter_id, wanted)] = found
        return found

    # -- errors -------------------------------------------------------------------------------

    @contextmanager
    def _guard(self) -> Iterator[None]:
        """A database that cannot be reached or used is a :class:`StoreError`, one line."""
        try:
            yield
        except (OperationalError, InterfaceError) as error:
            raise StoreError(one_line(error), url=self._shown) from None


# -- helpers -----------------------------------------------------------------------------------


def _now() -> datetime:
    return datetime.now(UTC)


def _utc(moment: datetime) -> datetime:
    """A stored time as an aware UTC datetime (SQLite gives it back naive, in UTC)."""
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _listed(table: Table) -> list[Column[Any]]:
    """The columns a listing reads: every one but the scenario's text."""
    return [column for column in table.c if column.name != "scenario"]


def _listed_row(row: Row[Any]) -> EncounterRow:
    return EncounterRow(
        id=row.id,
        name=row.name,
        ruleset=row.ruleset,
        source=row.source,
        scenario_format=row.scenario_format,
        seed=int(row.seed),
        dice=row.dice,
        created=_utc(row.created),
        archived=bool(row.archived),
        last_seq=int(row.last_seq),
        status=_status(row.status),
        played=None if row.played is None else _utc(row.played),
    )


def _status(text: str | None) -> dict[str, Any] | None:
    """A stored status, or None where there is none or it does not read as one."""
    if text is None:
        return None
    try:
        found = json.loads(text)
    except ValueError:
        return None
    return found if isinstance(found, dict) else None


def _encounter(row: Row[Any]) -> EncounterWithScenario:
    listed = _listed_row(row)
    settings = {f.name: getattr(listed, f.name) for f in fields(EncounterRow)}
    return EncounterWithScenario(**settings, scenario=row.scenario)


def _checkpoint_columns(table: Table) -> list[Column[Any]]:
    return [column for column in table.c if column.name not in ("state", "chunk", "at")]


def _checkpoint_info(row: Row[Any]) -> CheckpointInfo:
    return CheckpointInfo(
        seq=int(row.seq),
        parent=int(row.parent),
        done_count=int(row.done_count),
        top=int(row.top),
        event_count=int(row.event_count),
        format=int(row.format),
        fingerprint=row.fingerprint,
    )


def _save_checkpoint(
    connection: Connection, encounter_id: str, checkpoint: Checkpoint, at: datetime
) -> bool:
    """Insert the checkpoint, unless its parent is not stored by the same program (its chunk
    follows the parent's: without it the log is not all there). One stored at the same record by
    the same program (same format and fingerprint) is the same state: it stays; one another
    program wrote is replaced. Whether the checkpoint is stored now."""
    if not 0 <= checkpoint.parent < checkpoint.seq:
        raise InputError("must come before the checkpoint", where="checkpoint.parent")
    table = schema.checkpoints
    wanted = [checkpoint.seq] if checkpoint.parent == 0 else [checkpoint.seq, checkpoint.parent]
    there = {
        row.seq: (row.format, row.fingerprint)
        for row in connection.execute(
            select(table.c.seq, table.c.format, table.c.fingerprint).where(
                table.c.encounter_id == encounter_id, table.c.seq.in_(wanted)
            )
        )
    }
    same = (checkpoint.format, checkpoint.fingerprint)
    if checkpoint.parent != 0 and there.get(checkpoint.parent) != same:
        return False
    if there.get(checkpoint.seq) == same:
        return True
    if checkpoint.seq in there:
        connection.execute(
            delete(table).where(table.c.encounter_id == encounter_id, table.c.seq == checkpoint.seq)
        )
    connection.execute(
        insert(table).values(
            encounter_id=encounter_id,
            seq=checkpoint.seq,
            parent=checkpoint.parent,
            done_count=checkpoint.done_count,
            top=checkpoint.top,
            event_count=checkpoint.event_count,
            format=checkpoint.format,
            fingerprint=checkpoint.fingerprint,
            state=checkpoint.state,
            chunk=checkpoint.chunk,
            at=at,
        )
    )
    return True


def _thin(
    connection: Connection, encounter_id: str, recent: int, sparse: int, added: int = 1
) -> None:
    """Thin out the states of old checkpoints (see :meth:`Store.save_checkpoints`), after
    ``added`` new ones.

    Only the newest ``recent + added + 1`` states are read: beyond the newest ``recent``, at
    most one state is left in each window of ``sparse`` records after each thinning, and the
    windows go down with the seqs, so only the ``added`` that have just left the recent ones
    and the next older state can share a window. An undo's write costs the same however long
    the log."""
    table = schema.checkpoints
    stateful = connection.execute(
        select(table.c.seq)
        .where(table.c.encounter_id == encounter_id, table.c.state.is_not(None))
        .order_by(table.c.seq.desc())
        .limit(recent + added + 1)
    ).scalars()
    windows: set[int] = set()
    thinned: list[int] = []
    for rank, seq in enumerate(stateful):
        if rank < recent:
            continue
        if seq // sparse in windows:
            thinned.append(seq)
        windows.add(seq // sparse)
    for start in range(0, len(thinned), 500):
        connection.execute(
            update(table)
            .where(
                table.c.encounter_id == encounter_id,
                table.c.seq.in_(thinned[start : start + 500]),
            )
            .values(state=None)
        )


def _drop_checkpoints(
    connection: Connection, encounter_id: str, since: int, until: int | None = None
) -> int:
    table = schema.checkpoints
    query = delete(table).where(table.c.encounter_id == encounter_id, table.c.seq >= since)
    if until is not None:
        query = query.where(table.c.seq <= until)
    return int(connection.execute(query).rowcount or 0)


def _exists(connection: Connection, encounter_id: str) -> None:
    table = schema.encounters
    if connection.execute(select(table.c.id).where(table.c.id == encounter_id)).first() is None:
        raise UnknownEncounter(encounter_id)


def _utf8(field: str, text: str) -> int:
    """The text's size in UTF-8 bytes; InputError for a NUL or a lone surrogate, which no
    database stores."""
    if "\x00" in text:
        raise InputError("must not contain a NUL character", where=field)
    try:
        return len(text.encode("utf-8"))
    except UnicodeEncodeError:
        raise InputError("is not valid Unicode text", where=field) from None


def _text(field: str, value: object, most: int) -> None:
    if not isinstance(value, str) or not value.strip():
        raise InputError("must be a non-empty text", where=field)
    if len(value) > most:
        raise InputError(f"at most {most} characters ({len(value)} given)", where=field)
    _utf8(field, value)


def _choice(field: str, value: object, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        raise InputError(f"must be one of {', '.join(allowed)} (not {value!r})", where=field)


def _scenario(text: object) -> None:
    if not isinstance(text, str):
        raise InputError("must be a text", where="scenario")
    size = _utf8("scenario", text)
    if size > MAX_SCENARIO_BYTES:
        raise InputError(f"at most {MAX_SCENARIO_BYTES} bytes ({size} given)", where="scenario")


def _kind(kind: object) -> str:
    _text("kind", kind, MAX_KIND)
    assert isinstance(kind, str)
    return kind


def _payload(payload: object) -> str:
    if not isinstance(payload, dict):
        raise InputError("must be a JSON object (a dict)", where="payload")
    try:
        text = json.dumps(payload, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError) as error:
        raise InputError(f"is not JSON-able: {error}", where="payload") from None
    size = _utf8("payload", text)
    if size > MAX_PAYLOAD_BYTES:
        raise InputError(
            f"at most {MAX_PAYLOAD_BYTES} bytes of JSON ({size} given)", where="payload"
        )
    return text
