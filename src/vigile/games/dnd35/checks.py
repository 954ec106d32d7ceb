"""The D&D 3.5 invisibility checks, declared once (RULES.md §3): ``vigile check dnd35 …``, the
HTTP check API and the calculator are built from :data:`CHECKS`.

The rule functions live in :mod:`vigile.rulesets.dnd35`; what is here turns the options into
their arguments (``--sneak-attack 2d6`` into 2 dice, ``--visible`` into the target's
conditions), refusing options that contradict each other.
"""

from __future__ import annotations

from typing import Any

from vigile.awareness.vocabulary import TimeOfDay
from vigile.checks.declare import Check, Checks, Input, Values
from vigile.dice.source import parse_whole_numbers
from vigile.errors import InputError
from vigile.rulesets.dnd35.attack import Square, attack_check, attack_roll_check, grope_check
from vigile.rulesets.dnd35.hide import HideSpeed, Size, hide_check
from vigile.rulesets.dnd35.listen import ListenSpeed, listen_check
from vigile.rulesets.dnd35.rulings import (
    Carried,
    gaze_check,
    senses_check,
    signs_check,
    struck_check,
)
from vigile.rulesets.dnd35.spot import SpotTarget, spot_check
from vigile.rulesets.limits import LIMITS
from vigile.rulesets.senses import Condition, Sense

GAME = "dnd35"
K = "dnd35.checks"
"""The prefix of the checks' help messages (``locales/dnd35.checks.{lang}.toml``)."""
MOST = LIMITS.max_bonus
"""The largest bonus either way (the rules refuse beyond)."""
FARTHEST = LIMITS.max_distance
MAX_SNEAK_DICE = 20
"""Most sneak attack dice ``--sneak-attack`` takes (a typo beyond)."""
MAX_FAVORED_ENEMY = 20
"""Largest favored enemy bonus ``--favored-enemy`` takes (a typo beyond)."""


def parse_bonuses(text: str, *, where: str) -> list[int]:
    """``"3,8,-1"`` into a list of bonuses."""
    return parse_whole_numbers(text, where=where, example="3,8,-1")


def parse_distances(text: str, *, where: str = "--distance") -> list[float]:
    """``"10"`` (every observer) or ``"10,25,5.5"`` (one per observer) into feet."""
    distances: list[float] = []
    for part in text.split(","):
        try:
            distances.append(float(part.strip()))
        except ValueError:
            raise InputError(
                f"{part.strip()!r} is not a distance in feet (write 10 or 10,25,5)", where=where
            ) from None
    return distances


def parse_sneak_attack(text: str, *, where: str = "--sneak-attack") -> int:
    """``"2d6"`` or ``"2"`` into the number of sneak attack dice (d6 only)."""
    cleaned = text.strip().lower()
    count = cleaned.removesuffix("d6")
    if not count.isdigit() or int(count) > MAX_SNEAK_DICE:
        raise InputError(f"{text!r} is not sneak attack dice (write 2d6, up to 20d6)", where=where)
    return int(count)


def _spot(v: Values) -> dict[str, Any]:
    return {
        "spot_bonus": v.spot,
        "distance_ft": v.distance,
        "target": v.target,
        "pinpoint": v.pinpoint,
        "distracted": v.distracted,
    }


def _listen(v: Values) -> dict[str, Any]:
    names = ("move_silently", "dex", "armor_penalty", "speed", "speaking")
    more = ("door", "stone_wall", "distracted", "asleep")
    return {
        "listen_bonus": v.listen,
        **{name: getattr(v, name) for name in names},
        "distance_ft": v.distance,
        **{name: getattr(v, name) for name in more},
    }


def _hide(v: Values) -> dict[str, Any]:
    distances = v.distance
    return {
        "hide_bonus": v.hide,
        "spot_bonuses": v.spot,
        "distance_ft": distances[0] if len(distances) == 1 else distances,
        "speed": v.speed,
        "size": v.size,
        "cover": v.cover,
        "concealment": v.concealment,
        "invisible": not v.visible,
    }


def _attack(v: Values) -> dict[str, Any]:
    if v.square_correct and v.square_wrong:
        raise InputError("the square is either right or wrong, not both", where="--square-wrong")
    square = Square.CORRECT if v.square_correct else Square.WRONG if v.square_wrong else None
    return {
        "miss_chance": v.miss_chance,
        "blind_fight": v.blind_fight,
        "blindsight": v.blindsight,
        "in_liquid": v.in_water,
        "square": square,
        "incorporeal": v.incorporeal,
    }


def _attack_roll(v: Values) -> dict[str, Any]:
    if not 0 <= v.favored_enemy <= MAX_FAVORED_ENEMY:
        raise InputError(
            f"{v.favored_enemy}: a favored enemy bonus is 0 to {MAX_FAVORED_ENEMY}",
            where="--favored-enemy",
        )
    flags = ("invisible_attacker", "sees_invisible", "invisible_target")
    return {
        "attack": v.attack,
        "ac": v.ac,
        "dex": v.dex_to_ac,
        **{name: getattr(v, name) for name in flags},
        "sneak_attack": v.sneak_attack,
        "favored_enemy": v.favored_enemy,
    }


def _struck(v: Values) -> dict[str, Any]:
    return {"reach_ft": v.reach, "ranged": v.ranged, "moved_at_once": v.moved_at_once}


def _signs(v: Values) -> dict[str, Any]:
    return {
        "distance_ft": v.distance,
        "night": v.time is TimeOfDay.NIGHT,
        "carried": v.carries,
        "floured": v.floured,
        "flour_throw_ft": v.flour_throw,
        "flour_miss_ft": v.flour_miss,
        "light_ft": v.light,
        "moved": v.moved,
        "soft_ground": v.soft_ground,
        "in_liquid": v.in_water,
        "spot_bonus": v.spot,
        "distracted": v.distracted,
    }


def _senses(v: Values) -> dict[str, Any]:
    conditions = [
        condition
        for condition, on in (
            (Condition.INVISIBLE, not v.visible),
            (Condition.ETHEREAL, v.ethereal),
            (Condition.INCORPOREAL, v.incorporeal),
            (Condition.IN_LIQUID, v.in_water),
            (Condition.NOT_BREATHING, v.not_breathing),
            (Condition.MAKING_NOISE, v.making_noise),
        )
        if on
    ]
    if v.visible and v.ethereal:
        raise InputError("an ethereal creature is invisible (DD-17)", where="--visible")
    return {"senses": v.sense, "conditions": conditions}


def _flag(check: str, name: str) -> Input:
    return Input(name, bool, f"{K}.{check}.{name}", False)


def _check(name: str, rule: Any, *inputs: Input, args: Any = None) -> Check:
    return Check(GAME, name, f"{K}.{name}.about", rule, inputs, args, view=True)


DISTANCE = Input("distance", float, K + ".distance", ge=0, le=FARTHEST, metavar="FT")

CHECKS = Checks(
    GAME,
    K + ".about",
    (
        _check(
            "spot",
            spot_check,
            Input("spot", int, K + ".spot.spot", ge=-MOST, le=MOST),
            DISTANCE,
            Input("target", SpotTarget, K + ".spot.target"),
            _flag("spot", "pinpoint"),
            _flag("spot", "distracted"),
            args=_spot,
        ),
        _check(
            "listen",
            listen_check,
            Input("listen", int, K + ".listen.listen", ge=-MOST, le=MOST),
            Input("move_silently", int, K + ".listen.move_silently", None, ge=-MOST, le=MOST),
            Input("dex", int, K + ".listen.dex", None, ge=-MOST, le=MOST),
            Input(
                "armor_penalty", int, K + ".listen.armor_penalty", 0, ge=-MOST, le=MOST, metavar="N"
            ),
            Input("speed", ListenSpeed, K + ".listen.speed", None),
            _flag("listen", "speaking"),
            Input("distance", float, K + ".distance", 0.0, ge=0, le=FARTHEST, metavar="FT"),
            _flag("listen", "door"),
            _flag("listen", "stone_wall"),
            _flag("listen", "distracted"),
            _flag("listen", "asleep"),
            args=_listen,
        ),
        _check(
            "hide",
            hide_check,
            Input("hide", int, K + ".hide.hide", ge=-MOST, le=MOST),
            Input(
                "spot",
                int,
                K + ".hide.spot",
                ge=-MOST,
                le=MOST,
                many="comma",
                max_items=LIMITS.max_observers,
                parse=parse_bonuses,
                metavar="BONUS[,BONUS...]",
            ),
            Input(
                "distance",
                float,
                K + ".hide.distance",
                "0",
                ge=0,
                le=LIMITS.max_distance,
                many="comma",
                max_items=LIMITS.max_observers,
                parse=parse_distances,
                metavar="FT[,FT...]",
            ),
            Input("speed", HideSpeed, K + ".hide.speed", HideSpeed.HALF),
            Input("size", Size, K + ".hide.size", Size.MEDIUM),
            _flag("hide", "cover"),
            _flag("hide", "concealment"),
            _flag("hide", "visible"),
            args=_hide,
        ),
        _check(
            "grope",
            grope_check,
            Input("touch_attack", int, K + ".grope.touch_attack", ge=-MOST, le=MOST),
            Input("touch_ac", int, K + ".grope.touch_ac", ge=0, le=LIMITS.max_ac),
            _flag("grope", "occupied"),
        ),
        _check(
            "attack",
            attack_check,
            Input("miss_chance", int, K + ".attack.miss_chance", ge=0, le=100, metavar="PCT"),
            _flag("attack", "blind_fight"),
            _flag("attack", "blindsight"),
            _flag("attack", "in_water"),
            _flag("attack", "incorporeal"),
            _flag("attack", "square_correct"),
            _flag("attack", "square_wrong"),
            args=_attack,
        ),
        _check(
            "attack-roll",
            attack_roll_check,
            Input("attack", int, K + ".attack-roll.attack", ge=-MOST, le=MOST),
            Input("ac", int, K + ".attack-roll.ac", ge=0, le=LIMITS.max_ac),
            Input(
                "dex_to_ac", int, K + ".attack-roll.dex_to_ac", 0, ge=-MOST, le=MOST, metavar="N"
            ),
            _flag("attack-roll", "invisible_attacker"),
            _flag("attack-roll", "sees_invisible"),
            _flag("attack-roll", "invisible_target"),
            Input(
                "sneak_attack",
                str,
                K + ".attack-roll.sneak_attack",
                "0",
                parse=parse_sneak_attack,
                metavar="Nd6",
            ),
            Input(
                "favored_enemy",
                int,
                K + ".attack-roll.favored_enemy",
                0,
                ge=0,
                le=MAX_FAVORED_ENEMY,
                metavar="N",
            ),
            args=_attack_roll,
        ),
        _check(
            "struck",
            struck_check,
            Input("reach", float, K + ".struck.reach", 5.0, metavar="FT"),
            _flag("struck", "ranged"),
            _flag("struck", "moved_at_once"),
            args=_struck,
        ),
        _check(
            "signs",
            signs_check,
            DISTANCE,
            Input("time", TimeOfDay, K + ".signs.time", TimeOfDay.NIGHT),
            Input("carries", Carried, K + ".signs.carries", Carried.OWN_GEAR),
            _flag("signs", "floured"),
            Input(
                "flour_throw",
                float,
                K + ".signs.flour_throw",
                None,
                ge=0,
                le=FARTHEST,
                metavar="FT",
            ),
            Input(
                "flour_miss", float, K + ".signs.flour_miss", 0.0, ge=0, le=FARTHEST, metavar="FT"
            ),
            Input("light", int, K + ".signs.light", 0, ge=0, metavar="FT"),
            _flag("signs", "moved"),
            _flag("signs", "soft_ground"),
            _flag("signs", "in_water"),
            Input("spot", int, K + ".signs.spot", 0, ge=-MOST, le=MOST),
            _flag("signs", "distracted"),
            args=_signs,
        ),
        _check(
            "senses",
            senses_check,
            Input("sense", Sense, K + ".senses.sense", many="repeat", max_items=len(Sense)),
            _flag("senses", "visible"),
            _flag("senses", "ethereal"),
            _flag("senses", "incorporeal"),
            _flag("senses", "in_water"),
            _flag("senses", "not_breathing"),
            _flag("senses", "making_noise"),
            args=_senses,
        ),
        _check("gaze", gaze_check, _flag("gaze", "invisible")),
    ),
)
"""Every D&D 3.5 check, in the order ``vigile check dnd35 --help`` lists them."""
