"""Benchmark of one check (issues 2 and 11): from the shell, in-process, over HTTP, and icepool.

Prints, measured side by side in one run:
- the median wall time of ``vigile check skirmish noise ... --json`` started from the shell;
- the median in-process time of the same check as a library call (exact chance, no roll);
- the median time icepool takes to compute the same chance;
- for a few checks, the same check answered as JSON three ways (issue 11): (a) in-process, as
  the command's body does it (load the rules, build the verdict, ``verdict_json``); (a') the
  click command run in-process with the verdict sink (the API's own path, without HTTP);
  (b) ``POST /api/v1/checks/GAME/CHECK`` through FastAPI's TestClient (ASGI, no network);
  and an empty route through the same client (the HTTP overhead alone). The goal: (b) costs
  no more than 2x (a) plus that overhead.

Run: ``.venv/bin/python bench/checks.py`` (goals: under 150 ms from the shell, under 20 µs
in-process); ``--http`` runs the HTTP comparison only.
"""

from __future__ import annotations

import json
import shutil
import statistics
import subprocess
import sys
import time
import timeit
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

ARGS = [
    "check",
    "skirmish",
    "noise",
    "--event",
    "death",
    "--surface",
    "floor",
    "--distance",
    "120",
    "--walls",
    "2",
    "--dice",
    "2",
    "--alert",
    "--json",
]


def shell_median(runs: int = 15) -> float:
    exe = shutil.which("vigile") or str(Path(sys.executable).with_name("vigile"))
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([exe, *ARGS], check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def library_median(number: int = 20_000) -> float:
    from vigile import NoiseEvent, Roller, Surface, load_rules, noise_check

    rules = load_rules("skirmish")

    def check() -> object:
        return noise_check(
            rules,
            event=NoiseEvent.DEATH,
            surface=Surface.FLOOR,
            distance_cm=120,
            barriers=2,
            alert=True,
            roller=Roller(2),
        ).chance

    return min(timeit.repeat(check, number=number, repeat=5)) / number


def icepool_median(number: int = 200) -> float:
    import icepool

    def chance() -> object:
        target = 3 + 2 + 2 - 1  # the same check's target number
        return (2 @ (icepool.d6 >= target)).probability(">=", 1)

    return min(timeit.repeat(chance, number=number, repeat=5)) / number


def median_seconds(work: Callable[[], object], *, repeat: int, warmup: int = 50) -> float:
    for _ in range(warmup):
        work()
    times = []
    for _ in range(repeat):
        start = time.perf_counter_ns()
        work()
        times.append(time.perf_counter_ns() - start)
    return statistics.median(times) / 1e9


def http_cases() -> list[tuple[str, dict[str, Any], Callable[[], str]]]:
    """(route, request body, the same check in-process as the command's body runs it: load the
    rules, build the verdict, write its JSON)."""
    import numpy as np

    from vigile.dice.source import GivenFaces, RolledFaces
    from vigile.io.i18n import Lang
    from vigile.io.json_out import verdict_json
    from vigile.rulesets.data import load
    from vigile.rulesets.dnd35 import SpotTarget, spot_check
    from vigile.rulesets.skirmish.common import Roller
    from vigile.rulesets.skirmish.noise import NoiseEvent, Surface, noise_check
    from vigile.rulesets.starfinder import Observer, hide_check

    def noise() -> str:
        verdict = noise_check(
            load("skirmish"),
            event=NoiseEvent.DEATH,
            surface=Surface.FLOOR,
            distance_cm=120,
            barriers=2,
            alert=True,
            roller=Roller(2),
        )
        return json.dumps(verdict_json(verdict, Lang.EN), ensure_ascii=False)

    def hide() -> str:
        source = RolledFaces(np.random.default_rng(4))
        verdict = hide_check(
            load("starfinder"),
            stealth=5,
            observers=[Observer(3, False), Observer(8, False)],
            cover=True,
            source=source,
        )
        return json.dumps(verdict_json(verdict, Lang.FR), ensure_ascii=False)

    def spot() -> str:
        source = GivenFaces([11])
        verdict = spot_check(
            load("dnd35"), spot_bonus=4, distance_ft=20, target=SpotTarget.MOVING, source=source
        )
        source.finish()
        return json.dumps(verdict_json(verdict, Lang.EN, view="player"), ensure_ascii=False)

    noise_body = {
        "options": {
            "event": "death",
            "surface": "floor",
            "distance": 120,
            "walls": 2,
            "dice": 2,
            "alert": True,
        }
    }
    hide_body = {
        "options": {"stealth": 5, "perception": "3,8", "cover": True},
        "seed": 4,
        "lang": "fr",
    }
    spot_body = {
        "options": {"spot": 4, "distance": 20, "target": "moving"},
        "dice_values": [11],
        "view": "player",
    }
    return [
        ("skirmish/noise", noise_body, noise),
        ("starfinder/hide", hide_body, hide),
        ("dnd35/spot", spot_body, spot),
    ]


def http_comparison(repeat: int = 2000) -> None:
    """Issue 11: one check over HTTP against the same check in-process, side by side."""
    import asyncio
    import warnings

    import httpx

    with warnings.catch_warnings():  # Starlette's TestClient would rather have httpx2
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient
    from fastapi import FastAPI

    from vigile.web.checks import router as checks_router

    app = FastAPI()
    app.include_router(checks_router, prefix="/api/v1/checks")

    @app.post("/empty")
    def empty(body: dict[str, Any]) -> dict[str, Any]:  # a sync route, as the check's
        return {}

    print("\nissue 11: one check as JSON, in-process and over HTTP (ASGI, no network), medians")
    print("  (a) the command's body: load the rules, build the verdict, json.dumps its JSON")
    print("  (c) the click command in-process with the verdict sink: the API's path without HTTP")
    print("  (b) POST /api/v1/checks/GAME/CHECK through FastAPI's TestClient / httpx ASGITransport")
    print("  (e) an empty sync POST route through the same client: the HTTP overhead alone")
    cases = http_cases()
    in_process = {route: (check_path(route, body), work) for route, body, work in cases}
    with TestClient(app) as client:
        sync_empty = median_seconds(lambda: client.post("/empty", json={}), repeat=repeat)
        via_testclient = {
            route: median_seconds(partial(post, client, route, body), repeat=repeat)
            for route, body, _ in cases
        }

    async def measure() -> tuple[float, dict[str, float]]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://vigile") as client:

            async def timed(path: str, body: dict[str, Any]) -> float:
                for _ in range(50):
                    ok(await client.post(path, json=body))
                times = []
                for _ in range(repeat):
                    start = time.perf_counter_ns()
                    ok(await client.post(path, json=body))
                    times.append(time.perf_counter_ns() - start)
                return statistics.median(times) / 1e9

            found = {route: await timed(url(route), body) for route, body, _ in cases}
            return await timed("/empty", {}), found

    async_empty, via_httpx = asyncio.run(measure())

    for route, _, work in cases:
        click_path, _ = in_process[route]
        assert json.loads(work()) == json.loads(click_path()), route  # the same JSON
        a = median_seconds(work, repeat=repeat)
        c = median_seconds(click_path, repeat=repeat)
        for name, b, e in (
            ("TestClient", via_testclient[route], sync_empty),
            ("httpx ASGI", via_httpx[route], async_empty),
        ):
            print(
                f"  {route:<16} {name:<10} a={a * 1e6:5.0f}µs c={c * 1e6:5.0f}µs "
                f"b={b * 1e6:6.0f}µs e={e * 1e6:6.0f}µs  b/a={b / a:5.1f}  "
                f"(b-e)/a={(b - e) / a:4.2f}  (b-e)/c={(b - e) / c:4.2f}"
            )


def post(client: Any, route: str, body: dict[str, Any]) -> Any:
    return ok(client.post(url(route), json=body))


def url(route: str) -> str:
    return f"/api/v1/checks/{route}"


def ok(answer: Any) -> Any:
    assert answer.status_code == 200, answer.text
    return answer


def check_path(route: str, body: dict[str, Any]) -> Callable[[], str]:
    """The API's own path without HTTP: the click command with the verdict sink, its JSON."""
    from vigile.io.i18n import Lang
    from vigile.web.checks import CheckRequest, find_check, run

    game, name = route.split("/")
    request = CheckRequest.model_validate(body)
    check = find_check(game, name)

    def work() -> str:
        return bytes(run(check, request, request.lang or Lang.EN).body).decode()

    return work


def main() -> None:
    if "--http" not in sys.argv[1:]:
        shell = shell_median()
        library = library_median()
        reference = icepool_median()
        print(f"shell  vigile check skirmish noise --json : {shell * 1e3:8.1f} ms (median)")
        print(f"library noise_check (exact Fraction)    : {library * 1e6:8.2f} µs")
        print(f"icepool, same chance                    : {reference * 1e6:8.2f} µs")
        print(
            f"shell_ms={shell * 1e3:.1f} library_us={library * 1e6:.2f} "
            f"icepool_us={reference * 1e6:.2f} vs_icepool={reference / library:.1f}x"
        )
    http_comparison()


if __name__ == "__main__":
    main()
