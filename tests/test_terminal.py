"""A verdict on a terminal (rich): the same lines as the plain text, the outcome coloured."""

from __future__ import annotations

from rich.console import Console

from vigile.dice.source import GivenFaces
from vigile.io.i18n import Lang
from vigile.io.terminal import print_verdict
from vigile.io.text import explain
from vigile.rulesets.data import shipped
from vigile.rulesets.skirmish.noise import NoiseEvent, Surface, noise_check


def test_the_terminal_prints_the_plain_lines_and_colours_the_outcome() -> None:
    """SK-N2, SK-N4: a death on the floor 20 cm away, one barrier, the die shows 4."""
    verdict = noise_check(
        shipped("skirmish"),
        event=NoiseEvent.DEATH,
        surface=Surface.FLOOR,
        distance_cm=20,
        barriers=1,
        source=GivenFaces([4]),
    )
    console = Console(record=True, width=200, color_system="truecolor", force_terminal=True)
    print_verdict(verdict, Lang.EN, console)
    assert console.export_text(clear=False).splitlines() == explain(
        verdict, Lang.EN, hint_roll=True
    )
    html = console.export_html()
    assert "font-weight: bold" in html  # the header and the outcome
    colour = "#008000" if verdict.success else "#800000"
    assert colour in html
