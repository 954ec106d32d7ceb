"""The night raid as an idiomatic Mesa model: what a designer would otherwise write.

Benchmark-only (``pip install -e '.[bench]'``). Guards are agents that patrol by scatter die and
listen and look each step; the intruders follow the same plans (the engine's schedule); each
check is a call to vigile's rule functions, one agent at a time, as a Mesa model would do it.
A guard who hears a noise turns round and looks at its maker where it stands (SK-N10: the sight
rules, to the maker, with a line of sight), and is put on alert by it only under the house rule
(``alert_on_noise``).

It plays the game the engine and the kernel play, to the same end: a guard who detects an
intruder within striking reach rolls initiative (SK-G5), beyond it cries at once; a guard who
loses is silenced, one who wins (or cries) raises the alarm: every other living guard hears the
cry (SK-N7) and is on alert from then on, and the game goes on to the objective or the turn
limit, unless the scenario says the alarm ends it (``alarm_ends``). Until 2026-12-06 it stopped
at the first alarm (63% of the night raid's games), so its games were shorter than the
engine's and the kernel's and its rate was not theirs to compare. What it still leaves out,
for a lighter model (each makes its games a little cheaper than the engine's): the intruders'
own sight tests (SK-G3, SK-G4), the noise of a silencing blow and of the body, the eavesdropping.
:meth:`RaidModel.play` returns the ending in the engine's words (:class:`Ending`), so
``bench/simulate.py`` prints each model's endings side by side.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import mesa
import numpy as np

from vigile.dice.source import RolledFaces
from vigile.engine.result import Ending
from vigile.games.skirmish.fields import stealth_pool
from vigile.games.skirmish.kernel.tables import RaidSetup, setup
from vigile.games.skirmish.schedule import Op
from vigile.rulesets.skirmish.alarm import alarm_check, within_reach
from vigile.rulesets.skirmish.common import Roller
from vigile.rulesets.skirmish.movement import Speed, move_check
from vigile.rulesets.skirmish.noise import NoiseEvent, noise_check
from vigile.rulesets.skirmish.patrol import patrol_move
from vigile.rulesets.skirmish.sight import Attitude, sight_check
from vigile.scene.actors import Outfit, Side
from vigile.scene.model import Scenario


@dataclass
class Sim:
    """The raid as the kernel reads it (:func:`~vigile.games.skirmish.kernel.tables.setup`),
    with what the Mesa model asks besides: each guard's pool, each intruder's outfit, the
    chance of a fumble (SK-D4) by pool."""

    raid: RaidSetup
    dice: list[int]
    outfit: list[bool]
    fumble: dict[int, float]

    def __getattr__(self, name: str) -> Any:
        return getattr(self.raid, name)

    @classmethod
    def of(cls, scenario: Scenario) -> Sim:
        rules = scenario.rules()
        defenders = [a for a in scenario.actors if a.side is Side.DEFENDERS]
        intruders = [a for a in scenario.actors if a.side is Side.ATTACKERS]
        fumble = {
            stealth_pool(a): float(
                1 - move_check(rules, speed=Speed.FULL, roller=Roller(stealth_pool(a))).chance
            )
            for a in intruders
        }
        return cls(
            setup(scenario),
            [a.detection_pool() for a in defenders],
            [a.outfit is Outfit.UNSUITED for a in intruders],
            fumble,
        )


class Guard(mesa.Agent):  # type: ignore[misc]
    def __init__(self, model: RaidModel, index: int) -> None:
        super().__init__(model)
        self.index = index
        self.x = float(model.sim.start_x[index])
        self.y = float(model.sim.start_y[index])
        self.alive = True
        self.alert = bool(model.sim.alert[index])
        self.observed: set[int] = set()

    def patrol(self, angle: float) -> None:
        move = patrol_move(self.model.sim.rules)
        xs, ys = self.model.sim.board.patrol(
            [self.x], [self.y], angle, move.length_cm, move.bounces, move.margin_cm
        )
        self.x, self.y = xs[0], ys[0]

    def listen(self, op: Op) -> None:
        """The noise of ``op`` (SK-N1..SK-N7); heard, the guard looks at its maker (SK-N10)."""
        if not self.alive or op.maker in self.observed:
            return
        sim = self.model.sim
        assert op.event is not None  # the schedule names the noise of every op
        verdict = noise_check(
            sim.rules,
            event=op.event,
            surface=op.surface,
            distance_cm=math.hypot(self.x - op.at[0], self.y - op.at[1]),
            barriers=sim.board.barriers_between((self.x, self.y), op.at),
            time=sim.scenario.time,
            alert=self.alert,
            roller=Roller(sim.dice[self.index]),
            source=self.model.faces,
        )
        if verdict.success:
            if sim.alert_on_noise:
                self.alert = True
            self.see(op.maker, op.maker_at, op.attitude, op.lit)

    def see(self, i: int, at: tuple[float, float], attitude: Attitude, lit: bool) -> None:
        """A sight test on intruder ``i`` at ``at`` (SK-V1..SK-V9)."""
        sim = self.model.sim
        verdict = sight_check(
            sim.rules,
            attitude=attitude,
            distance_cm=math.hypot(self.x - at[0], self.y - at[1]),
            alert=self.alert,
            unsuited_outfit=sim.outfit[i],
            lit=lit,
            time=sim.scenario.time,
            line_of_sight=sim.board.sees((self.x, self.y), at),
            roller=Roller(sim.dice[self.index]),
            source=self.model.faces,
        )
        if verdict.success:
            self.model.detect(self, i)

    def look(self) -> None:
        if not self.alive:
            return
        turn = self.model.current
        for i, (at, attitude) in enumerate(zip(turn.positions, turn.attitudes, strict=True)):
            if i not in self.observed:
                self.see(i, at, attitude, turn.lit[i])


class RaidModel(mesa.Model):  # type: ignore[misc]
    def __init__(self, sim: Sim, seed: int) -> None:
        super().__init__(seed=seed)
        self.sim = sim
        self.faces = RolledFaces(np.random.default_rng(seed))
        self.guards = [Guard(self, g) for g in range(len(sim.names))]
        self.turn = 0
        self.outcome: Ending | None = None
        self.alarm = False
        self.detected = False
        self.pending: list[tuple[Guard, int]] = []

    @property
    def current(self) -> Any:
        return self.sim.turns[self.turn - 1]

    def detect(self, guard: Guard, intruder: int) -> None:
        guard.observed.add(intruder)
        self.detected = True
        self.pending.append((guard, intruder))

    def cry(self, guard: Guard) -> None:
        """The alarm (SK-G5): heard by each other living guard on alert, by any other unless his
        die shows 1 (SK-N7); the game goes on unless the scenario says it ends."""
        guard.alert = True
        self.alarm = True
        for other in self.guards:
            if other is guard or not other.alive:
                continue
            heard = noise_check(
                self.sim.rules,
                event=NoiseEvent.ALARM_CRY,
                alert=other.alert,
                roller=Roller(self.sim.dice[other.index]),
                source=self.faces,
            )
            if heard.success:
                other.alert = True
        if self.sim.alarm_ends:
            self.outcome = Ending.ALARM

    def step(self) -> None:
        self.turn += 1
        turn = self.current
        for members in self.sim.groups:
            angle = self.random.uniform(0, 2 * math.pi)
            for g in members:
                if self.guards[g].alive:
                    self.guards[g].patrol(angle)
        for op in turn.ops:
            if op.kind == "fumble" and self.random.random() >= self.sim.fumble[op.pool]:
                continue
            if op.kind in ("kill", "strike"):
                victim = self.guards[op.victim]
                if not victim.alive:
                    continue
                if op.kind == "kill":
                    victim.alive = False
            for guard in self.guards:
                guard.listen(op)
        self.agents.shuffle_do("look")
        for guard, intruder in self.pending:
            if self.outcome is not None or not guard.alive:
                continue
            at = turn.positions[intruder]
            reach = within_reach(self.sim.rules, math.hypot(guard.x - at[0], guard.y - at[1]))
            if not reach or alarm_check(self.sim.rules, source=self.faces).success:
                self.cry(guard)  # beyond reach, or the guard won the initiative
            else:
                guard.alive = False  # silenced
        self.pending = []
        if self.outcome is None and turn.objective:
            if self.alarm:
                self.outcome = Ending.OBJECTIVE_AFTER_ALARM
            elif self.detected:
                self.outcome = Ending.OBJECTIVE_DETECTED
            else:
                self.outcome = Ending.OBJECTIVE_UNSEEN

    def play(self) -> Ending:
        while self.outcome is None and self.turn < len(self.sim.turns):
            self.step()
        return self.outcome or Ending.TURN_LIMIT
