"""Starfinder: Stealth against Perception, invisibility and attacks on the unseen (RULES.md §2).

Modules: :mod:`.stealth` (the hide check, SF-1..SF-7, SF-10), :mod:`.attack` (miss chance and
flat-footed, SF-8, SF-9), :mod:`.awareness` (the four states of awareness, SF-5, SF-11).
Numbers come from ``rules.toml``; a house-rule file overrides them.
"""

from vigile.rulesets.senses import Sense
from vigile.rulesets.starfinder.attack import attack_check, attack_roll_check, flat_footed
from vigile.rulesets.starfinder.awareness import (
    StateChange,
    adjacent_melee_attack,
    can_attack,
    is_unseen,
    location_lost,
    noticed_state,
    observer_outcome,
    perception_success,
    ranged_attack_from_unseen,
    refused_outcome,
    state_chances_after,
    unseen_effects,
    vanished,
)
from vigile.rulesets.starfinder.common import RULESET, Ruling
from vigile.rulesets.starfinder.stealth import (
    Concealment,
    DcMod,
    Observer,
    Speed,
    hide_check,
    is_immobile,
    lost_cover_on_the_way,
    may_stay_hidden,
    notice_chance,
    parse_dc_mod,
    stealth_modifiers,
)

__all__ = [
    "RULESET",
    "Concealment",
    "DcMod",
    "Observer",
    "Ruling",
    "Sense",
    "Speed",
    "StateChange",
    "adjacent_melee_attack",
    "attack_check",
    "attack_roll_check",
    "can_attack",
    "flat_footed",
    "hide_check",
    "is_immobile",
    "is_unseen",
    "location_lost",
    "lost_cover_on_the_way",
    "may_stay_hidden",
    "notice_chance",
    "noticed_state",
    "observer_outcome",
    "parse_dc_mod",
    "perception_success",
    "ranged_attack_from_unseen",
    "refused_outcome",
    "state_chances_after",
    "stealth_modifiers",
    "unseen_effects",
    "vanished",
]
