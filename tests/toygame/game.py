"""The toy game's turn: the sneaks walk their plans, then every watcher glimpses at every
sneak within range and in sight (TOY-1, TOY-2); one glimpse ends the game.

Each hook of :class:`vigile.engine.game.TurnHooks` is filled here: the turn as vigile plays
it (``begin_turn``, ``step``, ``act``, ``finish_turn``; ``play_turn`` is the engine's), and
what live play asks (``move_rate``, ``blow_reach``, ``gm_scatter``). A glimpse is logged
with :meth:`~vigile.engine.game.Game.perceives`: what ``vigile simulate`` counts.
"""

from __future__ import annotations

import numpy as np

from toygame.check import glimpse_check
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

MOVE_CM = 20.0
"""How far a sneak goes in a turn at full speed, in cm; half of it at any other [R]."""


def move_rate(speed: Attitude) -> float:
    """How far a sneak moves in one turn at ``speed`` (the risk map's route reads it too)."""
    return MOVE_CM if speed is Attitude.FAST else MOVE_CM / 2


class ToyGame(Game):
    """One game of a toy scenario, turn by turn."""

    def __init__(
        self, scenario: Scenario, rules: RuleData, rng: np.random.Generator, faces: FaceSource
    ) -> None:
        super().__init__(scenario, rules, rng, faces, Board(scenario, 0.0))

    def begin_turn(self) -> None:
        """A new turn: nobody patrols in the toy game."""
        self.turn += 1
        self.emit("turn", "engine.event.turn", public=True)

    def step(self, intruder: Walker, to: Point, speed: Attitude) -> None:
        """Walk straight toward ``to``, at most a turn's rate; a wall in the way stops it."""
        gap = distance(intruder.at, to)
        share = min(1.0, self.move_rate(intruder, speed) / gap) if gap else 1.0
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
        """The toy game has no action of its own: a plan's actions change nothing."""

    def finish_turn(self) -> None:
        """Every watcher glimpses at every sneak (TOY-1, TOY-2); one glimpse ends it."""
        for watcher in self.defenders():
            for sneak in self.intruders():
                verdict = self.roll(
                    glimpse_check,
                    watcher,
                    rules=self.rules,
                    distance=distance(watcher.at, sneak.at),
                    in_sight=self.board.sees(watcher.at, sneak.at),
                )
                self.emit(
                    "sight", "toy.glimpse.event", actor=watcher, target=sneak, verdict=verdict
                )
                if verdict.success:
                    watcher.learn(sneak.name, AwarenessState.OBSERVED)
                    self.perceives(
                        watcher, sneak, AwarenessState.OBSERVED, "toy.glimpse.spotted", rule="TOY-1"
                    )
                    self.ever_detected = True
                    self.outcome = Outcome("detected", self.turn, unseen=False, by=(watcher.name,))
                    return

    def move_rate(self, walker: Walker, speed: Attitude, *, run: bool = False) -> float:
        return move_rate(speed)

    def blow_reach(self, walker: Walker, *, ranged: bool) -> float:
        """The toy game has no blow: none reaches."""
        return 0.0

    def gm_scatter(self, members: list[Walker], degrees: float) -> None:
        """Nobody patrols in the toy game (``patrol_of`` is empty, so live play refuses a
        scatter before it comes here): nothing moves."""
