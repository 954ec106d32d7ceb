"""News of the records other processes write, over PostgreSQL's LISTEN/NOTIFY.

Every write of a record (and an archive) sends, in its own transaction, ``NOTIFY`` on
:data:`CHANNEL` with the payload ``ENCOUNTER SEQ ORIGIN``: PostgreSQL delivers it when the
transaction commits, to every connection listening on the database, never before the record
can be read. ``ORIGIN`` is the writing :class:`~vigile.store.Store`'s own random name, so that
a process does not hear its own writes (it woke its streams itself).

A :class:`Listener` holds one connection of its own (out of the engine's pool) in a thread,
and passes each encounter heard, with the record's number, to its callback; on (re)connecting
it passes None ("anything may have been written while nobody listened"). A lost connection
is opened again after :data:`RETRY_S`; :meth:`Listener.stop` ends it within :data:`WAIT_S`.

SQLite has no such news: its readers look at the log now and then.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from contextlib import suppress
from typing import Any, Final

from sqlalchemy import Engine

CHANNEL: Final = "vigile_records"
"""The NOTIFY channel (one per database: the payload names the encounter)."""
WAIT_S: Final = 0.5
"""Seconds the listening thread waits for news before it looks whether it must stop."""
RETRY_S: Final = 1.0
"""Seconds before a lost connection is opened again."""

_log = logging.getLogger(__name__)


def payload(encounter_id: str, seq: int, origin: str) -> str:
    """What a write tells the listeners."""
    return f"{encounter_id} {seq} {origin}"


class Listener:
    """One connection listening on :data:`CHANNEL`, in a daemon thread."""

    def __init__(
        self, engine: Engine, origin: str, heard: Callable[[str | None, int], None]
    ) -> None:
        self._engine = engine
        self._origin = origin
        self._heard = heard
        self._stop = threading.Event()
        self.connected = False
        """Listening now: every write since reaches :attr:`_heard`."""
        self._thread = threading.Thread(target=self._run, name="vigile-listen", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        """Stop listening and close the connection (waits for the thread, a moment at most)."""
        self._stop.set()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(WAIT_S * 4)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self._listen()
            except Exception as error:  # the database went away: listen again soon
                _log.warning("vigile: not listening to the database (%s); again in %g s",
                             " ".join(str(error).split()), RETRY_S)  # fmt: skip
            self._stop.wait(RETRY_S)

    def _listen(self) -> None:
        proxied = self._engine.raw_connection()
        connection: Any = proxied.driver_connection
        proxied.detach()  # its own connection: never back to the pool
        try:
            connection.rollback()
            connection.autocommit = True
            connection.execute(f"LISTEN {CHANNEL}")
            self.connected = True
            self._heard(None, 0)
            while not self._stop.is_set():
                for note in connection.notifies(timeout=WAIT_S):
                    parts = str(note.payload).split(" ")
                    if len(parts) == 3 and parts[2] != self._origin and parts[1].isdigit():
                        self._heard(parts[0], int(parts[1]))
        finally:
            self.connected = False
            with suppress(Exception):
                proxied.close()  # detached: its connection is closed, not pooled
