"""The action economy of a d20 round (LP-1): what each action costs and what a round allows.

RULES.md LP-1: in the d20 games a round gives each creature a standard action and a move
action (or two move actions, or one full-round action such as a run or a double move);
listening (DD-5) is free once a round; every other action costs what the game's rules give
it. The numbers live in each game's data file:

* ``[actions]``: each action's cost, one of :class:`Cost` (``standard``, ``move``, ``full``,
  ``free``), by the name live play gives it (a move's ``do``, ``run`` for a running move);
* ``[round]``: what a round allows, ``standard`` and ``move`` actions, whether a move may
  be taken instead of the standard action (``move_for_standard``: the double move), and in
  ``[round.free_once]`` the free actions allowed only once a round.

A game without these tables (the skirmish) keeps its own turn: :func:`round_of` gives None.
The one function that says whether an action fits is :func:`spend`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum

from vigile.rulesets.data import RuleData


class Cost(StrEnum):
    """What an action takes out of a round (LP-1)."""

    STANDARD = "standard"
    MOVE = "move"
    FULL = "full"
    """The whole round: only with nothing else spent, and nothing but free actions after."""
    FREE = "free"


COSTS: tuple[str, ...] = tuple(cost.value for cost in Cost)
"""The words ``[actions]`` takes."""


@dataclass(frozen=True)
class RoundAllows:
    """What one round allows each creature (LP-1, ``[round]``)."""

    standard: int = 1
    move: int = 1
    move_for_standard: bool = True
    """A move action may be taken instead of the standard action (the double move)."""
    free_once: frozenset[str] = frozenset()
    """Free actions allowed once a round (DD-5: listening)."""


@dataclass(frozen=True)
class Spent:
    """What a creature has spent of its round so far."""

    standard: int = 0
    move: int = 0
    full: bool = False
    free: frozenset[str] = field(default_factory=frozenset)


def left(allows: RoundAllows, spent: Spent) -> tuple[int, int]:
    """The standard and move actions still open this round (LP-1): a move taken beyond the
    round's moves used the standard action; a full-round action used everything."""
    if spent.full:
        return 0, 0
    extra_moves = max(0, spent.move - allows.move)
    standard = max(0, allows.standard - spent.standard - extra_moves)
    move = max(0, allows.move - spent.move) + (standard if allows.move_for_standard else 0)
    return standard, move


def spend(allows: RoundAllows, spent: Spent, action: str, cost: Cost) -> Spent | None:
    """What is spent after ``action`` (costing ``cost``), or None when the round has no room
    for it [LP-1]: a standard action needs the standard action unused; a move, a move action
    or (the double move) the standard one; a full-round action, nothing spent yet; a free
    action, nothing, unless it is one allowed once a round and was already taken."""
    standard, move = left(allows, spent)
    if cost is Cost.FREE:
        if action in allows.free_once:
            if action in spent.free:
                return None
            return replace(spent, free=spent.free | {action})
        return spent
    if cost is Cost.FULL:
        if spent.full or spent.standard or spent.move:
            return None
        return replace(spent, standard=allows.standard, move=allows.move, full=True)
    if cost is Cost.STANDARD:
        return replace(spent, standard=spent.standard + 1) if standard > 0 else None
    return replace(spent, move=spent.move + 1) if move > 0 else None


def round_of(rules: RuleData) -> RoundAllows | None:
    """What a round allows in this game (``[round]``), or None where the game keeps its own
    turn (no ``[round]`` table: the skirmish)."""
    try:
        standard = rules.num("round.standard")
    except KeyError:
        return None
    once = frozenset(
        key.removeprefix("round.free_once.")
        for key in rules.keys("round.free_once.")
        if rules.flag(key)
    )
    return RoundAllows(
        standard=standard,
        move=rules.num("round.move"),
        move_for_standard=rules.flag("round.move_for_standard"),
        free_once=once,
    )


def cost_of(rules: RuleData, action: str) -> Cost:
    """What ``action`` costs in this game (``[actions]``) [LP-1]; an action the data does not
    name costs a standard action [R]."""
    try:
        return Cost(rules.word(f"actions.{action}"))
    except KeyError:
        return Cost.STANDARD
