"""The result tree every ruleset returns: modifiers, notes, the chance, the roll, the verdict."""

from vigile.checks.verdict import Figures, Line, Modifier, Opposed, Verdict
from vigile.dice.roll import Die, Face, Roll

__all__ = ["Die", "Face", "Figures", "Line", "Modifier", "Opposed", "Roll", "Verdict"]
