"""Starfinder's own scenario checks (its plug-in's ``scenario_issues``)."""

from __future__ import annotations

from vigile.games.d20.scenario import d20_issues
from vigile.scene.consistency import Issue, Parts

SKILLS = ("perception", "stealth")
"""The bonuses of a Starfinder creature (SF-1, SF-4)."""


def starfinder_issues(parts: Parts) -> list[Issue]:
    """Bonuses with Starfinder's skills, and no skirmish rules (:func:`d20_issues`)."""
    return d20_issues(parts, "starfinder", SKILLS)
