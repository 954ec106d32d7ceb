"""What the user typed reaches the GM's terminal escaped (issue 34): a ``--dc-mod`` label, and
every name the ``vigile play`` console echoes (an actor's, a door's, a key of an action), in
plain text, on a terminal (rich) and in JSON. The escaping is :func:`vigile.io.safe.printable`'s
(``\\x1b``, ``\\u202e``); in JSON, a JSON escape, so that the value read back is the label."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from rich.console import Console

from vigile.cli import main
from vigile.cli.common import json_text
from vigile.io.i18n import Lang
from vigile.io.terminal import print_verdict
from vigile.rulesets.data import shipped
from vigile.rulesets.starfinder import parse_dc_mod
from vigile.rulesets.starfinder.stealth import hide_check

PAYLOADS = {
    "csi": "\x1b[31mred",
    "osc": "\x1b]0;owned\x07title",
    "c1-csi": "\x9b31mred",
    "bidi": "evil\u202eyaml.exe",
    "isolate": "a\u2066b\u2069c",
    "del-bell": "a\x7fb\x07c",
}
RAW = ("\x1b", "\x07", "\x7f", "\x9b", "\u202e", "\u2066", "\u2069")


def clean(text: str) -> None:
    """No character a terminal would obey, nor a bidirectional control."""
    for char in RAW:
        assert char not in text, (char, text)


HIDE = ["check", "starfinder", "hide", "--stealth", "5", "--perception", "3", "--cover"]


@pytest.mark.parametrize("payload", list(PAYLOADS))
def test_a_dc_mod_label_is_printed_escaped(
    payload: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--dc-mod 2:LABEL`` with ``--cover``: the label reached the terminal raw."""
    label = PAYLOADS[payload]
    assert main([*HIDE, "--dc-mod", f"2:{label}"]) == 0
    out = capsys.readouterr().out
    clean(out)
    assert "GM: " in out and ("\\x" in out or "\\u" in out)


@pytest.mark.parametrize("payload", list(PAYLOADS))
def test_a_dc_mod_label_in_json_is_escaped_and_reads_back(
    payload: str, capsys: pytest.CaptureFixture[str]
) -> None:
    label = PAYLOADS[payload]
    assert main([*HIDE, "--dc-mod", f"2:{label}", "--json"]) == 0
    out = capsys.readouterr().out
    clean(out)
    data = json.loads(out)
    reasons = [m["reason"] for m in data["modifiers"]]
    assert f"GM: {label}" in reasons  # the JSON escape reads back as the label itself


def test_a_dc_mod_label_on_a_terminal_is_escaped() -> None:
    """The rich rendering (a terminal) prints the same escaped lines: its own colours only."""
    verdict = hide_check(
        shipped("starfinder"),
        stealth=5,
        observers=[3],
        cover=True,
        dc_mods=[parse_dc_mod("2:" + PAYLOADS["osc"] + PAYLOADS["bidi"])],
    )
    buffer = io.StringIO()
    print_verdict(verdict, Lang.EN, Console(file=buffer, force_terminal=True, width=200))
    out = buffer.getvalue()
    assert "\x1b]" not in out and "\x07" not in out and "\u202e" not in out
    assert "\\x1b]0;owned\\x07title" in out and "\\u202e" in out


def test_json_text_escapes_only_what_printable_escapes() -> None:
    data = {"a": "é 夜 🌙 \x1b\u202e\x7f\x9b\U000e0001", "n": [1, 2.5, None]}
    text = json_text(data)
    assert json.loads(text) == data
    assert "é 夜 🌙" in text and "\\u001b\\u202e\\u007f\\u009b\\udb40\\udc01" in text
    assert json.loads(json_text(data, indent=1)) == data


# ---------------------------------------------------------------- the play console


def console(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], db: str, script: str
) -> str:
    monkeypatch.setattr("sys.stdin", io.StringIO(script))
    assert main(["play", "night-raid", "--db", db, "--seed", "1"]) == 0
    out, err = capsys.readouterr()
    return out + err


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'play.db'}"


@pytest.mark.parametrize("payload", list(PAYLOADS))
def test_names_echoed_by_the_play_console_are_escaped(
    payload: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    db: str,
) -> None:
    """An unknown actor (echoed with the list of names), an unknown door (echoed in the
    engine's refusal), a target, an action's key and its value: all reached the terminal raw."""
    evil = PAYLOADS[payload]
    script = "\n".join(
        [
            f"move '{evil}' 60 14",
            f"open Kage '{evil} door'",
            f"kill Kage '{evil}'",
            f"move Kage 60 14 hidden note='{evil}'",
            f"{evil}",
            "undo",
            "quit",
        ]
    )
    out = console(monkeypatch, capsys, db, script + "\n")
    clean(out)
    assert out.count("\\x") + out.count("\\u") >= 4, out[-2000:]
