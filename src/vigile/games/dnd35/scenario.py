"""D&D 3.5's own scenario checks (its plug-in's ``scenario_issues``)."""

from __future__ import annotations

from vigile.games.d20.scenario import d20_issues
from vigile.scene.consistency import Issue, Parts

SKILLS = ("spot", "listen", "hide", "move_silently", "blind_fight")
"""The bonuses of a D&D 3.5 creature (DD-3, DD-5, DD-20) and its Blind-Fight feat (DD-12)."""


def dnd35_issues(parts: Parts) -> list[Issue]:
    """Bonuses with D&D 3.5's skills, and no skirmish rules (:func:`d20_issues`)."""
    return d20_issues(parts, "dnd35", SKILLS)
