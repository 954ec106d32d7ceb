"""``vigile play`` and ``vigile encounters`` (issue 11): live play at a terminal prompt, saved as
it goes, resumed later; scripted through standard input against a temporary SQLite database."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from vigile.cli import main
from vigile.cli.play import Names, PlayError, build_action, words_of
from vigile.engine.live import NeedDice, parse_action
from vigile.io.i18n import Lang
from vigile.io.views import event_lines
from vigile.live import Encounter, gm_view
from vigile.scene.loader import bundled_path
from vigile.store import Store

GUARDS = (
    "Jubei",
    "Goro",
    "Kuro",
    "Shiro",
    "Tetsu",
    "Hanbei",
    "Daisuke",
    "Ippei",
    "Masa",
    "Lord Nagamasa",
    "Rin",
)


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'x.db'}"


def play(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    script: str,
    *args: str,
) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(script))
    code = main(["play", *args])
    out, err = capsys.readouterr()
    return code, out, err


def only(db: str) -> Encounter:
    """The one encounter of the database."""
    store = Store(db)
    (row,) = store.encounters()
    return Encounter(store, row.id)


def seen_by_gm(encounter: Encounter) -> dict[str, Any]:
    view = gm_view(encounter, encounter.state(), Lang.EN)
    view.pop("encounter")
    return view


# ---------------------------------------------------------------- the command lines


@pytest.fixture(scope="module")
def raid_names() -> Names:
    return Names(_raid_game())


def _raid_game() -> Any:
    from vigile.engine.run import new_game
    from vigile.scene.loader import load_scenario

    return new_game(load_scenario("night-raid"), seed=1)


OWN_GAME = {"throw-grapple": "skirmish", "attack-square": "dnd35", "cast-invisibility": "dnd35"}
"""A game's own actions (its plug-in's ``plan_actions``) are live actions of that game only."""


@pytest.mark.parametrize(
    ("line", "action"),
    [
        (
            "move kage 60 14 fast climb",
            {"do": "move", "actor": "Kage", "to": [60, 14], "speed": "fast", "climb": True},
        ),
        ("move Kage 60.5 14", {"do": "move", "actor": "Kage", "to": [60.5, 14]}),
        ("hide TSUKI", {"do": "hide", "actor": "Tsuki"}),
        ("wait Kaze", {"do": "wait", "actor": "Kaze"}),
        ('open Kage "South Door"', {"do": "open-door", "actor": "Kage", "door": "south door"}),
        (
            "close Kage lord's door",  # a lone quote: plain words
            {"do": "close-door", "actor": "Kage", "door": "lord's door"},
        ),
        (
            "grapple Kage 60 10 tile",
            {"do": "throw-grapple", "actor": "Kage", "at": [60, 10], "onto": "tile"},
        ),
        ("strike Kage jubei", {"do": "strike", "actor": "Kage", "target": "Jubei"}),
        (
            "kill Kage Daisuke ranged",
            {"do": "kill", "actor": "Kage", "target": "Daisuke", "ranged": True},
        ),
        (
            'kill Kage "lord nagamasa" surface=floor',
            {"do": "kill", "actor": "Kage", "target": "Lord Nagamasa", "surface": "floor"},
        ),
        (
            "speak Kage whisper to tsuki",
            {"do": "speak", "actor": "Kage", "volume": "whisper", "to": "Tsuki"},
        ),
        (
            "do Kage attack-square at=60,10 ranged",
            {"do": "attack-square", "actor": "Kage", "at": [60, 10], "ranged": True},
        ),
        ("do Kage cast-invisibility", {"do": "cast-invisibility", "actor": "Kage"}),
        ("end", {"do": "end-turn"}),
        # LP-6: the GM's actions for a defender
        ("guard kuro 30 45", {"do": "guard-move", "actor": "Kuro", "to": [30, 45]}),
        ("search Jubei 95 100", {"do": "search", "actor": "Jubei", "at": [95, 100]}),
        ("hold Shiro", {"do": "hold", "actor": "Shiro"}),
        ("alarm Masa", {"do": "raise-alarm", "actor": "Masa"}),
        ("scatter Tetsu 90", {"do": "scatter", "actor": "Tetsu", "bearing": 90}),
    ],
)
def test_a_line_is_the_live_action(line: str, action: dict[str, Any], raid_names: Names) -> None:
    verb, *args = words_of(line)
    built, dice = build_action(verb, args, raid_names, Lang.EN)
    assert built == action and dice == []
    # a valid live action of the game that plays it (the game decides whether it is allowed)
    parse_action(built, ruleset=OWN_GAME.get(built["do"]))


def test_dice_typed_with_an_action(raid_names: Names) -> None:
    built, dice = build_action("wait", ["Kage", "dice=4,2"], raid_names, Lang.EN)
    assert built == {"do": "wait", "actor": "Kage"} and dice == [4, 2]


# ---------------------------------------------------------------- playing the night raid


def test_LP6_the_GM_moves_a_posted_guard_and_holds_a_patrol_at_the_prompt(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, db: str
) -> None:
    """Goro, posted at (92, 104), walks 10 cm west to (82, 104) (within his 15 cm of half
    speed, LP-6 [R]); a second move of his is refused; Kuro is held; Kage is not a defender.
    After the turn, Kuro has not patrolled (LP-6) and Goro stands where the GM put him."""
    script = (
        "guard Goro 82 104\nguard Goro 80 104\nhold Kuro\nguard Kage 60 5\nscatter Jubei 0\nquit\n"
    )
    code, out, _ = play(capsys, monkeypatch, script, "night-raid", "--db", db)
    assert code == 0
    assert "Goro walks 10 cm to (82, 104) (the GM's order)" in out
    assert "Refused: Goro has already moved this turn" in out
    assert "Kuro holds still at (" in out
    assert "Refused: Kage is an intruder: guard-move, search, hold" in out
    assert "Refused: Jubei does not patrol: move it with guard-move [SK-G1]" in out
    encounter = only(db)
    assert encounter.store.last_seq(encounter.id) == 2  # the two accepted actions
    kuro = encounter.game.by_name["Kuro"].at
    encounter.act({"do": "end-turn"})
    assert encounter.game.by_name["Kuro"].at == kuro
    assert encounter.game.by_name["Goro"].at == (82, 104)


def test_the_grapple_onto_tile_is_a_noise_every_guard_listens_for(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, db: str
) -> None:
    script = "grapple Kage 60 10 tile\nmove Kage 60 11 fast\nmove Kage 60 40 fast climb\nquit\n"
    code, out, _ = play(capsys, monkeypatch, script, "night-raid", "--db", db)
    assert code == 0
    assert "Encounter " in out and "vigile play --resume " in out and "Turn 1 of 40" in out
    assert "Kage at (60, 4)" in out and "Rin at (180, 100)" in out  # the GM sees every guard
    for guard in GUARDS:  # SK-N2: a grapple onto tile is a noise; each guard listens (SK-N1)
        assert f"  {guard} listens (grapple, " in out
    assert "Jubei listens (grapple, 104 cm away) — Difficulty 6+ · 2 dice" in out
    assert "Chance: 11/36 (30.56%) · Roll: " in out and "SK-N2" in out
    # through the compound wall without climbing: refused, with its rule, and nothing stored
    assert "Refused: the way passes through a wall, a closed door or a partition [SK-" in out
    assert "Refused: Kage moves at most 15 " in out  # too far for one turn's move
    encounter = only(db)
    assert encounter.store.last_seq(encounter.id) == 1
    assert encounter.game.by_name["Kage"].at == (60, 4)


def test_the_tables_dice_asked_one_by_one_after_the_odds(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, db: str
) -> None:
    faces = ["3", "7", "x", "", "2"] + ["1"] * 15  # 17 dice: every guard's pool (SK-D1, SK-D3)
    script = "grapple Kage 60 10 tile\n" + "\n".join(faces) + "\nquit\n"
    code, out, _ = play(capsys, monkeypatch, script, "night-raid", "--db", db, "--dice", "given")
    assert code == 0
    odds = out.index("  Jubei rolls: does the listener hear? — Difficulty 6+ · 2 dice")
    # Jubei's pool of 2 asked on one line; one die typed, the other asked next (issue 36)
    first = out.index('  dice 1 on: 2d6, on one line ("6 1 3"; 1-6, or cancel): 3')
    assert out.index("  die 2: d6 (1-6, or cancel): 7") > first
    assert odds < first and "Chance: 11/36 (30.56%)" in out[odds:first]
    assert "'7' is not a face of a d6 (1-6)" in out and "'x' is not a face" in out
    assert out.index("  Goro rolls:") < out.index("  die 3: d6")  # each check before its die
    assert "Jubei listens (grapple, 104 cm away)" in out
    assert "Roll (GM's dice): 3, 2 · → heard nothing" in out
    encounter = only(db)
    (record,) = encounter.store.records(encounter.id)
    assert record.payload["faces"] == [3, 2] + [1] * 15


def test_cancel_or_end_of_input_at_a_die_stores_nothing(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, db: str
) -> None:
    script = "grapple Kage 60 10 tile\n4\ncancel\ngrapple Kage 60 10 tile\n4\n"
    code, out, _ = play(capsys, monkeypatch, script, "night-raid", "--db", db, "--dice", "given")
    assert code == 0 and "Cancelled: nothing was stored." in out
    assert "The game is saved (0 record(s))." in out and "vigile play --resume " in out
    assert only(db).store.last_seq(only(db).id) == 0


def test_undo_then_quit_and_resume_by_prefix_goes_on_where_it_stopped(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, db: str
) -> None:
    script = (
        "\n".join(
            [
                "grapple Kage 60 10 tile",
                "move Kage 60 14 fast climb",
                "hide Tsuki",  # no cover there: refused (SK-V3)
                "wait Tsuki",
                "end",
                "undo",  # the end of the turn is undone
                "who",
                "quit",
            ]
        )
        + "\n"
    )
    code, out, _ = play(capsys, monkeypatch, script, "night-raid", "--db", db)
    assert code == 0 and "Refused: no cover there: no hiding [SK-V3]" in out
    assert "Undone: record 4 (end-turn)." in out and "Turn 1 of 40; 5 record(s)" in out
    before = seen_by_gm(only(db))
    assert before["turn"] == 1 and before["seq"] == 5
    prefix = only(db).id[:6]

    code, again, _ = play(capsys, monkeypatch, "who\nend\nquit\n", "--resume", prefix, "--db", db)
    assert code == 0 and f"Encounter {prefix}" in again and "resumed" in again
    situation = again[again.index("Turn 1 of 40") : again.index("turn 1> who")]
    assert situation in out  # the same situation as it was left
    assert "— Turn 2 —" in again and "(saved: record 6)" in again
    after = only(db)
    assert after.store.last_seq(after.id) == 6
    # the state resumed is the state left: the GM's view of record 5, rebuilt from the log
    rebuilt = Encounter(after.store, after.id)
    rebuilt.store.append(after.id, "undo", {"undoes": 6})
    view = seen_by_gm(rebuilt)
    assert {k: v for k, v in view.items() if k not in ("seq",)} == {
        k: v for k, v in before.items() if k not in ("seq",)
    }


def test_the_same_actions_give_the_same_log_as_the_library(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, db: str, tmp_path: Path
) -> None:
    lines = [
        "grapple Kage 60 10 tile",
        "move Kage 60 14 fast climb",
        "grapple Kaze 54 10 tile",
        "wait Tsuki",
        "end",
        "move Kage 72 20 fast",
        "speak Tsuki whisper to Kage",
        "end",
    ]
    actions: list[dict[str, Any]] = [
        {"do": "throw-grapple", "actor": "Kage", "at": [60, 10], "onto": "tile"},
        {"do": "move", "actor": "Kage", "to": [60, 14], "speed": "fast", "climb": True},
        {"do": "throw-grapple", "actor": "Kaze", "at": [54, 10], "onto": "tile"},
        {"do": "wait", "actor": "Tsuki"},
        {"do": "end-turn"},
        {"do": "move", "actor": "Kage", "to": [72, 20], "speed": "fast"},
        {"do": "speak", "actor": "Tsuki", "volume": "whisper", "to": "Kage"},
        {"do": "end-turn"},
    ]
    code, out, _ = play(
        capsys, monkeypatch, "\n".join(lines) + "\n", "night-raid", "--db", db, "--seed", "77"
    )
    assert code == 0 and "Refused" not in out and "Not played" not in out

    library = Store(f"sqlite:///{tmp_path / 'library.db'}")
    encounter, _ = Encounter.create(
        library,
        text=bundled_path("night-raid").read_text("utf-8"),
        fmt="yaml",
        source="night-raid.yaml",
        seed=77,
    )
    for action in actions:
        encounter.act(action)
    assert seen_by_gm(encounter) == seen_by_gm(only(db))
    printed = [line for e in encounter.game.events for line in event_lines(e, Lang.EN)]
    at = 0
    for line in printed:  # every line of the GM's log, in order, in what play printed
        at = out.index(line + "\n", at) if line else at
    assert "Kage moves to (72, 20), moving fast" in out


def test_as_a_character_and_in_french(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, db: str
) -> None:
    script = "grapple kage 60 10 tile\nbouh\nlog 3\nquit\n"
    code, out, _ = play(
        capsys, monkeypatch, script, "night-raid", "--db", db, "--as", "kage", "--lang", "fr"
    )
    assert code == 0 and "Rencontre " in out and "Pour reprendre : vigile play --resume" in out
    assert "Kage lance un grappin" in out
    assert "Chance" not in out and "tend l'oreille" not in out  # a character sees no odds
    assert "Commande inconnue 'bouh' : tapez help." in out


def test_unknown_names_get_the_list_of_names(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, db: str
) -> None:
    script = "kill Kage Nobody\nmove Kage 60\nopen Kage back door\nview Kage\nview table\nq\n"
    code, out, _ = play(capsys, monkeypatch, script, "night-raid", "--db", db)
    assert code == 0
    assert "No one is called Nobody; the names: Kage, Tsuki, Kaze, Jubei" in out
    assert "Usage: move NAME X Y [half|fast|hidden] [climb]" in out
    assert "Refused: no door is called back door" in out
    assert "What Kage knows:" in out and "What the table sees:" in out


def test_end_of_input_at_the_prompt_saves_and_exits_0(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, db: str
) -> None:
    code, out, _ = play(capsys, monkeypatch, "grapple Kage 60 10 tile\n", "night-raid", "--db", db)
    assert code == 0 and "The game is saved (1 record(s))." in out
    assert only(db).store.last_seq(only(db).id) == 1


def test_ctrl_c_at_the_prompt_keeps_the_game_and_exits_130(db: str) -> None:
    """Ctrl-C at a terminal. The child sets SIGINT to raise KeyboardInterrupt itself (as
    ``tests/test_interrupts.py`` does): a test run started in the background by a shell
    inherits SIGINT ignored, and Python then leaves it ignored (the game went on, and ended
    at the end of input with exit 0)."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    process = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import signal; signal.signal(signal.SIGINT, signal.default_int_handler); "
            "from vigile.cli import entry; entry()",
            "play",
            "night-raid",
            "--db",
            db,
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        rest, errors, seen = _interrupted_at_the_prompt(process)
    finally:
        if process.poll() is None:
            process.kill()
        process.communicate()
    assert process.returncode == 130, (seen, rest, errors)
    assert "Interrupted: the game is saved as of record 1." in rest
    assert "vigile play --resume " in rest
    assert only(db).store.last_seq(only(db).id) == 1


def _interrupted_at_the_prompt(process: subprocess.Popen[str]) -> tuple[str, str, str]:
    """One line played, then SIGINT while the game waits at the prompt; the child's output
    after it, its errors and what it printed before. Its stdin stays open until it has
    ended, so that the end of input cannot reach the prompt beside the interrupt."""
    assert process.stdin and process.stdout and process.stderr
    process.stdin.write("grapple Kage 60 10 tile\n")
    process.stdin.flush()
    seen = ""
    deadline = time.monotonic() + 60
    while "(saved: record 1)" not in seen and time.monotonic() < deadline:
        seen += process.stdout.readline()
    assert "(saved: record 1)" in seen, seen
    process.send_signal(signal.SIGINT)
    process.wait(timeout=60)
    return process.stdout.read(), process.stderr.read(), seen


# ---------------------------------------------------------------- vigile encounters


def test_encounters_list_and_archive(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, db: str
) -> None:
    assert main(["encounters", "list", "--db", db]) == 0
    assert "No saved encounters." in capsys.readouterr().out
    play(capsys, monkeypatch, "grapple Kage 60 10 tile\nend\n", "night-raid", "--db", db)
    encounter = only(db)
    assert main(["encounters", "list", "--db", db]) == 0
    out = capsys.readouterr().out
    assert encounter.id[:8] in out and "Night raid on the Nagamasa residence" in out
    assert "skirmish" in out and "rolled" in out
    assert main(["encounters", "list", "--db", db, "--json"]) == 0
    (row,) = json.loads(capsys.readouterr().out)
    assert row["id"] == encounter.id and row["records"] == 2 and row["archived"] is False

    assert main(["encounters", "archive", encounter.id[:5], "--db", db]) == 0
    assert "archived" in capsys.readouterr().out
    assert main(["encounters", "list", "--db", db]) == 0
    assert "No saved encounters." in capsys.readouterr().out
    assert main(["encounters", "list", "--db", db, "--archived"]) == 0
    assert "(archived)" in capsys.readouterr().out
    # an archived encounter is viewed, not played
    code, out, _ = play(
        capsys, monkeypatch, "wait Kage\nquit\n", "--resume", encounter.id, "--db", db
    )
    assert code == 0 and "archived: it can be viewed, not played" in out
    assert "Not played: " in out and Store(db).last_seq(encounter.id) == 2


@pytest.mark.parametrize(
    "args",
    [
        ["encounters", "archive", "feedface"],
        ["encounters", "list", "--db", "nosuchdriver://x"],
        ["play", "--resume", "feedface"],
        ["play", "night-raid", "--resume", "feedface"],
        ["play"],
        ["play", "no-such-scenario"],
        ["play", "--resume", "feedface", "--seed", "3"],
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], db: str, args: list[str]
) -> None:
    if "--db" not in args:
        args = [*args, "--db", db]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith("vigile: error: ") and err.count("\n") == 1


def test_the_given_dice_do_not_replay_the_log_for_each_die(
    db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A missing die restarts the action from a copy of the state, not a replay of the log:
    the state reached is the log's replay all the same."""
    fresh = Encounter._fresh
    starts: list[int] = []

    def counted(self: Encounter) -> Any:
        starts.append(1)
        return fresh(self)

    monkeypatch.setattr(Encounter, "_fresh", counted)
    store = Store(db)
    encounter, _ = Encounter.create(
        store,
        text=bundled_path("night-raid").read_text("utf-8"),
        fmt="yaml",
        source="night-raid.yaml",
        dice="given",
    )
    dice: list[int] = []
    grapple = {"do": "throw-grapple", "actor": "Kaze", "at": [54, 10], "onto": "tile"}
    for action in ({"do": "wait", "actor": "Kage"}, {"do": "end-turn"}, grapple):
        dice = []
        while True:
            try:
                encounter.act(action, dice=dice)
                break
            except NeedDice:
                dice.append(1 + len(dice) % 6)
    assert len(dice) >= 17 and len(starts) == 1  # one replay: the first
    assert seen_by_gm(encounter) == seen_by_gm(Encounter(store, encounter.id))


@pytest.mark.parametrize(
    ("line", "usage"),
    [
        ("end now", "end"),
        ("wait", "wait"),
        ("hide Kage Tsuki", "hide"),
        ("move Kage 60", "move"),
        ("open Kage", "open"),
        ("grapple Kage 60", "grapple"),
        ("strike Kage", "strike"),
        ("do Kage", "do"),
        ("wait Kage dice=4,x", "dice"),
    ],
)
def test_a_line_that_is_not_an_action_gets_its_usage(
    line: str, usage: str, raid_names: Names
) -> None:
    """A malformed command line is refused with the command's usage (and nothing is played)."""
    verb, *args = words_of(line)
    with pytest.raises(PlayError) as refused:
        build_action(verb, args, raid_names, Lang.EN)
    assert refused.value.key == "console.usage_line"
    assert usage in refused.value.text(Lang.EN)
