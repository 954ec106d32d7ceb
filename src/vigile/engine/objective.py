"""Whether the intruders have reached their objective: the same test for every game."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from vigile.engine.board import distance
from vigile.engine.state import Walker
from vigile.scene.actors import Side
from vigile.scene.geometry import point_in_polygon
from vigile.scene.model import Scenario


def reached_by(scenario: Scenario, walkers: Mapping[str, Walker]) -> list[str] | None:
    """The living intruders inside the objective, when that fulfils it (``any`` of them, or
    ``all`` of those named); None while it is not reached or when there is no objective."""
    objective = scenario.objective
    if objective is None:
        return None
    names = set(objective.who) or {n for n, w in walkers.items() if w.side is Side.ATTACKERS}
    inside = []
    for name in sorted(names):
        walker = walkers[name]
        if not walker.alive:
            continue
        if objective.area is not None:
            poly = np.array(objective.area, dtype=np.float64)
            reached = bool(point_in_polygon(walker.x, walker.y, poly))
        else:
            assert objective.at is not None and objective.radius is not None
            reached = distance(walker.at, objective.at) <= objective.radius
        if reached:
            inside.append(name)
    done = bool(inside) if objective.require == "any" else set(inside) == names
    return inside if done else None
