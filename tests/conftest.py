"""Shared fixtures (the shipped rule data of each ruleset) and the hypothesis profiles.

With ``CI`` set (CI runs with ``CI=true``) hypothesis runs the ``ci`` profile: no deadline, so a
property test on a loaded two-core machine fails only on a wrong answer, never on a slow example;
its examples are derandomized, so a CI run is reproducible. Locally the default profile applies
(``--hypothesis-profile=ci`` picks the other one by hand).

A session starts ``warm_kernels.py`` in the background: on a fresh machine the numba kernels
compile on the second core while the first tests run (about four minutes from an empty cache).
The tests that play the compiled kernels (:data:`KERNEL_MODULES`) run last, each waiting for
that compile to be done rather than compiling the same code again beside it (so does any other
simulation that reaches for a kernel: ``vigile.sim.simulate._kernel`` waits first).
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

from vigile.rulesets.data import RuleData, apply_overrides, shipped

settings.register_profile("ci", deadline=None, derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


@pytest.fixture
def skirmish() -> RuleData:
    """The skirmish numbers as shipped (the table wins, SK-N8)."""
    return shipped("skirmish")


@pytest.fixture
def skirmish_example_floor() -> RuleData:
    """The house rule that reproduces the seed's example: a death on a floor is 4+ (SK-N8)."""
    return apply_overrides(shipped("skirmish"), "[noise.base]\ndeath_floor = 4\n", "example.toml")


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """Debian's Chromium for one module of browser tests (tests/browser.py)."""
    from browser import launched_chromium

    yield from launched_chromium()


KERNEL_MODULES = frozenset(
    {
        "test_kernel_d20_equivalence.py",
        "test_kernel_d20_features.py",
        "test_kernel_day_equivalence.py",
        "test_kernel_equivalence.py",
        "test_kernel_wiring.py",
        "test_extras.py",
        "test_hand_worked.py",
        "test_interrupts.py",
        "test_riskmap_d20.py",
        "test_sim.py",
        "test_web_editor.py",
    }
)
"""The test modules that play the compiled kernels (or start workers that load them, or
simulate enough runs to reach them)."""
WARMING: list[subprocess.Popen[bytes]] = []
"""The background compile of this session (:func:`warm_kernels`)."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The kernels' modules last, in their order: by then the background compile is done."""
    items.sort(key=lambda item: item.path.name in KERNEL_MODULES)  # stable


def _wait_for_the_kernels() -> None:
    """Wait for the background compile (at most ten minutes; then the test compiles)."""
    if WARMING:
        with contextlib.suppress(subprocess.TimeoutExpired):
            WARMING[0].wait(timeout=600)


def pytest_runtest_setup(item: pytest.Item) -> None:
    """A kernel test waits for the background compile."""
    if item.path.name in KERNEL_MODULES:
        _wait_for_the_kernels()


@pytest.fixture(scope="session", autouse=True)
def warm_kernels() -> Iterator[None]:
    """Compile the simulation kernels in a background process (``warm_kernels.py``); stopped
    at the end of the session if it is still at it."""
    script = Path(__file__).with_name("warm_kernels.py")
    # not measured by coverage (CI's `patch = subprocess`): the kernels it compiles are not
    # traced anyway, and tracing numba's compiler made the compile minutes longer
    quiet = {k: v for k, v in os.environ.items() if not k.startswith("COVERAGE_PROCESS")}
    warming = subprocess.Popen(
        [sys.executable, str(script)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=quiet,
    )
    WARMING.append(warming)
    # any other test whose simulation reaches for a compiled kernel waits for it too
    from vigile.sim import simulate

    reach = simulate._kernel

    def waiting(scenario: Any) -> Any:
        _wait_for_the_kernels()
        return reach(scenario)

    simulate._kernel = waiting
    yield
    simulate._kernel = reach
    WARMING.clear()
    if warming.poll() is None:
        warming.kill()
    warming.wait()
