"""The skirmish turn: patrols, plans, noise, sight, detection and the alarm (RULES.md §1).

Each turn, in order:

1. patrolling guards move by scatter die, a group as one (SK-G1);
2. each intruder walks its plan: a move faster than half speed rolls for a fumble (SK-N3), a
   fumble is a noise; on arrival (after any wait) it acts: grapple, kill, strike, speak, open or
   close a door. Every noise is checked at once by each living defender who is not already
   watching its maker (SK-N1..SK-N7); one who hears knows the direction and is on alert
   afterwards; one who hears it from closer than night visibility (SK-V1) turns round and sees;
3. every living guard tests sight on every intruder a test is allowed for (SK-V1..SK-V9);
4. each guard who detected an intruder this turn rolls initiative against him (SK-G5): the guard
   raises the alarm (every defender on alert, the raid is over) or is struck down first (a death,
   a noise);
5. the objective is checked.

Engine rulings (issue 4, where the rules say nothing): a noise is "out of sight" for a listener
who does not already observe its maker; a death on tile or stone sounds as on a floor; an intruder
who wins the initiative kills the guard; the raid ends when the alarm is raised.
"""

from __future__ import annotations

import math

import numpy as np

from vigile.awareness.ladder import AwarenessState
from vigile.dice.source import FaceSource
from vigile.engine.board import Board, Point, distance
from vigile.engine.game import Game, log_number
from vigile.engine.result import Outcome
from vigile.engine.state import Walker
from vigile.rulesets.data import RuleData
from vigile.rulesets.skirmish.alarm import alarm_check
from vigile.rulesets.skirmish.common import Roller
from vigile.rulesets.skirmish.movement import Speed, move_check
from vigile.rulesets.skirmish.noise import NoiseEvent, Surface, noise_check
from vigile.rulesets.skirmish.sight import Attitude, sight_check
from vigile.scene.actors import GuardState, Outfit, Side
from vigile.scene.model import Scenario
from vigile.scene.plans import CloseDoor, Kill, OpenDoor, Speak, Strike, ThrowGrapple

GROUND_SOUND = {
    "floor": Surface.FLOOR,
    "water": Surface.WATER,
    "grass": Surface.GRASS,
    "soft-ground": Surface.SOFT_GROUND,
    "tile": Surface.FLOOR,
    "stone": Surface.FLOOR,
}
"""The sound of a body falling on each ground (SK-N2); tile and stone as a floor [engine]."""


class SkirmishGame(Game):
    """One game of a skirmish scenario, played turn by turn."""

    def __init__(
        self, scenario: Scenario, rules: RuleData, rng: np.random.Generator, faces: FaceSource
    ) -> None:
        board = Board(scenario, rules.num("sight.lit_radius_cm"))
        super().__init__(scenario, rules, rng, faces, board)
        self.detected: list[tuple[str, str]] = []
        """(guard, intruder) pairs detected this turn, in order, for the initiative."""
        self.resolved: set[tuple[str, str]] = set()
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

    # ---------------------------------------------------------------- the turn

    def play_turn(self) -> None:
        self.turn += 1
        self.emit("turn", "engine.event.turn", public=True)
        self.detected = []
        for walker in self.walkers:
            walker.moved = False
        self._patrols()
        for intruder in self.intruders():
            if self.outcome is None:
                self._walk(intruder)
        if self.outcome is None:
            self._sight()
        self._initiative()
        if self.outcome is None:
            self._objective()

    # ---------------------------------------------------------------- 1. patrols (SK-G1)

    def _patrols(self) -> None:
        groups: dict[str, list[Walker]] = {}
        for guard in self.defenders():
            if guard.actor.state is GuardState.PATROLLING:
                groups.setdefault(guard.actor.group or guard.name, []).append(guard)
        length = self.rules.num("turn.patrol_cm")
        bounces = self.rules.num("turn.patrol_bounces")
        for members in groups.values():
            angle = float(self.rng.uniform(0.0, 2.0 * math.pi))
            xs, ys = self.board.patrol(
                [m.x for m in members], [m.y for m in members], angle, length, bounces
            )
            for member, x, y in zip(members, xs, ys, strict=True):
                member.x, member.y, member.moved = x, y, True
                self.emit(
                    "patrol",
                    "engine.event.patrol",
                    actor=member,
                    at=member.at,
                    perceived_by={m.name for m in members},
                    params={"degrees": round(math.degrees(angle)) % 360},
                )

    # ---------------------------------------------------------------- 2. plans (SK-N3)

    def _rate(self, intruder: Walker, speed: Attitude) -> float:
        fast = intruder.actor.move
        if fast is None:
            return float(
                self.rules.num(
                    {Attitude.FAST: "turn.fast_cm", Attitude.HALF: "turn.half_cm"}.get(
                        speed, "turn.hidden_cm"
                    )
                )
            )
        return {Attitude.FAST: fast, Attitude.HALF: fast / 2}.get(speed, fast / 4)

    def _step(self, intruder: Walker, to: Point, speed: Attitude) -> None:
        rate = self._rate(intruder, speed if speed is not Attitude.IMMOBILE else Attitude.HALF)
        self._advance(intruder, to, rate)
        self.emit(
            "move",
            "engine.event.move",
            actor=intruder,
            at=intruder.at,
            perceived_by=self._allies(intruder),
            params={"speed": speed.value},
        )
        if speed is Attitude.FAST:
            self._fumble_roll(intruder)

    def _fumble_roll(self, intruder: Walker) -> None:
        """A move faster than half speed: the pool is rolled once; a fumble is a noise (SK-N3)."""
        verdict = move_check(
            self.rules,
            speed=Speed.FULL,
            roller=Roller(intruder.actor.stealth_pool()),
            source=self.faces,
        )
        self.emit("move", "engine.event.fumble_roll", actor=intruder, verdict=verdict)
        if verdict.success is False:
            self._noise(NoiseEvent.FUMBLE, intruder.at, maker=intruder)

    def _act(self, intruder: Walker, action: object) -> None:
        if isinstance(action, ThrowGrapple):
            at = action.at or self._next_waypoint(intruder) or intruder.at
            onto = action.onto.value if action.onto else self.board.surface(at)
            self.emit(
                "action", "engine.event.grapple", actor=intruder, at=at, params={"onto": onto}
            )
            if onto in ("tile", "stone"):
                self._noise(NoiseEvent.GRAPPLE, at, maker=intruder)
        elif isinstance(action, Kill):
            victim = self.by_name[action.target]
            if victim.alive:
                self._kill(intruder, victim, action.surface)
        elif isinstance(action, Strike):
            victim = self.by_name[action.target]
            if victim.alive:
                self._strike(intruder, victim)
        elif isinstance(action, Speak):
            self.emit(
                "action",
                "engine.event.speak",
                actor=intruder,
                at=intruder.at,
                perceived_by={action.to} if action.to else (),
                params={"volume": action.volume.value},
            )
            self._noise(NoiseEvent(action.volume.value), intruder.at, maker=intruder)
        elif isinstance(action, OpenDoor | CloseDoor):
            is_open = isinstance(action, OpenDoor)
            self.board.set_door(action.door, is_open)
            key = "engine.event.open_door" if is_open else "engine.event.close_door"
            self.emit("action", key, actor=intruder, at=intruder.at, params={"door": action.door})

    def _strike(self, intruder: Walker, victim: Walker) -> None:
        """A round of melee: a noise (SK-N2), and a struck guard sees his attacker."""
        self.emit(
            "action",
            "engine.event.strike",
            actor=intruder,
            target=victim,
            at=victim.at,
            perceived_by={victim.name},
        )
        self._noise(NoiseEvent.MELEE, victim.at, maker=intruder)
        if victim.side is Side.DEFENDERS and victim.alive:
            self._detect(victim, intruder, "engine.event.struck")

    def _next_waypoint(self, intruder: Walker) -> Point | None:
        for leg in intruder.legs[intruder.leg + 1 :]:
            if leg.to is not None:
                return leg.to
        return None

    def _kill(self, killer: Walker, victim: Walker, surface: Surface | None) -> None:
        victim.alive = False
        ground = surface or GROUND_SOUND[self.board.surface(victim.at)]
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

    # ---------------------------------------------------------------- noise (SK-N1..SK-N7)

    def _noise(
        self, event: NoiseEvent, at: Point, *, maker: Walker, surface: Surface | None = None
    ) -> None:
        visibility = self.rules.num("sight.night_visibility_cm")
        for listener in self.defenders():
            if listener.aware_of(maker.name) is AwarenessState.OBSERVED:
                continue  # he watches its maker: not a noise out of sight (SK-N1)
            gap = distance(listener.at, at)
            verdict = noise_check(
                self.rules,
                event=event,
                surface=surface,
                distance_cm=gap,
                barriers=self.board.barriers_between(listener.at, at),
                time=self.scenario.time,
                alert=listener.alert,
                roller=Roller(listener.actor.detection_pool()),
                source=self.faces,
            )
            self.emit(
                "noise",
                "engine.event.noise",
                actor=listener,
                target=maker,
                at=at,
                verdict=verdict,
                params={"event": event.value, "distance": log_number(gap)},
            )
            if not verdict.success:
                continue
            listener.learn(maker.name, AwarenessState.DIRECTION)
            listener.alert = True
            if gap < visibility and maker.alive:
                self._detect(listener, maker, "engine.event.turns_round")

    # ---------------------------------------------------------------- 3. sight (SK-V1..SK-V9)

    def attitude(self, intruder: Walker) -> Attitude:
        """What a guard sees the intruder doing this turn (SK-V3, SK-V9)."""
        in_cover = self.board.in_cover(intruder.at)
        leg = intruder.current_leg
        if intruder.moved:
            speed = (leg.speed if leg else None) or Attitude.HALF
            if speed is Attitude.HIDDEN:
                return Attitude.HIDDEN if in_cover else Attitude.HALF
            return speed
        if intruder.actor.attitude is not None and self.turn == 1 and not intruder.legs:
            start = intruder.actor.attitude
            return Attitude.IMMOBILE if start is Attitude.HIDDEN and not in_cover else start
        return Attitude.HIDDEN if in_cover else Attitude.IMMOBILE

    def _sight(self) -> None:
        for guard in self.defenders():
            for intruder in self.intruders():
                if guard.aware_of(intruder.name) is AwarenessState.OBSERVED:
                    continue
                verdict = sight_check(
                    self.rules,
                    attitude=self.attitude(intruder),
                    distance_cm=distance(guard.at, intruder.at),
                    alert=guard.alert,
                    unsuited_outfit=intruder.actor.outfit is Outfit.UNSUITED,
                    lit=self.board.lit(intruder.at),
                    time=self.scenario.time,
                    line_of_sight=self.board.sees(guard.at, intruder.at),
                    roller=Roller(guard.actor.detection_pool()),
                    source=self.faces,
                )
                if verdict.impossible:
                    continue
                self.emit(
                    "sight",
                    "engine.event.sight",
                    actor=guard,
                    target=intruder,
                    at=intruder.at,
                    verdict=verdict,
                    params={"distance": log_number(distance(guard.at, intruder.at))},
                )
                if verdict.success:
                    self._detect(guard, intruder, "engine.event.sees")

    def _detect(self, guard: Walker, intruder: Walker, message: str) -> None:
        guard.learn(intruder.name, AwarenessState.OBSERVED)
        self.ever_detected = True
        self.emit("perceive", message, actor=guard, target=intruder, at=intruder.at)
        pair = (guard.name, intruder.name)
        if pair not in self.resolved and pair not in self.detected:
            self.detected.append(pair)

    # ---------------------------------------------------------------- 4. initiative (SK-G5)

    def _initiative(self) -> None:
        for guard_name, intruder_name in self.detected:
            guard, intruder = self.by_name[guard_name], self.by_name[intruder_name]
            if self.outcome is not None or not (guard.alive and intruder.alive):
                continue
            self.resolved.add((guard_name, intruder_name))
            verdict = alarm_check(self.rules, source=self.faces)
            self.emit(
                "initiative",
                "engine.event.initiative",
                actor=guard,
                target=intruder,
                verdict=verdict,
                perceived_by={intruder.name},
            )
            if verdict.success:
                for defender in self.defenders():
                    defender.alert = True
                self.emit(
                    "alarm",
                    "engine.event.alarm",
                    actor=guard,
                    target=intruder,
                    at=guard.at,
                    public=True,
                )
                self.outcome = Outcome("alarm", self.turn, unseen=False, by=guard.name)
                return
            self._kill(intruder, guard, None)

    # ---------------------------------------------------------------- 5. objective
