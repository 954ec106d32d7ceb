"""``route --write-plan`` on a plan that is not a block list (absent, or written ``[...]``):
the file goes through ruamel.yaml's round trip, which keeps the comments and the key order
(issue 13: every write into a user's file keeps what it did not change)."""

from __future__ import annotations

import pytest

from vigile.awareness.vocabulary import Attitude
from vigile.games.skirmish.route import planned, scenario_with_plan
from vigile.scene.loader import parse_scenario
from vigile.scene.plans import Leg, OpenDoor

HEAD = """\
# A hand-written raid: this comment stays.
ruleset: skirmish
name: Round trip  # and so does this one
map: {width: 100, height: 60}
walls:
  - {kind: door, name: gate, start: [40, 0], end: [40, 60]}
actors:
  - {name: Ninja, side: attackers, position: [10, 10]}
  - {name: Guard, side: defenders, position: [90, 50], dice: 1}
"""

LEGS = (
    Leg(to=(20, 10), speed=Attitude.HALF),
    Leg(to=(39, 10), speed=Attitude.FAST, actions=(OpenDoor(do="open-door", door="gate"),)),
)


@pytest.mark.parametrize(
    ("plans", "span"),
    [
        ("plans: {}\n", (0, None)),  # no plan at all: a flow mapping, rewritten
        ("plans:\n  Ninja: [{to: [15, 10]}, {to: [39, 12], wait: 2}]\n", (0, 1)),  # a flow list
    ],
)
def test_a_plan_not_in_block_style_is_written_by_the_round_trip(
    plans: str, span: tuple[int, int | None]
) -> None:
    text = HEAD + plans
    scenario = parse_scenario(text)
    written = scenario_with_plan(text, scenario, "Ninja", LEGS, span)
    assert "# A hand-written raid: this comment stays." in written
    assert "# and so does this one" in written
    keys = [line.split(":")[0] for line in written.splitlines() if line and line[0].isalpha()]
    assert keys == ["ruleset", "name", "map", "walls", "actors", "plans"]
    again = parse_scenario(written)
    plan = again.plans["Ninja"]
    # as data: the scenario's legs are the skirmish's model, the route's the shared one
    assert dumped(plan) == dumped(planned(scenario, "Ninja", LEGS, span))
    if span[1] is None:  # the route's legs, the door opened on the way
        assert plan[1].actions == (OpenDoor(do="open-door", door="gate"),)
    else:  # the arriving leg is the author's, its wait kept, at the route's last speed
        assert (plan[-1].to, plan[-1].wait, plan[-1].speed) == ((39, 12), 2, Attitude.FAST)


def dumped(legs: tuple[Leg, ...]) -> list[dict[str, object]]:
    """The legs as data, whatever their model (the shared one, or a game's own)."""
    return [leg.model_dump() for leg in legs]
