"""A game keeps its own state of each creature (``Game.walker_type``), not the engine.

The shared walker (:class:`vigile.engine.state.Walker`) holds what every game keeps; a d20
game's walkers are :class:`~vigile.games.d20.walker.D20Walker` (an invisibility cast or ended,
DD-1, SF-7), a D&D 3.5 game's :class:`~vigile.games.dnd35.walker.Dnd35Walker` (the flour on it,
DD-10). That state travels with the game: live play's checkpoints and its undo give it back.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from vigile.engine.run import new_game
from vigile.engine.state import Walker
from vigile.games.d20.round import is_invisible
from vigile.games.d20.walker import D20Walker, d20_walker
from vigile.games.dnd35.walker import Dnd35Walker, dnd35_walker
from vigile.live import Encounter
from vigile.live import checkpoints as ck
from vigile.scene.loader import bundled_path, load_scenario
from vigile.store import Store

D20_STATE = {"invisible", "floured"}


def test_the_engine_walker_holds_no_game_state() -> None:
    """The shared walker names no d20 field: a game adds its own."""
    assert not D20_STATE & {f.name for f in dataclasses.fields(Walker)}
    skirmish = new_game(load_scenario(bundled_path("night-raid")), seed=1)
    assert all(type(w) is Walker for w in skirmish.walkers)
    with pytest.raises(TypeError, match="not a d20 game's walker"):
        d20_walker(skirmish.walkers[0])


def test_each_d20_game_makes_walkers_of_its_own_type() -> None:
    dnd = new_game(load_scenario(bundled_path("dnd35-invisible-intruder")), seed=1)
    assert all(type(w) is Dnd35Walker for w in dnd.walkers)
    starfinder = new_game(load_scenario(bundled_path("starfinder-infiltration")), seed=1)
    assert all(type(w) is D20Walker for w in starfinder.walkers)
    assert not hasattr(starfinder.walkers[0], "floured")  # flour is D&D 3.5's alone (DD-10)
    with pytest.raises(TypeError, match=r"not a D&D 3\.5 walker"):
        dnd35_walker(starfinder.walkers[0])


def test_a_checkpoint_keeps_the_d20_walkers_own_state() -> None:
    """The checkpoint's bytes (its restricted unpickler) give back the d20 state."""
    game = new_game(load_scenario(bundled_path("dnd35-invisible-intruder")), seed=2)
    elandra = dnd35_walker(game.by_name["Elandra"])
    elandra.invisible, elandra.floured = False, 3
    data = ck.dump_state(game, events=game.events, scenario=game.scenario)
    back = ck.load_state(data, events=list(game.events), scenario=game.scenario)
    again = dnd35_walker(back.by_name["Elandra"])
    assert (again.invisible, again.floured) == (False, 3)
    assert not is_invisible(again)


def test_live_play_restores_an_invisibility_after_a_restart_and_an_undo(tmp_path: Path) -> None:
    """Elandra starts invisible (her actor field, DD-1). She ends it, then casts it again: a
    restart reads the checkpoint after each, and an undo of the cast leaves her visible."""
    text = bundled_path("dnd35-invisible-intruder").read_text("utf-8")
    with Store(f"sqlite:///{tmp_path / 'v.db'}") as store:
        made, _ = Encounter.create(store, text=text, fmt="yaml", source="keep.yaml")
        encounter = Encounter(store, made.id, every=1)

        def elandra(of: Encounter) -> D20Walker:
            return d20_walker(of.state().game.by_name["Elandra"])

        assert elandra(encounter).invisible is None and is_invisible(elandra(encounter))
        encounter.act({"do": "end-invisibility", "actor": "Elandra"})
        assert elandra(Encounter(store, made.id)).invisible is False
        encounter.act({"do": "cast-invisibility", "actor": "Elandra"})
        assert elandra(Encounter(store, made.id)).invisible is True
        encounter.undo()
        assert elandra(encounter).invisible is False
        assert elandra(Encounter(store, made.id)).invisible is False
