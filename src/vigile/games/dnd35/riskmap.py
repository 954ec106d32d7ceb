"""D&D 3.5's risk map: Hide against Spot, Spot, blindsight and scent, then Listen (RULES.md §3).

Each observer meets the intruder as the round does (:mod:`vigile.games.dnd35.round`): one that
sees it (a visible intruder in a line of sight of a sighted, awake observer; an invisible one
for an observer who sees invisible) meets the one Hide roll with its Spot at its own distance
(``hide_check``, DD-20 [R]; no cover, concealment nor invisibility: it sees it). A visible
intruder in darkness beyond an observer's darkvision is unseen by it, as the round says
(:func:`vigile.games.d20.round.in_darkness`, the lights creatures carry included): no Hide
against it, no Spot (Spot is against the invisible, DD-3), blindsight or scent still within 30
ft [DD-20 C, R]. An invisible intruder's signs come first, as the round's ``_signs``: a lit
light it carries at night (DD-16) or the liquid it moves through (DD-12) shows its square for
certain to an awake sighted observer in a line of sight, its footprints where it moved on soft
ground give that observer a Spot of its own (DD-11 [R], ``footprints_check``). Against an
invisible (or, for that observer, dark) intruder, the others: blindsight or scent within 30 ft
in a line of sight notice it for certain (DD-15, DD-13); Spot within 30 ft has its own chance
(``spot_check``, DD-3: moving 20, still 30, non-breathing 40; noticing is knowing something is
there); then every one of them with hearing listens: one Move Silently result against each
Listen, with its distance, a door (+5) or a stone wall (+15) between, distraction and sleep
(``listen_check``, DD-5 [C]; DD-20 [R]). A still intruder makes no noise (the round's ruling: no
Listen check).

A case by hand: an invisible thief (Hide +10, Move Silently +5) at half speed, 25 ft from a
guard (Spot +2, Listen +3), nothing between them. Spot: DC 20 for a moving invisible creature,
+2 and −2 for two whole 10-ft steps: only a 20 notices it, 1/20 (DD-3). Listen: the DC is the
thief's d20 + 5, +2 for the distance; the guard's d20 + 3 must meet it, so its face must be at
least the thief's + 4: for the thief's faces 1..16, 16 + 15 + ... + 1 = 136 of the 400 pairs,
17/50 (DD-5). Noticed or heard: 1 − (19/20)(33/50) = 373/1000.

>>> from vigile.scene.loader import parse_scenario
>>> yard = parse_scenario('''
... ruleset: dnd35
... name: a hand-worked yard
... units: ft
... map: {width: 30, height: 10}
... actors:
...   - {name: Thief, side: attackers, position: [2, 2], invisible: true,
...      bonuses: {hide: 10, move_silently: 5}}
...   - {name: Guard, side: defenders, position: [27.5, 2.5], bonuses: {spot: 2, listen: 3}}
... ''')
>>> [risk_map(yard, "half", layer=layer).exact(0, 0) for layer in ("noticed", "heard", "either")]
[Fraction(1, 20), Fraction(17, 50), Fraction(373, 1000)]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TypeVar

from vigile.awareness.vocabulary import TimeOfDay
from vigile.checks.verdict import Verdict
from vigile.dice.d20 import hidden_from_all_dnd, hidden_from_all_meet
from vigile.games.contract import RiskRequest
from vigile.games.d20.fields import D20Actor, D20Stats
from vigile.games.d20.risk import (
    CERTAIN,
    NEVER,
    D20Board,
    D20RiskMap,
    SquareView,
    Terms,
    Watcher,
    Way,
    plugin_map,
)
from vigile.games.d20.round import in_darkness
from vigile.rulesets import dnd35
from vigile.rulesets.data import RuleData
from vigile.rulesets.dnd35 import traits
from vigile.rulesets.dnd35.common import companion, skill_bonus
from vigile.rulesets.senses import Condition, Sense, reach
from vigile.scene.model import Scenario

__all__ = ["DND35", "Dnd35Perception", "risk_map"]


@dataclass(frozen=True)
class _Role:
    """What one observer does against the intruder at one square this round."""

    hide: bool = False
    """It sees the intruder: Hide against its Spot (DD-20)."""
    certain: bool = False
    """Blindsight or scent: it notices it for certain (DD-15, DD-13)."""
    spot: Fraction = Fraction(0)
    """Its own Spot chance against an invisible creature (DD-3)."""
    listener: dnd35.Listener | None = None
    """It listens (DD-5)."""


def _conditions(board: D20Board, view: SquareView) -> list[Condition]:
    actor = board.intruder
    return [
        c
        for c, on in (
            (Condition.INVISIBLE, actor.invisible),
            (Condition.ETHEREAL, actor.ethereal),
            (Condition.INCORPOREAL, actor.incorporeal),
            (Condition.NOT_BREATHING, not actor.breathing),
            (Condition.IN_LIQUID, view.surface == "water"),
        )
        if on
    ]


class Dnd35Perception:
    """D&D 3.5's rule functions, observer by observer
    (:class:`~vigile.games.d20.risk.Perception`)."""

    def distance_marks(self, rules: RuleData) -> Sequence[tuple[str, float]]:
        """Hide's, Spot's and Listen's 10-ft steps, Spot's 30-ft range, scent's and
        blindsight's range, darkvision's range, the footprints' range (DD-11 [R])."""
        return (
            ("step", float(rules.num("hide.distance_step_ft"))),
            ("step", float(rules.num("spot.distance_step_ft"))),
            ("step", float(rules.num("listen.distance_step_ft"))),
            ("within", float(rules.num("spot.range_ft"))),
            ("within", float(rules.num("turn.sense_range_ft"))),
            ("within", float(rules.num("light.darkvision_ft"))),
            ("within", float(rules.num("tracks.range_ft"))),
        )

    def _role(self, board: D20Board, watcher: Watcher, view: SquareView, way: Way) -> _Role:
        """The round's perception for one observer [DD-1, DD-3, DD-5, DD-13, DD-15, DD-17,
        DD-20], as :meth:`Dnd35Game._perceive_dnd` plays it."""
        rules = board.rules
        actor = board.intruder
        senses = watcher.actor.senses
        conditions = _conditions(board, view)
        invisible = actor.invisible or actor.ethereal
        sighted = Sense.SIGHT in senses or Sense.DARKVISION in senses
        # a visible intruder in darkness beyond its darkvision: it cannot see it, as the
        # round's ``_in_the_dark`` (the same rule function, :func:`in_darkness`) [DD-20 C, R]
        dark = not invisible and in_darkness(
            board.scenario,
            rules,
            lit=view.lit,
            any_light=board.any_light,
            senses=senses,
            distance=view.distance,
        )
        sees = watcher.awake and view.line_of_sight and not dark
        if (
            sees
            and invisible
            and Sense.SEE_INVISIBLE in senses
            and not reach(Sense.DIVINATION, conditions).blocked
        ) or (sees and not invisible and sighted):
            return _Role(hide=True)
        certain = False
        spot = Fraction(0)
        # the signs of an invisible intruder come first: certain, or its footprints' Spot
        # (DD-10, DD-11 [R], DD-12, DD-16), as the round's ``_signs``
        prints = Fraction(0)
        signs = self._signs(board, watcher, view, way, conditions)
        if isinstance(signs, bool):
            certain = signs
        else:
            prints = signs
        unseen = invisible or dark
        if unseen and view.line_of_sight and view.distance <= rules.num("turn.sense_range_ft"):
            certain = any(
                sense in senses and not reach(sense, conditions).blocked
                for sense in (Sense.BLINDSIGHT, Sense.SCENT)
            )
        if (
            not certain
            and invisible
            and view.line_of_sight
            and watcher.awake
            and sighted
            and view.distance <= rules.num("spot.range_ft")
            and not reach(Sense.SIGHT, conditions).blocked
        ):
            target = (
                dnd35.SpotTarget.NON_BREATHING
                if not actor.breathing
                else dnd35.SpotTarget.MOVING
                if way.moving
                else dnd35.SpotTarget.STILL
            )
            spot = dnd35.spot_check(
                rules,
                spot_bonus=_bonuses(watcher).spot or 0,
                distance_ft=view.distance,
                target=target,
                distracted=watcher.distracted,
            ).chance
        spot = 1 - (1 - prints) * (1 - spot)  # two d20s of its own: footprints, then Spot
        listener = None
        if Sense.HEARING in senses and not reach(Sense.HEARING, conditions).blocked and way.moving:
            listener = dnd35.Listener(
                _bonuses(watcher).listen or 0,
                distance_ft=view.distance,
                door=view.door,
                stone_wall=view.wall,
                distracted=watcher.distracted,
                asleep=not watcher.awake,
            )
        return _Role(certain=certain, spot=spot, listener=listener)

    def _signs(
        self,
        board: D20Board,
        watcher: Watcher,
        view: SquareView,
        way: Way,
        conditions: Sequence[Condition],
    ) -> bool | Fraction:
        """What gives an invisible intruder's square away to this observer, as the round's
        ``_signs``: True for certain (a lit light it carries at night, DD-16; the liquid it
        moves through, DD-12: :func:`traits.sign_shown`), else the chance of the Spot on its
        footprints where it moved on soft ground within range (DD-11 [R],
        ``footprints_check``); 0 for an awake sighted observer in a line of sight that does
        not see invisible creatures, and for the others."""
        actor = board.intruder
        senses = watcher.actor.senses
        if (
            not actor.invisible
            or actor.ethereal
            or not watcher.awake
            or not (Sense.SIGHT in senses or Sense.DARKVISION in senses)
            or not view.line_of_sight
            or Sense.SEE_INVISIBLE in senses
        ):
            return Fraction(0)
        rules = board.rules
        sign = traits.sign_shown(
            rules,
            distance_ft=view.distance,
            night=board.scenario.time is TimeOfDay.NIGHT,
            conditions=conditions,
            visible_object=False,
            light_ft=_bonuses_of(actor).light,
            moved=way.moving,
        )
        if sign is not None:
            return True
        if traits.footprints_left(
            soft_ground=view.surface == "soft-ground", moved=way.moving
        ) and traits.footprints_in_range(rules, distance_ft=view.distance):
            return dnd35.footprints_check(
                rules,
                spot_bonus=_bonuses(watcher).spot or 0,
                distance_ft=view.distance,
                distracted=watcher.distracted,
            ).chance
        return Fraction(0)

    def terms(self, board: D20Board, watcher: Watcher, view: SquareView, way: Way) -> Terms:
        role = self._role(board, watcher, view, way)
        if role.hide:
            verdict = self._hide(board, [watcher], [view.distance], view, way)
            member = verdict.members[0]
            if member.success:  # no Hide allowed: it sees the intruder [DD-20]
                return Terms(CERTAIN)
            hider = sum(m.value for m in verdict.modifiers if m.kind != "die")
            return Terms(member.die_bonus - hider)
        sight: int | Fraction = CERTAIN if role.certain else role.spot
        hearing = NEVER
        if role.listener is not None:
            member = self._listen(board, [role.listener], way).members[0]
            hearing = member.die_bonus - sum(m.value for m in member.modifiers if m.kind != "die")
        return Terms(sight, hearing)

    def _hide(
        self,
        board: D20Board,
        watchers: Sequence[Watcher],
        distances: Sequence[float],
        view: SquareView,
        way: Way,
    ) -> Verdict:
        stats = _bonuses_of(board.intruder)
        return dnd35.hide_check(
            board.rules,
            hide_bonus=skill_bonus(
                stats.hide, dex=stats.dex, armor_penalty=stats.armor_check_penalty
            ),
            spot_bonuses=[_bonuses(w).spot or 0 for w in watchers],
            distance_ft=list(distances),
            speed=_speed(dnd35.HideSpeed, way),
            cover=view.cover,
            invisible=board.intruder.invisible or board.intruder.ethereal,
        )

    def _listen(self, board: D20Board, listeners: Sequence[dnd35.Listener], way: Way) -> Verdict:
        stats = _bonuses_of(board.intruder)
        silent = stats.move_silently
        return dnd35.listen_all_check(
            board.rules,
            listeners=list(listeners),
            move_silently=silent,
            dex=stats.dex if silent is None else None,
            armor_penalty=stats.armor_check_penalty if silent is None else 0,
            speed=_speed(dnd35.ListenSpeed, way),
        )

    def missed(self, rules: RuleData, advantages: Sequence[int]) -> Fraction:
        """One Hide result against each Spot (DD-20 [C] ties: the higher modifier, then again;
        off: ties to the hider)."""
        if companion(rules, "opposed_tie_rule"):
            return hidden_from_all_dnd(0, advantages)[0]
        return hidden_from_all_meet(1, advantages)[0]

    def unheard(self, rules: RuleData, advantages: Sequence[int]) -> Fraction:
        """One Move Silently result against each Listen, ties to the listener (DD-5)."""
        return hidden_from_all_meet(0, advantages)[0]

    def square(
        self, board: D20Board, views: Sequence[tuple[Watcher, SquareView]], way: Way
    ) -> tuple[Fraction, Fraction]:
        """Every observer at once, each rule function called once with all of them."""
        roles = [(w, v, self._role(board, w, v, way)) for w, v in views]
        missed = Fraction(1)
        hiders = [(w, v) for w, v, r in roles if r.hide]
        if hiders:
            missed = self._hide(
                board, [w for w, _ in hiders], [v.distance for _, v in hiders], hiders[0][1], way
            ).chance
        for _, _, role in roles:
            if role.certain:
                missed = Fraction(0)
            missed *= 1 - role.spot
        listeners = [r.listener for _, _, r in roles if r.listener is not None]
        unheard = self._listen(board, listeners, way).chance if listeners else Fraction(1)
        return 1 - missed, 1 - unheard

    def notes(self, board: D20Board, way: Way) -> tuple[str, ...]:
        found = ["sim.note.d20_start_positions", "sim.note.dnd35_noticed"]
        if way is Way.STILL:
            found.append("sim.note.dnd35_still")
        return tuple(found)


def _bonuses(watcher: Watcher) -> D20Stats:
    return watcher.actor.bonuses or D20Stats()


def _bonuses_of(actor: D20Actor) -> D20Stats:
    return actor.bonuses or D20Stats()


_Speed = TypeVar("_Speed", dnd35.HideSpeed, dnd35.ListenSpeed)


def _speed(speeds: type[_Speed], way: Way) -> _Speed:
    """The Hide or Listen speed of a way: still is at most half speed [DD-5, DD-20]."""
    return speeds(Way.HALF.value if way is Way.STILL else way.value)


DND35 = Dnd35Perception()
"""The game's perception, for the shared d20 map."""


def risk_map(
    scenario: Scenario,
    request: RiskRequest | str,
    *,
    resolution: float | None = None,
    layer: str | None = None,
    actor: str | None = None,
) -> D20RiskMap:
    """The exact risk map of a D&D 3.5 scenario (its plug-in's risk map hook): the intruder
    moving the request's way (still, half, full, run); ``layer``: ``either`` (default),
    ``noticed`` or ``heard``."""
    return plugin_map(DND35, scenario, request, resolution=resolution, layer=layer, actor=actor)
