"""SF-10 sniping, SF-9 flat-footed, SF-6 cover lost on the way and SF-11's presence from a
ranged attack, played by the d20 round (issue 10). Worked out by hand from the seed text and
rules.toml: Stealth is one d20 + bonus that every observer's d20 + Perception must meet or
beat (SF-4); sniping is at -20 and needs 10 ft (SF-10); flat-footed is -2 AC (SF-9 [C])."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from vigile.awareness.ladder import AwarenessState
from vigile.engine.result import GameResult
from vigile.engine.run import play
from vigile.io.i18n import Lang
from vigile.io.views import character_lines, gm_lines
from vigile.scene.loader import load_scenario

SCENE = """\
ruleset: starfinder
name: sniping
map: {{width: 80, height: 20}}
turns: {turns}
cover:
  - {{name: crates, points: [[0, 5], [10, 5], [10, 15], [0, 15]]}}
  - {{name: cart, points: [[20, 5], [30, 5], [30, 15], [20, 15]]}}
actors:
  - name: Vex
    side: attackers
    position: {vex}
    move: 30
    bonuses: {{attack: 6, stealth: 12}}
  - name: Guard
    side: defenders
    position: {guard}
    move: {guard_move}
    bonuses: {{ac: 15, perception: 4}}
plans:
  Vex:
{legs}"""


def game(
    tmp_path: Path,
    dice: list[int],
    legs: str,
    *,
    turns: int = 2,
    guard: str = "[50, 10]",
    guard_move: int = 30,
    vex: str = "[5, 10]",
) -> GameResult:
    path = tmp_path / "sniping.yaml"
    path.write_text(
        SCENE.format(turns=turns, legs=legs, guard=guard, guard_move=guard_move, vex=vex),
        encoding="utf-8",
    )
    result = play(load_scenario(path), dice_values=dice)
    for lang in Lang:
        list(gm_lines(result, lang))
        list(character_lines(result, "Vex", lang))
        list(character_lines(result, "Guard", lang))
    return result


SNIPE = "    - {wait: 1, actions: [{do: snipe, target: Guard}]}\n"


def test_SF10_SF9_SF11_a_shot_from_hiding_then_stealth_at_minus_20(tmp_path: Path) -> None:
    """Round 1 Vex waits in the crates (cover, SF-2): Stealth 12 + d20 10 = 22; the guard's
    Perception 4 + d20 5 = 9 < 22: unaware. Round 2 she snipes him, 45 ft away (>= 10 ft):
    her first attack from hiding, he is flat-footed: AC 15 - 2 = 13, +6 needs 7: 14/20 = 7/10;
    d20 12 hits. The shot tells him only that something is there (SF-11 [R]). Then Stealth at
    -20 (SF-10): 12 - 20 = -8, d20 18: 10; his 4 + d20 5 = 9 < 10: still hidden. Its chance:
    his advantage 4 - (-8) = 12, he misses on (19 - 12)(20 - 12)/2 = 28 of 400 pairs: 7/100.
    No roll in the round's perception after the sniping roll. Knowing only that something is
    there, not where, he stays where he is (SF-11 [R]: nothing to walk toward)."""
    result = game(tmp_path, [10, 5, 12, 18, 5], SNIPE)
    rolls = [e.verdict for e in result.events if e.verdict is not None and not e.target]
    shot = next(e.verdict for e in result.events if e.kind == "attack" and e.verdict)
    assert shot is not None and shot.chance == Fraction(7, 10) and shot.success
    assert "starfinder.attack.flat_footed_first" in {n.reason for n in shot.notes}
    stealth = [e.verdict for e in result.events if e.message == "starfinder.round.stealth"]
    assert stealth[1] is not None and stealth[1].chance == Fraction(7, 100)
    assert stealth[1].figures.opposed is not None and stealth[1].figures.opposed.result == 10
    assert "SF-10" in {m.rule for m in stealth[1].modifiers}
    assert len(stealth) == 2 and rolls
    learns = [
        (e.turn, e.params["state"], e.params["rule"])
        for e in result.events
        if e.message == "engine.d20.learns"
    ]
    assert learns == [(2, "presence", "SF-11")]
    guard = next(w for w in result.walkers if w.name == "Guard")
    assert guard.aware_of("Vex") is AwarenessState.PRESENCE and guard.at == (50, 10)
    assert result.outcome.kind == "turn_limit" and result.outcome.unseen


def test_SF10_nearer_than_10_ft_no_sniping_stealth(tmp_path: Path) -> None:
    """Vex at (9, 10), square (1, 2), still in the crates; the guard at (16, 10), square
    (3, 2), 7 ft away, not adjacent, and nearly unable to move. Round 1: Stealth 12 + 20 =
    32, his 4 + 1 = 5: unaware. Round 2 the shot (flat-footed, d20 12 hits: he knows only
    that something shot him, SF-11), then the Stealth at -20 is refused: under 10 ft
    (SF-10); he observes her. He closes in 1 ft, not adjacent: no blow."""
    result = game(tmp_path, [20, 1, 12], SNIPE, vex="[9, 10]", guard="[16, 10]", guard_move=1)
    refused = [e.verdict for e in result.events if e.message == "engine.d20.stealth" and e.verdict]
    assert refused and refused[-1] is not None and refused[-1].impossible
    assert "starfinder.hide.sniping_too_close" in {n.reason for n in refused[-1].notes}
    guard = next(w for w in result.walkers if w.name == "Guard")
    assert guard.aware_of("Vex") is AwarenessState.OBSERVED


def test_SF6_cover_lost_on_the_way_and_found_again(tmp_path: Path) -> None:
    """Round 1 Vex walks at half speed from the crates (x <= 10) across open ground to the
    cart (x >= 20), (5, 10) -> (20, 10): she lost cover on her way but has it at the end of
    her turn, so she may stay hidden (SF-6): Stealth 12 + 10 = 22 against 4 + 5: hidden."""
    result = game(tmp_path, [10, 5], "    - {to: [20, 10], speed: half}\n", turns=1)
    stealth = next(e.verdict for e in result.events if e.message == "starfinder.round.stealth")
    assert stealth is not None
    assert [n.reason for n in stealth.notes if n.rule == "SF-6"] == [
        "starfinder.hide.stay_hidden_regained"
    ]


def test_SF6_cover_lost_and_not_found_again(tmp_path: Path) -> None:
    """To (15, 10), in the open between the two: no Stealth allowed (SF-2), with SF-6's
    reason; the guard observes her. No die."""
    result = game(tmp_path, [], "    - {to: [15, 10], speed: half}\n", turns=1, guard_move=1)
    refused = next(e.verdict for e in result.events if e.message == "engine.d20.stealth")
    assert refused is not None and refused.impossible
    assert "starfinder.hide.stay_hidden_refused" in {n.reason for n in refused.notes}
