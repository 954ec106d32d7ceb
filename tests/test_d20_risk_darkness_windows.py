"""The d20 risk map against the round (issue 37): darkness and windows.

1. Darkness: the risk map asks the round's own rule functions whether an intruder stands in the
   dark for an observer (:func:`vigile.games.d20.round.in_darkness`, the lights a creature
   carries by :func:`~vigile.games.d20.round.carried_light_reaches`). Hand-worked cases: a
   visible rogue in an unlit hall at night before a guard without darkvision (DD-20 [C]: he
   cannot see it, Spot is only against the invisible, DD-3) is noticed with chance 0, and a
   route crosses the hall; a guard with darkvision (60 ft) sees it within 60 ft, where no Hide
   is allowed out of cover (DD-20): 1, and 0 beyond; ``light.dark_without_lights`` [R].
2. Every bundled d20 scenario, guards held still, the intruder standing still on each square
   for one round: the risk map's exact chance equals the engine's, computed exactly from the
   verdicts the round rolls (each check's ``Fraction``, no Monte Carlo; see
   :func:`_engine_chance`).
3. Windows ([R] ``barrier.window``: blocks movement, not sight, as the Universal Battlemap
   Importer reads a see-through portal): a guard and an intruder in light, a window between:
   the chance is the one without the window; a wall between: 0. A defender does not walk nor
   strike through a window, and the compiled kernel leaves such a scenario to the engine.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import yaml

from vigile.awareness.ladder import AwarenessState
from vigile.checks.verdict import Verdict
from vigile.engine.run import new_game
from vigile.games.d20.round import D20Game
from vigile.games.dnd35.riskmap import risk_map as dnd35_map
from vigile.games.skirmish.route import safest_route
from vigile.games.starfinder.riskmap import risk_map as starfinder_map
from vigile.scene.actors import Side
from vigile.scene.loader import parse_scenario
from vigile.scene.model import Scenario

SCENARIOS = Path(__file__).resolve().parents[1] / "src" / "vigile" / "scenarios"

# --------------------------------------------------------------------------- darkness by hand

HALL = """
ruleset: dnd35
name: a dark hall
units: ft
time: night
map: {width: 100, height: 20}
walls:
  - {kind: wall, start: [90, 0], end: [90, 20]}
lights:
  - {kind: lantern, at: [95, 10], radius: 5}   # the guardroom beyond the wall: the hall is unlit
actors:
  - {name: Rogue, side: attackers, position: [2.5, 12.5], bonuses: {hide: 5, move_silently: 5}}
  - {name: Guard, side: defenders, position: [7.5, 7.5], bonuses: {spot: 2, listen: 2},
     senses: [sight, hearing]}
"""


def _hall(**changes: Any) -> Scenario:
    doc = yaml.safe_load(HALL)
    guard = doc["actors"][1]
    for key, value in changes.items():
        if key == "senses":
            guard["senses"] = value
        else:
            doc[key] = value
    return parse_scenario(yaml.safe_dump(doc))


def test_a_visible_rogue_in_the_dark_is_not_noticed() -> None:
    # DD-20 [C]: at night, out of every light, a guard without darkvision cannot see it; it is
    # not invisible, so no Spot (DD-3); no blindsight nor scent: noticed 0 on every square of
    # the hall (x < 90), standing still or moving.
    for way in ("still", "half"):
        found = dnd35_map(_hall(), way, layer="noticed")
        assert (found.noticed[:, :18] == 0).all()
        row, column = found.cell_of(12.5, 7.5)  # 5 ft from the guard
        assert found.exact(row, column) == 0
        assert found.risk_at(12.5, 7.5) == 0  # the slow path agrees


def test_the_same_rogue_in_daylight_is_seen() -> None:
    # By day the hall is lit: out of cover no Hide is allowed (DD-20), the guard sees it.
    found = dnd35_map(_hall(time="day"), "still", layer="noticed")
    assert (found.noticed[:, :18] == 1).all()


def test_darkvision_sees_within_its_60_ft() -> None:
    # light.darkvision_ft = 60: the guard at (7.5, 7.5) sees the rogue within 60 ft (no Hide out
    # of cover: 1) and not beyond (0).
    found = dnd35_map(_hall(senses=["darkvision", "hearing"]), "still", layer="noticed")
    row, column = found.cell_of(62.5, 7.5)  # 55 ft
    assert found.exact(row, column) == 1
    row, column = found.cell_of(72.5, 7.5)  # 65 ft
    assert found.exact(row, column) == 0


def test_a_night_without_any_light_follows_the_house_rule() -> None:
    # light.dark_without_lights = false (shipped, [R]): no light at all, lit throughout: seen.
    # Set to true: dark throughout: not seen.
    lit = dnd35_map(_hall(lights=[], walls=[]), "still", layer="noticed")
    assert (lit.noticed == 1).all()
    dark = dnd35_map(
        _hall(lights=[], walls=[], house_rules={"light": {"dark_without_lights": True}}),
        "still",
        layer="noticed",
    )
    assert (dark.noticed == 0).all()


def test_a_carried_torch_lights_the_rogue() -> None:
    # A guard carrying a 20-ft torch lights what lies within 20 ft of it (DD-16, the round's
    # _lit): the rogue there is seen (1); 25 ft away, in the dark (0).
    doc = yaml.safe_load(HALL)
    doc["actors"][1]["bonuses"]["light"] = 20
    found = dnd35_map(parse_scenario(yaml.safe_dump(doc)), "still", layer="noticed")
    assert found.exact(*found.cell_of(22.5, 7.5)) == 1  # 15 ft
    assert found.exact(*found.cell_of(32.5, 7.5)) == 0  # 25 ft


def test_route_crosses_the_dark_hall() -> None:
    found = dnd35_map(_hall(), "half")
    route = safest_route(found, (2.5, 2.5), (82.5, 17.5))
    assert route.waypoints[0] == pytest.approx((2.5, 2.5))
    assert route.waypoints[-1] == pytest.approx((82.5, 17.5))


def test_starfinder_darkness_counts_the_lights_creatures_carry() -> None:
    # SF-2: in the dark the intruder has total concealment from a guard without darkvision, so
    # a Stealth check is allowed. The guard's 20-ft torch is a light on the map (no lit-throughout
    # house rule) and lights its 20 ft: out of cover there, no Stealth (SF-2): 1.
    # 25 ft away, dark: at half speed Stealth +5 against Perception +2, ties to the observer
    # (SF-4): the guard's face g notices the spy's face f when g + 2 >= f + 5, 18 - f faces for
    # f = 1..17: 153 of 400. Still, total concealment and immobile gives +40 (SF-7): 0.
    text = HALL.replace("ruleset: dnd35", "ruleset: starfinder").replace(
        "bonuses: {hide: 5, move_silently: 5}", "bonuses: {stealth: 5}"
    )
    doc = yaml.safe_load(text)
    doc["actors"][1]["bonuses"] = {"perception": 2, "light": 20}
    doc["lights"] = []
    doc["walls"] = []
    scenario = parse_scenario(yaml.safe_dump(doc))
    half = starfinder_map(scenario, "half")
    assert half.exact(*half.cell_of(22.5, 7.5)) == 1  # 15 ft, lit by the torch
    assert half.exact(*half.cell_of(32.5, 7.5)) == Fraction(153, 400)  # 25 ft, dark
    still = starfinder_map(scenario, "still")
    assert still.exact(*still.cell_of(32.5, 7.5)) == 0


# --------------------------------------------------------------------------- windows by hand

ROOMS = """
ruleset: {game}
name: two rooms
units: ft
time: day
map: {{width: 40, height: 20}}
walls:
  - {{kind: {kind}, start: [20, 0], end: [20, 20]}}
actors:
  - {{name: Spy, side: attackers, position: [32.5, 7.5], bonuses: {bonuses}}}
  - {{name: Guard, side: defenders, position: [7.5, 7.5], bonuses: {guard}}}
"""


def _rooms(game: str, kind: str | None) -> Scenario:
    bonuses = "{hide: 5, move_silently: 5}" if game == "dnd35" else "{stealth: 5}"
    guard = "{spot: 2, listen: 2}" if game == "dnd35" else "{perception: 2}"
    text = ROOMS.format(game=game, kind=kind or "wall", bonuses=bonuses, guard=guard)
    doc = yaml.safe_load(text)
    if kind is None:
        doc["walls"] = []
    return parse_scenario(yaml.safe_dump(doc))


@pytest.mark.parametrize("game", ["dnd35", "starfinder"])
def test_a_window_lets_sight_through_a_wall_does_not(game: str) -> None:
    # By day, out of cover, no Hide or Stealth is allowed (DD-20, SF-2): seen for certain with
    # nothing or a window between (25 ft); a wall between: no line of sight, not seen.
    mapper = dnd35_map if game == "dnd35" else starfinder_map
    layer = "noticed"
    chances = {
        kind: mapper(_rooms(game, kind), "still", layer=layer).exact(
            *mapper(_rooms(game, kind), "still", layer=layer).cell_of(32.5, 7.5)
        )
        for kind in (None, "window", "wall")
    }
    assert chances == {None: 1, "window": 1, "wall": 0}


def test_the_engine_sees_through_a_window_but_does_not_walk_through_it() -> None:
    # The round: the guard sees the spy through the window (no Hide allowed: observed), then
    # closes in: the window stops it (it stays where it stood) and no blow crosses it.
    game = new_game(_rooms("dnd35", "window"), seed=1)
    assert isinstance(game, D20Game)
    game.play(turns=1)
    guard = game.by_name["Guard"]
    assert guard.aware_of("Spy") is AwarenessState.OBSERVED
    assert guard.at == (7.5, 7.5)
    open_game = new_game(_rooms("dnd35", None), seed=1)
    open_game.play(turns=1)
    assert open_game.by_name["Guard"].at != (7.5, 7.5)  # nothing between: it closes in


@pytest.mark.parametrize("game", ["dnd35", "starfinder"])
def test_the_kernel_leaves_a_window_to_the_engine(game: str) -> None:
    # The kernel tests a blow and a walk by a line of sight: a window seen through is the
    # engine's; a wall is the kernel's.
    from vigile.games.dnd35.kernel.tables import unsupported
    from vigile.games.starfinder.kernel.tables import unsupported as sf_unsupported

    check = unsupported if game == "dnd35" else sf_unsupported
    assert "window" in (check(_rooms(game, "window")) or "")
    assert check(_rooms(game, "wall")) is None


# --------------------------------------------------------------------------- map = engine


class _HiderWins:
    """Faces that make every check go the hider's way: the roller's first d20 a 20 when the
    intruder rolls (its Hide, Move Silently or Stealth comes first), every other die a 1."""

    given = False

    def __init__(self, first: int) -> None:
        self.first = first

    def face(self, sides: int) -> int:
        if self.first:
            face, self.first = self.first, 0
            return min(face, sides)
        return 1


def _engine_chance(scenario: Scenario) -> Fraction:
    """The exact chance that the intruder (the scenario's one attacker, no plan) is noticed or
    heard in the round's first round, from the round itself: every check is first asked
    unrolled (its ``Fraction`` chance of success for whoever rolls it), then rolled with faces
    that go the intruder's way, so the round takes the branch where nobody has noticed it yet
    and asks every check the map combines. The dice of different checks are independent, so
    the chance that every one goes the intruder's way is the product; a defender aware of it at
    the end of that branch noticed it without a roll (blindsight, scent, no Hide allowed):
    certain."""
    game = new_game(scenario, seed=0)
    assert isinstance(game, D20Game)
    intruder = next(w for w in game.walkers if w.side is Side.ATTACKERS)
    unnoticed = [Fraction(1)]

    def roll(check: Any, who: Any, **inputs: object) -> Verdict:
        ask = check(**inputs, source=None)
        hider = who is intruder
        chance = Fraction(ask.chance)
        unnoticed[0] *= chance if hider else 1 - chance
        return check(**inputs, source=_HiderWins(20 if hider else 1))  # type: ignore[no-any-return]

    game.roll = roll  # type: ignore[method-assign]
    game.play(turns=1)
    aware = any(
        d.aware_of(intruder.name) is not AwarenessState.UNAWARE
        for d in game.walkers
        if d.side is Side.DEFENDERS
    )
    if aware:
        return Fraction(1)
    return 1 - unnoticed[0]


def _bundled() -> list[str]:
    return sorted(
        p.stem for p in SCENARIOS.glob("*.yaml") if p.stem.startswith(("dnd35-", "starfinder-"))
    )


def _still(doc: dict[str, Any], at: tuple[float, float]) -> Scenario:
    """The scenario with its guards held still (posted, no plan), its first attacker alone
    and standing at ``at`` with no plan."""
    doc = dict(doc)
    actors = []
    intruder = None
    for actor in doc["actors"]:
        actor = dict(actor)
        if actor.get("side") == "attackers":
            if intruder is not None:
                continue
            intruder = actor["name"]
            actor["position"] = [at[0], at[1]]
        else:
            actor["state"] = "posted"
        actor.pop("plan", None)
        actors.append(actor)
    doc["actors"] = actors
    doc.pop("plans", None)
    doc.pop("dice_values", None)
    doc["turns"] = 1
    return parse_scenario(yaml.safe_dump(doc))


def _hand_built() -> dict[str, dict[str, Any]]:
    """Maps built like the ones that failed (issue 37): the dark hall (without and with
    darkvision, and in Starfinder with a carried torch), two rooms with a window, and an
    invisible intruder carrying a lit lantern at night."""
    hall = yaml.safe_load(HALL)
    seeing = yaml.safe_load(HALL)
    seeing["actors"][1]["senses"] = ["darkvision", "hearing"]
    torch = yaml.safe_load(
        HALL.replace("ruleset: dnd35", "ruleset: starfinder").replace(
            "bonuses: {hide: 5, move_silently: 5}", "bonuses: {stealth: 5}"
        )
    )
    torch["actors"][1]["bonuses"] = {"perception": 2, "light": 20}
    window = yaml.safe_load(
        ROOMS.format(
            game="dnd35",
            kind="window",
            bonuses="{hide: 5, move_silently: 5}",
            guard="{spot: 2, listen: 2}",
        )
    )
    window["time"] = "night"
    window["lights"] = [{"kind": "lantern", "at": [30, 10], "radius": 10}]
    # the flour scenario's lookout alone: invisible with a lit lantern at night (DD-16)
    lantern = yaml.safe_load((SCENARIOS / "dnd35-flour.yaml").read_text())
    lantern["actors"] = [a for a in lantern["actors"] if a["name"] != "Wisp"]
    return {
        "dark-hall": hall,
        "dark-hall-darkvision": seeing,
        "sf-torch": torch,
        "window": window,
        "invisible-lantern": lantern,
    }


CASES = {
    **{name: yaml.safe_load((SCENARIOS / f"{name}.yaml").read_text()) for name in _bundled()},
    **_hand_built(),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_risk_map_is_the_engine_on_every_square(name: str) -> None:
    doc = CASES[name]
    first = _still(doc, (2.5, 2.5))
    mapper = dnd35_map if first.ruleset == "dnd35" else starfinder_map
    found = mapper(first, "still")
    rng = np.random.default_rng(37)
    ny, nx = found.risk.shape
    squares = [(r, c) for r in range(ny) for c in range(nx)]
    picked = [squares[k] for k in rng.choice(len(squares), min(60, len(squares)), replace=False)]
    for row, column in picked:
        at = (float(found.xs[column]), float(found.ys[row]))
        expected = found.exact(row, column)
        assert _engine_chance(_still(doc, at)) == expected, (name, at)
    assert len(picked) == min(60, len(squares))


def _moving(doc: dict[str, Any], at: tuple[float, float], way: str) -> Scenario:
    """As :func:`_still`, the intruder a foot away walking onto ``at`` this round at ``way``
    (its leg's speed and run)."""
    doc = dict(doc)
    actors: list[dict[str, Any]] = []
    plans: dict[str, Any] = {}
    for actor in doc["actors"]:
        actor = dict(actor)
        if actor.get("side") == "attackers":
            if any(a.get("side") == "attackers" for a in actors):
                continue
            actor["position"] = [at[0] - 1.0, at[1]]
            leg: dict[str, Any] = {
                "to": [at[0], at[1]],
                "speed": "half" if way == "half" else "fast",
            }
            if way == "run":
                leg["run"] = True
            plans = {actor["name"]: [leg]}
        else:
            actor["state"] = "posted"
        actors.append(actor)
    doc["actors"] = actors
    doc["plans"] = plans
    doc.pop("dice_values", None)
    doc["turns"] = 1
    return parse_scenario(yaml.safe_dump(doc))


@pytest.mark.parametrize("way", ["half", "run"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_the_moving_risk_map_is_the_engine(name: str, way: str) -> None:
    doc = CASES[name]
    first = _still(doc, (2.5, 2.5))
    mapper = dnd35_map if first.ruleset == "dnd35" else starfinder_map
    found = mapper(first, way)
    rng = np.random.default_rng(38)
    ny, nx = found.risk.shape
    squares = [(r, c) for r in range(ny) for c in range(nx)]
    picked = [squares[k] for k in rng.choice(len(squares), min(30, len(squares)), replace=False)]
    for row, column in picked:
        at = (float(found.xs[column]), float(found.ys[row]))
        assert _engine_chance(_moving(doc, at, way)) == found.exact(row, column), (name, at)
