"""The compiled d20 kernels play the features the engine plays that they once left to it (issue
14): an exact test, run by run, as ``tests/test_kernel_d20_equivalence.py`` (its helpers).

D&D 3.5: a visible intruder meets Hide against Spot (DD-20: in cover, else every seeing
observer sees it; in the dark only for the observers whose darkvision reaches it, DD-20 C,
[R] ``light.dark_without_lights``; walking into the dark leaves an observer its square, [R] as
DD-1); the intruders' kills and words (DD-5: a round it fought or spoke is DC 0 to hear;
DD-20: attacking is Hide at -20); invisibility cast and ended (DD-1); defenders that see
invisible creatures where places may be dark (DD-19, DD-20); ethereal actors (DD-17); more
than six named doors. Starfinder: see invisibility (SF-11 C), invisibility cast and ended
(SF-7, SF-11), the sound distance to a sniper's Stealth (SF-4 [C]), kills, words, ethereal
actors, more than six named doors. The darkness table both games share, in D&D 3.5: exactly at
the darkvision range, the rule's comparison taken from ``senses.sees_in_dark`` (were it
strict, still the engine's game).

Each hand-made case is a bundled scenario changed to meet one feature; the random scenarios
(hypothesis) mix them all. ``unsupported`` accepts every one of them.
"""

from __future__ import annotations

import json
from importlib import resources
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("numba")

from d20_scenarios import dnd35_scenarios, starfinder_scenarios
from test_kernel_d20_equivalence import assert_same_game, engine_runs, generated
from vigile.games.d20 import kernel as d20
from vigile.games.dnd35.kernel.tables import unsupported
from vigile.games.starfinder.kernel.tables import unsupported as sf_unsupported
from vigile.rulesets import senses
from vigile.rulesets.senses import Sense
from vigile.scene.actors import Side
from vigile.scene.loader import parse_scenario
from vigile.scene.model import Scenario

RUNS = 150
"""Runs per hand-made case (the engine plays them one by one: about 20 ms each)."""


def bundled(name: str) -> dict[str, Any]:
    """A bundled scenario as data, to change."""
    text = resources.files("vigile.scenarios").joinpath(f"{name}.yaml").read_text("utf-8")
    data: dict[str, Any] = yaml.safe_load(text)
    return data


def scenario_of(data: dict[str, Any]) -> Scenario:
    scenario = parse_scenario(json.dumps(data), fmt="json")
    why = unsupported(scenario) if scenario.ruleset == "dnd35" else sf_unsupported(scenario)
    assert why is None, why
    return scenario


def actor(data: dict[str, Any], name: str) -> dict[str, Any]:
    found: dict[str, Any] = next(a for a in data["actors"] if a["name"] == name)
    return found


# ---------------------------------------------------------------- D&D 3.5, hand-made cases


def visible_wizard() -> dict[str, Any]:
    """[DD-20, DD-20 C] The keep's wizard without her invisibility, at night: the torch by the
    door lights her there, the hay cart hides her, darkness elsewhere (the guards have no
    darkvision; the watchdog's scent and everyone's Listen still work)."""
    data = bundled("dnd35-invisible-intruder")
    actor(data, "Elandra")["invisible"] = False
    data["plans"]["Elandra"][1]["to"] = [20, 12]  # into the hay cart's cover
    return data


def test_dnd35_a_visible_intruder_hides_against_spot_in_the_light_and_the_dark() -> None:
    assert_same_game(scenario_of(visible_wizard()), RUNS, seed=11)


def test_dnd35_a_visible_intruder_by_day_and_with_darkvision() -> None:
    """[DD-20] By day she is seen out of cover; at night a guard with darkvision sees her
    within 60 ft; without a light anywhere the night is lit throughout [R], unless the house
    rule ``light.dark_without_lights`` darkens it."""
    day = visible_wizard()
    day["time"] = "day"
    assert_same_game(scenario_of(day), RUNS // 3, seed=12)
    night = visible_wizard()
    actor(night, "Sergeant Brom")["senses"] = ["darkvision", "hearing"]
    night["lights"] = []
    night["house_rules"] = {"light": {"dark_without_lights": True}}
    assert_same_game(scenario_of(night), RUNS // 3, seed=13)


def at_the_darkvision_range() -> dict[str, Any]:
    """[DD-20 C] The visible wizard starts by waiting two rounds exactly 60 ft (36 by 48) from
    a guard with darkvision (``light.darkvision_ft``: 60), in a night without lights made dark
    by the house rule ``light.dark_without_lights``: the boundary of ``senses.sees_in_dark``."""
    data = visible_wizard()
    data["lights"] = []
    data["house_rules"] = {"light": {"dark_without_lights": True}}
    actor(data, "Elandra")["position"] = [3, 1]
    data["plans"]["Elandra"].insert(0, {"to": [3, 1], "speed": "half", "wait": 2})
    brom = actor(data, "Sergeant Brom")
    brom["senses"] = ["darkvision", "hearing"]
    brom["position"] = [39, 49]
    return data


def test_dnd35_a_visible_intruder_exactly_at_the_darkvision_range() -> None:
    assert_same_game(scenario_of(at_the_darkvision_range()), RUNS // 3, seed=18)


def test_the_kernel_takes_the_darkvision_boundary_from_the_rule(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The kernel's darkness table asks ``senses.sees_in_dark`` short of the range, at it and
    past it: were the rule's ``<=`` a ``<``, the kernel would still play the engine's game.
    The changed rule does change the game here (the guard at exactly 60 ft no longer sees
    her), so the scenario does meet the boundary."""
    scenario = scenario_of(at_the_darkvision_range())
    uniforms = np.random.default_rng(19).random(RUNS * 400 + 1000)
    as_written = engine_runs(scenario, uniforms, RUNS // 3)

    def strictly_within(senses_: Any, *, distance: float, darkvision_range: float) -> bool:
        return Sense.DARKVISION in frozenset(senses_) and distance < darkvision_range

    monkeypatch.setattr(senses, "sees_in_dark", strictly_within)
    assert engine_runs(scenario, uniforms, RUNS // 3) != as_written
    assert_same_game(scenario, RUNS // 3, seed=19)


def test_dnd35_the_intruders_kill_speak_and_end_their_invisibility() -> None:
    """[DD-5, DD-20, DD-1] The rogue speaks, ends his invisibility, strikes, casts it again and
    kills the first guard he reaches (a standard action a round: the spell and the kill in
    rounds of their own, LP-1): the round he kills or speaks he is heard at DC 0; once
    visible, Hide against Spot; a guard that saw him vanish keeps his square until he moves."""
    data = bundled("dnd35-rogue-sneak-attack")
    intruder = next(a for a in data["actors"] if a["side"] == "attackers")
    guards = [a["name"] for a in data["actors"] if a["side"] == "defenders"]
    legs = data["plans"][intruder["name"]]
    legs[0].setdefault("actions", [])
    legs[0]["actions"] = [
        {"do": "speak", "volume": "whisper"},
        {"do": "end-invisibility"},
        *legs[0]["actions"],
    ]
    legs.insert(1, {"actions": [{"do": "cast-invisibility"}]})
    legs.insert(2, {"actions": [{"do": "kill", "target": guards[0]}]})
    assert_same_game(scenario_of(data), RUNS, seed=14)


def test_dnd35_see_invisibility_where_places_may_be_dark() -> None:
    """[DD-19, DD-20] A guard that sees invisible creatures plays Hide against Spot against the
    invisible wizard; struck from the dark, it learns what DD-7 says [R]."""
    data = bundled("dnd35-invisible-intruder")
    actor(data, "Sergeant Brom")["senses"] = ["sight", "hearing", "see-invisible"]
    actor(data, "Guard Pell")["senses"] = ["darkvision", "hearing", "see-invisible"]
    data["plans"]["Elandra"][0]["actions"] = [{"do": "strike", "target": "Guard Pell"}]
    assert_same_game(scenario_of(data), RUNS, seed=15)


def test_dnd35_groping_without_the_companion_touch_attack() -> None:
    """[DD-6, DD-6 C] With the companion rule's touch attack off a grope rolls only the miss
    chance's d100: the guards who hear the wizard grope for her so."""
    data = bundled("dnd35-invisible-intruder")
    rules = data.setdefault("house_rules", {})
    rules.setdefault("companion", {})["grope_touch_attack"] = False
    assert_same_game(scenario_of(data), RUNS, seed=16)


def test_dnd35_more_than_six_named_doors() -> None:
    """The kernel keeps the ways the doors can stand in a run, not all 2^n (doors 8 here)."""
    data = bundled("dnd35-flour")
    width = data["map"]["width"]
    for k in range(8):
        data["walls"].append(
            {"kind": "door", "name": f"cell {k}", "start": [k * 5, 0], "end": [k * 5 + 4, 0]}
        )
    data["walls"].append(
        {"kind": "door", "name": "cross", "start": [0, 16], "end": [width, 16], "open": True}
    )
    legs = data["plans"]["Wisp"]
    legs[0]["actions"] = [{"do": "close-door", "door": "cross"}]
    legs[1]["actions"] = [{"do": "open-door", "door": "cross"}]
    legs = []
    for k, leg in enumerate(data["plans"]["Pip"]):
        opens = {"do": "open-door", "door": f"cell {k}"}
        if leg.get("run"):  # a run is the whole round (LP-1): the door, the next round
            legs += [leg, {"actions": [opens]}]
        else:
            legs.append({**leg, "actions": [*leg.get("actions", []), opens]})
    data["plans"]["Pip"] = legs
    assert_same_game(scenario_of(data), RUNS, seed=16)


def test_dnd35_ethereal_actors() -> None:
    """[DD-17] An ethereal wizard is reached by no sense but see invisibility (Hide against
    Spot) and no blow; an ethereal guard is never the creature on an attacked square. She
    attacks Pell's square (4, 8) from (17, 37), square (3, 7), next to it, after 21.2 ft at
    full speed (30 ft); the next round she strikes Brom, square (6, 4), from (27, 22), square
    (5, 4), 18 ft further: each blow in reach (LP-7), a move and one attack a round (LP-1)."""
    data = bundled("dnd35-invisible-intruder")
    actor(data, "Elandra")["ethereal"] = True
    actor(data, "Sergeant Brom")["senses"] = ["sight", "hearing", "see-invisible"]
    actor(data, "Guard Pell")["ethereal"] = True
    data["plans"]["Elandra"][0:1] = [
        {"to": [17, 37], "speed": "fast", "actions": [{"do": "attack-square", "at": [20, 40]}]},
        {"to": [27, 22], "speed": "fast", "actions": [{"do": "strike", "target": "Sergeant Brom"}]},
    ]
    assert_same_game(scenario_of(data), RUNS, seed=17)


# ---------------------------------------------------------------- Starfinder, hand-made cases


def test_starfinder_see_invisibility_and_invisibility_cast_and_ended() -> None:
    """[SF-7, SF-11 C] The infiltrator ends and casts invisibility; a guard with see
    invisibility finds nothing in it (only cover or darkness hide it from him)."""
    data = bundled("starfinder-infiltration")
    guards = [a for a in data["actors"] if a["side"] == "defenders"]
    guards[0]["senses"] = [*guards[0].get("senses", ["sight"]), "see-invisible"]
    intruder = next(a for a in data["actors"] if a["side"] == "attackers")
    legs = data["plans"][intruder["name"]]
    legs[0]["actions"] = [{"do": "end-invisibility"}, *legs[0].get("actions", [])]
    legs[1]["actions"] = [{"do": "cast-invisibility"}, *legs[1].get("actions", [])]
    assert_same_game(scenario_of(data), RUNS, seed=21)


def test_starfinder_the_sound_distance_kills_and_ethereal_defenders() -> None:
    """[SF-4 C, SF-10] The sniper's Stealth with the sound distance on (+1 per 10 ft); it then
    kills its target (a dead guard perceives nothing and raises no alarm) and speaks; an
    ethereal guard changes nothing Starfinder plays."""
    data = bundled("starfinder-sniper")
    data["house_rules"] = {"companion": {"sound_distance": True}}
    intruder = next(a for a in data["actors"] if a["side"] == "attackers")
    guards = [a for a in data["actors"] if a["side"] == "defenders"]
    guards[-1]["ethereal"] = True
    legs = data["plans"][intruder["name"]]
    legs.append({"actions": [{"do": "kill", "target": guards[0]["name"]}]})
    legs.append({"actions": [{"do": "speak", "volume": "conversation"}]})
    assert_same_game(scenario_of(data), RUNS, seed=22)


# ---------------------------------------------------------------- the ways the doors stand


def door_walk(
    doors: int, intruders: int, ops: list[tuple[int, int, int, int]]
) -> tuple[Any, dict[str, Any]]:
    """A stand-in scenario (``doors`` named doors, the last open) and a walk of one round per
    op: (round, intruder, door, open)."""
    walls = [SimpleNamespace(name=f"d{k}", open=k == doors - 1) for k in range(doors)]
    actors = [SimpleNamespace(side=Side.ATTACKERS) for _ in range(intruders)]
    turns = max((t for t, *_ in ops), default=0) + 1
    op_start = np.zeros(turns * intruders + 1, np.int64)
    rows = []
    for slot in range(turns * intruders):
        for t, i, k, is_open in ops:
            if t * intruders + i == slot:
                rows.append((d20.OP_DOOR, k, is_open, 0))
        op_start[slot + 1] = len(rows)
    walk = {"door_ops": np.array(rows, np.int64).reshape(-1, 4), "op_start": op_start}
    return SimpleNamespace(walls=walls, actors=actors), walk


def test_the_kernel_keeps_the_ways_the_doors_can_stand_in_a_run() -> None:
    """Each intruder has done a first part of its door actions (a caught one does no more):
    eight doors, three actions, six ways (not 2^8); the first is the start; a door action
    leads from each way to the one where the doors then stand."""
    scenario, walk = door_walk(8, 2, [(0, 0, 0, 1), (0, 1, 7, 0), (1, 0, 1, 1)])
    ways, following = d20.door_states(scenario, walk)
    start = 1 << 7
    assert ways[0] == start
    assert sorted(ways) == sorted(opened | closed for opened in (0, 1, 3) for closed in (0, start))
    for r, way in enumerate(ways):
        for k in (0, 1, 7):
            assert ways[following[r, k, 1]] in (way | 1 << k, way)
            assert ways[following[r, k, 0]] in (way & ~(1 << k), way)
    assert ways[following[0, 0, 1]] == start | 1


def test_too_many_ways_for_the_doors_are_refused() -> None:
    """Four intruders each opening and closing doors twelve times: too many choices to list,
    too many doors to keep every way (seven): the kernel refuses the scenario."""
    ops = [(t, i, (t + i) % 7, t % 2) for t in range(12) for i in range(4)]
    scenario, walk = door_walk(7, 4, ops)
    with pytest.raises(d20.NotCovered, match="too many ways"):
        d20.door_states(scenario, walk)
    few = door_walk(6, 4, [(t, i, (t + i) % 6, t % 2) for t, i, *_ in ops])
    assert len(d20.door_states(*few)[0]) <= 64  # six doors: every way is kept


# ---------------------------------------------------------------- random scenarios


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(dnd35_scenarios(featured=True), st.integers(0, 2**32 - 1))
def test_dnd35_the_kernel_plays_the_engines_game_on_random_featured_scenarios(
    text: str, seed: int
) -> None:
    scenario = generated(text)
    assert unsupported(scenario) is None, unsupported(scenario)
    assert_same_game(scenario, 20, seed)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(starfinder_scenarios(featured=True), st.integers(0, 2**32 - 1))
def test_starfinder_the_kernel_plays_the_engines_game_on_random_featured_scenarios(
    text: str, seed: int
) -> None:
    scenario = generated(text)
    assert sf_unsupported(scenario) is None, sf_unsupported(scenario)
    assert_same_game(scenario, 20, seed)
