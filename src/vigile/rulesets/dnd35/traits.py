"""The rules of invisibility that need no dice: small pure functions, each with its reason.

DD-2 (extra damage), DD-7 (struck by an invisible creature), DD-10 (objects and flour), DD-11
(tracks), DD-13 (scent), DD-16 (light), DD-17 (ethereal, incorporeal), DD-18 (gaze), DD-19
(divination), DD-21 (the invisible attacker's +2). Each returns its answer with the
:class:`~vigile.checks.verdict.Line` that explains it; the senses themselves live in
:mod:`vigile.rulesets.senses`.

Rulings of this project where the seed is silent (proposals for RULES.md), their numbers in
``rules.toml``:

- [R] DD-1: an observer who watched an intruder vanish (it cast invisibility) keeps its square
  until it moves, then only its presence (as a blow's square, DD-7).
- [R] DD-10: a handful of flour is thrown, with no roll, at a point within ``flour.range_ft``
  (10 ft); it covers an invisible creature within ``flour.burst_ft`` (5 ft) of that point,
  and every awake sighted observer with a line of sight within ``objects.sight_ft`` (60 ft)
  then knows its square (total concealment stays, DD-8) "constantly" (the seed's
  "constamment"), as long as the flour stays on it: until it enters a liquid (DD-12: the flour
  washes off). [R] Nothing else makes it fall by default: the seed's "jusqu'à ce que la farine
  tombe ou soit emportée par un courant d'air" names no time, and the scenarios have no
  draught; a group may set ``flour.rounds`` (0 by default: no limit) to make it fall after so
  many rounds.
- [R] DD-11: an invisible creature that moves on soft ground leaves fresh footprints there as
  it goes, which "risque de les trahir" (may betray it): an awake sighted observer with a line
  of sight within ``tracks.range_ft`` (30 ft; 0 switches it off) that no other sign shows its
  square makes a Spot check against ``tracks.spot_dc`` (10), with Spot's own distance and
  distraction modifiers; success shows its square that round
  (:func:`vigile.rulesets.dnd35.spot.footprints_check`), failure nothing.
- [R] DD-16: at night, an invisible creature carrying a lit light is given away by it: an
  awake sighted observer with a line of sight knows its square (the light's source), the
  creature itself still unseen. By day a carried light shows nothing.
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


def attacker_reach(*, reach_ft: int, adjacent: bool, distance_ft: float) -> float:
    """The reach a blow shows [DD-7]: the attacker's own (``reach_ft``, 5 ft for a Medium
    creature), or, from beyond the adjacent squares, the distance it struck from."""
    return float(reach_ft) if adjacent else max(float(reach_ft), distance_ft)


def vanished() -> tuple[AwarenessState, Line]:
    """An observer who saw a creature become invisible [DD-1, R]: it no longer sees it, but
    knows the square it vanished in until it moves (``location``)."""
    return AwarenessState.LOCATION, Line("dnd35.traits.vanishes", "DD-1")


def pinpoint_lost(cause: str) -> tuple[AwarenessState, Line]:
    """A creature pinpointed moved: its square is lost (LP-2: a square found by any means is
    where the creature *was*). ``cause`` is the rule that gave the square: Spot beating its DC
    by 20 (DD-4), Listen beating it by 20 (DD-5), scent (DD-13), groping (DD-6), its blow
    (DD-7), watching it vanish (DD-1), flour (DD-10), footprints (DD-11), its light (DD-16).

    A square heard, spotted or smelled leaves the direction the character last perceived
    (``direction``, the way to that old square) and it must listen, spot or grope again
    (LP-2). [R] One the character was shown for the moment (groped, struck, a sign) leaves it
    knowing only that something is there (``presence``), as when the attacker moves at once
    (DD-7).
    """
    if cause in ("DD-4", "DD-5", "DD-13"):
        return AwarenessState.DIRECTION, Line("dnd35.traits.located_lost", cause)
    if cause == "DD-7":
        return AwarenessState.PRESENCE, Line("dnd35.traits.struck.lost", "DD-7")
    if cause == "DD-6":
        return AwarenessState.PRESENCE, Line("dnd35.traits.groped.lost", "DD-6")
    return AwarenessState.PRESENCE, Line("dnd35.traits.sign_lost", cause)


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


FLOUR_STAYS = -1
"""The rounds left of flour that stays until it falls (``flour.rounds`` 0) [DD-10, R]."""


def flour_rounds(rules: RuleData) -> int:
    """The rounds a fresh covering of flour shows the creature [DD-10, R]: ``flour.rounds``,
    or, with 0 (the default), :data:`FLOUR_STAYS`: as long as it stays on it (the seed:
    "constamment ... jusqu'à ce que la farine tombe")."""
    rounds = int(rules.num("flour.rounds"))
    return rounds if rounds > 0 else FLOUR_STAYS


def flour_after_round(rounds_left: int, *, wet: bool) -> int:
    """The rounds the flour still shows the creature after a round [DD-10, DD-12 R]: none
    once it has been in a liquid (washed off); flour that stays (:data:`FLOUR_STAYS`) stays;
    else one round fewer (0: it fell)."""
    if wet:
        return 0
    if rounds_left == FLOUR_STAYS:
        return FLOUR_STAYS
    return max(0, rounds_left - 1)


def flour_covers(rules: RuleData, *, throw_ft: float, miss_ft: float) -> tuple[bool, Line]:
    """Does a handful of flour, thrown ``throw_ft`` away at a point ``miss_ft`` from the
    invisible creature, cover it? [DD-10, R] Within ``flour.range_ft`` only, and the creature
    within ``flour.burst_ft`` of the point; no roll."""
    if throw_ft > rules.num("flour.range_ft"):
        return False, Line(
            "dnd35.traits.flour.out_of_range", "DD-10", {"range": rules.num("flour.range_ft")}
        )
    if miss_ft > rules.num("flour.burst_ft"):
        return False, Line("dnd35.traits.flour.missed", "DD-10")
    rounds = flour_rounds(rules)
    if rounds == FLOUR_STAYS:
        return True, Line("dnd35.traits.flour.covers_until_it_falls", "DD-10")
    return True, Line("dnd35.traits.flour.covers", "DD-10", {"rounds": rounds})


def seen_object(rules: RuleData, *, distance_ft: float) -> bool:
    """Is a visible object (flour, a thing picked up) seen at ``distance_ft``? [DD-10, R]
    Within ``objects.sight_ft``, by an awake sighted observer with a line of sight."""
    return distance_ft <= rules.num("objects.sight_ft")


def footprints_left(*, soft_ground: bool, moved: bool) -> bool:
    """Does an invisible creature leave fresh footprints this round, that an observer may see?
    [DD-11, R] On soft ground, where it moved: then a Spot check
    (:func:`vigile.rulesets.dnd35.spot.footprints_check`) says whether they betray it."""
    return soft_ground and moved


def footprints_in_range(rules: RuleData, *, distance_ft: float) -> bool:
    """Is an observer ``distance_ft`` away near enough to check for the footprints? [DD-11, R]
    Within ``tracks.range_ft``; never when it is 0 (footprints switched off)."""
    range_ft = rules.num("tracks.range_ft")
    return range_ft > 0 and distance_ft <= range_ft


def carried_light(*, light_ft: int, night: bool) -> tuple[AwarenessState, Line] | None:
    """What a lit light carried by an invisible creature gives away [DD-16, R]: at night its
    square (the source of the light, which still shines); by day, or without a light, nothing."""
    if light_ft <= 0:
        return None
    if not night:
        return None
    return AwarenessState.LOCATION, Line(
        "dnd35.traits.light.carried", "DD-16", {"radius": light_ft}
    )


def sign_shown(
    rules: RuleData,
    *,
    distance_ft: float,
    night: bool,
    conditions: Iterable[Condition] = (Condition.INVISIBLE,),
    visible_object: bool = False,
    light_ft: int = 0,
    moved: bool = False,
) -> tuple[AwarenessState, Line] | None:
    """What shows an invisible creature's square for certain to an awake sighted observer with
    a line of sight ``distance_ft`` away, that does not see invisible creatures; None when
    nothing does.

    In this order: a visible object on it, flour or a thing it picked up (DD-10, within
    ``objects.sight_ft`` [R]); a lit light it carries, at night (DD-16 [R]); the liquid it
    moves through, within Spot's ``spot.range_ft`` (DD-12). Its footprints on soft ground are
    no certainty (DD-11 [R]): where nothing here shows the square, the caller asks
    :func:`footprints_left` and rolls :func:`vigile.rulesets.dnd35.spot.footprints_check`.
    The turn engine and ``vigile check dnd35 signs`` both ask here.
    """
    found = tuple(conditions)
    if visible_object and seen_object(rules, distance_ft=distance_ft):
        return flour_reveals()
    light = carried_light(light_ft=light_ft, night=night)
    if light is not None:
        return light
    if moved and Condition.IN_LIQUID in found and distance_ft <= rules.num("spot.range_ft"):
        seen = reach(Sense.SIGHT, found)
        return seen.state, seen.line
    return None


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


def extra_damage_lines(
    *, sneak_attack: int, favored_enemy: int, invisible_target: bool, denied_dex: bool
) -> tuple[Line, ...]:
    """The attacker's extra damage on a hit, where a rule decides it [DD-2, DD-21 C].

    Against an invisible target, neither sneak attack nor a favored enemy's bonus applies
    (DD-2). Otherwise sneak attack applies against a target denied its Dexterity bonus to AC,
    as the invisible attacker's target is (DD-21 [C]), and a favored enemy's bonus applies.
    Critical hits are noted on the natural 20 (:func:`vigile.rulesets.dnd35.attack_roll_check`).
    """
    lines: list[Line] = []
    if sneak_attack:
        if invisible_target:
            lines.append(
                Line("dnd35.traits.damage.sneak_attack_spared", "DD-2", {"dice": sneak_attack})
            )
        elif denied_dex:
            lines.append(
                Line(
                    "dnd35.traits.damage.sneak_attack_applies",
                    "DD-21",
                    {"dice": sneak_attack},
                    True,
                )
            )
    if favored_enemy:
        key = "favored_enemy_spared" if invisible_target else "favored_enemy_applies"
        lines.append(Line(f"dnd35.traits.damage.{key}", "DD-2", {"bonus": favored_enemy}))
    return tuple(lines)


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
