"""Live streams (SSE) and what leaves the server, against a real ``vigile serve``: a player's
stream never carries a secret (a guard's failed Listen, a check's numbers; DD-9: every miss
reads the same byte for byte); a stream resumed with Last-Event-ID misses nothing; ``kill -9``
mid-game loses nothing; two writers at once keep the log contiguous."""

# ruff: noqa: F811 - the fixtures db_url and server, imported from web_server

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
from httpx_sse import ServerSentEvent, connect_sse

from vigile.scene.loader import bundled_path
from vigile.store import Store
from web_server import Server, db_url, new_encounter, server  # noqa: F401

GRAPPLE = {"do": "throw-grapple", "actor": "Kage", "at": [60, 10], "onto": "tile"}
WAIT_S = 20.0


class Stream:
    """One viewer's SSE stream, read in a thread into :attr:`frames`."""

    def __init__(
        self,
        server: Server,
        encounter: str,
        token: str,
        *,
        headers: dict[str, str] | None = None,
        params: dict[str, str] | None = None,
    ) -> None:
        self.url = f"{server.base}/api/v1/encounters/{encounter}/stream"
        self.token = token
        self.headers = headers or {}
        self.params = params or {}
        self.frames: list[ServerSentEvent] = []
        self.raw: list[str] = []
        self.stop = threading.Event()
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        headers = {"Authorization": f"Bearer {self.token}", **self.headers}
        try:
            with (
                httpx.Client(timeout=httpx.Timeout(WAIT_S)) as client,
                connect_sse(client, "GET", self.url, headers=headers, params=self.params) as source,
            ):
                assert source.response.status_code == 200, source.response.read()
                for frame in source.iter_sse():
                    self.frames.append(frame)
                    self.raw.append(f"id: {frame.id}\nevent: {frame.event}\ndata: {frame.data}")
                    if self.stop.is_set():
                        return
        except BaseException as error:
            self.error = error

    def wait_for(self, done: Callable[[list[ServerSentEvent]], bool]) -> None:
        deadline = time.monotonic() + WAIT_S
        while not done(self.frames):
            assert self.error is None, self.error
            assert time.monotonic() < deadline, [f.id for f in self.frames]
            time.sleep(0.02)

    def wait_seq(self, seq: int) -> None:
        self.wait_for(lambda frames: any(f.id == str(seq) for f in frames))

    def wait_view(self) -> None:
        """The whole view, the first frame."""
        self.wait_for(lambda frames: bool(frames))

    def wait_turn(self, turn: int) -> None:
        """A character's or the table's stream has told turn ``turn``'s start (public)."""

        def told(frames: list[ServerSentEvent]) -> bool:
            events = [e for f in frames for e in json.loads(f.data)["events"]]
            return any(e["event"] == "turn" and e["turn"] == turn for e in events)

        self.wait_for(told)

    def assert_own_sequence(self) -> None:
        """LP-5: a character's or the table's ids count the events it was told, 1, 2, 3...:
        the first view's id is its number of events, each frame's the count after it."""
        count = 0
        for index, frame in enumerate(self.frames):
            data = json.loads(frame.data)
            count = len(data["events"]) if frame.event == "view" else count + len(data["events"])
            assert frame.id == str(count) and data["seq"] == count, (index, frame)
            assert frame.event == "view" or data["events"], frame

    def close(self) -> None:
        self.stop.set()

    def events(self) -> list[dict[str, Any]]:
        """Every event the stream told, the first view's included."""
        told: list[dict[str, Any]] = []
        for frame in self.frames:
            data = json.loads(frame.data)
            told += data["events"]
        return told


def act(client: httpx.Client, encounter: str, action: dict[str, Any], **more: Any) -> int:
    response = client.post(
        f"/api/v1/encounters/{encounter}/actions", json={"action": action, **more}
    )
    assert response.status_code == 200, response.text
    seq: int = response.json()["seq"]
    return seq


NUMBERS = ("chance", "difficulty", "modifiers", "roll", "dice", "explanation_gm")


def assert_no_numbers(events: list[dict[str, Any]]) -> None:
    """No check a character sees shows its odds, its difficulty, its modifiers or its roll."""
    for event in events:
        check = event.get("check")
        if check is not None:
            assert check.get("view") == "player", event
            assert not set(check) & set(NUMBERS), event


def test_a_players_stream_never_receives_a_secret(server: Server) -> None:
    with server.client() as gm:
        created = new_encounter(gm, seed=7)
        encounter = created["encounter"]["id"]
        players = created["tokens"]["players"]
        streams = {
            "gm": Stream(server, encounter, server.token),
            "Kage": Stream(server, encounter, players["Kage"]),
            "table": Stream(server, encounter, created["tokens"]["table"]),
            **{guard: Stream(server, encounter, players[guard]) for guard in ("Jubei", "Kuro")},
        }
        for stream in streams.values():
            stream.wait_view()  # the whole view first
        grapple = act(gm, encounter, GRAPPLE)
        act(gm, encounter, {"do": "end-turn"})
        act(gm, encounter, {"do": "move", "actor": "Kage", "to": [60, 11], "climb": True})
        last = act(gm, encounter, {"do": "end-turn"})  # a new turn: every viewer is told
        streams["gm"].wait_seq(last)
        for name, stream in streams.items():
            if name != "gm":
                stream.wait_turn(3)
                stream.assert_own_sequence()
            stream.close()

        gm_frames = {f.id: json.loads(f.data) for f in streams["gm"].frames}
        listens = [e for e in gm_frames[str(grapple)]["events"] if e["event"] == "noise"]
        failed = {e["actor"] for e in listens if "check" in e and not e["check"]["success"]}
        heard = {e["actor"] for e in listens if "check" in e and e["check"]["success"]}
        assert "Jubei" in failed and "Kuro" in heard  # seed 7

        kage = streams["Kage"]
        assert_no_numbers(kage.events())
        raw = "\n".join(kage.raw)
        assert "listens" not in raw and "Jubei" not in raw.split('"known"')[-1].split("]")[-1]
        for frame in kage.frames[1:]:
            told = json.loads(frame.data)["events"]
            assert all(e["event"] != "noise" for e in told), told
        # the stream told Kage exactly what his view holds, nothing more
        with server.client(players["Kage"]) as own:
            view = own.get(f"/api/v1/encounters/{encounter}/view").json()
        assert kage.events() == view["events"]

        # the guard who heard nothing learns nothing: no frame at all for the grapple, and only
        # the two new turns counted in his own sequence (LP-5)
        jubei = streams["Jubei"]
        assert "grapple" not in "\n".join(jubei.raw)
        assert [json.loads(f.data)["events"][0]["event"] for f in jubei.frames[1:]] == [
            "turn", "turn"
        ]  # fmt: skip
        # the one who heard is told so, without the distance, the odds or the name (LP-5: a
        # noise gives a direction, not an identity)
        kuro = [json.loads(f.data)["events"] for f in streams["Kuro"].frames[1:]]
        told = kuro[0]
        assert [e["event"] for e in told] == ["noise"], told
        assert all("cm" not in e["text"] for e in told), told
        assert "Kage" not in json.dumps(kuro) and told[0]["target"] is None
        assert told[0]["text"].startswith("Kuro hears a noise")
        assert_no_numbers(told)

        # the shared screen: what the defenders perceive (Kuro heard someone), no intruder named
        table = streams["table"]
        assert_no_numbers(table.events())
        assert not any(name in "\n".join(table.raw) for name in ("Kage", "Tsuki", "Kaze"))


SQUARE = [42, 22]


def sable_frame(server: Server, gm: httpx.Client, text: str, dice: list[int]) -> tuple[str, str]:
    """Sable's stream frame and the GM's text for an attack on the quasit's square."""
    created = gm.post(
        "/api/v1/encounters", json={"text": text, "filename": "vault.yaml", "dice": "given"}
    ).json()
    encounter = created["encounter"]["id"]
    sable = Stream(server, encounter, created["tokens"]["players"]["Sable"])
    sable.wait_view()
    response = gm.post(
        f"/api/v1/encounters/{encounter}/actions",
        json={"action": {"do": "attack-square", "actor": "Sable", "at": SQUARE}, "dice": dice},
    )
    assert response.status_code == 200, response.text
    sable.wait_for(lambda frames: len(frames) == 2)
    sable.close()
    sable.assert_own_sequence()
    return sable.raw[-1], json.dumps(response.json()["events"])


def test_dd9_every_miss_on_a_named_square_reads_the_same_byte_for_byte(server: Server) -> None:
    # Sable stands next to the named square (LP-7: an attack on a square needs her reach)
    text = bundled_path("dnd35-rogue-sneak-attack").read_text("utf-8")
    text = text.replace("position: [17, 20]", "position: [37, 22]", 1)
    elsewhere = text.replace("position: [42, 22]", "position: [42, 32]")
    assert elsewhere != text
    with server.client() as gm:
        by_miss_chance, gm_a = sable_frame(server, gm, text, [18, 10])  # hits AC, the 50% misses
        wrong_square, gm_b = sable_frame(server, gm, elsewhere, [18, 10])  # nobody there
        by_armour, gm_c = sable_frame(server, gm, text, [2, 90])  # the attack roll misses
    assert by_miss_chance == wrong_square == by_armour
    assert "you miss" in by_miss_chance
    assert len({gm_a, gm_b, gm_c}) == 3  # the GM knows which


def test_an_invisible_intruders_distance_is_never_sent_to_a_guard(server: Server) -> None:
    with server.client() as gm:
        created = new_encounter(gm, "dnd35-invisible-intruder", seed=3)
        encounter = created["encounter"]["id"]
        guards = {
            name: Stream(server, encounter, created["tokens"]["players"][name])
            for name in ("Sergeant Brom", "Guard Pell")
        }
        for stream in guards.values():
            stream.wait_view()
        moves = [[12, 22], [24, 22], [30, 18]]
        for to in moves:
            act(gm, encounter, {"do": "move", "actor": "Elandra", "to": to, "speed": "half"})
            act(gm, encounter, {"do": "end-turn"})
        for stream in guards.values():
            stream.wait_turn(len(moves) + 1)
            stream.close()
            stream.assert_own_sequence()
            assert_no_numbers(stream.events())
            raw = "\n".join(stream.raw)
            assert " ft" not in raw and "distance" not in raw and "Move Silently" not in raw
            assert "rolls" not in raw  # no roll of anyone's is shown


def test_a_guard_that_knows_only_the_direction_is_not_told_the_square(server: Server) -> None:
    with server.client() as gm:
        created = new_encounter(gm, "dnd35-invisible-intruder", seed=3)
        encounter = created["encounter"]["id"]
        act(gm, encounter, {"do": "move", "actor": "Elandra", "to": [12, 22], "speed": "half"})
        act(gm, encounter, {"do": "end-turn"})
        act(gm, encounter, {"do": "move", "actor": "Elandra", "to": [24, 22], "speed": "half"})
        act(gm, encounter, {"do": "end-turn"})
        with server.client(created["tokens"]["players"]["Sergeant Brom"]) as brom:
            view = brom.get(f"/api/v1/encounters/{encounter}/view").json()
    # LP-5: he heard someone (DD-5), due west: Brom at (30, 22), Elandra at (24, 22), so the
    # bearing is atan2(0, -6) = 180 degrees; neither her name nor her square
    assert view["known"] == [{"name": None, "awareness": "direction", "bearing": 180}]
    assert "Elandra" not in json.dumps(view)
    assert "(24, 22)" not in json.dumps(view["events"])


def test_a_stream_resumed_with_last_event_id_misses_nothing(server: Server) -> None:
    with server.client() as gm:
        encounter = new_encounter(gm, seed=11)["encounter"]["id"]
        first = Stream(server, encounter, server.token)
        first.wait_seq(0)
        one = act(gm, encounter, GRAPPLE)
        first.wait_seq(one)
        first.close()
        act(gm, encounter, {"do": "end-turn"})  # while nobody listens
        act(gm, encounter, {"do": "move", "actor": "Kage", "to": [60, 11], "climb": True})
        three = 3
        resumed = Stream(server, encounter, server.token, headers={"Last-Event-ID": str(one)})
        resumed.wait_seq(three)
        assert [f.id for f in resumed.frames] == ["2", "3"]
        assert {f.event for f in resumed.frames} == {"events"}
        again = Stream(server, encounter, server.token, params={"after": "1"})
        again.wait_seq(three)
        assert [f.data for f in again.frames] == [f.data for f in resumed.frames]
        # an undo while resumed: the whole view again
        assert gm.post(f"/api/v1/encounters/{encounter}/undo").status_code == 200
        resumed.wait_seq(4)
        assert resumed.frames[-1].event == "view"
        assert json.loads(resumed.frames[-1].data)["seq"] == 4
        resumed.close()
        again.close()
        # the whole story told by the frames is the view's
        view = gm.get(f"/api/v1/encounters/{encounter}/view").json()
        assert json.loads(resumed.frames[-1].data)["events"] == view["events"]
        bad = gm.get(f"/api/v1/encounters/{encounter}/stream", headers={"Last-Event-ID": "nope"})
        assert bad.status_code == 422
        assert bad.headers["content-type"] == "application/problem+json"


def test_kill_9_mid_game_then_a_restart_loses_nothing(db_url: str) -> None:
    first = Server(db_url).start()
    try:
        with first.client() as gm:
            created = new_encounter(gm, seed=5)
            encounter = created["encounter"]["id"]
            kage_token = created["tokens"]["players"]["Kage"]
            act(gm, encounter, GRAPPLE)
            act(gm, encounter, {"do": "end-turn"})
            act(gm, encounter, {"do": "move", "actor": "Kage", "to": [60, 11], "climb": True})
            watching = Stream(first, encounter, kage_token)
            watching.wait_view()
            before = gm.get(f"/api/v1/encounters/{encounter}/view").json()
        with first.client(kage_token) as kage:
            kage_before = kage.get(f"/api/v1/encounters/{encounter}/view").json()
    finally:
        first.kill()
    second = Server(db_url).start()
    try:
        with second.client() as gm:
            assert gm.get(f"/api/v1/encounters/{encounter}/view").json() == before
            assert act(gm, encounter, {"do": "end-turn"}) == 4
        with second.client(kage_token) as kage:  # the players' links still work
            after = kage.get(f"/api/v1/encounters/{encounter}/view").json()
        assert after["events"][: len(kage_before["events"])] == kage_before["events"]
        assert after["seq"] == len(after["events"]) == len(kage_before["events"]) + 1
    finally:
        second.stop()


SMALL = """\
ruleset: skirmish
name: a long wait
map: {width: 60, height: 40}
turns: 500
actors:
  - {name: Kage, side: attackers, position: [10, 10], ninja: true, move: 15}
  - {name: Gen, side: defenders, position: [50, 30], state: posted, dice: 1}
"""


def test_two_writers_hammering_one_encounter_keep_the_log_contiguous(
    server: Server, db_url: str
) -> None:
    per_writer = 50
    with server.client() as gm:
        created = gm.post("/api/v1/encounters", json={"text": SMALL, "seed": 1})
        encounter = created.json()["encounter"]["id"]

    def writer(_: int) -> list[int]:
        with server.client() as client:
            return [act(client, encounter, {"do": "end-turn"}) for _ in range(per_writer)]

    with ThreadPoolExecutor(2) as pool:
        got = [seq for seqs in pool.map(writer, range(2)) for seq in seqs]
    total = 2 * per_writer
    assert sorted(got) == list(range(1, total + 1))  # each answered its own number
    with Store(db_url) as store:
        records = store.records(encounter)
    assert [r.seq for r in records] == list(range(1, total + 1))
    assert all(r.kind == "action" for r in records)
    with server.client() as gm:
        view = gm.get(f"/api/v1/encounters/{encounter}/view").json()
    assert view["seq"] == total and view["turn"] == total + 1


def test_a_write_by_another_process_reaches_the_streams(server: Server, db_url: str) -> None:
    """``vigile play`` on the same database: the server's streams see its records (polled)."""
    from vigile.live import Encounter

    with server.client() as gm:
        created = new_encounter(gm, seed=2)
    encounter = created["encounter"]["id"]
    kage = Stream(server, encounter, created["tokens"]["players"]["Kage"])
    kage.wait_view()
    with Store(db_url) as store:  # this test's process, not the server's
        Encounter(store, encounter).act(GRAPPLE)
    kage.wait_for(lambda frames: len(frames) == 2)
    kage.close()
    kage.assert_own_sequence()
    told = json.loads(kage.frames[-1].data)["events"]
    assert [e["event"] for e in told] == ["action"] and told[0]["actor"] == "Kage"
