"""Play a scenario: its game (from the registry), its rules (with house rules), its dice, its seed.

:func:`play` plays a scenario to its end. A caller that must keep the game when play stops
half-way (the GM's dice run out, Ctrl-C at a ``--step`` prompt) builds it with
:func:`new_game` and plays it with :func:`play_game`: the game object then holds the log so far.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from vigile import registry
from vigile.dice.source import FaceSource, GivenFaces, RolledFaces
from vigile.engine.events import Event
from vigile.engine.game import Game
from vigile.engine.result import GameResult
from vigile.errors import InputError
from vigile.scene.model import Scenario

MAX_TURNS = 1000


def play(
    scenario: Scenario,
    *,
    seed: int | None = None,
    dice_values: Sequence[int] | None = None,
    turns: int | None = None,
    faces: FaceSource | None = None,
    on_event: Callable[[Event], None] | None = None,
) -> GameResult:
    """Play ``scenario`` to its end (or ``turns`` turns).

    Randomness (scatter dice, and the checks' dice unless given) comes from one generator
    seeded by ``seed``, else the scenario's own seed: the same seed plays the same game. The
    GM's dice (``dice_values``, else the scenario's) replace the checks' rolls, in the order
    the engine asks for them. ``on_event`` sees each event of the log as it happens.
    """
    check_turns(turns)
    game = new_game(scenario, seed=seed, dice_values=dice_values, faces=faces)
    return play_game(game, turns, on_event)


def check_turns(turns: int | None) -> None:
    """Refuse a turn limit out of 1..MAX_TURNS."""
    if turns is not None and not 1 <= turns <= MAX_TURNS:
        raise InputError(f"{turns}: a game lasts 1 to {MAX_TURNS} turns", where="--turns")


def new_game(
    scenario: Scenario,
    *,
    seed: int | None = None,
    dice_values: Sequence[int] | None = None,
    faces: FaceSource | None = None,
) -> Game:
    """The game of ``scenario``, set up (its start event logged) but not played."""
    rng = np.random.default_rng(seed if seed is not None else scenario.seed)
    if faces is None:
        if dice_values is not None:
            faces = GivenFaces(dice_values)
        elif scenario.dice_values is not None:
            faces = GivenFaces(scenario.dice_values, where="dice_values")
        else:
            faces = RolledFaces(rng)
    rules = scenario.rules()
    plugin = registry.get(scenario.ruleset)
    game: Game = plugin.load(plugin.game)(scenario, rules, rng, faces)
    return game


def play_game(
    game: Game, turns: int | None = None, on_event: Callable[[Event], None] | None = None
) -> GameResult:
    """Play a game built by :func:`new_game`; ``on_event`` first sees the events already
    logged (the start), then each one as it is logged."""
    check_turns(turns)
    if on_event is not None:
        for event in list(game.events):
            on_event(event)
        game.on_event = on_event
    return game.play(turns)
