"""The editor's answer to one edit on a big imported map: the edit alone, then the risk overlay.

Builds a maze as a Universal VTT document (``--size`` x ``--size`` squares, every cell's walls
a separate segment, in daylight), imports it with ``vigile scenario import
--ruleset dnd35``, puts five guards and an intruder on it, then drags the guard back and forth,
``--edits`` times, through the editor's HTTP API (the app in this process, no browser), in two
ways:

* **one request** (the page before): ``POST /api/v1/editor/apply`` with ``overlay``, the edit,
  its validation, the map and the risk overlay in one answer. The edit is on the page only
  when the overlay is computed too.
* **two requests** (the page now): ``/apply`` without ``overlay`` (the edit on the page at its
  answer), then ``/riskmap`` on the edited text (the overlay at its answer), which finds the
  scenario ``/apply`` just validated;
* **two, checked twice**: the same with that kept scenario forgotten first, so that
  ``/riskmap`` reads and checks the text again (what two requests cost without it).

For each it prints the median and the slowest time from the edit's request to the answer that
puts the edit on the map, and to the overlay. The browser's own drawing (about 0.2 s on such a
map) comes on top of both.

With ``--browser`` it opens the same map in the editor of a real ``vigile serve --workspace``
in Debian's Chromium (Playwright) and drags the guard on the map: from the mouse's release to
the moved guard drawn, and to the overlay drawn (the page's ``data-overlay-seq``), with the
page as it is in the tree (run it at two commits to compare pages). ``--night-raid`` does
the same on the bundled night raid (a guard, Goro, dragged), issue 13's small map.

With ``--lamps N`` the maze has N lanterns (30 ft each, on a square grid), and the bench also
times the edit alone (``/apply``) with the lit zones cast afresh for each edit (the cache of
:func:`vigile.web.mapsvg.lit_zones` emptied first: the editor before it) and kept (now), edits
taking turns.

    python bench/editor_big_map.py [--size 40] [--edits 6] [--lamps 25] [--browser | --night-raid]
"""

from __future__ import annotations

import argparse
import base64
import json
import math
import random
import statistics
import struct
import tempfile
import time
import zlib
from pathlib import Path
from typing import Any

TOKEN = "bench-editor-token-0123456789"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
GUARD = "  - {name: Guard, side: defenders, position: [%s, %s]}\n"


def maze(size: int, seed: int = 7) -> list[list[dict[str, float]]]:
    """The walls of a ``size`` x ``size`` maze (a depth-first spanning tree), one segment each."""
    rng = random.Random(seed)
    open_: set[tuple[tuple[int, int], tuple[int, int]]] = set()
    seen = {(0, 0)}
    stack = [(0, 0)]
    while stack:
        x, y = stack[-1]
        nexts = [
            (x + dx, y + dy)
            for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
            if 0 <= x + dx < size and 0 <= y + dy < size and (x + dx, y + dy) not in seen
        ]
        if not nexts:
            stack.pop()
            continue
        cell = rng.choice(nexts)
        open_.add((min((x, y), cell), max((x, y), cell)))
        seen.add(cell)
        stack.append(cell)

    def seg(a: tuple[float, float], b: tuple[float, float]) -> list[dict[str, float]]:
        return [{"x": a[0], "y": a[1]}, {"x": b[0], "y": b[1]}]

    walls = []
    for x in range(size):
        for y in range(size):
            if x + 1 < size and ((x, y), (x + 1, y)) not in open_:
                walls.append(seg((x + 1, y), (x + 1, y + 1)))
            if y + 1 < size and ((x, y), (x, y + 1)) not in open_:
                walls.append(seg((x, y + 1), (x + 1, y + 1)))
    for k in range(size):  # the border, square by square
        walls += [seg((k, 0), (k + 1, 0)), seg((k, size), (k + 1, size))]
        walls += [seg((0, k), (0, k + 1)), seg((size, k), (size, k + 1))]
    return walls


def png(width: int, height: int) -> bytes:
    """A grey PNG of ``width`` x ``height``: the map's picture."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    rows = b"".join(b"\x00" + b"\x80" * 3 * width for _ in range(height))
    body = chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")
    return b"\x89PNG\r\n\x1a\n" + body


def lamps(size: int, count: int) -> str:
    """``count`` hooded lanterns (30 ft, as the scenario must say in a d20 game) on a square
    grid over the maze, each in a square's centre: the YAML of ``lights``."""
    side = math.ceil(math.sqrt(count))
    step = 5 * size / side
    places = [
        (5 * math.floor(step * (i + 0.5) / 5) + 2.5, 5 * math.floor(step * (j + 0.5) / 5) + 2.5)
        for j in range(side)
        for i in range(side)
    ][:count]
    return "".join(f"  - {{kind: lantern, at: [{x}, {y}], radius: 30}}\n" for x, y in places)


def big_map(folder: Path, size: int, lights: int = 0) -> str:
    """The maze imported for D&D 3.5, with five guards and an intruder on it, and ``lights``
    lanterns (:func:`lamps`)."""
    from vigile.cli import main

    doc = {
        "format": 0.3,
        "resolution": {
            "map_origin": {"x": 0, "y": 0},
            "map_size": {"x": size, "y": size},
            "pixels_per_grid": 2,
        },
        "line_of_sight": maze(size),
        "portals": [],
        "lights": [],
        "environment": {"baked_lighting": False, "ambient_light": "ffffffff"},
        "image": base64.b64encode(png(2 * size, 2 * size)).decode(),
    }
    source = folder / "maze.dd2vtt"
    source.write_text(json.dumps(doc), "utf-8")
    out = folder / "maze.yaml"
    assert main(["scenario", "import", str(source), "--ruleset", "dnd35", "--out", str(out)]) == 0
    text = out.read_text("utf-8").replace("actors: []\n", "").replace("plans: {}\n", "")
    text = text.replace("time: night", "time: day")  # the map's bright ambient light
    if lights:
        text = text.replace("lights: []\n", "lights:\n" + lamps(size, lights))
    others = "".join(
        f"  - {{name: Watch {k}, side: defenders, position: [{x}, {y}]}}\n"
        for k, (x, y) in enumerate(((57.5, 57.5), (142.5, 57.5), (57.5, 142.5), (142.5, 142.5)))
    )  # four more guards, one in each quarter of a 40-square maze
    rogue = "  - {name: Rogue, side: attackers, position: [2.5, 2.5]}\n"
    return text + "actors:\n" + GUARD % (12.5, 12.5) + others + rogue


def in_browser(
    text: str,
    edits: int,
    chromium: str,
    guard: tuple[str, tuple[float, float], tuple[float, float]] = (
        "Guard",
        (12.5, 12.5),
        (12.5, 22.5),
    ),
) -> None:
    """The editor on ``text`` in Chromium: each drag of the ``guard`` (its name, from, to),
    to the guard drawn and to the overlay drawn."""
    import subprocess
    import sys
    import threading

    from playwright.sync_api import sync_playwright

    folder = Path(tempfile.mkdtemp())
    (folder / "maze.yaml").write_text(text, "utf-8")
    command = [sys.executable, "-m", "vigile", "serve", "--port", "0", "--token", TOKEN]
    command += ["--db", f"sqlite:///{folder / 'bench.db'}", "--workspace", str(folder)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert process.stdout is not None
    base = ""
    for line in process.stdout:
        if line.startswith("GM: http://"):
            base = line.split()[1].split("/?")[0]
            break
    assert base, "vigile serve did not print its URL"
    threading.Thread(target=lambda: [None for _ in process.stdout or ()], daemon=True).start()
    drawn: list[float] = []
    overlaid: list[float] = []
    seq = "() => +document.getElementById('ed-mapbox').dataset.overlaySeq"
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=chromium, args=["--headless", "--no-sandbox", "--disable-gpu"]
            )
            page = browser.new_page(viewport={"width": 1500, "height": 1000})
            page.goto(f"{base}/editor?file=maze.yaml&token={TOKEN}&lang=en")
            page.wait_for_function(f"() => ({seq})() > 0", timeout=120_000)
            name, here, there = guard
            for _ in range(edits):
                before = page.evaluate(seq)
                a, b = (
                    page.evaluate(
                        """([x, y]) => { const svg = document.getElementById('map-svg');
                        const p = svg.createSVGPoint(); p.x = x; p.y = y;
                        const q = p.matrixTransform(svg.getScreenCTM()); return [q.x, q.y]; }""",
                        list(point),
                    )
                    for point in (here, there)
                )
                page.mouse.move(*a)
                page.mouse.down()
                page.mouse.move(*b, steps=3)
                released = time.perf_counter()
                page.mouse.up()
                page.wait_for_function(
                    "([name, at]) => document.getElementById('ed-yaml').value.includes("
                    "'name: ' + name + ', side: defenders, position: ' + at)",
                    arg=[name, f"[{there[0]:g}, {there[1]:g}]"],
                    timeout=120_000,
                )
                drawn.append(time.perf_counter() - released)
                page.wait_for_function(
                    f"(before) => ({seq})() > before", arg=before, timeout=120_000
                )
                overlaid.append(time.perf_counter() - released)
                here, there = there, here
            browser.close()
    finally:
        process.terminate()
        process.wait(10)
    print(f"in Chromium, {edits} drags of the guard, the page in the tree")
    for name, values in (("guard drawn", drawn), ("overlay drawn", overlaid)):
        print(f"{name:18} {statistics.median(values):.2f} s (max {max(values):.2f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=40)
    parser.add_argument("--edits", type=int, default=6)
    parser.add_argument("--browser", action="store_true")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--night-raid", action="store_true", help="the small map instead")
    parser.add_argument("--lamps", type=int, default=0, help="lanterns on the maze")
    options = parser.parse_args()
    if options.night_raid:  # the small map of issue 13's goal: Goro dragged
        from vigile.scene.loader import bundled_path

        print("night raid (in Chromium)")
        text = bundled_path("night-raid").read_text("utf-8")
        in_browser(text, options.edits, options.chromium, ("Goro", (92, 104), (80, 96)))
        return
    if options.browser:
        text = big_map(Path(tempfile.mkdtemp()), options.size, options.lamps)
        print(f"maze {options.size} x {options.size} squares, {text.count('start:')} walls")
        in_browser(text, options.edits, options.chromium)
        return
    from fastapi.testclient import TestClient

    from vigile.store import Store
    from vigile.web import editor, mapsvg
    from vigile.web.app import create_app
    from vigile.web.editor import configure

    def forget() -> None:
        with editor._checked_lock:
            editor._checked.clear()

    folder = Path(tempfile.mkdtemp())
    text = big_map(folder, options.size, options.lamps)
    walls = text.count("start:")
    store = Store(f"sqlite:///{folder / 'bench.db'}")
    app = create_app(store, gm_token=TOKEN)
    configure(app)
    found: dict[str, dict[str, list[float]]] = {
        "one request": {"edit": [], "overlay": []},
        "two requests": {"edit": [], "overlay": []},
        "two, checked twice": {"edit": [], "overlay": []},
    }
    asked = {"attitude": "half", "actor": None}
    with TestClient(app) as client:

        def post(path: str, body: dict[str, Any]) -> dict[str, Any]:
            response = client.post(f"/api/v1/editor/{path}", json=body, headers=AUTH)
            assert response.status_code == 200, response.text
            answer: dict[str, Any] = response.json()
            return answer

        post("apply", {"yaml": text, "edit": None})  # warm: imports, caches
        for k in range(3 * options.edits):
            to = [12.5, 22.5] if k % 2 == 0 else [12.5, 12.5]
            edit = {"op": "move-actor", "name": "Guard", "to": to}
            started = time.perf_counter()
            if k % 3 == 0:
                answer = post("apply", {"yaml": text, "edit": edit, "overlay": asked})
                assert "image" in answer["overlay"], answer["overlay"]
                took = time.perf_counter() - started
                way = found["one request"]
                way["edit"].append(took)
                way["overlay"].append(took)
            else:
                answer = post("apply", {"yaml": text, "edit": edit})
                way = found["two requests" if k % 3 == 1 else "two, checked twice"]
                way["edit"].append(time.perf_counter() - started)
                if k % 3 == 2:
                    forget()
                risk = post("riskmap", {"yaml": answer["yaml"], **asked})
                assert "image" in risk
                way["overlay"].append(time.perf_counter() - started)
            text = answer["yaml"]
        lit: dict[str, list[float]] = {"zones cast afresh": [], "zones kept": []}
        for k in range(2 * options.edits if options.lamps else 0):
            to = [12.5, 22.5] if k % 2 == 0 else [12.5, 12.5]
            kept = "zones cast afresh" if k % 2 == 0 else "zones kept"
            if k % 2 == 0:  # the editor before the zones were kept: each edit cast them all
                with mapsvg._lit_lock:
                    mapsvg._lit.clear()
            edit = {"op": "move-actor", "name": "Guard", "to": to}
            started = time.perf_counter()
            text = post("apply", {"yaml": text, "edit": edit})["yaml"]
            lit[kept].append(time.perf_counter() - started)
    store.close()
    print(
        f"maze {options.size} x {options.size} squares, {walls} walls, {options.edits} edits each"
    )
    print(f"{'':18} {'edit on the map':>24} {'overlay on the map':>24}")
    for name, way in found.items():
        cells = [
            f"{statistics.median(way[part]):.2f} s (max {max(way[part]):.2f})"
            for part in ("edit", "overlay")
        ]
        print(f"{name:18} {cells[0]:>24} {cells[1]:>24}")
    if options.lamps:
        print(f"{options.lamps} lanterns, the edit alone (/apply):")
        for name, times in lit.items():
            print(f"  {name:18} {statistics.median(times):.2f} s (max {max(times):.2f})")


if __name__ == "__main__":
    main()
