"""Live play's turn (issue 33): the d20 round's actions (LP-1) and a blow's reach (LP-7).

Every figure is worked by hand from RULES.md and the ruleset's data:

* LP-1: a d20 round gives a standard action and a move action, or two move actions (the move
  takes the standard action's place), or one full-round action; listening is free once a round
  (D&D 3.5 ``[actions]``: strike standard, move move, run full, grope standard, listen free).
* LP-7: a melee blow reaches ``alarm.strike_reach_cm`` = 5 cm in the skirmish, the adjacent
  squares (5 ft, or the attacker's ``reach``) in d20; a shot ``alarm.shot_range_cm`` = 60 cm,
  ``blow.shot_range_ft`` = 120 ft, in a line of sight; never at oneself or an ally.
"""

from __future__ import annotations

from typing import Any

import pytest

from vigile.engine.game import Game
from vigile.engine.live import Refusal, parse_action
from vigile.engine.run import new_game
from vigile.io.i18n import Lang, tr
from vigile.rulesets.data import override_issues, shipped
from vigile.rulesets.economy import Cost, RoundAllows, Spent, cost_of, left, round_of, spend
from vigile.scene.loader import load_scenario, parse_scenario

# ---------------------------------------------------------------- scenarios


def d20(ruleset: str, extra_actor: str = "", walls: str = "[]") -> Game:
    """Ash at (12.5, 12.5) (square (2, 2)), her ally Bo at (12.5, 17.5) (square (2, 3)), a
    guard at (22.5, 12.5) (square (4, 2): two squares, 10 ft from Ash); feet, move 30."""
    text = f"""
ruleset: {ruleset}
name: LP-1 and LP-7 in {ruleset}
units: ft
map: {{width: 200, height: 40}}
turns: 3
walls: {walls}
actors:
  - {{name: Ash, side: attackers, position: [12.5, 12.5], move: 30}}
  - {{name: Bo, side: attackers, position: [12.5, 17.5], move: 30}}
  - {{name: Guard, side: defenders, position: [22.5, 12.5], state: posted}}
  - {{name: Far, side: defenders, position: [150, 12.5], state: posted}}
{extra_actor}
"""
    game = new_game(parse_scenario(text), seed=5)
    game.start_live()
    return game


def skirmish(ninja: tuple[float, float], guard: tuple[float, float], wall: bool) -> Game:
    walls = "[{kind: wall, start: [40, 50], end: [60, 50]}]" if wall else "[]"
    text = f"""
ruleset: skirmish
name: LP-7 in the skirmish
map: {{width: 100, height: 100}}
turns: 2
walls: {walls}
actors:
  - {{name: Ninja, side: attackers, position: [{ninja[0]}, {ninja[1]}], dice: {{ninjitsu: 1}}}}
  - {{name: Guard, side: defenders, position: [{guard[0]}, {guard[1]}], dice: 1}}
"""
    game = new_game(parse_scenario(text), seed=5)
    game.start_live()
    return game


def act(game: Game, **action: Any) -> None:
    game.apply(parse_action(action, ruleset=game.scenario.ruleset))


def refused(game: Game, **action: Any) -> Refusal:
    with pytest.raises(Refusal) as error:
        game.apply(parse_action(action, ruleset=game.scenario.ruleset))
    return error.value


# ---------------------------------------------------------------- LP-1, the economy itself


def test_LP1_dnd35_data_costs_and_the_round() -> None:
    rules = shipped("dnd35")
    assert round_of(rules) == RoundAllows(1, 1, True, frozenset({"listen"}))
    assert cost_of(rules, "strike") is Cost.STANDARD
    assert cost_of(rules, "run") is Cost.FULL
    assert cost_of(rules, "grope") is Cost.STANDARD  # DD-6: "au prix d'une action simple"
    assert cost_of(rules, "listen") is Cost.FREE  # DD-5: "au prix d'une action libre"
    assert cost_of(shipped("starfinder"), "hide") is Cost.MOVE  # SF-3
    assert round_of(shipped("skirmish")) is None  # the skirmish keeps its own turn


def test_LP1_grope_then_move_fits_listening_is_free_once_a_round() -> None:
    rules = shipped("dnd35")
    allows = round_of(rules)
    assert allows is not None
    # grope: the standard action (1 - 1 = 0 left); the move action is still there (1)
    groped = spend(allows, Spent(), "grope", cost_of(rules, "grope"))
    assert groped is not None and left(allows, groped) == (0, 1)
    moved = spend(allows, groped, "move", cost_of(rules, "move"))
    assert moved is not None and left(allows, moved) == (0, 0)
    # listening costs nothing (still 0 and 0 left), but only once a round
    listened = spend(allows, moved, "listen", cost_of(rules, "listen"))
    assert listened is not None and left(allows, listened) == (0, 0)
    assert spend(allows, listened, "listen", Cost.FREE) is None
    # with nothing spent, listening leaves the whole round: 1 standard, 1 + 1 move
    first = spend(allows, Spent(), "listen", Cost.FREE)
    assert first is not None and left(allows, first) == (1, 2)


def test_LP1_a_house_rule_cost_must_be_one_of_the_words() -> None:
    rules = shipped("dnd35")
    assert override_issues(rules.values, {"actions": {"strike": "move"}}) == []
    (issue,) = override_issues(rules.values, {"actions": {"strike": "twice"}})
    assert "standard, move, full, free" in issue[1]
    (issue,) = override_issues(rules.values, {"actions": {"strike": 3}})
    assert "must be a word" in issue[1]


# ---------------------------------------------------------------- LP-1, live


@pytest.mark.parametrize("ruleset", ["dnd35", "starfinder"])
def test_LP1_move_and_attack_then_a_second_attack_is_refused(ruleset: str) -> None:
    game = d20(ruleset)
    # a move of 5 ft at half speed (15 ft a move action), then a strike at the adjacent guard
    act(game, do="move", actor="Ash", to=[17.5, 12.5])
    act(game, do="strike", actor="Ash", target="Guard")
    # the standard action is spent and the move too: 0 and 0 left
    error = refused(game, do="strike", actor="Ash", target="Guard")
    assert (error.key, error.rule) == ("live.refusal.economy_standard", "LP-1")
    assert (error.params["standard"], error.params["move"]) == (0, 0)
    # the round is each creature's own: Bo (12.5, 17.5) still shoots at the guard, 11.2 ft
    act(game, do="strike", actor="Bo", target="Guard", ranged=True)
    # and the end of the turn gives every creature a new round
    act(game, do="end-turn")
    assert game.live_spent == {}


@pytest.mark.parametrize("ruleset", ["dnd35", "starfinder"])
def test_LP1_a_double_move_then_no_attack(ruleset: str) -> None:
    game = d20(ruleset)
    act(game, do="move", actor="Ash", to=[17.5, 12.5])
    act(game, do="move", actor="Ash", to=[17.5, 17.5])  # the second move: the standard action
    assert game.by_name["Ash"].at == (17.5, 17.5)
    # square (3, 3) is next to the guard's (4, 2): in reach, but no action is left
    error = refused(game, do="strike", actor="Ash", target="Guard")
    assert (error.key, error.rule) == ("live.refusal.economy_standard", "LP-1")
    assert (error.params["standard"], error.params["move"]) == (0, 0)
    assert refused(game, do="move", actor="Ash", to=[17.5, 12.5]).key == "live.refusal.economy_move"


@pytest.mark.parametrize("ruleset", ["dnd35", "starfinder"])
def test_LP1_a_run_takes_the_whole_round(ruleset: str) -> None:
    game = d20(ruleset)
    act(game, do="move", actor="Ash", to=[17.5, 12.5], run=True)
    for action in (
        {"do": "strike", "actor": "Ash", "target": "Guard"},
        {"do": "move", "actor": "Ash", "to": [17.5, 17.5]},
        {"do": "open-door", "actor": "Ash", "door": "none"},
    ):
        error = refused(game, **action)
        assert error.rule == "LP-1"
        assert (error.params["standard"], error.params["move"]) == (0, 0)
    # nor a run after a move: a full-round action needs the whole round
    act(game, do="move", actor="Bo", to=[12.5, 22.5])
    assert refused(game, do="move", actor="Bo", to=[12.5, 27.5], run=True).key == (
        "live.refusal.economy_full"
    )


def test_LP1_starfinder_hiding_still_is_a_move_action() -> None:
    """SF-3: hiding while staying still is a move action: hide, then a move (the standard
    action's place), then no attack."""
    game = d20("starfinder")
    act(game, do="hide", actor="Ash")
    act(game, do="move", actor="Ash", to=[17.5, 12.5])
    assert refused(game, do="strike", actor="Ash", target="Guard").rule == "LP-1"


def test_LP1_the_refusal_reads_in_both_languages() -> None:
    game = d20("dnd35")
    act(game, do="move", actor="Ash", to=[17.5, 12.5], run=True)
    error = refused(game, do="strike", actor="Ash", target="Guard")
    assert tr(error.key, Lang.EN, error.params) == (
        "Ash cannot strike now (a standard action): left this round, 0 standard and 0 move "
        "action(s)"
    )
    assert tr(error.key, Lang.FR, error.params).startswith(
        "Ash ne peut pas faire strike maintenant"
    )


def test_LP1_the_skirmish_keeps_its_turn_one_move_then_its_actions() -> None:
    """The skirmish: one move, then several actions (no LP-1 round)."""
    game = skirmish((50, 46), (50, 50), wall=False)
    act(game, do="move", actor="Ninja", to=[50, 47])
    assert refused(game, do="move", actor="Ninja", to=[50, 46]).key == "live.refusal.moved"
    act(game, do="strike", actor="Ninja", target="Guard")
    act(game, do="strike", actor="Ninja", target="Guard")  # 3 cm away: in reach, twice


# ---------------------------------------------------------------- LP-7, the skirmish


def raid() -> Game:
    scenario = load_scenario("night-raid")
    game = new_game(scenario.model_copy(update={"plans": {}}), seed=3)
    game.start_live()
    return game


def test_LP7_the_issue_kill_from_across_the_compound_is_refused() -> None:
    """Kage (60, 4), Lord Nagamasa (160, 75): sqrt(100² + 71²) = sqrt(15041) = 122.6 cm, beyond
    the 5 cm of a melee blow, and beyond the 60 cm of a shot."""
    game = raid()
    error = refused(game, do="kill", actor="Kage", target="Lord Nagamasa")
    assert (error.key, error.rule) == ("live.refusal.out_of_reach", "LP-7")
    assert error.params["distance"] == pytest.approx(122.64, abs=0.01)
    assert error.params["reach"] == 5
    shot = refused(game, do="kill", actor="Kage", target="Lord Nagamasa", ranged=True)
    assert (shot.key, shot.params["reach"]) == ("live.refusal.out_of_range", 60)
    assert tr(error.key, Lang.EN, error.params) == (
        "Lord Nagamasa is 122.64 cm from Kage: beyond its reach of 5 cm"
    )
    assert "allonge de 5 cm" in tr(error.key, Lang.FR, error.params)
    assert game.by_name["Lord Nagamasa"].alive


def test_LP7_never_oneself_never_an_ally() -> None:
    game = raid()
    assert refused(game, do="kill", actor="Kage", target="Kage").key == "live.refusal.self_blow"
    error = refused(game, do="strike", actor="Kage", target="Tsuki")
    assert (error.key, error.rule) == ("live.refusal.ally_blow", "LP-7")
    assert game.by_name["Tsuki"].alive


def test_LP7_skirmish_melee_within_5_cm_and_not_through_a_wall() -> None:
    # 4 cm apart, nothing between: the kill is done
    game = skirmish((50, 46), (50, 50), wall=False)
    act(game, do="kill", actor="Ninja", target="Guard")
    assert not game.by_name["Guard"].alive
    # 4 cm apart, the wall y = 50 between (48 and 52): refused
    game = skirmish((50, 48), (50, 52), wall=True)
    error = refused(game, do="kill", actor="Ninja", target="Guard")
    assert (error.key, error.rule, error.params["distance"]) == (
        "live.refusal.blow_wall",
        "LP-7",
        4,
    )


def test_LP7_skirmish_a_shot_needs_its_range_and_a_line_of_sight() -> None:
    # 20 cm (within 60) through the wall y = 50: no line of sight (SK-V6)
    game = skirmish((50, 40), (50, 60), wall=True)
    error = refused(game, do="kill", actor="Ninja", target="Guard", ranged=True)
    assert (error.key, error.rule, error.params["distance"]) == ("live.refusal.no_line", "LP-7", 20)
    # 20 cm, no wall: the shot is made
    game = skirmish((50, 40), (50, 60), wall=False)
    act(game, do="kill", actor="Ninja", target="Guard", ranged=True)
    assert not game.by_name["Guard"].alive


# ---------------------------------------------------------------- LP-7, d20


@pytest.mark.parametrize("ruleset", ["dnd35", "starfinder"])
def test_LP7_d20_melee_reaches_the_adjacent_squares(ruleset: str) -> None:
    game = d20(ruleset)
    # squares (2, 2) and (4, 2): two squares, 10 ft, beyond a reach of 5 ft
    error = refused(game, do="strike", actor="Ash", target="Guard")
    assert (error.key, error.rule) == ("live.refusal.out_of_reach", "LP-7")
    assert (error.params["distance"], error.params["reach"]) == (10, 5)
    # a shot at 10 ft is within 120 ft, in a line of sight
    act(game, do="strike", actor="Ash", target="Guard", ranged=True)
    # Far at (150, 12.5) from Bo (12.5, 17.5): sqrt(137.5² + 5²) = 137.59 ft > 120
    error = refused(game, do="strike", actor="Bo", target="Far", ranged=True)
    assert (error.key, error.params["reach"]) == ("live.refusal.out_of_range", 120)
    assert error.params["distance"] == pytest.approx(137.59, abs=0.01)
    assert refused(game, do="strike", actor="Bo", target="Ash").key == "live.refusal.ally_blow"


def test_LP7_d20_a_reach_weapon_reaches_two_squares() -> None:
    game = d20(
        "dnd35",
        "  - {name: Pike, side: attackers, position: [12.5, 7.5], move: 30, bonuses: {reach: 10}}",
    )
    # Pike's square (2, 1), the guard's (4, 2): two squares, 10 ft, within reach 10
    act(game, do="strike", actor="Pike", target="Guard")


def test_LP7_d20_an_attack_on_a_square_needs_its_reach_too() -> None:
    game = d20("dnd35")
    # square (5, 2) from (2, 2): three squares, 15 ft
    error = refused(game, do="attack-square", actor="Ash", at=[27, 12])
    assert (error.key, error.params["distance"], error.params["target"]) == (
        "live.refusal.out_of_reach",
        15,
        "[27, 12]",
    )
