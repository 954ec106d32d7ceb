"""What every game shares, whatever the ruleset: the walkers, the log, the plans, the end.

A ruleset's game (:class:`~vigile.games.skirmish.raid.SkirmishGame`,
:class:`~vigile.games.d20.round.D20Game`, a plug-in's) subclasses :class:`Game` and fills
the public hooks that :class:`TurnHooks` lists: its turn (``play_turn``, or ``begin_turn``,
``step``, ``act`` and ``finish_turn``), and for live play how far a creature moves
(``move_rate``), how far its blows reach (``blow_reach``) and how the GM's patrols scatter
(``gm_scatter``). A hook the game does not fill raises :class:`HookMissing`, naming it.
What a character comes to know is logged with :meth:`Game.perceives` (``docs/plugins.md``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import ClassVar, Protocol

import numpy as np
from pydantic import BaseModel

from vigile.awareness.ladder import AwarenessState
from vigile.awareness.vocabulary import Attitude
from vigile.checks.numbers import quoted
from vigile.checks.verdict import Param, Verdict
from vigile.dice.source import FaceSource
from vigile.engine import defenders
from vigile.engine.board import Board, Point, bearing, distance
from vigile.engine.events import Event, Perception
from vigile.engine.live import DEFENDER_ACTIONS, EndTurn, Hide, Move, Refusal, Wait, actor_of
from vigile.engine.objective import reached_by
from vigile.engine.result import GameResult, Outcome
from vigile.engine.state import Walker
from vigile.rulesets.data import RuleData
from vigile.rulesets.economy import Cost, RoundAllows, Spent, cost_of, left, round_of, spend
from vigile.scene.actors import Side
from vigile.scene.model import Scenario
from vigile.scene.plans import MAX_ACTIONS, Blow, ClimbAid, Leg, Speak


class TurnHooks(Protocol):
    """The public hooks of a game's turn, each filled by the game's :class:`Game` subclass
    (``docs/plugins.md`` names each; the toy games of ``tests/toygame*`` fill them)."""

    def play_turn(self) -> None:
        """One turn of the plans (the default: ``begin_turn``, each intruder's ``step`` and
        ``act`` along its plan, ``finish_turn``)."""
        ...

    def begin_turn(self) -> None:
        """What happens before the intruders move: a new turn, the patrols."""
        ...

    def finish_turn(self) -> None:
        """What happens once the intruders have moved and acted: every check of the turn."""
        ...

    def step(self, intruder: Walker, to: Point, speed: Attitude) -> None:
        """Move ``intruder`` to ``to`` at ``speed`` (a plan's leg, a live move), with what
        the game's rules say of moving."""
        ...

    def act(self, intruder: Walker, action: object) -> None:
        """Do a plan's action (a strike, a door...) by the game's rules."""
        ...

    def move_rate(self, walker: Walker, speed: Attitude, *, run: bool = False) -> float:
        """How far ``walker`` moves in one turn at ``speed`` (live play's moves)."""
        ...

    def blow_reach(self, walker: Walker, *, ranged: bool) -> float:
        """How far a blow of ``walker`` reaches (LP-7)."""
        ...

    def gm_scatter(self, members: list[Walker], degrees: float) -> None:
        """Move a patrol as its scatter die showing ``degrees`` would (LP-6)."""
        ...


HOOKS: tuple[str, ...] = (
    "play_turn",
    "begin_turn",
    "finish_turn",
    "step",
    "act",
    "move_rate",
    "blow_reach",
    "gm_scatter",
)
"""The names of :class:`TurnHooks`, in their order (a test holds the two together)."""


class HookMissing(NotImplementedError):
    """A game's turn does not fill a hook of :class:`TurnHooks` that vigile called."""

    def __init__(self, game: object, hook: str) -> None:
        super().__init__(
            f"{type(game).__name__} does not fill the hook {hook!r} of TurnHooks "
            "(docs/plugins.md, 'The turn')"
        )


BLOW_NOT_MADE = {
    "live.refusal.out_of_reach": "engine.blow.out_of_reach",
    "live.refusal.out_of_range": "engine.blow.out_of_range",
    "live.refusal.no_line": "engine.blow.no_line",
    "live.refusal.blow_wall": "engine.blow.blow_wall",
    "live.refusal.self_blow": "engine.blow.self_blow",
    "live.refusal.ally_blow": "engine.blow.ally_blow",
}
"""The log's message of a planned blow not made, by the refusal live play gives it (LP-7)."""


class Game:
    """One game of a scenario: who is where, what happened, how it ended."""

    walker_type: ClassVar[type[Walker]] = Walker
    """The class of its walkers: :class:`~vigile.engine.state.Walker`, or a subclass of it
    holding what the game keeps of each creature beyond the shared state (a dataclass whose
    new fields have defaults: the d20 games keep an invisibility cast in play). Built once per
    actor, with its place, alert and plan; live play's checkpoints pickle it with the game,
    and its undo copies it."""

    def __init__(
        self,
        scenario: Scenario,
        rules: RuleData,
        rng: np.random.Generator,
        faces: FaceSource,
        board: Board,
    ) -> None:
        self.scenario = scenario
        self.rules = rules
        self.rng = rng
        self.faces = faces
        self.board = board
        self.walkers = [
            self.walker_type(
                a, a.position[0], a.position[1], alert=a.alert, legs=scenario.plans.get(a.name, ())
            )
            for a in scenario.actors
        ]
        self.by_name = {w.name: w for w in self.walkers}
        self.events: list[Event] = []
        self.turn = 0
        self.outcome: Outcome | None = None
        self.ever_detected = False
        self.on_event: Callable[[Event], None] | None = None
        """Called with each event as it is logged (``--step`` prints the log as it goes)."""
        self.live_acts: dict[str, int] = {}
        """Live play: how many things each intruder did this turn."""
        self.grapples: set[str] = set()
        """Live play: intruders who threw a grapple since their last move."""
        self.live_spent: dict[str, Spent] = {}
        """Live play: what each creature has spent of its round (LP-1, the d20 games)."""
        self.orders: dict[str, set[str]] = {}
        """Live play: the defenders the GM acted for this turn, and what each order spent
        (LP-6, :mod:`vigile.engine.defenders`); cleared once the next turn has begun."""

    # ---------------------------------------------------------------- queries

    def defenders(self) -> list[Walker]:
        return [w for w in self.walkers if w.side is Side.DEFENDERS and w.alive]

    def intruders(self) -> list[Walker]:
        return [w for w in self.walkers if w.side is Side.ATTACKERS and w.alive]

    def _allies(self, walker: Walker) -> set[str]:
        return {w.name for w in self.walkers if w.side is walker.side}

    # ---------------------------------------------------------------- the log

    def emit(
        self,
        kind: str,
        message: str,
        *,
        actor: Walker | None = None,
        target: Walker | None = None,
        at: Point | None = None,
        verdict: Verdict | None = None,
        perceived_by: Iterable[str] = (),
        public: bool = False,
        params: Mapping[str, Param] | None = None,
        perception: Perception | None = None,
    ) -> None:
        """Log an event; its actor always perceives it, and so does everyone in ``perceived_by``.

        A ``perceive`` event carries its typed :class:`~vigile.engine.events.Perception`
        (:meth:`perceives` gives it); one logged with its actor, its target and a ``state``
        parameter and no ``perception`` gets the one those say."""
        if perception is None and kind == "perceive" and actor and target and params:
            state, rule = params.get("state"), params.get("rule")
            if isinstance(state, str) and state in {s.value for s in AwarenessState}:
                ruled = rule if isinstance(rule, str) else None
                perception = Perception(actor.name, target.name, AwarenessState(state), ruled)
        names = set(perceived_by)
        if actor is not None:
            names.add(actor.name)
        shown: dict[str, Param] = {
            "actor": actor.name if actor else "",
            "target": target.name if target else "",
        }
        if at is not None:
            shown |= {"x": quoted(at[0]), "y": quoted(at[1])}
        shown |= {"unit": self.scenario.units.value, "turn": self.turn}
        shown |= params or {}
        self.events.append(
            Event(
                turn=self.turn,
                kind=kind,
                message=message,
                params=shown,
                actor=actor.name if actor else None,
                target=target.name if target else None,
                at=None if at is None else (quoted(at[0]), quoted(at[1])),
                verdict=verdict,
                perceived_by=frozenset(names),
                public=public,
                unnamed=self._unnamed(
                    [w.name for w in self.walkers] if public else names, actor, target, shown
                ),
                perception=perception,
            )
        )
        if self.on_event is not None:
            self.on_event(self.events[-1])

    def perceives(
        self,
        observer: Walker,
        target: Walker,
        state: AwarenessState,
        message: str,
        *,
        rule: str | None = None,
        verdict: Verdict | None = None,
        at: Point | None = None,
        params: Mapping[str, Param] | None = None,
    ) -> None:
        """Log that ``observer`` now knows ``state`` of ``target`` by ``rule``: a ``perceive``
        event with its typed :class:`~vigile.engine.events.Perception`, what ``vigile
        simulate`` counts (a located or seen target is a detection, RULES.md §4). The caller
        has ruled it (its game's rule) and updated the observer's awareness."""
        shown: dict[str, Param] = {"state": state.value, **(params or {})}
        if rule is not None:
            shown["rule"] = rule
        self.emit(
            "perceive",
            message,
            actor=observer,
            target=target,
            at=at,
            verdict=verdict,
            params=shown,
            perception=Perception(observer.name, target.name, state, rule),
        )

    def knows_who(self, viewer: Walker, other: Walker) -> bool:
        """Whether ``viewer`` knows who ``other`` is: its own side, an enemy it observes now
        or one whose position it knew beforehand (SK-G3). A noise heard, a square located, a
        blow from an unseen attacker give no name (LP-5)."""
        return (
            viewer.side is other.side
            or viewer.aware_of(other.name) is AwarenessState.OBSERVED
            or other.name in viewer.knows_position
        )

    def _unnamed(
        self,
        viewers: Iterable[str],
        actor: Walker | None,
        target: Walker | None,
        params: Mapping[str, Param],
    ) -> frozenset[tuple[str, str]]:
        """(viewer, name) for each actor the event names (its actor, its target, a value such
        as ``by``) that a viewer perceiving it does not know (:meth:`knows_who`)."""
        doers = [w for w in (actor, target) if w is not None]
        doers += [
            self.by_name[v]
            for k, v in params.items()
            if k not in ("actor", "target") and isinstance(v, str) and v in self.by_name
        ]
        return frozenset(
            (name, doer.name)
            for name in viewers
            for doer in doers
            if name in self.by_name and not self.knows_who(self.by_name[name], doer)
        )

    def roll(self, check: Callable[..., Verdict], who: Walker, **inputs: object) -> Verdict:
        """Run one check of the rules for ``who``, rolling its dice from the game's faces.

        A face source that wants to tell the GM what it is about to ask for (``--step`` with
        real dice: the check, the character, the difficulty and the odds) has an ``announce``
        method; it is shown the check unrolled first.
        """
        announce = getattr(self.faces, "announce", None)
        if announce is not None:
            announce(check(**inputs, source=None), who.name)
        return check(**inputs, source=self.faces)

    # ---------------------------------------------------------------- the game

    def play(self, turns: int | None = None) -> GameResult:
        """Play turn after turn until an outcome, the scenario's limit or ``turns``."""
        limit = min(turns or self.scenario.turns, self.scenario.turns)
        while self.outcome is None and self.turn < limit:
            self.play_turn()
        if self.outcome is None:
            self.emit("end", "engine.event.turn_limit", public=True)
            self.outcome = self._unfinished()
        return GameResult(self.scenario, self.events, self.outcome, self.walkers)

    def play_turn(self) -> None:
        """One turn of the plans: the turn begins (patrols), each intruder walks its plan,
        the turn ends (the checks the rules call for)."""
        self.begin_turn()
        for intruder in self.intruders():
            if self.outcome is None:
                self._walk(intruder)
        self.finish_turn()

    def begin_turn(self) -> None:
        """What happens before the intruders move: a new turn, the patrols."""
        raise HookMissing(self, "begin_turn")

    def finish_turn(self) -> None:
        """What happens once the intruders have moved and acted: every check of the turn."""
        raise HookMissing(self, "finish_turn")

    def _unfinished(self) -> Outcome:
        """How a game that reached its turn limit ended."""
        return Outcome("turn_limit", self.turn, unseen=not self.ever_detected)

    # ---------------------------------------------------------------- live play

    def start_live(self) -> list[Event]:
        """Begin the first turn of live play (the patrols move): the GM acts next."""
        start = len(self.events)
        if self.turn == 0 and self.outcome is None:
            self.begin_turn()
        return self.events[start:]

    def apply(self, action: BaseModel) -> list[Event]:
        """Carry out one action of live play (:mod:`vigile.engine.live`); return the events it
        logged, each check with its verdict. A refused action raises :class:`Refusal` before
        anything changes."""
        if self.outcome is not None:
            raise Refusal("live.refusal.over", "the game is over")
        if self.turn == 0:
            self.start_live()
        start = len(self.events)
        if isinstance(action, EndTurn):
            self._end_live_turn()
            return self.events[start:]
        if isinstance(action, DEFENDER_ACTIONS):
            defenders.order(self, action)
            return self.events[start:]
        walker = self._live_actor(action)
        spent = self._live_economy(walker, action)
        if isinstance(action, Move):
            self._live_move(walker, action)
        elif isinstance(action, Hide):
            self._live_still(walker, hidden=True)
        elif isinstance(action, Wait):
            self._live_still(walker, hidden=False)
        else:
            self._live_act(walker, action)
        if spent is not None:
            self.live_spent[walker.name] = spent
        return self.events[start:]

    def _end_live_turn(self) -> None:
        self.finish_turn()
        self.live_acts.clear()
        self.live_spent.clear()
        if self.outcome is None and self.turn >= self.scenario.turns:
            self.emit("end", "engine.event.turn_limit", public=True)
            self.outcome = self._unfinished()
        elif self.outcome is None:
            self.begin_turn()
        self.orders.clear()  # the GM's orders held until the next turn began (LP-6)

    def _live_actor(self, action: BaseModel) -> Walker:
        name = actor_of(action)
        walker = self.by_name.get(name or "")
        if walker is None:
            raise Refusal("live.refusal.unknown", f"no actor is called {name!r}", name=name or "")
        if walker.side is not Side.ATTACKERS:
            raise Refusal(
                "live.refusal.defender",
                f"{name} is a defender: the GM moves it with guard-move, search, hold, "
                "raise-alarm or scatter",
                rule="LP-6",
                name=walker.name,
            )
        if not walker.alive:
            raise Refusal("live.refusal.dead", f"{name} is dead", name=walker.name)
        if self.live_acts.get(walker.name, 0) >= MAX_ACTIONS:
            raise Refusal(
                "live.refusal.busy",
                f"{name} has done {MAX_ACTIONS} things this turn: end the turn",
                name=walker.name,
                limit=MAX_ACTIONS,
            )
        return walker

    def _live_economy(self, walker: Walker, action: BaseModel) -> Spent | None:
        """What ``walker`` will have spent of its round once ``action`` is done, or None in a
        game that keeps its own turn (the skirmish: one move, then its actions). An action the
        round has no room for is refused, naming LP-1 and what is left [LP-1]."""
        allows = self.round_allows()
        if allows is None:
            return None
        name = "run" if isinstance(action, Move) and action.run else str(action.model_dump()["do"])
        cost = self.action_cost(name)
        before = self.live_spent.get(walker.name, Spent())
        after = spend(allows, before, name, cost)
        if after is None:
            standard, move = left(allows, before)
            raise Refusal(
                f"live.refusal.economy_{cost.value}",
                f"{walker.name} cannot {name} now (a {cost.value} action): left this round, "
                f"{standard} standard and {move} move action(s)",
                rule="LP-1",
                name=walker.name,
                action=name,
                standard=standard,
                move=move,
            )
        return after

    def _live_move(self, walker: Walker, action: Move) -> None:
        if walker.moved and self.round_allows() is None:
            raise Refusal(
                "live.refusal.moved",
                f"{walker.name} has already moved this turn",
                rule=self.rule_of("movement"),
                name=walker.name,
            )
        if action.speed is Attitude.IMMOBILE:
            raise Refusal(
                "live.refusal.immobile",
                "an immobile actor does not move: use 'wait' or 'hide'",
                rule=self.rule_of("attitudes"),
            )
        to = (float(action.to[0]), float(action.to[1]))
        if not (0 <= to[0] <= self.board.width and 0 <= to[1] <= self.board.height):
            raise Refusal(
                "live.refusal.off_map", f"[{to[0]:g}, {to[1]:g}] is off the map", x=to[0], y=to[1]
            )
        if action.run and not self.can_run:
            raise Refusal("live.refusal.no_run", "no running in this game")
        rate = self.move_rate(walker, action.speed, run=action.run)
        gap = distance(walker.at, to)
        if gap > rate + 1e-9:
            unit = self.scenario.units.value
            raise Refusal(
                "live.refusal.too_far",
                f"{walker.name} moves at most {rate:g} {unit} a turn "
                f"{'running' if action.run else f'at {action.speed.value} speed'}; "
                f"that point is {gap:.4g} {unit} away",
                rule=self.rule_of("movement"),
                name=walker.name,
                rate=quoted(rate),
                distance=quoted(gap),
                speed=action.speed.value,
                unit=unit,
            )
        if action.climb and walker.name not in self.grapples:
            raise Refusal(
                "live.refusal.no_grapple",
                f"{walker.name} has thrown no grapple to climb on",
                name=walker.name,
            )
        if self.board.blocks_walker(walker.at, to, climbing=action.climb):
            raise Refusal(
                "live.refusal.wall",
                f"the way from [{walker.x:g}, {walker.y:g}] to [{to[0]:g}, {to[1]:g}] "
                "passes through a wall, a closed door or a partition",
                rule=self.rule_of("walls"),
            )
        walker.legs = (Leg(to=to, speed=action.speed, climb=action.climb, run=action.run),)
        walker.leg, walker.climbed = 0, False
        try:
            self.step(walker, to, action.speed)
        finally:
            walker.legs, walker.climbed = (), False
        self.grapples.discard(walker.name)
        self._count(walker)

    def _live_still(self, walker: Walker, *, hidden: bool) -> None:
        if walker.moved:
            raise Refusal(
                "live.refusal.moved",
                f"{walker.name} has already moved this turn",
                rule=self.rule_of("movement"),
                name=walker.name,
            )
        if hidden and self.hiding_needs_cover() and not self.board.in_cover(walker.at):
            raise Refusal(
                "live.refusal.no_cover",
                f"{walker.name} is not in cover: no hiding here",
                rule=self.rule_of("attitudes"),
            )
        walker.moved_as = Attitude.HIDDEN if hidden else Attitude.IMMOBILE
        self.emit(
            "action",
            "live.event.hide" if hidden else "live.event.wait",
            actor=walker,
            at=walker.at,
            perceived_by=self._allies(walker),
        )
        self._count(walker)

    def _live_act(self, walker: Walker, action: BaseModel) -> None:
        for field in ("door",):
            door = getattr(action, field, None)
            if door is not None and door not in self.board.door_index:
                raise Refusal("live.refusal.no_door", f"no door is called {door!r}", door=door)
        target = getattr(action, "target", None)
        if target is not None:
            victim = self.by_name.get(target)
            if victim is None:
                raise Refusal(
                    "live.refusal.unknown", f"no actor is called {target!r}", name=str(target)
                )
            if not victim.alive:
                raise Refusal("live.refusal.dead", f"{target} is dead", name=victim.name)
        self._check_reach(walker, action)
        self.check_live_action(walker, action)
        self.act(walker, action)
        if isinstance(action, ClimbAid):  # what a live climb needs [R]
            self.grapples.add(walker.name)
        self._count(walker)

    def _count(self, walker: Walker) -> None:
        self.live_acts[walker.name] = self.live_acts.get(walker.name, 0) + 1

    def _check_reach(self, walker: Walker, action: BaseModel) -> None:
        """A blow (a :class:`~vigile.scene.plans.Blow`: ``strike``, ``kill``, and a game's own,
        such as ``snipe`` or ``attack-square``) needs its reach [LP-7]:
        never at oneself or an ally; in melee within the game's reach (:meth:`blow_reach`) and
        no wall, closed door or partition between; a shot within its range and in a line of
        sight. Refused naming LP-7 and the distance."""
        if not isinstance(action, Blow):
            return
        aim = action.aim()
        ranged = aim.ranged
        unit = self.scenario.units.value
        if aim.target is None:
            assert aim.at is not None
            point = (float(aim.at[0]), float(aim.at[1]))
            target = f"[{point[0]:g}, {point[1]:g}]"
        else:
            victim = self.by_name[aim.target]
            point, target = victim.at, victim.name
            if victim is walker:
                raise Refusal(
                    "live.refusal.self_blow",
                    f"{walker.name} cannot strike itself",
                    rule="LP-7",
                    name=walker.name,
                )
            if victim.side is walker.side:
                raise Refusal(
                    "live.refusal.ally_blow",
                    f"{walker.name} cannot strike {victim.name}, one of its own side",
                    rule="LP-7",
                    name=walker.name,
                    target=victim.name,
                )
        gap = self.blow_distance(walker, point, ranged=ranged)
        reach = self.blow_reach(walker, ranged=ranged)
        params: dict[str, str | int | float] = {
            "name": walker.name,
            "target": target,
            "distance": quoted(gap),
            "reach": quoted(reach),
            "unit": unit,
        }
        away = f"{target} is {gap:.4g} {unit} from {walker.name}"
        if gap > reach + 1e-9:
            what = "range" if ranged else "reach"
            raise Refusal(
                f"live.refusal.out_of_{what}",
                f"{away}: beyond its {what} of {reach:g} {unit}",
                rule="LP-7",
                **params,
            )
        if ranged and not self.board.sees(walker.at, point):
            raise Refusal(
                "live.refusal.no_line", f"{away}, with no line of sight", rule="LP-7", **params
            )
        if not ranged and self.board.blocks_walker(walker.at, point):
            raise Refusal(
                "live.refusal.blow_wall",
                f"{away}, a wall, a closed door or a partition between",
                rule="LP-7",
                **params,
            )

    # The hooks of live play a game supplies (the numbers are its ruleset's).

    def known_place(self, target: Walker, state: AwarenessState) -> Point:
        """Where an enemy aware of ``target`` at ``state`` (location or observed) knows it to be:
        by default the point; a game on a grid knows only the square of a located target."""
        return target.at

    def perceived(self, observer: Walker, target: Walker) -> tuple[Point | None, float | None]:
        """What ``observer`` knows of where ``target`` is (LP-2, LP-5): ``(point, None)`` where
        it observes or has located it (:meth:`known_place`), ``(None, degrees)`` where it
        only knows which way (the bearing of the last noise of it heard, from where the
        observer stands), ``(None, None)`` otherwise. A game that keeps what each observer knew
        (a square where the target *was*) says so here."""
        state = observer.aware_of(target.name)
        if state.at_least(AwarenessState.LOCATION):
            return self.known_place(target, state), None
        if state is AwarenessState.DIRECTION:
            for event in reversed(self.events):
                if (
                    event.actor == observer.name
                    and event.target == target.name
                    and event.at is not None
                    and event.verdict is not None
                    and event.verdict.success
                ):
                    return None, bearing(observer.at, event.at)
        return None, None

    can_run = False
    """Whether a move may run (a leg's ``run``: the d20 games)."""

    def round_allows(self) -> RoundAllows | None:
        """What a round allows each creature (LP-1: the ruleset's ``[round]``), or None where
        the game keeps its own turn (no ``[round]`` in its data: the skirmish)."""
        return round_of(self.rules)

    def action_cost(self, action: str) -> Cost:
        """What ``action`` (a live ``do``; ``run`` for a running move) costs in a round
        (LP-1: the ruleset's ``[actions]``)."""
        return cost_of(self.rules, action)

    def blow_reach(self, walker: Walker, *, ranged: bool) -> float:
        """How far a blow of ``walker`` reaches (LP-7): its melee reach, or its shots' range."""
        raise HookMissing(self, "blow_reach")

    def blow_distance(self, walker: Walker, point: Point, *, ranged: bool) -> float:
        """How far ``point`` is from ``walker`` for a blow (LP-7): by default straight."""
        return distance(walker.at, point)

    def move_rate(self, walker: Walker, speed: Attitude, *, run: bool = False) -> float:
        """How far ``walker`` moves in one turn at ``speed`` (running, when ``run``)."""
        raise HookMissing(self, "move_rate")

    def hiding_needs_cover(self) -> bool:
        """Whether hiding (standing or moving hidden) needs cover in this game."""
        return False

    def rule_of(self, topic: str) -> str | None:
        """The rule ID a refusal about ``topic`` (``walls``, ``attitudes``, ``movement``: how far
        and how often one moves in a turn) cites."""
        return None

    def check_live_action(self, walker: Walker, action: BaseModel) -> None:
        """Refuse an action this game does not play; by default every plan action is played."""

    # The hooks of the GM's actions for a defender (LP-6, :mod:`vigile.engine.defenders`).

    def left_alone(self, defender: Walker) -> bool:
        """Whether the GM gave ``defender`` no order this turn: then it acts by the rules at
        the end of the turn (LP-6); one the GM acted for does not."""
        return defender.name not in self.orders

    def guard_rate(self, defender: Walker) -> float:
        """How far the GM may move ``defender`` now (LP-6 [R]): by default its half-speed
        rate."""
        return self.move_rate(defender, Attitude.HALF)

    def guard_moved(self, defender: Walker, start: Point) -> None:
        """The GM moved ``defender`` from ``start``: what the game keeps of it (nothing here)."""

    def patrol_of(self, defender: Walker) -> list[Walker]:
        """The living members of the patrol ``defender`` walks in (LP-6, a typed scatter die);
        empty when it does not patrol."""
        return []

    def gm_scatter(self, members: list[Walker], degrees: float) -> None:
        """Move a patrol as its scatter die showing ``degrees`` would (LP-6)."""
        raise HookMissing(self, "gm_scatter")

    def gm_search(self, defender: Walker, point: Point) -> None:
        """``defender`` searches ``point`` by the game's rule (LP-6); refused where the game
        has none."""
        raise Refusal(
            "live.refusal.no_search",
            f"no rule of this game lets {defender.name} search a place",
            rule="LP-6",
            name=defender.name,
        )

    def gm_alarm(self, defender: Walker) -> None:
        """``defender`` raises the alarm as the game plays it (LP-6); refused where it has
        none."""
        raise Refusal(
            "live.refusal.no_alarm",
            f"no rule of this game lets {defender.name} raise an alarm",
            rule="LP-6",
            name=defender.name,
        )

    # ---------------------------------------------------------------- plans

    def _walk(self, intruder: Walker) -> None:
        """One turn of an intruder's plan: a step toward the waypoint; once there, the waits,
        then the actions (see :mod:`vigile.scene.plans`)."""
        leg = intruder.current_leg
        if leg is None:
            return
        if intruder.waiting is None and leg.to is not None and intruder.at != leg.to:
            self.step(intruder, leg.to, leg.speed)
            if intruder.at != leg.to:
                return
        if intruder.waiting is None:
            intruder.waiting = leg.wait
        if intruder.waiting > 0:
            intruder.waiting -= 1
            return
        for action in leg.actions:
            if self.outcome is None and intruder.alive:
                self._planned(intruder, action)
        intruder.leg += 1
        intruder.waiting = None
        intruder.climbed = False

    def _planned(self, intruder: Walker, action: object) -> None:
        """A plan's action as it comes due: a blow the rules refuse now is not made, the log
        says why (:meth:`_blow_refused`, LP-7), and the plan goes on; any other is done."""
        if not self._blow_refused(intruder, action):
            self.act(intruder, action)

    def _blow_refused(self, intruder: Walker, action: object) -> bool:
        """A planned blow (``strike``, ``kill``, ``snipe``, ``attack-square``) that live play
        would refuse now [LP-7]: beyond its reach or range, a wall between, no line of sight,
        at itself or an ally, by the one check live play makes (:meth:`_check_reach`, where
        the target and the distance are those of this moment: a defender may have moved).
        Logged for the GM with the rule and the distance; its actor learns only that the blow
        was not made (:data:`vigile.io.views.PLAYER_MESSAGES`). A blow at a victim already
        down is no refusal: nothing happens, as before (``act``)."""
        if not isinstance(action, Blow):
            return False
        aim = action.aim()
        victim = None if aim.target is None else self.by_name[aim.target]
        if victim is not None and not victim.alive:
            return False
        try:
            self._check_reach(intruder, action)
        except Refusal as refused:
            self.emit(
                "action",
                BLOW_NOT_MADE[refused.key],
                actor=intruder,
                target=victim,
                params={**refused.params, "rule": refused.rule or "LP-7"},
            )
            return True
        return False

    def step(self, intruder: Walker, to: Point, speed: Attitude) -> None:
        raise HookMissing(self, "step")

    def act(self, intruder: Walker, action: object) -> None:
        raise HookMissing(self, "act")

    def _door(self, actor: Walker, door: str, is_open: bool) -> None:
        """Open or close the door called ``door``: the board changes at once (what a door
        blocks, SK-V6, DD-5), and the log says who did it. Each game adds its own rules."""
        self.board.set_door(door, is_open)
        key = "engine.event.open_door" if is_open else "engine.event.close_door"
        self.emit("action", key, actor=actor, at=actor.at, params={"door": door})

    def _blow(self, attacker: Walker, victim: Walker, message: str = "engine.event.strike") -> None:
        """Log a blow: the attacker and the one struck know of it."""
        self.emit(
            "action",
            message,
            actor=attacker,
            target=victim,
            at=victim.at,
            perceived_by={victim.name},
        )

    def _speak(self, actor: Walker, action: Speak) -> None:
        """Speak aloud: the one spoken to knows. Each game adds who may overhear it."""
        self.emit(
            "action",
            "engine.event.speak",
            actor=actor,
            at=actor.at,
            perceived_by={action.to} if action.to else (),
            params={"volume": action.volume.value},
        )

    @staticmethod
    def _advance(walker: Walker, to: Point, length: float) -> None:
        """Move ``walker`` straight toward ``to``, ``length`` at most."""
        gap = distance(walker.at, to)
        if gap <= length:
            walker.x, walker.y = to
        else:
            walker.x += (to[0] - walker.x) * length / gap
            walker.y += (to[1] - walker.y) * length / gap
        walker.moved = True

    def _objective(self) -> None:
        inside = reached_by(self.scenario, self.by_name)
        if inside is not None:
            self.outcome = Outcome(
                "objective", self.turn, unseen=not self.ever_detected, by=tuple(inside)
            )
            self.emit(
                "objective",
                "engine.event.objective",
                perceived_by=self._witnesses(inside),
                params={"who": ", ".join(inside), "unseen": int(not self.ever_detected)},
            )

    def _witnesses(self, names: Iterable[str]) -> set[str]:
        """Who knows that these actors did what they did: their own side, and each enemy who
        observes one of them (a view shows only what its character perceives)."""
        doers = [self.by_name[n] for n in names]
        return {
            w.name
            for w in self.walkers
            if any(w.side is d.side or w.aware_of(d.name) is AwarenessState.OBSERVED for d in doers)
        }
