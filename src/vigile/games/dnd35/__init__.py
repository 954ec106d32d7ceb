"""Invisibility in D&D 3.5 (seed 002; RULES.md §3)."""

from vigile.registry import GamePlugin

PLUGIN = GamePlugin(
    name="dnd35",
    title="D&D 3.5 invisibility: Spot, Listen, pinpointing, groping, miss chances",
    unit="ft",
    rule_prefix="DD",
    vocabulary="vigile.games.dnd35.vocabulary:VOCABULARY",
    actor_fields="vigile.games.d20.fields:D20Fields",
    plan_actions="vigile.games.d20.actions:DND35_ACTIONS",
    package="vigile.rulesets.dnd35",
    messages=("dnd35.{lang}.toml", "dnd35.checks.{lang}.toml"),
    game="vigile.games.dnd35.round:Dnd35Game",
    cli="vigile.games.dnd35.checks:CHECKS",
    scenario_issues="vigile.games.dnd35.scenario:dnd35_issues",
    riskmap="vigile.games.dnd35.riskmap:risk_map",
    kernel="vigile.games.dnd35.kernel:compiled",
)
