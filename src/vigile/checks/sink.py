"""Where a check command's verdict goes when a caller other than the terminal wants it.

``vigile check GAME CHECK`` prints its verdict; the web API runs the very same command (its
options parsed by the same click command) and wants the verdict itself, not its printout.
Capturing stdout would not be safe with several requests at once, so the command's last step
(:func:`vigile.cli.common.show`) first offers the verdict here: inside :func:`capture`, it is
collected instead of printed. The sink is a :class:`contextvars.ContextVar`, so each thread and
each task sees only its own.

    >>> from vigile.checks.sink import capture, deliver  # a string stands in for a verdict
    >>> deliver("a verdict", "gm")  # nobody is capturing: the caller prints as usual
    False
    >>> with capture() as caught:
    ...     deliver("a verdict", "player")
    True
    >>> caught
    [Captured(verdict='a verdict', view='player')]
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import NamedTuple

from vigile.checks.verdict import Verdict


class Captured(NamedTuple):
    """One verdict a command delivered, with the view it was asked for (``gm``, ``player``)."""

    verdict: Verdict
    view: str


_sink: ContextVar[list[Captured] | None] = ContextVar("vigile_verdict_sink", default=None)


@contextmanager
def capture() -> Iterator[list[Captured]]:
    """Collect the verdicts delivered inside the ``with`` block, in order, instead of printing
    them."""
    caught: list[Captured] = []
    token = _sink.set(caught)
    try:
        yield caught
    finally:
        _sink.reset(token)


def deliver(verdict: Verdict, view: str) -> bool:
    """Hand ``verdict`` to the sink; True when someone is capturing (then do not print it)."""
    caught = _sink.get()
    if caught is None:
        return False
    caught.append(Captured(verdict, view))
    return True
