"""The d20 round, shared by the d20 games (RULES.md §2, §3, §4): a 5-ft grid, a round each turn.

Positions are in feet; the square of a point is ``(x // 5, y // 5)``. It sits in the d20
family's package because it holds the rules the two d20 games read alike (each cited), yet it
imports neither game (``.importlinter`` says so): each d20 game subclasses
:class:`D20Game` in its plug-in (:mod:`vigile.games.starfinder.round`,
:mod:`vigile.games.dnd35.round`) and supplies its perception (``perceive``), what a struck
defender learns (``struck``), its attack check (``attack_verdict``), and what its defenders
lose when an intruder moves or may do where they last perceived it (``intruder_moved``, ``search``).
What a sense can reach comes from :mod:`vigile.rulesets.senses`. The round only decides who
acts when, moves the actors and keeps doors, alert and each observer's awareness.

Each round, in order:

1. patrolling defenders who pursue nobody wander half their speed in a random direction,
   bouncing off walls (the scatter of SK-G1 borrowed [engine]; the generator, not the GM's
   dice, draws the direction);
2. each intruder walks its plan (``move`` ft a round at ``fast``, default 30 ft; half of it at
   any other speed) and, on arrival, acts (a blow beyond its reach or range where its victim
   stands now, or out of sight, is not made, LP-7: ``Game._blow_refused``): ``strike`` (the
   victim learns what its game says),
   ``kill`` (the victim is out; the blow needs no roll [engine]), ``speak``, ``open-door``,
   (a ``strike`` at a victim with an ``ac`` rolls the game's attack roll first; hit or miss,
   the victim learns of the blow [engine]; a hit takes the striker's ``damage`` from a victim
   with ``hp``, down at 0 or less, LP-7 [R]),
   ``close-door``. Striking, killing and speaking mark the intruder as noisy this round (DD-5:
   "in combat or speaking") and striking as attacking (DD-20);
3. every living defender perceives every intruder it does not yet observe (the game's rules);
4. the first defender who locates or observes an intruder raises the alarm: every defender is
   on alert, which wakes the asleep and ends distraction [engine];
5. each living defender acts against the first intruder it knows most about: one that has
   located it (``location``) or observes it closes in (up to its ``move``, 30 ft by default,
   stopping within 5 ft) and attacks it from an adjacent square in its line of sight, with the
   game's attack roll against the intruder's AC when it has one (``ac``; none given: the GM
   says hit or miss, taken as a hit where ``blow.hits_without_ac`` says so, LP-7 [R]), then on
   a hit the game's miss chance (none when it sees it). A hit that the miss chance does not
   stop takes the attacker's ``damage`` from an intruder with ``hp`` (down, caught, at 0 or
   less); without hit points it catches the intruder only where one blow ends the encounter
   (``blow.ends_encounter``), and is only logged otherwise (LP-7 [R]). A
   defender aware only of the presence or direction does what its game lets it with what it
   knows (``search``; D&D 3.5: grope), and nothing where the game has no such rule. A defender
   never moves farther in a round than its speed, its patrol included;
6. the objective is checked.

The game ends when the attackers reach the objective (``objective``, ``unseen`` when no
defender ever located or observed an intruder), when every intruder is caught (``detected``:
down, or caught by one blow where the scenario says so, LP-7), by the GM in live play, or at
the turn limit: ``alarm`` if the alarm was raised (on its round, by whom), else
``turn_limit``. Every check is rolled through ``Game.roll``.

What a character perceives: a check's event quotes the distance only when it gave the
observer the intruder's square; the hider is not told how many observers or listeners it
faced (the GM's verdict says it).

What a defender knows of an intruder's place (``known``) is what it perceived, never more: a
square where it located or observed it (the square, not the point), a :class:`Bearing` (the
direction from where it stood, no distance) where it perceived only the direction, and
nothing new where it perceived only the presence (a square or bearing it knew from before
stays: presence says nothing of where). A defender acts on that alone, and the events it
perceives carry only that.

Engine rulings where the rules are silent: defenders perceive only along a line of sight
(walls and closed doors stop sight, blindsight and scent); a ``wall`` is a stone wall, a door,
window or partition a door (DD-5); defenders walk in a straight line and stay put when a wall
or closed door is in the way (no path-finding). What each kind of barrier does is the
ruleset's ``[barrier.*]`` (:func:`barrier_kinds`): [R] a closed window stops a walker, a
groping hand and a melee blow, not sight (nor light), as the Universal Battlemap Importer reads
a see-through portal.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Iterable
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from vigile.awareness.ladder import AwarenessState
from vigile.awareness.vocabulary import Attitude, TimeOfDay
from vigile.checks.numbers import quoted
from vigile.checks.verdict import Verdict
from vigile.dice.source import FaceSource
from vigile.engine.board import OPEN_KIND, Board, Point, bearing, distance
from vigile.engine.events import DETECTING
from vigile.engine.game import Game
from vigile.engine.result import Outcome
from vigile.engine.state import Walker
from vigile.games.d20.actions import AttackSquare, CastInvisibility, EndInvisibility, Snipe
from vigile.games.d20.fields import D20Actor, D20Stats, d20_actor
from vigile.games.d20.walker import D20Walker, d20_walker
from vigile.rulesets.data import RuleData
from vigile.rulesets.senses import Condition, Sense, dark_for
from vigile.scene.actors import GuardState, Side
from vigile.scene.geometry import KindRule, crossings
from vigile.scene.model import Scenario, WallKind
from vigile.scene.plans import (
    CloseDoor,
    Kill,
    OpenDoor,
    Speak,
    Strike,
)

SQUARE_FT = 5.0
"""A square's side: adjacent means within one square."""
CLOSE_FT = 4.5
"""How near a defender closes in on a point: within reach, whatever the squares' corners."""
LOCATED = DETECTING
"""A defender who knows the intruder's square or sees it: a detection (RULES.md section 4)."""
NO_STATS = D20Stats()


def patrol_margin_ft(rules: RuleData) -> float:
    """How far short of a wall's line a patrol turns, in feet (``turn.patrol_margin_in`` [R]):
    the engine's board and the d20 kernels both read it here."""
    return rules.num("turn.patrol_margin_in") / 12


Square = tuple[int, int]
"""A 5-ft square, ``(x // 5, y // 5)``."""


@dataclass(frozen=True)
class Bearing:
    """A direction perceived, with no distance: from where the defender stood, ``degrees``
    counter-clockwise from the x axis (toward larger y at 90°)."""

    origin: Point
    degrees: float


Known = Square | Bearing
"""What a defender knows of where an intruder is: a square, or only a bearing."""


class D20Game(Game, ABC):
    """One game of a Starfinder or D&D 3.5 scenario, played round by round.

    A d20 game fills the abstract hooks (``perceive``, ``struck``, ``vanished``,
    ``attack_verdict``, ``location_lost``) and may fill the others (``intruder_moved``,
    ``search``, ``attack_roll``, ``attack_square``, ``snipe``, ``end_of_round``): each is
    its rule, the round never rules in its place."""

    walker_type: ClassVar[type[Walker]] = D20Walker

    def __init__(
        self, scenario: Scenario, rules: RuleData, rng: np.random.Generator, faces: FaceSource
    ) -> None:
        super().__init__(scenario, rules, rng, faces, d20_board(scenario, rules))
        self.alarm: tuple[int, str] | None = None
        """The round the alarm was raised, and by whom."""
        self.noisy: set[str] = set()
        """Intruders who fought or spoke this round (DD-5: Listen DC 0)."""
        self.fought: set[str] = set()
        """Intruders who attacked this round (DD-20: Hide as attacking)."""
        self.known: dict[tuple[str, str], Known] = {}
        """(defender, intruder): what the defender knows of where it is, as it perceived it
        (a square, or a bearing from where it stood); absent: nothing about where."""
        self.speeds: dict[str, Attitude] = {}
        """How each intruder moved this round (absent: it did not move)."""
        self.walked: dict[str, float] = {}
        """How far each defender moved this round: never more than its speed."""
        self.pinned: dict[tuple[str, str], str] = {}
        """(defender, intruder) → the rule that gave the defender its square (DD-4 Spot, DD-5
        Listen, DD-6 groping, DD-7 its blow, DD-1 it vanished, DD-10 flour, SF-5...): the
        square where the intruder was, lost when it moves (LP-2)."""
        self.running: set[str] = set()
        """Intruders who ran or charged this round (a leg's ``run``: DD-5, DD-20, SF-3)."""
        self.hp: dict[str, int] = {
            w.name: hp for w in self.walkers if (hp := stats_of(w).hp) is not None
        }
        """The hit points left to each creature that has ``hp`` (LP-7: optional)."""
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

    can_run = True

    def rule_of(self, topic: str) -> str | None:
        # LP-1: a round's move action (or two, or a run) moves a creature its speed
        return {"movement": "LP-1"}.get(topic)

    def move_rate(self, walker: Walker, speed: Attitude, *, run: bool = False) -> float:
        """A round's move at ``fast``, half of it at any other speed; running (a leg's ``run``),
        ``turn.run_multiplier`` times it."""
        if run:
            return self._move(walker) * float(self.rules.num("turn.run_multiplier"))
        return self._move(walker) if speed is Attitude.FAST else self._move(walker) / 2

    def knows_who(self, viewer: Walker, other: Walker) -> bool:
        """An intruder knows who a defender is while it has a line of sight to it and the
        defender is not invisible to it: the texts' perception rules are the defenders' search
        for the hidden, the defenders do not hide ([R] LP-5)."""
        if super().knows_who(viewer, other):
            return True
        return (
            viewer.side is Side.ATTACKERS
            and other.side is Side.DEFENDERS
            and not hidden_from(viewer, other)
            and self._sight_line(viewer, other)
        )

    def perceived(self, observer: Walker, target: Walker) -> tuple[Point | None, float | None]:
        """What ``observer`` holds of where ``target`` is (:attr:`known`): the centre of the
        square it located, the point it observes, or the bearing it perceived (LP-2, LP-5)."""
        state = observer.aware_of(target.name)
        if state is AwarenessState.OBSERVED:
            return target.at, None
        held = self.known.get((observer.name, target.name))
        if isinstance(held, Bearing):
            return None, held.degrees
        if held is not None and state is AwarenessState.LOCATION:
            return centre_of(held), None
        if held is not None and state is AwarenessState.DIRECTION:
            return None, bearing(observer.at, centre_of(held))  # LP-2: the way to where it was
        return None, None

    def known_place(self, target: Walker, state: AwarenessState) -> Point:
        """Located but unseen, a target is known by its square (DD-4..DD-6): its centre."""
        if state is AwarenessState.OBSERVED:
            return target.at
        return centre_of(square_of(target.at))

    def blow_reach(self, walker: Walker, *, ranged: bool) -> float:
        """LP-7 [R]: a shot reaches ``blow.shot_range_ft``; a melee blow the adjacent squares,
        or the attacker's ``reach`` when it is longer."""
        if ranged:
            return float(self.rules.num("blow.shot_range_ft"))
        return max(float(stats_of(walker).reach), SQUARE_FT)

    def blow_distance(self, walker: Walker, point: Point, *, ranged: bool) -> float:
        """LP-7: a melee blow counts the squares between (diagonals as one: an adjacent square
        is 5 ft away); a shot, the straight distance."""
        if ranged:
            return distance(walker.at, point)
        a, b = square_of(walker.at), square_of(point)
        return SQUARE_FT * max(abs(a[0] - b[0]), abs(a[1] - b[1]))

    def _unfinished(self) -> Outcome:
        """At the round limit: the alarm if it was raised (with its round), else the limit."""
        if self.alarm is not None:
            return Outcome("alarm", self.alarm[0], unseen=False, by=(self.alarm[1],))
        return super()._unfinished()

    def begin_turn(self) -> None:
        """Step 1: a new round, and the patrols."""
        self.turn += 1
        self.emit("turn", "engine.event.turn", public=True)
        self.noisy = set()
        self.fought = set()
        self.speeds = {}
        self.walked = {}
        self.running = set()
        for walker in self.walkers:
            walker.moved = False
        self._patrols()

    def finish_turn(self) -> None:
        """Steps 3 to 6, once the intruders have moved and acted."""
        for intruder in self.intruders():
            self.perceive(intruder)
        for defender in self.defenders():
            if self.outcome is None and self.left_alone(defender):  # LP-6
                self._defend(defender)
        self.end_of_round()
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
            if self.left_alone(guard):  # LP-6: one the GM acted for does not patrol
                self._wander(guard, angle)

    def _wander(self, guard: Walker, angle: float) -> None:
        """A patrol: half its speed along ``angle``, bouncing (SK-G1's scatter borrowed)."""
        xs, ys = self.board.patrol(
            [guard.x],
            [guard.y],
            angle,
            self._move(guard) / 2,
            self.rules.num("turn.patrol_bounces"),
            patrol_margin_ft(self.rules),
        )
        walked = self.walked.get(guard.name, 0.0) + distance(guard.at, (xs[0], ys[0]))
        self.walked[guard.name] = walked
        guard.x, guard.y, guard.moved = xs[0], ys[0], True
        self.emit(
            "patrol",
            "engine.event.patrol",
            actor=guard,
            at=guard.at,
            perceived_by=self._allies(guard),
            params={"degrees": round(math.degrees(angle)) % 360},
        )

    # ---------------------------------------------------------------- the GM's defenders (LP-6)

    def guard_rate(self, defender: Walker) -> float:
        """What is left of its speed this round, its patrol included (LP-6 [R])."""
        return max(0.0, self._move(defender) - self.walked.get(defender.name, 0.0))

    def guard_moved(self, defender: Walker, start: Point) -> None:
        self.walked[defender.name] = self.walked.get(defender.name, 0.0) + distance(
            start, defender.at
        )

    def patrol_of(self, defender: Walker) -> list[Walker]:
        """A patrolling defender walks alone."""
        return [defender] if defender.actor.state is GuardState.PATROLLING else []

    def gm_scatter(self, members: list[Walker], degrees: float) -> None:
        for guard in members:
            self._wander(guard, math.radians(degrees))

    def gm_alarm(self, defender: Walker) -> None:
        """The round's alarm (step 4 [engine]): every defender on alert, which wakes the
        asleep and ends distraction; the first alarm is the one the outcome names."""
        if self.alarm is None:
            self.alarm = (self.turn, defender.name)
        for other in self.defenders():
            other.alert = True
        self.emit(
            "alarm",
            "live.event.raise_alarm",
            actor=defender,
            at=defender.at,
            public=True,
            params={"rule": "LP-6"},
        )

    # ---------------------------------------------------------------- 2. plans

    def step(self, intruder: Walker, to: Point, speed: Attitude) -> None:
        leg = intruder.current_leg
        running = leg is not None and leg.run
        rate = self.move_rate(intruder, speed, run=running)
        if running:
            speed = Attitude.FAST
            self.running.add(intruder.name)
        before = intruder.at
        self._advance(intruder, to, rate)
        self.speeds[intruder.name] = speed
        if intruder.at != before:
            self._unpin(intruder)
            self.intruder_moved(intruder, before)
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

    def act(self, intruder: Walker, action: object) -> None:
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
                hit = self._roll_to_hit(intruder, victim)
                self._blow(intruder, victim)
                if victim.side is Side.DEFENDERS:
                    self.struck(victim, intruder, ranged=action.ranged)
                if hit:
                    self._hit(intruder, victim)
        elif isinstance(action, Speak):
            self.noisy.add(intruder.name)  # DD-5: speaking is DC 0 to hear this round
            self._speak(intruder, action)
        elif isinstance(action, OpenDoor | CloseDoor):
            self._door(intruder, action.door, isinstance(action, OpenDoor))
        elif isinstance(action, AttackSquare):
            self.noisy.add(intruder.name)
            self.fought.add(intruder.name)
            self.attack_square(intruder, action)
        elif isinstance(action, Snipe):
            victim = self.by_name[action.target]
            if victim.alive:
                self.fought.add(intruder.name)
                self.snipe(intruder, victim)
        elif isinstance(action, CastInvisibility | EndInvisibility):
            self._set_invisible(intruder, isinstance(action, CastInvisibility))
        # A grapple is a skirmish action (SK-N2): no d20 rule plays it.

    def _set_invisible(self, intruder: Walker, on: bool) -> None:
        """It becomes invisible (or visible) from now on. Each defender who observed it and
        now cannot see it keeps only what its game says (D&D 3.5: the square it vanished in,
        until it moves) [DD-1, SF-11]; one who can see it again finds it by the next
        perception step."""
        d20_walker(intruder).invisible = on
        watchers = {
            d.name for d in self.defenders() if d.aware_of(intruder.name) is AwarenessState.OBSERVED
        }
        self.emit(
            "action",
            "engine.d20.becomes_invisible" if on else "engine.d20.becomes_visible",
            actor=intruder,
            at=intruder.at,
            perceived_by=self._allies(intruder) | watchers,
        )
        if not on:
            return
        for name in sorted(watchers):
            defender = self.by_name[name]
            if not hidden_from(defender, intruder):
                continue
            state, rule = self.vanished()
            defender.awareness[intruder.name] = state
            self.known[(name, intruder.name)] = square_of(intruder.at)
            self.pinned[(name, intruder.name)] = rule  # until it moves (LP-2)
            self.perceives(
                defender,
                intruder,
                state,
                "engine.d20.vanishes",
                rule=rule,
            )

    def _into_the_dark(self, intruder: Walker) -> None:
        """A visible intruder walked into darkness: each defender that observed it and whose
        darkvision does not reach it keeps only what its game keeps of one it saw vanish (the
        square, until it moves) [R, as DD-1 and SF-11 for invisibility]."""
        if is_invisible(intruder):
            return
        for defender in self.defenders():
            if defender.aware_of(intruder.name) is not AwarenessState.OBSERVED:
                continue
            if not self._dark_for(defender, intruder):
                continue
            state, rule = self.vanished()
            defender.awareness[intruder.name] = state
            self.known[(defender.name, intruder.name)] = square_of(intruder.at)
            self.pinned[(defender.name, intruder.name)] = rule  # until it moves (LP-2)
            self.perceives(
                defender,
                intruder,
                state,
                "engine.d20.vanishes",  # into the dark
                rule=rule,
            )

    @abstractmethod
    def struck(self, victim: Walker, intruder: Walker, *, ranged: bool = False) -> None:
        """What the struck defender learns of its attacker: each game's rule [DD-7, SF-11]."""
        ...

    @abstractmethod
    def vanished(self) -> tuple[AwarenessState, str]:
        """What an observer keeps of an intruder it saw become invisible, and the rule."""
        ...

    def attack_square(self, intruder: Walker, action: AttackSquare) -> None:
        """An attack on a named square (DD-9): each game's rule; refused where it has none."""
        self._refuse(intruder, "attack-square")

    def snipe(self, intruder: Walker, victim: Walker) -> None:
        """Sniping (SF-10): each game's rule; refused where it has none."""
        self._refuse(intruder, "snipe")

    def _refuse(self, intruder: Walker, action: str) -> None:
        """An action this game has no rule for: logged, nothing else happens (a scenario
        that plans it is refused when validated; live play may still hand it over)."""
        self.emit(
            "action",
            "engine.d20.no_such_action",
            actor=intruder,
            params={"action": action, "ruleset": self.scenario.ruleset},
        )

    def _learn(
        self,
        observer: Walker,
        intruder: Walker,
        state: AwarenessState,
        rule: str,
        *,
        pin: str | None = None,
    ) -> None:
        """Raise what ``observer`` knows of ``intruder``; a first location raises the alarm.

        A location, whatever found it (Spot +20, Listen by 20, groping, a blow, a sign), is
        the square where the intruder *was*: it holds only until the intruder moves, then the
        game's ``intruder_moved`` leaves the observer what its rule says of a lost square and the
        square itself, never the new one (LP-2). ``pin``: the rule recorded as the one that
        gave the square, ``rule`` by default.
        """
        if state is AwarenessState.UNAWARE:
            return
        key = (observer.name, intruder.name)
        self._remember(observer, intruder, state)
        if state is AwarenessState.LOCATION:
            if observer.aware_of(intruder.name) is not AwarenessState.OBSERVED:
                self.pinned[key] = rule if pin is None else pin
        elif state is AwarenessState.OBSERVED:
            self.pinned.pop(key, None)
        if not observer.learn(intruder.name, state):
            return
        after = observer.aware_of(intruder.name)
        held = self.known.get(key)
        self.perceives(
            observer,
            intruder,
            after,
            "engine.d20.learns",
            rule=rule,
            # LP-5, LP-2: a square found (a blow from an unseen attacker, Spot +20, Listen by
            # 20, groping) is said with the event: the centre of the square where it was
            at=centre_of(held)
            if after is AwarenessState.LOCATION and isinstance(held, tuple)
            else None,
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

    def _remember(self, observer: Walker, intruder: Walker, state: AwarenessState) -> None:
        """What ``observer`` now knows of where ``intruder`` is, from a perception that gave
        it ``state``: the square (location, observed), the bearing from where it stands
        (direction), nothing new (presence). A lesser perception does not blur a square it
        holds now (located or observed)."""
        key = (observer.name, intruder.name)
        if state.at_least(AwarenessState.LOCATION):
            self.known[key] = square_of(intruder.at)
        elif state is AwarenessState.DIRECTION:
            if observer.aware_of(intruder.name).at_least(AwarenessState.LOCATION):
                return
            dx, dy = intruder.x - observer.x, intruder.y - observer.y
            self.known[key] = Bearing(observer.at, math.degrees(math.atan2(dy, dx)) % 360.0)

    def _unpin(self, intruder: Walker) -> None:
        """The intruder moved: each defender that had located it (and does not observe it)
        keeps the square where it was and what its game's rule leaves of a lost square
        (``location_lost``); it must perceive again to find the new one (LP-2)."""
        for (name, target), cause in list(self.pinned.items()):
            if target != intruder.name:
                continue
            del self.pinned[(name, target)]
            defender = self.by_name[name]
            if defender.aware_of(target) is not AwarenessState.LOCATION:
                continue
            state, rule = self.location_lost(cause)
            defender.awareness[target] = state
            self.perceives(
                defender,
                intruder,
                state,
                "engine.d20.lost",
                rule=rule,
            )

    def _sight_line(self, observer: Walker, intruder: Walker) -> bool:
        return self.board.sees(observer.at, intruder.at)

    def _clear_way(self, a: Point, b: Point) -> bool:
        """Nothing that stops a walker between ``a`` and ``b``: a defender walks, gropes, throws
        and strikes in melee only where it could walk (a closed window lets sight through, not
        a body nor a blow; ``[barrier.*]``)."""
        return not self.board.blocks_walker(a, b)

    def _carried_lights(self) -> list[Walker]:
        return [w for w in self.walkers if w.alive and stats_of(w).light > 0]

    def _lit(self, p: Point) -> bool:
        """A light of the scenario reaches ``p``, or one a living creature carries (within its
        radius, no wall between) [DD-16: an invisible one's too]."""
        if self.board.lit(p):
            return True
        return any(
            carried_light_reaches(self.board, w.at, stats_of(w).light, p)
            for w in self._carried_lights()
        )

    def _dark_for(self, observer: Walker | None, intruder: Walker) -> bool:
        """The intruder stands in darkness, beyond ``observer``'s darkvision (None: is its
        place dark at all) [the game's vision and light, :func:`senses.dark_for`]."""
        return in_darkness(
            self.scenario,
            self.rules,
            lit=self._lit(intruder.at),
            any_light=bool(self.scenario.lights) or bool(self._carried_lights()),
            senses=() if observer is None else observer.actor.senses,
            distance=0.0 if observer is None else distance(observer.at, intruder.at),
        )

    def _unseen_by(self, observer: Walker, intruder: Walker) -> bool:
        """It cannot see the intruder: invisible to it (:func:`hidden_from`), or in darkness
        beyond its darkvision."""
        return hidden_from(observer, intruder) or self._dark_for(observer, intruder)

    def _speed(self, intruder: Walker) -> Attitude:
        """How it moved this round: its leg's speed, or immobile."""
        return self.speeds.get(intruder.name, Attitude.IMMOBILE)

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
            params={"distance": quoted(distance(observer.at, intruder.at))} if located else None,
        )

    def _conditions(self, intruder: Walker) -> list[Condition]:
        actor = own(intruder)
        found = [
            c
            for c, on in (
                (Condition.INVISIBLE, is_invisible(intruder)),
                (Condition.ETHEREAL, actor.ethereal),
                (Condition.INCORPOREAL, actor.incorporeal),
                (Condition.NOT_BREATHING, not actor.breathing),
                (Condition.IN_LIQUID, self.board.surface(intruder.at) == "water"),
            )
            if on
        ]
        return found

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
            if own(intruder).ethereal:
                return  # not physically there: no blow reaches it (DD-17) [engine]
            # Located but not seen, it knows the square where it found it, not the point in it
            # (DD-4..DD-6, LP-2): it closes in on that square, and its move tells no one more.
            held = self.known.get((defender.name, intruder.name))
            if state is AwarenessState.OBSERVED:
                self._close_in(defender, intruder.at)
            else:
                square = held if isinstance(held, tuple) else square_of(intruder.at)
                self._close_in(defender, centre_of(square))
            if adjacent(defender.at, intruder.at) and self._clear_way(defender.at, intruder.at):
                self._attack(defender, intruder, state)
            return
        self.search(defender, intruder, self.known.get((defender.name, intruder.name)))

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
        if not self._clear_way(defender.at, to):
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

    def _step_along(self, defender: Walker, degrees: float, length: float) -> bool:
        """Walk ``length`` (within what is left of its move) straight along ``degrees``; stay
        if a wall or a closed door is in the way, or the map ends. True when it moved."""
        step = min(length, self._move(defender) - self.walked.get(defender.name, 0.0))
        if step <= 0:
            return False
        angle = math.radians(degrees)
        to = (defender.x + step * math.cos(angle), defender.y + step * math.sin(angle))
        if not self._on_map(to) or not self._clear_way(defender.at, to):
            return False
        defender.x, defender.y = to
        defender.moved = True
        self.walked[defender.name] = self.walked.get(defender.name, 0.0) + step
        self.emit(
            "move",
            "engine.d20.searches",
            actor=defender,
            at=defender.at,
            perceived_by=self._allies(defender),
        )
        return True

    def _on_map(self, p: Point) -> bool:
        return 0 <= p[0] <= self.board.width and 0 <= p[1] <= self.board.height

    def _attack(self, defender: Walker, intruder: Walker, state: AwarenessState) -> None:
        """One attack on a located or observed intruder [SF-8, DD-8, DD-12, DD-14, DD-15]."""
        blindsight = Sense.BLINDSIGHT in defender.actor.senses and self._unseen_by(
            defender, intruder
        )
        if not self._roll_to_hit(defender, intruder):
            return
        verdict = self.attack_verdict(defender, intruder, state, blindsight)
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
        self._hit(defender, intruder)

    def _hit(self, attacker: Walker, target: Walker) -> None:
        """A hit that nothing stopped (LP-7 [R]). A target with ``hp`` takes the attacker's
        ``damage`` and is down at 0 or less. Without hit points to count, a defender's hit on
        an intruder catches it only where one blow ends the encounter
        (``blow.ends_encounter``), and is logged otherwise; an intruder's hit on a defender is
        the GM's (its attack roll is logged)."""
        damage = stats_of(attacker).damage
        hp = self.hp.get(target.name)
        if hp is not None and damage is not None:
            self.hp[target.name] = hp - damage
            self.emit(
                "attack",
                "engine.d20.wounds",
                actor=attacker,
                target=target,
                at=target.at,
                perceived_by={target.name},
                params={"damage": damage, "hp": hp - damage},
            )
            if hp - damage <= 0:
                self._down(attacker, target)
        elif target.side is Side.DEFENDERS:
            return
        elif self.rules.flag("blow.ends_encounter"):
            self._down(attacker, target)
        else:
            self.emit(
                "attack",
                "engine.d20.hits",
                actor=attacker,
                target=target,
                at=target.at,
                perceived_by={target.name},
            )

    def _down(self, attacker: Walker, target: Walker) -> None:
        """The target is out: a defender down, an intruder caught; the last intruder caught
        ends the game (``detected``)."""
        target.alive = False
        if target.side is Side.DEFENDERS:
            self.emit(
                "action",
                "engine.d20.down",
                actor=attacker,
                target=target,
                at=target.at,
                perceived_by={target.name},
            )
            return
        self.emit(
            "attack",
            "engine.d20.caught",
            actor=attacker,
            target=target,
            at=target.at,
            perceived_by={target.name},
        )
        if not self.intruders():
            self.outcome = Outcome("detected", self.turn, unseen=False, by=(attacker.name,))
            self.emit("end", "engine.d20.all_caught", public=True, params={"by": attacker.name})

    def _roll_to_hit(self, attacker: Walker, target: Walker) -> bool:
        """The game's attack roll, logged for the attacker; True when it hits. A target
        without ``ac`` has none: the GM says hit or miss, which the round takes from
        ``blow.hits_without_ac`` (LP-7 [R])."""
        roll = self.attack_roll(attacker, target)
        if roll is None:
            return self.rules.flag("blow.hits_without_ac")
        self.emit(
            "attack",
            "engine.event.attack",
            actor=attacker,
            target=target,
            at=target.at,
            verdict=roll,
        )
        return bool(roll.success)

    # ---------------------------------------------------------------- each game's rules

    def attack_roll(self, attacker: Walker, target: Walker) -> Verdict | None:
        """The game's attack roll against ``target``'s AC; None when it has no ``ac``."""
        return None

    @abstractmethod
    def perceive(self, intruder: Walker) -> None:
        """Every living defender perceives ``intruder`` by the game's rules (step 3)."""
        ...

    @abstractmethod
    def attack_verdict(
        self, defender: Walker, intruder: Walker, state: AwarenessState, blindsight: bool
    ) -> Verdict | None:
        """The game's attack check on a located or observed intruder; None when the defender
        sees it and strikes with no miss chance."""
        ...

    @abstractmethod
    def location_lost(self, cause: str) -> tuple[AwarenessState, str]:
        """What a defender keeps of an intruder it had located by the rule ``cause`` once it
        moves, and the rule that says so (LP-2)."""
        ...

    def intruder_moved(self, intruder: Walker, start: Point) -> None:
        """The intruder moved this round from ``start``: what a game's defenders lose of it,
        what it lost on its way (nothing here)."""

    def end_of_round(self) -> None:
        """What wears off at the end of a round: each game's (nothing here)."""

    def search(self, defender: Walker, intruder: Walker, known: Known | None) -> None:
        """A defender aware only of the presence or direction, knowing of where the intruder
        is only ``known`` (a square, a bearing, or nothing): what its game lets it do with that
        (nothing here: it stays)."""

    # ---------------------------------------------------------------- 6. objective


# -------------------------------------------------------------------- small helpers


def barrier_kinds(rules: RuleData) -> dict[str, KindRule]:
    """What each kind of barrier does in a d20 game, from the ruleset's ``[barrier.*]`` (a
    ``wall``, ``partition``, closed ``door`` or ``window``, and ``open`` for an open door or
    window): the engine's board, the risk map and the compiled kernel all build theirs here."""
    return {
        kind: KindRule(
            blocks_sight=rules.flag(f"barrier.{kind}.blocks_sight"),
            counts_for_noise=rules.flag(f"barrier.{kind}.counts_for_noise"),
            blocks_movement=rules.flag(f"barrier.{kind}.blocks_movement"),
        )
        for kind in (*(k.value for k in WallKind), OPEN_KIND)
    }


def d20_board(scenario: Scenario, rules: RuleData) -> Board:
    """The board of a d20 scenario: its barriers as the ruleset's ``[barrier.*]`` says
    (:func:`barrier_kinds`), no light radius of the game's own (each light gives its radius)."""
    return Board(scenario, 0.0, barrier_kinds(rules))


def carried_light_reaches(board: Board, at: Point, radius: float, p: Point) -> bool:
    """A light carried at ``at`` with ``radius`` feet lights ``p``: within the radius, no
    sight-blocking barrier between [DD-16, SF-2]. The round and the risk map ask it."""
    return distance(at, p) <= radius and board.sees(at, p)


def in_darkness(
    scenario: Scenario,
    rules: RuleData,
    *,
    lit: bool,
    any_light: bool,
    senses: Iterable[Sense] = (),
    distance: float = 0.0,
) -> bool:
    """A place is in darkness for an observer with ``senses`` at ``distance`` (none: is it dark
    at all): the scenario's ``time``, whether a light reaches the place (``lit``) and whether
    any light is on the map (``any_light``, for ``light.dark_without_lights``), by the game's
    vision rule :func:`vigile.rulesets.senses.dark_for`. The round and the risk map ask it."""
    return dark_for(
        rules,
        night=scenario.time is TimeOfDay.NIGHT,
        lit=lit,
        any_light=any_light,
        senses=senses,
        distance=distance,
    )


def own(walker: Walker) -> D20Actor:
    """The walker's actor with the d20 fields (:mod:`vigile.games.d20.fields`)."""
    return d20_actor(walker.actor)


def stats_of(walker: Walker) -> D20Stats:
    return own(walker).bonuses or NO_STATS


def square_of(p: Point) -> tuple[int, int]:
    return (math.floor(p[0] / SQUARE_FT), math.floor(p[1] / SQUARE_FT))


def centre_of(square: Square) -> Point:
    """The centre of a 5-ft square."""
    return ((square[0] + 0.5) * SQUARE_FT, (square[1] + 0.5) * SQUARE_FT)


def adjacent(a: Point, b: Point) -> bool:
    """The same or a neighbouring 5-ft square (diagonals included)."""
    sa, sb = square_of(a), square_of(b)
    return max(abs(sa[0] - sb[0]), abs(sa[1] - sb[1])) <= 1


def sighted(walker: Walker) -> bool:
    senses = walker.actor.senses
    return Sense.SIGHT in senses or Sense.DARKVISION in senses


def is_invisible(walker: Walker) -> bool:
    """Invisible now: as the scenario says, unless it cast or ended invisibility since
    (``D20Walker.invisible``, set by the ``cast-invisibility`` and ``end-invisibility`` actions)."""
    cast = d20_walker(walker).invisible
    return own(walker).invisible if cast is None else cast


def hidden_from(observer: Walker, intruder: Walker) -> bool:
    """Invisible (or ethereal) to this observer: it does not see invisible."""
    hidden = is_invisible(intruder) or own(intruder).ethereal
    return hidden and Sense.SEE_INVISIBLE not in observer.actor.senses


def awake(walker: Walker) -> bool:
    return not asleep(walker)


def asleep(walker: Walker) -> bool:
    """Asleep until the alarm wakes it [engine]."""
    return own(walker).asleep and not walker.alert


def distracted(walker: Walker) -> bool:
    """Distracted until the alarm [engine]."""
    return own(walker).distracted and not walker.alert
