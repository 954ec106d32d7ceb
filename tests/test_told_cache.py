"""A viewer's events are kept with the game and extended by what is logged since
(:func:`vigile.live.views.told_all`): a character page's news then cost the new events, not the
whole log. The kept list is always what a fresh walk of the log gives (LP-5: what the viewer is
told), after actions, and after an undo (which replays a game of its own)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from vigile.live import Encounter, views
from vigile.scene.loader import bundled_path
from vigile.store import Store

GRAPPLE = {"do": "throw-grapple", "actor": "Kage", "at": [60, 10], "onto": "tile"}


@pytest.fixture()
def encounter(tmp_path: Path) -> Iterator[Encounter]:
    store = Store(f"sqlite:///{tmp_path / 'told.db'}")
    made, _ = Encounter.create(
        store,
        text=bundled_path("night-raid").read_text("utf-8"),
        fmt="yaml",
        source="night-raid.yaml",
        seed=7,
    )
    yield made
    store.close()


def fresh(encounter: Encounter, role: views.Role, character: str | None) -> list[object]:
    game = encounter.game
    return list(views.told(game, role, character, game.events))


def test_kept_events_are_a_fresh_walk_s_after_actions_and_an_undo(encounter: Encounter) -> None:
    viewers: list[tuple[views.Role, str | None]] = [("player", "Kage"), ("table", None)]
    for action in (GRAPPLE, {"do": "end-turn"}, {"do": "wait", "actor": "Kage"}):
        encounter.act(action)
        for role, character in viewers:
            assert views.told_all(encounter.game, role, character) == fresh(
                encounter, role, character
            )
    before_undo = views.told_all(encounter.game, "player", "Kage")
    encounter.undo()  # the wait taken back: Kage is told one event fewer
    after = views.told_all(encounter.game, "player", "Kage")
    assert after == fresh(encounter, "player", "Kage")
    assert len(after) == len(before_undo) - 1


def test_only_the_events_logged_since_are_walked(
    encounter: Encounter, monkeypatch: pytest.MonkeyPatch
) -> None:
    encounter.act(GRAPPLE)
    views.told_all(encounter.game, "player", "Kage")
    walked: list[object] = []
    sees = views.viewer_sees

    def counting(*args: object) -> bool:
        walked.append(args[-1])
        return sees(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(views, "viewer_sees", counting)
    views.told_all(encounter.game, "player", "Kage")
    assert walked == []  # nothing new: nothing walked
    logged = len(encounter.game.events)
    encounter.act({"do": "wait", "actor": "Kage"})
    views.told_all(encounter.game, "player", "Kage")
    assert walked == encounter.game.events[logged:] != []
