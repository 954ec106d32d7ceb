"""A toy fourth game, to show that a game is a plug-in: the code of ``docs/plugins.md``.

One check (a glimpse: one d6 against the data file's difficulty, TOY-1; only within the
data file's range and line of sight, TOY-2), one data file, one message file and one file of
rule statements per language, a turn filling the public hooks, an exact risk map, an example
scenario. Nothing under ``vigile`` knows it: the test registers it, as an installed package
would through the ``vigile.games`` entry-point group.
"""

from vigile.registry import GamePlugin

PLUGIN = GamePlugin(
    name="toy",
    title="a toy game: one glimpse a turn",
    unit="cm",
    rule_prefix="TOY",
    package="toygame",
    messages=("toygame:toy.{lang}.toml",),
    rule_statements=("toygame:rules.{lang}.toml",),
    game="toygame.game:ToyGame",
    cli="toygame.cli:app",
    riskmap="toygame.riskmap:risk_map",
    check_examples=(("toy", "glimpse"), ("toy", "glimpse", "--distance", "150")),
    scenarios=("toygame:toy.yaml",),
)
