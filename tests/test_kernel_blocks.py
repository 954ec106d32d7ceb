"""The driver every compiled kernel shares (:class:`vigile.sim.kernel.blocks.Blocks`), on a
stand-in entry point written in Python: each run draws a given number of uniforms and records
their sum. A block is its generator's stream, unbroken across chunks; a run stopped for a reason
the game settles is played again from its first uniform; a trace counts what each run drew and
says when the uniforms given are too few. (The kernels themselves: the equivalence tests.)"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("numba")

from vigile.sim.kernel.blocks import Blocks, tally
from vigile.sim.kernel.dice import C_POS, C_STATUS, EXHAUSTED

MISSED = 2
"""The stand-in's other stop (as the raid's hearing cases not yet known)."""


def stand_in(
    need: np.ndarray, missing: set[int], uniforms: np.ndarray, ctx: np.ndarray, first: int,
    last: int, sums: np.ndarray,
) -> int:  # fmt: skip
    """A ``play_runs``: run r draws ``need[r]`` uniforms; a run in ``missing`` stops (MISSED,
    its number kept in ``ctx[2]``) until the game settles it."""
    for r in range(first, last):
        start = ctx[C_POS]
        total = 0.0
        for _ in range(need[r]):
            if ctx[C_POS] >= uniforms.shape[0]:
                ctx[C_STATUS] |= EXHAUSTED
                break
            total += uniforms[ctx[C_POS]]
            ctx[C_POS] += 1
        if r in missing:
            ctx[C_STATUS] |= MISSED
            ctx[2] = r
        if ctx[C_STATUS]:
            ctx[C_POS] = start
            return r
        sums[r] = total
    return last


def expected(need: np.ndarray, stream: np.ndarray) -> np.ndarray:
    ends = np.cumsum(need)
    sums = np.zeros(len(need))
    for r, n in enumerate(need):
        for u in stream[ends[r] - n : ends[r]]:
            sums[r] += u
    return sums


def test_a_block_is_its_generators_stream_across_chunks_and_settled_stops() -> None:
    need = np.random.default_rng(1).integers(0, 6, 200)
    missing = {0, 17, 18, 150}
    settled: list[int] = []

    def settle(ctx: np.ndarray) -> None:
        assert ctx[C_STATUS] & MISSED
        settled.append(int(ctx[2]))
        missing.discard(int(ctx[2]))

    sums = np.zeros(len(need))
    blocks = Blocks(stand_in, 7, 3, settle)
    blocks.play(len(need), np.random.default_rng(5), (need, missing), (sums,))
    stream = np.random.default_rng(5).random(int(need.sum()))
    assert np.array_equal(sums, expected(need, stream))
    assert settled == [0, 17, 18, 150]


def test_a_run_longer_than_a_chunk_grows_the_threads_buffer_and_keeps_the_stream() -> None:
    """Runs of up to 40 uniforms on chunks of 7: the stream buffer (one per thread, kept from
    block to block) grows, and what the run had drawn is carried over. In a fresh thread, so
    that no larger buffer of an earlier test is already there."""
    import threading

    need = np.random.default_rng(2).integers(0, 41, 60)
    sums = np.zeros(len(need))
    thread = threading.Thread(
        target=Blocks(stand_in, 7, 3).play,
        args=(len(need), np.random.default_rng(9), (need, set()), (sums,)),
    )
    thread.start()
    thread.join()
    stream = np.random.default_rng(9).random(int(need.sum()))
    assert np.array_equal(sums, expected(need, stream))


def test_a_trace_counts_what_each_run_drew_and_says_when_it_is_short() -> None:
    need = np.array([3, 0, 5, 2])
    uniforms = np.random.default_rng(2).random(10)
    sums = np.zeros(4)
    used = Blocks(stand_in, 7, 3).trace(uniforms, 4, (need, set()), (sums,))
    assert used.tolist() == need.tolist()
    assert np.array_equal(sums, expected(need, uniforms))
    with pytest.raises(ValueError, match="run 2 needs more than the 7 uniforms given"):
        Blocks(stand_in, 7, 3).trace(uniforms[:7], 4, (need, set()), (np.zeros(4),))


def test_a_stop_no_game_settles_is_an_error() -> None:
    sums = np.zeros(3)
    with pytest.raises(RuntimeError, match="no known reason"):
        Blocks(stand_in, 7, 3).play(3, np.random.default_rng(0), (np.ones(3, int), {1}), (sums,))


def test_the_tally_counts_a_guard_once_whoever_it_detected() -> None:
    pairs: Any = np.zeros((3, 2, 2), np.bool_)
    pairs[0, 0, :] = True  # guard 0 detected both intruders in run 0: one run
    pairs[2, 0, 1] = True
    pairs[1, 1, 0] = True
    counted = tally(4, 2, np.array([0, 1, 1]), np.array([1, 0, 4]), pairs, None)
    assert counted.runs == 3
    assert counted.guard_detections.tolist() == [2, 1]
    assert counted.first_detection.tolist() == [1, 1, 0, 0, 1]
    assert counted.outcomes[:2].tolist() == [1, 2]
    assert not counted.heat.any()
    by_guard = tally(4, 1, np.array([0, 1, 1]), np.array([1, 0, 4]), pairs.any(axis=2), None)
    assert by_guard.guard_detections.tolist() == [2]
