"""What gives an invisible intruder away in the d20 round (issue 10): flour (DD-10 [R]),
footprints on soft ground (DD-11 [R]), a carried light (DD-16 [R]), casting and ending
invisibility (DD-1 [R]), and the GM's note of senses that cannot reach (DD-17). Worked out by
hand from the seed text and rules.toml ([flour] range 10 ft, burst 5 ft, rounds 0: until it
falls; [objects] 60 ft; [tracks] 30 ft)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from vigile.awareness.ladder import AwarenessState
from vigile.engine.result import GameResult
from vigile.engine.run import play
from vigile.io.i18n import Lang
from vigile.io.views import character_lines, gm_lines
from vigile.rulesets.data import shipped
from vigile.rulesets.dnd35 import traits
from vigile.scene.house import scenario_rules
from vigile.scene.loader import load_scenario

DND = shipped("dnd35")

SCENE = """\
ruleset: dnd35
name: signs
time: {time}
map: {{width: 80, height: 20}}
turns: {turns}
{extra}
actors:
  - name: Wisp
    side: attackers
    position: [0, 10]
    move: 30
    {wisp}
    bonuses: {{dex: 0{wisp_bonuses}}}
  - name: Baker
    side: defenders
    position: {baker}
    senses: {senses}
    bonuses: {{spot: 0, listen: 0{baker_bonuses}}}
plans:
  Wisp:
{legs}"""


def game(
    tmp_path: Path,
    dice: list[int],
    *,
    time: str = "night",
    turns: int = 1,
    extra: str = "",
    wisp: str = "invisible: true",
    wisp_bonuses: str = "",
    baker: str = "[25, 10]",
    senses: str = "[sight, hearing]",
    baker_bonuses: str = "",
    legs: str = "    - {to: [15, 10], speed: half}\n",
) -> GameResult:
    path = tmp_path / "signs.yaml"
    path.write_text(
        SCENE.format(
            time=time,
            turns=turns,
            extra=extra,
            wisp=wisp,
            wisp_bonuses=wisp_bonuses,
            baker=baker,
            senses=senses,
            baker_bonuses=baker_bonuses,
            legs=legs,
        ),
        encoding="utf-8",
    )
    result = play(load_scenario(path), dice_values=dice)
    for lang in Lang:
        list(gm_lines(result, lang))
        for name in ("Wisp", "Baker"):
            list(character_lines(result, name, lang))
    return result


def learned(result: GameResult) -> list[tuple[int, str, object, object]]:
    keys = ("engine.d20.learns", "engine.d20.lost", "engine.d20.vanishes")
    return [
        (e.turn, e.message, e.params.get("state"), e.params.get("rule"))
        for e in result.events
        if e.message in keys
    ]


def test_DD10_flour_within_10_ft_covers_within_5_ft() -> None:
    """[flour] range_ft 10, burst_ft 5: thrown 8 ft at a point 4 ft from it, it covers, as long
    as it stays on it (rounds 0, DD-10 [R]); with a house rule of 3 rounds, for 3 rounds;
    thrown 12 ft, out of range; 6 ft from it, missed."""
    assert traits.flour_covers(DND, throw_ft=8, miss_ft=4)[0]
    until = traits.flour_covers(DND, throw_ft=8, miss_ft=4)[1]
    assert until.reason == "dnd35.traits.flour.covers_until_it_falls" and not until.params
    three = scenario_rules("dnd35", {"flour": {"rounds": 3}})
    assert traits.flour_covers(three, throw_ft=8, miss_ft=4)[1].params == {"rounds": 3}
    assert traits.flour_covers(DND, throw_ft=12, miss_ft=0)[1].reason.endswith("out_of_range")
    assert traits.flour_covers(DND, throw_ft=8, miss_ft=6)[1].reason.endswith("missed")


FLOUR_LEGS = "    - {to: [22, 10], speed: fast}\n    - {to: [20, 14], speed: half}\n"
"""Wisp runs to the baker's side, then slips 4.5 ft aside within the same square, (4, 2)."""


def test_DD10_a_baker_throws_flour_at_the_square_he_lost_and_then_knows_hers(
    tmp_path: Path,
) -> None:
    """Round 1: Wisp runs 22 ft (full speed) to (22, 10), 3 ft from the baker at (25, 10).
    Spot: DC 20, 0 − 0 (3 ft) + d20 1: nothing (DD-3). Listen: her Move Silently, Dex 0 + d20
    1 − 4 (full speed) + 0 (3 ft): DC −3; 0 + d20 10 = 10 ≥ −3: heard, only her direction
    (pinpoint needs 17, DD-5): a bearing of 180°. With a direction he throws no flour (he would
    not know where: [R]); he gropes the two squares ahead on it, (4, 2) and (4, 1) ([R]): she
    is in (4, 2); touch d20 15 ≥ touch AC 10 (11/20), d% 70 > 50: found (DD-6), the alarm.
    Round 2: she walks 4.5 ft at half speed to (20, 14): the groped square is lost (DD-6),
    presence; he still knows the square (4, 2) where he found her. Spot d20 1 < 20; Move
    Silently 20 + 0 > Listen 0 + d20 1. He throws his flour at that square's centre (22.5,
    12.5), 3.5 ft away (≤ 10): she is 2.9 ft from it (≤ 5), covered: he sees where she is
    (DD-10 [R]). Round 3 she stands still; he attacks her square: d100 60 > 50, the blow
    lands (DD-8): a hit, which catches nobody (LP-7 [R]: no hit points, one blow does not
    end the encounter): the game ends at round 3 on the alarm of round 1."""
    result = game(
        tmp_path,
        [1, 1, 10, 15, 70, 1, 20, 1, 60],
        turns=3,
        baker_bonuses=", flour: 1",
        legs=FLOUR_LEGS,
    )
    flour = [e for e in result.events if e.message == "dnd35.round.flour"]
    assert [(e.turn, e.at) for e in flour] == [(2, (22.5, 12.5))]
    assert learned(result) == [
        (1, "engine.d20.learns", "direction", "DD-5"),
        (1, "engine.d20.learns", "location", "DD-6"),
        (2, "engine.d20.lost", "presence", "DD-6"),
        (2, "engine.d20.learns", "location", "DD-10"),
    ]
    attack = [e for e in result.events if e.kind == "attack" and e.verdict is not None]
    assert attack[-1].verdict is not None and attack[-1].verdict.chance == Fraction(1, 2)
    assert [e.turn for e in result.events if e.message == "engine.d20.hits"] == [3]
    assert result.outcome.kind == "alarm" and result.outcome.turn == 1


def test_DD10_the_flour_shows_her_constantly_while_it_stays_on(tmp_path: Path) -> None:
    """The seed: flour lets one know "constamment" where the invisible thing is, "jusqu'à ce
    que la farine tombe". As above, but the baker cannot hit her (AC 40: his d20 2 + 0 misses).
    [flour] rounds 0: no round count makes it fall (DD-10 [R]) and she never enters a liquid:
    thrown in round 2, it still shows her in rounds 3, 4, 5 and 6, so he attacks her square
    each of those rounds (one attack roll d20 each, 2: four misses) and it never falls. Dice:
    rounds 1 and 2 as above (8), then 2, 2, 2, 2."""
    result = game(
        tmp_path,
        [1, 1, 10, 15, 70, 1, 20, 1, 2, 2, 2, 2],
        turns=6,
        baker_bonuses=", flour: 1",
        wisp_bonuses=", ac: 40",
        legs=FLOUR_LEGS,
    )
    assert not [e for e in result.events if e.message == "dnd35.round.flour_falls"]
    attacks = [e.turn for e in result.events if e.kind == "attack" and e.actor == "Baker"]
    assert attacks == [1, 3, 4, 5, 6]  # round 1: his grope (DD-6); 3 to 6: the flour shows her
    baker = next(w for w in result.walkers if w.name == "Baker")
    assert baker.aware_of("Wisp") is AwarenessState.LOCATION


def test_DD10_a_house_rule_makes_the_flour_fall_after_3_rounds(tmp_path: Path) -> None:
    """House rule ``flour.rounds = 3`` (DD-10 [R]): the flour thrown in round 2 shows her in
    rounds 2, 3 and 4, then falls at the end of round 4. Dice: rounds 1 and 2 as above; then
    each round the attack roll's d20, 2."""
    result = game(
        tmp_path,
        [1, 1, 10, 15, 70, 1, 20, 1, 2, 2],
        turns=4,
        extra="house_rules: {flour: {rounds: 3}}",
        baker_bonuses=", flour: 1",
        wisp_bonuses=", ac: 40",
        legs=FLOUR_LEGS,
    )
    falls = [e for e in result.events if e.message == "dnd35.round.flour_falls"]
    assert [(e.turn, e.params["rule"], e.perceived_by) for e in falls] == [
        (4, "DD-10", frozenset())
    ]


def test_DD11_footprints_on_soft_ground_show_her_square(tmp_path: Path) -> None:
    """The ground is soft: moving to (15, 10), 10 ft from the baker (within 30 ft), she leaves
    footprints, which may betray her: his Spot d20 11 + 0 - 1 (one whole 10 ft) = 10 against
    [tracks] spot_dc 10: seen, he knows her square (DD-11 [R]); he closes in to (19.5, 10) and
    strikes: d100 10 stops it (DD-8)."""
    extra = (
        "surfaces:\n  - {kind: soft-ground, name: mud, "
        "points: [[0, 0], [40, 0], [40, 20], [0, 20]]}"
    )
    result = game(tmp_path, [11, 10], extra=extra)
    assert learned(result) == [(1, "engine.d20.learns", "location", "DD-11")]
    seen = next(e for e in result.events if e.message.startswith("dnd35.round.footprints"))
    assert seen.actor == "Baker" and seen.message == "dnd35.round.footprints_seen"
    assert seen.verdict is not None and seen.verdict.figures.result == 10


def test_DD16_a_lit_light_gives_away_its_invisible_bearer_at_night(tmp_path: Path) -> None:
    """Wisp carries a lit lantern (15 ft) and stays still 40 ft from the baker: beyond Spot's
    30 ft (DD-3) and silent. At night the light shows her square (DD-16 [R]), no die; the
    baker closes in 30 ft, still not adjacent: no blow. By day: nothing at all."""
    still = "    - {wait: 0}\n"
    night = game(tmp_path, [], baker="[40, 10]", wisp_bonuses=", light: 15", legs=still)
    assert learned(night) == [(1, "engine.d20.learns", "location", "DD-16")]
    day = game(tmp_path, [], time="day", baker="[40, 10]", wisp_bonuses=", light: 15", legs=still)
    assert learned(day) == [] and day.outcome.unseen


def test_DD1_cast_invisibility_before_the_baker_keeps_only_the_square(tmp_path: Path) -> None:
    """Round 1: Wisp, visible, stands in the open 30 ft away: no Hide allowed (DD-20), the
    baker sees her. Round 2 she casts invisibility: he keeps the square she vanished in
    (DD-1 [R]). Round 3 she walks 15 ft away at half speed: the square is lost, her presence
    stays (DD-1 [R]). The baker (sight only, 60 ft away) walks only 5 ft a round: he never
    reaches her, rolls nothing (no Spot beyond 30 ft, DD-3), and no die is asked."""
    legs = "    - {wait: 1, actions: [{do: cast-invisibility}]}\n    - {to: [0, 0], speed: half}\n"
    result = game(
        tmp_path,
        [],
        turns=3,
        wisp="invisible: false",
        baker="[60, 10]\n    move: 5",
        senses="[sight]",
        legs=legs,
    )
    assert [(t, m, s) for t, m, s, _ in learned(result)] == [
        (1, "engine.d20.learns", "observed"),
        (2, "engine.d20.vanishes", "location"),
        (3, "engine.d20.lost", "presence"),
    ]
    assert [r for *_, r in learned(result)] == ["DD-20", "DD-1", "DD-1"]
    baker = next(w for w in result.walkers if w.name == "Baker")
    assert baker.aware_of("Wisp") is AwarenessState.PRESENCE


def test_DD17_the_gm_is_told_that_scent_cannot_reach_an_ethereal_one(tmp_path: Path) -> None:
    """An ethereal Wisp 10 ft from a baker with sight and scent: no sense reaches her, no
    check is rolled; one line for the GM alone cites DD-17, once, and the baker's own view
    does not have it."""
    result = game(tmp_path, [], wisp="ethereal: true", senses="[sight, scent]", turns=2)
    notes = [e for e in result.events if e.message == "dnd35.round.beyond_senses"]
    assert [(e.params["rule"], e.known_to("Baker"), e.known_to("Wisp")) for e in notes] == [
        ("DD-17", False, False)
    ]
    assert not any("beyond" in line for line in character_lines(result, "Baker", Lang.EN))
