"""The README's examples are real: each ``$ vigile …`` shown with its output gives that output.

Commands that write pictures, run thousands of games or start a cluster are left out (their
figures are shown as produced, and tested elsewhere).
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from vigile.cli import main

README = Path(__file__).parents[1] / "README.md"
SKIPPED = ("--plot", "simulate", "sweep", "riskmap", "route", "demo")


def examples() -> list[tuple[str, str]]:
    """(command, expected output) for every runnable example in the README's code blocks."""
    found = []
    for block in _blocks(README.read_text(encoding="utf-8")):
        parts = re.split(r"^\$ ", block, flags=re.M)
        for part in parts[1:]:
            command, _, output = part.partition("\n")
            if command.startswith("vigile ") and not any(s in command for s in SKIPPED):
                found.append((command, output.strip("\n")))
    return found


def _blocks(text: str) -> list[str]:
    """The contents of the README's fenced code blocks."""
    blocks, current, inside = [], [], False
    for line in text.splitlines():
        if line.startswith("```"):
            if inside:
                blocks.append("\n".join(current) + "\n")
            current, inside = [], not inside
        elif inside:
            current.append(line)
    return blocks


@pytest.mark.parametrize(("command", "expected"), examples())
def test_readme_example_output(
    command: str, expected: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(shlex.split(command)[1:]) == 0
    assert capsys.readouterr().out.strip("\n") == expected


def test_the_readme_has_examples() -> None:
    assert len(examples()) >= 12
