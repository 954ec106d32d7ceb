"""The Stealth skill of the Starfinder RPG (seed 001; RULES.md §2)."""

from vigile.registry import GamePlugin

PLUGIN = GamePlugin(
    name="starfinder",
    title="Starfinder Stealth: hiding, opposed Perception, invisibility, sniping",
    unit="ft",
    rule_prefix="SF",
    vocabulary="vigile.games.starfinder.vocabulary:VOCABULARY",
    actor_fields="vigile.games.d20.fields:D20Fields",
    plan_actions="vigile.games.d20.actions:STARFINDER_ACTIONS",
    package="vigile.rulesets.starfinder",
    messages=("starfinder.{lang}.toml", "starfinder.checks.{lang}.toml"),
    game="vigile.games.starfinder.round:StarfinderGame",
    cli="vigile.games.starfinder.checks:CHECKS",
    scenario_issues="vigile.games.starfinder.scenario:starfinder_issues",
    riskmap="vigile.games.starfinder.riskmap:risk_map",
    kernel="vigile.games.starfinder.kernel:compiled",
)
