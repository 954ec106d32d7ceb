"""DD-7, DD-9, DD-21 and DD-2 played by the d20 round (issue 10), worked out by hand from the
seed text and rules.toml: a d20 attack roll hits when face + bonus >= AC (natural 1 misses,
natural 20 hits, DD-6 [C]); the miss chance of total concealment stops a blow on a d100 of 1
to 50 (DD-8)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from vigile.checks.verdict import Verdict
from vigile.engine.result import GameResult
from vigile.engine.run import play
from vigile.io.i18n import Lang
from vigile.io.views import character_lines, gm_lines, json_lines
from vigile.rulesets import dnd35
from vigile.rulesets.data import shipped
from vigile.scene.loader import load_scenario

DND = shipped("dnd35")

SQUARE = """\
ruleset: dnd35
name: named square
map: {{width: 60, height: 20}}
turns: 1
actors:
  - name: Rogue
    side: attackers
    position: [20, 12]
    bonuses: {{attack: 4}}
  - name: Stalker
    side: defenders
    position: {stalker}
    invisible: true
    senses: [scent]
    bonuses: {{ac: 14, dex: 2}}
plans:
  Rogue:
    - actions: [{{do: attack-square, at: [27, 12]}}]
"""


def square_game(tmp_path: Path, stalker: str, dice: list[int]) -> GameResult:
    path = tmp_path / "square.yaml"
    path.write_text(SQUARE.format(stalker=stalker), encoding="utf-8")
    return play(load_scenario(path), dice_values=dice)


def square_attack(result: GameResult) -> Verdict:
    (event,) = [e for e in result.events if e.message == "engine.d20.attack_square"]
    assert event.verdict is not None and event.target is None
    return event.verdict


def test_DD9_every_miss_reads_the_same_to_the_attacker(tmp_path: Path) -> None:
    """The rogue (visible, +4) names the square of (27, 12), square (5, 2). The stalker senses
    only by scent, which finds no invisible intruder: it checks nothing and never acts.

    - It stands there; d20 15: 15 + 4 = 19 >= AC 14 (its Dex counts: the rogue is visible,
      no DD-21), a hit; d100 30 <= 50: the miss chance stops it. Chance 11/20 (faces 10..20)
      x 1/2 = 11/40.
    - It stands at (42, 12), square (8, 2): the square is wrong; the d20 (15) and the d100
      (30) are rolled all the same; chance 0.
    - It stands there; d20 5: 9 < 14, the attack roll misses; the d100 (80) is still rolled.

    The GM's outcome says which; the rogue's view, text and JSON, is byte for byte the same."""
    there = square_game(tmp_path, "[27, 12]", [15, 30])
    wrong = square_game(tmp_path, "[42, 12]", [15, 30])
    missed = square_game(tmp_path, "[27, 12]", [5, 80])
    a, b, c = square_attack(there), square_attack(wrong), square_attack(missed)
    assert a.chance == Fraction(11, 40) and b.chance == 0 and c.chance == Fraction(11, 40)
    assert a.outcome == "dnd35.attack.miss_chance_struck"
    assert b.outcome == "dnd35.attack.wrong_square_miss"
    assert c.outcome == "dnd35.attack_square.roll_missed"
    assert [d.faces for d in a.roll.dice] == [(15,), (30,)]  # type: ignore[union-attr]
    assert [d.faces for d in b.roll.dice] == [(15,), (30,)]  # type: ignore[union-attr]
    assert not (a.success or b.success or c.success)
    for lang in Lang:
        views = [
            (list(character_lines(r, "Rogue", lang)), list(json_lines(r, lang, "Rogue")))
            for r in (there, wrong, missed)
        ]
        assert views[0] == views[1] == views[2]
        assert len({tuple(gm_lines(r, lang)) for r in (there, wrong, missed)}) == 3


def test_DD9_a_hit_on_the_right_square_lands(tmp_path: Path) -> None:
    """d20 10: 14 >= 14 hits; d100 51 > 50: the blow lands, and the stalker is struck."""
    result = square_game(tmp_path, "[27, 12]", [10, 51])
    verdict = square_attack(result)
    assert verdict.success and verdict.outcome == "dnd35.attack.lands"
    assert verdict.player_outcome == "dnd35.attack.player_lands"
    assert any(e.message == "engine.event.strike" for e in result.events)


def test_DD2_DD9_sneak_attack_does_not_apply_to_the_invisible_one() -> None:
    """attack_square_check, the creature there, invisible: +6 against AC 16, the d20 needs
    10: 11/20, x 1/2 = 11/40; the attacker's sneak attack (+3d6) is noted as not applying
    (DD-2)."""
    verdict = dnd35.attack_square_check(
        DND, square=dnd35.Square.CORRECT, miss_chance=50, attack=6, ac=16, sneak_attack=3
    )
    assert verdict.chance == Fraction(11, 40)
    spared = [n for n in verdict.notes if n.reason == "dnd35.traits.damage.sneak_attack_spared"]
    assert [(n.rule, n.params["dice"]) for n in spared] == [("DD-2", 3)]


STRIKE = """\
ruleset: dnd35
name: strike
map: {{width: 60, height: 20}}
turns: {turns}
actors:
  - name: Sable
    side: attackers
    position: {at}
    invisible: {invisible}
    bonuses: {{attack: 6, sneak_attack: 3, reach: {reach}}}
  - name: Guard
    side: defenders
    position: [30, 12]
    senses: [hearing]
    bonuses: {{ac: 15, dex: 3, attack: 5}}
plans:
  Sable:
{legs}"""


def strike_game(
    tmp_path: Path,
    dice: list[int],
    *,
    at: str = "[26, 12]",
    invisible: str = "true",
    reach: int = 5,
    turns: int = 1,
    legs: str = "    - actions: [{do: strike, target: Guard}]\n",
) -> GameResult:
    path = tmp_path / "strike.yaml"
    path.write_text(
        STRIKE.format(at=at, invisible=invisible, reach=reach, turns=turns, legs=legs),
        encoding="utf-8",
    )
    return play(load_scenario(path), dice_values=dice)


def rolls(result: GameResult) -> list[Verdict]:
    return [e.verdict for e in result.events if e.kind == "attack" and e.verdict is not None]


def learned(result: GameResult) -> list[tuple[int, str, object, object]]:
    return [
        (e.turn, e.message, e.params.get("state"), e.params.get("rule"))
        for e in result.events
        if e.message in ("engine.d20.learns", "engine.d20.lost")
    ]


def test_DD21_the_invisible_rogue_gets_2_the_guard_loses_dex_and_sneak_attack_applies(
    tmp_path: Path,
) -> None:
    """Sable, invisible, strikes from the next square (26, 12) -> (30, 12), squares (5, 2)
    and (6, 2): +6 +2 = 8 against AC 15 - 3 (Dex lost) = 12, the d20 needs 4: 17/20; face 4
    hits (12). Denied its Dexterity bonus, the guard takes her sneak attack +3d6 (DD-21 [C]).
    Struck from the next square, it knows her square (DD-7) and strikes back: Sable has no
    AC, so only the d100: 10 <= 50, stopped (DD-8)."""
    result = strike_game(tmp_path, [4, 10])
    blow, back = rolls(result)
    assert (blow.difficulty, blow.die_bonus, blow.chance) == (12, 8, Fraction(17, 20))
    assert blow.success and blow.figures.result == 12
    applies = [n for n in blow.notes if n.reason == "dnd35.traits.damage.sneak_attack_applies"]
    assert [(n.rule, n.params["dice"]) for n in applies] == [("DD-21", 3)]
    assert back.check == "attack" and back.chance == Fraction(1, 2) and not back.success
    assert learned(result) == [(1, "engine.d20.learns", "location", "DD-7")]


def test_DD21_visible_she_gains_nothing_and_no_sneak_attack(tmp_path: Path) -> None:
    """Visible: +6 against AC 15, the d20 needs 9: 12/20 = 3/5; no DD-21 modifier, no sneak
    attack note. The guard sees her: no miss chance, it catches her without a die."""
    result = strike_game(tmp_path, [9], invisible="false")
    blow = rolls(result)[0]
    assert blow.chance == Fraction(3, 5) and blow.success
    assert "DD-21" not in {m.rule for m in blow.modifiers} | {n.rule for n in blow.notes}


def test_DD7_a_reach_over_5_ft_gives_only_the_direction(tmp_path: Path) -> None:
    """Sable has a 10-ft reach and strikes from (21, 12), square (4, 2), two squares away:
    +8 against 12, face 4 hits. The guard learns only her direction (DD-7). It listens: she
    fought this round, DC 0 (DD-5), 9 ft away (no whole 10 ft); d20 1 + 0 = 1 >= 0: heard,
    the direction again (pinpointing needs 20). It walks to within 4.5 ft of where she struck
    from, (25.5, 12), and gropes (DD-6): touch d20 1 always misses, no d100; nothing found."""
    result = strike_game(tmp_path, [4, 1, 1], at="[21, 12]", reach=10)
    assert learned(result) == [(1, "engine.d20.learns", "direction", "DD-7")]
    reach = next(e for e in result.events if e.message == "engine.d20.learns")
    assert reach.params["rule"] == "DD-7"
    grope = rolls(result)[-1]
    assert grope.check == "grope" and not grope.success


def test_DD7_the_square_is_lost_as_soon_as_she_moves(tmp_path: Path) -> None:
    """Round 1 as above at reach 5: face 4 hits; the guard knows her square and its blow's
    d100 10 stops. Round 2 she walks away at half speed (15 ft, to (11, 12)): the guard loses
    her square, keeping only her presence (DD-7 [R]). It listens: her Move Silently is her
    Dex 0 (d20 1) at half speed, +1 at 19 ft: DC 2; its Listen 0 + d20 1 = 1: nothing. It
    walks to where it knew her, (21.5, 12) [from (25.5, 12)], and gropes: touch d20 1."""
    legs = "    - actions: [{do: strike, target: Guard}]\n    - {to: [11, 12], speed: half}\n"
    result = strike_game(tmp_path, [4, 10, 1, 1, 1], turns=2, legs=legs)
    assert learned(result) == [
        (1, "engine.d20.learns", "location", "DD-7"),
        (2, "engine.d20.lost", "presence", "DD-7"),
    ]
    guard = next(w for w in result.walkers if w.name == "Guard")
    assert guard.aware_of("Sable").value == "presence"
