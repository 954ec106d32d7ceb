"""The built-in games' own scenario checks (each plug-in's ``scenario_issues``).

Which actor fields, lights and rules a scenario may use depends on its game: skirmish
characters roll pools of d6 (SK-D1) and have outfits (SK-V4), scouting (SK-G3), hidden guards
(SK-G4) and day encounters (SK-S, SK-A); the d20 games use skill bonuses, need a radius for each
light, and know their own skills only. The scene's cross-field checks ask the game's plug-in.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from vigile.rulesets.limits import LIMITS
from vigile.scene.consistency import Issue, Parts

SKIRMISH_ONLY = ("stealth_dice", "ninja")
D20_ONLY = ("bonuses", "invisible", "ethereal", "incorporeal", "distracted", "asleep")
STARFINDER_SKILLS = ("perception", "stealth")
DND35_SKILLS = ("spot", "listen", "hide", "move_silently", "blind_fight")
D6 = 6
"""The only die skirmish rolls (SK-D1); the d20 games roll d20 and d100, the scenario's limit."""
D20_ACTIONS = {
    "attack-square": "an attack on a named square is a D&D 3.5 rule (DD-9)",
    "cast-invisibility": "invisibility is a d20 rule (DD-1, SF-7)",
    "end-invisibility": "invisibility is a d20 rule (DD-1, SF-7)",
    "snipe": "sniping is a Starfinder rule (SF-10)",
}
"""Plan actions the skirmish game has no rule for, and why."""
GAME_ACTIONS = {
    "starfinder": ("attack-square",),
    "dnd35": ("snipe",),
}
"""Plan actions one d20 game has and the other does not: the other refuses them."""


def plan_issues(parts: Parts, refused: Iterable[str], *, run: bool) -> list[Issue]:
    """Plan actions this game has no rule for (:data:`D20_ACTIONS`), and a leg's ``run`` where
    running is not played (``run`` False)."""
    chosen = set(refused)
    found: list[Issue] = []
    for name, legs in parts.plans.items():
        for i, leg in enumerate(legs):
            if leg is None:
                continue
            if leg.run and not run:
                found.append((("plans", name, i, "run"), "running is a d20 rule (DD-5, SF-3)"))
            for k, action in enumerate(leg.actions):
                if action.do in chosen:
                    found.append((("plans", name, i, "actions", k, "do"), D20_ACTIONS[action.do]))
    return found


def skirmish_issues(parts: Parts) -> list[Issue]:
    """A skirmish scenario's actors have dice, not the d20 games' fields."""
    found: list[Issue] = side_issues(parts)
    found += plan_issues(parts, D20_ACTIONS, run=False)
    for i, value in parts.dice_values:
        if not 1 <= value <= D6:
            found.append(
                (("dice_values", i), f"{value} is not a face of a d6 (1 to 6): skirmish rolls d6")
            )
    for i, actor in parts.actors:
        for name in D20_ONLY:
            if name in actor.model_fields_set:
                found.append(
                    (("actors", i, name), "a d20 field: skirmish actors have dice, not this")
                )
    return found


def starfinder_issues(parts: Parts) -> list[Issue]:
    """Starfinder: bonuses with Starfinder's skills (SF-1, SF-4), no skirmish rules."""
    return d20_issues(parts, "starfinder", STARFINDER_SKILLS, DND35_SKILLS)


def dnd35_issues(parts: Parts) -> list[Issue]:
    """D&D 3.5: bonuses with its skills (Spot, Listen, Hide, Move Silently), no skirmish rules."""
    return d20_issues(parts, "dnd35", DND35_SKILLS, STARFINDER_SKILLS)


def d20_issues(
    parts: Parts, game: str, skills: tuple[str, ...], others: tuple[str, ...]
) -> list[Issue]:
    """What a d20 game's scenario may not say: skirmish fields and rules, the other game's
    skills, a light without a radius, more observers than one check takes."""
    found: list[Issue] = side_issues(parts)
    found += plan_issues(parts, GAME_ACTIONS.get(game, ()), run=True)
    for i, actor in parts.actors:
        given = actor.model_fields_set
        for name in (*SKIRMISH_ONLY, "dice"):
            if name in given:
                found.append((("actors", i, name), f"a skirmish field: {game} actors use bonuses"))
        if actor.outfit.value != "normal":
            found.append((("actors", i, "outfit"), "a skirmish rule (SK-V4)"))
        if actor.bonuses is None:
            continue
        for name in others:
            if name in actor.bonuses.model_fields_set:
                found.append(
                    (
                        ("actors", i, "bonuses", name),
                        f"{game} has no {name}; it uses {', '.join(skills)}",
                    )
                )
    for i, light in parts.lights:
        if light.radius is None:
            found.append((("lights", i, "radius"), f"a light needs a radius in {game}"))
    if parts.scouting is not None and parts.scouting.model_fields_set:
        found.append((("scouting",), "scouting is a skirmish rule (SK-G3)"))
    if parts.hidden_guards:
        found.append((("hidden_guards",), "hidden guards are a skirmish rule (SK-G4)"))
    if parts.encounter is not None:
        found.append((("encounter",), "day encounters are skirmish rules (SK-S, SK-A)"))
    return found


def side_issues(parts: Parts) -> list[Issue]:
    """A side with more actors than one check takes as observers (``max_observers``): refused
    here, in the scenario's words, rather than half-way through the game."""
    sides = Counter(actor.side for _, actor in parts.actors)
    most = LIMITS.max_observers
    return [
        (
            ("actors",),
            f"{count} {side.value}: at most {most} on one side (the observers of one check)",
        )
        for side, count in sorted(sides.items())
        if count > most
    ]
