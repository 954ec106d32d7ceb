"""Plain-text explanation of a verdict, in French or English: the lines a GM reads."""

from __future__ import annotations

from fractions import Fraction
from typing import Literal

from vigile.checks.numbers import fraction_text
from vigile.checks.numbers import percent_text as percent
from vigile.checks.verdict import Line, Modifier, Verdict
from vigile.dice.roll import Roll
from vigile.io.i18n import Lang, tr
from vigile.io.safe import printable


def percent_text(chance: Fraction, lang: Lang) -> str:
    """The chance in percent, rounded for display only (French: ``12,50 %``)."""
    return percent(chance, comma=lang is Lang.FR)


def modifier_line(modifier: Modifier, lang: Lang, dice_kind: str = "d6") -> str:
    """``+1  1 partition between listener and source [SK-N5]`` (with house/companion marks)."""
    if modifier.kind == "base":
        value = tr("render.base", lang, {"value": modifier.value})
    else:
        value = f"{modifier.value:+d}"
        if modifier.kind == "die":
            key = "render.die_short" if dice_kind == "d6" else "render.roll_short"
            value = tr(key, lang, {"bonus": modifier.value})
    text = f"{value:<10} {tr(modifier.reason, lang, modifier.params)} [{modifier.rule}]"
    return text + _marks(modifier.overridden, modifier.companion, lang)


def note_line(note: Line, lang: Lang) -> str:
    return f"[{note.rule}] {tr(note.reason, lang, note.params)}" + _marks(
        False, note.companion, lang
    )


def _marks(overridden: bool, companion: bool, lang: Lang) -> str:
    marks = ""
    if overridden:
        marks += " " + tr("render.house_rule", lang)
    if companion:
        marks += " " + tr("render.companion", lang)
    return marks


def difficulty_line(verdict: Verdict, lang: Lang) -> str | None:
    """``Difficulty 5+ · 2 dice · +1 to each die: a die needs 4+``; None where no roll applies."""
    if verdict.automatic:
        return tr("render.automatic", lang)
    if verdict.impossible:
        return tr("render.impossible", lang)
    if verdict.difficulty is None:
        return None
    if verdict.dice_kind == "d20":
        return tr(
            "render.d20_dc",
            lang,
            {
                "dc": verdict.difficulty,
                "bonus": verdict.die_bonus,
                "target": verdict.difficulty - verdict.die_bonus,
            },
        )
    parts = [tr("render.difficulty", lang, {"difficulty": verdict.difficulty})]
    if verdict.members:
        parts.append(tr("render.party", lang, {"n": len(verdict.members)}))
        return " · ".join(parts)
    if verdict.dice:
        key = "render.dice_one" if verdict.dice == 1 else "render.dice_many"
        parts.append(tr(key, lang, {"n": verdict.dice}))
    if verdict.die_bonus:
        parts.append(tr("render.die_bonus", lang, {"bonus": verdict.die_bonus}))
    target = verdict.target
    if target is not None and target >= 7:
        need = tr("render.needs_chain", lang, {"count": target - 5})
    else:
        need = tr("render.needs", lang, {"target": target})
    return " · ".join(parts) + tr("render.sep", lang) + need


def faces_text(roll: Roll) -> str:
    """``2, 6`` for two dice; ``6→6`` for a die whose six was rolled again (SK-D3), or a d20
    rolled again to settle a tie (DD-20)."""
    return ", ".join("→".join(str(f) for f in die.faces) for die in roll.dice)


def roll_line(verdict: Verdict, lang: Lang) -> str | None:
    if verdict.roll is None:
        return None
    key = "render.roll_given" if verdict.roll.given else "render.roll"
    return tr(key, lang, {"faces": faces_text(verdict.roll)})


def outcome_line(verdict: Verdict, lang: Lang) -> str | None:
    if verdict.outcome is None:
        return None
    return tr("render.outcome", lang, {"outcome": tr(verdict.outcome, lang)})


def header_line(verdict: Verdict, lang: Lang) -> str:
    return tr(
        "render.header",
        lang,
        {
            "ruleset": tr(f"ruleset.{verdict.ruleset}", lang),
            "check": tr(f"check.{verdict.ruleset}.{verdict.check}", lang),
            "question": tr(verdict.question, lang),
        },
    )


def chance_line(verdict: Verdict, lang: Lang) -> str:
    return tr(
        "render.chance",
        lang,
        {"fraction": fraction_text(verdict.chance), "percent": percent_text(verdict.chance, lang)},
    )


def member_lines(member: Verdict, group: Verdict, lang: Lang) -> list[str]:
    """The lines of one character of a party: its own modifiers, then difficulty, chance,
    roll and outcome on one line."""
    label = tr(member.member_label, lang, member.member_params) if member.member_label else ""
    own = [
        "    " + modifier_line(m, lang, member.dice_kind)
        for m in member.modifiers
        if m not in group.modifiers
    ]
    return [tr("render.member", lang, {"label": label, "line": summary_line(member, lang)}), *own]


def summary_line(verdict: Verdict, lang: Lang) -> str:
    """Difficulty, chance, roll and outcome on one line (a party member, a check in a log)."""
    parts = (
        difficulty_line(verdict, lang),
        chance_line(verdict, lang),
        roll_line(verdict, lang),
        outcome_line(verdict, lang),
    )
    return " · ".join(p for p in parts if p)


View = Literal["gm", "player"]


def explain(
    verdict: Verdict, lang: Lang, *, hint_roll: bool = False, view: View = "gm"
) -> list[str]:
    """Every line of the explanation, in order: question, notes, modifiers, difficulty,
    chance, roll and outcome (and each party member's own line).

    The player view shows only what the acting character perceives: the question, its
    ``player_notes`` and the outcome as it perceives it; no odds, no secret roll.

    What the user typed into a line (a GM's ``--dc-mod 2:LABEL``) is printed escaped
    (:func:`~vigile.io.safe.printable`): no line drives the terminal.
    """
    return [printable(line) for line in _explain(verdict, lang, hint_roll=hint_roll, view=view)]


def _explain(verdict: Verdict, lang: Lang, *, hint_roll: bool, view: View) -> list[str]:
    lines = [header_line(verdict, lang)]
    if view == "player":
        lines += ["  " + note_line(n, lang) for n in verdict.player_notes]
        key = verdict.player_outcome or verdict.outcome
        if key is not None:
            lines.append(tr("render.outcome", lang, {"outcome": tr(key, lang)}))
        return lines
    lines += ["  " + note_line(n, lang) for n in verdict.notes if not n.sequel]
    lines += ["  " + modifier_line(m, lang, verdict.dice_kind) for m in verdict.modifiers]
    for line in (difficulty_line(verdict, lang), chance_line(verdict, lang)):
        if line:
            lines.append(line)
    for member in verdict.members:
        lines += member_lines(member, verdict, lang)
    for line in (roll_line(verdict, lang), outcome_line(verdict, lang)):
        if line:
            lines.append(line)
    lines += [note_line(n, lang) for n in verdict.notes if n.sequel]
    if hint_roll and verdict.outcome is None:
        lines.append(tr("render.not_rolled", lang))
    if verdict.state is not None:
        lines.append(tr("render.state", lang, {"state": verdict.state.value}))
    return lines
