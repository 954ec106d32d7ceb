"""Numbers as vigile quotes them: one formatter for every explanation, log and renderer.

``quoted(20.0)`` is ``20``, ``quoted(12.345)`` is ``12.35``: a distance, a coordinate or any
measure a message quotes has at most two decimals and no ``.0``. Exact chances read ``"p/q"``
(:func:`fraction_text`); a percent for display has two decimals (:func:`percent_text`).
Rulesets, the engine and the renderers all call these; none formats a number its own way.
"""

from __future__ import annotations

from fractions import Fraction

DECIMALS = 2
"""Decimals kept in a quoted measure and in a displayed percent."""


def quoted(value: float) -> int | float:
    """A measure as a message quotes it: rounded to two decimals, ``20`` not ``20.0``."""
    rounded = round(float(value), DECIMALS)
    return int(rounded) if rounded.is_integer() else rounded


def fraction_text(chance: Fraction) -> str:
    """``"1/2"``, ``"0"`` or ``"1"``: an exact chance as the JSON and the text show it."""
    if chance.denominator == 1:
        return str(chance.numerator)
    return f"{chance.numerator}/{chance.denominator}"


def percent_text(chance: Fraction | float, *, comma: bool = False, sign: str = "%") -> str:
    """A chance in percent for display only: ``12.50%``, or with ``comma`` ``12,50 %`` (French).

    ``sign`` is what follows the number (``""`` for a bare number).
    """
    text = f"{float(chance) * 100:.{DECIMALS}f}"
    if comma:
        return f"{text.replace('.', ',')} {sign}" if sign else text.replace(".", ",")
    return text + sign
