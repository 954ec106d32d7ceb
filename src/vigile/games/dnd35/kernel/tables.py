"""What the compiled D&D 3.5 kernel reads: a scenario as flat arrays, and every check as a table
built by the rule functions of :mod:`vigile.rulesets.dnd35` (nothing here is compiled; the
groping table sorts its cases with the kernel's own :func:`~vigile.games.d20.kernel.way_case`
and :func:`~vigile.games.d20.kernel.bearing_case`, so that table and kernel cannot disagree).

A check that rolls one die is a table of what each face gives (the rule called with that face,
:class:`~vigile.dice.source.GivenFaces`): Spot (DD-3, DD-4) by face, Spot on footprints in soft
ground (DD-11 [R], ``footprints_check``) by face, the attack roll
(DD-21) by face, the grope's touch attack and its miss chance (DD-6) by face, the miss chance of
a blow (DD-8, DD-12, DD-14, DD-15) by face. Listen (DD-5) has two dice, the intruder's Move
Silently and each listener's Listen: its table holds each listener's part of the DC and its
bonus, as the rule's verdict gives them, and the kernel rolls them as
:func:`vigile.rulesets.dnd35.listen.listen_all_check` does (one Move Silently d20 for all, a
Listen d20 each); what a Listen result's margin over its DC gives (``heard``: the listener
winning ties, pinpointed from ``listen.pinpoint_margin``) is a table by margin. Hide against
Spot (DD-20): whether it may hide at all (``hide_refused``: a visible hider out of cover may
not), the hider's part by speed, each observer's by distance, and who wins a tie
(``hide_tie``: ``hide_check`` with faces that tie), each for a visible and an invisible hider.
Whatever reads whether the intruder is invisible now (the attack rolls, what a sense
reaches, what a struck defender that sees it learns) is a table by it too, and whether a
place is dark for a defender is the shared one (:func:`vigile.games.d20.kernel.prefix`).
Where a defender gropes (DD-5, DD-6 [R],
:mod:`vigile.rulesets.dnd35.search`) is a table by case of its way or bearing (``toward``,
``ahead``). What a sense reaches (:func:`vigile.rulesets.senses.reach`), what shows an
invisible creature's square for certain (:func:`vigile.rulesets.dnd35.traits.sign_shown`) or
calls for a Spot on its footprints (:func:`~vigile.rulesets.dnd35.traits.footprints_left`,
:func:`~vigile.rulesets.dnd35.traits.footprints_in_range`) and what a lost
pinpoint leaves (:func:`~vigile.rulesets.dnd35.traits.pinpoint_lost`) are tables too.

A case is chosen so that the rule gives the same verdict for every distance it stands for: Spot
and Listen read a distance only through its whole steps (``distance_steps``: ``-1 per 10 ft``,
``+1 per 10 ft``), so the kernel counts the steps and the table holds one distance of each; the
signs read a distance only against the ranges they name (``spot.range_ft``, ``tracks.range_ft``,
``objects.sight_ft``), so the kernel counts the ranges a distance is beyond, and the table holds
the far end of each band; Spot on footprints reads it through Spot's whole steps and
``tracks.range_ft``, so it is a table by steps, read within the band the signs table marks.

The intruders' walk does not depend on chance while they live (a plan is walked straight, doors
opened and closed as it says): :func:`schedule` plays it once with the engine's own
:class:`~vigile.games.dnd35.round.Dnd35Game` and hands the kernel where each intruder stands
after each round's walk, how it moved, and what it did (ops: doors, invisibility, blows,
kills, attacks on squares; the kernel plays each as the engine does, against the run's state).

:func:`unsupported` says what the kernel does not play yet; ``compiled`` then returns None and
the engine plays the scenario.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any

import numpy as np

from vigile.awareness.ladder import AwarenessState
from vigile.awareness.vocabulary import TimeOfDay
from vigile.dice.source import GivenFaces
from vigile.errors import VigileError
from vigile.games.d20 import kernel as d20
from vigile.games.d20.actions import AttackSquare
from vigile.games.d20.fields import d20_actors
from vigile.games.d20.kernel import NotCovered
from vigile.games.d20.round import NO_STATS, square_of
from vigile.rulesets import dnd35
from vigile.rulesets.data import RuleData
from vigile.rulesets.dnd35 import search, traits
from vigile.rulesets.senses import Condition, Sense, reach
from vigile.scene.actors import Side
from vigile.scene.model import Scenario
from vigile.scene.plans import Speak

Array = np.ndarray[Any, Any]

STATES = tuple(AwarenessState)
"""The ladder's ranks: the kernel's awareness codes (0 unaware … 4 observed)."""
MOST_CASES = 200_000
"""Most Listen cases the tables hold; a scenario beyond is played by the engine."""
SPOT_KINDS = (dnd35.SpotTarget.NON_BREATHING, dnd35.SpotTarget.MOVING, dnd35.SpotTarget.STILL)
LISTEN_SPEEDS = (dnd35.ListenSpeed.HALF, dnd35.ListenSpeed.FULL, dnd35.ListenSpeed.RUN, None)
"""The Listen table's speeds; the last: the intruder fought or spoke this round (DC 0)."""
SPEED_HALF, SPEED_FULL, SPEED_RUN = range(3)
HIDE_SPEEDS = (dnd35.HideSpeed.HALF, dnd35.HideSpeed.FULL, dnd35.HideSpeed.RUN)
FACES_D20, FACES_D100 = 20, 100
PLANS = (search.Search.STAY, search.Search.SQUARE, search.Search.BEARING)
"""The kernel's codes of what a defender does (0 stay, 1 square, 2 bearing), by what it knows
of the place (0 nothing, 1 a square, 2 a bearing)."""


def unsupported(scenario: Scenario) -> str | None:
    """Why the kernel does not play ``scenario`` yet (None: it does). It plays intruders,
    visible or invisible, ethereal or not, who walk, run, wait, open and close doors, cast and
    end invisibility, speak, strike, kill and attack squares (a defender: not an ally);
    defenders posted or patrolling, asleep or distracted, visible, invisible or ethereal, with
    sight, darkvision, hearing, scent, blindsight and see invisibility, who Hide against Spot
    (in the light, darkness, DD-20), Spot, Listen, smell, see the signs, grope, throw flour,
    close in and strike; named doors, as many as the ways they can stand in a run are not too
    many (:func:`vigile.games.d20.kernel.door_states`), and at most
    :data:`vigile.games.d20.kernel.MOST_DOOR_STATES` of those."""
    return d20.uncovered(scenario, "dnd35", "D&D 3.5", lambda: schedule(scenario, scenario.rules()))


def _conditions(actor: Any, invisible: bool, liquid: bool) -> list[Condition]:
    """The engine's ``_conditions`` of an intruder (:class:`vigile.games.d20.round.D20Game`)."""
    return [
        c
        for c, on in (
            (Condition.INVISIBLE, invisible),
            (Condition.ETHEREAL, actor.ethereal),
            (Condition.INCORPOREAL, actor.incorporeal),
            (Condition.NOT_BREATHING, not actor.breathing),
            (Condition.IN_LIQUID, liquid),
        )
        if on
    ]


def _rank(state: AwarenessState | None) -> int:
    return 0 if state is None else STATES.index(state)


def _act(game: Any, walker: Any, action: object, record: Callable[..., None]) -> None:
    """What the kernel plays of an intruder's action, recorded as an op (:func:`schedule`):
    what ``D20Game.act`` does with it (:func:`vigile.games.d20.kernel.record_action`), and an
    attack on a square, words. Its words make it noisy this round (DD-5) whatever happens; an
    attack on a square (and an attacker, DD-20) only in reach, which the kernel sees
    (:func:`~vigile.games.d20.kernel.square_lands`, LP-7)."""
    if d20.record_action(game, walker, action, record):
        return
    if isinstance(action, AttackSquare):
        sx, sy = square_of(action.at)
        record(d20.OP_SQUARE, sx, sy, int(action.ranged), at=action.at)
    elif isinstance(action, Speak):
        game.noisy.add(walker.name)
    else:
        raise NotCovered(f"{walker.name} plans a {type(action).__name__}")


def schedule(scenario: Scenario, rules: RuleData) -> dict[str, Array]:
    """Each intruder's walk, round by round, played by the engine's own plan-walking
    (:func:`vigile.games.d20.kernel.schedule`)."""
    from vigile.games.dnd35.round import Dnd35Game

    return d20.schedule(scenario, Dnd35Game(scenario, rules, None, None), _act)


def build(scenario: Scenario) -> d20.Model:
    """Everything the kernel reads for ``scenario`` (one that :func:`unsupported` accepts)."""
    rules = scenario.rules()
    defenders = [a for a in d20_actors(scenario) if a.side is Side.DEFENDERS]
    intruders = [a for a in d20_actors(scenario) if a.side is Side.ATTACKERS]
    n_g, n_i = max(1, len(defenders)), max(1, len(intruders))
    walk = schedule(scenario, rules)
    shared = d20.prefix(scenario, rules, walk)
    width, height = shared["floats"][0], shared["floats"][1]

    pins = ["", "DD-6"]
    """The rules that gave a square, lost when the intruder moves (LP-2; 0: none; 1:
    groping): what each leaves is ``lost``."""

    def pin_of(rule: str) -> int:
        if rule not in pins:
            pins.append(rule)
        return pins.index(rule)

    # --- what each sense reaches, by intruder, out of a liquid or in one
    reaches = np.zeros((n_i, 2, 2, 8), np.int64)
    """[intruder, in a liquid, invisible] → blindsight's state, scent's state, sight not
    blocked, hearing not blocked, hearing not blocked when it makes noise (DD-17), divination
    not blocked (DD-19), blindsight's pin, scent's pin (LP-2)."""
    struck_seen = np.zeros((n_i, 2, 2, 2), np.int64)
    """[intruder, in a liquid, invisible] → what a struck defender that sees it learns: what
    sight (see invisibility, when it is invisible) reaches (``Dnd35Game.struck``), and its
    pin (LP-2)."""
    for i, actor in enumerate(intruders):
        for liquid, invisible in np.ndindex(2, 2):
            held = _conditions(actor, bool(invisible), bool(liquid))
            sense = Sense.SEE_INVISIBLE if invisible else Sense.SIGHT
            sight = reach(sense, held)
            struck_seen[i, liquid, invisible] = (_rank(sight.state), pin_of(sight.line.rule))
            blind, scent = reach(Sense.BLINDSIGHT, held), reach(Sense.SCENT, held)
            reaches[i, liquid, invisible] = (
                _rank(blind.state),
                _rank(scent.state),
                int(not reach(Sense.SIGHT, held).blocked),
                int(not reach(Sense.HEARING, held).blocked),
                int(not reach(Sense.HEARING, [*held, Condition.MAKING_NOISE]).blocked),
                int(not reach(Sense.DIVINATION, held).blocked),
                pin_of(blind.line.rule),
                pin_of(scent.line.rule),
            )

    # --- the signs that show an invisible intruder's square [DD-10, DD-11, DD-12, DD-16]
    radii = sorted(
        {
            float(rules.num("spot.range_ft")),
            float(rules.num("tracks.range_ft")),
            float(rules.num("objects.sight_ft")),
        }
    )
    bands = len(radii) + 1
    night = scenario.time is TimeOfDay.NIGHT
    signs = np.zeros((n_i, 2, 2, 2, 2, bands, 3), np.int64)
    """[intruder, floured, moved, soft ground, liquid, band] → (state, pin) of the sign that
    shows the square for certain, and 1 when none does but its footprints are to be looked
    for (a Spot d20 read in ``footprints``, DD-11 [R])."""
    for i, actor in enumerate(intruders):
        light = stats_of_actor(actor).light
        for floured, moved, soft, liquid, band in np.ndindex(2, 2, 2, 2, bands):
            far = radii[band] if band < len(radii) else radii[-1] + 1.0
            shown = traits.sign_shown(
                rules,
                distance_ft=far,
                night=night,
                conditions=_conditions(actor, True, bool(liquid)),
                visible_object=bool(floured),
                light_ft=light,
                moved=bool(moved),
            )
            if shown is not None:
                signs[i, floured, moved, soft, liquid, band, :2] = (
                    _rank(shown[0]),
                    pin_of(shown[1].rule),
                )
            elif traits.footprints_left(
                soft_ground=bool(soft), moved=bool(moved)
            ) and traits.footprints_in_range(rules, distance_ft=far):
                signs[i, floured, moved, soft, liquid, band, 2] = 1

    # --- Spot on footprints [DD-11 R]: the state each face gives, by steps and distraction
    tracks_range = float(rules.num("tracks.range_ft"))
    spot_step = float(rules.num("spot.distance_step_ft"))
    tracks_steps = int(max(tracks_range, 0.0) // spot_step) + 1
    footprints = np.zeros((n_g, tracks_steps, 2, FACES_D20), np.int64)
    tracks_pin = 0
    for g, actor in enumerate(defenders):
        bonus = stats_of_actor(actor).spot or 0
        for steps, dis in np.ndindex(tracks_steps, 2):
            for face in range(1, FACES_D20 + 1):
                verdict = dnd35.footprints_check(
                    rules,
                    spot_bonus=bonus,
                    distance_ft=min(steps * spot_step, max(tracks_range, 0.0)),
                    distracted=bool(dis),
                    source=GivenFaces([face]),
                )
                found = dnd35.reached(verdict)
                footprints[g, steps, dis, face - 1] = _rank(found[0] if found else None)
                if found is not None:
                    tracks_pin = pin_of(found[1])

    # --- Spot [DD-3, DD-4]: the state each face gives, by kind of target, steps, distraction
    spot_range = float(rules.num("spot.range_ft"))
    spot_steps = int(spot_range // spot_step) + 1
    spot = np.zeros((n_g, len(SPOT_KINDS), spot_steps, 2, FACES_D20), np.int64)
    for g, actor in enumerate(defenders):
        bonus = stats_of_actor(actor).spot or 0
        for kind, steps, dis in np.ndindex(len(SPOT_KINDS), spot_steps, 2):
            for face in range(1, FACES_D20 + 1):
                verdict = dnd35.spot_check(
                    rules,
                    spot_bonus=bonus,
                    distance_ft=min(steps * spot_step, spot_range),
                    target=SPOT_KINDS[kind],
                    distracted=bool(dis),
                    source=GivenFaces([face]),
                )
                found = dnd35.reached(verdict)
                spot[g, kind, steps, dis, face - 1] = _rank(found[0] if found else None)

    # --- Listen [DD-5]: each listener's part of the DC and its bonus, by case
    listen_step = float(rules.num("listen.distance_step_ft"))
    listen_steps = int(math.hypot(width, height) // listen_step) + 2
    shape = (n_g, n_i, listen_steps, 2, 2, 2, 2, len(LISTEN_SPEEDS))
    if int(np.prod(shape)) > MOST_CASES:
        raise VigileError(f"{scenario.name!r} has too many Listen cases for the kernel")
    listen_part = np.zeros(shape, np.int64)
    listen_bonus = np.zeros(shape, np.int64)
    listen_fixed = np.zeros(shape, np.int64)
    for g, actor in enumerate(defenders):
        heard_by = stats_of_actor(actor).listen or 0
        for i, hider in enumerate(intruders):
            stats = stats_of_actor(hider)
            silent = stats.move_silently
            for steps, door, wall, dis, sleep, speed in np.ndindex(*shape[2:]):
                member = dnd35.listen_check(
                    rules,
                    listen_bonus=heard_by,
                    move_silently=silent,
                    dex=stats.dex if silent is None else None,
                    armor_penalty=stats.armor_check_penalty if silent is None else 0,
                    speed=LISTEN_SPEEDS[speed],
                    speaking=LISTEN_SPEEDS[speed] is None,
                    distance_ft=steps * listen_step,
                    door=bool(door),
                    stone_wall=bool(wall),
                    distracted=bool(dis),
                    asleep=bool(sleep),
                )
                key = (g, i, steps, door, wall, dis, sleep, speed)
                fixed = member.difficulty is not None
                listen_fixed[key] = int(fixed)
                listen_part[key] = (
                    member.difficulty
                    if member.difficulty is not None
                    else sum(x.value for x in member.modifiers if x.kind != "die")
                )
                listen_bonus[key] = member.die_bonus

    # --- groping [DD-6]: the touch attack's faces that hit, the miss chance's that connect
    touch = np.zeros((n_g, n_i, FACES_D20), np.int64)
    connect = np.zeros((n_g, n_i, FACES_D100), np.int64)
    # --- the blow on a located intruder: the attack roll [DD-21], the miss chance [DD-8..15]
    has_ac = np.zeros(n_i, np.int64)
    hit = np.ones((n_g, n_i, 2, FACES_D20), np.int64)
    """[defender, intruder, the intruder invisible] → the attack roll's faces that hit."""
    miss_dice = np.zeros((n_g, n_i, 2, 2), np.int64)
    """[defender, intruder, in a liquid, by blindsight] → the miss chance's dice."""
    spares = np.zeros((n_g, n_i, 2, 2, FACES_D100), np.int64)
    miss_chance = rules.num("attack.total_concealment")
    grope_touch = _grope_rolls_touch(rules)
    before_d100 = [FACES_D20] if grope_touch else []
    for g, actor in enumerate(defenders):
        mine = stats_of_actor(actor)
        for i, hider in enumerate(intruders):
            theirs = stats_of_actor(hider)
            for face in range(1, FACES_D20 + 1) if grope_touch else ():
                grope = dnd35.grope_check(
                    rules,
                    touch_attack=mine.attack,
                    touch_ac=theirs.touch_ac,
                    occupied=True,
                    source=GivenFaces([face, FACES_D100]),
                )
                assert grope.roll is not None
                touch[g, i, face - 1] = int(len(grope.roll.dice) == 2)
            for face in range(1, FACES_D100 + 1):
                grope = dnd35.grope_check(
                    rules,
                    touch_attack=mine.attack,
                    touch_ac=theirs.touch_ac,
                    occupied=True,
                    source=GivenFaces([*before_d100, face]),
                )
                connect[g, i, face - 1] = int(bool(grope.success))
            if theirs.ac is not None:
                has_ac[i] = 1
                for invisible, face in np.ndindex(2, FACES_D20):
                    roll = dnd35.attack_roll_check(
                        rules,
                        attack=mine.attack,
                        ac=theirs.ac,
                        dex=theirs.dex,
                        invisible_attacker=bool(actor.invisible),
                        sees_invisible=Sense.SEE_INVISIBLE in hider.senses,
                        invisible_target=bool(invisible)
                        and Sense.SEE_INVISIBLE not in actor.senses,
                        sneak_attack=mine.sneak_attack,
                        favored_enemy=mine.favored_enemy,
                        source=GivenFaces([face + 1]),
                    )
                    hit[g, i, invisible, face] = int(bool(roll.success))
            for liquid, blind in np.ndindex(2, 2):
                inputs: dict[str, Any] = {
                    "miss_chance": miss_chance,
                    "blind_fight": mine.blind_fight,
                    "blindsight": bool(blind),
                    "in_liquid": bool(liquid),
                    "incorporeal": hider.incorporeal,
                }
                verdict = dnd35.attack_check(rules, **inputs)
                dice = 0 if verdict.automatic else (2 if verdict.figures.blind_fight else 1)
                miss_dice[g, i, liquid, blind] = dice
                for face in range(1, FACES_D100 + 1):
                    if dice:
                        rolled = dnd35.attack_check(
                            rules, **inputs, source=GivenFaces([face] * dice)
                        )
                        spares[g, i, liquid, blind, face - 1] = int(bool(rolled.success))

    # --- what a defender does with what it knows of the place [DD-3, DD-5, DD-6 R]
    plan = np.array(
        [PLANS.index(search.search(square=kind == 1, bearing=kind == 2)[0]) for kind in range(3)],
        np.int64,
    )
    found = dnd35.reached(
        dnd35.grope_check(
            rules, touch_attack=0, touch_ac=0, source=GivenFaces([*before_d100, FACES_D100])
        )
    )
    assert found is not None and found[1] in pins
    grope_state = _rank(found[0])
    toward, ahead = _groping()
    heard_from, heard = _heard(rules)

    # --- flour [DD-10 R]: does a handful cover the intruder, by throw and miss beyond the ranges
    flour_range = float(rules.num("flour.range_ft"))
    flour_burst = float(rules.num("flour.burst_ft"))
    covers = np.zeros((2, 2), np.int64)
    for far, wide in np.ndindex(2, 2):
        covered, _ = traits.flour_covers(
            rules,
            throw_ft=flour_range + far,
            miss_ft=flour_burst + wide,
        )
        covers[far, wide] = int(covered)
    vanish_state, vanish_line = traits.vanished()
    vanish_pin = pin_of(vanish_line.rule) if vanish_line.rule.startswith("DD-") else 0

    # --- Hide against Spot [DD-20]: the hider's part by speed, each observer's by steps, the
    # hider invisible or not (0: visible, in cover, where it may hide; 1: invisible)
    hide_step = float(rules.num("hide.distance_step_ft"))
    hide_steps = int(math.hypot(width, height) // hide_step) + 2
    hider_part = np.zeros((n_i, len(HIDE_SPEEDS), 2), np.int64)
    spotter = np.zeros((n_g, hide_steps, 2), np.int64)
    hide_tie = np.zeros((n_g, n_i, len(HIDE_SPEEDS), hide_steps, 2), np.int64)
    """Hide and Spot results equal: who wins it (:data:`TIE_HIDDEN`, :data:`TIE_SPOTS`, or
    :data:`TIE_AGAIN`: both roll again), as ``hide_check`` settles it [DD-20 C]."""
    hide_refused = np.zeros((2, 2), np.int64)
    """[invisible, in cover] → no Hide check is allowed: every observer sees it [DD-20]."""
    for invisible, cover in np.ndindex(2, 2):
        refused = dnd35.hide_check(
            rules, hide_bonus=0, spot_bonuses=[0], invisible=bool(invisible), cover=bool(cover)
        )
        hide_refused[invisible, cover] = int(refused.outcome == "dnd35.hide.refused")
    refused = dnd35.hide_check(rules, hide_bonus=0, spot_bonuses=[0], invisible=False)
    sees = dnd35.reached(refused.members[0])
    assert sees is not None
    refused_state = _rank(sees[0])
    hide_state = 0
    for i, actor in enumerate(intruders):
        stats = stats_of_actor(actor)
        bonus = dnd35.skill_bonus(
            stats.hide, dex=stats.dex, armor_penalty=stats.armor_check_penalty
        )
        for k, invisible in np.ndindex(len(HIDE_SPEEDS), 2):
            verdict = dnd35.hide_check(
                rules,
                hide_bonus=bonus,
                spot_bonuses=[0],
                speed=HIDE_SPEEDS[k],
                invisible=bool(invisible),
                cover=not invisible,
            )
            hider_part[i, k, invisible] = sum(m.value for m in verdict.modifiers if m.kind != "die")
        for g, observer in enumerate(defenders):
            for steps, invisible in np.ndindex(hide_steps, 2):
                verdict = dnd35.hide_check(
                    rules,
                    hide_bonus=bonus,
                    spot_bonuses=[stats_of_actor(observer).spot or 0],
                    distance_ft=steps * hide_step,
                    invisible=bool(invisible),
                    cover=not invisible,
                )
                spotter[g, steps, invisible] = verdict.members[0].die_bonus
            for steps, k, invisible in np.ndindex(hide_steps, len(HIDE_SPEEDS), 2):
                hide_tie[g, i, k, steps, invisible] = _hide_tie(
                    rules,
                    hide_bonus=bonus,
                    spot_bonus=stats_of_actor(observer).spot or 0,
                    distance_ft=steps * hide_step,
                    speed=HIDE_SPEEDS[k],
                    results=(int(hider_part[i, k, invisible]), int(spotter[g, steps, invisible])),
                    invisible=bool(invisible),
                )
        seen = dnd35.reached(
            dnd35.hide_check(
                rules,
                hide_bonus=-20,
                spot_bonuses=[20],
                invisible=True,
                source=GivenFaces([1, 20]),
            ).members[0]
        )
        assert seen is not None
        hide_state = _rank(seen[0])

    # --- the intruders' blows [DD-7, DD-9, DD-21]
    strike_hit = np.ones((n_i, n_g, 2, FACES_D20), np.int64)
    """The attack roll of intruder i (invisible or not) on defender g, by face (all hit: no
    ``ac``); hit or miss, the victim learns of the blow, so the kernel reads only its die."""
    square_hit = np.ones((n_i, n_g, 2, FACES_D20), np.int64)
    """The attack roll of an attack on the named square where defender g stands, by whether
    the attacker is invisible and by face."""
    struck = np.zeros((n_i, 2, 2), np.int64)
    """What a defender that can't see intruder i learns of its blow: [adjacent, ranged]."""
    square_dice = np.zeros((n_i, n_g + 1, 2), np.int64)
    """The miss chance's dice of an attack on a square: [intruder, defender there (n_g: the
    wrong square), in a liquid]."""
    square_spares = np.zeros((n_i, n_g + 1, 2, FACES_D100), np.int64)
    hidden = np.zeros((n_i, n_g), np.int64)
    """Defender g is hidden from intruder i (``hidden_from``: invisible, unseen)."""
    for i, actor in enumerate(intruders):
        mine = stats_of_actor(actor)
        for adjacent, ranged in np.ndindex(2, 2):
            struck[i, adjacent, ranged] = _rank(
                traits.struck_by_invisible(
                    rules,
                    reach_ft=traits.attacker_reach(
                        reach_ft=mine.reach,
                        adjacent=bool(adjacent),
                        distance_ft=mine.reach if adjacent else 2 * search.SQUARE_FT,
                    ),
                    ranged=bool(ranged),
                )[0]
            )
        for c in range(n_g + 1):
            there = defenders[c] if c < len(defenders) else None
            theirs = stats_of_actor(there) if there is not None else None
            if there is not None and theirs is not None:
                hidden[i, c] = int(
                    (there.invisible or there.ethereal) and Sense.SEE_INVISIBLE not in actor.senses
                )
                if theirs.ac is not None:
                    for invisible, face in np.ndindex(2, FACES_D20 + 1):
                        if not face:
                            continue
                        common: dict[str, Any] = {
                            "attack": mine.attack,
                            "ac": theirs.ac,
                            "dex": theirs.dex,
                            "invisible_attacker": bool(invisible),
                            "sees_invisible": Sense.SEE_INVISIBLE in there.senses,
                            "sneak_attack": mine.sneak_attack,
                            "favored_enemy": mine.favored_enemy,
                        }
                        strike_hit[i, c, invisible, face - 1] = int(
                            bool(
                                dnd35.attack_roll_check(
                                    rules,
                                    **common,
                                    invisible_target=bool(there.invisible)
                                    and Sense.SEE_INVISIBLE not in actor.senses,
                                    source=GivenFaces([face]),
                                ).success
                            )
                        )
                        square_hit[i, c, invisible, face - 1] = int(
                            bool(
                                dnd35.attack_roll_check(
                                    rules,
                                    **common,
                                    invisible_target=True,
                                    source=GivenFaces([face]),
                                ).success
                            )
                        )
            for liquid in (0, 1):
                inputs = {
                    "miss_chance": miss_chance,
                    "blind_fight": mine.blind_fight,
                    "in_liquid": bool(liquid) and there is not None,
                    "square": dnd35.Square.CORRECT if there is not None else dnd35.Square.WRONG,
                    "incorporeal": there is not None and there.incorporeal,
                }
                verdict = dnd35.attack_check(rules, **inputs)
                dice = 0 if verdict.automatic else (2 if verdict.figures.blind_fight else 1)
                square_dice[i, c, liquid] = dice
                for face in range(1, FACES_D100 + 1):
                    if dice:
                        rolled = dnd35.attack_check(
                            rules, **inputs, source=GivenFaces([face] * dice)
                        )
                        square_spares[i, c, liquid, face - 1] = int(bool(rolled.success))
    water = np.array([int(r.kind.value == "water") for r in scenario.surfaces] or [0], np.int64)
    surfaces = [tuple((float(x), float(y)) for x, y in r.points) for r in scenario.surfaces]
    surf_start = np.zeros(len(surfaces) + 1, np.int64)
    surf_start[1:] = np.cumsum([len(p) for p in surfaces])
    surf_x = np.array([x for p in surfaces for x, _ in p] or [0.0], np.float64)
    surf_y = np.array([y for p in surfaces for _, y in p] or [0.0], np.float64)

    struck_pin = pin_of("DD-7")
    spot_pin = pin_of("DD-4")  # Spot beating its DC by 20 (LP-2)
    listen_pin = pin_of("DD-5")  # Listen beating its DC by 20 (LP-2)
    lost = np.array([0] + [_rank(traits.pinpoint_lost(rule)[0]) for rule in pins[1:]], np.int64)

    floats = np.array(
        [
            *shared.pop("floats"),
            float(rules.num("turn.sense_range_ft")),
            spot_range,
            spot_step,
            listen_step,
            float(search.step_ft(rules)),
            flour_range,
            flour_burst,
            hide_step,
            *radii,
        ],
        np.float64,
    )
    first = shared.pop("ints")
    first[5] = len(radii)
    first[7] = heard_from
    ints = np.array(
        [
            *first,
            grope_state,
            pins.index("DD-6"),
            traits.flour_rounds(rules),
            _rank(vanish_state),
            vanish_pin,
            hide_state,
            refused_state,
            struck_pin,
            int(scenario.default_surface == "water"),
            int(grope_touch),
            spot_pin,
            listen_pin,
            tracks_pin,
        ],
        np.int64,
    )
    arrays: dict[str, Array] = {
        **shared,
        "reaches": reaches,
        "signs": signs,
        "spot": spot,
        "footprints": footprints,
        "listen_part": listen_part,
        "listen_bonus": listen_bonus,
        "listen_fixed": listen_fixed,
        "touch": touch,
        "connect": connect,
        "has_ac": has_ac,
        "hit": hit,
        "miss_dice": miss_dice,
        "spares": spares,
        "lost": lost,
        "toward": toward,
        "ahead": ahead,
        "heard": heard,
        "hide_tie": hide_tie,
        "plan": plan,
        "covers": covers,
        "hider": hider_part,
        "spotter": spotter,
        "strike_hit": strike_hit,
        "square_hit": square_hit,
        "struck": struck,
        "square_dice": square_dice,
        "square_spares": square_spares,
        "hidden": hidden,
        "struck_seen": struck_seen,
        "hide_refused": hide_refused,
        "water": water,
        "surf_start": surf_start,
        "surf_x": surf_x,
        "surf_y": surf_y,
        "breathing": np.array([int(a.breathing) for a in intruders] or [1], np.int64),
        "flour": np.array([stats_of_actor(a).flour for a in defenders] or [0], np.int64),
    }
    return d20.Model(
        scenario,
        [a.name for a in defenders],
        [a.name for a in intruders],
        arrays,
        floats,
        ints,
    )


def _grope_rolls_touch(rules: RuleData) -> bool:
    """Whether a grope rolls its touch attack's d20 before the miss chance's d100 (the
    companion rule's touch attack, DD-6 [C]): the first die ``grope_check`` rolls (a touch,
    a d20 that hits, is always followed by the d100)."""
    grope = dnd35.grope_check(
        rules, touch_attack=0, touch_ac=0, source=GivenFaces([FACES_D20, FACES_D100])
    )
    assert grope.roll is not None
    sides = [die.sides for die in grope.roll.dice]
    assert sides in ([FACES_D20, FACES_D100], [FACES_D100]), sides
    return sides[0] == FACES_D20


def _groping() -> tuple[Array, Array]:
    """Where a defender gropes [DD-5, DD-6 R], by case: the second square of
    ``search.squares_toward`` from the known one, by the way's case (:func:`d20.way_case`:
    the rule reads the way only through how its lengths compare and their signs), and the two
    squares of ``search.squares_ahead`` from the defender's, by the bearing's case
    (:func:`d20.bearing_case`: straight at a neighbour, or between two). The same for every
    scenario and every ruleset's numbers (the squares are geometry): worked out once a
    process (:func:`_groping_cases`), a copy for each model."""
    toward, ahead = _groping_cases()
    return toward.copy(), ahead.copy()


@functools.cache
def _groping_cases() -> tuple[Array, Array]:
    toward = np.zeros((d20.WAY_CASES, 2), np.int64)
    cx, cy = search.centre((0, 0))
    for compared, sign_x, sign_y in np.ndindex(3, 3, 3):
        lengths = ((1.0, 2.0), (1.0, 1.0), (2.0, 1.0))[compared]
        dx, dy = (sign_x - 1) * lengths[0], (sign_y - 1) * lengths[1]
        case = 9 * compared + 3 * sign_x + sign_y
        if d20.way_case(dx, dy) != case:
            continue  # no way is of this case (a length of 0 longer than the other...)
        _, second = search.squares_toward((0, 0), x=cx - dx, y=cy - dy)
        toward[case] = second
    ahead = np.zeros((d20.BEARING_CASES, 2, 2), np.int64)
    for case in range(d20.BEARING_CASES):
        degrees = (case // 2) * 45.0 + (22.5 if case % 2 else 0.0)
        assert d20.bearing_case(degrees) == case
        ahead[case] = search.squares_ahead((0, 0), degrees)
    return toward, ahead


def _heard(rules: RuleData) -> tuple[int, Array]:
    """What a Listen result beating its DC by each margin gives [DD-5] (ties to the listener,
    pinpointed from ``listen.pinpoint_margin``), from the lowest margin the table holds: one
    listener's roll of ``listen_all_check`` at each margin (DC 0: no Move Silently die)."""
    margin = int(rules.num("listen.pinpoint_margin"))
    lowest, highest = min(0, margin) - 1, max(0, margin) + 1
    heard = np.zeros(highest - lowest + 1, np.int64)
    face = 10

    def check(bonus: int, faces: list[int] | None = None) -> Any:
        return dnd35.listen_all_check(
            rules,
            listeners=[dnd35.Listener(bonus)],
            move_silently=0,
            speaking=True,
            source=None if faces is None else GivenFaces(faces),
        ).members[0]

    probe = check(0)
    assert probe.difficulty is not None
    for k in range(len(heard)):
        bonus = lowest + k + probe.difficulty - face - probe.die_bonus
        member = check(bonus, [face])
        assert member.figures.result - member.figures.dc == lowest + k
        found = dnd35.reached(member)
        heard[k] = _rank(found[0] if found else None)
    return lowest, heard


def _hide_tie(
    rules: RuleData,
    *,
    hide_bonus: int,
    spot_bonus: int,
    distance_ft: float,
    speed: dnd35.HideSpeed,
    results: tuple[int, int],
    invisible: bool = True,
) -> int:
    """Who wins when the Hide and the Spot results are equal [DD-20 C] (:data:`d20.TIE_LOSES`:
    the hider, :data:`d20.TIE_WINS`: the observer, :data:`d20.TIE_AGAIN`: both roll again), as
    ``hide_check`` settles it, the faces given so that they tie; ``results``: the hider's part
    and the observer's (none when no faces tie them: that case never ties). A visible hider
    is in cover (where it may hide)."""
    hider, observer = results
    for hide_face in range(1, FACES_D20 + 1):
        spot_face = hide_face + hider - observer
        if 1 <= spot_face <= FACES_D20:
            break
    else:
        return d20.TIE_LOSES
    verdict = dnd35.hide_check(
        rules,
        hide_bonus=hide_bonus,
        spot_bonuses=[spot_bonus],
        distance_ft=distance_ft,
        speed=speed,
        invisible=invisible,
        cover=not invisible,
        source=GivenFaces([hide_face, spot_face, 1, 2]),
    )
    member = verdict.members[0]
    assert member.roll is not None and member.figures.result == verdict.figures.result
    if len(member.roll.dice) > 1:  # the hider's die rolled again
        return d20.TIE_AGAIN
    return d20.TIE_WINS if member.success else d20.TIE_LOSES


def stats_of_actor(actor: Any) -> Any:
    """An actor's d20 numbers (:func:`vigile.games.d20.round.stats_of`, for an actor)."""
    return actor.bonuses or NO_STATS
