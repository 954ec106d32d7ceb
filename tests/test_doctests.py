"""The ``>>>`` examples in vigile's docstrings run, and say what really happens.

Only the modules whose source has an example are imported (so a module for an extra that is not
installed, or the CLI, is not imported for nothing).
"""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

import vigile

SRC = Path(vigile.__file__).parent


def modules_with_examples() -> list[str]:
    found = []
    for path in sorted(SRC.rglob("*.py")):
        if ">>>" in path.read_text(encoding="utf-8"):
            parts = path.relative_to(SRC.parent).with_suffix("").parts
            found.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return found


MODULES = modules_with_examples()


def test_the_public_functions_have_examples() -> None:
    """The package's own docstring, a check of each game with its exact chance, a scenario."""
    assert {
        "vigile",
        "vigile.rulesets.skirmish.noise",
        "vigile.rulesets.starfinder.stealth",
        "vigile.rulesets.dnd35.spot",
        "vigile.scene.loader",
    } <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    results = doctest.testmod(
        module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, report=False
    )
    assert results.attempted > 0, f"{name}: no example found"
    assert results.failed == 0, f"{name}: {results.failed} example(s) failed (see stdout)"
