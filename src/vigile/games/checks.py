"""Scenario checks any game's own (its plug-in's ``scenario_issues``) may call: a side with
more actors than one check takes, a run where running is not played, and actions a round
cannot hold (LP-1, from the game's ``[actions]`` and ``[round]``). Each game's own checks live
in its package (:mod:`vigile.games.skirmish.scenario`, :mod:`vigile.games.d20.scenario`);
the scene's cross-field checks ask the game's plug-in.
"""

from __future__ import annotations

from collections import Counter

from vigile.errors import Said
from vigile.rulesets.data import RuleData, shipped
from vigile.rulesets.economy import Spent, cost_of, round_of, spend
from vigile.rulesets.limits import LIMITS
from vigile.scene.consistency import Issue, Parts
from vigile.scene.house import house_rule_issues, scenario_rules


def run_issues(parts: Parts, why: str) -> list[Issue]:
    """Each leg's ``run``, for a game that plays no running (``why``: whose rule it is). (An
    action another game plays, the game's leg model refuses, naming the game it belongs to.)"""
    return [
        (("plans", name, i, "run"), why)
        for name, legs in parts.plans.items()
        for i, leg in enumerate(legs)
        if leg is not None and leg.run
    ]


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
            spent, done = Spent(), list[Said]()
            if leg.to is not None and leg.wait == 0 and leg.to != at:
                step = "run" if leg.run else "move"
                spent = spend(allows, spent, step, cost_of(rules, step)) or spent
                done.append(Said(f"scene.spent.{step}", f"its {step} to the waypoint"))
            for k, action in enumerate(leg.actions):
                cost = cost_of(rules, action.do)
                after = spend(allows, spent, action.do, cost)
                if after is None:
                    text = (
                        f"{name!r} cannot {action.do} in the round it already spent on "
                        f"{' and '.join(done)}: {action.do} is a {cost.value} action, and a "
                        f"round gives {allows.standard} standard and {allows.move} move "
                        "action(s), or two moves, or one full-round action (LP-1); give it "
                        "a leg of its own (no 'to': it acts the next round)"
                    )
                    said = Said(
                        "scene.economy",
                        text,
                        name=name,
                        do=Said(f"scene.do.{action.do}", action.do),
                        spent=_and(done),
                        cost=Said(f"scene.cost.{cost.value}", cost.value),
                        standard=allows.standard,
                        move=allows.move,
                    )
                    found.append((("plans", name, i, "actions", k), said))
                    continue
                spent = after
                word = Said(f"scene.do.{action.do}", action.do)
                done.append(Said("scene.spent.action", action.do, do=word))
            if leg.to is not None:
                at = leg.to
    return found


def _and(items: list[Said]) -> Said:
    """``a and b and c``, each item in the reader's language."""
    joined = items[0]
    for item in items[1:]:
        joined = Said("scene.list_and", f"{joined} and {item}", head=joined, item=item)
    return joined


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
            Said(
                "scene.side_crowded",
                f"{count} {side.value}: at most {most} on one side (the observers of one check)",
                count=count,
                side=Said(f"scene.side.{side.value}", side.value),
                most=most,
            ),
        )
        for side, count in sorted(sides.items())
        if count > most
    ]
