"""What ending the turn will roll, before it is rolled, and the table's dice for it (issue 36).

Each number below is worked out by hand from RULES.md, never read from the program:

* SK-V3: a target moving at half speed is seen within 20 cm on 5+; a guard with a pool of 2 dice
  sees it unless both dice miss: 1 - (4/6)^2 = 5/9 (SK-D1).
* SK-V2: a character in motion within 10 cm is seen automatically: a chance of 1, decided without
  dice.
* SK-G5 [R]: a guard who sees an intruder within striking reach (5 cm) rolls initiative: each
  rolls 1d6, the guard cries on a result >= the intruder's: 21/36 = 7/12.
* SK-G1: a patrol moves 10 cm in the direction the scatter die shows.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from vigile.engine.live import NeedDice
from vigile.live import Encounter
from vigile.store import Store

# A ninja at (10, 62) walks at half speed (15 cm a turn) past a guard with 2 dice at (50, 50).
WALK = """
ruleset: skirmish
name: Past the guard
map: {width: 110, height: 100}
turns: 10
actors:
  - {name: Ninja, side: attackers, position: [10, 62], dice: {ninjitsu: 1}}
  - {name: Guard, side: defenders, position: [50, 50], dice: 2}
"""

# A ninja 6 cm from a posted guard (1 die); a patrol of one far away at (20, 20).
CLOSE = """
ruleset: skirmish
name: Close to the guard
map: {width: 110, height: 100}
turns: 10
actors:
  - {name: Ninja, side: attackers, position: [44, 50], dice: {ninjitsu: 1}}
  - {name: Guard, side: defenders, position: [50, 50], dice: 1}
  - {name: Walker, side: defenders, position: [20, 20], state: patrolling, dice: 1}
"""

# The same patrol, and a ninja far from everyone: ending the turn rolls no check.
PATROL = """
ruleset: skirmish
name: A patrol
map: {width: 110, height: 100}
turns: 10
actors:
  - {name: Ninja, side: attackers, position: [100, 90], dice: {ninjitsu: 1}}
  - {name: Walker, side: defenders, position: [20, 20], state: patrolling, dice: 1}
"""


@pytest.fixture
def store() -> Store:
    return Store("sqlite://")


def encounter(store: Store, text: str, dice: str = "rolled") -> Encounter:
    made, _ = Encounter.create(store, text=text, fmt="yaml", source="t.yaml", seed=7, dice=dice)
    return made


def test_SK_V3_the_end_turn_preview_lists_the_sight_test_with_its_exact_chance(
    store: Store,
) -> None:
    walk = encounter(store, WALK)
    walk.act({"do": "move", "actor": "Ninja", "to": [25, 62]})
    # at (25, 62) the ninja is 27.7 cm from the guard: beyond the 20 cm of half speed
    assert walk.preview({"do": "end-turn"}).checks == []
    walk.act({"do": "end-turn"})
    walk.act({"do": "move", "actor": "Ninja", "to": [40, 62]})
    # at (40, 62): sqrt(10^2 + 12^2) = 15.6 cm, under 20: a 5+ test on the guard's 2 dice
    ahead = walk.preview({"do": "end-turn"})
    assert [(c.who, c.verdict.check) for c in ahead.checks] == [("Guard", "sight")]
    sight = ahead.checks[0]
    assert sight.verdict.chance == 1 - Fraction(4, 6) ** 2 == Fraction(5, 9)
    assert sight.verdict.difficulty == 5 and sight.faces == 2 and sight.dice() == "2d6"
    assert not sight.decided
    assert any(m.rule == "SK-V3" for m in sight.verdict.modifiers)


def test_the_preview_changes_nothing(store: Store) -> None:
    """Previewing the end of the turn leaves the encounter as it was: the same records, the same
    events, and the end of the turn then plays as in a twin encounter never previewed."""
    walk, twin = encounter(store, WALK), encounter(store, WALK)
    for each in (walk, twin):
        each.act({"do": "move", "actor": "Ninja", "to": [25, 62]})
        each.act({"do": "end-turn"})
        each.act({"do": "move", "actor": "Ninja", "to": [40, 62]})
    before = (walk.state().seq, len(walk.game.events), walk.game.turn)
    for _ in range(3):
        walk.preview({"do": "end-turn"})
    assert (walk.state().seq, len(walk.game.events), walk.game.turn) == before
    played, again = walk.act({"do": "end-turn"}), twin.act({"do": "end-turn"})
    assert [(e.kind, e.actor, e.params) for e in played.events] == [
        (e.kind, e.actor, e.params) for e in again.events
    ]
    assert played.record.payload["faces"] == again.record.payload["faces"]


def test_SK_V2_a_decided_check_is_listed_as_such_and_asks_the_table_no_die(store: Store) -> None:
    close = encounter(store, CLOSE, dice="given")
    # 6 cm away at half speed, 2 cm to (46, 50): 4 cm from the guard, in motion: seen (SK-V2)
    close.act({"do": "move", "actor": "Ninja", "to": [46, 50]}, bearings=[])
    ahead = close.preview({"do": "end-turn"})
    checks = [(c.who, c.verdict.check, c.decided, c.verdict.chance) for c in ahead.checks]
    assert checks == [
        ("Guard", "sight", True, 1),  # SK-V2
        # SK-G3: these intruders never scouted the place: the ninja must find the guard, who
        # stands still within 10 cm: 6+ on his one die (SK-V3)
        ("Ninja", "sight", False, Fraction(1, 6)),
        # seen within striking reach (4 <= 5 cm): initiative, the guard cries on >= (SK-G5)
        ("Guard", "alarm", False, Fraction(21, 36)),
        # the cry (with the stand-in 1s the guard wins): heard unless the die shows 1 (SK-N7)
        ("Walker", "noise", False, Fraction(5, 6)),
    ]
    assert ahead.checks[0].faces == 0 and "SK-V2" in [n.rule for n in ahead.checks[0].verdict.notes]
    assert ahead.checks[2].dice() == "2d6"
    assert ahead.patrols == [["Walker"]] and ahead.patrol_rule == "SK-G1"
    # the table is asked for the ninja's die first: none for the decided sight test
    with pytest.raises(NeedDice) as first:
        close.act({"do": "end-turn"}, dice=[], bearings=[])
    assert first.value.index == 0 and first.value.check == 1
    assert first.value.verdict is not None and first.value.who == "Ninja"
    # then the initiative's two dice, in one field
    assert close.pool_left({"do": "end-turn"}, [6], []) == 2
    with pytest.raises(NeedDice) as second:
        close.act({"do": "end-turn"}, dice=[6], bearings=[])
    assert second.value.index == 1 and second.value.verdict is not None
    assert second.value.verdict.check == "alarm"
    assert close.state().seq == 1  # nothing stored
    # the guard 2, the ninja 5: the ninja strikes first (SK-G5): a round of melee, a noise of
    # 4+ (SK-N2), then the guard's body falls on the grass, 4+ (SK-N2), for the patrol about
    # 40 cm away (+0 under 50 cm, SK-N4): 1/2 each on its one die
    played = close.act({"do": "end-turn"}, dice=[6, 2, 5, 1, 1], bearings=[0])
    assert played.record.payload["faces"][1:] == [2, 5, 1, 1]
    assert not close.game.by_name["Guard"].alive
    heard = [e.verdict for e in played.events if e.verdict is not None and e.actor == "Walker"]
    assert [(v.check, v.difficulty, v.chance) for v in heard] == [("noise", 4, Fraction(1, 2))] * 2
    assert [m.reason for v in heard for m in v.modifiers if m.rule == "SK-N2"] == [
        "skirmish.noise.base.melee",
        "skirmish.noise.base.death_grass",
    ]


def test_SK_G1_the_table_gives_the_patrols_scatter_die(store: Store) -> None:
    walk = encounter(store, PATROL, dice="given")
    with pytest.raises(NeedDice) as asked:
        walk.act({"do": "end-turn"}, dice=[], bearings=[])
    assert asked.value.kind == "scatter" and asked.value.members == ("Walker",)
    assert asked.value.rule == "SK-G1"
    walker = walk.game.by_name["Walker"]
    x, y = walker.x, walker.y  # where the first turn's patrol left it (the program's draw)
    assert 10 < y < 80  # no wall within 10 cm toward larger y
    played = walk.act({"do": "end-turn"}, dice=[], bearings=[90])
    # 90 degrees: toward larger y, 10 cm (SK-G1)
    walker = walk.game.by_name["Walker"]
    assert walker.x == pytest.approx(x) and walker.y == pytest.approx(y + 10)
    assert played.record.payload["bearings"] == [90]
    # another process replays the log to the same place
    again = Encounter(store, walk.id, checkpoints=False)
    replayed = again.game.by_name["Walker"]
    assert (replayed.x, replayed.y) == (walker.x, walker.y)
    # a bearing out of the circle is refused, and nothing is stored
    with pytest.raises(Exception, match="bearing"):
        walk.act({"do": "end-turn"}, dice=[], bearings=[360])
    assert walk.state().seq == 1


def test_a_patrol_the_gm_ordered_this_turn_asks_no_scatter_die(store: Store) -> None:
    walk = encounter(store, PATROL, dice="given")
    walk.act({"do": "hold", "actor": "Walker"}, bearings=[])
    assert walk.preview({"do": "end-turn"}).patrols == []
    played = walk.act({"do": "end-turn"}, dice=[], bearings=[])  # nothing asked
    assert len(played.record.payload["bearings"]) == 1  # drawn, and kept for the replay


def test_a_demo_switches_to_the_tables_dice_for_good(store: Store) -> None:
    """A ``dice`` record switches an encounter started with vigile's dice to the table's: the
    actions before it replay as they were rolled; an undo after it keeps the table's dice, and
    so does another process reading the log."""
    walk = encounter(store, PATROL)
    first = walk.act({"do": "end-turn"})
    walk.set_dice("given")
    assert walk.row.dice == "given" and walk.state().seq == 2
    with pytest.raises(NeedDice):
        walk.act({"do": "end-turn"}, dice=[], bearings=[])
    walk.act({"do": "end-turn"}, dice=[], bearings=[45])
    walk.undo()
    assert walk.row.dice == "given"
    for checkpointed in (False, True):
        again = Encounter(store, walk.id, checkpoints=checkpointed, every=1)
        assert again.row.dice == "rolled"  # the row as created, until the log is read
        state = again.state()
        assert again.row.dice == "given" and state.done == [first.record.seq]
    with pytest.raises(Exception, match="rolled or given"):
        walk.set_dice("loaded")


def test_a_decided_checks_faces_are_vigiles_not_the_tables() -> None:
    """With the table's dice, a check decided whatever its dice (here a d20 check whose DC is
    out of reach, chance 0) takes none of the table's dice, and its roll does not claim to be
    the table's; the next check takes the table's first die."""
    import numpy as np

    from vigile.checks.verdict import Verdict
    from vigile.engine.live import LiveFaces, decided

    out_of_reach = Verdict(ruleset="dnd35", check="spot", question="q", chance=Fraction(0))
    even = Verdict(ruleset="dnd35", check="spot", question="q", chance=Fraction(1, 2))
    assert decided(out_of_reach) and not decided(even)
    faces = LiveFaces(np.random.default_rng(1), [17], physical=True, table=True)
    faces.announce(out_of_reach, "Pell")
    faces.face(20)
    assert not faces.given
    faces.announce(even, "Brom")
    assert faces.face(20) == 17 and faces.given
    faces.finish()
    with pytest.raises(NeedDice):
        faces.face(20)


def test_DD3_the_end_of_the_round_after_a_move_lists_its_spot_tests(store: Store) -> None:
    """The D&D 3.5 keep (bundled): invisible Elandra walks from (2, 22) to (17, 22). The move
    rolls nothing; ending the round then rolls each guard's Spot test (DD-3): an invisible
    creature in motion, DC 20, -1 per 10 ft [C]. Sergeant Brom (Spot +4) 13 ft away: d20 + 4 - 1
    >= 20 on 17 to 20: 4/20 = 1/5; pinpointing (DC + 20, DD-4) is out of reach. Guard Pell
    (Spot +2, distracted -5 [C]) 18.2 ft away: d20 + 2 - 1 - 5 >= 20 needs a 24: 0, decided
    without dice, and the table is not asked for it."""
    from vigile.scene.loader import bundled_path

    text = bundled_path("dnd35-invisible-intruder").read_text("utf-8")
    keep, _ = Encounter.create(store, text=text, fmt="yaml", source="k.yaml", seed=7, dice="given")
    move = {"do": "move", "actor": "Elandra", "to": [17, 22]}
    ahead = keep.preview(move, then_end=True)
    assert ahead.ending == 0  # the move rolls nothing of its own
    spots = [
        (c.who, c.verdict.chance, c.decided) for c in ahead.checks if c.verdict.check == "spot"
    ]
    assert spots == [("Sergeant Brom", Fraction(1, 5), False), ("Guard Pell", Fraction(0), True)]
    assert ahead.checks[0].verdict.figures.chance_pinpoint == 0
    assert keep.preview(move).checks == []  # without then_end: the move's own, none
    keep.act(move, bearings=[])
    with pytest.raises(NeedDice) as first:
        keep.act({"do": "end-turn"}, dice=[], bearings=[])
    assert first.value.who == "Sergeant Brom" and first.value.index == 0
    with pytest.raises(NeedDice) as second:
        keep.act({"do": "end-turn"}, dice=[17], bearings=[])
    assert second.value.who != "Guard Pell" and second.value.index == 1
