"""What D&D 3.5 keeps of each creature beyond the d20 walker: the flour thrown on it (DD-10).

:class:`~vigile.games.dnd35.round.Dnd35Game` names :class:`Dnd35Walker` as its
:attr:`~vigile.engine.game.Game.walker_type`.
"""

from __future__ import annotations

from dataclasses import dataclass

from vigile.engine.state import Walker
from vigile.games.d20.walker import D20Walker


@dataclass
class Dnd35Walker(D20Walker):
    """One creature of a D&D 3.5 game during play."""

    floured: int = 0
    """Rounds the flour thrown on it still shows it (DD-10); 0: none; -1: until it falls."""


def dnd35_walker(walker: Walker) -> Dnd35Walker:
    """``walker`` as a D&D 3.5 creature in play; a TypeError for another game's walker."""
    if not isinstance(walker, Dnd35Walker):
        raise TypeError(f"{walker.name!r} is not a D&D 3.5 walker ({type(walker).__name__})")
    return walker
