"""LP-7 in the d20 round: a blow is rolled against ``ac`` when the scenario gives one, else the
GM says hit or miss (``blow.hits_without_ac`` [R]: simulation and plans take it as a hit); hit
points are optional (``hp``, a fixed ``damage`` a hit); one blow ends the encounter only where
the scenario says so (``blow.ends_encounter`` [R], false in the shipped rules).

Worked by hand from RULES.md and the shipped rules.toml. The scene: an invisible ghost walks
from (0, 10) to (15, 10) (half of its 30 ft) and stops; the guard at (30, 10) has only scent,
which locates a creature within 30 ft with no roll (DD-13; no sight, no hearing: no Spot, no
Listen, no Hide or Move Silently asked). Located in round 1 (15 ft), the guard raises the alarm
(round 1), closes in to (19.5, 10), the next square, and strikes it: the attack roll against its
``ac`` (d20 + attack, DD-21: a natural 1 misses, a natural 20 hits, as DD-6), then on a hit the
miss chance of total concealment, 50% (DD-8): the d100 must exceed 50. Each later round the
ghost stands still in the same square: still located, the guard strikes again.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from vigile.dice.source import GivenFaces
from vigile.engine.result import GameResult
from vigile.engine.run import new_game, play
from vigile.games.dnd35.kernel.tables import unsupported
from vigile.games.starfinder.kernel.tables import unsupported as sf_unsupported
from vigile.io.i18n import Lang
from vigile.io.views import character_lines, gm_lines
from vigile.scene.loader import load_scenario
from vigile.scene.model import Scenario

SCENE = """\
ruleset: {ruleset}
name: lp7 blows
map: {{width: 60, height: 20}}
turns: {turns}
{house}actors:
  - name: Ghost
    side: attackers
    position: [0, 10]
    move: 30
    invisible: {invisible}
    bonuses: {ghost}
  - name: Guard
    side: defenders
    position: [30, 10]
    senses: [{senses}]
    bonuses: {guard}
plans:
  Ghost:
{legs}"""
WALK = "    - {to: [15, 10], speed: half}\n"
STRIKE = "    - {to: [27, 10], speed: fast, actions: [{do: strike, target: Guard}]}\n"


def scene(
    tmp_path: Path,
    *,
    ruleset: str = "dnd35",
    turns: int = 1,
    ghost: str = "{ac: 17}",
    guard: str = "{attack: 5}",
    house: str = "",
    legs: str = WALK,
    invisible: str = "true",
    senses: str = "scent",
) -> Scenario:
    path = tmp_path / "lp7.yaml"
    path.write_text(
        SCENE.format(
            ruleset=ruleset,
            turns=turns,
            house=f"house_rules: {house}\n" if house else "",
            ghost=ghost,
            guard=guard,
            legs=legs,
            invisible=invisible,
            senses=senses,
        ),
        encoding="utf-8",
    )
    return load_scenario(path)


def messages(result: GameResult) -> list[tuple[int, str]]:
    return [(e.turn, e.message) for e in result.events if e.message.startswith("engine.d20.")]


def renders(result: GameResult) -> None:
    for lang in (Lang.EN, Lang.FR):
        list(gm_lines(result, lang))
        for who in ("Ghost", "Guard"):
            list(character_lines(result, who, lang))


def test_LP7_DD21_attack_plus_5_against_ac_17_d20_11_misses(tmp_path: Path) -> None:
    """d20 11 + 5 = 16 < AC 17: a miss; no miss chance is rolled after a miss (one die asked).
    Nothing hits: the game ends at its limit, round 1, on the alarm of round 1."""
    faces = GivenFaces([11])
    result = new_game(scene(tmp_path), faces=faces).play()
    (roll,) = [e.verdict for e in result.events if e.kind == "attack" and e.verdict]
    assert roll.check == "attack_roll" and roll.figures.result == 16 and roll.difficulty == 17
    assert not roll.success
    assert "engine.d20.hits" not in [m for _, m in messages(result)]
    assert (result.outcome.kind, result.outcome.turn, result.outcome.by) == ("alarm", 1, ("Guard",))
    assert faces.used == 1


def test_LP7_DD21_DD8_d20_12_hits_then_the_miss_chance(tmp_path: Path) -> None:
    """d20 12 + 5 = 17 ≥ 17: a hit; then the 50% miss chance on the located invisible ghost
    (DD-8): d100 60 > 50, the blow lands: "Guard hits Ghost". No hit points and one blow does
    not end the encounter (LP-7 [R]): the ghost is not caught, the alarm ends the game."""
    result = play(scene(tmp_path), dice_values=[12, 60])
    roll, miss = [e.verdict for e in result.events if e.kind == "attack" and e.verdict]
    assert roll.check == "attack_roll" and roll.figures.result == 17 and roll.success
    assert miss.check == "attack" and miss.success
    assert (1, "engine.d20.hits") in messages(result)
    assert (1, "engine.d20.caught") not in messages(result)
    assert next(w for w in result.walkers if w.name == "Ghost").alive
    assert result.outcome.kind == "alarm"
    renders(result)


def test_LP7_DD8_a_hit_the_miss_chance_stops_is_no_hit(tmp_path: Path) -> None:
    """d20 12 hits AC 17, but d100 50 ≤ 50: the miss chance stops the blow (DD-8)."""
    result = play(scene(tmp_path), dice_values=[12, 50])
    assert "engine.d20.hits" not in [m for _, m in messages(result)]


def test_LP7_hp_10_damage_6_two_hits_bring_it_to_minus_2_down(tmp_path: Path) -> None:
    """hp 10, damage 6 a hit. Round 1: d20 12 (17 ≥ 17), d100 60 > 50: 10 − 6 = 4 hit points
    left. Round 2 (the ghost stands still, still located): d20 12, d100 60: 4 − 6 = −2 ≤ 0,
    down: caught, the last intruder, the game ends ``detected`` in round 2 by the guard."""
    result = play(
        scene(tmp_path, turns=3, ghost="{ac: 17, hp: 10}", guard="{attack: 5, damage: 6}"),
        dice_values=[12, 60, 12, 60],
    )
    wounds = [e for e in result.events if e.message == "engine.d20.wounds"]
    assert [(e.turn, e.params["damage"], e.params["hp"]) for e in wounds] == [(1, 6, 4), (2, 6, -2)]
    assert (2, "engine.d20.caught") in messages(result)
    assert (2, "engine.d20.all_caught") in messages(result)
    assert (result.outcome.kind, result.outcome.turn, result.outcome.by) == (
        "detected",
        2,
        ("Guard",),
    )
    renders(result)


def test_LP7_hits_without_ac_a_blow_past_the_miss_chance_hits_and_the_game_goes_on(
    tmp_path: Path,
) -> None:
    """No ``ac``: no attack roll; ``blow.hits_without_ac`` true takes the GM's word as a hit.
    Round 1: d100 60 > 50: a hit; round 2: d100 70 > 50: a hit. Neither catches the ghost
    (``blow.ends_encounter`` false, no hit points): the game reaches its limit, round 2, and
    ends on the alarm of round 1."""
    result = play(scene(tmp_path, turns=2, ghost="{}"), dice_values=[60, 70])
    rolled = [e.verdict.check for e in result.events if e.kind == "attack" and e.verdict]
    assert rolled == ["attack", "attack"]  # the two miss chances, no attack roll
    assert [t for t, m in messages(result) if m == "engine.d20.hits"] == [1, 2]
    assert (result.outcome.kind, result.outcome.turn) == ("alarm", 1)


def test_LP7_a_house_rule_says_a_blow_without_ac_misses(tmp_path: Path) -> None:
    """``blow.hits_without_ac`` false: a blow at a creature without ``ac`` never lands, and no
    miss chance is rolled for it: no die at all is asked."""
    game = new_game(
        scene(tmp_path, ghost="{}", house="{blow: {hits_without_ac: false}}"),
        faces=GivenFaces([]),
    )
    result = game.play()
    assert not [e for e in result.events if e.kind == "attack"]
    assert result.outcome.kind == "alarm"


STARFINDER_SEEN = {
    "ruleset": "starfinder",
    "invisible": "false",
    "senses": "sight",
    "ghost": "{ac: 17, stealth: 0}",
}
"""Starfinder: a visible ghost in the open may not hide (SF-2: no cover, no concealment): the
guard observes it with no die, and strikes it with no miss chance."""


@pytest.mark.parametrize(
    ("where", "dice"), [({}, [12, 60]), (STARFINDER_SEEN, [12])], ids=["dnd35", "starfinder"]
)
def test_LP7_ends_encounter_one_hit_ends_it_as_before(
    tmp_path: Path, where: dict[str, str], dice: list[int]
) -> None:
    """``blow.ends_encounter`` true (house rules): the one hit catches the ghost. D&D 3.5: d20
    12 + 5 = 17 ≥ 17, d100 60 > 50 (DD-8); Starfinder, the ghost seen: d20 12 + 5 = 17 ≥ 17,
    no miss chance (SF-8 is for a located creature). Caught, the last intruder: ``detected``
    in round 1."""
    result = play(
        scene(tmp_path, house="{blow: {ends_encounter: true}}", **where),  # type: ignore[arg-type]
        dice_values=dice,
    )
    assert (1, "engine.d20.caught") in messages(result)
    assert (1, "engine.d20.hits") not in messages(result)
    assert (result.outcome.kind, result.outcome.turn) == ("detected", 1)


def test_LP7_an_intruders_hit_takes_a_defenders_hit_points(tmp_path: Path) -> None:
    """The ghost runs to (27, 10), next to the guard (AC 15, hp 5), and strikes: invisible to
    a guard who can't see it, +2 (DD-21): 2 + 2 = 4, d20 11 + 4 = 15 ≥ 15, a hit; damage 5:
    5 − 5 = 0, down. Struck first, the guard knew its square (DD-7) and raised the alarm;
    down, it strikes nothing: no other die, the alarm of round 1 ends the game."""
    result = play(
        scene(
            tmp_path,
            ghost="{attack: 2, damage: 5}",
            guard="{ac: 15, hp: 5}",
            legs=STRIKE,
        ),
        dice_values=[11],
    )
    wounds = [e for e in result.events if e.message == "engine.d20.wounds"]
    assert [(e.actor, e.params["hp"]) for e in wounds] == [("Ghost", 0)]
    assert (1, "engine.d20.down") in messages(result)
    assert not next(w for w in result.walkers if w.name == "Guard").alive
    assert (result.outcome.kind, result.outcome.turn) == ("alarm", 1)
    renders(result)


def test_LP7_the_kernels_leave_hit_points_to_the_engine(tmp_path: Path) -> None:
    """A scenario with ``hp`` is played by the engine: each kernel says why it declines it; the
    same scenario without ``hp`` is the kernel's."""
    with_hp = scene(tmp_path, ghost="{ac: 17, hp: 10}")
    assert "LP-7" in (unsupported(with_hp) or "")
    assert unsupported(scene(tmp_path)) is None
    sf = scene(tmp_path, ruleset="starfinder", ghost="{ac: 17, hp: 10}")
    assert "LP-7" in (sf_unsupported(sf) or "")


def test_LP7_starfinder_without_the_house_rule_one_hit_does_not_end_it(tmp_path: Path) -> None:
    """The same Starfinder hit, d20 12 + 5 = 17 ≥ 17, on the shipped rules: "Guard hits Ghost",
    not caught; the alarm of round 1 ends the game."""
    result = play(scene(tmp_path, **STARFINDER_SEEN), dice_values=[12])  # type: ignore[arg-type]
    assert (1, "engine.d20.hits") in messages(result)
    assert (result.outcome.kind, result.outcome.turn) == ("alarm", 1)
