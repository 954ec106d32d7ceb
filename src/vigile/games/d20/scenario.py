"""What a d20 game's scenario may not say (each d20 game's ``scenario_issues`` calls
:func:`d20_issues` with its own skills): another d20 game's skills, a light without a radius,
the skirmish's rules, more observers than one check takes, actions a round cannot hold (LP-1).
(A skirmish field, ``dice`` or ``outfit``, its actor model refuses, naming the field and the
skirmish.)"""

from __future__ import annotations

from vigile.errors import Said
from vigile.games.checks import economy_issues, side_issues
from vigile.games.d20.fields import GAME_SKILLS, is_d20
from vigile.scene.consistency import Issue, Parts


def d20_issues(parts: Parts, game: str, skills: tuple[str, ...]) -> list[Issue]:
    """The issues of a scenario of the d20 game ``game``, whose creatures have ``skills`` (of
    :data:`~vigile.games.d20.fields.GAME_SKILLS`): a bonus of a skill it does not use is
    refused, naming those it uses."""
    found: list[Issue] = side_issues(parts)
    found += economy_issues(parts, game)
    others = [name for name in GAME_SKILLS if name not in skills]
    for i, actor in parts.actors:
        if not is_d20(actor) or actor.bonuses is None:
            continue
        for name in others:
            if name in actor.bonuses.model_fields_set:
                found.append(
                    (
                        ("actors", i, "bonuses", name),
                        Said(
                            "scene.d20_skill",
                            f"{game} has no {name}; it uses {', '.join(skills)}",
                            game=game,
                            skill=name,
                            skills=", ".join(skills),
                        ),
                    )
                )
    for i, light in parts.lights:
        if light.radius is None:
            text = f"a light needs a radius in {game}"
            found.append((("lights", i, "radius"), Said("scene.d20_radius", text, game=game)))
    if parts.scouting is not None and parts.scouting.model_fields_set:
        said = Said("scene.d20_scouting", "scouting is a skirmish rule (SK-G3)")
        found.append((("scouting",), said))
    if parts.hidden_guards:
        said = Said("scene.d20_hidden_guards", "hidden guards are a skirmish rule (SK-G4)")
        found.append((("hidden_guards",), said))
    if parts.encounter is not None:
        said = Said("scene.d20_encounter", "day encounters are skirmish rules (SK-S, SK-A)")
        found.append((("encounter",), said))
    return found
