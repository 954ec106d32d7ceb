"""`vigile scenario import` of Foundry VTT scene exports (issue 13): v10+ and older exports
built here, every wall flag to its vigile kind, the canvas padding removed, lights in grid
distance, and hostile files refused in one line, exit 2, nothing written."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import pytest

from vigile.cli import main
from vigile.scene.importers import draft, load_map, read_map
from vigile.scene.loader import check_scenario, load_scenario

SIZE = 100  # pixels a square
PAD = 0.25  # Foundry's default padding, rounded up to whole squares:
MX, MY = 300, 200  # 1000 px wide -> 250 px -> 3 squares; 800 px high -> 200 px -> 2 squares


def wall(x1: float, y1: float, x2: float, y2: float, **flags: Any) -> dict[str, Any]:
    """A wall in squares of the scene (the canvas margin added here)."""
    c = [x1 * SIZE + MX, y1 * SIZE + MY, x2 * SIZE + MX, y2 * SIZE + MY]
    return {"c": c, "move": 20, "sight": 20, "sound": 20, "light": 20, "door": 0, "ds": 0, **flags}


def scene(**changes: Any) -> dict[str, Any]:
    """A v11 export: a 10 x 8 squares scene, 5 ft squares, every kind of wall, two lights."""
    doc: dict[str, Any] = {
        "name": "Smugglers' cellar",
        "_stats": {"coreVersion": "11.315", "systemId": "dnd5e"},
        "width": 1000,
        "height": 800,
        "padding": PAD,
        "grid": {"type": 1, "size": SIZE, "distance": 5, "units": "ft"},
        "background": {"src": "worlds/w/maps/cellar.webp", "offsetX": 0, "offsetY": 0},
        "walls": [
            wall(1, 1, 9, 1),  # a wall
            wall(9, 1, 9, 7, door=1, ds=0),  # a closed door
            wall(1, 7, 9, 7, door=1, ds=1),  # an open door
            wall(1, 1, 1, 4, door=2, ds=2),  # a locked secret door
            wall(1, 4, 1, 7, sight=0, light=0),  # a window: blocks movement, not sight
            wall(5, 1, 5, 3, sight=10),  # a terrain wall: limited sight
            wall(5, 3, 5, 5, move=0, sight=20),  # an ethereal wall: sight, not movement
            wall(5, 5, 5, 6, move=0, sight=0, sound=20),  # sound only
            wall(6, 5, 7, 5, move=0, sight=0, sound=0, light=20),  # light only: left out
            wall(-3, 2, 0.5, 2),  # half in the margin: cut at the map's edge
        ],
        "lights": [
            {"x": MX + 250, "y": MY + 450, "config": {"dim": 30, "bright": 15}},
            {"x": MX + 850, "y": MY + 250, "config": {"dim": 20, "bright": 0}},
            {"x": MX + 150, "y": MY + 150, "config": {"dim": 0, "bright": 0}},
        ],
        "tokens": [],
    }
    doc.update(changes)
    return doc


def write(folder: Path, doc: Any, name: str = "fvtt-Scene-cellar.json") -> Path:
    path = folder / name
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc), encoding="utf-8")
    return path


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_every_wall_flag_becomes_its_kind(tmp_path: Path) -> None:
    imported = read_map(write(tmp_path, scene()))
    assert imported.source == "Foundry VTT scene (core 11.315)"
    assert imported.name == "Smugglers' cellar"
    assert (imported.width, imported.height, imported.square_ft) == (10, 8, 5)
    part = draft(imported, ruleset="dnd35", file="cellar.json")
    assert part.scale == 5 and (part.width, part.height) == (50, 40)
    assert list(part.walls) == [
        {"kind": "wall", "start": [5, 5], "end": [45, 5]},
        {"kind": "door", "name": "door 1", "start": [45, 5], "end": [45, 35]},
        {"kind": "door", "name": "door 2", "start": [5, 35], "end": [45, 35], "open": True},
        {"kind": "door", "name": "secret door 1", "start": [5, 5], "end": [5, 20]},
        {"kind": "window", "start": [5, 20], "end": [5, 35]},
        {"kind": "partition", "start": [25, 5], "end": [25, 15]},
        {"kind": "partition", "start": [25, 15], "end": [25, 25]},
        {"kind": "partition", "start": [25, 25], "end": [25, 30]},
        {"kind": "wall", "start": [0, 10], "end": [2.5, 10]},
    ]
    # bright 15 ft, else dim 20 ft; the light with no radius is left out
    assert part.lights == (
        {"kind": "lantern", "at": [12.5, 22.5], "radius": 15},
        {"kind": "lantern", "at": [42.5, 12.5], "radius": 20},
    )
    notes = " ".join(part.notes)
    assert "walls[8]: a wall that blocks neither" in notes and "lights[2]" in notes
    assert "cut at the map's edge" in notes
    assert imported.image is None and imported.image_name == "cellar.webp"


def test_an_old_export_reads_the_same(tmp_path: Path) -> None:
    new = scene()
    old: dict[str, Any] = {
        "name": new["name"],
        "flags": {"exportSource": {"world": "w", "system": "dnd5e", "coreVersion": "0.7.9"}},
        "width": 1000,
        "height": 800,
        "padding": PAD,
        "grid": SIZE,
        "gridDistance": 5,
        "gridUnits": "ft",
        "img": "worlds/w/maps/cellar.webp",
        "walls": [],
        "lights": [
            {"x": light["x"], "y": light["y"], **light["config"]} for light in new["lights"]
        ],
    }
    for w in new["walls"]:
        flags = {k: v for k, v in w.items() if k not in ("sight", "light")}
        if "move" in flags:  # before v9: move 0/1, sense 0/1 (normal)/2 (limited)
            flags["move"] = 1 if flags["move"] else 0
        flags["sense"] = {0: 0, 10: 2, 20: 1}[w["sight"]]
        flags["sound"] = {0: 0, 20: 1}[w["sound"]]
        old["walls"].append(flags)
    a = draft(read_map(write(tmp_path, new)), ruleset="dnd35", file="x")
    b = draft(read_map(write(tmp_path, old, "old.json")), ruleset="dnd35", file="x")
    assert (a.walls, a.lights, a.width) == (b.walls, b.lights, b.width)


def test_metres_are_converted_and_skirmish_keeps_its_own_scale(tmp_path: Path) -> None:
    doc = scene(grid={"type": 1, "size": SIZE, "distance": 1.5, "units": "m"})
    imported = read_map(write(tmp_path, doc))
    assert draft(imported, ruleset="starfinder", file="x").scale == 5
    assert draft(imported, ruleset="skirmish", file="x").scale == 2.5
    assert draft(imported, ruleset="dnd35", file="x", scale=10).width == 100


def test_the_padding_and_the_picture_offset_are_removed(tmp_path: Path) -> None:
    doc = scene(padding=0, walls=[wall(1, 1, 2, 1)], lights=[])
    doc["walls"][0]["c"] = [100 - 40, 100, 200 - 40, 100]
    doc["background"]["offsetX"] = 40  # the picture drawn 40 px to the left
    part = draft(read_map(write(tmp_path, doc)), ruleset="dnd35", file="x")
    assert part.walls == ({"kind": "wall", "start": [5, 5], "end": [10, 5]},)


def test_a_data_uri_picture_is_kept(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    picture = b"\xff\xd8\xff\xe0" + b"\x00" * 20  # a JPEG's first bytes
    doc = scene()
    doc["background"]["src"] = "data:image/jpeg;base64," + base64.b64encode(picture).decode()
    out = tmp_path / "cellar.yaml"
    source = write(tmp_path, doc)
    code, _, err = run(
        ["scenario", "import", str(source), "--ruleset", "dnd35", "--out", str(out)], capsys
    )
    assert code == 0, err
    assert (tmp_path / "cellar.jpg").read_bytes() == picture
    assert load_scenario_data(out)["map"]["background"] == "cellar.jpg"


def load_scenario_data(path: Path) -> dict[str, Any]:
    import yaml

    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def test_import_add_actors_validate_and_play(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = write(tmp_path, scene())
    out = tmp_path / "cellar.yaml"
    code, printed, err = run(
        ["scenario", "import", str(source), "--ruleset", "dnd35", "--out", str(out)], capsys
    )
    assert code == 0, err
    assert "5 walls, 3 doors, 1 windows, 2 lights from Foundry VTT scene (core 11.315)" in printed
    assert "copy cellar.webp from Foundry's data folder" in printed
    text = out.read_text(encoding="utf-8")
    assert "background: cellar.webp" in text
    assert [e.field for e in check_scenario(out)[1]] == ["actors"]
    out.write_text(
        text.replace(
            "actors: []",
            "actors:\n"
            "  - {name: Elandra, side: attackers, position: [40, 30],"
            " bonuses: {hide: 8, move_silently: 6}}\n"
            "  - {name: Brom, side: defenders, position: [15, 15], bonuses: {spot: 4, listen: 4}}",
        ).replace("plans: {}", "plans:\n  Elandra:\n    - {to: [40, 38], speed: half}"),
        encoding="utf-8",
    )
    assert run(["scenario", "validate", str(out)], capsys)[0] == 0
    code, printed, err = run(["run", str(out), "--seed", "2", "--turns", "3"], capsys)
    assert code == 0, err
    scenario = load_scenario(out)
    assert scenario.name == "Smugglers' cellar" and scenario.map.background == "cellar.webp"
    assert {w.kind.value for w in scenario.walls} == {"wall", "door", "window", "partition"}


def hostile() -> dict[str, tuple[str, str]]:
    good = json.dumps(scene())
    first = json.dumps(scene()).replace('"c": [400', '"c": [NaN', 1)  # walls[0]
    return {
        "truncated": (good[:-40], "not valid JSON"),
        "nan": (first, "walls[0].c[0]: NaN"),
        "infinity": (first.replace("NaN", "Infinity"), "walls[0].c[0]: an infinite"),
        "version": (
            json.dumps(scene(_stats={"coreVersion": "99.1"})),
            "_stats.coreVersion: Foundry version '99.1' is not one vigile reads",
        ),
        "three numbers": (
            json.dumps(scene(walls=[{"c": [1, 2, 3]}])),
            "walls[0].c: a wall has 4 coordinates",
        ),
        "move value": (
            json.dumps(scene(walls=[wall(0, 0, 1, 1, move=7)])),
            "walls[0].move: 7 is not a Foundry movement type",
        ),
        "door type": (
            json.dumps(scene(walls=[wall(0, 0, 1, 1, door="1")])),
            "walls[0].door: should be a whole number, not a text",
        ),
        "door state": (
            json.dumps(scene(walls=[wall(0, 0, 1, 1, door=1, ds=5)])),
            "walls[0].ds: 5 is not a Foundry door state",
        ),
        "grid": (json.dumps(scene(grid={"size": 0})), "grid.size: 0 should be more than 0"),
        "walls type": (json.dumps(scene(walls={"c": 1})), "walls: should be a list"),
        "padding": (json.dumps(scene(padding=3)), "padding: 3: Foundry's padding is 0 to 0.5"),
        "light": (
            json.dumps(scene(lights=[{"x": 1, "y": 2, "config": {"dim": "far"}}])),
            "lights[0].config.dim: should be a number",
        ),
        "neither": ('{"hello": 1}', "neither a Universal VTT map"),
        "too many walls": (
            json.dumps(scene(walls=[{"c": [0, 0, 1, 1]}] * 50_001)),
            "50,001 walls: more than 50,000",
        ),
    }


@pytest.mark.parametrize("case", list(hostile()))
def test_a_hostile_scene_is_one_line_exit_2_and_writes_nothing(
    case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text, expected = hostile()[case]
    source = write(tmp_path, text)
    out = tmp_path / "out" / "cellar.yaml"
    out.parent.mkdir()
    code, _, err = run(
        ["scenario", "import", str(source), "--ruleset", "dnd35", "--out", str(out)], capsys
    )
    assert code == 2, (case, err)
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert expected in err, err
    assert list(out.parent.iterdir()) == []


def test_more_walls_than_a_scenario_holds_is_refused_with_the_way_out(tmp_path: Path) -> None:
    walls = [wall(0.001 * i, 0, 0.001 * i, 1) for i in range(2001)]
    imported = load_map(json.dumps(scene(walls=walls)).encode(), file="big.json")
    with pytest.raises(Exception, match=r"2001 walls once imported: a scenario holds at most 2000"):
        draft(imported, ruleset="dnd35", file="big.json", scale=1000)
