"""What the compiled Starfinder kernel reads: the shared d20 arrays
(:func:`vigile.games.d20.kernel.prefix`) and Starfinder's checks as tables built by the rule
functions of :mod:`vigile.rulesets.starfinder` (nothing here is compiled).

One Stealth roll meets every observer's Perception (SF-4): ``hide_check`` called for one
observer at a time, without dice, gives the hider's result's bonus (the sum of its modifiers),
and for each observer whether it rolls at all (``observer_sees``: nothing left to hide from it,
SF-2, SF-11), the part of its DC of its own (the negation of what does not hide the hider from
it: blindsense, see invisibility, darkvision, SF-11 C) and the state a success reaches (SF-5),
by whether the hider is invisible now and for each observer with its own see invisibility;
the kernel rolls them as
``hide_check`` does (the Stealth d20 when one observer rolls, then each one's d20), and what
a Perception result's margin over its DC gives is a table too (``noticed``: ties to the
observer, SF-4). Where each observer then stands comes from
``observer_outcome`` and ``refused_outcome`` by what it knew before. A sniper's bonus at 10 ft
or more is a table by the whole sound steps to its target (``snipe_hider``: SF-10, and SF-4
[C]'s sound distance where the house rules turn it on). Whether a place is dark is the shared
table of :func:`vigile.rulesets.senses.dark_for` (:func:`vigile.games.d20.kernel.prefix`). The
attack roll and the miss chance (SF-8, SF-9) are tables by face, as in the D&D 3.5 kernel.

The kernel plays intruders, visible or invisible, ethereal or not (no sense but a blow's
reaches one, DD-17 via ``senses.reach``), that walk, run, wait, open and close doors, cast and
end invisibility (SF-11: an observer that can't see it keeps its square), speak, strike, kill
and snipe at defenders (SF-9, SF-10, SF-11: the victim's attack roll is drawn, what it learns
of the blow follows; a sniper hidden from its target rolls its Stealth again as part of the
shot, and not again that round; a dead victim: nothing); cover, cover lost on the way (SF-6)
and darkness decide the Stealth check; a visible intruder that walks into the dark leaves
those that observed it only its square. Defenders have sight, darkvision, blindsense,
blindsight, see invisibility, posted or patrolling, ethereal or not, and perceive and strike;
a killed one does nothing more. Named doors, as many as the ways they can stand in a run are
not too many (:func:`vigile.games.d20.kernel.door_states`: :func:`unsupported` says so).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from vigile.awareness.ladder import AwarenessState
from vigile.dice.source import GivenFaces
from vigile.games.d20 import kernel as d20
from vigile.games.d20.actions import Snipe
from vigile.games.d20.kernel import NotCovered
from vigile.games.d20.round import NO_STATS
from vigile.rulesets import starfinder
from vigile.rulesets.senses import Sense
from vigile.scene.actors import Side
from vigile.scene.model import Scenario
from vigile.scene.plans import Speak

Array = np.ndarray[Any, Any]
STATES = tuple(AwarenessState)
FACES_D20, FACES_D100 = 20, 100


def _rank(state: AwarenessState) -> int:
    return STATES.index(state)


def _stats(actor: Any) -> Any:
    return actor.bonuses or NO_STATS


def _act(game: Any, walker: Any, action: object, record: Any) -> None:
    """What the kernel plays of an intruder's action, as an op: what every d20 kernel plays
    (:func:`vigile.games.d20.kernel.record_action`: doors, invisibility, blows and kills), and
    a sniping shot at a defender (SF-10, SF-11; the kernel sees whether the victim still lives
    and is in reach, LP-7); words change nothing Starfinder plays."""
    if d20.record_action(game, walker, action, record):
        return
    if isinstance(action, Snipe):
        defenders = [a.name for a in game.scenario.actors if a.side is Side.DEFENDERS]
        if action.target not in defenders:
            raise NotCovered(f"{walker.name} strikes {action.target}, not a defender")
        record(d20.OP_SNIPE, defenders.index(action.target), 0, 0)
    elif not isinstance(action, Speak):
        raise NotCovered(f"{walker.name} plans a {type(action).__name__}")


def schedule(scenario: Scenario) -> dict[str, Array]:
    """The intruders' walk played by :class:`~vigile.games.starfinder.round.StarfinderGame`
    (its ``intruder_moved`` says who lost cover on the way, SF-6)."""
    from vigile.games.starfinder.round import StarfinderGame

    game = StarfinderGame(scenario, scenario.rules(), None, None)
    return d20.schedule(scenario, game, _act)


def unsupported(scenario: Scenario) -> str | None:
    """Why the kernel does not play ``scenario`` yet (None: it does); see the module."""
    return d20.uncovered(scenario, "starfinder", "Starfinder", lambda: schedule(scenario))


def _counted(check: Any, face: int) -> tuple[int, Any]:
    """How many dice ``check`` rolls when every face is ``face``, and its verdict."""

    class Faces:
        given = False
        count = 0

        def face(self, sides: int) -> int:
            self.count += 1
            return face

    faces = Faces()
    verdict = check(faces)
    return faces.count, verdict


NOTICED_FROM = -1
"""The lowest margin of :func:`_noticed`'s table."""


def _noticed(rules: Any) -> Array:
    """Whether an observer's Perception result beating the Stealth DC by each margin from
    :data:`NOTICED_FROM` notices the hider [SF-4: ties to the observer]: one observer's roll
    of ``hide_check`` (in cover, so it rolls) at each margin; the rule reads the margin only
    against 0 (meeting the DC), a margin beyond the table's ends reads its end
    (:func:`d20.by_margin`)."""

    def check(faces: list[int] | None = None) -> Any:
        return starfinder.hide_check(
            rules,
            stealth=0,
            observers=[starfinder.Observer(0)],
            cover=True,
            source=None if faces is None else GivenFaces(faces),
        )

    probe = check()
    one = probe.members[0]
    dc = sum(m.value for m in probe.modifiers) + sum(m.value for m in one.modifiers)
    noticed = np.zeros(3, np.int64)
    stealth_face = 10
    for k in range(len(noticed)):
        perception_face = stealth_face + dc - one.die_bonus + NOTICED_FROM + k
        assert 1 <= perception_face <= FACES_D20
        member = check([stealth_face, perception_face]).members[0]
        noticed[k] = int(bool(member.success))
    return noticed


def build(scenario: Scenario) -> d20.Model:
    """Everything the kernel reads for ``scenario`` (one that :func:`unsupported` accepts)."""
    rules = scenario.rules()
    defenders = [a for a in scenario.actors if a.side is Side.DEFENDERS]
    intruders = [a for a in scenario.actors if a.side is Side.ATTACKERS]
    n_g, n_i = max(1, len(defenders)), max(1, len(intruders))
    walk = schedule(scenario)
    shared = d20.prefix(scenario, rules, walk)

    # --- one Stealth roll against each observer [SF-4, SF-5, SF-7, SF-11]:
    # [intruder, immobile, fast, cover, lost cover, darkness] → the hider's bonus; and by
    # observer and its darkvision reaching: (rolls, its own part of the DC, its bonus, state)
    least = float(rules.num("sniping.min_distance_ft"))
    snipes = (None, least, max(0.0, least - 1.0))
    sound_step = float(rules.num("sound.step_ft"))
    width, height = float(scenario.map.width), float(scenario.map.height)
    sound_steps = int(math.hypot(width, height) // sound_step) + 2
    hider = np.zeros((n_i, 2, 2, 2, 2, 2, 2, 3), np.int64)
    """[intruder, invisible, immobile, fast, cover, lost cover, darkness, sniping] → the hider's
    result's bonus (sniping at 10 ft or more: :data:`snipe_hider`)."""
    snipe_hider = np.zeros((n_i, 2, 2, 2, 2, 2, sound_steps), np.int64)
    """[intruder, invisible, fast, cover, lost cover, darkness, whole steps of the target's
    distance] → the sniper's bonus (SF-10; SF-4 [C]: the sound distance, where it is on)."""
    member = np.zeros((n_i, 2, 2, 2, 2, 2, 2, 3, n_g, 2, 4), np.int64)
    for i, actor in enumerate(intruders):
        stealth = _stats(actor).stealth or 0
        for case in np.ndindex(2, 2, 2, 2, 2, 2, 3):
            invisible, immobile, fast, cover, lost, darkness, snipe = case
            if snipe and immobile:
                continue
            common: dict[str, Any] = {
                "stealth": stealth,
                "speed": starfinder.Speed.MORE_THAN_HALF
                if fast and not immobile
                else starfinder.Speed.HALF,
                "invisible": bool(invisible),
                "immobile": bool(immobile),
                "cover": bool(cover),
                "lost_shelter_this_turn": bool(lost),
                "sniping": snipe > 0,
                "darkness": bool(darkness),
            }
            for g, observer in enumerate(defenders):
                for sees_dark in (0, 1):
                    verdict = starfinder.hide_check(
                        rules,
                        observers=[
                            starfinder.Observer(
                                _stats(observer).perception or 0,
                                blindsense=Sense.BLINDSENSE in observer.senses,
                                see_invisible=Sense.SEE_INVISIBLE in observer.senses,
                                darkvision=bool(sees_dark),
                            )
                        ],
                        distance_ft=snipes[snipe],
                        **common,
                    )
                    if verdict.modifiers:  # refused for this observer: no result at all
                        hider[(i, *case)] = sum(m.value for m in verdict.modifiers)
                    one = verdict.members[0]
                    member[(i, *case, g, sees_dark)] = (
                        int(one.outcome != "starfinder.hide.observer_sees"),
                        sum(m.value for m in one.modifiers),
                        one.die_bonus,
                        _rank(one.state or AwarenessState.OBSERVED),
                    )
            if snipe != 1:
                continue
            for steps in range(sound_steps):
                far = max(least, steps * sound_step)
                if far >= (steps + 1) * sound_step:
                    continue  # no target at least 10 ft away is this many steps away
                verdict = starfinder.hide_check(
                    rules, observers=[starfinder.Observer(0)], distance_ft=far, **common
                )
                snipe_hider[i, invisible, fast, cover, lost, darkness, steps] = sum(
                    m.value for m in verdict.modifiers
                )
    after = np.zeros((2, 2, len(STATES)), np.int64)
    """observer_outcome: [noticed, total concealment, before] → after."""
    refused = np.zeros(len(STATES), np.int64)
    for noticed, total, before in np.ndindex(2, 2, len(STATES)):
        after[noticed, total, before] = _rank(
            starfinder.observer_outcome(
                bool(noticed), total_concealment=bool(total), before=STATES[before]
            ).after
        )
    for before in range(len(STATES)):
        refused[before] = _rank(starfinder.refused_outcome(STATES[before]).after)

    # --- the defenders' blows on a located intruder [SF-8, SF-9]
    has_ac = np.zeros(n_i, np.int64)
    hit = np.ones((n_g, n_i, FACES_D20), np.int64)
    miss_dice = np.zeros((n_g, n_i), np.int64)
    spares = np.zeros((n_g, n_i, FACES_D100), np.int64)
    for g, actor in enumerate(defenders):
        mine = _stats(actor)
        for i, target in enumerate(intruders):
            theirs = _stats(target)
            if theirs.ac is not None:
                has_ac[i] = 1
                for face in range(1, FACES_D20 + 1):
                    roll = starfinder.attack_roll_check(
                        rules, attack=mine.attack, ac=theirs.ac, source=GivenFaces([face])
                    )
                    hit[g, i, face - 1] = int(bool(roll.success))

            def miss(faces: Any, blind_fight: bool = mine.blind_fight) -> Any:
                return starfinder.attack_check(
                    rules,
                    awareness=AwarenessState.LOCATION,
                    blind_fight=blind_fight,
                    source=faces,
                )

            try:
                dice, _ = _counted(miss, FACES_D100)
            except Exception as error:  # the engine refuses it too (a house rule)
                raise NotCovered(str(error)) from error
            miss_dice[g, i] = dice
            for face in range(1, FACES_D100 + 1):
                spares[g, i, face - 1] = int(bool(_counted(miss, face)[1].success))

    # --- the intruders' blows [SF-9, SF-11]: the victim's attack roll is drawn (its result
    # changes nothing the kernel keeps), then what the victim learns
    struck = np.zeros((3, len(STATES)), np.int64)
    """What a struck defender learns: [seen, adjacent melee, otherwise] by what it knew."""
    for before in range(len(STATES)):
        struck[0, before] = _rank(starfinder.observer_outcome(True, total_concealment=False).after)
        struck[1, before] = _rank(starfinder.adjacent_melee_attack(STATES[before]).after)
        struck[2, before] = _rank(starfinder.ranged_attack_from_unseen(STATES[before]).after)
    best = np.array([_rank(starfinder.noticed_state(bool(u))) for u in (0, 1)], np.int64)
    vanished = starfinder.vanished(AwarenessState.OBSERVED)
    lost = starfinder.location_lost()  # a located square is lost when it moves (LP-2)

    floats = np.array([*shared.pop("floats"), sound_step, least], np.float64)
    first = shared.pop("ints")
    ints = np.array(
        [
            *first,
            _rank(starfinder.noticed_state(True)),
            0,
            0,
            _rank(vanished.after),
            NOTICED_FROM,
        ],
        np.int64,
    )
    arrays: dict[str, Array] = {
        **shared,
        "hider": hider,
        "snipe_hider": snipe_hider,
        "member": member,
        "after": after,
        "refused": refused,
        "has_ac": has_ac,
        "hit": hit,
        "miss_dice": miss_dice,
        "spares": spares,
        "lost": np.array([0, _rank(lost.after)], np.int64),
        "struck": struck,
        "best": best,
        "noticed": _noticed(rules),
    }
    return d20.Model(
        scenario, [a.name for a in defenders], [a.name for a in intruders], arrays, floats, ints
    )
