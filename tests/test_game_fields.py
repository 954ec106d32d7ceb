"""Each built-in game's own actor fields live in its plug-in (issue 35), not in the shared
actor: the d20 games' bonuses and invisibility (games/d20/fields.py), the skirmish's outfit,
ninja and talking (games/skirmish/fields.py). A scenario's actors carry its game's fields
only, and the games' accessors refuse another game's actor."""

from __future__ import annotations

import pytest

from vigile import registry
from vigile.games.d20.fields import D20Fields, d20_actor, is_d20
from vigile.games.skirmish.fields import SkirmishFields, is_skirmish, skirmish_actor
from vigile.scene.actors import Actor, Skill
from vigile.scene.loader import parse_scenario

D20_FIELDS = {
    "bonuses",
    "invisible",
    "ethereal",
    "incorporeal",
    "breathing",
    "distracted",
    "asleep",
}
SKIRMISH_FIELDS = {"dice", "stealth_dice", "outfit", "ninja", "talks"}


def scenario(ruleset: str, intruder: str) -> str:
    return (
        f"ruleset: {ruleset}\nname: fields\nmap: {{width: 100, height: 50}}\n"
        "actors:\n"
        f"  - {{name: Sneak, side: attackers, position: [5, 5]{intruder}}}\n"
        "  - {name: Guard, side: defenders, position: [80, 20]}\n"
    )


def test_the_shared_actor_holds_no_game_s_own_field() -> None:
    assert not (D20_FIELDS | SKIRMISH_FIELDS) & set(Actor.model_fields)
    assert set(D20Fields.model_fields) == D20_FIELDS
    assert set(SkirmishFields.model_fields) == SKIRMISH_FIELDS


def test_each_plug_in_names_its_fields() -> None:
    """Both d20 games share one model; the skirmish has its own."""
    fields = {name: registry.get(name).actor_fields for name in ("starfinder", "dnd35", "skirmish")}
    assert fields == {
        "starfinder": "vigile.games.d20.fields:D20Fields",
        "dnd35": "vigile.games.d20.fields:D20Fields",
        "skirmish": "vigile.games.skirmish.fields:SkirmishFields",
    }


@pytest.mark.parametrize("ruleset", ["starfinder", "dnd35"])
def test_a_d20_actor_carries_the_d20_fields(ruleset: str) -> None:
    """DD-1, SF-7: the scenario's invisible intruder is invisible; a guard not said to be
    breathes (DD-3: only constructs and undead do not)."""
    found = parse_scenario(scenario(ruleset, ", invisible: true, bonuses: {dex: 3}"))
    sneak, guard = found.actor("Sneak"), found.actor("Guard")
    assert is_d20(sneak) and not is_skirmish(sneak)
    assert d20_actor(sneak).invisible and d20_actor(sneak).bonuses is not None
    assert d20_actor(guard).breathing and not d20_actor(guard).invisible
    with pytest.raises(TypeError, match="'Sneak' is not a skirmish actor"):
        skirmish_actor(sneak)


def test_a_skirmish_actor_carries_the_skirmish_fields() -> None:
    """SK-A3: a ninja; SK-V4: ill-suited clothes; SK-D1: dice per skill, one die untrained."""
    found = parse_scenario(
        scenario("skirmish", ", ninja: true, outfit: unsuited, dice: {ninjitsu: 3}")
    )
    sneak = found.actor("Sneak")
    assert is_skirmish(sneak) and not is_d20(sneak)
    assert skirmish_actor(sneak).ninja and skirmish_actor(sneak).outfit.value == "unsuited"
    assert skirmish_actor(sneak).pool(Skill.NINJITSU) == 3
    assert skirmish_actor(sneak).detection_pool() == 1
    assert skirmish_actor(found.actor("Guard")).dice == 1
    assert not hasattr(sneak, "invisible")
    with pytest.raises(TypeError, match="'Sneak' is not a d20 game's actor"):
        d20_actor(sneak)


@pytest.mark.parametrize("game", ["skirmish", "dnd35", "starfinder"])
def test_each_game_s_scenario_checks_live_in_its_package(game: str) -> None:
    # the checks shared by every game (vigile.games.checks) name none; a game's own are its
    plugin = registry.get(game)
    assert plugin.scenario_issues is not None
    assert plugin.scenario_issues.startswith(f"vigile.games.{game}.")


@pytest.mark.parametrize(
    ("ruleset", "bonus", "uses"),
    [("dnd35", "perception", "spot, listen"), ("starfinder", "spot", "perception, stealth")],
)
def test_a_d20_game_refuses_the_other_s_skill_naming_its_own(
    ruleset: str, bonus: str, uses: str
) -> None:
    from vigile.scene.loader import check_text

    text = scenario(ruleset, f", bonuses: {{{bonus}: 3}}")
    found, issues = check_text(text, file="fields.yaml")
    assert found is None
    assert [i.field for i in issues] == [f"actors[0].bonuses.{bonus}"]
    assert f"{ruleset} has no {bonus}; it uses {uses}" in issues[0].message
