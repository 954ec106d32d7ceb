"""What the GM's odds preview costs (issue 36): the checks an action will roll, listed before it
is played, on the night raid with 12 listeners (Kage moves fast onto the wall's top: a fumble
roll and, with stand-in 1s, a noise check for each guard).

Side by side in one run, on this process's CPU clock, the three in turn round after round (the
machine's load, printed, falls on each alike); median, min and max of each:

* ``restart``: the preview as it was before issue 36: the action played again on a new copy of
  the game for each die (each missing die stops it, a stand-in is added, a fresh copy replays);
* ``once``: :meth:`vigile.live.Encounter.preview`: one copy, the stand-ins given as the dice are
  asked (and every check listed, those decided without dice included);
* ``end-turn``: the preview of ending that turn.

    python bench/preview.py [--rounds 30]
"""

from __future__ import annotations

import argparse
import copy
import os
import statistics
import time

from vigile.engine.live import LiveFaces, NeedDice, action_generators, parse_action
from vigile.live import Encounter
from vigile.scene.loader import bundled_path
from vigile.store import Store

MOVE = {"do": "move", "actor": "Kage", "to": [60, 10], "speed": "fast"}


def restart(encounter: Encounter, data: dict[str, object]) -> int:
    """The preview before issue 36: a fresh copy of the game for each die asked."""
    action = parse_action(data)
    with encounter.reading() as replayed:
        game = copy.deepcopy(replayed.game)
        seq = replayed.seq + 1
    faces: list[int] = []
    checks = 0
    while True:
        trial = copy.deepcopy(game)
        dice_rng, rng = action_generators(encounter.row.seed, seq)
        trial.rng, trial.faces = rng, LiveFaces(dice_rng, faces, physical=True)
        try:
            trial.apply(action)
        except NeedDice:
            faces.append(1)
            checks += 1
            continue
        return checks


def timed(call: object, rounds: int) -> list[float]:
    found = []
    for _ in range(rounds):
        start = time.thread_time()
        call()  # type: ignore[operator]
        found.append((time.thread_time() - start) * 1000)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=30)
    rounds = parser.parse_args().rounds
    store = Store("sqlite://")
    text = bundled_path("night-raid").read_text("utf-8")
    encounter, _ = Encounter.create(store, text=text, fmt="yaml", source="night-raid", seed=7)
    dice = restart(encounter, MOVE)
    ahead = encounter.preview(MOVE)
    print(f"the move: {dice} dice asked, {len(ahead.checks)} checks listed")
    calls = {
        "restart": lambda: restart(encounter, MOVE),
        "once": lambda: encounter.preview(MOVE),
        "end-turn": lambda: encounter.preview({"do": "end-turn"}),
    }
    found: dict[str, list[float]] = {name: [] for name in calls}
    load = os.getloadavg()
    for _ in range(rounds):  # the three in turn, round after round: the same load on each
        for name, call in calls.items():
            found[name] += timed(call, 1)
    print(
        f"{rounds} rounds, the three in turn; load {load[0]:.1f} {load[1]:.1f} {load[2]:.1f} "
        "(1, 5, 15 min); no goal set (issue 36): the two ways compared"
    )
    for name, ms in found.items():
        print(
            f"{name:>9}: median {statistics.median(ms):7.1f} ms  min {min(ms):7.1f} ms  "
            f"max {max(ms):7.1f} ms"
        )
    ratio = statistics.median(found["restart"]) / statistics.median(found["once"])
    print(f"restart / once: {ratio:.1f}x (medians)")


if __name__ == "__main__":
    main()
