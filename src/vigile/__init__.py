"""vigile: adjudicates stealth and detection in tabletop games, with exact odds and reasons.

The public API (tested in ``tests/test_public_api.py``): the checks of the three games (the
skirmish's unprefixed, as they came first; the d20 games' named after their game, since both
have a ``hide_check``), the scenario loader, the turn engine's :func:`play`, the Monte Carlo
:func:`simulate`, and the exact :func:`risk_map` and :func:`safest_route`. Each name is
imported on first use (PEP 562), so ``import vigile`` loads nothing heavy and rolls nothing.

>>> from vigile import NoiseEvent, load_rules, noise_check
>>> verdict = noise_check(load_rules("skirmish"), event=NoiseEvent.FUMBLE, distance_cm=5)
>>> verdict.chance
Fraction(1, 3)
>>> from vigile import load_scenario, play
>>> raid = load_scenario("night-raid")  # a bundled scenario, by name (or a file's path)
>>> raid.name, raid.ruleset, raid.turns
('Night raid on the Nagamasa residence', 'skirmish', 40)
>>> play(load_scenario("sk-n9-shoji"), seed=1).outcome.kind
'turn_limit'
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from vigile.awareness.ladder import AwarenessState
    from vigile.checks.verdict import Line, Modifier, Verdict
    from vigile.dice.source import GivenFaces, RolledFaces
    from vigile.engine.run import play
    from vigile.errors import (
        HouseRuleError,
        InputError,
        LimitError,
        RuleError,
        ScenarioError,
        VigileError,
    )
    from vigile.games.skirmish.riskmap import risk_map
    from vigile.games.skirmish.route import safest_route
    from vigile.io.i18n import Lang
    from vigile.io.json_out import verdict_json
    from vigile.io.text import explain
    from vigile.rulesets.data import RuleData
    from vigile.rulesets.data import load as load_rules
    from vigile.rulesets.dnd35.attack import attack_check as dnd35_attack_check
    from vigile.rulesets.dnd35.attack import grope_check as dnd35_grope_check
    from vigile.rulesets.dnd35.hide import HideSpeed
    from vigile.rulesets.dnd35.hide import hide_check as dnd35_hide_check
    from vigile.rulesets.dnd35.listen import Listener, ListenSpeed
    from vigile.rulesets.dnd35.listen import listen_all_check as dnd35_listen_all_check
    from vigile.rulesets.dnd35.listen import listen_check as dnd35_listen_check
    from vigile.rulesets.dnd35.spot import SpotTarget
    from vigile.rulesets.dnd35.spot import spot_check as dnd35_spot_check
    from vigile.rulesets.skirmish.alarm import alarm_check
    from vigile.rulesets.skirmish.ambush import AmbushSetting, ambush_check
    from vigile.rulesets.skirmish.common import Roller, TimeOfDay
    from vigile.rulesets.skirmish.movement import Speed, move_check
    from vigile.rulesets.skirmish.noise import NoiseEvent, Surface, noise_check
    from vigile.rulesets.skirmish.shadow import Mount, Setting, Task, shadow_check
    from vigile.rulesets.skirmish.sight import Attitude, sight_check
    from vigile.rulesets.starfinder.attack import attack_check as starfinder_attack_check
    from vigile.rulesets.starfinder.stealth import Concealment
    from vigile.rulesets.starfinder.stealth import hide_check as starfinder_hide_check
    from vigile.scene.loader import load_scenario
    from vigile.scene.model import Scenario
    from vigile.sim.simulate import simulate

_LAZY: dict[str, tuple[str, str]] = {
    "AmbushSetting": ("vigile.rulesets.skirmish.ambush", "AmbushSetting"),
    "Attitude": ("vigile.rulesets.skirmish.sight", "Attitude"),
    "AwarenessState": ("vigile.awareness.ladder", "AwarenessState"),
    "Concealment": ("vigile.rulesets.starfinder.stealth", "Concealment"),
    "GivenFaces": ("vigile.dice.source", "GivenFaces"),
    "HideSpeed": ("vigile.rulesets.dnd35.hide", "HideSpeed"),
    "HouseRuleError": ("vigile.errors", "HouseRuleError"),
    "InputError": ("vigile.errors", "InputError"),
    "Lang": ("vigile.io.i18n", "Lang"),
    "LimitError": ("vigile.errors", "LimitError"),
    "Line": ("vigile.checks.verdict", "Line"),
    "ListenSpeed": ("vigile.rulesets.dnd35.listen", "ListenSpeed"),
    "Listener": ("vigile.rulesets.dnd35.listen", "Listener"),
    "Modifier": ("vigile.checks.verdict", "Modifier"),
    "Mount": ("vigile.rulesets.skirmish.shadow", "Mount"),
    "NoiseEvent": ("vigile.rulesets.skirmish.noise", "NoiseEvent"),
    "RolledFaces": ("vigile.dice.source", "RolledFaces"),
    "Roller": ("vigile.rulesets.skirmish.common", "Roller"),
    "RuleData": ("vigile.rulesets.data", "RuleData"),
    "RuleError": ("vigile.errors", "RuleError"),
    "Scenario": ("vigile.scene.model", "Scenario"),
    "ScenarioError": ("vigile.errors", "ScenarioError"),
    "Setting": ("vigile.rulesets.skirmish.shadow", "Setting"),
    "Speed": ("vigile.rulesets.skirmish.movement", "Speed"),
    "SpotTarget": ("vigile.rulesets.dnd35.spot", "SpotTarget"),
    "Surface": ("vigile.rulesets.skirmish.noise", "Surface"),
    "Task": ("vigile.rulesets.skirmish.shadow", "Task"),
    "TimeOfDay": ("vigile.rulesets.skirmish.common", "TimeOfDay"),
    "Verdict": ("vigile.checks.verdict", "Verdict"),
    "VigileError": ("vigile.errors", "VigileError"),
    "alarm_check": ("vigile.rulesets.skirmish.alarm", "alarm_check"),
    "ambush_check": ("vigile.rulesets.skirmish.ambush", "ambush_check"),
    "dnd35_attack_check": ("vigile.rulesets.dnd35.attack", "attack_check"),
    "dnd35_grope_check": ("vigile.rulesets.dnd35.attack", "grope_check"),
    "dnd35_hide_check": ("vigile.rulesets.dnd35.hide", "hide_check"),
    "dnd35_listen_all_check": ("vigile.rulesets.dnd35.listen", "listen_all_check"),
    "dnd35_listen_check": ("vigile.rulesets.dnd35.listen", "listen_check"),
    "dnd35_spot_check": ("vigile.rulesets.dnd35.spot", "spot_check"),
    "explain": ("vigile.io.text", "explain"),
    "load_rules": ("vigile.rulesets.data", "load"),
    "load_scenario": ("vigile.scene.loader", "load_scenario"),
    "move_check": ("vigile.rulesets.skirmish.movement", "move_check"),
    "noise_check": ("vigile.rulesets.skirmish.noise", "noise_check"),
    "play": ("vigile.engine.run", "play"),
    "risk_map": ("vigile.games.skirmish.riskmap", "risk_map"),
    "safest_route": ("vigile.games.skirmish.route", "safest_route"),
    "shadow_check": ("vigile.rulesets.skirmish.shadow", "shadow_check"),
    "sight_check": ("vigile.rulesets.skirmish.sight", "sight_check"),
    "simulate": ("vigile.sim.simulate", "simulate"),
    "starfinder_attack_check": ("vigile.rulesets.starfinder.attack", "attack_check"),
    "starfinder_hide_check": ("vigile.rulesets.starfinder.stealth", "hide_check"),
    "verdict_json": ("vigile.io.json_out", "verdict_json"),
}
"""Where each public name lives: imported on first use, so ``vigile check`` from the shell loads
only what a check needs."""


def __getattr__(name: str) -> Any:
    try:
        module, attribute = _LAZY[name]
    except KeyError:
        raise AttributeError(f"module 'vigile' has no attribute {name!r}") from None
    value = getattr(import_module(module), attribute)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_LAZY])


__all__ = [
    "AmbushSetting",
    "Attitude",
    "AwarenessState",
    "Concealment",
    "GivenFaces",
    "HideSpeed",
    "HouseRuleError",
    "InputError",
    "Lang",
    "LimitError",
    "Line",
    "ListenSpeed",
    "Listener",
    "Modifier",
    "Mount",
    "NoiseEvent",
    "RolledFaces",
    "Roller",
    "RuleData",
    "RuleError",
    "Scenario",
    "ScenarioError",
    "Setting",
    "Speed",
    "SpotTarget",
    "Surface",
    "Task",
    "TimeOfDay",
    "Verdict",
    "VigileError",
    "alarm_check",
    "ambush_check",
    "dnd35_attack_check",
    "dnd35_grope_check",
    "dnd35_hide_check",
    "dnd35_listen_all_check",
    "dnd35_listen_check",
    "dnd35_spot_check",
    "explain",
    "load_rules",
    "load_scenario",
    "move_check",
    "noise_check",
    "play",
    "risk_map",
    "safest_route",
    "shadow_check",
    "sight_check",
    "simulate",
    "starfinder_attack_check",
    "starfinder_hide_check",
    "verdict_json",
]
__version__ = "0.1.0"
