"""The d20 attack roll both d20 games share: d20 + the attack bonus against an armor class, a
natural 1 always missing and a natural 20 always hitting [DD-6, DD-8, SF-9].

D&D 3.5's attack rolls and the grope's touch attack [DD-6 C] and Starfinder's attack roll
[SF-9] read the rule here: which modifiers make the armor class and which the roll's bonus,
the face the d20 needs, and whether a face hits. Its exact chance is
:func:`vigile.dice.d20.attack_hit_chance`, which counts the same faces.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Final

from vigile.checks.verdict import Figures, Modifier
from vigile.dice.d20 import attack_hit_chance

__all__ = ["NATURAL_HIT", "NATURAL_MISS", "AttackRoll"]

NATURAL_HIT: Final = 20
"""The d20 face that always hits [DD-6, SF-9]."""
NATURAL_MISS: Final = 1
"""The d20 face that always misses [DD-6, SF-9]."""


@dataclass(frozen=True)
class AttackRoll:
    """An attack roll's two sides: the armor class to meet and the roll's bonus."""

    ac: int
    """The armor class: the sum of the modifiers that are not the roll's."""
    bonus: int
    """The attack bonus: the sum of the modifiers of kind ``die``."""

    @classmethod
    def of(cls, modifiers: Iterable[Modifier], *, least_ac: int | None = None) -> AttackRoll:
        """The roll of a check's modifiers: those of kind ``die`` are the bonus, the others the
        armor class, raised to ``least_ac`` when given (Starfinder's: never below 0)."""
        listed = tuple(modifiers)
        ac = sum(m.value for m in listed if m.kind != "die")
        bonus = sum(m.value for m in listed if m.kind == "die")
        return cls(ac if least_ac is None else max(least_ac, ac), bonus)

    @property
    def need(self) -> dict[str, int]:
        """The params of the rule's note: the armor class, the bonus and the face it needs."""
        return {"ac": self.ac, "bonus": self.bonus, "target": self.ac - self.bonus}

    @property
    def chance(self) -> Fraction:
        """The exact chance to hit (:func:`~vigile.dice.d20.attack_hit_chance`)."""
        return attack_hit_chance(self.bonus, self.ac)

    def hits(self, face: int) -> bool:
        """Does the d20's ``face`` hit? A natural 20 always, a natural 1 never, another face when
        it and the bonus meet the armor class [DD-6, SF-9]."""
        return face == NATURAL_HIT or (face != NATURAL_MISS and face + self.bonus >= self.ac)

    def figures(self, face: int) -> Figures:
        """The verdict's figures once ``face`` is rolled: the armor class and the total."""
        return Figures(dc=self.ac, result=face + self.bonus)
