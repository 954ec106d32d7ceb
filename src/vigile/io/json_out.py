"""The JSON form of a verdict: stable keys that scripts, the web API and VTT modules rely on."""

from __future__ import annotations

from dataclasses import fields
from fractions import Fraction
from typing import Any

from vigile.awareness.ladder import AwarenessState
from vigile.checks.numbers import fraction_text
from vigile.checks.verdict import Figures, Opposed, Verdict
from vigile.dice.roll import Die
from vigile.io.i18n import Lang, tr
from vigile.io.text import View, explain, note_line


def verdict_json(
    verdict: Verdict, lang: Lang, *, explanation: bool = True, view: View = "gm"
) -> dict[str, Any]:
    """One JSON object per verdict (see the README for the keys).

    ``chance`` is exact (``"p/q"``, ``"0"`` or ``"1"``); ``chance_percent`` is for display.
    The player view keeps only what the acting character perceives.
    """
    if view == "player":
        key = verdict.player_outcome or verdict.outcome
        return {
            "ruleset": verdict.ruleset,
            "check": verdict.check,
            "view": "player",
            "question": tr(verdict.question, lang),
            "outcome": None if key is None else tr(key, lang),
            "explanation": explain(verdict, lang, view="player"),
        }
    data: dict[str, Any] = {
        "ruleset": verdict.ruleset,
        "check": verdict.check,
        "question": tr(verdict.question, lang),
        "difficulty": verdict.difficulty,
        "die_bonus": verdict.die_bonus,
        "dice": verdict.dice,
        "modifiers": [
            {
                "value": m.value,
                "kind": m.kind,
                "reason": tr(m.reason, lang, m.params),
                "rule": m.rule,
                "source": m.source,
                "house_rule": m.overridden,
                "companion": m.companion,
            }
            for m in verdict.modifiers
        ],
        "notes": [{"rule": n.rule, "text": note_line(n, lang)} for n in verdict.notes],
        "chance": fraction_text(verdict.chance),
        "chance_percent": round(float(verdict.chance) * 100, 4),
        "automatic": verdict.automatic,
        "impossible": verdict.impossible,
        "roll": _roll(verdict, lang),
        "success": verdict.success,
        "outcome": None if verdict.outcome is None else tr(verdict.outcome, lang),
        "state": None if verdict.state is None else verdict.state.value,
    }
    data |= figures_json(verdict.figures)
    if verdict.members_key == "observers" and verdict.members:
        data["noticed_by"] = verdict.noticed_by
    if verdict.members:
        data[verdict.members_key] = [
            {
                "label": tr(m.member_label, lang, m.member_params) if m.member_label else None,
                **verdict_json(m, lang, explanation=False),
            }
            for m in verdict.members
        ]
    if explanation:
        data["explanation"] = explain(verdict, lang)
    return data


_FIGURE_KEYS = {"miss_rolls": "rolls"}
"""JSON keys that differ from the field's name."""


def figures_json(figures: Figures) -> dict[str, Any]:
    """The figures a check reports, each that is not None: exact chances as ``"p/q"``, states
    by name, the other side of an opposed check as ``<skill>_roll`` (and ``_bonus``,
    ``_result`` where its bonus is one number)."""
    data: dict[str, Any] = {}
    for spec in fields(figures):
        value = getattr(figures, spec.name)
        if value is None:
            continue
        key = _FIGURE_KEYS.get(spec.name, spec.name)
        if isinstance(value, Opposed):
            if value.bonus is not None:
                data[f"{value.skill}_bonus"] = value.bonus
            data[f"{value.skill}_roll"] = value.face
            if value.bonus is not None:
                data[f"{value.skill}_result"] = value.result
        elif isinstance(value, Fraction):
            data[key] = fraction_text(value)
        elif isinstance(value, AwarenessState):
            data[key] = value.value
        else:
            data[key] = value
    return data


def die_json(die: Die) -> dict[str, Any]:
    """One die: its faces (all of them), its success, size, role and what became of each face."""
    return {
        "faces": list(die.faces),
        "success": die.success,
        "sides": die.sides,
        "role": die.role,
        "status": die.status,
        "face_status": [face.status for face in die.rolled],
    }


def _roll(verdict: Verdict, lang: Lang) -> dict[str, Any] | None:
    roll = verdict.roll
    if roll is None:
        return None
    return {
        "dice": [die_json(d) for d in roll.dice],
        "given": roll.given,
        "success": roll.success,
        "outcome": None if verdict.outcome is None else tr(verdict.outcome, lang),
    }
