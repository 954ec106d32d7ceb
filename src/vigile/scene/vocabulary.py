"""A game's words for the pages: its ways of moving, its actions and its stats.

The GM page and the editor offer what the scenario's game plays, not the union of every game:
a D&D 3.5 map offers "still, at most half speed, more than half speed" and "runs (DD-5,
DD-20)", a skirmish map "hidden, cover to cover (SK-V3)" and a grapple. Each game's plug-in
names its :class:`Vocabulary` (:attr:`vigile.registry.GamePlugin.vocabulary`); a plug-in that
names none gets :func:`shared_vocabulary`, the words every game's scenario may write.

Each :class:`Term` is the word the scenario writes (``half``, ``attack-square``,
``bonuses.spot``), its label in English and French, and the rule IDs that play it, so a page
shows "runs (DD-5, DD-20)" in the reader's language.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, get_args

from vigile import registry
from vigile.awareness.vocabulary import Attitude

LANGS = ("en", "fr")
"""The languages a term is labelled in."""


@dataclass(frozen=True)
class Term:
    """One word of a game: what the scenario writes, its labels and the rules that play it."""

    name: str
    """The word as a scenario or an action writes it (``half``, ``run``, ``bonuses.spot``)."""
    en: str
    """Its label in English."""
    fr: str
    """Its label in French."""
    rules: tuple[str, ...] = ()
    """The IDs of the rules that play it (RULES.md, or the plug-in's own)."""

    def label(self, lang: str) -> str:
        """The label in ``lang`` (``fr``; English otherwise)."""
        return self.fr if lang == "fr" else self.en

    def shown(self, lang: str) -> str:
        """The label with its rules: ``runs (DD-5, DD-20)``."""
        label = self.label(lang)
        return f"{label} ({', '.join(self.rules)})" if self.rules else label

    def page(self, lang: str) -> dict[str, Any]:
        """What a page's script reads: the word, its label with its rules, the rules."""
        return {"name": self.name, "label": self.shown(lang), "rules": list(self.rules)}


@dataclass(frozen=True)
class Vocabulary:
    """What a game's pages offer: each list in the order the menus show it."""

    speeds: tuple[Term, ...]
    """A leg's or a live move's ``speed``: the :class:`~vigile.awareness.vocabulary.Attitude`
    values the game plays (the first is the default shown)."""
    moves: tuple[Term, ...] = ()
    """The flags of a leg or a live move the game plays (``climb``, ``run``)."""
    actions: tuple[Term, ...] = ()
    """The plan actions the game plays, by ``do`` (``attack-square``)."""
    stats: tuple[Term, ...] = ()
    """The actor fields the editor's actor form sets: a field, or a dotted path into one
    (``dice``, ``bonuses.spot``)."""
    ways: tuple[Term, ...] = ()
    """How the intruder moves for the game's risk map (its ``riskmap`` hook's ``attitude``);
    empty: the :attr:`speeds`."""
    turn: Term = Term("turn", "turn", "tour")
    """What the game calls its turn (the d20 games: a ``round``, LP-1), as the GM page says it."""

    @property
    def overlays(self) -> tuple[Term, ...]:
        """The risk map's ways of moving (:attr:`ways`, else :attr:`speeds`)."""
        return self.ways or self.speeds

    def names(self, part: str) -> tuple[str, ...]:
        """The words of one list (``speeds``, ``moves``, ``actions``, ``stats``, ``overlays``)."""
        terms: tuple[Term, ...] = getattr(self, part)
        return tuple(term.name for term in terms)

    def page(self, lang: str) -> dict[str, list[dict[str, Any]]]:
        """Every list, as a page's script reads it (labels in ``lang``)."""
        return {
            part: [term.page(lang) for term in getattr(self, part)]
            for part in ("speeds", "moves", "actions", "stats", "overlays")
        }


SHARED_SPEEDS = (
    Term("immobile", "still", "immobile"),
    Term("half", "at most half speed", "demi-vitesse au plus"),
    Term("fast", "more than half speed", "plus que la demi-vitesse"),
)
"""The ways of moving a game with no vocabulary of its own is offered."""
SHARED_ACTIONS = (
    Term("strike", "strike", "frapper", ("LP-7",)),
    Term("kill", "kill", "tuer", ("LP-7",)),
    Term("open-door", "open a door", "ouvrir une porte"),
    Term("close-door", "close a door", "fermer une porte"),
)
"""The actions a game with no vocabulary of its own is offered (then its own, by ``do``)."""


def shared_vocabulary(own_actions: tuple[str, ...] = ()) -> Vocabulary:
    """The words of a game that names no vocabulary: the shared speeds and actions, then its
    own plan actions, labelled by their ``do``."""
    own = tuple(Term(do, do, do) for do in own_actions)
    return Vocabulary(speeds=SHARED_SPEEDS, actions=SHARED_ACTIONS + own)


def vocabulary_of(ruleset: str) -> Vocabulary:
    """The words of the game ``ruleset`` (its plug-in's :class:`Vocabulary`, else the shared
    ones); an unknown game is an :class:`~vigile.errors.InputError`."""
    plugin = registry.get(ruleset)
    if plugin.vocabulary:
        found = plugin.load(plugin.vocabulary)
        if not isinstance(found, Vocabulary):
            raise TypeError(f"{plugin.vocabulary} is not a Vocabulary")
        return found
    own: tuple[str, ...] = ()
    if plugin.plan_actions:
        own = tuple(
            str(get_args(model.model_fields["do"].annotation)[0])
            for model in plugin.load(plugin.plan_actions)
        )
    return shared_vocabulary(own)


def vocabulary_issues(vocabulary: Vocabulary) -> list[str]:
    """What is wrong with a vocabulary: a speed no leg can take, a word twice in a list, a
    label missing in one language. Empty when it is sound (a plug-in's test calls it)."""
    found: list[str] = []
    attitudes = {a.value for a in Attitude}
    found += [
        f"speed {t.name!r} is not one of {', '.join(sorted(attitudes))}"
        for t in vocabulary.speeds
        if t.name not in attitudes
    ]
    if not vocabulary.speeds:
        found.append("no speed: a leg needs one")
    for part in ("speeds", "moves", "actions", "stats", "ways"):
        terms: tuple[Term, ...] = getattr(vocabulary, part)
        names = [t.name for t in terms]
        found += [f"{part}: {n!r} twice" for n in sorted(set(names)) if names.count(n) > 1]
        found += [
            f"{part}: {t.name!r} has no {lang} label"
            for t in terms
            for lang in LANGS
            if not getattr(t, lang).strip()
        ]
    return found
