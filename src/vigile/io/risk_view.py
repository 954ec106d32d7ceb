"""What the risk map renderers read of a game's risk map and route.

:mod:`vigile.io.risk_out` and :mod:`vigile.io.plots` print and draw any game's risk map; the
maps themselves belong to the games, a layer above this one. The renderers name what they read
here, as protocols, and a game's map fits them by its shape: the skirmish's map (cm cells, a
sight or noise layer) and a d20 game's map (5-ft squares, ``unit == "ft"``, one intruder and a
layer) both are a :class:`RiskGrid`; the d20 one is also a :class:`D20Grid`.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any, Protocol

from vigile.rulesets.data import RuleData
from vigile.scene.actors import Actor
from vigile.scene.geometry import FloatArray
from vigile.scene.model import Scenario

__all__ = ["D20Board", "D20Grid", "MapBoard", "Named", "RiskGrid", "RouteView"]


class Named(Protocol):
    """A choice named in messages and JSON by its ``value`` (an attitude, a layer, a noise)."""

    @property
    def value(self) -> str: ...


class MapBoard(Protocol):
    """The prepared scenario under a map: its rules and its guards (or observers)."""

    @property
    def scenario(self) -> Scenario: ...

    @property
    def rules(self) -> RuleData: ...

    @property
    def guards(self) -> Sequence[object]: ...


class D20Board(MapBoard, Protocol):
    """A d20 map's board: it is made for one intruder."""

    @property
    def intruder(self) -> Actor: ...


class RiskGrid(Protocol):
    """A risk map: a chance per cell of a grid over the board, exact and as floats."""

    @property
    def board(self) -> MapBoard: ...

    @property
    def attitude(self) -> Named:
        """How the intruder moves (the skirmish's attitude, a d20 game's way)."""
        ...

    @property
    def noise(self) -> Named | None:
        """The skirmish's noise event mapped, or None (sight, or a d20 map)."""
        ...

    @property
    def unsuited(self) -> bool: ...

    @property
    def resolution(self) -> float: ...

    @property
    def unit(self) -> str:
        """``"cm"`` (the skirmish) or ``"ft"`` (a d20 game: a :class:`D20Grid`)."""
        ...

    @property
    def xs(self) -> FloatArray: ...

    @property
    def ys(self) -> FloatArray: ...

    @property
    def risk(self) -> FloatArray: ...

    @property
    def notes(self) -> Sequence[str]: ...

    def worst(self) -> tuple[int, int]: ...

    def exact(self, row: int, column: int) -> Fraction: ...

    def risk_at(self, x: float, y: float) -> Fraction: ...

    def guards_json(self) -> list[dict[str, object]]: ...


class D20Grid(RiskGrid, Protocol):
    """A d20 game's risk map: one intruder's chance of one layer (noticed, heard...)."""

    @property
    def board(self) -> D20Board: ...

    @property
    def layer(self) -> Named: ...


class RouteView(Protocol):
    """A route over a risk map: its ends, its cells and waypoints, its chance and doors."""

    @property
    def start(self) -> tuple[float, float]: ...

    @property
    def goal(self) -> tuple[float, float]: ...

    @property
    def cells(self) -> Sequence[tuple[int, int]]: ...

    @property
    def waypoints(self) -> Sequence[tuple[float, float]]: ...

    @property
    def chance_seen(self) -> float: ...

    @property
    def length(self) -> float: ...

    @property
    def attitude(self) -> Any: ...

    @property
    def doors(self) -> Sequence[tuple[int, str]]: ...

    @property
    def certain(self) -> int: ...
