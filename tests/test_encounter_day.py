"""Day encounters played by the engine: shadowing round by round, ambushes per character.

Every expected number is worked out by hand from the rule text (RULES.md §1), in the comments,
never copied from the engine's output.
"""

from __future__ import annotations

from pathlib import Path

from vigile.dice.source import GivenFaces
from vigile.engine.events import Event
from vigile.engine.result import GameResult
from vigile.engine.run import play
from vigile.scene.loader import load_scenario

HEAD = """ruleset: skirmish
name: day encounter
units: cm
time: day
map: {width: 300, height: 60}
turns: 10
"""

SHADOWING = (
    HEAD
    + """actors:
  - {name: Sanjiro, side: attackers, position: [80, 20], ninja: true, dice: {ninjitsu: 2}}
  - {name: Tomoe, side: defenders, position: [100, 20], dice: {}}
encounter: {type: shadowing, follower: Sanjiro, followed: Tomoe, setting: SETTING, rounds: 3}
"""
)


def _play(tmp_path: Path, text: str, dice: list[int]) -> GameResult:
    """Play the scenario with the GM's dice, and check that every die was used."""
    path = tmp_path / "day.yaml"
    path.write_text(text)
    faces = GivenFaces(dice)
    result = play(load_scenario(str(path)), faces=faces)
    faces.finish()
    return result


def _checks(result: GameResult, check: str) -> list[Event]:
    return [e for e in result.events if e.verdict is not None and e.verdict.check == check]


# ---------------------------------------------------------------- shadowing (SK-S2..SK-S5)


def test_SK_S5_the_followers_double_one_lets_her_notice_him_on_6(tmp_path: Path) -> None:
    # SK-S5: Sanjiro (2D ninjitsu) follows Tomoe in a crowd: 4+ (SK-S2). He rolls 1 and 1:
    # every die a 1, a fumble (SK-D4), and 1 < 4, a failed follow roll.
    # "Had Sanjiro rolled a double 1, she would notice him on 6 that round": the fumbled round's
    # notice is 5+ (SK-S2), +1 for untrained Tomoe (SK-S3) = 6. She rolls 6 >= 6: noticed.
    result = _play(tmp_path, SHADOWING.replace("SETTING", "crowd"), [1, 1, 6])
    follow, notice = _checks(result, "shadow")
    assert follow.actor == "Sanjiro" and follow.verdict and follow.verdict.success is False
    assert follow.verdict.roll and follow.verdict.roll.fumble
    assert notice.actor == "Tomoe" and notice.verdict
    assert notice.verdict.difficulty == 6 and notice.verdict.success is True
    assert (result.outcome.kind, result.outcome.turn, result.outcome.by) == (
        "detected",
        1,
        ("Tomoe",),
    )


def test_SK_S5_a_fumble_she_does_not_notice_still_loses_the_trail(tmp_path: Path) -> None:
    # Double 1 again (a fumble, a failed follow roll); Tomoe's notice is 5 + 1 = 6 (SK-S2,
    # SK-S3) and she rolls 5 < 6: not noticed. The follow roll failed, so Sanjiro has lost the
    # trail [R]: the encounter ends on round 1 of 3, and only those three dice are used.
    result = _play(tmp_path, SHADOWING.replace("SETTING", "crowd"), [1, 1, 5])
    _, notice = _checks(result, "shadow")
    assert notice.verdict and notice.verdict.difficulty == 6 and notice.verdict.success is False
    assert (result.outcome.kind, result.outcome.turn, result.outcome.by) == (
        "lost",
        1,
        ("Sanjiro",),
    )
    assert result.outcome.unseen


def test_SK_S2_a_plain_failed_follow_roll_ends_it_with_no_notice_roll(tmp_path: Path) -> None:
    # Sanjiro rolls 1 and 3: the best die 3 < 4 (SK-S2), a failure but not a fumble (not every
    # die a 1, SK-D4). He loses the trail; no one follows any more, so Tomoe rolls nothing [R]
    # (the two dice given are all the game uses).
    result = _play(tmp_path, SHADOWING.replace("SETTING", "crowd"), [1, 3])
    assert [e.actor for e in _checks(result, "shadow")] == ["Sanjiro"]
    assert (result.outcome.kind, result.outcome.turn) == ("lost", 1)


def test_SK_S4_a_fumble_in_the_countryside_is_a_plain_failure(tmp_path: Path) -> None:
    # Countryside, following a pedestrian: 2+ (SK-S4). Sanjiro rolls 1 and 1: 1 < 2, failed,
    # and a fumble (SK-D4); the fumbled-round notice of SK-S2 is a crowd rule, so the trail is
    # simply lost, with no notice roll [R].
    result = _play(tmp_path, SHADOWING.replace("SETTING", "countryside"), [1, 1])
    assert [e.actor for e in _checks(result, "shadow")] == ["Sanjiro"]
    assert result.outcome.kind == "lost"


def test_SK_S2_a_fumble_in_a_later_round_makes_that_rounds_notice_easier(tmp_path: Path) -> None:
    # Round 1: Sanjiro 2 and 6, 6 >= 4 (SK-S2): he keeps up. Tomoe, untrained, not on alert:
    # 6 + 1 = 7 (SK-S2, SK-S3), "a 6 then another 6" (SK-D3); she rolls 3: not noticed.
    # Round 2: Sanjiro 1 and 1, a fumble; that round Tomoe needs 5 + 1 = 6 and rolls 6: noticed.
    result = _play(tmp_path, SHADOWING.replace("SETTING", "crowd"), [2, 6, 3, 1, 1, 6])
    notices = [e.verdict for e in _checks(result, "shadow") if e.actor == "Tomoe"]
    assert [(v.difficulty, v.success) for v in notices if v] == [(7, False), (6, True)]
    assert (result.outcome.kind, result.outcome.turn) == ("detected", 2)


def test_a_noticed_follower_is_known_to_the_followed(tmp_path: Path) -> None:
    # As in SK-S5's fumble: Tomoe notices Sanjiro (6 >= 6); she observes him from then on.
    result = _play(tmp_path, SHADOWING.replace("SETTING", "crowd"), [1, 1, 6])
    tomoe = next(w for w in result.walkers if w.name == "Tomoe")
    assert tomoe.aware_of("Sanjiro").value == "observed"


# ---------------------------------------------------------------- ambush (SK-A2..SK-A5)

AMBUSH = (
    HEAD
    + """actors:
  - {name: Sanjiro, side: attackers, position: [40, 20], dice: {ninjitsu: 2}}
  - {name: Tomoe, side: defenders, position: [60, 40], alert: true, dice: {}}
  - {name: Kenji, side: defenders, position: [62, 40], dice: {}}
encounter: {type: ambush, ambushers: [Sanjiro], targets: [Tomoe, Kenji], setting: SETTING}
"""
)


def test_SK_A3_each_targets_alert_is_its_own(tmp_path: Path) -> None:
    # Countryside, 1 ambusher for 2 targets: a small ambush, 7+ (SK-A3); Sanjiro is not a ninja
    # (no +1). Tomoe is on alert: -1 difficulty, 6+. Kenji is not: 7+, a 6 then a 6 (SK-D3).
    # One die each (SK-A3 [R]), not pooled (SK-A2). Tomoe rolls 5 < 6: nothing. Kenji rolls 6
    # then 6: he detects it, so the party does (SK-A2 [R]): both sides act at once (SK-A5).
    result = _play(tmp_path, AMBUSH.replace("SETTING", "countryside"), [5, 6, 6])
    checks = {e.actor: e.verdict for e in _checks(result, "ambush")}
    tomoe, kenji = checks["Tomoe"], checks["Kenji"]
    assert tomoe and tomoe.difficulty == 6 and tomoe.success is False
    assert kenji and kenji.difficulty == 7 and kenji.success is True
    assert (result.outcome.kind, result.outcome.by) == ("detected", ("Kenji",))
    assert any(e.message == "engine.day.ambush_detected" for e in result.events)


def test_SK_A4_the_alert_die_bonus_is_per_character(tmp_path: Path) -> None:
    # Town, 1 ambusher for 2 targets: small, 8+ (SK-A4). Tomoe on alert: +1 to her die, so she
    # needs 8 - 1 = 7 on the die: a 6 then a 6 (SK-D3); Kenji, not on alert, needs 8: a 6, a 6,
    # a 6. Tomoe rolls 6 then 5 (5 < 6): nothing; Kenji rolls 2: nothing. Undetected: Sanjiro
    # acts first (SK-A5).
    result = _play(tmp_path, AMBUSH.replace("SETTING", "town"), [6, 5, 2])
    checks = {e.actor: e.verdict for e in _checks(result, "ambush")}
    tomoe, kenji = checks["Tomoe"], checks["Kenji"]
    assert tomoe and (tomoe.difficulty, tomoe.die_bonus, tomoe.success) == (8, 1, False)
    assert kenji and (kenji.difficulty, kenji.die_bonus, kenji.success) == (8, 0, False)
    assert (result.outcome.kind, result.outcome.by) == ("objective", ("Sanjiro",))
    assert result.outcome.unseen
    assert any(e.message == "engine.day.ambush_sprung" for e in result.events)


def test_SK_A6_the_worked_example_still_holds() -> None:
    # SK-A6: small town ambush 8+, all ninjas +1 = 9 (SK-A4); Tomoe rolls 3: nothing.
    result = play(load_scenario("sk-a6-ambush"))
    (check,) = _checks(result, "ambush")
    assert check.verdict and check.verdict.difficulty == 9 and check.verdict.success is False
    assert result.outcome.kind == "objective"
