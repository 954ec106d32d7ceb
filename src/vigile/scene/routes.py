"""Can the plans be walked? Legs through walls, climbs without a grapple, hiding without cover.

Walls, partitions, closed doors and closed windows stop a walker (SK-G1). A leg "passes
through" a barrier when the barrier shares a point with the open segment between the leg's
two ends (the conventions of :func:`vigile.scene.geometry.crossings`): a waypoint exactly on a
doorway line is allowed, going through it is not. Doors opened or closed by an actor's own
earlier actions count; doors other actors open do not (their order in play is the engine's).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from vigile.awareness.vocabulary import Attitude
from vigile.checks.numbers import quoted
from vigile.errors import Said
from vigile.scene.actors import Actor, Point
from vigile.scene.geometry import Barriers, KindRule, Segment, crossings, point_in_polygon
from vigile.scene.model import Cover, Wall, WallKind
from vigile.scene.paths import Loc
from vigile.scene.plans import ClimbAid, Leg, OpenDoor

Issue = tuple[Loc, str]
_BLOCKS_ALL = KindRule(blocks_sight=True, counts_for_noise=True, blocks_movement=True)


def route_issues(
    walls: Sequence[tuple[int, Wall]],
    cover: Sequence[tuple[int, Cover]],
    actors: Sequence[tuple[int, Actor]],
    plans: dict[str, list[Leg | None]],
) -> list[Issue]:
    """Every leg through a barrier, climb without a grapple, and hiding out of cover."""
    found: list[Issue] = []
    areas = [np.array(area.points, dtype=np.float64) for _, area in cover]
    for i, actor in actors:
        if actor.attitude is Attitude.HIDDEN and not _in_cover(actor.position, areas):
            found.append((("actors", i, "attitude"), _no_cover(actor.position)))
    starts: dict[str, Point] = {}
    for _, actor in actors:
        starts.setdefault(actor.name, actor.position)
    board = _Board(walls)
    for name, legs in plans.items():
        if name in starts:
            found += _walk(name, starts[name], legs, board, areas)
    return found


class _Board:
    """The barriers as arrays, with each one's index in the file and its state at the start."""

    def __init__(self, walls: Sequence[tuple[int, Wall]]) -> None:
        self.walls = [wall for _, wall in walls]
        self.index = [i for i, _ in walls]
        segments = [Segment(*w.start, *w.end, w.kind.value) for w in self.walls]
        self.barriers = Barriers.from_segments(
            segments, {kind.value: _BLOCKS_ALL for kind in WallKind}
        )
        self.climbable = np.array([w.kind is WallKind.WALL for w in self.walls], dtype=np.bool_)

    def start_state(self) -> np.ndarray[tuple[int], np.dtype[np.bool_]]:
        """Which barriers stop a walker at the start."""
        return np.array([w.blocks_movement for w in self.walls], dtype=np.bool_)

    def crossed(
        self, a: Point, b: Point, mask: np.ndarray[tuple[int], np.dtype[np.bool_]]
    ) -> list[int]:
        """Positions (in ``self.walls``) of the masked barriers between a and b."""
        if not mask.any() or int(crossings(self.barriers, a[0], a[1], b[0], b[1], mask)) == 0:
            return []
        hits = []
        for j in np.flatnonzero(mask):
            one = np.zeros(len(self.walls), dtype=np.bool_)
            one[j] = True
            if int(crossings(self.barriers, a[0], a[1], b[0], b[1], one)):
                hits.append(int(j))
        return hits

    def describe(self, j: int) -> Said:
        """One barrier a leg crosses, ``a closed door 'gate' (walls[3])``, keyed by its kind
        (``scene.barrier.door``, ``scene.barrier_named.door``) for the reader's language."""
        wall = self.walls[j]
        kind = wall.kind.value
        if wall.kind in (WallKind.DOOR, WallKind.WINDOW):
            kind = f"closed {kind}"
        named = f" {wall.name!r}" if wall.name else ""
        english = f"a {kind}{named} (walls[{self.index[j]}])"
        key = (
            f"scene.barrier_named.{wall.kind.value}"
            if wall.name
            else (f"scene.barrier.{wall.kind.value}")
        )
        return Said(key, english, name=wall.name or "", index=self.index[j])


def _walk(
    name: str,
    start: Point,
    legs: Sequence[Leg | None],
    board: _Board,
    areas: list[np.ndarray[tuple[int, int], np.dtype[np.float64]]],
) -> list[Issue]:
    found: list[Issue] = []
    blocking = board.start_state()
    position: Point | None = start
    previous: Leg | None = None
    for i, leg in enumerate(legs):
        if leg is None:  # a leg that did not validate: where the next one starts is unknown
            position, previous = None, None
            continue
        where: Loc = ("plans", name, i)
        if leg.speed is Attitude.IMMOBILE and leg.to is not None:
            found.append(
                (
                    (*where, "speed"),
                    Said(
                        "scene.immobile_leg",
                        "an immobile leg cannot move to a waypoint (SK-V3): drop its 'to', "
                        "or give it a speed (hidden, half or fast)",
                    ),
                )
            )
        if leg.climb and not (previous and any(isinstance(a, ClimbAid) for a in previous.actions)):
            found.append(
                (
                    (*where, "climb"),
                    Said(
                        "scene.climb_without_grapple",
                        "climbing needs a grapple thrown at the previous waypoint "
                        "(a throw-grapple action on the leg before)",
                    ),
                )
            )
        if leg.to is not None and position is not None:
            mask = blocking & ~board.climbable if leg.climb else blocking
            hits = board.crossed(position, leg.to, mask)
            if hits:
                barriers = _listing([board.describe(j) for j in hits])
                text = (
                    f"the leg from [{position[0]:g}, {position[1]:g}] to "
                    f"[{leg.to[0]:g}, {leg.to[1]:g}] passes through {barriers}"
                )
                points = {
                    "x": quoted(position[0]),
                    "y": quoted(position[1]),
                    "to_x": quoted(leg.to[0]),
                    "to_y": quoted(leg.to[1]),
                }
                found.append(
                    ((*where, "to"), Said("scene.leg_through", text, barriers=barriers, **points))
                )
        if leg.to is not None:
            position = leg.to
        if leg.speed is Attitude.HIDDEN and position is not None and not _in_cover(position, areas):
            found.append(((*where, "speed"), _no_cover(position)))
        for action in leg.actions:
            door = getattr(action, "door", None)
            if door is None:
                continue
            for j, wall in enumerate(board.walls):
                if wall.name == door and wall.kind is WallKind.DOOR:
                    blocking[j] = not isinstance(action, OpenDoor)
        previous = leg
    return found


def _listing(items: list[Said], most: int = 3) -> Said:
    """``a, b, c and 2 more``: the first ``most`` items, each in the reader's language."""
    shown = items[:most]
    listed = shown[0]
    for item in shown[1:]:
        listed = Said("scene.list_next", f"{listed}, {item}", head=listed, item=item)
    if len(items) > most:
        more = len(items) - most
        listed = Said("scene.list_more", f"{listed} and {more} more", head=listed, count=more)
    return listed


def _in_cover(point: Point, areas: list[np.ndarray[tuple[int, int], np.dtype[np.float64]]]) -> bool:
    return any(bool(point_in_polygon(point[0], point[1], area)) for area in areas)


def _no_cover(point: Point) -> Said:
    text = f"hidden needs cover (SK-V3), but [{point[0]:g}, {point[1]:g}] is in no cover area"
    return Said("scene.no_cover", text, x=quoted(point[0]), y=quoted(point[1]))
