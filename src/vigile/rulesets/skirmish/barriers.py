"""What each kind of barrier does in the skirmish game (SK-V6, SK-N5, SK-G1).

The numbers-and-switches home of this ruling is ``[barrier.*]`` in ``rules.toml``: a wall, a
partition (shoji), a closed door or window blocks sight (SK-V6), counts for noise (SK-N5) and
stops walkers (SK-G1); an open door or window does none of these. The engine's board, the risk
map and the plan checks all build their barriers from :func:`barrier_rule`.
"""

from __future__ import annotations

from dataclasses import dataclass

from vigile.rulesets.data import RuleData

OPEN = "open"
"""The kind an open door or window counts as."""
KINDS = ("wall", "partition", "door", "window", OPEN)


@dataclass(frozen=True)
class BarrierRule:
    """What one kind of barrier does."""

    blocks_sight: bool
    """Stops a line of sight (SK-V6)."""
    counts_for_noise: bool
    """Adds its modifier to a noise check heard through it (SK-N5)."""
    blocks_movement: bool
    """Stops a walker, a patrol bounces off it (SK-G1)."""


def barrier_rule(rules: RuleData, kind: str) -> BarrierRule:
    """The rule of barriers of ``kind`` (``wall``, ``partition``, ``door``, ``window``, or
    ``open`` for an open door or window), from the data file."""
    return BarrierRule(
        blocks_sight=rules.flag(f"barrier.{kind}.blocks_sight"),
        counts_for_noise=rules.flag(f"barrier.{kind}.counts_for_noise"),
        blocks_movement=rules.flag(f"barrier.{kind}.blocks_movement"),
    )


def barrier_rules(rules: RuleData) -> dict[str, BarrierRule]:
    """Every kind's rule, by kind."""
    return {kind: barrier_rule(rules, kind) for kind in KINDS}
