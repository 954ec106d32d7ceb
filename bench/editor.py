"""The editor's risk overlay after an edit, end to end, in a real browser (issue 13).

Starts a real ``vigile serve``, opens ``/editor`` on the night raid in Debian's Chromium (driven by
Playwright, never a downloaded browser), then drags two guards (Goro, Tetsu) back and forth on the
map, ``--edits`` times in all (a lamp dragged makes no edit in the editor today: its handle,
moved, no longer matches the signature it was picked by). An edit is two requests: the page asks
``/api/v1/editor/apply`` for the edit alone (the edit, its validation, the map drawn again) and
draws it at its answer, then ``/api/v1/editor/riskmap`` for the risk overlay of the new board
(the map at 1 cm: 200 × 120 cells for the night raid, with the safest route), drawn when it
comes. Each time it measures:

* end to end, from the mouse's release to the new overlay drawn (the page's
  ``data-overlay-seq``; the figure the issue asks under 1 s);
* the edit's request (``/apply``, round trip);
* the overlay's request (``/riskmap``, round trip);
* of which the risk map and the route (the answer's ``seconds``).

The page's Content-Security-Policy forbids ``eval``: what the bench runs in the page is a
function (``page.evaluate`` and ``page.wait_for_function`` are given ``(arg) => ...``, never a
bare expression).

The edits compose the YAML with libyaml's composer where PyYAML has it: some fifteen times
faster than ruamel.yaml's round-trip composer, with the same marks.

    python bench/editor.py [--edits 20] [--chromium /usr/bin/chromium]
"""

from __future__ import annotations

import argparse
import math
import os
import re
import statistics
import subprocess
import sys
import threading
import time
from typing import Any

TOKEN = "bench-editor-token-0123456789"
GM_LINE = re.compile(r"^GM: (http://127\.0\.0\.1:(\d+))/\?token=")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
MOVES = (
    ("token", "Goro", (92, 104), (80, 96)),
    ("token", "Tetsu", (175, 30), (168, 36)),
)


def start_server(db: str) -> tuple[subprocess.Popen[str], str]:
    command = [sys.executable, "-m", "vigile", "serve", "--port", "0", "--db", db, "--token", TOKEN]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert process.stdout is not None
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            raise SystemExit("vigile serve stopped")
        found = GM_LINE.match(line)
        if found:
            threading.Thread(target=_drain, args=(process,), daemon=True).start()
            return process, found.group(1)
    raise SystemExit("vigile serve did not print its URL")


def _drain(process: subprocess.Popen[str]) -> None:
    assert process.stdout is not None
    for _ in process.stdout:
        pass


def screen_of(page: Any, x: float, y: float) -> tuple[float, float]:
    at = page.evaluate(
        """([x, y]) => { const svg = document.getElementById('map-svg');
            const p = svg.createSVGPoint(); p.x = x; p.y = y;
            const q = p.matrixTransform(svg.getScreenCTM()); return [q.x, q.y]; }""",
        [x, y],
    )
    return float(at[0]), float(at[1])


def drag(page: Any, start: tuple[float, float], end: tuple[float, float]) -> None:
    a, b = screen_of(page, *start), screen_of(page, *end)
    page.mouse.move(*a)
    page.mouse.down()
    page.mouse.move(*b, steps=3)


def seq(page: Any) -> int:
    return int(page.get_attribute("#ed-mapbox", "data-overlay-seq") or 0)


def overlay_after(page: Any, before: int) -> None:
    """Wait for an overlay newer than ``before`` drawn (a function: the page's CSP has no eval)."""
    page.wait_for_function(
        "(before) => +document.getElementById('ed-mapbox').dataset.overlaySeq > before",
        arg=before,
        timeout=30_000,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edits", type=int, default=20)
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    options = parser.parse_args()
    import tempfile

    from playwright.sync_api import sync_playwright

    folder = tempfile.mkdtemp()
    process, base = start_server(f"sqlite:///{folder}/bench.db")
    end_to_end: list[float] = []
    server_risk: list[float] = []
    apply_trip: list[float] = []
    riskmap_trip: list[float] = []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=options.chromium, args=ARGS)
            page = browser.new_page(viewport={"width": 1500, "height": 1000})
            timings: dict[str, list[float]] = {"apply": [], "riskmap": []}
            sent: dict[Any, float] = {}  # by request: an overlay's may overtake another's
            since = [math.inf]  # requests sent before the first edit are not counted

            def on_request(request: Any) -> None:
                for name in timings:
                    if request.url.endswith(f"/api/v1/editor/{name}"):
                        sent[request] = time.perf_counter()

            def on_response(response: Any) -> None:
                for name in timings:
                    if response.url.endswith(f"/api/v1/editor/{name}"):
                        asked = sent.pop(response.request, -math.inf)
                        if asked < since[0]:
                            continue
                        timings[name].append(time.perf_counter() - asked)
                        found = response.json()
                        if name == "riskmap" and "seconds" in found:
                            server_risk.append(float(found["seconds"]))

            page.on("request", on_request)
            page.on("response", on_response)
            page.goto(f"{base}/editor?scenario=night-raid&token={TOKEN}")
            overlay_after(page, 0)
            since[0] = time.perf_counter()
            for k in range(options.edits):
                _kind, _name, here, there = MOVES[k % 2]
                start, end = (here, there) if (k // 2) % 2 == 0 else (there, here)
                before = seq(page)
                drag(page, start, end)
                released = time.perf_counter()
                page.mouse.up()
                overlay_after(page, before)
                end_to_end.append(time.perf_counter() - released)
            apply_trip = timings["apply"]
            riskmap_trip = timings["riskmap"]
            browser.close()
    finally:
        process.terminate()
        process.wait(10)

    def line(name: str, values: list[float]) -> str:
        ms = sorted(v * 1000 for v in values)
        p50 = statistics.median(ms)
        return f"{name:<56} p50 {p50:7.0f} ms   max {ms[-1]:7.0f} ms   (n={len(ms)})"

    load = os.getloadavg()
    print(
        "night raid, risk map at 1 cm (200 × 120 cells) with the safest route, in Chromium; "
        f"load {load[0]:.1f} {load[1]:.1f} {load[2]:.1f} (1, 5, 15 min)"
    )
    print(line("edit → overlay drawn (end to end)", end_to_end))
    print(line("  the edit's request (/apply: edit, validation, map)", apply_trip))
    print(line("  the overlay's request (/riskmap)", riskmap_trip))
    print(line("    of which the risk map and the route", server_risk))
    share = statistics.median(server_risk) / statistics.median(end_to_end)
    print(f"the risk map is {share:.0%} of the end-to-end time; goal: end to end under 1 s")


if __name__ == "__main__":
    main()
