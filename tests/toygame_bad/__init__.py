"""Two plug-ins that break the contract, for ``tests/test_fourth_game.py``: ``thief``, whose
message file overwrites a core message, and ``silent``, whose game catches a sneak without
logging the perception (:meth:`vigile.engine.game.Game.perceives`) that ``simulate`` counts."""

from __future__ import annotations

from toygame.game import ToyGame
from vigile.awareness.ladder import AwarenessState
from vigile.engine.result import Outcome

__all__ = ["SilentGame"]


class SilentGame(ToyGame):
    """The toy game's turn, but a glimpse is only an awareness, never a logged perception."""

    def finish_turn(self) -> None:
        for watcher in self.defenders():
            for sneak in self.intruders():
                if self.rng.random() < 1 / 3:
                    watcher.learn(sneak.name, AwarenessState.OBSERVED)
                    self.ever_detected = True
                    self.outcome = Outcome("detected", self.turn, unseen=False, by=(watcher.name,))
                    return
