"""The store of live encounters (vigile.store): encounters, append-only records, tokens,
migrations, concurrent writers, and databases that cannot be used.

Every test that touches a database runs on SQLite (a file in tmp_path) and on PostgreSQL (a
fresh schema per test in the database ``VIGILE_TEST_PG_URL`` names; ``.ci/run`` starts a server
with ``scripts/ci_postgres.sh``). Without that variable the PostgreSQL cases skip, except under
CI, where they fail: CI must not skip them silently.
"""

from __future__ import annotations

import contextlib
import hashlib
import multiprocessing
import os
import re
import sqlite3
import threading
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import URL, create_engine, event, insert, make_url, select

from vigile.errors import InputError
from vigile.store import (
    ArchivedEncounter,
    EncounterRow,
    Record,
    StaleSequence,
    Store,
    StoreError,
    TooManyEncounters,
    UnknownEncounter,
    default_path,
    schema,
)
from vigile.store import engine as store_engine
from vigile.store.engine import make_engine
from vigile.store.migrate import alembic_config, head, upgrade
from web_server import pg_schema

PG_URL = os.environ.get("VIGILE_TEST_PG_URL")
SCENARIO = "ruleset: skirmish\nmap: {width: 60, height: 40}\n# ☾ a comment\n"


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A database URL for one test, empty: a SQLite file, or a fresh PostgreSQL schema."""
    if request.param == "sqlite":
        yield URL.create("sqlite", database=str(tmp_path / "vigile.db")).render_as_string(False)
        return
    yield from pg_schema()


@pytest.fixture
def store(url: str) -> Iterator[Store]:
    with Store(url) as opened:
        yield opened


def _new(store: Store, name: str = "Night raid", **changes: Any) -> EncounterRow:
    fields: dict[str, Any] = {
        "name": name,
        "ruleset": "skirmish",
        "source": "night-raid",
        "scenario": SCENARIO,
        "scenario_format": "yaml",
        "seed": 7,
        "dice": "rolled",
    }
    fields.update(changes)
    return store.create_encounter(**fields)


# -- encounters --------------------------------------------------------------------------------


def test_create_list_get_archive(store: Store) -> None:
    before = datetime.now(UTC)
    first = _new(store, "first", seed=2**63 - 1, dice="given", scenario_format="toml")
    second = _new(store, "second")
    assert len(first.id) == 32 and int(first.id, 16) >= 0
    assert first.created.tzinfo is UTC and before - timedelta(seconds=1) < first.created
    assert (first.archived, first.last_seq) == (False, 0)
    assert store.encounter(first.id) == first
    assert store.encounter(first.id).scenario == SCENARIO
    assert [row.name for row in store.encounters()] == ["second", "first"]
    assert store.encounters(archived=True) == []

    store.archive(first.id)
    store.append(second.id, "action", {"n": 1})
    assert [row.id for row in store.encounters()] == [second.id]
    assert store.encounters()[0].last_seq == 1
    archived = store.encounters(archived=True)
    assert [row.id for row in archived] == [first.id]
    assert archived[0].archived and store.encounter(first.id).archived


def test_unknown_encounter(store: Store) -> None:
    nobody = uuid.uuid4().hex
    for call in (
        lambda: store.encounter(nobody),
        lambda: store.archive(nobody),
        lambda: store.append(nobody, "action", {}),
        lambda: store.records(nobody),
        lambda: store.last_seq(nobody),
        lambda: store.create_token(nobody, "gm"),
        lambda: store.encounter("not even an id ' OR 1=1 --"),
    ):
        with pytest.raises(UnknownEncounter) as caught:
            call()
        assert caught.value.status == 404
    assert store.find_token(nobody, "anything") is None


def _statements(store: Store) -> list[str]:
    """The SQL statements the store runs from now on."""
    seen: list[str] = []

    def record(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        seen.append(statement)

    event.listen(store._engine, "before_cursor_execute", record)
    return seen


def test_a_listing_reads_no_scenario_text(store: Store) -> None:
    """Issue 34: a listing read every stored scenario's text (up to 1 MiB each) to show a name
    and a date. It reads the settings only, and at most ``limit`` rows."""
    for i in range(3):
        _new(store, f"raid {i}", scenario=SCENARIO + "#" * 100_000)
    statements = _statements(store)
    listed = store.encounters(limit=2)
    assert [row.name for row in listed] == ["raid 2", "raid 1"]
    assert all(type(row) is EncounterRow and not hasattr(row, "scenario") for row in listed)
    assert len(store.encounters()) == 3 and store.encounters(archived=True, limit=5) == []
    assert statements and not any(re.search(r"\bscenario\b", s) for s in statements)
    assert store.encounter(listed[0].id).scenario.endswith("#" * 100_000)
    with pytest.raises(InputError):
        store.encounters(limit=-1)


def test_the_live_encounters_are_capped(store: Store, url: str) -> None:
    """Issue 34: nothing bounded the encounters a server holds. ``most`` counts the live ones
    (an archived one frees its place), under the write lock: creators racing in threads with
    stores of their own never pass it."""
    first = _new(store, "one", most=2)
    _new(store, "two", most=2)
    with pytest.raises(TooManyEncounters) as caught:
        _new(store, "three", most=2)
    assert caught.value.status == 409 and "at most 2 live encounters" in str(caught.value)
    assert store.count_encounters() == 2
    store.archive(first.id)
    _new(store, "three", most=2)
    assert (store.count_encounters(), store.count_encounters(archived=True)) == (2, 1)

    start = threading.Barrier(6, timeout=60)
    made: list[str] = []

    def create() -> None:
        with Store(url) as mine:
            start.wait()
            for _ in range(3):
                with contextlib.suppress(TooManyEncounters):
                    made.append(_new(mine, "racer", most=5).id)

    threads = [threading.Thread(target=create) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert len(made) == 3 and store.count_encounters() == 5


# -- records -----------------------------------------------------------------------------------


def test_records_ascending_after_and_limit(store: Store) -> None:
    row = _new(store)
    assert store.records(row.id) == [] and store.last_seq(row.id) == 0
    made = [store.append(row.id, "action", {"i": i}) for i in range(1, 4)]
    made += store.append_many(row.id, [("dice", {"values": [6, 1]}), ("undo", {"of": 4})])
    assert [r.seq for r in made] == [1, 2, 3, 4, 5]
    assert store.records(row.id) == made
    assert store.records(row.id, after=3) == made[3:]
    assert store.records(row.id, after=1, limit=2) == made[1:3]
    assert store.records(row.id, after=5) == []
    assert store.records(row.id, limit=0) == []
    assert store.last_seq(row.id) == 5 and store.encounter(row.id).last_seq == 5
    assert all(isinstance(r, Record) and r.at.tzinfo is UTC for r in store.records(row.id))


def test_payloads_come_back_as_given(store: Store) -> None:
    row = _new(store)
    payload = {"who": "Kage ☾ é", "at": [3, 4.5], "nested": {"ok": True, "none": None}, "n": 2**40}
    store.append(row.id, "action", payload)
    assert store.records(row.id)[0].payload == payload
    assert store.append_many(row.id, []) == []
    assert store.last_seq(row.id) == 1


def test_expect_seq(store: Store) -> None:
    row = _new(store)
    assert store.append(row.id, "action", {"i": 1}, expect_seq=1).seq == 1
    assert [r.seq for r in store.append_many(row.id, [("a", {}), ("b", {})], expect_seq=2)] == [
        2,
        3,
    ]
    for stale in (1, 3, 5):
        with pytest.raises(StaleSequence) as caught:
            store.append_many(row.id, [("late", {}), ("later", {})], expect_seq=stale)
        assert (caught.value.expected, caught.value.actual, caught.value.status) == (stale, 4, 409)
    assert store.last_seq(row.id) == 3
    assert [r.kind for r in store.records(row.id)] == ["action", "a", "b"]


def test_an_archived_encounter_refuses_writes(store: Store) -> None:
    row = _new(store)
    store.append(row.id, "action", {})
    store.archive(row.id)
    for call in (
        lambda: store.append(row.id, "action", {}),
        lambda: store.append_many(row.id, [("action", {})], expect_seq=2),
        lambda: store.create_token(row.id, "gm"),
    ):
        with pytest.raises(ArchivedEncounter) as caught:
            call()
        assert caught.value.status == 409
    assert [r.seq for r in store.records(row.id)] == [1]


# -- tokens ------------------------------------------------------------------------------------


def test_tokens(store: Store, url: str) -> None:
    row, other = _new(store), _new(store, "other")
    gm = store.create_token(row.id, "gm")
    kage = store.create_token(row.id, "player", "Kage")
    table = store.create_token(row.id, "table")
    foreign = store.create_token(other.id, "gm")
    assert len({gm, kage, table, foreign}) == 4 and len(gm) >= 43
    assert store.find_token(row.id, gm) == ("gm", None)
    assert store.find_token(row.id, kage) == ("player", "Kage")
    assert store.find_token(row.id, table) == ("table", None)
    assert store.find_token(row.id, gm[:-1] + ("A" if gm[-1] != "A" else "B")) is None
    assert store.find_token(row.id, "") is None
    assert store.find_token(row.id, foreign) is None
    assert store.find_token(other.id, foreign) == ("gm", None)

    # Only digests are stored.
    engine = create_engine(url)
    with engine.connect() as connection:
        stored = [tuple(r) for r in connection.execute(select(schema.tokens))]
    engine.dispose()
    cells = {str(cell) for r in stored for cell in r}
    assert not {gm, kage, table, foreign} & cells
    assert not any(token in cell for token in (gm, kage) for cell in cells)
    assert hashlib.sha256(kage.encode()).hexdigest() in cells


# -- validation --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("name", ""),
        ("name", "x" * 201),
        ("name", 3),
        ("ruleset", "r" * 41),
        ("source", "s" * 201),
        ("source", "a\x00b"),
        ("scenario", "x" * (1024 * 1024 + 1)),
        ("scenario", "é" * (512 * 1024 + 1)),
        ("scenario", "bad \ud800"),
        ("scenario", b"bytes"),
        ("scenario_format", "xml"),
        ("seed", -1),
        ("seed", 2**63),
        ("seed", 1.0),
        ("seed", True),
        ("dice", "loaded"),
    ],
)
def test_create_refuses_bad_input(tmp_path: Path, field: str, value: Any) -> None:
    with Store(f"sqlite:///{tmp_path / 'v.db'}") as store:
        with pytest.raises(InputError) as caught:
            _new(store, **{field: value})
        assert caught.value.where == field
        assert store.encounters() == []


@pytest.mark.parametrize(
    ("field", "kind", "payload", "options"),
    [
        ("kind", "", {}, {}),
        ("kind", "k" * 41, {}, {}),
        ("payload", "action", ["not", "a", "dict"], {}),
        ("payload", "action", {"x": {1, 2}}, {}),
        ("payload", "action", {"x": float("nan")}, {}),
        ("payload", "action", {"x": "y" * (256 * 1024)}, {}),
        ("expect_seq", "action", {}, {"expect_seq": 0}),
        ("expect_seq", "action", {}, {"expect_seq": "1"}),
    ],
)
def test_append_refuses_bad_input(
    tmp_path: Path, field: str, kind: Any, payload: Any, options: dict[str, Any]
) -> None:
    with Store(f"sqlite:///{tmp_path / 'v.db'}") as store:
        row = _new(store)
        with pytest.raises(InputError) as caught:
            store.append_many(row.id, [("fine", {}), (kind, payload)], **options)
        assert caught.value.where == field
        assert store.last_seq(row.id) == 0


def test_other_bad_input(tmp_path: Path) -> None:
    with Store(f"sqlite:///{tmp_path / 'v.db'}") as store:
        row = _new(store)
        for call, field in (
            (lambda: store.records(row.id, after=-1), "after"),
            (lambda: store.records(row.id, limit=-1), "limit"),
            (lambda: store.create_token(row.id, "admin"), "role"),
            (lambda: store.create_token(row.id, "player", "c" * 201), "character"),
        ):
            with pytest.raises(InputError) as caught:
                call()
            assert caught.value.where == field
        assert store.find_token(row.id, "t" * 1000) is None


def test_errors_are_input_errors_with_a_status() -> None:
    for error, status in (
        (UnknownEncounter, 404),
        (StaleSequence, 409),
        (ArchivedEncounter, 409),
        (StoreError, 503),
    ):
        assert issubclass(error, InputError) and error.status == status


# -- migrations --------------------------------------------------------------------------------


def _version(url: str) -> str | None:
    engine = create_engine(url)
    with engine.connect() as connection:
        version = MigrationContext.configure(connection).get_current_revision()
    engine.dispose()
    return version


def test_a_fresh_database_upgrades_to_head_and_reopening_changes_nothing(url: str) -> None:
    assert head() == "0005"
    with Store(url) as store:
        row = _new(store)
        store.append(row.id, "action", {"i": 1})
    assert _version(url) == "0005"
    with Store(url) as again:
        assert again.encounter(row.id).last_seq == 1
        assert [r.payload for r in again.records(row.id)] == [{"i": 1}]
    assert _version(url) == "0005"


def test_the_migrations_match_the_schema(url: str) -> None:
    Store(url).close()
    engine = create_engine(url)
    with engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        assert compare_metadata(context, schema.metadata) == []
    engine.dispose()
    # The same check as a developer runs it ('alembic check', through env.py with a URL).
    command.check(alembic_config(url))


def test_an_upgrade_from_the_first_revision_keeps_the_data(url: str) -> None:
    engine = make_engine(url)
    upgrade(engine, "0001")
    created = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
    with engine.begin() as connection:
        connection.execute(
            insert(schema.encounters).values(
                id="a" * 32,
                name="Old game",
                ruleset="skirmish",
                source="night-raid",
                scenario=SCENARIO,
                scenario_format="yaml",
                seed=11,
                dice="given",
                created=created,
                last_seq=2,
            )
        )
        connection.execute(
            insert(schema.records),
            [
                {"encounter_id": "a" * 32, "seq": s, "kind": "action", "payload": f'{{"s":{s}}}'}
                | {"at": created}
                for s in (1, 2)
            ],
        )
    engine.dispose()
    assert _version(url) == "0001"
    with Store(url) as store:
        assert _version(url) == "0005"
        old = store.encounter("a" * 32)
        assert (old.name, old.seed, old.dice, old.created, old.archived, old.last_seq) == (
            "Old game",
            11,
            "given",
            created,
            False,
            2,
        )
        assert [(r.seq, r.payload) for r in store.records(old.id)] == [(1, {"s": 1}), (2, {"s": 2})]
        assert store.append(old.id, "action", {}, expect_seq=3).seq == 3
        token = store.create_token(old.id, "player", "Kage")
        assert store.find_token(old.id, token) == ("player", "Kage")


def test_the_migrations_go_down_and_up_again(url: str) -> None:
    """Down to 0001 (the tokens and checkpoints go), and up again on opening; the encounters
    stay."""
    with Store(url) as store:
        row = _new(store)
        store.append(row.id, "action", {"i": 1})
        store.create_token(row.id, "gm")
    command.downgrade(alembic_config(url), "0001")
    assert _version(url) == "0001"
    with Store(url) as store:
        assert _version(url) == "0005"
        assert store.records(row.id)[0].payload == {"i": 1}
        token = store.create_token(row.id, "table")
        assert store.find_token(row.id, token) == ("table", None)


def test_an_in_memory_database_serves_one_thread() -> None:
    with Store("sqlite://") as store:
        row = _new(store)
        assert store.append(row.id, "action", {}).seq == 1
        assert store.encounter(row.id).last_seq == 1


def test_a_database_from_a_newer_vigile_is_refused(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'v.db'}"
    Store(url).close()
    with sqlite3.connect(tmp_path / "v.db") as connection:
        connection.execute("UPDATE alembic_version SET version_num = '9999'")
    connection.close()
    with pytest.raises(StoreError, match="newer vigile") as caught:
        Store(url)
    assert "\n" not in str(caught.value)


# -- concurrency -------------------------------------------------------------------------------

WRITERS = 4
EACH = 200


def _append_all(store: Store, encounter_id: str, writer: int, start: Any) -> None:
    """One writer: ``EACH`` records as fast as it can, without expect_seq."""
    start.wait()
    for i in range(EACH):
        store.append(encounter_id, "action", {"writer": writer, "i": i})


def _write(url: str, encounter_id: str, writer: int, start: Any) -> None:
    """One writer in a process of its own, with its own store."""
    with Store(url) as store:
        _append_all(store, encounter_id, writer, start)


def _check_log(store: Store, encounter_id: str) -> None:
    records = store.records(encounter_id)
    assert [r.seq for r in records] == list(range(1, WRITERS * EACH + 1))
    for writer in range(WRITERS):
        mine = [r.payload["i"] for r in records if r.payload["writer"] == writer]
        assert mine == list(range(EACH))
    assert store.last_seq(encounter_id) == WRITERS * EACH


def test_writers_in_threads_lose_nothing(store: Store, url: str) -> None:
    """Half the threads share the test's store (as a web server's threads do), half have
    their own."""
    row = _new(store)
    start = threading.Barrier(WRITERS, timeout=60)
    errors: list[BaseException] = []

    def run(writer: int) -> None:
        try:
            if writer % 2:
                _write(url, row.id, writer, start)
            else:
                _append_all(store, row.id, writer, start)
        except BaseException as error:  # pragma: no cover - reported below
            start.abort()
            errors.append(error)

    threads = [threading.Thread(target=run, args=(w,)) for w in range(WRITERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert errors == []
    _check_log(store, row.id)


@pytest.mark.multiprocess
def test_writers_in_processes_lose_nothing(store: Store, url: str) -> None:
    row = _new(store)
    context = multiprocessing.get_context("spawn")
    start = context.Barrier(WRITERS, timeout=60)
    processes = [
        context.Process(target=_write, args=(url, row.id, w, start)) for w in range(WRITERS)
    ]
    for process in processes:
        process.start()
    for process in processes:
        process.join(120)
    for process in processes:
        if process.is_alive():  # pragma: no cover - a hung writer fails the test, not the run
            process.kill()
            process.join()
    assert [p.exitcode for p in processes] == [0] * WRITERS
    _check_log(store, row.id)


def test_racing_with_expect_seq_one_wins(store: Store, url: str) -> None:
    """Two writers see the same last_seq and both append with expect_seq: one wins, the other
    gets StaleSequence; over many rounds the log has exactly one record per round."""
    row = _new(store)
    rounds = 15
    both_read = threading.Barrier(2, timeout=20)
    outcomes: list[list[str]] = [[], []]
    errors: list[BaseException] = []

    def run(writer: int) -> None:
        try:
            with Store(url) as mine:
                for _ in range(rounds):
                    seen = mine.last_seq(row.id)
                    both_read.wait()
                    try:
                        mine.append(row.id, "action", {"writer": writer}, expect_seq=seen + 1)
                        outcomes[writer].append("won")
                    except StaleSequence as error:
                        assert (error.expected, error.actual) == (seen + 1, seen + 2)
                        outcomes[writer].append("stale")
                    both_read.wait()
        except BaseException as error:  # pragma: no cover - reported below
            both_read.abort()
            errors.append(error)

    threads = [threading.Thread(target=run, args=(w,)) for w in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert errors == []
    for left, right in zip(*outcomes, strict=True):
        assert sorted((left, right)) == ["stale", "won"]
    assert [r.seq for r in store.records(row.id)] == list(range(1, rounds + 1))


# -- where the database is, and when it cannot be used -----------------------------------------


@pytest.mark.parametrize(
    "bad",
    [
        "postgresql+psycopg://nobody:s3cret@127.0.0.1:1/x",
        "postgresql+psycopg://nobody@127.0.0.1:1/x",
        "postgresql+psycopg://nobody:s3cret@127.0.0.1:1/x?no_such_option=1",
        "nonsense://",
        "nonsense://user:s3cret@host/db",
        "{tmp}/a-file/x.db",  # a plain path is a SQLite file: here under a file, not a folder
        "sqlite:///{tmp}/a-file/sub/x.db",
    ],
)
def test_an_unusable_url_is_a_one_line_store_error(tmp_path: Path, bad: str) -> None:
    (tmp_path / "a-file").write_text("not a directory")
    bad = bad.replace("{tmp}", str(tmp_path))
    with pytest.raises(StoreError) as caught:
        Store(bad)
    message = str(caught.value)
    assert "\n" not in message and "s3cret" not in message
    assert message.startswith("database ")
    assert caught.value.url in message and "s3cret" not in caught.value.url
    if "s3cret" in bad:
        assert "***" in message


def test_a_locked_database_is_a_store_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(store_engine, "BUSY_TIMEOUT_MS", 50)
    path = tmp_path / "v.db"
    with Store(f"sqlite:///{path}") as store:
        row = _new(store)
        holder = sqlite3.connect(path, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")
        try:
            with pytest.raises(StoreError, match="locked"):
                store.append(row.id, "action", {})
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        assert store.append(row.id, "action", {}).seq == 1


def test_sqlite_connections_are_set_up(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "er" / "v.db"
    with Store(f"sqlite:///{path}") as store:
        assert store.url == f"sqlite:///{path}"
    engine = make_engine(f"sqlite:///{path}")
    with engine.connect() as connection:
        pragmas = [
            connection.exec_driver_sql(f"PRAGMA {name}").scalar()
            for name in ("journal_mode", "foreign_keys", "busy_timeout")
        ]
        assert pragmas == ["wal", 1, store_engine.BUSY_TIMEOUT_MS]
    engine.dispose()


def test_the_default_database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("VIGILE_DB", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert default_path() == tmp_path / "data" / "vigile" / "vigile.db"
    with Store() as store:
        _new(store)
        assert store.url == f"sqlite:///{tmp_path / 'data' / 'vigile' / 'vigile.db'}"
    assert default_path().exists()

    monkeypatch.setenv("VIGILE_DB", str(tmp_path / "elsewhere" / "game.db"))
    with Store() as store:
        assert store.encounters() == []
    assert (tmp_path / "elsewhere" / "game.db").exists()

    monkeypatch.setenv("VIGILE_DB", f"sqlite:///{tmp_path / 'by-url.db'}")
    with Store() as store:
        assert store.url == f"sqlite:///{tmp_path / 'by-url.db'}"
    with Store(f"sqlite:///{tmp_path / 'explicit.db'}") as store:
        assert store.url.endswith("explicit.db") and repr(store).startswith("Store(")


def test_the_url_hides_the_password(store: Store, url: str) -> None:
    password = make_url(url).password
    if password:
        assert str(password) not in store.url and "***" in store.url
    else:
        assert store.url == url


def test_a_plain_path_is_a_sqlite_file_whether_given_or_in_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--db FILE`` (vigile play, serve, encounters) and ``VIGILE_DB=FILE`` mean the same."""
    given = tmp_path / "given.db"
    with Store(str(given)) as store:
        assert store.url.endswith("given.db")
    assert given.exists()
    monkeypatch.setenv("VIGILE_DB", str(tmp_path / "env.db"))
    with Store() as store:
        assert store.url.endswith("env.db")


def _digest_of(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize("kind", ["foreign", "not-sqlite", "other-alembic", "newer"])
def test_another_applications_file_is_refused_untouched(tmp_path: Path, kind: str) -> None:
    """Issue 34: ``--db`` pointed at another application's SQLite file was switched to WAL (and
    given vigile's tables) before anything looked at it. It is read through a read-only
    connection first: refused, its bytes the same, no WAL beside it."""
    path = tmp_path / "theirs.db"
    if kind == "not-sqlite":
        path.write_bytes(b"%PDF-1.7 not a database" * 100)
    else:
        with sqlite3.connect(path) as connection:
            if kind == "foreign":
                connection.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
                connection.execute("INSERT INTO notes (body) VALUES ('mine')")
            else:  # another alembic user; a vigile database of a revision this one lacks
                connection.execute("CREATE TABLE alembic_version (version_num VARCHAR(32))")
                connection.execute("INSERT INTO alembic_version VALUES ('9999')")
                if kind == "newer":
                    connection.execute("CREATE TABLE encounters (id TEXT)")
                    connection.execute("CREATE TABLE records (id TEXT)")
        connection.close()
    before = _digest_of(path)
    for given in (str(path), f"sqlite:///{path}"):
        with pytest.raises(StoreError) as caught:
            Store(given)
        message = str(caught.value)
        assert "\n" not in message
        if kind == "newer":
            assert "newer vigile" in message
        elif kind == "not-sqlite":
            assert "not a SQLite database" in message
        else:
            assert "not a vigile database" in message
    assert _digest_of(path) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["theirs.db"]
    if kind != "not-sqlite":
        with sqlite3.connect(path) as connection:
            assert connection.execute("PRAGMA journal_mode").fetchone() == ("delete",)
        connection.close()


def test_an_empty_file_or_one_of_ours_is_opened(tmp_path: Path) -> None:
    empty = tmp_path / "empty.db"
    empty.touch()
    with Store(str(empty)) as store:
        _new(store)
    with Store(str(empty)) as store:
        assert len(store.encounters()) == 1
