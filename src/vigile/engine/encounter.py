"""Day encounters of the skirmish game: a shadowing played round by round, or an ambush.

By day everyone sees everyone (SK-S1); these encounters are the exceptions the rules cover:
following someone through a crowd or the countryside (SK-S2..SK-S4) and walking into an ambush
(SK-A1..SK-A5). Each round of shadowing, the follower rolls to keep up, then the followed rolls
to notice (a round in which the follower fumbled makes that easier, SK-S2). The game ends when
the follower loses the trail or is noticed, or after the encounter's rounds. An ambush is one
roll per target, not pooled (SK-A2).
"""

from __future__ import annotations

from vigile.awareness.ladder import AwarenessState
from vigile.engine.result import Outcome
from vigile.engine.skirmish import SkirmishGame
from vigile.engine.state import Walker
from vigile.rulesets.skirmish.ambush import ambush_check
from vigile.rulesets.skirmish.common import Roller
from vigile.rulesets.skirmish.shadow import Task, shadow_check
from vigile.scene.actors import SHADOWING_SKILLS
from vigile.scene.encounters import Ambush, Shadowing


def shadowing_pool(walker: Walker) -> int:
    """Dice for shadowing: the best of ninjitsu, espionage and shadowing (SK-D1, SK-S3)."""
    return max(walker.actor.pool(skill) for skill in SHADOWING_SKILLS)


class EncounterGame(SkirmishGame):
    """A skirmish scenario whose ``encounter`` is a day shadowing or an ambush."""

    def play_turn(self) -> None:
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
        follow = shadow_check(
            self.rules,
            task=Task.FOLLOW,
            setting=encounter.setting,
            target_hiding=encounter.followed_hiding,
            target=encounter.followed_mount,
            untrained=not follower.actor.trained_at_shadowing(),
            roller=Roller(shadowing_pool(follower)),
            source=self.faces,
        )
        self.emit("shadow", "engine.event.follow", actor=follower, target=followed, verdict=follow)
        if follow.success is False:
            self.outcome = Outcome("lost", self.turn, unseen=True, by=follower.name)
            return
        follower.learn(followed.name, AwarenessState.OBSERVED)
        fumbled = follow.roll is not None and follow.roll.fumble
        notice = shadow_check(
            self.rules,
            task=Task.NOTICE,
            setting=encounter.setting,
            follower=encounter.follower_mount,
            discreet=encounter.follower_discreet,
            alert=followed.alert,
            untrained=not followed.actor.trained_at_shadowing(),
            follower_fumbled=fumbled and encounter.setting.value == "crowd",
            roller=Roller(shadowing_pool(followed)),
            source=self.faces,
        )
        self.emit("shadow", "engine.event.notice", actor=followed, target=follower, verdict=notice)
        if notice.success:
            followed.learn(follower.name, AwarenessState.OBSERVED)
            self.ever_detected = True
            self.outcome = Outcome("detected", self.turn, unseen=False, by=followed.name)
        elif self.turn >= encounter.rounds:
            self.outcome = Outcome("objective", self.turn, unseen=True, by=follower.name)

    def _ambush(self, encounter: Ambush) -> None:
        ambushers = [self.by_name[n] for n in encounter.ambushers]
        targets = [self.by_name[n] for n in encounter.targets]
        verdict = ambush_check(
            self.rules,
            setting=encounter.setting,
            ambushers=len(ambushers),
            targets=len(targets),
            all_ninjas=all(a.actor.ninja for a in ambushers),
            alert=all(t.alert for t in targets),
            party=[t.actor.ambush_levels() for t in targets],
            cover=encounter.cover,
            source=self.faces,
        )
        self.emit(
            "ambush",
            "engine.event.ambush",
            actor=targets[0],
            target=ambushers[0],
            verdict=verdict,
            perceived_by={t.name for t in targets},
            params={
                "targets": ", ".join(t.name for t in targets),
                "ambushers": ", ".join(a.name for a in ambushers),
            },
        )
        if verdict.success:
            self.ever_detected = True
            self.outcome = Outcome("detected", self.turn, unseen=False, by=targets[0].name)
        else:
            self.outcome = Outcome(
                "objective", self.turn, unseen=True, by=", ".join(a.name for a in ambushers)
            )
