"""vigile: adjudicates stealth and detection in tabletop games, with exact odds and reasons.

The public API (tested in ``tests/test_public_api.py``)::

    from vigile import load_rules, noise_check, NoiseEvent, Roller
    verdict = noise_check(load_rules("skirmish"), event=NoiseEvent.FUMBLE, distance_cm=5)
    verdict.chance  # Fraction(1, 3)
"""

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
