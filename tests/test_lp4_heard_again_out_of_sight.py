"""LP-4 [R, SK-N1, SK-N10]: seeing is not a standing state.

SK-N1: noise checks are rolled by each enemy who could hear an event *out of his sight*. A guard
who has seen an intruder watches him only while he has him in sight: once the intruder is
behind a wall, or in the dark beyond the band of his attitude (SK-V3), the guard checks his
noises again. "In sight now" is the sight rule where the intruder stands (SK-V1..SK-V9): it sees
him or allows a test (:func:`vigile.rulesets.skirmish.noise.checks_noise`).

The board (night, centimetres): Jubei, a posted guard with one die, stands at (40, 50); a wall
runs from (50, 0) to (50, 45). Kage (one die of ninjitsu; the ninjas scouted the place, SK-G3, so
they roll nothing to find Jubei) starts at (45, 50).

Turn 1, by hand: Kage walks at half speed (no fumble roll, SK-N3) to (47, 50), 7 cm from Jubei,
in motion, nothing between them: seen without a roll (SK-V2, 7 < 10). Beyond striking reach
(7 > 5 cm, SK-G5): Jubei cries; nobody else to hear it, and Jubei is on alert from then on
(SK-N6: -1 to his noise checks). No die is rolled in turn 1.

Every expected number below is worked out by hand from the rule text.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vigile.awareness.ladder import AwarenessState
from vigile.dice.source import GivenFaces
from vigile.engine.events import Event
from vigile.engine.result import GameResult
from vigile.engine.run import play
from vigile.rulesets.data import shipped
from vigile.rulesets.skirmish.noise import checks_noise
from vigile.rulesets.skirmish.sight import Attitude, sight_check
from vigile.scene.loader import load_scenario

BOARD = """ruleset: skirmish
name: heard again
units: cm
time: night
map: {width: 200, height: 100}
turns: 2
default_surface: grass
scouting: {observed_beforehand: true}
walls:
  - {kind: wall, start: [50, 0], end: [50, 45]}
actors:
  - {name: Kage, side: attackers, position: [45, 50], ninja: true, dice: {ninjitsu: 1}}
  - {name: Jubei, side: defenders, position: [40, 50], dice: 1}
plans:
  Kage:
    - {to: [47, 50], speed: half}
    - {to: TO, speed: fast}
"""


def _play(tmp_path: Path, to: tuple[float, float], dice: list[int], turns: int = 2) -> GameResult:
    """Play with the GM's dice, and check that every die was used."""
    path = tmp_path / "lp4.yaml"
    path.write_text(
        BOARD.replace("TO", f"[{to[0]}, {to[1]}]").replace("turns: 2", f"turns: {turns}")
    )
    faces = GivenFaces(dice)
    result = play(load_scenario(str(path)), faces=faces)
    faces.finish()
    return result


def _noise_checks(result: GameResult) -> list[Event]:
    return [e for e in result.events if e.message == "engine.event.noise"]


def _seen_in_turn_1(result: GameResult) -> None:
    seen = [e for e in result.events if e.kind == "perceive" and e.actor == "Jubei"]
    assert [(e.turn, e.target, e.params["state"]) for e in seen][:1] == [
        (1, "Kage", AwarenessState.OBSERVED.value)
    ]


def test_LP_4_SK_N1_SK_N5_a_guard_hears_again_an_intruder_gone_behind_a_wall(
    tmp_path: Path,
) -> None:
    """Turn 2: Kage runs (fast, a fumble roll, SK-N3) from (47, 50) to (55, 40), round the end of
    the wall (his path crosses x = 50 at y = 46.25, below the wall's end at 45). From Jubei at
    (40, 50) the line to (55, 40) crosses x = 50 at y = 50 - 10 * 10/15 = 43.33: the wall is
    between them, no line of sight (SK-V6): Kage is out of Jubei's sight. He rolls 1 on his one
    die: a fumble (SK-D4), a noise where he stands. Jubei checks it (LP-4): fumble 5 (SK-N2)
    + floor(hypot(15, 10) / 50) = floor(18.03 / 50) = 0 (SK-N4) + 1 for the wall (SK-N5) - 1 on
    alert since his cry (SK-N6) = 5+. He rolls 5: heard; he turns round, but the wall hides Kage
    (no sight test, SK-N10). Dice: 1 (fumble), 5 (noise). Before LP-4 he rolled no check and
    the 5 was left over."""
    result = _play(tmp_path, (55, 40), [1, 5])
    _seen_in_turn_1(result)
    (check,) = _noise_checks(result)
    verdict = check.verdict
    assert verdict is not None
    assert (check.turn, check.actor, check.target) == (2, "Jubei", "Kage")
    assert check.params["event"] == "fumble" and check.params["distance"] == 18.03
    assert verdict.difficulty == 5 and verdict.success is True
    assert not [e for e in result.events if e.message == "engine.event.sight" and e.turn == 2]


def test_LP_4_SK_V8_a_guard_hears_again_an_intruder_beyond_the_band_in_the_dark(
    tmp_path: Path,
) -> None:
    """Kage runs from (47, 50) straight east to (85, 50), fast (30 cm a turn, ``turn.fast_cm``).
    Turn 2: he reaches (77, 50), 37 cm from Jubei: moving fast, within the 40 cm band (SK-V3),
    still in sight; his fumble roll shows 6 (no fumble). Turn 3: he reaches (85, 50), 45 cm
    away, nothing between them, but beyond the band (strict, SK-V8): out of sight in the dark.
    He rolls 1, a fumble; Jubei checks the noise: 5 (SK-N2) + floor(45 / 50) = 0 (SK-N4) + 0
    walls - 1 on alert (SK-N6) = 4+. He rolls 3: nothing. Dice: 6, 1, 3."""
    result = _play(tmp_path, (85, 50), [6, 1, 3], turns=3)
    _seen_in_turn_1(result)
    (check,) = _noise_checks(result)
    assert check.verdict is not None and check.turn == 3 and check.params["distance"] == 45
    assert check.verdict.difficulty == 4 and check.verdict.success is False


def test_LP_4_SK_N1_a_guard_who_still_has_the_intruder_in_sight_rolls_no_noise_check(
    tmp_path: Path,
) -> None:
    """Turn 2: Kage runs from (47, 50) to (75, 50), 35 cm from Jubei, nothing between them:
    moving fast, within the 40 cm band (SK-V3), so still in Jubei's sight: his fumble (1) is no
    noise out of sight (SK-N1), no check. Dice: 1 only."""
    result = _play(tmp_path, (75, 50), [1])
    _seen_in_turn_1(result)
    assert _noise_checks(result) == []


def test_LP_4_checks_noise_reads_the_sight_rule() -> None:
    """The one home of the ruling: a listener who never saw the maker checks (the sight rule is
    not asked); one who saw it checks only where the sight rule allows nothing: at night, moving
    fast, 39.99 cm is within the 40 cm band (SK-V3), 40 cm is not (SK-V8); a wall between them
    (no line of sight, SK-V6) hides even a target 5 cm away in motion (SK-V2); by day a target
    not hidden by the scenery is in sight (SK-V8, SK-S1)."""
    from vigile.rulesets.skirmish.common import TimeOfDay

    rules = shipped("skirmish")

    def sight(distance: float, *, line: bool = True, day: bool = False) -> object:
        return lambda: sight_check(
            rules,
            attitude=Attitude.FAST,
            distance_cm=distance,
            line_of_sight=line,
            time=TimeOfDay.DAY if day else TimeOfDay.NIGHT,
        )

    def never_asked() -> object:
        raise AssertionError("the sight rule is asked only of a listener who saw the maker")

    assert checks_noise(observed=False, sight=never_asked)  # type: ignore[arg-type]
    assert not checks_noise(observed=True, sight=sight(39.99))  # type: ignore[arg-type]
    assert checks_noise(observed=True, sight=sight(40))  # type: ignore[arg-type]
    assert checks_noise(observed=True, sight=sight(5, line=False))  # type: ignore[arg-type]
    assert not checks_noise(observed=True, sight=sight(90, day=True))  # type: ignore[arg-type]


@pytest.mark.parametrize("to", [(55, 40), (85, 50), (75, 50)])
def test_LP_4_the_kernel_plays_the_engines_game(tmp_path: Path, to: tuple[float, float]) -> None:
    """The compiled kernel reads the same ruling from its sight table: run for run the same
    game as the engine on these boards (tests/test_kernel_equivalence.py's comparison)."""
    pytest.importorskip("numba")
    from test_kernel_equivalence import engine_runs, kernel_runs

    path = tmp_path / "lp4.yaml"
    path.write_text(BOARD.replace("TO", f"[{to[0]}, {to[1]}]").replace("turns: 2", "turns: 6"))
    scenario = load_scenario(str(path))
    uniforms = np.random.default_rng(4).random(200 * 400 + 1000)
    engine = engine_runs(scenario, uniforms, 200)
    assert engine == kernel_runs(scenario, uniforms, 200)
    # Jubei sees Kage in some runs: the ruling's precondition
    assert any(run[3] for run in engine)
