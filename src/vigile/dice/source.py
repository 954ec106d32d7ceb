"""Where die faces come from: a seeded generator, or the GM's own dice.

A check never calls a random function itself: it asks a :class:`FaceSource` for the next face.
:class:`RolledFaces` draws from an explicit ``numpy.random.Generator``; :class:`GivenFaces`
hands out the values the GM rolled at the table, in order, and complains when there are too
few or too many.

The draw interface of the compiled simulator: one stream of uniforms in [0, 1) that
the turn engine and the kernel consume in the same order. :class:`UniformFaces` turns the next
uniform ``u`` into a face, ``floor(u * sides) + 1``; a scatter die reads ``uniform(0, 2π)``,
``0 + 2π * u``, from the same stream. A ``numpy.random.Generator`` is such a stream (its
``random()`` and ``uniform()`` each take one double); :class:`UniformStream` is one over a given
array, so that the engine and the kernel can be fed the very same numbers.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from vigile.errors import InputError

if TYPE_CHECKING:  # numpy is imported only when dice are really rolled
    import numpy as np


class FaceSource(Protocol):
    """Something that yields die faces one at a time."""

    given: bool
    """True when the faces are the GM's own dice rather than drawn."""

    def face(self, sides: int) -> int:
        """The next face of a die with ``sides`` sides (1..sides)."""
        ...


class RolledFaces:
    """Faces drawn from an explicit generator: same seed, same faces."""

    given = False

    def __init__(self, rng: np.random.Generator) -> None:
        self._rng = rng

    def face(self, sides: int) -> int:
        return int(self._rng.integers(1, sides + 1))


class Uniforms(Protocol):
    """A stream of uniforms in [0, 1), one at a time (a ``numpy.random.Generator`` is one)."""

    def random(self) -> float:
        """The next uniform in [0, 1)."""
        ...


class UniformFaces:
    """Faces read off a stream of uniforms, one uniform a face: ``floor(u * sides) + 1``.

    The face source of the draw interface: the turn engine given
    ``UniformFaces(stream)`` and ``stream`` as its generator draws every die and every scatter
    die from the one stream, in the order the compiled kernel reads it.
    """

    given = False

    def __init__(self, stream: Uniforms) -> None:
        self._stream = stream

    def face(self, sides: int) -> int:
        return int(float(self._stream.random()) * sides) + 1


class UniformStream:
    """The uniforms of a given array, in order: the generator handed to the turn engine (its
    scatter die calls :meth:`uniform`) and to :class:`UniformFaces`, so that the engine draws
    exactly the numbers given to the kernel. :attr:`used` counts what was drawn; running out is
    an :class:`IndexError`."""

    def __init__(self, values: Sequence[float]) -> None:
        self._values = values
        self.used = 0

    def random(self) -> float:
        if self.used >= len(self._values):
            raise IndexError(f"the stream of {len(self._values)} uniforms ran out")
        value = float(self._values[self.used])
        self.used += 1
        return value

    def uniform(self, low: float = 0.0, high: float = 1.0) -> float:
        """``low + (high - low) * u``, as ``numpy.random.Generator.uniform`` computes it."""
        return low + (high - low) * self.random()


class OutOfDice(InputError):
    """The GM's dice ran out: ``question`` (a message key) rolled for ``who`` needed another."""

    def __init__(self, given: int, *, where: str, question: str | None, who: str | None) -> None:
        self.given = given
        self.question = question
        self.who = who
        asked = f" ({who}: {question})" if question and who else ""
        super().__init__(
            f"{given} value(s) given, but the check{asked} needs more dice", where=where
        )


class Asked(Protocol):
    """A check about to roll (a :class:`vigile.checks.verdict.Verdict`): its question."""

    @property
    def question(self) -> str:
        """Message key of the question the check answers."""
        ...


class GivenFaces:
    """The GM's own dice, consumed in order (``--dice-values 2,6``)."""

    given = True

    def __init__(self, values: Sequence[int], *, where: str = "--dice-values") -> None:
        self._values = list(values)
        self._next = 0
        self._where = where
        self._asking: tuple[str, str] | None = None

    @property
    def where(self) -> str:
        """The option or field the values came from."""
        return self._where

    @property
    def count(self) -> int:
        """How many values were given."""
        return len(self._values)

    @property
    def used(self) -> int:
        """How many values the checks have used so far."""
        return self._next

    def announce(self, verdict: Asked, who: str) -> None:
        """Remember which check, for whom, the next faces are for: an error names it."""
        self._asking = (verdict.question, who)

    def face(self, sides: int) -> int:
        if self._next >= len(self._values):
            question, who = self._asking or (None, None)
            raise OutOfDice(len(self._values), where=self._where, question=question, who=who)
        value = self._values[self._next]
        if not 1 <= value <= sides:
            raise InputError(
                f"value {value} is not a face of a d{sides} (1..{sides})", where=self._where
            )
        self._next += 1
        return value

    def finish(self) -> None:
        """Raise if values were left over: the GM typed more dice than the check uses."""
        left = len(self._values) - self._next
        if left:
            raise InputError(
                f"{len(self._values)} value(s) given, but the check used only {self._next}",
                where=self._where,
            )


def parse_whole_numbers(text: str, *, where: str, example: str = "2,6") -> list[int]:
    """Parse a comma-separated list (``"2,6"``, ``"5,8,-2"``) into whole numbers; a clear
    one-line error names the option otherwise."""
    values: list[int] = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            raise InputError(f"empty value in the list (write e.g. {example})", where=where)
        try:
            values.append(int(part))
        except ValueError:
            raise InputError(f"{part!r} is not a whole number", where=where) from None
    return values


def parse_dice_values(text: str, *, where: str = "--dice-values") -> list[int]:
    """The GM's dice, ``"2,6"`` into ``[2, 6]``."""
    return parse_whole_numbers(text, where=where)
