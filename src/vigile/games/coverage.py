"""Where each rule is played, found by evidence (issue 10): the rule IDs that the verdicts of the
turn engine, the batched simulator and the risk map cite, for a fixed set of canonical inputs.

Nothing here is a hand-written table of "rule → where": each place plays its canonical inputs
and the rule IDs are read off what it produced, the modifiers, notes and player notes of every
verdict (and of the verdicts of its party members) and the ``rule`` parameter of the engine's
events. ``vigile check`` is the command line's own: :mod:`vigile.cli.coverage` plays it.

- **engine**: every bundled scenario played to its end by the turn engine
  (:func:`vigile.engine.run.play`) for a few seeds;
- **simulator**: every bundled scenario that has a batched model (its plug-in's ``batch``),
  prepared and played for one small block, with its rule functions recorded while it computes
  its tables (:class:`vigile.games.skirmish.model.Tables` and :func:`~.model.prepare` call them
  by name; the recorder wraps those names for the duration);
- **risk map**: the night raid's risk map for each attitude, for sight and for each noise,
  recorded the same way.

The recorder swaps module attributes while it runs, so it holds a lock: two coverage runs in
one process take turns (nothing else in vigile replaces these names).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager, suppress
from types import ModuleType
from typing import Any

import numpy as np

from vigile import registry
from vigile.checks.verdict import Line, Modifier, Verdict
from vigile.dice.source import RolledFaces
from vigile.engine.events import Event
from vigile.engine.run import new_game, play_game
from vigile.errors import VigileError
from vigile.scene.loader import bundled_names, load_scenario

PLACES = ("check", "engine", "simulator", "riskmap")
"""Where a rule may be played, in the order the table shows them."""

ENGINE_SEEDS = (1, 2, 3)
SIM_RUNS = 200
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


def engine_rules(seeds: Iterable[int] = ENGINE_SEEDS) -> set[str]:
    """The rules the turn engine cites playing every bundled scenario: once as written (with
    its GM's dice, if it gives some), then with rolled dice for each seed. A game stopped by a
    user error (the scenario's dice run out) still counts for the events logged so far."""
    found: set[str] = set()
    chosen = tuple(seeds)
    for name in bundled_names():
        scenario = load_scenario(name)
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


@contextmanager
def recording(modules: Iterable[ModuleType], names: Iterable[str]) -> Iterator[set[str]]:
    """While it lasts, each function ``name`` of each module is wrapped: the rule IDs of every
    verdict it returns go into the set it yields."""
    found: set[str] = set()
    saved: list[tuple[ModuleType, str, Any]] = []

    def wrap(function: Callable[..., Verdict]) -> Callable[..., Verdict]:
        def recorded(*args: Any, **kwargs: Any) -> Verdict:
            verdict = function(*args, **kwargs)
            found.update(verdict_rules(verdict))
            return verdict

        return recorded

    chosen = tuple(names)
    with _RECORDING:
        try:
            for module in modules:
                for name in chosen:
                    if hasattr(module, name):
                        original = getattr(module, name)
                        saved.append((module, name, original))
                        setattr(module, name, wrap(original))
            yield found
        finally:
            for module, name, original in reversed(saved):
                setattr(module, name, original)


RULE_FUNCTIONS = ("noise_check", "sight_check", "move_check", "alarm_check")
"""The skirmish rule functions the batched model and the risk map call by name."""


def simulator_rules(runs: int = SIM_RUNS) -> set[str]:
    """The rules whose verdicts the batched simulator's chances come from, for every bundled
    scenario that has a batched model."""
    from vigile.games.skirmish import batch, model

    with recording((model, batch), RULE_FUNCTIONS) as found:
        for name in bundled_names():
            scenario = load_scenario(name)
            plugin = registry.get(scenario.ruleset)
            if not plugin.batch:
                continue
            batched = plugin.load(plugin.batch)(scenario)
            if batched is not None:
                batched.play(runs, np.random.default_rng(1))
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


def library_coverage() -> dict[str, set[str]]:
    """Place → the rule IDs played there, for the engine, the simulator and the risk map."""
    return {"engine": engine_rules(), "simulator": simulator_rules(), "riskmap": riskmap_rules()}


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
