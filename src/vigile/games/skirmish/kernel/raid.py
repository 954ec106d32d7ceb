"""The compiled kernel's side of the simulator: blocks of runs from a stream of uniforms.

:class:`KernelRaid` is a batched model (:class:`vigile.sim.tally.Batched`): ``play(runs, rng)``
plays ``runs`` runs, each to its own end, from the uniforms ``rng.random()`` gives, in order,
and tallies them. The stream is drawn in chunks and handed to the kernel
(:mod:`vigile.games.skirmish.kernel.play`) by the driver every kernel shares
(:class:`vigile.sim.kernel.blocks.Blocks`); a run that reaches the end of a chunk, or a case of
the hearing table not yet asked of the rule, is played again from its first uniform once the
chunk is refilled or the case known (:meth:`KernelRaid._settle`): the same uniforms, the same
run. So a block's numbers depend only on its generator.

:meth:`KernelRaid.trace` plays given uniforms and returns every run's end (the exact test
against the turn engine, ``tests/test_kernel_equivalence.py``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from vigile.engine.result import Ending
from vigile.games.skirmish.kernel import play as kernel
from vigile.games.skirmish.kernel.tables import KernelModel, build
from vigile.scene.model import Scenario
from vigile.sim.kernel.blocks import Blocks, Runs, heat_scale, tally
from vigile.sim.kernel.dice import C_STATUS
from vigile.sim.tally import CODE, HEAT_BINS, Tally

_play_runs: Any = kernel.play_runs
"""The compiled entry point (numba's dispatcher, untyped)."""
_posted_codes: Any = kernel.posted_codes
"""The posted guards' codes, filled once per model (:attr:`~.play.Raid.posted_look`)."""
CHUNK = 1 << 20
"""Uniforms drawn from the generator at a time (8 MiB): a block of 4,096 night raids draws
about 900,000."""

Array = np.ndarray[Any, Any]


def raid_arrays(model: KernelModel) -> kernel.Raid:
    """The model as the kernel reads it (:class:`~.play.Raid`), its sight lists empty until the
    posted guards' codes are filled (:func:`with_sight_lists`)."""
    shape = tuple(max(1, int(model.numbers[n])) for n in ("n_turns", "n_intruders", "n_guards"))
    none = np.zeros(1, np.int64)
    fields: dict[str, Any] = {
        **{name: model.arrays[name] for name in kernel.Raid._fields if name in model.arrays},
        **model.numbers,
        "hear": model.hear,
        "posted_look": np.full((*shape, 2), kernel.UNKNOWN, np.int64),
        "posted_find": np.full(shape, kernel.UNKNOWN, np.int64),
        "look_start": none,
        "look_pairs": np.zeros((0, 2), np.int64),
        "find_start": none,
        "find_pairs": np.zeros((0, 2), np.int64),
        "ending_unseen": CODE[Ending.OBJECTIVE_UNSEEN],
        "ending_detected": CODE[Ending.OBJECTIVE_DETECTED],
        "ending_after_alarm": CODE[Ending.OBJECTIVE_AFTER_ALARM],
        "ending_alarm": CODE[Ending.ALARM],
        "ending_turn_limit": CODE[Ending.TURN_LIMIT],
    }
    return kernel.Raid(**fields)


def with_sight_lists(m: kernel.Raid) -> kernel.Raid:
    """The model with the sight phase's pairs, turn by turn (``look_start``, ``look_pairs``,
    ``find_start``, ``find_pairs``: see :class:`~.play.Raid`), from the model once the posted
    guards' codes are filled: each (guard, intruder) look, by guard then intruder, but a
    posted guard's whose codes are NEVER; each (intruder, guard) discovery, by intruder then
    guard, but of a guard known from the start or a posted guard whose code is NEVER.
    ``np.nonzero`` lists the pairs in that order (turn, then the first index)."""
    patrolling = m.patrolling
    look = m.posted_look  # [t, i, g, alert]
    find = m.posted_find  # [t, i, g]
    n_t = look.shape[0]
    looks = patrolling[None, :, None] | (look != kernel.NEVER).any(axis=3).transpose(0, 2, 1)
    finds = ~m.known[None, :, :] & (patrolling[None, None, :] | (find != kernel.NEVER))
    n_g, n_i = m.n_guards, m.n_intruders
    looks[:, n_g:, :] = looks[:, :, n_i:] = False  # the placeholder of an empty side
    finds[:, n_i:, :] = finds[:, :, n_g:] = False

    def csr(mask: Array) -> tuple[Array, Array]:
        t, first, second = np.nonzero(mask)
        start = np.searchsorted(t, np.arange(n_t + 1)).astype(np.int64)
        return start, np.stack([first, second], axis=1).astype(np.int64)

    look_start, look_pairs = csr(looks)
    find_start, find_pairs = csr(finds)
    return m._replace(
        look_start=look_start, look_pairs=look_pairs, find_start=find_start, find_pairs=find_pairs
    )


def new_state(model: KernelModel) -> kernel.State:
    """A run's working arrays (reset by the kernel at each run) and the caches of the posted
    guards' walls and lines of sight (kept in the model: they hold geometry, not chance)."""
    numbers = model.numbers
    n_g = max(1, int(numbers["n_guards"]))
    n_i = max(1, int(numbers["n_intruders"]))
    m = int(numbers["n_walls"])
    n_ops = model.arrays["ops"].shape[0]
    n_states = model.arrays["sight_mask"].shape[0]
    n_t = max(1, int(numbers["n_turns"]))
    if "walls" not in model.caches:
        model.caches["walls"] = np.full((n_ops + n_states * n_g, n_g), -1, np.int64)
        model.caches["line"] = np.full((n_ops + n_t * n_i, n_g), -1, np.int64)
        model.caches["steps"] = np.full((n_ops + n_states * n_g, n_g), -1, np.int64)
    return kernel.State(
        gx=np.zeros(n_g),
        gy=np.zeros(n_g),
        alive=np.zeros(n_g, np.bool_),
        alert=np.zeros(n_g, np.bool_),
        watches=np.zeros((n_g, n_i), np.bool_),
        resolved=np.zeros((n_g, n_i), np.bool_),
        aware=np.zeros((n_i, n_g), np.int64),
        knows=np.zeros((n_i, n_g), np.bool_),
        queue=np.zeros((n_g * n_i + 1, 2), np.int64),
        pairs=np.zeros((n_g, n_i), np.bool_),
        scalars=np.zeros(8, np.int64),
        candidates=_query_walls(model.arrays["every_wall"], m + 4),
        stamp=np.zeros(m + 1, np.int64),
        scratch=np.zeros((2, m + 4)),
        done_group=np.zeros(max(1, int(numbers["n_groups"])), np.int64),
        heat_x=np.zeros(n_g * n_i + 1),
        heat_y=np.zeros(n_g * n_i + 1),
        cache_walls=model.caches["walls"],
        cache_line=model.caches["line"],
        turn_line=np.full((n_i, n_g), -1, np.int64),
        guard_view=np.full((2, n_g), -1, np.int64),
        cache_steps=model.caches["steps"],
        epoch=np.zeros(1, np.int64),
    )


def callees(m: kernel.Raid, w: kernel.State) -> list[tuple[Any, tuple[Any, ...]]]:
    """The compiled functions the run's function (``play_runs``) calls that the model's build
    (``posted_codes``) does not, with arguments of the types the run's function passes them
    (``m``, ``w``: a model and a state; the values matter not): the pieces a second process
    compiles into numba's cache while the first builds the model (:func:`compile_callees`).
    In the order ``play_runs`` meets them (``_move``, the largest, first)."""
    # the helpers' tuples, as the run's function makes them
    h = kernel._queries.py_func(m, w)  # type: ignore[attr-defined]
    one: Any = np.int64(0)
    none: Any = np.int64(-1)
    move = (
        w.gx[0], w.gy[0], 0.0, 0.0, m.move, m.x1, m.y1, m.x2, m.y2, m.normal_x, m.normal_y,
        m.has_normal, m.near_walls[0:1], one, m.width, m.height, m.bounces, m.margin,
    )  # fmt: skip
    mask = m.noise_mask[0]
    between = (h.segments, h.line, mask, 0.0, 0.0, 0.0, 0.0)
    sound = kernel.Sound(
        m.melee_sound, w.gx[0], w.gy[0], one, m.intruder_outfit[0], m.positions[0, 0, 0],
        m.positions[0, 0, 1], m.attitudes[0, 0], m.lit[0, 0], mask, m.sight_mask[0], one, none,
        one,
    )  # fmt: skip
    uniforms, ctx = np.zeros(1), np.zeros(1, np.int64)
    reaches = (m.ops, w.gx, w.gy, m.sight_mask, m.move_mask, h.segments, h.line, one, one)
    return [
        (kernel._move, move),
        (kernel._walls_between, between),
        (kernel._blow_noise, (h, sound, uniforms, ctx)),
        (kernel._reaches, reaches),
    ]


def compile_callees(scenario: Scenario) -> None:
    """Compile, into numba's cache, the functions the raid's run calls that building its model
    does not (:func:`callees`): :func:`vigile.sim.warmup.warm` has a second process do it
    while it builds the model, so that compiling the run's function finds them compiled."""
    import numba

    typeof: Any = numba.typeof
    model = build(scenario)
    for function, args in callees(raid_arrays(model), new_state(model)):
        function.compile(tuple(typeof(a) for a in args))


def _query_walls(every_wall: Array, size: int) -> Array:
    """A query's walls: the entries of every wall first (the list a query tries where there
    are few, ``L_BRUTE``), room for ``size`` walls (those it gathers by cell, else)."""
    candidates = np.zeros(max(size, every_wall.shape[0]), np.int64)
    candidates[: every_wall.shape[0]] = every_wall
    return candidates


class KernelRaid:
    """The skirmish plug-in's compiled model of a night raid (:class:`vigile.sim.tally.Batched`)."""

    def __init__(self, model: KernelModel) -> None:
        self.model = model
        m = raid_arrays(model)
        _posted_codes(m, new_state(model))
        self._m = with_sight_lists(m)
        self._blocks = Blocks(
            _play_runs, CHUNK, kernel.C_MISSES + 1 + kernel.MOST_MISSES, self._settle
        )

    @classmethod
    def of(cls, scenario: Scenario) -> KernelRaid:
        return cls(build(scenario))

    @property
    def turns(self) -> int:
        return self.model.turns

    def _outputs(self, runs: int, every: bool) -> tuple[Array, ...]:
        """The kernel's outputs for ``runs`` runs; the guards' ends (alive, alert, what each
        intruder knew) of every run, or (``every`` false: the tally reads none of them) of the
        last only, which spares a million runs 300 MB of memory written for nothing."""
        n_g = max(1, int(self.model.numbers["n_guards"]))
        n_i = max(1, int(self.model.numbers["n_intruders"]))
        kept = runs if every else 1
        return (
            np.zeros(runs, np.int64),
            np.zeros(runs, np.int64),
            np.zeros(runs, np.int64),
            np.zeros((runs, n_g, n_i), np.bool_),
            np.zeros((kept, n_g), np.bool_),
            np.zeros((kept, n_g), np.bool_),
            np.zeros((kept, n_i, n_g), np.int64),
            np.zeros((HEAT_BINS, HEAT_BINS), np.int64),
        )

    def _heat_scale(self) -> Array:
        return heat_scale(self.model.numbers["width"], self.model.numbers["height"])

    def _settle(self, ctx: Array) -> None:
        """Ask the rule for the cases the last call missed (the run is then played again)."""
        for flat in ctx[kernel.C_MISSES + 1 : kernel.C_MISSES + 1 + ctx[kernel.C_MISSES]]:
            if self.model.hear.flat[int(flat)] == kernel.UNKNOWN:
                self.model.fill(int(flat))
        if ctx[C_STATUS] & kernel.LIMIT:
            raise RuntimeError("the kernel met a case beyond its tables")  # pragma: no cover
        ctx[kernel.C_MISSES] = 0

    def play(self, runs: int, rng: np.random.Generator) -> Tally:
        """Play ``runs`` runs from ``rng``'s uniforms and tally them."""
        outputs = self._outputs(runs, every=False)
        outcome, _, first, pairs, _, _, _, heat = outputs
        lead = (self._m, new_state(self.model))
        self._blocks.play(runs, rng, lead, (*outputs, self._heat_scale()))
        guards = len(self.model.sim.names)
        return tally(self.turns, guards, outcome, first, pairs, heat)

    def trace(self, uniforms: Array, runs: int) -> Runs:
        """Play ``runs`` runs one after the other from the given uniforms (they must be
        enough); every run's end, and the uniforms each drew."""
        outputs = self._outputs(runs, every=True)
        lead = (self._m, new_state(self.model))
        used = self._blocks.trace(uniforms, runs, lead, (*outputs, self._heat_scale()))
        outcome, end, first, pairs, alive, alert, aware, heat = outputs
        return Runs(outcome, end, first, pairs, alive, alert, aware, used, heat)
