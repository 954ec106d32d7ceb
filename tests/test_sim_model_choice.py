"""Which model plays a simulation, and the kernel's first compile (``vigile.sim.warmup``).

The choice (:func:`vigile.sim.simulate.choose`) is tested without compiling anything: the
night raid is 40 turns of 14 actors, 560 actor-turns a game; at
:data:`~vigile.sim.simulate.ENGINE_S_PER_ACTOR_ROUND` (0.4 ms) a game is 0.224 s of engine
time, against a compile of about 35 s (:data:`~vigile.sim.warmup.COMPILE_S`): 156 games
(34.94 s) are the engine's, 157 (35.17 s) wait for the compile. One test compiles nothing but
starts a real compile with a fresh numba cache and interrupts it (``multiprocess``).
"""

from __future__ import annotations

import contextlib
import json
import os
import pty
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from vigile.errors import InputError
from vigile.scene.loader import load_scenario
from vigile.sim import simulate as simulate_module
from vigile.sim import warmup
from vigile.sim.simulate import MAX_ENGINE_ROUNDS, Choice, Notice, choose, simulate

HANG_S = 30
"""Seconds after which a child that should have answered has hung (never a measure of speed)."""


@pytest.fixture(scope="module")
def raid() -> object:
    scenario = load_scenario("night-raid")
    assert scenario.turns == 40 and len(scenario.actors) == 14  # the sums of the docstring
    return scenario


def test_a_compiled_kernel_plays_however_few_the_runs(raid: object) -> None:
    assert choose(raid, 1, has_kernel=True) == Choice(kernel=True)  # type: ignore[arg-type]


def test_a_cold_kernel_leaves_small_work_to_the_engine(raid: object) -> None:
    """156 games: 34.94 s of engine time, under the 35 s compile; the kernel compiles behind."""
    choice = choose(raid, 156, has_kernel=True, compiled=False)  # type: ignore[arg-type]
    assert not choice.kernel and choice.notice is Notice.ENGINE_FIRST and choice.compile_behind
    assert not choice.compile_first
    assert choice.seconds == pytest.approx(156 * 560 * 0.0004)


def test_a_cold_kernel_compiles_first_for_more_work(raid: object) -> None:
    """157 games: 35.17 s of engine time, over the compile: the kernel, compiled first."""
    choice = choose(raid, 157, has_kernel=True, compiled=False)  # type: ignore[arg-type]
    assert choice.kernel and choice.notice is Notice.COMPILING and choice.compile_first
    assert choice.seconds == warmup.COMPILE_S == 35.0


def test_workers_share_the_engines_work(raid: object) -> None:
    """312 games on 2 workers: 312 x 0.224 / 2 = 34.94 s, the engine's."""
    one = choose(raid, 312, has_kernel=True, compiled=False)  # type: ignore[arg-type]
    two = choose(raid, 312, has_kernel=True, compiled=False, workers=2)  # type: ignore[arg-type]
    assert one.kernel and not two.kernel


def test_work_beyond_the_engines_limit_waits_for_the_compile(
    raid: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    """However long a compile, the engine plays no more than its limit of actor-turns."""
    monkeypatch.setattr(warmup, "COMPILE_S", 1e9)
    runs = MAX_ENGINE_ROUNDS // 560 + 1
    assert choose(raid, runs, has_kernel=True, compiled=False).kernel  # type: ignore[arg-type]
    assert not choose(raid, runs - 1, has_kernel=True, compiled=False).kernel  # type: ignore[arg-type]


def test_without_numba_or_beyond_the_kernel_the_engine(raid: object) -> None:
    no_numba = choose(raid, 10_000, has_kernel=True, numba=False)  # type: ignore[arg-type]
    assert not no_numba.kernel and no_numba.notice is Notice.NO_NUMBA
    beyond = choose(raid, 10_000, has_kernel=True, covered=False)  # type: ignore[arg-type]
    assert beyond == Choice(kernel=False)
    assert choose(raid, 10_000, has_kernel=False) == Choice(kernel=False)  # type: ignore[arg-type]


def test_the_model_asked_for(raid: object) -> None:
    """--model engine plays the engine even with a compiled kernel; --model kernel compiles
    the kernel first even for one run, and is refused where the kernel cannot play."""
    assert choose(raid, 10**6, has_kernel=True, model="engine") == Choice(kernel=False)  # type: ignore[arg-type]
    one = choose(raid, 1, has_kernel=True, compiled=False, model="kernel")  # type: ignore[arg-type]
    assert one.kernel and one.compile_first and one.notice is Notice.COMPILING
    for found in ({"has_kernel": False}, {"has_kernel": True, "numba": False}):
        with pytest.raises(InputError, match="--model"):
            choose(raid, 1, model="kernel", **found)  # type: ignore[arg-type]
    with pytest.raises(InputError, match="--model"):
        choose(raid, 1, has_kernel=True, covered=False, model="kernel")  # type: ignore[arg-type]
    with pytest.raises(InputError, match="one of auto, kernel, engine"):
        choose(raid, 1, has_kernel=True, model="batch")  # type: ignore[arg-type]


def test_simulate_plays_the_engine_while_the_kernel_compiles_behind(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A cold kernel and 20 games: the engine plays them (the same tally as the engine's own
    blocks), the kernel's compile is started in the background, and nothing is built."""
    scenario = load_scenario("night-raid")
    started: list[str] = []
    monkeypatch.setattr(warmup, "kernel_cached", lambda ruleset: False)
    monkeypatch.setattr(warmup, "compile_in_background", started.append)
    monkeypatch.setattr(simulate_module, "_kernel", _no_build)
    heard: list[tuple[Notice, float]] = []
    result = simulate(scenario, 20, seed=4, notify=lambda n, s: heard.append((n, s)))
    assert not result.batched and result.runs == 20
    assert [notice for notice, _ in heard] == [Notice.ENGINE_FIRST]
    assert heard[0][1] == pytest.approx(20 * 560 * 0.0004)
    assert [json.loads(sent)["name"] for sent in started] == [scenario.name]  # sent itself
    expected = simulate(scenario, 20, seed=4, model="engine")
    assert (result.tally.outcomes == expected.tally.outcomes).all()


def _no_build(scenario: object) -> None:
    raise AssertionError("a cold kernel is not built before the engine plays")


def test_simulate_compiles_first_in_a_child_then_plays_the_kernel(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A cold kernel and more work than the engine's: the notice, then the compile in a child
    (here a stand-in that reports twice), then the kernel plays (built after the compile)."""
    pytest.importorskip("numba")
    scenario = load_scenario("night-raid")
    said: list[object] = []
    built = simulate_module._kernel

    def child(sent: str, waiting: object) -> bool:
        said.append("child")
        for elapsed in (0.1, 0.2):
            waiting(elapsed)  # type: ignore[operator]
        return True

    def build(scenario: object) -> object:
        said.append("built")
        return built(scenario)  # type: ignore[arg-type]

    monkeypatch.setattr(warmup, "kernel_cached", lambda ruleset: False)
    monkeypatch.setattr(warmup, "compile_in_child", child)
    monkeypatch.setattr(simulate_module, "_kernel", build)
    result = simulate(
        scenario,
        200,
        seed=1,
        notify=lambda n, s: said.append((n, s)),
        compiling=lambda elapsed: said.append(elapsed),
    )
    assert result.batched and result.runs == 200
    assert said == [(Notice.COMPILING, 35.0), "child", 0.1, 0.2, "built"]


@pytest.mark.parametrize(
    ("lang", "words"),
    [("en", "compiling the simulation kernel once"), ("fr", "compilation du noyau")],
)
def test_the_compile_notice_is_one_line_with_the_time_piped(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], lang: str, words: str
) -> None:
    """Piped (no terminal), the notice is still said, at once, with the expected time."""
    pytest.importorskip("numba")
    from vigile.cli import main

    monkeypatch.setattr(warmup, "kernel_cached", lambda ruleset: False)
    monkeypatch.setattr(warmup, "compile_in_child", lambda sent, waiting: True)
    assert main(["simulate", "night-raid", "--runs", "200", "--lang", lang]) == 0
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err and "35 s" in err


def test_ctrl_c_in_the_child_wait_ends_the_child(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C while the compile's child works: the child is killed, CompileInterrupted."""
    monkeypatch.setattr(warmup, "_command", lambda *args: [sys.executable, "-c", _SLEEPER])
    children: list[subprocess.Popen[bytes]] = []
    real = subprocess.Popen

    def popen(*args: object, **kwargs: object) -> subprocess.Popen[bytes]:
        children.append(real(*args, **kwargs))  # type: ignore[call-overload]
        return children[-1]

    monkeypatch.setattr(subprocess, "Popen", popen)

    def interrupt(elapsed: float) -> None:
        raise KeyboardInterrupt

    with pytest.raises(warmup.CompileInterrupted):
        warmup.compile_in_child("{}", interrupt)
    assert children[0].poll() is not None  # ended, not left compiling


_SLEEPER = "import time\ntime.sleep(60)\n"


@pytest.mark.multiprocess
def test_a_cold_cache_says_so_on_a_terminal_and_ctrl_c_abandons_the_compile(
    tmp_path: Path,
) -> None:
    """A fresh numba cache: on a terminal, the first line says the kernel compiles (and about
    how long); Ctrl-C during the compile exits with 130 and one line, no traceback, no result
    of 0 runs, and no compile left running."""
    pytest.importorskip("numba")
    psutil = pytest.importorskip("psutil")
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba"), "COLUMNS": "120"}
    code = (
        "import signal, sys\n"
        "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
        "from vigile.cli import main\n"
        "sys.exit(main(['simulate', 'night-raid', '--runs', '20000']))\n"
    )
    leader, follower = pty.openpty()
    child = subprocess.Popen(
        [sys.executable, "-c", code],
        stdout=subprocess.PIPE,
        stderr=follower,
        env=env,
        start_new_session=True,
    )
    os.close(follower)
    try:
        seen = _read_until(leader, b"cached after", child)
        assert b"compiling the simulation kernel once on this machine (about 35 s" in seen
        # the compile's child and, with two cores or more, the helper it starts (warm)
        compilers = _compilers(psutil, child.pid, 2 if warmup._cores() >= 2 else 1)
        os.kill(child.pid, signal.SIGINT)
        out, _ = child.communicate(timeout=HANG_S)
        err = (seen + _drain(leader)).decode(errors="replace")
        assert child.returncode == 130, err
        assert "Traceback" not in err and "nothing was played" in err
        assert b"runs (seed" not in out and out.strip() == b""
        _, alive = psutil.wait_procs(compilers, timeout=HANG_S)
        assert not alive
    finally:
        if child.poll() is None:
            child.kill()
            child.communicate()
        os.close(leader)


def _read_until(fd: int, marker: bytes, child: subprocess.Popen[bytes]) -> bytes:
    """What the terminal shows until ``marker`` (a hang after :data:`HANG_S` s fails)."""
    seen = b""
    deadline = time.monotonic() + HANG_S
    while marker not in seen:
        assert time.monotonic() < deadline and child.poll() is None, seen
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            seen += os.read(fd, 4096)
    return seen


def _drain(fd: int) -> bytes:
    seen = b""
    with contextlib.suppress(OSError):  # EIO once the child closed its end
        while select.select([fd], [], [], 0.5)[0]:
            chunk = os.read(fd, 4096)
            if not chunk:
                break
            seen += chunk
    return seen


def _compilers(psutil: object, parent: int, least: int = 1) -> list[object]:
    """The compile's processes (at least ``least`` of them), once the parent started them."""
    deadline = time.monotonic() + HANG_S
    while time.monotonic() < deadline:
        found = psutil.Process(parent).children(recursive=True)  # type: ignore[attr-defined]
        if len(found) >= least:
            return list(found)
        time.sleep(0.05)
    raise AssertionError("no compile process started")


def test_the_background_warm_up_starts_one_detached_child(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``vigile serve``'s warm-up starts ``python -m vigile.sim.warmup --background`` in its own
    session, reading nothing and saying nothing; ``VIGILE_NO_WARMUP`` starts none."""
    started: list[tuple[list[str], dict[str, object]]] = []

    def popen(args: list[str], **kwargs: object) -> str:
        started.append((args, kwargs))
        return "child"

    monkeypatch.setattr(subprocess, "Popen", popen)
    monkeypatch.delenv(warmup.NO_WARMUP, raising=False)
    assert warmup.warm_in_background() == "child"  # type: ignore[comparison-overlap]
    ((args, kwargs),) = started
    assert args == [sys.executable, "-m", "vigile.sim.warmup", "--background"]
    assert kwargs["start_new_session"] is True
    assert kwargs["stdin"] == kwargs["stdout"] == kwargs["stderr"] == subprocess.DEVNULL
    monkeypatch.setenv(warmup.NO_WARMUP, "1")
    assert warmup.warm_in_background() is None and len(started) == 1


def test_the_warm_up_ends_at_once_where_its_mark_says_done(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """With the mark of these sources in the cache folder, the warm-up plays nothing; without
    it, it plays every bundled scenario of a game with a kernel, then leaves the mark."""
    pytest.importorskip("numba")
    played: list[str] = []
    mark = tmp_path / "vigile-warm-x"
    monkeypatch.setattr(warmup, "warm_mark", lambda: mark)
    monkeypatch.setattr(warmup, "warm", lambda scenario: played.append(scenario.name))
    monkeypatch.setattr(warmup, "_kernel_scenarios", lambda: ["night-raid", "sk-s5-street"])
    assert warmup.main([]) == 0
    assert len(played) == 2 and mark.exists()
    assert warmup.main([]) == 0
    assert len(played) == 2  # nothing more: the mark says it was done


def test_the_terminal_bar_shows_the_compile_then_the_runs() -> None:
    """On a terminal the compile has its own bar, filling over the expected time but never
    full before it ends; the runs' bar comes back with the first block."""
    import io

    from rich.console import Console
    from rich.progress import Progress

    from vigile.cli.simulate import Bar

    with Progress(console=Console(file=io.StringIO(), force_terminal=True)) as progress:
        bar = Bar(progress, "runs")
        bar.total(8192)
        bar.expected = 10.0
        bar.compiling(4.0)
        (runs, compile_task) = progress.tasks
        assert not runs.visible and compile_task.completed == 4.0 and compile_task.total == 10.0
        bar.compiling(60.0)
        assert compile_task.completed == pytest.approx(9.9)
        bar(4096)
        (runs,) = progress.tasks
        assert runs.visible and runs.completed == 4096 and runs.total == 8192


@pytest.mark.parametrize(
    "name", ["night-raid", "sk-s5-street", "dnd35-invisible-intruder", "starfinder-infiltration"]
)
def test_every_kernel_shows_its_entry_point(name: str) -> None:
    """Whether a kernel is compiled is read from its entry point (its ``play_runs``, numba's
    dispatcher, cached on disk): every kernel vigile ships keeps one where it is looked for,
    so the check never falls back to guessing."""
    pytest.importorskip("numba")
    from numba.core.dispatcher import Dispatcher

    kernel = simulate_module._kernel(load_scenario(name))
    entry = warmup.entry_point(kernel)
    assert isinstance(entry, Dispatcher) and entry.py_func.__name__ == "play_runs"
    assert entry._cache._cache_file is not None  # type: ignore[attr-defined]  # on disk


class _Sent:
    """A stand-in for the helper's process: what it was started with and sent."""

    def __init__(self, args: list[str], **kwargs: object) -> None:
        self.args = args
        self.stdin = self
        self.sent = b""

    def write(self, data: bytes) -> None:
        self.sent += data

    def close(self) -> None:
        pass


@pytest.mark.parametrize(
    ("name", "cores", "cached", "helped"),
    [
        ("night-raid", 2, False, True),
        ("night-raid", 1, False, False),  # one core: the two processes would share it
        ("night-raid", 2, True, False),  # compiled already
        ("sk-s5-street", 2, False, False),  # a day encounter: no pieces to compile apart
        ("dnd35-invisible-intruder", 2, False, False),  # a game that names none
    ],
)
def test_the_compile_starts_a_helper_only_where_it_has_work_and_a_core(
    monkeypatch: pytest.MonkeyPatch, name: str, cores: int, cached: bool, helped: bool
) -> None:
    """``warm`` starts a helper (``python -m vigile.sim.warmup --callees PATH``, the
    scenario's JSON on its input) for a night raid not yet compiled, on two cores or more."""
    monkeypatch.setattr(warmup, "_cores", lambda: cores)
    monkeypatch.setattr(warmup, "kernel_cached", lambda ruleset: cached)
    monkeypatch.setattr(subprocess, "Popen", _Sent)
    scenario = load_scenario(name)
    helper = warmup._start_helper(scenario)
    if not helped:
        assert helper is None
        return
    assert isinstance(helper, _Sent)
    callees = "vigile.games.skirmish.kernel:CALLEES"  # the plug-in's kernel_callees
    assert helper.args == [sys.executable, "-m", "vigile.sim.warmup", "--callees", callees]
    assert json.loads(helper.sent)["name"] == scenario.name
