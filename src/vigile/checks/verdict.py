"""The verdict tree: the question, every modifier with its reason and rule, the chance, the roll.

A verdict is immutable and holds no text: reasons are message keys with parameters, turned into
French or English by the renderers in :mod:`vigile.io`. No rule builds strings.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal

from vigile.awareness.ladder import AwarenessState
from vigile.dice.roll import Roll

Param = str | int | float
ModifierKind = Literal["base", "difficulty", "die"]
DiceKind = Literal["d6", "d20", "opposed", "percentile", "none"]


@dataclass(frozen=True)
class Line:
    """A reason with its rule: an explanation line that is not a number (``[SK-V2] seen``)."""

    reason: str
    """Message key, translated by the renderers (``skirmish.sight.auto_moving``)."""
    rule: str
    """RULES.md ID of the rule that says so."""
    params: Mapping[str, Param] = field(default_factory=dict)
    """Values the message quotes (distances, counts...)."""
    companion: bool = False
    """True for a companion rule ([C] in RULES.md), which explanations mark as such."""
    sequel: bool = False
    """True for what follows the outcome (who acts next), shown after it."""


@dataclass(frozen=True)
class Modifier:
    """One number that went into the check, with why and which rule.

    ``kind`` says where it goes: ``base`` is the starting difficulty, ``difficulty`` adds to it,
    ``die`` adds to each die (or to the d20 roll) instead.
    """

    value: int
    reason: str
    rule: str
    kind: ModifierKind = "difficulty"
    params: Mapping[str, Param] = field(default_factory=dict)
    source: str | None = None
    """The data-file key the value came from (``noise.base.death_floor``)."""
    overridden: bool = False
    """True when a house rule changed the value."""
    companion: bool = False


@dataclass(frozen=True)
class Opposed:
    """The other side of an opposed check, rolled once against every observer [SF-4, DD-20 R].

    The JSON names its figures after the skill: ``stealth_bonus``, ``stealth_roll``,
    ``stealth_result``.
    """

    skill: str
    """The other side's skill, as the JSON keys spell it (``stealth``, ``move_silently``)."""
    face: int | None = None
    """Its d20's face; None before the roll."""
    bonus: int | None = None
    """Its bonus; None where the check reports only the die (each listener's DC differs)."""
    result: int | None = None
    """Face plus bonus; None before the roll or where ``bonus`` is None."""


@dataclass(frozen=True)
class Figures:
    """Further figures some checks report, each None where the check has no such figure.

    The JSON of a verdict shows every figure that is not None under the field's name (``rolls``
    for ``miss_rolls``), and an :class:`Opposed` side as three keys.
    """

    chance_pinpoint: Fraction | None = None
    """Exact chance to pinpoint the creature (beat the DC by the pinpoint margin) [DD-4, DD-5]."""
    chance_touch: Fraction | None = None
    """Exact chance that the touch attack of a grope connects, before the miss chance [DD-6]."""
    miss_chance: int | None = None
    """The miss chance in percent that applied [SF-8, DD-8]."""
    miss_rolls: int | None = None
    """How many times the miss chance is rolled: 2 with Blind-Fight, 0 when no attack [SF-8]."""
    blind_fight: bool | None = None
    """Whether Blind-Fight rolled the miss chance twice [DD-14]."""
    dc: int | None = None
    """The DC the roll was made against, once rolled (an opposed check's: the other side's
    result)."""
    result: int | None = None
    """The roller's face plus its bonus, once rolled."""
    opposed: Opposed | None = None
    """The other side's roll of an opposed check."""
    state_after: AwarenessState | None = None
    """The awareness state the observer is in after the roll (unaware on a failure)."""


@dataclass(frozen=True)
class Verdict:
    """The answer to one check, with everything needed to explain it.

    ``chance`` is the exact chance that the check succeeds, where "succeeds" is the check's
    question (the listener hears, the observer sees, the mover stays silent...). ``roll`` is
    None when nothing was rolled; ``success`` then is None too.
    """

    ruleset: str
    check: str
    question: str
    """Message key of the question the check answers (``skirmish.noise.question``)."""
    chance: Fraction
    modifiers: tuple[Modifier, ...] = ()
    notes: tuple[Line, ...] = ()
    difficulty: int | None = None
    """Final difficulty before any bonus to the die, set whether or not the check can succeed
    (an impossible or automatic check keeps it: the JSON and the GM report it); None where the
    check has none (the rules settle it with no difficulty, or an opposed check before the
    other side rolls)."""
    die_bonus: int = 0
    dice: int = 0
    """Dice in the pool (skirmish), 0 where the check is not a d6 pool."""
    automatic: bool = False
    impossible: bool = False
    roll: Roll | None = None
    """The dice rolled, each with every face it showed; None when nothing was rolled."""
    success: bool | None = None
    outcome: str | None = None
    """Message key of what happened (``skirmish.noise.heard``); None before a roll."""
    state: AwarenessState | None = None
    """Awareness state the observer reaches on success (RULES.md §4); None where none applies."""
    members: tuple[Verdict, ...] = ()
    """Sub-verdicts of the characters of a party (an ambush's detectors), each rolling alone."""
    members_key: str = "party"
    """JSON key of the members list: ``party`` (ambush detectors) or ``observers``."""
    member_label: str | None = None
    """Message key naming this verdict within its party."""
    member_params: Mapping[str, Param] = field(default_factory=dict)
    figures: Figures = field(default_factory=lambda: Figures())
    """Further figures a check reports (the chance to pinpoint, the rolled DC and result...)."""
    dice_kind: DiceKind = "d6"
    """How the difficulty reads: a d6 pool "N+", a d20 against a DC, an opposed d20 check
    (the DC is the other side's roll), a percentile miss chance, or no dice at all."""
    player_notes: tuple[Line, ...] = ()
    """What the character who acts perceives, for the player view (DD-9: nothing that tells a
    wrong square from the miss chance)."""
    player_outcome: str | None = None
    """Message key of the outcome as the character perceives it; None: the GM's outcome."""

    def __post_init__(self) -> None:
        """``impossible`` and ``automatic`` follow the exact chance, whatever the check passed:
        a check that cannot succeed is impossible (chance 0), one that cannot fail is automatic
        (chance 1), and no other is either."""
        object.__setattr__(self, "impossible", self.chance == 0)
        object.__setattr__(self, "automatic", self.chance == 1)

    @property
    def noticed_by(self) -> int | None:
        """How many members of the party succeeded (observers who noticed); None before the
        roll."""
        if self.success is None:
            return None
        return sum(bool(m.success) for m in self.members)

    @property
    def target(self) -> int | None:
        """The face one die must reach: difficulty minus the die bonus [SK-D3]."""
        return None if self.difficulty is None else self.difficulty - self.die_bonus
