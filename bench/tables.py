"""Many tables on one server (issue 38): N encounters at once, each with its GM posting actions
and its 8 player pages, its table view and its GM's page open on SSE.

For each setting — SQLite (one ``vigile serve``), PostgreSQL (one), and PostgreSQL with the
encounters spread over two ``vigile serve`` processes on different ports (``--pg URL`` or
``$VIGILE_TEST_PG_URL`` for the last two) — it starts real servers on loopback ports, creates
``--tables`` night raids (their turn limit raised), opens 10 streams per table (the 3 ninjas',
5 guards', the table's and the GM's), then each table's GM posts an action every
``--interval`` seconds (each table at its own phase) for ``--seconds``: each ninja waits where
he stands, then the turn ends (patrols, sight, alarms). Over two processes a table's GM posts
to one and its viewers are spread over both, so that half the frames cross processes (through
PostgreSQL LISTEN/NOTIFY).

It reports, per setting:

* the latency from sending an action to each viewer's frame that reports it, over every
  (action, viewer told something of it) pair: p50, p99, max. A character's or the table's
  frames are numbered in the viewer's own sequence (LP-5): the record each of its events comes
  from is found afterwards by replaying the encounter here (the same rule the server applies,
  :func:`vigile.live.views.viewer_sees`), never by trusting the stream;
* events lost: for a character or the table, the events it is told in the replay and never
  received (its last frame's number short of the replay's count, or a gap between frames); for
  the GM, records with events whose frame never came (must be 0);
* the GM's round trip (p50, p99), the actions played, the server's peak memory (VmHWM, summed
  over its processes) and its CPU time per action (user + system, from /proc);
* the machine's load (``uptime``) before and after.

The goals are printed beside the figures. The client is one asyncio process reading raw
HTTP/1.1 (chunked SSE): its own delay counts in the latencies.

    python bench/tables.py [--tables 50] [--seconds 60] [--interval 1.0] [--pg URL]
                           [--settings sqlite,pg,pg2]
    python bench/tables.py --tables 5 --seconds 10          # a quick smoke run

Measured (2026-12-05, 2 cores shared with other sessions' test suites; "before" is the commit
before the fan-out with only its stream and connection caps raised, run from a worktree just
before "after"; 50 tables, 500 streams, 60 s):

    an action every 5 s per table   p99 ms (p50)    CPU ms/action   lost  MiB
      before  SQLite                1144  (51)          57.0          0    151
      after   SQLite                 368  (32)          26.5          0    148
      before  PostgreSQL            3214 (610)          92.2          0    159
      after   PostgreSQL             107  (19)          22.4          0    155
      before  PostgreSQL x2         2216 (375)         105.0          0    293
      after   PostgreSQL x2         1180  (43)          27.5          0    286
    load (uptime, 1 min): before 6.4 -> 14.6, after 6.5 -> 9.0

At an action every second per table (30 s) the server's CPU per action went 18.9 -> 13.2 ms
(SQLite), 35.6 -> 13.1 (PostgreSQL), 39.0 -> 25.2 (two processes), but the machine (load 13 to
17) left the GM's own round trip at p99 3 to 5 s, before as after. With 10 tables (an action a
second each, load 8.8) PostgreSQL met the goals (p99 59 ms); two processes did not (p99 227
ms): the slowest frames come together on each table's 10th to 12th record, where the process
that only reads replays the record and also takes a checkpoint (every 10 records) the writer
already took.

Measured again (2026-12-06, after a reading process stopped taking those checkpoints, tokens
were remembered and SQLite's pool stopped pinging; 50 tables, an action every 5 s each, 60 s,
load 1.9 -> 2.5 with another engineer's tests running):

      setting            p99 ms (p50)   cross-process p99   CPU ms/action   lost   MiB
      SQLite               65  (15)            -                27.8          0     147
      PostgreSQL           66  (17)            -                21.9          0     154
      PostgreSQL x2       100  (19)          111                28.3          0     283

Measured again (2026-12-06, after a write heard over NOTIFY is read without asking its number,
and a character page's events are kept with the game; PostgreSQL settings only, same work,
load 1.5 -> 1.2, one engineer's tests running in part of the run):

      setting            p99 ms (p50)   cross-process p99   CPU ms/action   lost   MiB
      PostgreSQL           40  (17)            -                22.4          0     153
      PostgreSQL x2        43  (16)           55                26.4          0     282
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx

TOKEN = "bench-tables-token-0123456789"
GM_LINE = re.compile(r"^GM: (http://127\.0\.0\.1:(\d+))/\?token=")
NINJAS = ("Kage", "Tsuki", "Kaze")
PLAYERS = ("Kage", "Tsuki", "Kaze", "Jubei", "Goro", "Kuro", "Shiro", "Tetsu")
GOAL_P99_MS = 100.0
GOAL_MEMORY_MIB = 1024.0


# ------------------------------------------------------------------------------ the servers


@dataclass
class Server:
    process: subprocess.Popen[str]
    base: str

    def pids(self) -> list[int]:
        """The server's process and its children (the workers, with ``--workers``)."""
        found = [self.process.pid]
        try:
            children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children")
            found += [int(p) for p in children.read_text().split()]
        except OSError:
            pass
        return found

    def cpu_s(self) -> float:
        ticks = os.sysconf("SC_CLK_TCK")
        total = 0.0
        for pid in self.pids():
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            total += (int(fields[11]) + int(fields[12])) / ticks  # utime, stime
        return total

    def peak_mib(self) -> float:
        total = 0.0
        for pid in self.pids():
            try:
                status = Path(f"/proc/{pid}/status").read_text()
            except OSError:
                continue
            found = re.search(r"^VmHWM:\s+(\d+) kB", status, re.M)
            if found:
                total += int(found.group(1)) / 1024
        return total

    def stop(self) -> None:
        self.process.send_signal(signal.SIGINT)
        try:
            self.process.wait(20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def _echo(lines: Any) -> None:
    for line in lines:
        print(line, end="", file=sys.stderr)


def start_server(db: str, *extra: str) -> Server:
    command = [
        sys.executable, "-m", "vigile", "serve", "--port", "0", "--db", db, "--token", TOKEN,
        *extra,
    ]  # fmt: skip
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert process.stdout is not None
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            raise SystemExit(f"vigile serve stopped on {db}")
        found = GM_LINE.match(line)
        if found:
            threading.Thread(target=_echo, args=(process.stdout,), daemon=True).start()
            return Server(process, found.group(1))
    raise SystemExit("vigile serve did not print its URL")


def scenario_text(turns: int) -> str:
    from vigile.scene.loader import bundled_path

    text = bundled_path("night-raid").read_text("utf-8")
    return re.sub(r"(?m)^turns: \d+", f"turns: {turns}", text)


def actions() -> Iterator[dict[str, Any]]:
    """A GM's actions: each ninja waits where it stands, then the turn ends, again and again."""
    while True:
        yield from ({"do": "wait", "actor": name} for name in NINJAS)
        yield {"do": "end-turn"}


def pg_database(admin_url: str) -> str:
    """A fresh schema in the PostgreSQL database of ``admin_url``, as a URL."""
    from sqlalchemy import create_engine, make_url, text

    name = f"bench_{uuid.uuid4().hex[:12]}"
    engine = create_engine(admin_url)
    with engine.begin() as connection:
        connection.execute(text(f"CREATE SCHEMA {name}"))
    engine.dispose()
    url = make_url(admin_url).update_query_dict({"options": f"-csearch_path={name}"})
    return url.render_as_string(hide_password=False)


# ------------------------------------------------------------------------------ the viewers


@dataclass
class Viewer:
    """One SSE stream: its first view's number, then each frame's number, event count and
    arrival time."""

    table: int
    role: str
    character: str | None
    token: str
    base: str
    path: str
    first: int | None = None
    frames: list[tuple[int, int, float]] = field(default_factory=list)
    error: str | None = None
    ready: asyncio.Event = field(default_factory=asyncio.Event)

    async def run(self, stop: asyncio.Event) -> None:
        parts = urlsplit(self.base)
        try:
            reader, writer = await asyncio.open_connection(parts.hostname, parts.port)
        except OSError as error:
            self.error = repr(error)
            self.ready.set()
            return
        try:
            writer.write(
                (
                    f"GET {self.path} HTTP/1.1\r\nHost: {parts.netloc}\r\n"
                    f"Authorization: Bearer {self.token}\r\nAccept: text/event-stream\r\n\r\n"
                ).encode("ascii")
            )
            status = await reader.readline()
            if b" 200 " not in status:
                self.error = status.decode("latin-1").strip()
                return
            while (await reader.readline()) not in (b"\r\n", b""):
                pass
            buffer = b""
            while not stop.is_set():
                size_line = await reader.readline()
                if not size_line:
                    break
                size = int(size_line.strip() or b"0", 16)
                if size == 0:
                    break
                chunk = await reader.readexactly(size + 2)
                arrived = time.perf_counter()
                buffer += chunk[:-2]
                while b"\n\n" in buffer:
                    message, buffer = buffer.split(b"\n\n", 1)
                    self._message(message.decode("utf-8"), arrived)
        except (OSError, asyncio.IncompleteReadError, ValueError) as error:
            if not stop.is_set():
                self.error = repr(error)
        finally:
            self.ready.set()
            writer.close()

    def _message(self, text: str, arrived: float) -> None:
        kind, seq, data = None, None, ""
        for line in text.split("\n"):
            if line.startswith("event:"):
                kind = line[6:].strip()
            elif line.startswith("id:"):
                seq = int(line[3:].strip())
            elif line.startswith("data:"):
                data += line[5:].strip()
        if kind == "view" and seq is not None:
            if self.first is None:
                self.first = seq
                self.ready.set()
            else:  # a whole view again (an undo): this benchmark plays none
                self.error = "an unexpected whole view"
        elif kind == "events" and seq is not None:
            self.frames.append((seq, len(json.loads(data)["events"]), arrived))


# ------------------------------------------------------------------------------ one setting


@dataclass
class Table:
    index: int
    encounter: str
    tokens: dict[str, Any]
    gm_base: str
    sent: dict[int, float] = field(default_factory=dict)
    round_trips: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


async def play(table: Table, client: httpx.AsyncClient, options: argparse.Namespace,
               until: float) -> None:  # fmt: skip
    rng = random.Random(table.index)
    await asyncio.sleep(rng.uniform(0, options.interval))
    for action in actions():
        started = time.perf_counter()
        if started >= until:
            return
        try:
            answer = await client.post(
                f"{table.gm_base}/api/v1/encounters/{table.encounter}/actions",
                json={"action": action, "view": False},
            )
            answer.raise_for_status()
        except httpx.HTTPStatusError as error:
            table.errors.append(f"{error.response.status_code} {error.response.text[:300]}")
            return
        except httpx.HTTPError as error:
            table.errors.append(repr(error))
            return
        done = time.perf_counter()
        table.round_trips.append(done - started)
        table.sent[int(answer.json()["seq"])] = started
        await asyncio.sleep(max(0.0, options.interval - (done - started)))


async def drive(tables: list[Table], viewers: list[Viewer], options: argparse.Namespace) -> float:
    stop = asyncio.Event()
    readers = [asyncio.create_task(v.run(stop)) for v in viewers]
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(asyncio.gather(*(v.ready.wait() for v in viewers)), 120)
    refused = [v.error for v in viewers if v.error]
    if refused:
        print(f"  {len(refused)} streams failed to open, e.g. {refused[0]}", file=sys.stderr)
    limits = httpx.Limits(max_connections=len(tables), max_keepalive_connections=len(tables))
    headers = {"Authorization": f"Bearer {TOKEN}"}
    async with httpx.AsyncClient(headers=headers, limits=limits, timeout=60) as client:
        for table in tables:  # warm-up, not measured: each encounter's first action
            warm = await client.post(
                f"{table.gm_base}/api/v1/encounters/{table.encounter}/actions",
                json={"action": {"do": "wait", "actor": NINJAS[0]}, "view": False},
            )
            warm.raise_for_status()
        await asyncio.sleep(1.0)
        started = time.perf_counter()
        until = started + options.seconds
        await asyncio.gather(*(play(t, client, options, until) for t in tables))
    elapsed = time.perf_counter() - started
    await asyncio.sleep(2.0)  # the last frames
    stop.set()
    for task in readers:
        task.cancel()
    await asyncio.gather(*readers, return_exceptions=True)
    return elapsed


def told_records(store: Any, encounter_id: str) -> dict[tuple[str, str | None], list[int]]:
    """For each viewer of the encounter, the record of each event it is told, in order (a
    replay here, by the rule the server applies); for the GM, the records with events."""
    from vigile.live import Encounter
    from vigile.live.views import viewer_sees

    replayed = Encounter(store, encounter_id).state()
    game = replayed.game
    found: dict[tuple[str, str | None], list[int]] = {}
    viewers: list[tuple[str, str | None]] = [("gm", None), ("table", None)]
    viewers += [("player", name) for name in PLAYERS]
    for role, character in viewers:
        records = []
        for seq, (start, end) in replayed.spans.items():
            if role == "gm":
                if end > start:
                    records.append(seq)
                continue
            records += [
                seq for i in range(start, end)
                if viewer_sees(game, role, character, game.events[i])  # type: ignore[arg-type]
            ]  # fmt: skip
        found[(role, character)] = records
    return found


def run_setting(label: str, db: str, processes: int, options: argparse.Namespace) -> dict[str, Any]:
    servers = [start_server(db) for _ in range(processes)]
    try:
        per_table = int(options.seconds / options.interval) + 2
        text = scenario_text(per_table // 4 + 5)
        tables: list[Table] = []
        with httpx.Client(headers={"Authorization": f"Bearer {TOKEN}"}, timeout=60) as gm:
            for index in range(options.tables):
                base = servers[index % processes].base
                made = gm.post(
                    f"{base}/api/v1/encounters",
                    json={"text": text, "format": "yaml", "filename": f"raid{index}.yaml"},
                )
                made.raise_for_status()
                body = made.json()
                tables.append(Table(index, body["encounter"]["id"], body["tokens"], base))
        viewers = []
        for table in tables:
            path = f"/api/v1/encounters/{table.encounter}/stream"
            who: list[tuple[str, str | None, str]] = [
                ("gm", None, table.tokens["gm"]),
                ("table", None, table.tokens["table"]),
                *(("player", n, table.tokens["players"][n]) for n in PLAYERS),
            ]
            for j, (role, character, token) in enumerate(who):
                base = servers[(table.index + j) % processes].base
                viewers.append(Viewer(table.index, role, character, token, base, path))
        cpu_before = sum(s.cpu_s() for s in servers)
        elapsed = asyncio.run(drive(tables, viewers, options))
        cpu = sum(s.cpu_s() for s in servers) - cpu_before
        memory = sum(s.peak_mib() for s in servers)
    finally:
        for server in servers:
            server.stop()
    from vigile.store import Store

    latencies: list[float] = []
    crossing: list[float] = []
    slowest: list[tuple[float, int, str, int]] = []
    lost = 0
    with Store(db) as store:
        told = {t.index: told_records(store, t.encounter) for t in tables}
    for viewer in viewers:
        table = tables[viewer.table]
        records = told[viewer.table][(viewer.role, viewer.character)]
        if viewer.first is None:
            lost += len(records)
            continue
        crosses = viewer.base != table.gm_base
        if viewer.role == "gm":
            arrived = {seq: at for seq, _count, at in viewer.frames}
            for seq in records:
                if seq <= viewer.first:
                    continue
                if seq not in arrived:
                    lost += 1
                elif seq in table.sent:
                    latencies.append(arrived[seq] - table.sent[seq])
                    slowest.append((latencies[-1], table.index, "gm", seq))
                    if crosses:
                        crossing.append(arrived[seq] - table.sent[seq])
            continue
        at = viewer.first
        for seq, count, when in viewer.frames:
            if seq - count != at:  # a gap (or an overlap) in the viewer's own sequence
                lost += abs(seq - count - at)
            for record in set(records[seq - count : seq]):
                if record in table.sent:
                    latencies.append(when - table.sent[record])
                    slowest.append(
                        (latencies[-1], table.index, viewer.character or "table", record)
                    )
                    if crosses:
                        crossing.append(when - table.sent[record])
            at = seq
        lost += max(0, len(records) - at)
    latencies.sort()
    crossing.sort()
    for error in [e for t in tables for e in t.errors][:3]:
        print(f"  a GM's error: {error}", file=sys.stderr)
    for late, index, name, record in sorted(slowest, reverse=True)[: options.worst]:
        print(f"  slow: {1000 * late:.1f} ms table {index} {name} record {record}", file=sys.stderr)
    round_trips = sorted(r for t in tables for r in t.round_trips)
    played = sum(len(t.sent) for t in tables)

    def pct(values: list[float], q: float) -> float | None:
        return 1000 * values[int(q * (len(values) - 1))] if values else None

    return {
        "setting": label,
        "tables": len(tables),
        "streams": len(viewers),
        "actions": played,
        "actions_per_s": played / elapsed,
        "frames": len(latencies),
        "p50_ms": 1000 * statistics.median(latencies) if latencies else None,
        "p99_ms": pct(latencies, 0.99),
        "max_ms": 1000 * latencies[-1] if latencies else None,
        "cross_p99_ms": pct(crossing, 0.99) if processes > 1 else None,
        "gm_p50_ms": 1000 * statistics.median(round_trips) if round_trips else None,
        "gm_p99_ms": pct(round_trips, 0.99),
        "events_lost": lost,
        "stream_errors": sum(1 for v in viewers if v.error),
        "gm_errors": sum(len(t.errors) for t in tables),
        "server_mib": memory,
        "cpu_ms_per_action": 1000 * cpu / played if played else None,
    }


def uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True, check=False).stdout.strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument(
        "--interval", type=float, default=1.0, help="seconds between a GM's actions"
    )
    parser.add_argument("--worst", type=int, default=0, help="print the N slowest frames")
    parser.add_argument("--pg", default=os.environ.get("VIGILE_TEST_PG_URL"))
    parser.add_argument("--settings", default="sqlite,pg,pg2",
                        help="sqlite, pg (one process), pg2 (two processes)")  # fmt: skip
    options = parser.parse_args()
    print(f"load before: {uptime()}")
    rows = []
    for setting in options.settings.split(","):
        if setting == "sqlite":
            with tempfile.TemporaryDirectory() as folder:
                db = f"sqlite:///{Path(folder) / 'tables.db'}"
                rows.append(run_setting("SQLite", db, 1, options))
        elif setting in ("pg", "pg2"):
            if not options.pg:
                print(f"{setting}: no PostgreSQL (--pg URL or $VIGILE_TEST_PG_URL)")
                continue
            processes = 2 if setting == "pg2" else 1
            label = "PostgreSQL x2" if processes == 2 else "PostgreSQL"
            rows.append(run_setting(label, pg_database(options.pg), processes, options))
        else:
            raise SystemExit(f"unknown setting {setting!r}")
        print(json.dumps(rows[-1]), file=sys.stderr, flush=True)
    print(f"load after: {uptime()}")
    print(
        f"goals: p99 action -> every viewer's frame under {GOAL_P99_MS:g} ms, 0 events lost, "
        f"server memory under {GOAL_MEMORY_MIB:g} MiB ({options.tables} tables, an action "
        f"every {options.interval:g} s each, {options.seconds:g} s)"
    )
    if not rows:
        return
    keys = list(rows[0])
    print(" | ".join(f"{k:>13}" for k in keys))
    for row in rows:
        print(
            " | ".join(
                f"{v:>13.1f}" if isinstance(v, float) else f"{v!s:>13}" for v in row.values()
            )
        )
    for row in rows:
        met = (
            row["p99_ms"] is not None
            and row["p99_ms"] < GOAL_P99_MS
            and row["events_lost"] == 0
            and row["server_mib"] < GOAL_MEMORY_MIB
        )
        print(f"{row['setting']}: goals {'met' if met else 'NOT met'}")


if __name__ == "__main__":
    main()
