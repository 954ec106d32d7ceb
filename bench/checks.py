"""Benchmark of one skirmish check (issue 2): from the shell, in-process, and icepool alongside.

Prints, measured side by side in one run:
- the median wall time of ``vigile check skirmish noise ... --json`` started from the shell;
- the median in-process time of the same check as a library call (exact chance, no roll);
- the median time icepool takes to compute the same chance.

Run: ``.venv/bin/python bench/checks.py`` (goals: under 150 ms from the shell, under 20 µs
in-process).
"""

from __future__ import annotations

import shutil
import statistics
import subprocess
import sys
import time
import timeit
from pathlib import Path

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


def main() -> None:
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


if __name__ == "__main__":
    main()
