"""The public surface of ``import vigile`` is what ``__all__`` lists, and all of it exists."""

from __future__ import annotations

import vigile


def test_all_names_exist_and_are_public() -> None:
    for name in vigile.__all__:
        assert hasattr(vigile, name), name
        assert not name.startswith("_")


def test_all_is_sorted_and_unique() -> None:
    assert list(vigile.__all__) == sorted(set(vigile.__all__))


def test_all_and_the_lazy_table_agree() -> None:
    """Every public name is in the lazy table and resolves to the object it names; the table
    holds nothing that ``__all__`` does not list."""
    import importlib

    lazy = vigile._LAZY
    assert set(vigile.__all__) == set(lazy)
    for name, (module, attribute) in lazy.items():
        assert getattr(vigile, name) is getattr(importlib.import_module(module), attribute), name
    assert set(vigile.__all__) <= set(dir(vigile))


def test_unknown_names_are_attribute_errors() -> None:
    import pytest

    with pytest.raises(AttributeError, match="no attribute 'nothing_here'"):
        vigile.nothing_here  # noqa: B018


def test_the_three_games_and_the_scenario_tools_are_exported() -> None:
    """A check of each game, the loader, the turn engine, the simulator, risk map and route."""
    wanted = {
        *("move_check", "noise_check", "sight_check", "shadow_check", "ambush_check"),
        "alarm_check",
        *("starfinder_hide_check", "starfinder_attack_check"),
        *("dnd35_spot_check", "dnd35_listen_check", "dnd35_listen_all_check"),
        *("dnd35_hide_check", "dnd35_grope_check", "dnd35_attack_check"),
        *("load_scenario", "play", "simulate", "risk_map", "safest_route"),
    }
    assert wanted <= set(vigile.__all__)
    assert all(callable(getattr(vigile, name)) for name in wanted)


def test_nothing_is_rolled_at_import() -> None:
    """Importing vigile draws no random numbers and does not import numpy for a check."""
    import subprocess
    import sys

    code = "import sys, vigile; print('numpy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
