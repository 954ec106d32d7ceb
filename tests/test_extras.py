"""The optional parts: Dask (``vigile[sweep]``) and matplotlib (``vigile[plot]``).

Where the work runs (local processes or a Dask scheduler, :mod:`vigile.sim.executors`) never
changes the numbers; a missing extra is one line naming it, exit code 2; the demo needs neither.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from vigile.cli import main
from vigile.scene.loader import load_scenario
from vigile.sim.simulate import BLOCK, simulate
from vigile.sim.sweep import Vary, run_sweep


@pytest.fixture(scope="module")
def dask_scheduler() -> Iterator[str]:
    """A real Dask cluster of two worker processes on this machine; its scheduler's address."""
    from dask.distributed import LocalCluster

    with LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        scheduler_port=0,
        dashboard_address=":0",
        worker_dashboard_address=None,
        silence_logs=50,
    ) as cluster:
        yield cluster.scheduler_address


@pytest.mark.multiprocess
def test_simulate_on_a_dask_scheduler_gives_the_same_numbers(dask_scheduler: str) -> None:
    """Blocks seeded by their index: the same tally on one process and on a Dask cluster."""
    scenario = load_scenario("sk-v7-terrace")
    here = simulate(scenario, BLOCK + 300, seed=7)
    there = simulate(scenario, BLOCK + 300, seed=7, scheduler=dask_scheduler)
    assert there.as_json() == here.as_json()
    assert (there.tally.heat == here.tally.heat).all()


@pytest.mark.multiprocess
def test_sweep_on_a_dask_scheduler_gives_the_rows_of_local_processes(dask_scheduler: str) -> None:
    scenario = load_scenario("sk-v7-terrace")
    varies = [Vary("turns", (1.0, 3.0))]
    local = run_sweep(scenario, varies, 200, seed=2, workers=2)
    remote = run_sweep(scenario, varies, 200, seed=2, scheduler=dask_scheduler)
    assert remote == local
    assert [row["turns"] for row in remote] == [1.0, 3.0]


def test_a_picture_without_matplotlib_names_the_plot_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib: ImportError
    picture = tmp_path / "risk.png"
    code = main(["riskmap", "sk-v7-terrace", "--attitude", "fast", "--plot", str(picture)])
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "--plot" in err and "pip install 'vigile[plot]'" in err
    assert not picture.exists()


def test_a_scheduler_without_dask_names_the_sweep_extra(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "dask.distributed", None)
    args = ["sweep", "sk-v7-terrace", "--vary", "turns=1..2:1", "--runs", "10"]
    code = main([*args, "--scheduler", "tcp://127.0.0.1:9"])
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "--scheduler" in err and "pip install 'vigile[sweep]'" in err


def test_the_demo_needs_neither_extra() -> None:
    """The README's first command installs vigile without extras: the demo must not import them."""
    code = (
        "import sys; from vigile.cli import main; code = main(['demo', '--seed', '1']); "
        "print(code, [m for m in ('matplotlib', 'dask', 'distributed') if m in sys.modules])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.splitlines()[-1] == "0 []"


@pytest.mark.multiprocess
def test_the_kernel_is_warm_on_every_dask_worker_before_the_first_block(
    dask_scheduler: str,
) -> None:
    """A compiled simulation on a scheduler first registers a worker plugin that prepares the
    kernel on each worker (issue 14: the kernel's cache warm on workers too): after it, every
    worker holds the prepared model, and the numbers are those of this process's threads."""
    pytest.importorskip("numba")
    from dask.distributed import Client

    scenario = load_scenario("night-raid")
    here = simulate(scenario, BLOCK + 50, seed=11)
    there = simulate(scenario, BLOCK + 50, seed=11, scheduler=dask_scheduler)
    assert (here.tally.outcomes == there.tally.outcomes).all()
    assert (here.tally.heat == there.tally.heat).all()

    def warmers(dask_worker: Any) -> list[str]:
        return [name for name in dask_worker.plugins if name.startswith("vigile-kernel-")]

    with Client(dask_scheduler, timeout=10) as client:
        found = client.run(warmers)
    assert len(found) == 2
    assert all(names for names in found.values())
