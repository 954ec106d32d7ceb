"""The lantern game's turn: the sneaks walk their plans (20 cm a turn fast, 10 otherwise
[R]), then each watcher raises its lantern toward each sneak (LANT-1, LANT-2), as far as its
own lantern reaches (LANT-3: the watcher's ``lantern``)."""

from __future__ import annotations

import numpy as np

from toygame_lantern.check import glimpse_check
from toygame_lantern.fields import reach_of
from vigile.awareness.ladder import AwarenessState
from vigile.awareness.vocabulary import Attitude
from vigile.dice.source import FaceSource
from vigile.engine.board import Board, distance
from vigile.engine.game import Game
from vigile.engine.result import Outcome
from vigile.engine.state import Walker
from vigile.rulesets.data import RuleData
from vigile.scene.actors import Point
from vigile.scene.model import Scenario


def move_rate(speed: Attitude) -> float:
    """How far a sneak moves in one turn at ``speed``, in cm [R]."""
    return 20.0 if speed is Attitude.FAST else 10.0


class LanternGame(Game):
    """One game of a lantern scenario, turn by turn."""

    def __init__(
        self, scenario: Scenario, rules: RuleData, rng: np.random.Generator, faces: FaceSource
    ) -> None:
        super().__init__(scenario, rules, rng, faces, Board(scenario, 0.0))

    def begin_turn(self) -> None:
        self.turn += 1
        self.emit("turn", "engine.event.turn", public=True)
        for walker in self.walkers:
            walker.moved_as = Attitude.HALF

    def step(self, intruder: Walker, to: Point, speed: Attitude) -> None:
        gap = distance(intruder.at, to)
        share = min(1.0, move_rate(speed) / gap) if gap else 1.0
        end = (
            intruder.x + (to[0] - intruder.x) * share,
            intruder.y + (to[1] - intruder.y) * share,
        )
        if self.board.blocks_walker(intruder.at, end):
            return
        intruder.x, intruder.y = end
        intruder.moved, intruder.moved_as = True, speed
        self.emit(
            "move",
            "engine.event.move",
            actor=intruder,
            at=intruder.at,
            params={"speed": speed.value},
        )

    def act(self, intruder: Walker, action: object) -> None:
        """No action of its own."""

    def finish_turn(self) -> None:
        for watcher in self.defenders():
            for sneak in self.intruders():
                verdict = self.roll(
                    glimpse_check,
                    watcher,
                    rules=self.rules,
                    distance=distance(watcher.at, sneak.at),
                    in_sight=self.board.sees(watcher.at, sneak.at),
                    fast=sneak.moved_as is Attitude.FAST,
                    reach=reach_of(watcher.actor),
                )
                self.emit(
                    "sight", "lantern.glimpse.event", actor=watcher, target=sneak, verdict=verdict
                )
                if verdict.success:
                    watcher.learn(sneak.name, AwarenessState.OBSERVED)
                    self.perceives(
                        watcher,
                        sneak,
                        AwarenessState.OBSERVED,
                        "lantern.glimpse.spotted",
                        rule="LANT-1",
                    )
                    self.ever_detected = True
                    self.outcome = Outcome("detected", self.turn, unseen=False, by=(watcher.name,))
                    return

    def move_rate(self, walker: Walker, speed: Attitude, *, run: bool = False) -> float:
        return move_rate(speed)

    def blow_reach(self, walker: Walker, *, ranged: bool) -> float:
        return 0.0

    def gm_scatter(self, members: list[Walker], degrees: float) -> None:
        """Nobody patrols: never called."""
