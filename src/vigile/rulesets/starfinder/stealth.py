"""Hiding: does the hider stay hidden from every observer? (SF-1..SF-7, SF-9, SF-10).

One Stealth roll is the DC of every observer's own Perception (SF-4 [R]); the exact chance sums
over the hider's d20 (:func:`vigile.dice.d20.hidden_from_all_meet`). Every hider-side number
(Stealth bonus, penalties, the GM's circumstance modifiers) goes into that DC, so in the verdict
they are ``difficulty`` modifiers; each observer's Perception is its ``die_bonus``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from vigile.awareness.ladder import AwarenessState
from vigile.checks.numbers import quoted
from vigile.checks.verdict import Figures, Line, Modifier, Opposed, Param, Verdict
from vigile.dice.d20 import hidden_from_all_meet
from vigile.dice.source import FaceSource
from vigile.errors import InputError
from vigile.rulesets.data import RuleData, from_data
from vigile.rulesets.limits import LIMITS, check_bonus, check_count
from vigile.rulesets.starfinder.awareness import noticed_state
from vigile.rulesets.starfinder.common import (
    RULESET,
    Ruling,
    check_distance_ft,
    one_d20,
)

MAX_LABEL = 80
OUTCOMES = ("starfinder.hide.hidden", "starfinder.hide.noticed")
MEMBER_OUTCOMES = ("starfinder.hide.observer_notices", "starfinder.hide.observer_misses")
QUESTION = "starfinder.hide.question"
MEMBER_QUESTION = "starfinder.hide.observer_question"


class Speed(StrEnum):
    """How fast the hider moves this turn (SF-3)."""

    HALF = "half"
    MORE_THAN_HALF = "more-than-half"


class Concealment(StrEnum):
    """The hider's concealment: none, concealment, or total concealment (SF-2, SF-5, SF-7)."""

    NONE = "none"
    PARTIAL = "partial"
    TOTAL = "total"


@dataclass(frozen=True)
class Observer:
    """A creature nearby that might detect the hider (SF-4)."""

    perception: int
    """Its Perception bonus."""
    blindsense: bool = False
    """Blindsense negates the +40/+20 of invisibility and total concealment (SF-11)."""
    see_invisible: bool = False
    """See invisibility (a divination, DD-19 as Starfinder's spell): the hider's invisibility
    gives nothing against it [SF-7, SF-11 C]."""
    darkvision: bool = False
    """Darkvision that reaches the hider: darkness gives nothing against it [SF-2, SF-5 C]."""


@dataclass(frozen=True)
class DcMod:
    """A circumstance modifier the GM adds to every observer's DC (SF-4 [C]), with its label."""

    value: int
    label: str


def notice_chance(advantage: int) -> Fraction:
    """One observer against one hider, in closed form [SF-4]: P(d20 + a >= d20), ties to the
    observer, where ``a`` is the observer's Perception minus the hider's Stealth (DC modifiers
    included).

    Of the 400 pairs of faces, the hider's die exceeds the observer's by k in 20 - |k| of them;
    the observer misses when k > a: (19 - a)(20 - a)/2 pairs for a >= 0, and
    400 - (20 + a)(21 + a)/2 for a < 0.
    """
    return Fraction(400 - _miss_pairs(advantage), 400)


def _miss_pairs(advantage: int) -> int:
    """Pairs of faces (of 400) in which an observer with ``advantage`` misses [SF-4]."""
    a = max(-20, min(19, advantage))
    return (19 - a) * (20 - a) // 2 if a >= 0 else 400 - (20 + a) * (21 + a) // 2


def parse_dc_mod(text: str, *, where: str = "--dc-mod") -> DcMod:
    """Parse ``"+2:dim light"`` into ``DcMod(2, "dim light")``; a clear error otherwise."""
    value_text, sep, label = text.partition(":")
    label = label.strip()
    if not sep or not label:
        raise InputError(f"{text!r}: write VALUE:LABEL (e.g. +2:dim light)", where=where)
    if len(label) > MAX_LABEL:
        raise InputError(f"label longer than {MAX_LABEL} characters", where=where)
    try:
        value = int(value_text.strip().replace("−", "-"))
    except ValueError:
        raise InputError(f"{value_text.strip()!r} is not a whole number", where=where) from None
    return DcMod(check_bonus(value, where=where), label)


def is_immobile(
    *, your_turn: bool, moved_this_turn: bool, moved_since_last_turn_start: bool
) -> bool:
    """Immobile for SF-7: it is your turn and you have not moved yet, or you have not moved
    since the start of your last turn [SF-7]."""
    return (your_turn and not moved_this_turn) or not moved_since_last_turn_start


def lost_cover_on_the_way(cover_along: Sequence[bool]) -> bool:
    """Did the hider lose cover or concealment during its turn? [SF-6] ``cover_along`` says,
    from where it started to where it stopped, whether each point of its way had cover: it
    lost it if it started in cover and some point of its way had none."""
    return bool(cover_along) and cover_along[0] and not all(cover_along)


def may_stay_hidden(*, lost_shelter_during_turn: bool, shelter_at_end_of_turn: bool) -> Ruling:
    """May you try to stay hidden at the end of your turn? [SF-6]

    Yes if you kept cover or concealment; if you lost them during the turn, only if you have
    cover or concealment again at its end.
    """
    if not shelter_at_end_of_turn:
        return Ruling(False, Line("starfinder.hide.stay_hidden_refused", "SF-6"))
    if lost_shelter_during_turn:
        return Ruling(True, Line("starfinder.hide.stay_hidden_regained", "SF-6"))
    return Ruling(True, Line("starfinder.hide.stay_hidden_kept", "SF-6"))


def stealth_modifiers(
    rules: RuleData,
    *,
    stealth: int,
    armor_penalty: int = 0,
    speed: Speed = Speed.HALF,
    bluff_diversion: bool = False,
    invisible: bool = False,
    immobile: bool = False,
    total_concealment: bool = False,
    sniping: bool = False,
) -> list[Modifier]:
    """The hider's Stealth bonus and every modifier of the rules [SF-1, SF-3, SF-7, SF-10]."""
    mods = [Modifier(stealth, "starfinder.hide.stealth", "SF-1")]
    if armor_penalty:
        mods.append(Modifier(-abs(armor_penalty), "starfinder.hide.armor_penalty", "SF-1"))
    if speed is Speed.MORE_THAN_HALF:
        mods.append(from_data(rules, "stealth.faster_than_half", "starfinder.hide.faster", "SF-3"))
    if bluff_diversion:
        mods.append(from_data(rules, "stealth.bluff_diversion", "starfinder.hide.bluff", "SF-3"))
    if (invisible or total_concealment) and immobile:
        key = "invisible" if invisible else "total"
        mods.append(
            from_data(
                rules, "stealth.invisible_immobile", f"starfinder.hide.{key}_immobile", "SF-7"
            )
        )
    elif invisible:
        mods.append(
            from_data(rules, "stealth.invisible_moving", "starfinder.hide.invisible_moving", "SF-7")
        )
    if sniping:
        mods.append(from_data(rules, "sniping.penalty", "starfinder.hide.sniping", "SF-10"))
    return mods


# Lines that never change are built once (verdicts share immutable parts).
_SF1 = Line("starfinder.hide.dex_skill", "SF-1")
_SF3_HALF = Line("starfinder.hide.half_speed", "SF-3")
_SF3_STILL = Line("starfinder.hide.still", "SF-3")
_SF4_TIES = Line("starfinder.hide.ties", "SF-4", companion=True)
_SF4_NO_DISTANCE = Line("starfinder.hide.no_distance_modifier", "SF-4", companion=True)
_SF5_FAIL = Line("starfinder.hide.failing_observers", "SF-5")
_SF5_OBSERVE = Line("starfinder.hide.succeeding_observe", "SF-5")
_SF5_LOCATE = Line("starfinder.hide.succeeding_locate", "SF-5")
_SF7_IMMOBILE = Line("starfinder.hide.immobile_definition", "SF-7")
_SF9 = Line("starfinder.hide.flat_footed", "SF-9")
_SF2_NONE = Line("starfinder.hide.no_shelter", "SF-2")
_SF2_REASONS = {
    "cover": Line("starfinder.hide.allowed_cover", "SF-2"),
    "concealment": Line("starfinder.hide.allowed_concealment", "SF-2"),
    "total": Line("starfinder.hide.allowed_total_concealment", "SF-2"),
    "invisible": Line("starfinder.hide.allowed_invisible", "SF-2"),
    "darkness": Line("starfinder.hide.allowed_darkness", "SF-2", companion=True),
    "ability": Line("starfinder.hide.allowed_ability", "SF-2"),
    "diversion": Line("starfinder.hide.allowed_diversion", "SF-2"),
}


def hide_check(
    rules: RuleData,
    *,
    stealth: int,
    observers: Sequence[int | Observer],
    speed: Speed = Speed.HALF,
    bluff_diversion: bool = False,
    invisible: bool = False,
    immobile: bool = False,
    cover: bool = False,
    concealment: Concealment = Concealment.NONE,
    special_ability: bool = False,
    sniping: bool = False,
    distance_ft: float | None = None,
    forest: bool = False,
    dc_mods: Sequence[DcMod] = (),
    armor_penalty: int = 0,
    lost_shelter_this_turn: bool = False,
    darkness: bool = False,
    source: FaceSource | None = None,
) -> Verdict:
    """Does the hider stay hidden from every observer? [SF-1..SF-7, SF-9, SF-10]

    Without cover, concealment, invisibility, a special ability or a Bluff diversion no check
    is allowed: the verdict is refused with its reason (SF-2, and SF-6 for a hider who lost its
    cover this turn); so is sniping at a target nearer than 10 ft (SF-10). Otherwise the hider
    rolls d20 + Stealth once; with the GM's circumstance modifiers that result is the DC of
    each observer's d20 + Perception, ties to the observer (SF-4). ``chance`` is the exact
    chance to stay hidden from all; each observer's sub-verdict has its own chance to notice
    and the state it reaches (SF-5). Dice, when rolled: the
    Stealth d20 first, then one d20 per observer in order (none for an observer who sees
    the hider without a roll).

    Per observer [SF-11 C, R]: against one with see invisibility the hider's invisibility
    counts for nothing, and against one whose darkvision reaches it, ``darkness`` counts for
    nothing ([C] Starfinder's vision and light: a creature in darkness has total concealment
    against a creature without darkvision, and may hide there). What is left decides that
    observer's SF-7 bonus (a modifier of its own, as blindsense's negation), the state its
    success reaches (SF-5), and whether the hider may hide from it at all: with nothing left
    (SF-2) it sees the hider, and the hider is hidden from all with chance 0.

    >>> from vigile import load_rules
    >>> hide_check(load_rules("starfinder"), stealth=12, observers=[5, 8], cover=True).chance
    Fraction(569, 1000)
    """
    check_bonus(stealth, where="--stealth")
    crowd = _observers(observers)
    _check_armor(armor_penalty)
    if immobile and speed is Speed.MORE_THAN_HALF:
        raise InputError(
            "an immobile hider does not move: drop --speed more-than-half [SF-7]",
            where="--immobile",
        )
    if forest and distance_ft is None:
        raise InputError("the forest's sound rule needs --distance FT [SF-4]", where="--forest")
    if distance_ft is not None:
        check_distance_ft(distance_ft)
    if sniping:
        too_close = _sniping_too_close(rules, distance_ft)
        if too_close is not None:
            return _refused(crowd, [too_close])
    check_count(len(dc_mods), LIMITS.max_modifiers, "modifiers", where="--dc-mod")
    for mod in dc_mods:
        check_bonus(mod.value, where="--dc-mod")

    darkness = darkness and rules.flag("companion.darkness")
    total = invisible or concealment is Concealment.TOTAL or darkness
    shelter = cover or concealment is not Concealment.NONE or invisible or darkness
    reasons = [
        key
        for key, present in (
            ("cover", cover),
            ("concealment", concealment is Concealment.PARTIAL),
            ("total", concealment is Concealment.TOTAL),
            ("invisible", invisible),
            ("darkness", darkness),
            ("ability", special_ability),
            ("diversion", bluff_diversion),
        )
        if present
    ]
    notes: list[Line] = []
    if lost_shelter_this_turn:
        notes.append(
            may_stay_hidden(lost_shelter_during_turn=True, shelter_at_end_of_turn=shelter).line
        )
    if not reasons:
        return _refused(crowd, [_SF2_NONE, *notes])
    turn_notes = list(notes)
    notes[:0] = [_SF2_REASONS[key] for key in reasons]

    modifiers = stealth_modifiers(
        rules,
        stealth=stealth,
        armor_penalty=armor_penalty,
        speed=speed,
        bluff_diversion=bluff_diversion,
        invisible=invisible,
        immobile=immobile,
        total_concealment=total,
        sniping=sniping,
    )
    notes.append(_SF1)
    if immobile:
        notes.append(_SF3_STILL)
    elif speed is Speed.HALF:
        notes.append(_SF3_HALF)
    if total and immobile:
        notes.append(_SF7_IMMOBILE)
    if sniping and distance_ft is not None:
        notes.append(
            Line("starfinder.hide.sniping_rule", "SF-10", {"distance": quoted(distance_ft)})
        )
    modifiers += [
        Modifier(
            m.value, "starfinder.hide.dc_mod", "SF-4", params={"label": m.label}, companion=True
        )
        for m in dc_mods
    ]
    if distance_ft is not None:
        sound = _sound_modifier(rules, distance_ft, forest)
        if sound is None:
            notes.append(_SF4_NO_DISTANCE)
        else:
            modifiers.append(sound)
    hider_bonus = sum(m.value for m in modifiers)
    notes += [
        Line("starfinder.hide.opposed", "SF-4", {"bonus": hider_bonus, "count": len(crowd)}),
        _SF4_TIES,
        _SF5_FAIL,
        _SF5_LOCATE if total else _SF5_OBSERVE,
        _SF9,
    ]

    sf7 = next((m for m in modifiers if m.rule == "SF-7"), None)
    shared = sf7.value if sf7 is not None else 0
    own = [
        _own_shelter(
            rules,
            observer,
            shared=shared,
            sf7=sf7,
            cover=cover or concealment is Concealment.PARTIAL,
            other=special_ability or bluff_diversion,
            invisible=invisible,
            total=concealment is Concealment.TOTAL,
            darkness=darkness,
            immobile=immobile,
        )
        for observer in crowd
    ]
    rolling = [i for i, against in enumerate(own) if against.allowed]
    if not rolling:
        why: list[Line] = []
        for against in own:
            if against.line is not None and against.line not in why:
                why.append(against.line)
        return _refused(crowd, [_SF2_NONE, *why, *turn_notes])
    # Each observer's DC is the hider's result plus its own modifier (a negative one: the
    # negation of what does not hide the hider from it): the same as raising its Perception.
    bonuses = [crowd[i].perception - _value(own[i].modifier) for i in rolling]
    if len(bonuses) == 1:
        miss = _miss_pairs(bonuses[0] - hider_bonus)
        hidden, chances = Fraction(miss, 400), [Fraction(400 - miss, 400)]
    else:
        hidden, chances = hidden_from_all_meet(hider_bonus, bonuses)
    marginals: list[Fraction] = [Fraction(1)] * len(crowd)
    for i, chance in zip(rolling, chances, strict=True):
        marginals[i] = chance
    if len(rolling) < len(crowd):
        hidden = Fraction(0)

    stealth_face: int | None = None
    result: int | None = None
    faces: list[int | None] = [None] * len(crowd)
    given = False
    if source is not None:
        given = source.given
        stealth_face = source.face(20)
        result = stealth_face + hider_bonus
        for i in rolling:
            faces[i] = source.face(20)
    members = tuple(
        _member(
            index,
            observer,
            marginals[index - 1],
            own[index - 1].state,
            own[index - 1].modifier,
            result,
            faces[index - 1],
            given,
        )
        if own[index - 1].allowed
        else _sees(index, observer, own[index - 1].line)
        for index, observer in enumerate(crowd, start=1)
    )
    success: bool | None = None
    player_notes: tuple[Line, ...] = ()
    if result is not None and stealth_face is not None:
        success = not any(m.success for m in members)
        rolled = Line(
            "starfinder.hide.stealth_result",
            "SF-4",
            {"face": stealth_face, "bonus": hider_bonus, "result": result},
        )
        notes.append(rolled)
        player_notes = (rolled,)
    return Verdict(
        ruleset=RULESET,
        check="hide",
        question=QUESTION,
        chance=hidden,
        modifiers=tuple(modifiers),
        notes=tuple(notes),
        roll=None
        if stealth_face is None
        else one_d20(stealth_face, bool(success), given, "stealth"),
        success=success,
        outcome=None if success is None else OUTCOMES[0 if success else 1],
        state=AwarenessState.UNAWARE,
        members=members,
        members_key="observers",
        figures=Figures(opposed=Opposed("stealth", stealth_face, hider_bonus, result)),
        dice_kind="opposed",
        player_notes=player_notes,
        player_outcome=None if success is None else "starfinder.hide.player_unknown",
    )


@dataclass(frozen=True)
class _Against:
    """What the hider has against one observer [SF-2, SF-5, SF-7, SF-11]."""

    allowed: bool
    """May it hide from this observer at all (SF-2)?"""
    modifier: Modifier | None
    """This observer's own change to its DC: the negation of what does not hide the hider
    from it (blindsense, see invisibility, darkvision); None when there is none."""
    state: AwarenessState
    """What this observer's success reaches (SF-5)."""
    line: Line | None
    """Why the hider's invisibility or darkness counts for nothing against it."""


def _value(modifier: Modifier | None) -> int:
    return modifier.value if modifier is not None else 0


def _own_shelter(
    rules: RuleData,
    observer: Observer,
    *,
    shared: int,
    sf7: Modifier | None,
    cover: bool,
    other: bool,
    invisible: bool,
    total: bool,
    darkness: bool,
    immobile: bool,
) -> _Against:
    """The hider's cover, concealment and SF-7 bonus against ``observer``: its invisibility
    counts for nothing against see invisibility, darkness nothing against darkvision [SF-11
    C, SF-2 C]; blindsense negates the SF-7 bonus (SF-11 [C]). ``shared`` is the SF-7 bonus
    the hider's result holds (against an observer with none of these senses)."""
    unseen = invisible and not observer.see_invisible
    dark = darkness and not observer.darkvision
    own_total = unseen or total or dark
    line: Line | None = None
    key = ""
    if invisible and observer.see_invisible:
        key, rule = "starfinder.hide.sees_invisible", "SF-11"
    elif darkness and observer.darkvision:
        key, rule = "starfinder.hide.darkvision", "SF-2"
    if key:
        line = Line(key, rule, companion=True)
    if own_total and immobile:
        value = rules.num("stealth.invisible_immobile")
    elif unseen:
        value = rules.num("stealth.invisible_moving")
    else:
        value = 0
    modifier: Modifier | None = None
    if sf7 is not None and observer.blindsense and rules.flag("companion.blindsense_negates"):
        modifier = Modifier(
            -shared, "starfinder.hide.blindsense", "SF-11", source=sf7.source, companion=True
        )
    elif sf7 is not None and value != shared and line is not None:
        modifier = Modifier(
            value - shared, line.reason, line.rule, source=sf7.source, companion=True
        )
    return _Against(cover or other or own_total, modifier, noticed_state(own_total), line)


def _sees(index: int, observer: Observer, why: Line | None, *, automatic: bool = False) -> Verdict:
    """An observer the hider cannot hide from (``why``), though it may hide from others, or
    from anyone (``automatic``: no check allowed): it sees the hider, no die rolled [SF-2]."""
    return Verdict(
        ruleset=RULESET,
        check="hide",
        question=MEMBER_QUESTION,
        chance=Fraction(1),
        notes=() if why is None else (why,),
        die_bonus=observer.perception,
        automatic=automatic,
        success=True,
        outcome="starfinder.hide.observer_sees",
        state=AwarenessState.OBSERVED,
        member_label="starfinder.hide.observer",
        member_params={"index": index, "bonus": observer.perception},
        dice_kind="opposed",
    )


def _observers(observers: Sequence[int | Observer]) -> list[Observer]:
    if not observers:
        raise InputError("at least one observer's Perception bonus is needed", where="--perception")
    check_count(len(observers), LIMITS.max_observers, "observers", where="--perception")
    crowd = [o if isinstance(o, Observer) else _plain(o) for o in observers]
    for observer in crowd:
        check_bonus(observer.perception, where="--perception")
    return crowd


_PLAIN: dict[int, Observer] = {}


def _plain(perception: int) -> Observer:
    """An observer with no special sense (shared: observers are immutable)."""
    observer = _PLAIN.get(perception)
    if observer is None:
        observer = Observer(perception)
        if isinstance(perception, int) and abs(perception) <= LIMITS.max_bonus:
            _PLAIN[perception] = observer
    return observer


def _check_armor(armor_penalty: int) -> None:
    check_bonus(armor_penalty, where="--armor-penalty")


def _sniping_too_close(rules: RuleData, distance_ft: float | None) -> Line | None:
    """Sniping needs the target's distance (an input error without it), 10 ft or more: a
    nearer target refuses the attempt, with the rule's reason [SF-10]."""
    if distance_ft is None:
        raise InputError("needs --distance FT, the target's distance [SF-10]", where="--sniping")
    least = rules.num("sniping.min_distance_ft")
    if distance_ft >= least:
        return None
    return Line(
        "starfinder.hide.sniping_too_close",
        "SF-10",
        {"least": least, "distance": quoted(distance_ft)},
    )


def _sound_modifier(rules: RuleData, distance_ft: float, forest: bool) -> Modifier | None:
    """+1 (+2 in a forest) per whole 10 ft to a sound-based Perception DC [SF-4, C, off by
    default]; None when the house rules leave it off."""
    if not rules.flag("companion.sound_distance"):
        return None
    step = rules.num("sound.step_ft")
    per_key = "sound.per_step_forest" if forest else "sound.per_step"
    steps = int(distance_ft // step)
    return Modifier(
        value=steps * rules.num(per_key),
        reason="starfinder.hide.sound_forest" if forest else "starfinder.hide.sound",
        rule="SF-4",
        params={"distance": quoted(distance_ft), "step": step},
        source=per_key,
        overridden=rules.is_overridden(per_key) or rules.is_overridden("sound.step_ft"),
        companion=True,
    )


def _member(
    index: int,
    observer: Observer,
    chance: Fraction,
    state: AwarenessState,
    negation: Modifier | None,
    result: int | None,
    face: int | None,
    given: bool,
) -> Verdict:
    """One observer's own check: its chance to notice, and once rolled its d20 against the
    hider's result [SF-4, SF-5]."""
    params: dict[str, Param] = {"index": index, "bonus": observer.perception}
    modifiers = () if negation is None else (negation,)
    if result is None or face is None:
        return Verdict(
            ruleset=RULESET,
            check="hide",
            question=MEMBER_QUESTION,
            chance=chance,
            modifiers=modifiers,
            die_bonus=observer.perception,
            state=state,
            member_label="starfinder.hide.observer",
            member_params=params,
            dice_kind="opposed",
        )
    dc = result + (negation.value if negation is not None else 0)
    noticed = face + observer.perception >= dc
    return Verdict(
        ruleset=RULESET,
        check="hide",
        question=MEMBER_QUESTION,
        chance=chance,
        modifiers=modifiers,
        difficulty=dc,
        die_bonus=observer.perception,
        roll=one_d20(face, noticed, given, "perception"),
        success=noticed,
        outcome=MEMBER_OUTCOMES[0 if noticed else 1],
        state=state,
        member_label="starfinder.hide.observer",
        member_params=params,
        figures=Figures(state_after=state if noticed else AwarenessState.UNAWARE),
        dice_kind="d20",
    )


def _refused(crowd: Sequence[Observer], notes: list[Line]) -> Verdict:
    """No Stealth check is allowed [SF-2]: the observers who can see you see you."""
    members = tuple(
        _sees(index, observer, None, automatic=True)
        for index, observer in enumerate(crowd, start=1)
    )
    return Verdict(
        ruleset=RULESET,
        check="hide",
        question=QUESTION,
        chance=Fraction(0),
        notes=tuple(notes),
        impossible=True,
        success=False,
        outcome="starfinder.hide.refused",
        members=members,
        members_key="observers",
        dice_kind="opposed",
        player_notes=tuple(notes),
    )
