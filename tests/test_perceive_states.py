"""Every perception names the awareness state it gives (RULES.md §4), in every game.

The simulator counts a detection from a ``perceive`` event's ``state`` (``LOCATED_OR_SEEN``):
a character's ``perceive`` event without one would be counted by a default, a ruling the
simulator must not hold. Each bundled D&D 3.5 and Starfinder scenario, played with many seeds:
every ``perceive`` event of a character carries a state of the ladder; the only ones without
are the GM's notes, which name no character. What each gives is its rule's: a sign, blindsight
and scent what ``sign_shown`` and ``senses.reach`` give (DD-10..DD-16: the square; DD-15:
observed), a lost pinpoint what ``pinpoint_lost`` leaves (presence, [R]: not a detection).

The skirmish games' too, night raids and day encounters: a guard's sighting, turning round on a
noise, or being struck, an intruder's discovery or eavesdropping, noticing a follower, spotting
an ambush. Each says its rule's state: the sight check's (SK-V1..SK-V9; turning round, SK-N10;
a discovery, the roles reversed, SK-G3, SK-G4), the overhear check's (SK-N7: a direction), the
shadowing and ambush checks' (SK-S2, SK-S4; SK-A2), and a struck guard's [R] (he sees his
attacker). A defender's is always one the simulator counts, as the default ``observed`` it read
before counted it: the skirmish tallies are unchanged.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from vigile.awareness.ladder import AwarenessState
from vigile.awareness.vocabulary import AmbushSetting
from vigile.engine.run import play
from vigile.rulesets.dnd35 import traits
from vigile.rulesets.senses import Condition, Sense, reach
from vigile.rulesets.skirmish.alarm import struck_guard_sees
from vigile.rulesets.skirmish.ambush import ambush_check
from vigile.rulesets.skirmish.eavesdrop import overhear_check
from vigile.rulesets.skirmish.shadow import Setting, Task, shadow_check
from vigile.rulesets.skirmish.sight import Attitude, sight_check
from vigile.scene.actors import Side
from vigile.scene.loader import bundled_names, load_scenario, parse_scenario
from vigile.scene.model import Scenario
from vigile.sim.simulate import LOCATED_OR_SEEN

D20 = [n for n in bundled_names() if load_scenario(n).ruleset in ("dnd35", "starfinder")]
SKIRMISH = [n for n in bundled_names() if load_scenario(n).ruleset == "skirmish"]
SEEDS = range(25)
STATES = {s.value for s in AwarenessState}
HERE = Path(__file__).parent / "scenarios"


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
    lost = {s for (m, s) in found if m == "engine.d20.lost"}
    assert lost == {traits.pinpoint_lost("DD-6")[0].value}
    assert not lost & set(LOCATED_OR_SEEN)


# ---------------------------------------------------------------- the skirmish games


def test_the_bundled_skirmish_scenarios_are_all_played() -> None:
    assert {"night-raid", "night-raid-unscouted", "sk-a6-ambush", "sk-s6-street"} <= set(SKIRMISH)


def skirmish_scenarios() -> dict[str, Scenario]:
    """Every bundled skirmish scenario, and what the bundled ones never show with these seeds:
    a guard struck (``strike-within-reach``), an ambush spotted (SK-A6's with no cover: SK-A1,
    detected without a roll)."""
    found = {name: load_scenario(name) for name in SKIRMISH}
    found["strike-within-reach"] = load_scenario(str(HERE / "strike-within-reach.yaml"))
    text = (Path(__file__).parents[1] / "src/vigile/scenarios/sk-a6-ambush.yaml").read_text()
    assert "cover: true}" in text
    found["ambush-no-cover"] = parse_scenario(text.replace("cover: true}", "cover: false}"))
    return found


def skirmish_states() -> Counter[tuple[str, bool, str]]:
    """(message, by a defender, state) of every character's perception, every scenario and
    seed; a perception with no actor or no state fails here."""
    found: Counter[tuple[str, bool, str]] = Counter()
    for scenario in skirmish_scenarios().values():
        defenders = {a.name for a in scenario.actors if a.side is Side.DEFENDERS}
        for seed in SEEDS:
            for event in play(scenario, seed=seed).events:
                if event.kind != "perceive":
                    continue
                assert event.actor is not None, event
                state = event.params["state"]
                assert state in STATES, event
                found[(event.message, event.actor in defenders, state)] += 1
    return found


@pytest.fixture(scope="module")
def skirmish_found() -> Counter[tuple[str, bool, str]]:
    return skirmish_states()


def test_every_skirmish_perception_says_what_its_rule_gives(
    skirmish_found: Counter[tuple[str, bool, str]],
) -> None:
    """Each message, the state of the rule function behind it (not a word written twice)."""
    rules = load_scenario("night-raid").rules()
    sight = sight_check(rules, attitude=Attitude.FAST, distance_cm=5.0).state
    given = {
        "engine.event.sees": sight,  # SK-V1..SK-V9
        "engine.raid.turns_round": sight,  # SK-N10, then the sight rules
        "engine.raid.discovers": sight,  # SK-G3, SK-G4: the sight rules, roles reversed
        "engine.event.struck": struck_guard_sees(rules),  # SK-G5 [R]: he sees his attacker
        "engine.raid.overhears": overhear_check(rules, volume="whisper").state,  # SK-N7
        "engine.day.notices": shadow_check(
            rules, task=Task.NOTICE, setting=Setting.CROWD
        ).state,  # SK-S2, SK-S4
        "engine.day.spots_ambush": ambush_check(
            rules, setting=AmbushSetting.TOWN, ambushers=1, targets=1
        ).state,  # SK-A2
    }
    assert all(state is not None for state in given.values())
    assert {m for (m, _, _) in skirmish_found} == set(given)  # each is played at least once
    for message, _, state in skirmish_found:
        expected = given[message]
        assert expected is not None and state == expected.value, message
    assert given["engine.raid.overhears"] is AwarenessState.DIRECTION  # SK-N10: not where


def test_a_defenders_skirmish_perception_is_always_a_detection(
    skirmish_found: Counter[tuple[str, bool, str]],
) -> None:
    """The simulator counted every defender's skirmish perception (its missing state read
    ``observed``): each still counts, so the tallies are the same; an intruder's is never
    counted (no defender), whatever its state."""
    assert any(defender for (_, defender, _) in skirmish_found)
    assert {s for (_, defender, s) in skirmish_found if defender} <= set(LOCATED_OR_SEEN)
