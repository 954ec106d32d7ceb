"""Benchmark of one check: from the shell, in-process, over HTTP, against icepool and a hand-written
formula.

Prints, measured side by side in one run (each in-process figure the median of ``REPEAT``
rounds of a loop, with min and max), and the machine's load (``os.getloadavg``):
- the median wall time of ``vigile check skirmish noise ... --json`` started from the shell;
- the in-process time of the same check as a library call (exact chance, no roll), with its
  caches warm (the ruleset's data, ``load_rules``; the pool's exact chance by dice and target,
  ``vigile.dice.pool.pool_chance``), and with the pool's chance cache cleared before each call
  (the ruleset still loaded);
- icepool computing the same chance (its own caches warm: the same expression each time);
- the floor: the same chance written by hand, ``1 - (1 - (7 - t)/6) ** n`` as a Fraction (the
  closed form of "at least one of n d6 reaches t", t <= 6): no rule, no cache.
- for a few checks, the bare rule function beside the same check over HTTP (``--http``): the
  rule function alone (r) and with its JSON (a), the API's handler without HTTP (c), the POST
  through the ASGI app (b) and an empty route through the same client (e, the transport
  alone). The goal: the HTTP check costs at most 1.5x the rule function, (b - e) <= 1.5 a.

Run: ``.venv/bin/python bench/checks.py [--quick]`` (goals: under 150 ms from the shell, under
20 µs in-process); ``--http`` runs the HTTP comparison only; ``--quick`` fewer rounds.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import time
import timeit
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

QUICK = "--quick" in sys.argv
REPEAT = 3 if QUICK else 9
"""Rounds of each in-process loop; the median is reported."""
TARGET, DICE = 3 + 2 + 2 - 1, 2
"""The check's target number (death 3, 120 cm at night 2, two walls 2, alert -1) and pool."""

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


def spread(times: list[float], number: int) -> tuple[float, float, float]:
    """(median, min, max) seconds per call of ``REPEAT`` rounds of ``number`` calls."""
    per = [t / number for t in times]
    return statistics.median(per), min(per), max(per)


def shell_median(runs: int = 3 if QUICK else 15) -> float:
    exe = shutil.which("vigile") or str(Path(sys.executable).with_name("vigile"))
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([exe, *ARGS], check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def library_check() -> Callable[[], Fraction]:
    from vigile import NoiseEvent, Roller, Surface, load_rules, noise_check

    rules = load_rules("skirmish")

    def check() -> Fraction:
        return noise_check(
            rules,
            event=NoiseEvent.DEATH,
            surface=Surface.FLOOR,
            distance_cm=120,
            barriers=2,
            alert=True,
            roller=Roller(DICE),
        ).chance

    return check


def library_median(number: int = 2_000 if QUICK else 20_000) -> tuple[float, float, float]:
    """Every cache warm: the ruleset loaded, the pool's chance cached."""
    return spread(timeit.repeat(library_check(), number=number, repeat=REPEAT), number)


def library_cold_pool(number: int = 2_000 if QUICK else 20_000) -> tuple[float, float, float]:
    """The pool's chance cache cleared before each call (the ruleset still loaded)."""
    from vigile.dice.pool import die_chance, pool_chance

    check = library_check()

    def cold() -> Fraction:
        pool_chance.cache_clear()
        die_chance.cache_clear()
        return check()

    return spread(timeit.repeat(cold, number=number, repeat=REPEAT), number)


def icepool_chance() -> Callable[[], Any]:
    import icepool

    def chance() -> object:
        return (DICE @ (icepool.d6 >= TARGET)).probability(">=", 1)

    return chance


def icepool_median(number: int = 20 if QUICK else 200) -> tuple[float, float, float]:
    return spread(timeit.repeat(icepool_chance(), number=number, repeat=REPEAT), number)


def by_hand() -> Fraction:
    """The chance written out: at least one of DICE d6 reaches TARGET (2 <= TARGET <= 6)."""
    return 1 - (1 - Fraction(7 - TARGET, 6)) ** DICE


def hand_median(number: int = 2_000 if QUICK else 20_000) -> tuple[float, float, float]:
    return spread(timeit.repeat(by_hand, number=number, repeat=REPEAT), number)


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


def http_comparison(repeat: int = 200 if QUICK else 2000) -> None:
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
        expected = library_check()()
        assert expected == by_hand() == Fraction(str(icepool_chance()())), "not the same chance"
        load = os.getloadavg()
        print(
            f"one noise check, chance {expected} ({float(expected):.4f}); load {load[0]:.1f} "
            f"{load[1]:.1f} {load[2]:.1f} (1, 5, 15 min); median (min-max) of {REPEAT} rounds"
        )
        shell = shell_median()
        rows = [
            ("library noise_check, every cache warm", library_median()),
            ("library noise_check, pool cache cold", library_cold_pool()),
            ("icepool, same chance (its caches warm)", icepool_median()),
            ("by hand, 1-(1-(7-t)/6)**n (the floor)", hand_median()),
        ]
        print(f"  shell vigile check skirmish noise --json  {shell * 1e3:8.1f} ms (goal < 150 ms)")
        for label, (median, low, high) in rows:
            print(f"  {label:<41} {median * 1e6:8.2f} µs ({low * 1e6:.2f}-{high * 1e6:.2f})")
        library, cold, reference, floor = (row[1][0] for row in rows)
        print("  goal: the library call < 20 µs; the ratios below are medians of the same chance")
        print(
            f"shell_ms={shell * 1e3:.1f} library_us={library * 1e6:.2f} "
            f"library_cold_pool_us={cold * 1e6:.2f} icepool_us={reference * 1e6:.2f} "
            f"floor_us={floor * 1e6:.2f} vs_icepool={reference / library:.1f}x "
            f"vs_floor={library / floor:.1f}x load_1min={load[0]:.1f}"
        )
    http_comparison()


if __name__ == "__main__":
    main()
