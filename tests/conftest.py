"""Shared fixtures (the shipped rule data of each ruleset) and the hypothesis profiles.

With ``CI`` set (CI runs with ``CI=true``) hypothesis runs the ``ci`` profile: no deadline, so a
property test on a loaded two-core machine fails only on a wrong answer, never on a slow example;
its examples are derandomized, so a CI run is reproducible. Locally the ``dev`` profile applies:
random examples, as a newcomer runs the README's test command, and no deadline either (a test
never asserts on time: a slow example on a busy machine is not a wrong answer);
``--hypothesis-profile=ci`` picks the other one by hand.

The suite runs on every core (pytest-xdist, ``-n auto --dist loadfile`` in pyproject.toml: a
module's tests stay in one worker, with its servers and browser). The modules are handed out in
the order :func:`pytest_collection_modifyitems` gives (``--no-loadscope-reorder``: not xdist's
own, by number of tests, which left the longest modules of one or two tests for the end, one
worker playing them while the other waited): the longest known modules first
(:data:`LONG_MODULES`), so that the last ones are short and the workers end together. The
session's first
process starts ``warm_kernels.py`` in the background, once for all the workers: on a fresh
machine the numba kernels compile (a minute and a half from an empty cache) while the first tests
run. The tests that play the compiled kernels (:data:`KERNEL_MODULES`) run last in each worker,
each waiting for the compile's done file rather than compiling the same code again beside it
(so does any other simulation that reaches for a kernel: ``vigile.sim.simulate._kernel`` waits
first). ``-n 0`` runs the suite in one process, as before.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

from vigile.rulesets.data import RuleData, apply_overrides, shipped

settings.register_profile("ci", deadline=None, derandomize=True, print_blob=True)
settings.register_profile("dev", deadline=None, print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


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


@pytest.fixture(autouse=True)
def no_policy_violation(request: pytest.FixtureRequest) -> Iterator[None]:
    """A browser test fails when one of its pages reported a Content-Security-Policy
    violation (tests/browser.py watches every page; issue 34)."""
    yield
    if "chromium" in request.fixturenames:
        found = request.getfixturevalue("chromium").taken()
        assert not found, "Content-Security-Policy violations:\n" + "\n".join(found)


D20 = ("starfinder", "dnd35")
KERNEL_MODULES: dict[str, tuple[str, ...]] = {
    "test_kernel_day_equivalence.py": ("skirmish",),
    "test_kernel_equivalence.py": ("skirmish",),
    "test_kernel_wiring.py": ("skirmish",),
    "test_extras.py": ("skirmish",),
    "test_hand_worked.py": ("skirmish",),
    "test_interrupts.py": ("skirmish",),
    "test_sim.py": ("skirmish",),
    "test_web_editor.py": ("skirmish",),
    "test_kernel_geometry.py": ("skirmish",),
    "test_kernel_callees.py": ("skirmish",),
    "test_riskmap_d20.py": D20,
    "test_kernel_d20_features.py": D20,
    "test_kernel_d20_equivalence.py": D20,
}
"""The test modules that play the compiled kernels (or start workers that load them, or
simulate enough runs to reach them, or compile kernel pieces themselves: ``test_kernel_callees``
compiles into a cache of its own, and is kept out of the background compile's way), in the order
they run, last: the games whose kernels each waits for (the skirmish's compile first,
``warm_kernels.ORDER``)."""
WARM_DONE = "VIGILE_TEST_WARM_DONE"
"""The environment variable naming the folder where the background compile writes a file for
each game whose kernels are ready: set by the session's first process, read by it and by
pytest-xdist's workers (its children)."""
WARM_ALL = "all"
"""The file ``warm_kernels.py`` writes last (its ``ALL``): every kernel compiled, or the compile
stopped; a test of a game without a kernel of its own waits no longer."""
WARM_WAIT_S = 600.0
"""How long a kernel test waits for the background compile at most (then it compiles)."""
WORKER_NICENESS = 10
"""How much lower an xdist worker's priority is than the background compile's."""
WARMING: list[subprocess.Popen[bytes]] = []
"""The background compile of this session, in the process that started it."""


MOST_WORKERS = 4
"""``-n auto`` (pyproject's addopts, pytest-xdist): one worker a core, at most this many (the
suite's longest module, the d20 equivalence, takes a fifth of it: more would wait on it)."""


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """How many workers ``-n auto`` starts: the cores this process may run on, at most
    :data:`MOST_WORKERS`."""
    affinity = getattr(os, "sched_getaffinity", None)  # Linux; elsewhere every core
    cores = len(affinity(0)) if affinity else (os.cpu_count() or 1)
    return max(1, min(MOST_WORKERS, cores))


def pytest_configure(config: pytest.Config) -> None:
    """The session's first process (not an xdist worker) starts ``warm_kernels.py``: once for
    the whole session, however many workers."""
    if hasattr(config, "workerinput"):
        # a worker yields the processor to the background compile, the suite's longest task
        # on a fresh machine (the kernel modules wait for it): at its full speed it is done
        # about when the other tests are
        if hasattr(os, "nice"):  # not on Windows
            os.nice(WORKER_NICENESS)
        return
    if WARM_DONE in os.environ:
        return
    done = Path(tempfile.mkdtemp(prefix="vigile-warm-"))
    os.environ[WARM_DONE] = str(done)  # before the workers start: they inherit it
    script = Path(__file__).with_name("warm_kernels.py")
    # not measured by coverage (CI's `patch = subprocess`): the kernels it compiles are not
    # traced anyway, and tracing numba's compiler made the compile minutes longer
    quiet = {k: v for k, v in os.environ.items() if not k.startswith("COVERAGE_PROCESS")}
    WARMING.append(
        subprocess.Popen(
            [sys.executable, str(script), str(done)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=quiet,
        )
    )


def pytest_unconfigure(config: pytest.Config) -> None:
    """Stop the background compile if it is still at it; remove its files."""
    for warming in WARMING:
        if warming.poll() is None:
            warming.kill()
        warming.wait()
        shutil.rmtree(os.environ.pop(WARM_DONE), ignore_errors=True)
    WARMING.clear()


LONG_MODULES: dict[str, float] = {
    "test_kernel_d20_equivalence.py": 100.0,
    "test_browser_injection.py": 50.0,
    "test_kernel_d20_features.py": 45.0,
    "test_kernel_callees.py": 35.0,
    "test_kernel_wiring.py": 35.0,
    "test_kernel_geometry.py": 35.0,
    "test_perceive_states.py": 30.0,
    "test_browser.py": 30.0,
    "test_rules_coverage.py": 25.0,
    "test_sim_model_choice.py": 20.0,
    "test_riskmap_d20.py": 15.0,
    "test_serve_processes.py": 15.0,
    "test_degenerate.py": 12.0,
    "test_sim.py": 10.0,
}
"""The longest modules, about how many seconds each takes under CI (two workers, coverage: the
slowest tests ``--durations`` listed, summed per module, rounded up): an order, not a limit.
A module not listed counts as short."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The longest modules first (:data:`LONG_MODULES`), the others as collected, the kernels'
    modules last (longest first, then in :data:`KERNEL_MODULES`' order): by then the background
    compile of their games is done, or nearly. A module's tests keep their order."""
    kernel = {name: k for k, name in enumerate(KERNEL_MODULES)}

    def place(item: pytest.Item) -> tuple[bool, float, int]:
        name = item.path.name
        return name in kernel, -LONG_MODULES.get(name, 0.0), kernel.get(name, -1)

    items.sort(key=place)  # stable


def _wait_for_the_kernels(rulesets: tuple[str, ...]) -> None:
    """Wait for the background compile of these games' kernels (at most :data:`WARM_WAIT_S`)."""
    done = os.environ.get(WARM_DONE)
    if not done:
        return
    deadline = time.monotonic() + WARM_WAIT_S
    while time.monotonic() < deadline:
        if (
            all((Path(done) / name).exists() for name in rulesets)
            or (Path(done) / WARM_ALL).exists()
        ):
            return
        if WARMING and WARMING[0].poll() is not None:
            return  # it stopped without writing the files: nothing to wait for
        time.sleep(0.2)


def pytest_runtest_setup(item: pytest.Item) -> None:
    """A kernel test waits for the background compile of its games."""
    if item.path.name in KERNEL_MODULES:
        _wait_for_the_kernels(KERNEL_MODULES[item.path.name])


@pytest.fixture(scope="session", autouse=True)
def kernels_wait_for_the_compile() -> Iterator[None]:
    """Any other test whose simulation reaches for a compiled kernel waits for the background
    compile too (``vigile.sim.simulate._kernel`` wrapped for the session)."""
    from vigile.sim import simulate

    reach = simulate._kernel

    def waiting(scenario: Any) -> Any:
        _wait_for_the_kernels((scenario.ruleset,))
        return reach(scenario)

    simulate._kernel = waiting
    yield
    simulate._kernel = reach
