"""The d20 round engine (issue 4, item 3): Starfinder and D&D 3.5 scenarios played round by
round through the rule functions, with the GM's dice consumed in the engine's order."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from vigile.awareness.ladder import AwarenessState
from vigile.dice.source import RolledFaces
from vigile.engine.result import GameResult
from vigile.engine.run import new_game, play
from vigile.io.i18n import Lang
from vigile.io.views import character_lines, gm_lines, json_lines
from vigile.scene.loader import load_scenario
from vigile.scene.model import Scenario

BUNDLED = (
    "dnd35-invisible-intruder",
    "starfinder-infiltration",
    "dnd35-rogue-sneak-attack",
    "dnd35-flour",
    "starfinder-sniper",
)

# An invisible intruder walks 15 ft (half of its 30 ft) toward one guard, 30 ft away.
# After round 1 it stands at (15, 10), 15 ft from the guard at (30, 10).
PASS_BY = """\
ruleset: {ruleset}
name: pass by
map: {{width: 60, height: 20}}
turns: {turns}
actors:
  - name: Ghost
    side: attackers
    position: [0, 10]
    move: 30
    {ghost}
    bonuses: {ghost_bonuses}
  - name: Guard
    side: defenders
    position: [30, 10]
    senses: {senses}
    bonuses: {guard_bonuses}
plans:
  Ghost:
    - {{to: [15, 10], speed: half}}
"""


def scenario(
    tmp_path: Path,
    *,
    ruleset: str = "dnd35",
    turns: int = 1,
    ghost: str = "invisible: true",
    senses: str = "[sight, hearing]",
    ghost_bonuses: str = "{move_silently: 5, hide: 8, touch_ac: 12}",
    guard_bonuses: str = "{spot: 4, listen: 4}",
) -> Scenario:
    path = tmp_path / "pass-by.yaml"
    path.write_text(
        PASS_BY.format(
            ruleset=ruleset,
            turns=turns,
            ghost=ghost,
            senses=senses,
            ghost_bonuses=ghost_bonuses,
            guard_bonuses=guard_bonuses,
        ),
        encoding="utf-8",
    )
    return load_scenario(path)


def checks(result: GameResult, kind: str | None = None) -> list[object]:
    return [e for e in result.events if e.verdict is not None and kind in (None, e.kind)]


def render_everything(result: GameResult) -> None:
    """Every event renders in both languages, for the GM and for each character (a missing
    message key raises KeyError)."""
    for lang in (Lang.EN, Lang.FR):
        assert list(gm_lines(result, lang))
        assert list(json_lines(result, lang))
        for walker in result.walkers:
            assert list(character_lines(result, walker.name, lang))
            assert list(json_lines(result, lang, walker.name))


# ------------------------------------------------------------------ bundled scenarios


@pytest.mark.parametrize("name", BUNDLED)
def test_bundled_d20_scenarios_play_to_an_outcome(name: str) -> None:
    result = play(load_scenario(name))
    assert result.outcome.kind in ("objective", "alarm", "turn_limit", "detected")
    assert result.events[0].kind == "start"
    assert any(e.verdict is not None for e in result.events)
    render_everything(result)


@pytest.mark.parametrize("name", BUNDLED)
def test_the_same_seed_replays_the_same_game(name: str) -> None:
    scene = load_scenario(name)
    for seed in (1, 2, 3):
        first = list(json_lines(play(scene, seed=seed), Lang.EN))
        again = list(json_lines(play(scene, seed=seed), Lang.EN))
        assert first == again


@pytest.mark.parametrize("name", BUNDLED)
def test_different_seeds_can_differ(name: str) -> None:
    scene = load_scenario(name)
    logs = {tuple(json_lines(play(scene, seed=seed), Lang.EN)) for seed in range(6)}
    assert len(logs) > 1


@pytest.mark.parametrize("name", BUNDLED)
@pytest.mark.parametrize("seed", range(6))
def test_awareness_never_decreases(name: str, seed: int) -> None:
    scene = load_scenario(name)
    rng = np.random.default_rng(seed)
    game = new_game(scene, seed=seed, faces=RolledFaces(rng))
    before = {w.name: {} for w in game.walkers}
    while game.outcome is None and game.turn < scene.turns:
        game.play_turn()
        # LP-2 (DD-4..DD-7): a square found by any means is lost when the intruder moves,
        # down to presence or direction, and the engine says so; nothing else is forgotten.
        lost = {
            (e.actor, e.target)
            for e in game.events
            if e.turn == game.turn and e.message == "engine.d20.lost"
        }
        for walker in game.walkers:
            now = {k: v.rank for k, v in walker.awareness.items()}
            for other, rank in before[walker.name].items():
                if (walker.name, other) in lost:
                    assert now[other] >= AwarenessState.PRESENCE.rank
                else:
                    assert now.get(other, 0) >= rank
            before[walker.name] = now
    render_everything(game.play())


# ------------------------------------------------------------------ dnd35 by hand


SWEEP_DICE = [17, 10, 12, 15, 70, 1, 15, 70, 1, 15, 70, 51]
"""Round 1: Spot, Move Silently, Listen, the grope's touch and d%; rounds 2 and 3: Spot, the
grope's touch and d%; round 4: the attack's d%."""


def test_DD5_DD6_a_guard_who_hears_only_the_direction_sweeps_along_it(tmp_path: Path) -> None:
    """Round 1: Spot 17 (DC 20, +4 −1 at 15 ft: 1/5) notices it (DD-3); Listen: Move Silently
    10 +5 +1 (15 ft) = DC 16, Listen 12 + 4 = 16 hears it (ties to the listener, DD-5:
    P(L − M ≥ 2) = 171/400): the guard knows only its direction, a bearing of 180° from
    (30, 10), no distance. He gropes the two squares ahead on that bearing ([R] the neighbours
    at 180° and 225° of his square (6, 2): (5, 2) and (5, 1)); the ghost is in (3, 2): touch 15
    ≥ 12 and d% 70, but nothing there (chance 0). He steps 5 ft along it ([search] step_ft)
    to (25, 10).
    Round 2: the ghost stands still: Spot DC 30, +4 −1 (10 ft): at most 23, chance 0; no
    Listen (no noise). Gropes (4, 2) and (4, 1): nothing; steps to (20, 10).
    Round 3: Spot d20 1 (DC 30, +4: chance 0). Gropes (3, 2) and (3, 1): the ghost is in (3, 2):
    touch 15 against touch AC 12 (9/20), then d% 70 > 50: 9/20 · 1/2 = 9/40, found (DD-6), the
    alarm. Round 4: the guard attacks the located ghost: d% 51 > 50, the blow lands (DD-8): a
    hit, which catches nobody (LP-7 [R]): the game ends at round 4 on the alarm of round 3."""
    scene = scenario(tmp_path, turns=4)
    result = play(scene, dice_values=SWEEP_DICE)

    spot, silent, listen, *gropes, attack = [
        e for e in checks(result) if e.message != "dnd35.round.spot" or e.turn == 1
    ]
    # Spot gave only presence (DD-3): the guard's event does not quote the distance.
    assert spot.message == "dnd35.round.spot" and spot.verdict is not None
    assert "distance" not in spot.params
    assert spot.verdict.difficulty == 20
    assert spot.verdict.die_bonus == 3
    assert spot.verdict.chance == Fraction(1, 5)
    assert spot.verdict.success and spot.verdict.state is AwarenessState.PRESENCE

    # One Move Silently for every listener (DD-20 [R]): here one listener, the same odds.
    assert silent.message == "dnd35.round.move_silently" and silent.actor == "Ghost"
    assert silent.verdict is not None and silent.verdict.chance == Fraction(229, 400)
    assert listen.message == "dnd35.round.listen" and listen.verdict is not None
    assert "distance" not in listen.params
    assert listen.verdict.chance == Fraction(171, 400)
    assert listen.verdict.figures.dc == 16 and listen.verdict.figures.result == 16
    assert listen.verdict.success and listen.verdict.state is AwarenessState.DIRECTION

    # The grope is placed where the guard gropes (the first square's centre), never at the
    # ghost's (15, 10).
    assert [(g.message, g.turn, g.at) for g in gropes] == [
        ("engine.d20.grope", 1, (27.5, 12.5)),
        ("engine.d20.grope", 2, (22.5, 12.5)),
        ("engine.d20.grope", 3, (17.5, 12.5)),
    ]
    chances = [g.verdict.chance if g.verdict else None for g in gropes]
    assert chances == [0, 0, Fraction(9, 40)]
    assert [g.verdict.success if g.verdict else None for g in gropes] == [False, False, True]
    steps = [(e.turn, e.at) for e in result.events if e.message == "engine.d20.searches"]
    assert steps == [(1, (25, 10)), (2, (20, 10))]

    assert attack.turn == 4 and attack.verdict is not None
    assert attack.verdict.chance == Fraction(1, 2)
    assert attack.verdict.success

    alarm = [e for e in result.events if e.kind == "alarm"]
    assert [(e.turn, e.actor) for e in alarm] == [(3, "Guard")]
    # LP-7 [R]: the blow hits (no ac: the GM's hit, taken as one), no hit points, one blow
    # does not end the encounter: the game ends at its limit on the alarm of round 3.
    assert [e.turn for e in result.events if e.message == "engine.d20.hits"] == [4]
    assert result.outcome.kind == "alarm"
    assert (result.outcome.turn, result.outcome.by, result.outcome.unseen) == (3, ("Guard",), False)
    guard = next(w for w in result.walkers if w.name == "Guard")
    assert guard.aware_of("Ghost") is AwarenessState.LOCATION
    render_everything(result)


def test_without_the_blow_the_alarm_ends_the_game(tmp_path: Path) -> None:
    result = play(scenario(tmp_path, turns=3), dice_values=SWEEP_DICE[:-1])
    assert result.outcome.kind == "alarm"
    assert (result.outcome.turn, result.outcome.by) == (3, ("Guard",))


def test_a_character_sees_only_its_own_checks(tmp_path: Path) -> None:
    result = play(scenario(tmp_path, turns=4), dice_values=SWEEP_DICE)
    ghost = [e.message for e in result.events if e.known_to("Ghost")]
    guard = [e.message for e in result.events if e.known_to("Guard")]
    assert "dnd35.round.spot" not in ghost and "dnd35.round.listen" not in ghost
    assert "engine.d20.grope" not in ghost and "dnd35.round.move_silently" in ghost
    assert "dnd35.round.spot" in guard and "engine.d20.grope" in guard
    assert "dnd35.round.move_silently" not in guard
    assert "engine.event.move" in ghost and "engine.event.move" not in guard
    assert "engine.d20.hits" in ghost and "engine.d20.hits" in guard


def test_the_gms_dice_run_out_when_the_engine_asks_for_more(tmp_path: Path) -> None:
    from vigile.errors import InputError

    with pytest.raises(InputError):
        play(scenario(tmp_path, turns=2), dice_values=[17, 10, 12, 15, 70])


@pytest.mark.parametrize("seed", range(8))
def test_an_ethereal_intruder_is_never_detected(tmp_path: Path, seed: int) -> None:
    """Neither Spot, Listen nor scent reaches an ethereal creature (DD-17): no check at all."""
    scene = scenario(
        tmp_path, turns=3, ghost="ethereal: true", senses="[sight, hearing, scent, blindsight]"
    )
    result = play(scene, seed=seed)
    assert not checks(result)
    assert result.outcome.kind == "turn_limit" and result.outcome.unseen
    assert all(not w.awareness for w in result.walkers if w.name == "Guard")
    render_everything(result)


def test_a_guard_with_scent_locates_an_invisible_intruder_within_30_ft(tmp_path: Path) -> None:
    """Scent locates it with no roll (DD-13); the guard closes in and attacks: d% 60 > 50."""
    scene = scenario(tmp_path, senses="[sight, hearing, scent]")
    result = play(scene, dice_values=[60])
    scent = [e for e in result.events if e.message == "engine.d20.scent"]
    assert [(e.turn, e.params["rule"], e.params["distance"]) for e in scent] == [(1, "DD-13", 15)]
    assert [e.params["state"] for e in scent] == ["location"]
    (attack,) = checks(result)
    assert attack.kind == "attack" and attack.verdict is not None
    assert attack.verdict.chance == Fraction(1, 2)
    assert "engine.d20.hits" in [e.message for e in result.events]  # LP-7: not caught
    assert result.outcome.kind == "alarm" and result.outcome.turn == 1
    render_everything(result)


def test_scent_does_not_reach_past_30_ft(tmp_path: Path) -> None:
    """The guard stands 45 ft away after round 1: no scent; Spot is out of range (DD-3); only
    Listen: Move Silently 1 + 5 + 4 (45 ft) = 10 against Listen 1 + 4: not heard."""
    text = PASS_BY.format(
        ruleset="dnd35",
        turns=1,
        ghost="invisible: true",
        senses="[sight, hearing, scent]",
        ghost_bonuses="{move_silently: 5}",
        guard_bonuses="{spot: 4, listen: 4}",
    ).replace("position: [30, 10]", "position: [60, 10]")
    path = tmp_path / "far.yaml"
    path.write_text(text, encoding="utf-8")
    result = play(load_scenario(path), dice_values=[1, 1])
    assert not [e for e in result.events if e.message == "engine.d20.scent"]
    _, listen = checks(result)
    assert listen.message == "dnd35.round.listen" and listen.verdict is not None
    assert listen.verdict.figures.dc == 10 and not listen.verdict.success


def test_see_invisibility_meets_hide_with_spot(tmp_path: Path) -> None:
    """DD-20: Hide 5 + 8 = 13 against Spot 15 + 4 − 1 (15 ft) = 18: spotted, observed; the
    guard then strikes an intruder it sees: no miss chance, a hit (LP-7: not caught)."""
    scene = scenario(tmp_path, senses="[sight, hearing, see-invisible]")
    result = play(scene, dice_values=[5, 15])
    hide, spot = checks(result)
    assert hide.message == "dnd35.round.hide" and hide.actor == "Ghost"
    assert spot.message == "engine.d20.spot_hide" and spot.actor == "Guard"
    assert spot.verdict is not None and spot.verdict.success
    guard = next(w for w in result.walkers if w.name == "Guard")
    assert guard.aware_of("Ghost") is AwarenessState.OBSERVED
    assert any(e.message == "engine.d20.attack_seen" for e in result.events)
    assert any(e.message == "engine.d20.hits" for e in result.events)
    assert result.outcome.kind == "alarm"
    ghost_view = list(character_lines(result, "Ghost", Lang.EN))
    assert not any("Spot against" in line for line in ghost_view)
    render_everything(result)


# ------------------------------------------------------------------ starfinder by hand


def test_a_starfinder_intruder_without_cover_is_observed(tmp_path: Path) -> None:
    """SF-2: no cover, no concealment, not invisible: no Stealth check; the guard observes it,
    raises the alarm, closes in and hits it (LP-7: one blow does not end the encounter)."""
    scene = scenario(
        tmp_path,
        ruleset="starfinder",
        ghost="invisible: false",
        ghost_bonuses="{stealth: 10}",
        guard_bonuses="{perception: 5}",
    )
    result = play(scene, dice_values=[])
    stealth = next(e for e in result.events if e.message == "engine.d20.stealth")
    assert stealth.verdict is not None and stealth.verdict.impossible
    assert stealth.verdict.outcome == "starfinder.hide.refused"
    learns = [e for e in result.events if e.message == "engine.d20.learns"]
    assert [(e.params["state"], e.params["rule"]) for e in learns] == [("observed", "SF-2")]
    assert any(e.message == "engine.d20.hits" for e in result.events)
    assert result.outcome.kind == "alarm"
    render_everything(result)


def test_a_starfinder_invisible_intruder_rolls_one_stealth_for_all(tmp_path: Path) -> None:
    """SF-4, SF-7: Stealth 10 + 10 + 20 (invisible, moving) = 40 against Perception 19 + 5:
    not noticed; the guard stays unaware and no more dice are asked."""
    scene = scenario(
        tmp_path,
        ruleset="starfinder",
        ghost_bonuses="{stealth: 10}",
        guard_bonuses="{perception: 5}",
    )
    result = play(scene, dice_values=[10, 19])
    stealth, member = checks(result)
    assert stealth.verdict is not None and stealth.verdict.figures.opposed.result == 40
    assert member.actor == "Guard" and member.verdict is not None
    assert member.verdict.difficulty == 40 and not member.verdict.success
    assert result.outcome.kind == "turn_limit" and result.outcome.unseen
    render_everything(result)
