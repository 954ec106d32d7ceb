"""The database schema, as SQLAlchemy Core tables: the head of the migrations.

Every change here needs a migration in ``migrations/versions`` (the tests compare the two).

- ``encounters``: one row per encounter, the scenario text it started from and its settings;
  ``last_seq`` is the sequence number of its last record (0 before the first), kept in the
  same transaction as each append, so the row is also what a writer locks.
- ``records``: the append-only log; ``(encounter_id, seq)`` is the primary key, so a sequence
  number is unique per encounter. Payloads are JSON text, portable across SQLite and PostgreSQL.
- ``tokens``: access tokens to an encounter, by the SHA-256 hex digest of the token only.
- ``checkpoints``: the replayed state of an encounter as of one record, kept so that a restart,
  an undo or a late joiner loads it and replays a few records instead of the whole log. A cache:
  rows are written and deleted (an undo drops those after the record it undoes), never trusted
  beyond their ``format`` and ``fingerprint`` (:mod:`vigile.live.checkpoints`); without them
  the log replays to the same state. ``state`` is the state without what grows with the log
  (NULL once thinned out: the row stays a link of the chain), ``chunk`` what the log gained since
  the ``parent`` checkpoint (0: since the start): its events, the actions put in force, which
  events each logged. Both compressed.
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    Text,
    false,
)

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}
"""Constraint names fixed by convention, the same on every database (migrations name them)."""

metadata = MetaData(naming_convention=NAMING)

encounters = Table(
    "encounters",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(200), nullable=False),
    Column("ruleset", String(40), nullable=False),
    Column("source", String(200), nullable=False),
    Column("scenario", Text, nullable=False),
    Column("scenario_format", String(8), nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("dice", String(8), nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("archived", Boolean, nullable=False, server_default=false()),
    Column("last_seq", Integer, nullable=False, server_default="0"),
    Column("status", Text, nullable=True),
    Column("played", DateTime(timezone=True), nullable=True),
)

records = Table(
    "records",
    metadata,
    Column(
        "encounter_id",
        String(32),
        ForeignKey("encounters.id", ondelete="RESTRICT"),
        primary_key=True,
    ),
    Column("seq", Integer, primary_key=True),
    Column("kind", String(40), nullable=False),
    Column("payload", Text, nullable=False),
    Column("at", DateTime(timezone=True), nullable=False),
)

tokens = Table(
    "tokens",
    metadata,
    Column("digest", String(64), primary_key=True),
    Column(
        "encounter_id",
        String(32),
        ForeignKey("encounters.id", ondelete="RESTRICT"),
        nullable=False,
    ),
    Column("role", String(8), nullable=False),
    Column("character", String(200), nullable=True),
    Column("created", DateTime(timezone=True), nullable=False),
    Index("ix_tokens_encounter_id", "encounter_id"),
)

checkpoints = Table(
    "checkpoints",
    metadata,
    Column(
        "encounter_id",
        String(32),
        ForeignKey("encounters.id", ondelete="RESTRICT"),
        primary_key=True,
    ),
    Column("seq", Integer, primary_key=True),
    Column("parent", Integer, nullable=False),
    Column("done_count", Integer, nullable=False),
    Column("top", Integer, nullable=False),
    Column("event_count", Integer, nullable=False),
    Column("format", Integer, nullable=False),
    Column("fingerprint", String(64), nullable=False),
    Column("state", LargeBinary, nullable=True),
    Column("chunk", LargeBinary, nullable=False),
    Column("at", DateTime(timezone=True), nullable=False),
)

settings = Table(
    "settings",
    metadata,
    Column("name", String(64), primary_key=True),
    Column("value", Text, nullable=False),
    Column("changed", DateTime(timezone=True), nullable=False),
)
"""The server's own settings (``server_token``: the SHA-256 digest of the GM's server token)."""
