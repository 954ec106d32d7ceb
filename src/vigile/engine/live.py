"""Live play: the GM's actions one at a time, between the start and the end of a turn.

The plan-walking of ``run`` and ``simulate`` plays a turn as :meth:`Game.begin_turn` (a new
turn, the patrols), each intruder's leg, then :meth:`Game.finish_turn` (every check of the
turn). Live play keeps that order and puts the GM's actions in the middle: once the turn has
begun, the GM moves the intruders and has them act, one action at a time, each with the
checks it triggers at once (a fumble roll, the noise it makes and who hears it); ``end-turn``
runs the end of the turn (sight, alarms, the defenders' own moves, the objective) and begins
the next one. The GM may also act for any defender (LP-6, :mod:`vigile.engine.defenders`):
``guard-move``, ``search``, ``hold``, ``raise-alarm``, ``scatter``; the defenders the GM leaves
alone act by the rules at the end of the turn.

An action is the plan's vocabulary with the actor's name: ``move`` (to a point at a speed:
a leg of one turn), ``hide``, ``wait``, and every plan action (:data:`vigile.scene.plans.Action`:
``open-door``, ``strike``, ``kill`` (with ``ranged``: a shot), ``speak``, and those the game's
plug-in adds, such as the skirmish's ``throw-grapple``: :func:`live_models`), plus
``end-turn``. Everything an action needs is checked before anything changes
(:meth:`Game.apply`): a move through a wall, farther than the actor's move, a second move in a
turn, an actor that is dead, unknown or a defender, a door that is not
there: each is a :class:`Refusal` that names what is wrong, and the game is as it was.

Rulings of live play where the texts are silent (each a proposal for RULES.md):

* [R] A skirmish turn allows each intruder one move (as a plan's leg: at most its rate for the
  speed chosen), then any number of actions, up to the plan's limit per waypoint. A d20 round
  allows what LP-1 gives (the ruleset's ``[actions]`` and ``[round]``: a standard and a move
  action, two moves, or one full-round action such as a run); beyond it, a refusal names LP-1
  and what is left of the round.
* LP-7: a blow (``strike``, ``kill``, ``snipe``, ``attack-square``) needs its reach (melee: the
  game's reach, no wall between) or its range and a line of sight (a shot); never at oneself or
  an ally. A refusal names LP-7 and the distance.
* [R] ``hide`` is staying still; in a game where hiding needs cover (the skirmish, SK-V3),
  out of cover it is refused. A ``hidden`` move may end out of cover, as a plan's step between
  two covers does: the game's sight rules say what a guard sees of it (SK-V9).
* [R] A climb needs a grapple the climber threw since its last move (a plan's grapple is
  thrown at the previous waypoint).

Dice: a live action draws its faces from a generator of its own (the encounter's seed and the
action's sequence number), or takes the GM's physical dice one by one: :class:`LiveFaces`
records every face, and when the GM's dice run out it raises :class:`NeedDice` with the check
about to be rolled (who rolls, the odds) so the caller can ask for the next die.

The table's dice, rulings where the texts are silent:

* [R] A check whose outcome cannot depend on its dice (its chance is 0 or 1, and so is every
  other chance it reports: :func:`decided`) asks the table for no die: the faces its rule reads
  are drawn and logged, and a preview lists it "decided without dice" with its rules.
* [R] A patrol's scatter die (SK-G1) thrown at the table is read as a bearing in degrees,
  0 up to 360, counter-clockwise from the x axis as the ``scatter`` action and the patrol events
  give it; it is asked for each patrol group the GM left to the rules this turn (LP-6), in the
  order the game moves them (:class:`TableRng`).
* [R] An encounter may switch between vigile's dice and the table's mid-game (a ``dice``
  record: :meth:`vigile.live.Encounter.set_dice`); an undo takes back an action, never that.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Any, Final, Literal, Protocol, Union, get_args

import numpy as np
from pydantic import BaseModel, Field, TypeAdapter, ValidationError, create_model

from vigile import registry
from vigile.awareness.vocabulary import Attitude
from vigile.errors import InputError
from vigile.scene.actors import MODEL_CONFIG, Name, Point
from vigile.scene.games import own_actions
from vigile.scene.plans import Action as PlanAction

if TYPE_CHECKING:
    from vigile.checks.verdict import Verdict


class Move(BaseModel):
    """Move an intruder straight to a point at a speed (a plan's leg, one turn of it)."""

    model_config = MODEL_CONFIG

    do: Literal["move"]
    actor: Name
    """The intruder who moves."""
    to: Point
    """Where to: no farther than its move at this speed allows in one turn."""
    speed: Attitude = Attitude.HALF
    """How it moves: ``hidden`` (cover to cover), ``half``, ``fast``."""
    climb: bool = False
    """Climbs over the walls on the way, on a grapple it threw since its last move."""
    run: bool = False
    """Runs (the d20 games: a leg's ``run``, its move times ``turn.run_multiplier``)."""


class Hide(BaseModel):
    """Stay still, hidden (in cover where the game asks for it)."""

    model_config = MODEL_CONFIG

    do: Literal["hide"]
    actor: Name


class Wait(BaseModel):
    """Stay still this turn."""

    model_config = MODEL_CONFIG

    do: Literal["wait"]
    actor: Name


class GuardMove(BaseModel):
    """The GM moves a defender straight to a point (LP-6): its move of the turn."""

    model_config = MODEL_CONFIG

    do: Literal["guard-move"]
    actor: Name
    """The defender who moves."""
    to: Point
    """Where to: within its move (:meth:`Game.guard_rate`), no wall, closed door or
    partition on the way."""


class Search(BaseModel):
    """The GM has a defender search a point (LP-6): the game's own rule of searching."""

    model_config = MODEL_CONFIG

    do: Literal["search"]
    actor: Name
    """The defender who searches."""
    at: Point
    """Where it searches (a square in the d20 games)."""


class Hold(BaseModel):
    """The GM holds a defender still (LP-6): it does not move by the rules this turn."""

    model_config = MODEL_CONFIG

    do: Literal["hold"]
    actor: Name


class RaiseAlarm(BaseModel):
    """The GM has a defender raise the alarm (LP-6), as the game's rules play an alarm."""

    model_config = MODEL_CONFIG

    do: Literal["raise-alarm"]
    actor: Name


class Scatter(BaseModel):
    """The GM types the scatter die of a patrol (LP-6, SK-G1): the patrol moves that way."""

    model_config = MODEL_CONFIG

    do: Literal["scatter"]
    actor: Name
    """A patrolling defender: its whole group moves (SK-G1: a group moves as one)."""
    bearing: Annotated[float, Field(ge=0, lt=360, allow_inf_nan=False)]
    """The die's arrow, in degrees counter-clockwise from the x axis (toward larger y at 90°),
    as the patrol events show it."""


DEFENDER_ACTIONS: tuple[type[BaseModel], ...] = (GuardMove, Search, Hold, RaiseAlarm, Scatter)
"""The GM's actions for a defender (LP-6): :mod:`vigile.engine.defenders` plays them."""


class EndTurn(BaseModel):
    """End the turn: sight, alarms, the defenders, the objective; then the next turn begins."""

    model_config = MODEL_CONFIG

    do: Literal["end-turn"]


def _with_actor(model: type[BaseModel]) -> type[BaseModel]:
    """A plan action with the name of the intruder who does it (an instance is still a plan
    action: the game's ``act`` takes it as it is). Its one field of its own has no docstring,
    so pydantic is not asked to look for the source of attribute docstrings: a made class has
    none, and the search for it walks every frame of the stack (most of what importing this
    module cost, and every map command imports it)."""
    made: type[BaseModel] = create_model(
        model.__name__,
        __base__=model,
        __module__=__name__,
        __doc__=model.__doc__,
        __cls_kwargs__={"use_attribute_docstrings": False},
        actor=(Name, ...),
    )
    return made


PLAN_ACTIONS: tuple[type[BaseModel], ...] = get_args(get_args(PlanAction)[0])
"""The plan's actions, as the scene defines them."""
ACTED: tuple[type[BaseModel], ...] = tuple(_with_actor(model) for model in PLAN_ACTIONS)
"""The same, each with an ``actor``."""

LiveAction = Annotated[
    Union[Move, Hide, Wait, EndTurn, *ACTED, *DEFENDER_ACTIONS],  # type: ignore[valid-type]
    Field(discriminator="do"),
]
"""One action of live play, chosen by its ``do``."""

_ADAPTER: TypeAdapter[Any] = TypeAdapter(LiveAction)

LIVE_MODELS: tuple[type[BaseModel], ...] = (Move, Hide, Wait, EndTurn, *ACTED, *DEFENDER_ACTIONS)
ACTION_NAMES: tuple[str, ...] = tuple(
    str(get_args(model.model_fields["do"].annotation)[0]) for model in LIVE_MODELS
)
"""Every ``do`` live play knows."""
DEFENDER_NAMES: tuple[str, ...] = tuple(
    str(get_args(model.model_fields["do"].annotation)[0]) for model in DEFENDER_ACTIONS
)
"""The ``do`` of the GM's actions for a defender (LP-6)."""


_OWN: dict[tuple[str, int], tuple[tuple[type[BaseModel], ...], TypeAdapter[Any]]] = {}
"""A game's live actions and their adapter, by game and registry version (a plug-in's plan
actions join live play as they join plans)."""


def live_models(ruleset: str | None = None) -> tuple[type[BaseModel], ...]:
    """Every live action (:data:`LIVE_MODELS`); with ``ruleset``, its plug-in's own plan
    actions too (:func:`vigile.scene.games.own_actions`), each with its ``actor``: what the
    game's ``act`` plays in a plan, it plays live."""
    return _own(ruleset)[0]


def _own(ruleset: str | None) -> tuple[tuple[type[BaseModel], ...], TypeAdapter[Any]]:
    if ruleset is None:
        return LIVE_MODELS, _ADAPTER
    key = (ruleset, registry.version())
    if key not in _OWN:
        own = tuple(_with_actor(model) for model in own_actions(ruleset))
        if not own:
            _OWN[key] = (LIVE_MODELS, _ADAPTER)
        else:
            models = (*LIVE_MODELS, *own)
            union = Annotated[Union[*models], Field(discriminator="do")]  # type: ignore[valid-type]
            _OWN[key] = (models, TypeAdapter(union))
    return _OWN[key]


def parse_action(data: object, *, where: str = "action", ruleset: str | None = None) -> BaseModel:
    """A live action from JSON-like data (with ``ruleset``, its game's own plan actions
    among them: :func:`live_models`); a clear error naming the field otherwise."""
    if not isinstance(data, Mapping):
        raise InputError("an action is an object with a 'do' field", where=where)
    models, adapter = _own(ruleset)
    try:
        action: BaseModel = adapter.validate_python(dict(data))
    except ValidationError as error:
        first = error.errors()[0]
        field = ".".join(str(part) for part in first["loc"] if not str(part)[:1].isupper())
        detail = first["msg"]
        if first["type"] == "union_tag_invalid":
            names = ", ".join(
                str(get_args(model.model_fields["do"].annotation)[0]) for model in models
            )
            detail = f"unknown action {data.get('do')!r}; one of: {names}"
        raise InputError(detail, where=f"{where}.{field}" if field else where) from None
    return action


def action_json(action: BaseModel) -> dict[str, Any]:
    """The action as the JSON it was parsed from (what the log stores)."""
    data: dict[str, Any] = action.model_dump(mode="json", exclude_defaults=True)
    data["do"] = action.model_dump()["do"]
    return data


def actor_of(action: BaseModel) -> str | None:
    """The intruder (or, for the GM's defender actions, the defender) who acts, or None
    (``end-turn``)."""
    name = getattr(action, "actor", None)
    return str(name) if name is not None else None


class Refusal(InputError):
    """The rules (or the state of the game) forbid the action; nothing changed.

    ``key`` and ``params`` give the message in every language (``live.refusal.*``), ``rule``
    the RULES.md ID that forbids it, when one does.
    """

    status = 409

    def __init__(
        self, key: str, text: str, *, rule: str | None = None, **params: str | int | float
    ) -> None:
        self.key = key
        self.params = params
        self.rule = rule
        super().__init__(text + (f" [{rule}]" if rule else ""), where="action")


class NeedDice(InputError):
    """The GM's dice ran out: the check ``verdict`` (not yet rolled: its question, difficulty
    and exact odds) for ``who`` needs a d``sides``, the ``index``-th die the GM gives for the
    action; ``check``: which check of the action (0 the first) asks for it.

    ``kind`` ``"scatter"``: no die but a patrol's scatter die (SK-G1), a bearing in degrees
    from 0 to 360 (:class:`TableRng`); ``who`` is then the patrol's first guard and
    ``members`` the whole patrol."""

    status = 409

    def __init__(
        self,
        verdict: Verdict | None,
        who: str | None,
        sides: int,
        index: int,
        *,
        check: int = 0,
        kind: Literal["die", "scatter"] = "die",
        members: Sequence[str] = (),
        rule: str | None = None,
    ) -> None:
        self.verdict = verdict
        self.rule = rule
        """The rule the die follows, where no verdict names it (a scatter die's)."""
        self.who = who
        self.sides = sides
        self.index = index
        self.check = check
        self.kind = kind
        self.members = tuple(members)
        if kind == "scatter":
            super().__init__(
                f"the scatter die of {who}'s patrol, a bearing from 0 to 360, is needed",
                where="bearings",
            )
            return
        asked = f" ({who}: {verdict.question})" if verdict is not None and who else ""
        super().__init__(
            f"die {index + 1} of the action, a d{sides}{asked}, is needed", where="dice"
        )


def decided(verdict: Verdict) -> bool:
    """Whether the check ``verdict`` asks (not yet rolled) ends the same whatever its dice show:
    its chance is 0 or 1, and so is every other chance it reports (a pinpoint, a touch, each
    member's), with no miss chance left to roll.

    [R] live play with the table's dice: such a check asks the table for no die; the faces its
    rule reads are drawn (and logged, so the replay is exact), and the preview lists it as
    decided without dice, with its rules."""
    if verdict.automatic or verdict.impossible:
        return True
    if verdict.chance not in (0, 1):
        return False
    figures = verdict.figures
    for chance in (figures.chance_pinpoint, figures.chance_touch):
        if chance is not None and chance not in (0, 1):
            return False
    if figures.miss_chance not in (None, 0, 100):
        return False
    return all(decided(member) for member in verdict.members)


@dataclass
class Asked:
    """One check an action rolled (or is rolling), in order: the verdict before the roll, who
    rolls it, how many faces it used, and whether it was decided without dice (:func:`decided`)."""

    verdict: Verdict
    who: str
    decided: bool
    faces: int = 0
    sides: list[int] = field(default_factory=list)
    """The sides of each die it rolled, in order."""
    stand_ins: int = 0
    """How many of its faces were stand-ins for the table's dice (a preview)."""

    def dice(self) -> str:
        """Its dice as a table says them: ``3d6``, ``d20``, ``2d20 + d100``."""
        counts: dict[int, int] = {}
        for sides in self.sides:
            counts[sides] = counts.get(sides, 0) + 1
        return " + ".join(f"{n if n > 1 else ''}d{sides}" for sides, n in counts.items())


class LiveFaces:
    """The faces of one live action: drawn from ``rng``, or the GM's ``dice`` in order.

    Every face used is in :attr:`faces`, so that the log can replay the action exactly, and
    every check announced is in :attr:`checks`. With ``physical`` set, a face beyond the dice
    given raises :class:`NeedDice`; otherwise it is drawn.

    ``table`` (with ``physical``): the dice as a table gives them, check by check: a check
    decided whatever its dice (:func:`decided`) takes none of them (its faces are drawn), the
    others take them in order. Without it every face, decided or not, takes the next one (a
    replay of the log, which holds every face).
    """

    def __init__(
        self,
        rng: np.random.Generator,
        dice: Sequence[int] = (),
        *,
        physical: bool = False,
        table: bool = False,
        stand_in: int | None = None,
    ) -> None:
        self.physical = physical
        self.table = table and physical
        self.stand_in = stand_in
        """A face used where the table's die is missing, instead of asking (a preview)."""
        self._rng = rng
        self._dice = list(dice)
        self._used = 0
        """The dice given used so far (table mode)."""
        self.faces: list[int] = []
        self.checks: list[Asked] = []
        self._asking: tuple[Verdict, str] | None = None

    @property
    def given(self) -> bool:
        """Whether the faces are the table's (a roll says so): not those of a check decided
        without dice, which vigile draws, even with the table's dice."""
        current = self.checks[-1] if self.checks else None
        return self.physical and not (self.table and current is not None and current.decided)

    @given.setter
    def given(self, value: bool) -> None:
        self.physical = value

    def announce(self, verdict: Verdict, who: str) -> None:
        """The check about to be rolled: what :class:`NeedDice` tells the GM."""
        self._asking = (verdict, who)
        self.checks.append(Asked(verdict, who, decided(verdict)))

    def _need(self, sides: int, index: int) -> NeedDice:
        verdict, who = self._asking or (None, None)
        return NeedDice(verdict, who, sides, index, check=max(0, len(self.checks) - 1))

    def face(self, sides: int) -> int:
        index = len(self.faces)
        current = self.checks[-1] if self.checks else None
        if self.table:
            if current is not None and current.decided:
                value = int(self._rng.integers(1, sides + 1))
            elif self._used < len(self._dice):
                value = self._given(self._used, sides)
                self._used += 1
            elif self.stand_in is not None:
                value = min(self.stand_in, sides)
                if current is not None:
                    current.stand_ins += 1
            else:
                raise self._need(sides, self._used)
        elif index < len(self._dice):
            value = self._given(index, sides)
        elif self.physical:
            raise self._need(sides, index)
        else:
            value = int(self._rng.integers(1, sides + 1))
        self.faces.append(value)
        if current is not None:
            current.faces += 1
            current.sides.append(sides)
        return value

    def _given(self, index: int, sides: int) -> int:
        value = self._dice[index]
        if not 1 <= value <= sides:
            raise InputError(
                f"die {index + 1}: {value} is not a face of a d{sides} (1..{sides})",
                where="dice",
            )
        return value

    def finish(self) -> None:
        """Refuse dice left over: the GM typed more than the action rolled."""
        used = self._used if self.table else len(self.faces)
        if len(self._dice) > used:
            raise InputError(
                f"{len(self._dice)} dice given, but the action rolled only {used}",
                where="dice",
            )


SCATTER: Final = 360
"""A scatter die's bearings: degrees, from 0 up to (not including) 360."""
_TURN = 2.0 * math.pi


class Patrolled(Protocol):
    """What :class:`TableRng` reads of the game (a :class:`~vigile.engine.game.Game`, named
    here by its methods: the game imports this module, never the other way)."""

    def rule_of(self, name: str) -> Any: ...

    def defenders(self) -> Any: ...

    def patrol_of(self, defender: Any) -> Any: ...

    def left_alone(self, walker: Any) -> bool: ...


class TableRng:
    """The game's own draws (:attr:`Game.rng`) in an action played with the table's dice:
    each patrol's scatter die (SK-G1: a uniform direction, ``uniform(0, 2π)``) is the table's,
    a bearing in degrees asked patrol by patrol (:class:`NeedDice` of kind ``scatter``); every
    other draw is the generator's. Every scatter die used is in :attr:`bearings` (the GM's, or
    drawn for a patrol the GM gave an order this turn: it does not walk by the die, LP-6), so
    that the log replays it.

    ``ask`` False: a replay: the bearings given are used in order, then the generator draws.
    Only a game whose patrols walk by a scatter die per patrol group (one that names its patrol
    rule, :meth:`Game.rule_of` ``"patrol"``) is asked; another's draws are the generator's.
    """

    def __init__(
        self,
        rng: np.random.Generator,
        bearings: Sequence[float] = (),
        *,
        game: Patrolled | None = None,
        ask: bool = True,
        stand_in: float | None = None,
    ) -> None:
        self.rng = rng
        self.stand_in = stand_in
        """A bearing used where the table's scatter die is missing, instead of asking (a
        preview)."""
        self.asked: list[list[str]] = []
        """The patrols whose scatter die was the table's (or would be: a preview), in order."""
        self._used = 0
        """The bearings given used so far (asked, not a replay)."""
        self._given = [float(b) for b in bearings]
        self.bearings: list[float] = []
        self.ask = ask and game is not None
        self._game = game
        self._patrols: list[tuple[list[str], bool]] | None = None

    def patrols(self) -> list[tuple[list[str], bool]]:
        """Each patrol group in the order the game draws its scatter die (:meth:`Game.patrol_of`
        over the defenders: a group as one, SK-G1), with its members and whether one of them is
        left to the rules (LP-6: the table's die moves it); read at the first draw, as the
        patrols move. None for a game that names no patrol rule."""
        game = self._game
        if self._patrols is None:
            self._patrols = []
            if game is not None and game.rule_of("patrol") is not None:
                seen: set[str] = set()
                for defender in game.defenders():
                    members = game.patrol_of(defender)
                    if not members or defender.name in seen:
                        continue
                    seen.update(m.name for m in members)
                    alone = any(game.left_alone(m) for m in members)
                    self._patrols.append(([m.name for m in members], alone))
        return self._patrols

    def uniform(self, low: float = 0.0, high: float = 1.0) -> float:
        if (low, high) != (0.0, _TURN):
            return float(self.rng.uniform(low, high))
        index = len(self.bearings)
        patrols = self.patrols() if self.ask else []
        if not self.ask:  # a replay: every bearing recorded, in order
            degrees = (
                self._bearing(index)
                if index < len(self._given)
                else math.degrees(float(self.rng.uniform(0.0, _TURN)))
            )
        elif index >= len(patrols) or not patrols[index][1]:
            degrees = math.degrees(float(self.rng.uniform(0.0, _TURN)))
        else:
            members = patrols[index][0]
            if self._used < len(self._given):
                degrees = self._bearing(self._used)
                self._used += 1
            elif self.stand_in is not None:
                degrees = float(self.stand_in)
            else:
                rule = self._game.rule_of("patrol") if self._game is not None else None
                raise NeedDice(
                    None,
                    members[0],
                    SCATTER,
                    self._used,
                    kind="scatter",
                    members=members,
                    rule=rule,
                )
            self.asked.append(members)
        self.bearings.append(degrees)
        return math.radians(degrees)

    def _bearing(self, index: int) -> float:
        degrees = self._given[index]
        if not 0 <= degrees < SCATTER:
            raise InputError(
                f"scatter die {index + 1}: {degrees} is not a bearing from 0 to 360",
                where="bearings",
            )
        return degrees

    def finish(self) -> None:
        """Refuse scatter dice left over."""
        used = self._used if self.ask else len(self.bearings)
        if len(self._given) > used:
            raise InputError(
                f"{len(self._given)} scatter dice given, but the action used only {used}",
                where="bearings",
            )

    def __getattr__(self, name: str) -> Any:
        if name == "rng":  # not yet set (a copy being made): no recursion
            raise AttributeError(name)
        return getattr(self.rng, name)


def action_generators(seed: int, seq: int) -> tuple[np.random.Generator, np.random.Generator]:
    """The two generators of the action logged as ``seq`` in an encounter seeded ``seed``: one
    for the dice, one for the game's own draws (the patrols' scatter). Independent of every
    other action, so that an undo or a replay never shifts another action's numbers."""
    dice, game = np.random.SeedSequence([seed, seq]).spawn(2)
    return np.random.default_rng(dice), np.random.default_rng(game)
