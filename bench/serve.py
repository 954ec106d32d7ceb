"""Live play over HTTP under load: one GM, 8 players and 50 watchers on SSE, 1,000 actions.

Starts a real ``vigile serve`` on a loopback port for each database (SQLite always;
PostgreSQL when ``--pg URL`` or ``$VIGILE_TEST_PG_URL`` is given), creates a night raid with
room for the actions (its turn limit raised), opens the streams — the 3 ninjas' and 5 guards'
(the players), and 50 more on the table's and the GM's views (the watchers) — then the GM posts
the actions one after the other: each ninja waits or hides, then the turn ends (patrols, sight,
alarms). It reports, side by side for each database:

* the latency from sending an action to its frame arriving on each stream that is told of it
  (p50, p99, max), over every (action, stream) pair; and the GM's own round trip;
* events lost: for each stream, the events of its final view (fetched at the end) that never
  arrived over the stream (must be 0);
* the actions per second the GM got through.

    python bench/serve.py [--actions 1000] [--players 8] [--watchers 50] [--pg URL]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

TOKEN = "bench-server-token-0123456789"
GM_LINE = re.compile(r"^GM: (http://127\.0\.0\.1:(\d+))/\?token=")
NINJAS = ("Kage", "Tsuki", "Kaze")
GUARDS = ("Jubei", "Goro", "Kuro", "Shiro", "Tetsu", "Hanbei", "Daisuke", "Ippei", "Masa")


def start_server(db: str) -> tuple[subprocess.Popen[str], str]:
    command = [sys.executable, "-m", "vigile", "serve", "--port", "0", "--db", db, "--token", TOKEN]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert process.stdout is not None
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            raise SystemExit(f"vigile serve stopped on {db}")
        found = GM_LINE.match(line)
        if found:
            threading.Thread(target=lambda: [None for _ in process.stdout], daemon=True).start()  # type: ignore[union-attr]
            return process, found.group(1)
    raise SystemExit("vigile serve did not print its URL")


@dataclass
class Stream:
    """One SSE stream: when each record's frame arrived, and how many events it carried."""

    name: str
    url: str
    arrived: dict[int, float] = field(default_factory=dict)
    events: int = 0
    ready: threading.Event = field(default_factory=threading.Event)
    stop: threading.Event = field(default_factory=threading.Event)
    error: str | None = None

    def run(self) -> None:
        try:
            with (
                httpx.Client(timeout=httpx.Timeout(None, connect=10)) as client,
                client.stream("GET", self.url) as response,
            ):
                response.raise_for_status()
                kind, seq, data = "", None, ""
                for line in response.iter_lines():
                    if self.stop.is_set():
                        return
                    if line.startswith("event:"):
                        kind = line[6:].strip()
                    elif line.startswith("id:"):
                        seq = int(line[3:].strip())
                    elif line.startswith("data:"):
                        data += line[5:].strip()
                    elif line == "":
                        if kind == "view":
                            self.events = len(json.loads(data)["events"])
                            self.ready.set()
                        elif kind == "events" and seq is not None:
                            self.arrived.setdefault(seq, time.perf_counter())
                            self.events += len(json.loads(data)["events"])
                        kind, seq, data = "", None, ""
        except Exception as error:
            if not self.stop.is_set():
                self.error = repr(error)
            self.ready.set()


def scenario_text(turns: int) -> str:
    from vigile.scene.loader import bundled_path

    text = bundled_path("night-raid").read_text("utf-8")
    return re.sub(r"(?m)^turns: \d+", f"turns: {turns}", text)


def actions(count: int) -> list[dict[str, Any]]:
    """The GM's actions: each ninja waits or hides where it stands, then the turn ends."""
    found: list[dict[str, Any]] = []
    while len(found) < count:
        for name in NINJAS:
            found.append({"do": "wait", "actor": name})
        found.append({"do": "end-turn"})
    return found[:count]


def run(db: str, label: str, *, count: int, players: int, watchers: int) -> dict[str, Any]:
    process, base = start_server(db)
    try:
        auth = {"Authorization": f"Bearer {TOKEN}"}
        with httpx.Client(base_url=base, headers=auth, timeout=60) as gm:
            turns = count // 4 + 5
            made = gm.post(
                "/api/v1/encounters",
                json={"text": scenario_text(turns), "format": "yaml", "filename": "raid.yaml"},
            )
            made.raise_for_status()
            body = made.json()
            encounter = body["encounter"]["id"]
            tokens = body["tokens"]
            stream_url = f"{base}/api/v1/encounters/{encounter}/stream"
            chosen = [*NINJAS, *GUARDS][:players]
            streams = [
                Stream(who, f"{stream_url}?token={tokens['players'][who]}") for who in chosen
            ]
            for i in range(watchers):
                token = tokens["table"] if i % 2 else tokens["gm"]
                streams.append(Stream(f"watcher{i}", f"{stream_url}?token={token}"))
            threads = [threading.Thread(target=s.run, daemon=True) for s in streams]
            for thread in threads:
                thread.start()
            for stream in streams:
                stream.ready.wait(30)
            sent: dict[int, float] = {}
            round_trips: list[float] = []
            started = time.perf_counter()
            for action in actions(count):
                before = time.perf_counter()
                answer = gm.post(
                    f"/api/v1/encounters/{encounter}/actions",
                    json={"action": action, "view": False},
                )
                answer.raise_for_status()
                round_trips.append(time.perf_counter() - before)
                sent[answer.json()["seq"]] = before
            elapsed = time.perf_counter() - started
            time.sleep(2.0)  # the last frames
            for stream in streams:
                stream.stop.set()
            latencies: list[float] = []
            lost = 0
            for stream in streams:
                latencies += [t - sent[seq] for seq, t in stream.arrived.items() if seq in sent]
                if stream.name.startswith("watcher"):
                    token = tokens["table"] if int(stream.name[7:]) % 2 else tokens["gm"]
                else:
                    token = tokens["players"][stream.name]
                final = gm.get(
                    f"/api/v1/encounters/{encounter}/view",
                    headers={"Authorization": f"Bearer {token}"},
                ).json()
                lost += max(0, len(final["events"]) - stream.events)
            errors = [s.error for s in streams if s.error]
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
    latencies.sort()
    return {
        "db": label,
        "actions": count,
        "streams": len(streams),
        "frames": len(latencies),
        "p50_ms": 1000 * statistics.median(latencies) if latencies else None,
        "p99_ms": 1000 * latencies[int(0.99 * (len(latencies) - 1))] if latencies else None,
        "max_ms": 1000 * latencies[-1] if latencies else None,
        "gm_p50_ms": 1000 * statistics.median(round_trips),
        "gm_p99_ms": 1000 * sorted(round_trips)[int(0.99 * (len(round_trips) - 1))],
        "actions_per_s": count / elapsed,
        "events_lost": lost,
        "stream_errors": len(errors),
    }


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=1000)
    parser.add_argument("--players", type=int, default=8)
    parser.add_argument("--watchers", type=int, default=50)
    parser.add_argument("--pg", default=os.environ.get("VIGILE_TEST_PG_URL"))
    options = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        sqlite = f"sqlite:///{Path(folder) / 'bench.db'}"
        rows.append(
            run(
                sqlite,
                "SQLite",
                count=options.actions,
                players=options.players,
                watchers=options.watchers,
            )
        )
    if options.pg:
        rows.append(
            run(
                pg_database(options.pg),
                "PostgreSQL",
                count=options.actions,
                players=options.players,
                watchers=options.watchers,
            )
        )
    keys = list(rows[0])
    print(" | ".join(f"{k:>13}" for k in keys))
    for row in rows:
        print(
            " | ".join(
                f"{v:>13.1f}" if isinstance(v, float) else f"{v!s:>13}" for v in row.values()
            )
        )


if __name__ == "__main__":
    main()
