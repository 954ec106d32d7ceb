"""A toy fourth game, to show that a game is a plug-in (issue 9).

One check (a glimpse: one d6 against the data file's difficulty), one data file, one message
file per language, a trivial turn. Nothing under ``vigile/engine``, ``sim``, ``scene`` or ``io``
knows it: the test registers it, as an installed package would through the ``vigile.games``
entry-point group.
"""

from vigile.registry import GamePlugin

PLUGIN = GamePlugin(
    name="toy",
    title="a toy game: one glimpse a turn",
    unit="cm",
    rule_prefix="TOY",
    package="toygame",
    messages=("toygame:toy.{lang}.toml",),
    game="toygame.game:ToyGame",
    cli="toygame.cli:app",
)
