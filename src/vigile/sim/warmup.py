"""The compiled kernels' first compile: whether it is done, how long it takes, and doing it in
another process.

numba compiles a kernel on its first call on a machine (tens of seconds, several hundred MiB),
then loads it from its on-disk cache (:mod:`vigile.sim.kernel`). This module keeps that
compile out of the way of the user:

* :func:`kernel_cached` says, before the kernel is built (building one may compile some of
  it), whether a game's kernel is compiled in numba's cache, and :func:`is_compiled`, once it
  is built, whether its entry point is (numba's own index, which it checks against the source
  file), so :mod:`vigile.sim.simulate` can choose the engine for work it finishes sooner than
  a compile.
* :func:`compile_in_child` compiles a scenario's kernel in a child process while the caller
  waits, telling it the time elapsed: Ctrl-C kills the child at once
  (:class:`CompileInterrupted`), and the compile's peak memory is the child's, given back when
  it ends; the caller then loads the kernel from the cache.
* :func:`warm_in_background` starts a detached, low-priority process compiling every game's
  kernel (``vigile serve`` calls it as it starts, so the editor's simulations find them
  compiled), unless a mark in the cache folder says it was done for these sources.

Where the machine has a core to spare, :func:`warm` compiles in two processes: a helper
compiles the pieces the game's plug-in names (its ``kernel_callees``: the night raid's
run calls four functions the model's build does not, a third of its compile) into the cache
while :func:`warm` builds the model, so that the run's function then loads them.

The compiles take a lock in the cache folder, so two processes never compile the same code at
once: the second waits, then loads what the first cached.

``python -m vigile.sim.warmup [--background] SCENARIO...`` compiles the kernels of the given
scenario files or bundled names (``-`` reads one scenario's JSON from standard input; no name:
every bundled scenario of a game with a kernel); ``--background`` lowers its priority first.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

COMPILE_S = 35.0
"""About how long a kernel's first compile takes on an idle machine (``bench/simulate.py
--compile`` measures each game's): what the user is told to expect, and what the engine's
work is weighed against. One figure for every game, the longest: the simulator names no
game."""
POLL_S = 0.1
"""How often :func:`compile_in_child` looks at its child (and lets Ctrl-C in)."""
LOCK_NAME = "vigile-compile.lock"
BACKGROUND = "--background"
"""The child's first argument when it compiles in the background: it lowers its priority."""
HELPER = "--callees"
"""The helper's first argument (:func:`_start_helper`), then the path of the plug-in's
``kernel_callees``; the scenario's JSON on standard input."""
NO_WARMUP = "VIGILE_NO_WARMUP"
"""An environment variable: set (to anything but empty), :func:`warm_in_background` starts
nothing (a test suite starting many servers, a machine with no core to spare)."""


class CompileInterrupted(KeyboardInterrupt):
    """Ctrl-C while a kernel compiled: the compile was abandoned, nothing was played."""


def entry_point(kernel: Any) -> Any | None:
    """The compiled entry point (numba's dispatcher) of a game's kernel, the ``play_runs`` of its
    :class:`~vigile.sim.kernel.blocks.Blocks` (held by the model, or by its module); None for a
    kernel that keeps none where vigile's kernels do."""
    blocks = getattr(kernel, "_blocks", None)
    if blocks is None:
        blocks = getattr(sys.modules.get(type(kernel).__module__), "_BLOCKS", None)
    return getattr(blocks, "play_runs", None)


def is_compiled(kernel: Any) -> bool:
    """Whether the kernel's first call will not compile: its entry point is compiled in this
    process, or numba's cache holds it for its current source. Reads numba's index of the
    entry point (numba's cache internals, pinned with numba's version); where they cannot be
    read, whether the kernels' cache folder exists (:func:`vigile.sim.kernel.compiled_before`)."""
    dispatcher: Any = entry_point(kernel)
    try:
        if dispatcher.overloads:
            return True
        return bool(dispatcher._cache._cache_file._load_index())
    except Exception:  # not numba's dispatcher, or its cache's layout changed
        from vigile.sim.kernel import compiled_before

        return compiled_before()


def compile_seconds(ruleset: str) -> float:
    """About how long the first compile of a game's kernel takes (:data:`COMPILE_S`)."""
    del ruleset  # the same for every game
    return COMPILE_S


def kernel_cached(ruleset: str) -> bool:
    """Whether numba's cache holds a compiled entry point (a ``play_runs``) of the game's
    kernel, found without importing the kernel (building a kernel may compile some of it):
    an index file of a ``play_runs`` in the cache folder numba gives the sources of the game's
    kernel package (:mod:`vigile.sim.kernel` names that cache after every kernel source). A
    game with several kernels (the skirmish raid and day encounter) counts as compiled when
    one is; :func:`is_compiled` then checks the built kernel itself."""
    import importlib.util

    from vigile import registry
    from vigile.sim.kernel import available  # (and numba's cache pointed at vigile's folder)

    kernel = registry.get(ruleset).kernel
    if kernel is None or not available():
        return False
    try:
        import numba
        from numba.core.caching import _CacheLocator

        spec = importlib.util.find_spec(kernel.partition(":")[0])
        if spec is None or spec.origin is None:
            return False
        root = Path(numba.config.CACHE_DIR or "")  # type: ignore[attr-defined]
        sub = _CacheLocator.get_suitable_cache_subpath(spec.origin)  # type: ignore[no-untyped-call]
        folder = root / sub
        return any(folder.glob("*.play_runs-*.nbi"))
    except Exception:  # numba's cache laid out otherwise: as if compiled (no notice)
        return True


def _command(*args: str) -> list[str]:
    return [sys.executable, "-m", "vigile.sim.warmup", *args]


def compile_in_child(scenario_json: str, waiting: Callable[[float], None] | None = None) -> bool:
    """Compile the kernel of a scenario (its JSON) in a child process, calling ``waiting`` with
    the seconds elapsed every :data:`POLL_S` while it works; True once it compiled (and
    cached), False if it failed (the caller then compiles in its own process, where the error
    shows). Ctrl-C kills the child at once and raises :class:`CompileInterrupted`.

    The child runs in its own session: a terminal's Ctrl-C reaches only this process, which
    ends the child (no traceback from it)."""
    start = time.monotonic()
    child = subprocess.Popen(
        _command("-"),
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        assert child.stdin is not None
        with contextlib.suppress(BrokenPipeError):
            child.stdin.write(scenario_json.encode())
            child.stdin.close()
        while True:
            try:
                code = child.wait(POLL_S)
            except subprocess.TimeoutExpired:
                if waiting is not None:
                    waiting(time.monotonic() - start)
                continue
            return code == 0
    except KeyboardInterrupt:
        _end(child)
        raise CompileInterrupted from None
    except BaseException:
        _end(child)
        raise


def _end(child: subprocess.Popen[bytes]) -> None:
    """Kill the child, and the helper it may have started (:func:`_start_helper`, in the
    child's process group where the child leads one)."""
    with contextlib.suppress(OSError):
        if os.getpgid(child.pid) == child.pid:
            os.killpg(child.pid, signal.SIGKILL)
    child.kill()
    with contextlib.suppress(Exception):
        child.wait(5)


def warm_mark() -> Path | None:
    """The file that says every shipped kernel was compiled for the kernels' current sources
    (in the cache folder); None where numba cannot be imported."""
    from vigile.sim.kernel import available

    if not available():
        return None
    from vigile.sim.kernel import cache_dir

    folder = os.environ.get("NUMBA_CACHE_DIR")
    digest = cache_dir().name
    return (Path(folder) if folder else cache_dir()) / f"vigile-warm-{digest}"


def warm_in_background() -> subprocess.Popen[bytes] | None:
    """Start compiling every shipped kernel in a detached process of low priority, unless
    ``VIGILE_NO_WARMUP`` is set; returns the process, or None. It outlives its parent (it only
    fills the cache), says nothing, and ends at once where numba cannot be imported or the
    kernels were compiled for these sources (:func:`warm_mark`): the caller imports nothing
    for it (``vigile serve`` starts without numba)."""
    if os.environ.get(NO_WARMUP):
        return None
    return subprocess.Popen(
        _command(BACKGROUND),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


def compile_in_background(scenario_json: str) -> subprocess.Popen[bytes] | None:
    """Start compiling the kernel of a scenario (its JSON) in a detached process of low
    priority, which outlives its parent and says nothing; None where a compile already holds
    the lock (it will have compiled the kernels by the time it ends), or
    ``VIGILE_NO_WARMUP`` is set."""
    if os.environ.get(NO_WARMUP) or _compiling_now():
        return None
    child = subprocess.Popen(
        _command(BACKGROUND, "-"),
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    assert child.stdin is not None
    with contextlib.suppress(BrokenPipeError):
        child.stdin.write(scenario_json.encode())
        child.stdin.close()
    return child


def _compiling_now() -> bool:
    """Whether another process holds the compile lock now."""
    import fcntl

    try:
        import numba

        folder = Path(numba.config.CACHE_DIR or ".")  # type: ignore[attr-defined]
        with open(folder / LOCK_NAME, "rb") as lock:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return True
            fcntl.flock(lock, fcntl.LOCK_UN)
    except OSError:  # no lock file yet: nobody compiled here
        return False
    return False


@contextlib.contextmanager
def _compile_lock() -> Iterator[None]:
    """Hold the kernels' compile lock (a file in numba's cache folder) while compiling."""
    import fcntl

    import numba

    folder = Path(numba.config.CACHE_DIR or ".")  # type: ignore[attr-defined]
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / LOCK_NAME, "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def warm(scenario: Any) -> bool:
    """Compile (or load) the scenario's kernel and play one run; False where its game has no
    kernel, or the scenario is beyond it."""
    import numpy as np

    from vigile import registry

    plugin = registry.get(scenario.ruleset)
    if plugin.kernel is None:
        return False
    helper = _start_helper(scenario)
    try:
        kernel = plugin.load(plugin.kernel)(scenario)
        if helper is not None:
            helper.wait()
        if kernel is None:
            return False
        with _compile_lock():
            kernel.play(1, np.random.default_rng(0))
    finally:
        if helper is not None and helper.poll() is None:
            _end(helper)
    return True


def _cores() -> int:
    """The cores this process may run on."""
    affinity = getattr(os, "sched_getaffinity", None)  # Linux; elsewhere every core
    return len(affinity(0)) if affinity else (os.cpu_count() or 1)


def _start_helper(scenario: Any) -> subprocess.Popen[bytes] | None:
    """Start a process compiling, into numba's cache, the pieces of the scenario's kernel that
    its game's plug-in names (its ``kernel_callees``, a :class:`vigile.registry.KernelCallees`;
    the skirmish raid's: what the run's function calls that the model's build does not), while
    this process builds the model: then compiling the run's function loads them from the cache.
    None where the game names none or its ``has_callees(scenario)`` is false (a game, or a kind
    of scenario, with no such pieces), the kernel is compiled already, or one core is all there
    is (the two would share it). The helper stays in this process's group:
    :func:`compile_in_child`'s Ctrl-C ends it with its parent."""
    from vigile import registry

    plugin = registry.get(scenario.ruleset)
    if plugin.kernel is None or plugin.kernel_callees is None or _cores() < 2:
        return None
    if kernel_cached(scenario.ruleset) or not plugin.callees().has_callees(scenario):
        return None
    child = subprocess.Popen(
        _command(HELPER, plugin.kernel_callees),
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    assert child.stdin is not None
    with contextlib.suppress(BrokenPipeError):
        child.stdin.write(scenario.model_dump_json().encode())
        child.stdin.close()
    return child


def _help(path: str, scenario_json: bytes) -> int:
    """The helper's work (:func:`_start_helper`): the ``compile_callees`` of the
    :class:`vigile.registry.KernelCallees` at ``path`` (the plug-in's ``kernel_callees``)."""
    from vigile.registry import KernelCallees, load_object
    from vigile.scene.model import Scenario

    callees = load_object(path)
    if not isinstance(callees, KernelCallees):
        return 1
    callees.compile_callees(Scenario.model_validate_json(scenario_json))
    return 0


def _kernel_scenarios() -> list[str]:
    """The bundled scenarios of the games that have a kernel: between them, every kernel
    vigile ships (the first of a kind compiles it, the others load it)."""
    from vigile import registry
    from vigile.scene.loader import bundled_names, load_scenario

    return [
        name
        for name in bundled_names()
        if registry.get(load_scenario(name).ruleset).kernel is not None
    ]


def main(argv: list[str]) -> int:
    """Compile the kernels of the scenarios named (see the module's docstring)."""
    from vigile.scene.loader import load_scenario
    from vigile.scene.model import Scenario
    from vigile.sim.kernel import available

    if argv[:1] == [BACKGROUND]:
        argv = argv[1:]
        with contextlib.suppress(OSError):
            os.nice(10)
    if not available():
        return 1
    if argv[:1] == [HELPER] and len(argv) == 2:
        return _help(argv[1], sys.stdin.buffer.read())
    if argv == ["-"]:
        warm(Scenario.model_validate_json(sys.stdin.buffer.read()))
        return 0
    mark = None if argv else warm_mark()
    if mark is not None and mark.exists():
        return 0
    for name in argv or _kernel_scenarios():
        warm(load_scenario(name))
    if mark is not None:
        mark.parent.mkdir(parents=True, exist_ok=True)
        mark.touch()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
