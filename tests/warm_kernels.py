"""Compile every game's simulation kernel once, into numba's on-disk cache (a script).

``conftest.py`` starts it in the background when a test session begins, so that on a fresh
machine the kernels compile while the first tests run, and the kernel tests find them ready
(``vigile.sim.kernel``: the cache folder is named after the kernels' sources). Each bundled
scenario that a game's kernel covers plays one run, game by game in :data:`ORDER` (the quickest
to compile first: the tests of that game need not wait for the others); after each game, a file
named after its ruleset is written in the folder given as the first argument, if any (the tests
wait for it), and every game's file, then ``all``, however the compile ends.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path

import numpy as np

from vigile import registry
from vigile.scene.loader import bundled_names, load_scenario
from vigile.scene.model import Scenario
from vigile.sim.kernel import available

ORDER = ("skirmish", "starfinder", "dnd35")
"""The games in the order they compile: about 20 s, 20 s and 40 s from an empty cache."""
ALL = "all"
"""The file written last: every kernel there is, compiled (or the compile stopped)."""


def main(signals: Path | None) -> None:
    scenarios = [load_scenario(name) for name in bundled_names()]
    present = {s.ruleset for s in scenarios}
    rulesets = [r for r in ORDER if r in present] + sorted(present - set(ORDER))
    try:
        for ruleset in rulesets:
            if available():
                _compile(s for s in scenarios if s.ruleset == ruleset)
            if signals is not None:
                (signals / ruleset).write_text("done\n")
    finally:
        if signals is not None:
            for ruleset in [*rulesets, ALL]:
                (signals / ruleset).write_text("done\n")


def _compile(scenarios: Iterable[Scenario]) -> None:
    for scenario in scenarios:
        plugin = registry.get(scenario.ruleset)
        if plugin.kernel is None:
            continue
        model = plugin.load(plugin.kernel)(scenario)
        if model is not None:
            model.play(1, np.random.default_rng(0))


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else None)
