"""The input limits are one table, the same in every game: the same refusal is the same error
with the same words, whichever game refuses it (vigile.rulesets.limits)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from vigile import NoiseEvent, Roller, noise_check
from vigile.errors import InputError, LimitError
from vigile.rulesets.data import shipped
from vigile.rulesets.dnd35 import SpotTarget, hide_check, spot_check
from vigile.rulesets.limits import LIMITS
from vigile.rulesets.starfinder import hide_check as sf_hide_check
from vigile.scene import actors

SK, SF, DND = shipped("skirmish"), shipped("starfinder"), shipped("dnd35")

BONUS: dict[str, Callable[[int], object]] = {
    "skirmish": lambda b: noise_check(SK, event=NoiseEvent.MELEE, roller=Roller(1, b)),
    "starfinder": lambda b: sf_hide_check(SF, stealth=b, observers=[0], cover=True),
    "dnd35": lambda b: hide_check(DND, hide_bonus=b, spot_bonuses=[0], cover=True),
}
DISTANCE: dict[str, Callable[[float], object]] = {
    "skirmish": lambda d: noise_check(SK, event=NoiseEvent.MELEE, distance_cm=d),
    "starfinder": lambda d: sf_hide_check(SF, stealth=0, observers=[0], cover=True, distance_ft=d),
    "dnd35": lambda d: spot_check(DND, spot_bonus=0, distance_ft=d, target=SpotTarget.MOVING),
}


@pytest.mark.parametrize("game", sorted(BONUS))
def test_the_bonus_limit_is_the_same_in_every_game(game: str) -> None:
    BONUS[game](LIMITS.max_bonus)
    BONUS[game](-LIMITS.max_bonus)
    for beyond in (LIMITS.max_bonus + 1, -LIMITS.max_bonus - 1):
        with pytest.raises(LimitError, match=rf"{beyond} is beyond the limit of ±100$"):
            BONUS[game](beyond)


@pytest.mark.parametrize("game", sorted(DISTANCE))
def test_the_distance_limit_is_the_same_in_every_game(game: str) -> None:
    unit = "cm" if game == "skirmish" else "ft"
    with pytest.raises(
        LimitError, match=rf"^--distance: 200000 {unit} is beyond the limit of 100000 {unit}$"
    ):
        DISTANCE[game](200_000.0)
    with pytest.raises(
        InputError, match=rf"--distance: -1.0 is not a distance \(0 or more {unit}\)"
    ):
        DISTANCE[game](-1.0)


def test_observers_beyond_the_limit_are_the_same_refusal() -> None:
    many = [0] * (LIMITS.max_observers + 1)
    with pytest.raises(LimitError, match=r"^--perception: 1001 observers; 0 to 1000$"):
        sf_hide_check(SF, stealth=0, observers=many, cover=True)
    with pytest.raises(LimitError, match=r"^--spot: 1001 observers; 0 to 1000$"):
        hide_check(DND, hide_bonus=0, spot_bonuses=many, cover=True)


def test_no_ruleset_keeps_limits_of_its_own() -> None:
    """One home: no data file has a [limits] table or a dice limit, and a scenario's fields
    take the same bounds."""
    for rules in (SK, SF, DND):
        assert "limits" not in rules.values
        assert not any(key.startswith("max_") for key in rules.values.get("dice", {}))
    assert LIMITS.max_bonus == actors.MAX_BONUS
    assert LIMITS.max_dice == actors.MAX_POOL
    assert LIMITS.max_distance == actors.MAX_COORD
