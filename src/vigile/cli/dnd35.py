"""``vigile check dnd35 …``: one command per check of D&D 3.5 invisibility (RULES.md §3)."""

from __future__ import annotations

from typing import Annotated

import typer

from vigile.cli.common import Common, common_options, run_check
from vigile.dice.source import parse_whole_numbers
from vigile.errors import InputError
from vigile.rulesets.dnd35.attack import Square, attack_check, grope_check
from vigile.rulesets.dnd35.hide import HideSpeed, Size, hide_check
from vigile.rulesets.dnd35.listen import ListenSpeed, listen_check
from vigile.rulesets.dnd35.spot import SpotTarget, spot_check

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
