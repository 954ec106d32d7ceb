"""A verdict on a terminal, with rich: the same lines as the plain text, in colour."""

from __future__ import annotations

from rich.console import Console
from rich.text import Text

from vigile.checks.verdict import Verdict
from vigile.io.i18n import Lang
from vigile.io.text import View, explain


def print_verdict(
    verdict: Verdict, lang: Lang, console: Console | None = None, *, view: View = "gm"
) -> None:
    """Print the explanation; the header bold, rule IDs dim, the outcome green or red."""
    console = console or Console(highlight=False)
    lines = explain(verdict, lang, hint_roll=view == "gm", view=view)
    console.print(Text(lines[0], style="bold"))
    for line in lines[1:]:
        style = ""
        if line.startswith("→"):
            style = "bold green" if verdict.success else "bold red"
        text = Text(line, style=style)
        text.highlight_regex(r"\[(SK|SF|DD)-[A-Z]?\d+\]", "dim cyan")
        console.print(text)
