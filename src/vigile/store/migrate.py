"""Schema migrations with Alembic, configured in code (no ``alembic.ini`` at run time).

The scripts live in ``migrations/`` beside this module and ship with the package.
:func:`upgrade` brings a database to a revision (``head`` by default) in one transaction,
which on SQLite is ``BEGIN IMMEDIATE`` and on PostgreSQL holds an advisory lock, so two
processes opening the same new database at once migrate it once.

To write a new revision from a changed :mod:`vigile.store.schema` (a developer's job)::

    from alembic import command
    from vigile.store.migrate import alembic_config
    command.revision(alembic_config("sqlite:////tmp/dev.db"), "what changes", autogenerate=True)

(the dev database first upgraded to head), then check and edit the file it writes.
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, text

from .engine import WRITE

MIGRATIONS = Path(__file__).with_name("migrations")
PG_LOCK = 0x76696769_6C65
"""The PostgreSQL advisory lock key held while migrating ("vigile" in hex)."""


def alembic_config(url: str | None = None) -> Config:
    """Alembic's configuration for vigile's migrations; ``url`` for the alembic commands that
    open their own connection (otherwise :func:`upgrade` passes its connection)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    if url is not None:
        config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


def head() -> str:
    """The newest revision."""
    revision = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert revision is not None
    return revision


def revisions() -> frozenset[str]:
    """Every revision this vigile knows."""
    script = ScriptDirectory.from_config(alembic_config())
    return frozenset(revision.revision for revision in script.walk_revisions())


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Migrate the database to ``revision`` in one write transaction; a no-op when it is there."""
    config = alembic_config()
    with engine.execution_options(**{WRITE: True}).begin() as connection:
        if connection.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": PG_LOCK})
        config.attributes["connection"] = connection
        command.upgrade(config, revision)
