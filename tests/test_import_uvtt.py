"""`vigile scenario import` of Universal VTT maps (issue 13): Dungeondraft's sample map, maps
built here, the picture kept beside the scenario, the merge into a hand-written scenario that
keeps its comments, and hostile files refused in one line, exit 2, nothing written."""

from __future__ import annotations

import json
import re
import struct
import zlib
from pathlib import Path
from typing import Any

import pytest

from vigile.cli import main
from vigile.scene import importers
from vigile.scene.importers import draft, load_map, read_map
from vigile.scene.loader import check_scenario, load_scenario
from vigile.scene.model import MapSize

FIXTURES = Path(__file__).parent / "fixtures" / "maps"
SAMPLE = FIXTURES / "sampleMap.dd2vtt"


def png(width: int, height: int, *, pixels: bool = True) -> bytes:
    """A PNG of ``width`` x ``height`` (its header only, when ``pixels`` is False)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    rows = b"".join(b"\x00" + b"\x80" * 3 * width for _ in range(height)) if pixels else b""
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


def P(x: float, y: float) -> dict[str, float]:
    return {"x": x, "y": y}


def room(**changes: Any) -> dict[str, Any]:
    """A 12 x 8 squares map: a room with a door and a pillar, one lamp, a small picture."""
    import base64

    doc: dict[str, Any] = {
        "format": 0.3,
        "resolution": {"map_origin": P(10, 20), "map_size": P(12, 8), "pixels_per_grid": 2},
        "line_of_sight": [
            # the room, its corners with points on straight runs (merged)
            [P(11, 21), P(13, 21), P(17, 21), P(17, 24)],
            [P(17, 25), P(17, 27), P(11, 27), P(11, 21)],
        ],
        "objects_line_of_sight": [[P(14, 23), P(15, 23), P(15, 24), P(14, 24), P(14, 23)]],
        "portals": [
            {
                "position": P(17, 24.5),
                "bounds": [P(17, 24), P(17, 25)],
                "rotation": 1.5708,
                "closed": True,
                "freestanding": False,
            }
        ],
        "lights": [
            {
                "position": P(12, 22),
                "range": 3,
                "intensity": 1,
                "color": "ffffffff",
                "shadows": True,
            }
        ],
        "environment": {"baked_lighting": False, "ambient_light": "ff000000"},
        "image": base64.b64encode(png(24, 16)).decode(),
    }
    doc.update(changes)
    return doc


def write_map(folder: Path, doc: Any, name: str = "crypt.dd2vtt") -> Path:
    path = folder / name
    path.write_text(json.dumps(doc) if not isinstance(doc, str) else doc, encoding="utf-8")
    return path


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def comments(text: str) -> list[str]:
    return [m.group(0).strip() for m in re.finditer(r"#[^\n]*", text)]


def with_actors(text: str, actors: str, plans: str) -> str:
    return text.replace("actors: []", actors).replace("plans: {}", plans)


# --------------------------------------------------------------------------- Dungeondraft's sample


def test_the_dungeondraft_sample_becomes_walls_doors_and_lights_in_feet() -> None:
    imported = read_map(SAMPLE)
    assert imported.source == "Universal VTT 0.2"
    part = draft(imported, ruleset="dnd35", file="sampleMap.dd2vtt")
    assert (part.units.value, part.scale, part.width, part.height) == ("ft", 5.0, 50, 50)
    walls = [w for w in part.walls if w["kind"] == "wall"]
    doors = [w for w in part.walls if w["kind"] == "door"]
    assert len(walls) == 7  # 3 pieces of the middle wall, and the 4 sides of the room
    assert {"kind": "wall", "start": [5, 45], "end": [5, 5]} in walls
    # the second portal lets light through (closed: false): a window, as the Universal
    # Battlemap Importer reads it (tests/test_import_windows_and_light.py)
    assert doors == [
        {"kind": "door", "name": "door 1", "start": [25, 7.5], "end": [25, 12.5]},
    ]
    assert [w for w in part.walls if w["kind"] == "window"] == [
        {"kind": "window", "start": [25, 38.1], "end": [25, 41.9]},
    ]
    # range 5 squares = 25 ft; the third light, at (-2, -2), is off the map
    assert part.lights == (
        {"kind": "lantern", "at": [32.85, 40], "radius": 25},
        {"kind": "lantern", "at": [30.04, 9.92], "radius": 25},
    )
    assert any("1 light(s) outside the map" in note for note in part.notes)


def test_the_skirmish_scale_is_a_25_mm_square_unless_told(tmp_path: Path) -> None:
    imported = read_map(SAMPLE)
    part = draft(imported, ruleset="skirmish", file="s")
    assert (part.units.value, part.scale, part.width) == ("cm", 2.5, 25)
    assert draft(imported, ruleset="skirmish", file="s", scale=3).width == 30
    assert draft(imported, ruleset="starfinder", file="s", scale=10).width == 100


def test_import_add_actors_validate_and_play_skirmish(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "sample.yaml"
    code, printed, err = run(
        ["scenario", "import", str(SAMPLE), "--ruleset", "skirmish", "--out", str(out)], capsys
    )
    assert code == 0, err
    assert f"{out}: 7 walls, 1 doors, 1 windows, 2 lights from Universal VTT 0.2" in printed
    text = out.read_text(encoding="utf-8")
    assert text.startswith("# Imported by `vigile scenario import` from sampleMap.dd2vtt")
    assert "actors: []" in text
    # the skeleton is complete but for its actors
    assert [e.field for e in check_scenario(out)[1]] == ["actors"]
    out.write_text(
        with_actors(
            text,
            "actors:\n"
            "  - {name: Ninja, side: attackers, position: [7, 20], dice: {ninjitsu: 2}}\n"
            "  - {name: Guard, side: defenders, position: [18, 10], dice: 1}",
            "plans:\n  Ninja:\n    - {to: [10, 12], speed: half}",  # west of the window
        ),
        encoding="utf-8",
    )
    assert run(["scenario", "validate", str(out)], capsys)[:2] == (0, f"{out}: valid\n")
    code, printed, err = run(["run", str(out), "--seed", "3", "--turns", "4"], capsys)
    assert code == 0, err
    assert "Ninja" in printed
    scenario = load_scenario(out)
    assert [w.name for w in scenario.walls if w.kind == "door"] == ["door 1"]


def test_import_add_actors_validate_and_play_dnd35(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "sample.yaml"
    code, _, err = run(
        ["scenario", "import", str(SAMPLE), "--ruleset", "dnd35", "--out", str(out)], capsys
    )
    assert code == 0, err
    out.write_text(
        with_actors(
            out.read_text(encoding="utf-8"),
            "actors:\n"
            "  - {name: Elandra, side: attackers, position: [15, 40],"
            " bonuses: {hide: 8, move_silently: 6}}\n"
            "  - {name: Brom, side: defenders, position: [35, 20], bonuses: {spot: 4, listen: 4}}",
            "plans:\n  Elandra:\n    - {to: [15, 20], speed: half}",  # west of the window
        ),
        encoding="utf-8",
    )
    assert run(["scenario", "validate", str(out)], capsys)[0] == 0
    code, printed, err = run(["run", str(out), "--seed", "1", "--turns", "3"], capsys)
    assert code == 0, err
    assert "Elandra" in printed


# --------------------------------------------------------------------------- maps built here


def test_origin_straight_runs_objects_portals_and_lights(tmp_path: Path) -> None:
    imported = read_map(write_map(tmp_path, room()))
    assert (imported.width, imported.height) == (12, 8)
    part = draft(imported, ruleset="skirmish", file="crypt.dd2vtt", scale=1)
    walls = [(w["start"], w["end"]) for w in part.walls if w["kind"] == "wall"]
    # the map's origin (10, 20) is subtracted; the points on a straight run are merged
    assert ([1, 1], [7, 1]) in walls and ([7, 1], [7, 4]) in walls
    assert ([7, 5], [7, 7]) in walls and ([7, 7], [1, 7]) in walls and ([1, 7], [1, 1]) in walls
    # the pillar (objects_line_of_sight) is four walls
    assert ([4, 3], [5, 3]) in walls and ([4, 4], [4, 3]) in walls
    assert len(walls) == 9
    assert [w for w in part.walls if w["kind"] == "door"] == [
        {"kind": "door", "name": "door 1", "start": [7, 4], "end": [7, 5]}
    ]
    assert part.lights == ({"kind": "lantern", "at": [2, 2], "radius": 3},)
    assert imported.image is not None and imported.image.suffix == ".png"
    assert (imported.image.width, imported.image.height) == (24, 16)


def test_simplify_merges_nearly_straight_cave_walls(tmp_path: Path) -> None:
    wiggly = [P(x, 1 + (0.01 if x % 2 else 0)) for x in range(1, 12)]
    doc = room(line_of_sight=[wiggly], objects_line_of_sight=[], portals=[])
    doc["resolution"]["map_origin"] = P(0, 0)
    assert len(read_map(write_map(tmp_path, doc)).walls) == 10
    assert len(read_map(write_map(tmp_path, doc), simplify=0.05).walls) == 1


def test_walls_are_cut_at_the_map_edge_and_repeats_dropped(tmp_path: Path) -> None:
    doc = room(
        line_of_sight=[[P(-5, 2), P(5, 2)], [P(5, 2), P(-5, 2)], [P(20, 20), P(30, 30)]],
        objects_line_of_sight=[],
        portals=[],
    )
    doc["resolution"]["map_origin"] = P(0, 0)
    part = draft(read_map(write_map(tmp_path, doc)), ruleset="skirmish", file="m", scale=1)
    assert [(w["start"], w["end"]) for w in part.walls] == [([0, 2], [5, 2])]
    assert any("cut at the map's edge" in n for n in part.notes)
    assert any("drawn twice" in n for n in part.notes)
    assert any("outside the map" in n for n in part.notes)


def test_the_picture_is_kept_beside_the_scenario(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = write_map(tmp_path, room())
    out = tmp_path / "crypt-raid.yaml"
    code, printed, err = run(
        ["scenario", "import", str(source), "--ruleset", "dnd35", "--out", str(out)], capsys
    )
    assert code == 0, err
    picture = tmp_path / "crypt-raid.png"
    assert picture.read_bytes() == png(24, 16)
    assert "background: crypt-raid.png" in out.read_text(encoding="utf-8")
    assert f"the map's picture: {picture}" in printed
    # JSON, in French: the same facts
    again = tmp_path / "again.yaml"
    code, printed, _ = run(
        ["scenario", "import", str(source), "--ruleset", "dnd35", "--out", str(again), "--json"],
        capsys,
    )
    report = json.loads(printed)
    assert report["picture"] == str(tmp_path / "again.png") and report["doors"] == 1
    assert (report["units"], report["square"], report["walls"]) == ("ft", 5.0, 9)
    code, printed, _ = run(
        [
            "scenario",
            "import",
            str(source),
            "--ruleset",
            "dnd35",
            "--name",
            "La crypte",
            "--out",
            str(tmp_path / "fr.yaml"),
            "--lang",
            "fr",
        ],
        capsys,
    )
    assert code == 0 and "murs" in printed and "une case fait 5 ft" in printed
    assert load_scenario_text(tmp_path / "fr.yaml")["name"] == "La crypte"


def test_a_french_scenario_name_gives_its_picture_a_name_background_accepts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``L'auberge.yaml``: the apostrophe a picture's name may not hold (issue 34, markup
    characters) becomes ``_`` in the picture's name, which the scenario's map accepts."""
    source = write_map(tmp_path, room())
    out = tmp_path / "L'auberge.yaml"
    code, _, err = run(
        ["scenario", "import", str(source), "--ruleset", "dnd35", "--out", str(out)], capsys
    )
    assert code == 0, err
    assert (tmp_path / "L_auberge.png").read_bytes() == png(24, 16)
    written = load_scenario_text(out)["map"]
    assert written["background"] == "L_auberge.png"
    assert MapSize(**written).background == "L_auberge.png"  # what validation accepts


def load_scenario_text(path: Path) -> dict[str, Any]:
    import yaml

    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def test_without_out_the_scenario_goes_to_stdout_and_nothing_is_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = write_map(tmp_path, room())
    code, printed, err = run(["scenario", "import", str(source), "--ruleset", "skirmish"], capsys)
    assert code == 0
    assert "ruleset: skirmish" in printed and "background" not in printed
    assert "picture is written only with --out" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["crypt.dd2vtt"]


def test_never_replaces_a_file_without_force(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = write_map(tmp_path, room())
    out = tmp_path / "crypt.yaml"
    out.write_text("# mine\n", encoding="utf-8")
    code, _, err = run(
        ["scenario", "import", str(source), "--ruleset", "skirmish", "--out", str(out)], capsys
    )
    assert code == 2 and "exists: add --force" in err
    assert out.read_text(encoding="utf-8") == "# mine\n"
    assert not (tmp_path / "crypt.png").exists()
    # the picture too: an existing crypt.png is not replaced without --force
    out.unlink()
    (tmp_path / "crypt.png").write_bytes(b"mine")
    code, _, err = run(
        ["scenario", "import", str(source), "--ruleset", "skirmish", "--out", str(out)], capsys
    )
    assert code == 2 and "crypt.png exists" in err and not out.exists()
    code, _, err = run(
        ["scenario", "import", str(source), "--ruleset", "skirmish", "--out", str(out), "--force"],
        capsys,
    )
    assert code == 0, err
    assert (tmp_path / "crypt.png").read_bytes() == png(24, 16)


def test_options_are_checked(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = write_map(tmp_path, room())
    for args, option in (
        ([], "--ruleset"),
        (["--ruleset", "chess"], "--ruleset"),
        (["--ruleset", "skirmish", "--scale", "0"], "--scale"),
        (["--ruleset", "skirmish", "--scale", "nan"], "--scale"),
        (["--ruleset", "skirmish", "--simplify", "-1"], "--simplify"),
        (["--ruleset", "skirmish", "--name", " padded "], "--name"),
        (["--ruleset", "skirmish", "--out", str(tmp_path / "x.txt")], "--out"),
    ):
        code, _, err = run(["scenario", "import", str(source), *args], capsys)
        assert code == 2, (args, err)
        assert option in err and len(err.strip().splitlines()) == 1


# --------------------------------------------------------------------------- --into


HAND_WRITTEN = """\
# The crypt, by hand: every comment here must survive an import --into.
ruleset: dnd35        # the game
name: The crypt
time: night
map:   # the board
  width: 60   # feet
  height: 60
walls:
  # the walls as first sketched
  - {kind: wall, start: [0, 0], end: [10, 0]}
  - {kind: wall, start: [10, 0], end: [10, 10]}   # a corner
lights: []   # none yet
surfaces:
  - {kind: stone, points: [[0, 0], [20, 0], [20, 20]], name: flagstones}   # cold
# the people
actors:
  - {name: Elandra, side: attackers, position: [15, 40], bonuses: {hide: 8, move_silently: 6}}
  - {name: Brom, side: defenders, position: [35, 20], bonuses: {spot: 4, listen: 4}}  # awake
plans:
  Elandra:
    - {to: [15, 20], speed: half}   # north, this side of the window
turns: 5
# the end
"""


def test_into_keeps_every_comment_and_the_rest_of_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mine = tmp_path / "crypt.yaml"
    mine.write_text(HAND_WRITTEN, encoding="utf-8")
    code, _, err = run(["scenario", "import", str(SAMPLE), "--into", str(mine)], capsys)
    assert code == 0, err
    written = mine.read_text(encoding="utf-8")
    assert comments(written) == [c for c in comments(HAND_WRITTEN) if c != "# a corner"]
    # what was not changed is kept byte for byte: the head, and everything from `surfaces`
    assert written.startswith(HAND_WRITTEN[: HAND_WRITTEN.index("  width: 60")])
    assert written.endswith(HAND_WRITTEN[HAND_WRITTEN.index("surfaces:") :])
    assert "  width: 50   # feet\n  height: 50\n" in written
    assert "lights:   # none yet\n  - {kind: lantern, at: [32.85, 40], radius: 25}\n" in written
    scenario = load_scenario(mine)
    assert (scenario.map.width, scenario.map.background) == (50, None)
    assert len(scenario.walls) == 9 and len(scenario.lights) == 2
    assert [a.name for a in scenario.actors] == ["Elandra", "Brom"]
    assert len(scenario.surfaces) == 1 and scenario.turns == 5
    # a second import over the first: the same file
    assert run(["scenario", "import", str(SAMPLE), "--into", str(mine)], capsys)[0] == 0
    assert mine.read_text(encoding="utf-8") == written


def test_into_a_flow_map_sets_its_picture(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mine = tmp_path / "yard.yaml"
    mine.write_text(
        "ruleset: skirmish\nname: yard   # mine\nmap: {width: 80, height: 80}  # the table\n"
        "actors:\n  - {name: Guard, side: defenders, position: [10, 10], dice: 1}\n",
        encoding="utf-8",
    )
    source = write_map(tmp_path, room())
    code, _, err = run(["scenario", "import", str(source), "--into", str(mine)], capsys)
    assert code == 0, err
    text = mine.read_text(encoding="utf-8")
    assert "map: {width: 30, height: 20, background: yard.png}  # the table\n" in text
    assert text.index("walls:") < text.index("lights:") < text.index("actors:")
    assert (tmp_path / "yard.png").read_bytes() == png(24, 16)
    assert load_scenario(mine).map.background == "yard.png"
    # again: its own picture is replaced without --force
    assert run(["scenario", "import", str(source), "--into", str(mine)], capsys)[0] == 0


def test_into_refuses_a_merge_that_breaks_a_valid_scenario(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mine = tmp_path / "crypt.yaml"
    text = HAND_WRITTEN.replace("position: [35, 20]", "position: [55, 55]")
    mine.write_text(text, encoding="utf-8")
    assert check_scenario(mine)[1] == []
    code, _, err = run(["scenario", "import", str(SAMPLE), "--into", str(mine)], capsys)
    assert code == 2 and "outside the map" in err and "nothing was written" in err
    assert len(err.strip().splitlines()) == 1
    assert mine.read_text(encoding="utf-8") == text
    # elsewhere, or for another game: refused too
    code, _, err = run(
        ["scenario", "import", str(SAMPLE), "--into", str(mine), "--ruleset", "skirmish"], capsys
    )
    assert code == 2 and "--ruleset" in err


# --------------------------------------------------------------------------- hostile files


def hostile(folder: Path) -> dict[str, tuple[str, str]]:
    """name -> (file text, what the one-line error must say)."""
    good = json.dumps(room())
    nan = json.dumps(room()).replace('"x": 13,', '"x": NaN,', 1)
    return {
        "truncated": (good[: len(good) // 2], "not valid JSON"),
        "nan": (nan, "line_of_sight[0][1].x: NaN"),
        "infinity": (nan.replace("NaN", "-Infinity"), "line_of_sight[0][1].x: an infinite"),
        "overflow": (nan.replace("NaN", "1e999"), "line_of_sight[0][1].x: an infinite"),
        "far": (nan.replace("NaN", "1e300"), "far outside any map"),
        "version": (json.dumps(room(format=9.9)), "format: format version 9.9 is not one"),
        "no version": (
            json.dumps({k: v for k, v in room().items() if k != "format"}),
            "no `format`",
        ),
        "size type": (
            good.replace('"map_size": {"x": 12', '"map_size": {"x": "12"'),
            "resolution.map_size.x: should be a number, not a text",
        ),
        "lines type": (json.dumps(room(line_of_sight={"a": 1})), "line_of_sight: should be a list"),
        "closed type": (good.replace('"closed": true', '"closed": "yes"'), "portals[0].closed"),
        "bounds": (
            good.replace('"bounds": [', '"bounds": [{"x": 1, "y": 1}, '),
            "portals[0].bounds: a portal has 2 bounds, not 3",
        ),
        "range": (good.replace('"range": 3', '"range": -3'), "lights[0].range: -3 is below 0"),
        "a list": ("[1, 2, 3]", "should be an object"),
        "not base64": (json.dumps(room(image="not base64 at all!")), "image: not base64"),
        "not a picture": (
            json.dumps(room(image="R0lGODlhAQABAAAAACw=")),
            "not a PNG, WebP or JPEG",
        ),
        "huge picture": (
            json.dumps(
                room(image=__import__("base64").b64encode(png(40_000, 10, pixels=False)).decode())
            ),
            "40000 x 10 pixels: at most 32768",
        ),
        "deep": ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
        "many points": (
            json.dumps(room(line_of_sight=[[P(1, 1)] * 100_001])),
            "more than 100,000 wall points",
        ),
        "many values": ('{"format": 0.3, "x": [' + "0," * 1_100_000 + "0]}", "JSON values"),
        "not uvtt": ('{"hello": 1}', "no `format` field: not a Universal VTT file"),
    }


CASES = list(hostile(Path()).keys())


@pytest.mark.parametrize("case", CASES)
def test_a_hostile_map_is_one_line_exit_2_and_writes_nothing(
    case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text, expected = hostile(tmp_path)[case]
    source = write_map(tmp_path, text)
    out = tmp_path / "out" / "crypt.yaml"
    out.parent.mkdir()
    code, _, err = run(
        ["scenario", "import", str(source), "--ruleset", "skirmish", "--out", str(out)], capsys
    )
    assert code == 2, (case, err)
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert expected in err, err
    assert str(source) in err
    assert list(out.parent.iterdir()) == []


def test_binary_garbage_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "x.dd2vtt"
    source.write_bytes(b"\xff\xfe\x00garbage")
    code, _, err = run(["scenario", "import", str(source), "--ruleset", "skirmish"], capsys)
    assert code == 2 and "not UTF-8" in err


def test_a_100_mb_picture_is_refused_before_it_is_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "huge.dd2vtt"
    head = json.dumps(room(image="")).removesuffix('""}')
    with source.open("w", encoding="ascii") as stream:
        stream.write(head + '"')
        block = "A" * (1 << 20)
        for _ in range(100):
            stream.write(block)
        stream.write('"}')
    code, _, err = run(["scenario", "import", str(source), "--ruleset", "skirmish"], capsys)
    assert code == 2 and "larger than 80 MiB" in err
    assert len(err.strip().splitlines()) == 1


def test_ten_million_wall_points_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "points.uvtt"
    with source.open("w", encoding="ascii") as stream:
        stream.write('{"format": 0.3, "resolution": {"map_size": {"x": 9, "y": 9}}, ')
        stream.write('"line_of_sight": [[')
        point = '{"x":1,"y":1},'
        chunk = point * 100_000
        for _ in range(100):
            stream.write(chunk)
        stream.write('{"x":1,"y":1}]]}')
    code, _, err = run(["scenario", "import", str(source), "--ruleset", "skirmish"], capsys)
    assert code == 2 and "larger than 80 MiB" in err


def test_a_picture_over_the_image_limit_is_refused_before_decoding(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(importers.imported, "MAX_IMAGE_BYTES", 10)
    source = write_map(tmp_path, room())
    with pytest.raises(importers.MapFileError, match=r"image: an image of about .* MiB"):
        read_map(source)


def test_the_library_names_the_json_path() -> None:
    doc = room()
    doc["portals"][0]["bounds"][1]["y"] = float("nan")
    with pytest.raises(importers.MapFileError) as caught:
        load_map(json.dumps(doc).encode(), file="m.dd2vtt")
    assert caught.value.path == "portals[0].bounds[1].y"
    assert (
        str(caught.value) == "m.dd2vtt: portals[0].bounds[1].y: NaN is not a number a map can hold"
    )


@pytest.mark.parametrize(
    ("background", "valid"),
    [
        ("crypt.png", True),
        ("maps/crypt.webp", True),
        ("Crypt Map.JPG", True),
        ("/etc/crypt.png", False),
        ("../crypt.png", False),
        ("maps//crypt.png", False),
        ("C:crypt.png", False),
        ("maps\\crypt.png", False),
        ("https://example.invalid/crypt.png", False),
        ("crypt.gif", False),
        ("crypt\x1b[31m.png", False),
    ],
)
def test_a_map_background_is_a_picture_beside_the_scenario(background: str, valid: bool) -> None:
    text = (
        "ruleset: skirmish\nname: yard\n"
        f"map: {{width: 10, height: 10, background: {json.dumps(background)}}}\n"
        "actors: [{name: Guard, side: defenders, position: [1, 1], dice: 1}]\n"
    )
    from vigile.scene.loader import check_text

    problems = check_text(text)[1]
    assert (not problems) is valid, problems
    if not valid:
        assert [p.field for p in problems] == ["map.background"]
