"""The store's errors, in vigile's one hierarchy (:mod:`vigile.errors`).

Each is an :class:`~vigile.errors.InputError` (the CLI prints it on one line and exits with code
2) and carries ``status``, the HTTP status the web layer answers with.
"""

from __future__ import annotations

from vigile.errors import InputError, LimitError


class StoreError(InputError):
    """The database cannot be used: an unknown or malformed URL, a server that cannot be
    reached, a file that cannot be created, a database from a newer vigile.

    The message is one line and names the URL with its password hidden. ``status`` is 503: for
    the web layer the database is the server's, not the client's, so the service is unavailable.
    """

    status: int = 503

    def __init__(self, reason: str, *, url: str) -> None:
        self.url = url
        self.reason = reason
        super().__init__(f"database {url}: {reason}")


class UnknownEncounter(InputError):
    """No encounter has this id."""

    status: int = 404

    def __init__(self, encounter_id: str) -> None:
        self.encounter_id = encounter_id
        super().__init__(f"no encounter with id {encounter_id!r}", where="encounter")


class StaleSequence(InputError):
    """The caller's view of an encounter is out of date: the first new record would not get
    the sequence number it expected. Nothing was written.

    ``expected`` is the caller's ``expect_seq``; ``actual`` is the number the next record would
    get now (the encounter's last sequence number plus one).
    """

    status: int = 409

    def __init__(self, encounter_id: str, *, expected: int, actual: int) -> None:
        self.encounter_id = encounter_id
        self.expected = expected
        self.actual = actual
        super().__init__(
            f"encounter {encounter_id} has moved on: the next record is number {actual}, "
            f"not {expected}",
            where="expect_seq",
        )


class ArchivedEncounter(InputError):
    """The encounter is archived: it can be read, never written to."""

    status: int = 409

    def __init__(self, encounter_id: str) -> None:
        self.encounter_id = encounter_id
        super().__init__(
            f"encounter {encounter_id} is archived: it takes no more records", where="encounter"
        )


class TooManyEncounters(LimitError):
    """The store already holds as many live encounters as it may (a documented limit): an
    encounter must be archived before another starts. Nothing was written."""

    status: int = 409

    def __init__(self, most: int) -> None:
        self.most = most
        super().__init__(f"at most {most} live encounters: archive one before starting another")
