"""The roll of a verdict as a tree: every die with its size and every face it showed.

As avrae's d20 expression tree, a roll keeps all it rolled, not only what counted::

    Roll                      the check's dice, whether they did their job, whose dice they were
    └── Die (sides, role)     one die: a d6 of a pool, a d20, a d%
        └── Face (value, status)
                              every face it showed, in order: a six chained into another roll
                              (SK-D3), a d20 rolled again to settle a tie (DD-20), a miss chance
                              rolled again with Blind-Fight (DD-14), or rolled and not used

A face's ``status`` says what became of it: ``kept`` (it counts), ``chained`` (a six rolled on:
the die goes on, SK-D3), ``rerolled`` (replaced by the die's next face) or ``dropped`` (rolled,
then not used). The renderers in :mod:`vigile.io` walk the tree; nothing here is text.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

FaceStatus = Literal["kept", "chained", "rerolled", "dropped"]
DieStatus = Literal["kept", "rerolled", "dropped"]


@dataclass(frozen=True)
class Face:
    """One face a die showed."""

    value: int
    """The number on the die (1..sides)."""
    status: FaceStatus = "kept"
    """``kept``: it counts; ``chained``: a six rolled on (SK-D3); ``rerolled``: replaced by the
    die's next face; ``dropped``: rolled, then not used."""


@dataclass(frozen=True)
class Die:
    """One die of a roll: its size, every face it showed, and whether it did its job."""

    sides: int
    """6, 20 or 100 (a d%)."""
    rolled: tuple[Face, ...]
    """Every face in order, rerolled and dropped ones too."""
    success: bool
    """Whether this die did its job (reached its target, spared the blow, won the contest)."""
    role: str | None = None
    """What the die is for, where a roll mixes dice (``touch_attack``, ``miss_chance``,
    ``move_silently``, ``listen``, ``guard``, ``intruder``); None for a plain pool die."""

    @property
    def faces(self) -> tuple[int, ...]:
        """The values of every face, in order: ``(6, 6)`` is a six rolled again into a six."""
        return tuple(face.value for face in self.rolled)

    @property
    def status(self) -> DieStatus:
        """``dropped`` when no face was used, ``rerolled`` when the die's last face was rolled
        again (by another die: Blind-Fight's second d%), otherwise ``kept``."""
        last = self.rolled[-1].status if self.rolled else "dropped"
        if last == "dropped":
            return "dropped"
        return "rerolled" if last == "rerolled" else "kept"


@dataclass(frozen=True)
class Roll:
    """The dice of one check: each die with all its faces, the roll's success, whose dice."""

    dice: tuple[Die, ...]
    success: bool
    """Whether the roll did what the check asks (the same as the verdict's success)."""
    given: bool
    """True when the faces were the GM's own dice (``--dice-values``)."""

    @property
    def fumble(self) -> bool:
        """Every d6 showed 1 on its first face [SK-D4]."""
        return bool(self.dice) and all(d.sides == 6 and d.faces[0] == 1 for d in self.dice)

    @property
    def faces(self) -> tuple[int, ...]:
        """Every face of every die, in the order the dice are listed."""
        return tuple(f for die in self.dice for f in die.faces)


def single(sides: int, value: int, success: bool, role: str | None = None) -> Die:
    """A die rolled once, its face kept."""
    return Die(sides, (Face(value),), success, role)


def rerolled(sides: int, values: Sequence[int], success: bool, role: str | None = None) -> Die:
    """A die rolled again until settled: every face but the last is ``rerolled``."""
    last = len(values) - 1
    return Die(
        sides,
        tuple(Face(v, "kept" if i == last else "rerolled") for i, v in enumerate(values)),
        success,
        role,
    )
