"""Intruders discover the guards in play (SK-G3, SK-G4), and undetected ambushers act first
(SK-A5).

Every expected number is worked out by hand from the rule text (RULES.md §1), in the
docstrings, never copied from the engine's output.
"""

from __future__ import annotations

from pathlib import Path

from vigile.awareness.ladder import AwarenessState
from vigile.dice.source import GivenFaces
from vigile.engine.events import Event
from vigile.engine.result import GameResult
from vigile.engine.run import play
from vigile.engine.state import Walker
from vigile.games.skirmish.schedule import schedule
from vigile.io.i18n import Lang
from vigile.io.views import character_lines, gm_lines
from vigile.rulesets.data import shipped
from vigile.scene.loader import load_scenario

NIGHT = """ruleset: skirmish
name: discovery
units: cm
time: night
map: {width: 300, height: 200}
turns: TURNS
default_surface: grass
cover:
  - {name: bush, points: [[46, 26], [54, 26], [54, 34], [46, 34]]}
"""

# Kage hides, immobile, in the bush at (50, 30): a guard could test sight on him only closer
# than 5 cm (hidden, SK-V3), and no guard stands that close, so no guard rolls. Tsuki stands
# immobile at (40, 60), more than 10 cm from every guard: no guard may test on her (SK-V3).
ACTORS = """actors:
  - {name: Kage, side: attackers, position: [50, 30], attitude: hidden, ninja: true,
     dice: {ninjitsu: 2, perception: 1}}
  - {name: Tsuki, side: attackers, position: [40, 60], ninja: true, dice: {perception: 1}}
  - {name: Jubei, side: defenders, position: [58, 30], dice: 1}
"""


def _play(tmp_path: Path, text: str, dice: list[int], turns: int = 1) -> GameResult:
    """Play with the GM's dice, and check that every die was used."""
    path = tmp_path / "discovery.yaml"
    path.write_text(text.replace("TURNS", str(turns)))
    faces = GivenFaces(dice)
    result = play(load_scenario(str(path)), faces=faces)
    faces.finish()
    return result


def _walker(result: GameResult, name: str) -> Walker:
    return next(w for w in result.walkers if w.name == name)


def _sight_by(result: GameResult, name: str) -> list[Event]:
    return [e for e in result.events if e.kind == "sight" and e.actor == name]


def _discoveries(result: GameResult) -> list[tuple[int, str, str]]:
    return [
        (e.turn, e.actor or "", e.target or "")
        for e in result.events
        if e.message == "engine.raid.discovers"
    ]


# ---------------------------------------------------------------- SK-G3: unscouted


def test_SK_G3_unscouted_ninja_discovers_a_posted_guard_by_sight(tmp_path: Path) -> None:
    """SK-G3: not scouted, Kage does not know Jubei; each turn he tests sight on him, the roles
    of SK-V3 reversed. Jubei is posted and does not move: immobile, 8 cm away (58 - 50), under
    10 cm: 6+ (SK-V3), Kage's one perception die (SK-D1). Turn 1 he rolls 4 < 6: nothing. Turn 2
    he rolls 6: he knows where Jubei stands. Turn 3: he knows, he rolls no more. Tsuki, 26.9 cm
    from Jubei (sqrt(18² + 30²)), may not test (immobile: under 10 cm only), and does not learn
    it from Kage ([R] a discovery is the discoverer's alone)."""
    result = _play(tmp_path, NIGHT + ACTORS, [4, 6], turns=3)
    tests = _sight_by(result, "Kage")
    assert [(e.turn, e.target) for e in tests] == [(1, "Jubei"), (2, "Jubei")]
    assert all(e.verdict and e.verdict.difficulty == 6 for e in tests)
    assert [e.verdict.success for e in tests if e.verdict] == [False, True]
    assert _discoveries(result) == [(2, "Kage", "Jubei")]
    (event,) = [e for e in result.events if e.message == "engine.raid.discovers"]
    assert event.perceived_by == {"Kage"}
    assert event.params["state"] == AwarenessState.OBSERVED.value  # the sight rules' (SK-V3)
    kage, tsuki = _walker(result, "Kage"), _walker(result, "Tsuki")
    assert kage.aware_of("Jubei") is AwarenessState.OBSERVED
    assert not kage.knows_position  # what he knew at the start: nothing
    assert tsuki.aware_of("Jubei") is AwarenessState.UNAWARE
    assert not _sight_by(result, "Tsuki")
    assert not _sight_by(result, "Jubei")  # no guard could test on them


def test_SK_G3_the_view_shows_a_guard_only_once_discovered(tmp_path: Path) -> None:
    """Kage's own view: no known position at the start, his failed glance of turn 1 is not
    shown (a perception check that fails), the discovery appears in turn 2."""
    result = _play(tmp_path, NIGHT + ACTORS, [4, 6], turns=2)
    lines = list(character_lines(result, "Kage", Lang.EN))
    text = "\n".join(lines)
    assert "Known positions at the start" not in text
    turn2 = lines.index("— Turn 2 —")
    found = [i for i, line in enumerate(lines) if "Kage discovers where Jubei stands" in line]
    assert len(found) == 1 and found[0] > turn2
    assert "Jubei" not in "\n".join(lines[:turn2])
    tsuki = "\n".join(character_lines(result, "Tsuki", Lang.EN))
    assert "discovers" not in tsuki


def test_SK_G3_scouted_ninjas_roll_no_detection_to_find_the_guards(tmp_path: Path) -> None:
    """SK-G3: observed beforehand, Kage knows Jubei's position from the start and rolls no
    detection to find him: no die at all in three turns."""
    text = NIGHT + ACTORS + "scouting: {observed_beforehand: true}\n"
    result = _play(tmp_path, text, [], turns=3)
    assert not _sight_by(result, "Kage") and not _discoveries(result)
    assert _walker(result, "Kage").knows_position == {"Jubei"}


def test_SK_G3_a_lit_guard_is_found_at_any_range(tmp_path: Path) -> None:
    """SK-V5 reversed: Goro stands by a lantern, 60 cm from Kage (110 - 50) with nothing in
    between: seen distinctly, no roll. Both ninjas find him in turn 1 (Tsuki too: sqrt(70² + 30²)
    = 76 cm, line of sight); neither rolls a die for him."""
    text = (
        NIGHT
        + ACTORS
        + "  - {name: Goro, side: defenders, position: [110, 30], dice: 1}\n"
        + "lights:\n  - {kind: lantern, at: [112, 30]}\n"
    )
    result = _play(tmp_path, text, [4], turns=1)  # Kage's die for Jubei (6+): 4, nothing
    goro = [e for e in result.events if e.kind == "sight" and e.target == "Goro"]
    assert {e.actor for e in goro} == {"Kage", "Tsuki"}
    assert all(e.verdict and e.verdict.success and e.verdict.roll is None for e in goro)
    assert sorted(_discoveries(result)) == [(1, "Kage", "Goro"), (1, "Tsuki", "Goro")]


def test_SK_G3_a_patrol_is_seen_in_motion(tmp_path: Path) -> None:
    """A patrolling guard moved this turn (10 cm, SK-G1): seen in motion at half speed, SK-V3's
    band under 20 cm, 5+ ([R] a patrol's 10 cm is below the half-speed rate). Kage stands in
    the open at (150, 100), Masa patrols from (150, 114): after 10 cm in any direction he is
    4 to 24 cm away. Masa's own test on Kage (immobile, 10 cm band) may be allowed too. Kage
    sees Masa in motion under 10 cm without a roll (SK-V2); from 10 to 20 cm he tests 5+
    (SK-V3, SK-V8: the bands are strict); from 20 cm, no test. Ten seeds: some give a test."""
    text = (
        NIGHT.replace("TURNS", "1")
        + """actors:
  - {name: Kage, side: attackers, position: [150, 100], dice: {perception: 1}}
  - {name: Masa, side: defenders, position: [150, 114], state: patrolling, dice: 1}
"""
    )
    path = tmp_path / "patrol.yaml"
    path.write_text(text)
    tests = []
    for seed in range(10):
        result = play(load_scenario(str(path)), seed=seed)
        tests += [e for e in _sight_by(result, "Kage") if e.target == "Masa"]
    assert tests
    for event in tests:
        gap = float(event.params["distance"])
        assert event.verdict and gap < 20
        if gap < 10:
            assert event.verdict.success and event.verdict.roll is None
        else:
            assert event.verdict.difficulty == 5


def test_an_intruder_who_kills_a_guard_knows_where_he_was(tmp_path: Path) -> None:
    """[R] An archer shoots Goro, 40 cm away in the dark (immobile: no test beyond 10 cm, SK-V3,
    so never discovered by sight): a ranged kill rolls no fumble (SK-N3 [R]), the body falls on
    grass (no other guard to hear it). He kills him: he knows where Goro was. No die."""
    text = (
        NIGHT
        + """actors:
  - {name: Archer, side: attackers, position: [150, 100], dice: {ninjitsu: 1}}
  - {name: Goro, side: defenders, position: [190, 100], dice: 1}
plans:
  Archer:
    - speed: immobile
      actions: [{do: kill, target: Goro, ranged: true}]
"""
    )
    result = _play(tmp_path, text, [], turns=1)
    archer = _walker(result, "Archer")
    assert not _walker(result, "Goro").alive
    assert archer.aware_of("Goro") is AwarenessState.OBSERVED
    assert not _sight_by(result, "Archer") and not _discoveries(result)


# ---------------------------------------------------------------- SK-G4: hidden guards


def test_SK_G4_a_hidden_guard_is_unknown_even_when_scouted(tmp_path: Path) -> None:
    """SK-G4: scouted, Kage knows Jubei (no roll) but not Rin, hidden at a key place; Rin
    posted 6 cm away ((50, 36): immobile, under 10 cm, 6+): Kage rolls 6 and finds her."""
    text = (
        NIGHT
        + ACTORS
        + "  - {name: Rin, side: defenders, position: [50, 36], dice: 1}\n"
        + "scouting: {observed_beforehand: true}\nhidden_guards: [Rin]\n"
    )
    result = _play(tmp_path, text, [6], turns=2)
    tests = _sight_by(result, "Kage")
    assert [(e.turn, e.target) for e in tests] == [(1, "Rin")]
    assert tests[0].verdict and tests[0].verdict.difficulty == 6
    assert _discoveries(result) == [(1, "Kage", "Rin")]
    kage = _walker(result, "Kage")
    assert kage.knows_position == {"Jubei"} and kage.aware_of("Rin") is AwarenessState.OBSERVED


def test_SK_G4_the_night_raid_unscouted_plays_and_discovers() -> None:
    """The bundled unscouted raid: no ninja knows a position at the start (SK-G3); the lanterns
    light some guards, found without a roll in turn 1 or later (SK-V5)."""
    result = play(load_scenario("night-raid-unscouted"), seed=3)
    assert all(not w.knows_position for w in result.walkers)
    assert _discoveries(result)


def test_the_schedule_ignores_discovery() -> None:
    """The plans stay fixed: the batched simulator's schedule of the unscouted raid is the
    scouted raid's, op for op (the intruders' sight tests are not ops)."""
    rules = shipped("skirmish")
    scouted = schedule(load_scenario("night-raid"), rules)
    unscouted = schedule(load_scenario("night-raid-unscouted"), rules)
    assert scouted == unscouted


# ---------------------------------------------------------------- SK-A5: who acts first

AMBUSH = """ruleset: skirmish
name: ambush
units: cm
time: day
map: {width: 300, height: 60}
turns: 1
actors:
  - {name: Sanjiro, side: attackers, position: [40, 20], dice: {ninjitsu: 2}}
  - {name: Tomoe, side: defenders, position: [TOMOE, 40], dice: {}}
encounter: {type: ambush, ambushers: [Sanjiro], targets: [Tomoe], setting: countryside}
"""


def _acts_first(result: GameResult) -> list[tuple[str, str, str]]:
    return [
        (e.message, e.actor or "", e.target or "")
        for e in result.events
        if e.message.startswith("engine.day.acts_first")
    ]


def test_SK_A5_undetected_ambusher_moves_and_fights_a_near_target(tmp_path: Path) -> None:
    """Countryside, one ambusher, one target: small, 7+ (SK-A3): a 6 then a 6 (SK-D3). Tomoe
    rolls 3: undetected, Sanjiro acts first (SK-A5). She is sqrt(20² + 20²) = 28.3 cm away,
    within one fast move (30 cm): [R] he moves and fights in melee."""
    result = _play(tmp_path, AMBUSH.replace("TOMOE", "60"), [3])
    assert result.outcome.kind == "objective"
    assert _acts_first(result) == [("engine.day.acts_first_melee", "Sanjiro", "Tomoe")]
    (event,) = [e for e in result.events if e.message == "engine.day.acts_first_melee"]
    assert event.public
    fr = "\n".join(gm_lines(result, Lang.FR))
    assert "Sanjiro agit en premier : il se porte sur Tomoe et engage le combat" in fr


def test_SK_A5_undetected_ambusher_shoots_a_far_target(tmp_path: Path) -> None:
    """Tomoe at (100, 40): sqrt(60² + 20²) = 63.2 cm, beyond a fast move (30 cm): [R] a shot.
    She rolls 6 then 2 (7+ needs a 6 then a 6, SK-D3): undetected."""
    result = _play(tmp_path, AMBUSH.replace("TOMOE", "100"), [6, 2])
    assert _acts_first(result) == [("engine.day.acts_first_shot", "Sanjiro", "Tomoe")]
    en = "\n".join(gm_lines(result, Lang.EN))
    assert "Sanjiro acts first: a shot at Tomoe" in en
    tomoe = "\n".join(character_lines(result, "Tomoe", Lang.EN))
    # she perceives the attack, not who shot: the ambush went undetected (LP-5)
    assert "Someone acts first: a shot at Tomoe" in tomoe and "Sanjiro" not in tomoe


def test_SK_A5_detected_both_sides_act_at_once(tmp_path: Path) -> None:
    """Tomoe rolls 6 then 6: 7+ reached (SK-D3), the ambush is detected: both sides act at
    once (SK-A5), no one acts first."""
    result = _play(tmp_path, AMBUSH.replace("TOMOE", "60"), [6, 6])
    assert result.outcome.kind == "detected"
    assert not _acts_first(result)
    en = "\n".join(gm_lines(result, Lang.EN))
    assert "the ambush is detected, both sides act at once" in en


def test_SK_A6_sanjiro_acts_first_with_a_shot() -> None:
    """SK-A6: Tomoe rolls 3 < 9, nothing; Sanjiro, at (37, 37), is sqrt(17² + 43²) = 46.2 cm
    from her (20, 80), beyond a fast move (30 cm): [R] a shot."""
    result = play(load_scenario("sk-a6-ambush"))
    assert _acts_first(result) == [("engine.day.acts_first_shot", "Sanjiro", "Tomoe")]
