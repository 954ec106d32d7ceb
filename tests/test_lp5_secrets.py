"""LP-5: each leak the audit found, one test each (what a screen told that nobody perceived).

- the table's shared screen showed every intruder's square, the invisible one included;
- a guard who only heard an intruder learned its name ("Kuro heard Kage this way");
- a guard struck by an invisible creature learned its name ("Elandra strikes Brom");
- players could count the GM's unseen actions: the store's ``seq`` in their views, the stream's
  jumping ``id:`` numbers, and a fresh view on every player stream after any undo.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from pathlib import Path

import pytest

from vigile.awareness.ladder import AwarenessState
from vigile.io.i18n import Lang
from vigile.live import Encounter, character_view, table_view
from vigile.scene.loader import bundled_path
from vigile.store import Store
from vigile.web.sse import Subscriber

GRAPPLE = {"do": "throw-grapple", "actor": "Kage", "at": [60, 10], "onto": "tile"}


@pytest.fixture()
def store(tmp_path: Path) -> Iterator[Store]:
    opened = Store(f"sqlite:///{tmp_path / 'secrets.db'}")
    yield opened
    opened.close()


def encounter_of(store: Store, name: str, seed: int, text: str | None = None) -> Encounter:
    encounter, _ = Encounter.create(
        store,
        text=text if text is not None else bundled_path(name).read_text("utf-8"),
        fmt="yaml",
        source=f"{name}.yaml",
        seed=seed,
    )
    return encounter


def test_LP5_the_table_does_not_show_an_invisible_intruder_no_guard_noticed(store: Store) -> None:
    # Elandra is invisible (DD-1) at (2, 22); no guard has noticed her at the start.
    encounter = encounter_of(store, "dnd35-invisible-intruder", seed=3)
    for lang in (Lang.EN, Lang.FR):
        shown = table_view(encounter, encounter.state(), lang)
        assert shown["intruders"] == [] and shown["open"] is False
        assert "Elandra" not in json.dumps(shown) and "[2.0, 22.0]" not in json.dumps(shown)


def test_LP5_an_open_table_shows_every_intruder_where_it_stands(store: Store) -> None:
    text = bundled_path("dnd35-invisible-intruder").read_text("utf-8") + "open_table: true\n"
    encounter = encounter_of(store, "dnd35-invisible-intruder", seed=3, text=text)
    shown = table_view(encounter, encounter.state(), Lang.EN)
    assert shown["open"] is True
    assert shown["intruders"] == [{"name": "Elandra", "at": [2.0, 22.0], "alive": True}]


def test_LP5_a_guard_who_heard_kage_knows_someone_that_way_not_kage(store: Store) -> None:
    # Seed 7: Kuro hears the grapple thrown onto the tile at (60, 10) (SK-N2, SK-N10): he
    # knows which way, not who, nor how far.
    encounter = encounter_of(store, "night-raid", seed=7)
    encounter.act(GRAPPLE)
    game = encounter.game
    kuro = game.by_name["Kuro"]
    assert kuro.aware_of("Kage") is AwarenessState.DIRECTION
    # the way: from where Kuro stands to the noise, atan2(10 - y, 60 - x), in whole degrees
    way = round(math.degrees(math.atan2(10 - kuro.y, 60 - kuro.x))) % 360
    for lang, someone in ((Lang.EN, "someone"), (Lang.FR, "quelqu'un")):
        shown = character_view(encounter, encounter.state(), "Kuro", lang)
        assert shown["known"] == [{"name": None, "awareness": "direction", "bearing": way}]
        assert "Kage" not in json.dumps(shown, ensure_ascii=False)
        heard = [e for e in shown["events"] if e["event"] == "noise"]
        assert [e["target"] for e in heard] == [None] and heard[0]["at"] is None
        assert heard[0]["text"].startswith("Kuro") and someone not in heard[0]["text"]


def test_LP5_a_guard_struck_by_an_invisible_rogue_learns_a_blow_from_a_square(
    store: Store,
) -> None:
    # Sable, invisible, at (17, 20), square (3, 4), strikes Guard Osric at (22, 20), square
    # (4, 4), next to her (LP-7). Struck by an invisible creature, he knows where it is (DD-7):
    # the centre of her square, (17.5, 22.5); not her name (LP-5).
    encounter = encounter_of(store, "dnd35-rogue-sneak-attack", seed=1)
    encounter.act({"do": "strike", "actor": "Sable", "target": "Guard Osric"})
    for lang in (Lang.EN, Lang.FR):
        shown = character_view(encounter, encounter.state(), "Guard Osric", lang)
        text = json.dumps(shown, ensure_ascii=False)
        assert "Sable" not in text
        assert {"name": None, "awareness": "location", "at": [17.5, 22.5]} in shown["known"]
        struck = [e for e in shown["events"] if e["event"] in ("action", "attack")]
        assert struck and all(e["actor"] is None for e in struck)
    assert any(e["text"].startswith("Quelqu'un") for e in struck)


def test_LP5_each_viewer_counts_only_what_it_was_told(store: Store) -> None:
    # Seed 7: Jubei hears nothing of the grapple, Kuro hears it. Each character's seq is the
    # number of events it was told: the grapple adds one to Kuro's and nothing to Jubei's.
    encounter = encounter_of(store, "night-raid", seed=7)
    before = {
        n: character_view(encounter, encounter.state(), n, Lang.EN) for n in ("Jubei", "Kuro")
    }
    encounter.act(GRAPPLE)
    after = {n: character_view(encounter, encounter.state(), n, Lang.EN) for n in ("Jubei", "Kuro")}
    assert after["Jubei"]["seq"] == before["Jubei"]["seq"] == len(after["Jubei"]["events"])
    assert after["Kuro"]["seq"] == before["Kuro"]["seq"] + 1 == len(after["Kuro"]["events"])
    assert table_view(encounter, encounter.state(), Lang.EN)["seq"] == before["Kuro"]["seq"] + 1


def test_LP5_an_undo_a_viewer_never_perceived_sends_it_nothing(store: Store) -> None:
    encounter = encounter_of(store, "night-raid", seed=7)
    streams = {n: Subscriber(encounter, "player", n, Lang.EN) for n in ("Jubei", "Kuro", "Kage")}
    sent = {n: s.whole_view()[0] for n, s in streams.items()}
    encounter.act(GRAPPLE)
    frames = {n: s.catch_up(store, sent[n]) for n, s in streams.items()}
    assert frames["Jubei"] == ([], sent["Jubei"])  # he heard nothing: no frame, same number
    assert frames["Kuro"][1] == sent["Kuro"] + 1 and b"event: events" in frames["Kuro"][0][0]
    assert frames["Kage"][1] == sent["Kage"] + 1  # his own throw
    sent = {n: frames[n][1] for n in streams}
    encounter.undo()
    again = {n: s.catch_up(store, sent[n]) for n, s in streams.items()}
    assert again["Jubei"] == ([], sent["Jubei"])  # the undo of what he never perceived
    for name in ("Kuro", "Kage"):  # they perceived it: the story is told again, one fewer
        (frame,), seq = again[name]
        assert frame.startswith(f"id: {sent[name] - 1}\nevent: view".encode())
        assert seq == sent[name] - 1
    # nothing new since: no frame, no number moves
    assert all(s.catch_up(store, seq)[0] == [] for s, seq in zip(streams.values(), (
        sent["Jubei"], sent["Kuro"] - 1, sent["Kage"] - 1), strict=True))  # fmt: skip


def test_LP5_a_character_resumes_its_stream_in_its_own_sequence(store: Store) -> None:
    # Kage's stream after the grapple and an end of turn: resumed from its own number N, a new
    # subscriber (a reconnection with Last-Event-ID: N) is told exactly the events after N.
    encounter = encounter_of(store, "night-raid", seed=7)
    first = Subscriber(encounter, "player", "Kage", Lang.EN)
    start, _ = first.whole_view()
    encounter.act(GRAPPLE)
    (_frame,), one = first.catch_up(store, start)
    encounter.act({"do": "end-turn"})
    encounter.act({"do": "wait", "actor": "Kage"})
    resumed = Subscriber(encounter, "player", "Kage", Lang.EN)
    (rest,), upto = resumed.catch_up(store, one)
    whole = character_view(encounter, encounter.state(), "Kage", Lang.EN)
    assert upto == whole["seq"] == len(whole["events"])
    told = json.loads(rest.decode("utf-8").split("data: ", 1)[1])
    assert told["events"] == whole["events"][one:] and told["seq"] == upto
    assert rest.startswith(f"id: {upto}\nevent: events".encode())
    # a number beyond what it was told (another encounter's, or a forged one): the whole view
    (again,), seq = Subscriber(encounter, "player", "Kage", Lang.EN).catch_up(store, upto + 5)
    assert again.startswith(f"id: {upto}\nevent: view".encode()) and seq == upto
