"""The lantern game's own actor field, how far a watcher's ``lantern`` reaches (LANT-3), and its
words."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from vigile.scene.vocabulary import Term, Vocabulary

MAX_REACH = 120
"""The longest reach a lantern may have, in cm (LANT-3)."""


class LanternFields(BaseModel):
    """What a lantern-game actor carries beside the shared fields."""

    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)

    lantern: Annotated[int, Field(ge=0, le=MAX_REACH)] | None = None
    """How far a watcher's lantern lights, 0 to 120 cm, instead of the data file's
    ``lantern.far`` (LANT-3); none: that."""


def reach_of(actor: object) -> int | None:
    """The watcher's own lantern reach (LANT-3), or None: the data file's."""
    return actor.lantern if isinstance(actor, LanternFields) else None


VOCABULARY = Vocabulary(
    speeds=(
        Term("half", "creeps", "rampe", ("LANT-1",)),
        Term("fast", "hurries", "se hâte", ("LANT-2",)),
    ),
    stats=(Term("lantern", "lantern reach", "portée de la lanterne", ("LANT-3",)),),
)
