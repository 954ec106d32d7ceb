"""A second toy game, with a risk map of its own words: watchers hold lanterns, and a sneak is
glimpsed more easily near a lantern and when it hurries (LANT-1, LANT-2).

Nothing of vigile's names it: the test registers it, as an installed package would through the
``vigile.games`` entry-point group. Its risk map differs by the way the sneak moves (``half``
or ``fast``), which the route reads for its turn length and the plan it writes.
"""

from vigile.registry import GamePlugin

PLUGIN = GamePlugin(
    name="lantern",
    title="a toy game: watchers with lanterns",
    unit="cm",
    rule_prefix="LANT",
    package="toygame_lantern",
    messages=("toygame_lantern:lantern.{lang}.toml",),
    rule_statements=("toygame_lantern:rules.{lang}.toml",),
    game="toygame_lantern.game:LanternGame",
    riskmap="toygame_lantern.riskmap:risk_map",
    scenarios=("toygame_lantern:yard.yaml",),
)
