"""DD-11 [R]: footprints in soft ground are a chance, not a certainty.

The seed: "un sol meuble (sable, boue, etc.) risque de les trahir". The ruling (rules.toml
[tracks]): an awake sighted observer in a line of sight, that does not see invisible creatures,
within ``tracks.range_ft`` (30 ft) of an invisible creature that moved on soft ground this round,
and that no certain sign shows its square, rolls d20 + Spot against ``tracks.spot_dc`` (10),
with Spot's own -1 per whole 10 ft (``spot.distance``, ``spot.distance_step_ft``) and -5 when
distracted (``spot.distracted``), each under its [companion] switch. Success: its square
(location, DD-11); failure: nothing this round. Beyond 30 ft: no check, chance 0, DC still 10.
A skill check has no automatic success or failure: the chance is the faces f of 1..20 with
f + bonus >= 10, over 20. Every figure below is worked out by hand from those numbers.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from vigile.awareness.ladder import AwarenessState
from vigile.cli.dnd35 import app
from vigile.dice.source import GivenFaces
from vigile.engine.result import GameResult
from vigile.engine.run import play
from vigile.errors import LimitError
from vigile.io.i18n import Lang
from vigile.io.views import character_lines, gm_lines
from vigile.rulesets.data import RuleData, load
from vigile.rulesets.dnd35 import footprints_check, reached, traits
from vigile.rulesets.dnd35.rulings import signs_check
from vigile.scene.loader import load_scenario, parse_scenario

RULES = load("dnd35")
runner = CliRunner()


def house(tmp_path: Path, text: str) -> RuleData:
    path = tmp_path / "house.toml"
    path.write_text(text, encoding="utf-8")
    return load("dnd35", path)


# --- the rule function ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spot", "distance", "distracted", "bonus", "chance"),
    [
        # +3, 15 ft: one whole 10-ft step, -1: +2; needs 10 - 2 = 8+: faces 8..20, 13 of 20
        (3, 15.0, False, 2, Fraction(13, 20)),
        # +3, 25 ft: two whole steps, -2: +1; needs 9+: faces 9..20, 12 of 20
        (3, 25.0, False, 1, Fraction(12, 20)),
        # +3, 30 ft (the range's edge): three steps, -3: +0; needs 10+: 11 of 20
        (3, 30.0, False, 0, Fraction(11, 20)),
        # +0, 30 ft: -3; needs 13+: faces 13..20, 8 of 20
        (0, 30.0, False, -3, Fraction(8, 20)),
        # +3, 5 ft, distracted: no whole step, -5: -2; needs 12+: 9 of 20
        (3, 5.0, True, -2, Fraction(9, 20)),
        # +3, 0 ft: +3; needs 7+: 14 of 20
        (3, 0.0, False, 3, Fraction(14, 20)),
        # +3, 19 ft, distracted: one step (19 // 10), -1 - 5: -3; needs 13+: 8 of 20
        (3, 19.0, True, -3, Fraction(8, 20)),
        # +12, 5 ft: +12; needs -2+: every face, certain once in range
        (12, 5.0, False, 12, Fraction(1)),
        # -15, 25 ft: -17; needs 27+: no face, though in range
        (-15, 25.0, False, -17, Fraction(0)),
    ],
)
def test_DD11_footprints_chance_worked_by_hand(
    spot: int, distance: float, distracted: bool, bonus: int, chance: Fraction
) -> None:
    verdict = footprints_check(RULES, spot_bonus=spot, distance_ft=distance, distracted=distracted)
    assert verdict.difficulty == 10
    assert verdict.die_bonus == bonus
    assert verdict.chance == chance
    assert verdict.state is AwarenessState.LOCATION
    assert verdict.dice_kind == "d20" and verdict.roll is None and verdict.success is None
    assert verdict.modifiers[0].source == "tracks.spot_dc"
    assert {m.rule for m in verdict.modifiers} <= {"DD-11", "DD-3"}
    assert any(n.rule == "DD-11" for n in verdict.notes)


def test_DD11_the_distance_and_distraction_are_spots_own_modifiers() -> None:
    """The same data keys and companion switches as Spot: -1 per 10 ft (companion
    spot_distance) and -5 distracted (companion spot_distracted), marked companion rules."""
    verdict = footprints_check(RULES, spot_bonus=3, distance_ft=25, distracted=True)
    assert [(m.value, m.source, m.rule, m.companion) for m in verdict.modifiers] == [
        (10, "tracks.spot_dc", "DD-11", False),
        (3, None, "DD-11", False),
        (-2, "spot.distance", "DD-3", True),
        (-5, "spot.distracted", "DD-3", True),
    ]
    # +3 - 2 - 5 = -4; needs 14+: faces 14..20, 7 of 20
    assert verdict.chance == Fraction(7, 20)


def test_DD11_beyond_30_ft_no_check_the_dc_still_reported() -> None:
    """31 ft: beyond tracks.range_ft (30): no Spot check, chance 0; the DC 10 alone is reported,
    nothing is added to a roll that is not made, and no die is drawn."""
    faces = GivenFaces([20])
    verdict = footprints_check(RULES, spot_bonus=20, distance_ft=31, source=faces)
    assert verdict.impossible and verdict.chance == 0
    assert verdict.difficulty == 10 and verdict.die_bonus == 0
    assert [m.source for m in verdict.modifiers] == ["tracks.spot_dc"]
    assert verdict.success is False and verdict.roll is None
    assert verdict.notes[-1].reason == "dnd35.footprints.out_of_range"
    assert verdict.notes[-1].params == {"distance": 31, "range": 30}
    assert faces.given and faces.used == 0


def test_DD11_house_rules_move_the_dc_the_range_and_spots_switches(tmp_path: Path) -> None:
    """tracks.spot_dc 15: +3 at 15 ft is +2, needs 13+: 8 of 20. Spot's companion rules
    switched off: +3 at 25 ft distracted stays +3, needs 7+: 14 of 20. tracks.range_ft 0:
    footprints off, no check even at 0 ft."""
    harder = house(tmp_path, "[tracks]\nspot_dc = 15\n")
    verdict = footprints_check(harder, spot_bonus=3, distance_ft=15)
    assert verdict.difficulty == 15 and verdict.chance == Fraction(8, 20)
    assert verdict.modifiers[0].overridden
    plain = house(tmp_path, "[companion]\nspot_distance = false\nspot_distracted = false\n")
    assert footprints_check(plain, spot_bonus=3, distance_ft=25, distracted=True).chance == (
        Fraction(14, 20)
    )
    off = house(tmp_path, "[tracks]\nrange_ft = 0\n")
    verdict = footprints_check(off, spot_bonus=20, distance_ft=0)
    assert verdict.impossible and verdict.notes[-1].reason == "dnd35.footprints.off"
    assert not traits.footprints_in_range(off, distance_ft=0)


@pytest.mark.parametrize("distracted", [False, True])
@pytest.mark.parametrize("distance", [0.0, 9.9, 10.0, 19.0, 20.0, 29.5, 30.0])
@pytest.mark.parametrize("spot", [-8, -3, 0, 2, 5, 9, 14])
def test_DD11_chance_is_the_count_of_the_twenty_faces(
    spot: int, distance: float, distracted: bool
) -> None:
    """Brute force: each face rolled through the rule, and counted again from the ruling's
    arithmetic (f + spot - whole 10-ft steps - 5 if distracted >= 10)."""
    verdict = footprints_check(RULES, spot_bonus=spot, distance_ft=distance, distracted=distracted)
    by_hand = 0
    rolled = 0
    for face in range(1, 21):
        total = face + spot - int(distance // 10) - 5 * distracted
        by_hand += total >= 10
        one = footprints_check(
            RULES,
            spot_bonus=spot,
            distance_ft=distance,
            distracted=distracted,
            source=GivenFaces([face]),
        )
        assert one.figures.result == total
        assert one.success is (total >= 10)
        assert one.roll is not None and one.roll.dice[0].sides == 20
        rolled += bool(one.success)
        found = reached(one)
        assert found == ((AwarenessState.LOCATION, "DD-11") if one.success else None)
    assert verdict.chance == Fraction(by_hand, 20) == Fraction(rolled, 20)


def test_DD11_sign_shown_no_longer_gives_footprints() -> None:
    """The certain signs stay (flour DD-10, light DD-16, liquid DD-12); footprints are asked
    apart: footprints_left on soft ground where it moved, footprints_in_range within 30 ft."""
    assert traits.sign_shown(RULES, distance_ft=5, night=True, moved=True) is None
    assert traits.footprints_left(soft_ground=True, moved=True)
    assert not traits.footprints_left(soft_ground=True, moved=False)
    assert not traits.footprints_left(soft_ground=False, moved=True)
    assert traits.footprints_in_range(RULES, distance_ft=30)
    assert not traits.footprints_in_range(RULES, distance_ft=30.5)


def test_DD11_signs_check_reads_the_footprints_after_the_certain_signs() -> None:
    """A carried light at night shows the square for certain (DD-16): no footprints check, no
    die; without it, the footprints' chance (+3 at 15 ft: 13/20)."""
    lit = signs_check(RULES, distance_ft=15, light_ft=20, moved=True, soft_ground=True)
    assert lit.chance == 1 and lit.dice_kind == "none"
    dark = signs_check(RULES, distance_ft=15, moved=True, soft_ground=True, spot_bonus=3)
    assert dark.chance == Fraction(13, 20) and dark.check == "signs"
    assert dark.difficulty == 10 and dark.die_bonus == 2
    with pytest.raises(LimitError):
        signs_check(RULES, distance_ft=15, spot_bonus=1000)


# --- vigile check dnd35 signs -------------------------------------------------------------------


def check(*args: str) -> dict[str, Any]:
    """The JSON verdict of ``vigile check dnd35 signs ARGS``; the text in both languages and
    the player view render too."""
    for lang in Lang:
        for view in ("gm", "player"):
            text = runner.invoke(app, ["signs", *args, "--lang", lang.value, "--view", view])
            assert text.exit_code == 0, text.output
    result = runner.invoke(app, ["signs", *args, "--json"])
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


SOFT = ("--soft-ground", "--moved")


def test_DD11_signs_cli_gives_the_footprints_chance() -> None:
    """--spot 3 at 15 ft: 13/20 (needs 8+), not rolled; --spot defaults to 0: at 30 ft, -3,
    needs 13+: 8/20; distracted at 25 ft with +3: -4, needs 14+: 7/20."""
    data = check("--distance", "15", *SOFT, "--spot", "3")
    assert Fraction(data["chance"]) == Fraction(13, 20)
    assert data["difficulty"] == 10 and data["die_bonus"] == 2
    assert data["success"] is None and data["state"] == "location"
    assert {"DD-11", "DD-3"} <= {m["rule"] for m in data["modifiers"]}
    assert Fraction(check("--distance", "30", *SOFT)["chance"]) == Fraction(8, 20)
    distracted = check("--distance", "25", *SOFT, "--spot", "3", "--distracted")
    assert Fraction(distracted["chance"]) == Fraction(7, 20)


def test_DD11_signs_cli_rolls_the_gms_die_and_a_seed() -> None:
    """+3 at 15 ft needs 8+: the GM's 7 misses (7 + 2 = 9 < 10), 8 sees them (10 >= 10)."""
    missed = check("--distance", "15", *SOFT, "--spot", "3", "--dice-values", "7")
    assert missed["success"] is False and missed["result"] == 9
    seen = check("--distance", "15", *SOFT, "--spot", "3", "--dice-values", "8")
    assert seen["success"] is True and seen["result"] == 10
    seeded = check("--distance", "15", *SOFT, "--spot", "3", "--seed", "5")
    face = seeded["roll"]["dice"][0]["faces"][0]
    assert seeded["result"] == face + 2 and seeded["success"] is (face + 2 >= 10)
    assert seeded == check("--distance", "15", *SOFT, "--spot", "3", "--seed", "5")


def test_DD11_signs_cli_beyond_range_and_certain_signs() -> None:
    """31 ft: no check, chance 0, DC 10 reported; a lit light at night: certain (DD-16)."""
    far = check("--distance", "31", *SOFT, "--spot", "3")
    assert far["success"] is False and Fraction(far["chance"]) == 0
    assert far["difficulty"] == 10
    lit = check("--distance", "15", *SOFT, "--light", "20")
    assert lit["success"] is True and Fraction(lit["chance"]) == 1


# --- the turn engine ------------------------------------------------------------------------------

SCENE = """\
ruleset: dnd35
name: footprints
time: night
map: {width: 60, height: 20}
turns: 2
surfaces:
  - {kind: soft-ground, name: mud, points: [[0, 0], [60, 0], [60, 20], [0, 20]]}
actors:
  - name: Wisp
    side: attackers
    position: [0, 10]
    move: 30
    invisible: true
    bonuses: {dex: 0}
  - name: Baker
    side: defenders
    position: [40, 10]
    senses: [sight, hearing]
    bonuses: {spot: 0, listen: 0}
plans:
  Wisp:
    - {to: [30, 10], speed: half}
"""


def game(tmp_path: Path, dice: list[int]) -> GameResult:
    path = tmp_path / "footprints.yaml"
    path.write_text(SCENE, encoding="utf-8")
    result = play(load_scenario(path), dice_values=dice)
    for lang in Lang:
        list(gm_lines(result, lang))
        for name in ("Wisp", "Baker"):
            list(character_lines(result, name, lang))
    return result


def test_DD11_a_baker_misses_her_footprints_then_sees_them(tmp_path: Path) -> None:
    """Wisp, invisible, walks the mud at half speed (15 ft a round) toward (30, 10); the baker
    (Spot +0, Listen +0) stands at (40, 10).

    Round 1: she is at (15, 10), 25 ft away. Footprints: +0 - 2 (two whole 10-ft steps) = -2
    against DC 10: d20 11 gives 9, missed (she needed 12+). Spot: DC 20 (moving), -2: d20 1,
    nothing (DD-3). Listen: her Move Silently d20 20 + Dex 0, +0 at half speed, +2 for 25 ft:
    DC 22; his Listen d20 1 + 0: not heard (DD-5). He knows nothing and stays.
    Round 2: she reaches (30, 10), 10 ft away. Footprints: +0 - 1 = -1: d20 11 gives 10 >= 10,
    seen: her square (DD-11). Located, he makes no Spot and she is not listened for. He closes
    in and strikes: no AC, the blow's miss chance d100 10 <= 50 stops it (DD-8).
    """
    result = game(tmp_path, [11, 1, 20, 1, 11, 10])
    checks = [e for e in result.events if e.message.startswith("dnd35.round.footprints")]
    assert [(e.turn, e.message, e.actor, e.target) for e in checks] == [
        (1, "dnd35.round.footprints", "Baker", "Wisp"),
        (2, "dnd35.round.footprints_seen", "Baker", "Wisp"),
    ]
    first, second = (e.verdict for e in checks)
    assert first is not None and second is not None
    assert (first.difficulty, first.die_bonus, first.figures.result, first.success) == (
        10,
        -2,
        9,
        False,
    )
    assert first.chance == Fraction(9, 20)  # needs 12+: faces 12..20
    assert (second.die_bonus, second.figures.result, second.success) == (-1, 10, True)
    assert second.chance == Fraction(10, 20)  # needs 11+: faces 11..20
    assert checks[1].params["distance"] == 10 and "distance" not in checks[0].params
    learned = [
        (e.turn, e.params["state"], e.params["rule"])
        for e in result.events
        if e.message == "engine.d20.learns"
    ]
    assert learned == [(2, "location", "DD-11")]


def test_DD11_the_same_seed_plays_the_same_footprints(tmp_path: Path) -> None:
    """The footprints' d20 comes from the game's faces: the same seed, the same game."""
    path = tmp_path / "footprints.yaml"
    path.write_text(SCENE, encoding="utf-8")
    scenario = load_scenario(path)

    def rolls(seed: int) -> list[tuple[int, int | None]]:
        return [
            (e.turn, e.verdict.figures.result)
            for e in play(scenario, seed=seed).events
            if e.message.startswith("dnd35.round.footprints") and e.verdict is not None
        ]

    assert rolls(7) == rolls(7) and rolls(7)


def test_DD11_the_kernel_table_is_the_rule_face_by_face() -> None:
    """The compiled kernel's table of what each face gives the baker (Spot +0) by whole 10-ft
    step (0..3: up to 30 ft) and distraction: location (rank 3) on face + 0 - steps - 5 x
    distracted >= 10, nothing else."""
    pytest.importorskip("numba")
    from vigile.games.dnd35.kernel.tables import build

    model = build(parse_scenario(SCENE))
    table = model.arrays["footprints"]
    assert table.shape == (1, 4, 2, 20)
    location = list(AwarenessState).index(AwarenessState.LOCATION)
    for steps in range(4):
        for dis in range(2):
            for face in range(1, 21):
                hit = face - steps - 5 * dis >= 10
                assert table[0, steps, dis, face - 1] == (location if hit else 0)
