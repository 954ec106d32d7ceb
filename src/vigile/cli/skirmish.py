"""``vigile check skirmish …``: one command per check of the skirmish rules (RULES.md §1)."""

from __future__ import annotations

from typing import Annotated

import typer

from vigile.cli.common import Common, common_options, run_check
from vigile.errors import InputError
from vigile.rulesets.skirmish.alarm import alarm_check
from vigile.rulesets.skirmish.ambush import AmbushSetting, ambush_check
from vigile.rulesets.skirmish.common import Roller, TimeOfDay
from vigile.rulesets.skirmish.movement import Speed, move_check
from vigile.rulesets.skirmish.noise import NoiseEvent, Surface, noise_check
from vigile.rulesets.skirmish.shadow import Mount, Setting, Task, shadow_check
from vigile.rulesets.skirmish.sight import Attitude, sight_check

app = typer.Typer(
    help="Checks of the samurai/ninja skirmish game (d6 pools against N+).",
    no_args_is_help=True,
    add_completion=False,
)

DiceOpt = Annotated[int, typer.Option("--dice", help="Dice in the relevant skill (1 untrained).")]
BonusOpt = Annotated[int, typer.Option("--bonus", help="Added to each die.")]
DistanceOpt = Annotated[float, typer.Option("--distance", metavar="CM", help="Distance in cm.")]
TimeOpt = Annotated[TimeOfDay, typer.Option("--time")]
AlertOpt = Annotated[bool, typer.Option("--alert", help="On alert (aux aguets).")]


@app.command()
@common_options()
def move(
    speed: Annotated[Speed, typer.Option("--speed", help="half: no roll; full: fumble test.")],
    dice: DiceOpt = 1,
    *,
    common: Common,
) -> None:
    """Does a stealthy mover stay silent? (SK-N3, SK-D4)"""
    run_check(
        "skirmish",
        common,
        lambda rules, source: move_check(rules, speed=speed, roller=Roller(dice), source=source),
    )


@app.command()
@common_options()
def noise(
    event: Annotated[NoiseEvent, typer.Option("--event", help="What makes the noise.")],
    surface: Annotated[
        Surface | None, typer.Option("--surface", help="Where a death falls.")
    ] = None,
    distance: DistanceOpt = 0.0,
    walls: Annotated[int, typer.Option("--walls", help="Partitions, doors, walls between.")] = 0,
    time: TimeOpt = TimeOfDay.NIGHT,
    alert: AlertOpt = False,
    dice: DiceOpt = 1,
    bonus: BonusOpt = 0,
    *,
    common: Common,
) -> None:
    """Does a listener hear an event out of sight? (SK-N1..SK-N8)"""
    run_check(
        "skirmish",
        common,
        lambda rules, source: noise_check(
            rules,
            event=event,
            surface=surface,
            distance_cm=distance,
            barriers=walls,
            time=time,
            alert=alert,
            roller=Roller(dice, bonus),
            source=source,
        ),
    )


@app.command()
@common_options()
def sight(
    attitude: Annotated[Attitude, typer.Option("--attitude", help="What the target does.")],
    distance: Annotated[float, typer.Option("--distance", metavar="CM", help="Distance in cm.")],
    alert: AlertOpt = False,
    unsuited_outfit: Annotated[bool, typer.Option("--unsuited-outfit")] = False,
    lit: Annotated[bool, typer.Option("--lit", help="Within 20 cm of a light (SK-V5).")] = False,
    no_line_of_sight: Annotated[
        bool, typer.Option("--no-line-of-sight", help="A wall, closed door or shoji is between.")
    ] = False,
    time: TimeOpt = TimeOfDay.NIGHT,
    dice: DiceOpt = 1,
    bonus: BonusOpt = 0,
    *,
    common: Common,
) -> None:
    """Does an observer see a target? (SK-V1..SK-V9)"""
    run_check(
        "skirmish",
        common,
        lambda rules, source: sight_check(
            rules,
            attitude=attitude,
            distance_cm=distance,
            alert=alert,
            unsuited_outfit=unsuited_outfit,
            lit=lit,
            time=time,
            line_of_sight=not no_line_of_sight,
            roller=Roller(dice, bonus),
            source=source,
        ),
    )


@app.command()
@common_options()
def shadow(
    task: Annotated[Task, typer.Option("--task", help="follow, or notice a follower.")],
    setting: Annotated[Setting, typer.Option("--setting")],
    target_hiding: Annotated[bool, typer.Option("--target-hiding")] = False,
    target: Annotated[Mount | None, typer.Option("--target", help="Who is followed.")] = None,
    follower: Annotated[Mount | None, typer.Option("--follower", help="Who follows.")] = None,
    discreet: Annotated[bool, typer.Option("--discreet", help="The follower hides.")] = False,
    alert: AlertOpt = False,
    untrained: Annotated[bool, typer.Option("--untrained", help="No shadowing skill.")] = False,
    follower_fumbled: Annotated[bool, typer.Option("--follower-fumbled")] = False,
    dice: DiceOpt = 1,
    bonus: BonusOpt = 0,
    *,
    common: Common,
) -> None:
    """One round of shadowing by day (SK-S1..SK-S4)."""
    run_check(
        "skirmish",
        common,
        lambda rules, source: shadow_check(
            rules,
            task=task,
            setting=setting,
            target_hiding=target_hiding,
            target=target,
            follower=follower,
            discreet=discreet,
            alert=alert,
            untrained=untrained,
            follower_fumbled=follower_fumbled,
            roller=Roller(dice, bonus),
            source=source,
        ),
    )


@app.command()
@common_options()
def ambush(
    setting: Annotated[AmbushSetting, typer.Option("--setting")],
    ambushers: Annotated[int, typer.Option("--ambushers", help="Number of ambushers.")],
    targets: Annotated[int, typer.Option("--targets", help="Number of ambushed characters.")],
    all_ninjas: Annotated[bool, typer.Option("--all-ninjas")] = False,
    alert: AlertOpt = False,
    skill_levels: Annotated[
        int | None, typer.Option("--skill-levels", help="One detector.")
    ] = None,
    party: Annotated[
        list[int] | None,
        typer.Option(
            "--party", metavar="LEVELS", help="One detector each (replaces --skill-levels)."
        ),
    ] = None,
    no_cover: Annotated[
        bool, typer.Option("--no-cover", help="Not enough cover to hide every ambusher (SK-A1).")
    ] = False,
    *,
    common: Common,
) -> None:
    """Does the ambushed party detect the ambush? (SK-A1..SK-A5)"""
    if party and skill_levels is not None:
        raise InputError(
            "give --party (one per character) or --skill-levels, not both", where="--skill-levels"
        )
    levels = list(party) if party else [skill_levels or 0]
    run_check(
        "skirmish",
        common,
        lambda rules, source: ambush_check(
            rules,
            setting=setting,
            ambushers=ambushers,
            targets=targets,
            all_ninjas=all_ninjas,
            alert=alert,
            party=levels,
            cover=not no_cover,
            source=source,
        ),
    )


@app.command()
@common_options()
def alarm(*, common: Common) -> None:
    """A guard who detected an intruder: does he raise the alarm first? (SK-G5)"""
    run_check("skirmish", common, lambda rules, source: alarm_check(rules, source=source))
