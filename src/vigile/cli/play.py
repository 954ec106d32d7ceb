"""``vigile play``: a terminal client of live play (:mod:`vigile.live`), saved as it goes.

``vigile play SCENARIO`` creates an encounter in the store (:mod:`vigile.store`) and loops on a
prompt; ``vigile play --resume ID`` picks a saved one up where it stopped. Each line typed is a
short command in the game's words (``move Kage 60 14 hidden``, ``kill Kage Daisuke``; for a
defender, LP-6: ``guard Kuro 50 20``, ``search Kuro 55 20``, ``hold Kuro``, ``alarm Kuro``,
``scatter Kuro 90``), turned into the action's JSON and handed to
:meth:`vigile.live.Encounter.act`, which checks it
(:func:`vigile.engine.live.parse_action`, :meth:`vigile.engine.game.Game.apply`), plays it and
appends it to the log: every accepted action is stored at once, a refused one changes nothing.
The events print as the GM's log does (:func:`vigile.io.views.event_lines`): every check with its
odds, its roll and its rule IDs; with ``--as NAME``, as that character perceives them.

The table's dice (``--dice given``): when an action needs a die, the check about to be rolled
(who rolls, the question, the difficulty and the exact chance) is printed, then the die is asked
for; the action is tried again with the dice so far, and stored only once it is complete.

Lines are read from standard input, so a script can be piped in; on a pipe each prompt and the
line read are echoed to standard output, so the output reads as the session did. ``quit`` and the
end of input (Ctrl-D) exit 0, Ctrl-C exits 130 (as every vigile command); the game is saved
either way, and the way to resume it is printed.
"""

from __future__ import annotations

import contextlib
import json
import math
import shlex
import sys
from collections.abc import Callable, Iterable, Sequence
from enum import StrEnum
from typing import TYPE_CHECKING, Annotated, Any

import typer

from vigile.checks.numbers import quoted
from vigile.cli.common import check_seed
from vigile.cli.options import LangOpt
from vigile.errors import InputError
from vigile.io.i18n import Lang, point_text, tr
from vigile.io.safe import printable

if TYPE_CHECKING:
    from vigile.engine.game import Game
    from vigile.engine.live import NeedDice, Refusal
    from vigile.live import Encounter
    from vigile.scene.reading import Format
    from vigile.store import EncounterRow, Store

SHORT_ID = 8
"""Characters of an encounter's id shown (any unique prefix is accepted back)."""
LOG_LINES = 20
"""Events shown by ``log`` without a number."""
SPEEDS = ("half", "fast", "hidden")
SURFACES = ("tile", "stone")
VOLUMES = ("whisper", "conversation", "animated")


class DiceMode(StrEnum):
    ROLLED = "rolled"
    GIVEN = "given"


DbOpt = Annotated[
    str | None,
    typer.Option(
        "--db",
        metavar="URL",
        help="Database: a URL (sqlite:///FILE, postgresql+psycopg://...) or a SQLite file "
        "(default: $VIGILE_DB, else vigile.db in the user's data directory).",
    ),
]


class PlayError(Exception):
    """A line that cannot be played as typed: a translated message, nothing stored."""

    def __init__(self, key: str, **params: object) -> None:
        super().__init__(key)
        self.key = key
        self.params = params

    def text(self, lang: Lang) -> str:
        return tr(self.key, lang, self.params)


# ---------------------------------------------------------------- encounters by id


def find_encounter(store: Store, wanted: str, lang: Lang) -> EncounterRow:
    """The encounter whose id is ``wanted`` or starts with it (live or archived)."""
    from vigile.store import UnknownEncounter

    key = wanted.strip().lower()
    if not key:
        raise UnknownEncounter(wanted)
    try:
        return store.encounter(key)
    except UnknownEncounter:
        pass
    rows = [
        row
        for archived in (False, True)
        for row in store.encounters(archived=archived)
        if row.id.startswith(key)
    ]
    if not rows:
        raise UnknownEncounter(wanted)
    if len(rows) > 1:
        ids = ", ".join(row.id[: SHORT_ID + 4] for row in rows[:10])
        raise InputError(
            tr("console.list.ambiguous", lang, {"prefix": repr(wanted), "ids": ids}), where="id"
        )
    return rows[0]


def resume_command(row: EncounterRow, db: str | None) -> str:
    """The command line that resumes the encounter."""
    command = f"vigile play --resume {row.id[:SHORT_ID]}"
    if db is not None:
        command += f" --db {shlex.quote(db)}"
    return command


# ---------------------------------------------------------------- lines into actions


def _number(text: str) -> int | float | str:
    """A coordinate or a count as typed; a text that is no number stays a text (the action's
    validation names the field)."""
    try:
        return int(text)
    except ValueError:
        pass
    try:
        value = float(text)
    except ValueError:
        return text
    return value if math.isfinite(value) else text


def _value(text: str) -> object:
    """The value of a ``key=value``: a boolean, a number, a list (``60,10``), JSON, or text."""
    lowered = text.lower()
    if lowered in ("true", "yes"):
        return True
    if lowered in ("false", "no"):
        return False
    if text[:1] in "[{":
        try:
            parsed: object = json.loads(text)
        except ValueError:
            return text
        return parsed
    if "," in text:
        return [_number(part.strip()) for part in text.split(",")]
    return _number(text)


def _dice(text: str, lang: Lang) -> list[int]:
    values: list[int] = []
    for part in text.replace(",", " ").split():
        if not part.isdigit() or len(part) > 6:
            raise PlayError("console.usage_line", usage=tr("console.usage.dice", lang))
        values.append(int(part))
    return values


class Names:
    """The encounter's actors and doors, matched whatever the case."""

    def __init__(self, game: Game) -> None:
        self.actors = [w.name for w in game.walkers]
        self.doors = list(game.board.door_index)

    def actor(self, typed: str) -> str:
        for name in self.actors:
            if name.casefold() == typed.casefold():
                return name
        raise PlayError("console.unknown_name", name=typed, names=", ".join(self.actors))

    def door(self, typed: str) -> str:
        for name in self.doors:
            if name.casefold() == typed.casefold():
                return name
        return typed  # the engine refuses it, naming the door (live.refusal.no_door)

    def maybe_actor(self, value: object) -> object:
        if isinstance(value, str):
            for name in self.actors:
                if name.casefold() == value.casefold():
                    return name
        return value


def _usage(key: str, verb: str, lang: Lang) -> PlayError:
    return PlayError("console.usage_line", usage=tr(key, lang, {"verb": verb}))


def build_action(
    verb: str, args: Sequence[str], names: Names, lang: Lang
) -> tuple[dict[str, Any], list[int]]:
    """The action's JSON for one command line (its verb and words), and the dice typed with it
    (``dice=4,2``). Only the words are read here; the action itself is checked by
    :func:`vigile.engine.live.parse_action` and the game."""
    words: list[str] = []
    extra: dict[str, object] = {}
    dice: list[int] = []
    for word in args:
        key, equals, value = word.partition("=")
        if equals and key and key.replace("-", "").replace("_", "").isalnum():
            if key == "dice":
                dice += _dice(value, lang)
            else:
                extra[key] = names.maybe_actor(_value(value))
        else:
            words.append(word)
    action = _words_action(verb, words, names, lang)
    action.update(extra)
    return action, dice


def _flags(words: list[str], allowed: Iterable[str]) -> tuple[list[str], list[str]]:
    """Split trailing option words (``hidden``, ``climb``, ``ranged``...) from the rest."""
    chosen = set(allowed)
    rest = [w for w in words if w.lower() not in chosen]
    flags = [w.lower() for w in words if w.lower() in chosen]
    return rest, flags


def _words_action(verb: str, words: list[str], names: Names, lang: Lang) -> dict[str, Any]:
    if verb == "end":
        if words:
            raise _usage("console.usage.still", "end", lang)
        return {"do": "end-turn"}
    if verb == "do":
        if len(words) < 2:
            raise _usage("console.usage.do", verb, lang)
        if words[1] == "end-turn":
            return {"do": "end-turn"}
        return {"do": words[1], "actor": names.actor(words[0]), **_do_words(words[2:])}
    if not words:
        raise _usage(_USAGES[verb], verb, lang)
    actor = names.actor(words[0])
    rest = words[1:]
    if verb in ("hide", "wait", "hold", "alarm"):
        if rest:
            raise _usage("console.usage.still", verb, lang)
        return {"do": "raise-alarm" if verb == "alarm" else verb, "actor": actor}
    if verb in ("guard", "search"):  # the GM's defender (LP-6)
        if len(rest) != 2:
            raise _usage("console.usage.point", verb, lang)
        key, do = ("to", "guard-move") if verb == "guard" else ("at", "search")
        return {"do": do, "actor": actor, key: [_number(w) for w in rest]}
    if verb == "scatter":
        if len(rest) != 1:
            raise _usage("console.usage.scatter", verb, lang)
        return {"do": "scatter", "actor": actor, "bearing": _number(rest[0])}
    if verb == "move":
        rest, flags = _flags(rest, (*SPEEDS, "climb"))
        if len(rest) != 2:
            raise _usage("console.usage.move", verb, lang)
        action: dict[str, Any] = {"do": "move", "actor": actor, "to": [_number(w) for w in rest]}
        speeds = [f for f in flags if f in SPEEDS]
        if len(speeds) > 1:
            raise _usage("console.usage.move", verb, lang)
        if speeds:
            action["speed"] = speeds[0]
        if "climb" in flags:
            action["climb"] = True
        return action
    if verb in ("open", "close"):
        if not rest:
            raise _usage("console.usage.door", verb, lang)
        return {"do": f"{verb}-door", "actor": actor, "door": names.door(" ".join(rest))}
    if verb == "grapple":
        rest, flags = _flags(rest, SURFACES)
        if len(rest) not in (0, 2) or len(flags) > 1:
            raise _usage("console.usage.grapple", verb, lang)
        action = {"do": "throw-grapple", "actor": actor}
        if rest:
            action["at"] = [_number(w) for w in rest]
        if flags:
            action["onto"] = flags[0]
        return action
    if verb in ("strike", "kill"):
        rest, flags = _flags(rest, ("ranged",))
        if len(rest) != 1:
            raise _usage("console.usage.target", verb, lang)
        action = {"do": verb, "actor": actor, "target": names.actor(rest[0])}
        if flags:
            action["ranged"] = True
        return action
    # speak
    if len(rest) == 3 and rest[1].lower() == "to":
        return {
            "do": "speak",
            "actor": actor,
            "volume": rest[0].lower(),
            "to": names.actor(rest[2]),
        }
    if len(rest) != 1:
        raise _usage("console.usage.speak", verb, lang)
    return {"do": "speak", "actor": actor, "volume": rest[0].lower()}


def _do_words(words: list[str]) -> dict[str, Any]:
    """``do``'s words after the action: bare words are flags set to true (``ranged``)."""
    return {word: True for word in words}


_USAGES = {
    "move": "console.usage.move",
    "hide": "console.usage.still",
    "wait": "console.usage.still",
    "hold": "console.usage.still",
    "alarm": "console.usage.still",
    "guard": "console.usage.point",
    "search": "console.usage.point",
    "scatter": "console.usage.scatter",
    "open": "console.usage.door",
    "close": "console.usage.door",
    "grapple": "console.usage.grapple",
    "strike": "console.usage.target",
    "kill": "console.usage.target",
    "speak": "console.usage.speak",
}
ACTION_VERBS = frozenset({*_USAGES, "do", "end"})


def words_of(line: str) -> list[str]:
    """The words of a line: quoted names stay whole (``"Lord Nagamasa"``), ``#`` starts a
    comment; a lone quote is a letter (``lord's door``)."""
    try:
        return shlex.split(line, comments=True)
    except ValueError:
        return line.split("#", 1)[0].split()


def describe(action: dict[str, Any]) -> str:
    """An action's JSON in one short line (``move Kage to=[60, 14] speed=hidden``)."""
    parts = [str(action.get("do", "?"))]
    if "actor" in action:
        parts.append(str(action["actor"]))
    parts += [
        f"{key}={json.dumps(value, ensure_ascii=False)}"
        for key, value in action.items()
        if key not in ("do", "actor")
    ]
    return " ".join(parts)


# ---------------------------------------------------------------- the session


def _at(x: float, y: float) -> dict[str, float]:
    """A point's parameters: rounded as vigile quotes them; the message writes them in the
    reader's language (``12,5`` in French)."""
    return {"x": quoted(x), "y": quoted(y)}


class Session:
    """One sitting at the table: reads lines, plays them, prints what happened."""

    def __init__(
        self,
        store: Store,
        encounter: Encounter,
        *,
        lang: Lang,
        character: str | None,
        db: str | None,
    ) -> None:
        self.store = store
        self.encounter = encounter
        self.lang = lang
        self.character = character
        self.db = db
        self.interactive = sys.stdin.isatty()
        self.game_over = encounter.game.outcome is not None
        if self.interactive:
            with contextlib.suppress(ImportError):  # not on every platform
                import readline  # noqa: F401  (line editing and history at the prompt)

    # -- output -----------------------------------------------------------------------------

    @staticmethod
    def write(lines: Iterable[str]) -> None:
        """Print lines, each escaped (:func:`~vigile.io.safe.printable`): a name typed at the
        prompt, an actor's or a door's, echoed in a refusal or a usage line, never drives the
        terminal."""
        for line in lines:
            sys.stdout.write(printable(line) + "\n")
        sys.stdout.flush()

    def say(self, key: str, **params: object) -> None:
        self.write([tr(key, self.lang, params)])

    def resume_hint(self) -> None:
        self.say("console.resume_hint", command=resume_command(self.encounter.row, self.db))

    def event_lines(self, events: Iterable[Any]) -> list[str]:
        from vigile.io.views import event_lines

        lines: list[str] = []
        for event in events:
            lines += event_lines(event, self.lang, self.character)
        return lines

    def outcome(self) -> None:
        """How the game ended, once, when it has just ended."""
        from vigile.io.views import character_end, outcome_lines

        game = self.encounter.game
        if game.outcome is None or self.game_over:
            self.game_over = game.outcome is not None
            return
        self.game_over = True
        if self.character is None:
            self.write(outcome_lines(game.outcome, game.walkers, self.lang))
        else:
            self.write(["", *character_end(game.walkers, self.character, self.lang)])

    def turn_key(self, key: str) -> str:
        """``key``, or its ``round`` form in a game whose vocabulary calls its turn a round
        (the d20 games, LP-1)."""
        from vigile.scene.vocabulary import vocabulary_of

        word = vocabulary_of(self.encounter.scenario.ruleset).turn.name
        return f"{key}_round" if word == "round" else key

    def situation(self) -> None:
        """The turn, the intruders and the defenders and where they are, who knows what
        (or, with ``--as``, what the character knows)."""
        game = self.encounter.game
        seq = self.encounter.state().seq
        self.write([""])
        self.say(
            self.turn_key("console.turn"),
            turn=game.turn,
            turns=game.scenario.turns,
            seq=seq,
            dice=self.encounter.row.dice,
        )
        if game.outcome is not None:
            self.say("console.over")
        if self.character is not None:
            self.character_view(self.character, events=False)
            return
        from vigile.scene.actors import Side

        for side, key in (
            (Side.ATTACKERS, "console.intruders"),
            (Side.DEFENDERS, "console.defenders"),
        ):
            self.say(key)
            for walker in game.walkers:
                if walker.side is side:
                    self.say(
                        "console.actor",
                        name=walker.name,
                        **_at(walker.x, walker.y),
                        flags=self._flags(walker),
                    )
        self.who()

    def _flags(self, walker: Any) -> str:
        flags = []
        if not walker.alive:
            flags.append(tr("console.dead", self.lang))
        elif walker.alert:
            flags.append(tr("console.alert", self.lang))
        if walker.moved and walker.alive:
            flags.append(tr("console.moved", self.lang))
        return f" ({', '.join(flags)})" if flags else ""

    def who(self) -> None:
        """Who knows what of whom (the GM's eyes; with ``--as``, the character's)."""
        if self.character is not None:
            self.character_view(self.character, events=False)
            return
        game = self.encounter.game
        lines = []
        for walker in game.walkers:
            known = {k: v for k, v in walker.awareness.items() if v.value != "unaware"}
            if known:
                items = "; ".join(
                    f"{k}: {tr('term.' + v.value, self.lang)}" for k, v in sorted(known.items())
                )
                lines.append(
                    "  "
                    + tr("engine.view.knows_of", self.lang, {"name": walker.name, "list": items})
                )
        if lines:
            self.write([tr("console.matrix", self.lang), *lines])
        else:
            self.say("console.nobody_knows")

    def character_view(self, name: str, *, events: bool = True) -> None:
        """What ``name`` knows: its place, the enemies it knows of, (its log)."""
        from vigile.io.views import character_header
        from vigile.live import character_view

        view = character_view(self.encounter, self.encounter.state(), name, self.lang)
        game = self.encounter.game
        if events:
            self.write(character_header(game.walkers, name, self.lang))
            self.write(self.event_lines_as(name, game.events))
            self.write([""])
        me = view["me"]
        flags = "" if me["alive"] else f" ({tr('console.dead', self.lang)})"
        self.say("console.me", name=name, **_at(*me["at"]), flags=flags)
        if not view["known"]:
            self.say("console.knows_nothing")
        for entry in view["known"]:
            where = ""
            if "at" in entry:
                where = " " + point_text(quoted(entry["at"][0]), quoted(entry["at"][1]), self.lang)
            elif "bearing" in entry:
                where = f" ({entry['bearing']}°)"
            state = tr("term." + entry["awareness"], self.lang)
            if entry.get("scouted"):  # unaware of it now, but its post known from scouting
                state = tr("console.scouted", self.lang)
            who = entry["name"] or tr("engine.player.someone", self.lang)
            self.say("console.knows", name=who, state=state, where=where)

    def event_lines_as(self, name: str, events: Iterable[Any]) -> list[str]:
        from vigile.io.views import event_lines

        return [line for event in events for line in event_lines(event, self.lang, name)]

    def table_view(self) -> None:
        from vigile.live import table_view

        view = table_view(self.encounter, self.encounter.state(), self.lang)
        self.say("console.table")
        for event in view["events"]:
            if event["event"] == "turn":
                self.write(["", tr("engine.view.turn", self.lang, {"turn": event["turn"]})])
            else:
                self.write([f"  {event['text']}"])
        self.write([""])
        self.say("console.intruders")
        for walker in view["intruders"]:
            flags = "" if walker.get("alive", True) else f" ({tr('console.dead', self.lang)})"
            self.say(
                "console.actor",
                name=walker["name"] or tr("engine.player.someone", self.lang),
                **_at(*walker["at"]),
                flags=flags,
            )

    # -- input ------------------------------------------------------------------------------

    def read(self, prompt: str) -> str | None:
        """One line, or None at the end of input. On a pipe the prompt and the line are
        echoed, so that the output reads as the session did."""
        if self.interactive:
            try:
                return input(prompt)
            except EOFError:
                sys.stdout.write("\n")
                return None
        line = sys.stdin.readline()
        if not line:
            return None
        text = line.rstrip("\r\n")
        sys.stdout.write(f"{prompt}{printable(text)}\n")
        sys.stdout.flush()
        return text

    def ask_die(self, need: NeedDice, index: int, count: int = 1) -> list[int] | None:
        """The table's dice for the check in ``need``: the ``count`` dice of its pool on one
        line (``6 1 3``; fewer are fine, the rest are asked next); None: the GM cancelled the
        action. EOFError at the end of input."""
        while True:
            key = "console.dice" if count > 1 else "console.die"
            line = self.read(
                tr(key, self.lang, {"index": index + 1, "sides": need.sides, "count": count})
            )
            if line is None:
                raise EOFError
            text = line.strip()
            if text.lower() in ("cancel", "c"):
                return None
            parts = text.replace(",", " ").split()
            if parts and all(p.isdigit() and 1 <= int(p) <= need.sides for p in parts):
                return [int(p) for p in parts]
            self.say("console.not_a_face", text=repr(text), sides=need.sides)

    def ask_bearing(self, need: NeedDice) -> float | None:
        """A patrol's scatter die (SK-G1): the bearing its arrow shows, in degrees; None: the
        GM cancelled the action."""
        while True:
            line = self.read(
                tr(
                    "console.bearing",
                    self.lang,
                    {"who": ", ".join(need.members), "rule": need.rule or ""},
                )
            )
            if line is None:
                raise EOFError
            text = line.strip()
            if text.lower() in ("cancel", "c"):
                return None
            try:
                value = float(text.replace(",", "."))
            except ValueError:
                value = -1.0
            if 0 <= value < 360 and text.replace(",", "").replace(".", "").isdigit():
                return value
            self.say("console.not_a_bearing", text=repr(text))

    def announce(self, need: NeedDice) -> None:
        """The check the next die is for: who rolls it, the question, the odds (the GM's
        eyes only: a character's view shows none of it)."""
        from vigile.io.text import summary_line

        verdict = need.verdict
        if verdict is None or need.who is None or self.character is not None:
            return
        self.say(
            "console.die_for",
            who=need.who,
            question=tr(verdict.question, self.lang),
            summary=summary_line(verdict, self.lang),
        )

    def odds(self, action: dict[str, Any]) -> None:
        """Before vigile rolls: each check the action will roll, with its exact odds (the GM's
        eyes only), as the web page's preview lists them; a check decided without dice says
        so. Nothing is printed for an action the rules refuse (the refusal follows)."""
        from vigile.io.text import summary_line

        if self.character is not None:
            return
        try:
            ahead = self.encounter.preview(action)
        except InputError:
            return
        if ahead.refusal is not None or ahead.error is not None:
            return
        for asked in ahead.checks:
            self.say(
                "console.odds_decided" if asked.decided else "console.odds",
                who=asked.who,
                dice=asked.dice(),
                question=tr(asked.verdict.question, self.lang),
                summary=summary_line(asked.verdict, self.lang),
            )

    # -- playing ----------------------------------------------------------------------------

    def act(self, action: dict[str, Any], dice: list[int]) -> None:
        """Play the action, asking for the table's dice as its checks need them (a pool on
        one line, no die for a check decided without dice, each patrol's scatter die); print
        its events. With vigile's dice, the odds of each check first. A refusal or a
        cancelled die stores nothing."""
        from vigile.engine.live import NeedDice, Refusal

        asked: tuple[object, ...] | None = None
        bearings: list[float] = []
        if self.encounter.row.dice != "given":
            self.odds(action)
        while True:
            try:
                played = self.encounter.act(action, dice=dice, bearings=bearings)
            except NeedDice as need:
                if need.kind == "scatter":
                    bearing = self.ask_bearing(need)
                    if bearing is None:
                        self.say("console.cancelled")
                        return
                    bearings = [*bearings, bearing]
                    continue
                key = self._check_key(need)
                if key != asked:
                    self.announce(need)
                    asked = key
                count = self.encounter.pool_left(action, dice, bearings)
                values = self.ask_die(need, need.index, count)
                if values is None:
                    self.say("console.cancelled")
                    return
                dice = [*dice, *values]
                continue
            except Refusal as refusal:
                self.refused(refusal)
                return
            except InputError as error:
                self.say("console.not_played", error=printable(str(error)))
                return
            break
        self.write(self.event_lines(played.events))
        self.say("console.stored", seq=played.record.seq)
        self.outcome()

    @staticmethod
    def _check_key(need: NeedDice) -> tuple[object, ...]:
        """What tells one check from the next one (the dice of a pool are asked one by one)."""
        verdict = need.verdict
        if verdict is None:
            return (need.who, need.index)
        return (need.who, verdict.check, verdict.question, verdict.difficulty, verdict.dice)

    def refused(self, refusal: Refusal) -> None:
        reason = tr(refusal.key, self.lang, refusal.params)
        if refusal.rule:
            reason += f" [{refusal.rule}]"
        self.say("console.refused", reason=reason)

    def undo(self) -> None:
        if not self.encounter.state().done:
            self.say("console.nothing_to_undo")
            return
        try:
            played = self.encounter.undo()
        except InputError as error:
            self.say("console.not_played", error=printable(str(error)))
            return
        assert played.undone is not None
        record = self.store.records(self.encounter.id, after=played.undone - 1, limit=1)[0]
        self.say("console.undone", seq=played.undone, action=describe(record.payload["action"]))
        self.game_over = self.encounter.game.outcome is not None
        self.situation()

    def log(self, args: list[str]) -> None:
        if len(args) > 1 or (args and not args[0].isdigit()):
            raise _usage("console.usage.log", "log", self.lang)
        count = int(args[0]) if args else LOG_LINES
        events = self.encounter.game.events
        if self.character is not None:
            from vigile.io.views import seen_by

            events = [e for e in events if seen_by(e, self.character)]
        self.write(self.event_lines(events[-count:] if count else []))

    def view(self, args: list[str]) -> None:
        if not args:
            self.situation()
            return
        if len(args) > 1:
            raise _usage("console.usage.view", "view", self.lang)
        if args[0].lower() == "table":
            self.table_view()
            return
        name = Names(self.encounter.game).actor(args[0])
        self.character_view(name)

    def one_line(self, line: str) -> bool:
        """Play one line; False to stop (``quit``)."""
        words = words_of(line)
        if not words:
            return True
        verb, args = words[0].lower(), words[1:]
        try:
            if verb in ("quit", "exit", "q"):
                return False
            commands: dict[str, Callable[[], None]] = {
                "help": lambda: self.say("console.help"),
                "?": lambda: self.say("console.help"),
                "undo": self.undo,
                "who": self.who,
                "log": lambda: self.log(args),
                "view": lambda: self.view(args),
            }
            if verb in commands:
                commands[verb]()
            elif verb in ACTION_VERBS:
                action, dice = build_action(verb, args, Names(self.encounter.game), self.lang)
                self.act(action, dice)
            else:
                self.say("console.unknown_command", command=repr(printable(words[0])))
        except PlayError as error:
            self.write([error.text(self.lang)])
        return True

    def loop(self) -> int:
        """Read and play lines until ``quit`` or the end of input (0), or Ctrl-C (130)."""
        try:
            while True:
                turn = self.encounter.game.turn
                line = self.read(tr(self.turn_key("console.prompt"), self.lang, {"turn": turn}))
                if line is None or not self.one_line(line):
                    break
        except EOFError:
            pass
        except KeyboardInterrupt:
            self.write([""])
            self.say("console.interrupted", seq=self.store.last_seq(self.encounter.id))
            self.resume_hint()
            return 130
        self.say("console.saved", seq=self.store.last_seq(self.encounter.id))
        self.resume_hint()
        return 0


# ---------------------------------------------------------------- the command


def _scenario_text(source: str) -> tuple[str, Format, str]:
    """The scenario's text, its format (by suffix) and the name to store: a file, or a
    bundled name."""
    from pathlib import Path

    from vigile.errors import ScenarioError
    from vigile.scene.loader import bundled_names, bundled_path
    from vigile.scene.reading import Refused, format_of, read_text

    path, shown = Path(source), source
    if source in bundled_names() and not path.exists():
        path = bundled_path(source)
        shown = path.name
    try:
        text = read_text(path)
    except Refused as refused:
        message = refused.message
        if message == "no such file":
            message += f" (bundled scenarios: {', '.join(bundled_names())})"
        raise ScenarioError(message, file=source, line=refused.line) from None
    return text, format_of(path), (Path(shown).name or shown)[:200]


def play(
    scenario: str | None,
    *,
    resume: str | None,
    db: str | None,
    seed: int | None,
    dice: DiceMode | None,
    lang: Lang,
    character: str | None,
) -> int:
    """Create or resume an encounter, show where it stands, and play it at the prompt."""
    from vigile.live import Encounter
    from vigile.store import Store

    if (scenario is None) == (resume is None):
        raise InputError("give a SCENARIO to start, or --resume ID to go on", where="play")
    if resume is not None:
        for given, option in ((seed, "--seed"), (dice, "--dice")):
            if given is not None:
                raise InputError(
                    "a resumed encounter keeps the seed and dice it was created with",
                    where=option,
                )
    check_seed(seed)
    with Store(db) as store:
        if scenario is not None:
            text, fmt, source = _scenario_text(scenario)
            encounter, _ = Encounter.create(
                store,
                text=text,
                fmt=fmt,
                source=source,
                seed=seed,
                dice=(dice or DiceMode.ROLLED).value,
            )
            row = encounter.row
        else:
            assert resume is not None
            row = find_encounter(store, resume, lang)
            encounter = Encounter(store, row.id)
        game = encounter.game
        if character is not None:
            character = _character(game, character)
        session = Session(store, encounter, lang=lang, character=character, db=db)
        if scenario is not None:
            session.say(
                "console.created",
                id=row.id[:SHORT_ID],
                name=row.name,
                ruleset=row.ruleset,
                dice=row.dice,
                seed=row.seed,
            )
            session.resume_hint()
            session.write(session.event_lines(game.events))
        else:
            session.say(
                "console.resumed",
                id=row.id[:SHORT_ID],
                name=row.name,
                ruleset=row.ruleset,
                dice=row.dice,
                seq=encounter.state().seq,
            )
            if row.archived:
                session.say("console.archived")
            session.write(session.event_lines(_this_turn(game)))
        session.situation()
        session.outcome()
        return session.loop()


def _character(game: Game, typed: str) -> str:
    """The character ``--as`` names (any case), or a one-line error listing the names."""
    try:
        return Names(game).actor(typed)
    except PlayError:
        names = ", ".join(w.name for w in game.walkers)
        raise InputError(
            f"no character called {typed!r}; the encounter has: {names}", where="--as"
        ) from None


def _this_turn(game: Game) -> list[Any]:
    """The events of the turn under way (from its ``turn`` event)."""
    events = game.events
    for index in range(len(events) - 1, -1, -1):
        if events[index].kind == "turn":
            return list(events[index:])
    return list(events)


def register(app: typer.Typer) -> None:
    """Add ``play`` to the main command."""

    @app.command(name="play")
    def play_command(
        scenario: Annotated[
            str | None, typer.Argument(help="A scenario file, or a bundled name.")
        ] = None,
        resume: Annotated[
            str | None,
            typer.Option(
                "--resume",
                metavar="ID",
                help="Go on with a saved encounter (an id "
                "or a unique prefix: vigile encounters list).",
            ),
        ] = None,
        db: DbOpt = None,
        seed: Annotated[
            int | None, typer.Option("--seed", help="Seed of the encounter's dice.")
        ] = None,
        dice: Annotated[
            DiceMode | None,
            typer.Option(
                "--dice",
                help="rolled: drawn (typed dice welcome); given: the "
                "table's dice, asked for one by one.",
            ),
        ] = None,
        lang: LangOpt = Lang.EN,
        as_name: Annotated[
            str | None,
            typer.Option("--as", metavar="NAME", help="Show only what NAME perceives."),
        ] = None,
    ) -> None:
        """Play a scenario live at a prompt, saved as it goes (--resume ID goes on)."""
        code = play(
            scenario, resume=resume, db=db, seed=seed, dice=dice, lang=lang, character=as_name
        )
        if code:
            raise typer.Exit(code)
