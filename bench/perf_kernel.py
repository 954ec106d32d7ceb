"""Where the night raid's compiled kernel spends its time: Linux ``perf``, with the names of
numba's compiled functions (issue 14).

``perf`` cannot name the code numba compiles at run time: it lies in no file. This script
compiles the raid's kernel afresh (into an empty ``NUMBA_CACHE_DIR``: code loaded from numba's
cache keeps no LLVM module to read the names from), writes ``/tmp/perf-<pid>.map`` (perf's map
of code made at run time: start, size, name), then plays runs under ``perf record`` attached
to itself and prints ``perf report``'s functions by their share of the samples. With
``--asm DIR`` it also writes each kernel function's machine code (``<name>.bin``, for
``objdump -D -b binary -mi386:x86-64``) and the sampled addresses (``ips.txt``), to see which
instructions the time goes to.

Why not the phases switched off one by one, or ``NUMBA_DEBUGINFO``: the first changes the
game the rest plays, and a build with debug information inlines differently (its profile put
a quarter of the time on a call the optimized build inlines). The samples here are the
optimized code's own. In a virtual machine without hardware counters, ``perf`` samples the
CPU clock: a sample lands a few instructions after the one that waited (on a load from memory,
say).

Run: ``.venv/bin/python bench/perf_kernel.py [--runs 300000] [--scenario night-raid]
[--asm DIR]`` (Linux, ``perf`` installed: Debian's ``linux-perf``; about a minute, the compile
included).

Figures measured on the night raid behind choices in the skirmish kernel and the shared
geometry (interleaved A/B runs where noted):

* the turns played in the loop over the runs: the stack pushes of a call per run took 13% of
  the time (this profile), and without them the raid plays 13 to 24% more runs per CPU-second
  (A/B); a function per run cost 8%, and inlining it took the first compile's memory from 0.5
  to 0.9 GB;
* the turn's phases inlined: with the sight phase left as a call, the kernel ran at half speed;
* ``_noise`` inlined at the alarm's blows too: the raid ran 10 to 13% slower (A/B, 3 rounds);
* the hot helpers' tuples made in the loop rather than once before it: 2% faster (A/B);
* the epoch stamps instead of clearing three arrays each turn: the ``memset`` took 2%;
* ``geometry.contacts`` and ``geometry.meets_open`` inlined: the raid 7% and 4% faster;
* ``geometry.boxes_apart`` with ``|``: the short-circuit ``or`` ran four times slower on
  random queries;
* the stream's buffer kept from one block to the next: a fresh 8 MiB array each block cost
  3 to 4% of the time (its pages' first touch).
"""

from __future__ import annotations

import argparse
import ctypes
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="vigile-perf-")  # before numba loads

import numpy as np

from vigile.games.skirmish.kernel import raid
from vigile.scene.loader import load_scenario


def compiled_functions(library: Any, seen: set[int]) -> list[tuple[int, str]]:
    """(address, name) of every function defined in a numba code library and those it links."""
    if id(library) in seen:
        return []
    seen.add(id(library))
    found = []
    for function in library._final_module.functions:
        if function.is_declaration:
            continue
        address = library.get_pointer_to_function(function.name)
        if address:
            found.append((int(address), str(function.name)))
    for linked in getattr(library, "_linking_libraries", ()):
        found += compiled_functions(linked, seen)
    return found


def perf_map(functions: list[tuple[int, str]], path: Path) -> list[tuple[int, int, str]]:
    """Write perf's map; a function's size is taken as the gap to the next one (at most 1 MiB:
    numba puts each module's code in its own pages)."""
    ordered = sorted(set(functions))
    rows = []
    for (start, name), (after, _) in zip(
        ordered, [*ordered[1:], (ordered[-1][0] + 4096, "")], strict=True
    ):
        rows.append((start, min(after - start, 1 << 20), name))
    path.write_text("".join(f"{start:x} {size:x} {name}\n" for start, size, name in rows))
    return rows


def short(name: str) -> str:
    """A numba symbol's module and function, without its mangled signature."""
    return name.split("B3v")[0].removeprefix("_ZN").rstrip("0123456789")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=300_000)
    parser.add_argument("--scenario", default="night-raid")
    parser.add_argument("--asm", type=Path, help="also write the machine code and the samples")
    args = parser.parse_args()
    if shutil.which("perf") is None:
        sys.exit("perf is not installed (Debian: apt install linux-perf)")

    kernel = raid.KernelRaid.of(load_scenario(args.scenario))
    kernel.play(512, np.random.default_rng(0))  # compile, fill the tables
    functions: list[tuple[int, str]] = []
    seen: set[int] = set()
    for overload in raid._play_runs.overloads.values():
        functions += compiled_functions(overload.library, seen)
    rows = perf_map(functions, Path(f"/tmp/perf-{os.getpid()}.map"))
    data = Path(tempfile.mkdtemp(prefix="vigile-perf-data-")) / "perf.data"
    recorder = subprocess.Popen(
        ["perf", "record", "-F", "4999", "-p", str(os.getpid()), "-o", str(data)],
        stderr=subprocess.DEVNULL,
    )
    time.sleep(1.0)  # perf attaches
    cpu = time.process_time()
    kernel.play(args.runs, np.random.default_rng(1))
    cpu = time.process_time() - cpu
    recorder.send_signal(signal.SIGINT)
    recorder.wait()
    print(f"{args.runs:,} runs in {cpu:.2f} CPU-s ({args.runs / cpu:,.0f} runs per CPU-second)")
    report = subprocess.run(
        ["perf", "report", "-i", str(data), "--no-children", "--sort", "sym", "--stdio"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    shown = 0
    for line in report.splitlines():
        if line.startswith("#") or not line.strip():
            continue
        share, _, name = line.split(maxsplit=2)
        print(f"  {share:>7}  {short(name.strip())}")
        shown += 1
        if shown == 20:
            break
    if args.asm:
        args.asm.mkdir(parents=True, exist_ok=True)
        for start, size, name in rows:
            if "kernel" in name:
                code = ctypes.string_at(start, size)
                (args.asm / f"{short(name)[-60:]}_{start:x}.bin").write_bytes(code)
        ips = subprocess.run(
            ["perf", "script", "-i", str(data), "-F", "ip"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        (args.asm / "ips.txt").write_text(ips)
        print(f"machine code and sampled addresses in {args.asm}")


if __name__ == "__main__":
    main()
