"""The luck game's turn: every watcher glimpses at every sneak, one d6 at the data file's
difficulty plus the sneak's luck (LUCK-1, LUCK-2); one glimpse ends the game."""

from __future__ import annotations

import numpy as np

from toygame_fields.fields import LuckFields
from vigile.awareness.ladder import AwarenessState
from vigile.awareness.vocabulary import Attitude
from vigile.checks.verdict import Modifier, Verdict
from vigile.dice.pool import pool_chance, roll_pool
from vigile.dice.source import FaceSource
from vigile.engine.board import Board
from vigile.engine.game import Game
from vigile.engine.result import Outcome
from vigile.engine.state import Walker
from vigile.rulesets.data import RuleData, from_data
from vigile.scene.actors import Point
from vigile.scene.model import Scenario

MOVE = 20.0
"""How far a sneak dashes in a turn, in cm (half of it creeping) [LUCK-1]."""


def glimpse_check(rules: RuleData, luck: int, *, source: FaceSource | None = None) -> Verdict:
    """Does the watcher glimpse the sneak? One d6 at ``glimpse.difficulty`` [LUCK-1], plus
    the sneak's luck [LUCK-2]."""
    base = from_data(rules, "glimpse.difficulty", "luck.glimpse.base", "LUCK-1", kind="base")
    lucky = Modifier(luck, "luck.glimpse.luck", "LUCK-2")
    difficulty = base.value + luck
    roll = roll_pool(1, difficulty, source) if source is not None else None
    success = None if roll is None else roll.success
    return Verdict(
        ruleset="luckgame",
        check="glimpse",
        question="luck.glimpse.question",
        chance=pool_chance(1, difficulty),
        modifiers=(base, lucky) if luck else (base,),
        difficulty=difficulty,
        dice=1,
        roll=roll,
        success=success,
        outcome=None
        if success is None
        else ("luck.glimpse.seen" if success else "luck.glimpse.not_seen"),
        state=AwarenessState.OBSERVED,
    )


class LuckGame(Game):
    def __init__(
        self, scenario: Scenario, rules: RuleData, rng: np.random.Generator, faces: FaceSource
    ) -> None:
        super().__init__(scenario, rules, rng, faces, Board(scenario, 0.0))
        self.luck = {
            actor.name: actor.luck if isinstance(actor, LuckFields) else 0
            for actor in scenario.actors
        }

    def begin_turn(self) -> None:
        self.turn += 1
        self.emit("turn", "engine.event.turn", public=True)

    def step(self, intruder: Walker, to: Point, speed: Attitude) -> None:
        """It moves straight there (the luck game has no rule of moving)."""
        intruder.x, intruder.y = float(to[0]), float(to[1])
        intruder.moved, intruder.moved_as = True, speed

    def act(self, intruder: Walker, action: object) -> None:
        """A whistle (LUCK-3) is heard by the game only: it changes nothing."""

    def move_rate(self, walker: Walker, speed: Attitude, *, run: bool = False) -> float:
        return MOVE if speed is Attitude.FAST else MOVE / 2

    def finish_turn(self) -> None:
        """Every watcher glimpses at every sneak (LUCK-1, LUCK-2); one glimpse ends it."""
        for watcher in self.defenders():
            for sneak in self.intruders():
                verdict = self.roll(
                    glimpse_check, watcher, rules=self.rules, luck=self.luck[sneak.name]
                )
                self.emit(
                    "sight", "luck.glimpse.event", actor=watcher, target=sneak, verdict=verdict
                )
                if verdict.success:
                    watcher.learn(sneak.name, AwarenessState.OBSERVED)
                    self.ever_detected = True
                    self.outcome = Outcome("detected", self.turn, unseen=False, by=(watcher.name,))
                    return
