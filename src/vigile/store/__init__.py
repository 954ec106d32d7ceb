"""Live encounters as append-only logs in a database (SQLite by default, PostgreSQL by URL).

An encounter is the scenario text it started from plus an append-only log of records, each with
a per-encounter sequence number (1, 2, 3...). The state is rebuilt elsewhere by replaying the
log; this package only stores it. SQLAlchemy Core, migrations by Alembic (run on opening).
"""

from __future__ import annotations

from .engine import default_path, resolve_url
from .errors import (
    ArchivedEncounter,
    StaleSequence,
    StoreError,
    TooManyEncounters,
    UnknownEncounter,
)
from .notify import Listener
from .store import (
    Checkpoint,
    CheckpointInfo,
    EncounterRow,
    EncounterWithScenario,
    Record,
    Store,
)

__all__ = [
    "ArchivedEncounter",
    "Checkpoint",
    "CheckpointInfo",
    "EncounterRow",
    "EncounterWithScenario",
    "Listener",
    "Record",
    "StaleSequence",
    "Store",
    "StoreError",
    "TooManyEncounters",
    "UnknownEncounter",
    "default_path",
    "resolve_url",
]
