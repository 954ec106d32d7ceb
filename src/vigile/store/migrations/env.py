"""Alembic's environment for vigile's store.

:func:`vigile.store.migrate.upgrade` passes an open connection, already in its transaction, in
``config.attributes["connection"]``; the alembic commands run by a developer pass a URL as
``sqlalchemy.url`` instead (see :mod:`vigile.store.migrate`).
"""

from __future__ import annotations

from alembic import context
from sqlalchemy.engine import Connection

from vigile.store.engine import make_engine
from vigile.store.schema import metadata


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=metadata,
        render_as_batch=True,  # SQLite alters a table by copying it
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


_given = context.config.attributes.get("connection")
if isinstance(_given, Connection):
    _run(_given)
else:
    _engine = make_engine(context.config.get_main_option("sqlalchemy.url") or "")
    try:
        with _engine.connect() as _connection:
            _run(_connection)
    finally:
        _engine.dispose()
