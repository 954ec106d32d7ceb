"""A toy game with scenario fields of its own: a sneak's ``luck`` (an actor field), a plan's
``whistle`` (an action), and its own words for the pages.

Nothing of vigile's names it: the test registers it, as an installed package would through the
``vigile.games`` entry-point group, and its scenario validates, plays and shows on the GM page
and in the editor with the fields, actions and words declared here.
"""

from vigile.registry import GamePlugin

PLUGIN = GamePlugin(
    name="luckgame",
    title="a toy game: one glimpse a turn, harder on a lucky sneak",
    unit="cm",
    rule_prefix="LUCK",
    package="toygame_fields",
    messages=("toygame_fields:luck.{lang}.toml",),
    game="toygame_fields.game:LuckGame",
    actor_fields="toygame_fields.fields:LuckFields",
    plan_actions="toygame_fields.fields:ACTIONS",
    vocabulary="toygame_fields.fields:VOCABULARY",
)
