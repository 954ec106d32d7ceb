"""The toy game's turn: every watcher glimpses at every sneak; one glimpse ends the game."""

from __future__ import annotations

import numpy as np

from toygame.check import glimpse_check
from vigile.awareness.ladder import AwarenessState
from vigile.dice.source import FaceSource
from vigile.engine.board import Board
from vigile.engine.game import Game
from vigile.engine.result import Outcome
from vigile.rulesets.data import RuleData
from vigile.scene.model import Scenario


class ToyGame(Game):
    def __init__(
        self, scenario: Scenario, rules: RuleData, rng: np.random.Generator, faces: FaceSource
    ) -> None:
        super().__init__(scenario, rules, rng, faces, Board(scenario, 0.0))

    def play_turn(self) -> None:
        self.turn += 1
        self.emit("turn", "engine.event.turn", public=True)
        for watcher in self.defenders():
            for sneak in self.intruders():
                verdict = self.roll(glimpse_check, watcher, rules=self.rules)
                self.emit(
                    "sight", "toy.glimpse.event", actor=watcher, target=sneak, verdict=verdict
                )
                if verdict.success:
                    watcher.learn(sneak.name, AwarenessState.OBSERVED)
                    self.ever_detected = True
                    self.outcome = Outcome("detected", self.turn, unseen=False, by=(watcher.name,))
                    return
