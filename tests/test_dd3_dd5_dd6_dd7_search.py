"""What a guard that has not located an invisible intruder does, with only what it perceived
(DD-3, DD-5, DD-6, DD-7 and the search rulings [R] of :mod:`vigile.rulesets.dnd35.search`):
a square it knew, it gropes; a direction (a bearing, no distance), it gropes the two squares
ahead on it and steps one square along it; a presence, it stays. No event it perceives carries
the intruder's position. Every number is worked out by hand from RULES.md and rules.toml
([search] step_ft 5)."""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from vigile.awareness.ladder import AwarenessState
from vigile.checks.numbers import quoted
from vigile.dice.source import GivenFaces, RolledFaces
from vigile.engine.run import new_game, play
from vigile.errors import InputError
from vigile.games.d20.round import Bearing, D20Game
from vigile.rulesets.data import shipped, with_overrides
from vigile.rulesets.dnd35 import search
from vigile.scene.actors import Side
from vigile.scene.loader import load_scenario
from vigile.scene.model import Scenario

DND = shipped("dnd35")

SCENE = """\
ruleset: dnd35
name: search
map: {{width: 60, height: 20}}
turns: {turns}
{walls}
actors:
  - name: Ghost
    side: attackers
    position: [0, 10]
    move: 30
    invisible: true
    bonuses: {{move_silently: 5, hide: 8, touch_ac: 12, reach: {reach}}}
  - name: Guard
    side: defenders
    position: [30, 10]
    bonuses: {{spot: 4, listen: 4}}
plans:
  Ghost:
{legs}"""

PASS = "    - {to: [15, 10], speed: half}\n"


def scene(
    tmp_path: Path, *, turns: int = 1, legs: str = PASS, walls: str = "", reach: int = 5
) -> Scenario:
    path = tmp_path / "search.yaml"
    text = SCENE.format(turns=turns, legs=legs, walls=walls, reach=reach)
    path.write_text(text, encoding="utf-8")
    return load_scenario(path)


# ------------------------------------------------------------------ the rulings


def test_R_search_a_square_a_bearing_or_nothing() -> None:
    """A square known: grope it (DD-6); only a bearing: sweep along it (DD-5); only a presence:
    stay (DD-3)."""
    assert search.search(square=True, bearing=False)[0] is search.Search.SQUARE
    assert search.search(square=False, bearing=True)[0] is search.Search.BEARING
    assert search.search(square=False, bearing=False)[0] is search.Search.STAY
    assert [search.search(square=s, bearing=b)[1].rule for s, b in ((1, 0), (0, 1), (0, 0))] == [
        "DD-6",
        "DD-5",
        "DD-3",
    ]


@pytest.mark.parametrize(
    ("degrees", "squares"),
    [
        (180.0, ((5, 2), (5, 1))),  # k = 4: 180° (−1, 0) and 225° (−1, −1)
        (0.0, ((7, 2), (7, 3))),  # k = 0: 0° (1, 0) and 45° (1, 1)
        (100.0, ((6, 3), (5, 3))),  # k = 2: 90° (0, 1) and 135° (−1, 1)
        (359.9, ((7, 1), (7, 2))),  # k = 7: 315° (1, −1) and 0° (1, 0)
        (-90.0, ((6, 1), (7, 1))),  # 270°, k = 6: (0, −1) and 315° (1, −1)
        (45.0, ((7, 3), (6, 3))),  # k = 1: 45° (1, 1) and 90° (0, 1)
    ],
)
def test_R_DD5_DD6_the_two_squares_ahead_on_a_bearing(
    degrees: float, squares: tuple[tuple[int, int], tuple[int, int]]
) -> None:
    """From the square (6, 2), the neighbours at k × 45° and (k + 1) × 45°, k = ⌊bearing /
    45°⌋ (the bearing taken modulo 360°)."""
    assert search.squares_ahead((6, 2), degrees) == squares


def test_R_DD6_a_known_square_and_the_next_along_the_way() -> None:
    """(5, 2)'s centre is (27.5, 12.5): from (30, 10) the way is −2.5 along x, +2.5 along y, a
    tie: along x, (4, 2). (3, 2)'s centre (17.5, 12.5) from (17.5, 20): along y, −7.5: (3, 1)."""
    assert search.squares_toward((5, 2), x=30, y=10) == ((5, 2), (4, 2))
    assert search.squares_toward((3, 2), x=17.5, y=20) == ((3, 2), (3, 1))
    assert search.centre((5, 2)) == (27.5, 12.5)
    assert search.square_of(27.5, 12.5) == (5, 2)


def test_R_the_step_along_a_bearing_is_a_number_of_rules_toml() -> None:
    """[search] step_ft = 5 (one square); a house rule may change it; a negative step is an
    error."""
    assert search.step_ft(DND) == 5
    assert search.step_ft(with_overrides(DND, {"search": {"step_ft": 15}})) == 15
    with pytest.raises(InputError):
        search.step_ft(with_overrides(DND, {"search": {"step_ft": -5}}))
    with pytest.raises(InputError):
        search.squares_ahead((0, 0), float("nan"))


# ------------------------------------------------------------------ in play


def test_DD3_a_guard_who_knows_only_the_presence_stays(tmp_path: Path) -> None:
    """Spot 17 + 4 − 1 (15 ft) = 20 ≥ 20: something is there, not where (DD-3). Move Silently
    10 + 5 + 1 = DC 16, Listen 1 + 4 = 5: not heard. Knowing nothing of where, the guard stays
    at (30, 10): no grope, no step, no other die."""
    result = play(scene(tmp_path), dice_values=[17, 10, 1])
    guard = next(w for w in result.walkers if w.name == "Guard")
    assert guard.aware_of("Ghost") is AwarenessState.PRESENCE
    assert guard.at == (30, 10)
    assert not [e for e in result.events if e.actor == "Guard" and e.kind in ("move", "attack")]


def test_DD5_the_listener_knows_a_bearing_from_where_it_stood(tmp_path: Path) -> None:
    """Listen 12 + 4 = 16 ≥ DC 16: the guard at (30, 10) knows only a direction: 180° (the
    ghost at (15, 10)), from (30, 10), and no distance. The grope (touch 1: a natural 1) finds
    nothing; he steps 5 ft to (25, 10) and keeps the bearing."""
    game = new_game(scene(tmp_path), faces=GivenFaces([1, 10, 12, 1]))
    assert isinstance(game, D20Game)
    game.play_turn()
    assert game.known[("Guard", "Ghost")] == Bearing((30.0, 10.0), 180.0)
    assert game.by_name["Guard"].at == (25, 10)


def test_DD7_a_blow_with_reach_gives_a_bearing_and_the_guard_sweeps_it(tmp_path: Path) -> None:
    """The ghost strikes the guard from (15, 10), 15 ft away (reach over 5 ft): its reach is
    15 ft, square (3, 2) to (6, 2) is 3 x 5 = 15 ft, the blow is made (LP-7); only its
    direction (DD-7), a bearing of 180°. Spot 1 + 3 < 20; Listen: DC 0 + 1 (in combat, 15 ft),
    Listen 1 + 4 = 5 ≥ 1: heard, direction again, from the same place (pinpointing needs 21).
    He gropes (5, 2) and (5, 1), placed at (27.5, 12.5), not the ghost's (15, 10): natural 1;
    steps to (25, 10)."""
    legs = "    - {to: [15, 10], speed: half, actions: [{do: strike, target: Guard}]}\n"
    result = play(scene(tmp_path, legs=legs, reach=15), dice_values=[1, 1, 1])
    (grope,) = [e for e in result.events if e.message == "engine.d20.grope"]
    assert grope.at == (27.5, 12.5)
    assert grope.verdict is not None and grope.verdict.chance == 0
    steps = [e.at for e in result.events if e.message == "engine.d20.searches"]
    assert steps == [(25, 10)]


def test_R_a_wall_ahead_stops_the_step_and_the_grope_beyond_it(tmp_path: Path) -> None:
    """A stone wall at x = 28 between the guard and the ghost, who speaks there: no Spot (no
    line of sight), no Move Silently (DD-5: speaking, DC 0); DC 0 + 1 (15 ft) + 15 (stone
    wall) = 16, Listen 12 + 4 = 16: heard, a bearing of 180°. The squares ahead, (5, 2) and
    (5, 1), have their centres at x = 27.5, beyond the wall: out of reach, no grope. The step
    to (25, 10) crosses the wall: he stays at (30, 10)."""
    walls = "walls:\n  - {kind: wall, start: [28, 0], end: [28, 20]}"
    legs = "    - {to: [15, 10], speed: half, actions: [{do: speak, volume: conversation}]}\n"
    result = play(scene(tmp_path, legs=legs, walls=walls), dice_values=[12])
    learns = [
        (e.params["state"], e.params["rule"])
        for e in result.events
        if e.message == "engine.d20.learns"
    ]
    assert learns == [("direction", "DD-5")]
    assert not [e for e in result.events if e.message == "engine.d20.grope"]
    guard = next(w for w in result.walkers if w.name == "Guard")
    assert guard.at == (30, 10)


def test_DD6_a_sweep_finds_the_ghost_in_the_third_round(tmp_path: Path) -> None:
    """As test_engine_d20's sweep, the chance of the grope that finds it: touch 15 against
    touch AC 12 needs 12 − 0 = 12+: 9/20; then d% above 50: 1/2; 9/40."""
    dice = [17, 10, 12, 15, 70, 1, 15, 70, 1, 15, 70]
    result = play(scene(tmp_path, turns=3), dice_values=dice)
    found = [e for e in result.events if e.message == "engine.d20.grope" and e.verdict]
    assert found[-1].verdict is not None and found[-1].verdict.chance == Fraction(9, 40)
    assert (found[-1].turn, found[-1].at) == (3, (17.5, 12.5))


# ------------------------------------------------------------------ secrets


def leaks(game: D20Game) -> list[str]:
    """Events a defender perceived in a round it ended knowing only the presence or direction
    of an intruder, that carry that intruder's position (``at``) or a distance to it."""
    found: list[str] = []
    while game.outcome is None and game.turn < game.scenario.turns:
        start = len(game.events)
        game.play_turn()
        defenders = [w for w in game.walkers if w.side is Side.DEFENDERS]
        intruders = [w for w in game.walkers if w.side is Side.ATTACKERS]
        for d in defenders:
            for i in intruders:
                state = d.aware_of(i.name)
                if state not in (AwarenessState.PRESENCE, AwarenessState.DIRECTION):
                    continue
                where = (quoted(i.x), quoted(i.y))
                for e in game.events[start:]:
                    if not e.known_to(d.name):
                        continue
                    if e.at == where or (e.target == i.name and "distance" in e.params):
                        found.append(f"turn {e.turn}: {d.name} ({state}): {e.message} {e.at}")
    return found


def test_no_event_a_guard_perceives_tells_where_an_intruder_it_did_not_locate_is(
    tmp_path: Path,
) -> None:
    """The sweep of test_engine_d20 (rounds 1 and 2: direction only), the presence-only guard,
    and the reach blow: no event the guard perceives carries the ghost's position or a
    distance to it."""
    sweep = new_game(scene(tmp_path, turns=2), faces=GivenFaces([17, 10, 12, 15, 70, 1, 15, 70]))
    presence = new_game(scene(tmp_path), faces=GivenFaces([17, 10, 1]))
    legs = "    - {to: [15, 10], speed: half, actions: [{do: strike, target: Guard}]}\n"
    reach = new_game(scene(tmp_path, legs=legs), faces=GivenFaces([1, 1, 1]))
    for game in (sweep, presence, reach):
        assert isinstance(game, D20Game)
        assert leaks(game) == []


@pytest.mark.parametrize("name", ["dnd35-invisible-intruder", "dnd35-flour", "starfinder-sniper"])
@pytest.mark.parametrize("seed", range(6))
def test_no_event_tells_an_unlocating_guard_where_the_intruder_is(name: str, seed: int) -> None:
    """The bundled scenarios, rolled: the same, round after round."""
    scenario = load_scenario(name)
    game = new_game(scenario, seed=seed, faces=RolledFaces(np.random.default_rng(seed)))
    assert isinstance(game, D20Game)
    assert leaks(game) == []


@pytest.mark.parametrize("point", [(11.0, 21.0), (14.5, 24.5), (12.2, 23.9)])
def test_DD4_DD6_a_guard_who_located_but_does_not_see_closes_in_on_the_square(
    point: tuple[float, float],
) -> None:
    """Located but unseen (DD-4..DD-6), Sergeant Brom knows Elandra's square [10, 15) × [20, 25),
    not where she stands in it: wherever she is in it, he walks to the same place — 4.5 ft short
    of the square's centre (12.5, 22.5), coming from (30, 22) — so his move tells no one more."""
    game = new_game(load_scenario("dnd35-invisible-intruder"), seed=1)
    assert isinstance(game, D20Game)
    brom, elandra = game.by_name["Sergeant Brom"], game.by_name["Elandra"]
    elandra.x, elandra.y = point
    brom.learn("Elandra", AwarenessState.LOCATION)
    game._defend(brom)
    gap = math.hypot(30 - 12.5, 22 - 22.5)
    expected = (30 + (12.5 - 30) * (gap - 4.5) / gap, 22 + (22.5 - 22) * (gap - 4.5) / gap)
    assert brom.at == pytest.approx(expected)


def test_DD4_a_located_unseen_intruder_is_known_by_its_square_in_every_view() -> None:
    """What a character's view shows of a located but unseen enemy is its square's centre
    (vigile.live.views asks the game's ``known_place``), of a seen one the point."""
    game = new_game(load_scenario("dnd35-invisible-intruder"), seed=1)
    elandra = game.by_name["Elandra"]
    elandra.x, elandra.y = 14.5, 24.5
    assert game.known_place(elandra, AwarenessState.LOCATION) == (12.5, 22.5)
    assert game.known_place(elandra, AwarenessState.OBSERVED) == (14.5, 24.5)
