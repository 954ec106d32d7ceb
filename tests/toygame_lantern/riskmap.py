"""The lantern game's exact risk map: the chance that a sneak on a cell, moving ``half`` or
``fast``, is glimpsed in one turn by at least one lantern, each as far as its watcher's own
``lantern`` reach (LANT-3), by the game's rule function."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np
from numpy.typing import NDArray

from toygame_lantern.check import glimpse_check
from toygame_lantern.fields import reach_of
from toygame_lantern.game import move_rate
from vigile.awareness.vocabulary import Attitude
from vigile.engine.board import Board, distance
from vigile.errors import InputError
from vigile.games.contract import RiskRequest, unknown_switches
from vigile.rulesets.data import RuleData, shipped
from vigile.scene.actors import Actor, Side
from vigile.scene.geometry import Barriers
from vigile.scene.model import Scenario


@dataclass
class LanternBoard:
    scenario: Scenario
    rules: RuleData
    guards: list[Actor]
    play: Board

    @property
    def barriers(self) -> Barriers:
        return self.play.barriers

    def in_cover(self, px: Any, py: Any) -> Any:
        return np.zeros(np.shape(px), dtype=np.bool_)


@dataclass
class LanternMap:
    board: LanternBoard
    attitude: Attitude
    resolution: float
    xs: NDArray[np.float64]
    ys: NDArray[np.float64]
    chances: list[list[Fraction]] = field(default_factory=list)
    noise: None = None
    unsuited: bool = False
    unit: str = "cm"
    notes: tuple[str, ...] = ()

    @property
    def risk(self) -> NDArray[np.float64]:
        return np.array([[float(c) for c in row] for row in self.chances], dtype=np.float64)

    def exact(self, row: int, column: int) -> Fraction:
        return self.chances[row][column]

    def risk_at(self, x: float, y: float) -> Fraction:
        missed = Fraction(1)
        for watcher in self.board.guards:
            at = (float(watcher.position[0]), float(watcher.position[1]))
            missed *= (
                1
                - glimpse_check(
                    self.board.rules,
                    distance=distance(at, (x, y)),
                    in_sight=self.board.play.sees(at, (x, y)),
                    fast=self.attitude is Attitude.FAST,
                    reach=reach_of(watcher),
                ).chance
            )
        return 1 - missed

    def worst(self) -> tuple[int, int]:
        row, column = np.unravel_index(int(np.argmax(self.risk)), self.risk.shape)
        return int(row), int(column)

    def cell_of(self, x: float, y: float) -> tuple[int, int]:
        column = int(np.clip(round((x - self.xs[0]) / self.resolution), 0, self.xs.size - 1))
        row = int(np.clip(round((y - self.ys[0]) / self.resolution), 0, self.ys.size - 1))
        return row, column

    def per_turn(self) -> float:
        return move_rate(self.attitude)

    def leg_speed(self, x: float, y: float) -> tuple[Attitude, bool]:
        return self.attitude, False

    def guards_json(self) -> list[dict[str, object]]:
        return [
            {"name": g.name, "at": [float(g.position[0]), float(g.position[1])], "alert": g.alert}
            for g in self.board.guards
        ]


def risk_map(scenario: Scenario, request: RiskRequest) -> LanternMap:
    """The lantern game's risk map hook: ways ``half`` and ``fast`` (LANT-2); 10-cm cells."""
    if request.layer is not None or request.sound is not None:
        raise InputError("the lantern game maps only being glimpsed", where="--layer")
    unknown_switches(request)
    if request.way not in ("half", "fast"):
        raise InputError(
            f"{request.way!r}: the lantern game's ways are half, fast", where="--attitude"
        )
    step = request.resolution or 10.0
    guards = [a for a in scenario.actors if a.side is Side.DEFENDERS]
    board = LanternBoard(scenario, shipped("lantern"), guards, Board(scenario, 0.0))
    xs = np.arange(step / 2, scenario.map.width, step, dtype=np.float64)
    ys = np.arange(step / 2, scenario.map.height, step, dtype=np.float64)
    found = LanternMap(board, Attitude(request.way), step, xs, ys)
    found.chances = [[found.risk_at(float(x), float(y)) for x in xs] for y in ys]
    return found
