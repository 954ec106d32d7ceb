"""Where the database is, and the engine that talks to it.

- :func:`resolve_url`: an explicit URL, else ``VIGILE_DB`` (a URL, or a plain file path for
  SQLite), else ``vigile.db`` in the user's data directory (platformdirs).
- :func:`make_engine`: a SQLAlchemy engine. On SQLite every connection is put in WAL mode,
  waits for a lock (``busy_timeout``) and enforces foreign keys; pysqlite's own transaction
  handling is switched off and the engine emits ``BEGIN`` itself: ``BEGIN IMMEDIATE`` on a
  connection with the ``vigile_write`` execution option, so a writer takes the write lock
  before it reads the sequence number (SQLAlchemy's documented recipe for pysqlite).
- :func:`check_sqlite_file`: a SQLite file that is not vigile's is refused before anything
  touches it (no ``PRAGMA journal_mode = WAL``, no migration): it is read through a read-only
  connection first.
- :func:`hide_password`: the URL as it may be shown.
"""

from __future__ import annotations

import os
import re
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

from platformdirs import user_data_path
from sqlalchemy import URL, Engine, create_engine, event, make_url
from sqlalchemy.engine import Connection
from sqlalchemy.exc import ArgumentError, NoSuchModuleError

from .errors import StoreError

ENV_VAR = "VIGILE_DB"
BUSY_TIMEOUT_MS = 15_000
"""How long a SQLite connection waits for another writer before it gives up."""
WRITE = "vigile_write"
"""The execution option that makes a SQLite transaction ``BEGIN IMMEDIATE``."""
SQLITE_HEADER = b"SQLite format 3\x00"
"""The first 16 bytes of every SQLite database file."""


def default_path() -> Path:
    """``vigile.db`` in the user's data directory."""
    return user_data_path("vigile", appauthor=False) / "vigile.db"


def resolve_url(url: str | None = None) -> str:
    """The database URL: ``url``, else ``$VIGILE_DB``, else the default SQLite file.

    Either may be a URL (``postgresql+psycopg://...``) or a file path (a SQLite file).
    """
    if url is None:
        url = os.environ.get(ENV_VAR) or None
    if url is None:
        return URL.create("sqlite", database=str(default_path())).render_as_string()
    if "://" not in url:
        return URL.create(
            "sqlite", database=str(Path(url).expanduser().absolute())
        ).render_as_string()
    return url


_PASSWORD = re.compile(r"(://[^:/@]*:)[^@]*@")


def hide_password(url: str) -> str:
    """The URL with its password, if any, shown as ``***``; for an unparsable URL too."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except (ArgumentError, ValueError):
        return _PASSWORD.sub(r"\1***@", url)


def one_line(error: BaseException) -> str:
    """A driver's error message on one line, without SQLAlchemy's statement and link."""
    original = getattr(error, "orig", None)
    text = str(original if original is not None else error) or type(error).__name__
    return " ".join(text.split())


def make_engine(url: str) -> Engine:
    """An engine for ``url``; :class:`StoreError` if the URL names no usable database kind.

    It does not connect yet. A SQLite file's directory is created if need be.
    """
    shown = hide_password(url)
    try:
        parsed = make_url(url)
    except ArgumentError as error:
        raise StoreError(f"not a database URL ({one_line(error)})", url=shown) from None
    sqlite = parsed.get_backend_name() == "sqlite"
    # a server's connection may be dropped under a pooled connection; a file's cannot
    kwargs: dict[str, Any] = {"pool_pre_ping": not sqlite}
    if sqlite:
        database = parsed.database or ""
        if database and database != ":memory:" and not database.startswith("file:"):
            try:
                Path(database).expanduser().parent.mkdir(parents=True, exist_ok=True)
            except OSError as error:
                raise StoreError(
                    f"cannot create the directory of {database}: {error.strerror or error}",
                    url=shown,
                ) from None
    try:
        engine = create_engine(parsed, **kwargs)
    except (ArgumentError, NoSuchModuleError, ImportError) as error:
        raise StoreError(f"cannot use this URL ({one_line(error)})", url=shown) from None
    if sqlite:
        _sqlite_transactions(engine)
    return engine


def _sqlite_transactions(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection: Any, _record: Any) -> None:
        # pysqlite emits no BEGIN of its own; the "begin" listener below does.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            cursor.execute("PRAGMA journal_mode = WAL")
            cursor.execute("PRAGMA foreign_keys = ON")
        finally:
            cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(connection: Connection) -> None:
        immediate = connection.get_execution_options().get(WRITE, False)
        connection.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")


def sqlite_file(url: str) -> Path | None:
    """The file of a SQLite URL (None: another database, in memory, or a ``file:`` URI)."""
    try:
        parsed = make_url(url)
    except ArgumentError:
        return None
    if parsed.get_backend_name() != "sqlite":
        return None
    database = parsed.database or ""
    if not database or database == ":memory:" or database.startswith("file:"):
        return None
    return Path(database).expanduser().absolute()


def check_sqlite_file(url: str, shown: str, known: Callable[[], frozenset[str]]) -> None:
    """Refuse a SQLite file that is not vigile's (:class:`StoreError`), before anything writes
    to it or switches it to WAL: one that is not a SQLite database at all, one with another
    application's tables, one of a newer vigile's schema. A missing or empty file, or a
    database with no table, is vigile's to create. The file is read through a read-only
    connection, which changes none of its bytes. ``known``: the schema revisions this vigile
    knows (:func:`.migrate.revisions`, passed in: migrate imports this module)."""
    path = sqlite_file(url)
    if path is None:
        return
    try:
        if path.stat().st_size == 0:
            return
        with path.open("rb") as handle:
            header = handle.read(len(SQLITE_HEADER))
    except OSError:
        return  # missing, or unreadable: the driver says so when it opens it
    if header != SQLITE_HEADER:
        raise StoreError("not a SQLite database; vigile leaves the file as it is", url=shown)
    try:
        names, version = _schema_of(path)
    except sqlite3.Error as error:
        raise StoreError(one_line(error), url=shown) from None
    if not names:
        return
    if not {"alembic_version", "encounters"} <= names:
        others = ", ".join(sorted(names)[:5]) + (", ..." if len(names) > 5 else "")
        raise StoreError(
            f"not a vigile database (it holds {others}); vigile leaves it as it is", url=shown
        )
    if version not in known():
        raise StoreError(
            f"its schema revision {version!r} is not one of this vigile's; "
            "is it from a newer vigile?",
            url=shown,
        )


def _schema_of(path: Path) -> tuple[set[str], str | None]:
    """The names in a SQLite file's schema, and its alembic revision if it has one, read
    through a read-only connection."""
    connection = sqlite3.connect(
        f"{path.as_uri()}?mode=ro", uri=True, timeout=BUSY_TIMEOUT_MS / 1000
    )
    try:
        names = {
            str(name)
            for (name,) in connection.execute(
                "SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\'"
            )
        }
        version = None
        if "alembic_version" in names:
            row = connection.execute("SELECT version_num FROM alembic_version").fetchone()
            version = None if row is None else str(row[0])
        return names, version
    finally:
        connection.close()
