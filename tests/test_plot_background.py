"""The map's picture under every plot (issue 37): ``map.background``, a file beside the scenario,
drawn beneath the risk map, the route and the heat map over the whole board; a missing picture
is a note, never an error. Checked on the figure objects, not pixels."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from vigile.cli import main
from vigile.games.skirmish.riskmap import risk_map
from vigile.games.skirmish.route import safest_route
from vigile.io.i18n import Lang
from vigile.io.plots import HEAT_CELLS, heat_figure, picture_folder, risk_figure
from vigile.rulesets.skirmish.sight import Attitude
from vigile.scene.loader import load_scenario
from vigile.sim.tally import HEAT_BINS

pytest.importorskip("matplotlib")

SCENARIO = """\
ruleset: skirmish
name: Pictured hall
units: cm
time: night
map: {width: 80, height: 40, background: art/hall.png}
turns: 5
lights:
  - {kind: lantern, at: [40, 20]}
actors:
  - {name: Kage, side: attackers, position: [5, 5], ninja: true, move: 15, dice: 2}
  - {name: Jubei, side: defenders, position: [70, 30], state: posted, dice: 2}
"""


def png(width: int, height: int) -> bytes:
    """A grey PNG of ``width`` x ``height`` (as tests/test_import_uvtt.py makes one)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    rows = b"".join(b"\x00" + b"\x80" * 3 * width for _ in range(height))
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


@pytest.fixture
def hall(tmp_path: Path) -> Path:
    path = tmp_path / "hall.yaml"
    path.write_text(SCENARIO, encoding="utf-8")
    (tmp_path / "art").mkdir()
    (tmp_path / "art" / "hall.png").write_bytes(png(16, 8))
    return path


def pictures(figure):  # type: ignore[no-untyped-def]
    return [i for i in figure.axes[0].images if i.get_gid() == "background"]


def test_the_risk_map_and_the_route_draw_the_picture_beneath(hall: Path) -> None:
    found = risk_map(load_scenario(str(hall)), Attitude.HALF, resolution=5)
    route = safest_route(found, (5, 5), (75, 35))
    notes: list[str] = []
    figure = risk_figure(found, Lang.EN, route=route, folder=picture_folder(str(hall)), notes=notes)
    assert notes == []
    (picture,) = pictures(figure)
    assert tuple(picture.get_extent()) == (0.0, 80.0, 40.0, 0.0)  # the whole board, y down
    assert picture.get_array().shape[:2] == (8, 16)
    risk = [i for i in figure.axes[0].images if i is not picture]
    assert risk and all(i.get_zorder() > picture.get_zorder() for i in risk)
    assert all(i.get_alpha() < 1 for i in risk)  # the picture shows through the cells
    ax = figure.axes[0]
    assert ax.get_xlim() == (0.0, 80.0) and ax.get_ylim() == (40.0, 0.0)


def test_without_a_background_nothing_is_drawn_beneath() -> None:
    found = risk_map(load_scenario("night-raid"), Attitude.HALF, resolution=10)
    figure = risk_figure(found, Lang.EN, folder=picture_folder("night-raid"))
    assert pictures(figure) == []


def test_a_missing_picture_is_a_note_not_an_error(hall: Path) -> None:
    (hall.parent / "art" / "hall.png").unlink()
    found = risk_map(load_scenario(str(hall)), Attitude.HALF, resolution=5)
    notes: list[str] = []
    figure = risk_figure(found, Lang.FR, folder=hall.parent, notes=notes)
    assert pictures(figure) == []
    assert len(notes) == 1 and "hall.png" in notes[0] and "absente" in notes[0]


def test_riskmap_plot_on_the_command_line(
    hall: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "risk.png"
    assert (
        main(["riskmap", str(hall), "--attitude", "half", "--resolution", "5", "--plot", str(out)])
        == 0
    )
    assert out.stat().st_size > 0
    assert "picture" not in capsys.readouterr().err
    (hall.parent / "art" / "hall.png").unlink()
    assert (
        main(
            [
                "riskmap",
                str(hall),
                "--attitude",
                "half",
                "--resolution",
                "5",
                "--plot",
                str(out),
                "--force",
            ]
        )
        == 0
    )
    err = capsys.readouterr().err
    assert "hall.png is not there" in err
    route = ["route", str(hall), "--from", "5,5", "--to", "75,35", "--plot", str(out), "--force"]
    assert main(route) == 0
    assert "hall.png is not there" in capsys.readouterr().err


def test_the_heat_map_draws_the_picture_and_cells_one_can_see(hall: Path) -> None:
    scenario = load_scenario(str(hall))
    heat = np.zeros((HEAT_BINS, HEAT_BINS), np.int64)
    heat[10, 20] = 3  # x bin 10, y bin 20: three detections in 10 runs
    result = SimpleNamespace(scenario=scenario, tally=SimpleNamespace(heat=heat), runs=10)
    figure = heat_figure(result, Lang.EN, folder=hall.parent)  # type: ignore[arg-type]
    (picture,) = pictures(figure)
    assert tuple(picture.get_extent()) == (0.0, 80.0, 40.0, 0.0)
    (cells,) = [i for i in figure.axes[0].images if i is not picture]
    assert tuple(cells.get_extent()) == (0.0, 80.0, 40.0, 0.0)
    shown = cells.get_array()
    assert shown.shape == (HEAT_CELLS, HEAT_CELLS)
    # blocks of 100 / 25 = 4 fine cells a side: fine (x 10, y 20) is block (row 5, column 2)
    assert shown[5, 2] == pytest.approx(0.3)
    assert int(np.ma.count(shown)) == 1
