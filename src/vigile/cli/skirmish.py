"""``vigile check skirmish …``: the commands built from the game's declaration of its checks
(:data:`vigile.games.skirmish.checks.CHECKS`), as ``vigile check`` mounts them."""

from __future__ import annotations

from vigile.cli.common import check_app
from vigile.games.skirmish.checks import CHECKS

app = check_app(CHECKS)
