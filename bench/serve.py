"""Live play over HTTP under load: one GM, 8 players and 50 watchers on SSE, 1,000 actions.

Starts a real ``vigile serve`` on a loopback port for each database (SQLite always;
PostgreSQL when ``--pg URL`` or ``$VIGILE_TEST_PG_URL`` is given), creates a night raid with
room for the actions (its turn limit raised), opens the streams — the 3 ninjas' and 5 guards'
(the players), and 50 more on the table's and the GM's views (the watchers) — then the GM posts
the actions one after the other: each ninja waits or hides, then the turn ends (patrols, sight,
alarms). The databases take turns, round after round (SQLite, PostgreSQL, SQLite, ...: a fresh
database each round, ``--rounds``, 3 by default), so the machine's load falls on both alike. It
reports each round's row, then for each database the median (min-max) of its rounds, beside the
goal (issue 38: p99 from an action to a viewer's frame under 100 ms, no event lost), and the
machine's load (``os.getloadavg``) at the start and the end:

* the latency from sending an action to its frame arriving on each of the GM's streams (p50,
  p99, max), over every (action, stream) pair (a character's or the table's frames are
  numbered in the viewer's own sequence, LP-5: they do not say which action they report);
  and the GM's own round trip;
* events lost: for each stream, the events of its final view (fetched at the end) that never
  arrived over the stream (must be 0);
* the actions per second the GM got through.

Then undo and restart against the length of the log (issue 34): for logs of 10, 1,000 and
10,000 records (the night raid: each turn every ninja waits or hides, the GM holds a guard, the
turn ends), the time of the first view after a restart (the encounter opened afresh, its state
rebuilt, the GM's view built: what ``GET /view`` does on a server that just started; the GM's
log is one page of it, the older events read only when a page asks for them) and of an
undo (the median of three in a row), before (every replay from the start: no checkpoint read or
written) and after (checkpoints every ``EVERY`` records, as a running server leaves them),
side by side, in the same interleaved rounds (each figure the median of its database's rounds).
The first replay of a log that has no checkpoint yet (one written before them)
is timed too: it leaves them behind; and a character's first view after a restart
(``player_view_s``), which reads every event the character may have been told.

    python bench/serve.py [--actions 1000] [--players 8] [--watchers 50] [--pg URL]
                          [--rounds 3] [--sizes 10,1000,10000] [--no-load] [--no-undo]
                          [--quick]

``--quick``: a smoke run (40 actions, 2 players, 4 watchers, 2 rounds, logs of 10 and 100).
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

from vigile.web.sse import MAX_STREAMS_PER_TOKEN

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
    token: str = ""
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
                Stream(who, f"{stream_url}?token={t}", t)
                for who in chosen
                for t in [tokens["players"][who]]
            ]
            # The watchers on the GM's and the table's tokens, then the characters', at most
            # MAX_STREAMS_PER_TOKEN streams a token (the server refuses one more).
            pool = [tokens["gm"], tokens["table"], *tokens["players"].values()]
            used = {t: sum(s.token == t for s in streams) for t in pool}
            for i in range(watchers):
                free = [t for t in pool if used[t] < MAX_STREAMS_PER_TOKEN]
                if not free:
                    raise SystemExit(f"{watchers} watchers: more streams than the tokens allow")
                token = free[i % 2] if len(free) > 1 and i % 2 else free[0]
                used[token] += 1
                streams.append(Stream(f"watcher{i}", f"{stream_url}?token={token}", token))
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
                if stream.token == tokens["gm"]:  # the others' ids count their own events
                    latencies += [t - sent[s] for s, t in stream.arrived.items() if s in sent]
                final = gm.get(
                    f"/api/v1/encounters/{encounter}/view",
                    headers={"Authorization": f"Bearer {stream.token}"},
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


# ---------------------------------------------------------------- undo and restart by log length


TURN_RECORDS = 12
"""Records of one turn of :func:`log_actions`."""
PHASE_OF = 10_000
"""Every log ends where a log of this many records ends in its turn."""


def log_actions(count: int) -> list[dict[str, Any]]:
    """The records of the undo/restart benchmark: each turn every ninja waits (Kaze hides when
    he can: he cannot, in the open, and waits), the GM holds a guard, the turn ends.

    Every log ends at the same point of a turn as the longest (the last ``count`` records of
    a log of ``PHASE_OF`` records, modulo a turn), so that an undo replays the same kind of
    actions whatever the log's length: the log of 10 records holds an end of turn (its sight
    tests) as the undo at 10,000 replays one. Taking the first 10 records instead left the
    small log with waits only, a lighter replay, which flattered nothing but hid what grows."""
    skip = (PHASE_OF - count) % TURN_RECORDS
    found: list[dict[str, Any]] = []
    while len(found) < count + skip:
        for name in NINJAS:
            found += [{"do": "wait", "actor": name}, {"do": "wait", "actor": name}]
        found.append({"do": "hold", "actor": "Jubei"})
        found += [{"do": "wait", "actor": "Kage"}] * 4
        found.append({"do": "end-turn"})
    return found[skip : skip + count]


def make_log(count: int) -> tuple[str, list[tuple[str, dict[str, Any]]]]:
    """A night raid's log of ``count`` records, played once (in a scratch SQLite file, in
    memory's file system where there is one): its scenario text and its records."""
    from vigile.live import Encounter
    from vigile.store import Store

    text = scenario_text(count // 12 + 5)
    scratch = "/dev/shm" if Path("/dev/shm").is_dir() else None
    with (
        tempfile.TemporaryDirectory(dir=scratch) as folder,
        Store(f"sqlite:///{Path(folder) / 'log.db'}") as store,
    ):
        made, _ = Encounter.create(store, text=text, fmt="yaml", source="raid.yaml", seed=7)
        encounter = Encounter(store, made.id, checkpoints=False)
        for action in log_actions(count):
            encounter.act(action)
        records = [(r.kind, r.payload) for r in store.records(made.id)]
    return text, records


def copy_log(store: Any, text: str, records: list[tuple[str, dict[str, Any]]]) -> str:
    """A new encounter in ``store`` with the log ``records``, no checkpoint (as if written
    before checkpoints)."""
    row = store.create_encounter(
        name="bench", ruleset="skirmish", source="raid.yaml", scenario=text,
        scenario_format="yaml", seed=7, dice="rolled",
    )  # fmt: skip
    for start in range(0, len(records), 500):
        store.append_many(row.id, records[start : start + 500])
    return str(row.id)


def timed(call: Any) -> float:
    started = time.perf_counter()
    call()
    return time.perf_counter() - started


def undo_restart(dbs: list[tuple[str, str]], sizes: list[int], rounds: int) -> list[dict[str, Any]]:
    """Per log length: the first view after a restart and an undo, without checkpoints and
    with them; ``rounds`` rounds, the databases in turn within each (SQLite, PostgreSQL,
    SQLite, ...), each figure the median of its database's rounds."""
    from contextlib import ExitStack

    from vigile.store import Store

    rows = []
    with ExitStack() as stack:
        stores = [(stack.enter_context(Store(db)), label) for db, label in dbs]
        for size in sizes:
            text, records = make_log(size)
            found: dict[str, list[dict[str, float]]] = {label: [] for _, label in stores}
            for _ in range(rounds):
                for store, label in stores:
                    found[label].append(undo_round(store, text, records))
            for label, measured in found.items():
                shown: dict[str, Any] = {"db": label, "records": size}
                for key in measured[0]:
                    shown[key] = statistics.median(m[key] for m in measured)
                rows.append(shown)
                print(json.dumps(shown), file=sys.stderr, flush=True)
    return rows


def undo_round(
    store: Any, text: str, records: list[tuple[str, dict[str, Any]]]
) -> dict[str, float]:
    """One round of :func:`undo_restart` on one database: fresh copies of the log."""
    from vigile.io.i18n import Lang
    from vigile.live import Encounter, view

    row: dict[str, float] = {}
    for mode in ("before", "after"):
        every = mode == "after"
        encounter_id = copy_log(store, text, records)
        if every:  # the checkpoints a running server leaves: its first replay's
            row["first_replay_s"] = timed(lambda i=encounter_id: Encounter(store, i).state())
        restart: list[float] = []
        for _ in range(3):
            started = time.perf_counter()
            opened = Encounter(store, encounter_id, checkpoints=every)
            opened.state()
            state = time.perf_counter() - started
            view(opened, "gm", None, Lang.EN)
            restart.append(time.perf_counter() - started)
        row[f"state_{mode}_s"] = state
        row[f"view_{mode}_s"] = statistics.median(restart)
        undos = [timed(opened.undo) for _ in range(3)]
        row[f"undo_{mode}_s"] = statistics.median(undos)
        if every:  # a character who joins after a restart: its view reads every event
            joined = Encounter(store, encounter_id)
            row["player_view_s"] = timed(lambda j=joined: view(j, "player", "Kage", Lang.EN))
    return {
        key: row[key]
        for key in (
            *(
                f"{what}_{mode}_s"
                for what in ("view", "undo", "state")
                for mode in ("before", "after")
            ),
            "first_replay_s",
            "player_view_s",
        )
    }


def print_rows(rows: list[dict[str, Any]]) -> None:
    keys = list(rows[0])
    print(" | ".join(f"{k:>14}" for k in keys))
    for row in rows:
        print(
            " | ".join(
                f"{v:>14.4f}" if isinstance(v, float) else f"{v!s:>14}" for v in row.values()
            )
        )


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
    parser.add_argument("--rounds", type=int, default=3, help="rounds per database, in turn")
    parser.add_argument("--pg", default=os.environ.get("VIGILE_TEST_PG_URL"))
    parser.add_argument("--sizes", default="10,1000,10000", help="log lengths for undo/restart")
    parser.add_argument("--no-load", action="store_true", help="skip the streams under load")
    parser.add_argument("--no-undo", action="store_true", help="skip undo and restart")
    parser.add_argument(
        "--quick", action="store_true", help="a smoke run: 40 actions, 2 players, 4 watchers"
    )
    options = parser.parse_args()
    if options.quick:
        options.actions, options.players, options.watchers = 40, 2, 4
        options.rounds, options.sizes = 2, "10,100"
    figures = os.getloadavg()
    print(
        f"load {figures[0]:.1f} {figures[1]:.1f} {figures[2]:.1f} (1, 5, 15 min); "
        f"{options.rounds} rounds per database, in turn"
    )
    if not options.no_load:
        load(options)
    if not options.no_undo:
        sizes = [int(size) for size in options.sizes.split(",")]
        with tempfile.TemporaryDirectory() as folder:
            dbs = [(f"sqlite:///{Path(folder) / 'undo.db'}", "SQLite")]
            if options.pg:
                dbs.append((pg_database(options.pg), "PostgreSQL"))
            found = undo_restart(dbs, sizes, options.rounds)
        print(
            f"\nundo and the first view after a restart, by records in the log (seconds, the "
            f"median of {options.rounds} rounds):"
        )
        print_rows(found)
    print(f"load_1min={os.getloadavg()[0]:.1f} at the end")


GOAL_P99_MS = 100.0
"""Issue 38's goal for a table's frames: p99 from an action to every viewer's frame."""


def load(options: argparse.Namespace) -> None:
    """The streams under load: ``rounds`` rounds, SQLite then PostgreSQL in each (a fresh
    database each round), so the machine's load falls on both alike; each round's row, then
    the median, min and max of each database's rounds."""
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as folder:
        for turn in range(options.rounds):
            dbs = [(f"sqlite:///{Path(folder) / f'bench{turn}.db'}", "SQLite")]
            if options.pg:
                dbs.append((pg_database(options.pg), "PostgreSQL"))
            for db, label in dbs:
                row = run(
                    db,
                    label,
                    count=options.actions,
                    players=options.players,
                    watchers=options.watchers,
                )
                rows.append({"round": turn + 1, **row})
    keys = list(rows[0])
    print(" | ".join(f"{k:>13}" for k in keys))
    for row in rows:
        print(
            " | ".join(
                f"{v:>13.1f}" if isinstance(v, float) else f"{v!s:>13}" for v in row.values()
            )
        )
    print(
        f"by database, median (min-max) of {options.rounds} rounds; goal: p99 < "
        f"{GOAL_P99_MS:g} ms, 0 events lost"
    )
    for label in dict.fromkeys(row["db"] for row in rows):
        mine = [row for row in rows if row["db"] == label]
        parts = []
        for key in ("p50_ms", "p99_ms", "gm_p99_ms", "actions_per_s"):
            values = [row[key] for row in mine if row[key] is not None]
            if values:
                parts.append(
                    f"{key}={statistics.median(values):.1f} ({min(values):.1f}-{max(values):.1f})"
                )
        lost = sum(row["events_lost"] for row in mine)
        errors = sum(row["stream_errors"] for row in mine)
        p99 = [row["p99_ms"] for row in mine if row["p99_ms"] is not None]
        verdict = "meets" if p99 and max(p99) < GOAL_P99_MS and lost == 0 else "MISSES"
        print(
            f"  {label:<10} {' '.join(parts)} events_lost={lost} stream_errors={errors} "
            f"-> {verdict} the goal"
        )


if __name__ == "__main__":
    main()
