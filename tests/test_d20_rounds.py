"""The d20 round after the audit: pinpoints lost when the intruder moves (DD-6, DD-7), reach
blows give the direction (DD-7), one Move Silently for every listener (DD-20 [R]), per-observer
Spot distances against Hide (DD-20), no Hide without cover, concealment or invisibility,
non-breathing DC 40 (DD-3), defenders within their speed, and views that do not leak distances.
Every number is worked out by hand from RULES.md."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from vigile.awareness.ladder import AwarenessState
from vigile.cli.dnd35 import app as dnd35_app
from vigile.dice.source import RolledFaces
from vigile.engine.result import GameResult
from vigile.engine.run import new_game, play
from vigile.errors import InputError
from vigile.io.i18n import Lang
from vigile.io.views import character_lines
from vigile.scene.loader import load_scenario
from vigile.scene.model import Scenario

SCENE = """\
ruleset: dnd35
name: rounds
map: {{width: 60, height: 20}}
turns: {turns}
actors:
  - name: Ghost
    side: attackers
    position: [0, 10]
    move: 30
    invisible: {invisible}
    breathing: {breathing}
    bonuses: {{move_silently: 5, hide: 8, touch_ac: 12, reach: {reach}}}
  - name: Guard
    side: defenders
    position: [30, 10]
    state: {state}
    bonuses: {{spot: 4, listen: 4}}
{more}plans:
  Ghost:
{legs}"""

PASS = "    - {to: [15, 10], speed: half}\n"


def scene(
    tmp_path: Path,
    *,
    turns: int = 1,
    legs: str = PASS,
    more: str = "",
    invisible: str = "true",
    breathing: str = "true",
    state: str = "posted",
    reach: int = 5,
) -> Scenario:
    path = tmp_path / "rounds.yaml"
    text = SCENE.format(
        turns=turns,
        legs=legs,
        more=more,
        invisible=invisible,
        breathing=breathing,
        state=state,
        reach=reach,
    )
    path.write_text(text, encoding="utf-8")
    return load_scenario(path)


def messages(result: GameResult, name: str | None = None) -> list[str]:
    return [e.message for e in result.events if name is None or e.known_to(name)]


def test_DD6_a_groped_square_is_lost_when_the_intruder_moves(tmp_path: Path) -> None:
    """Round 1: the ghost runs 27 ft at full speed to (27, 10), 3 ft from the guard. Spot d20 1
    + 4 < 20 (DD-3); Move Silently 10 + 5 − 4 (full speed) + 0 (3 ft) = DC 11, Listen 12 + 4
    = 16 hears (DD-5): only its direction, a bearing of 180° from (30, 10). The guard gropes
    the two squares ahead on it ([R] (5, 2) and (5, 1)): the ghost is in (5, 2); touch 15 vs
    touch AC 12, d% 70 > 50: located (DD-6), the alarm.
    Round 2: the ghost walks 10 ft to (27, 0): "until it moves" (DD-6), the guard is back to
    presence, and knows only the square where it found it, (5, 2). Spot 1 + 4 − 1 (10.4 ft)
    < 20; Move Silently 20 + 5 − 4 + 1 = 22 > Listen 1 + 4; the guard, 3.5 ft from that
    square's centre (27.5, 12.5), gropes it and the next along his way, (4, 2): natural 1,
    nothing found."""
    legs = "    - {to: [27, 10], speed: fast}\n    - {to: [27, 0], speed: fast}\n"
    result = play(scene(tmp_path, turns=2, legs=legs), dice_values=[1, 10, 12, 15, 70, 1, 20, 1, 1])
    lost = [e for e in result.events if e.message == "engine.d20.lost"]
    assert [(e.turn, e.actor, e.target, e.params["rule"], e.params["state"]) for e in lost] == [
        (2, "Guard", "Ghost", "DD-6", "presence")
    ]
    guard = next(w for w in result.walkers if w.name == "Guard")
    assert guard.aware_of("Ghost") is AwarenessState.PRESENCE
    gropes = [e for e in result.events if e.message == "engine.d20.grope"]
    assert [(e.turn, e.at, e.verdict.success if e.verdict else None) for e in gropes] == [
        (1, (27.5, 12.5), True),
        (2, (27.5, 12.5), False),
    ]


def test_DD7_a_blow_with_reach_gives_only_the_direction(tmp_path: Path) -> None:
    """The ghost strikes the guard from 15 ft (beyond the adjacent squares: reach over 5 ft):
    the guard learns only its direction (DD-7), not its square. Its reach is 15 ft (a reach
    weapon): from square (3, 2) to the guard's (6, 2), 3 squares x 5 = 15 ft <= 15 ft, the
    blow is made (LP-7). Then Spot 1 + 3 < 20; Listen against DC 0 + 1 (15 ft, in combat:
    DD-5) with 1 + 4 = 5: heard, direction, not pinpointed (5 < 21); the guard gropes:
    natural 1."""
    legs = "    - {to: [15, 10], speed: half, actions: [{do: strike, target: Guard}]}\n"
    result = play(scene(tmp_path, legs=legs, reach=15), dice_values=[1, 1, 1])
    learns = [e for e in result.events if e.message == "engine.d20.learns"]
    assert (learns[0].params["state"], learns[0].params["rule"]) == ("direction", "DD-7")
    guard = next(w for w in result.walkers if w.name == "Guard")
    assert guard.aware_of("Ghost") is AwarenessState.DIRECTION


def test_DD7_a_square_learnt_from_an_adjacent_blow_is_lost_when_it_moves(tmp_path: Path) -> None:
    """Round 1: the ghost walks 30 ft at full speed to (27, 10), next to the guard at (30, 10),
    and strikes: the guard knows its square (DD-7). In the same round the guard attacks the
    located ghost: d% 10 ≤ 50, the miss chance stops the blow (DD-8).
    Round 2: the ghost walks away (DD-7: "unless it moves"): the guard is left with presence.
    Spot 1 + 4 − 1 (≥ 10 ft) < 20; Listen: Move Silently 20 + 5 − 4 + 1 = 22 > 1 + 4; the guard
    gropes around the point of the blow: natural 1."""
    legs = (
        "    - {to: [27, 10], speed: fast, actions: [{do: strike, target: Guard}]}\n"
        "    - {to: [27, 0], speed: fast}\n"
    )
    result = play(scene(tmp_path, turns=2, legs=legs), dice_values=[10, 1, 20, 1, 1])
    lost = [e for e in result.events if e.message == "engine.d20.lost"]
    assert [(e.turn, e.params["rule"]) for e in lost] == [(2, "DD-7")]


def test_DD20R_one_move_silently_roll_meets_every_listener(tmp_path: Path) -> None:
    """Guards 15 ft and 10 ft from the ghost: Spot 1 + 3 < 20 each (DD-3). One Move Silently for
    both (DD-20 [R]): 10 + 5 + 1 (10 or 15 ft) = DC 16; Listen 12 + 4 = 16 hears (ties to the
    listener, DD-5), 3 + 4 = 7 does not. The first gropes: natural 1.
    Exact chance neither hears: each needs f + 4 ≥ h + 6, so misses when f ≤ h + 1: for the
    creature's face h, (min(20, h + 1)/20)² each; summed over h: (2² + … + 20² + 20²)/8000 =
    (2869 + 400)/8000 = 3269/8000, not the (229/400)² of two independent rolls."""
    more = "  - {name: Guard2, side: defenders, position: [15, 0], bonuses: {spot: 4, listen: 4}}\n"
    result = play(scene(tmp_path, more=more), dice_values=[1, 1, 10, 12, 3, 1])
    group = next(e for e in result.events if e.message == "dnd35.round.move_silently")
    assert group.verdict is not None and group.verdict.chance == Fraction(3269, 8000)
    assert group.verdict.chance != Fraction(229, 400) ** 2
    heard = [(m.figures.dc, m.figures.result, m.success) for m in group.verdict.members]
    assert heard == [(16, 16, True), (16, 7, False)]
    # Neither guard's view quotes how far the invisible ghost stands.
    for name in ("Guard", "Guard2"):
        assert not any("ft away" in line for line in character_lines(result, name, Lang.EN))


def test_DD3_a_non_breathing_intruder_is_spotted_at_DC_40(tmp_path: Path) -> None:
    """DD-3: a non-breathing creature is DC 40, even moving. Spot 1 + 4 − 1 (15 ft) = 4."""
    result = play(scene(tmp_path, breathing="false"), dice_values=[1, 1, 1])
    spot = next(e for e in result.events if e.message == "dnd35.round.spot")
    assert spot.verdict is not None and spot.verdict.difficulty == 40
    assert spot.verdict.chance == 0 and spot.verdict.impossible  # 20 + 3 < 40


def test_DD20_a_visible_intruder_without_cover_cannot_hide(tmp_path: Path) -> None:
    """No cover, no concealment, not invisible: no Hide check (DD-20, [R]); the guard sees
    it without a die."""
    result = play(scene(tmp_path, invisible="false"), dice_values=[])
    sees = [e for e in result.events if e.message == "engine.d20.sees"]
    assert [(e.actor, e.verdict.automatic if e.verdict else None) for e in sees] == [
        ("Guard", True)
    ]
    assert "dnd35.round.hide" not in messages(result)


@pytest.mark.parametrize("seed", range(8))
def test_defenders_move_no_farther_than_their_speed(tmp_path: Path, seed: int) -> None:
    """A patrolling guard wanders half its 30 ft speed, then sees the visible ghost and closes
    in: in all, no more than 30 ft in the round."""
    scenario = scene(tmp_path, invisible="false", state="patrolling")
    rng = np.random.default_rng(seed)
    game = new_game(scenario, seed=seed, faces=RolledFaces(rng))
    start = next(w for w in game.walkers if w.name == "Guard").at
    game.play_turn()
    guard = next(w for w in game.walkers if w.name == "Guard")
    assert game.walked["Guard"] <= 30 + 1e-9
    assert float(np.hypot(guard.x - start[0], guard.y - start[1])) <= 30 + 1e-9


runner = CliRunner()


def test_cli_hide_takes_one_distance_per_observer() -> None:
    """DD-20: Hide +8 against Spot +4 at 5 ft (no penalty) and Spot +6 at 25 ft (−2): both
    +4. With modifiers lower than the hider's, ties go to the hider: an observer spots when
    f > h + 4, 16 − h faces for h ≤ 15, so each spots with (15 + … + 1)/400 = 120/400 = 3/10.
    Hidden from both: Σ_h ((h + 4)/20 capped at 1)² / 20 = (5² + … + 19² + 5 · 400)/8000 =
    (2440 + 2000)/8000 = 111/200."""
    result = runner.invoke(
        dnd35_app, ["hide", "--hide", "8", "--spot", "4,6", "--distance", "5,25", "--json"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["chance"] == "111/200"
    assert [o["chance"] for o in data["observers"]] == ["3/10", "3/10"]
    # The old single distance still applies to every observer: 20 ft, −2 each.
    one = runner.invoke(dnd35_app, ["hide", "--hide", "8", "--spot", "4,6", "--distance", "20"])
    assert one.exit_code == 0 and "20 ft away" in one.stdout
    bad = runner.invoke(dnd35_app, ["hide", "--hide", "8", "--spot", "4,6", "--distance", "5,6,7"])
    assert isinstance(bad.exception, InputError) and "--distance" in str(bad.exception)


def test_cli_hide_without_cover_concealment_or_invisibility_is_refused() -> None:
    """DD-20 [R]: a visible hider without cover or concealment may not hide: chance 0."""
    result = runner.invoke(dnd35_app, ["hide", "--hide", "8", "--spot", "4", "--visible", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["impossible"] is True and data["chance"] == "0"
    assert [o["state"] for o in data["observers"]] == ["observed"]
    covered = runner.invoke(
        dnd35_app, ["hide", "--hide", "8", "--spot", "4", "--visible", "--cover", "--json"]
    )
    assert json.loads(covered.stdout)["impossible"] is False


def test_DD7_a_ranged_blow_from_next_door_gives_only_the_direction(tmp_path: Path) -> None:
    """The same adjacent blow as above, but shot (``ranged: true``): a ranged attacker gives
    away only its direction (DD-7 [C]), even from the next square. Dice as in the
    adjacent-blow test: the guard, left with the direction, then fails Listen and gropes."""
    legs = (
        "    - {to: [27, 10], speed: fast, actions: [{do: strike, target: Guard, ranged: true}]}\n"
    )
    result = play(scene(tmp_path, legs=legs), dice_values=[1, 1, 1, 1, 1])
    learns = [e for e in result.events if e.message == "engine.d20.learns"]
    assert (learns[0].params["state"], learns[0].params["rule"]) == ("direction", "DD-7")
