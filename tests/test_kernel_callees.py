"""The night raid's first compile in two processes (``vigile.sim.warmup.warm``): a helper
compiles, into numba's cache, the functions the run's function calls that the model's build does
not (``vigile.games.skirmish.kernel.raid.compile_callees``), with the argument types the run's
function passes them; compiling the run's function then loads them from the cache.

Types that differ from the run's would be compiled for nothing (the run's function would
compile its own): a compile from an empty cache in one process, the helper's part first, then
the raid played, leaves each of those functions with one signature only. From an empty cache
(a warm one would load the run's function whole, its callees unasked): tens of seconds.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

CHECK = """
import numpy as np
from vigile.games.skirmish.kernel import play, raid
from vigile.scene.loader import load_scenario
scenario = load_scenario("night-raid")
raid.compile_callees(scenario)
helped = {f.py_func.__name__: list(f.signatures) for f, _ in raid.callees(
    *(lambda model: (raid.raid_arrays(model), raid.new_state(model)))(raid.build(scenario)))}
raid.KernelRaid.of(scenario).play(1, np.random.default_rng(0))
for name, signatures in helped.items():
    print(name, len(signatures), len(getattr(play, name).signatures))
"""


def test_the_helper_compiles_the_signatures_the_raids_run_calls(tmp_path: Path) -> None:
    pytest.importorskip("numba")
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba")}
    done = subprocess.run(
        [sys.executable, "-c", CHECK], capture_output=True, text=True, env=env, timeout=600
    )
    assert done.returncode == 0, done.stderr
    counts = {line.split()[0]: line.split()[1:] for line in done.stdout.splitlines()}
    # each helped function: one signature compiled by the helper, none more by the run
    assert counts == {
        name: ["1", "1"] for name in ("_move", "_walls_between", "_blow_noise", "_reaches")
    }
