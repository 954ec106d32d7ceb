"""Live play's d20 rules in the round (RULES.md LP-2, LP-3, LP-7), worked out by hand from the
rule texts and the shipped rules.toml ([listen] pinpoint_margin 20, distance 1 per 10 ft; Spot
-1 per 10 ft, DC 20 against a moving invisible creature; Starfinder SF-7 +20 invisible and
moving, ties to the observer)."""

from __future__ import annotations

import math
from pathlib import Path

from vigile.awareness.ladder import AwarenessState
from vigile.dice.source import GivenFaces
from vigile.engine.run import new_game
from vigile.games.d20.round import D20Game
from vigile.scene.loader import load_scenario
from vigile.scene.model import Scenario

SCENE = """\
ruleset: {ruleset}
name: lp
map: {{width: 60, height: 20}}
turns: {turns}
actors:
  - name: Ghost
    side: attackers
    position: [0, 10]
    move: 30
    invisible: true
    bonuses: {ghost}
  - name: Guard
    side: defenders
    position: [30, 10]
    move: {guard_move}
    bonuses: {guard}
plans:
  Ghost:
    - {{to: [15, 10], speed: half}}
    - {{to: [5, 10], speed: half}}
"""


def scene(
    tmp_path: Path,
    *,
    ruleset: str = "dnd35",
    turns: int = 2,
    ghost: str = "{move_silently: 0, hide: 0}",
    guard: str = "{spot: 4, listen: 4}",
    guard_move: int = 1,
) -> Scenario:
    path = tmp_path / "lp.yaml"
    path.write_text(
        SCENE.format(ruleset=ruleset, turns=turns, ghost=ghost, guard=guard, guard_move=guard_move),
        encoding="utf-8",
    )
    return load_scenario(path)


def _round_events(game: D20Game, turn: int, actor: str) -> list[str]:
    return [e.message for e in game.events if e.turn == turn and e.actor == actor]


# ------------------------------------------------------------------ LP-2


def test_LP2_DD5_a_square_heard_is_where_it_was_and_the_listener_listens_again(
    tmp_path: Path,
) -> None:
    """Round 1: the ghost walks (0, 10) → (15, 10) at half speed. Spot 1 + 4 − 1 (15 ft) = 4 <
    DC 20 (moving, DD-3). Move Silently 1 + 0 = 1, DC 1 + 1 (15 ft: one 10-ft step) = 2;
    Listen 18 + 4 = 22 ≥ 2 + 20: pinpointed (DD-5), the guard knows square (3, 2). It moves
    1 ft a round (``move: 1``): it never comes near enough to strike.

    Round 2: the ghost walks on to (5, 10). LP-2: the guard keeps square (3, 2), where it
    *was*, and only the way to it: ``direction``; so it looks and listens again (DD-5, once a
    round): Spot 1 + 4 − 2 (about 24 ft) = 3 < 20; Move Silently 20 + 0 = 20, DC 20 + 2 =
    22; Listen 1 + 4 = 5 < 22: not heard. It still holds square (3, 2), and what it is shown
    is the way from where it stands to that square's centre (17.5, 12.5), never the ghost's
    new square (1, 2)."""
    game = new_game(scene(tmp_path), faces=GivenFaces([1, 1, 18, 1, 20, 1]))
    assert isinstance(game, D20Game)
    guard = game.by_name["Guard"]
    game.play_turn()
    assert guard.aware_of("Ghost") is AwarenessState.LOCATION
    assert game.known[("Guard", "Ghost")] == (3, 2)
    game.play_turn()
    assert game.by_name["Ghost"].at == (5, 10)
    assert guard.aware_of("Ghost") is AwarenessState.DIRECTION
    assert game.known[("Guard", "Ghost")] == (3, 2)
    lost = [e for e in game.events if e.turn == 2 and e.message == "engine.d20.lost"]
    assert [(e.actor, e.params["state"], e.params["rule"]) for e in lost] == [
        ("Guard", "direction", "DD-5")
    ]
    round_two = [e for e in game.events if e.turn == 2 and e.actor == "Guard"]
    assert [e.kind for e in round_two if e.verdict is not None] == ["sight", "noise"]
    point, degrees = game.perceived(guard, game.by_name["Ghost"])
    assert point is None
    assert degrees is not None
    gx, gy = guard.at
    assert math.isclose(degrees, math.degrees(math.atan2(12.5 - gy, 17.5 - gx)) % 360.0)


def test_LP2_SF5_a_located_square_is_lost_to_presence_when_it_moves(tmp_path: Path) -> None:
    """Round 1: Stealth 1 + 0 + 20 (invisible and moving, SF-7) = 21; Perception 20 + 10 = 30
    ≥ 21 (ties to the observer): it locates the invisible ghost (SF-5), square (3, 2).
    Round 2: the ghost moves; LP-2 [R]: the guard keeps square (3, 2) and only the ghost's
    presence (Starfinder has no direction), so it rolls Perception again: Stealth 20 + 20 =
    40, Perception 1 + 10 = 11 < 40: it stays at presence, still holding (3, 2)."""
    game = new_game(
        scene(tmp_path, ruleset="starfinder", ghost="{stealth: 0}", guard="{perception: 10}"),
        faces=GivenFaces([1, 20, 20, 1]),
    )
    assert isinstance(game, D20Game)
    guard = game.by_name["Guard"]
    game.play_turn()
    assert guard.aware_of("Ghost") is AwarenessState.LOCATION
    assert game.known[("Guard", "Ghost")] == (3, 2)
    game.play_turn()
    assert guard.aware_of("Ghost") is AwarenessState.PRESENCE
    assert game.known[("Guard", "Ghost")] == (3, 2)
    assert [e.kind for e in game.events if e.turn == 2 and e.actor == "Guard" and e.verdict] == [
        "sight"
    ]


# ------------------------------------------------------------------ LP-3

PLAIN_SIGHT = """\
ruleset: starfinder
name: plain sight
map: {width: 80, height: 20}
turns: 1
walls:
  - {kind: wall, start: [20, 0], end: [20, 12]}
actors:
  - name: Vex
    side: attackers
    position: [10, 5]
    move: 30
    bonuses: {attack: 6, stealth: 12}
  - name: Guard
    side: defenders
    position: [50, 5]
    move: 1
    bonuses: {ac: 15, perception: 4}
plans:
  Vex:
    - {to: [10, 15], speed: half, actions: [{do: snipe, target: Guard}]}
"""


def test_LP3_SF10_SF9_an_attacker_who_never_hid_shoots_but_does_not_snipe(
    tmp_path: Path,
) -> None:
    """Vex starts behind the wall, out of the guard's sight: no Stealth check was ever made
    against him. She walks 10 ft into the open, (10, 15) (her line to (50, 5) passes the
    wall's end at y = 15 − 10 × 10/40 = 12.5 > 12), and shoots. She never hid from him: LP-3,
    no snipe. Not flat-footed (SF-9: not hidden): AC 15, +6 needs 9; d20 12 → 18 hits. No
    Stealth at −20 (SF-10); struck by a visible attacker in the open, he observes her (SF-11),
    so the round's perception has nobody left to roll: one die in all."""
    path = tmp_path / "plain.yaml"
    path.write_text(PLAIN_SIGHT, encoding="utf-8")
    game = new_game(load_scenario(path), faces=GivenFaces([12]))
    assert isinstance(game, D20Game)
    game.play_turn()
    shots = [e.verdict for e in game.events if e.kind == "attack" and e.verdict is not None]
    assert len(shots) == 1 and shots[0] is not None and shots[0].success
    notes = {n.reason for n in shots[0].notes}
    assert "starfinder.attack.not_hidden" in notes
    assert "starfinder.attack.flat_footed_first" not in notes
    assert not [e for e in game.events if e.message == "starfinder.round.stealth"]
    assert game.by_name["Guard"].aware_of("Vex") is AwarenessState.OBSERVED
    # the log says she shoots, not that she shoots from hiding
    shot = {"engine.d20.shoots", "engine.d20.snipes"}
    assert [e.message for e in game.events if e.message in shot] == ["engine.d20.shoots"]
