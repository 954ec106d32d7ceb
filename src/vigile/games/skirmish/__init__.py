"""The samurai/ninja skirmish wargame (seed 000; RULES.md §1)."""

from vigile.registry import GamePlugin

PLUGIN = GamePlugin(
    name="skirmish",
    title="samurai/ninja skirmish: noise, night sight, patrols, alarms, shadowing, ambushes",
    unit="cm",
    rule_prefix="SK",
    vocabulary="vigile.games.skirmish.vocabulary:VOCABULARY",
    actor_fields="vigile.games.skirmish.fields:SkirmishFields",
    plan_actions="vigile.games.skirmish.actions:ACTIONS",
    package="vigile.rulesets.skirmish",
    messages=("skirmish.checks.{lang}.toml",),
    game="vigile.games.skirmish.day:game_for",
    cli="vigile.games.skirmish.checks:CHECKS",
    kernel="vigile.games.skirmish.kernel:compiled",
    kernel_callees="vigile.games.skirmish.kernel:CALLEES",
    scenario_issues="vigile.games.skirmish.scenario:skirmish_issues",
    riskmap="vigile.games.skirmish.riskmap:plugin_risk_map",
)
