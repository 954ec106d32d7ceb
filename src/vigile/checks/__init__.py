"""The result tree every ruleset returns: modifiers, notes, the chance, the roll, the verdict."""

from vigile.checks.verdict import Line, Modifier, Verdict

__all__ = ["Line", "Modifier", "Verdict"]
