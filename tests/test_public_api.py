"""The public surface of ``import vigile`` is what ``__all__`` lists, and all of it exists."""

from __future__ import annotations

import vigile


def test_all_names_exist_and_are_public() -> None:
    for name in vigile.__all__:
        assert hasattr(vigile, name), name
        assert not name.startswith("_")


def test_all_is_sorted_and_unique() -> None:
    assert list(vigile.__all__) == sorted(set(vigile.__all__))


def test_nothing_is_rolled_at_import() -> None:
    """Importing vigile draws no random numbers and does not import numpy for a check."""
    import subprocess
    import sys

    code = "import sys, vigile; print('numpy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
