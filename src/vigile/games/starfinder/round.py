"""Starfinder's perception in the d20 round (RULES.md §2): one Stealth roll for all (SF-4).

Each round every defender with a line of sight to an intruder it does not yet notice meets one
Stealth roll (SF-4: ``hide_check`` with cover from the scenario's cover areas, invisibility,
immobile when it did not move this round, more than half speed on a ``fast`` leg, and blindsense
observers, SF-11). Without cover or invisibility the check is refused (SF-2) and each of them
observes it. Each observer's result maps onto the ladder with ``observer_outcome`` (SF-5:
observes it, or only locates it when it is invisible). A struck defender observes a visible
attacker, and locates an unseen one that struck from an adjacent square (SF-11). A defender
attacks a located intruder with the miss chance of total concealment (SF-8). [R] A defender
aware only of an intruder's presence (SF-11: shot from hiding) knows nothing of where it is:
it stays where it is and perceives again each round (it can't attack it, SF-11, and has no
place to walk to).

Dice, each round, for each intruder in the scenario's order: the Stealth d20 then one
Perception d20 per observer with a line of sight, in the scenario's order (none when refused,
SF-2); then each attack's d100 miss chance.

Attack rolls: a defender's attack on an intruder with an ``ac``, and an intruder's ``strike`` at
a victim with one, roll d20 + ``attack`` against it first (before any miss chance, rolled only on
a hit). An intruder's attack on a defender that does not observe it catches it flat-footed, [C]
-2 AC (SF-9): its first attack on it from hiding, then while it stays unseen by it and not
located.

Light and darkness, see invisibility [C, R]: at night a place no light reaches (a scenario's
light, or one a creature carries) is dark; [R] a night scenario that places no light at all is
lit throughout (``light.dark_without_lights``). In the dark an intruder has total concealment
against every observer whose darkvision (``light.darkvision_ft``, 60 ft) does not reach it, and
may hide there (SF-2); an observer with see invisibility sees through invisibility: against it
the intruder has only what is left (``hide_check``'s observers), and with nothing left it sees
the intruder without a roll. [R] A defender that observed a visible intruder who walks into the
dark keeps only its square, as one that saw it vanish (SF-11).

Not yet played: dim light, Bluff diversions, damage, and Perception's optional sound distance
(SF-4).
"""

from __future__ import annotations

import math
from typing import Any

from vigile.awareness.ladder import AwarenessState
from vigile.awareness.vocabulary import Attitude
from vigile.checks.verdict import Verdict
from vigile.engine.board import Point, distance
from vigile.engine.state import Walker
from vigile.games.d20.round import (
    D20Game,
    adjacent,
    hidden_from,
    is_invisible,
    own,
    stats_of,
)
from vigile.rulesets import starfinder
from vigile.rulesets.senses import Sense
from vigile.scene.actors import Side


class StarfinderGame(D20Game):
    """One Starfinder game, round by round (:class:`~vigile.games.d20.round.D20Game`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.attacked: set[tuple[str, str]] = set()
        """(intruder, defender): the intruder has attacked it (SF-9: its first attack)."""
        self.lost_cover: set[str] = set()
        """Intruders who lost cover or concealment on their way this round (SF-6)."""
        self.sniped: set[str] = set()
        """Intruders whose sniping Stealth roll is this round's (SF-10)."""
        self.hid_from: set[tuple[str, str]] = set()
        """(intruder, defender): a Stealth check of the intruder succeeded against that
        defender's Perception and it has not observed it since (LP-3: sniping, and attacking
        from hiding, need it)."""

    def struck(self, victim: Walker, intruder: Walker, *, ranged: bool = False) -> None:
        """A visible attacker is observed; an unseen one that struck from an adjacent square
        reveals its location; an unseen one that shot from farther, only its presence [SF-11,
        R]."""
        if not self._unseen_by(victim, intruder) and not self._sheltered_from(victim, intruder):
            change = starfinder.observer_outcome(True, total_concealment=False)
        elif adjacent(victim.at, intruder.at) and not ranged:
            change = starfinder.adjacent_melee_attack(victim.aware_of(intruder.name))
        else:
            change = starfinder.ranged_attack_from_unseen(victim.aware_of(intruder.name))
        self._learn(victim, intruder, change.after, change.line.rule)

    def _best(self, observer: Walker, intruder: Walker) -> AwarenessState:
        """The most a Perception success gives ``observer`` [SF-5]: its square only where the
        intruder has total concealment from it (invisible to it, or in darkness beyond its
        darkvision)."""
        return starfinder.noticed_state(self._unseen_by(observer, intruder))

    def _sheltered_from(self, victim: Walker, intruder: Walker) -> bool:
        """A visible attacker still hidden from its victim (not observed, in cover) when it
        struck from hiding beyond the adjacent squares: a sniper (SF-10)."""
        return (
            victim.aware_of(intruder.name) is not AwarenessState.OBSERVED
            and self.board.in_cover(intruder.at)
            and not adjacent(victim.at, intruder.at)
        )

    def vanished(self) -> tuple[AwarenessState, str]:
        change = starfinder.vanished(AwarenessState.OBSERVED)
        return change.after, change.line.rule

    def location_lost(self, cause: str) -> tuple[AwarenessState, str]:
        """A located intruder moved: its presence only [LP-2, SF-11 R]."""
        change = starfinder.location_lost()
        return change.after, change.line.rule

    def intruder_moved(self, intruder: Walker, start: Point) -> None:
        """Did it lose cover or concealment on its way? [SF-6] Its way is looked at every
        foot (and at both ends)."""
        end = intruder.at
        steps = max(1, math.ceil(distance(start, end)))
        along = [
            self.board.in_cover(
                (
                    start[0] + (end[0] - start[0]) * k / steps,
                    start[1] + (end[1] - start[1]) * k / steps,
                )
            )
            for k in range(steps + 1)
        ]
        if starfinder.lost_cover_on_the_way(along):
            self.lost_cover.add(intruder.name)
        self._into_the_dark(intruder)

    def end_of_round(self) -> None:
        self.lost_cover = set()
        self.sniped = set()

    def snipe(self, intruder: Walker, victim: Walker) -> None:
        """Sniping [SF-10, SF-9]: one ranged attack from hiding (the victim flat-footed, SF-9),
        then one Stealth roll at −20 against every defender in a line of sight who does not
        observe the sniper, to stay hidden, its square's cover being where it gets back to;
        the victim at least knows something shot it (SF-11 [R]). Not hidden from the victim:
        an ordinary shot, and the victim is not flat-footed: hidden means a Stealth check
        already used successfully to hide from it (LP-3)."""
        hidden = self._hid(intruder, victim)
        self.noisy.add(intruder.name)
        hit = self._roll_to_hit(intruder, victim)
        self._blow(intruder, victim, "engine.d20.snipes" if hidden else "engine.d20.shoots")
        self.struck(victim, intruder, ranged=True)
        if hit:
            self._hit(intruder, victim)  # LP-7: its damage where it has hit points
        if not hidden:
            return
        self.sniped.add(intruder.name)
        self._stealth(intruder, sniping_at=distance(intruder.at, victim.at))

    def attack_roll(self, attacker: Walker, target: Walker) -> Verdict | None:
        """d20 + attack against the target's AC. An intruder's attack on a defender it was
        hidden from catches it flat-footed [SF-9 C: -2 AC]: its first attack from hiding, then
        while it stays unseen and the defender has not located it. [engine] Only the
        defenders' awareness is kept, so a defender's attack is never from hiding."""
        ac = stats_of(target).ac
        if ac is None:
            return None
        ruling = None
        if attacker.side is Side.ATTACKERS and target.side is Side.DEFENDERS:
            knows = target.aware_of(attacker.name)
            key = (attacker.name, target.name)
            # LP-3: hidden by a Stealth check that beat it, or unseen by it (SF-11: invisible,
            # or in the dark for it) and not observed; an attacker in plain sight that never
            # hid is not hidden.
            ruling = starfinder.flat_footed(
                hidden=self._hid(attacker, target)
                or (knows is not AwarenessState.OBSERVED and self._unseen_by(target, attacker)),
                first_attack=key not in self.attacked,
                still_invisible=hidden_from(target, attacker),
                located=knows.at_least(AwarenessState.LOCATION),
            )
            self.attacked.add(key)
        return self.roll(
            starfinder.attack_roll_check,
            attacker,
            rules=self.rules,
            attack=stats_of(attacker).attack,
            ac=ac,
            flat_footed=ruling,
        )

    def _hid(self, intruder: Walker, defender: Walker) -> bool:
        """The intruder hid from the defender with a Stealth check that succeeded, and the
        defender has not observed it since [LP-3, SF-9, SF-10]: an attacker in plain sight that
        never hid attacks from no hiding."""
        return (intruder.name, defender.name) in self.hid_from and (
            defender.aware_of(intruder.name) is not AwarenessState.OBSERVED
        )

    def attack_verdict(
        self, defender: Walker, intruder: Walker, state: AwarenessState, blindsight: bool
    ) -> Verdict | None:
        """A located intruder has total concealment: the miss chance [SF-8]."""
        if state is not AwarenessState.LOCATION:
            return None
        return self.roll(
            starfinder.attack_check,
            defender,
            rules=self.rules,
            awareness=state,
            blind_fight=stats_of(defender).blind_fight,
        )

    def perceive(self, intruder: Walker) -> None:
        self._perceive_sf(intruder)

    def _perceive_sf(self, intruder: Walker) -> None:
        """One Stealth roll for every observer with a line of sight [SF-2, SF-4, SF-5, SF-6,
        SF-11]; none after a sniping attack, whose Stealth roll was this round's (SF-10)."""
        if intruder.name in self.sniped:
            return
        self._stealth(intruder)

    def _stealth(self, intruder: Walker, *, sniping_at: float | None = None) -> None:
        """One Stealth roll against every defender in a line of sight who does not yet notice
        the intruder as well as it can [SF-2, SF-4, SF-5, SF-6, SF-10, SF-11]."""
        if own(intruder).ethereal:
            return  # no sense but divination reaches it (DD-17 via senses.reach)
        invisible = is_invisible(intruder)
        crowd = [
            d
            for d in self.defenders()
            if not d.aware_of(intruder.name).at_least(self._best(d, intruder))
            and self._sight_line(d, intruder)
        ]
        if not crowd:
            return
        darkness = self._dark_for(None, intruder)
        immobile = not intruder.moved and sniping_at is None
        fast = self._speed(intruder) is Attitude.FAST
        verdict = self.roll(
            starfinder.hide_check,
            intruder,
            rules=self.rules,
            stealth=stats_of(intruder).stealth or 0,
            observers=[
                starfinder.Observer(
                    stats_of(d).perception or 0,
                    blindsense=Sense.BLINDSENSE in d.actor.senses,
                    see_invisible=Sense.SEE_INVISIBLE in d.actor.senses,
                    darkvision=darkness and not self._dark_for(d, intruder),
                )
                for d in crowd
            ],
            speed=starfinder.Speed.MORE_THAN_HALF
            if fast and not immobile
            else starfinder.Speed.HALF,
            invisible=invisible,
            immobile=immobile,
            cover=self.board.in_cover(intruder.at),
            lost_shelter_this_turn=intruder.name in self.lost_cover,
            sniping=sniping_at is not None,
            distance_ft=sniping_at,
            darkness=darkness,
        )
        # No Stealth check was allowed (SF-2): not the same as a chance of 0, which a check
        # has when one observer sees the hider and the others roll.
        refused = verdict.outcome == "starfinder.hide.refused"
        # The hider does not learn how many observers it faced, nor whether they noticed.
        self.emit(
            "sight",
            "engine.d20.stealth" if refused else "starfinder.round.stealth",
            actor=intruder,
            at=intruder.at,
            verdict=verdict,
            params={"count": len(crowd)} if refused else None,
        )
        for observer, member in zip(crowd, verdict.members, strict=True):
            before = observer.aware_of(intruder.name)
            if member.outcome == "starfinder.hide.observer_sees":
                change = starfinder.refused_outcome(before)
            else:
                change = starfinder.observer_outcome(
                    bool(member.success),
                    total_concealment=member.state is AwarenessState.LOCATION,
                    before=before,
                )
            self._check_event(
                "sight",
                "engine.d20.perception",
                "starfinder.round.perception",
                observer,
                intruder,
                member,
                change.after,
            )
            self._learn(observer, intruder, change.after, change.line.rule)
            key = (intruder.name, observer.name)
            if observer.aware_of(intruder.name) is AwarenessState.OBSERVED:
                self.hid_from.discard(key)
            elif member.outcome != "starfinder.hide.observer_sees" and not member.success:
                self.hid_from.add(key)  # LP-3: hidden from it by this Stealth check
