"""LP-5 on a character's own map (issue 36): its fellows, the guards it scouted or discovered,
the way it heard someone, each at the precision it knows them, and nothing it never perceived.

Worked by hand from the bundled scenarios (src/vigile/scenarios) and RULES.md:

- ``night-raid`` is scouted (``observed_beforehand``): SK-G3 gives each ninja every guard's
  position but Rin's, the hidden archer (SK-G4);
- ``night-raid-unscouted``: the ninjas know no guard at the start. Kage throws his grapple from
  behind the north wall (turn 1), then climbs to (60, 14) (turn 2). From there he sees, without a
  roll (SK-V5: within 20 cm of a light, seen by any observer with a line of sight), Sen at
  (78, 52), 8.9 cm from the stone lantern at (70, 48), and Jubei at (100, 106) and Goro at
  (92, 104), 2 and 8 cm from the gate's brazier at (100, 104); the line from (60, 14) to the gate
  passes east of the guardhouse (x = 82 where it crosses y = 65, the guardhouse ends at x = 70).
  Nobody else: the west patrol (Kuro, Shiro) starts 46.8 cm from (60, 14) and 45 cm from the
  lantern, and two patrol moves of 10 cm leave it over 20 cm from both (SK-V3's half-speed band,
  SK-V5); Ippei is behind the guardhouse's closed door, Rin and the house's guards behind the
  house's walls (SK-V6), the east patrol and Daisuke far in the dark.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from vigile.awareness.ladder import AwarenessState
from vigile.engine.run import new_game
from vigile.io.i18n import Lang
from vigile.live import Encounter, character_view
from vigile.scene.loader import bundled_path, load_scenario
from vigile.store import Store
from vigile.web import mapsvg

GUARDS = {
    "Jubei": [100.0, 106.0],
    "Goro": [92.0, 104.0],
    "Kuro": [25.0, 45.0],
    "Shiro": [28.0, 47.0],
    "Tetsu": [175.0, 30.0],
    "Hanbei": [178.0, 33.0],
    "Daisuke": [112.0, 37.0],
    "Ippei": [40.0, 80.0],
    "Masa": [150.0, 62.0],
    "Lord Nagamasa": [160.0, 75.0],
}
"""The night raid's guards where the scenario posts them, Rin the hidden archer left out."""


@pytest.fixture()
def store(tmp_path: Path) -> Iterator[Store]:
    opened = Store(f"sqlite:///{tmp_path / 'map.db'}")
    yield opened
    opened.close()


def encounter_of(store: Store, name: str, seed: int) -> Encounter:
    encounter, _ = Encounter.create(
        store, text=bundled_path(name).read_text("utf-8"), fmt="yaml", source=f"{name}.yaml",
        seed=seed,
    )  # fmt: skip
    return encounter


def drawn(encounter: Encounter, name: str) -> tuple[dict[str, Any], mapsvg.MapModel]:
    """The character's view and the map its page draws from it."""
    with encounter.reading() as replayed:
        shown = character_view(encounter, replayed, name, Lang.EN)
        model = mapsvg.board_layers(encounter.scenario, replayed.game.board)
        mapsvg.character_tokens(model, replayed.game, shown)
    return shown, model


def tokens(model: mapsvg.MapModel) -> dict[str | None, list[float]]:
    return {t["name"]: [t["x"], t["y"]] for t in model.tokens}


def test_scouted_a_ninja_s_map_holds_its_fellows_and_every_guard_but_the_hidden_one(
    store: Store,
) -> None:
    encounter = encounter_of(store, "night-raid", seed=1)
    shown, model = drawn(encounter, "Kage")
    assert shown["fellows"] == [
        {"name": "Tsuki", "at": [66.0, 4.0], "alive": True},
        {"name": "Kaze", "at": [54.0, 4.0], "alive": True},
    ]
    # SK-G3: scouted, each guard named where he stands (the patrols have made turn 1's
    # move, SK-G1), perceived in no other way yet
    game = encounter.game
    now = {
        name: [round(game.by_name[name].x, 2), round(game.by_name[name].y, 2)] for name in GUARDS
    }
    posted = ("Jubei", "Goro", "Daisuke", "Ippei", "Masa", "Lord Nagamasa")
    assert {name: now[name] for name in posted} == {name: GUARDS[name] for name in posted}
    assert {k["name"]: k["at"] for k in shown["known"]} == now
    assert all(k["scouted"] and k["awareness"] == "unaware" for k in shown["known"])
    assert tokens(model) == {"Kage": [60.0, 4.0], "Tsuki": [66.0, 4.0], "Kaze": [54.0, 4.0]} | now
    fellows = [t["name"] for t in model.tokens if t.get("fellow")]
    assert fellows == ["Tsuki", "Kaze"] and [t["name"] for t in model.tokens if t["me"]] == ["Kage"]
    assert "Rin" not in json.dumps(shown) and "[180.0, 100.0]" not in json.dumps(shown)
    assert model.arrows == []


def test_scouted_a_patrol_is_drawn_where_it_walks_now(store: Store) -> None:
    encounter = encounter_of(store, "night-raid", seed=1)
    was = encounter.game.by_name["Kuro"].at
    encounter.act({"do": "end-turn"})  # the west patrol moves 10 cm by its scatter die (SK-G1)
    kuro = encounter.game.by_name["Kuro"]
    assert 0 < math.dist(kuro.at, was) <= 10.0 + 1e-9  # 10 cm, less where it bounced
    _, model = drawn(encounter, "Kage")
    assert tokens(model)["Kuro"] == [round(kuro.x, 2), round(kuro.y, 2)]


def test_unscouted_kage_s_map_draws_the_guards_he_discovered_and_no_other(store: Store) -> None:
    encounter = encounter_of(store, "night-raid-unscouted", seed=1)
    before, model = drawn(encounter, "Kage")
    assert [t["name"] for t in model.tokens] == ["Kage", "Tsuki", "Kaze"]
    assert before["known"] == []
    encounter.act({"do": "throw-grapple", "actor": "Kage", "at": [60, 10], "onto": "tile"})
    encounter.act({"do": "end-turn"})
    encounter.act({"do": "move", "actor": "Kage", "to": [60, 14], "speed": "fast", "climb": True})
    encounter.act({"do": "end-turn"})
    shown, model = drawn(encounter, "Kage")
    assert shown["me"]["at"] == [60.0, 14.0]
    seen = {k["name"]: (k["awareness"], k["at"]) for k in shown["known"]}
    assert seen == {
        "Jubei": ("observed", [100.0, 106.0]),
        "Goro": ("observed", [92.0, 104.0]),
        "Sen": ("observed", [78.0, 52.0]),
    }
    assert tokens(model) == {
        "Kage": [60.0, 14.0],
        "Tsuki": [66.0, 4.0],
        "Kaze": [54.0, 4.0],
        "Jubei": [100.0, 106.0],
        "Goro": [92.0, 104.0],
        "Sen": [78.0, 52.0],
    }
    text = json.dumps(shown)
    for unseen in ("Rin", "Kuro", "Shiro", "Ippei", "Masa", "Daisuke", "Tetsu"):
        assert unseen not in text
    # a discovery is Kage's alone: Tsuki, behind the wall, knows no guard, but where Kage is
    tsuki, tsuki_map = drawn(encounter, "Tsuki")
    assert tsuki["known"] == []
    assert tokens(tsuki_map) == {"Tsuki": [66.0, 4.0], "Kage": [60.0, 14.0], "Kaze": [54.0, 4.0]}


def test_a_guard_who_only_heard_draws_a_way_not_a_token(store: Store) -> None:
    # Seed 7 (tests/test_lp5_secrets.py): Kuro hears the grapple thrown onto the tile at
    # (60, 10) (SK-N2, SK-N10): a direction, from where he stands; no name, no distance.
    encounter = encounter_of(store, "night-raid", seed=7)
    encounter.act({"do": "throw-grapple", "actor": "Kage", "at": [60, 10], "onto": "tile"})
    kuro = encounter.game.by_name["Kuro"]
    assert kuro.aware_of("Kage") is AwarenessState.DIRECTION
    shown, model = drawn(encounter, "Kuro")
    sides = {t["name"]: t["side"] for t in model.tokens}
    assert set(sides.values()) == {"defenders"}  # himself and his fellows, Rin among them
    assert "Rin" in sides and "Kage" not in json.dumps(shown)
    (heard,) = model.arrows
    assert heard["target"] is None
    assert (heard["x1"], heard["y1"]) == (round(kuro.x, 2), round(kuro.y, 2))
    way = math.atan2(10 - kuro.y, 60 - kuro.x)
    length = 200 * mapsvg.ARROW  # a fixed length: the way, not how far
    assert heard["x2"] == pytest.approx(kuro.x + length * math.cos(way), abs=0.6)
    assert heard["y2"] == pytest.approx(kuro.y + length * math.sin(way), abs=0.6)


def test_LP2_a_blow_from_an_invisible_rogue_is_drawn_on_her_square_unnamed(store: Store) -> None:
    # Sable, invisible, at (17, 20), square (3, 4), strikes Guard Osric next to her (LP-7);
    # he knows her square, centre (17.5, 22.5) (DD-7, LP-2), not who she is (LP-5).
    encounter = encounter_of(store, "dnd35-rogue-sneak-attack", seed=1)
    encounter.act({"do": "strike", "actor": "Sable", "target": "Guard Osric"})
    shown, model = drawn(encounter, "Guard Osric")
    found = [t for t in model.tokens if t["side"] == "attackers"]
    assert [(t["name"], t["label"], t["x"], t["y"]) for t in found] == [(None, "?", 17.5, 22.5)]
    assert "Sable" not in json.dumps(shown) + json.dumps(model.tokens)


def test_a_board_is_drawn_once_per_door_state() -> None:
    scenario = load_scenario("night-raid")
    board = new_game(scenario, seed=0).board
    first = mapsvg.board_layers(scenario, board)
    again = mapsvg.board_layers(scenario, board)
    assert again.lights is first.lights  # the lit zones are not cast again
    first.tokens.append({"name": "x"})
    assert again.tokens == [] and mapsvg.board_layers(scenario, board).tokens == []
    # The gate's brazier at (100, 104) lights 20 cm round (SK-V5): the closed gate (y = 110)
    # stops it; open, the ray due south reaches 104 + 20 (less the outline's 0.1%).
    gate = board.door_index["main gate"]
    opened = mapsvg.board_layers(scenario, board, open_doors=frozenset({gate}))

    def south(model: mapsvg.MapModel) -> float:
        (brazier,) = [light for light in model.lights if light["kind"] == "brazier"]
        return max(float(point.split(",")[1]) for point in brazier["zone"].split())

    assert south(first) < 110 and south(opened) == pytest.approx(124 - 0.02, abs=0.01)
    assert [w["open"] for w in opened.walls if w["name"] == "main gate"] == [True]


# ---------------------------------------------------------------- a page's news (issue 36, speed)


def test_a_page_s_news_are_what_it_was_told_since_its_mark(store: Store) -> None:
    """A page that shows Kage's view as of its mark asks for the news: the events told since,
    and the rest only where it changed; after an undo of something it showed, its mark is no
    longer one of the game's, and it gets its whole view again."""
    from vigile.live.views import character_news, view_mark

    encounter = encounter_of(store, "night-raid", seed=7)
    grapple = {"do": "throw-grapple", "actor": "Kage", "at": [60, 10], "onto": "tile"}
    encounter.act(grapple)
    with encounter.reading() as replayed:
        whole = character_view(encounter, replayed, "Kage", Lang.EN)
    mark = view_mark(whole)
    assert mark.startswith(f"{whole['seq']}.") and mark.count(".") == 2
    with encounter.reading() as replayed:  # nothing new: no event, nothing changed
        same = character_news(encounter, replayed, "Kage", Lang.EN, mark)
    assert same is not None and same["events"] == [] and same["mark"] == mark
    assert same["changed"] is False
    encounter.act({"do": "wait", "actor": "Kage"})  # told, and nothing else changes
    with encounter.reading() as replayed:
        waited = character_news(encounter, replayed, "Kage", Lang.EN, mark)
        whole = character_view(encounter, replayed, "Kage", Lang.EN)
    assert waited is not None and waited["changed"] is False
    assert waited["events"] == whole["events"][-1:] and waited["mark"] == view_mark(whole)
    mark = waited["mark"]
    encounter.act({"do": "move", "actor": "Kage", "to": [60, 14], "speed": "fast", "climb": True})
    with encounter.reading() as replayed:
        news = character_news(encounter, replayed, "Kage", Lang.EN, mark)
        after = character_view(encounter, replayed, "Kage", Lang.EN)
    assert news is not None and news["changed"] is True  # he stands elsewhere
    assert news["events"] == after["events"][whole["seq"] :] and news["events"]
    assert news["seq"] == after["seq"] and news["me"] == after["me"] == {
        "name": "Kage", "at": [60.0, 14.0], "alive": True,
    }  # fmt: skip
    assert news["mark"] == view_mark(after)
    # the move undone, Kage's page showed events no longer told: its mark is refused
    encounter.undo()
    with encounter.reading() as replayed:
        assert character_news(encounter, replayed, "Kage", Lang.EN, news["mark"]) is None
        back = character_news(encounter, replayed, "Kage", Lang.EN, mark)
        assert back is not None and back["events"] == [] and back["changed"] is False
        for wrong in ("", "x", "99", "1.0.0", f"{whole['seq']}.00000000.00000000", "99.a.b"):
            assert character_news(encounter, replayed, "Kage", Lang.EN, wrong) is None
