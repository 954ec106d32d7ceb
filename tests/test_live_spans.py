"""The spans of a replayed state (:mod:`vigile.live.spans`): a mapping record → events that
pickles as arrays, for checkpoints that cost the same at 10 records as at 10,000 (issue 34)."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from vigile.live.spans import Spans


@given(st.lists(st.tuples(st.integers(1, 50), st.integers(0, 5)), max_size=200))
def test_spans_behave_as_the_dict_they_replace(steps: list[tuple[int, int]]) -> None:
    expected: dict[int, tuple[int, int]] = {0: (0, 3)}
    spans = Spans({0: (0, 3)})
    seq, end = 0, 3
    for gap, logged in steps:
        seq, start, end = seq + gap, end, end + logged
        expected[seq] = (start, end)
        spans[seq] = (start, end)
    assert len(spans) == len(expected) and list(spans) == list(expected)
    assert dict(spans.items()) == expected and dict(spans) == expected and spans == expected
    assert spans.last() == expected[seq] and spans.seqs(1) == list(expected)[1:]
    for key, span in expected.items():
        assert key in spans and spans[key] == span and spans.get(key) == span
    assert spans.get(seq + 1) is None and (seq + 1) not in spans
    with pytest.raises(KeyError):
        spans[seq + 1]
    back = pickle.loads(pickle.dumps(spans, protocol=5))
    assert back == expected and copy.deepcopy(spans) == expected and copy.copy(spans) == spans
    back[seq + 1] = (end, end + 1)  # the copy grows on its own
    assert len(back) == len(spans) + 1 and (seq + 1) not in spans


def test_a_span_comes_after_the_last() -> None:
    spans = Spans({0: (0, 1), 4: (1, 2)})
    with pytest.raises(ValueError, match="record 4 after record 4"):
        spans[4] = (2, 3)
    with pytest.raises(ValueError):
        spans[2] = (2, 3)


@pytest.mark.parametrize(
    "state",
    [
        # a record after itself (a difference of 0), arrays of unequal lengths, floats, 2 arrays
        (np.array([0, 2, 0]), np.zeros(3, dtype=np.int64), np.zeros(3, dtype=np.int64)),
        (np.zeros(2, dtype=np.int64), np.zeros(3, dtype=np.int64), np.zeros(3, dtype=np.int64)),
        (np.zeros(2, dtype=np.float64),) * 3,
        (np.zeros(2, dtype=np.int64),) * 2,
        "spans",
    ],
)
def test_spans_that_do_not_read_back_are_refused(state: object) -> None:
    with pytest.raises(ValueError, match="not the spans of a log"):
        Spans().__setstate__(state)  # type: ignore[arg-type]
