"""Views of a game: the GM's log (everything), one character's (what it perceives), JSON Lines.

A character's view never shows a roll or a chance that character could not know: its own checks
appear as their question and outcome (the player view of a verdict), nothing else.

A *perception check* (an event of kind ``noise``, ``sight``, ``notice`` or ``ambush`` with a
verdict and a target: a listener listening, a guard looking, a Spot or Listen roll, a
character watching for a follower or an ambush) is the checker's test of something it does not
know is there. So in the checker's own view:

- a failed one does not appear at all (a guard who heard nothing knows nothing of a death
  20 cm away);
- a successful one appears without numbers the character could not know (no distance, no
  position, no maker of a noise heard, no difficulty or odds), or not at all when the event
  that follows it already says what the character perceived (``sees``, ``learns``).

Other events a character perceives are shown with their player text (:data:`PLAYER_MESSAGES`)
where the GM's text holds numbers the character could not know (how many observers a Stealth
roll is against, the exact distance a scent is smelled at).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from vigile.engine.events import Event
from vigile.engine.result import GameResult, Outcome
from vigile.engine.state import Walker
from vigile.errors import InputError
from vigile.io.i18n import Lang, messages, tr
from vigile.io.json_out import verdict_json
from vigile.io.text import summary_line

PERCEPTION_KINDS = frozenset({"noise", "sight", "notice", "ambush"})
"""Event kinds whose check, if the event has a target, is its actor's perception check."""

PLAYER_MESSAGES: dict[str, str | None] = {
    "engine.event.noise": None,  # followed by "hears" on a success
    "engine.raid.hears": "engine.player.hears",
    "engine.raid.alarm_cry": "engine.player.alarm_cry",
    "engine.raid.beyond_reach": "engine.player.beyond_reach",
    "engine.event.sight": None,  # followed by "sees" on a success
    "engine.event.notice": None,  # followed by "notices"
    "engine.day.watch_ambush": None,  # followed by "spots_ambush"
    "engine.d20.perception": None,  # followed by "learns"
    "engine.d20.spot_hide": None,
    "engine.d20.spot": None,
    "engine.d20.listen": None,
    "engine.d20.stealth": "engine.player.stealth",
    "engine.d20.hide": "engine.player.hide",
    "engine.d20.blindsight": "engine.player.blindsight",
    "engine.d20.scent": "engine.player.scent",
    # a planned blow not made (LP-7): the GM reads the distance, its actor only that it was not
    "engine.blow.out_of_reach": "engine.player.no_blow",
    "engine.blow.out_of_range": "engine.player.no_blow",
    "engine.blow.no_line": "engine.player.no_blow",
    "engine.blow.blow_wall": "engine.player.no_blow",
    "engine.blow.self_blow": "engine.player.no_blow",
    "engine.blow.ally_blow": "engine.player.no_blow",
}
"""The message a character's view shows instead of the GM's; None: nothing (a perception
check whose success the next event tells). A perception check not listed here is not shown."""


def event_text(event: Event, lang: Lang) -> str:
    """The event in one sentence (``Kage moves to (88, 24), hidden``)."""
    return tr(event.message, lang, event.params)


def is_perception_check(event: Event) -> bool:
    """The event is its actor's check to perceive its target (see the module docstring)."""
    return event.kind in PERCEPTION_KINDS and event.verdict is not None and event.target is not None


def seen_by(event: Event, name: str) -> bool:
    """``name``'s view shows the event: it perceives it, and it is not a perception check
    that failed, or that the next event tells."""
    if not event.known_to(name):
        return False
    if is_perception_check(event):
        return (
            event.actor == name
            and bool(event.verdict and event.verdict.success)
            and PLAYER_MESSAGES.get(event.message) is not None
        )
    return PLAYER_MESSAGES.get(event.message, event.message) is not None


def player_key(event: Event) -> str:
    """The message key of the event as a character perceives it."""
    return PLAYER_MESSAGES.get(event.message, event.message) or event.message


def player_params(
    event: Event, lang: Lang, unnamed: frozenset[str] = frozenset()
) -> dict[str, Any]:
    """The event's values as a viewer perceives them: each name in ``unnamed`` (an enemy it
    does not know, :meth:`Event.unnamed_for`) told as "someone", and no place of an unknown
    actor (LP-5)."""
    params = dict(event.params)
    if unnamed:
        someone = tr("engine.player.someone", lang)
        for key, value in params.items():
            if isinstance(value, str) and value in unnamed:
                params[key] = someone
        if event.actor in unnamed:  # where someone unknown stands is not perceived either
            params |= {"x": "?", "y": "?"}
    return params


def player_text(event: Event, lang: Lang, unnamed: frozenset[str] = frozenset()) -> str:
    """The event as a character perceives it: no number it could not know, no name it does not
    know (``unnamed``)."""
    text = tr(player_key(event), lang, player_params(event, lang, unnamed))
    return text[:1].upper() + text[1:] if unnamed else text


def check_summary(event: Event, lang: Lang) -> str:
    """Difficulty, chance, roll and outcome of the event's check, with its rule IDs."""
    verdict = event.verdict
    if verdict is None:
        return ""
    summary = summary_line(verdict, lang)
    rules = sorted({m.rule for m in verdict.modifiers} | {n.rule for n in verdict.notes})
    return summary + (f" [{', '.join(rules)}]" if rules else "")


# ---------------------------------------------------------------- text views


def seed_lines(seed: int | None, lang: Lang) -> Iterator[str]:
    """The seed a game drew for itself, so that ``--seed`` replays it."""
    if seed is not None:
        yield tr("engine.run.seed", lang, {"seed": seed})


def gm_lines(result: GameResult, lang: Lang, *, seed: int | None = None) -> Iterator[str]:
    """The GM's log: every event, every check with its odds and roll."""
    yield from seed_lines(seed, lang)
    for event in result.events:
        yield from event_lines(event, lang)
    yield from outcome_lines(result.outcome, result.walkers, lang)


def character_lines(
    result: GameResult, name: str, lang: Lang, *, seed: int | None = None
) -> Iterator[str]:
    """What ``name`` perceives and knows, turn by turn."""
    check_name(result.walkers, name)
    yield from seed_lines(seed, lang)
    yield from character_header(result.walkers, name, lang)
    for event in result.events:
        yield from event_lines(event, lang, name)
    yield from character_end(result.walkers, name, lang)


def character_header(walkers: Sequence[Walker], name: str, lang: Lang) -> Iterator[str]:
    """The first lines of ``name``'s view: who it is, whose positions it knows."""
    yield tr("engine.view.as", lang, {"name": name})
    walker = next(w for w in walkers if w.name == name)
    if walker.knows_position:
        yield tr("engine.view.knows", lang, {"names": ", ".join(sorted(walker.knows_position))})


def character_end(walkers: Sequence[Walker], name: str, lang: Lang) -> Iterator[str]:
    """The last line of ``name``'s view: what it knows of each enemy at the end."""
    walker = next(w for w in walkers if w.name == name)
    someone = tr("engine.player.someone", lang)
    knows = sorted(
        _known(other if named else someone, state.value, lang)
        for other, state in walker.awareness.items()
        for named in (state.value == "observed" or other in walker.knows_position,)
    )
    if knows:
        separator = tr("engine.view.separator", lang)
        yield tr("engine.view.awareness", lang, {"list": separator.join(knows)})


def _known(name: str, state: str, lang: Lang) -> str:
    """``Kage: sees it``: what one character knows of another (French: ``Kage : le voit``)."""
    return tr("engine.view.known", lang, {"name": name, "state": tr("term." + state, lang)})


def event_lines(event: Event, lang: Lang, name: str | None = None) -> Iterator[str]:
    """One event of the log: the GM's (``name`` None), or as ``name`` perceives it (maybe
    nothing)."""
    if name is not None and not seen_by(event, name):
        return
    if event.kind == "turn":
        yield ""
        yield tr("engine.view.turn", lang, {"turn": event.turn})
        return
    if name is None:
        text = event_text(event, lang)
        if event.verdict is not None:
            text += " — " + check_summary(event, lang)
        yield f"  {text}"
        return
    text = player_text(event, lang, event.unnamed_for(name))
    if event.verdict is not None:
        key = event.verdict.player_outcome or event.verdict.outcome
        text += f" → {tr(key, lang)}" if key else ""
    yield f"  {text}"


def outcome_lines(outcome: Outcome, walkers: Iterable[Walker], lang: Lang) -> Iterator[str]:
    """How the game ended, and what each living character knows (the GM's log)."""
    yield ""
    yield tr(
        f"engine.outcome.{outcome.kind}", lang, {"turn": outcome.turn, "by": ", ".join(outcome.by)}
    )
    yield tr("engine.outcome.unseen" if outcome.unseen else "engine.outcome.seen", lang)
    if outcome.after_alarm and outcome.kind != "alarm":
        yield tr("engine.raid.after_alarm", lang)
    for walker in walkers:
        known = {k: v for k, v in walker.awareness.items() if v.value != "unaware"}
        if known and walker.alive:
            items = tr("engine.view.separator", lang).join(
                _known(k, v.value, lang) for k, v in sorted(known.items())
            )
            yield tr("engine.view.knows_of", lang, {"name": walker.name, "list": items})


# ---------------------------------------------------------------- JSON Lines


def event_json(
    event: Event, lang: Lang, *, player: bool = False, unnamed: frozenset[str] = frozenset()
) -> dict[str, Any]:
    """One event as a JSON object (one line of the log); ``player``: as its actor perceives
    it (an event retold by a player message keeps its target and place only where that
    message names them), without the names in ``unnamed`` (LP-5)."""
    retold = player and player_key(event) != event.message
    template = messages(lang).get(player_key(event), "") if retold else ""
    named = not retold or "{target}" in template
    placed = (not retold or "{x}" in template) and event.actor not in unnamed
    data: dict[str, Any] = {
        "turn": event.turn,
        "event": event.kind,
        "actor": None if event.actor in unnamed else event.actor,
        "target": event.target if named and event.target not in unnamed else None,
        "at": list(event.at) if event.at and placed else None,
        "text": player_text(event, lang, unnamed) if player else event_text(event, lang),
    }
    if event.verdict is not None:
        data["check"] = verdict_json(event.verdict, lang, view="player" if player else "gm")
    return data


def event_json_line(
    event: Event, lang: Lang, name: str | None = None, *, seed: int | None = None
) -> str | None:
    """The event's JSON line in the log of the GM (``name`` None) or of ``name``; None when
    ``name`` does not perceive it. ``seed``, the seed the game drew, goes on the start line."""
    if name is not None and not seen_by(event, name):
        return None
    unnamed = event.unnamed_for(name) if name is not None else frozenset()
    data = event_json(event, lang, player=name is not None, unnamed=unnamed)
    if seed is not None and event.kind == "start":
        data["seed"] = seed
    return json.dumps(data, ensure_ascii=False)


def outcome_json_line(outcome: Outcome) -> str:
    """The last JSON line: how the game ended."""
    return json.dumps(
        {
            "turn": outcome.turn,
            "event": "outcome",
            "outcome": outcome.kind,
            "unseen": outcome.unseen,
            "by": ", ".join(outcome.by),
        },
        ensure_ascii=False,
    )


def json_lines(
    result: GameResult, lang: Lang, name: str | None = None, *, seed: int | None = None
) -> Iterator[str]:
    """The log as JSON Lines; with ``name``, only what that character perceives."""
    if name is not None:
        check_name(result.walkers, name)
    for event in result.events:
        line = event_json_line(event, lang, name, seed=seed)
        if line is not None:
            yield line
    yield outcome_json_line(result.outcome)


def character_name(walkers: Iterable[Walker], typed: str) -> str:
    """The character ``typed`` names, in any case (``kage``: Kage); an error listing the
    scenario's characters where none is called so, or where the case alone tells two apart
    and ``typed`` is neither."""
    names = [w.name for w in walkers]
    if typed in names:
        return typed
    folded = [n for n in names if n.casefold() == typed.casefold()]
    if len(folded) == 1:
        return folded[0]
    raise InputError(
        f"no character called {typed!r}; the scenario has: {', '.join(names)}", where="--as"
    )


def check_name(walkers: Iterable[Walker], name: str) -> None:
    """Refuse a character the scenario does not have (the exact name), listing those it has."""
    names = [w.name for w in walkers]
    if name not in names:
        raise InputError(
            f"no character called {name!r}; the scenario has: {', '.join(names)}", where="--as"
        )


# ---------------------------------------------------------------- one reader's log


class LogView:
    """The log of one game for one reader: the GM's (``name`` None) or ``name``'s, as text or
    as JSON Lines; whole at the end (:meth:`whole`), or piece by piece as the game goes
    (:meth:`header`, then :meth:`event` for each event, then :meth:`end`)."""

    def __init__(self, lang: Lang, name: str | None, json_out: bool, *, seed: int | None) -> None:
        self.lang = lang
        self.name = name
        self.json = json_out
        self.seed = seed
        """The seed the game drew for itself (shown so that ``--seed`` replays it), or None."""

    def header(self, walkers: Sequence[Walker]) -> list[str]:
        """The first lines: the seed drawn, and who the character is (none in JSON)."""
        if self.json:
            return []
        lines = list(seed_lines(self.seed, self.lang))
        if self.name is not None:
            lines += character_header(walkers, self.name, self.lang)
        return lines

    def event(self, event: Event) -> list[str]:
        """The lines of one event (none when the reader does not perceive it)."""
        if self.json:
            line = event_json_line(event, self.lang, self.name, seed=self.seed)
            return [] if line is None else [line]
        return list(event_lines(event, self.lang, self.name))

    def end(self, result: GameResult) -> list[str]:
        """The last lines: how the game ended, or what the character knows."""
        if self.json:
            return [outcome_json_line(result.outcome)]
        if self.name is not None:
            return list(character_end(result.walkers, self.name, self.lang))
        return list(outcome_lines(result.outcome, result.walkers, self.lang))

    def whole(self, result: GameResult) -> list[str]:
        """The whole log of a finished game."""
        if self.json:
            return list(json_lines(result, self.lang, self.name, seed=self.seed))
        if self.name is not None:
            return list(character_lines(result, self.name, self.lang, seed=self.seed))
        return list(gm_lines(result, self.lang, seed=self.seed))
