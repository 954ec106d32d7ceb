"""Issue 37: imports that keep what the map says. Windows are seen through and not walked
through (Foundry's move-only walls, Dungeondraft's portals that let light through, as the
Universal Battlemap Importer reads them); hex grids, one-way walls, lights switched off,
Foundry's darkness and global illumination, an unlit map, UVTT 1.0 and a picture named by
path are each imported or named in the summary. The expected figures are worked by hand from
RULES.md (SK-V1..V6) and the files' fields."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from vigile.cli import main
from vigile.games.contract import RiskRequest, risk_map
from vigile.scene.importers import draft, read_map
from vigile.scene.loader import check_scenario, load_scenario

SIZE = 100  # pixels a square; no padding, so the canvas is the scene


def wall(x1: float, y1: float, x2: float, y2: float, **flags: Any) -> dict[str, Any]:
    c = [x1 * SIZE, y1 * SIZE, x2 * SIZE, y2 * SIZE]
    return {"c": c, "move": 20, "sight": 20, "sound": 20, "light": 20, "door": 0, "ds": 0, **flags}


def hall(barrier: dict[str, Any], **changes: Any) -> dict[str, Any]:
    """A v11 scene of 40 x 10 squares with one barrier across it at x = 20 squares and a light
    of bright radius 20 ft (4 squares) at (28, 5) squares."""
    doc: dict[str, Any] = {
        "name": "Hall",
        "_stats": {"coreVersion": "11.315"},
        "width": 40 * SIZE,
        "height": 10 * SIZE,
        "padding": 0,
        "grid": {"type": 1, "size": SIZE, "distance": 5, "units": "ft"},
        "walls": [barrier],
        "lights": [{"x": 28 * SIZE, "y": 5 * SIZE, "config": {"dim": 40, "bright": 20}}],
    }
    doc.update(changes)
    return doc


def write(folder: Path, doc: Any, name: str = "scene.json") -> Path:
    path = folder / name
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def imported_skirmish(tmp_path: Path, doc: dict[str, Any], actors: str, plans: str) -> Path:
    out = tmp_path / "hall.yaml"
    assert (
        main(
            [
                "scenario",
                "import",
                str(write(tmp_path, doc)),
                "--ruleset",
                "skirmish",
                "--out",
                str(out),
            ]
        )
        == 0
    )
    text = out.read_text(encoding="utf-8")
    out.write_text(text.replace("actors: []", actors).replace("plans: {}", plans), "utf-8")
    return out


# Skirmish at 2.5 cm a square: the hall is 100 x 25 cm, the barrier at x = 50 cm, the lamp at
# (70, 12.5) lighting 10 cm. The guard stands at (35, 12.5), the ninja at (65, 12.5): 30 cm
# apart, the ninja 5 cm from the lamp, so lit (SK-V5). At night, moving at half speed 30 cm
# away, he is out of every band of SK-V3 (half speed: under 20 cm): unseen unless lit. Lit and
# in the guard's line of sight, he is seen distinctly, chance 1 (SK-V5); a wall between them
# blocks the line of sight (SK-V6), chance 0.
ACTORS = (
    "actors:\n"
    "  - {name: Ninja, side: attackers, position: [65, 12.5], dice: {ninjitsu: 2}}\n"
    "  - {name: Guard, side: defenders, position: [35, 12.5], dice: 1}"
)


@pytest.mark.parametrize(
    ("flags", "kind", "seen"),
    [
        ({"sight": 0, "light": 0}, "window", Fraction(1)),  # move-only: a window, seen through
        ({"sight": 30, "light": 30}, "window", Fraction(1)),  # proximity sight: the UBI window
        ({}, "wall", Fraction(0)),  # blocks movement and sight: a wall
    ],
)
def test_a_window_between_guard_and_lit_intruder_lets_him_be_seen(
    tmp_path: Path, flags: dict[str, int], kind: str, seen: Fraction
) -> None:
    path = imported_skirmish(tmp_path, hall(wall(20, 0, 20, 10, **flags)), ACTORS, "plans: {}")
    scenario = load_scenario(path)
    assert [w.kind.value for w in scenario.walls] == [kind]
    found = risk_map(scenario, RiskRequest("half"))
    assert found.risk_at(65, 12.5) == seen


def test_a_window_stops_a_walker(tmp_path: Path) -> None:
    """A plan through the window is refused as it would be through a wall (SK-G1)."""
    path = imported_skirmish(
        tmp_path,
        hall(wall(20, 0, 20, 10, sight=0, light=0)),
        ACTORS,
        "plans:\n  Ninja:\n    - {to: [35, 5], speed: half}",
    )
    problems = check_scenario(path)[1]
    assert problems and all("plans" in str(p.field) for p in problems)


def test_a_uvtt_portal_that_lets_light_through_is_a_closed_window(tmp_path: Path) -> None:
    """Dungeondraft's sample: the portal at (5, 8) has closed: false, a window in the art; the
    Universal Battlemap Importer makes it a wall that blocks movement, not sight."""
    imported = read_map(Path(__file__).parent / "fixtures" / "maps" / "sampleMap.dd2vtt")
    part = draft(imported, ruleset="dnd35", file="sampleMap.dd2vtt")
    assert [w for w in part.walls if w["kind"] in ("door", "window")] == [
        {"kind": "door", "name": "door 1", "start": [25, 7.5], "end": [25, 12.5]},
        {"kind": "window", "start": [25, 38.1], "end": [25, 41.9]},
    ]
    assert part.doors == 1 and part.windows == 1
    assert any("1 portal(s) that let light through" in note for note in part.notes)
    assert any("ambient light is ffffffff (bright)" in note for note in part.notes)


# --------------------------------------------------------------------------- nothing dropped


def test_day_and_night_follow_darkness_and_global_illumination(tmp_path: Path) -> None:
    cases = [  # (changes, time): day only when the global light lights the scene throughout
        ({"environment": {"darknessLevel": 0, "globalLight": {"enabled": True}}}, "day"),
        ({"environment": {"darknessLevel": 0, "globalLight": {"enabled": False}}}, "night"),
        (
            {
                "environment": {
                    "darknessLevel": 0.8,
                    "globalLight": {"enabled": True, "darkness": {"max": 0.5}},
                }
            },
            "night",  # darker than the global light's threshold: it is off
        ),
        ({"darkness": 0.2, "globalLight": True, "globalLightThreshold": None}, "day"),  # v9-11
        ({"darkness": 1, "globalLight": False}, "night"),
    ]
    for changes, time in cases:
        imported = read_map(write(tmp_path, hall(wall(20, 0, 20, 10), **changes)))
        assert imported.time == time, changes
        assert any("global illumination" in note for note in imported.notes)
    out = tmp_path / "day.yaml"
    day = hall(wall(20, 0, 20, 10), environment={"globalLight": {"enabled": True}})
    assert (
        main(
            [
                "scenario",
                "import",
                str(write(tmp_path, day)),
                "--ruleset",
                "dnd35",
                "--out",
                str(out),
            ]
        )
        == 0
    )
    assert "\ntime: day\n" in out.read_text(encoding="utf-8")
    # a scene that says nothing of its light is night, without a note
    assert read_map(write(tmp_path, hall(wall(20, 0, 20, 10)))).time is None


def test_hex_grid_one_way_walls_and_lights_switched_off_are_named(tmp_path: Path) -> None:
    doc = hall(
        wall(20, 0, 20, 10, dir=1),
        grid={"type": 2, "size": SIZE, "distance": 5, "units": "ft"},
        lights=[
            {"x": 500, "y": 500, "hidden": True, "config": {"bright": 20}},
            {"x": 900, "y": 500, "config": {"bright": 20, "negative": True}},
            {"x": 1300, "y": 500, "config": {"bright": 20}},
        ],
    )
    part = draft(read_map(write(tmp_path, doc)), ruleset="dnd35", file="scene.json")
    notes = "\n".join(part.notes)
    assert "a hex grid (hex, odd rows)" in notes
    assert "1 one-way wall(s)" in notes
    assert "lights[0]: a light switched off in Foundry, left out" in notes
    assert "lights[1]: a darkness source, left out" in notes
    assert part.lights == ({"kind": "lantern", "at": [65, 25], "radius": 20},)
    assert part.walls == ({"kind": "wall", "start": [100, 0], "end": [100, 50]},)


def test_an_unlit_night_map_is_dark_throughout(tmp_path: Path) -> None:
    """No light, no global illumination: the d20 games' [R] would take it as lit throughout;
    the import says it is dark (light.dark_without_lights), and names it."""
    unlit = hall(wall(20, 0, 20, 10), lights=[], darkness=1, globalLight=False)
    out = tmp_path / "unlit.yaml"
    code = main(
        ["scenario", "import", str(write(tmp_path, unlit)), "--ruleset", "dnd35", "--out", str(out)]
    )
    assert code == 0
    text = out.read_text(encoding="utf-8")
    assert "house_rules: {light: {dark_without_lights: true}}" in text
    assert "no light on the map" in text
    text = text.replace(
        "actors: []",
        "actors:\n  - {name: Rogue, side: attackers, position: [150, 25], bonuses: {hide: 5}}\n"
        "  - {name: Guard, side: defenders, position: [50, 25], bonuses: {spot: 2}}",
    )
    out.write_text(text, encoding="utf-8")
    scenario = load_scenario(out)
    assert scenario.rules().flag("light.dark_without_lights") is True
    # the skirmish has no such rule: its night without light is dark already (SK-V1)
    part = draft(read_map(write(tmp_path, unlit)), ruleset="skirmish", file="scene.json")
    assert part.house_rules == {} and any("no light on the map" in n for n in part.notes)
    # a lit map keeps the game's own reading
    lit = draft(read_map(write(tmp_path, hall(wall(20, 0, 20, 10)))), ruleset="dnd35", file="s")
    assert lit.house_rules == {}


def uvtt(**changes: Any) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "format": 1.0,
        "resolution": {
            "map_origin": {"x": 0, "y": 0},
            "map_size": {"x": 10, "y": 6},
            "pixels_per_grid": 50,
        },
        "line_of_sight": [[{"x": 1, "y": 1}, {"x": 9, "y": 1}]],
        "portals": [],
        "lights": [
            {
                "position": {"x": 5, "y": 3},
                "range": 2,
                "intensity": 1,
                "color": "ffffffff",
                "shadows": True,
            }
        ],
        "image": "maps/Crypt of Ash.png",
    }
    doc.update(changes)
    return doc


def test_uvtt_1_0_with_its_picture_named_by_path_is_read_walls_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, uvtt(), "crypt.uvtt")
    imported = read_map(path)
    assert imported.source == "Universal VTT 1"
    assert imported.image is None and imported.image_name == "Crypt of Ash.png"
    out = tmp_path / "crypt.yaml"
    code, printed, err = run(
        ["scenario", "import", str(path), "--ruleset", "skirmish", "--out", str(out)], capsys
    )
    assert code == 0, err
    assert "1 walls, 0 doors, 1 lights from Universal VTT 1" in printed
    assert "copy Crypt of Ash.png beside the scenario" in printed
    assert "background: Crypt of Ash.png" in out.read_text(encoding="utf-8")
    # a version vigile does not know is still refused
    code, _, err = run(
        [
            "scenario",
            "import",
            str(write(tmp_path, uvtt(format=2.0), "v2.uvtt")),
            "--ruleset",
            "skirmish",
        ],
        capsys,
    )
    assert code == 2 and "format version 2" in err


def test_the_help_asks_for_the_ruleset_by_name(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["scenario", "import", "--help"])
    printed = " ".join(capsys.readouterr().out.split())
    assert code == 0
    assert "--ruleset GAME" in printed
    assert "required unless --into" in printed
    code, _, err = run(["scenario", "import", "x.dd2vtt"], capsys)
    assert code == 2 and "--ruleset" in err
