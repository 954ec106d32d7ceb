"""The built-in games' own scenario checks (each plug-in's ``scenario_issues``).

Which actor fields, lights and rules a scenario may use depends on its game: skirmish
characters roll pools of d6 (SK-D1) and have outfits (SK-V4), scouting (SK-G3), hidden guards
(SK-G4) and day encounters (SK-S, SK-A); the d20 games use skill bonuses, need a radius for each
light, and know their own skills only. The scene's cross-field checks ask the game's plug-in.
"""

from __future__ import annotations

from collections import Counter

from vigile.games.d20.fields import is_d20
from vigile.rulesets.data import RuleData, shipped
from vigile.rulesets.economy import Spent, cost_of, round_of, spend
from vigile.rulesets.limits import LIMITS
from vigile.scene.consistency import Issue, Parts
from vigile.scene.house import house_rule_issues, scenario_rules

STARFINDER_SKILLS = ("perception", "stealth")
DND35_SKILLS = ("spot", "listen", "hide", "move_silently", "blind_fight")
D6 = 6
"""The only die skirmish rolls (SK-D1); the d20 games roll d20 and d100, the scenario's limit."""


def plan_issues(parts: Parts, *, run: bool) -> list[Issue]:
    """A leg's ``run`` where running is not played (``run`` False). (An action another game
    plays, the game's leg model refuses, naming the game it belongs to.)"""
    found: list[Issue] = []
    for name, legs in parts.plans.items():
        for i, leg in enumerate(legs):
            if leg is not None and leg.run and not run:
                found.append((("plans", name, i, "run"), "running is a d20 rule (DD-5, SF-3)"))
    return found


def skirmish_issues(parts: Parts) -> list[Issue]:
    """A skirmish scenario's dice are d6, and it does not run. (Its actors have no d20 field,
    its legs no d20 action: the skirmish's models refuse one, naming the games it belongs
    to.)"""
    found: list[Issue] = side_issues(parts)
    found += plan_issues(parts, run=False)
    for i, value in parts.dice_values:
        if not 1 <= value <= D6:
            found.append(
                (("dice_values", i), f"{value} is not a face of a d6 (1 to 6): skirmish rolls d6")
            )
    return found


def starfinder_issues(parts: Parts) -> list[Issue]:
    """Starfinder: bonuses with Starfinder's skills (SF-1, SF-4), no skirmish rules."""
    return d20_issues(parts, "starfinder", STARFINDER_SKILLS, DND35_SKILLS)


def dnd35_issues(parts: Parts) -> list[Issue]:
    """D&D 3.5: bonuses with its skills (Spot, Listen, Hide, Move Silently), no skirmish rules."""
    return d20_issues(parts, "dnd35", DND35_SKILLS, STARFINDER_SKILLS)


def d20_issues(
    parts: Parts, game: str, skills: tuple[str, ...], others: tuple[str, ...]
) -> list[Issue]:
    """What a d20 game's scenario may not say: skirmish rules, the other game's skills, a
    light without a radius, more observers than one check takes. (A skirmish field, ``dice``
    or ``outfit``, its actor model refuses, naming the field and the skirmish.)"""
    found: list[Issue] = side_issues(parts)
    found += economy_issues(parts, game)
    for i, actor in parts.actors:
        if not is_d20(actor) or actor.bonuses is None:
            continue
        for name in others:
            if name in actor.bonuses.model_fields_set:
                found.append(
                    (
                        ("actors", i, "bonuses", name),
                        f"{game} has no {name}; it uses {', '.join(skills)}",
                    )
                )
    for i, light in parts.lights:
        if light.radius is None:
            found.append((("lights", i, "radius"), f"a light needs a radius in {game}"))
    if parts.scouting is not None and parts.scouting.model_fields_set:
        found.append((("scouting",), "scouting is a skirmish rule (SK-G3)"))
    if parts.hidden_guards:
        found.append((("hidden_guards",), "hidden guards are a skirmish rule (SK-G4)"))
    if parts.encounter is not None:
        found.append((("encounter",), "day encounters are skirmish rules (SK-S, SK-A)"))
    return found


def economy_issues(parts: Parts, game: str) -> list[Issue]:
    """A waypoint whose actions one round cannot hold (LP-1): validation refuses what live play
    would (:func:`vigile.rulesets.economy.spend`, the game's ``[actions]`` and ``[round]``).

    A plan's leg acts in one round (:meth:`vigile.engine.game.Game._walk`): the round it
    arrives, after its move there (a move action; a run, the whole round), unless it waits
    first (``wait``) or is already there (no ``to``, or the waypoint where it stands); then
    every action of the leg, in order. The next leg begins the next round. So each action
    must fit what that round has left: two standard actions, or a full-round run then an
    attack, are refused, naming the action's field."""
    rules = _game_rules(game, parts)
    allows = round_of(rules)
    if allows is None:
        return []
    starts = {actor.name: actor.position for _, actor in parts.actors}
    found: list[Issue] = []
    for name, legs in parts.plans.items():
        at = starts.get(name)
        for i, leg in enumerate(legs):
            if leg is None:
                at = None  # where it stands is not known past a leg that did not validate
                continue
            spent, done = Spent(), []
            if leg.to is not None and leg.wait == 0 and leg.to != at:
                step = "run" if leg.run else "move"
                spent = spend(allows, spent, step, cost_of(rules, step)) or spent
                done.append(f"its {step} to the waypoint")
            for k, action in enumerate(leg.actions):
                cost = cost_of(rules, action.do)
                after = spend(allows, spent, action.do, cost)
                if after is None:
                    found.append(
                        (
                            ("plans", name, i, "actions", k),
                            f"{name!r} cannot {action.do} in the round it already spent on "
                            f"{' and '.join(done)}: {action.do} is a {cost.value} action, and a "
                            f"round gives {allows.standard} standard and {allows.move} move "
                            "action(s), or two moves, or one full-round action (LP-1); give it "
                            "a leg of its own (no 'to': it acts the next round)",
                        )
                    )
                    continue
                spent = after
                done.append(action.do)
            if leg.to is not None:
                at = leg.to
    return found


def _game_rules(game: str, parts: Parts) -> RuleData:
    """The game's numbers with the scenario's house rules, where those are valid (else the
    house rules' own issues are reported, and the shipped numbers are read)."""
    if house_rule_issues(game, parts.house_rules):
        return shipped(game)
    return scenario_rules(game, parts.house_rules)


def side_issues(parts: Parts) -> list[Issue]:
    """A side with more actors than one check takes as observers (``max_observers``): refused
    here, in the scenario's words, rather than half-way through the game."""
    sides = Counter(actor.side for _, actor in parts.actors)
    most = LIMITS.max_observers
    return [
        (
            ("actors",),
            f"{count} {side.value}: at most {most} on one side (the observers of one check)",
        )
        for side, count in sorted(sides.items())
        if count > most
    ]
