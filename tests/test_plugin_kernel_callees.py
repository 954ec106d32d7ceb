"""A plug-in's kernel callees are a typed part of the contract (``GamePlugin.kernel_callees``,
a :class:`vigile.registry.KernelCallees`), not functions found on a module by name.

A plug-in that names none has nothing to compile beside its model: no helper process starts.
One that names them is asked ``has_callees`` for the scenario, and its ``compile_callees``
is what the helper process runs. An object of another class is refused naming the game.
"""

from __future__ import annotations

import dataclasses
import subprocess
from collections.abc import Iterator
from typing import Any

import pytest

import toygame
from vigile import registry
from vigile.games import contract
from vigile.registry import NO_CALLEES, GamePlugin, KernelCallees, PluginError
from vigile.scene.loader import bundled_path, load_scenario, parse_scenario
from vigile.scene.model import Scenario
from vigile.sim import warmup

SCENARIO = """
ruleset: toy
name: A toy raid
map: {width: 50, height: 50}
turns: 3
actors:
  - {name: Sneak, side: attackers, position: [10, 10]}
  - {name: Watcher, side: defenders, position: [40, 40]}
"""


class Recording(KernelCallees):
    """Has pieces for a scenario of more than 2 turns; records what it is asked to compile."""

    def __init__(self) -> None:
        self.compiled: list[str] = []

    def has_callees(self, scenario: Any) -> bool:
        return bool(scenario.turns > 2)

    def compile_callees(self, scenario: Any) -> None:
        self.compiled.append(scenario.name)


CALLEES = Recording()
NOT_CALLEES = object()


def no_kernel(scenario: Scenario) -> None:
    """A kernel that covers no scenario (the engine plays)."""


class Started(Exception):
    """A helper process would have started (the command it was given)."""


@pytest.fixture
def spawn(monkeypatch: pytest.MonkeyPatch) -> None:
    """A machine with two cores and no compiled kernel, where starting a process raises."""

    def popen(command: list[str], **_: Any) -> None:
        raise Started(command)

    monkeypatch.setattr(warmup, "_cores", lambda: 2)
    monkeypatch.setattr(warmup, "kernel_cached", lambda ruleset: False)
    monkeypatch.setattr(subprocess, "Popen", popen)


def use(plugin: GamePlugin) -> Iterator[Scenario]:
    registry.register(plugin)
    try:
        yield parse_scenario(SCENARIO, file="toy.yaml", fmt="yaml")
    finally:
        registry.unregister(plugin.name)


@pytest.fixture
def without(spawn: None) -> Iterator[Scenario]:
    """The toy game with a kernel and no callees."""
    yield from use(dataclasses.replace(toygame.PLUGIN, kernel=f"{__name__}:no_kernel"))


@pytest.fixture
def with_callees(spawn: None) -> Iterator[Scenario]:
    """The toy game with a kernel and its callees."""
    CALLEES.compiled.clear()
    plugin = dataclasses.replace(
        toygame.PLUGIN, kernel=f"{__name__}:no_kernel", kernel_callees=f"{__name__}:CALLEES"
    )
    yield from use(plugin)


def test_the_contract_names_the_callees_and_their_default() -> None:
    assert contract.KernelCallees is KernelCallees and contract.NO_CALLEES is NO_CALLEES
    assert toygame.PLUGIN.kernel_callees is None and toygame.PLUGIN.callees() is NO_CALLEES
    assert NO_CALLEES.has_callees(load_scenario(bundled_path("night-raid"))) is False


def test_a_plugin_without_callees_starts_no_helper(without: Scenario) -> None:
    """Popen raises here: None means no helper was even tried."""
    assert warmup._start_helper(without) is None


def test_a_plugin_with_callees_is_asked_and_its_helper_compiles_them(
    with_callees: Scenario,
) -> None:
    """SCENARIO plays 3 turns: more than 2, so the helper starts, given the callees' path;
    the helper's work (``_help``) calls their ``compile_callees``."""
    assert with_callees.turns == 3
    with pytest.raises(Started) as started:
        warmup._start_helper(with_callees)
    assert started.value.args[0][-2:] == [warmup.HELPER, f"{__name__}:CALLEES"]
    assert CALLEES.compiled == []
    assert warmup._help(f"{__name__}:CALLEES", with_callees.model_dump_json().encode()) == 0
    assert CALLEES.compiled == ["A toy raid"]


def test_a_scenario_the_callees_do_not_cover_starts_no_helper(with_callees: Scenario) -> None:
    short = with_callees.model_copy(update={"turns": 2})
    assert warmup._start_helper(short) is None


def test_callees_of_another_class_are_refused_naming_the_game() -> None:
    plugin = dataclasses.replace(toygame.PLUGIN, kernel_callees=f"{__name__}:NOT_CALLEES")
    with pytest.raises(PluginError, match=r"'toy'.*kernel_callees.*not a vigile\.registry"):
        plugin.callees()
    assert warmup._help(f"{__name__}:NOT_CALLEES", b"{}") == 1
    bad = dataclasses.replace(toygame.PLUGIN, kernel_callees="no_colon")
    with pytest.raises(PluginError, match="kernel_callees = 'no_colon'"):
        registry.register(bad)


def test_the_skirmish_names_its_night_raid_callees() -> None:
    """The night raid's kernel has callees; a day encounter's none (its kernel is small)."""
    callees = registry.get("skirmish").callees()
    assert type(callees).__name__ == "RaidCallees"
    assert callees.has_callees(load_scenario(bundled_path("night-raid")))
    assert not callees.has_callees(load_scenario(bundled_path("sk-s5-street")))
    for name in ("starfinder", "dnd35"):
        assert registry.get(name).callees() is NO_CALLEES
