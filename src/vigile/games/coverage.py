"""Where each rule is played, found by evidence: the rule IDs that the verdicts of the
turn engine, the simulator and the risk map cite, for a fixed set of canonical inputs.

Nothing here is a hand-written table of "rule → where": each place plays its canonical inputs
and the rule IDs are read off what it produced, the modifiers, notes and player notes of every
verdict (and of the verdicts of its party members) and the ``rule`` parameter of the engine's
events. ``vigile check`` is the command line's own: :mod:`vigile.cli.coverage` plays it.

- **engine**: every bundled scenario played to its end by the turn engine
  (:func:`vigile.engine.run.play`) for a few seeds;
- **simulator**: where numba is installed, every bundled scenario a game's compiled kernel
  plays, its tables built with its rule functions recorded while it calls them by name (the
  recorder wraps those names for the duration; :func:`kernel_rules`: the tables only, nothing
  compiled nor played);
- **risk map**: the night raid's risk map for each attitude, for sight and for each noise,
  recorded the same way.

The recorder swaps module attributes while it runs, so it holds a lock: two coverage runs in
one process take turns (nothing else in vigile replaces these names).
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import pkgutil
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager, suppress
from importlib import resources
from types import ModuleType
from typing import Any

import numpy as np

from vigile import registry
from vigile.checks.verdict import Line, Modifier, Verdict
from vigile.dice.source import RolledFaces
from vigile.engine.events import Event
from vigile.engine.run import new_game, play_game
from vigile.errors import VigileError
from vigile.scene.loader import bundled_names, load_scenario, parse_scenario
from vigile.scene.model import Scenario
from vigile.scene.vocabulary import vocabulary_of

PLACES = ("check", "engine", "simulator", "riskmap")
"""Where a rule may be played, in the order the table shows them."""

ENGINE_SEEDS = (1, 2, 3)
RISKMAP_SCENARIO = "night-raid"
RISKMAP_RESOLUTION = 10.0

NOTE_ONLY: Mapping[str, str] = {}
"""Rules whose text changes no chance: they are shown as notes, never counted as unplayed. Each
with the reason (proposed as ``[note]`` marks for RULES.md)."""

_RECORDING = threading.Lock()


def line_rules(lines: Iterable[Line | Modifier]) -> set[str]:
    return {line.rule for line in lines if line.rule}


def verdict_rules(verdict: Verdict) -> set[str]:
    """The rule IDs a verdict cites: its modifiers, notes and player notes, and its members'."""
    found = (
        line_rules(verdict.modifiers) | line_rules(verdict.notes) | line_rules(verdict.player_notes)
    )
    for member in verdict.members:
        found |= verdict_rules(member)
    return found


def event_rules(event: Event) -> set[str]:
    """The rule IDs an event cites: its ``rule`` parameter and its verdict's."""
    found = verdict_rules(event.verdict) if event.verdict is not None else set()
    rule = event.params.get("rule")
    if isinstance(rule, str) and rule:
        found.add(rule)
    return found


def plugin_scenarios() -> list[Scenario]:
    """The example scenarios of every game that ships its own (a plug-in's ``scenarios``,
    ``package:file.yaml``), read from its package."""
    found: list[Scenario] = []
    for plugin in registry.games():
        for source in plugin.scenarios:
            package, _, name = source.rpartition(":")
            text = resources.files(package or plugin.package).joinpath(name).read_text("utf-8")
            found.append(parse_scenario(text, file=source))
    return found


def engine_rules(seeds: Iterable[int] = ENGINE_SEEDS) -> set[str]:
    """The rules the turn engine cites playing every bundled scenario and every plug-in's
    (:func:`plugin_scenarios`): once as written (with its GM's dice, if it gives some), then
    with rolled dice for each seed. A game stopped by a user error (the scenario's dice run
    out) still counts for the events logged so far."""
    found: set[str] = set()
    chosen = tuple(seeds)
    for scenario in [load_scenario(name) for name in bundled_names()] + plugin_scenarios():
        games = [new_game(scenario)]
        games += [
            new_game(scenario, seed=seed, faces=RolledFaces(np.random.default_rng(seed)))
            for seed in chosen
        ]
        for game in games:
            with suppress(VigileError):
                play_game(game)
            for event in game.events:
                found |= event_rules(event)
    return found


def result_rules(value: object) -> set[str]:
    """The rule IDs a rule function's result cites: a verdict's (:func:`verdict_rules`), a
    line's or a modifier's, and those of the items of a tuple or a list and of the fields of a
    dataclass (a state and its :class:`~vigile.checks.verdict.Line`, as the d20 rules return
    them). Anything else cites none."""
    if isinstance(value, Verdict):
        return verdict_rules(value)
    if isinstance(value, Line | Modifier):
        return {value.rule} if value.rule else set()
    if isinstance(value, tuple | list):
        return set().union(*(result_rules(item) for item in value))
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = dataclasses.fields(value)
        return set().union(*(result_rules(getattr(value, field.name)) for field in fields))
    return set()


def rule_functions(
    module: ModuleType, homes: tuple[str, ...] = ("vigile.rulesets.",)
) -> tuple[str, ...]:
    """The names by which ``module`` holds a rule function (a function of
    :mod:`vigile.rulesets`, or of a module under one of ``homes``: a plug-in's package), as
    it calls them."""
    return tuple(
        name
        for name, value in vars(module).items()
        if inspect.isfunction(value) and value.__module__.startswith(homes)
    )


@contextmanager
def recording(
    modules: Iterable[ModuleType], names: Iterable[str] | None = None
) -> Iterator[set[str]]:
    """While it lasts, each function ``name`` of each module is wrapped (``names`` None: each of
    the module's :func:`rule_functions`): the rule IDs of everything it returns
    (:func:`result_rules`) go into the set it yields."""
    found: set[str] = set()
    saved: list[tuple[ModuleType, str, Any]] = []

    def wrap(function: Callable[..., object]) -> Callable[..., object]:
        def recorded(*args: Any, **kwargs: Any) -> object:
            result = function(*args, **kwargs)
            found.update(result_rules(result))
            return result

        return recorded

    chosen = None if names is None else tuple(names)
    with _RECORDING:
        try:
            for module in dict.fromkeys(modules):
                for name in rule_functions(module) if chosen is None else chosen:
                    if hasattr(module, name):
                        original = getattr(module, name)
                        saved.append((module, name, original))
                        setattr(module, name, wrap(original))
            yield found
        finally:
            for module, name, original in reversed(saved):
                setattr(module, name, original)


RULE_FUNCTIONS = ("noise_check", "sight_check", "move_check", "alarm_check")
"""The skirmish rule functions the risk map calls by name."""


def simulator_rules() -> set[str]:
    """The rules whose verdicts the simulator's chances come from: the compiled kernels'
    (:func:`kernel_rules`; the engine, which plays the rest, is :func:`engine_rules`)."""
    return kernel_rules()


def kernel_builders(kernel: str) -> list[ModuleType]:
    """The modules that lay out a compiled kernel's tables: those of the kernel's package
    (``module:function``, a plug-in's ``kernel``) that define a ``build(scenario)`` of their
    own (a skirmish raid's and a day encounter's; a d20 game's ``tables``). Importing them
    imports numba; it compiles nothing."""
    package = importlib.import_module(kernel.partition(":")[0])
    names = [package.__name__]
    if hasattr(package, "__path__"):
        names += [f"{package.__name__}.{m.name}" for m in pkgutil.iter_modules(package.__path__)]
    modules = [importlib.import_module(name) for name in names]
    return [
        m
        for m in modules
        if inspect.isfunction(getattr(m, "build", None)) and m.build.__module__ == m.__name__
    ]


def looked_up(module: ModuleType) -> list[ModuleType]:
    """``module`` and the modules through which it calls rule functions by name: the rulesets'
    modules it holds (``dnd35.spot_check``) and the game modules whose functions and classes it
    holds (:func:`vigile.games.skirmish.kernel.tables.setup` asks the rules by its own
    names)."""
    found = [module]
    for value in vars(module).values():
        if isinstance(value, ModuleType):
            if value.__name__.startswith("vigile.rulesets."):
                found.append(value)
            continue
        home = getattr(value, "__module__", None)
        held = inspect.isfunction(value) or inspect.isclass(value)
        if held and isinstance(home, str) and home.startswith("vigile.games."):
            found.append(importlib.import_module(home))
    return list(dict.fromkeys(found))


def kernel_rules() -> set[str]:
    """The rules whose verdicts the compiled kernels' tables come from: for every bundled
    scenario whose game has a kernel (its plug-in's ``kernel``), each of the kernel's
    :func:`kernel_builders` that plays it (its ``unsupported`` says None, where it has one; its
    ``build`` raises no :class:`~vigile.errors.VigileError`) builds its tables, recorded as the
    risk map's are, through the names :func:`looked_up` finds. Nothing is compiled nor
    played: a skirmish raid's hearing table, filled case by case as the kernel meets them,
    holds only the nearest case of each sound when built (its ``build`` asks those). Without
    numba the simulator plays no kernel: none."""
    from vigile.sim.kernel import available

    if not available():
        return set()
    scenarios = [load_scenario(name) for name in bundled_names()]
    builders: dict[str, list[ModuleType]] = {}
    for scenario in scenarios:
        plugin = registry.get(scenario.ruleset)
        if plugin.kernel and scenario.ruleset not in builders:
            builders[scenario.ruleset] = kernel_builders(plugin.kernel)
    modules = [found for chosen in builders.values() for m in chosen for found in looked_up(m)]
    with recording(modules) as found:
        for scenario in scenarios:
            for builder in builders.get(scenario.ruleset, []):
                unsupported = getattr(builder, "unsupported", None)
                if unsupported is not None and unsupported(scenario) is not None:
                    continue
                with suppress(VigileError):
                    builder.build(scenario)
    return set(found)


def riskmap_rules(
    scenario_name: str = RISKMAP_SCENARIO, resolution: float = RISKMAP_RESOLUTION
) -> set[str]:
    """The rules whose verdicts a risk map's chances come from: the night raid's map for each
    attitude, of sight and of each noise (a noise the map refuses is skipped)."""
    from vigile.games.skirmish import riskmap
    from vigile.rulesets.skirmish.noise import NoiseEvent
    from vigile.rulesets.skirmish.sight import Attitude

    scenario = load_scenario(scenario_name)
    board = riskmap.Board.of(scenario)
    with recording((riskmap,), RULE_FUNCTIONS) as found:
        for attitude in Attitude:
            for noise in (None, *NoiseEvent):
                for unsuited in (False, True):
                    try:
                        riskmap.risk_map(
                            board, attitude, resolution=resolution, noise=noise, unsuited=unsuited
                        )
                    except VigileError:
                        continue
    return set(found)


def plugin_riskmap_rules(resolution: float | None = None) -> set[str]:
    """The rules whose verdicts the risk maps of the plug-ins' own scenarios come from: each
    scenario's game's risk map hook (:class:`vigile.games.contract.RiskMapHook`), for each way
    of moving its vocabulary offers (:attr:`vigile.scene.vocabulary.Vocabulary.overlays`),
    recorded through the rule functions that the hook's module holds from the game's package.
    A request the game refuses counts for nothing."""
    from vigile.games.contract import RiskRequest, risk_map

    found: set[str] = set()
    for scenario in plugin_scenarios():
        plugin = registry.get(scenario.ruleset)
        if plugin.riskmap is None or plugin.name in registry.BUILTIN:
            continue
        module = importlib.import_module(plugin.riskmap.partition(":")[0])
        homes = ("vigile.rulesets.", f"{plugin.package}.")
        with recording(looked_up(module), rule_functions(module, homes)) as seen:
            for way in vocabulary_of(plugin.name).names("overlays"):
                with suppress(VigileError):
                    risk_map(scenario, RiskRequest(str(way), resolution=resolution))
        found |= seen
    return found


def library_coverage() -> dict[str, set[str]]:
    """Place → the rule IDs played there, for the engine, the simulator and the risk map."""
    return {
        "engine": engine_rules(),
        "simulator": simulator_rules(),
        "riskmap": riskmap_rules() | plugin_riskmap_rules(),
    }


def example_scenario(rule_id: str) -> str | None:
    """The bundled scenario that reproduces a worked example ([E] in RULES.md), named after
    it (``sk-n9-shoji`` for SK-N9); None when there is none."""
    prefix = f"{rule_id.lower()}-"
    return next((name for name in bundled_names() if name.startswith(prefix)), None)


def coverage_rows(
    rule_ids: Iterable[str], played: Mapping[str, set[str]]
) -> dict[str, dict[str, object]]:
    """Rule ID → where it is played (places in :data:`PLACES` order), whether it is a note
    (with why), the bundled scenario that reproduces it if it is a worked example, and whether
    it is played nowhere (neither a note nor an example)."""
    rows: dict[str, dict[str, object]] = {}
    for rule_id in rule_ids:
        places = [place for place in PLACES if rule_id in played.get(place, set())]
        note = NOTE_ONLY.get(rule_id)
        example = example_scenario(rule_id)
        rows[rule_id] = {
            "played": places,
            "note": note,
            "example": example,
            "unplayed": not places and note is None and example is None,
        }
    return rows
