"""Each built-in game's own plan actions live in its plug-in (issue 35), not in the shared
legs: the skirmish's grapple (SK-N2, games/skirmish/actions.py), the d20 games' invisibility
(DD-1, SF-7), D&D 3.5's attack on a square (DD-9) and Starfinder's sniping (SF-10)
(games/d20/actions.py). A game's plans, its live play and its JSON schema take its own
actions and the shared ones, never another game's."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from vigile.engine.live import live_models, parse_action
from vigile.errors import InputError
from vigile.scene.games import SHARED_ACTIONS, action_name, own_actions
from vigile.scene.loader import ScenarioValidationError, parse_scenario
from vigile.scene.schema import scenario_json_schema

SHARED = {"strike", "kill", "speak", "open-door", "close-door"}
OWN = {
    "skirmish": {"throw-grapple"},
    "dnd35": {"cast-invisibility", "end-invisibility", "attack-square"},
    "starfinder": {"cast-invisibility", "end-invisibility", "snipe"},
}
EVERY_OWN = set().union(*OWN.values())
EXAMPLE: dict[str, dict[str, Any]] = {
    "throw-grapple": {"onto": "tile"},
    "cast-invisibility": {},
    "end-invisibility": {},
    "attack-square": {"at": [80, 20]},
    "snipe": {"target": "Guard"},
}
INTRUDER = {
    "skirmish": "dice: {ninjitsu: 2}",
    "dnd35": "bonuses: {hide: 4}",
    "starfinder": "bonuses: {stealth: 4}",
}


def scenario(ruleset: str, action: str) -> str:
    return (
        f"ruleset: {ruleset}\nname: actions\nmap: {{width: 100, height: 50}}\n"
        "actors:\n"
        f"  - {{name: Sneak, side: attackers, position: [5, 5], {INTRUDER[ruleset]}}}\n"
        "  - {name: Guard, side: defenders, position: [80, 20]}\n"
        f"plans:\n  Sneak:\n    - {{to: [8, 8], actions: [{action}]}}\n"
    )


def test_the_shared_legs_take_only_what_every_game_plays() -> None:
    assert {action_name(model) for model in SHARED_ACTIONS} == SHARED


@pytest.mark.parametrize("ruleset", sorted(OWN))
def test_each_plug_in_brings_its_own_actions(ruleset: str) -> None:
    assert {action_name(model) for model in own_actions(ruleset)} == OWN[ruleset]


@pytest.mark.parametrize(
    ("ruleset", "do"), [(g, do) for g in sorted(OWN) for do in sorted(EVERY_OWN)]
)
def test_a_plan_takes_its_game_s_actions_only(ruleset: str, do: str) -> None:
    """Its own action validates; another game's is refused, naming it and its game."""
    fields = "".join(f", {key}: {value}" for key, value in EXAMPLE[do].items())
    text = scenario(ruleset, "{do: " + do + fields + "}")
    if do in OWN[ruleset]:
        found = parse_scenario(text).plans["Sneak"][0].actions[0]
        assert action_name(type(found)) == do
        return
    refused = f"{ruleset} plans have no action '{do}'"
    with pytest.raises(ScenarioValidationError, match=refused) as error:
        parse_scenario(text)
    owners = sorted(game for game, dos in OWN.items() if do in dos)
    assert all(game in str(error.value) for game in owners)
    # line 9: the leg (ruleset, name, map, actors and its two, plans, Sneak, then the leg)
    assert "scenario>:9: plans.Sneak[0].actions[0]: " in str(error.value)


@pytest.mark.parametrize("ruleset", sorted(OWN))
def test_live_play_offers_a_game_s_actions_on_its_own_map_only(ruleset: str) -> None:
    dos = {action_name(model) for model in live_models(ruleset)}
    assert SHARED | OWN[ruleset] <= dos
    assert not (EVERY_OWN - OWN[ruleset]) & dos
    for do in EVERY_OWN:
        data = {"do": do, "actor": "Sneak", **EXAMPLE[do]}
        if do in OWN[ruleset]:
            assert action_name(type(parse_action(data, ruleset=ruleset))) == do
        else:
            with pytest.raises(InputError, match=f"unknown action '{do}'"):
                parse_action(data, ruleset=ruleset)


def actions_in(schema: dict[str, Any]) -> set[str]:
    """The ``do`` of every action a schema describes."""
    return set(re.findall(r'"do": \{"const": "([a-z-]+)"', json.dumps(schema)))


@pytest.mark.parametrize("ruleset", sorted(OWN))
def test_a_game_s_schema_lists_its_actions(ruleset: str) -> None:
    assert actions_in(scenario_json_schema(ruleset)) == SHARED | OWN[ruleset]


def test_the_schema_of_any_game_lists_every_action() -> None:
    assert actions_in(scenario_json_schema()) == SHARED | EVERY_OWN
