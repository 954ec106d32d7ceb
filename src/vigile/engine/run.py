"""Play a scenario: pick its ruleset's game, its rules (with house rules), its dice and its seed."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from vigile.dice.source import FaceSource, GivenFaces, RolledFaces
from vigile.engine.result import GameResult
from vigile.errors import InputError
from vigile.scene.model import Ruleset, Scenario

MAX_TURNS = 1000


def play(
    scenario: Scenario,
    *,
    seed: int | None = None,
    dice_values: Sequence[int] | None = None,
    turns: int | None = None,
    faces: FaceSource | None = None,
) -> GameResult:
    """Play ``scenario`` to its end (or ``turns`` turns).

    Randomness (scatter dice, and the checks' dice unless given) comes from one generator
    seeded by ``seed``, else the scenario's own seed: the same seed plays the same game. The
    GM's dice (``dice_values``, else the scenario's) replace the checks' rolls, in the order
    the engine asks for them.
    """
    if turns is not None and not 1 <= turns <= MAX_TURNS:
        raise InputError(f"{turns}: a game lasts 1 to {MAX_TURNS} turns", where="--turns")
    rng = np.random.default_rng(seed if seed is not None else scenario.seed)
    values = dice_values if dice_values is not None else scenario.dice_values
    if faces is None:
        faces = GivenFaces(values) if values is not None else RolledFaces(rng)
    rules = scenario.rules()
    if scenario.ruleset is Ruleset.SKIRMISH and scenario.encounter is not None:
        from vigile.engine.encounter import EncounterGame

        return EncounterGame(scenario, rules, rng, faces).play(turns)
    if scenario.ruleset is Ruleset.SKIRMISH:
        from vigile.engine.skirmish import SkirmishGame

        return SkirmishGame(scenario, rules, rng, faces).play(turns)
    from vigile.engine.d20 import D20Game

    return D20Game(scenario, rules, rng, faces).play(turns)
