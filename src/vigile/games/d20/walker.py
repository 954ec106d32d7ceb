"""What a d20 game keeps of each creature beyond the shared walker: an invisibility cast or
ended in play (DD-1, SF-7).

:class:`~vigile.games.d20.round.D20Game` names :class:`D20Walker` as its
:attr:`~vigile.engine.game.Game.walker_type`, so every walker of a d20 game is one; its state
travels with the game (live play's checkpoints pickle it, an undo copies it).
"""

from __future__ import annotations

from dataclasses import dataclass

from vigile.engine.state import Walker


@dataclass
class D20Walker(Walker):
    """One creature of a d20 game during play."""

    invisible: bool | None = None
    """Invisible from now on (True: it cast invisibility; False: it ended it, or attacked), over
    its actor's ``invisible``; None: as the scenario says (DD-1, SF-7)."""


def d20_walker(walker: Walker) -> D20Walker:
    """``walker`` as a d20 creature in play; a TypeError for another game's walker (a d20
    rule read on it is a bug, not a default)."""
    if not isinstance(walker, D20Walker):
        raise TypeError(f"{walker.name!r} is not a d20 game's walker ({type(walker).__name__})")
    return walker
