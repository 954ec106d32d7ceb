"""``vigile check lantern glimpse``, declared once: its command, HTTP route and form."""

from __future__ import annotations

from toygame_lantern.check import glimpse_check
from toygame_lantern.fields import MAX_REACH
from vigile.checks.declare import Check, Checks, Input, Values

K = "lantern.checks"


def _arguments(values: Values) -> dict[str, object]:
    """The rule's arguments: ``--wall`` is a glimpse out of sight."""
    return {
        "distance": values.distance,
        "in_sight": not values.wall,
        "fast": values.fast,
        "reach": values.reach,
    }


CHECKS = Checks(
    "lantern",
    f"{K}.about",
    (
        Check(
            "lantern",
            "glimpse",
            f"{K}.glimpse",
            glimpse_check,
            (
                Input("distance", float, f"{K}.distance", 0.0, ge=0),
                Input("wall", bool, f"{K}.wall", False),
                Input("fast", bool, f"{K}.fast", False),
                Input("reach", int, f"{K}.reach", None, ge=0, le=MAX_REACH),
            ),
            args=_arguments,
        ),
    ),
)
