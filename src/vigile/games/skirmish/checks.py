"""The skirmish game's checks, declared once (RULES.md §1): ``vigile check skirmish …``, the
HTTP check API and the calculator are built from :data:`CHECKS`.

Each check names its rule function in :mod:`vigile.rulesets.skirmish`; what is here only turns
the options into the function's arguments (two options into one ``Roller``).
"""

from __future__ import annotations

from typing import Any

from vigile.checks.declare import Check, Checks, Input, Values
from vigile.errors import InputError
from vigile.rulesets.limits import LIMITS
from vigile.rulesets.skirmish.alarm import alarm_check
from vigile.rulesets.skirmish.ambush import AmbushSetting, ambush_check
from vigile.rulesets.skirmish.common import Roller, TimeOfDay
from vigile.rulesets.skirmish.movement import Speed, move_check
from vigile.rulesets.skirmish.noise import NoiseEvent, Surface, noise_check
from vigile.rulesets.skirmish.shadow import Mount, Setting, Task, shadow_check
from vigile.rulesets.skirmish.sight import Attitude, sight_check

GAME = "skirmish"
K = "skirmish.checks"
"""The prefix of the checks' help messages (``locales/skirmish.checks.{lang}.toml``)."""

DICE = Input("dice", int, K + ".dice", 1, ge=1, le=LIMITS.max_dice)
BONUS = Input("bonus", int, K + ".bonus", 0, ge=-LIMITS.max_bonus, le=LIMITS.max_bonus)
DISTANCE = Input(
    "distance", float, K + ".distance", 0.0, ge=0, le=LIMITS.max_distance, metavar="CM"
)
TIME = Input("time", TimeOfDay, K + ".time", TimeOfDay.NIGHT)
ALERT = Input("alert", bool, K + ".alert", False)


def _roller(v: Values) -> Roller:
    return Roller(v.dice, v.bonus)


def _move(v: Values) -> dict[str, Any]:
    return {"speed": v.speed, "roller": Roller(v.dice)}


def _noise(v: Values) -> dict[str, Any]:
    return {
        "event": v.event,
        "surface": v.surface,
        "distance_cm": v.distance,
        "barriers": v.walls,
        "time": v.time,
        "alert": v.alert,
        "roller": _roller(v),
    }


def _sight(v: Values) -> dict[str, Any]:
    return {
        "attitude": v.attitude,
        "distance_cm": v.distance,
        "alert": v.alert,
        "unsuited_outfit": v.unsuited_outfit,
        "lit": v.lit,
        "time": v.time,
        "line_of_sight": not v.no_line_of_sight,
        "roller": _roller(v),
    }


def _shadow(v: Values) -> dict[str, Any]:
    names = ("task", "setting", "target_hiding", "target", "follower", "discreet", "alert")
    more = ("untrained", "follower_fumbled")
    return {**{name: getattr(v, name) for name in names + more}, "roller": _roller(v)}


def _ambush(v: Values) -> dict[str, Any]:
    if v.party and v.skill_levels is not None:
        raise InputError(
            "give --party (one per character) or --skill-levels, not both", where="--skill-levels"
        )
    return {
        "setting": v.setting,
        "ambushers": v.ambushers,
        "targets": v.targets,
        "all_ninjas": v.all_ninjas,
        "alert": v.alert,
        "party": list(v.party) if v.party else [v.skill_levels or 0],
        "cover": not v.no_cover,
    }


def _check(name: str, rule: Any, *inputs: Input, args: Any = None) -> Check:
    return Check(GAME, name, f"{K}.{name}.about", rule, inputs, args)


CHECKS = Checks(
    GAME,
    K + ".about",
    (
        _check("move", move_check, Input("speed", Speed, K + ".move.speed"), DICE, args=_move),
        _check(
            "noise",
            noise_check,
            Input("event", NoiseEvent, K + ".noise.event"),
            Input("surface", Surface, K + ".noise.surface", None),
            DISTANCE,
            Input("walls", int, K + ".noise.walls", 0, ge=0),
            TIME,
            ALERT,
            DICE,
            BONUS,
            args=_noise,
        ),
        _check(
            "sight",
            sight_check,
            Input("attitude", Attitude, K + ".sight.attitude"),
            Input("distance", float, K + ".distance", ge=0, le=LIMITS.max_distance, metavar="CM"),
            ALERT,
            Input("unsuited_outfit", bool, K + ".sight.unsuited_outfit", False),
            Input("lit", bool, K + ".sight.lit", False),
            Input("no_line_of_sight", bool, K + ".sight.no_line_of_sight", False),
            TIME,
            DICE,
            BONUS,
            args=_sight,
        ),
        _check(
            "shadow",
            shadow_check,
            Input("task", Task, K + ".shadow.task"),
            Input("setting", Setting, K + ".shadow.setting"),
            Input("target_hiding", bool, K + ".shadow.target_hiding", False),
            Input("target", Mount, K + ".shadow.target", None),
            Input("follower", Mount, K + ".shadow.follower", None),
            Input("discreet", bool, K + ".shadow.discreet", False),
            ALERT,
            Input("untrained", bool, K + ".shadow.untrained", False),
            Input("follower_fumbled", bool, K + ".shadow.follower_fumbled", False),
            DICE,
            BONUS,
            args=_shadow,
        ),
        _check(
            "ambush",
            ambush_check,
            Input("setting", AmbushSetting, K + ".ambush.setting"),
            Input("ambushers", int, K + ".ambush.ambushers"),
            Input("targets", int, K + ".ambush.targets"),
            Input("all_ninjas", bool, K + ".ambush.all_ninjas", False),
            ALERT,
            Input("skill_levels", int, K + ".ambush.skill_levels", None),
            Input(
                "party",
                int,
                K + ".ambush.party",
                None,
                many="repeat",
                max_items=LIMITS.max_observers,
                metavar="LEVELS",
            ),
            Input("no_cover", bool, K + ".ambush.no_cover", False),
            args=_ambush,
        ),
        _check("alarm", alarm_check),
    ),
)
"""Every check of the skirmish game, in the order ``vigile check skirmish --help`` lists them."""
