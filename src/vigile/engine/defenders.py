"""The GM acts for the defenders (LP-6): move, search, hold, raise the alarm, a patrol's die.

Live play (:mod:`vigile.engine.live`) lets the GM act for any living defender between the start
and the end of a turn, one action at a time, as for the intruders:

* ``guard-move`` (``to``): the defender walks straight to a point, within its move
  (:meth:`~vigile.engine.game.Game.guard_rate`), never through a wall, a closed door or a
  partition, never off the map;
* ``search`` (``at``): the game's own rule of searching a place (the skirmish: a sight test,
  SK-V1..SK-V9, on each intruder near the point; D&D 3.5: groping, DD-6; a game without such
  a rule refuses it, naming why);
* ``hold``: it stays where it stands;
* ``raise-alarm``: the alarm as the game plays it (the skirmish: the cry of SK-G5 and SK-N7,
  heard by each defender on alert, by any other unless his die shows 1; the d20 games: the
  engine's alarm, every defender on alert);
* ``scatter`` (``bearing``): the GM types the scatter die of a patrol (SK-G1): the patrol, its
  whole group in the skirmish, moves its patrol length that way, bouncing as the rules say.

Each is checked before anything changes (a :class:`~vigile.engine.live.Refusal` naming why),
and its dice are the action's faces, so the log replays it exactly; a GM's scatter is the
bearing typed, never a draw. What the defender then perceives is still the rules' to decide:
the checks of the end of the turn (sight, Listen, Spot...) run for it from where it stands.

Rulings of live play where the texts are silent (each a proposal for RULES.md):

* [R] An order of the GM is the defender's act for the turn, carried out at once, in place of
  what the rules would have it do at the turn's end: a defender the GM gave any order to does
  not act by the rules from then until the next turn has begun (no patrol at the next turn's
  start, SK-G1; in the d20 games no closing in, groping or attack at the end of the round).
  The defenders the GM leaves alone act by the rules, as before (LP-6).
* [R] A defender gets one move a turn from the GM (``guard-move``, ``scatter`` or ``hold``),
  one ``search`` and one ``raise-alarm``. A skirmish guard moves at most its half-speed rate
  (15 cm; its own ``move`` scales it): the attitude an intruder sees a guard who moved in is
  "in motion at half speed" (SK-G3 [R]). A d20 defender moves at most what is left of its
  speed this round, its patrol included.
* [R] ``scatter`` is for a patrolling defender only (a posted guard is immobile, SK-G1: the GM
  moves it with ``guard-move``); in the skirmish its group moves as one (SK-G1), each member
  then counting as moved by the GM.
* [R] A skirmish search looks at a point: each intruder the searcher does not already observe
  and who stands within ``orders.search_radius_cm`` (10 cm by default, the night's visibility
  of SK-V1) of it is tested by the sight rule, from where the guard stands (SK-V1..SK-V9; no
  test where the rules allow none); one seen is detected, and the alarm of the turn's end
  follows for it (SK-G5).
* [R] A D&D 3.5 search is groping (DD-6, a standard action): the square of the point, within
  the defender's reach and in its line of sight, and the next square along its way there.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Protocol

from pydantic import BaseModel

from vigile.checks.numbers import quoted
from vigile.engine.board import distance
from vigile.engine.live import GuardMove, Hold, RaiseAlarm, Refusal, Scatter, Search, actor_of
from vigile.scene.actors import Side

if TYPE_CHECKING:
    from vigile.checks.verdict import Param, Verdict
    from vigile.engine.board import Board, Point
    from vigile.engine.state import Walker
    from vigile.scene.model import Scenario


class Game(Protocol):
    """What the GM's orders ask of a game (:class:`vigile.engine.game.Game` is one): named
    here, not imported, because that game imports this module (no import cycle)."""

    by_name: dict[str, Walker]
    walkers: list[Walker]
    orders: dict[str, set[str]]
    board: Board
    scenario: Scenario

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
    ) -> None: ...

    def rule_of(self, topic: str) -> str | None: ...

    def guard_rate(self, defender: Walker) -> float: ...

    def guard_moved(self, defender: Walker, start: Point) -> None: ...

    def patrol_of(self, defender: Walker) -> list[Walker]: ...

    def gm_scatter(self, members: list[Walker], degrees: float) -> None: ...

    def gm_search(self, defender: Walker, point: Point) -> None: ...

    def gm_alarm(self, defender: Walker) -> None: ...


MOVE = "move"
"""What an order spent: the defender's move (``guard-move``, ``scatter``, ``hold``)."""
SEARCH = "search"
ALARM = "alarm"


def order(game: Game, action: BaseModel) -> None:
    """Carry out one of the GM's actions for a defender (LP-6); a :class:`Refusal` before
    anything changes when the rules or the state of the game forbid it."""
    walker = defender(game, action)
    if isinstance(action, GuardMove):
        _guard_move(game, walker, action)
    elif isinstance(action, Hold):
        _spend(game, walker, MOVE)
        game.emit(
            "action",
            "live.event.hold",
            actor=walker,
            at=walker.at,
            perceived_by=_side(game, walker),
        )
        game.orders.setdefault(walker.name, set()).add(MOVE)
    elif isinstance(action, Scatter):
        _scatter(game, walker, action)
    elif isinstance(action, Search):
        _spend(game, walker, SEARCH)
        point = (float(action.at[0]), float(action.at[1]))
        _on_map(game, point)
        game.gm_search(walker, point)
        game.orders.setdefault(walker.name, set()).add(SEARCH)
    elif isinstance(action, RaiseAlarm):
        _spend(game, walker, ALARM)
        game.gm_alarm(walker)
        game.orders.setdefault(walker.name, set()).add(ALARM)
    else:  # pragma: no cover - the caller passes only the actions of DEFENDER_ACTIONS
        raise TypeError(f"not a defender action: {action!r}")


def defender(game: Game, action: BaseModel) -> Walker:
    """The living defender an action of the GM is for; refused otherwise."""
    name = actor_of(action) or ""
    walker = game.by_name.get(name)
    if walker is None:
        raise Refusal("live.refusal.unknown", f"no actor is called {name!r}", name=name)
    if walker.side is not Side.DEFENDERS:
        raise Refusal(
            "live.refusal.not_defender",
            f"{name} is an intruder: guard-move, search, hold, raise-alarm and scatter are "
            "the GM's actions for a defender",
            rule="LP-6",
            name=walker.name,
        )
    if not walker.alive:
        raise Refusal("live.refusal.dead", f"{name} is dead", name=walker.name)
    return walker


def _side(game: Game, walker: Walker) -> set[str]:
    return {w.name for w in game.walkers if w.side is walker.side}


def _spend(game: Game, walker: Walker, what: str) -> None:
    """Refuse a second move, search or alarm of the GM for ``walker`` this turn [R]."""
    if what not in game.orders.get(walker.name, set()):
        return
    if what == MOVE:
        raise Refusal(
            "live.refusal.moved", f"{walker.name} has already moved this turn", name=walker.name
        )
    raise Refusal(
        f"live.refusal.{'searched' if what == SEARCH else 'alarmed'}",
        f"{walker.name} has already done that ({what}) this turn",
        rule="LP-6",
        name=walker.name,
    )


def _on_map(game: Game, point: tuple[float, float]) -> None:
    if not (0 <= point[0] <= game.board.width and 0 <= point[1] <= game.board.height):
        raise Refusal(
            "live.refusal.off_map",
            f"[{point[0]:g}, {point[1]:g}] is off the map",
            x=point[0],
            y=point[1],
        )


def _guard_move(game: Game, walker: Walker, action: GuardMove) -> None:
    _spend(game, walker, MOVE)
    to = (float(action.to[0]), float(action.to[1]))
    _on_map(game, to)
    rate = game.guard_rate(walker)
    gap = distance(walker.at, to)
    unit = game.scenario.units.value
    if gap > rate + 1e-9:
        raise Refusal(
            "live.refusal.guard_too_far",
            f"{walker.name} moves at most {rate:g} {unit} this turn; "
            f"that point is {gap:.4g} {unit} away",
            rule="LP-6",
            name=walker.name,
            rate=quoted(rate),
            distance=quoted(gap),
            unit=unit,
        )
    if game.board.blocks_walker(walker.at, to):
        raise Refusal(
            "live.refusal.wall",
            f"the way from [{walker.x:g}, {walker.y:g}] to [{to[0]:g}, {to[1]:g}] "
            "passes through a wall, a closed door or a partition",
            rule=game.rule_of("walls"),
        )
    start = walker.at
    walker.x, walker.y = to
    walker.moved = True
    game.guard_moved(walker, start)
    game.emit(
        "move",
        "live.event.guard_move",
        actor=walker,
        at=walker.at,
        perceived_by=_side(game, walker),
        params={"distance": quoted(gap)},
    )
    game.orders.setdefault(walker.name, set()).add(MOVE)


def _scatter(game: Game, walker: Walker, action: Scatter) -> None:
    members = game.patrol_of(walker)
    if not members:
        raise Refusal(
            "live.refusal.not_patrol",
            f"{walker.name} does not patrol: move it with guard-move",
            rule=game.rule_of("patrol"),
            name=walker.name,
        )
    for member in members:
        _spend(game, member, MOVE)
    game.gm_scatter(members, float(action.bearing))
    for member in members:
        game.orders.setdefault(member.name, set()).add(MOVE)
