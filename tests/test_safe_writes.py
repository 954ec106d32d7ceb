"""Every file vigile writes for a user is written safely (issue 15): checked before any work,
never over an existing file without --force (but a plan onto its own scenario), never through a
symbolic link, atomically (a kill or a full disk leaves the old file), and a plan written back
keeps the author's file."""

from __future__ import annotations

import errno
import os
import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from vigile.cli import main
from vigile.errors import InputError
from vigile.io.files import check_target, write_bytes, write_text
from vigile.scene.loader import load_scenario
from vigile.scene.plans import Leg

SCENARIO = """\
# A walled yard, written by hand: every comment here must survive a --write-plan.
ruleset: skirmish          # the game
name: walled yard
time: night
map: {width: 120, height: 60}

walls:
  # the long wall, with a way round at its south end
  - {kind: wall, start: [60, 0], end: [60, 45]}
  - {kind: door, name: shed door, start: [90, 5], end: [110, 5]}   # the shed
  - {kind: wall, start: [110, 5], end: [110, 20]}
  - {kind: wall, start: [110, 20], end: [90, 20]}
  - {kind: wall, start: [90, 20], end: [90, 5]}
cover:
  - {points: [[20, 40], [40, 40], [40, 55], [20, 55]]}   # a hedge
lights:
  - {kind: lantern, at: [30, 20], radius: 8}
actors:
  - {name: Ninja, side: attackers, position: [10, 10], dice: {ninjitsu: 2}}
  - {name: Guard, side: defenders, position: [40, 25], dice: 2}

plans:
  Ninja:
    - {speed: immobile, wait: 1}                   # listens first
    - {to: [20, 30], speed: half}                  # replaced: the first leg of the route
    # a note between two legs
    - {to: [50, 50]}                               # replaced too
    - {to: [80, 50], speed: half,                  # the route's end: kept, its speed changed
       actions: [{do: speak, volume: whisper}]}    # and its action kept
    - {to: [100, 30], speed: half, wait: 2,
       actions: [{do: open-door, door: shed door}]}   # after the route: untouched
# the end of the file
"""


def comments(text: str) -> list[str]:
    return [m.group(0).strip() for m in re.finditer(r"#[^\n]*", text)]


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(args)
    captured = capsys.readouterr()
    return code, captured.err


def one_line_error(code: int, err: str, option: str) -> None:
    assert code == 2, err
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert option in lines[0], err


@pytest.fixture
def scenario(tmp_path: Path) -> Path:
    path = tmp_path / "yard.yaml"
    path.write_text(SCENARIO, encoding="utf-8")
    return path


# --------------------------------------------------------------------------- the plan written back


def test_write_plan_onto_its_own_scenario_keeps_every_comment(
    scenario: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, err = run(
        ["route", str(scenario), "--to", "80,50", "--write-plan", "Ninja", "--out", str(scenario)],
        capsys,
    )
    assert code == 0, err
    written = scenario.read_text(encoding="utf-8")
    dropped = {"# replaced: the first leg of the route", "# replaced too"}
    assert comments(written) == [c for c in comments(SCENARIO) if c not in dropped]
    # everything before the plan and after the route's end is kept byte for byte
    before = SCENARIO.index("    - {to: [20, 30]")
    assert written[:before] == SCENARIO[:before]
    after = SCENARIO.index("       actions: [{do: speak")
    assert written.endswith(SCENARIO[after:])
    legs = load_scenario(scenario).plans["Ninja"]
    # what it does where the route starts (as data: the scenario's leg is the skirmish's model)
    assert legs[0].model_dump() == Leg(speed="immobile", wait=1).model_dump()
    assert legs[-2].to == (80, 50) and [a.do for a in legs[-2].actions] == ["speak"]
    assert legs[-1].to == (100, 30) and legs[-1].wait == 2
    assert [a.do for a in legs[-1].actions] == ["open-door"]
    assert all(not leg.actions and not leg.wait for leg in legs[1:-2])


def test_write_plan_from_a_waypoint_to_the_end(
    scenario: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "after.yaml"
    code, err = run(
        [
            "route",
            str(scenario),
            "--from",
            "100,30",
            "--to",
            "100,50",
            "--write-plan",
            "Ninja",
            "--out",
            str(out),
        ],
        capsys,
    )
    assert code == 0, err
    written = out.read_text(encoding="utf-8")
    assert comments(written) == comments(SCENARIO)  # legs appended, nothing replaced
    legs = load_scenario(out).plans["Ninja"]
    assert legs[4].to == (100, 30) and legs[-1].to == (100, 50)


def test_a_route_that_would_drop_an_action_is_refused(
    scenario: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, err = run(
        ["route", str(scenario), "--to", "100,50", "--write-plan", "Ninja", "--out", str(scenario)],
        capsys,
    )
    one_line_error(code, err, "--write-plan")
    assert "leg 4" in err and "speak" in err
    assert scenario.read_text(encoding="utf-8") == SCENARIO


def test_a_route_from_nowhere_on_the_plan_is_refused(
    scenario: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["route", str(scenario), "--from", "30,30", "--to", "80,50", "--write-plan", "Ninja"]
    code, err = run([*args, "--out", str(scenario)], capsys)
    one_line_error(code, err, "--from")
    assert scenario.read_text(encoding="utf-8") == SCENARIO


def test_write_plan_onto_another_existing_file_needs_force(
    scenario: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    other = tmp_path / "other.yaml"
    other.write_text("# mine\n", encoding="utf-8")
    args = ["route", str(scenario), "--to", "80,50", "--write-plan", "Ninja", "--out", str(other)]
    code, err = run(args, capsys)
    one_line_error(code, err, "--out")
    assert "--force" in err and other.read_text(encoding="utf-8") == "# mine\n"
    code, err = run([*args, "--force"], capsys)
    assert code == 0, err
    assert load_scenario(other).plans["Ninja"][-2].to == (80, 50)


def test_a_bundled_scenario_is_written_with_its_comments(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from vigile.scene.loader import bundled_path

    original = bundled_path("night-raid").read_text(encoding="utf-8")
    out = tmp_path / "raid.yaml"
    # Kage's leg to (97, 37) is written hidden: the route keeps that attitude (or refuses)
    args = ["route", "night-raid", "--from", "60,14", "--to", "97,37", "--write-plan", "Kage"]
    args += ["--attitude", "hidden"]
    code, err = run([*args, "--out", str(out)], capsys)
    assert code == 0, err
    assert comments(out.read_text(encoding="utf-8")) == [
        c for c in comments(original) if c != "# azalea bushes"
    ]


def test_a_full_disk_leaves_the_scenario_as_it_was(
    scenario: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def full(_fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full)
    code, err = run(
        ["route", str(scenario), "--to", "80,50", "--write-plan", "Ninja", "--out", str(scenario)],
        capsys,
    )
    one_line_error(code, err, "--out")
    assert "No space left" in err
    assert scenario.read_text(encoding="utf-8") == SCENARIO
    assert sorted(p.name for p in scenario.parent.iterdir()) == ["yard.yaml"]  # no temporary


# --------------------------------------------------------------------------- paths refused first


def test_sweep_out_onto_a_scenario_is_refused(
    scenario: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, err = run(
        ["sweep", str(scenario), "--vary", "turns=1..2:1", "--out", str(scenario), "--force"],
        capsys,
    )
    one_line_error(code, err, "--out")
    assert scenario.read_text(encoding="utf-8") == SCENARIO


COMMANDS = {
    "simulate": ["simulate", "{s}", "--runs", "5"],
    "riskmap": ["riskmap", "{s}", "--attitude", "fast", "--resolution", "5"],
    "route": ["route", "{s}", "--from", "10,10", "--to", "80,50", "--resolution", "5"],
    "sweep": ["sweep", "{s}", "--vary", "turns=1..2:1", "--runs", "5"],
}


def command(name: str, scenario: Path, *more: str) -> list[str]:
    return [arg.replace("{s}", str(scenario)) for arg in COMMANDS[name]] + list(more)


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_an_existing_plot_needs_force(
    name: str, scenario: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    picture = tmp_path / "mine.png"
    picture.write_bytes(b"my picture")
    code, err = run(command(name, scenario, "--plot", str(picture)), capsys)
    one_line_error(code, err, "--plot")
    assert "--force" in err and picture.read_bytes() == b"my picture"


@pytest.mark.parametrize("name", ["simulate", "riskmap", "route"])
def test_force_replaces_a_plot(
    name: str, scenario: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    picture = tmp_path / "mine.png"
    picture.write_bytes(b"my picture")
    code, err = run(command(name, scenario, "--plot", str(picture), "--force"), capsys)
    assert code == 0, err
    assert picture.read_bytes().startswith(b"\x89PNG")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine.png", "yard.yaml"]


def test_an_existing_sweep_table_needs_force(
    scenario: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = tmp_path / "table.csv"
    table.write_text("mine\n", encoding="utf-8")
    code, err = run(command("sweep", scenario, "--out", str(table)), capsys)
    one_line_error(code, err, "--out")
    assert table.read_text(encoding="utf-8") == "mine\n"


def bad_places(tmp_path: Path) -> dict[str, Path]:
    folder = tmp_path / "folder.png"
    folder.mkdir()
    plain = tmp_path / "plain"
    plain.write_text("x", encoding="utf-8")
    target = tmp_path / "elsewhere.png"
    target.write_bytes(b"elsewhere")
    link = tmp_path / "link.png"
    link.symlink_to(target)
    return {
        "a folder": folder,
        "a missing folder": tmp_path / "missing" / "x.png",
        "under a file": plain / "x.png",
        "a symbolic link": link,
        "a wrong extension": tmp_path / "x.gif",
    }


@pytest.mark.parametrize("name", sorted(COMMANDS))
@pytest.mark.parametrize(
    "place",
    ["a folder", "a missing folder", "under a file", "a symbolic link", "a wrong extension"],
)
def test_a_plot_where_none_can_go_is_one_line(
    name: str, place: str, scenario: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = bad_places(tmp_path)[place]
    code, err = run(command(name, scenario, "--plot", str(path), "--force"), capsys)
    one_line_error(code, err, "--plot")
    assert (tmp_path / "elsewhere.png").read_bytes() == b"elsewhere"  # never through the link
    assert (tmp_path / "link.png").is_symlink()


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root writes anywhere")
def test_an_unwritable_folder_is_one_line(
    scenario: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:  # pragma: no cover - CI runs as root
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        code, err = run(command("riskmap", scenario, "--plot", str(locked / "x.png")), capsys)
        one_line_error(code, err, "--plot")
    finally:
        locked.chmod(0o700)


def test_check_target_refuses_a_read_only_file(tmp_path: Path) -> None:
    path = tmp_path / "x.csv"
    path.write_text("mine", encoding="utf-8")
    path.chmod(0o400)
    if os.access(path, os.W_OK):
        pytest.skip("root writes anywhere")
    with pytest.raises(InputError, match="read-only"):  # pragma: no cover - CI runs as root
        check_target(path, "--out", suffixes=[".csv"], kind="the table", force=True)


def test_svg_plots_are_reproducible(
    scenario: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pictures = []
    for name in ("a.svg", "b.svg"):
        code, err = run(command("riskmap", scenario, "--plot", str(tmp_path / name)), capsys)
        assert code == 0, err
        pictures.append((tmp_path / name).read_bytes())
    assert pictures[0] == pictures[1]
    assert b"<dc:date>" not in pictures[0]


# --------------------------------------------------------------------------- the helper itself


def test_a_failed_write_keeps_the_old_file(tmp_path: Path) -> None:
    path = tmp_path / "x.csv"
    path.write_text("old", encoding="utf-8")

    def broken(stream: object) -> None:
        raise ValueError("drawing failed")

    from vigile.io.files import write_with

    with pytest.raises(ValueError, match="drawing failed"):
        write_with(path, broken, option="--out")
    assert path.read_text(encoding="utf-8") == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["x.csv"]


def test_a_write_keeps_the_permissions_of_the_file_it_replaces(tmp_path: Path) -> None:
    path = tmp_path / "x.csv"
    path.write_text("old", encoding="utf-8")
    path.chmod(0o640)
    write_text(path, "new", option="--out")
    assert path.read_text(encoding="utf-8") == "new"
    assert path.stat().st_mode & 0o777 == 0o640


WRITER = r"""
import os, sys
from pathlib import Path
from vigile.io.files import write_bytes

target, new = Path(sys.argv[1]), Path(sys.argv[2]).read_bytes()
for line in sys.stdin:  # one child per line, killed by the test while it writes
    pid = os.fork()
    if pid == 0:
        while True:
            write_bytes(target, new, option="--out")
    print(pid, flush=True)
    os.waitpid(pid, 0)
    print("reaped", flush=True)
"""


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork and SIGKILL")
def test_a_kill_while_writing_leaves_the_old_file_or_the_new_one(tmp_path: Path) -> None:
    old = b"old\n" + bytes(random.Random(1).randbytes(4 << 20))
    new = b"new\n" + bytes(random.Random(2).randbytes(4 << 20))
    source = tmp_path / "new.bin"
    source.write_bytes(new)
    work = tmp_path / "work"
    work.mkdir()
    target = work / "scenario.yaml"
    chance = random.Random(15)
    found = {"old": 0, "new": 0, "partial": 0}
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(target), str(source)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert writer.stdin is not None and writer.stdout is not None
    try:
        for _ in range(100):
            write_bytes(target, old, option="--out")
            writer.stdin.write("go\n")
            writer.stdin.flush()
            pid = int(writer.stdout.readline())
            time.sleep(chance.uniform(0.0, 0.04))
            os.kill(pid, signal.SIGKILL)
            assert writer.stdout.readline().strip() == "reaped"
            data = target.read_bytes()
            found["old" if data == old else "new" if data == new else "partial"] += 1
    finally:
        writer.stdin.close()
        writer.wait(timeout=10)
        writer.stdout.close()
    print(f"kill test: {found}, temporaries left: {len(list(work.iterdir())) - 1}")
    assert found["partial"] == 0, found
    assert found["old"] > 0 and found["new"] > 0, found  # the kills fell on both sides
