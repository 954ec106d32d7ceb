"""Day encounters (shadowing, ambush) and the verdicts a worked example must reproduce."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from vigile.awareness.vocabulary import AmbushSetting, Mount, Setting
from vigile.scene.actors import MODEL_CONFIG, Name, Text

MAX_ROUNDS = 1000
MAX_NAMES = 2000


class Shadowing(BaseModel):
    """A day shadowing encounter, rolled round by round (SK-S1..SK-S6)."""

    model_config = MODEL_CONFIG

    type: Literal["shadowing"]
    """The kind of encounter."""
    follower: Name
    """Who follows."""
    followed: Name
    """Who is followed."""
    setting: Setting = Setting.CROWD
    """crowd (SK-S2) or countryside (SK-S4)."""
    followed_hiding: bool = False
    """The followed character tries to hide (in the crowd, or whenever possible)."""
    follower_discreet: bool = False
    """Countryside: the follower hides whenever possible (SK-S4)."""
    follower_mount: Mount | None = None
    """Countryside: the follower rides or walks."""
    followed_mount: Mount | None = None
    """Countryside: the followed character rides or walks."""
    rounds: Annotated[int, Field(ge=1, le=MAX_ROUNDS)] = 1
    """Rounds to play."""


class Ambush(BaseModel):
    """A day ambush: do the targets detect it? (SK-A1..SK-A6)."""

    model_config = MODEL_CONFIG

    type: Literal["ambush"]
    """The kind of encounter."""
    ambushers: Annotated[tuple[Name, ...], Field(min_length=1, max_length=MAX_NAMES)]
    """Who lies in ambush."""
    targets: Annotated[tuple[Name, ...], Field(min_length=1, max_length=MAX_NAMES)]
    """Who walks into it; each rolls one die (SK-A2, SK-A3)."""
    setting: AmbushSetting = AmbushSetting.COUNTRYSIDE
    """countryside (SK-A3), or town / disguised / concealed ambushers (SK-A4)."""
    cover: bool = True
    """There is cover enough to hide every ambusher (SK-A1)."""


Encounter = Annotated[Shadowing | Ambush, Field(discriminator="type")]


class Expected(BaseModel):
    """A verdict the scenario must reproduce ([E] examples): a test for the engine."""

    model_config = MODEL_CONFIG

    rule: str = Field(pattern=r"^(SK|SF|DD)-[A-Z]?\d+$")
    """The RULES.md ID of the example."""
    check: Literal["noise", "sight", "move", "alarm", "shadow", "ambush"]
    """The check."""
    actor: Name
    """Who rolls."""
    target: Name | None = None
    """Who or what is perceived, if anyone."""
    difficulty: int | None = None
    """The final difficulty ("N+")."""
    faces: tuple[int, ...] = ()
    """The dice the example shows."""
    success: bool | None = None
    """The outcome."""
    note: Text = Field(default="", max_length=500)
    """What the example says."""
