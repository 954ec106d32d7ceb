"""The night raid as an idiomatic Mesa model: what a designer would otherwise write.

Benchmark-only (``pip install -e '.[bench]'``). Guards are agents that patrol by scatter die and
listen and look each step; the intruders follow the same plans (the engine's schedule); each
check is a call to vigile's rule functions, one agent at a time, as a Mesa model would do it.
A guard who hears a noise turns round and looks at its maker where it stands (SK-N10: the sight
rules, to the maker, with a line of sight), and is put on alert by it only under the house rule
(``alert_on_noise``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import mesa
import numpy as np

from vigile.dice.source import RolledFaces
from vigile.games.skirmish.kernel.tables import RaidSetup, setup
from vigile.games.skirmish.schedule import Op
from vigile.rulesets.skirmish.alarm import alarm_check
from vigile.rulesets.skirmish.common import Roller
from vigile.rulesets.skirmish.movement import Speed, move_check
from vigile.rulesets.skirmish.noise import noise_check
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
            a.stealth_pool(): float(
                1 - move_check(rules, speed=Speed.FULL, roller=Roller(a.stealth_pool())).chance
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
        length = float(self.model.sim.rules.num("turn.patrol_cm"))
        xs, ys = self.model.sim.board.patrol([self.x], [self.y], angle, length, 1)
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
        self.outcome: str | None = None
        self.pending: list[tuple[Guard, int]] = []

    @property
    def current(self) -> Any:
        return self.sim.turns[self.turn - 1]

    def detect(self, guard: Guard, intruder: int) -> None:
        guard.observed.add(intruder)
        self.pending.append((guard, intruder))

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
        for guard, _intruder in self.pending:
            if self.outcome is None and guard.alive:
                if alarm_check(self.sim.rules, source=self.faces).success:
                    self.outcome = "alarm"
                else:
                    guard.alive = False
        self.pending = []
        if self.outcome is None and turn.objective:
            self.outcome = "objective"

    def play(self) -> str:
        while self.outcome is None and self.turn < len(self.sim.turns):
            self.step()
        return self.outcome or "turn_limit"
