"""The typed contract of a game plug-in, in one place (``docs/plugins.md``).

A game is a :class:`~vigile.registry.GamePlugin` whose fields name, by import path, the
objects below; each has a type here that the game fills and vigile calls:

- its turn: a :class:`~vigile.engine.game.Game` subclass filling the hooks of
  :class:`~vigile.engine.game.TurnHooks` (``play_turn``, or ``begin_turn``, ``step``,
  ``act`` and ``finish_turn``; ``move_rate``, ``blow_reach`` and ``gm_scatter`` for live
  play), which logs what its characters come to know with
  :meth:`~vigile.engine.game.Game.perceives` (a typed :class:`Perception`: what ``vigile
  simulate`` counts);
- its risk map: a :class:`RiskMapHook`, ``f(scenario, request) -> RiskSurface``, given a
  :class:`RiskRequest` in the game's own words (no other game's options), returning a
  :class:`RiskSurface`: what ``vigile riskmap`` renders and what ``vigile route`` walks
  (:func:`vigile.games.skirmish.route.safest_route` is the one safest route of every game,
  over any surface: it reads ``leg_speed`` and ``per_turn``, the surface's route hooks);
- its compiled kernel's pieces a second process may compile while the first builds the model:
  a :class:`KernelCallees` (:attr:`~vigile.registry.GamePlugin.kernel_callees`; none: nothing
  to compile, :data:`~vigile.registry.NO_CALLEES`);
- its messages (``ruleset.<name>`` and every key its events and verdicts use, never a core
  key) and its rules' statements, checked when the plug-in is registered
  (:func:`vigile.registry.checked`, :func:`vigile.io.i18n.plugin_problems`).

The module sits in the ``games`` layer (it names the risk grid of :mod:`vigile.io.risk_view`):
a plug-in imports it; vigile's core below ``games`` never does.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from vigile import registry
from vigile.awareness.vocabulary import Attitude
from vigile.engine.events import DETECTING, Perception
from vigile.errors import InputError
from vigile.io.risk_view import MapBoard, RiskGrid
from vigile.registry import NO_CALLEES, GamePlugin, KernelCallees, PluginError
from vigile.scene.geometry import Barriers
from vigile.scene.model import Scenario

if TYPE_CHECKING:
    from vigile.engine.game import Game, TurnHooks

__all__ = [
    "DETECTING",
    "NO_CALLEES",
    "Game",
    "GamePlugin",
    "KernelCallees",
    "Perception",
    "PluginError",
    "RiskMapHook",
    "RiskRequest",
    "RiskSurface",
    "RouteBoard",
    "TurnHooks",
    "risk_map",
]


def __getattr__(name: str) -> Any:
    """``Game`` and ``TurnHooks``, imported on first use: a risk map plays no turn, and the
    engine's live play costs ``vigile riskmap`` a tenth of a second to import."""
    if name in ("Game", "TurnHooks"):
        from vigile.engine import game

        return getattr(game, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@dataclass(frozen=True)
class RiskRequest:
    """What ``vigile riskmap`` and ``vigile route`` ask a game's risk map for, each in the
    game's own words: the game parses them and refuses, naming the option, what it has no
    rule for."""

    way: str
    """How the intruder moves (``--attitude``: the skirmish's ``hidden``, a d20 game's ``run``)."""
    resolution: float | None = None
    """The cell's side in the game's unit, or None for the game's own."""
    layer: str | None = None
    """Which chance the map shows (``--layer``: a d20 game's ``noticed`` or ``heard``)."""
    actor: str | None = None
    """The attacker the map is made for (``--write-plan``), or None for the game's choice."""
    sound: str | None = None
    """A sound whose chance of being heard is mapped (``--noise``), or None: being seen."""
    switches: frozenset[str] = frozenset()
    """The game's own yes-or-no options given (``unsuited-outfit``, SK-V4)."""


class RouteBoard(MapBoard, Protocol):
    """The board under a surface, as the route walks it: its walls and doors, and cover."""

    @property
    def barriers(self) -> Barriers: ...

    def in_cover(self, px: Any, py: Any) -> Any: ...


class RiskSurface(RiskGrid, Protocol):
    """A game's risk map: the grid :mod:`vigile.io.risk_out` and :mod:`vigile.io.plots`
    render (:class:`~vigile.io.risk_view.RiskGrid`) and the route's hooks."""

    @property
    def board(self) -> RouteBoard: ...

    def cell_of(self, x: float, y: float) -> tuple[int, int]:
        """The (row, column) of the cell holding the point."""
        ...

    def per_turn(self) -> float:
        """How far the intruder goes in one turn at the map's way: a route's turns."""
        ...

    def leg_speed(self, x: float, y: float) -> tuple[Attitude, bool]:
        """The speed a plan's leg ending at the point is written with, and whether it runs."""
        ...


class RiskMapHook(Protocol):
    """A game's :attr:`~vigile.registry.GamePlugin.riskmap`."""

    def __call__(self, scenario: Scenario, request: RiskRequest) -> RiskSurface: ...


def risk_map(scenario: Scenario, request: RiskRequest) -> RiskSurface:
    """The scenario's game's risk map for ``request``; an :class:`~vigile.errors.InputError`
    for a game whose plug-in names none."""
    plugin = registry.get(scenario.ruleset)
    if plugin.riskmap is None:
        raise InputError(
            f"the game {scenario.ruleset} has no risk map (its plug-in names none)",
            where="SCENARIO",
        )
    hook: RiskMapHook = plugin.load(plugin.riskmap)
    return hook(scenario, request)


def unknown_switches(request: RiskRequest, known: Sequence[str] = ()) -> None:
    """Refuse a switch the game has no rule for, naming it as the option it came from."""
    for switch in sorted(request.switches - set(known)):
        raise InputError(f"this game has no rule for --{switch}", where=f"--{switch}")
