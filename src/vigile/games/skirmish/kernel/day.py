"""The compiled kernel's day encounters: a shadowing or an ambush, run by run.

:class:`KernelDay` is a batched model (:class:`vigile.sim.tally.Batched`) of a skirmish
scenario whose ``encounter`` is a day shadowing (SK-S2..SK-S5) or an ambush (SK-A1..SK-A5):
the game of :class:`vigile.games.skirmish.day.EncounterGame`, played from a stream of uniforms
in the engine's order (the draw interface, :class:`vigile.dice.source.UniformFaces`: one uniform
a die face), each run to its own end, as :class:`~vigile.games.skirmish.kernel.raid.KernelRaid`
plays a raid.

The kernel holds no rule. Every check is a *roll code*
(:func:`~vigile.games.skirmish.kernel.tables.roll_code`) and a pool taken from a verdict of the
rule function itself, called without dice with the very arguments the engine gives it
(:func:`vigile.rulesets.skirmish.shadow.shadow_check`,
:func:`vigile.rulesets.skirmish.ambush.ambush_check`): the follow roll, the notice roll, the
notice roll of a round in which the follower fumbled (SK-S2, SK-S5), each target's ambush roll
with its own skills and alert (SK-A2..SK-A4), an ambush without cover detected at once (SK-A1).
Who is on alert is read off the engine's own game as it starts (a scouting detected puts every
defender on alert, SK-G3). What the kernel does know is how a pool is rolled against a code
(SK-D1, SK-D3: :func:`~vigile.games.skirmish.kernel.play.roll_pool`) and what a fumble is
(SK-D4: every die's first face a 1, :attr:`vigile.dice.roll.Roll.fumble`).

The order of a run is :mod:`vigile.games.skirmish.day`'s, with its rulings [R]: each round the
follower rolls, then, unless the trail is lost, the followed character; a fumbled follow roll in
a crowd (the fumble rule is a crowd rule, SK-S2) still gives the notice roll, at the fumbled
round's code, and loses the trail only after it (noticed beats lost); the encounter ends when
the follower is noticed (``caught``), loses the trail (``lost``), after its rounds
(``objective_unseen``) or at the scenario's turn limit. An ambush is one turn: each target rolls
in the encounter's order, every one of them (SK-A2: not pooled); detected by any one, the
encounter ends ``caught``, else the ambushers act first (SK-A5) and it ends
``objective_unseen``.

What a run counts is the engine path's (:func:`vigile.sim.simulate.engine_block`): a detection
is a *defender* who perceives (the followed character who notices, a target who spots the
ambush; :data:`vigile.sim.simulate.LOCATED_OR_SEEN`), so a followed attacker's notice ends the
run ``caught`` without a detection, as in the engine. No heat: a day encounter has no place
where someone is caught (the engine path counts none either).

Beyond the kernel (:class:`vigile.errors.InputError`, and the turn engine plays): a scenario
without an encounter (a raid: :class:`~vigile.games.skirmish.kernel.raid.KernelRaid`), and one
whose characters walk plans, whose moves and actions (fumble rolls, noises, kills, SK-N3) the
day kernel does not play.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from vigile.dice.pool import SIDES
from vigile.dice.source import GivenFaces
from vigile.engine.result import Ending
from vigile.errors import InputError
from vigile.games.skirmish.day import (
    ambush_inputs,
    follow_inputs,
    fumble_counts,
    game_for,
    notice_inputs,
)
from vigile.games.skirmish.kernel.play import roll_pool
from vigile.games.skirmish.kernel.tables import AUTO, NEVER, roll_code
from vigile.rulesets.skirmish.ambush import ambush_check
from vigile.rulesets.skirmish.shadow import shadow_check
from vigile.scene.actors import Side
from vigile.scene.encounters import Ambush
from vigile.scene.model import Scenario
from vigile.sim.kernel.blocks import Blocks, record_end, tally
from vigile.sim.kernel.dice import C_POS, C_STATUS, face
from vigile.sim.kernel.geometry import compiled
from vigile.sim.tally import CODE, Tally

Array = np.ndarray[Any, Any]

SHADOWING, AMBUSH = 0, 1
"""The kinds of encounter (``ints[I_KIND]``)."""
RUNNING = -1
CHUNK = 1 << 16
"""Uniforms drawn from the generator at a time (512 KiB): a day run reads a handful."""

# ints: the encounter's numbers, every one from the rule (or the scenario)
(
    I_KIND,
    I_TURNS,
    I_SIDES,
    I_ROUNDS,
    I_FOLLOW,
    I_FOLLOW_DICE,
    I_NOTICE,
    I_NOTICE_FUMBLED,
    I_NOTICE_DICE,
    I_FUMBLE_COUNTS,
    I_FOLLOWED_GUARD,
    I_CAUGHT,
    I_LOST,
    I_UNSEEN,
    I_TURN_LIMIT,
) = range(15)
# targets: one row per target of an ambush, in the encounter's order
T_CODE, T_DICE, T_GUARD = range(3)
# a run's results (``scalars``)
S_OUTCOME, S_END, S_FIRST = range(3)


@compiled
def roll_noting_fumble(
    code: int, dice: int, sides: int, uniforms: np.ndarray, ctx: np.ndarray
) -> tuple[bool, bool]:
    """A check of roll code ``code`` as :func:`~vigile.games.skirmish.kernel.play.roll_pool`
    rolls it, face for face (SK-D1, SK-D3), and whether it was a fumble: rolled, and every
    die's first face a 1 (SK-D4, :attr:`vigile.dice.roll.Roll.fumble`). No roll, no fumble."""
    if code == AUTO:
        return True, False
    if code <= NEVER:
        return False, False
    success = False
    every_one = True
    for _ in range(dice):
        remaining = code
        first = True
        while True:
            value = face(sides, uniforms, ctx)
            if first and value != 1:
                every_one = False
            first = False
            if remaining <= sides:
                if value >= remaining:
                    success = True
                break
            if value != sides:
                break
            remaining -= 1
    return success, every_one and dice > 0


@compiled
def _shadow_round(
    ints: np.ndarray, turn: int, uniforms: np.ndarray, ctx: np.ndarray, scalars: np.ndarray,
    seen: np.ndarray,
) -> int:  # fmt: skip
    """One round of shadowing (SK-S2..SK-S5, day.py's order and rulings); the run's ending,
    or :data:`RUNNING`."""
    sides = ints[I_SIDES]
    kept, fumble = roll_noting_fumble(ints[I_FOLLOW], ints[I_FOLLOW_DICE], sides, uniforms, ctx)
    fumbled = fumble and ints[I_FUMBLE_COUNTS] != 0
    if not kept and not fumbled:
        return int(ints[I_LOST])
    code = ints[I_NOTICE_FUMBLED] if fumbled else ints[I_NOTICE]
    if roll_pool(code, ints[I_NOTICE_DICE], sides, uniforms, ctx):
        guard = ints[I_FOLLOWED_GUARD]
        if guard >= 0:
            seen[guard] = True
            if scalars[S_FIRST] == 0:
                scalars[S_FIRST] = turn
        return int(ints[I_CAUGHT])
    if not kept:
        return int(ints[I_LOST])
    if turn >= ints[I_ROUNDS]:
        return int(ints[I_UNSEEN])
    return RUNNING


@compiled
def _ambush(
    ints: np.ndarray, targets: np.ndarray, turn: int, uniforms: np.ndarray, ctx: np.ndarray,
    scalars: np.ndarray, seen: np.ndarray,
) -> int:  # fmt: skip
    """The ambush (SK-A2..SK-A5): every target rolls, in order; the run's ending."""
    spotted = False
    for k in range(targets.shape[0]):
        if roll_pool(targets[k, T_CODE], targets[k, T_DICE], ints[I_SIDES], uniforms, ctx):
            spotted = True
            guard = targets[k, T_GUARD]
            if guard >= 0:
                seen[guard] = True
                if scalars[S_FIRST] == 0:
                    scalars[S_FIRST] = turn
    return int(ints[I_CAUGHT] if spotted else ints[I_UNSEEN])


@compiled
def play_run(
    ints: np.ndarray, targets: np.ndarray, uniforms: np.ndarray, ctx: np.ndarray,
    scalars: np.ndarray, seen: np.ndarray,
) -> None:  # fmt: skip
    """One run, from its first round to its end, into ``scalars`` and ``seen`` (the
    defenders who detected)."""
    seen[:] = False
    scalars[:] = 0
    outcome = RUNNING
    n_t = ints[I_TURNS]
    for t in range(n_t):
        if ints[I_KIND] == SHADOWING:
            outcome = _shadow_round(ints, t + 1, uniforms, ctx, scalars, seen)
        else:
            outcome = _ambush(ints, targets, t + 1, uniforms, ctx, scalars, seen)
        if outcome != RUNNING:
            scalars[S_END] = t + 1
            break
        if ctx[C_STATUS]:
            break
    if outcome == RUNNING:
        outcome = ints[I_TURN_LIMIT]
        scalars[S_END] = n_t
    scalars[S_OUTCOME] = outcome


@compiled
def play_runs(
    ints: np.ndarray, targets: np.ndarray, scalars: np.ndarray, seen: np.ndarray,
    uniforms: np.ndarray, ctx: np.ndarray, first: int, last: int, outcome: np.ndarray,
    end: np.ndarray, first_seen: np.ndarray, detections: np.ndarray,
) -> int:  # fmt: skip
    """Play runs ``first`` .. ``last - 1`` from the stream at ``ctx[C_POS]``; return the first
    run not played (``last`` when all were). A run that ran out of uniforms is not counted:
    ``ctx[C_POS]`` is put back to its first uniform, to be played again once the stream is
    refilled (:class:`vigile.sim.kernel.blocks.Blocks`)."""
    for r in range(first, last):
        start = ctx[C_POS]
        play_run(ints, targets, uniforms, ctx, scalars, seen)
        if ctx[C_STATUS]:
            ctx[C_POS] = start
            return r
        record_end(
            r, scalars[S_OUTCOME], scalars[S_END], scalars[S_FIRST], outcome, end, first_seen
        )
        for g in range(seen.shape[0]):
            detections[r, g] = seen[g]
    return last


_BLOCKS = Blocks(play_runs, CHUNK)
"""The compiled entry point, driven block by block (the stream's end is a day run's only
stop)."""


@dataclass
class DayRuns:
    """How each run ended, run by run (:meth:`KernelDay.trace`)."""

    outcome: Array
    """The tally's code of each run's ending (:data:`vigile.sim.tally.CODE`)."""
    end: Array
    """The turn (round) it ended."""
    first: Array
    """The turn of its first detection by a defender, 0 for none."""
    detections: Array
    """(run, defender): the defender detected (noticed the follower, spotted the ambush)."""
    used: Array
    """Uniforms each run drew."""


@dataclass(frozen=True)
class DayModel:
    """A day encounter as the kernel reads it: its numbers, each from the rule."""

    ints: Array
    """The encounter's numbers (``I_KIND`` … ``I_TURN_LIMIT``)."""
    targets: Array
    """An ambush's targets, one row each: roll code, dice, defender index (-1: an attacker)."""
    guards: tuple[str, ...]
    """The defenders, in the scenario's order (the tally's guards)."""
    turns: int


def build(scenario: Scenario) -> DayModel:
    """The tables of a day encounter, every number asked of the rule functions with the
    arguments :class:`vigile.games.skirmish.day.EncounterGame` gives them."""
    encounter = scenario.encounter
    if encounter is None:
        raise InputError("a night raid is KernelRaid's, not a day encounter", where="encounter")
    if any(scenario.plans.get(a.name) for a in scenario.actors):
        raise InputError(
            "a day encounter whose characters walk plans is beyond the day kernel "
            "(their moves and actions roll: SK-N3); the turn engine plays it",
            where="plans",
        )
    rules = scenario.rules()
    # the engine's own game, set up and not played: who is on alert as it starts (SK-G3)
    game = game_for(scenario, rules, np.random.default_rng(0), GivenFaces(()))
    walkers = game.by_name
    guards = tuple(a.name for a in scenario.actors if a.side is Side.DEFENDERS)

    def guard(name: str) -> int:
        return guards.index(name) if name in guards else -1

    ints = np.zeros(15, np.int64)
    ints[I_TURNS] = scenario.turns
    ints[I_SIDES] = SIDES
    ints[I_CAUGHT] = CODE[Ending.CAUGHT]
    ints[I_LOST] = CODE[Ending.LOST]
    ints[I_UNSEEN] = CODE[Ending.OBJECTIVE_UNSEEN]
    ints[I_TURN_LIMIT] = CODE[Ending.TURN_LIMIT]
    targets = np.zeros((0, 3), np.int64)
    if isinstance(encounter, Ambush):
        ints[I_KIND] = AMBUSH
        ambushers = [walkers[n] for n in encounter.ambushers]
        rows = []
        for name in encounter.targets:
            target = walkers[name]
            verdict = ambush_check(rules, **ambush_inputs(encounter, ambushers, target))
            rows.append((roll_code(verdict), verdict.dice, guard(name)))
        targets = np.array(rows, np.int64).reshape(-1, 3)
    else:
        ints[I_KIND] = SHADOWING
        follower = walkers[encounter.follower]
        followed = walkers[encounter.followed]
        follow = shadow_check(rules, **follow_inputs(encounter, follower))
        plain = shadow_check(rules, **notice_inputs(encounter, followed, fumbled=False))
        crowd = fumble_counts(encounter)  # [R] a crowd rule (SK-S2): day.py's ruling
        fumbled = (
            shadow_check(rules, **notice_inputs(encounter, followed, fumbled=True))
            if crowd
            else plain
        )
        ints[I_ROUNDS] = encounter.rounds
        ints[I_FOLLOW] = roll_code(follow)
        ints[I_FOLLOW_DICE] = follow.dice
        ints[I_NOTICE] = roll_code(plain)
        ints[I_NOTICE_FUMBLED] = roll_code(fumbled)
        ints[I_NOTICE_DICE] = plain.dice
        ints[I_FUMBLE_COUNTS] = int(crowd)
        ints[I_FOLLOWED_GUARD] = guard(encounter.followed)
    return DayModel(ints, targets, guards, scenario.turns)


class KernelDay:
    """The skirmish plug-in's compiled model of a day encounter
    (:class:`vigile.sim.tally.Batched`)."""

    def __init__(self, model: DayModel) -> None:
        self.model = model

    @classmethod
    def of(cls, scenario: Scenario) -> KernelDay:
        """The kernel's model of ``scenario``; :class:`vigile.errors.InputError` for one beyond
        it (no encounter, or plans: see the module's docstring)."""
        return cls(build(scenario))

    @property
    def turns(self) -> int:
        return self.model.turns

    def _outputs(self, runs: int) -> tuple[Array, ...]:
        n_g = max(1, len(self.model.guards))
        return (
            np.zeros(runs, np.int64),
            np.zeros(runs, np.int64),
            np.zeros(runs, np.int64),
            np.zeros((runs, n_g), np.bool_),
        )

    def _lead(self) -> tuple[Array, ...]:
        """The model and a run's working arrays (its results, the defenders who detected)."""
        m = self.model
        return (m.ints, m.targets, np.zeros(3, np.int64), np.zeros(max(1, len(m.guards)), np.bool_))

    def play(self, runs: int, rng: np.random.Generator) -> Tally:
        """Play ``runs`` runs from ``rng``'s uniforms, in order, and tally them (no heat)."""
        outputs = self._outputs(runs)
        outcome, _, first, detections = outputs
        _BLOCKS.play(runs, rng, self._lead(), outputs)
        return tally(self.turns, len(self.model.guards), outcome, first, detections, None)

    def trace(self, uniforms: Array, runs: int) -> DayRuns:
        """Play ``runs`` runs one after the other from the given uniforms (they must be
        enough); every run's end, and the uniforms each drew."""
        outputs = self._outputs(runs)
        used = _BLOCKS.trace(uniforms, runs, self._lead(), outputs)
        outcome, end, first, detections = outputs
        return DayRuns(outcome, end, first, detections[:, : len(self.model.guards)], used)
