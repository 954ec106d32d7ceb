"""Views of a game: the GM's log (everything), one character's (what it perceives), JSON Lines.

A character's view never shows a roll or a chance that character could not know: its own checks
appear as their question and outcome (the player view of a verdict), nothing else.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from vigile.engine.events import Event
from vigile.engine.result import GameResult
from vigile.errors import InputError
from vigile.io.i18n import Lang, tr
from vigile.io.json_out import verdict_json
from vigile.io.text import summary_line


def event_text(event: Event, lang: Lang) -> str:
    """The event in one sentence (``Kage moves to (88, 24), hidden``)."""
    return tr(event.message, lang, event.params)


def check_summary(event: Event, lang: Lang) -> str:
    """Difficulty, chance, roll and outcome of the event's check, with its rule IDs."""
    verdict = event.verdict
    if verdict is None:
        return ""
    summary = summary_line(verdict, lang)
    rules = sorted({m.rule for m in verdict.modifiers} | {n.rule for n in verdict.notes})
    return summary + (f" [{', '.join(rules)}]" if rules else "")


def gm_lines(result: GameResult, lang: Lang) -> Iterator[str]:
    """The GM's log: every event, every check with its odds and roll."""
    for event in result.events:
        yield from _lines(event, lang, player=False)
    yield from _summary(result, lang)


def character_lines(result: GameResult, name: str, lang: Lang) -> Iterator[str]:
    """What ``name`` perceives and knows, turn by turn."""
    _check_name(result, name)
    yield tr("engine.view.as", lang, {"name": name})
    walker = next(w for w in result.walkers if w.name == name)
    if walker.knows_position:
        yield tr("engine.view.knows", lang, {"names": ", ".join(sorted(walker.knows_position))})
    for event in result.events:
        if event.known_to(name):
            yield from _lines(event, lang, player=True)
    knows = [
        f"{other}: {tr('term.' + state.value, lang)}"
        for other, state in sorted(walker.awareness.items())
    ]
    if knows:
        yield tr("engine.view.awareness", lang, {"list": "; ".join(knows)})


def _lines(event: Event, lang: Lang, *, player: bool) -> Iterator[str]:
    if event.kind == "turn":
        yield ""
        yield tr("engine.view.turn", lang, {"turn": event.turn})
        return
    text = event_text(event, lang)
    if event.verdict is not None:
        if player:
            key = event.verdict.player_outcome or event.verdict.outcome
            text += f" → {tr(key, lang)}" if key else ""
        else:
            text += " — " + check_summary(event, lang)
    yield f"  {text}"


def _summary(result: GameResult, lang: Lang) -> Iterator[str]:
    outcome = result.outcome
    yield ""
    yield tr(f"engine.outcome.{outcome.kind}", lang, {"turn": outcome.turn, "by": outcome.by})
    yield tr("engine.outcome.unseen" if outcome.unseen else "engine.outcome.seen", lang)
    for walker in result.walkers:
        known = {k: v for k, v in walker.awareness.items() if v.value != "unaware"}
        if known and walker.alive:
            items = "; ".join(
                f"{k}: {tr('term.' + v.value, lang)}" for k, v in sorted(known.items())
            )
            yield tr("engine.view.knows_of", lang, {"name": walker.name, "list": items})


def event_json(event: Event, lang: Lang, *, player: bool = False) -> dict[str, Any]:
    """One event as a JSON object (one line of the log)."""
    data: dict[str, Any] = {
        "turn": event.turn,
        "event": event.kind,
        "actor": event.actor,
        "target": event.target,
        "at": list(event.at) if event.at else None,
        "text": event_text(event, lang),
    }
    if event.verdict is not None:
        data["check"] = verdict_json(event.verdict, lang, view="player" if player else "gm")
    return data


def json_lines(result: GameResult, lang: Lang, name: str | None = None) -> Iterator[str]:
    """The log as JSON Lines; with ``name``, only what that character perceives."""
    if name is not None:
        _check_name(result, name)
    for event in result.events:
        if name is None or event.known_to(name):
            yield json.dumps(event_json(event, lang, player=name is not None), ensure_ascii=False)
    outcome = result.outcome
    yield json.dumps(
        {
            "turn": outcome.turn,
            "event": "outcome",
            "outcome": outcome.kind,
            "unseen": outcome.unseen,
            "by": outcome.by,
        },
        ensure_ascii=False,
    )


def _check_name(result: GameResult, name: str) -> None:
    """Refuse a character the scenario does not have, listing those it has."""
    if name not in {w.name for w in result.walkers}:
        known = ", ".join(w.name for w in result.walkers)
        raise InputError(f"no character called {name!r}; the scenario has: {known}", where="--as")
