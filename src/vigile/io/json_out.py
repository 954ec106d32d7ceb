"""The JSON form of a verdict: stable keys that scripts, the web API and VTT modules rely on."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from vigile.checks.verdict import Verdict
from vigile.io.i18n import Lang, tr
from vigile.io.text import View, explain, fraction_text, note_line


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
        "difficulty": None if verdict.automatic or verdict.impossible else verdict.difficulty,
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
    for key, value in verdict.extra.items():
        data[key] = fraction_text(value) if isinstance(value, Fraction) else value
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


def _roll(verdict: Verdict, lang: Lang) -> dict[str, Any] | None:
    roll = verdict.roll
    if roll is None:
        return None
    return {
        "dice": [{"faces": list(d.faces), "success": d.success} for d in roll.dice],
        "given": roll.given,
        "success": roll.success,
        "outcome": None if verdict.outcome is None else tr(verdict.outcome, lang),
    }
