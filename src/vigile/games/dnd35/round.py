"""D&D 3.5's perception in the d20 round (RULES.md §3): Hide against Spot, blindsight, scent,
Spot, then one Listen for all.

Each round, for each intruder: the defenders who can see it (a visible intruder in a line of
sight; an invisible one for those who see invisible) meet one Hide roll with their Spot, each at
its own distance (DD-20 [R]); ``hide_check`` refuses the Hide without cover, concealment or
invisibility, and then each of them sees it. Against an invisible one, the others: blindsight
within 30 ft observes it (DD-15); scent within 30 ft locates it (DD-13); Spot within 30 ft
(DD-3: non-breathing DC 40, moving 20, still 30; beating it by 20 pinpoints, DD-4); then one
Move Silently roll (``listen_all_check``, DD-20 [R]) meets the Listen of every one of them
still without its square (DD-5: the intruder's Move Silently, or the untrained roll; its speed;
+5 when a closed door, window or partition stands between, +15 when a wall does; DC 0 in a
round it fought or spoke). What a sense cannot reach (``senses.reach``: an ethereal intruder,
DD-17; an incorporeal one for scent and blindsight) gives no check. A struck defender learns
where the attacker is (DD-7 via ``struck_by_invisible``; only its direction from beyond the
adjacent squares or from a ranged blow). A defender aware only of the presence or direction
searches with what it perceived, as :mod:`vigile.rulesets.dnd35.search` rules [R]: knowing a
square (it located the intruder there, and lost it when it moved), it walks within reach and
gropes that square and the next along its way (DD-6), or throws flour there (DD-10 [R]); an
empty grope makes it forget that square. Knowing only a direction (DD-5, DD-7: a bearing from
where it stood, no distance), it gropes the two squares next to it that the bearing passes
between, then steps ``search.step_ft`` (5 ft) along it. Knowing only the presence (DD-3), it
stays. Found: ``location``. A square found by groping or by its blow is lost when the intruder
moves, down to presence (DD-6, DD-7, [R] ``pinpoint_lost``).

Every ``perceive`` event of a defender carries the ``state`` its perception gives, as the rule
that gives it says: a sign, the state ``sign_shown`` gives (the square: DD-10, DD-12, DD-16;
footprints in soft ground give it only on a Spot check, DD-11 [R]); blindsight and scent, what
``senses.reach`` gives (DD-15: observed; DD-13: the square); a lost pinpoint, what
``pinpoint_lost`` leaves (presence, [R]: not a detection). The GM's notes (``_gm_note``) are no
character's perception: they name no actor and carry no state.

Dice, each round, for each intruder in the scenario's order: first, defender by defender, the
Spot d20 on its footprints of each one that no certain sign shows its square, where it moved on
soft ground within ``tracks.range_ft`` of it (``footprints_check``, DD-11 [R]); then the Hide
d20 and the Spot d20 of each defender who can see it (none when refused), ties rolled again as
``hide_check`` says; then, defender by defender, its Spot d20; then the intruder's Move
Silently d20 (not in a round it fought or spoke) and each listener's Listen d20 in the
scenario's order. Then, defender by defender: a grope's touch d20 then its d100 (only on a
touch), or an attack's d100 miss chance (two with Blind-Fight; none against an intruder it sees
or with blindsight).

Rulings where the rules are silent: an intruder that neither moved, fought nor spoke this
round makes no noise (no Listen check: the DD-5 table has no line for a still creature); a
Spot against a creature that did not move uses "still" (DC 30), or "non-breathing" (DC 40).

Attack rolls: a defender's attack on an intruder with an ``ac``, and an intruder's ``strike`` at
a victim with one, roll d20 + ``attack`` against it first (its d20 comes before the miss chance's
d100, which is rolled only on a hit): an invisible attacker its target can't see gets +2 and
ignores the target's Dexterity bonus (DD-21); the verdict notes that an invisible target is
spared sneak attack and favored enemy damage, but not a critical hit on a natural 20 (DD-2).

Light and darkness [C, R]: at night a place no light reaches (a scenario's light, or one a
creature carries) is dark; [R] a night scenario that places no light at all is lit throughout
(``light.dark_without_lights``). A visible intruder in the dark is unseen by every observer
whose darkvision (``light.darkvision_ft``, 60 ft) does not reach it: no Hide against it and no
Spot by it (a blinded observer makes none), but blindsight, scent and Listen as against an
invisible one; [R] struck from the dark, it learns what DD-7 says of an invisible attacker; the
GM is told once [DD-20]. [R] Darkness changes nothing against an invisible intruder. [R] A
defender that observed an intruder who walks into the dark keeps its square until it moves
(as DD-1). Observers who see it (lit, or darkvision) play Hide against Spot as before, with no
concealment from the dark.

Not yet played: shadowy illumination (concealment, 20%), damage (DD-2 is noted, not dealt),
gaze attacks (DD-18 is played by ``vigile check dnd35 gaze``).
"""

from __future__ import annotations

from typing import Any, ClassVar

from vigile.awareness.ladder import AwarenessState
from vigile.awareness.vocabulary import Attitude, TimeOfDay
from vigile.checks.numbers import quoted
from vigile.checks.verdict import Verdict
from vigile.engine.board import Point, distance
from vigile.engine.live import Refusal
from vigile.engine.state import Walker
from vigile.games.d20.actions import AttackSquare
from vigile.games.d20.round import (
    SQUARE_FT,
    Bearing,
    D20Game,
    Known,
    Square,
    adjacent,
    asleep,
    awake,
    centre_of,
    distracted,
    hidden_from,
    is_invisible,
    own,
    sighted,
    square_of,
    stats_of,
)
from vigile.games.dnd35.walker import Dnd35Walker, dnd35_walker
from vigile.rulesets import dnd35
from vigile.rulesets.dnd35 import search, traits
from vigile.rulesets.dnd35.traits import pinpoint_lost, struck_by_invisible
from vigile.rulesets.senses import Condition, Sense, reach
from vigile.scene.model import WallKind


class Dnd35Game(D20Game):
    """One game of a D&D 3.5 scenario, round by round (:class:`~vigile.games.d20.round.D20Game`)."""

    walker_type: ClassVar[type[Walker]] = Dnd35Walker

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.flour_left: dict[str, int] = {
            d.name: stats_of(d).flour for d in self.walkers if stats_of(d).flour
        }
        """Handfuls of flour each defender still has (DD-10)."""
        self.beyond: set[tuple[str, str]] = set()
        """(observer, intruder) pairs already told that a sense cannot reach it (DD-17)."""
        self.in_dark: set[tuple[str, str]] = set()
        """(observer, intruder) pairs whose GM was told the intruder is in the dark for it."""

    def struck(self, victim: Walker, intruder: Walker, *, ranged: bool = False) -> None:
        """Seen, it is seen (or seen invisible); unseen, the blow tells its square, or only its
        direction from beyond the adjacent squares or from a ranged blow [DD-7]."""
        if not self._unseen_by(victim, intruder):
            sense = Sense.SEE_INVISIBLE if is_invisible(intruder) else Sense.SIGHT
            seen = reach(sense, self._conditions(intruder))
            self._learn(victim, intruder, seen.state, seen.line.rule)
            return
        gap = distance(victim.at, intruder.at)
        state, line = struck_by_invisible(
            self.rules,
            reach_ft=traits.attacker_reach(
                reach_ft=stats_of(intruder).reach,
                adjacent=adjacent(victim.at, intruder.at),
                distance_ft=gap,
            ),
            ranged=ranged,
        )
        self._learn(victim, intruder, state, line.rule, pin="DD-7")

    def attack_roll(self, attacker: Walker, target: Walker) -> Verdict | None:
        """d20 + attack against the target's AC; an invisible attacker it can't see gets +2 and
        ignores its Dexterity bonus; an invisible target is immune to sneak attack and favored
        enemy damage, not to critical hits [DD-21, DD-2, DD-6 C]."""
        ac = stats_of(target).ac
        if ac is None:
            return None
        return self.roll(
            dnd35.attack_roll_check,
            attacker,
            rules=self.rules,
            attack=stats_of(attacker).attack,
            ac=ac,
            dex=stats_of(target).dex,
            invisible_attacker=is_invisible(attacker),
            sees_invisible=Sense.SEE_INVISIBLE in target.actor.senses,
            invisible_target=is_invisible(target) and hidden_from(attacker, target),
            sneak_attack=stats_of(attacker).sneak_attack,
            favored_enemy=stats_of(attacker).favored_enemy,
        )

    def vanished(self) -> tuple[AwarenessState, str]:
        state, line = traits.vanished()
        return state, line.rule

    def attack_square(self, intruder: Walker, action: AttackSquare) -> None:
        """The named square's attack roll and miss chance, one verdict whose every miss reads
        the same to the attacker [DD-9, DD-8, DD-21]. An enemy it sees there is struck."""
        named = square_of(action.at)
        there = next(
            (d for d in self.defenders() if square_of(d.at) == named and not own(d).ethereal),
            None,
        )
        if there is not None and not hidden_from(intruder, there):
            hit = self._roll_to_hit(intruder, there)
            self._blow(intruder, there)
            self.struck(there, intruder, ranged=action.ranged)
            if hit:
                self._hit(intruder, there)  # LP-7: its damage where it has hit points
            return
        point = ((named[0] + 0.5) * SQUARE_FT, (named[1] + 0.5) * SQUARE_FT)
        stats = stats_of(intruder)
        target = stats_of(there) if there is not None else None
        verdict = self.roll(
            dnd35.attack_square_check,
            intruder,
            rules=self.rules,
            square=dnd35.Square.WRONG if there is None else dnd35.Square.CORRECT,
            miss_chance=self.rules.num("attack.total_concealment"),
            attack=stats.attack,
            ac=None if target is None else target.ac,
            dex=0 if target is None else target.dex,
            invisible_attacker=there is not None and is_invisible(intruder),
            sees_invisible=there is not None and Sense.SEE_INVISIBLE in there.actor.senses,
            blind_fight=stats.blind_fight,
            in_liquid=there is not None and Condition.IN_LIQUID in self._conditions(there),
            incorporeal=there is not None and own(there).incorporeal,
            sneak_attack=stats.sneak_attack,
            favored_enemy=stats.favored_enemy,
        )
        self.emit("attack", "engine.d20.attack_square", actor=intruder, at=point, verdict=verdict)
        if there is not None and verdict.success:
            self._blow(intruder, there)
            self.struck(there, intruder, ranged=action.ranged)
            self._hit(intruder, there)  # LP-7: its damage where it has hit points

    def attack_verdict(
        self, defender: Walker, intruder: Walker, state: AwarenessState, blindsight: bool
    ) -> Verdict | None:
        """Against a located (or blindsighted) intruder: the miss chance of total concealment,
        Blind-Fight, blindsight, a liquid [DD-8, DD-12, DD-14, DD-15]."""
        if state is not AwarenessState.LOCATION and not blindsight:
            return None
        return self.roll(
            dnd35.attack_check,
            defender,
            rules=self.rules,
            miss_chance=self.rules.num("attack.total_concealment"),
            blind_fight=stats_of(defender).blind_fight,
            blindsight=blindsight,
            in_liquid=Condition.IN_LIQUID in self._conditions(intruder),
            incorporeal=own(intruder).incorporeal,
        )

    def perceive(self, intruder: Walker) -> None:
        self._signs(intruder)
        self._perceive_dnd(intruder)

    def end_of_round(self) -> None:
        """Flour stays until it falls: washed off in a liquid, or after ``flour.rounds``
        rounds when a group sets them [DD-10 R, :func:`traits.flour_after_round`]."""
        for intruder in map(dnd35_walker, self.intruders()):
            if intruder.floured:
                wet = Condition.IN_LIQUID in self._conditions(intruder)
                intruder.floured = traits.flour_after_round(intruder.floured, wet=wet)
                if not intruder.floured:
                    _, line = traits.flour_reveals(flour_fallen=True)
                    self._gm_note(None, intruder, "dnd35.round.flour_falls", line.rule)

    def _gm_note(self, observer: Walker | None, intruder: Walker, key: str, rule: str) -> None:
        """A line for the GM alone: no character perceives it (the observer does not learn
        that there is something its senses cannot reach)."""
        params: dict[str, str | int] = {"target": intruder.name, "rule": rule}
        if observer is not None:
            params["actor"] = observer.name
        self.emit("perceive", key, params=params)

    def _signs(self, intruder: Walker, *, footprints: bool = True) -> None:
        """What gives an invisible intruder's square away to the awake sighted defenders in a
        line of sight: for certain, flour on it (DD-10), a liquid it moves through (DD-12), a
        lit light it carries (DD-16) [R]; where none does and it moved on soft ground, its
        footprints may (DD-11 [R]): the defender's Spot d20 within ``tracks.range_ft``
        (``footprints_check``), defender by defender. ``footprints`` False: the certain signs
        only (flour just thrown: the footprints were looked for this round already)."""
        if not is_invisible(intruder) or own(intruder).ethereal:
            return
        conditions = self._conditions(intruder)
        stats = stats_of(intruder)
        night = self.scenario.time is TimeOfDay.NIGHT
        prints = footprints and traits.footprints_left(
            soft_ground=self.board.surface(intruder.at) == "soft-ground", moved=intruder.moved
        )
        for observer in self.defenders():
            if observer.aware_of(intruder.name).at_least(AwarenessState.LOCATION):
                continue
            if not (awake(observer) and sighted(observer) and self._sight_line(observer, intruder)):
                continue
            if Sense.SEE_INVISIBLE in observer.actor.senses:
                continue  # it sees the creature itself: Hide against Spot (DD-20)
            gap = distance(observer.at, intruder.at)
            sign = traits.sign_shown(
                self.rules,
                distance_ft=gap,
                night=night,
                conditions=conditions,
                visible_object=bool(dnd35_walker(intruder).floured),
                light_ft=stats.light,
                moved=intruder.moved,
            )
            found = None if sign is None else (sign[0], sign[1].rule)
            if found is None:
                if prints and traits.footprints_in_range(self.rules, distance_ft=gap):
                    self._footprints(observer, intruder, gap)
                continue
            self.emit(
                "perceive",
                "dnd35.round.sign",
                actor=observer,
                target=intruder,
                params={"state": found[0].value, "rule": found[1], "sign": found[1]},
            )
            self._learn(observer, intruder, found[0], found[1], pin=found[1])

    def _footprints(self, observer: Walker, intruder: Walker, gap: float) -> None:
        """The observer's Spot d20 on the footprints in soft ground: its square, or nothing
        this round [DD-11 R, ``footprints_check``]."""
        verdict = self.roll(
            dnd35.footprints_check,
            observer,
            rules=self.rules,
            spot_bonus=stats_of(observer).spot or 0,
            distance_ft=gap,
            distracted=distracted(observer),
        )
        found = dnd35.reached(verdict)
        self._check_event(
            "sight",
            "dnd35.round.footprints_seen",
            "dnd35.round.footprints",
            observer,
            intruder,
            verdict,
            found[0] if found else AwarenessState.UNAWARE,
        )
        if found is not None:
            self._learn(observer, intruder, *found)

    def intruder_moved(self, intruder: Walker, start: Point) -> None:
        self._into_the_dark(intruder)

    def location_lost(self, cause: str) -> tuple[AwarenessState, str]:
        """Heard, spotted or smelled: the direction; shown for the moment: the presence
        [LP-2, DD-4..DD-7, :func:`~vigile.rulesets.dnd35.traits.pinpoint_lost`]."""
        state, line = pinpoint_lost(cause)
        return state, line.rule

    def search(self, defender: Walker, intruder: Walker, known: Known | None) -> None:
        """What the defender does with what it knows [R, :func:`search.search`]: a square, it
        walks toward it and, with flour left, within its range and in sight of the square,
        throws a handful there [DD-10 R], else, within reach, gropes it [DD-6]; a bearing, it
        gropes the squares ahead, then steps along it [DD-5, DD-6]; nothing, it stays [DD-3]."""
        plan, _ = search.search(square=isinstance(known, tuple), bearing=isinstance(known, Bearing))
        if plan is search.Search.SQUARE and isinstance(known, tuple):
            self._search_square(defender, intruder, known)
        elif plan is search.Search.BEARING and isinstance(known, Bearing):
            self._search_bearing(defender, intruder, known)

    def gm_search(self, defender: Walker, point: Point) -> None:
        """The GM has ``defender`` grope (LP-6 [R], DD-6): the square of ``point``, within its
        reach (LP-7) and in its line of sight, and the next square along its way there. One
        touch attack, against the intruder in those squares if any (else nobody is there to
        find: the roll still tells the GM nothing more)."""
        square = square_of(point)
        centre = centre_of(square)
        gap = self.blow_distance(defender, centre, ranged=False)
        reach_ft = self.blow_reach(defender, ranged=False)
        if gap > reach_ft + 1e-9 or not self._clear_way(defender.at, centre):
            raise Refusal(
                "live.refusal.search_reach",
                f"{defender.name} cannot grope square [{square[0]}, {square[1]}]: "
                f"{gap:g} ft away (reach {reach_ft:g} ft), or a wall between",
                rule="DD-6",
                name=defender.name,
                distance=quoted(gap),
                reach=quoted(reach_ft),
            )
        squares = search.squares_toward(square, x=defender.x, y=defender.y)
        intruders = self.intruders()
        there = [i for i in intruders if square_of(i.at) in squares]
        if not intruders:
            return
        self._grope(defender, (there or intruders)[0], squares)

    def _search_square(self, defender: Walker, intruder: Walker, square: Square) -> None:
        point = centre_of(square)
        self._close_in(defender, point)
        if not self._clear_way(defender.at, point):
            return
        gap = distance(defender.at, point)
        if self.flour_left.get(defender.name) and gap <= self.rules.num("flour.range_ft"):
            self._throw_flour(defender, intruder, point)
        elif gap <= SQUARE_FT:
            squares = search.squares_toward(square, x=defender.x, y=defender.y)
            self._grope(defender, intruder, squares)

    def _search_bearing(self, defender: Walker, intruder: Walker, bearing: Bearing) -> None:
        """Grope the two squares ahead that it can reach (on the map, no wall between); found
        nothing, step along the bearing [DD-5, DD-6 R]."""
        ahead = [
            s
            for s in search.squares_ahead(square_of(defender.at), bearing.degrees)
            if self._on_map(centre_of(s)) and self._clear_way(defender.at, centre_of(s))
        ]
        if ahead and self._grope(defender, intruder, tuple(ahead)):
            return
        self._step_along(defender, bearing.degrees, search.step_ft(self.rules))

    def _throw_flour(self, defender: Walker, intruder: Walker, point: Point) -> None:
        """A handful of flour at the point: it covers the intruder within its burst [DD-10 R].
        Covered, the intruder shows to the sighted from the next perception on; missed, the
        defender forgets that square (as an empty grope)."""
        self.flour_left[defender.name] -= 1
        covers, line = traits.flour_covers(
            self.rules,
            throw_ft=distance(defender.at, point),
            miss_ft=distance(point, intruder.at),
        )
        if covers:
            dnd35_walker(intruder).floured = traits.flour_rounds(self.rules)
        self.emit(
            "action",
            "dnd35.round.flour",
            actor=defender,
            at=point,
            perceived_by=self._allies(defender) | ({intruder.name} if covers else set()),
            params={"rule": line.rule},
        )
        if covers:
            self._gm_note(defender, intruder, "dnd35.round.floured", line.rule)
            self._signs(intruder, footprints=False)
        else:
            self.known.pop((defender.name, intruder.name), None)

    def _perceive_dnd(self, intruder: Walker) -> None:
        """Hide against Spot, blindsight, scent, Spot, then one Listen for all [DD-1..DD-20]."""
        conditions = self._conditions(intruder)
        invisible = is_invisible(intruder) or own(intruder).ethereal
        watching = [
            d for d in self.defenders() if d.aware_of(intruder.name) is not AwarenessState.OBSERVED
        ]
        hiders: list[Walker] = []
        others: list[Walker] = []
        for observer in watching:
            sees = (
                awake(observer)
                and self._sight_line(observer, intruder)
                and not self._in_the_dark(observer, intruder, invisible)
            )
            if (
                sees
                and invisible
                and Sense.SEE_INVISIBLE in observer.actor.senses
                and not reach(Sense.DIVINATION, conditions).blocked
            ) or (sees and not invisible and sighted(observer)):
                hiders.append(observer)
            else:
                others.append(observer)
        if hiders:
            self._hide_against_spot(intruder, hiders, invisible)
        listeners = [
            observer
            for observer in others
            if self._senses_dnd(observer, intruder, conditions, invisible)
        ]
        if listeners:
            self._listen(intruder, listeners)

    def _hide_against_spot(
        self, intruder: Walker, observers: list[Walker], invisible: bool
    ) -> None:
        """One Hide roll against each observer's Spot at its own distance; no Hide without
        cover, concealment or invisibility: then each of them sees it [DD-20]."""
        stats = stats_of(intruder)
        speed = (
            dnd35.HideSpeed.RUN
            if intruder.name in self.fought or intruder.name in self.running
            else dnd35.HideSpeed.FULL
            if self._speed(intruder) is Attitude.FAST
            else dnd35.HideSpeed.HALF
        )
        verdict = self.roll(
            dnd35.hide_check,
            intruder,
            rules=self.rules,
            hide_bonus=dnd35.skill_bonus(
                stats.hide, dex=stats.dex, armor_penalty=stats.armor_check_penalty
            ),
            spot_bonuses=[stats_of(o).spot or 0 for o in observers],
            distance_ft=[distance(o.at, intruder.at) for o in observers],
            speed=speed,
            cover=self.board.in_cover(intruder.at),
            invisible=invisible,
        )
        if not verdict.impossible:
            self.emit("sight", "dnd35.round.hide", actor=intruder, at=intruder.at, verdict=verdict)
        for observer, member in zip(observers, verdict.members, strict=True):
            found = dnd35.reached(member)
            if verdict.impossible:
                self.emit(
                    "sight",
                    "engine.d20.sees",
                    actor=observer,
                    target=intruder,
                    at=intruder.at,
                    verdict=member,
                )
            else:
                self._check_event(
                    "sight",
                    "engine.d20.spot_hide",
                    "dnd35.round.spot_hide",
                    observer,
                    intruder,
                    member,
                    found[0] if found else AwarenessState.UNAWARE,
                )
            if found is not None:
                self._learn(observer, intruder, *found)

    def _in_the_dark(self, observer: Walker, intruder: Walker, invisible: bool) -> bool:
        """A visible intruder in darkness beyond the observer's darkvision: the observer cannot
        see it, as if it were invisible to it, though Spot cannot notice it (a blinded
        observer makes no Spot check) [DD-20 C, R]. The GM is told once. [R] Darkness changes
        nothing against an invisible intruder: unseen either way."""
        if invisible or not self._dark_for(observer, intruder):
            return False
        if (observer.name, intruder.name) not in self.in_dark:
            self.in_dark.add((observer.name, intruder.name))
            self._gm_note(observer, intruder, "dnd35.round.dark", "DD-20")
        return True

    def _senses_dnd(
        self, observer: Walker, intruder: Walker, conditions: list[Condition], invisible: bool
    ) -> bool:
        """What one observer perceives of an intruder it does not see: blindsight, scent, Spot
        [DD-3, DD-4, DD-13..DD-17]. True when it is to listen for it this round (DD-5)."""
        senses = observer.actor.senses
        gap = distance(observer.at, intruder.at)
        line = self._sight_line(observer, intruder)
        name = intruder.name
        unseen = invisible or self._dark_for(observer, intruder)
        if unseen and line and gap <= self.rules.num("turn.sense_range_ft"):
            self._beyond_senses(observer, intruder, conditions)
            for sense, key in (
                (Sense.BLINDSIGHT, "engine.d20.blindsight"),
                (Sense.SCENT, "engine.d20.scent"),
            ):
                found = reach(sense, conditions)
                if sense in senses and not found.blocked:
                    self.emit(
                        "perceive",
                        key,
                        actor=observer,
                        target=intruder,
                        params={
                            "state": found.state.value,
                            "distance": quoted(gap),
                            "rule": found.line.rule,
                        },
                    )
                    self._learn(observer, intruder, found.state, found.line.rule)
        if observer.aware_of(name).at_least(AwarenessState.LOCATION):
            return False
        spot_range = self.rules.num("spot.range_ft")
        if (
            invisible
            and line
            and awake(observer)
            and sighted(observer)
            and gap <= spot_range
            and not reach(Sense.SIGHT, conditions).blocked
        ):
            target = (
                dnd35.SpotTarget.NON_BREATHING
                if not own(intruder).breathing
                else dnd35.SpotTarget.MOVING
                if intruder.moved
                else dnd35.SpotTarget.STILL
            )
            verdict = self.roll(
                dnd35.spot_check,
                observer,
                rules=self.rules,
                spot_bonus=stats_of(observer).spot or 0,
                distance_ft=gap,
                target=target,
                distracted=distracted(observer),
            )
            spotted = dnd35.reached(verdict)
            state = spotted[0] if spotted else AwarenessState.UNAWARE
            self._check_event(
                "sight", "engine.d20.spot", "dnd35.round.spot", observer, intruder, verdict, state
            )
            if spotted is not None:
                self._learn(observer, intruder, *spotted)
        if observer.aware_of(name).at_least(AwarenessState.LOCATION):
            return False
        heard = conditions + ([Condition.MAKING_NOISE] if name in self.noisy else [])
        return (
            Sense.HEARING in observer.actor.senses
            and not reach(Sense.HEARING, heard).blocked
            and (name in self.noisy or intruder.moved)
        )

    def _beyond_senses(
        self, observer: Walker, intruder: Walker, conditions: list[Condition]
    ) -> None:
        """Once per observer, the GM is told which of its senses cannot reach an ethereal or
        incorporeal intruder in range, and why [DD-17]; the observer learns nothing."""
        if (observer.name, intruder.name) in self.beyond:
            return
        blocked = [
            reach(sense, conditions)
            for sense in observer.actor.senses
            if sense is not Sense.SEE_INVISIBLE
        ]
        rules = sorted({r.line.rule for r in blocked if r.blocked and r.line.rule == "DD-17"})
        if rules:
            self.beyond.add((observer.name, intruder.name))
            self._gm_note(observer, intruder, "dnd35.round.beyond_senses", rules[0])

    def _listen(self, intruder: Walker, listeners: list[Walker]) -> None:
        """One Move Silently result against every listener's own Listen [DD-5, DD-20 R]."""
        stats = stats_of(intruder)
        silent = stats.move_silently
        noisy = intruder.name in self.noisy
        verdict = self.roll(
            dnd35.listen_all_check,
            intruder,
            rules=self.rules,
            listeners=[
                dnd35.Listener(
                    stats_of(o).listen or 0,
                    distance_ft=distance(o.at, intruder.at),
                    door=self._between(
                        o, intruder, (WallKind.DOOR, WallKind.WINDOW, WallKind.PARTITION)
                    ),
                    stone_wall=self._between(o, intruder, (WallKind.WALL,)),
                    distracted=distracted(o),
                    asleep=asleep(o),
                )
                for o in listeners
            ],
            move_silently=silent,
            dex=stats.dex if silent is None else None,
            armor_penalty=stats.armor_check_penalty if silent is None else 0,
            speed=None
            if noisy
            else (
                dnd35.ListenSpeed.RUN
                if intruder.name in self.running
                else dnd35.ListenSpeed.FULL
                if self._speed(intruder) is Attitude.FAST
                else dnd35.ListenSpeed.HALF
            ),
            speaking=noisy,
        )
        self.emit("noise", "dnd35.round.move_silently", actor=intruder, verdict=verdict)
        for observer, member in zip(listeners, verdict.members, strict=True):
            found = dnd35.reached(member)
            state = found[0] if found else AwarenessState.UNAWARE
            self._check_event(
                "noise",
                "engine.d20.listen",
                "dnd35.round.listen",
                observer,
                intruder,
                member,
                state,
            )
            if found is not None:
                self._learn(observer, intruder, *found)

    def _grope(self, defender: Walker, intruder: Walker, squares: tuple[Square, ...]) -> bool:
        """A touch attack into ``squares`` (two adjacent ones, or one where a wall or the map's
        edge takes the other) [DD-6]. The event is placed at the first square's centre: where
        the defender chose to grope, nothing of where the intruder is. Found: ``location``
        until it moves; an empty grope of a known square forgets that square (a bearing
        stays). True when found."""
        occupied = square_of(intruder.at) in squares
        verdict = self.roll(
            dnd35.grope_check,
            defender,
            rules=self.rules,
            touch_attack=stats_of(defender).attack,
            touch_ac=stats_of(intruder).touch_ac,
            occupied=occupied,
        )
        self.emit(
            "attack",
            "engine.d20.grope",
            actor=defender,
            target=intruder,
            at=centre_of(squares[0]),
            verdict=verdict,
        )
        found = dnd35.reached(verdict)
        if found is not None:
            self._learn(defender, intruder, *found, pin="DD-6")
            return True
        key = (defender.name, intruder.name)
        if not isinstance(self.known.get(key), Bearing):
            self.known.pop(key, None)
        return False
