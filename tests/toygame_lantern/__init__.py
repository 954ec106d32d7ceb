"""A second toy game, with scenario fields and a risk map of its own: watchers hold lanterns,
and a sneak is glimpsed more easily near a lantern and when it hurries (LANT-1, LANT-2), as far
as each watcher's own lantern lights (LANT-3: its ``lantern``, an actor field of its own).

Nothing of vigile's names it: the test registers it, as an installed package would through the
``vigile.games`` entry-point group. Its turn and its risk map both read the watchers'
``lantern``; its risk map differs by the way the sneak moves (``half`` or ``fast``), which the
route reads for its turn length and the plan it writes.
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
    cli="toygame_lantern.checks:CHECKS",
    actor_fields="toygame_lantern.fields:LanternFields",
    vocabulary="toygame_lantern.fields:VOCABULARY",
    riskmap="toygame_lantern.riskmap:risk_map",
    check_examples=(
        ("lantern", "glimpse", "--distance", "20", "--fast"),
        ("lantern", "glimpse", "--distance", "90", "--reach", "100"),
    ),
    scenarios=("toygame_lantern:yard.yaml",),
)
