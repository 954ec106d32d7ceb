"""The intruders' side of a skirmish game, which is the same in every run: a schedule.

In the turn engine the intruders follow fixed plans: where they are each turn, what they do and
where their noises come from do not depend on the dice (a kill or a strike only needs its victim
to be still alive and within its reach where it stands then, LP-7, which each run checks). So
the compiled kernel asks the turn engine itself to walk the plans once, with every check
switched off, and records what it would have checked: this schedule is the engine's own
plan-walking, not a second copy of it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from vigile.dice.source import GivenFaces
from vigile.engine.state import Walker
from vigile.games.skirmish.fields import stealth_pool
from vigile.games.skirmish.raid import SkirmishGame
from vigile.games.skirmish.steps import FumbleStep, KillStep, NoiseStep, SightStep, Step, StrikeStep
from vigile.rulesets.data import RuleData
from vigile.rulesets.skirmish.noise import NoiseEvent, Surface, death_surface
from vigile.rulesets.skirmish.sight import Attitude
from vigile.scene.actors import Side
from vigile.scene.model import Scenario


@dataclass(frozen=True)
class Op:
    """One thing the intruders do that the defenders may perceive, in the engine's order.

    ``kind`` is ``fumble`` (a fast move or a silent action: the pool is rolled, a fumble is a
    noise at ``at``), ``noise`` (a grapple, a speech), ``kill`` (the victim dies if still alive:
    a death noise), ``strike`` (a melee noise for all but the victim, who sees the attacker).
    A listener who hears turns round and looks at the maker where it stands then (SK-N10):
    ``maker_at``, ``attitude`` and ``lit``.
    """

    kind: str
    maker: int
    """Index of the intruder among the intruders."""
    at: tuple[float, float]
    doors: frozenset[int]
    """Doors open at that moment."""
    event: NoiseEvent | None = None
    surface: Surface | None = None
    victim: int | None = None
    """Index of the victim among the defenders. For the fumble roll of a kill or a strike
    (``doing``), the victim too: the engine makes that roll only while the victim lives."""
    pool: int = 1
    """Dice of the maker's fumble roll."""
    maker_at: tuple[float, float] = (0.0, 0.0)
    attitude: Attitude = Attitude.IMMOBILE
    """What a guard who turns round sees the maker doing (SK-V3, SK-V9)."""
    lit: bool = False
    """The maker stands in a light that reaches it (SK-V5)."""
    doing: str = ""
    """What a fumble roll is for (:class:`~vigile.games.skirmish.steps.FumbleStep`)."""
    ground: Surface | None = None
    """The surface a kill's plan names; None: the ground where the victim lies when it dies
    (``surface`` is that ground at the victim's post)."""
    reach: float = 0.0
    """A kill's or a strike's (and its fumble roll's) reach from ``maker_at``: its melee reach,
    or its shot's range (``ranged``), as the engine gives it (``blow_reach``, LP-7)."""
    ranged: bool = False
    """The kill or strike is a shot: it needs a line of sight; a melee blow, no barrier that
    stops a walker between."""


@dataclass
class Turn:
    """What the intruders do in one turn, and where they stand for the sight tests."""

    ops: list[Op] = field(default_factory=list)
    positions: list[tuple[float, float]] = field(default_factory=list)
    attitudes: list[Attitude] = field(default_factory=list)
    lit: list[bool] = field(default_factory=list)
    doors: frozenset[int] = frozenset()
    """Doors open during the sight tests."""
    doors_before: frozenset[int] = frozenset()
    """Doors open when the turn starts (the patrols' walls)."""
    objective: bool = False
    """The objective is reached at the end of this turn (intruders are never stopped)."""


class _Recorder(SkirmishGame):
    """The turn engine with its dice and defenders switched off: it takes the turn's steps
    (:mod:`vigile.games.skirmish.steps`) from the engine's own plan-walking and records the
    intruders' side of them instead of rolling."""

    def __init__(self, scenario: Scenario, rules: RuleData) -> None:
        super().__init__(scenario, rules, np.random.default_rng(0), GivenFaces(()))
        self.turns: list[Turn] = []
        self.intruder_index = {
            w.name: i for i, w in enumerate(w for w in self.walkers if w.side is Side.ATTACKERS)
        }
        self.defender_index = {
            w.name: i for i, w in enumerate(w for w in self.walkers if w.side is Side.DEFENDERS)
        }
        self.ranged = False
        """Whether the planned blow being played is a shot (``Kill.ranged``, ``Strike.ranged``)."""

    def _blow_refused(self, intruder: Walker, action: object) -> bool:
        """Every planned blow is recorded, with its reach: where its victim stands when it
        comes due is the run's (a patrol moves), and the run refuses it then as the engine does
        (``Game._blow_refused``, LP-7)."""
        self.ranged = bool(getattr(action, "ranged", False))
        return False

    @property
    def current(self) -> Turn:
        return self.turns[-1]

    def play_turn(self) -> None:
        self.turns.append(Turn(doors_before=frozenset(self.board.open_doors)))
        super().play_turn()
        if self.outcome is not None:
            self.current.objective = True

    def take(self, step: Step) -> None:
        match step:
            case FumbleStep(maker=maker, doing=doing):
                pool = stealth_pool(maker.actor)
                self._op("fumble", maker, maker.at, event=NoiseEvent.FUMBLE, pool=pool, doing=doing)
            case NoiseStep(event=event, at=at, maker=maker):
                self._op("noise", maker, at, event=event)
            case KillStep(killer=killer, victim=victim, surface=surface):
                ground = surface or death_surface(self.board.surface(victim.at))
                victim_index = self.defender_index[victim.name]
                self._aim(killer, "kill", victim_index)
                self._op(
                    "kill",
                    killer,
                    victim.at,
                    event=NoiseEvent.DEATH,
                    surface=ground,
                    victim=victim_index,
                    ground=surface,
                    **self._reach(killer),
                )
            case StrikeStep(attacker=attacker, victim=victim):
                victim_index = self.defender_index[victim.name]
                self._aim(attacker, "strike", victim_index)
                self._op(
                    "strike",
                    attacker,
                    victim.at,
                    event=NoiseEvent.MELEE,
                    victim=victim_index,
                    **self._reach(attacker),
                )
            case SightStep():
                turn = self.current
                for intruder in self.intruders():
                    turn.positions.append(intruder.at)
                    turn.attitudes.append(self.attitude(intruder))
                    turn.lit.append(self.board.lit(intruder.at))
                turn.doors = frozenset(self.board.open_doors)
            case _:
                return  # the patrols and the alarms are the defenders' side: batched

    def _aim(self, maker: Walker, doing: str, victim: int) -> None:
        """The fumble roll just recorded for this kill or strike names its victim and the
        blow's reach (the roll is made only on a living victim in reach)."""
        ops = self.current.ops
        maker_index = self.intruder_index[maker.name]
        if ops and (ops[-1].kind, ops[-1].doing, ops[-1].maker) == ("fumble", doing, maker_index):
            ops[-1] = replace(ops[-1], victim=victim, **self._reach(maker))

    def _reach(self, maker: Walker) -> dict[str, Any]:
        """The planned blow's reach and kind (LP-7), as :class:`Op` keeps them."""
        return {"reach": self.blow_reach(maker, ranged=self.ranged), "ranged": self.ranged}

    def _op(self, kind: str, maker: Walker, at: tuple[float, float], **fields: Any) -> None:
        self.current.ops.append(
            Op(
                kind,
                self.intruder_index[maker.name],
                at,
                frozenset(self.board.open_doors),
                maker_at=maker.at,
                attitude=self.attitude(maker),
                lit=self.board.lit(maker.at),
                **fields,
            )
        )


def schedule(scenario: Scenario, rules: RuleData) -> list[Turn]:
    """The intruders' turns, as the turn engine walks their plans, up to the objective."""
    recorder = _Recorder(scenario, rules)
    recorder.play()
    return recorder.turns
