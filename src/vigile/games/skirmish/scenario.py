"""The skirmish's own scenario checks (its plug-in's ``scenario_issues``): its characters roll
pools of d6 (SK-D1), and it plays no running. (Its actors have no d20 field and its legs no
d20 action: the skirmish's models refuse one, naming the games it belongs to.)"""

from __future__ import annotations

from vigile.errors import Said
from vigile.games.checks import run_issues, side_issues
from vigile.scene.consistency import Issue, Parts

D6 = 6
"""The only die the skirmish rolls (SK-D1)."""


def skirmish_issues(parts: Parts) -> list[Issue]:
    """A skirmish scenario's dice are d6, and it does not run."""
    found: list[Issue] = side_issues(parts)
    found += run_issues(parts, Said("scene.skirmish_run", "running is a d20 rule (DD-5, SF-3)"))
    for i, value in parts.dice_values:
        if not 1 <= value <= D6:
            text = f"{value} is not a face of a d6 (1 to 6): skirmish rolls d6"
            found.append((("dice_values", i), Said("scene.skirmish_face", text, value=value)))
    return found
