"""``vigile check starfinder …``: the Starfinder checks (RULES.md §2).

``hide`` is the opposed Stealth check against one or many observers (SF-1..SF-7, SF-9, SF-10);
``attack`` is the miss chance against a creature located but unseen (SF-8, SF-11).
"""

from __future__ import annotations

from typing import Annotated

import typer

from vigile.awareness.ladder import AwarenessState
from vigile.cli.common import Common, common_options, run_check
from vigile.dice.source import parse_whole_numbers
from vigile.errors import InputError
from vigile.rulesets.starfinder.attack import attack_check
from vigile.rulesets.starfinder.stealth import (
    Concealment,
    Observer,
    Speed,
    hide_check,
    parse_dc_mod,
)

app = typer.Typer(
    help="Checks of the Starfinder RPG: Stealth against Perception, attacks on the unseen.",
    no_args_is_help=True,
    add_completion=False,
)


def parse_bonuses(text: str, *, where: str) -> list[int]:
    """``"5,8,-2"`` into a list of bonuses."""
    return parse_whole_numbers(text, where=where, example="5,8,-2")


def observer_indices(text: str | None, count: int, *, where: str) -> set[int]:
    """``"1,3"``: the observers (numbered from 1, as ``--perception`` lists them) an option
    names; refusing a number that names none."""
    if text is None:
        return set()
    found = set()
    for index in parse_bonuses(text, where=where):
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


@app.command()
@common_options(view=True)
def hide(
    stealth: Annotated[int, typer.Option("--stealth", metavar="BONUS", help="Stealth bonus.")],
    perception: Annotated[
        str,
        typer.Option(
            "--perception",
            metavar="BONUS[,BONUS...]",
            help="Perception bonus of each observer nearby.",
        ),
    ],
    speed: Annotated[
        Speed, typer.Option("--speed", help="half: no penalty; more-than-half: -10 (SF-3).")
    ] = Speed.HALF,
    bluff_diversion: Annotated[
        bool, typer.Option("--bluff-diversion", help="Hiding after a Bluff diversion (SF-2, SF-3).")
    ] = False,
    invisible: Annotated[bool, typer.Option("--invisible", help="Invisible (SF-7).")] = False,
    immobile: Annotated[
        bool, typer.Option("--immobile", help="Not moved since your last turn began (SF-7).")
    ] = False,
    cover: Annotated[bool, typer.Option("--cover", help="Cover (SF-2).")] = False,
    concealment: Annotated[bool, typer.Option("--concealment", help="Concealment (SF-2).")] = False,
    total_concealment: Annotated[
        bool, typer.Option("--total-concealment", help="Total concealment (SF-2, SF-7).")
    ] = False,
    no_cover: Annotated[
        bool, typer.Option("--no-cover", help="Neither cover nor concealment (SF-2).")
    ] = False,
    special_ability: Annotated[
        bool,
        typer.Option("--special-ability", help="An ability to hide without cover (SF-2)."),
    ] = False,
    sniping: Annotated[
        bool, typer.Option("--sniping", help="Stealth again after a sniping attack (SF-10).")
    ] = False,
    distance: Annotated[
        float | None, typer.Option("--distance", metavar="FT", help="Distance in feet.")
    ] = None,
    forest: Annotated[
        bool, typer.Option("--forest", help="Sound rule in a forest (SF-4 companion, if on).")
    ] = False,
    dc_mod: Annotated[
        list[str] | None,
        typer.Option(
            "--dc-mod", metavar="VALUE:LABEL", help="GM circumstance modifier to every DC (SF-4)."
        ),
    ] = None,
    armor_penalty: Annotated[
        int, typer.Option("--armor-penalty", metavar="N", help="Armor check penalty (SF-1).")
    ] = 0,
    blindsense: Annotated[
        str | None,
        typer.Option(
            "--blindsense",
            metavar="I[,I...]",
            help="Observers (1 = first) with blindsense (SF-11).",
        ),
    ] = None,
    lost_cover: Annotated[
        bool,
        typer.Option("--lost-cover-this-turn", help="Lost cover during the turn (SF-6)."),
    ] = False,
    darkness: Annotated[
        bool,
        typer.Option("--darkness", help="At night, out of every light (SF-2, SF-5 companion)."),
    ] = False,
    darkvision: Annotated[
        str | None,
        typer.Option(
            "--darkvision",
            metavar="I[,I...]",
            help="Observers (1 = first) whose darkvision reaches the hider.",
        ),
    ] = None,
    see_invisibility: Annotated[
        str | None,
        typer.Option(
            "--see-invisibility",
            metavar="I[,I...]",
            help="Observers (1 = first) who see invisible creatures (SF-11).",
        ),
    ] = None,
    *,
    common: Common,
) -> None:
    """Does the hider stay hidden from every observer? (SF-1..SF-7, SF-9, SF-10)"""
    bonuses = parse_bonuses(perception, where="--perception")
    sensing = observer_indices(blindsense, len(bonuses), where="--blindsense")
    seeing = observer_indices(see_invisibility, len(bonuses), where="--see-invisibility")
    dark_sighted = observer_indices(darkvision, len(bonuses), where="--darkvision")
    observers = [
        Observer(b, i in sensing, see_invisible=i in seeing, darkvision=i in dark_sighted)
        for i, b in enumerate(bonuses, start=1)
    ]
    shade = concealment_of(
        cover=cover, concealment=concealment, total=total_concealment, no_cover=no_cover
    )
    mods = [parse_dc_mod(text) for text in dc_mod or []]
    run_check(
        "starfinder",
        common,
        lambda rules, source: hide_check(
            rules,
            stealth=stealth,
            observers=observers,
            speed=speed,
            bluff_diversion=bluff_diversion,
            invisible=invisible,
            immobile=immobile,
            cover=cover,
            concealment=shade,
            special_ability=special_ability,
            sniping=sniping,
            distance_ft=distance,
            forest=forest,
            dc_mods=mods,
            armor_penalty=armor_penalty,
            lost_shelter_this_turn=lost_cover,
            darkness=darkness,
            source=source,
        ),
    )


@app.command()
@common_options(view=True)
def attack(
    miss_chance: Annotated[
        int | None,
        typer.Option(
            "--miss-chance", metavar="PCT", help="Miss chance in percent (default 50, SF-8)."
        ),
    ] = None,
    blind_fight: Annotated[
        bool,
        typer.Option("--blind-fight", help="Roll the miss chance twice (companion/house option)."),
    ] = False,
    awareness: Annotated[
        AwarenessState,
        typer.Option("--awareness", help="What the attacker knows of the target (SF-11)."),
    ] = AwarenessState.LOCATION,
    *,
    common: Common,
) -> None:
    """Does the miss chance let a blow at an unseen creature through? (SF-8, SF-11)"""
    run_check(
        "starfinder",
        common,
        lambda rules, source: attack_check(
            rules,
            miss_chance=miss_chance,
            blind_fight=blind_fight,
            awareness=awareness,
            source=source,
        ),
    )
