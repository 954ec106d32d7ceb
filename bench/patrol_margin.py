"""How often a patrol's move ends on a wall's line, by the margin it turns short (SK-G1 [R]).

A guard whose position rounds onto a wall's line (the views print 0.01 cm) sees and hears
through that wall. The same patrols on the night raid's board (4,000 posted at least 1 cm
from any wall, 50 turns each), turning short of a wall's line by the tracer's default 1e-6
(the old rule: 1e-6 back along the path) and by the ruleset's ``turn.patrol_margin_mm``
(from the line, ``margin / cos`` back along the path). Ends within 0.005 cm of a wall read as
on it in the views (0.01 cm); the rest of them stand in inside corners, or ended a walk near
a wall they never met.

    .venv/bin/python bench/patrol_margin.py
"""

from __future__ import annotations

import math

import numpy as np

from vigile.engine.board import Board
from vigile.games.skirmish.raid import skirmish_board
from vigile.rulesets.data import shipped
from vigile.rulesets.skirmish.patrol import patrol_move
from vigile.scene.geometry import EPSILON, trace_along
from vigile.scene.loader import bundled_path, load_scenario


def nearest_line(board: Board, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Each point's distance to the nearest movement-blocking wall segment or map edge."""
    b = board.barriers
    chosen = b.blocks_movement
    x1, y1, x2, y2 = (a[chosen][None, :] for a in (b.x1, b.y1, b.x2, b.y2))
    px, py = x[:, None], y[:, None]
    dx, dy = x2 - x1, y2 - y1
    t = np.clip(((px - x1) * dx + (py - y1) * dy) / np.maximum(dx * dx + dy * dy, 1e-300), 0, 1)
    walls = np.hypot(px - (x1 + t * dx), py - (y1 + t * dy)).min(axis=1)
    edges = np.minimum.reduce([x, y, board.width - x, board.height - y])
    result: np.ndarray = np.minimum(walls, edges)
    return result


def main() -> None:
    rules = shipped("skirmish")
    scenario = load_scenario(bundled_path("night-raid"))
    board = skirmish_board(scenario, rules)
    move = patrol_move(rules)
    rng = np.random.default_rng(7)
    walkers, turns = 4_000, 50
    x = rng.uniform(0.0, board.width, 4 * walkers)
    y = rng.uniform(0.0, board.height, 4 * walkers)
    clear = nearest_line(board, x, y) >= 1.0  # where a scenario may post a patrol
    x, y = x[clear][:walkers], y[clear][:walkers]
    print(f"night raid: {x.size} patrols x {turns} turns of {move.length_cm} cm,", end=" ")
    print(f"{move.bounces} bounce")
    print(f"{'turns short by':>16} {'met a wall':>11} {'ends < 0.005 cm':>16} {'< 0.1 cm':>9}")
    for margin in (EPSILON, move.margin_cm):
        px, py, met, near = x.copy(), y.copy(), 0, np.zeros(0)
        turn_rng = np.random.default_rng(8)
        for _ in range(turns):
            angle = turn_rng.uniform(0.0, 2.0 * math.pi, px.size)
            m = trace_along(
                board.barriers, px, py, np.cos(angle), np.sin(angle), move.length_cm,
                board.width, board.height, move.bounces, epsilon=margin,
            )  # fmt: skip
            px, py = m.x, m.y
            met += int(((m.bounces > 0) | m.stopped).sum())
            near = np.concatenate([near, nearest_line(board, px, py)])
        print(
            f"{margin:>13g} cm {met / near.size:>11.2%} {(near < 0.005).mean():>16.3%}"
            f" {(near < 0.1).mean():>9.3%}"
        )


if __name__ == "__main__":
    main()
