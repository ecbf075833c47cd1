"""The battle map: squares, steps and their costs, terrain, reach, path checks and path finding.

Costs are counted in *square units* (one orthogonal step = 1) and shown in metres by multiplying
with ``square_m``, so sums stay exact. Two diagonal rules exist: ``alternate`` (pf1, lagornis: the
1st, 3rd, ... diagonal of a movement costs 1, the 2nd, 4th, ... costs 2) and ``uniform`` (terza: 1).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Final

from ..i18n import _
from .errors import IllegalCommand

Square = tuple[int, int]

NORMAL: Final = 0
DIFFICULT: Final = 1
VERY_DIFFICULT: Final = 2
BLOCKED: Final = 3

DIRECTIONS: Final[dict[str, tuple[int, int]]] = {
    "N": (0, -1),
    "NE": (1, -1),
    "E": (1, 0),
    "SE": (1, 1),
    "S": (0, 1),
    "SW": (-1, 1),
    "W": (-1, 0),
    "NW": (-1, -1),
}
OPPOSITE: Final[dict[str, str]] = {
    "N": "S",
    "NE": "SW",
    "E": "W",
    "SE": "NW",
    "S": "N",
    "SW": "NE",
    "W": "E",
    "NW": "SE",
}


def chebyshev(a: Square, b: Square) -> int:
    """Squares between a and b counting diagonals as one (king moves)."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def fmt_square(s: Square) -> str:
    return f"[{s[0]}, {s[1]}]"


class Grid:
    """A rectangular map of ``width`` x ``height`` squares with terrain."""

    __slots__ = ("_by_index", "_neighbours", "diagonal_rule", "height", "square_m", "terrain", "width")

    def __init__(
        self,
        width: int,
        height: int,
        square_m: float = 1.5,
        difficult: Iterable[Square] = (),
        very_difficult: Iterable[Square] = (),
        blocked: Iterable[Square] = (),
        diagonal_rule: str = "alternate",
    ) -> None:
        self.width = width
        self.height = height
        self.square_m = square_m
        self.diagonal_rule = diagonal_rule
        self.terrain = bytearray(width * height)
        for kind, squares in ((DIFFICULT, difficult), (VERY_DIFFICULT, very_difficult), (BLOCKED, blocked)):
            for x, y in squares:
                self.terrain[y * width + x] = kind
        self._by_index: list[tuple[tuple[int, bool, int], ...]] | None = None
        self._neighbours: list[tuple[tuple[Square, bool], ...]] = [
            self._compute_neighbours((i % width, i // width)) for i in range(width * height)
        ]

    # -- terrain ---------------------------------------------------------------------------------
    def inside(self, s: Square) -> bool:
        return 0 <= s[0] < self.width and 0 <= s[1] < self.height

    def kind(self, s: Square) -> int:
        return self.terrain[s[1] * self.width + s[0]]

    def is_difficult(self, s: Square) -> bool:
        """Difficult or very difficult."""
        return self.terrain[s[1] * self.width + s[0]] in (DIFFICULT, VERY_DIFFICULT)

    def _compute_neighbours(self, s: Square) -> tuple[tuple[Square, bool], ...]:
        out = []
        x, y = s
        for dx, dy in DIRECTIONS.values():
            n = (x + dx, y + dy)
            if not self.inside(n) or self.kind(n) == BLOCKED:
                continue
            diagonal = dx != 0 and dy != 0
            # R-PF-MOV-3: no cutting a corner between two blocked squares
            if diagonal and self.kind((x + dx, y)) == BLOCKED and self.kind((x, y + dy)) == BLOCKED:
                continue
            out.append((n, diagonal))
        return tuple(out)

    def neighbours(self, s: Square) -> tuple[tuple[Square, bool], ...]:
        """Enterable neighbours of ``s`` with whether the step is diagonal."""
        return self._neighbours[s[1] * self.width + s[0]]

    # -- costs -----------------------------------------------------------------------------------
    def step_units(self, to: Square, diagonal: bool, diagonals_so_far: int) -> int:
        """Units to enter ``to``. Difficult terrain adds one square's cost (R-PF-MOV-2)."""
        if diagonal and self.diagonal_rule == "alternate":
            units = 2 if diagonals_so_far % 2 == 1 else 1
        else:
            units = 1
        if self.terrain[to[1] * self.width + to[0]] != NORMAL:
            units += 1
        return units

    def metres(self, units: int) -> float:
        return units * self.square_m

    def units_within(self, metres: float) -> int:
        """How many whole units fit in ``metres``."""
        return int(metres / self.square_m + 1e-9)

    def distance_units(self, a: Square, b: Square) -> int:
        """Straight-line distance in units (ignoring terrain), per the diagonal rule."""
        dx, dy = abs(a[0] - b[0]), abs(a[1] - b[1])
        if self.diagonal_rule == "alternate":
            return max(dx, dy) + min(dx, dy) // 2
        return max(dx, dy)

    def distance_m(self, a: Square, b: Square) -> float:
        return self.distance_units(a, b) * self.square_m

    # -- paths -----------------------------------------------------------------------------------
    def check_path(self, actor: str, start: Square, path: tuple[Square, ...]) -> list[int]:
        """Check each step is an enterable neighbour; return the per-step units.

        Occupancy is the ruleset's business (it knows who is an enemy); this checks geometry.
        """
        if not path:
            raise IllegalCommand("bad_path", _("{actor}: the path is empty").format(actor=actor))
        units = []
        diagonals = 0
        here = start
        for i, s in enumerate(path):
            if not self.inside(s):
                raise IllegalCommand(
                    "bad_path",
                    _("{actor}: step {i} {sq} is off the map").format(actor=actor, i=i + 1, sq=fmt_square(s)),
                )
            if chebyshev(here, s) != 1:
                raise IllegalCommand(
                    "bad_path",
                    _("{actor}: step {i} {sq} is not next to {prev}").format(
                        actor=actor, i=i + 1, sq=fmt_square(s), prev=fmt_square(here)
                    ),
                )
            if self.kind(s) == BLOCKED:
                raise IllegalCommand(
                    "bad_path",
                    _("{actor}: step {i} {sq} is a wall").format(actor=actor, i=i + 1, sq=fmt_square(s)),
                )
            diagonal = s[0] != here[0] and s[1] != here[1]
            if diagonal and self.kind((s[0], here[1])) == BLOCKED and self.kind((here[0], s[1])) == BLOCKED:
                raise IllegalCommand(
                    "bad_path",
                    _("{actor}: step {i} {sq} cuts a corner between two walls").format(
                        actor=actor, i=i + 1, sq=fmt_square(s)
                    ),
                )
            units.append(self.step_units(s, diagonal, diagonals))
            if diagonal:
                diagonals += 1
            here = s
        return units

    def cheapest_paths(
        self,
        start: Square,
        budget_units: int,
        can_enter: Callable[[Square], bool],
        can_stop: Callable[[Square], bool],
    ) -> dict[Square, tuple[int, tuple[Square, ...]]]:
        """Every square reachable within ``budget_units`` where ``can_stop`` holds, with the cheapest
        path to it.

        Dijkstra on (square, diagonal parity) with a bucket per cost (steps cost 1 to 3 units, so
        buckets beat a heap); states of one cost are expanded in (y, x, parity) order, so ties break
        the same way every time. ``can_enter`` and ``can_stop`` are asked once per square.
        """
        w = self.width
        alternate = self.diagonal_rule == "alternate"
        table = self._index_neighbours()
        start_idx = start[1] * w + start[0]
        unreached = 1 << 30
        best = [unreached] * (2 * w * self.height)
        best[start_idx * 2] = 0
        parent: dict[int, int] = {}
        enter = bytearray(w * self.height)  # 0 not asked yet, 1 may enter, 2 may not
        buckets: list[list[int]] = [[] for _ in range(budget_units + 1)]
        buckets[0].append(start_idx * 2)
        found: dict[int, int] = {}  # square index -> the state it was first reached at cheapest
        for cost in range(budget_units + 1):
            bucket = buckets[cost]
            bucket.sort()
            for state in bucket:
                if best[state] != cost:
                    continue
                idx = state >> 1
                parity = state & 1
                if idx not in found and idx != start_idx and can_stop((idx % w, idx // w)):
                    found[idx] = state
                for nidx, diagonal, extra in table[idx]:
                    ok = enter[nidx]
                    if ok == 0:
                        ok = enter[nidx] = 1 if can_enter((nidx % w, nidx // w)) else 2
                    if ok == 2:
                        continue
                    if diagonal and alternate:
                        ncost = cost + 2 + extra if parity else cost + 1 + extra
                        nstate = (nidx << 1) | (parity ^ 1)
                    else:
                        ncost = cost + 1 + extra
                        nstate = (nidx << 1) | parity
                    if ncost <= budget_units and ncost < best[nstate]:
                        best[nstate] = ncost
                        parent[nstate] = state
                        buckets[ncost].append(nstate)
        out: dict[Square, tuple[int, tuple[Square, ...]]] = {}
        origin = start_idx * 2
        for idx, state in found.items():
            path = []
            n = state
            while n != origin:
                path.append(((n >> 1) % w, (n >> 1) // w))
                n = parent[n]
            out[(idx % w, idx // w)] = (best[state], tuple(reversed(path)))
        return out

    def _index_neighbours(self) -> list[tuple[tuple[int, bool, int], ...]]:
        """Per square index: (neighbour index, diagonal, 1 if the neighbour's terrain adds a square)."""
        table = self._by_index
        if table is None:
            w = self.width
            table = self._by_index = [
                tuple(
                    (n[1] * w + n[0], diagonal, 0 if self.terrain[n[1] * w + n[0]] == NORMAL else 1)
                    for n, diagonal in squares
                )
                for squares in self._neighbours
            ]
        return table

    def squares_within(self, centre: Square, low: int, high: int) -> list[Square]:
        """Squares whose Chebyshev distance from ``centre`` is in ``low..high``, row by row."""
        cx, cy = centre
        out = []
        for y in range(max(0, cy - high), min(self.height, cy + high + 1)):
            for x in range(max(0, cx - high), min(self.width, cx + high + 1)):
                if low <= max(abs(x - cx), abs(y - cy)) <= high:
                    out.append((x, y))
        return out
