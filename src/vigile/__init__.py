"""vigile: adjudicates stealth and detection in tabletop games, with exact odds and reasons.

The public API (tested in ``tests/test_public_api.py``)::

    from vigile import load_rules, noise_check, NoiseEvent, Roller
    verdict = noise_check(load_rules("skirmish"), event=NoiseEvent.FUMBLE, distance_cm=5)
    verdict.chance  # Fraction(1, 3)
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from vigile.awareness.ladder import AwarenessState
    from vigile.checks.verdict import Line, Modifier, Verdict
    from vigile.dice.source import GivenFaces, RolledFaces
    from vigile.errors import (
        HouseRuleError,
        InputError,
        LimitError,
        RuleError,
        ScenarioError,
        VigileError,
    )
    from vigile.io.i18n import Lang
    from vigile.io.json_out import verdict_json
    from vigile.io.text import explain
    from vigile.rulesets.data import RuleData
    from vigile.rulesets.data import load as load_rules
    from vigile.rulesets.skirmish.alarm import alarm_check
    from vigile.rulesets.skirmish.ambush import AmbushSetting, ambush_check
    from vigile.rulesets.skirmish.common import Roller, TimeOfDay
    from vigile.rulesets.skirmish.movement import Speed, move_check
    from vigile.rulesets.skirmish.noise import NoiseEvent, Surface, noise_check
    from vigile.rulesets.skirmish.shadow import Mount, Setting, Task, shadow_check
    from vigile.rulesets.skirmish.sight import Attitude, sight_check

_LAZY: dict[str, tuple[str, str]] = {
    "AmbushSetting": ("vigile.rulesets.skirmish.ambush", "AmbushSetting"),
    "Attitude": ("vigile.rulesets.skirmish.sight", "Attitude"),
    "AwarenessState": ("vigile.awareness.ladder", "AwarenessState"),
    "GivenFaces": ("vigile.dice.source", "GivenFaces"),
    "HouseRuleError": ("vigile.errors", "HouseRuleError"),
    "InputError": ("vigile.errors", "InputError"),
    "Lang": ("vigile.io.i18n", "Lang"),
    "LimitError": ("vigile.errors", "LimitError"),
    "Line": ("vigile.checks.verdict", "Line"),
    "Modifier": ("vigile.checks.verdict", "Modifier"),
    "Mount": ("vigile.rulesets.skirmish.shadow", "Mount"),
    "NoiseEvent": ("vigile.rulesets.skirmish.noise", "NoiseEvent"),
    "RolledFaces": ("vigile.dice.source", "RolledFaces"),
    "Roller": ("vigile.rulesets.skirmish.common", "Roller"),
    "RuleData": ("vigile.rulesets.data", "RuleData"),
    "RuleError": ("vigile.errors", "RuleError"),
    "ScenarioError": ("vigile.errors", "ScenarioError"),
    "Setting": ("vigile.rulesets.skirmish.shadow", "Setting"),
    "Speed": ("vigile.rulesets.skirmish.movement", "Speed"),
    "Surface": ("vigile.rulesets.skirmish.noise", "Surface"),
    "Task": ("vigile.rulesets.skirmish.shadow", "Task"),
    "TimeOfDay": ("vigile.rulesets.skirmish.common", "TimeOfDay"),
    "Verdict": ("vigile.checks.verdict", "Verdict"),
    "VigileError": ("vigile.errors", "VigileError"),
    "alarm_check": ("vigile.rulesets.skirmish.alarm", "alarm_check"),
    "ambush_check": ("vigile.rulesets.skirmish.ambush", "ambush_check"),
    "explain": ("vigile.io.text", "explain"),
    "load_rules": ("vigile.rulesets.data", "load"),
    "move_check": ("vigile.rulesets.skirmish.movement", "move_check"),
    "noise_check": ("vigile.rulesets.skirmish.noise", "noise_check"),
    "shadow_check": ("vigile.rulesets.skirmish.shadow", "shadow_check"),
    "sight_check": ("vigile.rulesets.skirmish.sight", "sight_check"),
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


__all__ = [
    "AmbushSetting",
    "Attitude",
    "AwarenessState",
    "GivenFaces",
    "HouseRuleError",
    "InputError",
    "Lang",
    "LimitError",
    "Line",
    "Modifier",
    "Mount",
    "NoiseEvent",
    "RolledFaces",
    "Roller",
    "RuleData",
    "RuleError",
    "ScenarioError",
    "Setting",
    "Speed",
    "Surface",
    "Task",
    "TimeOfDay",
    "Verdict",
    "VigileError",
    "alarm_check",
    "ambush_check",
    "explain",
    "load_rules",
    "move_check",
    "noise_check",
    "shadow_check",
    "sight_check",
    "verdict_json",
]
__version__ = "0.1.0"
