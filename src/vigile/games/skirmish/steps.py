"""The steps of a skirmish turn, as typed values: the seam between plan-walking and the checks.

A skirmish turn is a sequence of steps: the patrols move, each intruder's plan makes fumble
rolls, noises, kills and strikes, every guard looks, the detections are resolved. The turn
engine carries each out with :meth:`~vigile.games.skirmish.raid.SkirmishGame.take`; the batched
simulator's schedule (:mod:`vigile.games.skirmish.schedule`) takes the same steps from the same
plan-walking and records the intruders' side instead of rolling: one public method to
override, not the engine's private ones.
"""

from __future__ import annotations

from dataclasses import dataclass

from vigile.awareness.vocabulary import Surface
from vigile.engine.state import Point, Walker
from vigile.rulesets.skirmish.noise import NoiseEvent


@dataclass(frozen=True, eq=False)
class PatrolStep:
    """Every patrolling guard moves by scatter die, a group as one (SK-G1)."""


@dataclass(frozen=True, eq=False)
class FumbleStep:
    """``maker`` rolls its pool for a fumble: a fast move or an action meant to be silent
    (SK-N3); a fumble is a noise."""

    maker: Walker
    doing: str
    """``move``, ``climb``, ``kill``, ``strike``, ``open-door``, ``close-door``."""


@dataclass(frozen=True, eq=False)
class NoiseStep:
    """A noise an intruder makes on purpose or by its action (a grapple, a speech): every
    defender who does not watch the maker listens (SK-N1..SK-N7)."""

    event: NoiseEvent
    at: Point
    maker: Walker


@dataclass(frozen=True, eq=False)
class KillStep:
    """``killer`` kills ``victim``; the body falls on ``surface`` (None: the ground there)."""

    killer: Walker
    victim: Walker
    surface: Surface | None


@dataclass(frozen=True, eq=False)
class StrikeStep:
    """``attacker`` fights a round of melee with ``victim`` (SK-N2), who sees him."""

    attacker: Walker
    victim: Walker


@dataclass(frozen=True, eq=False)
class ConversationStep:
    """The defenders who talk converse; each intruder who knows nothing of a speaker tests to
    overhear it (SK-N7, roles reversed). The defenders' side does not change: the batched
    simulator's schedule skips it."""


@dataclass(frozen=True, eq=False)
class SightStep:
    """Every guard tests sight on every intruder a test is allowed for (SK-V1..SK-V9)."""


@dataclass(frozen=True, eq=False)
class AlarmStep:
    """The detections of the turn are resolved, in order: initiative or the cry (SK-G5)."""


Step = (
    PatrolStep
    | FumbleStep
    | NoiseStep
    | KillStep
    | StrikeStep
    | ConversationStep
    | SightStep
    | AlarmStep
)
"""One step of a skirmish turn."""
