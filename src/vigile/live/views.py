"""What each viewer of a live encounter may see, as JSON: the GM, one character, the table.

The server decides what leaves it: a view is built here from the whole game, and only the view
is sent. The GM's view holds everything, the awareness matrix of who knows what of whom
included. A character's view holds its own place, the enemies it knows of (where it observes
or has located them, the position it knew at the start, the direction it heard), and the events
it perceives told as it perceives them (:mod:`vigile.io.views`: a failed perception check is
not there, a check shows no odds, a miss reads the same whatever missed). The table's view is
what every character knows: the public events, and the intruders' own places.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal

from vigile.awareness.ladder import AwarenessState
from vigile.engine.events import Event
from vigile.engine.game import Game
from vigile.engine.live import NeedDice
from vigile.engine.state import Walker
from vigile.io.i18n import Lang
from vigile.io.json_out import verdict_json
from vigile.io.views import event_json, seen_by
from vigile.live.encounter import Encounter, Replayed
from vigile.scene.actors import Side

Role = Literal["gm", "player", "table"]
KNOWN = (AwarenessState.LOCATION, AwarenessState.OBSERVED)


def viewer_sees(role: Role, character: str | None, event: Event) -> bool:
    """Whether the event reaches this viewer."""
    if role == "gm":
        return True
    if role == "table":
        return event.public
    return character is not None and seen_by(event, character)


def events_for(
    role: Role, character: str | None, events: Iterable[Event], lang: Lang
) -> list[dict[str, Any]]:
    """The events this viewer is told, as it is told them (the GM: each with its whole check;
    the others: as a character perceives it)."""
    return [
        event_json(e, lang, player=role != "gm") for e in events if viewer_sees(role, character, e)
    ]


def _place(walker: Walker) -> list[float]:
    return _point(walker.at)


def _point(point: tuple[float, float]) -> list[float]:
    return [round(point[0], 2), round(point[1], 2)]


def _outcome(game: Game) -> dict[str, Any] | None:
    outcome = game.outcome
    if outcome is None:
        return None
    return {
        "kind": outcome.kind,
        "turn": outcome.turn,
        "unseen": outcome.unseen,
        "by": list(outcome.by),
        "after_alarm": outcome.after_alarm,
    }


def awareness_matrix(game: Game) -> dict[str, dict[str, str]]:
    """Observer → target → awareness state, every actor against every enemy (GM only)."""
    matrix: dict[str, dict[str, str]] = {}
    for observer in game.walkers:
        row = {
            other.name: observer.aware_of(other.name).value
            for other in game.walkers
            if other.side is not observer.side
        }
        matrix[observer.name] = row
    return matrix


def gm_view(encounter: Encounter, replayed: Replayed, lang: Lang) -> dict[str, Any]:
    """Everything: every actor, every event with its check, who knows what of whom."""
    game = replayed.game
    return {
        "encounter": encounter.id,
        "role": "gm",
        "seq": replayed.seq,
        "turn": game.turn,
        "turns": game.scenario.turns,
        "ruleset": game.scenario.ruleset,
        "units": game.scenario.units.value,
        "dice": encounter.row.dice,
        "outcome": _outcome(game),
        "actors": [
            {
                "name": w.name,
                "side": w.side.value,
                "at": _place(w),
                "alive": w.alive,
                "alert": w.alert,
                "moved": w.moved,
            }
            for w in game.walkers
        ],
        "doors": {name: i in game.board.open_doors for name, i in game.board.door_index.items()},
        "awareness": awareness_matrix(game),
        "can_undo": bool(replayed.done),
        "events": events_for("gm", None, game.events, lang),
    }


def character_view(
    encounter: Encounter, replayed: Replayed, name: str, lang: Lang
) -> dict[str, Any]:
    """What ``name`` perceives: its own place, the enemies it knows of, its events."""
    game = replayed.game
    me = game.by_name[name]
    known: list[dict[str, Any]] = []
    for other in game.walkers:
        if other.side is me.side:
            continue
        state = me.aware_of(other.name)
        scouted = other.name in me.knows_position
        if state is AwarenessState.UNAWARE and not scouted:
            continue
        entry: dict[str, Any] = {"name": other.name, "awareness": state.value}
        if state in KNOWN:
            entry["at"] = _point(game.known_place(other, state))
            entry["alive"] = other.alive
        elif scouted:
            entry["scouted"] = True
        known.append(entry)
    return {
        "encounter": encounter.id,
        "role": "player",
        "character": name,
        "seq": replayed.seq,
        "turn": game.turn,
        "units": game.scenario.units.value,
        "outcome": _outcome(game),
        "me": {"name": name, "at": _place(me), "alive": me.alive},
        "known": known,
        "events": events_for("player", name, game.events, lang),
    }


def table_view(encounter: Encounter, replayed: Replayed, lang: Lang) -> dict[str, Any]:
    """The shared screen: the intruders' places and the public events."""
    game = replayed.game
    return {
        "encounter": encounter.id,
        "role": "table",
        "seq": replayed.seq,
        "turn": game.turn,
        "units": game.scenario.units.value,
        "outcome": _outcome(game),
        "intruders": [
            {"name": w.name, "at": _place(w), "alive": w.alive}
            for w in game.walkers
            if w.side is Side.ATTACKERS
        ],
        "events": events_for("table", None, game.events, lang),
    }


def view(encounter: Encounter, role: Role, character: str | None, lang: Lang) -> dict[str, Any]:
    """The whole view of one viewer, as of the last record."""
    with encounter.reading() as replayed:
        if role == "gm":
            return gm_view(encounter, replayed, lang)
        if role == "table":
            return table_view(encounter, replayed, lang)
        assert character is not None
        return character_view(encounter, replayed, character, lang)


def record_events(
    encounter: Encounter, seq: int, role: Role, character: str | None, lang: Lang
) -> list[dict[str, Any]] | None:
    """The events record ``seq`` logged, as this viewer is told them; None when the record
    is no longer in force (undone, or an undo: the viewer must take its whole view again)."""
    with encounter.reading() as replayed:
        span = replayed.spans.get(seq)
        if span is None:
            return None
        return events_for(role, character, replayed.game.events[span[0] : span[1]], lang)


def needs_json(error: NeedDice, lang: Lang) -> dict[str, Any]:
    """What the GM is asked for when the table's dice ran out: which die, for whom, and the
    check about to be rolled with its exact odds (the GM's eyes only)."""
    verdict = error.verdict
    return {
        "index": error.index,
        "sides": error.sides,
        "who": error.who,
        "check": None if verdict is None else verdict_json(verdict, lang),
    }
