"""Patrols: a patrolling guard moves by scatter die each turn (SK-G1).

The rule's numbers are ``turn.patrol_cm`` (10 cm), ``turn.patrol_bounces`` (once a turn) and
``turn.patrol_margin_mm`` (it turns 5 mm short of a wall's line) in ``rules.toml``; the board
reflects a move off the walls it meets (angle in = angle out). The turn engine draws the die
here; the compiled kernel draws the same uniform from its stream (2π u).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from vigile.rulesets.data import RuleData

RULE = "SK-G1"


@dataclass(frozen=True)
class PatrolMove:
    """How far a patrol goes in a turn, and how often it may bounce off an obstacle [SK-G1]."""

    length_cm: float
    """10 cm (SK-G1: "mvt de 10 cm")."""
    bounces: int
    """[R] Once each turn: the text says a patrol bounces, not how often."""
    margin_cm: float
    """[R] How far short of a wall's line (or the map's edge) it stops or turns: a guard on
    the line would see and hear through the wall (``turn.patrol_margin_mm``, 5 mm)."""


def patrol_move(rules: RuleData) -> PatrolMove:
    """A patrol's move, from the data file [SK-G1]."""
    return PatrolMove(
        float(rules.num("turn.patrol_cm")),
        int(rules.num("turn.patrol_bounces")),
        rules.num("turn.patrol_margin_mm") / 10,
    )


def scatter_die(rng: np.random.Generator) -> float:
    """The direction a scatter die shows, in radians [SK-G1; R: uniform over the circle, the
    die's arrow read exactly]."""
    return float(rng.uniform(0.0, 2.0 * math.pi))
