"""Many runs of a skirmish raid at once, as arrays: the turn engine's turn, batched.

A block of runs advances together: each guard's position, life, alert and awareness are arrays
over the runs; each check draws one random number per run and compares it with the chance the
rule function gives for that run's case (:mod:`vigile.sim.model`). The order of a turn is the
engine's (:mod:`vigile.engine.skirmish`): patrols, the intruders' schedule (fumbles, noises,
kills, strikes, each heard by the defenders not already watching their maker), sight tests,
initiative in the order the detections happened, the objective. The intruders' plans come from
the engine itself (:mod:`vigile.sim.schedule`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vigile.rulesets.skirmish.noise import NoiseEvent, Surface
from vigile.rulesets.skirmish.sight import Attitude
from vigile.scene.geometry import Barriers, crossings, line_of_sight
from vigile.sim.model import SimModel
from vigile.sim.schedule import Op

OBSERVED = 4
DIRECTION = 2
OUTCOMES = ("objective_unseen", "objective_detected", "alarm", "turn_limit", "caught", "lost")
"""The ways a game ends; ``objective_detected``: reached, but some guard saw an intruder;
``caught``: every intruder was caught (d20 games) or the follower noticed (shadowing); ``lost``:
the follower lost the trail (shadowing). The batched raids end in one of the first four."""
RUNNING = -1
HEAT_BINS = 100

Bools = np.ndarray[tuple[int, ...], np.dtype[np.bool_]]
Floats = np.ndarray[tuple[int, ...], np.dtype[np.float64]]
Ints = np.ndarray[tuple[int, ...], np.dtype[np.int64]]


@dataclass
class Tally:
    """What a block of runs found, as counts that add up across blocks (and workers)."""

    runs: int
    outcomes: Ints
    """Runs ending each way, in the order of :data:`OUTCOMES`."""
    first_detection: Ints
    """Runs by turn of the first detection; index 0: never detected."""
    guard_detections: Ints
    """Runs in which each guard detected an intruder."""
    heat: Ints
    """Detections by where the intruder stood, on a HEAT_BINS x HEAT_BINS grid of the map."""

    @classmethod
    def empty(cls, turns: int, guards: int) -> Tally:
        return cls(
            0,
            np.zeros(len(OUTCOMES), np.int64),
            np.zeros(turns + 1, np.int64),
            np.zeros(guards, np.int64),
            np.zeros((HEAT_BINS, HEAT_BINS), np.int64),
        )

    def __add__(self, other: Tally) -> Tally:
        return Tally(
            self.runs + other.runs,
            self.outcomes + other.outcomes,
            self.first_detection + other.first_detection,
            self.guard_detections + other.guard_detections,
            self.heat + other.heat,
        )


class Block:
    """One block of runs in play."""

    def __init__(self, model: SimModel, runs: int, rng: np.random.Generator) -> None:
        self.m = model
        self.rng = rng
        self.n = runs
        guards = len(model.names)
        intruders = len(model.intruders)
        self.gx = np.tile(model.start_x, (runs, 1))
        self.gy = np.tile(model.start_y, (runs, 1))
        self.alive = np.ones((runs, guards), np.bool_)
        self.alert = np.tile(model.alert, (runs, 1))
        self.aware = np.zeros((runs, guards, intruders), np.int8)
        self.resolved = np.zeros((runs, guards, intruders), np.bool_)
        self.order = np.full((runs, guards, intruders), np.iinfo(np.int64).max, np.int64)
        self.clock = 0
        self.outcome = np.full(runs, RUNNING, np.int64)
        self.first = np.zeros(runs, np.int64)
        self.detected_by = np.zeros((runs, guards), np.bool_)
        self.ever = np.zeros(runs, np.bool_)
        self.turn = 0
        self.heat_x: list[Floats] = []
        self._wall_cache: dict[tuple[int, int, tuple[float, float]], int] = {}
        self.heat_y: list[Floats] = []

    @property
    def running(self) -> Bools:
        result: Bools = self.outcome == RUNNING
        return result

    # ------------------------------------------------------------------ the game

    def play(self) -> Tally:
        for turn in self.m.turns:
            self.turn += 1
            if not self.running.any():
                break
            self.patrols(turn.doors_before)
            for op in turn.ops:
                self.apply(op)
            self.sight(turn.positions, turn.attitudes, turn.lit, turn.doors)
            self.initiative()
            if turn.objective:
                done = self.running
                self.outcome[done & ~self.ever] = 0
                self.outcome[done & self.ever] = 1
        self.outcome[self.running] = 3
        return self.tally()

    def patrols(self, doors: frozenset[int]) -> None:
        """Each group draws one scatter-die direction per run and moves as one (SK-G1)."""
        length = float(self.m.rules.num("turn.patrol_cm"))
        bounces = self.m.rules.num("turn.patrol_bounces")
        live = self.running
        for members in self.m.groups:
            angle = self.rng.uniform(0.0, 2.0 * np.pi, self.n)
            moving = live[:, None] & self.alive[:, members]
            if not moving.any():
                continue
            rows, cols = np.nonzero(moving)
            index = np.array(members)[cols]
            dx = length * np.cos(angle[rows])
            dy = length * np.sin(angle[rows])
            x0, y0 = self.gx[rows, index], self.gy[rows, index]
            x, y = self.m.open_ground(doors, length).move(
                x0, y0, dx, dy, self.m.scenario.map.width, self.m.scenario.map.height, bounces
            )
            self.gx[rows, index] = x
            self.gy[rows, index] = y

    def apply(self, op: Op) -> None:
        live = self.running
        if op.kind == "fumble":
            fumbled = live & (self.rng.random(self.n) < self.m.fumble[op.pool])
            self.noise(NoiseEvent.FUMBLE, None, op.at, op.maker, op.doors, fumbled)
        elif op.kind == "noise":
            assert op.event is not None
            self.noise(op.event, op.surface, op.at, op.maker, op.doors, live)
        elif op.kind == "kill":
            assert op.victim is not None
            hit = live & self.alive[:, op.victim]
            self.alive[hit, op.victim] = False
            self.noise(NoiseEvent.DEATH, op.surface, op.at, op.maker, op.doors, hit)
        elif op.kind == "strike":
            assert op.victim is not None
            hit = live & self.alive[:, op.victim]
            self.noise(NoiseEvent.MELEE, None, op.at, op.maker, op.doors, hit)
            still = hit & self.alive[:, op.victim]
            self.detect(
                still, op.victim, op.maker, np.full(self.n, op.at[0]), np.full(self.n, op.at[1])
            )

    def noise(
        self,
        event: NoiseEvent,
        surface: Surface | None,
        at: tuple[float, float],
        maker: int,
        doors: frozenset[int],
        where: Bools,
        xs: Floats | None = None,
        ys: Floats | None = None,
        grounds: tuple[Ints, list[Surface]] | None = None,
    ) -> None:
        """Every living defender not watching the maker checks the noise (SK-N1..SK-N7).

        The source is ``at``, or per run (``xs``, ``ys``, with the ground of each run in
        ``grounds``) for a guard struck down where he stood.
        """
        if not where.any():
            return
        walls = self.m.walls(doors)
        fixed = xs is None
        for g in range(len(self.m.names)):
            listens = where & self.alive[:, g] & (self.aware[:, g, maker] < OBSERVED)
            if not listens.any():
                continue
            rows = np.nonzero(listens)[0]
            if fixed and not self.m.patrolling[g]:
                # a posted guard and a fixed source: one distance, one count of walls
                gap = np.full(
                    len(rows), np.hypot(self.m.start_x[g] - at[0], self.m.start_y[g] - at[1])
                )
                count = np.full(len(rows), self._walls_between(walls, g, at))
            else:
                px, py = self.gx[rows, g], self.gy[rows, g]
                qx = np.full(len(rows), at[0]) if xs is None else xs[rows]
                qy = np.full(len(rows), at[1]) if ys is None else ys[rows]
                gap = np.hypot(px - qx, py - qy)
                count = (
                    crossings(walls, px, py, qx, qy, walls.counts_for_noise).astype(np.int64)
                    if len(walls)
                    else np.zeros(len(rows), np.int64)
                )
            steps = np.floor(gap / self.m.step).astype(np.int64)
            if grounds is None:
                codes, kinds = np.zeros(len(rows), np.int64), [surface]
            else:
                codes, kinds = grounds[0][rows], list(grounds[1])
            chance = self._noise_chances(event, kinds, codes, steps, count, self.alert[rows, g], g)
            heard = self.rng.random(len(rows)) < chance
            hit = rows[heard]
            self.aware[hit, g, maker] = np.maximum(self.aware[hit, g, maker], DIRECTION)
            self.alert[hit, g] = True
            close = hit[gap[heard] < self.m.visibility]
            if len(close):
                mask = np.zeros(self.n, np.bool_)
                mask[close] = True
                src_x = np.full(self.n, at[0]) if xs is None else xs
                src_y = np.full(self.n, at[1]) if ys is None else ys
                self.detect(mask, g, maker, src_x, src_y)

    def _walls_between(self, walls: Barriers, g: int, at: tuple[float, float]) -> int:
        key = (id(walls), g, at)
        found = self._wall_cache.get(key)
        if found is None:
            found = (
                int(
                    crossings(
                        walls,
                        self.m.start_x[g],
                        self.m.start_y[g],
                        at[0],
                        at[1],
                        walls.counts_for_noise,
                    )
                )
                if len(walls)
                else 0
            )
            self._wall_cache[key] = found
        return found

    def _noise_chances(
        self,
        event: NoiseEvent,
        kinds: list[Surface | None],
        codes: Ints,
        steps: Ints,
        count: Ints,
        alert: Bools,
        g: int,
    ) -> Floats:
        """The noise rule's chance for each run, looked up by case (few cases, many runs)."""
        keys = ((codes * 4096 + steps) * 4096 + count) * 2 + alert.astype(np.int64)
        unique, inverse = np.unique(keys, return_inverse=True)
        values = np.empty(len(unique))
        for k, key in enumerate(unique):
            key = int(key)
            values[k] = self.m.tables.noise_chance(
                event,
                kinds[key // (2 * 4096 * 4096)],
                (key // (2 * 4096)) % 4096,
                (key // 2) % 4096,
                bool(key % 2),
                self.m.dice[g],
            )
        result: Floats = values[inverse.ravel()]
        return result

    def sight(
        self,
        positions: list[tuple[float, float]],
        attitudes: list[Attitude],
        lit: list[bool],
        doors: frozenset[int],
    ) -> None:
        """Every living guard tests every intruder a test is allowed for (SK-V1..SK-V9)."""
        walls = self.m.walls(doors)
        live = self.running
        for g in range(len(self.m.names)):
            for i, ((x, y), attitude) in enumerate(zip(positions, attitudes, strict=True)):
                looks = live & self.alive[:, g] & (self.aware[:, g, i] < OBSERVED)
                if not looks.any():
                    continue
                rows = np.nonzero(looks)[0]
                gap = np.hypot(self.gx[rows, g] - x, self.gy[rows, g] - y)
                if self._never_far(attitude, lit[i], i, g):
                    # beyond both bands the rule allows no test: those runs draw nothing
                    close = gap < max(self.m.auto, self.m.bands[attitude])
                    if not close.any():
                        continue
                    rows, gap = rows[close], gap[close]
                near = gap < self.m.auto
                band = gap < self.m.bands[attitude]
                chance = np.zeros(len(rows))
                for near_v in (False, True):
                    for band_v in (False, True):
                        for alert_v in (False, True):
                            case = (
                                (near == near_v)
                                & (band == band_v)
                                & (self.alert[rows, g] == alert_v)
                            )
                            if case.any():
                                chance[case] = self.m.tables.sight_chance(
                                    attitude,
                                    near_v,
                                    band_v,
                                    lit[i],
                                    True,
                                    alert_v,
                                    self.m.outfit[i],
                                    self.m.dice[g],
                                )
                test = chance > 0
                if test.any() and len(walls):
                    seen_line = line_of_sight(
                        walls, self.gx[rows[test], g], self.gy[rows[test], g], x, y
                    )
                    chance[np.nonzero(test)[0][~seen_line]] = 0.0
                seen = self.rng.random(len(rows)) < chance
                if seen.any():
                    mask = np.zeros(self.n, np.bool_)
                    mask[rows[seen]] = True
                    self.detect(mask, g, i, np.full(self.n, x), np.full(self.n, y))

    def _never_far(self, attitude: Attitude, lit: bool, i: int, g: int) -> bool:
        """The sight rule gives 0 beyond both bands, alert or not (the usual night case)."""
        return all(
            self.m.tables.sight_chance(
                attitude, False, False, lit, True, alert, self.m.outfit[i], self.m.dice[g]
            )
            == 0
            for alert in (False, True)
        )

    def detect(self, mask: Bools, g: int, i: int, x: Floats, y: Floats) -> None:
        """Guard ``g`` sees intruder ``i`` in the runs of ``mask``: initiative follows."""
        if not mask.any():
            return
        self.aware[mask, g, i] = OBSERVED
        fresh = mask & ~self.ever
        self.first[fresh] = self.turn
        self.ever |= mask
        self.detected_by[mask, g] = True
        self.heat_x.append(x[mask])
        self.heat_y.append(y[mask])
        pending = mask & ~self.resolved[:, g, i] & (self.order[:, g, i] == np.iinfo(np.int64).max)
        self.clock += 1
        self.order[pending, g, i] = self.clock

    def initiative(self) -> None:
        """Each detection of this turn, in order: the alarm, or the guard struck down (SK-G5)."""
        none = np.iinfo(np.int64).max
        guards, intruders = len(self.m.names), len(self.m.intruders)
        while True:
            flat = self.order.reshape(self.n, guards * intruders)
            pick = flat.argmin(axis=1)
            first = flat[np.arange(self.n), pick]
            todo = first < none
            if not todo.any():
                return
            g, i = pick // intruders, pick % intruders
            rows = np.nonzero(todo)[0]
            self.order[rows, g[rows], i[rows]] = none
            act = self.running[rows] & self.alive[rows, g[rows]]
            rows, gs, is_ = rows[act], g[rows][act], i[rows][act]
            self.resolved[rows, gs, is_] = True
            raised = self.rng.random(len(rows)) < self.m.initiative
            alarm = rows[raised]
            self.outcome[alarm] = 2
            self.alert[alarm] = True
            struck, struck_g, struck_i = rows[~raised], gs[~raised], is_[~raised]
            for guard in np.unique(struck_g):
                sel = struck_g == guard
                runs = struck[sel]
                self.alive[runs, guard] = False
                mask = np.zeros(self.n, np.bool_)
                mask[runs] = True
                x, y = self.gx[:, guard].copy(), self.gy[:, guard].copy()
                codes, kinds = self.m.death_surface(x[runs], y[runs])
                every = np.zeros(self.n, np.int64)
                every[runs] = codes
                grounds = (every, kinds)
                for maker in np.unique(struck_i[sel]):
                    by = np.zeros(self.n, np.bool_)
                    by[runs[struck_i[sel] == maker]] = True
                    self.noise(
                        NoiseEvent.DEATH,
                        None,
                        (0.0, 0.0),
                        int(maker),
                        self._doors_now(),
                        by,
                        x,
                        y,
                        grounds,
                    )

    def _doors_now(self) -> frozenset[int]:
        return self.m.turns[self.turn - 1].doors

    # ------------------------------------------------------------------ results

    def tally(self) -> Tally:
        tally = Tally.empty(len(self.m.turns), len(self.m.names))
        tally.runs = self.n
        tally.outcomes = np.bincount(self.outcome, minlength=len(OUTCOMES)).astype(np.int64)
        tally.first_detection = np.bincount(self.first, minlength=len(self.m.turns) + 1).astype(
            np.int64
        )[: len(self.m.turns) + 1]
        tally.guard_detections = self.detected_by.sum(axis=0).astype(np.int64)
        if self.heat_x:
            width, height = self.m.scenario.map.width, self.m.scenario.map.height
            heat, _, _ = np.histogram2d(
                np.concatenate(self.heat_x),
                np.concatenate(self.heat_y),
                bins=HEAT_BINS,
                range=[[0, width], [0, height]],
            )
            tally.heat = heat.astype(np.int64)
        return tally
