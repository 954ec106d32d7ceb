"""What each viewer of a live encounter may see, as JSON: the GM, one character, the table.

The server decides what leaves it: a view is built here from the whole game, and only the view
is sent (RULES.md LP-5). The GM's view holds everything, the awareness matrix of who knows what
of whom included. A character's view holds its own place, where its fellows stand, the enemies
it knows of at the precision it knows them (named only where it knows who they are: observed,
or scouted, where they stand; a located enemy is "someone" on a square, one only heard
"someone" that way, with a bearing and no distance), and the events it perceives told as it
perceives them (:mod:`vigile.io.views`: a failed perception check is not there, a check shows
no odds, a miss reads the same whatever missed, a name it does not know reads "someone").

The table's shared screen shows what the defenders collectively perceive (LP-5): an intruder
only where some defender observes it (named) or has located it (a square, unnamed); its events
are the public ones and each defender's perception of an intruder or blow from one, told as
that defender perceives it. A scenario's ``open_table`` shows every intruder where it stands.

Each viewer's events are numbered in its own sequence (LP-5): a character's or the table's
``seq`` is how many events it has been told, so nobody can count what it did not perceive; the
GM's is the log's record number.
"""

from __future__ import annotations

import json
import weakref
import zlib
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final, Literal

from vigile.awareness.ladder import AwarenessState
from vigile.engine.events import DETECTING, Event
from vigile.engine.game import Game
from vigile.engine.live import NeedDice
from vigile.engine.state import Walker
from vigile.io.i18n import Lang
from vigile.io.json_out import verdict_json
from vigile.io.views import event_json, seen_by
from vigile.live.encounter import Encounter, Replayed
from vigile.scene.actors import Side

Role = Literal["gm", "player", "table"]
KNOWN = DETECTING
"""What the table's screen shows of an intruder: a detection (RULES.md section 4)."""


LOG_PAGE: Final = 200
"""The events of the GM's log a view holds: the latest, the earlier ones page by page. A view
then costs what a page costs, however long the log (a restart reads the older events from the
store only when a page asks for them: :mod:`vigile.live.eventlog`)."""


def table_lenses(game: Game, event: Event) -> list[str]:
    """The defenders through whose perception the table's shared screen knows the event: every
    defender for a public event; otherwise its actor or target, a defender, who perceives it
    (a guard seeing, hearing or locating an intruder; a guard struck)."""
    if event.public:
        return [w.name for w in game.walkers if w.side is Side.DEFENDERS]
    lenses = []
    for name in (event.actor, event.target):
        walker = game.by_name.get(name or "")
        if walker is not None and walker.side is Side.DEFENDERS and seen_by(event, walker.name):
            other = event.target if name == event.actor else event.actor
            enemy = game.by_name.get(other or "")
            if enemy is not None and enemy.side is Side.ATTACKERS:
                lenses.append(walker.name)
    return lenses


def viewer_sees(game: Game, role: Role, character: str | None, event: Event) -> bool:
    """Whether the event reaches this viewer."""
    if role == "gm":
        return True
    if role == "table":
        return bool(table_lenses(game, event))
    return character is not None and seen_by(event, character)


def unnamed_for(game: Game, role: Role, character: str | None, event: Event) -> frozenset[str]:
    """The names in the event this viewer does not know (LP-5): a character's own; for the
    table, those no defender through whom it knows the event knows (none on an open table)."""
    if role == "gm":
        return frozenset()
    if role == "player":
        return event.unnamed_for(character or "")
    if game.scenario.open_table:
        return frozenset()
    lenses = table_lenses(game, event)
    hidden = [event.unnamed_for(name) for name in lenses]
    return frozenset.intersection(*hidden) if hidden else frozenset()


def told(game: Game, role: Role, character: str | None, events: Iterable[Event]) -> list[Event]:
    """The events this viewer is told, in order."""
    return [e for e in events if viewer_sees(game, role, character, e)]


_TOLD: weakref.WeakKeyDictionary[Game, dict[tuple[Role, str | None], tuple[int, list[Event]]]]
_TOLD = weakref.WeakKeyDictionary()


def told_all(game: Game, role: Role, character: str | None) -> list[Event]:
    """Every event of the game this viewer is told, in order (:func:`told` of ``game.events``),
    kept with the game and extended by the events logged since: a game's log only grows
    (an undo replays a game of its own), and whether an event reaches a viewer depends on the
    event alone. A page's news then costs the new events, not the whole log. The list is
    shared: the caller reads it, never changes it."""
    kept = _TOLD.setdefault(game, {})
    covered, events = kept.get((role, character), (0, []))
    if covered < len(game.events):
        events = events + told(game, role, character, game.events[covered:])
        kept[(role, character)] = (len(game.events), events)
    return events


def events_for(
    game: Game, role: Role, character: str | None, events: Iterable[Event], lang: Lang
) -> list[dict[str, Any]]:
    """The events this viewer is told, as it is told them (the GM: each with its whole check;
    the others: as a character perceives it, without the names it does not know)."""
    return tell(game, role, character, told(game, role, character, events), lang)


def tell(
    game: Game, role: Role, character: str | None, events: Sequence[Event], lang: Lang
) -> list[dict[str, Any]]:
    """Events already chosen for this viewer (:func:`told`), as JSON."""
    player = role != "gm"
    return [
        event_json(e, lang, player=player, unnamed=unnamed_for(game, role, character, e))
        for e in events
    ]


def _place(walker: Walker) -> list[float]:
    return _point(walker.at)


def _point(point: tuple[float, float]) -> list[float]:
    return [round(point[0], 2), round(point[1], 2)]


def _outcome(game: Game, viewer: str | None = None) -> dict[str, Any] | None:
    """How the game ended; for a character (or the ``table``), each name of ``by`` it does not
    know is None (LP-5)."""
    outcome = game.outcome
    if outcome is None:
        return None
    return {
        "kind": outcome.kind,
        "turn": outcome.turn,
        "unseen": outcome.unseen,
        "by": [name if _may_name(game, viewer, name) else None for name in outcome.by],
        "after_alarm": outcome.after_alarm,
    }


def _may_name(game: Game, viewer: str | None, name: str) -> bool:
    """Whether ``viewer`` (None: the GM; ``table``: the shared screen) knows who ``name`` is."""
    other = game.by_name.get(name)
    if viewer is None or other is None:
        return True
    if viewer == "table":
        return game.scenario.open_table or any(
            game.knows_who(d, other) for d in game.walkers if d.side is Side.DEFENDERS
        )
    return game.knows_who(game.by_name[viewer], other)


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


def log_page(count: int, before: int | None) -> tuple[int, int]:
    """The GM's page of a log of ``count`` events: (first, end) indices, the :data:`LOG_PAGE`
    events before ``before`` (None: the latest)."""
    end = count if before is None else max(0, min(before, count))
    return max(0, end - LOG_PAGE), end


def gm_view(
    encounter: Encounter, replayed: Replayed, lang: Lang, *, before: int | None = None
) -> dict[str, Any]:
    """Everything: every actor, the latest events (:data:`LOG_PAGE`, or those before
    ``before``) each with its check, who knows what of whom. ``events_from`` is the index of
    the first event shown: the earlier ones are asked for with ``before``."""
    game = replayed.game
    first, end = log_page(len(game.events), before)
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
        "events": events_for(game, "gm", None, game.events[first:end], lang),
        "events_from": first,
    }


def _bearing(degrees: float) -> int:
    return round(degrees) % 360


def fellows(game: Game, me: Walker) -> list[dict[str, Any]]:
    """The other members of ``me``'s side, each where it stands, named, living or not.

    [R] A character knows where its own side stands: its fellows play at one table and act
    together (the night raid's plans, a patrol group), and no rule of the three games hides an
    ally from an ally (a discovery stays the discoverer's, SK-G3, but the discoverer's own
    place does not; SK-G4's hidden guards are unknown to the attackers, not to the guards)."""
    return [
        {"name": w.name, "at": _place(w), "alive": w.alive}
        for w in game.walkers
        if w.side is me.side and w is not me
    ]


def character_view(
    encounter: Encounter, replayed: Replayed, name: str, lang: Lang, *, told_from: int = 0
) -> dict[str, Any]:
    """What ``name`` perceives: its own place, its fellows (:func:`fellows`), the enemies it
    knows of (at the precision it knows them, named only where it knows who: LP-5), its
    events (those from the ``told_from``-th it was told: :func:`character_news`).

    An enemy whose position the character knew beforehand (scouted, SK-G3) and has not
    perceived in play is shown where it stands: SK-G3's scouts "know every guard's position",
    and the game never makes them look for such a guard
    (:meth:`vigile.games.skirmish.raid.SkirmishGame.knows_where`)."""
    game = replayed.game
    me = game.by_name[name]
    known: list[dict[str, Any]] = []
    strangers: list[dict[str, Any]] = []
    for other in game.walkers:
        if other.side is me.side:
            continue
        state = me.aware_of(other.name)
        scouted = other.name in me.knows_position
        if state is AwarenessState.UNAWARE and not scouted:
            continue
        named = game.knows_who(me, other)
        entry: dict[str, Any] = {"name": other.name if named else None, "awareness": state.value}
        at, way = game.perceived(me, other)
        if at is None and scouted:
            at = other.at
        if at is not None:
            entry["at"] = _point(at)
        elif way is not None:
            entry["bearing"] = _bearing(way)
        if named and (at is not None or state is AwarenessState.OBSERVED):
            entry["alive"] = other.alive
        if scouted and state is AwarenessState.UNAWARE:
            entry["scouted"] = True
        (known if named else strangers).append(entry)
    strangers.sort(key=lambda e: (e["awareness"], e.get("at", []), e.get("bearing", -1)))
    events = told_all(game, "player", name)
    return {
        "encounter": encounter.id,
        "role": "player",
        "character": name,
        "seq": len(events),
        "turn": game.turn,
        "units": game.scenario.units.value,
        "outcome": _outcome(game, name),
        "me": {"name": name, "at": _place(me), "alive": me.alive},
        "fellows": fellows(game, me),
        "known": known + strangers,
        "events": tell(game, "player", name, events[told_from:], lang),
    }


STATE: Final = ("turn", "outcome", "me", "fellows", "known")
"""What a character's page shows besides its events: its status, its map's tokens, what it
knows (a page's news send them only when they changed: :func:`character_news`)."""


def _digest(value: object) -> str:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return f"{zlib.crc32(text.encode('utf-8')):08x}"


def view_mark(view: Mapping[str, Any]) -> str:
    """What a page shows as of a character's whole view: ``seq.last.state``, how many events
    it was told, a digest of the last one as it was told it (an undo followed by new events
    keeps the count, not the events), and a digest of the rest (:data:`STATE`). Made of what
    the viewer was told: it counts nothing it did not perceive (LP-5)."""
    last = view["events"][-1] if view["events"] else None
    return f"{view['seq']}.{_digest(last)}.{_digest({k: view[k] for k in STATE})}"


def character_news(
    encounter: Encounter, replayed: Replayed, name: str, lang: Lang, mark: str
) -> dict[str, Any] | None:
    """The character's view for a page that shows it as of ``mark`` (:func:`view_mark`): the
    events told since, the rest with ``changed`` saying whether it differs from what the page
    shows; its new ``mark``. None where the page's mark is not one of this game's (an undo
    took back what it showed): the page needs its whole view again."""
    game = replayed.game
    parts = mark.split(".")
    if len(parts) != 3 or not parts[0].isdigit():
        return None
    seq = int(parts[0])
    events = told_all(game, "player", name)
    if seq > len(events):
        return None
    last = tell(game, "player", name, events[seq - 1 : seq], lang)[0] if seq else None
    if _digest(last) != parts[1]:
        return None
    shown = character_view(encounter, replayed, name, lang, told_from=seq)
    state = _digest({k: shown[k] for k in STATE})
    last = shown["events"][-1] if shown["events"] else last
    shown["changed"] = state != parts[2]
    shown["mark"] = f"{shown['seq']}.{_digest(last)}.{state}"
    return shown


def table_intruders(game: Game) -> list[dict[str, Any]]:
    """The intruders as the table shows them: every one on an open table; otherwise those some
    living defender observes (named, where they stand) or has located (unnamed, on the square
    it was located on), LP-5."""
    intruders = [w for w in game.walkers if w.side is Side.ATTACKERS]
    if game.scenario.open_table:
        return [{"name": w.name, "at": _place(w), "alive": w.alive} for w in intruders]
    watchers = [w for w in game.walkers if w.side is Side.DEFENDERS and w.alive]
    named: list[dict[str, Any]] = []
    located: list[dict[str, Any]] = []
    for intruder in intruders:
        if any(game.knows_who(d, intruder) for d in watchers if d.aware_of(intruder.name) in KNOWN):
            named.append({"name": intruder.name, "at": _place(intruder), "alive": intruder.alive})
            continue
        squares = {
            tuple(_point(at))
            for d in watchers
            for at in (game.perceived(d, intruder)[0],)
            if at is not None
        }
        located += [{"name": None, "at": list(at), "awareness": "location"} for at in squares]
    located.sort(key=lambda e: e["at"])
    return named + located


def table_view(encounter: Encounter, replayed: Replayed, lang: Lang) -> dict[str, Any]:
    """The shared screen: what the defenders collectively perceive (LP-5)."""
    game = replayed.game
    events = told_all(game, "table", None)
    return {
        "encounter": encounter.id,
        "role": "table",
        "seq": len(events),
        "turn": game.turn,
        "units": game.scenario.units.value,
        "outcome": _outcome(game, "table"),
        "open": game.scenario.open_table,
        "intruders": table_intruders(game),
        "events": tell(game, "table", None, events, lang),
    }


def view(
    encounter: Encounter,
    role: Role,
    character: str | None,
    lang: Lang,
    *,
    before: int | None = None,
) -> dict[str, Any]:
    """The whole view of one viewer, as of the last record (the GM's log: one page of it,
    ``before`` an event's index, :func:`gm_view`)."""
    with encounter.reading() as replayed:
        if role == "gm":
            return gm_view(encounter, replayed, lang, before=before)
        if role == "table":
            return table_view(encounter, replayed, lang)
        assert character is not None
        return character_view(encounter, replayed, character, lang)


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
