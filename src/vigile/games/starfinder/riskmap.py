"""Starfinder's risk map: one Stealth roll against every observer's Perception (RULES.md §2).

Each observer in a line of sight of the square meets the intruder's one Stealth result with its
own Perception, as the round plays it (:mod:`vigile.games.starfinder.round`): ``hide_check``
with the square's cover, the intruder's invisibility, immobile when it stays still, more than half
speed at full speed or running (SF-3, −10), darkness where no light reaches at night, and each
observer's blindsense, see invisibility and darkvision (SF-2, SF-4, SF-7, SF-11). Without cover,
concealment or invisibility no Stealth check is allowed (SF-2): each observer in sight notices it.
Ties go to the observer (SF-4).

Starfinder has no separate Listen: Perception is one check against Stealth for every sense
(SF-4), so hearing is already in the chance of being noticed, and the ``heard`` layer is 0
everywhere (its optional sound distance, SF-4 [C], is played only for sniping, as in the round).

A case by hand: a spy (Stealth +10) in cover at half speed, watched by Ann (Perception +8) and
Bob (+10). The spy rolls once; on a face f the result is f + 10, and Ann misses it when her
face is below f + 2 (f + 1 faces, at most 20), Bob when his is below f (f − 1 faces). Hidden
from both: Σ_f min(f + 1, 20) · (f − 1) / 8000 = (Σ_{f ≤ 19} (f² − 1) + 20 · 19) / 8000 =
(2451 + 380) / 8000 = 2831/8000, so noticed 5169/8000. Out of cover, no Stealth (SF-2): 1.

>>> from vigile.scene.loader import parse_scenario
>>> bay = parse_scenario('''
... ruleset: starfinder
... name: a hand-worked bay
... units: ft
... map: {width: 30, height: 10}
... cover:
...   - {points: [[0, 0], [10, 0], [10, 10], [0, 10]]}
... actors:
...   - {name: Spy, side: attackers, position: [2, 2], bonuses: {stealth: 10}}
...   - {name: Ann, side: defenders, position: [27.5, 2.5], bonuses: {perception: 8}}
...   - {name: Bob, side: defenders, position: [27.5, 7.5], bonuses: {perception: 10}}
... ''')
>>> found = risk_map(bay, "half")
>>> found.exact(0, 0), found.exact(0, 2)
(Fraction(5169, 8000), Fraction(1, 1))
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from vigile.checks.verdict import Verdict
from vigile.dice.d20 import hidden_from_all_meet
from vigile.errors import InputError
from vigile.games.contract import RiskRequest
from vigile.games.d20.risk import (
    CERTAIN,
    NEVER,
    D20Board,
    D20RiskMap,
    Layer,
    SquareView,
    Terms,
    Watcher,
    Way,
    parse_layer,
    plugin_map,
)
from vigile.games.d20.round import in_darkness
from vigile.rulesets import starfinder
from vigile.rulesets.data import RuleData
from vigile.rulesets.senses import Sense
from vigile.scene.model import Scenario

__all__ = ["STARFINDER", "StarfinderPerception", "risk_map"]


class StarfinderPerception:
    """Starfinder's rule functions, observer by observer
    (:class:`~vigile.games.d20.risk.Perception`)."""

    def distance_marks(self, rules: RuleData) -> Sequence[tuple[str, float]]:
        """Darkvision's range (SF-2 [C]): the only distance the round's Stealth check meets."""
        try:
            return (("within", float(rules.num("light.darkvision_ft"))),)
        except KeyError:  # pragma: no cover - a data file without light
            return ()

    def _darkness(self, board: D20Board, view: SquareView) -> bool:
        """The square is in darkness at all (the round's ``_dark_for(None, …)``)."""
        return in_darkness(board.scenario, board.rules, lit=view.lit, any_light=board.any_light)

    def _observer(
        self, board: D20Board, watcher: Watcher, view: SquareView, darkness: bool
    ) -> starfinder.Observer:
        senses = watcher.actor.senses
        stats = watcher.actor.bonuses
        return starfinder.Observer(
            (stats.perception if stats is not None else None) or 0,
            blindsense=Sense.BLINDSENSE in senses,
            see_invisible=Sense.SEE_INVISIBLE in senses,
            darkvision=darkness
            and not in_darkness(
                board.scenario,
                board.rules,
                lit=view.lit,
                any_light=board.any_light,
                senses=senses,
                distance=view.distance,
            ),
        )

    def _hide(
        self, board: D20Board, observers: Sequence[starfinder.Observer], view: SquareView, way: Way
    ) -> Verdict:
        stats = board.intruder.bonuses
        return starfinder.hide_check(
            board.rules,
            stealth=(stats.stealth if stats is not None else None) or 0,
            observers=list(observers),
            speed=starfinder.Speed.MORE_THAN_HALF
            if way in (Way.FULL, Way.RUN)
            else starfinder.Speed.HALF,
            invisible=board.intruder.invisible,
            immobile=way is Way.STILL,
            cover=view.cover,
            darkness=self._darkness(board, view),
        )

    def terms(self, board: D20Board, watcher: Watcher, view: SquareView, way: Way) -> Terms:
        if board.intruder.ethereal or not view.line_of_sight:
            return Terms(NEVER)
        observer = self._observer(board, watcher, view, self._darkness(board, view))
        verdict = self._hide(board, [observer], view, way)
        member = verdict.members[0]
        if verdict.impossible or member.outcome == "starfinder.hide.observer_sees":
            return Terms(CERTAIN)  # no Stealth check allowed against it [SF-2]
        hider = sum(m.value for m in verdict.modifiers)
        own = member.die_bonus - sum(m.value for m in member.modifiers)
        return Terms(own - hider)

    def missed(self, rules: RuleData, advantages: Sequence[int]) -> Fraction:
        """One Stealth result, the DC of each Perception, ties to the observer (SF-4)."""
        return hidden_from_all_meet(0, advantages)[0]

    def unheard(self, rules: RuleData, advantages: Sequence[int]) -> Fraction:
        """No separate Listen in Starfinder (SF-4): nobody hears apart from Perception."""
        return Fraction(1)

    def square(
        self, board: D20Board, views: Sequence[tuple[Watcher, SquareView]], way: Way
    ) -> tuple[Fraction, Fraction]:
        """Every observer in a line of sight at once: one ``hide_check``."""
        crowd = [(w, v) for w, v in views if v.line_of_sight]
        if board.intruder.ethereal or not crowd:
            return Fraction(0), Fraction(0)
        view = crowd[0][1]
        darkness = self._darkness(board, view)
        verdict = self._hide(
            board, [self._observer(board, w, v, darkness) for w, v in crowd], view, way
        )
        return 1 - verdict.chance, Fraction(0)

    def notes(self, board: D20Board, way: Way) -> tuple[str, ...]:
        return ("sim.note.d20_start_positions", "sim.note.starfinder_noticed")


STARFINDER = StarfinderPerception()
"""The game's perception, for the shared d20 map."""


def risk_map(
    scenario: Scenario,
    request: RiskRequest | str,
    *,
    resolution: float | None = None,
    layer: str | None = None,
    actor: str | None = None,
) -> D20RiskMap:
    """The exact risk map of a Starfinder scenario (its plug-in's risk map hook): the intruder
    moving the request's way (still, half, full, run); ``layer``: ``either`` (default) or
    ``noticed``, the same here; ``heard`` is refused: Starfinder has no separate Listen (SF-4)."""
    if parse_layer(request.layer if isinstance(request, RiskRequest) else layer) is Layer.HEARD:
        raise InputError(
            "Starfinder has no separate Listen: Perception meets Stealth once for every sense "
            "(SF-4), so the chance of being noticed already counts hearing; use --layer noticed",
            where="--layer",
        )
    return plugin_map(
        STARFINDER, scenario, request, resolution=resolution, layer=layer, actor=actor
    )
