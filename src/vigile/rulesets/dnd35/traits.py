"""The rules of invisibility that need no dice: small pure functions, each with its reason.

DD-2 (extra damage), DD-7 (struck by an invisible creature), DD-10 (objects and flour), DD-11
(tracks), DD-13 (scent), DD-16 (light), DD-17 (ethereal, incorporeal), DD-18 (gaze), DD-19
(divination), DD-21 (the invisible attacker's +2). Each returns its answer with the
:class:`~vigile.checks.verdict.Line` that explains it; the senses themselves live in
:mod:`vigile.rulesets.senses`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from enum import StrEnum

from vigile.awareness.ladder import AwarenessState
from vigile.checks.numbers import quoted
from vigile.checks.verdict import Line, Modifier
from vigile.errors import InputError
from vigile.rulesets.data import RuleData, from_data
from vigile.rulesets.dnd35.common import companion
from vigile.rulesets.senses import Condition, Sense, reach

SQUARE_FT = 5
"""A square's side: reach beyond it gives away only the attacker's direction (DD-7)."""


class ExtraDamage(StrEnum):
    """Damage beyond the blow that invisibility may or may not stop (DD-2)."""

    CRITICAL = "critical"
    SNEAK_ATTACK = "sneak-attack"
    FAVORED_ENEMY = "favored-enemy"


def extra_damage_applies(kind: ExtraDamage) -> tuple[bool, Line]:
    """Does ``kind`` of extra damage apply to an invisible creature? [DD-2]

    Invisibility gives no immunity to critical hits, but protects against sneak attacks and
    a favored enemy's extra damage.
    """
    applies = kind is ExtraDamage.CRITICAL
    key = kind.value.replace("-", "_")
    return applies, Line(f"dnd35.traits.damage.{key}", "DD-2")


def struck_by_invisible(
    rules: RuleData,
    *,
    reach_ft: float = SQUARE_FT,
    ranged: bool = False,
    moved_at_once: bool = False,
) -> tuple[AwarenessState, Line]:
    """What a character struck by an invisible creature learns [DD-7].

    It knows where the attacker is (``location``), unless the attacker has reach over 5 ft,
    which gives away only its ``direction`` ([C] so does a ranged attacker). [R] If the attacker
    moves at once, the character is left knowing only that something is there (``presence``).
    """
    if not math.isfinite(reach_ft) or reach_ft < 0:
        raise InputError(f"{reach_ft} is not a reach (0 or more feet)", where="reach")
    if moved_at_once:
        return AwarenessState.PRESENCE, Line("dnd35.traits.struck.moved", "DD-7")
    if reach_ft > SQUARE_FT:
        return AwarenessState.DIRECTION, Line(
            "dnd35.traits.struck.reach", "DD-7", {"reach": quoted(reach_ft), "square": SQUARE_FT}
        )
    if ranged and companion(rules, "ranged_gives_direction"):
        return AwarenessState.DIRECTION, Line("dnd35.traits.struck.ranged", "DD-7", companion=True)
    return AwarenessState.LOCATION, Line("dnd35.traits.struck.located", "DD-7")


def pinpoint_lost(*, by_blow: bool) -> tuple[AwarenessState, Line]:
    """A creature pinpointed by groping (DD-6) or by its blow (DD-7) moved: its square is lost.

    [R] The character still knows that something is there (``presence``), as when the attacker
    moves at once (DD-7).
    """
    if by_blow:
        return AwarenessState.PRESENCE, Line("dnd35.traits.struck.lost", "DD-7")
    return AwarenessState.PRESENCE, Line("dnd35.traits.groped.lost", "DD-6")


def carried_object_visible(
    *, picked_up_visible: bool, tucked_away: bool = False
) -> tuple[bool, Line]:
    """Is an object carried by an invisible creature visible? [DD-10]

    A visible object it picks up stays visible, unless small enough to be tucked away (in a
    pocket, in the folds of an invisible cloak), where it vanishes. Its own gear is invisible.
    """
    if not picked_up_visible:
        return False, Line("dnd35.traits.object.own_gear", "DD-10")
    if tucked_away:
        return False, Line("dnd35.traits.object.tucked_away", "DD-10")
    return True, Line("dnd35.traits.object.stays_visible", "DD-10")


def flour_reveals(*, flour_fallen: bool = False) -> tuple[AwarenessState, Line]:
    """Flour on an invisible object shows where it is, until the flour falls [DD-10]."""
    if flour_fallen:
        return AwarenessState.UNAWARE, Line("dnd35.traits.flour.fallen", "DD-10")
    return AwarenessState.LOCATION, Line("dnd35.traits.flour.reveals", "DD-10")


def tracks(*, soft_ground: bool = False) -> tuple[bool, Line]:
    """Invisible creatures leave tracks and can be tracked normally [DD-11].

    Always trackable; on soft ground (sand, mud) the tracks may betray them.
    """
    key = "soft_ground" if soft_ground else "normal"
    return True, Line(f"dnd35.traits.tracks.{key}", "DD-11")


def scent_tracks(conditions: Iterable[Condition] = (Condition.INVISIBLE,)) -> tuple[bool, Line]:
    """Can a creature with scent track this target as if it were visible? [DD-13, DD-17]"""
    found = reach(Sense.SCENT, conditions)
    return not found.blocked, found.line


def blind_fight_works(
    conditions: Iterable[Condition] = (Condition.INVISIBLE,),
) -> tuple[bool, Line]:
    """Does Blind-Fight help against this target? [DD-14, DD-17]

    Not against an ethereal or an incorporeal creature.
    """
    found = frozenset(conditions)
    if Condition.ETHEREAL in found:
        return False, Line("dnd35.traits.blind_fight.ethereal", "DD-17")
    if Condition.INCORPOREAL in found:
        return False, Line("dnd35.traits.blind_fight.incorporeal", "DD-17")
    return True, Line("dnd35.traits.blind_fight.works", "DD-14")


def light_source(*, lit: bool) -> tuple[bool, Line]:
    """Does an invisible light source still give light? [DD-16]

    A lit invisible torch, or an invisible object under a light spell, still gives light.
    """
    key = "lit" if lit else "unlit"
    return lit, Line(f"dnd35.traits.light.{key}", "DD-16")


def gaze_attack_allowed(*, invisible: bool) -> tuple[bool, Line]:
    """Can the creature use a gaze attack? [DD-18] Not while invisible."""
    if invisible:
        return False, Line("dnd35.traits.gaze.invisible", "DD-18")
    return True, Line("dnd35.traits.gaze.visible", "DD-18")


def divination_works(conditions: Iterable[Condition] = (Condition.INVISIBLE,)) -> tuple[bool, Line]:
    """Does a divination spell (detection magic, see invisibility) work on the target? [DD-19]"""
    found = reach(Sense.DIVINATION, conditions)
    return not found.blocked, found.line


def invisible_attacker(
    rules: RuleData, *, defender_sees_invisible: bool = False
) -> tuple[tuple[Modifier, ...], tuple[Line, ...]]:
    """What an invisible attacker gains against an opponent who can't see it [DD-21 [C]].

    +2 on attack rolls and the opponent loses its Dexterity bonus to AC. Nothing against one
    who sees invisible creatures, nor with the companion rule switched off.
    """
    if defender_sees_invisible:
        return (), (Line("dnd35.traits.attacker.seen", "DD-21", companion=True),)
    if not companion(rules, "invisible_attacker"):
        return (), ()
    bonus = from_data(
        rules,
        "attack.invisible_attacker",
        "dnd35.traits.attacker.bonus",
        "DD-21",
        kind="die",
        companion=True,
    )
    return (bonus,), (Line("dnd35.traits.attacker.no_dex", "DD-21", companion=True),)
