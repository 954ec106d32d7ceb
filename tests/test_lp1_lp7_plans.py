"""The plans keep the turn live play keeps (issue 33): LP-7 at play, LP-1 at validation.

* **LP-7 at play**: a planned blow (``strike``, ``kill``, ``snipe``, ``attack-square``) that
  comes due out of its reach or range, behind a wall or out of sight, is not made: the log says
  so with the rule and the distance (``engine.blow.*``, the GM's; its actor reads only that the
  blow was not made), and the plan goes on. The check is live play's own
  (``Game._check_reach``), and the compiled kernels make it where the victim stands in each
  run: engine and kernel play the same game, draw for draw.
* **LP-1 at validation**: a waypoint whose actions one round cannot hold (two standard actions,
  or a run then a blow) is refused by ``vigile scenario validate`` and ``vigile run``, exit 2,
  naming the action's field; the skirmish keeps its own turn.

Every figure is worked by hand from RULES.md and the rulesets' data:

* the reach (LP-7): in the d20 games a melee blow reaches the adjacent squares, 5 ft
  (``D20Game.blow_reach``: the attacker's ``reach``, at least one square), counted in squares
  (diagonals as one), a square being ``[x // 5, y // 5]``; a shot ``blow.shot_range_ft`` =
  120 ft, straight; in the skirmish ``alarm.strike_reach_cm`` = 5 cm and
  ``alarm.shot_range_cm`` = 60 cm, straight;
* the round (LP-1, D&D 3.5 and Starfinder ``[actions]``, ``[round]``): strike, kill,
  attack-square, snipe and cast-invisibility are standard actions, a move and opening a door
  move actions, a run a full-round action, speaking free; a round gives one standard and one
  move action, or two moves (``move_for_standard``), or one full-round action.
"""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

from vigile.cli import main
from vigile.engine.events import Event
from vigile.engine.game import BLOW_NOT_MADE
from vigile.engine.run import new_game, play
from vigile.errors import ScenarioError
from vigile.io.i18n import Lang
from vigile.io.views import character_lines, event_text, player_text
from vigile.scene.loader import parse_scenario
from vigile.scene.model import Scenario

# ---------------------------------------------------------------- scenarios


def d20(
    guard: tuple[float, float],
    action: str,
    *,
    ruleset: str = "dnd35",
    walls: str = "[]",
    patrol: bool = False,
    turns: int = 1,
    legs: str = "",
) -> Scenario:
    """Sable at (2, 2), square (0, 0), invisible; a guard at ``guard``; her plan: ``action``
    where she stands, round 1 (``legs``: the rounds after)."""
    skills = "{stealth: 12}" if ruleset == "starfinder" else "{hide: 12, move_silently: 12}"
    senses = "{perception: 0}" if ruleset == "starfinder" else "{spot: 0, listen: 0}"
    state = "patrolling" if patrol else "posted"
    return parse_scenario(f"""
ruleset: {ruleset}
name: LP-7 in the plans
units: ft
map: {{width: 200, height: 40}}
turns: {turns}
walls: {walls}
actors:
  - {{name: Sable, side: attackers, position: [2, 2], invisible: true, move: 30,
     bonuses: {skills}}}
  - {{name: Guard, side: defenders, position: [{guard[0]}, {guard[1]}], state: {state},
     bonuses: {senses}}}
plans:
  Sable:
    - actions: [{action}]
{legs}
""")


def blows(events: list[Event]) -> list[Event]:
    return [e for e in events if e.message.startswith("engine.blow.")]


def struck(events: list[Event]) -> list[Event]:
    return [
        e
        for e in events
        if e.message
        in (
            "engine.event.strike",
            "engine.d20.kill",
            "engine.event.kill",
            "engine.d20.attack_square",
            "engine.d20.snipes",
            "engine.d20.shoots",
        )
    ]


# ---------------------------------------------------------------- LP-7 at play, the engine


@pytest.mark.parametrize(
    ("guard", "action", "walls", "key", "distance", "reach"),
    [
        # Guard at (27, 2), square (5, 0): 5 squares from (0, 0), 5 x 5 = 25 ft > 5 ft
        ((27, 2), "{do: strike, target: Guard}", "[]", "out_of_reach", 25, 5),
        # a kill is a melee blow too: the same 25 ft
        ((27, 2), "{do: kill, target: Guard}", "[]", "out_of_reach", 25, 5),
        # a shot at (127, 2): straight, hypot(125, 0) = 125 ft > 120 ft
        ((127, 2), "{do: strike, target: Guard, ranged: true}", "[]", "out_of_range", 125, 120),
        # a shot at (27, 2), 25 ft <= 120 ft, but a wall at x = 15 across the map between
        (
            (27, 2),
            "{do: strike, target: Guard, ranged: true}",
            "[{kind: wall, start: [15, 0], end: [15, 40]}]",
            "no_line",
            25,
            120,
        ),
        # in melee at (7, 2), square (1, 0): 5 ft <= 5 ft, but a wall at x = 5 between
        (
            (7, 2),
            "{do: strike, target: Guard}",
            "[{kind: wall, start: [5, 0], end: [5, 40]}]",
            "blow_wall",
            5,
            5,
        ),
        # an attack on the named square of (27, 2): square (5, 0), 25 ft from hers
        ((60, 30), "{do: attack-square, at: [27, 2]}", "[]", "out_of_reach", 25, 5),
    ],
)
def test_lp7_a_planned_blow_out_of_reach_is_not_made(
    guard: tuple[float, float],
    action: str,
    walls: str,
    key: str,
    distance: float,
    reach: float,
) -> None:
    """The blow is not made: no blow, kill or attack in the log, the guard learns nothing of
    it (DD-7 plays only on a blow), and one event says why, with LP-7 and the distance."""
    result = play(d20(guard, action, walls=walls), seed=1)
    (event,) = blows(result.events)
    assert event.message == f"engine.blow.{key}"
    assert event.actor == "Sable" and event.turn == 1
    assert event.params["rule"] == "LP-7"
    assert event.params["distance"] == distance and event.params["reach"] == reach
    assert struck(result.events) == []
    assert not any(e.message == "engine.d20.learns" for e in result.events)
    assert all(e.actor != "Sable" or e.kind != "attack" for e in result.events)
    english = event_text(event, Lang.EN)
    assert "not made" in english and f"{distance} ft" in english and "[LP-7]" in english
    french = event_text(event, Lang.FR)
    assert "n'est pas" in french and f"{distance} pieds" in french and "[LP-7]" in french


def test_lp7_the_same_blow_within_reach_is_made() -> None:
    """Guard at (7, 2), square (1, 0), next to hers: 5 ft <= 5 ft, no wall: she strikes him,
    and struck from the next square by an invisible creature he knows her square (DD-7)."""
    result = play(d20((7, 2), "{do: strike, target: Guard}"), seed=1)
    assert blows(result.events) == []
    assert [e.message for e in struck(result.events)] == ["engine.event.strike"]
    # a shot at 119 ft: (121, 2), hypot(119, 0) = 119 <= 120, no wall: made
    result = play(d20((121, 2), "{do: strike, target: Guard, ranged: true}"), seed=1)
    assert blows(result.events) == [] and len(struck(result.events)) == 1


def test_lp7_the_actor_reads_only_that_its_blow_was_not_made() -> None:
    """The GM's line gives the distance; Sable's view says only that she could not reach him,
    in both languages (LP-5: no distance to a guard she has not measured)."""
    result = play(d20((27, 2), "{do: strike, target: Guard}"), seed=1)
    (event,) = blows(result.events)
    assert player_text(event, Lang.EN) == (
        "Sable cannot reach Guard: the planned blow is not made [LP-7]"
    )
    assert "25" not in player_text(event, Lang.FR)
    assert any("cannot reach" in line for line in character_lines(result, "Sable", Lang.EN))
    assert not any("Sable" in line for line in character_lines(result, "Guard", Lang.EN))


def test_lp7_the_plan_goes_on_after_a_blow_not_made() -> None:
    """Round 1 the strike at 25 ft is not made; round 2 she walks 20 ft (fast, 30 ft a round)
    from (2, 2) to (22, 2), square (4, 0), next to his (5, 0), and strikes: 5 ft, made."""
    scenario = d20(
        (27, 2),
        "{do: strike, target: Guard}",
        turns=2,
        legs="    - {to: [22, 2], speed: fast, actions: [{do: strike, target: Guard}]}",
    )
    result = play(scenario, seed=1)
    assert [(e.turn, e.message) for e in blows(result.events)] == [(1, "engine.blow.out_of_reach")]
    assert [(e.turn, e.message) for e in struck(result.events)] == [(2, "engine.event.strike")]


def test_lp7_every_refusal_of_live_play_has_its_line_in_the_log() -> None:
    """The plan's line of each LP-7 refusal live play gives: the same six reasons."""
    assert sorted(k.removeprefix("live.refusal.") for k in BLOW_NOT_MADE) == sorted(
        v.removeprefix("engine.blow.") for v in BLOW_NOT_MADE.values()
    )
    assert len(BLOW_NOT_MADE) == 6


def skirmish(ninja: tuple[float, float], action: str, guard_state: str = "posted") -> Scenario:
    return parse_scenario(f"""
ruleset: skirmish
name: LP-7 in a skirmish plan
map: {{width: 100, height: 100}}
turns: 1
actors:
  - {{name: Ninja, side: attackers, position: [{ninja[0]}, {ninja[1]}], dice: {{ninjitsu: 1}}}}
  - {{name: Guard, side: defenders, position: [50, 50], dice: 1, state: {guard_state}}}
plans:
  Ninja:
    - speed: immobile
      actions: [{action}]
""")


def test_lp7_a_skirmish_kill_beyond_strike_reach_is_not_made() -> None:
    """The skirmish plan walker checks ``alarm.strike_reach_cm`` now: the ninja at (62, 50),
    hypot(12, 0) = 12 cm from the posted guard at (50, 50) > 5 cm: no kill, no fumble roll
    (SK-N3: the roll is the kill's), the guard lives. At (54, 50), 4 cm <= 5 cm: killed."""
    result = play(skirmish((62, 50), "{do: kill, target: Guard}"), seed=1)
    (event,) = blows(result.events)
    assert event.message == "engine.blow.out_of_reach"
    assert (event.params["distance"], event.params["reach"], event.params["unit"]) == (12, 5, "cm")
    assert struck(result.events) == [] and result.walkers[1].alive
    assert not any(e.message.startswith("engine.event.fumble") for e in result.events)
    result = play(skirmish((54, 50), "{do: kill, target: Guard}"), seed=1)
    assert blows(result.events) == [] and not result.walkers[1].alive
    # a shuriken from 12 cm: a shot reaches 60 cm, in a line of sight: killed
    result = play(skirmish((62, 50), "{do: kill, target: Guard, ranged: true}"), seed=1)
    assert blows(result.events) == [] and not result.walkers[1].alive


# ---------------------------------------------------------------- LP-7: engine and kernel


def d20_reach_game(ruleset: str) -> Scenario:
    """A patrolling guard that walks in and out of Sable's reach, 15 ft a round (half of 30)
    in a random direction, for 6 rounds. D&D 3.5: from (9, 2), square (1, 0), next to hers;
    round 1 she attacks the square of (30, 30), square (6, 6), 30 ft away: never made; then a
    strike a round. Starfinder: from (118, 2), 116 ft off, a snipe a round (120 ft)."""
    if ruleset == "starfinder":
        first = again = "{do: snipe, target: Guard}"
        guard = (118.0, 2.0)
    else:
        first, again = "{do: attack-square, at: [30, 30]}", "{do: strike, target: Guard}"
        guard = (9.0, 2.0)
    legs = "\n".join(f"    - actions: [{again}]" for _ in range(5))
    return d20(guard, first, ruleset=ruleset, patrol=True, turns=6, legs=legs)


@pytest.mark.parametrize("ruleset", ["dnd35", "starfinder"])
def test_lp7_the_d20_kernels_refuse_the_blows_the_engine_refuses(ruleset: str) -> None:
    """The compiled kernel plays the engine's game run for run on the same uniforms, blows
    made and not made (the engine's logs over these seeds hold both)."""
    pytest.importorskip("numba")
    from test_kernel_d20_equivalence import assert_same_game

    scenario = d20_reach_game(ruleset)
    made = refused = 0
    for seed in range(30):
        events = play(scenario, seed=seed).events
        refused += len(blows(events))
        made += len(struck(events))
    assert made > 0 and refused > 0
    assert_same_game(scenario, 150, seed=33)


def test_lp7_the_skirmish_kernel_refuses_the_kills_the_engine_refuses() -> None:
    """The ninja at (53, 50), 3 cm from a patrolling guard at (50, 50) who moves 10 cm a turn
    by scatter die before the ninja acts: sometimes still within 5 cm, mostly not; the second
    turn a shuriken (60 cm, a line of sight). The kernel plays the engine's game run for run."""
    pytest.importorskip("numba")
    from test_kernel_equivalence import assert_same_game

    scenario = parse_scenario("""
ruleset: skirmish
name: LP-7 against a patrol
map: {width: 100, height: 100}
turns: 3
walls:
  - {kind: wall, start: [20, 0], end: [20, 100]}
actors:
  - {name: Ninja, side: attackers, position: [53, 50], dice: {ninjitsu: 1}}
  - {name: Guard, side: defenders, position: [50, 50], dice: 1, state: patrolling}
  - {name: Other, side: defenders, position: [30, 50], dice: 1, state: patrolling}
plans:
  Ninja:
    - {speed: immobile, actions: [{do: kill, target: Guard}]}
    - {speed: immobile, actions: [{do: strike, target: Other}]}
    - {speed: immobile, actions: [{do: kill, target: Other, ranged: true}]}
""")
    made = refused = 0
    for seed in range(40):
        events = play(scenario, seed=seed).events
        refused += len(blows(events))
        made += len(struck(events))
    assert made > 0 and refused > 0
    assert_same_game(scenario, 150, seed=34)


# ---------------------------------------------------------------- LP-1 at validation

TWO_STANDARD = """
ruleset: dnd35
name: two standard actions
units: ft
map: {width: 60, height: 40}
turns: 3
actors:
  - {name: Sable, side: attackers, position: [17, 20], move: 30}
  - {name: Guard Osric, side: defenders, position: [22, 20], state: posted}
plans:
  Sable:
    - actions:
        - {do: strike, target: Guard Osric}
        - {do: attack-square, at: [42, 22]}
"""


def cli(args: list[str]) -> tuple[int, str]:
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        code = main(args)
    return code, err.getvalue()


def test_lp1_two_standard_actions_at_one_waypoint_are_refused_naming_the_field(
    tmp_path: Path,
) -> None:
    """She stands where she acts (no ``to``): round 1 holds the strike (standard: 1 - 1 = 0
    left) and a move action; the attack on a square is a second standard action: refused,
    ``plans.Sable[0].actions[1]``, exit 2 from both ``scenario validate`` and ``run``."""
    path = tmp_path / "two.yaml"
    path.write_text(TWO_STANDARD, encoding="utf-8")
    for args in (["scenario", "validate", str(path)], ["run", str(path), "--seed", "1"]):
        code, err = cli(args)
        assert code == 2, err
        assert "plans.Sable[0].actions[1]" in err and "LP-1" in err, err
        assert "attack-square" in err and "standard" in err and "Traceback" not in err


def refused(text: str) -> list[str]:
    """The fields of the LP-1 issues of a scenario (none: it validates)."""
    try:
        parse_scenario(text)
    except ScenarioError as error:
        return re.findall(r"(plans\.[^:]+): [^;]*LP-1", str(error))
    return []


def plan(legs: str, ruleset: str = "dnd35") -> str:
    return TWO_STANDARD.replace("ruleset: dnd35", f"ruleset: {ruleset}").split("plans:")[0] + (
        "plans:\n  Sable:\n" + legs
    )


@pytest.mark.parametrize(
    ("legs", "fields"),
    [
        # a move to the waypoint (a move action) then a strike (standard): the round's two
        ("    - {to: [20, 20], actions: [{do: strike, target: Guard Osric}]}\n", []),
        # a move, a strike, then words (free): fits
        (
            "    - {to: [20, 20], actions: [{do: strike, target: Guard Osric}, "
            "{do: speak, volume: whisper}]}\n",
            [],
        ),
        # a run (full round) then a strike: nothing is left for it
        (
            "    - {to: [20, 20], run: true, actions: [{do: strike, target: Guard Osric}]}\n",
            ["plans.Sable[0].actions[0]"],
        ),
        # a move, a spell (standard), then a strike: a second standard action, refused
        (
            "    - {to: [20, 20], actions: [{do: cast-invisibility}, "
            "{do: strike, target: Guard Osric}]}\n",
            ["plans.Sable[0].actions[1]"],
        ),
        # waiting a round first: no move in the acting round, strike then a spell: refused
        (
            "    - {to: [20, 20], wait: 1, actions: [{do: strike, target: Guard Osric}, "
            "{do: cast-invisibility}]}\n",
            ["plans.Sable[0].actions[1]"],
        ),
        # each in a leg of its own, the next round: fits
        (
            "    - actions: [{do: strike, target: Guard Osric}]\n"
            "    - actions: [{do: attack-square, at: [22, 22]}]\n",
            [],
        ),
        # already at the waypoint (her start): no move spent; a strike fits, a second does not
        (
            "    - {to: [17, 20], actions: [{do: strike, target: Guard Osric}, "
            "{do: kill, target: Guard Osric}]}\n",
            ["plans.Sable[0].actions[1]"],
        ),
    ],
)
def test_lp1_a_waypoint_holds_what_one_round_gives(legs: str, fields: list[str]) -> None:
    assert refused(plan(legs)) == fields


def test_lp1_starfinder_a_snipe_and_a_strike_are_two_standard_actions() -> None:
    legs = "    - actions: [{do: snipe, target: Guard Osric}, {do: strike, target: Guard Osric}]\n"
    assert refused(plan(legs, "starfinder")) == ["plans.Sable[0].actions[1]"]


def test_lp1_the_skirmish_keeps_its_own_turn() -> None:
    """No ``[round]`` in the skirmish's data: a waypoint may hold several actions (LP-1)."""
    text = """
ruleset: skirmish
name: many actions
map: {width: 100, height: 100}
turns: 2
actors:
  - {name: Ninja, side: attackers, position: [52, 50], dice: {ninjitsu: 1}}
  - {name: Guard, side: defenders, position: [50, 50], dice: 1}
  - {name: Other, side: defenders, position: [54, 50], dice: 1}
plans:
  Ninja:
    - actions: [{do: kill, target: Guard}, {do: kill, target: Other}]
"""
    assert refused(text) == []


def test_lp1_every_bundled_plan_fits_its_rounds() -> None:
    """Validation equals play: the bundled scenarios load (their plans re-authored where they
    broke LP-1), and their games play to an outcome."""
    from vigile.scene.loader import bundled_names, load_scenario

    for name in bundled_names():
        scenario = load_scenario(name)
        game = new_game(scenario, seed=1)
        assert game.play(3).outcome is not None
