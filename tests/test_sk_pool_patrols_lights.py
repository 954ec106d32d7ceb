"""Rules the turn engine played without citing them (issue 10): the d6 pool (SK-D1), the target
number and its chain of sixes (SK-D3), patrols by scatter die (SK-G1), the scenario's lights
(SK-G2), and a hidden defender discovered in a bundled game (SK-G4).

Every expected number is worked out by hand from the rule text (RULES.md §1), in the
docstrings, never copied from the engine's output.
"""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path

from vigile.awareness.ladder import AwarenessState
from vigile.checks.verdict import Verdict
from vigile.dice.source import GivenFaces
from vigile.engine.events import Event
from vigile.engine.result import GameResult
from vigile.engine.run import play
from vigile.games.coverage import event_rules, verdict_rules
from vigile.rulesets.data import shipped
from vigile.rulesets.skirmish.common import Roller
from vigile.rulesets.skirmish.noise import NoiseEvent, noise_check
from vigile.rulesets.skirmish.shadow import Setting, Task, shadow_check
from vigile.scene.loader import load_scenario

F = Fraction
RULES = shipped("skirmish")


def _reasons(verdict: Verdict | None, rule: str) -> list[str]:
    assert verdict is not None
    return [n.reason for n in verdict.notes if n.rule == rule]


def _play(tmp_path: Path, text: str, dice: list[int] | None = None, seed: int = 0) -> GameResult:
    path = tmp_path / "scenario.yaml"
    path.write_text(text)
    if dice is None:
        return play(load_scenario(str(path)), seed=seed)
    faces = GivenFaces(dice)
    result = play(load_scenario(str(path)), faces=faces)
    faces.finish()
    return result


# ---------------------------------------------------------------- SK-D1, SK-D3: the pool


def test_SK_D1_a_pool_of_two_succeeds_on_any_die() -> None:
    """A stealthy mover's fumble heard at 0 cm: 5+ (SK-N2). Two dice: each 2/6, both miss
    (4/6)² = 4/9, so 5/9 (SK-D1). Rolled 2 then 5: one die reaches 5, heard."""
    verdict = noise_check(RULES, event=NoiseEvent.FUMBLE, roller=Roller(2))
    assert verdict.chance == F(5, 9)
    assert _reasons(verdict, "SK-D1") == ["skirmish.pool.any_die"]
    rolled = noise_check(
        RULES, event=NoiseEvent.FUMBLE, roller=Roller(2), source=GivenFaces([2, 5])
    )
    assert rolled.success is True


def test_SK_D1_one_trained_die_needs_no_line() -> None:
    """One die, trained (or unknown): the difficulty line says it all, no SK-D1 line."""
    assert not _reasons(noise_check(RULES, event=NoiseEvent.FUMBLE), "SK-D1")


def test_SK_D1_the_untrained_die_is_said() -> None:
    """A roller that knows its character has no perception dice: one die, untrained
    (SK-D1): 5+ is 2/6 = 1/3."""
    verdict = noise_check(RULES, event=NoiseEvent.FUMBLE, roller=Roller(1, untrained="perception"))
    assert verdict.chance == F(1, 3)
    assert _reasons(verdict, "SK-D1") == ["skirmish.pool.untrained_perception"]


def test_SK_D3_seven_plus_is_a_six_then_a_six() -> None:
    """Noticing a follower in a crowd 6+ (SK-S2), untrained +1 (SK-S3): 7+. t = 7 − 0 = 7: a
    die succeeds only on a 6 rolled again against 6+, (1/6)^(7 − 5) = 1/36 (SK-D3)."""
    verdict = shadow_check(
        RULES, task=Task.NOTICE, setting=Setting.CROWD, untrained=True, roller=Roller(1)
    )
    assert verdict.difficulty == 7 and verdict.chance == F(1, 36)
    (line,) = [n for n in verdict.notes if n.rule == "SK-D3"]
    assert line.reason == "skirmish.pool.chain"
    assert dict(line.params) == {"target": 7, "next": 6, "per_die": "1/36"}


def test_SK_D3_a_bonus_to_the_die_lowers_t_to_automatic() -> None:
    """A fumble 5+ with +4 to the die (SK-D2): t = 5 − 4 = 1 ≤ 1, success without a roll
    (SK-D3): chance 1, nothing rolled even with dice given."""
    verdict = noise_check(
        RULES, event=NoiseEvent.FUMBLE, roller=Roller(1, bonus=4), source=GivenFaces([])
    )
    assert verdict.chance == 1 and verdict.roll is None and verdict.success is True
    assert _reasons(verdict, "SK-D3") == ["skirmish.pool.automatic"]


def test_SK_D1_SK_D3_the_engine_cites_the_pool_in_the_bundled_street() -> None:
    """sk-s5-street (the GM's dice 2, 6, 3): Sanjiro (2D ninjitsu) follows at 4+, two dice,
    1 − (1/2)² = 3/4 (SK-D1); Tomoe, untrained (no dice in ninjitsu, espionage or shadowing),
    rolls one die (SK-D1) against 6 + 1 = 7: a 6 then a 6, 1/36 (SK-D3)."""
    result = play(load_scenario("sk-s5-street"))
    follow, notice = [e.verdict for e in result.events if e.verdict and e.verdict.check == "shadow"]
    assert follow and follow.chance == F(3, 4)
    assert _reasons(follow, "SK-D1") == ["skirmish.pool.any_die"]
    assert notice and notice.dice == 1 and notice.chance == F(1, 36)
    assert _reasons(notice, "SK-D1") == ["skirmish.pool.untrained_shadowing"]
    assert _reasons(notice, "SK-D3") == ["skirmish.pool.chain"]


# ---------------------------------------------------------------- SK-G1: patrols

PATROL = """ruleset: skirmish
name: patrol
units: cm
time: night
map: {width: 300, height: 200}
turns: 3
actors:
  - {name: Kage, side: attackers, position: [10, 10], ninja: true, dice: {perception: 1}}
  - {name: Masa, side: defenders, position: [150, 100], state: patrolling, dice: 1}
  - {name: Goro, side: defenders, position: [250, 150], dice: 1}
scouting: {observed_beforehand: true}
"""


def _patrols(result: GameResult) -> list[Event]:
    return [e for e in result.events if e.message == "engine.event.patrol"]


def test_SK_G1_a_patrol_moves_10_cm_by_scatter_die_and_cites_it(tmp_path: Path) -> None:
    """Masa patrols in the open, 100 cm from any edge, no wall: three turns of exactly 10 cm
    each (SK-G1), in the direction the event gives (its scatter die, in whole degrees: the
    step's direction matches within half a degree). Goro is posted: he never moves. Each
    patrol event cites SK-G1. Kage, 150 cm away and scouted, rolls nothing."""
    for seed in range(5):
        result = _play(tmp_path, PATROL, seed=seed)
        events = _patrols(result)
        assert [e.actor for e in events] == ["Masa"] * 3
        at = (150.0, 100.0)
        for event in events:
            assert event_rules(event) == {"SK-G1"}
            x, y = float(event.params["x"]), float(event.params["y"])
            assert math.isclose(math.hypot(x - at[0], y - at[1]), 10, abs_tol=0.01)
            heading = math.degrees(math.atan2(y - at[1], x - at[0])) % 360
            gap = abs((heading - float(event.params["degrees"]) + 180) % 360 - 180)
            assert gap <= 0.6
            at = (x, y)
        goro = next(w for w in result.walkers if w.name == "Goro")
        assert goro.at == (250, 150)


def test_SK_G1_a_group_moves_as_one(tmp_path: Path) -> None:
    """Kuro and Shiro walk together (SK-G1 [R]: a group moves as one): one scatter die for
    both, the same displacement, 3 cm apart before and after."""
    text = PATROL.replace(
        "  - {name: Goro, side: defenders, position: [250, 150], dice: 1}\n",
        "  - {name: Kuro, side: defenders, position: [100, 60], state: patrolling, group: w,"
        " dice: 1}\n"
        "  - {name: Shiro, side: defenders, position: [103, 60], state: patrolling, group: w,"
        " dice: 1}\n",
    )
    result = _play(tmp_path, text, seed=3)
    turn1 = [e for e in _patrols(result) if e.turn == 1 and e.actor in ("Kuro", "Shiro")]
    assert len(turn1) == 2 and turn1[0].params["degrees"] == turn1[1].params["degrees"]
    kuro, shiro = (next(w for w in result.walkers if w.name == n) for n in ("Kuro", "Shiro"))
    assert math.isclose(shiro.x - kuro.x, 3, abs_tol=1e-9) and math.isclose(shiro.y, kuro.y)


# ---------------------------------------------------------------- SK-G2: the scenario's lights

LIGHTS = """ruleset: skirmish
name: lights
units: cm
time: night
map: {width: 300, height: 200}
turns: 1
walls:
  - {kind: wall, start: [200, 0], end: [200, 200]}
lights:
  - {kind: lantern, at: [112, 30]}
  - {kind: brazier, at: [215, 100]}
actors:
  - {name: Kage, side: attackers, position: [50, 30], ninja: true, dice: {perception: 1}}
  - {name: Goro, side: defenders, position: [110, 30], dice: 1}
  - {name: Jubei, side: defenders, position: [190, 100], dice: 1}
"""


def test_SK_G2_a_guard_by_the_scenarios_lantern_is_seen_for_the_lantern(tmp_path: Path) -> None:
    """Goro stands 2 cm from the scenario's lantern (SK-G2), 60 cm from Kage, nothing between:
    lit, seen distinctly without a roll (SK-V5), and the verdict says a lantern lit him.
    Jubei stands 25 cm from the brazier, beyond its 20 cm, and a wall between them (SK-V5:
    the light must reach): dark, 140 cm from Kage, immobile (10 cm band, SK-V3): no test. Kage,
    immobile 60 cm from Goro, is not tested either. No die."""
    result = _play(tmp_path, LIGHTS, [])
    (sight,) = [e for e in result.events if e.kind == "sight"]
    assert (sight.actor, sight.target) == ("Kage", "Goro")
    verdict = sight.verdict
    assert verdict is not None and verdict.success is True and verdict.roll is None
    assert _reasons(verdict, "SK-G2") == ["skirmish.sight.scenario_light.lantern"]
    assert {"SK-G2", "SK-V5"} <= verdict_rules(verdict)


def test_SK_G2_a_brazier_lights_both_sides_of_the_wall_it_stands_by(tmp_path: Path) -> None:
    """Kage at (220, 95) and Jubei at (205, 100), both east of the wall at x = 200, by the
    brazier at (215, 100): Kage sqrt(5² + 5²) = 7.1 cm from it, Jubei 10 cm: both lit (20 cm
    or closer, SK-V5), 15.8 cm apart, immobile. The guards look first: Jubei sees Kage without a
    roll, for the brazier (SK-G2); Goro, west of the wall, has no line of sight (SK-V6). Then
    Kage finds Jubei, lit by the brazier too. Jubei detected Kage 15.8 cm away, beyond striking
    reach (5 cm): he cries (SK-G5); Goro, not on alert, hears it unless his die shows 1 (SK-N7):
    he rolls 4, heard. One die in all."""
    moved = LIGHTS.replace("position: [190, 100]", "position: [205, 100]").replace(
        "position: [50, 30]", "position: [220, 95]"
    )
    result = _play(tmp_path, moved, [4])
    sights = {(e.actor, e.target): e.verdict for e in result.events if e.kind == "sight"}
    assert set(sights) == {("Jubei", "Kage"), ("Kage", "Jubei")}
    for verdict in sights.values():
        assert verdict is not None and verdict.success and verdict.roll is None
        assert _reasons(verdict, "SK-G2") == ["skirmish.sight.scenario_light.brazier"]


# ---------------------------------------------------------------- SK-G4: a hidden defender


def test_SK_G4_the_unscouted_raid_discovers_sen_by_the_lantern() -> None:
    """night-raid-unscouted: Sen, hidden by the lord's cunning (SK-G4), stands at (78, 52),
    sqrt(8² + 4²) = 8.9 cm from the stone lantern at (70, 48), nothing between: lit (SK-V5).
    Kage (move 15: half speed 15 × 15 / 30 = 7.5 cm a turn) throws his grapple in turn 1 from
    (60, 4), outside the north wall (y = 10), which hides Sen from him. Turn 2 he climbs 7.5 cm
    to (60, 11.5), inside the wall; Sen is sqrt(18² + 40.5²) = 44.3 cm away with nothing in
    between: seen distinctly, no roll (SK-V5 at any range), and he discovers her, the
    discovery citing SK-G4. Kaze (fast, 15 cm a turn) reaches (54, 14) in turn 2 too:
    sqrt(24² + 38²) = 44.9 cm. Whatever the dice."""
    for seed in (1, 2, 3, 1603):
        result = play(load_scenario("night-raid-unscouted"), seed=seed)
        found = [
            e for e in result.events if e.message == "engine.raid.discovers" and e.target == "Sen"
        ]
        first = [(e.turn, e.actor) for e in found if e.turn == 2]
        assert ("Kage" in {a for _, a in first}) and ("Kaze" in {a for _, a in first})
        assert all(e.turn >= 2 for e in found)
        assert all(event_rules(e) == {"SK-G4"} for e in found)
        looks = [
            e
            for e in result.events
            if e.kind == "sight" and e.target == "Sen" and e.actor == "Kage" and e.turn == 2
        ]
        (look,) = looks
        assert look.params["distance"] == 44.32
        assert look.verdict and look.verdict.roll is None and look.verdict.success
        kage = next(w for w in result.walkers if w.name == "Kage")
        assert kage.aware_of("Sen") is AwarenessState.OBSERVED
        assert "Sen" not in kage.knows_position
