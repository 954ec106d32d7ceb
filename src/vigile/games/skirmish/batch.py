"""Many runs of a skirmish raid at once, as arrays: the turn engine's turn, batched.

A block of runs advances together: each guard's position, life, alert and awareness are arrays over
the runs; each check draws one random number per run and compares it with the chance the rule
function gives for that run's case (:mod:`vigile.games.skirmish.model`). The order of a turn is the
engine's (:mod:`vigile.games.skirmish.raid`): patrols, the intruders' schedule (fumbles, noises,
kills, strikes, each heard by the defenders not watching their maker in sight, LP-4), sight tests,
initiative in the order the detections happened, the objective. The intruders' plans come from the
engine itself (:mod:`vigile.games.skirmish.schedule`)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vigile.engine.result import Ending
from vigile.games.skirmish.model import SimModel, prepare
from vigile.games.skirmish.schedule import Op, Turn
from vigile.rulesets.skirmish.noise import NoiseEvent, Surface
from vigile.rulesets.skirmish.patrol import patrol_move, scatter_die
from vigile.rulesets.skirmish.sight import Attitude
from vigile.scene.geometry import Barriers, crossings, line_of_sight
from vigile.scene.model import Scenario
from vigile.sim.tally import CODE, HEAT_BINS, OUTCOMES, Ints, Tally

OBSERVED = 4
DIRECTION = 2
UNSEEN = CODE[Ending.OBJECTIVE_UNSEEN]
DETECTED = CODE[Ending.OBJECTIVE_DETECTED]
AFTER_ALARM = CODE[Ending.OBJECTIVE_AFTER_ALARM]
ALARM = CODE[Ending.ALARM]
TURN_LIMIT = CODE[Ending.TURN_LIMIT]
RUNNING = -1

Bools = np.ndarray[tuple[int, ...], np.dtype[np.bool_]]
Floats = np.ndarray[tuple[int, ...], np.dtype[np.float64]]


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
        self.alarm = np.zeros(runs, np.bool_)
        """The alarm has been raised in this run."""
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
            self.alarms(turn)
            if turn.objective:
                done = self.running
                self.outcome[done & ~self.ever] = UNSEEN
                self.outcome[done & self.ever & ~self.alarm] = DETECTED
                self.outcome[done & self.alarm] = AFTER_ALARM
        self.outcome[self.running] = TURN_LIMIT
        return self.tally()

    def patrols(self, doors: frozenset[int]) -> None:
        """Each group draws one scatter-die direction per run and moves as one (SK-G1)."""
        move = patrol_move(self.m.rules)
        length, bounces, margin = move.length_cm, move.bounces, move.margin_cm
        live = self.running
        for members in self.m.groups:
            angle = scatter_die(self.rng, self.n)
            moving = live[:, None] & self.alive[:, members]
            if not moving.any():
                continue
            rows, cols = np.nonzero(moving)
            index = np.array(members)[cols]
            dx = length * np.cos(angle[rows])
            dy = length * np.sin(angle[rows])
            x0, y0 = self.gx[rows, index], self.gy[rows, index]
            x, y = self.m.open_ground(doors, length).move(
                x0,
                y0,
                dx,
                dy,
                self.m.scenario.map.width,
                self.m.scenario.map.height,
                bounces,
                margin,
            )
            self.gx[rows, index] = x
            self.gy[rows, index] = y

    def apply(self, op: Op) -> None:
        live = self.running
        seen = (op.maker_at, op.attitude, op.lit)
        if op.kind == "fumble":
            fumbled = live & (self.rng.random(self.n) < self.m.fumble[op.pool])
            if op.victim is not None:  # the roll of a kill or a strike: only on a living victim
                fumbled &= self.alive[:, op.victim] & self.reaches(op, op.victim)
            self.noise(NoiseEvent.FUMBLE, None, op.at, op.maker, op.doors, fumbled, seen)
        elif op.kind == "noise":
            assert op.event is not None
            self.noise(op.event, op.surface, op.at, op.maker, op.doors, live, seen)
        elif op.kind == "kill":
            assert op.victim is not None
            hit = live & self.alive[:, op.victim] & self.reaches(op, op.victim)
            self.alive[hit, op.victim] = False
            self.noise(NoiseEvent.DEATH, op.surface, op.at, op.maker, op.doors, hit, seen)
        elif op.kind == "strike":
            assert op.victim is not None
            hit = live & self.alive[:, op.victim] & self.reaches(op, op.victim)
            self.noise(
                NoiseEvent.MELEE, None, op.at, op.maker, op.doors, hit, seen, besides=op.victim
            )
            still = hit & self.alive[:, op.victim] & self.m.struck_sees  # SK-G5 [R]
            self.detect(
                still, op.victim, op.maker, np.full(self.n, op.at[0]), np.full(self.n, op.at[1])
            )

    def reaches(self, op: Op, victim: int) -> Bools:
        """Whether op's kill or strike reaches its victim where it stands in each run (LP-7,
        ``Game._blow_refused``): within ``op.reach`` of its maker; a shot in a line of sight,
        a melee blow with no barrier that stops a walker between."""
        mx, my = op.maker_at
        vx, vy = self.gx[:, victim], self.gy[:, victim]
        near: Bools = np.hypot(mx - vx, my - vy) <= op.reach + 1e-9
        walls = self.m.walls(op.doors)
        if not len(walls) or not near.any():
            return near
        if op.ranged:
            return near & line_of_sight(walls, mx, my, vx, vy)
        blocked = crossings(walls, mx, my, vx, vy, walls.blocks_movement) > 0
        return near & ~blocked

    def noise(
        self,
        event: NoiseEvent,
        surface: Surface | None,
        at: tuple[float, float],
        maker: int,
        doors: frozenset[int],
        where: Bools,
        seen: tuple[tuple[float, float], Attitude, bool],
        xs: Floats | None = None,
        ys: Floats | None = None,
        grounds: tuple[Ints, list[Surface]] | None = None,
        besides: int | None = None,
    ) -> None:
        """Every living defender not watching the maker (seen and in sight now, LP-4) checks the
        noise (SK-N1..SK-N7); one who hears knows the direction and turns round: a sight test
        on the maker where it stands, ``seen`` = (where, attitude, lit) (SK-N10).

        The source is ``at``, or per run (``xs``, ``ys``, with the ground of each run in
        ``grounds``) for a guard struck down where he stood. ``besides``: a defender who is
        not a listener (the one struck).
        """
        if not where.any():
            return
        walls = self.m.walls(doors)
        fixed = xs is None
        for g in range(len(self.m.names)):
            if g == besides:
                continue
            listens = where & self.alive[:, g] & (self.aware[:, g, maker] < OBSERVED)
            watching = np.nonzero(where & self.alive[:, g] & ~listens)[0]
            if len(watching):
                # LP-4 [R]: one who saw the maker and has it out of sight now listens again
                (mx, my), attitude, lit = seen
                chance = self._sight_chances(watching, g, maker, mx, my, attitude, lit, walls)
                listens[watching[chance <= 0]] = True
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
            if self.m.alert_on_noise:
                self.alert[hit, g] = True
            if len(hit):
                (mx, my), attitude, lit = seen
                self.look(hit, g, maker, mx, my, attitude, lit, walls)

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
        cases = np.stack([codes, steps, count, alert.astype(np.int64)], axis=1)
        unique, inverse = np.unique(cases, axis=0, return_inverse=True)
        values = np.empty(len(unique))
        for k, (code, step, walls, on_alert) in enumerate(unique.tolist()):
            values[k] = self.m.tables.noise_chance(
                event, kinds[code], step, walls, bool(on_alert), self.m.dice[g]
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
                if looks.any():
                    self.look(np.nonzero(looks)[0], g, i, x, y, attitude, lit[i], walls)

    def look(
        self,
        rows: Ints,
        g: int,
        i: int,
        x: float,
        y: float,
        attitude: Attitude,
        lit: bool,
        walls: Barriers,
    ) -> None:
        """Guard ``g`` tests sight on intruder ``i`` at (x, y) in the runs ``rows``."""
        rows = rows[self.aware[rows, g, i] < OBSERVED]
        if not len(rows):
            return
        gap = np.hypot(self.gx[rows, g] - x, self.gy[rows, g] - y)
        if self._never_far(attitude, lit, i, g):
            # beyond both bands the rule allows no test: those runs draw nothing
            close = gap < max(self.m.auto, self.m.bands[attitude])
            if not close.any():
                return
            rows = rows[close]
        chance = self._sight_chances(rows, g, i, x, y, attitude, lit, walls)
        seen = self.rng.random(len(rows)) < chance
        if seen.any():
            mask = np.zeros(self.n, np.bool_)
            mask[rows[seen]] = True
            self.detect(mask, g, i, np.full(self.n, x), np.full(self.n, y))

    def _sight_chances(
        self,
        rows: Ints,
        g: int,
        i: int,
        x: float,
        y: float,
        attitude: Attitude,
        lit: bool,
        walls: Barriers,
    ) -> Floats:
        """The sight rule's chance for guard ``g`` on intruder ``i`` at (x, y) in the runs
        ``rows`` (0 where it allows no test, SK-V1..SK-V9)."""
        gap = np.hypot(self.gx[rows, g] - x, self.gy[rows, g] - y)
        near = gap < self.m.auto
        band = gap < self.m.bands[attitude]
        chance = np.zeros(len(rows))
        for near_v in (False, True):
            for band_v in (False, True):
                for alert_v in (False, True):
                    case = (near == near_v) & (band == band_v) & (self.alert[rows, g] == alert_v)
                    if case.any():
                        chance[case] = self.m.tables.sight_chance(
                            attitude,
                            near_v,
                            band_v,
                            lit,
                            True,
                            alert_v,
                            self.m.outfit[i],
                            self.m.dice[g],
                        )
        test = chance > 0
        if test.any() and len(walls):
            seen_line = line_of_sight(walls, self.gx[rows[test], g], self.gy[rows[test], g], x, y)
            chance[np.nonzero(test)[0][~seen_line]] = 0.0
        return chance

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

    def alarms(self, turn: Turn) -> None:
        """Each detection of this turn, in order (SK-G5): initiative only within striking
        reach; the intruder who wins silences the guard (a melee noise, a death noise), else
        the guard cries the alarm."""
        none = np.iinfo(np.int64).max
        guards, intruders = len(self.m.names), len(self.m.intruders)
        if not guards or not intruders:
            return  # no one to detect, or no one to detect anyone: no alarm
        ix = np.array([p[0] for p in turn.positions])
        iy = np.array([p[1] for p in turn.positions])
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
            gap = np.hypot(self.gx[rows, gs] - ix[is_], self.gy[rows, gs] - iy[is_])
            near = gap <= self.m.reach
            guard_first = self.rng.random(len(rows)) < self.m.initiative
            cries = ~near | guard_first
            for guard in np.unique(gs[cries]):
                self.cry(rows[cries][gs[cries] == guard], int(guard))
            struck, struck_g, struck_i = rows[~cries], gs[~cries], is_[~cries]
            for guard in np.unique(struck_g):
                for maker in np.unique(struck_i[struck_g == guard]):
                    runs = struck[(struck_g == guard) & (struck_i == maker)]
                    self.silence(runs, int(guard), int(maker), turn)

    def silence(self, runs: Ints, guard: int, maker: int, turn: Turn) -> None:
        """The intruder struck first: a round of melee heard by the others (SK-N2), then the
        guard's death where he stands (SK-N2, its ground)."""
        by = np.zeros(self.n, np.bool_)
        by[runs] = True
        x, y = self.gx[:, guard].copy(), self.gy[:, guard].copy()
        seen = (turn.positions[maker], turn.attitudes[maker], turn.lit[maker])
        doors = turn.doors
        self.noise(NoiseEvent.MELEE, None, (0.0, 0.0), maker, doors, by, seen, x, y, besides=guard)
        by &= self.alive[:, guard]
        self.alive[by, guard] = False
        codes, kinds = self.m.death_surface(x[by], y[by])
        every = np.zeros(self.n, np.int64)
        every[by] = codes
        self.noise(NoiseEvent.DEATH, None, (0.0, 0.0), maker, doors, by, seen, x, y, (every, kinds))

    def cry(self, rows: Ints, guard: int) -> None:
        """Guard ``guard`` cries the alarm in the runs ``rows`` (SK-G5, SK-N7): each living
        defender on alert hears it, any other unless his die shows 1; they are on alert."""
        if not len(rows):
            return
        self.alarm[rows] = True
        self.alert[rows, guard] = True
        for h in range(len(self.m.names)):
            if h == guard:
                continue
            listen = rows[self.alive[rows, h] & ~self.alert[rows, h]]
            if len(listen):
                heard = self.rng.random(len(listen)) < self.m.cry[h]
                self.alert[listen[heard], h] = True
        if self.m.alarm_ends:
            self.outcome[rows] = ALARM

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


@dataclass(frozen=True)
class BatchedRaid:
    """The skirmish plug-in's batched model of a night raid (:class:`vigile.sim.tally.Batched`)."""

    model: SimModel

    @property
    def turns(self) -> int:
        return len(self.model.turns)

    def play(self, runs: int, rng: np.random.Generator) -> Tally:
        return Block(self.model, runs, rng).play()


def batched(scenario: Scenario) -> BatchedRaid | None:
    """The skirmish game's batched model of a scenario (its plug-in's ``batch``): a night raid
    is batched, a day encounter is not (None: the engine plays it game by game)."""
    return None if scenario.encounter is not None else BatchedRaid(prepare(scenario))
