"""Benchmark of the map commands' start: ``vigile riskmap`` and ``vigile route`` against the
same map computed in a process that has already run it.

For each command below, the CPU seconds (user + system, so that a shared machine's load
weighs less than on wall time) of:

- ``cli``: ``python -m vigile ARGS`` in a fresh process, as a user runs it: the interpreter,
  the imports, the command's set-up (building the command, reading the messages) and the map;
- ``in-process``: the same ``main(ARGS)`` called again in a process that ran it once (its
  imports done, its caches warm): the map's own work, rendering included;

min and median of ``--rounds`` rounds each, interleaved, the ratio of the medians (goal:
``cli`` within 2x of ``in-process``) and their difference, ``start``: what the imports and the
first run's set-up cost. ``--src DIR`` measures another checkout's ``src`` (the code before a
change), in the same run.

``floor`` (one line above the table): a fresh process that imports only the third-party modules
a map command imports (:data:`FLOOR`: numpy, pydantic's models, typer, yaml,
importlib.metadata), builds one pydantic validator and does nothing else; ``own`` (a column):
``start`` less that floor, what vigile's own imports and set-up cost; ``best``: the ratio a
command would have were its own share nothing (the floor's cost plus the map's, over the
map's). A ratio above the goal where ``best`` is above it
too is out of reach by vigile's code alone.

The fresh processes read their modules' bytecode as an installed vigile does (pip compiles it
at install; Python writes it on first import): into ``--pycache DIR`` (``PYTHONPYCACHEPREFIX``,
so that no tree gets ``__pycache__`` folders), filled by one untimed run of each command, even
where ``PYTHONDONTWRITEBYTECODE`` is set (as in this project's sessions, where every start
compiled every module again: some 0.1 s of each). ``--no-bytecode`` measures that instead.

Run: ``.venv/bin/python bench/map_startup.py [--rounds 5] [--src DIR]``; ``-X importtime`` of
one command shows where its imports go (``python -X importtime -m vigile riskmap ...``).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile

COMMANDS = {
    "riskmap sight": ["riskmap", "night-raid", "--attitude", "half"],
    "riskmap noise": ["riskmap", "night-raid", "--attitude", "half", "--noise", "conversation"],
    "route": ["route", "night-raid", "--from", "60,14", "--to", "110,62", "--attitude", "half"],
    "riskmap d20": ["riskmap", "dnd35-invisible-intruder", "--attitude", "half"],
}
GOAL = 2.0
"""The most the command may take, as a multiple of the same map computed in-process."""
FLOOR = (
    "import numpy, typer, yaml, importlib.metadata; from pydantic import BaseModel, TypeAdapter; "
    "TypeAdapter(int)"
)
"""The third-party imports of every map command, and pydantic's first validator (which looks
for pydantic's plug-ins among the installed packages' entry points): what no change of
vigile's code avoids."""

IN_PROCESS = """
import io, sys, time
from contextlib import redirect_stdout
from vigile.cli import main
args = sys.argv[1:]
with redirect_stdout(io.StringIO()):
    assert main(args) == 0
start = time.process_time()
with redirect_stdout(io.StringIO()):
    main(args)
print(time.process_time() - start)
"""


PYCACHE = os.path.join(tempfile.gettempdir(), "vigile-bench-pycache")
"""Where the fresh processes keep their bytecode by default (kept between runs)."""
_BYTECODE: list[str | None] = [PYCACHE]


def _env(src: str | None) -> dict[str, str]:
    env = dict(os.environ)
    if src is not None:
        env["PYTHONPATH"] = os.path.abspath(src)
    if _BYTECODE[0] is not None:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = _BYTECODE[0]
    return env


def cli_cpu(args: list[str], src: str | None) -> float:
    """CPU seconds of one fresh ``python -m vigile ARGS``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(
        [sys.executable, "-m", "vigile", *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=_env(src),
        check=False,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"vigile {' '.join(args)} failed: {done.stderr.decode()[-400:]}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def floor_cpu(src: str | None) -> float:
    """CPU seconds of a fresh process importing :data:`FLOOR` only."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-c", FLOOR], env=_env(src), check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def in_process_cpu(args: list[str], src: str | None) -> float:
    """CPU seconds of ``main(ARGS)`` run a second time in one process."""
    done = subprocess.run(
        [sys.executable, "-c", IN_PROCESS, *args],
        capture_output=True,
        text=True,
        env=_env(src),
        check=True,
    )
    return float(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--src", help="another checkout's src folder, measured as well")
    parser.add_argument("--pycache", default=PYCACHE, help="where the bytecode is kept")
    parser.add_argument(
        "--no-bytecode", action="store_true", help="compile every module at each start"
    )
    options = parser.parse_args()
    _BYTECODE[0] = None if options.no_bytecode else options.pycache
    trees: list[tuple[str, str | None]] = [("this tree", None)]
    if options.src:
        trees.insert(0, (options.src, options.src))
    floor_cpu(None)  # untimed: its bytecode
    floors = [floor_cpu(None) for _ in range(options.rounds)]
    floor = statistics.median(floors)
    print(
        f"load average: {os.getloadavg()[0]:.2f} (1 min); CPU seconds, min / median; "
        + ("no bytecode" if _BYTECODE[0] is None else f"bytecode in {_BYTECODE[0]}")
    )
    print(f"floor ({FLOOR}): {min(floors):.3f} / {floor:.3f}")
    print(
        f"{'command':16} {'tree':22} {'cli':>15} {'in-process':>15} {'start':>6} {'own':>6} "
        f"{'ratio':>7} {'best':>6}  goal"
    )
    for name, args in COMMANDS.items():
        for label, src in trees:
            cli_cpu(args, src)  # untimed: writes the bytecode the timed runs read
            cli: list[float] = []
            inside: list[float] = []
            for _ in range(options.rounds):  # interleaved: the load weighs on both alike
                cli.append(cli_cpu(args, src))
                inside.append(in_process_cpu(args, src))
            mid_cli, mid_inside = statistics.median(cli), statistics.median(inside)
            ratio = mid_cli / mid_inside
            print(
                f"{name:16} {label[-22:]:22} "
                f"{min(cli):6.3f} / {mid_cli:6.3f} "
                f"{min(inside):6.3f} / {mid_inside:6.3f} "
                f"{mid_cli - mid_inside:6.3f} {mid_cli - mid_inside - floor:6.3f} "
                f"{ratio:6.2f}x {(floor + mid_inside) / mid_inside:5.2f}x  "
                f"<= {GOAL:.0f}x {'ok' if ratio <= GOAL else 'over'}"
            )


if __name__ == "__main__":
    main()
