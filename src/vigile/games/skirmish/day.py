"""Day encounters of the skirmish game: a shadowing played round by round, or an ambush.

By day everyone sees everyone (SK-S1); these encounters are the exceptions the rules cover:
following someone through a crowd or the countryside (SK-S2..SK-S4) and walking into an ambush
(SK-A1..SK-A5).

A round of shadowing, in order:

1. the follower rolls to keep up (SK-S2, SK-S4);
2. the followed character rolls to notice the follower, unless the trail is already lost. In
   a crowd, a round in which the follower fumbled (every die a 1, SK-D4) makes that roll
   easier (``shadow.crowd_notice_fumbled``, SK-S2, SK-S5);
3. the encounter ends when the follower is noticed ("detected"), when it lost the trail
   ("lost"), or after the encounter's rounds ("objective": followed unseen).

Rulings where the text is silent [R]:

- [R] The follow roll comes first, the notice roll second, in the same round: the fumble of
  this round's follow roll is what makes this round's notice roll easier ("elle pourra le
  détecter ce round là", SK-S5).
- [R] A failed follow roll loses the trail and ends the encounter, with no notice roll: no one
  follows any more. A fumbled follow roll in a crowd is a failed roll too (a double 1 never
  reaches 4+), yet SK-S5 gives the followed character a notice roll in that round: so a
  fumbled follow roll still loses the trail, but only after the notice roll; noticed beats
  lost (the outcome is "detected").
- [R] The fumble rule is a crowd rule (SK-S2). In the countryside (SK-S4 says nothing of it)
  a fumbled follow roll is a plain failed one: the trail is lost.

An ambush is one roll per target, not pooled (SK-A2): each target rolls its own die with its
own skills and its own alert (the actor's ``alert``; SK-A3: −1 difficulty in the countryside,
SK-A4: +1 to the die in town). The party detects the ambush if any one target does (SK-A2
[R]); then both sides act at once, else the ambushers act first (SK-A5): each ambusher's first
action is logged, a public event ("tir ou mouvement/combat").

- [R] The engine plays no combat (as in SK-G5): it says who acts first and what, and stops. Each
  ambusher acts against the nearest target (the first listed on a tie): a move and melee when
  that target is within one fast move of it (``turn.fast_cm``, or its own ``move``), else a
  shot. Detected, the party's event says that both sides act at once, and no one acts first.

A check noticing a follower or an ambush is a perception check: a character's own view shows
it only when it succeeds (see :mod:`vigile.io.views`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

from vigile.checks.verdict import Verdict
from vigile.dice.source import FaceSource
from vigile.engine.board import distance
from vigile.engine.result import Outcome
from vigile.engine.state import Walker
from vigile.games.skirmish.fields import skirmish_actor
from vigile.games.skirmish.raid import SkirmishGame, given_state
from vigile.games.skirmish.rollers import shadowing_roller
from vigile.rulesets.data import RuleData
from vigile.rulesets.skirmish.ambush import ambush_check
from vigile.rulesets.skirmish.movement import turn_rate
from vigile.rulesets.skirmish.shadow import Setting, Task, shadow_check
from vigile.rulesets.skirmish.sight import Attitude
from vigile.scene.actors import Side
from vigile.scene.encounters import Ambush, Shadowing
from vigile.scene.model import Scenario


def follow_inputs(encounter: Shadowing, follower: Walker) -> dict[str, Any]:
    """The follower's roll, as ``shadow_check``'s inputs (SK-S2..SK-S5): the engine's and the
    day kernel's."""
    return {
        "task": Task.FOLLOW,
        "setting": encounter.setting,
        "target_hiding": encounter.followed_hiding,
        "target": encounter.followed_mount,
        "untrained": not skirmish_actor(follower.actor).trained_at_shadowing(),
        "roller": shadowing_roller(follower.actor),
    }


def notice_inputs(encounter: Shadowing, followed: Walker, *, fumbled: bool) -> dict[str, Any]:
    """The followed character's roll to notice the follower, as ``shadow_check``'s inputs
    (``fumbled``: the follower fumbled this round and the fumble counts, :func:`fumble_counts`)."""
    return {
        "task": Task.NOTICE,
        "setting": encounter.setting,
        "follower": encounter.follower_mount,
        "discreet": encounter.follower_discreet,
        "alert": followed.alert,
        "untrained": not skirmish_actor(followed.actor).trained_at_shadowing(),
        "follower_fumbled": fumbled,
        "roller": shadowing_roller(followed.actor),
    }


def fumble_counts(encounter: Shadowing) -> bool:
    """[R] Whether a fumbled follow roll is a fumble: the fumble rule is a crowd rule (SK-S2);
    in the countryside (SK-S4) it is a plain failed roll (and the rule refuses the flag)."""
    return encounter.setting is Setting.CROWD


def ambush_inputs(encounter: Ambush, ambushers: list[Walker], target: Walker) -> dict[str, Any]:
    """A target's roll to spot the ambush, as ``ambush_check``'s inputs (SK-A1..SK-A4): each
    target with its own skills and alert (SK-A2: not pooled)."""
    return {
        "setting": encounter.setting,
        "ambushers": len(ambushers),
        "targets": len(encounter.targets),
        "all_ninjas": all(skirmish_actor(a.actor).ninja for a in ambushers),
        "alert": target.alert,
        "party": [skirmish_actor(target.actor).ambush_levels()],
        "cover": encounter.cover,
    }


class EncounterGame(SkirmishGame):
    """A skirmish scenario whose ``encounter`` is a day shadowing or an ambush."""

    def begin_turn(self) -> None:
        """Nothing comes before the round: the encounter's rolls are its whole turn."""

    def knows_who(self, viewer: Walker, other: Walker) -> bool:
        """By day everyone sees everyone (SK-S1): the follower or the ambusher knows whom it
        follows or waits for; the other side knows it once it noticed it (LP-5)."""
        return viewer.side is Side.ATTACKERS or super().knows_who(viewer, other)

    def finish_turn(self) -> None:
        encounter = self.scenario.encounter
        self.turn += 1
        self.emit("turn", "engine.event.turn", public=True)
        if isinstance(encounter, Shadowing):
            self._shadow_round(encounter)
        elif isinstance(encounter, Ambush):
            self._ambush(encounter)

    def _shadow_round(self, encounter: Shadowing) -> None:
        follower = self.by_name[encounter.follower]
        followed = self.by_name[encounter.followed]
        follow = self.roll(
            shadow_check, follower, rules=self.rules, **follow_inputs(encounter, follower)
        )
        self.emit("shadow", "engine.event.follow", actor=follower, target=followed, verdict=follow)
        fumbled = follow.roll is not None and follow.roll.fumble and fumble_counts(encounter)
        lost = follow.success is False
        if lost and not fumbled:
            self.outcome = Outcome("lost", self.turn, unseen=True, by=(follower.name,))
            return
        if not lost:
            follower.learn(followed.name, given_state(follow))
        notice = self.roll(
            shadow_check,
            followed,
            rules=self.rules,
            **notice_inputs(encounter, followed, fumbled=fumbled),
        )
        self.emit("notice", "engine.event.notice", actor=followed, target=follower, verdict=notice)
        if notice.success:
            state = given_state(notice)
            followed.learn(follower.name, state)
            self.emit(
                "perceive",
                "engine.day.notices",
                actor=followed,
                target=follower,
                params={"state": state.value},
            )
            self.ever_detected = True
            self.outcome = Outcome("detected", self.turn, unseen=False, by=(followed.name,))
        elif lost:
            self.outcome = Outcome("lost", self.turn, unseen=True, by=(follower.name,))
        elif self.turn >= encounter.rounds:
            self.outcome = Outcome("objective", self.turn, unseen=True, by=(follower.name,))

    def _ambush(self, encounter: Ambush) -> None:
        ambushers = [self.by_name[n] for n in encounter.ambushers]
        targets = [self.by_name[n] for n in encounter.targets]
        names = ", ".join(a.name for a in ambushers)
        spotted_by: list[str] = []
        for target in targets:
            verdict = self.roll(
                ambush_check,
                target,
                rules=self.rules,
                **ambush_inputs(encounter, ambushers, target),
            )
            if len(targets) > 1:
                verdict = _without_sequel(verdict)
            self.emit(
                "ambush",
                "engine.day.watch_ambush",
                actor=target,
                target=ambushers[0],
                verdict=verdict,
                params={"ambushers": names},
            )
            if verdict.success:
                state = given_state(verdict)
                spotted_by.append(target.name)
                for ambusher in ambushers:
                    target.learn(ambusher.name, state)
                self.emit(
                    "perceive",
                    "engine.day.spots_ambush",
                    actor=target,
                    target=ambushers[0],
                    params={"ambushers": names, "state": state.value},
                )
        params = {"targets": ", ".join(t.name for t in targets), "ambushers": names}
        if spotted_by:
            self.ever_detected = True
            self.emit("ambush", "engine.day.ambush_detected", public=True, params=params)
            self.outcome = Outcome("detected", self.turn, unseen=False, by=tuple(spotted_by))
        else:
            self.emit("ambush", "engine.day.ambush_sprung", public=True, params=params)
            for ambusher in ambushers:
                self._act_first(ambusher, targets)
            self.outcome = Outcome(
                "objective", self.turn, unseen=True, by=tuple(a.name for a in ambushers)
            )

    def _act_first(self, ambusher: Walker, targets: list[Walker]) -> None:
        """An undetected ambusher acts first (SK-A5): a move and melee on the nearest target
        if one fast move reaches it, else a shot at it [R]."""
        target = min(targets, key=lambda t: distance(ambusher.at, t.at))
        gap = distance(ambusher.at, target.at)
        reach = turn_rate(self.rules, Attitude.FAST, ambusher.actor.move)
        how = "melee" if gap <= reach else "shot"
        self.emit(
            "action",
            f"engine.day.acts_first_{how}",
            actor=ambusher,
            target=target,
            at=target.at,
            public=True,
        )


def _without_sequel(verdict: Verdict) -> Verdict:
    """One target's verdict without who acts first: with several targets, that depends on the
    whole party (SK-A2, SK-A5), and the party's event says it."""
    return replace(verdict, notes=tuple(n for n in verdict.notes if not n.sequel))


def game_for(
    scenario: Scenario, rules: RuleData, rng: np.random.Generator, faces: FaceSource
) -> SkirmishGame:
    """The skirmish game of a scenario: a day encounter (shadowing, ambush) or a night raid."""
    if scenario.encounter is not None:
        return EncounterGame(scenario, rules, rng, faces)
    return SkirmishGame(scenario, rules, rng, faces)
