"""The scenario editor (issue 13), in-process: edits keep the author's file byte for byte outside
the edited span, errors come by line as ``vigile scenario validate`` gives them, a save stays in
the workspace and never replaces a file silently, the risk overlay is ``risk_map``'s, and the
simulation streamed to the page is ``simulate``'s. The browser test is
tests/test_browser_editor.py."""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from vigile.cli import build_app
from vigile.games.skirmish.riskmap import risk_map
from vigile.rulesets.skirmish.sight import Attitude
from vigile.scene.loader import bundled_path, parse_scenario
from vigile.sim.simulate import simulate
from vigile.store import Store
from vigile.web.app import create_app
from vigile.web.editor import configure
from vigile.web.editor_yaml import append, delete, flow, set_value

TOKEN = "editor-test-token-0123456789"
AUTH = {"Authorization": f"Bearer {TOKEN}"}

HAND_WRITTEN = """\
# The tea house: a hand-written scenario, commented as an author writes one.
ruleset: skirmish   # the skirmish game
name: The tea house
units: cm
time: night
map:
  width: 120        # wide enough for the garden
  height: 80

walls:
  # the tea house itself
  - {kind: wall, start: [40, 20], end: [80, 20]}
  - kind: door      # a block item, kept as it is
    name: sliding door
    start: [40, 20]
    end: [40, 40]

cover:
  - {name: the hedge, points: [[10, 5], [30, 5], [30, 15], [10, 15]]}

lights:
  - {kind: lantern, at: [60, 50]}   # stone lantern

actors:
  - {name: Kage, side: attackers, position: [5, 5], ninja: true, move: 15,
     dice: {ninjitsu: 3, perception: 2}}
  # the guard by the lantern
  - {name: Jubei, side: defenders, position: [62, 52], state: posted, dice: 2}   # sleepy

objective:
  description: the tea room
  at: [60, 30]
  radius: 5
  who: [Kage]

plans:
  Kage:
    - {to: [20, 10], speed: hidden}          # along the hedge
    - {to: [38, 22], speed: half,
       actions: [{do: open-door, door: sliding door}]}   # the door, quietly
    # then in
    - {to: [50, 28], speed: half}
"""


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    folder = tmp_path / "work"
    folder.mkdir()
    return folder


@pytest.fixture
def client(tmp_path: Path, workspace: Path) -> Iterator[TestClient]:
    store = Store(f"sqlite:///{tmp_path / 'editor.db'}")
    app = create_app(store, gm_token=TOKEN)
    configure(app, workspace=workspace)
    with TestClient(app) as test_client:
        yield test_client
    store.close()


def apply(client: TestClient, text: str, edit: dict[str, Any] | None) -> dict[str, Any]:
    response = client.post("/api/v1/editor/apply", json={"yaml": text, "edit": edit}, headers=AUTH)
    assert response.status_code == 200, response.text
    found: dict[str, Any] = response.json()
    return found


def comments(text: str) -> list[str]:
    return [line[line.index("#") :] for line in text.splitlines() if "#" in line]


def top_keys(text: str) -> list[str]:
    return re.findall(r"^([a-z_]+):", text, flags=re.MULTILINE)


def changed_lines(before: str, after: str) -> tuple[list[str], list[str]]:
    """(lines removed, lines added)."""
    removed, added = [], []
    for line in difflib.ndiff(before.splitlines(), after.splitlines()):
        if line.startswith("- "):
            removed.append(line[2:])
        elif line.startswith("+ "):
            added.append(line[2:])
    return removed, added


# ------------------------------------------------------------------------------ round trips


def test_moving_a_guard_and_adding_a_leg_keep_every_comment_and_the_key_order(
    client: TestClient,
) -> None:
    parse_scenario(HAND_WRITTEN)  # the author's file is valid
    moved = apply(client, HAND_WRITTEN, {"op": "move-actor", "name": "Jubei", "to": [70, 55]})
    assert moved["errors"] == [] and moved["svg"]
    removed, added = changed_lines(HAND_WRITTEN, moved["yaml"])
    assert removed == [
        "  - {name: Jubei, side: defenders, position: [62, 52], state: posted, dice: 2}   # sleepy"
    ]
    assert added == [
        "  - {name: Jubei, side: defenders, position: [70, 55], state: posted, dice: 2}   # sleepy"
    ]
    legged = apply(client, moved["yaml"], {"op": "add-leg", "actor": "Kage", "to": [58, 30]})
    text = legged["yaml"]
    assert legged["errors"] == []
    removed, added = changed_lines(moved["yaml"], text)
    assert removed == [] and added == ["    - {to: [58, 30], speed: half}"]
    assert comments(text) == comments(HAND_WRITTEN)
    assert top_keys(text) == top_keys(HAND_WRITTEN)
    plan = parse_scenario(text).plans["Kage"]
    before = parse_scenario(HAND_WRITTEN).plans["Kage"]
    assert plan[:3] == before  # the legs around it, actions included, untouched
    assert plan[3].to == (58.0, 30.0)
    # the block item and the two-line flow items are byte for byte the author's
    for kept in (
        "  - kind: door      # a block item, kept as it is\n    name: sliding door\n",
        "     dice: {ninjitsu: 3, perception: 2}}\n",
        "    - {to: [38, 22], speed: half,\n       actions: [{do: open-door, door: sliding door}]}"
        "   # the door, quietly\n",
    ):
        assert kept in text


def test_a_leg_s_speed_changes_only_that_leg(client: TestClient) -> None:
    edited = apply(
        client, HAND_WRITTEN, {"op": "set-leg", "actor": "Kage", "index": 1, "speed": "fast"}
    )["yaml"]
    removed, added = changed_lines(HAND_WRITTEN, edited)
    assert removed == ["    - {to: [38, 22], speed: half,"]
    assert added == ["    - {to: [38, 22], speed: fast,"]
    plan = parse_scenario(edited).plans["Kage"]
    assert plan[1].actions == parse_scenario(HAND_WRITTEN).plans["Kage"][1].actions


@pytest.mark.parametrize(
    ("edit", "check"),
    [
        (
            {"op": "add-wall", "kind": "partition", "start": [80, 20], "end": [80, 40]},
            lambda s: s.walls[-1].kind.value == "partition" and len(s.walls) == 3,
        ),
        (
            {"op": "add-light", "kind": "brazier", "at": [10, 70]},
            lambda s: s.lights[-1].kind.value == "brazier",
        ),
        (
            {"op": "move-light", "index": 0, "to": [61.25, 49]},
            lambda s: s.lights[0].at == (61.2, 49.0),
        ),
        (
            {
                "op": "add-area",
                "layer": "cover",
                "points": [[1, 1], [9, 1], [9, 9]],
                "name": "pines",
            },
            lambda s: s.cover[-1].name == "pines",
        ),
        (
            {
                "op": "add-area",
                "layer": "surfaces",
                "kind": "water",
                "points": [[1, 1], [9, 1], [9, 9]],
            },
            lambda s: s.surfaces[0].kind.value == "water",
        ),
        (
            {
                "op": "add-actor",
                "side": "defenders",
                "name": "Goro",
                "position": [30, 60],
                "state": "patrolling",
                "group": "east",
            },
            lambda s: s.actor("Goro").group == "east",
        ),
        (
            {"op": "set-wall", "index": 0, "kind": "partition"},
            lambda s: s.walls[0].kind.value == "partition",
        ),
        ({"op": "delete", "path": ["walls", 0]}, lambda s: len(s.walls) == 1),
        (
            {
                "op": "add-action",
                "actor": "Kage",
                "index": 2,
                "action": {"do": "speak", "volume": "whisper"},
            },
            lambda s: s.plans["Kage"][2].actions[0].do == "speak",
        ),
        ({"op": "set-light", "index": 0, "radius": 25}, lambda s: s.lights[0].radius == 25),
    ],
)
def test_each_edit_keeps_the_comments(client: TestClient, edit: dict[str, Any], check: Any) -> None:
    found = apply(client, HAND_WRITTEN, edit)
    assert found["errors"] == [], found["errors"]
    assert check(parse_scenario(found["yaml"]))
    assert comments(found["yaml"]) == comments(HAND_WRITTEN)
    assert top_keys(found["yaml"])[: len(top_keys(HAND_WRITTEN))] == top_keys(HAND_WRITTEN)


def test_the_yaml_writer_in_small() -> None:
    assert flow({"kind": "door", "name": "lord's door", "open": True, "at": [1.5, 2]}) == (
        "{kind: door, name: lord's door, open: true, at: [1.5, 2]}"
    )
    assert flow("yes") == '"yes"' and flow("a: b") == '"a: b"'
    text = "a: 1  # one\nb: [1, 2]\n"
    assert set_value(text, ["c"], 3) == "a: 1  # one\nb: [1, 2]\nc: 3\n"
    assert append(text, ["b"], 3) == "a: 1  # one\nb: [1, 2, 3]\n"
    assert delete(text, ["b", 0]) == "a: 1  # one\nb: [2]\n"
    assert set_value("items:\n  - 1\n  - 2  # two\nz: 0\n", ["items"], []) == "items: []\nz: 0\n"


def test_a_broken_edit_changes_nothing(client: TestClient) -> None:
    response = client.post(
        "/api/v1/editor/apply",
        json={"yaml": HAND_WRITTEN, "edit": {"op": "move-actor", "name": "Nobody", "to": [1, 1]}},
        headers=AUTH,
    )
    assert response.status_code == 422
    assert response.headers["content-type"] == "application/problem+json"
    bad = client.post(
        "/api/v1/editor/apply",
        json={"yaml": HAND_WRITTEN, "edit": {"op": "move-actor", "name": "Jubei", "to": [1]}},
        headers=AUTH,
    )
    assert bad.status_code == 422 and "edit.to" in bad.text


# ------------------------------------------------------------------------------ validation


def test_errors_come_by_line_as_vigile_scenario_validate_gives_them(
    client: TestClient, tmp_path: Path
) -> None:
    found = apply(
        client,
        HAND_WRITTEN,
        {"op": "set-actor", "name": "Jubei", "field": "state", "value": "dozing"},
    )
    assert found["svg"] is None
    line = next(k for k, text in enumerate(found["yaml"].splitlines(), 1) if "Jubei" in text)
    assert [(e["line"], e["field"]) for e in found["errors"]] == [(line, "actors[1].state")]
    path = tmp_path / "scenario.yaml"
    path.write_text(found["yaml"], encoding="utf-8")
    result = CliRunner().invoke(build_app()[0], ["scenario", "validate", str(path), "--json"])
    assert result.exit_code == 2
    cli = [e.removeprefix(str(path)) for e in json.loads(result.stdout)["errors"]]
    assert [e["text"].removeprefix("scenario.yaml") for e in found["errors"]] == cli


# ------------------------------------------------------------------------------ saving


def test_a_save_stays_in_the_workspace(client: TestClient, workspace: Path) -> None:
    for name in (
        "../out.yaml",
        "/tmp/out.yaml",
        "a/../../out.yaml",
        "out.txt",
        "..\\out.yaml",
        "sub/out.yaml",
    ):
        response = client.post(
            "/api/v1/editor/save", json={"yaml": HAND_WRITTEN, "file": name}, headers=AUTH
        )
        assert response.status_code == 422, (name, response.text)
    assert list(workspace.parent.glob("out*")) == [] and list(workspace.iterdir()) == []
    (workspace / "link.yaml").symlink_to(workspace.parent / "elsewhere.yaml")
    linked = client.post(
        "/api/v1/editor/save", json={"yaml": HAND_WRITTEN, "file": "link.yaml"}, headers=AUTH
    )
    assert linked.status_code == 422 and not (workspace.parent / "elsewhere.yaml").exists()


def test_a_save_never_replaces_a_file_silently(client: TestClient, workspace: Path) -> None:
    path = workspace / "tea.yaml"
    path.write_text(HAND_WRITTEN, encoding="utf-8")
    loaded = client.get("/api/v1/editor/file", params={"file": "tea.yaml"}, headers=AUTH).json()
    edited = apply(client, loaded["yaml"], {"op": "move-actor", "name": "Jubei", "to": [70, 55]})
    # saved over the file the page loaded: fine
    saved = client.post(
        "/api/v1/editor/save",
        headers=AUTH,
        json={"yaml": edited["yaml"], "file": "tea.yaml", "hash": loaded["hash"]},
    )
    assert saved.status_code == 200, saved.text
    assert path.read_text(encoding="utf-8") == edited["yaml"]
    assert comments(path.read_text(encoding="utf-8")) == comments(HAND_WRITTEN)
    # someone else changes the file: the next save is refused, then confirmed
    path.write_text(HAND_WRITTEN + "# edited by hand meanwhile\n", encoding="utf-8")
    again = {"yaml": edited["yaml"], "file": "tea.yaml", "hash": saved.json()["hash"]}
    refused = client.post("/api/v1/editor/save", json=again, headers=AUTH)
    assert refused.status_code == 409 and "changed on disk" in refused.json()["detail"]
    assert path.read_text(encoding="utf-8").endswith("# edited by hand meanwhile\n")
    confirmed = client.post("/api/v1/editor/save", json={**again, "confirm": True}, headers=AUTH)
    assert confirmed.status_code == 200
    assert path.read_text(encoding="utf-8") == edited["yaml"]
    # a file the page never loaded
    other = workspace / "other.yaml"
    other.write_text("# mine\n", encoding="utf-8")
    blind = client.post(
        "/api/v1/editor/save", json={"yaml": HAND_WRITTEN, "file": "other.yaml"}, headers=AUTH
    )
    assert blind.status_code == 409 and other.read_text(encoding="utf-8") == "# mine\n"
    assert not [p for p in workspace.iterdir() if p.name.endswith(".tmp")]  # no temporary left


def test_without_a_workspace_the_editor_only_downloads(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'plain.db'}")
    with TestClient(create_app(store, gm_token=TOKEN)) as plain:
        response = plain.post(
            "/api/v1/editor/save", json={"yaml": HAND_WRITTEN, "file": "x.yaml"}, headers=AUTH
        )
        assert response.status_code == 403
        page = plain.get(f"/editor?token={TOKEN}&lang=en")
        assert 'id="ed-save"' not in page.text and "ed-download" in page.text
    store.close()


def test_only_the_server_token_opens_the_editor(client: TestClient) -> None:
    assert client.post("/api/v1/editor/apply", json={"yaml": HAND_WRITTEN}).status_code == 401
    wrong = {"Authorization": "Bearer not-the-token-at-all"}
    response = client.post("/api/v1/editor/apply", json={"yaml": HAND_WRITTEN}, headers=wrong)
    assert response.status_code == 401
    page = client.get("/editor?scenario=night-raid")
    assert 'id="editor"' not in page.text and 'name="token"' in page.text
    opened = client.get(f"/editor?scenario=night-raid&token={TOKEN}&lang=fr")
    assert opened.status_code == 200 and "Éditeur de scénarios" in opened.text
    assert "# A night raid on a lord&#39;s residence" in opened.text  # the file, as written
    assert 'data-name="Jubei"' in opened.text


def test_a_workspace_file_opens_with_its_hash(client: TestClient, workspace: Path) -> None:
    (workspace / "tea.yaml").write_text(HAND_WRITTEN, encoding="utf-8")
    page = client.get(f"/editor?file=tea.yaml&token={TOKEN}")
    assert page.status_code == 200 and 'data-file="tea.yaml"' in page.text
    assert re.search(r'data-loaded="[0-9a-f]{64}"', page.text)
    escaped = client.get(f"/editor?file=../tea.yaml&token={TOKEN}")
    assert escaped.status_code == 422


# ------------------------------------------------------------------------------ balance


def test_the_risk_overlay_is_risk_map_s(client: TestClient) -> None:
    text = bundled_path("night-raid").read_text("utf-8")
    response = client.post(
        "/api/v1/editor/riskmap",
        json={"yaml": text, "attitude": "half", "resolution": 2, "grid": True},
        headers=AUTH,
    )
    assert response.status_code == 200, response.text
    found = response.json()
    direct = risk_map(parse_scenario(text), Attitude.HALF, resolution=2.0)
    assert np.array_equal(np.array(found["grid"]["risk"]), direct.risk)
    assert found["grid"]["xs"] == direct.xs.tolist()
    assert found["image"]["href"].startswith("data:image/png;base64,")
    assert found["route"]["actor"] == "Kage"  # to the lord's room, or the door its plan opens
    assert found["route"]["points"][-1] in ([155.0, 65.0], [137.0, 62.0])
    assert 0 <= found["route"]["chance_seen"] <= 1


def test_a_game_without_a_risk_map_says_so(client: TestClient) -> None:
    from vigile import registry

    text = bundled_path("dnd35-flour").read_text("utf-8")
    response = client.post(
        "/api/v1/editor/riskmap", json={"yaml": text, "attitude": "half"}, headers=AUTH
    )
    if getattr(registry.get("dnd35"), "riskmap", None):
        assert response.status_code == 200
    else:
        assert response.status_code == 422 and "no risk map for this game" in response.text


def frames(body: str) -> list[tuple[str, Any]]:
    found = []
    for block in body.strip().split("\n\n"):
        kind = re.search(r"^event: (.+)$", block, flags=re.MULTILINE)
        data = re.search(r"^data: (.+)$", block, flags=re.MULTILINE)
        assert kind and data
        found.append((kind.group(1), json.loads(data.group(1))))
    return found


def test_the_simulation_stream_ends_with_simulate_s_outcomes(client: TestClient) -> None:
    text = bundled_path("night-raid").read_text("utf-8")
    with client.stream(
        "POST",
        "/api/v1/editor/simulate",
        json={"yaml": text, "runs": 5000, "seed": 7},
        headers=AUTH,
    ) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        body = "".join(response.iter_text())
    found = frames(body)
    kinds = [kind for kind, _ in found]
    assert kinds[-1] == "result" and set(kinds[:-1]) == {"progress"} and len(kinds) >= 3
    # the runs done so far, block by block as the simulator plays them: from none to all
    done = [data["done"] for kind, data in found if kind == "progress"]
    assert done[0] == 0 and done[-1] == 5000 and done == sorted(set(done))
    result = found[-1][1]
    expected = simulate(parse_scenario(text), 5000, seed=7).as_json()
    assert result["outcomes"] == expected["outcomes"]
    assert result["detected"] == expected["detected"]
    assert result["heat"]["href"].startswith("data:image/png;base64,")


def test_a_simulation_is_capped(client: TestClient) -> None:
    text = bundled_path("night-raid").read_text("utf-8")
    response = client.post(
        "/api/v1/editor/simulate", json={"yaml": text, "runs": 10**7}, headers=AUTH
    )
    assert response.status_code == 422


@pytest.mark.multiprocess
def test_a_sweep_draws_one_curve_per_value_with_error_bars(client: TestClient) -> None:
    text = bundled_path("night-raid").read_text("utf-8")
    response = client.post(
        "/api/v1/editor/sweep",
        json={
            "yaml": text,
            "runs": 40,
            "outcome": "detected",
            "vary": [
                {"field": "actors.Kage.dice.ninjitsu", "start": 1, "stop": 3, "step": 2},
                {"field": "turns", "start": 20, "stop": 40, "step": 20},
            ],
        },
        headers=AUTH,
    )
    assert response.status_code == 200, response.text
    found = response.json()
    assert len(found["rows"]) == 4 and found["where"] == "local"
    assert [c["label"] for c in found["curves"]] == ["turns = 20", "turns = 40"]
    assert all(p["low"] <= p["p"] <= p["high"] for c in found["curves"] for p in c["points"])
    assert found["svg"].count('class="errorbar"') == 4
