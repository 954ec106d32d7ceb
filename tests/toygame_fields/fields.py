"""The luck game's own scenario fields, plan action and words."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from vigile.scene.vocabulary import Term, Vocabulary

MAX_LUCK = 3


class LuckFields(BaseModel):
    """What a luck-game actor carries beside the shared fields."""

    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)

    luck: Annotated[int, Field(ge=0, le=MAX_LUCK)] = 0
    """A sneak's luck, 0 to 3: each point adds 1 to the difficulty of glimpsing it (LUCK-2)."""


class Whistle(BaseModel):
    """Whistle a tune at the waypoint (LUCK-3): the game hears it, nothing else does."""

    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)

    do: Literal["whistle"]
    """The action."""
    tune: Literal["low", "high"] = "low"
    """How it whistles."""


ACTIONS = (Whistle,)

VOCABULARY = Vocabulary(
    speeds=(
        Term("half", "creeps", "rampe", ("LUCK-1",)),
        Term("fast", "dashes", "fonce", ("LUCK-1",)),
    ),
    actions=(Term("whistle", "whistles a tune", "siffle un air", ("LUCK-3",)),),
    stats=(Term("luck", "luck", "chance", ("LUCK-2",)),),
)
