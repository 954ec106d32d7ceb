"""The layers hold (issue 9): the engine, the simulator, the scene and the renderers name no
game; the games are plug-ins the registry finds. The import contracts themselves are checked by
import-linter in CI (``.importlinter``); this test reads the code for what import-linter cannot
see: a game's name written as a string."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from vigile import registry

SRC = Path(__file__).parents[1] / "src" / "vigile"
NEUTRAL = ("engine", "sim", "scene")
"""The layers that must not know any game."""


def _modules() -> list[Path]:
    return sorted(p for layer in NEUTRAL for p in (SRC / layer).rglob("*.py"))


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(SRC)))
def test_the_shared_layers_name_no_game(path: Path) -> None:
    games = set(registry.names())
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            parts = node.module.split(".")
            assert not (
                parts[:2] == ["vigile", "games"]
                or (parts[:2] == ["vigile", "rulesets"] and len(parts) > 2 and parts[2] in games)
            ), f"{path.name} imports {node.module}"
        if isinstance(node, ast.Compare):
            for value in (node.left, *node.comparators):
                if isinstance(value, ast.Constant) and value.value in games:
                    raise AssertionError(f"{path.name}:{node.lineno} compares with {value.value!r}")


def test_no_import_cycle_hides_behind_a_function() -> None:
    """No two modules import each other, even through an import inside a function."""
    grimp = pytest.importorskip("grimp")
    graph = grimp.build_graph("vigile")
    for module in graph.modules:
        for other in graph.find_modules_directly_imported_by(module):
            assert not graph.direct_import_exists(importer=other, imported=module), (
                module,
                other,
            )
