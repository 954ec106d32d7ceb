"""D&D 3.5 distances are counted in feet, not in squares (DD-3, DD-5, DD-20 [R]).

The seed gives its distances in metres for feet ("moins de 9 mètres": 30 ft) and its squares
("cases de 1,50 mètre") only for groping and attacks (DD-6, DD-9). [R] Every distance a
modifier or a range reads (Spot −1 per 10 ft, Listen +1 per 10 ft, Hide's Spot −1 per 10 ft,
Spot's 30 ft range) is the straight-line distance in feet between the two creatures'
positions, counted in whole steps down (``floor(d / 10)``), never a count of squares × 5 nor
the 5-10-5 diagonal count. The turn engine, its compiled kernel, the risk map and ``vigile
check dnd35`` (``--distance`` in feet) all count so (``distance_steps``, ``hypot_steps``).

Figures worked out by hand.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from vigile.engine.run import play
from vigile.rulesets import dnd35
from vigile.rulesets.data import shipped
from vigile.scene.loader import load_scenario

DND = shipped("dnd35")

SCENE = """\
ruleset: dnd35
name: feet
time: day
map: {width: 40, height: 20}
turns: 1
actors:
  - name: Wisp
    side: attackers
    position: [21, 2]
    invisible: true
    bonuses: {dex: 0}
  - name: Baker
    side: defenders
    position: [2, 2]
    bonuses: {spot: 11, listen: 0}
"""


def test_DD3_spot_counts_19_ft_not_4_squares(tmp_path: Path) -> None:
    """The baker at (2, 2) (square (0, 0)), Wisp invisible and still at (21, 2) (square
    (4, 0)): 19 ft apart, though 4 squares (20 ft) apart. Spot: DC 30 (still, DD-3), bonus 11
    − 1 (floor(19 / 10) = 1 step, DD-3 [C]) = 10; counted in squares it would be −2. He needs
    a 20: chance 1/20; his d20 20 gives 30 ≥ 30: he notices her (by squares, 29: not)."""
    path = tmp_path / "feet.yaml"
    path.write_text(SCENE, encoding="utf-8")
    result = play(load_scenario(path), dice_values=[20])
    spot = next(e for e in result.events if e.message == "dnd35.round.spot")
    verdict = spot.verdict
    assert verdict is not None
    assert verdict.difficulty == 30 and verdict.die_bonus == 10
    assert [(m.reason, m.value) for m in verdict.modifiers if m.reason.endswith("distance")] == [
        ("dnd35.spot.distance", -1)
    ]
    assert verdict.chance == Fraction(1, 20) and verdict.success is True


def test_DD5_listen_counts_whole_10_ft_steps_of_the_exact_distance() -> None:
    """Listen at 19 ft: +1 to the DC (floor(19 / 10) = 1, DD-5 [C]), not +2 (4 squares); at
    28.3 ft (20 ft across and 20 ft down: 4 diagonal squares, 30 ft by 5-10-5) +2, not +3."""

    def distance_part(feet: float) -> int:
        verdict = dnd35.listen_check(
            DND, listen_bonus=0, move_silently=5, speed=dnd35.ListenSpeed.HALF, distance_ft=feet
        )
        return sum(m.value for m in verdict.modifiers if m.reason == "dnd35.listen.distance")

    assert distance_part(19) == 1
    assert distance_part((20**2 + 20**2) ** 0.5) == 2
    assert distance_part(9.99) == 0


def test_DD3_standing_still_is_DC_30_and_only_the_wholly_immobile_DC_40(tmp_path: Path) -> None:
    """DD-3: "ne bouge pas (ou presque pas)" DC 30; "totalement immobile" or not breathing DC
    40. [R] Wisp waits the whole round (no plan): still, DC 30 (above). A construct waiting:
    DC 40 with the same bonus 11 − 1 = 10: even a 20 gives 30 < 40, chance 0. The check
    alone: ``immobile`` is DC 40 at 19 ft, 11 − 1 = 10, a 20 needed... and short: chance 0."""
    path = tmp_path / "feet.yaml"
    path.write_text(SCENE.replace("invisible: true", "invisible: true\n    breathing: false"))
    result = play(load_scenario(path), dice_values=[20])
    spot = next(e for e in result.events if e.message == "dnd35.round.spot")
    assert spot.verdict is not None and spot.verdict.difficulty == 40
    assert spot.verdict.chance == 0 and spot.verdict.success is False
    alone = dnd35.spot_check(DND, spot_bonus=11, distance_ft=19, target=dnd35.SpotTarget.IMMOBILE)
    assert alone.difficulty == 40 and alone.die_bonus == 10 and alone.chance == 0
    still = dnd35.spot_check(DND, spot_bonus=11, distance_ft=19, target=dnd35.SpotTarget.STILL)
    assert still.difficulty == 30 and still.chance == Fraction(1, 20)
