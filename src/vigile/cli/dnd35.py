"""``vigile check dnd35 …``: the commands built from the game's declaration of its checks
(:data:`vigile.games.dnd35.checks.CHECKS`), as ``vigile check`` mounts them."""

from __future__ import annotations

from vigile.cli.common import check_app
from vigile.games.dnd35.checks import CHECKS, parse_sneak_attack

__all__ = ["app", "parse_sneak_attack"]

app = check_app(CHECKS)
