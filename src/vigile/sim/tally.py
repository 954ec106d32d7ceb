"""What a simulation counts: how the runs ended, when the first detection came, which guard
detected, where (the tallies every game's simulator returns, added across blocks and workers).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from vigile.engine.result import Ending

OUTCOMES = tuple(ending.value for ending in Ending)
"""The ways a game ends, in the order of the tallies (:class:`~vigile.engine.result.Ending`
says what each counts)."""
CODE = {ending: code for code, ending in enumerate(Ending)}
"""Each ending's place in :attr:`Tally.outcomes`."""
HEAT_BINS = 100
"""The heat map's grid: this many cells a side over the map."""

Ints = np.ndarray[tuple[int, ...], np.dtype[np.int64]]


@dataclass
class Tally:
    """What a block of runs found, as counts that add up across blocks (and workers)."""

    runs: int
    outcomes: Ints
    """Runs ending each way, in the order of :data:`OUTCOMES`."""
    first_detection: Ints
    """Runs by turn of the first detection; index 0: never detected."""
    guard_detections: Ints
    """Runs in which each guard detected an intruder."""
    heat: Ints
    """Detections by where the intruder stood, on a HEAT_BINS x HEAT_BINS grid of the map."""
    intruder_detections: Ints = field(default_factory=lambda: np.zeros(0, np.int64))
    """Runs in which some guard detected each intruder (located or seen), in the scenario's
    order of the intruders; empty where the model that played does not record whom its guards
    detected (a kernel that keeps only who detected). A model may pad it with zeros past the
    last intruder."""

    @classmethod
    def empty(cls, turns: int, guards: int, intruders: int = 0) -> Tally:
        return cls(
            0,
            np.zeros(len(OUTCOMES), np.int64),
            np.zeros(turns + 1, np.int64),
            np.zeros(guards, np.int64),
            np.zeros((HEAT_BINS, HEAT_BINS), np.int64),
            np.zeros(intruders, np.int64),
        )

    def __add__(self, other: Tally) -> Tally:
        return Tally(
            self.runs + other.runs,
            self.outcomes + other.outcomes,
            self.first_detection + other.first_detection,
            self.guard_detections + other.guard_detections,
            self.heat + other.heat,
            _plus(self.intruder_detections, other.intruder_detections),
        )


def _plus(a: Ints, b: Ints) -> Ints:
    """Two per-intruder counts added, the shorter padded with zeros (a model's padding past
    the last intruder, or an empty sum to start from)."""
    size = max(len(a), len(b))
    total = np.zeros(size, np.int64)
    total[: len(a)] += a
    total[: len(b)] += b
    return total


class Batched(Protocol):
    """A game's compiled model of one scenario (its plug-in's ``kernel`` gives it): it plays
    a block of runs at once and tallies them."""

    @property
    def turns(self) -> int:
        """The most turns a run can last."""
        ...

    def play(self, runs: int, rng: np.random.Generator) -> Tally:
        """Play ``runs`` runs with ``rng``."""
        ...
