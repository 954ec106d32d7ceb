"""Live encounters: a scenario, its log in the store, its state by replay, and its views.

The interactive engine is :meth:`vigile.engine.game.Game.apply`; this package keeps each
encounter's log (:mod:`vigile.store`) and says what each viewer may see. The CLI's ``play``
and the web server's API sit on it.
"""

from vigile.live.encounter import Encounter, Played, ReplayError
from vigile.live.views import Role, character_view, gm_view, needs_json, table_view, view

__all__ = [
    "Encounter",
    "Played",
    "ReplayError",
    "Role",
    "character_view",
    "gm_view",
    "needs_json",
    "table_view",
    "view",
]
