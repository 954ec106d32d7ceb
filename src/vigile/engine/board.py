"""The board of a scenario during play: barriers with their doors' state, lights, ground, cover.

Thin over :mod:`vigile.scene.geometry`: the same vectorised functions serve the engine (one
query at a time), the risk maps and the compiled kernel's tables.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from vigile.scene.geometry import (
    Barriers,
    KindRule,
    Region,
    Segment,
    crossings,
    line_of_sight,
    lit_by,
    point_in_polygon,
    surface_at,
    trace_along,
)
from vigile.scene.model import Scenario, WallKind

CLOSED = KindRule(blocks_sight=True, counts_for_noise=True, blocks_movement=True)
"""A barrier that blocks everything: the default for every kind when a ruleset gives no
rule of its own."""
OPEN_KIND = "open"
CACHE_LIMIT = 100_000
"""The most answers a board remembers of each kind (memory stays bounded on any game)."""
"""The kind an open door or window counts as."""

Point = tuple[float, float]
BoolArray = NDArray[np.bool_]


class Board:
    """Where things are and what stands between them; doors open and close during play."""

    def __init__(
        self,
        scenario: Scenario,
        light_radius: float,
        kinds: Mapping[str, KindRule] | None = None,
    ) -> None:
        """``kinds``: what each barrier kind does (``wall``, ``door``…, and ``open`` for an open
        door or window), from the ruleset; by default everything blocks and open doors don't."""
        self.width = scenario.map.width
        self.height = scenario.map.height
        self.walls = scenario.walls
        segments = [Segment(*w.start, *w.end, w.kind.value) for w in self.walls]
        self.kinds = dict(kinds) if kinds is not None else {k.value: CLOSED for k in WallKind}
        self._open = self.kinds.get(OPEN_KIND, KindRule(False, False, False))
        self._closed = Barriers.from_segments(
            segments, {k.value: self.kinds[k.value] for k in WallKind}
        )
        self.open_doors = {i for i, w in enumerate(self.walls) if w.open}
        self.door_index = {w.name: i for i, w in enumerate(self.walls) if w.name}
        self.barriers = self._current()
        self.surfaces = [Region(r.kind.value, r.points) for r in scenario.surfaces]
        self.default_surface = scenario.default_surface
        self.cover = [np.array(c.points, dtype=np.float64) for c in scenario.cover]
        self.light_x = np.array([light.at[0] for light in scenario.lights], dtype=np.float64)
        self.light_y = np.array([light.at[1] for light in scenario.lights], dtype=np.float64)
        self.light_r = np.array(
            [light.radius_or(light_radius) for light in scenario.lights], dtype=np.float64
        )
        self._cover: dict[Point, bool] = {}
        """:meth:`in_cover` by point: cover never changes."""
        self._seen: dict[tuple[Point, Point], bool] = {}
        """:meth:`sees` by points, for the doors as they stand (cleared when a door opens or
        closes): a turn asks the same questions guard after guard."""
        self._lit: dict[Point, bool] = {}
        """:meth:`lit` by point, the same way."""

    def _current(self) -> Barriers:
        return self.barriers_for(frozenset(self.open_doors))

    def barriers_for(self, open_doors: frozenset[int]) -> Barriers:
        """The barriers as they stand with these doors open."""
        if not open_doors:
            return self._closed
        return self._closed.with_rule(sorted(open_doors), self._open)

    def set_door(self, name: str, is_open: bool) -> None:
        """Open or close the door called ``name``."""
        index = self.door_index[name]
        if is_open:
            self.open_doors.add(index)
        else:
            self.open_doors.discard(index)
        self.barriers = self._current()
        self._seen.clear()
        self._lit.clear()

    def _remember(self, cache: dict[Any, bool], key: Any, value: bool) -> bool:
        if len(cache) < CACHE_LIMIT:
            cache[key] = value
        return value

    def barriers_between(self, a: Point, b: Point) -> int:
        """Partitions, closed doors and walls between two points (SK-N5)."""
        if not len(self.barriers):
            return 0
        mask = self.barriers.counts_for_noise
        return int(crossings(self.barriers, a[0], a[1], b[0], b[1], mask))

    def blocks_walker(self, a: Point, b: Point, *, climbing: bool = False) -> bool:
        """A barrier that stops a walker stands between a and b, as the doors stand now (a
        climber goes over walls, not doors or partitions): the conventions of
        :mod:`vigile.scene.routes`."""
        if not len(self.barriers):
            return False
        mask = self.barriers.blocks_movement
        if climbing:
            wall = self.barriers.kinds.index("wall") if "wall" in self.barriers.kinds else -1
            mask = mask & (self.barriers.kind_code != wall)
        if not mask.any():
            return False
        return int(crossings(self.barriers, a[0], a[1], b[0], b[1], mask)) > 0

    def sees(self, a: Point, b: Point) -> bool:
        """A line of sight between two points (SK-V6)."""
        if not len(self.barriers):
            return True
        found = self._seen.get((a, b))
        if found is None:
            found = bool(line_of_sight(self.barriers, a[0], a[1], b[0], b[1]))
            self._remember(self._seen, (a, b), found)
        return found

    def lit(self, p: Point) -> bool:
        """Within the radius of a light that reaches it, no wall between (SK-V5)."""
        found = self._lit.get(p)
        if found is None:
            found = bool(self.lit_points(p[0], p[1]))
            self._remember(self._lit, p, found)
        return found

    def lit_points(self, px: ArrayLike, py: ArrayLike) -> BoolArray:
        """:meth:`lit` for many points at once (the risk map's grid)."""
        return lit_by(self.barriers, px, py, self.light_x, self.light_y, self.light_r)

    def surface(self, p: Point) -> str:
        """The ground at a point (SK-N2): the last listed region that holds it, or the default."""
        return str(surface_at(p[0], p[1], self.surfaces, self.default_surface))

    def in_cover(self, p: Point) -> bool:
        """Inside a cover area (SK-V3: a bush, a wall corner, under a floor)."""
        found = self._cover.get(p)
        if found is None:
            found = bool(self.cover_points(p[0], p[1]))
            self._remember(self._cover, p, found)
        return found

    def cover_points(self, px: ArrayLike, py: ArrayLike) -> BoolArray:
        """:meth:`in_cover` for many points at once."""
        found: BoolArray = np.zeros(np.shape(px), dtype=np.bool_)
        for polygon in self.cover:
            found = found | point_in_polygon(px, py, polygon)
        return found

    def ground_points(self, px: ArrayLike, py: ArrayLike) -> NDArray[np.str_]:
        """:meth:`surface` for many points at once."""
        result: NDArray[np.str_] = surface_at(px, py, self.surfaces, self.default_surface)
        return result

    def patrol(
        self,
        xs: list[float],
        ys: list[float],
        angle: float,
        length: float,
        bounces: int,
        margin: float,
    ) -> tuple[list[float], list[float]]:
        """Move walkers ``length`` along one scatter-die direction, bouncing (SK-G1): the
        unit direction ``(cos angle, sin angle)`` itself (:func:`trace_along`), stopping or
        turning ``margin`` short of a barrier's line (the ruleset's)."""
        moves = trace_along(
            self.barriers,
            xs,
            ys,
            math.cos(angle),
            math.sin(angle),
            length,
            self.width,
            self.height,
            bounces,
            epsilon=margin,
        )
        nx, ny = moves.x, moves.y
        return [float(v) for v in np.atleast_1d(nx)], [float(v) for v in np.atleast_1d(ny)]


def distance(a: Point, b: Point) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


def bearing(origin: Point, toward: Point) -> float:
    """The direction from ``origin`` to ``toward``, in degrees counter-clockwise from the x axis
    (toward larger y at 90°), in [0, 360): a way, with no distance."""
    return math.degrees(math.atan2(toward[1] - origin[1], toward[0] - origin[0])) % 360.0
