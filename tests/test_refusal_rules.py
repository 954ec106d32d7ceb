"""Every refusal of a move names its rule (issue 36: "Kage moves at most 7.5 cm a turn..."
cited none): how far and how often one moves in a turn is LP-1 in every game (the d20 games'
move action, the skirmish's own turn of one move at its attitude's rate)."""

from __future__ import annotations

import pytest

from vigile.engine.live import Refusal, parse_action
from vigile.engine.run import new_game
from vigile.scene.loader import load_scenario


def live(name: str):  # type: ignore[no-untyped-def]
    scenario = load_scenario(name)
    game = new_game(scenario.model_copy(update={"plans": {}}), seed=3)
    game.start_live()
    return game


def test_a_skirmish_move_too_far_and_a_second_move_cite_lp1() -> None:
    game = live("night-raid")
    kage = game.by_name["Kage"]  # at (60, 4); half speed: 7.5 cm a turn (Kage's move 15)
    with pytest.raises(Refusal) as far:
        game.apply(parse_action({"do": "move", "actor": "Kage", "to": [60, 20], "speed": "half"}))
    assert far.value.rule == "LP-1" and str(far.value).endswith("[LP-1]")
    assert "moves at most 7.5 cm" in str(far.value) and kage.at == (60, 4)
    game.apply(parse_action({"do": "move", "actor": "Kage", "to": [60, 10], "speed": "half"}))
    with pytest.raises(Refusal) as again:
        game.apply(parse_action({"do": "move", "actor": "Kage", "to": [60, 12], "speed": "half"}))
    assert again.value.key == "live.refusal.moved" and again.value.rule == "LP-1"


def test_a_d20_move_beyond_its_speed_cites_lp1() -> None:
    game = live("dnd35-invisible-intruder")
    elandra = game.by_name["Elandra"]  # at (2, 22), speed 30 ft: 15 ft at half speed
    assert elandra.at == (2, 22)
    with pytest.raises(Refusal) as refused:
        game.apply(parse_action({"do": "move", "actor": "Elandra", "to": [40, 22]}))
    assert refused.value.key == "live.refusal.too_far" and refused.value.rule == "LP-1"
    assert "moves at most 15 ft" in str(refused.value) and "38 ft away" in str(refused.value)
