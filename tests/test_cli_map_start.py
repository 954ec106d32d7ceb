"""The map commands start light (issue 38, :data:`vigile.cli.MAP_COMMANDS`): ``vigile riskmap``
and ``vigile route`` import neither the checks' commands nor their declarations, and build
only the scenario model of the scenario's game (the shared models are built when first used:
``defer_build`` in :data:`vigile.scene.actors.MODEL_CONFIG`). Untimed: what they import and
build, in a fresh process; ``bench/map_startup.py`` times them."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

PROBE = """
import io, json, sys
from contextlib import redirect_stdout
from vigile.cli import main
with redirect_stdout(io.StringIO()) as out:
    code = main(sys.argv[1:])
from vigile.scene.actors import Actor
from vigile.scene.model import Scenario
from vigile.scene.plans import Leg
print(json.dumps({
    "code": code,
    "printed": len(out.getvalue()),
    "modules": sorted(name for name in sys.modules if name.startswith("vigile.")),
    "built": [m.__name__ for m in (Scenario, Actor, Leg) if m.__pydantic_complete__],
}))
"""

COMMANDS = [
    ["riskmap", "night-raid", "--attitude", "half"],
    ["route", "night-raid", "--from", "60,14", "--to", "110,62", "--attitude", "half"],
    ["riskmap", "dnd35-invisible-intruder", "--attitude", "half"],
]


@pytest.mark.parametrize("args", COMMANDS, ids=lambda args: " ".join(args[:2]))
def test_a_map_command_imports_no_check_command_and_builds_no_shared_model(
    args: list[str],
) -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *args], capture_output=True, text=True, check=True
    )
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found["code"] == 0 and found["printed"] > 0
    assert "vigile.cli.sim" in found["modules"]  # the command did run
    for name in ("vigile.cli.common", "vigile.checks.declare", "vigile.cli.run"):
        assert name not in found["modules"], name
    # Only the game's own scenario, actor and leg models validated: not the shared ones.
    assert found["built"] == []
