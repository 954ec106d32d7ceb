"""The skirmish game's own plan actions (its plug-in's ``plan_actions``): the grapple (SK-N2).

A leg's ``climb`` goes over walls on a grapple thrown at the previous waypoint
(:mod:`vigile.scene.routes`); no d20 rule throws one, so only a skirmish plan may.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

from vigile.scene.actors import MODEL_CONFIG, Point
from vigile.scene.plans import ClimbAid


class GrappleSurface(StrEnum):
    """What a grapple lands on; only tile and stone make noise (SK-N2)."""

    TILE = "tile"
    STONE = "stone"


class ThrowGrapple(ClimbAid):
    """Throw a grapple wrapped in cloth (SK-N2: 4+ onto tile or stone), to climb the next leg."""

    model_config = MODEL_CONFIG

    do: Literal["throw-grapple"]
    """The action."""
    at: Point | None = None
    """Where the grapple lands; absent: the next leg's waypoint."""
    onto: GrappleSurface | None = None
    """The surface it lands on; absent: inferred from the surfaces at ``at``."""


ACTIONS = (ThrowGrapple,)
"""The skirmish's own plan actions, beside the shared ones (:data:`vigile.scene.plans.Action`)."""
