"""LP-6 [R]: the GM acts for the defenders (issue 33); the rules still decide what they perceive.

Every figure is worked by hand from RULES.md and the ruleset's data (``rules.toml``):

* SK-V3 (night): a target immobile is tested only closer than 10 cm, 6+; SK-V8 the bands are
  strict; SK-D1 one die for a guard with ``dice: 1``: a 6+ on one d6 is 1/6.
* SK-G1: a patrol moves ``turn.patrol_cm`` = 10 cm along the scatter die, bouncing off a wall
  (angle in = angle out) once a turn; a group moves as one.
* SK-G5, SK-N7: the alarm cry is heard automatically by a defender on alert, by any other
  unless his die shows 1 (``noise.base.alarm_cry`` = 2, no distance or wall modifier).
* LP-6 [R]: a GM's order is the defender's act for the turn; the rules do not also move it
  before the next turn has begun. A skirmish guard moves at most its half-speed rate,
  ``turn.half_cm`` = 15 cm.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from vigile.awareness.ladder import AwarenessState
from vigile.dice.source import GivenFaces
from vigile.engine.events import Event
from vigile.engine.game import Game
from vigile.engine.live import Refusal, parse_action
from vigile.engine.run import new_game
from vigile.errors import InputError
from vigile.games.d20.round import D20Game
from vigile.io.i18n import Lang, tr
from vigile.scene.loader import parse_scenario


def skirmish(actors: str, dice: list[int], walls: str = "[]") -> Game:
    """A night board 200 x 100 cm; the ninjas scouted the place (SK-G3: they roll nothing to
    find the guards), so the only dice are the guards'."""
    text = f"""
ruleset: skirmish
name: LP-6 in the skirmish
units: cm
time: night
map: {{width: 200, height: 100}}
turns: 5
default_surface: grass
scouting: {{observed_beforehand: true}}
walls: {walls}
actors:
{actors}
"""
    game = new_game(parse_scenario(text), faces=GivenFaces(dice))
    game.start_live()
    return game


def act(game: Game, **action: Any) -> list[Event]:
    return game.apply(parse_action(action))


def refused(game: Game, **action: Any) -> Refusal:
    with pytest.raises(Refusal) as error:
        game.apply(parse_action(action))
    return error.value


POSTED = """
  - {name: Ninja, side: attackers, position: [58, 50], ninja: true, dice: {ninjitsu: 1}}
  - {name: Kuro, side: defenders, position: [40, 50], state: posted, dice: 1}
"""


def sights(events: list[Event]) -> list[Event]:
    return [e for e in events if e.kind == "sight" and e.actor == "Kuro"]


# ---------------------------------------------------------------- move, then the rules see


def test_LP6_SKV3_guard_moved_by_the_GM_tests_sight_from_where_he_stands() -> None:
    """Kuro (posted, one die) at (40, 50); the ninja waits (immobile) at (58, 50), 18 cm away.
    The GM moves Kuro 10 cm toward him, to (50, 50): 8 cm, under the 10 cm band of an immobile
    target: a test, 6+ on one die, 1/6 (SK-V3). The die shows 6: seen. Beyond striking reach
    (8 > 5 cm, SK-G5): Kuro cries, nobody else to hear it; no other die."""
    game = skirmish(POSTED, [6])
    kuro = game.by_name["Kuro"]
    act(game, do="guard-move", actor="Kuro", to=[50, 50])
    assert kuro.at == (50.0, 50.0)
    act(game, do="wait", actor="Ninja")
    events = act(game, do="end-turn")
    (sight,) = sights(events)
    assert sight.verdict is not None
    assert sight.params["distance"] == 8
    assert sight.verdict.difficulty == 6
    assert sight.verdict.chance == Fraction(1, 6)
    assert sight.verdict.success is True
    assert kuro.aware_of("Ninja") is AwarenessState.OBSERVED
    assert any(e.message == "engine.raid.cry" and e.actor == "Kuro" for e in events)


def test_LP6_SKV3_a_guard_left_where_he_stands_gets_no_test_at_18_cm() -> None:
    """The same board, the GM leaves Kuro alone: 18 cm, beyond the immobile band (10 cm):
    no test, no die asked (SK-V3)."""
    game = skirmish(POSTED, [])
    act(game, do="wait", actor="Ninja")
    events = act(game, do="end-turn")
    assert sights(events) == []
    assert game.by_name["Kuro"].aware_of("Ninja") is AwarenessState.UNAWARE


def test_LP6_guard_move_refusals_change_nothing() -> None:
    """Half speed is 15 cm (``turn.half_cm``): 16 cm is too far; a wall on the way; a second
    move this turn; an intruder is not the GM's defender; a defender does not ``move``."""
    walls = "[{kind: wall, start: [45, 40], end: [45, 60]}]"
    game = skirmish(POSTED, [], walls)
    kuro = game.by_name["Kuro"]
    assert refused(game, do="guard-move", actor="Kuro", to=[40, 66]).key == (
        "live.refusal.guard_too_far"
    )
    assert refused(game, do="guard-move", actor="Kuro", to=[50, 50]).key == "live.refusal.wall"
    assert refused(game, do="guard-move", actor="Ninja", to=[58, 55]).key == (
        "live.refusal.not_defender"
    )
    assert refused(game, do="move", actor="Kuro", to=[40, 55]).key == "live.refusal.defender"
    assert refused(game, do="scatter", actor="Kuro", bearing=0).key == "live.refusal.not_patrol"
    assert kuro.at == (40.0, 50.0)
    act(game, do="guard-move", actor="Kuro", to=[40, 65])  # 15 cm: within half speed
    assert refused(game, do="hold", actor="Kuro").key == "live.refusal.moved"
    assert kuro.at == (40.0, 65.0)


def test_LP6_a_bearing_out_of_the_circle_names_the_field() -> None:
    with pytest.raises(InputError) as error:
        parse_action({"do": "scatter", "actor": "Kuro", "bearing": 360})
    assert error.value.where == "action.scatter.bearing"


# ---------------------------------------------------------------- patrols (SK-G1)

PATROL = """
  - {name: Ninja, side: attackers, position: [190, 90], ninja: true, dice: {ninjitsu: 1}}
  - {name: Kuro, side: defenders, position: [97, 50], state: patrolling, group: west, dice: 1}
  - {name: Jiro, side: defenders, position: [97, 60], state: patrolling, group: west, dice: 1}
"""


def patrols(events: list[Event], name: str) -> list[Event]:
    return [e for e in events if e.kind == "patrol" and e.actor == name]


def test_LP6_SKG1_a_held_patrol_does_not_move() -> None:
    """Kuro patrols; the GM holds him in turn 1: the next turn begins and he has not moved (no
    patrol event), while Jiro, left alone, patrols 10 cm (SK-G1); the ninja is far (no test)."""
    game = skirmish(PATROL, [])
    kuro, jiro = game.by_name["Kuro"], game.by_name["Jiro"]
    kuro_at, jiro_at = kuro.at, jiro.at
    act(game, do="hold", actor="Kuro")
    events = act(game, do="end-turn")
    assert game.turn == 2
    assert patrols(events, "Kuro") == []
    assert kuro.at == kuro_at
    assert len(patrols(events, "Jiro")) == 1
    assert jiro.at != jiro_at


def test_LP6_SKG1_a_guard_the_GM_moved_does_not_also_patrol() -> None:
    """The GM moves Kuro 10 cm west in turn 1: at the start of turn 2 he stays there; in turn 2
    the GM leaves him alone: at the start of turn 3 he patrols his 10 cm again (SK-G1)."""
    game = skirmish(PATROL, [])
    kuro = game.by_name["Kuro"]
    x, y = kuro.at
    act(game, do="guard-move", actor="Kuro", to=[x - 10, y])
    events = act(game, do="end-turn")
    assert patrols(events, "Kuro") == []
    assert kuro.at == pytest.approx((x - 10, y))
    events = act(game, do="end-turn")
    (patrol,) = patrols(events, "Kuro")
    assert patrol.turn == 3


def test_LP6_SKG1_the_GM_types_the_scatter_die_and_the_group_bounces() -> None:
    """Test setup: the group west (Kuro, Jiro) stands at (97, 50) and (97, 60) when the GM
    acts; a wall runs along x = 100. The GM types the die: 0° (east). Each goes 2.5 cm, to
    half a centimetre short of the wall ([R] turn.patrol_margin_mm = 5, head-on), then
    reflects straight back for the 7.5 cm left (SK-G1): (92, 50), (92, 60). The group moved
    as one; at the start of turn 2 neither patrols again."""
    game = skirmish(PATROL, [], "[{kind: wall, start: [100, 0], end: [100, 100]}]")
    kuro, jiro = game.by_name["Kuro"], game.by_name["Jiro"]
    kuro.x, kuro.y, jiro.x, jiro.y = 97.0, 50.0, 97.0, 60.0
    events = act(game, do="scatter", actor="Kuro", bearing=0)
    assert kuro.at == pytest.approx((92.0, 50.0))
    assert jiro.at == pytest.approx((92.0, 60.0))
    assert [e.params["degrees"] for e in events if e.kind == "patrol"] == [0, 0]
    assert refused(game, do="guard-move", actor="Jiro", to=[90, 60]).key == "live.refusal.moved"
    events = act(game, do="end-turn")
    assert patrols(events, "Kuro") == patrols(events, "Jiro") == []


def test_LP6_SKG1_a_typed_die_of_90_degrees_moves_the_patrol_10_cm_toward_larger_y() -> None:
    game = skirmish(PATROL, [])
    kuro = game.by_name["Kuro"]
    kuro.x, kuro.y = 50.0, 20.0
    game.by_name["Jiro"].x, game.by_name["Jiro"].y = 60.0, 20.0
    act(game, do="scatter", actor="Jiro", bearing=90)
    assert kuro.at == pytest.approx((50.0, 30.0))
    assert game.by_name["Jiro"].at == pytest.approx((60.0, 30.0))


# ---------------------------------------------------------------- the alarm (SK-G5, SK-N7)

ALARM = """
  - {name: Ninja, side: attackers, position: [190, 90], ninja: true, dice: {ninjitsu: 1}}
  - {name: Kuro, side: defenders, position: [40, 50], state: posted, dice: 1}
  - {name: Jiro, side: defenders, position: [150, 20], state: posted, alert: true, dice: 1}
  - {name: Saburo, side: defenders, position: [20, 90], state: posted, dice: 1}
"""


@pytest.mark.parametrize(("face", "hears"), [(1, False), (2, True)])
def test_LP6_SKG5_SKN7_the_alarm_the_GM_raises_puts_its_hearers_on_alert(
    face: int, hears: bool
) -> None:
    """Kuro cries at the GM's word: Jiro, on alert, hears it without a die; Saburo, not on
    alert, hears it unless his one die shows 1 (2+, 5/6). One die is asked: Saburo's."""
    game = skirmish(ALARM, [face])
    events = act(game, do="raise-alarm", actor="Kuro")
    assert events[0].message == "live.event.raise_alarm"
    heard = {e.actor: e.verdict for e in events if e.message == "engine.raid.alarm_cry"}
    assert heard["Jiro"] is not None and heard["Jiro"].automatic
    assert heard["Saburo"] is not None and heard["Saburo"].chance == Fraction(5, 6)
    assert game.by_name["Kuro"].alert and game.by_name["Jiro"].alert
    assert game.by_name["Saburo"].alert is hears
    assert refused(game, do="raise-alarm", actor="Kuro").key == "live.refusal.alarmed"


# ---------------------------------------------------------------- search

SEARCH = """
  - {name: Ninja, side: attackers, position: [58, 50], ninja: true, dice: {ninjitsu: 1}}
  - {name: Kuro, side: defenders, position: [50, 50], state: posted, dice: 1}
"""


def test_LP6_SKV3_a_search_is_a_sight_test_now_on_the_intruder_near_the_point() -> None:
    """Kuro at (50, 50) searches (60, 50); the ninja, immobile at (58, 50), is 2 cm from the
    point (within ``orders.search_radius_cm`` = 10) and 8 cm from Kuro: a test at once, 6+ on
    one die (SK-V3). The die shows 5: unseen. A search at (60, 80), 30 cm from the ninja, tests
    nobody; a second search in the turn is refused."""
    game = skirmish(SEARCH, [5])
    act(game, do="wait", actor="Ninja")
    events = act(game, do="search", actor="Kuro", at=[60, 50])
    assert events[0].message == "live.event.search"
    (sight,) = sights(events)
    assert sight.verdict is not None and sight.verdict.difficulty == 6
    assert sight.verdict.success is False
    assert refused(game, do="search", actor="Kuro", at=[60, 80]).key == "live.refusal.searched"


def test_LP6_a_search_far_from_every_intruder_rolls_nothing() -> None:
    game = skirmish(SEARCH, [])
    events = act(game, do="search", actor="Kuro", at=[60, 80])
    assert [e.message for e in events] == ["live.event.search"]


# ---------------------------------------------------------------- the d20 games


def d20(ruleset: str, dice: list[int]) -> Game:
    """Ash (invisible) at (27.5, 12.5), square (5, 2); the guard at (22.5, 12.5), square (4,
    2), touch attack +0 by default; feet, move 30."""
    text = f"""
ruleset: {ruleset}
name: LP-6 in {ruleset}
units: ft
map: {{width: 200, height: 40}}
turns: 3
actors:
  - {{name: Ash, side: attackers, position: [27.5, 12.5], move: 30, invisible: true}}
  - {{name: Guard, side: defenders, position: [22.5, 12.5], state: posted}}
  - {{name: Far, side: defenders, position: [150, 12.5], state: posted}}
"""
    game = new_game(parse_scenario(text), faces=GivenFaces(dice))
    game.start_live()
    return game


def test_LP6_d20_the_alarm_the_GM_raises_puts_every_defender_on_alert() -> None:
    game = d20("dnd35", [])
    events = act(game, do="raise-alarm", actor="Guard")
    assert events[0].message == "live.event.raise_alarm" and events[0].public
    assert game.by_name["Guard"].alert and game.by_name["Far"].alert


def test_LP6_DD6_the_GM_has_a_guard_grope_the_next_square() -> None:
    """The guard gropes square (5, 2), adjacent (5 ft): the squares (5, 2) and (6, 2), the next
    along its way (DD-6 R). Ash is there: a touch attack, d20 + 0 against touch AC 10 (no
    ``touch_ac`` given: the default of the scenario's stats), then the 50% miss chance on the
    d100. Faces 15 (hit) and 80: found, Ash located (DD-6)."""
    game = d20("dnd35", [15, 80])
    events = act(game, do="search", actor="Guard", at=[27, 12])
    (grope,) = [e for e in events if e.message == "engine.d20.grope"]
    assert grope.verdict is not None and grope.verdict.success is True
    assert game.by_name["Guard"].aware_of("Ash") is AwarenessState.LOCATION


def test_LP6_DD6_a_grope_beyond_reach_is_refused_and_starfinder_has_none() -> None:
    game = d20("dnd35", [])
    assert refused(game, do="search", actor="Guard", at=[40, 12]).key == (
        "live.refusal.search_reach"
    )
    game = d20("starfinder", [])
    assert refused(game, do="search", actor="Guard", at=[27, 12]).key == "live.refusal.no_search"


def test_LP6_d20_a_guard_the_GM_acted_for_does_not_close_in_at_the_end_of_the_round() -> None:
    """The GM holds the guard: at the end of the round it does not act by the rules (no
    closing in, no grope), whatever it perceived."""
    game = d20("dnd35", [])
    assert isinstance(game, D20Game)
    guard = game.by_name["Guard"]
    game.known[("Guard", "Ash")] = (5, 2)  # test setup: it had located Ash's square
    guard.awareness["Ash"] = AwarenessState.LOCATION
    act(game, do="hold", actor="Guard")
    game.faces = GivenFaces([1] * 10)  # the round's own checks (Listen, Spot) roll 1s
    events = act(game, do="end-turn")
    assert not [e for e in events if e.actor == "Guard" and e.kind in ("move", "attack")]


@pytest.mark.parametrize("lang", list(Lang))
def test_LP6_refusals_and_events_are_translated(lang: Lang) -> None:
    for key in (
        "live.event.guard_move",
        "live.event.hold",
        "live.event.search",
        "live.event.raise_alarm",
        "live.refusal.not_defender",
        "live.refusal.guard_too_far",
        "live.refusal.not_patrol",
        "live.refusal.search_reach",
    ):
        assert tr(key, lang, {}) != key
