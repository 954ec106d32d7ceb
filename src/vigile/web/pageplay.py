"""The GM's action form: which fields each live action takes, the action built from the form,
and the checks it will trigger, with their exact odds, before anything is stored.

The form is built from the live actions themselves (:data:`vigile.engine.live.LIVE_MODELS`):
every field of every action, so an action a game adds shows up with its fields. A point
(``to``, ``at``) is the point clicked on the map (or typed); a ``target`` is an actor; a
``door`` a named door; an enumeration a menu; a flag a checkbox.

The preview plays the action on a throwaway copy of the game (:meth:`Encounter.preview
<vigile.live.Encounter.preview>`, :func:`copy.deepcopy`): every check it rolls is listed with
its question, exact odds and rules, a check decided whatever its dice (0 or 100%) as such, and
a stand-in die (a 1) lets the copy go on to the next. Which checks follow the first depends on
the dice; the list is the one a roll of 1s would give. Ending the turn lists the checks of the
end of the turn and the patrols' scatter dice. Nothing is stored.
"""

from __future__ import annotations

import re
import types
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any, Final, Literal, Union, get_args, get_origin

from pydantic import BaseModel

from vigile import registry
from vigile.awareness.vocabulary import Attitude
from vigile.engine.live import LIVE_MODELS, PLAN_ACTIONS, Refusal, live_models
from vigile.errors import InputError
from vigile.io.i18n import Lang, messages, tr
from vigile.io.json_out import verdict_json
from vigile.live import Encounter
from vigile.scene.actors import Side
from vigile.scene.vocabulary import vocabulary_of
from vigile.web import pagetext

MAX_PREVIEW: Final = 200
"""Checks listed at most (an end of turn with many guards asks for many)."""

FieldKind = Literal["point", "actor", "door", "choice", "flag", "text", "number"]


@dataclass(frozen=True)
class FormField:
    """One input of the action form."""

    name: str
    kind: FieldKind
    required: bool
    choices: tuple[str, ...] = ()
    default: object = None


@dataclass(frozen=True)
class ActionForm:
    """One live action's inputs."""

    do: str
    fields: tuple[FormField, ...]

    @property
    def needs_actor(self) -> bool:
        return any(f.name == "actor" for f in self.fields)


def _unwrap(annotation: Any) -> tuple[Any, bool]:
    """The annotation without ``| None``, and whether None was allowed."""
    origin = get_origin(annotation)
    if origin in (Union, types.UnionType):
        args = [a for a in get_args(annotation) if a is not type(None)]
        return (args[0] if len(args) == 1 else annotation), len(args) < len(get_args(annotation))
    return annotation, False


def _kind(name: str, annotation: Any) -> tuple[FieldKind, tuple[str, ...]]:
    inner, _ = _unwrap(annotation)
    while get_origin(inner) is not None and get_origin(inner) not in (tuple, Literal):
        args = get_args(inner)
        if not args:
            break
        inner = args[0]  # Annotated[...]
    if get_origin(inner) is tuple:
        return "point", ()
    if isinstance(inner, type) and issubclass(inner, Enum):
        return "choice", tuple(str(member.value) for member in inner)
    if get_origin(inner) is Literal:
        return "choice", tuple(str(a) for a in get_args(inner))
    if inner is bool:
        return "flag", ()
    if inner in (int, float):
        return "number", ()
    if name == "target":
        return "actor", ()
    if name == "door":
        return "door", ()
    return "text", ()


def action_forms(
    models: tuple[type[BaseModel], ...] = LIVE_MODELS,
) -> tuple[ActionForm, ...]:
    """Every live action but ``end-turn`` (a button of its own), with its inputs."""
    forms: list[ActionForm] = []
    for model in models:
        do = str(get_args(model.model_fields["do"].annotation)[0])
        if do == "end-turn":
            continue
        fields: list[FormField] = []
        for name, info in model.model_fields.items():
            if name == "do":
                continue
            kind, choices = _kind(name, info.annotation)
            default = info.default if not info.is_required() else None
            if isinstance(default, Enum):
                default = default.value
            fields.append(FormField(name, kind, info.is_required(), choices, default))
        forms.append(ActionForm(do, tuple(fields)))
    return tuple(forms)


FORMS: Final = {form.do: form for form in action_forms()}

PLAN_DOS: Final = frozenset(
    str(get_args(model.model_fields["do"].annotation)[0]) for model in PLAN_ACTIONS
)
"""The live actions that are plan actions: a game offers those its vocabulary names."""
LEG_FLAGS: Final = ("climb", "run")
"""A move's switches: a game offers those its vocabulary's ``moves`` names."""


@dataclass(frozen=True)
class GameForms:
    """The action form of one game's encounter: the actions, speeds and switches it plays,
    labelled in the reader's language with their rules (its
    :class:`~vigile.scene.vocabulary.Vocabulary`)."""

    forms: dict[str, ActionForm]
    """The live actions it offers, by ``do``; a move's ``speed`` lists its speeds only."""
    actions: dict[str, str]
    """The label of each of its plan actions, by ``do``."""
    choices: dict[str, dict[str, str]]
    """The label of each choice of a field (``speed``), by field, then by value."""
    flags: dict[str, str]
    """The label of each switch it plays (``run``), by field."""
    overlays: tuple[tuple[str, str], ...]
    """Its risk map's ways of moving: (word, label)."""
    turn: str = "turn"
    """What it calls its turn: ``turn``, or ``round`` (the d20 games, LP-1)."""


def with_doors(forms: Mapping[str, ActionForm], doors: Sequence[str]) -> dict[str, ActionForm]:
    """The forms a map can play: an action that names a door (open or close one) only where
    the map has a door to name (``doors``, the board's); elsewhere the GM would be offered an
    action whose door list is empty, and told to give a door when choosing it."""
    return {
        do: form
        for do, form in forms.items()
        if doors or not any(spec.kind == "door" for spec in form.fields)
    }


def game_forms(ruleset: str, lang: str) -> GameForms:
    """The action form of a ``ruleset`` encounter: the live actions every game plays (move,
    hide, wait, the GM's for a defender), its own plan actions, its speeds and switches."""
    words = vocabulary_of(ruleset)
    offered, moves = set(words.names("actions")), set(words.names("moves"))
    speeds = words.names("speeds")
    forms: dict[str, ActionForm] = {}
    own = {form.do: form for form in action_forms(live_models(ruleset)[len(LIVE_MODELS) :])}
    for do, form in {**FORMS, **own}.items():
        if do in PLAN_DOS and do not in offered:
            continue
        fields: list[FormField] = []
        for spec in form.fields:
            if spec.kind == "flag" and spec.name in LEG_FLAGS and spec.name not in moves:
                continue
            if spec.name == "speed":
                first = spec.default if spec.default in speeds else speeds[0]
                spec = replace(spec, choices=speeds, default=first)
            fields.append(spec)
        forms[do] = ActionForm(do, tuple(fields))
    return GameForms(
        forms=forms,
        actions={t.name: t.shown(lang) for t in words.actions},
        choices={"speed": {t.name: t.shown(lang) for t in words.speeds}},
        flags={t.name: t.shown(lang) for t in words.moves},
        overlays=tuple((t.name, t.shown(lang)) for t in words.overlays),
        turn=words.turn.name,
    )


MAX_DIGITS: Final = 12
"""Digits of a number typed in a form (either side of the decimal mark)."""
MAX_DEPTH: Final = 16
"""Nesting of a form's JSON ``action`` (an action is two or three deep)."""
MAX_JSON: Final = 10_000
"""Characters of a form's JSON ``action`` (a dice prompt's: a few hundred)."""
_DECIMAL: Final = re.compile(rf"[+-]?[0-9]{{1,{MAX_DIGITS}}}(?:[.,][0-9]{{1,{MAX_DIGITS}}})?")
_WHOLE: Final = re.compile(rf"[0-9]{{1,{MAX_DIGITS}}}")


class FormError(InputError):
    """A value typed wrong in a page's form, said in the reader's language (:meth:`said`):
    ``web.calc.KEY`` with the field's name and ``params``. ``str()`` is the English text,
    for the API's clients and the logs."""

    def __init__(self, key: str, where: str, **params: object) -> None:
        self.key = key
        self.params = params
        super().__init__(self._text(Lang.EN, where))
        self.where = where

    def _text(self, lang: Lang, field: str) -> str:
        shown = {
            name: pagetext.number(value, lang) if isinstance(value, float) else value
            for name, value in self.params.items()
        }
        return pagetext.text(f"calc.{self.key}", lang, field=field, **shown)

    def said(self, lang: Lang) -> str:
        """The error in ``lang``, naming the field by its label on the page."""
        return self._text(lang, _field_name(self.where or "", lang))


def _field_name(where: str, lang: Lang) -> str:
    """The name of a form's field as the page labels it: the point's ``x`` and ``y`` as they
    are, the patrols' scatter dice, an action's field by its label."""
    if where in ("x", "y"):
        return where
    if where == "bearings":
        return pagetext.text("bearings_so_far", lang)
    return str(pagetext.translator(lang)(f"field.{where}"))


def number(value: str, where: str) -> float:
    """A number typed in a form: ASCII digits only (``12``, ``-3.5``, ``7,5``), at most
    :data:`MAX_DIGITS` each side of the mark; no exponent, ``nan``, ``inf``, ``_`` or other
    scripts' digits."""
    text = value.strip()
    if not _DECIMAL.fullmatch(text):
        raise FormError("not_number", where, value=value[:20] + "…" if len(value) > 20 else value)
    return float(text.replace(",", "."))


def whole(value: str, where: str, low: int, high: int) -> int:
    """A whole number typed in a form, from ``low`` to ``high``: ASCII digits only, at most
    :data:`MAX_DIGITS` of them (``²``, ``٣``, ``1_0`` and 5,000 digits are refused, not
    parsed)."""
    text = value.strip()
    if not _WHOLE.fullmatch(text) or not low <= int(text) <= high:
        raise InputError(f"{_shown(value)} is not a whole number from {low} to {high}", where=where)
    return int(text)


MAX_BEARINGS: Final = 100
"""Scatter dice one request may give (one per patrol)."""


def bearings(text: str) -> list[float]:
    """Scatter dice typed in a form: bearings in degrees, from 0 up to 360, separated by
    spaces or semicolons (a comma may be a decimal mark: ``37,5``)."""
    parts = text.replace(";", " ").split()
    if len(parts) > MAX_BEARINGS:
        raise FormError("many_bearings", "bearings", count=MAX_BEARINGS)
    return [bearing(part, "bearings") for part in parts]


def bearing(value: str, where: str) -> float:
    """One bearing typed in a form, in degrees from 0 up to 360 (a scatter die, SK-G1)."""
    found = number(value, where)
    if not 0 <= found < 360:
        raise FormError("not_bearing", where, value=found)
    return found


def faces(text: str, sides: str) -> list[int]:
    """The faces of a pool typed in one field (``6 1 3``, or ``6,1,3``), each from 1 to the
    ``sides`` of the die asked for (none said: up to a d100's, the rules check the rest):
    ASCII digits only."""
    most = whole(sides, "sides", 1, 100) if sides.strip() else 100
    parts = text.replace(",", " ").split()
    if len(parts) > MAX_BEARINGS:
        raise InputError(f"at most {MAX_BEARINGS} dice at once", where="dice")
    return [whole(part, "dice", 1, most) for part in parts]


def bearings_text(values: list[float]) -> str:
    """Bearings as :func:`bearings` reads them back, exactly (a hidden field)."""
    return " ".join(f"{value:.9f}".rstrip("0").rstrip(".") for value in values)


def _shown(value: str) -> str:
    """A form's value in a message: quoted, and cut short."""
    return repr(value[:20] + "…" if len(value) > 20 else value)


def check_json(text: str, where: str) -> None:
    """Refuse a form's JSON longer than :data:`MAX_JSON` characters or nested deeper than
    :data:`MAX_DEPTH` (brackets and braces outside strings), before anything parses it: a
    parser asked to recurse 100,000 deep fails, so it is never asked."""
    if len(text) > MAX_JSON:
        raise InputError(f"longer than {MAX_JSON:,} characters", where=where)
    depth = 0
    inside = escaped = False
    for char in text:
        if inside:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                inside = False
        elif char == '"':
            inside = True
        elif char in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                raise InputError(f"nested more than {MAX_DEPTH} deep", where=where)
        elif char in "]}":
            depth -= 1


def _own_form(do: str) -> ActionForm | None:
    """The form of a game's own plan action (its plug-in's ``plan_actions``: the skirmish's
    ``throw-grapple``), by ``do``; the encounter's game then takes it or refuses it."""
    for ruleset in registry.names():
        for form in action_forms(live_models(ruleset)[len(LIVE_MODELS) :]):
            if form.do == do:
                return form
    return None


def action_from_form(form: Mapping[str, str]) -> dict[str, Any]:
    """The action's JSON from the form's fields (``do``, ``actor``, ``x``/``y`` for its
    point, ``<field>`` for the others); only the chosen action's fields are read."""
    do = form.get("do", "")
    if do == "end-turn":
        return {"do": "end-turn"}
    chosen = FORMS.get(do) or _own_form(do)
    if chosen is None:
        return {"do": do}
    data: dict[str, Any] = {"do": do}
    for spec in chosen.fields:
        key = spec.name if spec.name == "actor" else f"{do}.{spec.name}"
        if spec.kind == "point":
            x, y = form.get("x", "").strip(), form.get("y", "").strip()
            if x and y:
                data[spec.name] = [number(x, "x"), number(y, "y")]
            continue
        value = form.get(key, "").strip()
        if spec.kind == "flag":
            if value in ("on", "true", "1"):
                data[spec.name] = True
            continue
        if not value:
            continue
        if spec.kind == "number":
            data[spec.name] = (
                bearing(value, spec.name) if spec.name == "bearing" else number(value, spec.name)
            )
        else:
            data[spec.name] = value
    return data


def missing(data: Mapping[str, Any], lang: Lang) -> str | None:
    """What the form still lacks for its action, in the reader's words (the point, to click
    on the map; a required field left empty), or None: the GM is told so, not the parser's
    ``action.move.to: Field required`` (English on a French page)."""
    do = str(data.get("do", ""))
    chosen = FORMS.get(do) or _own_form(do)
    if chosen is None:
        return None
    t = pagetext.translator(lang)
    names = [
        f"{t('point')} ({t('point_hint')})" if spec.kind == "point" else t(f"field.{spec.name}")
        for spec in chosen.fields
        if spec.required and spec.name not in data
    ]
    return t("calc.missing", names=", ".join(names)) if names else None


@dataclass
class Preview:
    """What the action will do, before it is played."""

    action: dict[str, Any]
    checks: list[dict[str, Any]] = field(default_factory=list)
    """Each check the action rolls, in order: ``who``, ``check`` (the verdict before the roll,
    :func:`~vigile.io.json_out.verdict_json`), ``dice`` (``3d6``), ``count`` (its faces) and
    ``decided`` (its chance is 0 or 1: no die asked, :func:`~vigile.engine.live.decided`)."""
    later: list[dict[str, Any]] = field(default_factory=list)
    """The checks ending the turn would then roll (asked with ``then_end``), as :attr:`checks`."""
    patrols: list[list[str]] = field(default_factory=list)
    """The patrols whose scatter die moves them as the next turn begins, in order."""
    patrol_rule: str | None = None
    refused: str | None = None
    """Why the rules refuse it, in the reader's language (with the rule ID)."""
    rule: str | None = None
    error: str | None = None
    """The form is incomplete or wrong."""
    truncated: bool = False


def refusal_text(error: Refusal, lang: Lang) -> str:
    """The refusal in the reader's language; the action it names (LP-1's round economy: a
    ``do``) in the action menu's words, quoted in French (« frapper »), where the menu has it."""
    params = dict(error.params)
    action = params.get("action")
    label = messages(lang).get(f"web.do.{action}") if isinstance(action, str) else None
    if label:
        params["action"] = f"« {label} »" if lang is Lang.FR else label
    return tr(error.key, lang, params) + (f" [{error.rule}]" if error.rule else "")


def rules_of(check: dict[str, Any]) -> list[str]:
    """The rule IDs a check's verdict cites (its notes, then its modifiers), once each: what
    decides a check with no dice."""
    found = [n["rule"] for n in check.get("notes", [])] + [
        m["rule"] for m in check.get("modifiers", [])
    ]
    return list(dict.fromkeys(rule for rule in found if rule))


def preview(
    encounter: Encounter, data: dict[str, Any], lang: Lang, *, then_end: bool = False
) -> Preview:
    """The checks ``data`` would trigger now, each with its exact odds, and the patrols' scatter
    dice it would draw (:meth:`~vigile.live.Encounter.preview`: on a copy of the game, with the
    table's dice as stand-ins); nothing is stored, nothing changes."""
    shown = Preview(action=data)
    try:
        ahead = encounter.preview(data, then_end=then_end)
    except InputError as error:
        shown.error = str(error)
        return shown
    for asked in ahead.checks[:MAX_PREVIEW]:
        check = verdict_json(asked.verdict, lang)
        shown.checks.append(
            {
                "who": asked.who,
                "check": check,
                "rules": rules_of(check),
                "dice": asked.dice(),
                "count": asked.faces,
                "decided": asked.decided,
            }
        )
    shown.truncated = len(ahead.checks) > MAX_PREVIEW
    if ahead.ending is not None:
        shown.later = shown.checks[ahead.ending :]
        shown.checks = shown.checks[: ahead.ending]
    shown.patrols = ahead.patrols
    shown.patrol_rule = ahead.patrol_rule
    if ahead.refusal is not None:
        shown.refused = refusal_text(ahead.refusal, lang)
        shown.rule = ahead.refusal.rule
    elif ahead.error is not None:
        shown.error = str(ahead.error)
    return shown


@dataclass(frozen=True)
class Reach:
    """How far an actor may still move this turn, as the game says (the map's ruler draws it
    as a range round the actor): the web holds no rule, it asks the game."""

    actor: str
    x: float
    y: float
    left: float
    """How far it may still move now: 0 where the game refuses it any move."""
    rate: float
    """Its move at this speed in one turn (the game's :meth:`~vigile.engine.game.Game.move_rate`,
    or :meth:`~vigile.engine.game.Game.guard_rate` for a defender moved by the GM)."""
    unit: str
    refused: str | None = None
    """Why the game refuses it a move now (a move that stays where it stands, tried on a copy)."""


def reach(encounter: Encounter, actor: str, speed: str, run: bool, lang: Lang) -> Reach:
    """What is left of ``actor``'s move this turn at ``speed``: the game's rate, or 0 where
    the game refuses it a move now (it has moved, it stands immobile...)."""
    with encounter.reading() as replayed:
        game = replayed.game
        walker = game.by_name.get(actor)
        if walker is None:
            raise InputError(f"no actor named {_shown(actor)}", where="actor")
        guard = walker.side is Side.DEFENDERS
        try:
            attitude = Attitude(speed) if speed else Attitude.HALF
        except ValueError:
            raise InputError(f"{_shown(speed)} is not a speed", where="speed") from None
        try:
            rate = game.guard_rate(walker) if guard else game.move_rate(walker, attitude, run=run)
        except Refusal as refusal:
            return Reach(actor, walker.x, walker.y, 0.0, 0.0, encounter.scenario.units.value,
                         refusal_text(refusal, lang))  # fmt: skip
        at = [walker.x, walker.y]
    probe: dict[str, Any] = {"do": "guard-move" if guard else "move", "actor": actor, "to": at}
    if not guard:
        probe |= {"speed": attitude.value} | ({"run": True} if run else {})
    tried = preview(encounter, probe, lang)
    blocked = tried.refused or tried.error
    return Reach(
        actor=actor,
        x=at[0],
        y=at[1],
        left=0.0 if blocked else float(rate),
        rate=float(rate),
        unit=encounter.scenario.units.value,
        refused=blocked,
    )
