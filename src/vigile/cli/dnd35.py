"""``vigile check dnd35 …``: one command per check of D&D 3.5 invisibility (RULES.md §3)."""

from __future__ import annotations

from typing import Annotated

import typer

from vigile.awareness.vocabulary import TimeOfDay
from vigile.cli.common import Common, common_options, run_check
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
from vigile.rulesets.senses import Condition, Sense

app = typer.Typer(
    help="Checks of D&D 3.5 invisibility (d20 against a DC, opposed checks, miss chances).",
    no_args_is_help=True,
    add_completion=False,
)

DistanceOpt = Annotated[float, typer.Option("--distance", metavar="FT", help="Distance in feet.")]


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


@app.command()
@common_options(view=True)
def spot(
    spot: Annotated[int, typer.Option("--spot", help="The observer's Spot bonus.")],
    distance: DistanceOpt,
    target: Annotated[SpotTarget, typer.Option("--target", help="What the invisible one does.")],
    pinpoint: Annotated[
        bool, typer.Option("--pinpoint", help="Try to pinpoint (+20, DD-4).")
    ] = False,
    distracted: Annotated[bool, typer.Option("--distracted", help="Observer distracted.")] = False,
    *,
    common: Common,
) -> None:
    """Does an observer notice (or pinpoint) an invisible creature by Spot? (DD-1, DD-3, DD-4)"""
    run_check(
        "dnd35",
        common,
        lambda rules, source: spot_check(
            rules,
            spot_bonus=spot,
            distance_ft=distance,
            target=target,
            pinpoint=pinpoint,
            distracted=distracted,
            source=source,
        ),
    )


@app.command()
@common_options(view=True)
def listen(
    listen: Annotated[int, typer.Option("--listen", help="The listener's Listen bonus.")],
    move_silently: Annotated[
        int | None, typer.Option("--move-silently", help="The creature's Move Silently bonus.")
    ] = None,
    dex: Annotated[
        int | None, typer.Option("--dex", help="Dexterity modifier of a creature without ranks.")
    ] = None,
    armor_penalty: Annotated[
        int, typer.Option("--armor-penalty", metavar="N", help="Armor check penalty (with --dex).")
    ] = 0,
    speed: Annotated[
        ListenSpeed | None, typer.Option("--speed", help="How fast the creature moves.")
    ] = None,
    speaking: Annotated[
        bool, typer.Option("--speaking", help="The creature fights or speaks (DC 0).")
    ] = False,
    distance: DistanceOpt = 0.0,
    door: Annotated[bool, typer.Option("--door", help="Behind a door.")] = False,
    stone_wall: Annotated[bool, typer.Option("--stone-wall", help="Behind a stone wall.")] = False,
    distracted: Annotated[bool, typer.Option("--distracted", help="Listener distracted.")] = False,
    asleep: Annotated[bool, typer.Option("--asleep", help="Listener asleep.")] = False,
    *,
    common: Common,
) -> None:
    """Does a listener hear (or pinpoint) an invisible creature? (DD-5)"""
    run_check(
        "dnd35",
        common,
        lambda rules, source: listen_check(
            rules,
            listen_bonus=listen,
            move_silently=move_silently,
            dex=dex,
            armor_penalty=armor_penalty,
            speed=speed,
            speaking=speaking,
            distance_ft=distance,
            door=door,
            stone_wall=stone_wall,
            distracted=distracted,
            asleep=asleep,
            source=source,
        ),
    )


@app.command()
@common_options(view=True)
def hide(
    hide: Annotated[int, typer.Option("--hide", help="The hider's Hide bonus.")],
    spot: Annotated[
        str, typer.Option("--spot", metavar="BONUS[,BONUS...]", help="Each observer's Spot bonus.")
    ],
    distance: Annotated[
        str,
        typer.Option(
            "--distance",
            metavar="FT[,FT...]",
            help="Distance in feet: one for every observer, or one per observer as --spot.",
        ),
    ] = "0",
    speed: Annotated[HideSpeed, typer.Option("--speed", help="How fast the hider moves.")] = (
        HideSpeed.HALF
    ),
    size: Annotated[Size, typer.Option("--size", help="The hider's size.")] = Size.MEDIUM,
    cover: Annotated[bool, typer.Option("--cover", help="The hider has cover.")] = False,
    concealment: Annotated[
        bool, typer.Option("--concealment", help="The hider has concealment.")
    ] = False,
    visible: Annotated[
        bool,
        typer.Option(
            "--visible", help="The hider is not invisible (needs --cover or --concealment)."
        ),
    ] = False,
    *,
    common: Common,
) -> None:
    """Hide from observers who see invisible creatures: one Hide roll, each one's Spot at its
    own distance (DD-20). Hiding needs cover, concealment or invisibility."""
    bonuses = parse_bonuses(spot, where="--spot")
    distances = parse_distances(distance)
    run_check(
        "dnd35",
        common,
        lambda rules, source: hide_check(
            rules,
            hide_bonus=hide,
            spot_bonuses=bonuses,
            distance_ft=distances[0] if len(distances) == 1 else distances,
            speed=speed,
            size=size,
            cover=cover,
            concealment=concealment,
            invisible=not visible,
            source=source,
        ),
    )


@app.command()
@common_options(view=True)
def grope(
    touch_attack: Annotated[int, typer.Option("--touch-attack", help="Touch attack bonus.")],
    touch_ac: Annotated[int, typer.Option("--touch-ac", help="The creature's touch AC.")],
    occupied: Annotated[
        bool,
        typer.Option("--occupied", help="The creature is in one of the two squares."),
    ] = False,
    *,
    common: Common,
) -> None:
    """Grope two adjacent squares for an invisible creature (DD-6)."""
    run_check(
        "dnd35",
        common,
        lambda rules, source: grope_check(
            rules, touch_attack=touch_attack, touch_ac=touch_ac, occupied=occupied, source=source
        ),
    )


@app.command()
@common_options(view=True)
def attack(
    miss_chance: Annotated[
        int, typer.Option("--miss-chance", metavar="PCT", help="Miss chance in percent (0..100).")
    ],
    blind_fight: Annotated[bool, typer.Option("--blind-fight", help="Blind-Fight feat.")] = False,
    blindsight: Annotated[bool, typer.Option("--blindsight", help="Attacker has blindsight.")] = (
        False
    ),
    in_water: Annotated[
        bool, typer.Option("--in-water", help="The creature moves through water or a liquid.")
    ] = False,
    incorporeal: Annotated[
        bool, typer.Option("--incorporeal", help="The creature is incorporeal.")
    ] = False,
    square_correct: Annotated[
        bool, typer.Option("--square-correct", help="Not located: the named square is right.")
    ] = False,
    square_wrong: Annotated[
        bool, typer.Option("--square-wrong", help="Not located: the named square is wrong.")
    ] = False,
    *,
    common: Common,
) -> None:
    """Attack an invisible creature: does the miss chance spare the blow? (DD-8, DD-9, DD-12,
    DD-14, DD-15)"""
    if square_correct and square_wrong:
        raise InputError("the square is either right or wrong, not both", where="--square-wrong")
    square = Square.CORRECT if square_correct else Square.WRONG if square_wrong else None
    run_check(
        "dnd35",
        common,
        lambda rules, source: attack_check(
            rules,
            miss_chance=miss_chance,
            blind_fight=blind_fight,
            blindsight=blindsight,
            in_liquid=in_water,
            square=square,
            incorporeal=incorporeal,
            source=source,
        ),
    )


def parse_sneak_attack(text: str, *, where: str = "--sneak-attack") -> int:
    """``"2d6"`` or ``"2"`` into the number of sneak attack dice (d6 only)."""
    cleaned = text.strip().lower()
    count = cleaned.removesuffix("d6")
    if not count.isdigit() or int(count) > 20:
        raise InputError(f"{text!r} is not sneak attack dice (write 2d6, up to 20d6)", where=where)
    return int(count)


@app.command("attack-roll")
@common_options(view=True)
def attack_roll(
    attack: Annotated[int, typer.Option("--attack", help="Attack bonus.")],
    ac: Annotated[int, typer.Option("--ac", help="The target's AC, its Dexterity bonus included.")],
    dex_to_ac: Annotated[
        int,
        typer.Option("--dex-to-ac", metavar="N", help="The target's Dexterity bonus to AC."),
    ] = 0,
    invisible_attacker: Annotated[
        bool, typer.Option("--invisible-attacker", help="The attacker is invisible (DD-21).")
    ] = False,
    sees_invisible: Annotated[
        bool,
        typer.Option("--sees-invisible", help="The target sees invisible creatures (DD-21)."),
    ] = False,
    invisible_target: Annotated[
        bool, typer.Option("--invisible-target", help="The target is invisible (DD-2).")
    ] = False,
    sneak_attack: Annotated[
        str, typer.Option("--sneak-attack", metavar="Nd6", help="The attacker's sneak attack.")
    ] = "0",
    favored_enemy: Annotated[
        int,
        typer.Option("--favored-enemy", metavar="N", help="The attacker's favored enemy bonus."),
    ] = 0,
    *,
    common: Common,
) -> None:
    """Does the attack roll hit the AC? An invisible attacker gets +2 and ignores the Dexterity
    bonus (DD-21); an invisible target is spared sneak attack and a favored enemy's bonus, not
    critical hits (DD-2)."""
    dice = parse_sneak_attack(sneak_attack)
    if favored_enemy < 0 or favored_enemy > 20:
        raise InputError(
            f"{favored_enemy}: a favored enemy bonus is 0 to 20", where="--favored-enemy"
        )
    run_check(
        "dnd35",
        common,
        lambda rules, source: attack_roll_check(
            rules,
            attack=attack,
            ac=ac,
            dex=dex_to_ac,
            invisible_attacker=invisible_attacker,
            sees_invisible=sees_invisible,
            invisible_target=invisible_target,
            sneak_attack=dice,
            favored_enemy=favored_enemy,
            source=source,
        ),
    )


@app.command()
@common_options(view=True)
def struck(
    reach: Annotated[
        float, typer.Option("--reach", metavar="FT", help="The attacker's reach in feet.")
    ] = 5.0,
    ranged: Annotated[bool, typer.Option("--ranged", help="A ranged attack.")] = False,
    moved_at_once: Annotated[
        bool, typer.Option("--moved-at-once", help="The attacker moved at once.")
    ] = False,
    *,
    common: Common,
) -> None:
    """What does a character struck by an invisible creature learn of it? (DD-7)"""
    run_check(
        "dnd35",
        common,
        lambda rules, source: struck_check(
            rules, reach_ft=reach, ranged=ranged, moved_at_once=moved_at_once
        ),
    )


@app.command()
@common_options(view=True)
def signs(
    distance: DistanceOpt,
    time: Annotated[TimeOfDay, typer.Option("--time", help="Night or day.")] = TimeOfDay.NIGHT,
    carries: Annotated[
        Carried, typer.Option("--carries", help="What the creature carries (DD-10).")
    ] = Carried.OWN_GEAR,
    floured: Annotated[bool, typer.Option("--floured", help="Flour covers it (DD-10).")] = False,
    flour_throw: Annotated[
        float | None,
        typer.Option("--flour-throw", metavar="FT", help="Flour thrown this far (DD-10)."),
    ] = None,
    flour_miss: Annotated[
        float,
        typer.Option("--flour-miss", metavar="FT", help="How far from it the flour lands."),
    ] = 0.0,
    light: Annotated[
        int, typer.Option("--light", metavar="FT", help="Radius of a lit light it carries.")
    ] = 0,
    moved: Annotated[bool, typer.Option("--moved", help="It moved this round.")] = False,
    soft_ground: Annotated[
        bool, typer.Option("--soft-ground", help="It stands on soft ground (DD-11).")
    ] = False,
    in_water: Annotated[
        bool, typer.Option("--in-water", help="It moves through water or a liquid (DD-12).")
    ] = False,
    spot: Annotated[
        int, typer.Option("--spot", help="The observer's Spot bonus, for footprints (DD-11).")
    ] = 0,
    distracted: Annotated[
        bool, typer.Option("--distracted", help="Observer distracted (Spot for footprints).")
    ] = False,
    *,
    common: Common,
) -> None:
    """Does something show an invisible creature's square: a visible object, flour, its light,
    a liquid, or, on a Spot check, its footprints? (DD-10, DD-11, DD-12, DD-16)"""
    run_check(
        "dnd35",
        common,
        lambda rules, source: signs_check(
            rules,
            distance_ft=distance,
            night=time is TimeOfDay.NIGHT,
            carried=carries,
            floured=floured,
            flour_throw_ft=flour_throw,
            flour_miss_ft=flour_miss,
            light_ft=light,
            moved=moved,
            soft_ground=soft_ground,
            in_liquid=in_water,
            spot_bonus=spot,
            distracted=distracted,
            source=source,
        ),
    )


@app.command()
@common_options(view=True)
def senses(
    sense: Annotated[
        list[Sense], typer.Option("--sense", help="A sense of the observer (repeat the option).")
    ],
    visible: Annotated[
        bool, typer.Option("--visible", help="The target is not invisible.")
    ] = False,
    ethereal: Annotated[bool, typer.Option("--ethereal", help="Ethereal (DD-17).")] = False,
    incorporeal: Annotated[
        bool, typer.Option("--incorporeal", help="Incorporeal (DD-17).")
    ] = False,
    in_water: Annotated[
        bool, typer.Option("--in-water", help="Moving through a liquid (DD-12).")
    ] = False,
    not_breathing: Annotated[
        bool, typer.Option("--not-breathing", help="A construct, an undead (DD-3).")
    ] = False,
    making_noise: Annotated[
        bool, typer.Option("--making-noise", help="An incorporeal one makes noise (DD-17).")
    ] = False,
    *,
    common: Common,
) -> None:
    """How far do the observer's senses reach against the target? (DD-1, DD-13, DD-15, DD-17,
    DD-19)"""
    conditions = [
        condition
        for condition, on in (
            (Condition.INVISIBLE, not visible),
            (Condition.ETHEREAL, ethereal),
            (Condition.INCORPOREAL, incorporeal),
            (Condition.IN_LIQUID, in_water),
            (Condition.NOT_BREATHING, not_breathing),
            (Condition.MAKING_NOISE, making_noise),
        )
        if on
    ]
    if visible and ethereal:
        raise InputError("an ethereal creature is invisible (DD-17)", where="--visible")
    run_check("dnd35", common, lambda rules, source: senses_check(sense, conditions))


@app.command()
@common_options(view=True)
def gaze(
    invisible: Annotated[
        bool, typer.Option("--invisible", help="The creature with the gaze is invisible.")
    ] = False,
    *,
    common: Common,
) -> None:
    """May the creature use its gaze attack? (DD-18)"""
    run_check("dnd35", common, lambda rules, source: gaze_check(invisible=invisible))
