"""D&D 3.5 invisibility (RULES.md §3, DD-1..DD-21): Spot, Listen, Hide, groping and attacks.

Each check returns a :class:`~vigile.checks.verdict.Verdict` with its exact chance; the rules
that need no dice are small functions in :mod:`vigile.rulesets.dnd35.traits`. Numbers live in
``rules.toml``; companion rules ([C]) are switched there, in ``[companion]``.
"""

from vigile.rulesets.dnd35.attack import (
    Square,
    attack_check,
    attack_roll_check,
    attack_square_check,
    grope_check,
)
from vigile.rulesets.dnd35.awareness import reached
from vigile.rulesets.dnd35.common import skill_bonus, untrained_bonus
from vigile.rulesets.dnd35.hide import HideSpeed, Size, hide_check
from vigile.rulesets.dnd35.listen import Listener, ListenSpeed, listen_all_check, listen_check
from vigile.rulesets.dnd35.spot import SpotTarget, footprints_check, spot_check

__all__ = [
    "HideSpeed",
    "ListenSpeed",
    "Listener",
    "Size",
    "SpotTarget",
    "Square",
    "attack_check",
    "attack_roll_check",
    "attack_square_check",
    "footprints_check",
    "grope_check",
    "hide_check",
    "listen_all_check",
    "listen_check",
    "reached",
    "skill_bonus",
    "spot_check",
    "untrained_bonus",
]
