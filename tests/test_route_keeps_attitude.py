"""Issue 37: ``route --write-plan`` keeps the attitude the author wrote on the legs it replaces,
or refuses, naming the leg; nothing is written then."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from vigile.cli.sim import app
from vigile.rulesets.skirmish.sight import Attitude
from vigile.scene.loader import load_scenario

# An open yard with one cover, the rectangle (20, 40)-(40, 55), and a guard far off.
YARD = """
ruleset: skirmish
name: open yard
time: night
map: {width: 120, height: 60}
cover:
  - {points: [[20, 40], [40, 40], [40, 55], [20, 55]]}
actors:
  - {name: Ninja, side: attackers, position: [10, 10], dice: {ninjitsu: 2}}
  - {name: Guard, side: defenders, position: [110, 5], dice: 1}
plans:
  Ninja:
    - {to: [30, 50], speed: hidden}     # into the bushes, hidden: deliberate
"""
runner = CliRunner()


def route(tmp_path: Path, *extra: str) -> tuple[int, str, Path]:
    source = tmp_path / "yard.yaml"
    source.write_text(YARD, encoding="utf-8")
    out = tmp_path / "planned.yaml"
    args = ["route", str(source), "--to", "30,50", "--write-plan", "Ninja", "--out", str(out)]
    result = runner.invoke(app, [*args, *extra])
    return result.exit_code, result.output, out


def test_a_hidden_leg_is_not_rewritten_half(tmp_path: Path) -> None:
    """The route at the default half speed would walk the arriving leg (to (30, 50), the
    author's hidden leg) at half speed: refused, the leg and its speed named."""
    code, output, out = route(tmp_path)
    assert code == 2
    text = " ".join(output.split())
    assert "Ninja's leg 1 (to (30, 50)) moves hidden as written" in text
    assert "the route would walk it half" in text
    assert not out.exists()


def test_a_hidden_route_keeps_the_hidden_leg(tmp_path: Path) -> None:
    """At --attitude hidden the route's last waypoint, (30, 50), is in the cover, so its leg is
    walked hidden (SK-V3): the author's leg keeps its speed."""
    code, output, out = route(tmp_path, "--attitude", "hidden")
    assert code == 0, output
    legs = load_scenario(out).plans["Ninja"]
    assert legs[-1].to == (30, 50) and legs[-1].speed is Attitude.HIDDEN
    assert "# into the bushes, hidden: deliberate" in out.read_text(encoding="utf-8")


def test_a_leg_without_a_written_speed_takes_the_routes(tmp_path: Path) -> None:
    source = YARD.replace("speed: hidden}", "}")
    (tmp_path / "yard.yaml").write_text(source, encoding="utf-8")
    out = tmp_path / "planned.yaml"
    args = ["route", str(tmp_path / "yard.yaml"), "--to", "30,50", "--write-plan", "Ninja"]
    result = runner.invoke(app, [*args, "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert {leg.speed for leg in load_scenario(out).plans["Ninja"]} == {Attitude.HALF}
