"""Checkpoints of a live encounter's replayed state (issue 34): a restart, an undo or a late
joiner loads one and replays the few records after it, and gets exactly what a replay of the
whole log gives.

* **Checkpoint + records = the whole replay**: random games (moves, waits, hides, grapples, the
  GM's orders to the defenders, ends of turn, undos), played by two encounters on the same store
  as two servers would, compared at several points with a restart from the checkpoints and with
  a replay of the whole log that reads none: every viewer's view, the events, the actions in
  force, and the next rolls (an end of turn played on each). SQLite and PostgreSQL.
* **An undo drops the later checkpoints**, worked by hand below, and goes back to an earlier one.
* **Few records replayed**: after a restart, at most ``every - 1`` actions are played.
* **Stale, unreadable, foreign bytes are ignored** (full replay, same state), and bytes that
  would run code do not.
"""

from __future__ import annotations

import pickle
import random
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import URL, create_engine, update

from vigile.engine.live import LiveFaces, NeedDice, Refusal, action_generators, parse_action
from vigile.errors import InputError
from vigile.io.i18n import Lang
from vigile.live import Encounter, view
from vigile.live import checkpoints as ck
from vigile.live.encounter import Replayed
from vigile.scene.actors import Side
from vigile.scene.loader import bundled_names, bundled_path
from vigile.store import Store, schema
from web_server import pg_schema

RAID = bundled_path("night-raid").read_text("utf-8").replace("turns: 40", "turns: 400")


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield URL.create("sqlite", database=str(tmp_path / "vigile.db")).render_as_string(False)
        return
    yield from pg_schema()


@pytest.fixture
def store(url: str) -> Iterator[Store]:
    with Store(url) as opened:
        yield opened


def _new(store: Store, text: str = RAID, *, every: int = 3, **options: Any) -> Encounter:
    made, _ = Encounter.create(store, text=text, fmt="yaml", source="raid.yaml", **options)
    return Encounter(store, made.id, every=every)


class Counting:
    """Counts the actions an encounter plays (a replay's cost)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.played = 0
        original = Encounter._play

        def play(encounter: Encounter, *args: Any) -> None:
            self.played += 1
            original(encounter, *args)

        monkeypatch.setattr(Encounter, "_play", play)


def next_rolls(encounter: Encounter, replayed: Replayed) -> Any:
    """What the next record would give: an end of turn played on a copy of the state, with the
    next record's generators; its events, faces and where everyone ends."""
    copy: Replayed = pickle.loads(pickle.dumps(replayed))
    game = copy.game
    dice_rng, rng = action_generators(encounter.row.seed, copy.seq + 1)
    faces = LiveFaces(dice_rng, [], physical=False)
    game.rng, game.faces = rng, faces
    try:
        events = game.apply(parse_action({"do": "end-turn"}))
    except Refusal as refusal:
        return ("refused", str(refusal))
    return events, faces.faces, [(w.name, w.at, w.alive, w.alert) for w in game.walkers]


def seen(encounter: Encounter) -> dict[str, Any]:
    """Everything a replay decides, as every viewer sees it."""
    replayed = encounter.state()
    game = replayed.game
    shown: dict[str, Any] = {
        "seq": replayed.seq,
        "done": list(replayed.done),
        "spans": dict(replayed.spans),
        "events": list(game.events),
        "turn": game.turn,
        "outcome": game.outcome,
        "gm": view(encounter, "gm", None, Lang.EN),
        "table": view(encounter, "table", None, Lang.FR),
        "next": next_rolls(encounter, replayed),
    }
    for walker in game.walkers:
        shown[walker.name] = view(encounter, "player", walker.name, Lang.EN)
    return shown


def assert_same(store: Store, played: Encounter, *others: Encounter) -> dict[str, Any]:
    """The encounters, a restart from the checkpoints and a whole replay all agree."""
    whole = seen(Encounter(store, played.id, checkpoints=False))
    for encounter in (played, *others, Encounter(store, played.id, every=played.every)):
        got = seen(encounter)
        assert got.keys() == whole.keys()
        for key in whole:
            assert got[key] == whole[key], key
    return whole


def random_action(rng: random.Random, encounter: Encounter) -> dict[str, Any] | str:
    """An action a GM might try (many are refused: they store nothing), or "undo"."""
    game = encounter.state().game
    walkers = [w for w in game.walkers if w.alive]
    intruders = [w for w in walkers if w.side is Side.ATTACKERS]
    defenders = [w for w in walkers if w.side is not Side.ATTACKERS]
    roll = rng.random()
    if roll < 0.15:
        return "undo"
    if roll < 0.25 or not intruders:
        return {"do": "end-turn"}
    if roll < 0.6:
        who = rng.choice(intruders)
        x, y = who.at
        kind = rng.choice(["move", "move", "wait", "hide", "grapple", "climb"])
        to = [round(x + rng.uniform(-7, 7), 1), round(y + rng.uniform(-2, 9), 1)]
        if kind == "move":
            return {
                "do": "move",
                "actor": who.name,
                "to": to,
                "speed": rng.choice(["half", "fast"]),
            }
        if kind == "climb":
            return {"do": "move", "actor": who.name, "to": [x, y + 10], "climb": True}
        if kind == "grapple":
            return {"do": "throw-grapple", "actor": who.name, "at": [x, 10], "onto": "tile"}
        return {"do": kind, "actor": who.name}
    guard = rng.choice(defenders)
    x, y = guard.at
    near = [round(x + rng.uniform(-8, 8), 1), round(y + rng.uniform(-8, 8), 1)]
    kind = rng.choice(["guard-move", "search", "hold", "raise-alarm", "scatter"])
    if kind == "guard-move":
        return {"do": kind, "actor": guard.name, "to": near}
    if kind == "search":
        return {"do": kind, "actor": guard.name, "at": near}
    if kind == "scatter":
        return {"do": kind, "actor": guard.name, "bearing": rng.randrange(0, 360)}
    return {"do": kind, "actor": guard.name}


def play_randomly(rng: random.Random, players: list[Encounter], steps: int) -> tuple[int, int]:
    """``steps`` tries by randomly chosen encounters; returns (records written, undos)."""
    written = undos = 0
    for _ in range(steps):
        encounter = rng.choice(players)
        action = random_action(rng, encounter)
        try:
            if action == "undo":
                encounter.undo()
                undos += 1
            else:
                encounter.act(action)
            written += 1
        except InputError:
            pass  # refused, nothing to undo, or the game is over: nothing stored
    return written, undos


# -- checkpoint + records = the whole replay ------------------------------------------------


@pytest.mark.parametrize("seed", [1, 2])
def test_checkpoints_give_what_the_whole_replay_gives(store: Store, url: str, seed: int) -> None:
    rng = random.Random(seed)
    first = _new(store, seed=seed * 1000 + 7, every=3)
    with Store(url) as elsewhere:  # a second server on the same database
        second = Encounter(elsewhere, first.id, every=3)
        written = undos = 0
        for _ in range(3):
            more, back = play_randomly(rng, [first, second], 40)
            written, undos = written + more, undos + back
            assert_same(store, first, second)
        assert written >= 40 and undos >= 5
        assert len(store.checkpoints(first.id)) >= 5


def test_a_d20_game_and_the_tables_dice_replay_the_same(store: Store) -> None:
    text = bundled_path("dnd35-invisible-intruder").read_text("utf-8")
    encounter = _new(store, text, every=2, dice="given")
    rng = random.Random(5)
    for _ in range(40):
        action = random_action(rng, encounter)
        try:
            if action == "undo":
                encounter.undo()
            else:
                dice: list[int] = []
                while True:
                    try:
                        encounter.act(action, dice=dice)
                        break
                    except NeedDice as error:
                        dice.append(rng.randint(1, error.sides))
        except InputError:
            pass
    assert encounter.state().seq >= 10
    assert_same(store, encounter)


@pytest.mark.parametrize("name", bundled_names())
def test_every_bundled_game_comes_back_from_its_checkpoint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    """Each game's state reads back through the checkpoints' unpickler (no class is missing
    from what it allows), and a restart then plays no action at all."""
    with Store(f"sqlite:///{tmp_path / 'v.db'}") as store:
        text = bundled_path(name).read_text("utf-8")
        encounter = _new(store, text, every=1)
        for action in ({"do": "end-turn"}, {"do": "end-turn"}, {"do": "end-turn"}):
            try:
                encounter.act(action)
            except InputError:
                break
        last = encounter.state().seq
        assert last >= 1 and store.checkpoints(encounter.id)[0].seq == last
        counting = Counting(monkeypatch)
        restarted = Encounter(store, encounter.id)
        assert restarted.state().seq == last and counting.played == 0
        assert_same(store, encounter)


# -- undo ----------------------------------------------------------------------------------


def test_an_undo_drops_the_later_checkpoints_and_goes_back_to_an_earlier_one(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every 2 records: ten waits (records 1..10) leave checkpoints 2, 4, 6, 8, 10 (each
    2 records after the one before).

    * undo (record 11) takes back 10: checkpoint 10 holds it, and goes; the state is checkpoint 8
      and action 9 played again (1 action); 11 - 8 = 3 >= 2, so checkpoint 11 (after 8).
    * undo (record 12) takes back 9: 11 holds it and goes; checkpoint 8 (0 actions played);
      12 - 8 = 4: checkpoint 12.
    * undo (record 13) takes back 8: 8 and 12 go; checkpoint 6 and action 7 (1 action);
      checkpoint 13 (after 6).
    """
    encounter = _new(store, every=2)
    for _ in range(10):
        encounter.act({"do": "wait", "actor": "Kage"})
    assert [c.seq for c in store.checkpoints(encounter.id)] == [10, 8, 6, 4, 2]
    counting = Counting(monkeypatch)
    expected = [([11, 8, 6, 4, 2], 1), ([12, 8, 6, 4, 2], 0), ([13, 6, 4, 2], 1)]
    for undone, (stored, played) in zip((10, 9, 8), expected, strict=True):
        counting.played = 0
        assert encounter.undo().undone == undone
        assert counting.played == played
        assert [c.seq for c in store.checkpoints(encounter.id)] == stored
        assert encounter.state().done == list(range(1, undone))
    assert store.checkpoints(encounter.id)[0].parent == 6
    assert_same(store, encounter)


def test_a_restart_an_undo_and_a_late_joiner_replay_a_few_records(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every 5 records, 23 actions: checkpoints 5, 10, 15, 20; a restart plays 21, 22, 23."""
    encounter = _new(store, every=5)
    for i in range(23):
        encounter.act({"do": "end-turn"} if i % 4 == 3 else {"do": "wait", "actor": "Tsuki"})
    assert [c.seq for c in store.checkpoints(encounter.id)] == [20, 15, 10, 5]
    counting = Counting(monkeypatch)
    restarted = Encounter(store, encounter.id, every=5)
    assert restarted.state().seq == 23 and counting.played == 3
    counting.played = 0
    restarted.undo()  # takes back 23: checkpoint 20, then 21 and 22
    assert counting.played == 2
    counting.played = 0
    assert encounter.state().seq == 24 and counting.played == 2  # the other server catches up
    assert_same(store, encounter, restarted)


def test_a_log_without_checkpoints_gets_them_on_its_first_replay(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A log written before checkpoints (or with them off): its first replay leaves one every
    ``every`` records, except where a later undo took it back; the next restart uses them."""
    old = _new(store, every=4)
    old.checkpointing = False
    for i in range(14):
        old.act({"do": "wait", "actor": "Kaze"} if i % 3 else {"do": "end-turn"})
    old.undo()  # record 15 takes back 14
    old.act({"do": "wait", "actor": "Kage"})  # 16
    assert store.checkpoints(old.id) == []
    counting = Counting(monkeypatch)
    Encounter(store, old.id, every=4).state()
    # The replay: snapshots at 4, 8, 12; record 15 takes back 14 (12 stays: 14 > 12); 15 - 12 = 3,
    # 16 - 12 = 4: a snapshot at 16. Played: the 15 actions 1..14 and 16, and 13 again at the
    # undo (from snapshot 12: not stored yet, but at hand): 16.
    assert counting.played == 16
    assert [(c.seq, c.parent) for c in store.checkpoints(old.id)] == [
        (16, 12),
        (12, 8),
        (8, 4),
        (4, 0),
    ]
    counting.played = 0
    Encounter(store, old.id).state()
    assert counting.played == 0
    assert_same(store, old)


def test_old_checkpoints_keep_their_chunk_and_a_few_their_state(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The newest 3 checkpoints keep their state, older ones only the newest in each window of
    10 records: of 2, 4, ..., 30, the states of 30, 28, 26 (newest), 24 (20..29), 18 (10..19)
    and 8 (0..9). The others stay as links of the chain: a restart still reads every event;
    undos far back start from the sparser ones and give what the whole replay gives."""
    monkeypatch.setattr("vigile.live.encounter.THIN", (3, 10))
    encounter = _new(store, every=2)
    for i in range(30):
        encounter.act({"do": "end-turn"} if i % 5 == 4 else {"do": "wait", "actor": "Kage"})
    assert [c.seq for c in store.checkpoints(encounter.id)] == list(range(30, 0, -2))
    restorable = [c.seq for c in store.checkpoints(encounter.id, restorable=True)]
    assert restorable == [30, 28, 26, 24, 18, 8]
    counting = Counting(monkeypatch)
    assert Encounter(store, encounter.id).state().seq == 30 and counting.played == 0
    assert_same(store, encounter)
    for _ in range(15):
        counting.played = 0
        encounter.undo()
        assert counting.played < 10
    assert encounter.state().done == list(range(1, 16))
    assert_same(store, encounter)


# -- what a checkpoint may not do ----------------------------------------------------------


def _tamper(url: str, **values: Any) -> None:
    engine = create_engine(url)
    with engine.begin() as connection:
        connection.execute(update(schema.checkpoints).values(**values))
    engine.dispose()


class Boom:
    """Bytes that would run code when read: ``Path.touch`` of a file."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def __reduce__(self) -> tuple[Any, ...]:
        return (Path.touch, (self.path,))


@pytest.mark.parametrize("spoil", ["fingerprint", "format", "state", "code", "lie"])
def test_stale_unreadable_or_foreign_checkpoints_are_replayed_instead(
    store: Store, url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, spoil: str
) -> None:
    encounter = _new(store, every=4)
    for i in range(10):
        encounter.act({"do": "wait", "actor": "Kage"} if i % 3 else {"do": "end-turn"})
    assert [c.seq for c in store.checkpoints(encounter.id)] == [8, 4]
    touched = tmp_path / "ran"
    evil = zlib.compress(pickle.dumps(Boom(touched)))
    if spoil == "fingerprint":
        _tamper(url, fingerprint="0" * 64)  # another vigile's
    elif spoil == "format":
        _tamper(url, format=ck.FORMAT + 1)
    elif spoil == "state":
        _tamper(url, state=b"\x78\x9c not zlib")
    elif spoil == "code":
        _tamper(url, state=evil)
    else:  # a checkpoint that says it is another record's
        _tamper(url, top=3)
    counting = Counting(monkeypatch)
    restarted = Encounter(store, encounter.id, every=4)
    assert restarted.state().seq == 10
    assert counting.played == 10  # the whole log: no checkpoint was used
    assert not touched.exists()
    # The broken ones were dropped, the stale ones replaced: the replay wrote 4 and 8 again.
    assert [c.seq for c in store.checkpoints(encounter.id)] == [8, 4]
    counting.played = 0
    restarted.undo()  # takes back 10: checkpoint 8, and 9 again
    assert counting.played == 1 and not touched.exists()
    assert_same(store, encounter, restarted)


@pytest.mark.parametrize("spoil", ["events", "events-code"])
def test_unreadable_events_are_replayed_when_first_read(
    store: Store, url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, spoil: str
) -> None:
    """A restart reads a checkpoint's events only when asked for them: a broken chunk is found
    then, dropped with its checkpoint, and the events replayed from the log instead."""
    encounter = _new(store, every=4)
    for i in range(10):
        encounter.act({"do": "wait", "actor": "Kage"} if i % 3 else {"do": "end-turn"})
    touched = tmp_path / "ran"
    bad = zlib.compress(b"not a pickle" if spoil == "events" else pickle.dumps(Boom(touched)))
    _tamper(url, chunk=bad)
    counting = Counting(monkeypatch)
    restarted = Encounter(store, encounter.id, every=4)
    assert restarted.state().seq == 10
    assert counting.played == 2  # checkpoint 8's state, then records 9 and 10
    assert [c.seq for c in store.checkpoints(encounter.id)] == [8, 4]  # no event read yet
    events = list(restarted.state().game.events)  # reads them: 4's chunk, then 8's
    assert counting.played == 2 + 8  # the 8 actions in force at checkpoint 8, replayed once
    assert events == list(Encounter(store, encounter.id, checkpoints=False).game.events)
    assert store.checkpoints(encounter.id) == [] and not touched.exists()
    counting.played = 0
    restarted.undo()  # takes back 10: no checkpoint left, 1 to 9 again
    assert counting.played == 9 and not touched.exists()
    assert_same(store, encounter, restarted)


def test_the_unpickler_builds_only_a_games_classes() -> None:
    for forbidden in (
        ("os", "system"),
        ("builtins", "eval"),
        ("builtins", "getattr"),
        ("subprocess", "Popen"),
        ("numpy", "memmap"),
        ("numpy", "load"),
        ("vigile.store.store", "Store"),
        ("vigile.engine.board", "np.load"),
        ("vigile.engine.board", "crossings"),  # a function, not a class
    ):
        module, name = forbidden
        data = b"\x80\x04c" + module.encode() + b"\n" + name.encode() + b"\n."
        with pytest.raises(ck.Unreadable):
            ck.load_chunk(zlib.compress(data))


# -- the store's side ------------------------------------------------------------------------


def test_a_checkpoint_is_saved_only_after_its_parent_and_at_the_last_record(
    store: Store,
) -> None:
    encounter = _new(store, every=100)
    for _ in range(3):
        encounter.act({"do": "wait", "actor": "Kage"})
    row = store.checkpoints
    made = ck.dump_chunk([])

    def point(seq: int, parent: int) -> Any:
        from vigile.store import Checkpoint

        return Checkpoint(seq, parent, 0, 0, 0, ck.FORMAT, "f" * 64, made, made)

    assert store.save_checkpoints(encounter.id, [point(2, 0)], last_seq=2) == 0  # 3 is last
    assert store.save_checkpoints(encounter.id, [point(3, 1)], last_seq=3) == 0  # no parent 1
    assert store.save_checkpoints(encounter.id, [point(1, 0), point(3, 1)], last_seq=3) == 2
    assert store.save_checkpoints(encounter.id, [point(3, 1)], last_seq=3) == 1  # there already
    assert [c.seq for c in row(encounter.id)] == [3, 1]
    assert store.checkpoint_state(encounter.id, 2) is None
    assert store.checkpoint_chunks(encounter.id, [1, 2, 3]) == {1: made, 3: made}
    assert store.drop_checkpoints(encounter.id, since=2) == 1
    assert [c.seq for c in row(encounter.id)] == [1]
