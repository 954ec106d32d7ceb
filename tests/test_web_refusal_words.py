"""A refusal the GM's page shows names the action in the page's words, not its ``do``: a
French GM reads « frapper », not "strike" (LP-1's round economy, live.refusal.economy_*)."""

from __future__ import annotations

from vigile.engine.live import Refusal
from vigile.io.i18n import Lang
from vigile.web.pageplay import refusal_text


def economy(action: str) -> Refusal:
    # Ix has spent his standard action this round (LP-1): 0 standard and 1 move action left
    return Refusal(
        "live.refusal.economy_standard",
        f"Ix cannot {action} now",
        rule="LP-1",
        name="Ix",
        action=action,
        standard=0,
        move=1,
    )


def test_a_french_refusal_names_the_action_in_french() -> None:
    shown = refusal_text(economy("strike"), Lang.FR)
    assert shown == (
        "Ix ne peut pas faire « frapper » maintenant (une action simple) : il lui reste ce "
        "round 0 action(s) simple(s) et 1 action(s) de mouvement [LP-1]"
    )
    assert "« lancer invisibilité »" in refusal_text(economy("cast-invisibility"), Lang.FR)


def test_an_english_refusal_names_the_action_in_english() -> None:
    shown = refusal_text(economy("cast-invisibility"), Lang.EN)
    assert shown.startswith("Ix cannot cast invisibility now (a standard action)"), shown
    assert shown.endswith("[LP-1]")


def test_an_action_with_no_label_keeps_its_name() -> None:
    # a running move is costed as "run" (LP-1), a word the action menu has no entry for
    assert "Ix cannot run now" in refusal_text(economy("run"), Lang.EN)
