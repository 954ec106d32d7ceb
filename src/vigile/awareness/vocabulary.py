"""The words every game, the scene and the engine share: what a character does, the time of
day, what a body falls on, where a day encounter happens.

They started as the skirmish game's (SK-V3, SK-N2) and stay its words, but scenarios of every
game write them (a plan leg's ``speed``, a scenario's ``time``), so they live here, below the
rulesets, and the scene and the engine do not depend on one game to name them.
"""

from __future__ import annotations

from enum import StrEnum


class Attitude(StrEnum):
    """What the target is doing (SK-V3): the faster it moves, the farther it can be seen. In
    the d20 games ``fast`` is more than half speed."""

    HIDDEN = "hidden"
    IMMOBILE = "immobile"
    HALF = "half"
    FAST = "fast"

    @property
    def moving(self) -> bool:
        return self in (Attitude.HALF, Attitude.FAST)


class TimeOfDay(StrEnum):
    """Night (SK-V1: 10 cm of visibility) or day (SK-S1: everyone sees everyone)."""

    NIGHT = "night"
    DAY = "day"


class Surface(StrEnum):
    """Where a body or weapon falls (SK-N2)."""

    FLOOR = "floor"
    WATER = "water"
    GRASS = "grass"
    SOFT_GROUND = "soft-ground"


class Setting(StrEnum):
    """Where a shadowing happens (SK-S2, SK-S4)."""

    CROWD = "crowd"
    COUNTRYSIDE = "countryside"


class Mount(StrEnum):
    """How the one followed travels in the countryside (SK-S4)."""

    RIDER = "rider"
    PEDESTRIAN = "pedestrian"


class AmbushSetting(StrEnum):
    """Where an ambush is laid (SK-A3, SK-A4)."""

    COUNTRYSIDE = "countryside"
    TOWN = "town"
