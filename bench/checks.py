"""Benchmark of one check: from the shell, in-process, over HTTP, and icepool.

Prints, measured side by side in one run:
- the median wall time of ``vigile check skirmish noise ... --json`` started from the shell;
- the median in-process time of the same check as a library call (exact chance, no roll);
- the median time icepool takes to compute the same chance;
- for a few checks, the bare rule function beside the same check over HTTP (``--http``): the
  rule function alone (r) and with its JSON (a), the API's handler without HTTP (c), the POST
  through the ASGI app (b) and an empty route through the same client (e, the transport
  alone). The goal: the HTTP check costs at most 1.5x the rule function, (b - e) <= 1.5 a.

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


def http_cases() -> list[tuple[str, dict[str, Any], Callable[[], object], Callable[[], Any]]]:
    """(route, request body, the bare rule function called as the check calls it, and the same
    check's JSON in-process: the rule function, then ``verdict_json``)."""
    import numpy as np

    from vigile.dice.source import GivenFaces, RolledFaces
    from vigile.io.i18n import Lang
    from vigile.io.json_out import verdict_json
    from vigile.rulesets.data import load
    from vigile.rulesets.dnd35 import SpotTarget, spot_check
    from vigile.rulesets.skirmish.common import Roller
    from vigile.rulesets.skirmish.noise import NoiseEvent, Surface, noise_check
    from vigile.rulesets.starfinder import Observer, hide_check

    def noise() -> object:
        return noise_check(
            load("skirmish"),
            event=NoiseEvent.DEATH,
            surface=Surface.FLOOR,
            distance_cm=120,
            barriers=2,
            alert=True,
            roller=Roller(2),
        )

    def hide() -> object:
        return hide_check(
            load("starfinder"),
            stealth=5,
            observers=[Observer(3, False), Observer(8, False)],
            cover=True,
            source=RolledFaces(np.random.default_rng(4)),
        )

    def spot() -> object:
        source = GivenFaces([11])
        verdict = spot_check(
            load("dnd35"), spot_bonus=4, distance_ft=20, target=SpotTarget.MOVING, source=source
        )
        source.finish()
        return verdict

    def as_json(rule: Callable[[], Any], lang: Lang, view: Any = "gm") -> Callable[[], Any]:
        return lambda: verdict_json(rule(), lang, view=view)

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
        ("skirmish/noise", noise_body, noise, as_json(noise, Lang.EN)),
        ("starfinder/hide", hide_body, hide, as_json(hide, Lang.FR)),
        ("dnd35/spot", spot_body, spot, as_json(spot, Lang.EN, "player")),
    ]


def http_comparison(repeat: int = 2000) -> None:
    """One check over HTTP against its bare rule function, side by side, in one run."""
    import asyncio

    import httpx
    from fastapi import FastAPI, Request
    from starlette.responses import JSONResponse, Response

    from vigile.io.i18n import Lang
    from vigile.web.checks import answer, find_check
    from vigile.web.checks import router as checks_router

    app = FastAPI()
    app.include_router(checks_router, prefix="/api/v1/checks")
    cases = http_cases()
    for route, _, _, data in cases:
        sent = bytes(JSONResponse(data()).body)

        async def echo(request: Request, sent: bytes = sent) -> Response:
            await request.body()
            return Response(sent, media_type="application/json")

        async def bare(request: Request, data: Callable[[], Any] = data) -> Response:
            await request.body()
            return JSONResponse(data())

        echo.__annotations__["request"] = bare.__annotations__["request"] = Request
        app.add_api_route(f"/echo/{route}", echo, methods=["POST"])
        app.add_api_route(f"/bare/{route}", bare, methods=["POST"])

    print("\none check as JSON, in-process and over HTTP (a real ASGI call: httpx ASGITransport)")
    print("  r  the bare rule function (the rules loaded, the verdict built), in a loop")
    print("  a  r, then its JSON: verdict_json and json.dumps (what --json prints), in a loop")
    print("  c  the API's handler without HTTP: the body validated by the check's model, the")
    print("     inputs turned into the rule's arguments, the rule function, its JSON, in a loop")
    print("  e  a route that reads the same body and sends the same answer: the transport alone")
    print("  h  a hand-written route calling the rule function and sending its JSON: the bare")
    print("     rule function over the same transport")
    print("  b  POST /api/v1/checks/GAME/CHECK, the declared check")
    print("  e, h and b in turn, request after request (the machine's load falls on all three)")
    print("  goal: (b-e)/(h-e) <= 1.5, the HTTP check at most 1.5x the bare rule function")

    async def measure(route: str, body: dict[str, Any]) -> tuple[float, float, float]:
        transport = httpx.ASGITransport(app=app)
        paths = [f"/echo/{route}", f"/bare/{route}", url(route)]
        times: list[list[int]] = [[], [], []]
        async with httpx.AsyncClient(transport=transport, base_url="http://vigile") as client:
            for turn in range(repeat + 50):
                for kind, path in enumerate(paths):
                    start = time.perf_counter_ns()
                    ok(await client.post(path, json=body))
                    if turn >= 50:
                        times[kind].append(time.perf_counter_ns() - start)
        e, h, b = (statistics.median(t) / 1e9 for t in times)
        return e, h, b

    for route, body, rule, data in cases:
        check = find_check(*route.split("/"))
        raw = json.dumps(body).encode()

        def handler(check: Any = check, raw: bytes = raw) -> str:
            return bytes(answer(check, raw, lambda: Lang.EN).body).decode()

        def work(data: Callable[[], Any] = data) -> str:
            return json.dumps(data(), ensure_ascii=False)

        assert json.loads(work()) == json.loads(handler()), route  # the same JSON
        r = median_seconds(rule, repeat=repeat)
        a = median_seconds(work, repeat=repeat)
        c = median_seconds(handler, repeat=repeat)
        e, h, b = asyncio.run(measure(route, body))
        print(
            f"  {route:<16} r={r * 1e6:4.0f} a={a * 1e6:4.0f} c={c * 1e6:4.0f} e={e * 1e6:4.0f} "
            f"h={h * 1e6:4.0f} b={b * 1e6:4.0f} µs  c/a={c / a:4.2f}  "
            f"(b-e)/(h-e)={(b - e) / (h - e):4.2f}  (b-e)/a={(b - e) / a:4.2f}"
        )


def url(route: str) -> str:
    return f"/api/v1/checks/{route}"


def ok(answer: Any) -> Any:
    assert answer.status_code == 200, answer.text
    return answer


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
