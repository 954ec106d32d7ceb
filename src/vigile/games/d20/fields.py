"""The d20 games' own actor fields (the Starfinder and D&D 3.5 plug-ins' ``actor_fields``):
what a d20 creature carries beside the fields every game's actors share
(:mod:`vigile.scene.actors`).

A d20 scenario's actors validate with these too (:mod:`vigile.scene.games`); a skirmish
scenario that writes one is refused, naming the field and the games it belongs to. The d20
modules read them through :func:`d20_actor` (a TypeError for another game's actor); code that
may meet any game's actor asks :func:`is_d20` first, never assumes the fields exist.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, TypeGuard

from pydantic import BaseModel, Field

from vigile.rulesets.limits import LIMITS
from vigile.scene.actors import MAX_BONUS, MODEL_CONFIG, Actor, Bonus

if TYPE_CHECKING:
    from vigile.scene.model import Scenario


GAME_SKILLS = ("perception", "stealth", "spot", "listen", "hide", "move_silently", "blind_fight")
"""The fields of :class:`D20Stats` one d20 game uses and another does not: each game's scenario
checks name those it uses (:func:`vigile.games.d20.scenario.d20_issues`)."""


class D20Stats(BaseModel):
    """Skill bonuses and defences of a Starfinder or D&D 3.5 creature (total modifiers)."""

    model_config = MODEL_CONFIG

    perception: Bonus | None = None
    """Starfinder Perception bonus (SF-4)."""
    stealth: Bonus | None = None
    """Starfinder Stealth bonus, armor check penalty included (SF-1)."""
    spot: Bonus | None = None
    """D&D 3.5 Spot bonus (DD-3)."""
    listen: Bonus | None = None
    """D&D 3.5 Listen bonus (DD-5)."""
    hide: Bonus | None = None
    """D&D 3.5 Hide bonus, size modifier included (DD-20)."""
    move_silently: Bonus | None = None
    """D&D 3.5 Move Silently bonus; absent: the creature rolls Dexterity (DD-5)."""
    dex: Bonus = 0
    """Dexterity modifier (the roll of a creature without Move Silently ranks, DD-5)."""
    armor_check_penalty: Annotated[int, Field(ge=-MAX_BONUS, le=0)] = 0
    """Armor check penalty, 0 or less (SF-1, DD-5)."""
    touch_ac: Annotated[int, Field(ge=0, le=LIMITS.max_ac)] = 10
    """Touch Armor Class, for groping (DD-6)."""
    attack: Bonus = 0
    """Melee attack bonus: groping touch attacks (DD-6) and attack rolls (DD-21, SF-9)."""
    ac: Annotated[int, Field(ge=0, le=LIMITS.max_ac)] | None = None
    """Armor Class against attack rolls (DD-21, SF-9). Absent: the round plays no attack roll
    against this creature; the GM says hit or miss, which the round's blows take as a hit
    (``blow.hits_without_ac``) when the miss chance does not stop them (LP-7 [R])."""
    hp: Annotated[int, Field(ge=1, le=10_000)] | None = None
    """Its hit points (LP-7: optional). Absent: the GM keeps the damage, a hit downs nobody
    (one blow ends the encounter only where ``blow.ends_encounter`` says so)."""
    damage: Annotated[int, Field(ge=1, le=1000)] | None = None
    """The damage each of its hits deals, a fixed number (LP-7 [R]: no damage roll): taken
    from a target with ``hp``, which is down at 0 or less. Absent: its hits deal none."""
    blind_fight: bool = False
    """Has the Blind-Fight feat (DD-14)."""
    reach: Annotated[int, Field(ge=0, le=1000)] = 5
    """Its reach in feet (5 for a Medium creature): struck by it while it is invisible, one
    learns only its direction when the reach is over 5 ft (DD-7)."""
    sneak_attack: Annotated[int, Field(ge=0, le=20)] = 0
    """D&D 3.5: sneak attack dice (+Nd6). Against an invisible target they do not apply (DD-2);
    against one denied its Dexterity bonus by the attacker's invisibility they do (DD-21 [C])."""
    favored_enemy: Annotated[int, Field(ge=0, le=20)] = 0
    """D&D 3.5: a ranger's favored enemy bonus to damage against this game's enemies; against
    an invisible target it does not apply (DD-2)."""
    flour: Annotated[int, Field(ge=0, le=100)] = 0
    """D&D 3.5: handfuls of flour it may throw at where it perceived an invisible intruder
    (DD-10)."""
    light: Annotated[int, Field(ge=0, le=1000)] = 0
    """The radius in feet of a lit light it carries (a torch: 20); 0: none. Invisible, the light
    still shines (DD-16)."""


class D20Fields(BaseModel):
    """A Starfinder or D&D 3.5 creature's own fields: its bonuses, its invisibility and the
    states the d20 rules read."""

    model_config = MODEL_CONFIG

    bonuses: D20Stats | None = None
    """Skill bonuses and defences."""
    invisible: bool = False
    """Invisible (SF-7, DD-1)."""
    ethereal: bool = False
    """Ethereal: invisible, and no sense but see-invisible locates it (DD-17)."""
    incorporeal: bool = False
    """Incorporeal: scent, blindsight and Blind-Fight do not work on it (DD-17)."""
    breathing: bool = True
    """False for constructs and undead (DD-3: Spot DC 40 when immobile)."""
    distracted: bool = False
    """D&D 3.5: a distracted listener or spotter (DD-3 −5 Spot, DD-5 +5 DC)."""
    asleep: bool = False
    """D&D 3.5: an asleep listener (−10 to Listen, DD-5)."""


class D20Actor(Actor, D20Fields):
    """What a d20 scenario's actor is, to the type checker: the shared fields and
    :class:`D20Fields`. The actors themselves are the games' models
    (:func:`vigile.scene.model.item_models`), subclasses of both; :func:`is_d20` tells."""


def is_d20(actor: Actor) -> TypeGuard[D20Actor]:
    """Whether ``actor`` carries the d20 fields (an actor of a Starfinder or D&D 3.5
    scenario)."""
    return isinstance(actor, D20Fields)


def d20_actor(actor: Actor) -> D20Actor:
    """``actor`` as a d20 creature; a TypeError for another game's actor (a d20 rule read on
    it is a bug, not a default)."""
    if not is_d20(actor):
        raise TypeError(f"{actor.name!r} is not a d20 game's actor ({type(actor).__name__})")
    return actor


def d20_actors(scenario: Scenario) -> list[D20Actor]:
    """A d20 scenario's actors as d20 creatures (:func:`d20_actor`)."""
    return [d20_actor(actor) for actor in scenario.actors]
