"""Rewrite the outputs of the README's ``$ vigile …`` examples with what the commands print now.

``tests/test_readme.py`` fails when an example's output is stale; run this, read the diff, commit.
Usage: ``.venv/bin/python scripts/readme_examples.py``.
"""

from __future__ import annotations

import contextlib
import io
import shlex
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1] / "tests"))

from test_readme import README, SKIPPED
from vigile.cli import main


def run(command: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(shlex.split(command)[1:])
    return out.getvalue().strip("\n")


def rewrite(text: str) -> str:
    """Each runnable example's old output (up to the next ``$`` line or the block's end) is
    replaced by the command's output now; examples stay one blank line apart."""
    result: list[str] = []
    inside = skipping = False
    for line in text.splitlines():
        if line.startswith("```"):
            inside, skipping = not inside, False
            result.append(line)
            continue
        if inside and line.startswith("$ "):
            if skipping:
                result.append("")
            skipping = line.startswith("$ vigile ") and not any(s in line for s in SKIPPED)
            result.append(line)
            if skipping:
                result.extend(run(line[2:]).splitlines())
            continue
        if not skipping:
            result.append(line)
    return "\n".join(result) + "\n"


if __name__ == "__main__":
    README.write_text(rewrite(README.read_text(encoding="utf-8")), encoding="utf-8")
