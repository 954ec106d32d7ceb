"""A plug-in game that declares its checks instead of writing a Typer app: one check, ``cry``,
calling the skirmish alarm's rule function (SK-G5) with the skirmish's numbers. ``vigile check
solo cry``, ``POST /api/v1/checks/solo/cry`` and the calculator are built from :data:`CHECKS`;
the help comes from the plug-in's own message files."""

from vigile.checks.declare import Check, Checks
from vigile.registry import GamePlugin
from vigile.rulesets.skirmish.alarm import alarm_check

CHECKS = Checks(
    "solo", "solo.checks.about", (Check("solo", "cry", "solo.checks.cry", alarm_check),)
)

PLUGIN = GamePlugin(
    name="solo",
    title="a game of one check",
    unit="cm",
    rule_prefix="SK",
    package="vigile.rulesets.skirmish",
    messages=("sologame:solo.{lang}.toml",),
    cli="sologame:CHECKS",
)
