"""The games vigile plays, by name: one plug-in object per game, as python-chess's ``VARIANTS``.

A game is a :class:`GamePlugin`: its name, unit and rule-ID prefix, its data file and message
files, and, named by import path (``"module:attribute"``), its turn (a ``Game`` class), its
``vigile check`` commands, its compiled simulation kernel and its exact risk map. The built-in
games live in :mod:`vigile.games`; a game in a package of its own registers under the
entry-point group ``vigile.games`` (its value is the import path of its plug-in object).

The registry sits at the bottom of the layers and imports nothing of vigile's above it: a
plug-in and what it names are loaded when first asked for, the way entry points are. So the
scene, the engine, the simulator and the CLI can all ask "which game is this?" without any of
them naming a game.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import import_module
from importlib.metadata import entry_points
from typing import Any

from vigile.errors import InputError, VigileError


class PluginError(VigileError):
    """A game plug-in breaks the contract (``docs/plugins.md``): a message key missing or
    taken from the core, a hook of the wrong shape, a detection logged without its typed
    perception. The plug-in's author fixes it; the user is told which game and what."""


ENTRY_POINT_GROUP = "vigile.games"
BUILTIN = {
    "skirmish": "vigile.games.skirmish:PLUGIN",
    "starfinder": "vigile.games.starfinder:PLUGIN",
    "dnd35": "vigile.games.dnd35:PLUGIN",
}
"""The games shipped with vigile, by name: the import path of each plug-in object."""


@dataclass(frozen=True)
class GamePlugin:
    """Everything vigile needs to know about one game, in one place."""

    name: str
    """The name scenarios and commands use (``skirmish``)."""
    title: str
    """What the game is, in a few words (English; the messages carry the translations)."""
    unit: str
    """The unit its distances are written in: ``cm`` or ``ft``."""
    rule_prefix: str
    """The prefix of its rule IDs in RULES.md (``SK``)."""
    package: str
    """The package that holds its data file ``rules.toml`` (``vigile.rulesets.skirmish``)."""
    messages: tuple[str, ...] = ()
    """Its message files in ``vigile/io/locales`` (``{lang}`` stands for the language), or
    ``package:file`` pairs for a game that ships its own."""
    game: str = ""
    """``module:Class`` of its turn: a :class:`vigile.engine.game.Game` subclass taking
    ``(scenario, rules, rng, faces)``; or a ``module:function`` choosing one for a scenario."""
    cli: str | None = None
    """``module:attribute`` of its checks, if it has any: a declaration
    (:class:`vigile.checks.declare.Checks`), from which vigile builds its ``vigile check``
    commands, its HTTP check routes and its calculator form; or a Typer app of its own (its
    ``vigile check`` commands only: the HTTP API serves declared checks)."""
    kernel: str | None = None
    """``module:function`` giving the game's compiled simulation model of a scenario (a
    :class:`vigile.sim.tally.Batched` played by a numba kernel), or None for a scenario it
    does not cover. Imported only by ``vigile simulate``, after it checked numba is installed."""
    kernel_callees: str | None = None
    """``module:attribute`` of the pieces of its kernel that a second process may compile into
    numba's cache while the first builds the model (:class:`KernelCallees`: a night raid's run
    calls functions the model's build does not); None: nothing to compile beside the model."""
    scenario_issues: str | None = None
    """``module:function`` returning the game's own issues with a scenario's parts."""
    riskmap: str | None = None
    """``module:function`` making the game's exact risk map of a scenario: a
    :class:`vigile.games.contract.RiskMapHook`, called as ``f(scenario, request)`` with a
    :class:`vigile.games.contract.RiskRequest` (how the intruder moves, the layer, the cell size,
    the actor, a sound and the game's own switches, each in the game's words), returning a
    :class:`vigile.games.contract.RiskSurface`: the grid and the board that ``vigile riskmap``,
    ``vigile route`` (the safest route over any game's surface) and their renderers read."""
    actor_fields: str | None = None
    """``module:Model`` of the game's own actor fields: a pydantic model whose fields an actor
    of its scenarios may carry beside the shared ones (:mod:`vigile.scene.actors`); its
    scenarios validate with it (:func:`vigile.scene.model.scenario_model`), and the game's
    modules read them on an actor that ``isinstance`` of it."""
    plan_actions: str | None = None
    """``module:attribute``: a tuple of the game's own plan actions, pydantic models each with
    a ``do: Literal["..."]``, which its scenarios' legs may hold beside the shared ones
    (:data:`vigile.scene.plans.Action`) and its live play takes; another game's scenario that
    plans one is refused, naming the game. A blow whose reach live play and the plans check
    (LP-7) subclasses :class:`vigile.scene.plans.Blow`."""
    vocabulary: str | None = None
    """``module:attribute``: the game's words for the pages, a
    :class:`vigile.scene.vocabulary.Vocabulary` (its ways of moving, actions and stats, each
    labelled in French and English with its rule IDs). Absent: the shared words."""
    rule_statements: tuple[str, ...] = ()
    """Its rules' one-line statements for ``vigile rules`` (``package:file``, ``{lang}`` for
    the language: a TOML table ``"ID" = "statement"``), for a game that ships its own; the
    built-in games' are in ``vigile/io/locales/rules.{lang}.toml``."""
    check_examples: tuple[tuple[str, ...], ...] = ()
    """Its ``vigile check`` commands with representative options (the words after ``vigile
    check``, its name first), run by ``vigile rules --coverage`` to find the rules they cite."""
    scenarios: tuple[str, ...] = ()
    """Example scenarios of a game that ships its own (``package:file.yaml``), played by
    ``vigile rules --coverage`` (the engine's part and the risk map's) beside the bundled."""
    extras: Mapping[str, Any] = field(default_factory=dict)
    """Anything else a game's own modules want to find through the registry."""

    def load(self, what: str) -> Any:
        """The object named by one of the ``module:attribute`` fields above."""
        return load_object(what)

    def callees(self) -> KernelCallees:
        """Its :attr:`kernel_callees`, or :data:`NO_CALLEES` for a game that names none; a
        :class:`PluginError` for an object that is not a :class:`KernelCallees`."""
        if self.kernel_callees is None:
            return NO_CALLEES
        found = self.load(self.kernel_callees)
        if not isinstance(found, KernelCallees):
            raise PluginError(
                f"the game plug-in {self.name!r}: kernel_callees = {self.kernel_callees!r} "
                f"is a {type(found).__name__}, not a vigile.registry.KernelCallees"
            )
        return found


class KernelCallees:
    """Pieces of a game's compiled kernel that a second process can compile into numba's cache
    while the first builds the model (:func:`vigile.sim.warmup.warm`, where the machine has a
    core to spare): the plug-in's :attr:`GamePlugin.kernel_callees` names an instance. This
    base compiles nothing (:data:`NO_CALLEES`, the default); a game's subclass says for which
    scenarios it has pieces and compiles them. The helper process imports the object by its
    path, so it must be importable there (a module-level instance)."""

    def has_callees(self, scenario: Any) -> bool:
        """Whether :meth:`compile_callees` has pieces to compile for ``scenario`` (a
        :class:`vigile.scene.model.Scenario`): asked before a helper process is started."""
        return False

    def compile_callees(self, scenario: Any) -> None:
        """Compile, into numba's cache, the pieces of the scenario's kernel (in the helper
        process): then building the model loads them instead of compiling them."""


NO_CALLEES = KernelCallees()
"""A game with nothing to compile beside its model."""


def load_object(path: str) -> Any:
    """The object at ``module:attribute``."""
    module, _, attribute = path.partition(":")
    found: Any = import_module(module)
    for part in attribute.split(".") if attribute else ():
        found = getattr(found, part)
    return found


@cache
def _sources() -> dict[str, str]:
    found = dict(BUILTIN)
    for point in entry_points(group=ENTRY_POINT_GROUP):
        found.setdefault(point.name, point.value)
    return found


_registered: dict[str, GamePlugin] = {}
_version = [0]
_checks: list[Callable[[GamePlugin], list[str]]] = []


def add_check(check: Callable[[GamePlugin], list[str]]) -> None:
    """Have every plug-in checked by ``check`` (what is wrong with it, one line each) when it
    is registered or loaded. The layers above the registry add theirs (the messages'
    :func:`vigile.io.i18n.plugin_problems`), so the registry names none of them."""
    if check not in _checks:
        _checks.append(check)


def problems(plugin: GamePlugin) -> list[str]:
    """What is wrong with ``plugin``: its own fields, then every added check's findings."""
    found: list[str] = []
    if not plugin.name.isidentifier():
        found.append(f"{plugin.name!r} is not a game name (letters, digits, underscores)")
    for name in ("game", "cli", "kernel", "kernel_callees", "riskmap", "scenario_issues"):
        value = getattr(plugin, name)
        if value and ":" not in value:
            found.append(f"{name} = {value!r} is not a 'module:attribute' path")
    for check in _checks:
        found += check(plugin)
    return found


def checked(plugin: GamePlugin) -> GamePlugin:
    """``plugin``, or a :class:`PluginError` listing what is wrong with it."""
    found = problems(plugin)
    if found:
        raise PluginError(f"the game plug-in {plugin.name!r}: " + "; ".join(found))
    return plugin


def register(plugin: GamePlugin) -> GamePlugin:
    """Add a game (a test's toy game, or a plug-in not installed as a package), once
    :func:`checked`: a missing message key or one taken from the core is refused here, with
    the plug-in's name, not when a page first shows it."""
    checked(plugin)
    _registered[plugin.name] = plugin
    _version[0] += 1
    return plugin


def unregister(name: str) -> None:
    """Forget a game added with :func:`register`."""
    if _registered.pop(name, None) is not None:
        _version[0] += 1


def version() -> int:
    """A number that changes whenever a game is registered or forgotten: what is built from
    the list of games (the messages, the command) is cached by it."""
    return _version[0]


def names() -> list[str]:
    """Every game's name: the built-in ones first, then the others in order of arrival."""
    return [*_sources(), *(n for n in _registered if n not in _sources())]


def get(name: str, *, where: str = "ruleset") -> GamePlugin:
    """The game called ``name``; an :class:`~vigile.errors.InputError` naming the known ones
    otherwise."""
    if name in _registered:
        return _registered[name]
    source = _sources().get(name)
    if source is None:
        raise InputError(
            f"{name!r} is not a game vigile knows (one of: {', '.join(names())})", where=where
        )
    return _loaded(source)


@cache
def _loaded(source: str) -> GamePlugin:
    """The plug-in object at ``source`` (an entry point's value), :func:`checked` once."""
    plugin = load_object(source)
    if not isinstance(plugin, GamePlugin):
        raise TypeError(f"{source} is not a GamePlugin")
    return checked(plugin)


def games() -> list[GamePlugin]:
    """Every game's plug-in, in the order of :func:`names`."""
    return [get(n) for n in names()]


def each(attribute: str) -> Iterable[tuple[str, Callable[..., Any]]]:
    """(name, object) for every game that names ``attribute`` (``cli``, ``kernel``…)."""
    for plugin in games():
        path = getattr(plugin, attribute)
        if path:
            yield plugin.name, load_object(path)
