"""SK-N7 from the attackers' side: an intruder overhears the defenders' conversation.

The seed: "this rule can also serve to know whether a spy manages to catch a conversation he
overhears from afar (base: whispered 6, normal 5, animated 4)", then the noise modifiers:
+1 per whole 50 cm at night, +1 per whole 10 cm by day (SK-N4), +1 per partition (SK-N5), −1
on alert (SK-N6). The rulings where the text is silent ([R], in
:mod:`vigile.rulesets.skirmish.eavesdrop`): a guard with ``talks`` converses every turn at that
volume; each intruder tests once a turn with its perception pool (SK-D1), whatever it knows of
the speaker (a spy listens for what is said); hearing gives the speaker's direction, not its
place (SK-N10, RULES.md §4).

Every expected number is worked out by hand from the rule text, in the docstrings.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from vigile.awareness.ladder import AwarenessState
from vigile.dice.source import GivenFaces
from vigile.engine.events import Event
from vigile.engine.result import GameResult
from vigile.engine.run import play
from vigile.errors import VigileError
from vigile.games.coverage import event_rules
from vigile.games.skirmish.schedule import schedule
from vigile.io.i18n import Lang
from vigile.io.views import character_lines
from vigile.rulesets.data import shipped
from vigile.rulesets.skirmish.common import Roller
from vigile.rulesets.skirmish.eavesdrop import overhear_check
from vigile.scene.loader import load_scenario

F = Fraction

# Kage stands still in the open at (100, 100); no plan. The guards are posted far enough that no
# sight test is allowed either way (immobile: only closer than 10 cm, SK-V3): the only dice of
# the game are the eavesdropping tests.
BOARD = """ruleset: skirmish
name: eavesdropping
units: cm
time: TIME
map: {width: 300, height: 200}
turns: TURNS
default_surface: grass
"""
KAGE = (
    "  - {name: Kage, side: attackers, position: [100, 100], ninja: true,"
    " dice: {ninjitsu: 3, perception: 2}}\n"
)


def _play(
    tmp_path: Path, body: str, dice: list[int], *, turns: int = 1, time: str = "night"
) -> GameResult:
    """Play with the GM's dice, and check that every die was used."""
    path = tmp_path / "eavesdrop.yaml"
    path.write_text(BOARD.replace("TURNS", str(turns)).replace("TIME", time) + body)
    faces = GivenFaces(dice)
    result = play(load_scenario(str(path)), faces=faces)
    faces.finish()
    return result


def _tests(result: GameResult) -> list[Event]:
    return [e for e in result.events if e.message == "engine.raid.eavesdrop"]


def _overheard(result: GameResult) -> list[Event]:
    return [e for e in result.events if e.message == "engine.raid.overhears"]


def _kage(result: GameResult):  # type: ignore[no-untyped-def]
    return next(w for w in result.walkers if w.name == "Kage")


def test_SK_N7_a_normal_conversation_60_cm_away_at_night(tmp_path: Path) -> None:
    """Jubei talks (conversation) at (160, 100), 60 cm from Kage: 5 (SK-N7) + floor(60 / 50)
    = 1 (SK-N4) = 6+. Kage's two perception dice (SK-D1): 1 − (5/6)² = 11/36. He rolls 6 and 2:
    heard. He knows Jubei's direction, not where he stands; he is the only one to know."""
    body = (
        "actors:\n"
        + KAGE
        + "  - {name: Jubei, side: defenders, position: [160, 100], dice: 2, talks: conversation}\n"
    )
    result = _play(tmp_path, body, [6, 2])
    (test,) = _tests(result)
    verdict = test.verdict
    assert verdict is not None
    assert (test.actor, test.target, test.params["distance"]) == ("Kage", "Jubei", 60)
    assert verdict.difficulty == 6 and verdict.dice == 2
    assert verdict.chance == 1 - F(5, 6) ** 2 == F(11, 36)
    assert verdict.success is True and verdict.state is AwarenessState.DIRECTION
    (heard,) = _overheard(result)
    assert heard.params["rule"] == "SK-N7" and event_rules(heard) == {"SK-N7"}
    assert heard.params["state"] == AwarenessState.DIRECTION.value  # SK-N10: not where
    assert heard.perceived_by == {"Kage"} and heard.at is None  # a direction, not a place
    assert {"SK-N7", "SK-N4", "SK-D1"} <= event_rules(test)
    assert _kage(result).aware_of("Jubei") is AwarenessState.DIRECTION


def test_SK_N7_the_talk_goes_on_and_is_tested_each_turn(tmp_path: Path) -> None:
    """Three turns, Jubei 60 cm away: 6+ each turn (5 + floor(60 / 50) = 1). Turn 1: Kage
    rolls 3 and 4: nothing. Turn 2: 6 and 1: heard, he knows Jubei's direction. Turn 3: the
    talk goes on and a spy listens for what is said [SK-N7 R]: he tests again, 2 and 6: heard
    again. Six dice."""
    body = (
        "actors:\n"
        + KAGE
        + "  - {name: Jubei, side: defenders, position: [160, 100], dice: 2, talks: conversation}\n"
    )
    result = _play(tmp_path, body, [3, 4, 6, 1, 2, 6], turns=3)
    assert [(e.turn, e.verdict.success) for e in _tests(result) if e.verdict] == [
        (1, False),
        (2, True),
        (3, True),
    ]
    assert [e.turn for e in _overheard(result)] == [2, 3]
    assert _kage(result).aware_of("Jubei") is AwarenessState.DIRECTION


def test_SK_N7_a_whisper_behind_a_shoji_chains_sixes(tmp_path: Path) -> None:
    """Goro whispers at (130, 100), 30 cm away behind a shoji at x = 115: 6 (whisper, SK-N7)
    + floor(30 / 50) = 0 (SK-N4) + 1 partition (SK-N5) = 7+: a 6 rolled again against 6+
    (SK-D3). Kage rolls two dice; each die's chain follows it: 6→6, then 3. Heard. Chance:
    per die (1/6)² = 1/36, two dice 1 − (35/36)² = 71/1296."""
    body = (
        "walls:\n  - {kind: partition, start: [115, 50], end: [115, 150]}\n"
        "actors:\n"
        + KAGE
        + "  - {name: Goro, side: defenders, position: [130, 100], dice: 1, talks: whisper}\n"
    )
    result = _play(tmp_path, body, [6, 6, 3])
    (test,) = _tests(result)
    verdict = test.verdict
    assert verdict is not None and verdict.difficulty == 7
    assert verdict.chance == 1 - F(35, 36) ** 2 == F(71, 1296)
    assert verdict.success is True
    assert {"SK-N5", "SK-D3"} <= event_rules(test)


def test_SK_N7_an_alert_intruder_hears_better_an_animated_one_by_day(tmp_path: Path) -> None:
    """By day (SK-N4: +1 per whole 10 cm), Kage on alert: Hanbei talks animatedly 25 cm away
    at (125, 100), behind a shoji at x = 112 (by day they would see each other, SK-S1; the
    shoji blocks sight, SK-V6): 4 (animated) + floor(25 / 10) = 2 + 1 partition (SK-N5) − 1
    (on alert, SK-N6) = 6+. Kage's two dice: 1 − (5/6)² = 11/36. He rolls 1 and 4: not heard,
    and he stays unaware of Hanbei."""
    body = (
        "walls:\n  - {kind: partition, start: [112, 50], end: [112, 150]}\n"
        "actors:\n"
        + KAGE.replace("ninja: true,", "ninja: true, alert: true,")
        + "  - {name: Hanbei, side: defenders, position: [125, 100], dice: 1, talks: animated}\n"
    )
    result = _play(tmp_path, body, [1, 4], time="day")
    (test,) = _tests(result)
    verdict = test.verdict
    assert verdict is not None and verdict.difficulty == 6
    assert verdict.chance == F(11, 36) and verdict.success is False
    assert not _overheard(result)
    assert _kage(result).aware_of("Hanbei") is AwarenessState.UNAWARE


def test_SK_N7_an_untrained_listener_rolls_one_die(tmp_path: Path) -> None:
    """Kaze has no perception dice: one die, untrained (SK-D1). Jubei talks 60 cm away: 6+,
    1/6. He rolls 6: heard. The verdict says why he rolls one die."""
    body = (
        "actors:\n"
        "  - {name: Kaze, side: attackers, position: [100, 100], dice: {ninjitsu: 1}}\n"
        "  - {name: Jubei, side: defenders, position: [160, 100], dice: 2, talks: conversation}\n"
    )
    result = _play(tmp_path, body, [6])
    (test,) = _tests(result)
    verdict = test.verdict
    assert verdict is not None and verdict.dice == 1 and verdict.chance == F(1, 6)
    assert any(n.reason == "skirmish.pool.untrained_perception" for n in verdict.notes)


def test_SK_N7_each_speaker_is_a_source_and_silent_guards_say_nothing(tmp_path: Path) -> None:
    """Jubei and Goro converse at the gate, Ippei keeps silent. Kage tests on each speaker, in
    the scenario's order: Jubei at (100, 160), 60 cm: 6+ (he rolls 5, 5: nothing); Goro at
    (110, 160), sqrt(10² + 60²) = 60.8 cm: 6+ (6, 1: heard). Ippei: no test; the game uses
    exactly these four dice."""
    body = (
        "actors:\n"
        + KAGE
        + "  - {name: Jubei, side: defenders, position: [100, 160], dice: 2, talks: conversation}\n"
        "  - {name: Goro, side: defenders, position: [110, 160], dice: 1, talks: conversation}\n"
        "  - {name: Ippei, side: defenders, position: [200, 160], dice: 1}\n"
    )
    result = _play(tmp_path, body, [5, 5, 6, 1])
    assert [(e.target, e.verdict.difficulty) for e in _tests(result) if e.verdict] == [
        ("Jubei", 6),
        ("Goro", 6),
    ]
    assert [e.target for e in _overheard(result)] == ["Goro"]


def test_SK_N7_a_spy_who_knows_where_the_speaker_stands_still_rolls(tmp_path: Path) -> None:
    """Scouted (SK-G3), Kage knows where Jubei stands, 60 cm away at night. The seed's spy
    listens to catch what is said: knowing the place neither spares the roll nor eases it
    [SK-N7 R]: 5 (conversation) + floor(60 / 50) = 1 (SK-N4) = 6+, as for a spy who knows
    nothing; two perception dice, 1 − (5/6)² = 11/36. Turn 1: 6 and 3, caught; turn 2: 2 and
    5, missed. What he knows is not lowered to a direction: he still knows Jubei's place."""
    body = (
        "actors:\n"
        + KAGE
        + "  - {name: Jubei, side: defenders, position: [160, 100], dice: 2, talks: conversation}\n"
        + "scouting: {observed_beforehand: true}\n"
    )
    result = _play(tmp_path, body, [6, 3, 2, 5], turns=2)
    tests = _tests(result)
    assert [(e.turn, e.verdict.difficulty, e.verdict.success) for e in tests if e.verdict] == [
        (1, 6, True),
        (2, 6, False),
    ]
    assert all(e.verdict is not None and e.verdict.chance == F(11, 36) for e in tests)
    assert [e.turn for e in _overheard(result)] == [1]
    kage = _kage(result)
    assert "Jubei" in kage.knows_position


def test_SK_N7_the_views_keep_the_secrets(tmp_path: Path) -> None:
    """Kage's view shows what he overheard, not his failed test, nor the speaker's name (LP-5:
    he heard someone that way, he does not know it is Jubei); Jubei's shows nothing of it (he
    does not know he was overheard)."""
    body = (
        "actors:\n"
        + KAGE
        + "  - {name: Jubei, side: defenders, position: [160, 100], dice: 2, talks: conversation}\n"
    )
    result = _play(tmp_path, body, [3, 4, 6, 1], turns=2)
    kage = "\n".join(character_lines(result, "Kage", Lang.EN))
    assert kage.count("Kage overhears someone talking (conversation)") == 1
    assert "Jubei" not in kage.split("Turn 1")[1]
    jubei = "\n".join(character_lines(result, "Jubei", Lang.FR))
    assert "Kage" not in jubei


def test_SK_N7_the_check_alone() -> None:
    """The rule function: a normal conversation 120 cm away at night, one die: 5 + 2 = 7+,
    (1/6)² = 1/36 (SK-N7, SK-N4, SK-D3)."""
    verdict = overhear_check(shipped("skirmish"), volume="conversation", distance_cm=120)
    assert verdict.difficulty == 7 and verdict.chance == F(1, 36)
    assert verdict.notes[0].rule == "SK-N7"
    two = overhear_check(
        shipped("skirmish"), volume="whisper", distance_cm=0, roller=Roller(2)
    )  # 6+, two dice: 1 − (5/6)² = 11/36
    assert two.chance == F(11, 36)


def test_SK_N7_talking_changes_nothing_the_defenders_do(tmp_path: Path) -> None:
    """The batched simulator plays the defenders' side from the intruders' schedule; a talking
    guard changes neither (eavesdropping moves no one and alerts no one)."""
    quiet = (
        "actors:\n"
        + KAGE
        + "  - {name: Jubei, side: defenders, position: [160, 100], dice: 2}\n"
        + "plans:\n  Kage:\n    - {to: [150, 100], speed: half}\n"
    )
    talking = quiet.replace("dice: 2}", "dice: 2, talks: conversation}")
    rules = shipped("skirmish")
    a, b = tmp_path / "a.yaml", tmp_path / "b.yaml"
    a.write_text(BOARD.replace("TURNS", "4").replace("TIME", "night") + quiet)
    b.write_text(BOARD.replace("TURNS", "4").replace("TIME", "night") + talking)
    assert schedule(load_scenario(str(a)), rules) == schedule(load_scenario(str(b)), rules)


def test_SK_N7_a_volume_the_text_does_not_know_is_refused(tmp_path: Path) -> None:
    body = (
        "actors:\n"
        + KAGE
        + "  - {name: Jubei, side: defenders, position: [160, 100], dice: 2, talks: shouting}\n"
    )
    path = tmp_path / "bad.yaml"
    path.write_text(BOARD.replace("TURNS", "1").replace("TIME", "night") + body)
    with pytest.raises(VigileError, match="talks"):
        load_scenario(str(path))


def test_SK_N7_the_bundled_unscouted_raid_has_guards_chatting_at_the_gate() -> None:
    """night-raid-unscouted: Jubei and Goro converse at the gate; every test is one ninja on
    one of them, and a ninja who overhears one knows his direction."""
    result = play(load_scenario("night-raid-unscouted"), seed=1603)
    tests = _tests(result)
    assert tests and {e.target for e in tests} <= {"Jubei", "Goro"}
    for event in _overheard(result):
        walker = next(w for w in result.walkers if w.name == event.actor)
        assert walker.aware_of(event.target or "") in (
            AwarenessState.DIRECTION,
            AwarenessState.OBSERVED,
        )
