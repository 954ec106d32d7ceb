"""``vigile sweep``: variants of a scenario simulated with Dask, for real, on worker processes."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from vigile.cli import main
from vigile.errors import InputError, LimitError
from vigile.scene.loader import load_scenario
from vigile.sim.sweep import Vary, run_sweep, variants
from vigile.sim.tally import OUTCOMES


def test_vary_parses_both_ends_included() -> None:
    assert Vary.parse("turns=10..40:10").values == (10, 20, 30, 40)
    assert Vary.parse("lights.0.radius=0.5..1.5:0.5").values == (0.5, 1.0, 1.5)


@pytest.mark.parametrize("text", ["turns", "turns=10..5:1", "turns=1..2:0", "turns=a..b:c"])
def test_bad_vary_specs(text: str) -> None:
    with pytest.raises(InputError, match="--vary"):
        Vary.parse(text)


def test_absurd_grids_are_refused() -> None:
    with pytest.raises(LimitError):
        Vary.parse("turns=1..100000:1")


@pytest.mark.parametrize("path", ["turnz", "actors.Nobody.dice", "map.width.x", "name"])
def test_a_path_that_names_no_field(path: str) -> None:
    with pytest.raises(InputError, match="--vary"):
        variants(load_scenario("night-raid"), [Vary(path, (1.0,))])


def test_variants_set_fields_by_name_and_index() -> None:
    scenario = load_scenario("night-raid")
    found = variants(scenario, [Vary("actors.Kuro.dice", (1.0, 3.0))])
    assert [data["actors"][5]["dice"] for _, data in found] == [1, 3]
    moved = variants(scenario, [Vary("lights.0.at.0", (90.0,))])
    assert moved[0][1]["lights"][0]["at"] == [90.0, 104.0]
    with pytest.raises(InputError, match="not a number"):
        variants(scenario, [Vary("lights.0.radius", (35.0,))])  # left to the rules (SK-V5)


@pytest.mark.multiprocess
def test_sweep_on_a_local_cluster_of_worker_processes(tmp_path: Path) -> None:
    """The distributed path for real: a LocalCluster of two worker processes."""
    scenario = load_scenario("night-raid")
    rows = run_sweep(scenario, [Vary("turns", (5.0, 40.0))], 400, seed=1, workers=2)
    assert [row["turns"] for row in rows] == [5.0, 40.0]
    short, full = rows
    assert short["turn_limit"] > full["turn_limit"]  # five turns leave most raids unfinished
    assert all(abs(sum(row[k] for k in OUTCOMES) - 1) < 1e-9 for row in rows)


@pytest.mark.multiprocess
def test_sweep_binds_no_fixed_port(recwarn: pytest.WarningsRecorder) -> None:
    """A sweep runs while port 8787 (Dask's default dashboard) is taken, and asks for no
    fixed port: no "port 8787 is already in use" warning."""
    import socket

    with socket.socket() as busy:
        busy.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 0)
        try:
            busy.bind(("", 8787))
            busy.listen()
        except OSError:
            pass  # already taken by someone else: busy all the same
        scenario = load_scenario("sk-v7-terrace")
        rows = run_sweep(scenario, [Vary("turns", (1.0,))], 20, seed=1, workers=1)
    assert len(rows) == 1
    assert not [w for w in recwarn if "8787" in str(w.message)]


@pytest.mark.multiprocess
def test_sweep_cli_writes_csv_and_plot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    table, picture = tmp_path / "sweep.csv", tmp_path / "sweep.png"
    code = main(
        [
            "sweep",
            "sk-v7-terrace",
            "--vary",
            "actors.Garden guard.dice=1..2:1",
            "--runs",
            "300",
            "--workers",
            "2",
            "--out",
            str(table),
            "--plot",
            str(picture),
        ]
    )
    assert code == 0, capsys.readouterr().err
    with table.open() as handle:
        rows = list(csv.DictReader(handle))
    assert [float(r["actors.Garden guard.dice"]) for r in rows] == [1.0, 2.0]
    assert picture.read_bytes()[:4] == b"\x89PNG"


@pytest.mark.timeout(60)  # a hang, not a speed: the connection is refused, or gives up at 8 s
def test_unreachable_scheduler_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        [
            "sweep",
            "sk-v7-terrace",
            "--vary",
            "turns=1..2:1",
            "--runs",
            "10",
            "--scheduler",
            "tcp://127.0.0.1:9",
        ]
    )
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith(
        "vigile: error: --scheduler: cannot reach the Dask scheduler at tcp://127.0.0.1:9 ("
    )
