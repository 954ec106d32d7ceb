"""``vigile check starfinder …``: the commands built from the game's declaration of its checks
(:data:`vigile.games.starfinder.checks.CHECKS`), as ``vigile check`` mounts them."""

from __future__ import annotations

from vigile.cli.common import check_app
from vigile.games.starfinder.checks import CHECKS

app = check_app(CHECKS)
