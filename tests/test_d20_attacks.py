"""Attack rolls against AC in the d20 round (issue 10): DD-21 and DD-2 in D&D 3.5, SF-9 in
Starfinder. Every number is worked out by hand from RULES.md and the data files: a d20 attack
roll hits when face + bonus >= AC, a natural 1 always misses and a natural 20 always hits
(DD-6 [C], applied to every attack roll)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from vigile.checks.verdict import Verdict
from vigile.dice.source import GivenFaces
from vigile.engine.result import GameResult
from vigile.engine.run import play
from vigile.io.i18n import Lang
from vigile.io.views import character_lines, gm_lines
from vigile.rulesets import dnd35, starfinder
from vigile.rulesets.data import load, shipped
from vigile.scene.loader import load_scenario
from vigile.scene.model import Scenario

DND = shipped("dnd35")
SF = shipped("starfinder")


def rolled(check: object, face: int, **inputs: object) -> Verdict:
    verdict = check(source=GivenFaces([face]), **inputs)  # type: ignore[operator]
    assert isinstance(verdict, Verdict)
    return verdict


def rules_of(verdict: Verdict) -> set[str]:
    return {m.rule for m in verdict.modifiers} | {n.rule for n in verdict.notes}


# ------------------------------------------------------------------ D&D 3.5 checks


def test_DD21_an_invisible_attacker_gets_2_and_ignores_the_dex_bonus() -> None:
    """Attack +3 against AC 15 with Dex +2, the attacker invisible to its target (DD-21 [C]):
    AC 15 − 2 = 13, bonus 3 + 2 = 5, the d20 needs 8: faces 8..20, 13/20. Face 8: 13 hits;
    face 7: 12 misses."""
    inputs = {"rules": DND, "attack": 3, "ac": 15, "dex": 2, "invisible_attacker": True}
    verdict = dnd35.attack_roll_check(**inputs)  # type: ignore[arg-type]
    assert (verdict.difficulty, verdict.die_bonus, verdict.chance) == (13, 5, Fraction(13, 20))
    dd21 = [(m.value, m.kind) for m in verdict.modifiers if m.rule == "DD-21"]
    assert sorted(dd21) == [(-2, "difficulty"), (2, "die")]
    hit = rolled(dnd35.attack_roll_check, 8, **inputs)
    assert hit.success and hit.figures.result == 13 and hit.outcome == "dnd35.attack_roll.hit"
    assert not rolled(dnd35.attack_roll_check, 7, **inputs).success


def test_DD21_a_dex_penalty_stays_and_a_visible_attacker_gains_nothing() -> None:
    """Dex −1 is not a bonus: AC stays 15; +3 + 2 needs 10: 11/20 (DD-21). Visible: +3 against
    15 needs 12: 9/20. Seen by a defender who sees invisible: no +2, 9/20 too."""
    invisible = dnd35.attack_roll_check(DND, attack=3, ac=15, dex=-1, invisible_attacker=True)
    assert (invisible.difficulty, invisible.chance) == (15, Fraction(11, 20))
    visible = dnd35.attack_roll_check(DND, attack=3, ac=15, dex=2)
    assert visible.chance == Fraction(9, 20) and "DD-21" not in rules_of(visible)
    seen = dnd35.attack_roll_check(
        DND, attack=3, ac=15, dex=2, invisible_attacker=True, sees_invisible=True
    )
    assert seen.chance == Fraction(9, 20)
    assert [n.reason for n in seen.notes if n.rule == "DD-21"] == ["dnd35.traits.attacker.seen"]


def test_DD21_switched_off_by_a_house_rule(tmp_path: Path) -> None:
    """companion.invisible_attacker = false: no +2, Dex kept: +3 against 15 needs 12, 9/20."""
    path = tmp_path / "house.toml"
    path.write_text("[companion]\ninvisible_attacker = false\n", encoding="utf-8")
    verdict = dnd35.attack_roll_check(
        load("dnd35", path), attack=3, ac=15, dex=2, invisible_attacker=True
    )
    assert verdict.chance == Fraction(9, 20) and "DD-21" not in rules_of(verdict)


def test_natural_1_misses_and_natural_20_hits() -> None:
    """+30 against AC 10: every face but 1 hits, 19/20; face 1 (31 ≥ 10) still misses.
    +0 against AC 40: only a natural 20 hits, 1/20; face 20 (20 < 40) hits."""
    sure = {"rules": DND, "attack": 30, "ac": 10}
    assert dnd35.attack_roll_check(**sure).chance == Fraction(19, 20)  # type: ignore[arg-type]
    one = rolled(dnd35.attack_roll_check, 1, **sure)
    assert not one.success and "dnd35.attack_roll.natural_1" in {n.reason for n in one.notes}
    hard = {"rules": DND, "attack": 0, "ac": 40}
    assert dnd35.attack_roll_check(**hard).chance == Fraction(1, 20)  # type: ignore[arg-type]
    twenty = rolled(dnd35.attack_roll_check, 20, **hard)
    assert twenty.success and "dnd35.attack_roll.natural_20" in {n.reason for n in twenty.notes}
    assert rolled(starfinder.attack_roll_check, 1, rules=SF, attack=30, ac=10).success is False
    assert rolled(starfinder.attack_roll_check, 20, rules=SF, attack=0, ac=40).success is True


def test_DD2_a_critical_applies_sneak_attack_and_favored_enemy_do_not() -> None:
    """Attacking an invisible target (DD-2): the verdict always notes that sneak attack and a
    favored enemy's extra damage do not apply; a natural 20 notes "critical: applies". A
    visible target: no DD-2 note."""
    inputs = {"rules": DND, "attack": 4, "ac": 14, "invisible_target": True}
    twenty = rolled(dnd35.attack_roll_check, 20, **inputs)
    dd2 = [n.reason for n in twenty.notes if n.rule == "DD-2"]
    assert dd2 == [
        "dnd35.traits.damage.sneak_attack",
        "dnd35.traits.damage.favored_enemy",
        "dnd35.attack_roll.critical",
    ]
    nineteen = rolled(dnd35.attack_roll_check, 19, **inputs)
    assert "dnd35.attack_roll.critical" not in {n.reason for n in nineteen.notes}
    plain = rolled(dnd35.attack_roll_check, 20, rules=DND, attack=4, ac=14)
    assert "DD-2" not in rules_of(plain)


# ------------------------------------------------------------------ Starfinder checks


def test_SF9_flat_footed_from_hiding_takes_2_from_the_ac() -> None:
    """SF-9 with [C] flat-footed −2 AC (attack.flat_footed_ac): +3 against AC 15 from hiding:
    13, the d20 needs 10: 11/20. Not hidden: 15, needs 12: 9/20, the reason noted."""
    first = starfinder.flat_footed(hidden=True, first_attack=True)
    verdict = starfinder.attack_roll_check(SF, attack=3, ac=15, flat_footed=first)
    assert (verdict.difficulty, verdict.chance) == (13, Fraction(11, 20))
    assert [(m.value, m.rule, m.source) for m in verdict.modifiers if m.kind == "difficulty"] == [
        (-2, "SF-9", "attack.flat_footed_ac")
    ]
    seen = starfinder.flat_footed(hidden=False, first_attack=True)
    plain = starfinder.attack_roll_check(SF, attack=3, ac=15, flat_footed=seen)
    assert plain.chance == Fraction(9, 20)
    assert "starfinder.attack.not_hidden" in {n.reason for n in plain.notes}


# ------------------------------------------------------------------ in play

SCENE = """\
ruleset: {ruleset}
name: attacks
map: {{width: 60, height: 20}}
turns: {turns}
actors:
  - name: Ghost
    side: attackers
    position: [0, 10]
    move: 30
    invisible: {invisible}
    bonuses: {ghost}
  - name: Guard
    side: defenders
    position: [30, 10]
    bonuses: {guard}
plans:
  Ghost:
{legs}"""


def scene(
    tmp_path: Path,
    *,
    ruleset: str = "dnd35",
    turns: int = 1,
    invisible: str = "true",
    ghost: str = "{}",
    guard: str = "{}",
    legs: str = "    - {to: [15, 10], speed: half}\n",
) -> Scenario:
    path = tmp_path / "attacks.yaml"
    path.write_text(
        SCENE.format(
            ruleset=ruleset, turns=turns, invisible=invisible, ghost=ghost, guard=guard, legs=legs
        ),
        encoding="utf-8",
    )
    return load_scenario(path)


def attacks(result: GameResult) -> list[Verdict]:
    return [e.verdict for e in result.events if e.kind == "attack" and e.verdict is not None]


def renders(result: GameResult) -> None:
    for lang in (Lang.EN, Lang.FR):
        list(gm_lines(result, lang))
        for who in ("Ghost", "Guard"):
            list(character_lines(result, who, lang))


@pytest.mark.parametrize(
    ("ruleset", "ghost"),
    [("dnd35", "{hide: 5, ac: 14, dex: 2}"), ("starfinder", "{stealth: 5, ac: 14}")],
)
@pytest.mark.parametrize(("face", "hits"), [(10, True), (9, False)])
def test_a_guard_rolls_to_hit_an_intruder_it_sees(
    tmp_path: Path, ruleset: str, ghost: str, face: int, hits: bool
) -> None:
    """A visible ghost without cover is seen (no Hide or Stealth allowed: DD-20, SF-2, no
    dice). It stops at (15, 10); the guard closes in to (19.5, 10), the next square, and
    attacks: +4 against AC 14 (the ghost's Dex counts: it sees the guard), the d20 needs 10
    (DD-21 does not apply; SF-9 is not an attack from hiding). No miss chance against a seen
    creature. Face 10: 14 hits; face 9: 13 misses. A hit is logged and, with no hit points
    and one blow not ending the encounter (LP-7 [R]), catches nobody: the alarm of round 1
    ends the game at its limit either way."""
    result = play(
        scene(tmp_path, ruleset=ruleset, invisible="false", ghost=ghost, guard="{attack: 4}"),
        dice_values=[face],
    )
    (roll,) = attacks(result)
    assert roll.check == "attack_roll" and roll.chance == Fraction(11, 20)
    assert roll.success is hits
    assert (result.outcome.kind, result.outcome.turn) == ("alarm", 1)
    assert ("engine.d20.hits" in [e.message for e in result.events]) is hits
    assert "engine.d20.caught" not in [e.message for e in result.events]
    renders(result)


STRIKE = "    - {to: [27, 10], speed: fast, actions: [{do: strike, target: Guard}]}\n"


def test_DD21_DD2_in_play_an_invisible_strike_then_the_guards_blow(tmp_path: Path) -> None:
    """Round 1: the invisible ghost walks to (27, 10), next to the guard, and strikes: +2
    against AC 15 with Dex +3, the guard unable to see it (DD-21): AC 12, bonus 4, needs 8:
    13/20; face 8 hits (12). The guard now knows its square (DD-7), raises the alarm and
    attacks it: +4 against the ghost's AC 14 (Dex 2 kept: the guard is not invisible), needs
    10: 11/20; natural 20 hits and, against an invisible target, "critical: applies" (DD-2);
    then the miss chance (DD-8): d% 60 > 50, the blow lands: a hit, which catches nobody
    (LP-7 [R]: no hit points, one blow does not end the encounter); the alarm ends round 1."""
    result = play(
        scene(
            tmp_path,
            legs=STRIKE,
            ghost="{attack: 2, ac: 14, dex: 2, move_silently: 5, hide: 8}",
            guard="{attack: 4, ac: 15, dex: 3, spot: 4, listen: 4}",
        ),
        dice_values=[8, 20, 60],
    )
    strike, blow, miss = attacks(result)
    assert strike.check == "attack_roll" and strike.chance == Fraction(13, 20)
    assert strike.success and strike.figures.result == 12
    assert {m.value for m in strike.modifiers if m.rule == "DD-21"} == {2, -3}
    assert blow.check == "attack_roll" and blow.chance == Fraction(11, 20) and blow.success
    assert "DD-21" not in rules_of(blow)
    assert "dnd35.attack_roll.critical" in {n.reason for n in blow.notes if n.rule == "DD-2"}
    assert miss.check == "attack" and miss.chance == Fraction(1, 2) and miss.success
    assert "engine.d20.hits" in [e.message for e in result.events]
    assert (result.outcome.kind, result.outcome.turn) == ("alarm", 1)
    renders(result)


def test_DD8_a_missed_attack_roll_rolls_no_miss_chance(tmp_path: Path) -> None:
    """As above, but the guard's d20 is a natural 1 (1 + 4 < 14 anyway): a miss, and no d100
    is asked; the game ends on the alarm after round 1."""
    result = play(
        scene(
            tmp_path,
            legs=STRIKE,
            ghost="{attack: 2, ac: 14, dex: 2}",
            guard="{attack: 4, ac: 15, dex: 3}",
        ),
        dice_values=[8, 1],
    )
    strike, blow = attacks(result)
    assert strike.success and not blow.success
    assert result.outcome.kind == "alarm"


def test_SF9_in_play_flat_footed_only_against_the_first_attack_once_located(
    tmp_path: Path,
) -> None:
    """Round 1: the invisible ghost reaches (27, 10) and strikes the unaware guard: its first
    attack from hiding, the guard flat-footed (SF-9 [C] −2): +5 against 16 − 2 = 14, needs 9:
    12/20 = 3/5; face 9 hits. The adjacent blow reveals its square (SF-11); the guard, located,
    attacks (the ghost has no AC: no attack roll): d% 10 ≤ 50 stops it (SF-8).
    Round 2: it strikes again, still invisible but located: no longer flat-footed (SF-9):
    +5 against 16 needs 11: 1/2; face 10 (15) misses. The guard's d% 60 lands: a hit, which
    catches nobody (LP-7 [R]); the alarm of round 1 ends the game at round 2."""
    legs = STRIKE + "    - {to: [27, 10], speed: half, actions: [{do: strike, target: Guard}]}\n"
    result = play(
        scene(
            tmp_path,
            ruleset="starfinder",
            turns=2,
            legs=legs,
            ghost="{attack: 5, stealth: 10}",
            guard="{ac: 16, perception: 2}",
        ),
        dice_values=[9, 10, 10, 60],
    )
    first, stopped, second, lands = attacks(result)
    assert first.chance == Fraction(3, 5) and first.success
    assert "starfinder.attack.flat_footed_first" in {n.reason for n in first.notes}
    assert stopped.check == "attack" and not stopped.success
    assert second.chance == Fraction(1, 2) and not second.success
    assert "starfinder.attack.flat_footed_located" in {n.reason for n in second.notes}
    assert lands.check == "attack" and lands.success
    assert [e.turn for e in result.events if e.message == "engine.d20.hits"] == [2]
    assert (result.outcome.kind, result.outcome.turn) == ("alarm", 1)
    renders(result)


def test_without_an_ac_no_attack_roll_is_played(tmp_path: Path) -> None:
    """No ``ac`` on the target: no d20 to hit, the GM's hit or miss taken as a hit
    (``blow.hits_without_ac``, LP-7 [R]); the struck guard's blow at the located ghost rolls
    only the d% (DD-8): 60 > 50, a hit."""
    result = play(scene(tmp_path, legs=STRIKE), dice_values=[60])
    (miss,) = attacks(result)
    assert miss.check == "attack" and miss.success
