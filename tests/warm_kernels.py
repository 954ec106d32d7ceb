"""Compile every game's simulation kernel once, into numba's on-disk cache (a script).

``conftest.py`` starts it in the background when a test session begins, so that on a fresh
machine the kernels compile on the second core while the first tests run, and the kernel tests
find them ready (``vigile.sim.kernel``: the cache folder is named after the kernels' sources).
Each bundled scenario that a game's kernel covers plays one run; then the file named by the
first argument, if any, is written (the tests wait for it).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from vigile import registry
from vigile.scene.loader import bundled_names, load_scenario
from vigile.sim.kernel import available


def main() -> None:
    if not available():
        return
    for name in bundled_names():
        scenario = load_scenario(name)
        plugin = registry.get(scenario.ruleset)
        if plugin.kernel is None:
            continue
        model = plugin.load(plugin.kernel)(scenario)
        if model is not None:
            model.play(1, np.random.default_rng(0))


if __name__ == "__main__":
    try:
        main()
    finally:  # the file the tests wait for (conftest.py), written however the compile ended
        if len(sys.argv) > 1:
            Path(sys.argv[1]).write_text("done\n")
