"""Every perception of a d20 game names the awareness state it gives (RULES.md §4).

The simulator counts a detection from a ``perceive`` event's ``state`` (``LOCATED_OR_SEEN``):
a character's ``perceive`` event without one would be counted by a default, a ruling the
simulator must not hold. Each bundled D&D 3.5 and Starfinder scenario, played with many seeds:
every ``perceive`` event of a character carries a state of the ladder; the only ones without
are the GM's notes, which name no character. What each gives is its rule's: a sign, blindsight
and scent what ``sign_shown`` and ``senses.reach`` give (DD-10..DD-16: the square; DD-15:
observed), a lost pinpoint what ``pinpoint_lost`` leaves (presence, [R]: not a detection).
"""

from __future__ import annotations

from collections import Counter

import pytest

from vigile.awareness.ladder import AwarenessState
from vigile.engine.run import play
from vigile.rulesets.dnd35 import traits
from vigile.rulesets.senses import Condition, Sense, reach
from vigile.scene.loader import bundled_names, load_scenario
from vigile.sim.simulate import LOCATED_OR_SEEN

D20 = [n for n in bundled_names() if load_scenario(n).ruleset in ("dnd35", "starfinder")]
SEEDS = range(25)
STATES = {s.value for s in AwarenessState}


def test_the_bundled_d20_scenarios_are_all_played() -> None:
    assert {"dnd35-flour", "starfinder-sniper"} <= set(D20)


@pytest.mark.parametrize("name", D20)
def test_every_perceive_event_of_a_character_names_its_state(name: str) -> None:
    scenario = load_scenario(name)
    for seed in SEEDS:
        for event in play(scenario, seed=seed).events:
            if event.kind != "perceive":
                continue
            if event.actor is None:  # the GM's note: nobody perceives anything
                assert "state" not in event.params, event
                continue
            assert event.params.get("state") in STATES, event


def flour_states() -> Counter[tuple[str, object]]:
    """(message, state) of the perceptions of the bakery, every seed."""
    scenario = load_scenario("dnd35-flour")
    return Counter(
        (e.message, e.params["state"])
        for seed in SEEDS
        for e in play(scenario, seed=seed).events
        if e.kind == "perceive" and e.actor is not None
    )


def test_signs_scent_blindsight_and_lost_pinpoints_say_what_their_rules_give() -> None:
    """The bakery has them all: Wisp's footprints in the mud and the flour (DD-10, DD-11), Pip's
    lantern (DD-16), the trough (DD-12), Grusk's blindsight and scent (DD-13, DD-15), and the
    squares groped or shown that are lost when she moves."""
    found = flour_states()
    location = AwarenessState.LOCATION.value
    assert found[("dnd35.round.sign", location)] > 0
    assert {s for (m, s) in found if m == "dnd35.round.sign"} == {location}
    blindsight = reach(Sense.BLINDSIGHT, [Condition.INVISIBLE]).state.value
    assert {s for (m, s) in found if m == "engine.d20.blindsight"} == {blindsight}
    assert {s for (m, s) in found if m == "engine.d20.scent"} <= {
        reach(Sense.SCENT, [Condition.INVISIBLE]).state.value
    }
    lost = {s for (m, s) in found if m == "dnd35.round.lost"}
    assert lost == {traits.pinpoint_lost("DD-6")[0].value}
    assert not lost & set(LOCATED_OR_SEEN)
