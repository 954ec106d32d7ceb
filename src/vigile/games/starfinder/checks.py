"""The Starfinder checks, declared once (RULES.md §2): ``vigile check starfinder …``, the HTTP
check API and the calculator are built from :data:`CHECKS`.

``hide`` is the opposed Stealth check against one or many observers (SF-1..SF-7, SF-9, SF-10);
``attack`` is the miss chance against a creature located but unseen (SF-8, SF-11). The rule
functions live in :mod:`vigile.rulesets.starfinder`; what is here turns the options into their
arguments, refusing options that contradict each other.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from vigile.awareness.ladder import AwarenessState
from vigile.checks.declare import Check, Checks, Input, Values
from vigile.dice.source import parse_whole_numbers
from vigile.errors import InputError
from vigile.rulesets.limits import LIMITS
from vigile.rulesets.starfinder.attack import attack_check
from vigile.rulesets.starfinder.stealth import (
    Concealment,
    Observer,
    Speed,
    hide_check,
    parse_dc_mod,
)

GAME = "starfinder"
K = "starfinder.checks"
"""The prefix of the checks' help messages (``locales/starfinder.checks.{lang}.toml``)."""
MOST = LIMITS.max_bonus
"""The largest bonus either way (the rules refuse beyond)."""


def parse_bonuses(text: str, *, where: str) -> list[int]:
    """``"5,8,-2"`` into a list of bonuses."""
    return parse_whole_numbers(text, where=where, example="5,8,-2")


def observer_indices(numbers: Sequence[int] | None, count: int, *, where: str) -> set[int]:
    """The observers (numbered from 1, as ``--perception`` lists them) an option names
    (``"1,3"``); refusing a number that names none."""
    found = set()
    for index in numbers or ():
        if not 1 <= index <= count:
            raise InputError(f"{index}: observers are numbered 1 to {count}", where=where)
        found.add(index)
    return found


def concealment_of(*, cover: bool, concealment: bool, total: bool, no_cover: bool) -> Concealment:
    """The concealment flags, refusing contradictions (``--cover`` with ``--no-cover``...)."""
    if no_cover:
        for flag, given in (
            ("--cover", cover),
            ("--concealment", concealment),
            ("--total-concealment", total),
        ):
            if given:
                raise InputError("contradicts --no-cover", where=flag)
    if concealment and total:
        raise InputError(
            "give --concealment or --total-concealment, not both", where="--concealment"
        )
    if total:
        return Concealment.TOTAL
    return Concealment.PARTIAL if concealment else Concealment.NONE


def _hide(v: Values) -> dict[str, Any]:
    count = len(v.perception)
    sensing = observer_indices(v.blindsense, count, where="--blindsense")
    seeing = observer_indices(v.see_invisibility, count, where="--see-invisibility")
    dark_sighted = observer_indices(v.darkvision, count, where="--darkvision")
    observers = [
        Observer(b, i in sensing, see_invisible=i in seeing, darkvision=i in dark_sighted)
        for i, b in enumerate(v.perception, start=1)
    ]
    shade = concealment_of(
        cover=v.cover, concealment=v.concealment, total=v.total_concealment, no_cover=v.no_cover
    )
    flags = ("bluff_diversion", "invisible", "immobile", "cover", "special_ability", "sniping")
    return {
        "stealth": v.stealth,
        "observers": observers,
        "speed": v.speed,
        **{name: getattr(v, name) for name in flags},
        "concealment": shade,
        "distance_ft": v.distance,
        "forest": v.forest,
        "dc_mods": [parse_dc_mod(text) for text in v.dc_mod or ()],
        "armor_penalty": v.armor_penalty,
        "lost_shelter_this_turn": v.lost_cover_this_turn,
        "darkness": v.darkness,
    }


def _observers(name: str, help_key: str) -> Input:
    """An option naming observers by number (``1,3``)."""
    return Input(
        name,
        int,
        help_key,
        None,
        many="comma",
        max_items=LIMITS.max_observers,
        parse=parse_bonuses,
        metavar="I[,I...]",
    )


def _flag(name: str) -> Input:
    return Input(name, bool, f"{K}.hide.{name}", False)


HIDE = Check(
    GAME,
    "hide",
    K + ".hide.about",
    hide_check,
    (
        Input("stealth", int, K + ".hide.stealth", ge=-MOST, le=MOST, metavar="BONUS"),
        Input(
            "perception",
            int,
            K + ".hide.perception",
            ge=-MOST,
            le=MOST,
            many="comma",
            max_items=LIMITS.max_observers,
            parse=parse_bonuses,
            metavar="BONUS[,BONUS...]",
        ),
        Input("speed", Speed, K + ".hide.speed", Speed.HALF),
        _flag("bluff_diversion"),
        _flag("invisible"),
        _flag("immobile"),
        _flag("cover"),
        _flag("concealment"),
        _flag("total_concealment"),
        _flag("no_cover"),
        _flag("special_ability"),
        _flag("sniping"),
        Input(
            "distance",
            float,
            K + ".hide.distance",
            None,
            ge=0,
            le=LIMITS.max_distance,
            metavar="FT",
        ),
        _flag("forest"),
        Input(
            "dc_mod",
            str,
            K + ".hide.dc_mod",
            None,
            many="repeat",
            max_items=LIMITS.max_modifiers,
            metavar="VALUE:LABEL",
        ),
        Input("armor_penalty", int, K + ".hide.armor_penalty", 0, ge=-MOST, le=MOST, metavar="N"),
        _observers("blindsense", K + ".hide.blindsense"),
        _flag("lost_cover_this_turn"),
        _flag("darkness"),
        _observers("darkvision", K + ".hide.darkvision"),
        _observers("see_invisibility", K + ".hide.see_invisibility"),
    ),
    _hide,
    view=True,
)

ATTACK = Check(
    GAME,
    "attack",
    K + ".attack.about",
    attack_check,
    (
        Input("miss_chance", int, K + ".attack.miss_chance", None, ge=0, le=100, metavar="PCT"),
        Input("blind_fight", bool, K + ".attack.blind_fight", False),
        Input("awareness", AwarenessState, K + ".attack.awareness", AwarenessState.LOCATION),
    ),
    view=True,
)

CHECKS = Checks(GAME, K + ".about", (HIDE, ATTACK))
"""Every Starfinder check, in the order ``vigile check starfinder --help`` lists them."""
