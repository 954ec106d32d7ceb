"""Rulesets: each game's rules as code over the numbers of its data file."""

RULESETS = ("skirmish", "starfinder", "dnd35")
