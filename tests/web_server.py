"""A real ``vigile serve`` for the web tests: a subprocess on a free loopback port, over SQLite
(a file in tmp_path) or PostgreSQL (a fresh schema in ``VIGILE_TEST_PG_URL``'s database).

Without ``VIGILE_TEST_PG_URL`` the PostgreSQL cases skip, except under CI, where they fail
(tests/test_store.py does the same). ``.ci/run`` starts a server with scripts/ci_postgres.sh.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import httpx
import pytest
from sqlalchemy import URL, create_engine, make_url, text

PG_URL = os.environ.get("VIGILE_TEST_PG_URL")
TOKEN = "test-server-token-0123456789"
START_S = 60.0
"""Seconds a server may take to answer its health check: two workers each import the whole
app, which under coverage on a loaded two-core machine took over 30 s once."""
_GM_LINE = re.compile(r"^GM: (http://\S+?:(\d+))/(?:\?token=(\S+))?")


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def db_url(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """An empty database for one test module: a SQLite file, or a fresh PostgreSQL schema."""
    if request.param == "sqlite":
        path = tmp_path_factory.mktemp("db") / "vigile.db"
        yield URL.create("sqlite", database=str(path)).render_as_string(False)
        return
    yield from pg_schema()


def pg_schema() -> Iterator[str]:
    if not PG_URL:
        if os.environ.get("CI"):
            pytest.fail("VIGILE_TEST_PG_URL is not set: CI runs the PostgreSQL cases")
        pytest.skip("VIGILE_TEST_PG_URL is not set (scripts/ci_postgres.sh starts a server)")
    name = f"t_{uuid.uuid4().hex[:16]}"
    admin = create_engine(PG_URL)
    with admin.begin() as connection:
        connection.execute(text(f"CREATE SCHEMA {name}"))
    try:
        yield (
            make_url(PG_URL)
            .update_query_dict({"options": f"-csearch_path={name}"})
            .render_as_string(hide_password=False)
        )
    finally:
        with admin.begin() as connection:
            connection.execute(text(f"DROP SCHEMA {name} CASCADE"))
        admin.dispose()


@dataclass
class Server:
    """One ``vigile serve`` process."""

    db: str
    args: tuple[str, ...] = ()
    token: str | None = TOKEN
    """The ``--token`` given (None: none; the one printed, if any, is kept here)."""
    base: str = ""
    process: subprocess.Popen[str] | None = None
    output: list[str] = field(default_factory=list)
    reader: threading.Thread | None = None

    def start(self) -> Server:
        command = [
            sys.executable, "-m", "vigile", "serve", "--port", "0", "--db", self.db,
            *(("--token", self.token) if self.token is not None else ()), *self.args,
        ]  # fmt: skip
        env = {k: v for k, v in os.environ.items() if k not in ("VIGILE_TOKEN", "VIGILE_DB")}
        self.process = subprocess.Popen(
            command,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env=env,
        )
        self.base = self._read_base()
        self.reader = threading.Thread(target=self._drain, daemon=True)
        self.reader.start()
        deadline = time.monotonic() + START_S
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{self.base}/api/v1/health", timeout=2).status_code == 200:
                    return self
            except httpx.TransportError:
                time.sleep(0.05)
        raise AssertionError(f"the server did not answer: {self.output}")

    def _read_base(self) -> str:
        assert self.process is not None and self.process.stdout is not None
        deadline = time.monotonic() + START_S
        while time.monotonic() < deadline:
            line = self.process.stdout.readline()
            if not line:
                self.process.wait(5)
                raise AssertionError(f"vigile serve stopped: {''.join(self.output)}")
            self.output.append(line)
            found = _GM_LINE.match(line)
            if found:
                if found.group(3):
                    self.token = unquote(found.group(3))
                return found.group(1)
        raise AssertionError(f"no GM line: {self.output}")

    def _drain(self) -> None:
        assert self.process is not None and self.process.stdout is not None
        for line in self.process.stdout:
            self.output.append(line)

    def kill(self) -> None:
        """``kill -9``: no chance to finish anything."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)
        self._close()

    def stop(self) -> None:
        """SIGINT, as Ctrl-C: the server stops by itself (killed if it takes too long)."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
        self._close()

    def _close(self) -> None:
        if self.reader is not None:
            self.reader.join(5)
        if self.process is not None and self.process.stdout is not None:
            self.process.stdout.close()

    def client(self, token: str | None = None, **headers: str) -> httpx.Client:
        """A client speaking for ``token`` (the server's by default; '' for none)."""
        token = self.token if token is None else token
        sent = dict(headers)
        if token:
            sent["Authorization"] = f"Bearer {token}"
        return httpx.Client(base_url=self.base, headers=sent, timeout=30)


@pytest.fixture(scope="module")
def server(db_url: str) -> Iterator[Server]:
    """A server for one test module (each test starts its own encounters)."""
    running = Server(db_url).start()
    try:
        yield running
    finally:
        running.stop()


def problem_of(response: httpx.Response) -> dict[str, Any]:
    """The problem the response carries (asserting it is one)."""
    assert response.headers["content-type"] == "application/problem+json", response.text
    body: dict[str, Any] = response.json()
    assert body["status"] == response.status_code
    assert body["type"] and body["title"]
    return body


def new_encounter(
    client: httpx.Client, scenario: str = "night-raid", **options: Any
) -> dict[str, Any]:
    response = client.post("/api/v1/encounters", json={"scenario": scenario, **options})
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def write_scenario(path: Path, text_: str) -> Path:
    path.write_text(text_, encoding="utf-8")
    return path
