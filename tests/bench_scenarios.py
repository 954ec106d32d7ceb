"""The benchmark's scenarios for the tests: ``bench/simulate.py`` loaded as a module, for its
raids made from the night raid (``with_walls_cut``: the same board, its walls in pieces)."""

from __future__ import annotations

import functools
import importlib.util
from pathlib import Path
from typing import Any


@functools.cache
def bench_simulate() -> Any:
    """``bench/simulate.py`` as a module."""
    path = Path(__file__).parents[1] / "bench" / "simulate.py"
    spec = importlib.util.spec_from_file_location("vigile_bench_simulate", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
