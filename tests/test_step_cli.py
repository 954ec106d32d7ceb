"""``vigile run --step`` with real dice, Ctrl-C, the GM's dice running out, and the seed of an
unseeded game (audit of ``vigile run``)."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from vigile.cli import main
from vigile.scene.loader import bundled_path

SK_N9_DICE = "4,1,5,2,5"
"""The SK-N9 scenario's checks in order: the guard listens to the death (4), the ninja's fumble
roll opening the door (1), the guard listens to the fumble (5), the initiative (2, 5)."""


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


class Typist(io.StringIO):
    """Standard input typing ``answers`` one per prompt; records what was printed before each
    prompt; after the answers, Ctrl-C."""

    def __init__(self, capsys: pytest.CaptureFixture[str], answers: list[str]) -> None:
        super().__init__()
        self.capsys = capsys
        self.answers = answers
        self.seen: list[tuple[str, str]] = []

    def readline(self, size: int | None = -1) -> str:
        self.seen.append(self.capsys.readouterr())
        if not self.answers:
            raise KeyboardInterrupt
        return self.answers.pop(0) + "\n"


def _unseeded(tmp_path: Path) -> Path:
    """The night raid without its seed."""
    text = bundled_path("night-raid").read_text(encoding="utf-8")
    path = tmp_path / "raid.yaml"
    path.write_text(re.sub(r"(?m)^seed:.*$", "", text), encoding="utf-8")
    return path


# ---------------------------------------------------------------- --step


def test_step_prints_the_log_as_it_goes_and_announces_each_check(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    typist = Typist(capsys, SK_N9_DICE.split(","))
    monkeypatch.setattr("sys.stdin", typist)
    code, out, _ = run(capsys, "run", "sk-n9-shoji", "--step")
    assert code == 0 and "Turn limit reached" in out
    # Before the first die: the start of the log, and which check it is for, whose, how hard.
    before_first_out, before_first_err = typist.seen[0]
    assert "SK-N9: the shoji" in before_first_out and "Turn 1" in before_first_out
    assert "Inattentive guard: does the listener hear? — Difficulty 5+" in before_first_err
    assert before_first_err.rstrip().endswith("d6 (1-6, Enter rolls):")
    # Before the second die (the ninja's fumble roll, turn 3): the guard's listening on turn 1
    # is already printed, with the die typed (4).
    second_out, second_err = typist.seen[1]
    assert "listens (death, 20 cm away)" in second_out and "Roll (GM's dice): 4" in second_out
    assert "Novice ninja: " in second_err


def test_step_speaks_french(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    typist = Typist(capsys, SK_N9_DICE.split(","))
    monkeypatch.setattr("sys.stdin", typist)
    code, out, _ = run(capsys, "run", "sk-n9-shoji", "--step", "--lang", "fr")
    assert code == 0 and "Limite de tours atteinte" in out
    err = "".join(e for _, e in typist.seen)
    assert "Entrée le lance" in err and "l'auditeur entend-il ? — Difficulté 5+" in err
    assert "Enter" not in err


def test_step_announces_the_day_encounter_checks(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # SK-S5: Sanjiro follows at 4+ with 2 dice, Tomoe notices at 6 + 1 = 7 (SK-S2, SK-S3).
    typist = Typist(capsys, ["2", "6", "3"])
    monkeypatch.setattr("sys.stdin", typist)
    code, _, _ = run(capsys, "run", "sk-s5-street", "--step")
    err = "".join(e for _, e in typist.seen)
    assert code == 0
    assert re.search(r"Sanjiro: .*Difficulty 4\+", err) and re.search(
        r"Tomoe: .*Difficulty 7\+", err
    )


def test_ctrl_c_at_a_prompt_prints_the_log_so_far_and_exits_130(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    typist = Typist(capsys, ["4", "1"])  # then Ctrl-C at the third die
    monkeypatch.setattr("sys.stdin", typist)
    code, out, err = run(capsys, "run", "sk-n9-shoji", "--step")
    out = "".join(o for o, _ in typist.seen) + out
    assert code == 130 and "Traceback" not in err
    assert "rolls for a fumble" in out and "Interrupted on turn 3: the log so far." in out
    assert "Turn limit reached" not in out


def test_ctrl_c_in_french_json(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", Typist(capsys, ["4"]))
    code, _, err = run(capsys, "run", "sk-n9-shoji", "--step", "--json", "--lang", "fr")
    assert code == 130 and "Traceback" not in err


# ---------------------------------------------------------------- the GM's dice


def test_running_out_of_dice_keeps_the_log_and_names_the_check(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(capsys, "run", "sk-n9-shoji", "--dice-values", "4,1,5")
    assert code == 2
    assert "listens (fumble, 5 cm away)" in out and "Stopped on turn 3: the log so far." in out
    assert len(err.strip().splitlines()) == 1
    assert "Inattentive guard" in err and "does the guard raise the alarm" in err
    assert "--dice-values" in err and "Traceback" not in err


def test_running_out_of_dice_in_french(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "run", "sk-n9-shoji", "--dice-values", "4", "--lang", "fr")
    assert code == 2 and "Arrêté au tour" in out
    assert "Novice ninja a besoin d'un autre dé" in err


def test_run_refuses_leftover_dice(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "run", "sk-n9-shoji", "--dice-values", SK_N9_DICE + ",3")
    assert code == 2 and "6 value(s) given, but the game used only 5" in err
    code, _, _ = run(capsys, "run", "sk-n9-shoji", "--dice-values", SK_N9_DICE)
    assert code == 0


def test_turns_may_stop_a_game_before_its_dice_are_used(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, _, _ = run(capsys, "run", "sk-n9-shoji", "--turns", "1", "--dice-values", SK_N9_DICE)
    assert code == 0


# ---------------------------------------------------------------- the seed


def test_an_unseeded_game_prints_its_seed_and_replays_with_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = str(_unseeded(tmp_path))
    code, out, _ = run(capsys, "run", path, "--turns", "3")
    assert code == 0
    found = re.match(r"seed: (\d+) \(replay with --seed \1\)\n", out)
    assert found
    code, again, _ = run(capsys, "run", path, "--turns", "3", "--seed", found.group(1))
    assert code == 0 and again == out[found.end() :]


def test_an_unseeded_game_puts_its_seed_on_the_json_start_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, _ = run(capsys, "run", str(_unseeded(tmp_path)), "--turns", "2", "--json")
    first = json.loads(out.splitlines()[0])
    assert code == 0 and first["event"] == "start" and isinstance(first["seed"], int)
    code, out, _ = run(capsys, "run", str(_unseeded(tmp_path)), "--turns", "2", "--lang", "fr")
    assert out.startswith("graine : ")


def test_a_seeded_game_or_one_that_draws_nothing_prints_no_seed(
    capsys: pytest.CaptureFixture[str],
) -> None:
    _, out, _ = run(capsys, "run", "night-raid", "--turns", "1")
    assert "seed" not in out  # the scenario's own seed
    _, out, _ = run(capsys, "run", "sk-n9-shoji")
    assert "seed" not in out  # the GM's dice, no patrol: nothing drawn
