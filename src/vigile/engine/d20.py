"""The d20 round: Starfinder and D&D 3.5 infiltrations on a 5-ft grid (RULES.md §2, §3, §4).

Positions are in feet; the square of a point is ``(x // 5, y // 5)``. Like the skirmish
engine, this one holds no rule of its own: every check is a call to a rule function of
:mod:`vigile.rulesets.starfinder` or :mod:`vigile.rulesets.dnd35`, and what a sense can reach
comes from :mod:`vigile.rulesets.senses`. The engine only decides who checks what, when,
moves the actors and keeps doors, alert and each observer's awareness (which only rises).

Each round, in order:

1. patrolling defenders who pursue nobody wander half their speed in a random direction,
   bouncing off walls (the scatter of SK-G1 borrowed [engine]; the generator, not the GM's
   dice, draws the direction);
2. each intruder walks its plan (``move`` ft a round at ``fast``, default 30 ft; half of it at
   any other speed) and, on arrival, acts: ``strike`` (the victim learns where it is: DD-7
   via ``struck_by_invisible``, only its direction from beyond the adjacent squares, a reach
   blow; SF-11 ``adjacent_melee_attack`` from an adjacent square),
   ``kill`` (the victim is out; the blow needs no roll [engine]), ``speak``, ``open-door``,
   ``close-door``. Striking, killing and speaking make the round's Listen DC 0 (DD-5: "in
   combat or speaking") and, in D&D 3.5, Hide takes the attacking penalty (DD-20);
3. every living defender perceives every intruder it does not yet observe:

   * **starfinder** — one Stealth roll per intruder for all the defenders with a line of sight
     to it (SF-4: ``hide_check`` with cover from the scenario's cover areas, invisibility,
     immobile when it did not move this round, more than half speed on a ``fast`` leg, and
     blindsense observers, SF-11). Without cover or invisibility the check is refused (SF-2)
     and each of them observes it. Each observer's result maps onto the ladder with
     ``observer_outcome`` (SF-5: observes it, or only locates it when it is invisible).
   * **dnd35** — the defenders who can see it (a visible intruder in a line of sight; an
     invisible one for those who see invisible) meet one Hide roll with their Spot, each at
     its own distance (DD-20 [R]); ``hide_check`` refuses the Hide without cover, concealment
     or invisibility, and then each of them sees it. Against an invisible one, the others:
     blindsight within 30 ft observes it (DD-15); scent within 30 ft locates it (DD-13); Spot
     within 30 ft (DD-3: non-breathing DC 40, moving 20, still 30; beating it by 20 pinpoints,
     DD-4); then one Move Silently roll (``listen_all_check``, DD-20 [R]) meets the Listen of
     every one of them still without its square (DD-5: the intruder's Move Silently, or the
     untrained roll; its speed; +5 when a closed door, window or partition stands between,
     +15 when a wall does; DC 0 in a round it fought or spoke). What a sense cannot reach
     (``senses.reach``: an ethereal intruder, DD-17; an incorporeal one for scent and
     blindsight) gives no check.

4. the first defender who locates or observes an intruder raises the alarm: every defender is
   on alert, which wakes the asleep and ends distraction [engine];
5. each living defender acts against the first intruder it knows most about: one that has
   located it (``location``) or observes it closes in (up to its ``move``, 30 ft by default,
   stopping within 5 ft) and attacks it from an adjacent square in its line of sight: the miss
   chance of total concealment (``attack_check``: 50%, Blind-Fight, blindsight, a liquid), none
   when it sees it. A blow that the miss chance does not stop catches the intruder [engine: no
   hit points; the attack roll against AC is not played]. A D&D 3.5 defender aware only of the
   presence or direction walks to the last point where it perceived the intruder and, within 5
   ft of it, gropes two squares (DD-6: that point's square and the next one along its way;
   found: ``location``); an empty grope makes it forget that point [engine]. A Starfinder
   defender aware only of presence walks there (no groping rule). A defender never moves
   farther in a round than its speed, its patrol included;
6. the objective is checked.

The game ends when the attackers reach the objective (``objective``, ``unseen`` when no
defender ever located or observed an intruder), when every intruder is caught (``detected``),
or at the turn limit: ``alarm`` if the alarm was raised (on its round, by whom), else
``turn_limit``.

Dice, in the order the engine asks for them (the GM's ``dice_values`` are consumed so), each
round: for each intruder in the scenario's order, starfinder: the Stealth d20 then one
Perception d20 per observer with a line of sight, in the scenario's order (none when refused,
SF-2); dnd35: first the Hide d20 and the Spot d20 of each defender who can see it (none when
refused), ties rolled again as ``hide_check`` says; then, defender by defender in the
scenario's order, its Spot d20; then the intruder's Move Silently d20 (not in a round it
fought or spoke) and each listener's Listen d20 in the scenario's order. Then, defender by
defender: a grope's touch d20 then its d100 (only on a touch), or an attack's d100 miss
chance (two with Blind-Fight; none against an intruder it sees or with blindsight). Every
check is rolled through ``Game.roll``.

What a character perceives: a check's event quotes the distance only when it gave the
observer the intruder's square; the hider is not told how many observers or listeners it
faced (the GM's verdict says it).

Engine rulings where the rules are silent: an intruder that neither moved, fought nor spoke
this round makes no noise (no Listen check: the DD-5 table has no line for a still creature);
a Spot against a creature that did not move uses "still" (DC 30), or "non-breathing" (DC 40);
defenders perceive only along a line of sight (walls and closed doors stop sight, blindsight
and scent; Listen goes through them with its DC); a ``wall`` is a stone wall, a door, window
or partition a door (DD-5); a square found by Spot, Listen, scent or sight stays known while
the intruder moves (the defender follows it), but one found by groping or by its blow is
lost when it moves, down to presence (DD-6, DD-7, [R] ``pinpoint_lost``); a strike from
beyond the adjacent squares is a reach blow (DD-7); defenders walk in a straight line and
stay put when a wall or closed door is in the way (no path-finding).

Not yet played: light and darkness (darkvision, lit areas), sniping (SF-10), Bluff
diversions, flat-footedness and damage (SF-9, DD-2, DD-21), the attack roll against AC,
attacks on a named square (DD-9), ranged blows (a plan's ``strike`` has no ranged flag; DD-7
[C]), tracks and flour (DD-10,
DD-11), see invisibility in Starfinder, running and charging, and Perception's optional
sound distance (SF-4).
"""

from __future__ import annotations

import math

import numpy as np

from vigile.awareness.ladder import AwarenessState
from vigile.awareness.vocabulary import Attitude
from vigile.checks.verdict import Verdict
from vigile.dice.source import FaceSource
from vigile.engine.board import Board, Point, distance
from vigile.engine.game import Game, log_number
from vigile.engine.result import Outcome
from vigile.engine.state import Walker
from vigile.rulesets import dnd35, starfinder
from vigile.rulesets.data import RuleData
from vigile.rulesets.dnd35.traits import pinpoint_lost, struck_by_invisible
from vigile.rulesets.senses import Condition, Sense, reach
from vigile.scene.actors import D20Stats, GuardState, Side
from vigile.scene.geometry import crossings
from vigile.scene.model import Scenario, WallKind
from vigile.scene.plans import CloseDoor, Kill, OpenDoor, Speak, Strike

SQUARE_FT = 5.0
"""A square's side: adjacent means within one square."""
CLOSE_FT = 4.5
"""How near a defender closes in on a point: within reach, whatever the squares' corners."""
LOCATED = (AwarenessState.LOCATION, AwarenessState.OBSERVED)
_NO_STATS = D20Stats()


class D20Game(Game):
    """One game of a Starfinder or D&D 3.5 scenario, played round by round."""

    def __init__(
        self, scenario: Scenario, rules: RuleData, rng: np.random.Generator, faces: FaceSource
    ) -> None:
        super().__init__(scenario, rules, rng, faces, Board(scenario, 0.0))
        self.dnd = scenario.ruleset == "dnd35"
        self.alarm: tuple[int, str] | None = None
        """The round the alarm was raised, and by whom."""
        self.noisy: set[str] = set()
        """Intruders who fought or spoke this round (DD-5: Listen DC 0)."""
        self.fought: set[str] = set()
        """Intruders who attacked this round (DD-20: Hide as attacking)."""
        self.last_known: dict[tuple[str, str], Point] = {}
        """(defender, intruder): where the defender last perceived it."""
        self.speeds: dict[str, Attitude] = {}
        """How each intruder moved this round (absent: it did not move)."""
        self.walked: dict[str, float] = {}
        """How far each defender moved this round: never more than its speed."""
        self.pinned: dict[tuple[str, str], bool] = {}
        """(defender, intruder) located by groping (False) or by its blow (True): lost when it
        moves (DD-6, DD-7)."""
        self.emit(
            "start",
            "engine.d20.start",
            public=True,
            params={
                "name": scenario.name,
                "turns": scenario.turns,
                "ruleset": scenario.ruleset,
            },
        )

    # ---------------------------------------------------------------- queries

    # ---------------------------------------------------------------- the round

    def _move(self, walker: Walker) -> float:
        """A round's move: the actor's own, else the ruleset's ``turn.move_ft``."""
        if walker.actor.move is not None:
            return walker.actor.move
        return float(self.rules.num("turn.move_ft"))

    def _unfinished(self) -> Outcome:
        """At the round limit: the alarm if it was raised (with its round), else the limit."""
        if self.alarm is not None:
            return Outcome("alarm", self.alarm[0], unseen=False, by=self.alarm[1])
        return super()._unfinished()

    def play_turn(self) -> None:
        self.turn += 1
        self.emit("turn", "engine.event.turn", public=True)
        self.noisy = set()
        self.fought = set()
        self.speeds = {}
        self.walked = {}
        for walker in self.walkers:
            walker.moved = False
        self._patrols()
        for intruder in self.intruders():
            self._walk(intruder)
        for intruder in self.intruders():
            if self.dnd:
                self._perceive_dnd(intruder)
            else:
                self._perceive_sf(intruder)
        for defender in self.defenders():
            if self.outcome is None:
                self._defend(defender)
        if self.outcome is None:
            self._objective()

    # ---------------------------------------------------------------- 1. patrols

    def _pursues(self, defender: Walker) -> bool:
        return any(
            defender.aware_of(i.name) is not AwarenessState.UNAWARE for i in self.intruders()
        )

    def _patrols(self) -> None:
        for guard in self.defenders():
            if guard.actor.state is not GuardState.PATROLLING or self._pursues(guard):
                continue
            angle = float(self.rng.uniform(0.0, 2.0 * math.pi))
            xs, ys = self.board.patrol(
                [guard.x],
                [guard.y],
                angle,
                self._move(guard) / 2,
                self.rules.num("turn.patrol_bounces"),
            )
            self.walked[guard.name] = distance(guard.at, (xs[0], ys[0]))
            guard.x, guard.y, guard.moved = xs[0], ys[0], True
            self.emit(
                "patrol",
                "engine.event.patrol",
                actor=guard,
                at=guard.at,
                perceived_by=self._allies(guard),
                params={"degrees": round(math.degrees(angle)) % 360},
            )

    # ---------------------------------------------------------------- 2. plans

    def _step(self, intruder: Walker, to: Point, speed: Attitude) -> None:
        rate = self._move(intruder) if speed is Attitude.FAST else self._move(intruder) / 2
        before = intruder.at
        self._advance(intruder, to, rate)
        self.speeds[intruder.name] = speed
        if intruder.at != before:
            self._unpin(intruder)
        watchers = {
            d.name for d in self.defenders() if d.aware_of(intruder.name) is AwarenessState.OBSERVED
        }
        self.emit(
            "move",
            "engine.event.move",
            actor=intruder,
            at=intruder.at,
            perceived_by=self._allies(intruder) | watchers,
            params={"speed": speed.value},
        )

    def _act(self, intruder: Walker, action: object) -> None:
        if isinstance(action, Kill):
            victim = self.by_name[action.target]
            if victim.alive:
                victim.alive = False
                self.noisy.add(intruder.name)
                self.fought.add(intruder.name)
                self.emit(
                    "action",
                    "engine.d20.kill",
                    actor=intruder,
                    target=victim,
                    at=victim.at,
                    perceived_by={victim.name},
                )
        elif isinstance(action, Strike):
            victim = self.by_name[action.target]
            if victim.alive:
                self.noisy.add(intruder.name)
                self.fought.add(intruder.name)
                self.emit(
                    "action",
                    "engine.event.strike",
                    actor=intruder,
                    target=victim,
                    at=victim.at,
                    perceived_by={victim.name},
                )
                if victim.side is Side.DEFENDERS:
                    self._struck(victim, intruder, ranged=action.ranged)
        elif isinstance(action, Speak):
            self.noisy.add(intruder.name)  # DD-5: speaking is DC 0 to hear this round
            self._speak(intruder, action)
        elif isinstance(action, OpenDoor | CloseDoor):
            self._door(intruder, action.door, isinstance(action, OpenDoor))
        # A grapple is a skirmish action (SK-N2): no d20 rule plays it.

    def _struck(self, victim: Walker, intruder: Walker, *, ranged: bool = False) -> None:
        """What the struck defender learns of its attacker [DD-7, SF-11].

        A blow from beyond the adjacent squares is a reach (or ranged) blow: DD-7 gives only
        the direction. A square learnt from the blow is lost when the attacker moves.
        """
        if not _hidden_from(victim, intruder):
            if self.dnd:
                sense = Sense.SEE_INVISIBLE if intruder.actor.invisible else Sense.SIGHT
                seen = reach(sense, self._conditions(intruder))
                self._learn(victim, intruder, seen.state, seen.line.rule)
            else:
                change = starfinder.observer_outcome(True, total_concealment=False)
                self._learn(victim, intruder, change.after, change.line.rule)
            return
        if self.dnd:
            gap = distance(victim.at, intruder.at)
            state, line = struck_by_invisible(
                self.rules,
                reach_ft=SQUARE_FT if _adjacent(victim.at, intruder.at) else gap,
                ranged=ranged,
            )
            self._learn(victim, intruder, state, line.rule, pin=True)
        elif _adjacent(victim.at, intruder.at):
            change = starfinder.adjacent_melee_attack(victim.aware_of(intruder.name))
            self._learn(victim, intruder, change.after, change.line.rule)

    def _unpin(self, intruder: Walker) -> None:
        """The intruder moved: defenders who located it by groping or by its blow lose its
        square [DD-6, DD-7]."""
        for (name, target), by_blow in list(self.pinned.items()):
            if target != intruder.name:
                continue
            del self.pinned[(name, target)]
            defender = self.by_name[name]
            if defender.aware_of(target) is not AwarenessState.LOCATION:
                continue
            state, line = pinpoint_lost(by_blow=by_blow)
            defender.awareness[target] = state
            self.emit(
                "perceive",
                "dnd35.round.lost",
                actor=defender,
                target=intruder,
                params={"rule": line.rule},
            )

    # ---------------------------------------------------------------- 3. perception

    def _learn(
        self,
        observer: Walker,
        intruder: Walker,
        state: AwarenessState,
        rule: str,
        *,
        pin: bool | None = None,
    ) -> None:
        """Raise what ``observer`` knows of ``intruder``; a first location raises the alarm.

        ``pin``: the location comes from its blow (True) or from groping (False), and is lost
        when it moves (DD-6, DD-7); any other location keeps it.
        """
        if state is AwarenessState.UNAWARE:
            return
        self.last_known[(observer.name, intruder.name)] = intruder.at
        key = (observer.name, intruder.name)
        if state is AwarenessState.LOCATION and pin is not None:
            if observer.aware_of(intruder.name) is not AwarenessState.OBSERVED:
                self.pinned[key] = pin
        elif state.at_least(AwarenessState.LOCATION):
            self.pinned.pop(key, None)
        if not observer.learn(intruder.name, state):
            return
        after = observer.aware_of(intruder.name)
        self.emit(
            "perceive",
            "engine.d20.learns",
            actor=observer,
            target=intruder,
            params={"state": after.value, "rule": rule},
        )
        if after in LOCATED:
            self.ever_detected = True
            if self.alarm is None:
                self.alarm = (self.turn, observer.name)
                for defender in self.defenders():
                    defender.alert = True
                self.emit(
                    "alarm",
                    "engine.event.alarm",
                    actor=observer,
                    target=intruder,
                    at=observer.at,
                    public=True,
                )

    def _sight_line(self, observer: Walker, intruder: Walker) -> bool:
        return self.board.sees(observer.at, intruder.at)

    def _speed(self, intruder: Walker) -> Attitude:
        """How it moved this round: its leg's speed, or immobile."""
        return self.speeds.get(intruder.name, Attitude.IMMOBILE)

    def _perceive_sf(self, intruder: Walker) -> None:
        """One Stealth roll for every observer with a line of sight [SF-2, SF-4, SF-5, SF-11]."""
        actor = intruder.actor
        if actor.ethereal:
            return  # no sense but divination reaches it (DD-17 via senses.reach)
        invisible = actor.invisible
        best = starfinder.noticed_state(invisible)
        crowd = [
            d
            for d in self.defenders()
            if not d.aware_of(intruder.name).at_least(best) and self._sight_line(d, intruder)
        ]
        if not crowd:
            return
        immobile = not intruder.moved
        fast = self._speed(intruder) is Attitude.FAST
        verdict = self.roll(
            starfinder.hide_check,
            intruder,
            rules=self.rules,
            stealth=_stats(intruder).stealth or 0,
            observers=[
                starfinder.Observer(
                    _stats(d).perception or 0, blindsense=Sense.BLINDSENSE in d.actor.senses
                )
                for d in crowd
            ],
            speed=starfinder.Speed.MORE_THAN_HALF
            if fast and not immobile
            else starfinder.Speed.HALF,
            invisible=invisible,
            immobile=immobile,
            cover=self.board.in_cover(intruder.at),
        )
        # The hider does not learn how many observers it faced, nor whether they noticed.
        self.emit(
            "sight",
            "engine.d20.stealth" if verdict.impossible else "starfinder.round.stealth",
            actor=intruder,
            at=intruder.at,
            verdict=verdict,
            params={"count": len(crowd)} if verdict.impossible else None,
        )
        for observer, member in zip(crowd, verdict.members, strict=True):
            before = observer.aware_of(intruder.name)
            if verdict.impossible:
                change = starfinder.refused_outcome(before)
            else:
                change = starfinder.observer_outcome(
                    bool(member.success), total_concealment=invisible, before=before
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

    def _check_event(
        self,
        kind: str,
        located_key: str,
        blind_key: str,
        observer: Walker,
        intruder: Walker,
        verdict: Verdict,
        state: AwarenessState,
    ) -> None:
        """One observer's check against an intruder. Its distance is quoted only when the
        check gave the observer the intruder's square: a failed or vague check (presence,
        direction) must not tell the character how far the intruder stands."""
        located = bool(verdict.success) and state.at_least(AwarenessState.LOCATION)
        self.emit(
            kind,
            located_key if located else blind_key,
            actor=observer,
            target=intruder,
            verdict=verdict,
            params={"distance": log_number(distance(observer.at, intruder.at))}
            if located
            else None,
        )

    def _conditions(self, intruder: Walker) -> list[Condition]:
        actor = intruder.actor
        found = [
            c
            for c, on in (
                (Condition.INVISIBLE, actor.invisible),
                (Condition.ETHEREAL, actor.ethereal),
                (Condition.INCORPOREAL, actor.incorporeal),
                (Condition.NOT_BREATHING, not actor.breathing),
                (Condition.IN_LIQUID, self.board.surface(intruder.at) == "water"),
            )
            if on
        ]
        return found

    def _perceive_dnd(self, intruder: Walker) -> None:
        """Hide against Spot, blindsight, scent, Spot, then one Listen for all [DD-1..DD-20]."""
        conditions = self._conditions(intruder)
        invisible = intruder.actor.invisible or intruder.actor.ethereal
        watching = [
            d for d in self.defenders() if d.aware_of(intruder.name) is not AwarenessState.OBSERVED
        ]
        hiders: list[Walker] = []
        others: list[Walker] = []
        for observer in watching:
            sees = _awake(observer) and self._sight_line(observer, intruder)
            if (
                sees
                and invisible
                and Sense.SEE_INVISIBLE in observer.actor.senses
                and not reach(Sense.DIVINATION, conditions).blocked
            ) or (sees and not invisible and _sighted(observer)):
                hiders.append(observer)
            else:
                others.append(observer)
        if hiders:
            self._hide_against_spot(intruder, hiders, invisible)
        listeners = [
            observer
            for observer in others
            if self._senses_dnd(observer, intruder, conditions, invisible)
        ]
        if listeners:
            self._listen(intruder, listeners)

    def _hide_against_spot(
        self, intruder: Walker, observers: list[Walker], invisible: bool
    ) -> None:
        """One Hide roll against each observer's Spot at its own distance; no Hide without
        cover, concealment or invisibility: then each of them sees it [DD-20]."""
        stats = _stats(intruder)
        speed = (
            dnd35.HideSpeed.RUN
            if intruder.name in self.fought
            else dnd35.HideSpeed.FULL
            if self._speed(intruder) is Attitude.FAST
            else dnd35.HideSpeed.HALF
        )
        verdict = self.roll(
            dnd35.hide_check,
            intruder,
            rules=self.rules,
            hide_bonus=dnd35.skill_bonus(
                stats.hide, dex=stats.dex, armor_penalty=stats.armor_check_penalty
            ),
            spot_bonuses=[_stats(o).spot or 0 for o in observers],
            distance_ft=[distance(o.at, intruder.at) for o in observers],
            speed=speed,
            cover=self.board.in_cover(intruder.at),
            invisible=invisible,
        )
        if not verdict.impossible:
            self.emit("sight", "dnd35.round.hide", actor=intruder, at=intruder.at, verdict=verdict)
        for observer, member in zip(observers, verdict.members, strict=True):
            found = dnd35.reached(member)
            if verdict.impossible:
                self.emit(
                    "sight",
                    "engine.d20.sees",
                    actor=observer,
                    target=intruder,
                    at=intruder.at,
                    verdict=member,
                )
            else:
                self._check_event(
                    "sight",
                    "engine.d20.spot_hide",
                    "dnd35.round.spot_hide",
                    observer,
                    intruder,
                    member,
                    found[0] if found else AwarenessState.UNAWARE,
                )
            if found is not None:
                self._learn(observer, intruder, *found)

    def _senses_dnd(
        self, observer: Walker, intruder: Walker, conditions: list[Condition], invisible: bool
    ) -> bool:
        """What one observer perceives of an intruder it does not see: blindsight, scent, Spot
        [DD-3, DD-4, DD-13..DD-17]. True when it is to listen for it this round (DD-5)."""
        senses = observer.actor.senses
        gap = distance(observer.at, intruder.at)
        line = self._sight_line(observer, intruder)
        name = intruder.name
        if invisible and line and gap <= self.rules.num("turn.sense_range_ft"):
            for sense, key in (
                (Sense.BLINDSIGHT, "engine.d20.blindsight"),
                (Sense.SCENT, "engine.d20.scent"),
            ):
                found = reach(sense, conditions)
                if sense in senses and not found.blocked:
                    self.emit(
                        "perceive",
                        key,
                        actor=observer,
                        target=intruder,
                        params={"distance": log_number(gap), "rule": found.line.rule},
                    )
                    self._learn(observer, intruder, found.state, found.line.rule)
        if observer.aware_of(name).at_least(AwarenessState.LOCATION):
            return False
        spot_range = self.rules.num("spot.range_ft")
        if (
            invisible
            and line
            and _awake(observer)
            and _sighted(observer)
            and gap <= spot_range
            and not reach(Sense.SIGHT, conditions).blocked
        ):
            target = (
                dnd35.SpotTarget.NON_BREATHING
                if not intruder.actor.breathing
                else dnd35.SpotTarget.MOVING
                if intruder.moved
                else dnd35.SpotTarget.STILL
            )
            verdict = self.roll(
                dnd35.spot_check,
                observer,
                rules=self.rules,
                spot_bonus=_stats(observer).spot or 0,
                distance_ft=gap,
                target=target,
                distracted=_distracted(observer),
            )
            spotted = dnd35.reached(verdict)
            state = spotted[0] if spotted else AwarenessState.UNAWARE
            self._check_event(
                "sight", "engine.d20.spot", "dnd35.round.spot", observer, intruder, verdict, state
            )
            if spotted is not None:
                self._learn(observer, intruder, *spotted)
        if observer.aware_of(name).at_least(AwarenessState.LOCATION):
            return False
        heard = conditions + ([Condition.MAKING_NOISE] if name in self.noisy else [])
        return (
            Sense.HEARING in observer.actor.senses
            and not reach(Sense.HEARING, heard).blocked
            and (name in self.noisy or intruder.moved)
        )

    def _listen(self, intruder: Walker, listeners: list[Walker]) -> None:
        """One Move Silently result against every listener's own Listen [DD-5, DD-20 R]."""
        stats = _stats(intruder)
        silent = stats.move_silently
        noisy = intruder.name in self.noisy
        verdict = self.roll(
            dnd35.listen_all_check,
            intruder,
            rules=self.rules,
            listeners=[
                dnd35.Listener(
                    _stats(o).listen or 0,
                    distance_ft=distance(o.at, intruder.at),
                    door=self._between(
                        o, intruder, (WallKind.DOOR, WallKind.WINDOW, WallKind.PARTITION)
                    ),
                    stone_wall=self._between(o, intruder, (WallKind.WALL,)),
                    distracted=_distracted(o),
                    asleep=_asleep(o),
                )
                for o in listeners
            ],
            move_silently=silent,
            dex=stats.dex if silent is None else None,
            armor_penalty=stats.armor_check_penalty if silent is None else 0,
            speed=None
            if noisy
            else (
                dnd35.ListenSpeed.FULL
                if self._speed(intruder) is Attitude.FAST
                else dnd35.ListenSpeed.HALF
            ),
            speaking=noisy,
        )
        self.emit("noise", "dnd35.round.move_silently", actor=intruder, verdict=verdict)
        for observer, member in zip(listeners, verdict.members, strict=True):
            found = dnd35.reached(member)
            state = found[0] if found else AwarenessState.UNAWARE
            self._check_event(
                "noise",
                "engine.d20.listen",
                "dnd35.round.listen",
                observer,
                intruder,
                member,
                state,
            )
            if found is not None:
                self._learn(observer, intruder, *found)

    def _between(self, a: Walker, b: Walker, kinds: tuple[WallKind, ...]) -> bool:
        """A closed barrier of one of ``kinds`` stands between them (DD-5)."""
        barriers = self.board.barriers
        if not len(barriers):
            return False
        mask = np.zeros(len(barriers), dtype=np.bool_)
        for kind in kinds:
            mask |= barriers.of_kind(kind.value)
        mask &= barriers.counts_for_noise
        return bool(crossings(barriers, a.x, a.y, b.x, b.y, mask) > 0)

    # ---------------------------------------------------------------- 5. defenders act

    def _defend(self, defender: Walker) -> None:
        known = [
            (defender.aware_of(i.name).rank, -k, i)
            for k, i in enumerate(self.intruders())
            if defender.aware_of(i.name) is not AwarenessState.UNAWARE
        ]
        if not known:
            return
        _, _, intruder = max(known, key=lambda item: (item[0], item[1]))
        state = defender.aware_of(intruder.name)
        if state in LOCATED:
            if intruder.actor.ethereal:
                return  # not physically there: no blow reaches it (DD-17) [engine]
            self._close_in(defender, intruder.at)
            if _adjacent(defender.at, intruder.at) and self._sight_line(defender, intruder):
                self._attack(defender, intruder, state)
            return
        point = self.last_known.get((defender.name, intruder.name))
        if point is None:
            return
        self._close_in(defender, point)
        if (
            self.dnd
            and distance(defender.at, point) <= SQUARE_FT
            and self.board.sees(defender.at, point)
        ):
            self._grope(defender, intruder, point)

    def _close_in(self, defender: Walker, point: Point) -> None:
        """Walk straight toward ``point``, stopping within reach of it; stay if a wall or a
        closed door is in the way."""
        gap = distance(defender.at, point)
        budget = self._move(defender) - self.walked.get(defender.name, 0.0)
        if gap <= CLOSE_FT or budget <= 0:
            return
        step = min(budget, gap - CLOSE_FT)
        to = (
            defender.x + (point[0] - defender.x) * step / gap,
            defender.y + (point[1] - defender.y) * step / gap,
        )
        if not self.board.sees(defender.at, to):
            return
        defender.x, defender.y = to
        defender.moved = True
        self.walked[defender.name] = self.walked.get(defender.name, 0.0) + step
        self.emit(
            "move",
            "engine.d20.closes_in",
            actor=defender,
            at=defender.at,
            perceived_by=self._allies(defender),
        )

    def _grope(self, defender: Walker, intruder: Walker, point: Point) -> None:
        """Two adjacent squares: the point's and the next along the defender's way [DD-6]."""
        first = _square(point)
        dx, dy = point[0] - defender.x, point[1] - defender.y
        if abs(dx) >= abs(dy):
            second = (first[0] + (1 if dx >= 0 else -1), first[1])
        else:
            second = (first[0], first[1] + (1 if dy >= 0 else -1))
        occupied = _square(intruder.at) in (first, second)
        verdict = self.roll(
            dnd35.grope_check,
            defender,
            rules=self.rules,
            touch_attack=_stats(defender).attack,
            touch_ac=_stats(intruder).touch_ac,
            occupied=occupied,
        )
        self.emit(
            "attack", "engine.d20.grope", actor=defender, target=intruder, at=point, verdict=verdict
        )
        found = dnd35.reached(verdict)
        if found is not None:
            self._learn(defender, intruder, *found, pin=False)
        else:
            del self.last_known[(defender.name, intruder.name)]

    def _attack(self, defender: Walker, intruder: Walker, state: AwarenessState) -> None:
        """One attack on a located or observed intruder [SF-8, DD-8, DD-12, DD-14, DD-15]."""
        blindsight = Sense.BLINDSIGHT in defender.actor.senses and _hidden_from(defender, intruder)
        verdict: Verdict | None = None
        if self.dnd and (state is AwarenessState.LOCATION or blindsight):
            verdict = self.roll(
                dnd35.attack_check,
                defender,
                rules=self.rules,
                miss_chance=self.rules.num("attack.total_concealment"),
                blind_fight=_stats(defender).blind_fight,
                blindsight=blindsight,
                in_liquid=Condition.IN_LIQUID in self._conditions(intruder),
                incorporeal=intruder.actor.incorporeal,
            )
        elif not self.dnd and state is AwarenessState.LOCATION:
            verdict = self.roll(
                starfinder.attack_check,
                defender,
                rules=self.rules,
                awareness=state,
                blind_fight=_stats(defender).blind_fight,
            )
        if verdict is None:
            self.emit(
                "attack",
                "engine.d20.attack_seen",
                actor=defender,
                target=intruder,
                at=intruder.at,
                perceived_by={intruder.name},
            )
        else:
            self.emit(
                "attack",
                "engine.event.attack",
                actor=defender,
                target=intruder,
                at=intruder.at,
                verdict=verdict,
            )
            if not verdict.success:
                return
        intruder.alive = False
        self.emit(
            "attack",
            "engine.d20.caught",
            actor=defender,
            target=intruder,
            at=intruder.at,
            perceived_by={intruder.name},
        )
        if not self.intruders():
            self.outcome = Outcome("detected", self.turn, unseen=False, by=defender.name)
            self.emit("end", "engine.d20.all_caught", public=True, params={"by": defender.name})

    # ---------------------------------------------------------------- 6. objective


# -------------------------------------------------------------------- small helpers


def _stats(walker: Walker) -> D20Stats:
    return walker.actor.bonuses or _NO_STATS


def _square(p: Point) -> tuple[int, int]:
    return (math.floor(p[0] / SQUARE_FT), math.floor(p[1] / SQUARE_FT))


def _adjacent(a: Point, b: Point) -> bool:
    """The same or a neighbouring 5-ft square (diagonals included)."""
    sa, sb = _square(a), _square(b)
    return max(abs(sa[0] - sb[0]), abs(sa[1] - sb[1])) <= 1


def _sighted(walker: Walker) -> bool:
    senses = walker.actor.senses
    return Sense.SIGHT in senses or Sense.DARKVISION in senses


def _hidden_from(observer: Walker, intruder: Walker) -> bool:
    """Invisible (or ethereal) to this observer: it does not see invisible."""
    hidden = intruder.actor.invisible or intruder.actor.ethereal
    return hidden and Sense.SEE_INVISIBLE not in observer.actor.senses


def _awake(walker: Walker) -> bool:
    return not _asleep(walker)


def _asleep(walker: Walker) -> bool:
    """Asleep until the alarm wakes it [engine]."""
    return walker.actor.asleep and not walker.alert


def _distracted(walker: Walker) -> bool:
    """Distracted until the alarm [engine]."""
    return walker.actor.distracted and not walker.alert
