"""Random small d20 scenarios for the exact engine-versus-kernel tests (hypothesis): one builder
per game, shared by ``tests/test_kernel_d20_equivalence.py`` (``featured=False``: the round as
the kernel first played it) and ``tests/test_kernel_d20_features.py`` (``featured=True``: every
feature the kernel took over from the engine since). A 60 x 60 ft board; the result is the
scenario's JSON text (``generated`` parses it).

Plain: a few walls and a door named "gate" an intruder may open or close; defenders posted or
patrolling with a mix of senses, asleep, distracted or on alert; one or two intruders, visible
(casting invisibility at once, in D&D 3.5) or invisible, walking, running and waiting, striking
defenders, attacking squares (D&D 3.5), sniping (Starfinder). Featured adds: up to nine named
doors, lights placed and carried, cover, night more often, darkvision with see invisibility,
ethereal actors, kills, words, invisibility cast and ended, and the house rules the
kernels read (darkness without lights; groping without the touch attack; the sound distance).
Both draw a blow's house rules (LP-7 [R]): one blow ends the encounter half of the time (the
kernel's caught intruders), a blow at a creature without ``ac`` misses now and then.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import strategies as st

coordinate = st.integers(min_value=2, max_value=58)
point = st.tuples(coordinate, coordinate)

DND35_SENSES = [
    ["sight", "hearing"],
    ["sight", "hearing", "scent"],
    ["blindsight", "hearing"],
    ["darkvision", "hearing", "scent"],
    ["hearing"],
    ["sight", "hearing", "see-invisible"],
]
DND35_FEATURED_SENSES = [*DND35_SENSES, ["darkvision", "hearing", "see-invisible"]]
SF_SENSES = [["sight", "hearing"], ["sight", "darkvision"], ["sight", "blindsense"], ["blindsight"]]
SF_FEATURED_SENSES = [*SF_SENSES, ["sight", "see-invisible"], ["darkvision", "see-invisible"]]

DND35_ACTIONS = ["open-door", "close-door", "strike", "attack-square"]
DND35_FEATURED_ACTIONS = [
    *DND35_ACTIONS,
    *("kill", "speak", "cast-invisibility", "end-invisibility") * 2,
]
SF_ACTIONS = ["open-door", "close-door", "strike", "snipe"]
SF_FEATURED_ACTIONS = [
    *SF_ACTIONS,
    *("kill", "snipe", "speak", "cast-invisibility", "end-invisibility") * 2,
]


def _walls(draw: st.DrawFn, doors: list[str]) -> list[dict[str, object]]:
    """A few walls, then the named ``doors``: "gate" across the south, the others in a row
    (some open)."""
    walls: list[dict[str, object]] = [
        {
            # no window: a see-through barrier is played by the engine, never the kernel
            # (d20.kernel.see_through); tests/test_d20_risk_darkness_windows.py plays them
            "kind": draw(st.sampled_from(["wall", "partition", "door"])),
            "start": list(a),
            "end": list(b),
        }
        for a, b in draw(st.lists(st.tuples(point, point), max_size=3))
        if a != b
    ]
    for k, name in enumerate(doors):
        if name == "gate":
            walls.append({"kind": "door", "name": name, "start": [30, 40], "end": [30, 50]})
            continue
        x, y = 6 * k + 3, draw(st.integers(0, 50))
        walls.append(
            {
                "kind": "door",
                "name": name,
                "start": [x, y],
                "end": [x, y + 8],
                "open": draw(st.booleans()),
            }
        )
    return walls


def _doors(draw: st.DrawFn, featured: bool) -> list[str]:
    if not featured:
        return ["gate"]
    return [f"door {k}" for k in range(draw(st.sampled_from([0, 1, 3, 7, 9])))]


def _lights(draw: st.DrawFn, featured: bool) -> list[dict[str, object]]:
    if not featured:
        return []
    return [
        {"kind": "lantern", "at": list(draw(point)), "radius": draw(st.sampled_from([10, 20]))}
        for _ in range(draw(st.integers(0, 2)))
    ]


def _action(
    draw: st.DrawFn, action: str, targets: list[str], doors: list[str]
) -> dict[str, object] | None:
    """One action of a leg; None for a door action on a board without doors."""
    if action in ("open-door", "close-door"):
        return {"do": action, "door": draw(st.sampled_from(doors))} if doors else None
    if action == "strike":
        target = draw(st.sampled_from(targets))
        return {"do": action, "target": target, "ranged": draw(st.booleans())}
    if action in ("kill", "snipe"):
        return {"do": action, "target": draw(st.sampled_from(targets))}
    if action == "attack-square":
        return {"do": action, "at": list(draw(point)), "ranged": draw(st.booleans())}
    if action == "speak":
        return {"do": action, "volume": "whisper"}
    return {"do": action}


def _legs(
    draw: st.DrawFn, actions: list[str], targets: list[str], doors: list[str], featured: bool
) -> list[dict[str, object]]:
    """One to four legs: to a point (featured: now and then acting where it stands), half
    speed or fast, running or waiting now and then; plain, an action a leg at most (half of
    them none), featured up to two. What one round cannot hold after the leg's move (LP-1:
    a run's actions, a second action) goes to legs of their own, each the next round."""
    legs: list[dict[str, object]] = []
    for _ in range(draw(st.integers(1, 4))):
        leg: dict[str, object] = {
            "to": list(draw(point)),
            "speed": draw(st.sampled_from(["half", "fast"])),
        }
        if draw(st.integers(0, 3)) == 0:
            leg["run"] = True
        if draw(st.integers(0, 3)) == 0:
            leg["wait"] = draw(st.integers(1, 2))
        if featured and draw(st.integers(0, 2)) == 0:
            del leg["to"]  # acts where it stands
        if featured:
            chosen = [draw(st.sampled_from(actions)) for _ in range(draw(st.integers(0, 2)))]
        else:
            chosen = [a for a in [draw(st.sampled_from([*actions, "none", "none"]))] if a != "none"]
        done = [a for a in (_action(draw, a, targets, doors) for a in chosen) if a is not None]
        # one round holds the move and one action (LP-1): a run is the whole round, and any
        # further action is played the next round, at a waypoint of its own
        first = [] if leg.get("run") and not leg.get("wait") else done[:1]
        leg["actions"] = first
        legs.append(leg)
        legs += [{"actions": [a]} for a in done[len(first) :]]
    return legs


def _board(
    draw: st.DrawFn, ruleset: str, featured: bool, doors: list[str], actors: list[Any]
) -> dict[str, object]:
    times = ["night", "night", "night", "day"] if featured else ["night", "day"]
    scenario: dict[str, object] = {
        "ruleset": ruleset,
        "name": f"random {ruleset} {'features' if featured else 'scenario'}",
        "units": "ft",
        "time": draw(st.sampled_from(times)),
        "map": {"width": 60, "height": 60},
        "turns": draw(st.integers(3 if featured else 2, 8)),
        "lights": _lights(draw, featured),
        "walls": _walls(draw, doors),
        "actors": actors,
    }
    if ruleset == "dnd35":
        scenario["default_surface"] = "stone"
        scenario["surfaces"] = [
            {"kind": "soft-ground", "points": [[0, 0], [30, 0], [30, 30], [0, 30]]},
            {"kind": "water", "points": [[35, 35], [45, 35], [45, 45], [35, 45]]},
        ]
    if featured or ruleset == "starfinder":
        scenario["cover"] = [{"points": [[10, 10], [25, 10], [25, 25], [10, 25]]}]
    return scenario


def _chance(draw: st.DrawFn, one_in: int) -> bool:
    return draw(st.integers(0, one_in - 1)) == 0


def _defender(
    draw: st.DrawFn, k: int, senses: list[list[str]], bonuses: dict[str, object]
) -> dict[str, Any]:
    """Defender G{k}, posted or patrolling, with one of ``senses``."""
    return {
        "name": f"G{k}",
        "side": "defenders",
        "position": list(draw(point)),
        "state": draw(st.sampled_from(["posted", "patrolling"])),
        "senses": draw(st.sampled_from(senses)),
        "bonuses": bonuses,
    }


def _alert_and_move(draw: st.DrawFn, defender: dict[str, Any], featured: bool) -> None:
    """Plain: on alert now and then; both: a move of its own now and then."""
    if not featured and _chance(draw, 6):
        defender["alert"] = True
    if draw(st.booleans()):
        defender["move"] = draw(st.sampled_from([10, 20, 30]))


def _intruder(
    draw: st.DrawFn, k: int, bonuses: dict[str, object], featured: bool
) -> dict[str, Any]:
    """Intruder N{k}, visible or invisible; featured, ethereal now and then."""
    intruder: dict[str, Any] = {
        "name": f"N{k}",
        "side": "attackers",
        "position": list(draw(point)),
        "invisible": draw(st.booleans()),
        "move": 30,
        "bonuses": bonuses,
    }
    if featured:
        intruder["ethereal"] = _chance(draw, 7)
    return intruder


def _ending(draw: st.DrawFn, scenario: dict[str, object], house: dict[str, Any]) -> str:
    """The blow's house rules, the others (if any), an objective now and then; the scenario's
    JSON."""
    blow: dict[str, bool] = {}
    if draw(st.booleans()):
        blow["ends_encounter"] = True
    if _chance(draw, 4):
        blow["hits_without_ac"] = False
    if blow:
        house["blow"] = blow
    if house:
        scenario["house_rules"] = house
    if draw(st.booleans()):
        scenario["objective"] = {"at": list(draw(point)), "radius": 5}
    return json.dumps(scenario)


@st.composite
def dnd35_scenarios(draw: st.DrawFn, featured: bool = False) -> str:
    """A small D&D 3.5 scenario (see the module's docstring)."""
    doors = _doors(draw, featured)
    defenders: list[dict[str, Any]] = []
    for k in range(draw(st.integers(1, 4))):
        bonuses: dict[str, object] = {
            "spot": draw(st.integers(-2, 15)),
            "listen": draw(st.integers(-2, 15)),
            "attack": draw(st.integers(0, 8)),
            "blind_fight": draw(st.booleans()),
            "flour": draw(st.sampled_from([0, 0, 2] if featured else [0, 0, 1, 3])),
        }
        if featured:
            bonuses["light"] = draw(st.sampled_from([0, 0, 0, 15]))
        if draw(st.booleans()):
            bonuses["ac"] = draw(st.integers(10, 20))
            if not featured:
                bonuses["dex"] = draw(st.integers(0, 4))
        defender = _defender(draw, k, DND35_FEATURED_SENSES if featured else DND35_SENSES, bonuses)
        if _chance(draw, 6 if featured else 5):
            defender["invisible"] = True
        if featured and _chance(draw, 7):
            defender["ethereal"] = True
        if _chance(draw, 6 if featured else 5):
            defender["asleep"] = True
        elif _chance(draw, 5 if featured else 4):
            defender["distracted"] = True
        _alert_and_move(draw, defender, featured)
        defenders.append(defender)
    targets = [d["name"] for d in defenders]
    actions = DND35_FEATURED_ACTIONS if featured else DND35_ACTIONS
    intruders, plans = [], {}
    for k in range(draw(st.integers(1, 2))):
        bonuses = {
            "hide": draw(st.integers(-2, 15)),
            "attack": draw(st.integers(0, 8)),
            "reach": draw(st.sampled_from([5, 5, 10])),
            "dex": draw(st.integers(0, 4)),
            "touch_ac": draw(st.integers(8, 18)),
        }
        if not featured:
            bonuses["sneak_attack"] = draw(st.integers(0, 3))
        if draw(st.booleans()):
            bonuses["move_silently"] = draw(st.integers(-2, 15))
        if draw(st.booleans()):
            bonuses["ac"] = draw(st.integers(10, 20))
        bonuses["light"] = draw(st.sampled_from([0, 0, 0, 15]))
        intruder = _intruder(draw, k, bonuses, featured)
        intruder["incorporeal"] = _chance(draw, 7 if featured else 6)
        intruder["breathing"] = not _chance(draw, 7 if featured else 6)
        intruders.append(intruder)
        legs = _legs(draw, actions, targets, doors, featured)
        if not (featured or intruder["invisible"]):  # plain: invisible from the first round
            legs.insert(0, {"actions": [{"do": "cast-invisibility"}]})
        plans[f"N{k}"] = legs
    scenario = _board(draw, "dnd35", featured, doors, intruders + defenders)
    scenario["plans"] = plans
    house: dict[str, Any] = {}
    if featured and _chance(draw, 4):
        house["light"] = {"dark_without_lights": True}
    if featured and _chance(draw, 4):
        house["companion"] = {"grope_touch_attack": False}
    return _ending(draw, scenario, house)


@st.composite
def starfinder_scenarios(draw: st.DrawFn, featured: bool = False) -> str:
    """A small Starfinder scenario (see the module's docstring)."""
    doors = _doors(draw, featured)
    defenders: list[dict[str, Any]] = []
    for k in range(draw(st.integers(1, 4))):
        perception: dict[str, object] = {
            "perception": draw(st.integers(-2, 15)),
            "light": draw(st.sampled_from([0, 0, 0, 20])),
        }
        if draw(st.booleans()):
            perception["ac"] = draw(st.integers(10, 20))
        defender = _defender(draw, k, SF_FEATURED_SENSES if featured else SF_SENSES, perception)
        if featured and _chance(draw, 7):
            defender["ethereal"] = True
        _alert_and_move(draw, defender, featured)
        defenders.append(defender)
    targets = [d["name"] for d in defenders]
    actions = SF_FEATURED_ACTIONS if featured else SF_ACTIONS
    intruders, plans = [], {}
    for k in range(draw(st.integers(1, 2))):
        bonuses: dict[str, object] = {
            "stealth": draw(st.integers(-2, 20)),
            "attack": draw(st.integers(0, 8)),
            "light": draw(st.sampled_from([0, 0, 0, 15])),
        }
        if draw(st.booleans()):
            bonuses["ac"] = draw(st.integers(10, 20))
        intruders.append(_intruder(draw, k, bonuses, featured))
        plans[f"N{k}"] = _legs(draw, actions, targets, doors, featured)
    scenario = _board(draw, "starfinder", featured, doors, intruders + defenders)
    scenario["plans"] = plans
    if not featured and draw(st.booleans()):
        scenario["lights"] = [{"kind": "lantern", "at": list(draw(point)), "radius": 20}]
    rules: dict[str, Any] = {}
    if featured and draw(st.booleans()):
        rules["companion"] = {"sound_distance": True}
    if featured and _chance(draw, 4):
        rules["light"] = {"dark_without_lights": True}
    return _ending(draw, scenario, rules)
