"""The skirmish turn: patrols, plans, noise, sight, detection and the alarm (RULES.md §1).

Each turn, in order:

1. patrolling guards move by scatter die, a group as one (SK-G1: the die and the move are the
   ruleset's, :mod:`vigile.rulesets.skirmish.patrol`; each patrol event cites the rule);
2. each intruder walks its plan. A move faster than half speed rolls the pool for a fumble, and
   so does each action meant to be silent: opening or closing a door, climbing, a strike, a
   killing blow in melee (SK-N3); a fumble is a noise. On arrival (after any wait) it acts:
   grapple, kill, strike, speak, open or close a door; a kill or a strike beyond
   ``alarm.strike_reach_cm`` (a shot: ``alarm.shot_range_cm``, in a line of sight) where the
   guard stands now is not made, nor its fumble roll (LP-7). Every noise is checked at once by each
   living defender who is not watching its maker, seen and in his sight now (SK-N1..SK-N7,
   LP-4). One who hears knows
   the direction (SK-N10), is not on alert for it (unless the house rule ``alert_on_noise``),
   and turns round: he sees the maker only by the sight rules, measured to the maker and with a
   line of sight (SK-N10, SK-V1..SK-V9);
3. the guards who talk (a scenario's ``talks``) converse: each living intruder, whatever it
   knows of a speaker, tests to overhear it (SK-N7, the roles of the noise rules reversed,
   :mod:`vigile.rulesets.skirmish.eavesdrop`); one who does knows its direction;
4. every living guard tests sight on every intruder a test is allowed for (SK-V1..SK-V9), the
   intruder's attitude being what it did this turn (:func:`seen_attitude`); a target lit by
   one of the scenario's lights says which (SK-G2, SK-V5). Then the roles are reversed
   (SK-G3, SK-G4): each living intruder tests sight on each living guard whose position it
   does not know (:meth:`knows_where`): guards it did not scout, or hidden ones;
5. each guard who detected an intruder this turn, in the order of detection, raises the alarm
   (SK-G5): only an intruder within striking reach gets an initiative roll; if he wins he
   strikes (a round of melee, a noise for every other listener) and silences the guard (a
   death, a noise); otherwise the guard cries. The cry is heard by each defender on alert, and
   by any other unless his die shows 1 (SK-N7); those who hear it are on alert from then on.
   The game goes on, unless the scenario says the alarm ends it;
6. the objective is checked.

Every check rolls the character's pool in the relevant skill, one die when untrained (SK-D1,
:mod:`vigile.games.skirmish.rollers`); the verdict says so, and where the target number calls
for a chain of sixes or succeeds without a roll (SK-D3).

Rulings of the engine where the texts are silent, each a proposal for RULES.md:

* [R] A noise is "out of sight" for a listener unless he has seen its maker and has it in his
  sight now, by the sight rules where it stands (LP-4,
  :func:`~vigile.rulesets.skirmish.noise.checks_noise`).
* [R] The listener who hears turns round at once: a sight test on the maker where it stands at
  the moment of the noise. The turn's own sight test (step 3) still follows; one failed glance
  does not blind a guard for the turn.
* [R] Detections are resolved (initiative, cry) at the end of the turn, after the sight tests,
  in the order they happened; reach is measured then.
* [R] A killing blow in melee (``kill`` not ``ranged``) is a strike for SK-N3: it rolls for a
  fumble. A climb rolls once, on the climbing leg's first step. The strike of an intruder who
  wins the initiative rolls no fumble: it is a round of melee, already a noise (SK-N2).
* [R] A struck guard (a ``strike`` action) sees his attacker.
* [R] Discovering a guard (SK-G3, SK-G4) is a sight test by the same rules with the roles
  reversed: the intruder's detection pool and alert, its line of sight, the guard's lights and
  outfit. The guard's attitude: one who moved this turn (a patrol) is in motion at half speed
  (a patrol's 10 cm is below the half-speed rate); one who did not is immobile, or hidden in
  cover when the scenario shows it ``attitude: hidden`` and it stands in cover.
* [R] A discovery is the discoverer's alone: its allies do not learn it (telling them is a
  speech, a noise, which a plan says with a ``speak`` action). An intruder who strikes or kills
  a guard knows where that guard is. A guard found in play is in the intruder's awareness
  (observed), not in ``knows_position``, which stays what it knew at the start (scouting): its
  character view says "known positions at the start", then each discovery as it happens.
* [R] Eavesdropping (SK-N7) comes after the intruders' moves and before the sight tests; it
  changes what an intruder knows (the speaker's direction), never what anyone does, so the
  simulator's schedule skips it (the rulings: :mod:`vigile.rulesets.skirmish.eavesdrop`).
* [R] The plans stay fixed: a discovery changes what the intruder knows (its view), never
  what it does; the engine does not re-plan. So the compiled kernel, which records the
  intruders' side once, is unaffected (:mod:`vigile.games.skirmish.schedule`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import partial

import numpy as np

from vigile.awareness.ladder import AwarenessState
from vigile.checks.numbers import quoted
from vigile.checks.verdict import Verdict
from vigile.dice.source import FaceSource
from vigile.engine.board import Board, Point, distance
from vigile.engine.game import Game
from vigile.engine.result import Outcome
from vigile.engine.state import Walker
from vigile.games.skirmish.actions import ThrowGrapple
from vigile.games.skirmish.fields import skirmish_actor
from vigile.games.skirmish.rollers import detection_roller, stealth_roller
from vigile.games.skirmish.steps import (
    AlarmStep,
    ConversationStep,
    FumbleStep,
    KillStep,
    NoiseStep,
    PatrolStep,
    SightStep,
    Step,
    StrikeStep,
)
from vigile.rulesets.data import RuleData
from vigile.rulesets.skirmish.alarm import (
    alarm_check,
    striker_knows,
    struck_guard_sees,
    within_reach,
)
from vigile.rulesets.skirmish.barriers import barrier_rules
from vigile.rulesets.skirmish.eavesdrop import RULE as EAVESDROP_RULE
from vigile.rulesets.skirmish.eavesdrop import may_overhear, overhear_check
from vigile.rulesets.skirmish.movement import Speed, move_check, rolls_for_fumble, turn_rate
from vigile.rulesets.skirmish.noise import (
    NoiseEvent,
    Surface,
    checks_noise,
    death_surface,
    heard_puts_on_alert,
    noise_check,
)
from vigile.rulesets.skirmish.patrol import RULE as PATROL_RULE
from vigile.rulesets.skirmish.patrol import patrol_move, scatter_die
from vigile.rulesets.skirmish.sight import Attitude, patrol_attitude, seen_attitude, sight_check
from vigile.scene.actors import GuardState, Outfit, Side
from vigile.scene.geometry import KindRule, lit_by
from vigile.scene.model import Scenario
from vigile.scene.plans import CloseDoor, Kill, OpenDoor, Speak, Strike


def given_state(verdict: Verdict) -> AwarenessState:
    """The awareness state a successful perception check gives (RULES.md §4): its rule's, on
    the verdict (``sight_check``, ``shadow_check``, ``ambush_check``: observed). A success that
    names none is a ruleset's bug, not a state to guess."""
    if verdict.state is None:
        raise ValueError(f"a successful {verdict.check} check names no awareness state")
    return verdict.state


def skirmish_board(scenario: Scenario, rules: RuleData) -> Board:
    """The board with the skirmish ruleset's barrier rules and light radius (SK-V5, SK-V6)."""
    kinds = {
        kind: KindRule(rule.blocks_sight, rule.counts_for_noise, rule.blocks_movement)
        for kind, rule in barrier_rules(rules).items()
    }
    return Board(scenario, rules.num("sight.lit_radius_cm"), kinds)


class SkirmishGame(Game):
    """One game of a skirmish scenario, played turn by turn."""

    def __init__(
        self, scenario: Scenario, rules: RuleData, rng: np.random.Generator, faces: FaceSource
    ) -> None:
        super().__init__(scenario, rules, rng, faces, skirmish_board(scenario, rules))
        self.detected: list[tuple[str, str]] = []
        """(guard, intruder) pairs detected this turn, in order, for the alarm."""
        self.resolved: set[tuple[str, str]] = set()
        self.alarm_turn: int | None = None
        """The turn the alarm was first raised."""
        self._start()

    # ---------------------------------------------------------------- setup and queries

    def _start(self) -> None:
        scouting = self.scenario.scouting
        hidden = set(self.scenario.hidden_guards)
        if scouting.detected_while_scouting:
            for guard in self.defenders():
                guard.alert = True
        for intruder in self.intruders():
            if scouting.observed_beforehand:
                intruder.knows_position |= {
                    g.name for g in self.defenders() if g.name not in hidden
                }
            if intruder.actor.attitude is not None and not intruder.legs:
                intruder.moved_as = intruder.actor.attitude  # as the scenario shows it
        self.emit(
            "start",
            "engine.event.start",
            public=True,
            params={
                "name": self.scenario.name,
                "turns": self.scenario.turns,
                "scouted": "yes" if scouting.observed_beforehand else "no",
                "alert": "yes" if scouting.detected_while_scouting else "no",
            },
        )

    # ---------------------------------------------------------------- live play

    def move_rate(self, walker: Walker, speed: Attitude, *, run: bool = False) -> float:
        return turn_rate(self.rules, speed, walker.actor.move)

    def hiding_needs_cover(self) -> bool:
        return True  # SK-V3: hidden is in cover

    def rule_of(self, topic: str) -> str | None:
        # LP-1: the skirmish keeps its own turn, one move at its attitude's rate
        rules = {"walls": "SK-G1", "attitudes": "SK-V3", "patrol": "SK-G1", "movement": "LP-1"}
        return rules.get(topic)

    def patrol_of(self, defender: Walker) -> list[Walker]:
        """The living guards of ``defender``'s patrol group, itself included (SK-G1: a group
        moves as one); empty for a posted guard."""
        if defender.actor.state is not GuardState.PATROLLING:
            return []
        group = defender.actor.group or defender.name
        return [
            g
            for g in self.defenders()
            if g.actor.state is GuardState.PATROLLING and (g.actor.group or g.name) == group
        ]

    def gm_scatter(self, members: list[Walker], degrees: float) -> None:
        """The patrol moves as the scatter die the GM typed shows (SK-G1, LP-6)."""
        self._patrol(members, math.radians(degrees))

    def gm_search(self, defender: Walker, point: Point) -> None:
        """The guard looks at ``point`` (LP-6 [R]): a sight test (SK-V1..SK-V9) from where he
        stands on each intruder he does not observe within ``orders.search_radius_cm`` of it."""
        radius = float(self.rules.num("orders.search_radius_cm"))
        self.emit(
            "action",
            "live.event.search",
            actor=defender,
            at=point,
            perceived_by=self._allies(defender),
        )
        for intruder in self.intruders():
            near = distance(intruder.at, point) <= radius
            if near and defender.aware_of(intruder.name) is not AwarenessState.OBSERVED:
                self._look(defender, intruder, "engine.event.sees")

    def gm_alarm(self, defender: Walker) -> None:
        """The guard cries the alarm (SK-G5, SK-N7; LP-6): heard as any alarm cry."""
        self._cry(defender, None)

    def blow_reach(self, walker: Walker, *, ranged: bool) -> float:
        """LP-7: a melee blow reaches ``alarm.strike_reach_cm`` (SK-G5 [R]); a shot
        ``alarm.shot_range_cm`` [R], in a line of sight (SK-V6)."""
        return float(self.rules.num("alarm.shot_range_cm" if ranged else "alarm.strike_reach_cm"))

    # ---------------------------------------------------------------- the turn

    def begin_turn(self) -> None:
        """Step 1: a new turn, and the patrols."""
        self.turn += 1
        self.emit("turn", "engine.event.turn", public=True)
        self.detected = []
        for walker in self.walkers:
            walker.moved = False
            if self.turn > 1 or walker.legs:
                walker.moved_as = None
        self.take(PatrolStep())

    def finish_turn(self) -> None:
        """Steps 3 to 6, once the intruders have moved and acted: eavesdropping, sight, alarms,
        objective."""
        if self.outcome is None:
            self.take(ConversationStep())
        if self.outcome is None:
            self.take(SightStep())
        self.take(AlarmStep())
        if self.outcome is None:
            self._objective()

    def take(self, step: Step) -> None:
        """Carry out one step of the turn (:mod:`vigile.games.skirmish.steps`): the one seam through
        which the simulator's schedule reads the intruders' side of the turn."""
        match step:
            case PatrolStep():
                self._patrols()
            case FumbleStep(maker=maker, doing=doing):
                self._fumble_roll(maker, doing)
            case NoiseStep(event=event, at=at, maker=maker):
                self._noise(event, at, maker=maker)
            case KillStep(killer=killer, victim=victim, surface=surface):
                self._kill(killer, victim, surface)
            case StrikeStep(attacker=attacker, victim=victim):
                self._strike(attacker, victim)
            case ConversationStep():
                self._conversations()
            case SightStep():
                self._sight()
            case AlarmStep():
                self._alarms()

    # ---------------------------------------------------------------- 1. patrols (SK-G1)

    def _patrols(self) -> None:
        groups: dict[str, list[Walker]] = {}
        for guard in self.defenders():
            if guard.actor.state is GuardState.PATROLLING:
                groups.setdefault(guard.actor.group or guard.name, []).append(guard)
        for members in groups.values():
            angle = scatter_die(self.rng)  # drawn even for a patrol the GM moved: same draws
            self._patrol([m for m in members if self.left_alone(m)], angle)  # LP-6

    def _patrol(self, members: list[Walker], angle: float) -> None:
        """A patrol group moves as one along the scatter die's ``angle`` (SK-G1)."""
        move = patrol_move(self.rules)
        if members:
            xs, ys = self.board.patrol(
                [m.x for m in members],
                [m.y for m in members],
                angle,
                move.length_cm,
                move.bounces,
                move.margin_cm,
            )
            for member, x, y in zip(members, xs, ys, strict=True):
                member.x, member.y, member.moved = x, y, True
                self.emit(
                    "patrol",
                    "engine.event.patrol",
                    actor=member,
                    at=member.at,
                    perceived_by={m.name for m in members},
                    params={"degrees": round(math.degrees(angle)) % 360, "rule": PATROL_RULE},
                )

    # ---------------------------------------------------------------- 2. plans (SK-N3)

    def step(self, intruder: Walker, to: Point, speed: Attitude) -> None:
        leg = intruder.current_leg
        climbing = leg is not None and leg.climb and not intruder.climbed
        rate = turn_rate(self.rules, speed, intruder.actor.move)
        self._advance(intruder, to, rate)
        intruder.moved_as = speed
        self.emit(
            "move",
            "engine.event.move",
            actor=intruder,
            at=intruder.at,
            perceived_by=self._allies(intruder),
            params={"speed": speed.value},
        )
        if rolls_for_fumble(speed):
            self.take(FumbleStep(intruder, "move"))
        if climbing:
            intruder.climbed = True
            self.take(FumbleStep(intruder, "climb"))

    def _fumble_roll(self, intruder: Walker, doing: str) -> None:
        """A move faster than half speed, or an action meant to be silent: the pool is rolled
        once; a fumble is a noise (SK-N3, SK-D4)."""
        verdict = self.roll(
            move_check,
            intruder,
            rules=self.rules,
            speed=Speed.FULL,
            roller=stealth_roller(intruder.actor),
        )
        self.emit(
            "move",
            f"engine.raid.fumble_roll_{doing.replace('-', '_')}",
            actor=intruder,
            verdict=verdict,
            params={"doing": doing},
        )
        if verdict.success is False:
            self._noise(NoiseEvent.FUMBLE, intruder.at, maker=intruder)

    def act(self, intruder: Walker, action: object) -> None:
        if isinstance(action, ThrowGrapple):
            at = action.at or self._next_waypoint(intruder) or intruder.at
            onto = action.onto.value if action.onto else self.board.surface(at)
            self.emit(
                "action", "engine.event.grapple", actor=intruder, at=at, params={"onto": onto}
            )
            if onto in ("tile", "stone"):
                self.take(NoiseStep(NoiseEvent.GRAPPLE, at, intruder))
        elif isinstance(action, Kill):
            victim = self.by_name[action.target]
            if victim.alive:
                if not action.ranged:
                    self.take(FumbleStep(intruder, "kill"))
                self.take(KillStep(intruder, victim, action.surface))
        elif isinstance(action, Strike):
            victim = self.by_name[action.target]
            if victim.alive:
                self.take(FumbleStep(intruder, "strike"))
                self.take(StrikeStep(intruder, victim))
        elif isinstance(action, Speak):
            self._speak(intruder, action)
            self.take(NoiseStep(NoiseEvent(action.volume.value), intruder.at, intruder))
        elif isinstance(action, OpenDoor | CloseDoor):
            self._door(intruder, action.door, isinstance(action, OpenDoor))

    def _door(self, actor: Walker, door: str, is_open: bool) -> None:
        """Open or close a door: done, then the fumble roll of a silent action (SK-N3), so that
        a fumble is heard through the door as it now stands (SK-N9: the door is open)."""
        super()._door(actor, door, is_open)
        intruder = actor
        self.take(FumbleStep(intruder, "open-door" if is_open else "close-door"))

    def _strike(self, intruder: Walker, victim: Walker) -> None:
        """A round of melee: a noise (SK-N2), and what a struck guard learns of his attacker
        (SK-G5 [R], :func:`~vigile.rulesets.skirmish.alarm.struck_guard_sees`)."""
        self._found(intruder, victim)
        self._blow(intruder, victim)
        self._noise(NoiseEvent.MELEE, victim.at, maker=intruder, besides={victim.name})
        sees = struck_guard_sees(self.rules)
        if victim.side is Side.DEFENDERS and victim.alive and sees is not None:
            self._detect(victim, intruder, "engine.event.struck", sees)

    def _next_waypoint(self, intruder: Walker) -> Point | None:
        for leg in intruder.legs[intruder.leg + 1 :]:
            if leg.to is not None:
                return leg.to
        return None

    def _kill(self, killer: Walker, victim: Walker, surface: Surface | None) -> None:
        victim.alive = False
        self._found(killer, victim)
        ground = surface or death_surface(self.board.surface(victim.at))
        self.emit(
            "action",
            "engine.event.kill",
            actor=killer,
            target=victim,
            at=victim.at,
            perceived_by={victim.name},
            params={"surface": ground.value},
        )
        self._noise(NoiseEvent.DEATH, victim.at, maker=killer, surface=ground)

    # ---------------------------------------------------------------- noise (SK-N1..SK-N10)

    def _hear(
        self, check: Callable[..., Verdict], listener: Walker, at: Point, **given: object
    ) -> tuple[float, Verdict]:
        """``listener``'s roll of a noise ``check`` (a noise, SK-N1..SK-N8, or a conversation,
        SK-N7) made at ``at``, with what the rule reads of the place: the distance (SK-N4), the
        barriers between (SK-N5), the time of day and the listener's alert (SK-N6) and pool;
        the distance too, for the log."""
        gap = distance(listener.at, at)
        verdict = self.roll(
            check,
            listener,
            rules=self.rules,
            distance_cm=gap,
            barriers=self.board.barriers_between(listener.at, at),
            time=self.scenario.time,
            alert=listener.alert,
            roller=detection_roller(listener.actor),
            **given,
        )
        return gap, verdict

    def _noise(
        self,
        event: NoiseEvent,
        at: Point,
        *,
        maker: Walker,
        surface: Surface | None = None,
        besides: set[str] | None = None,
    ) -> None:
        """Each living defender who does not watch the maker (seen and in sight now, LP-4) checks
        the noise; one who hears knows its direction and turns round (SK-N10). ``besides``: who
        is not a listener (the one struck is in the fight)."""
        for listener in self.defenders():
            if besides and listener.name in besides:
                continue
            if not checks_noise(
                observed=listener.aware_of(maker.name) is AwarenessState.OBSERVED,
                sight=self._sight_rule(listener, maker, self.attitude(maker)),
            ):
                continue  # he watches its maker: not a noise out of sight (SK-N1, LP-4)
            gap, verdict = self._hear(noise_check, listener, at, event=event, surface=surface)
            self.emit(
                "noise",
                "engine.event.noise",
                actor=listener,
                target=maker,
                at=at,
                verdict=verdict,
                params={"event": event.value, "distance": quoted(gap)},
            )
            if not verdict.success:
                continue
            listener.learn(maker.name, AwarenessState.DIRECTION)
            if heard_puts_on_alert(self.rules):
                listener.alert = True
            self.emit(
                "noise",
                "engine.raid.hears",
                actor=listener,
                target=maker,
                params={"event": event.value, "rule": "SK-N10"},
            )
            if maker.alive:
                self._look(listener, maker, "engine.raid.turns_round")

    # ---------------------------------------------------------------- 3. eavesdropping (SK-N7)

    def _conversations(self) -> None:
        """Each talking defender converses; each living intruder, whatever it knows of it,
        tests to overhear it, and one who does knows at least its direction (SK-N7, SK-N10
        reversed [R]: :mod:`vigile.rulesets.skirmish.eavesdrop`)."""
        for speaker in self.defenders():
            volume = skirmish_actor(speaker.actor).talks
            if volume is None:
                continue
            for intruder in self.intruders():
                if not may_overhear(
                    intruder.aware_of(speaker.name),
                    knows_position=speaker.name in intruder.knows_position,
                ):
                    continue
                self._overhear(intruder, speaker, volume)

    def _overhear(self, intruder: Walker, speaker: Walker, volume: str) -> None:
        gap, verdict = self._hear(overhear_check, intruder, speaker.at, volume=volume)
        self.emit(
            "noise",
            "engine.raid.eavesdrop",
            actor=intruder,
            target=speaker,
            at=speaker.at,
            verdict=verdict,
            params={"volume": volume, "distance": quoted(gap)},
        )
        if verdict.success and verdict.state is not None:
            intruder.learn(speaker.name, verdict.state)
            self.emit(
                "perceive",
                "engine.raid.overhears",
                actor=intruder,
                target=speaker,
                params={"volume": volume, "rule": EAVESDROP_RULE, "state": verdict.state.value},
            )

    # ---------------------------------------------------------------- 4. sight (SK-V1..SK-V9)

    def attitude(self, intruder: Walker) -> Attitude:
        """What a guard sees the intruder doing this turn (SK-V3, SK-V9)."""
        return seen_attitude(intruder.moved_as, in_cover=self.board.in_cover(intruder.at))

    def guard_attitude(self, guard: Walker) -> Attitude:
        """What an intruder sees a guard doing this turn (SK-G3 [R], SK-V3, SK-V9): in motion at
        half speed if it moved (a patrol), else immobile, or hidden in cover when the scenario
        shows it hidden."""
        return patrol_attitude(
            moved=guard.moved,
            shown=guard.actor.attitude,
            in_cover=self.board.in_cover(guard.at),
        )

    def _sight(self) -> None:
        for guard in self.defenders():
            for intruder in self.intruders():
                if guard.aware_of(intruder.name) is not AwarenessState.OBSERVED:
                    self._look(guard, intruder, "engine.event.sees")
        for intruder in self.intruders():
            for guard in self.defenders():
                if not self.knows_where(intruder, guard):
                    self._discover(intruder, guard)

    @staticmethod
    def knows_where(intruder: Walker, guard: Walker) -> bool:
        """The intruder knows where the guard stands: scouted (``knows_position``, what it knew
        at the start, SK-G3) or found in play (seen, or fought: its awareness)."""
        return (
            guard.name in intruder.knows_position
            or intruder.aware_of(guard.name) is AwarenessState.OBSERVED
        )

    def _found(self, intruder: Walker, guard: Walker) -> None:
        """What an intruder who strikes or kills a guard learns of him (SK-G5 [R],
        :func:`~vigile.rulesets.skirmish.alarm.striker_knows`)."""
        knows = striker_knows(self.rules)
        if knows is not None and not self.knows_where(intruder, guard):
            intruder.learn(guard.name, knows)

    def _discover(self, intruder: Walker, guard: Walker) -> None:
        """One sight test of ``intruder`` on a guard whose position it does not know, the roles
        of SK-V1..SK-V9 reversed (SK-G3, SK-G4)."""
        verdict = self._sight_test(intruder, guard, self.guard_attitude(guard))
        if verdict is not None and verdict.success:
            state = given_state(verdict)
            intruder.learn(guard.name, state)
            rule = "SK-G4" if guard.name in self.scenario.hidden_guards else "SK-G3"
            self.emit(
                "perceive",
                "engine.raid.discovers",
                actor=intruder,
                target=guard,
                at=guard.at,
                params={"rule": rule, "state": state.value},
            )

    def _look(self, guard: Walker, intruder: Walker, seen_message: str) -> None:
        """One sight test of ``guard`` on ``intruder`` where both stand now (SK-V1..SK-V9)."""
        verdict = self._sight_test(guard, intruder, self.attitude(intruder))
        if verdict is not None and verdict.success:
            self._detect(guard, intruder, seen_message, given_state(verdict))

    def _sight_test(self, observer: Walker, target: Walker, attitude: Attitude) -> Verdict | None:
        """The sight rule for ``observer`` looking at ``target`` doing ``attitude``, rolled and
        logged; None (nothing logged) when the rules allow no test (SK-V1..SK-V9)."""
        check = self._sight_rule(observer, target, attitude)
        if check().impossible:
            return None
        verdict = self.roll(check, observer)
        self.emit(
            "sight",
            "engine.event.sight",
            actor=observer,
            target=target,
            at=target.at,
            verdict=verdict,
            params={"distance": quoted(distance(observer.at, target.at))},
        )
        return verdict

    def _sight_rule(
        self, observer: Walker, target: Walker, attitude: Attitude
    ) -> Callable[..., Verdict]:
        """The sight rule (SK-V1..SK-V9) for ``observer`` on ``target`` doing ``attitude``,
        where both stand now, ready to be asked or rolled."""
        gap = distance(observer.at, target.at)
        lit = self.board.lit(target.at)
        return partial(
            sight_check,
            self.rules,
            attitude=attitude,
            distance_cm=gap,
            alert=observer.alert,
            unsuited_outfit=skirmish_actor(target.actor).outfit is Outfit.UNSUITED,
            lit=lit,
            light=self.light_kind(target.at) if lit else None,
            time=self.scenario.time,
            line_of_sight=self.board.sees(observer.at, target.at),
            roller=detection_roller(observer.actor),
        )

    def light_kind(self, at: Point) -> str | None:
        """The kind of the first of the scenario's lights that reaches ``at`` (SK-G2, SK-V5),
        by the board's own test (:meth:`Board.lit`) for each light alone; None in the dark."""
        default = self.rules.num("sight.lit_radius_cm")
        for light in self.scenario.lights:
            reached = lit_by(
                self.board.barriers,
                at[0],
                at[1],
                [light.at[0]],
                [light.at[1]],
                [light.radius_or(default)],
            )
            if bool(reached):
                return light.kind.value
        return None

    def _detect(self, guard: Walker, intruder: Walker, message: str, state: AwarenessState) -> None:
        """``guard`` comes to ``state`` of ``intruder`` (a sighting: the sight check's state,
        SK-V1..SK-V9; struck: :func:`~vigile.rulesets.skirmish.alarm.struck_guard_sees`), and the
        event names it."""
        guard.learn(intruder.name, state)
        self.ever_detected = True
        self.emit(
            "perceive",
            message,
            actor=guard,
            target=intruder,
            at=intruder.at,
            params={"state": state.value},
        )
        pair = (guard.name, intruder.name)
        if pair not in self.resolved and pair not in self.detected:
            self.detected.append(pair)

    # ---------------------------------------------------------------- 5. the alarm (SK-G5)

    def _alarms(self) -> None:
        """Each detection of this turn, in order (new ones join the queue): initiative within
        striking reach, else the cry."""
        for guard_name, intruder_name in self.detected:  # grows while it is walked
            guard, intruder = self.by_name[guard_name], self.by_name[intruder_name]
            if self.outcome is not None or not (guard.alive and intruder.alive):
                continue
            self.resolved.add((guard_name, intruder_name))
            gap = distance(guard.at, intruder.at)
            if not within_reach(self.rules, gap):
                self.emit(
                    "alarm",
                    "engine.raid.beyond_reach",
                    actor=guard,
                    target=intruder,
                    params={"distance": quoted(gap)},
                )
                self._cry(guard, intruder)
                continue
            verdict = self.roll(alarm_check, guard, rules=self.rules)
            self.emit(
                "initiative",
                "engine.event.initiative",
                actor=guard,
                target=intruder,
                verdict=verdict,
                perceived_by={intruder.name},
            )
            if verdict.success:
                self._cry(guard, intruder)
            else:
                self._silence(intruder, guard)

    def _silence(self, intruder: Walker, guard: Walker) -> None:
        """The intruder won the initiative: one round of melee, heard by every other listener
        (SK-N2, 4+), and the guard is out of the fight, his body a death noise [SK-G5, R]."""
        self._blow(intruder, guard, "engine.raid.strikes_first")
        self._noise(NoiseEvent.MELEE, guard.at, maker=intruder, besides={guard.name})
        if guard.alive:
            self._kill(intruder, guard, None)

    def _cry(self, guard: Walker, intruder: Walker | None) -> None:
        """The alarm is a cry (SK-G5, SK-N7): heard by each defender on alert, by any other
        unless his die shows 1; whoever hears it is on alert from then on. ``intruder``: the
        one he detected; None when the GM has him cry (LP-6)."""
        guard.alert = True
        if self.alarm_turn is None:
            self.alarm_turn = self.turn
        hearers = {guard.name}
        self.emit(
            "alarm",
            "engine.raid.cry" if intruder is not None else "live.event.raise_alarm",
            actor=guard,
            target=intruder,
            at=guard.at,
            perceived_by={intruder.name} if intruder is not None else (),
            params=None if intruder is not None else {"rule": "SK-G5, SK-N7"},
        )
        for listener in self.defenders():
            if listener is guard:
                continue
            verdict = self.roll(
                noise_check,
                listener,
                rules=self.rules,
                event=NoiseEvent.ALARM_CRY,
                alert=listener.alert,
                roller=detection_roller(listener.actor),
            )
            self.emit(
                "noise",
                "engine.raid.alarm_cry",
                actor=listener,
                target=guard,
                verdict=verdict,
            )
            if verdict.success:
                listener.alert = True
                hearers.add(listener.name)
        if self.scenario.alarm_ends:
            self.outcome = Outcome(
                "alarm", self.turn, unseen=False, by=(guard.name,), after_alarm=True
            )

    # ---------------------------------------------------------------- 6. the end

    def _objective(self) -> None:
        super()._objective()
        if self.outcome is not None and self.alarm_turn is not None:
            self.outcome = Outcome(
                self.outcome.kind,
                self.outcome.turn,
                self.outcome.unseen,
                self.outcome.by,
                after_alarm=True,
            )

    def _unfinished(self) -> Outcome:
        outcome = super()._unfinished()
        return Outcome(
            outcome.kind, outcome.turn, outcome.unseen, after_alarm=self.alarm_turn is not None
        )
