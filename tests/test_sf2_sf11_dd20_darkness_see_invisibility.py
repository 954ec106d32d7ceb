"""Light and darkness, darkvision, and see invisibility in Starfinder (issue 10), in the check
and in the d20 round. Worked out by hand from the seed texts, RULES.md and rules.toml:

- [C] both games' vision and light: at night, out of every light, a creature has total
  concealment against an observer without darkvision (``[light] darkvision_ft = 60``), and
  may hide there (SF-2; DD-20); [R] a night scenario without any light is lit throughout.
- Starfinder: one Stealth roll is the DC of every observer's Perception, ties to the observer
  (SF-4); +40 invisible or in total concealment and immobile (SF-7). Against an observer
  with see invisibility the invisibility counts for nothing, against one whose darkvision
  reaches the hider the darkness counts for nothing; with nothing left that observer sees the
  hider (SF-2) and no die is rolled for it.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from vigile.awareness.ladder import AwarenessState
from vigile.engine.result import GameResult
from vigile.engine.run import play
from vigile.io.i18n import Lang
from vigile.io.views import character_lines, gm_lines
from vigile.rulesets.data import shipped
from vigile.rulesets.senses import Sense, dark_at, dark_for, sees_in_dark
from vigile.rulesets.starfinder import Observer, hide_check
from vigile.scene.loader import load_scenario

SF = shipped("starfinder")
DND = shipped("dnd35")


# --- the ruling ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("night", "lit", "any_light", "dark_without_lights", "dark"),
    [
        (False, False, True, False, False),  # by day: never dark
        (True, True, True, False, False),  # a light reaches it
        (True, False, True, False, True),  # night, lights elsewhere: dark
        (True, False, False, False, False),  # [R] no light placed: lit throughout
        (True, False, False, True, True),  # unless the house rule says dark
    ],
)
def test_dark_at(
    night: bool, lit: bool, any_light: bool, dark_without_lights: bool, dark: bool
) -> None:
    assert (
        dark_at(night=night, lit=lit, any_light=any_light, dark_without_lights=dark_without_lights)
        is dark
    )


def test_darkvision_reaches_60_ft() -> None:
    """[light] darkvision_ft = 60: 60 ft is within, 61 beyond; no darkvision, never."""
    senses = (Sense.SIGHT, Sense.DARKVISION)
    assert sees_in_dark(senses, distance=60, darkvision_range=60)
    assert not sees_in_dark(senses, distance=61, darkvision_range=60)
    assert not sees_in_dark((Sense.SIGHT,), distance=5, darkvision_range=60)
    assert dark_for(DND, night=True, lit=False, any_light=True, senses=senses, distance=61)
    assert not dark_for(DND, night=True, lit=False, any_light=True, senses=senses, distance=60)


# --- the Starfinder check ------------------------------------------------------------------------


def test_SF11_see_invisibility_leaves_the_invisible_hider_in_plain_sight() -> None:
    """Invisible, no cover: against the one observer with see invisibility nothing is left,
    so no Stealth check (SF-2): it sees the hider, chance 0."""
    verdict = hide_check(SF, stealth=8, observers=[Observer(5, see_invisible=True)], invisible=True)
    assert verdict.impossible and verdict.members[0].state is AwarenessState.OBSERVED
    assert {line.rule for line in verdict.notes} == {"SF-2", "SF-11"}


def test_SF11_see_invisibility_negates_the_40_behind_cover() -> None:
    """Invisible and immobile behind cover: +8 + 40 = +48. Observer 1 (+5) has see
    invisibility: the +40 counts for nothing against it, a -40 of its own: +5 against +8,
    a = -3: it misses on (20 - 3)(21 - 3)/2 = 153 pairs out of 400... no: it notices on 153,
    misses on 400 - 153 = 247. Observer 2 (+7), plain, against +48: never. Hidden from both:
    247/400. Observer 1's success observes (its state), observer 2's only locates (SF-5)."""
    verdict = hide_check(
        SF,
        stealth=8,
        observers=[Observer(5, see_invisible=True), Observer(7)],
        invisible=True,
        immobile=True,
        cover=True,
    )
    assert verdict.chance == Fraction(247, 400)
    one, two = verdict.members
    assert one.chance == Fraction(153, 400) and one.state is AwarenessState.OBSERVED
    assert [(m.value, m.rule) for m in one.modifiers] == [(-40, "SF-11")]
    assert two.chance == 0 and two.state is AwarenessState.LOCATION
    # brute force over the 20 x 20 x 20 faces: hidden when both miss the one result
    hidden = sum(
        1
        for s in range(1, 21)
        for a in range(1, 21)
        for b in range(1, 21)
        if a + 5 + 40 < s + 48 and b + 7 < s + 48
    )
    assert verdict.chance == Fraction(hidden, 8000)


def test_SF2_darkness_lets_the_visible_hide_but_not_from_darkvision() -> None:
    """Visible, in darkness, immobile, no cover: total concealment (+40, SF-7) against
    observer 2 (+7), none against observer 1 (+5) whose darkvision reaches: nothing left
    against it, it sees the hider (no die), so hidden from all with chance 0. GM's dice:
    Stealth 10 (10 + 48 = 58), observer 2's 20 (27 < 58): observer 2 does not notice."""
    verdict = hide_check(
        SF,
        stealth=8,
        observers=[Observer(5, darkvision=True), Observer(7)],
        immobile=True,
        darkness=True,
    )
    assert verdict.chance == 0
    assert verdict.members[0].automatic and verdict.members[1].chance == 0
    assert "SF-2" in {line.rule for line in verdict.notes}


# --- the d20 round -------------------------------------------------------------------------------

SCENE = """\
ruleset: {ruleset}
name: darkness
time: {time}
map: {{width: 80, height: 20}}
turns: 1
{lights}
actors:
  - name: Vex
    side: attackers
    position: [5, 10]
    {vex}
  - name: Ann
    side: defenders
    position: [25, 10]
    senses: {ann}
    bonuses: {{{bonuses}}}
  - name: Bo
    side: defenders
    position: [35, 10]
    senses: [sight, darkvision, hearing]
    bonuses: {{{bonuses}}}
"""

LAMP = "lights:\n  - {kind: lantern, at: [75, 10], radius: 5}"


def game(
    tmp_path: Path,
    dice: list[int],
    *,
    ruleset: str = "starfinder",
    time: str = "night",
    lights: str = LAMP,
    vex: str = "bonuses: {stealth: 10}",
    ann: str = "[sight, hearing]",
    bonuses: str = "perception: 4",
) -> GameResult:
    path = tmp_path / "dark.yaml"
    path.write_text(
        SCENE.format(ruleset=ruleset, time=time, lights=lights, vex=vex, ann=ann, bonuses=bonuses),
        encoding="utf-8",
    )
    result = play(load_scenario(path), dice_values=dice)
    for lang in Lang:
        list(gm_lines(result, lang))
        for name in ("Vex", "Ann", "Bo"):
            list(character_lines(result, name, lang))
    return result


def learned(result: GameResult) -> list[tuple[str | None, object, object]]:
    return [
        (e.actor, e.params.get("state"), e.params.get("rule"))
        for e in result.events
        if e.message == "engine.d20.learns"
    ]


def test_SF2_in_the_dark_only_darkvision_sees_her(tmp_path: Path) -> None:
    """Night; the one lamp (radius 5 ft at x = 75) is 70 ft from Vex: she stands in darkness.
    Vex (Stealth +10, visible, immobile, no cover): against Ann (no darkvision) total
    concealment, +40: 10 + 10 + 40 = 60 against Ann's d20 5 + 4 = 9: Ann misses. Bo's
    darkvision reaches her (30 ft <= 60): nothing hides her from him, he sees her (SF-2),
    no die. The GM's dice: [10, 5]."""
    result = game(tmp_path, [10, 5])
    assert learned(result)[0] == ("Bo", "observed", "SF-2")
    assert ("Ann", "observed", "SF-2") not in learned(result)
    (stealth,) = [e.verdict for e in result.events if e.message == "starfinder.round.stealth"]
    assert stealth is not None and stealth.chance == 0
    assert [m.value for m in stealth.modifiers] == [10, 40]


def test_SF2_a_night_without_lights_is_lit(tmp_path: Path) -> None:
    """[R] No light placed: lit throughout. Visible, no cover: no Stealth check (SF-2), both
    see her, no die at all."""
    result = game(tmp_path, [], lights="")
    assert {(a, s) for a, s, _ in learned(result)} >= {("Ann", "observed"), ("Bo", "observed")}


def test_SF11_see_invisibility_in_play(tmp_path: Path) -> None:
    """By day, Vex invisible and immobile, no cover: Ann sees invisible creatures, so nothing
    hides Vex from her and she sees her (SF-2, no die); Bo, +4 against Vex's 10 + 10 + 40 =
    60: d20 5, 9, he misses. The GM's dice: [10, 5]."""
    result = game(
        tmp_path,
        [10, 5],
        time="day",
        lights="",
        vex="invisible: true\n    bonuses: {stealth: 10}",
        ann="[sight, hearing, see-invisible]",
    )
    assert learned(result)[0] == ("Ann", "observed", "SF-2")
    assert all(actor != "Bo" for actor, _, _ in learned(result)[:1])


def test_DD20_in_the_dark_a_guard_without_darkvision_cannot_see(tmp_path: Path) -> None:
    """D&D 3.5, night, the lamp 70 ft away: Vex (visible, no cover) stands in darkness. Bo's
    darkvision reaches her: no Hide without cover, he sees her (DD-20), no die. Ann has no
    darkvision: she cannot see her (no Spot: she is blinded to her), and Vex neither moved
    nor made noise: no Listen. The GM is told once that Vex is in the dark for Ann [DD-20]."""
    result = game(
        tmp_path,
        [],
        ruleset="dnd35",
        vex="bonuses: {hide: 10}",
        bonuses="spot: 4, listen: 4",
    )
    assert learned(result)[0] == ("Bo", "observed", "DD-20")
    dark = [e for e in result.events if e.message == "dnd35.round.dark"]
    assert [(e.params["actor"], e.params["rule"]) for e in dark] == [("Ann", "DD-20")]


def test_DD20_by_day_both_see_her(tmp_path: Path) -> None:
    result = game(
        tmp_path,
        [],
        ruleset="dnd35",
        time="day",
        vex="bonuses: {hide: 10}",
        bonuses="spot: 4, listen: 4",
    )
    assert {(a, s) for a, s, _ in learned(result)} >= {("Ann", "observed"), ("Bo", "observed")}
    assert not [e for e in result.events if e.message == "dnd35.round.dark"]
