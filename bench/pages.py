"""The pages under load, in a real browser (issue 12): how fast the GM's table loads, and how fast
an action's result reaches every open player page.

Starts a real ``vigile serve`` on a loopback port, creates a night raid, and drives Debian's
Chromium with Playwright (``/usr/bin/chromium``; ``bash scripts/ci_chromium.sh`` installs it):

* the GM's page loaded N times (navigation to the ``load`` event, with the map and the log
  rendered): p50 and p99 as the browser times it (its Navigation Timing: what the GM waits),
  and as this script times it (the driver's round trips to the browser added);
* 8 player pages open (the 3 ninjas and 5 guards) while the GM posts actions through the API
  (each ninja waits, then the turn ends): for each action, the time from sending it to each
  page's live box changing (a MutationObserver in the page stamps ``Date.now()``; the server,
  the browser and this script share the machine's clock): p50, p99 and max over every
  (action, page) pair that the action reached.

A character's page gets its news in the stream's frame (``event: news``); where it asks for its
panel instead (its mark was not the frame's), the page's Resource Timing of that request breaks
the update down: when the stream's frame reached the page (its request sent), when the server's
answer came back. The goals (issue 36) are printed beside the figures. The machine's load
average is printed before and after: on a shared
machine the figures move with it.

``--server`` measures instead, in this process and on this thread's CPU clock (so that other
processes' load weighs less), what the server does for an end of turn reaching 8 player pages,
side by side in one run: each page's whole panel with the board drawn again (as before issue
36), the whole panel with the board kept (:func:`vigile.web.mapsvg.board_layers`), and the
news a page asks for (:func:`vigile.live.views.character_news`, ``_play_news.html``).

    python bench/pages.py [--loads 20] [--actions 100] [--players 8]
    python bench/pages.py --server [--actions 100] [--rounds 30]
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

TOKEN = "bench-pages-token-0123456789"
GM_LINE = re.compile(r"^GM: (http://127\.0\.0\.1:(\d+))/\?token=")
CHROMIUM = "/usr/bin/chromium"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PLAYERS = ("Kage", "Tsuki", "Kaze", "Jubei", "Goro", "Kuro", "Shiro", "Tetsu")
STAMP = """() => {
  window.__stamps = [];
  const box = document.querySelector('#live') || document.body;
  new MutationObserver(() => window.__stamps.push(Date.now())).observe(
    box, {childList: true, subtree: true, characterData: true});
}"""


def start(db: str) -> tuple[subprocess.Popen[str], str]:
    command = [sys.executable, "-m", "vigile", "serve", "--port", "0", "--db", db, "--token", TOKEN]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert process.stdout is not None
    for line in process.stdout:
        found = GM_LINE.match(line)
        if found:
            threading.Thread(target=drain, args=(process,), daemon=True).start()
            return process, found.group(1)
    raise SystemExit("vigile serve did not print its URL")


def drain(process: subprocess.Popen[str]) -> None:
    """Read the server's output to its end, so that it never blocks on a full pipe."""
    assert process.stdout is not None
    for _ in process.stdout:
        pass


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[int(q * (len(ordered) - 1))]


FRAMES = """(() => {
  window.__frames = [];
  const Native = window.EventSource;
  window.EventSource = function (url, options) {
    const source = new Native(url, options);
    for (const kind of ["news", "events", "view"]) {
      source.addEventListener(kind, () => window.__frames.push(Date.now()));
    }
    return source;
  };
  window.EventSource.prototype = Native.prototype;
})()"""
"""Stamps each frame of the page's stream as it reaches the page (before the page's own
listeners: this one is added first)."""
TIMINGS = """() => {
  const found = performance.getEntriesByType('resource').filter(e => e.name.includes('/panel'));
  performance.clearResourceTimings();
  const at = performance.timeOrigin;
  return found.map(e => [at + e.startTime, at + e.responseEnd]);
}"""
"""Each panel request of the page since the last look: (sent, answered), in ms since the epoch."""
LOADED = "() => performance.getEntriesByType('navigation')[0].loadEventEnd"
"""The page's load event, in ms after its navigation started."""


def load() -> str:
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def server_side(actions: int, rounds: int) -> None:
    """The server's work for one action reaching 8 player pages, three ways, interleaved."""
    from vigile.io.i18n import Lang
    from vigile.live import Encounter
    from vigile.scene.loader import bundled_path
    from vigile.store import Store
    from vigile.web import mapsvg, pages, pagetext

    with tempfile.TemporaryDirectory() as folder:
        store = Store(f"sqlite:///{Path(folder) / 'server.db'}")
        encounter, _ = Encounter.create(
            store,
            text=bundled_path("night-raid").read_text("utf-8"),
            fmt="yaml",
            source="night-raid.yaml",
            seed=1603,
        )
        plan = [{"do": "wait", "actor": n} for n in ("Kage", "Tsuki", "Kaze")] + [
            {"do": "end-turn"}
        ]
        for i in range(actions):
            encounter.act(plan[i % len(plan)])
        lang = Lang.EN
        env = pages.templates.env
        panel, news = env.get_template("_play_panel.html"), env.get_template("_play_news.html")
        words = {"lang": lang, "t": pagetext.translator(lang)}
        marks = {who: pages.player_context(encounter, who, lang)["mark"] for who in PLAYERS}
        encounter.act({"do": "end-turn"})  # told to every page: the patrols move (SK-G1)
        drawn = mapsvg.board_layers

        def redrawn(scenario: object, board: object, **kw: object) -> mapsvg.MapModel:
            mapsvg._boards.clear()  # as before: the lit zones cast again at every panel
            return drawn(scenario, board, **kw)  # type: ignore[arg-type]

        def whole(redraw: bool) -> int:
            mapsvg.board_layers = redrawn if redraw else drawn
            try:
                return sum(
                    len(panel.render(words | pages.player_context(encounter, who, lang)))
                    for who in PLAYERS
                )
            finally:
                mapsvg.board_layers = drawn

        def parts() -> int:
            sent = 0
            for who in PLAYERS:
                data = pages.player_context(encounter, who, lang, marks[who])
                assert data["news"]
                sent += len(news.render(words | data))
            return sent

        ways = {"whole panel, board drawn": lambda: whole(True),
                "whole panel, board kept": lambda: whole(False),
                "news only": parts}  # fmt: skip
        spent: dict[str, list[float]] = {name: [] for name in ways}
        sizes: dict[str, int] = {}
        for _ in range(rounds):
            for name, way in ways.items():
                before = time.thread_time()
                sizes[name] = way()
                spent[name].append(1000 * (time.thread_time() - before))
        store.close()
    first = statistics.median(spent["whole panel, board drawn"])
    print(f"server, 8 player pages told of an end of turn ({actions} actions before; CPU ms):")
    for name in ways:
        median = statistics.median(spent[name])
        print(
            f"  {name}: median {median:.1f} ms, p99 {percentile(spent[name], 0.99):.1f} ms,"
            f" {sizes[name] // 1024} KiB sent, x{first / median:.1f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loads", type=int, default=20)
    parser.add_argument("--actions", type=int, default=100)
    parser.add_argument("--players", type=int, default=8)
    parser.add_argument("--server", action="store_true", help="the server's work, in-process")
    parser.add_argument("--rounds", type=int, default=30)
    options = parser.parse_args()
    print(load())
    if options.server:
        server_side(options.actions, options.rounds)
        print(load())
        return
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as folder:
        process, base = start(f"sqlite:///{Path(folder) / 'pages.db'}")
        try:
            auth = {"Authorization": f"Bearer {TOKEN}"}
            with httpx.Client(base_url=base, headers=auth, timeout=60) as api:
                made = api.post("/api/v1/encounters", json={"scenario": "night-raid"}).json()
                encounter = made["encounter"]["id"]
                tokens = made["tokens"]
                with sync_playwright() as playwright:
                    browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
                    gm = browser.new_page()
                    gm_url = f"{base}/encounters/{encounter}?token={tokens['gm']}"
                    loads: list[float] = []
                    driven: list[float] = []
                    for _ in range(options.loads):
                        before = time.perf_counter()
                        gm.goto(gm_url, wait_until="load")
                        gm.wait_for_selector("svg")
                        driven.append(time.perf_counter() - before)
                        loads.append(gm.evaluate(LOADED) / 1000)
                    pages = []
                    for who in PLAYERS[: options.players]:
                        page = browser.new_context(
                            viewport={"width": 375, "height": 667}
                        ).new_page()
                        page.add_init_script(FRAMES)
                        page.goto(f"{base}/play/{encounter}?token={tokens['players'][who]}")
                        page.wait_for_load_state("load")
                        page.evaluate(STAMP)
                        pages.append(page)
                    time.sleep(1.0)  # the streams open
                    delays: list[float] = []
                    arrived: list[float] = []
                    swapped: list[float] = []
                    framed: list[float] = []
                    answered: list[float] = []
                    reached = 0
                    actions = [{"do": "wait", "actor": n} for n in ("Kage", "Tsuki", "Kaze")] + [
                        {"do": "end-turn"}
                    ]
                    for i in range(options.actions):
                        for page in pages:
                            page.evaluate("() => { window.__stamps = []; window.__frames = []; }")
                        sent = time.time() * 1000
                        api.post(
                            f"/api/v1/encounters/{encounter}/actions",
                            json={"action": actions[i % len(actions)]},
                        ).raise_for_status()
                        time.sleep(0.4)  # every page that is told of it has updated by now
                        for page in pages:
                            stamps = page.evaluate("() => window.__stamps")
                            asked = page.evaluate(TIMINGS)
                            frames = page.evaluate("() => window.__frames")
                            if stamps:
                                reached += 1
                                delays.append(min(stamps) - sent)
                            if stamps and frames:
                                arrived.append(min(frames) - sent)
                                swapped.append(min(stamps) - min(frames))
                            if stamps and asked:
                                framed.append(asked[0][0] - sent)
                                answered.append(asked[0][1] - sent)
                    browser.close()
        finally:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                process.kill()
    print(
        f"GM page load ({options.loads} loads), navigation to load event in the browser:"
        f" p50 {1000 * statistics.median(loads):.0f} ms, p99 {1000 * percentile(loads, 0.99):.0f}"
        f" ms (goal: p99 under 200 ms); driven from this script: p50"
        f" {1000 * statistics.median(driven):.0f} ms, p99 {1000 * percentile(driven, 0.99):.0f} ms"
    )
    if delays:
        print(
            f"action → player page ({options.actions} actions, {len(pages)} pages,"
            f" {reached} updates):"
            f" p50 {statistics.median(delays):.0f} ms, p99 {percentile(delays, 0.99):.0f} ms,"
            f" max {max(delays):.0f} ms (goal: p99 under 100 ms); {reached - len(framed)} came"
            f" in the stream's frame, {len(framed)} asked for the page's panel"
        )
    if arrived:
        print(
            f"  the stream's frame reached the page: p50 {statistics.median(arrived):.0f} ms,"
            f" p99 {percentile(arrived, 0.99):.0f} ms (the action played and its frames made"
            " included); the page changed after it: p50"
            f" {statistics.median(swapped):.0f} ms, p99 {percentile(swapped, 0.99):.0f} ms"
        )
    if framed:
        print(
            f"  of those that asked, the stream's frame reached the page: p50"
            f" {statistics.median(framed):.0f}"
            f" ms, p99 {percentile(framed, 0.99):.0f} ms; the server's answer came back: p50"
            f" {statistics.median(answered):.0f} ms, p99 {percentile(answered, 0.99):.0f} ms"
        )
    print(load())


if __name__ == "__main__":
    main()
