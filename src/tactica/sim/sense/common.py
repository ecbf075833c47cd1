"""What every sense needs: who is an enemy, where one can go, and rough odds.

Path finding here differs from :meth:`Grid.cheapest_paths` in what the policies need: a square
may be a fine place to *stop* but not one to *pass through* (a cautious mover may end its move
next to an enemy, not walk past one); only the chosen path is built, not one per square; and
:func:`route` goes straight for a goal (A*) instead of mapping everything within reach.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, NamedTuple

from ...engine.dice import DiceExpr
from ...engine.grid import BLOCKED, Grid, Square, chebyshev
from ...engine.state import Combatant

if TYPE_CHECKING:
    from ...engine.core import Encounter


class Movement(NamedTuple):
    """Where a mover may go: squares to enter, to go on from (``None``: all it enters), to stop on."""

    can_enter: Callable[[Square], bool]
    can_pass: Callable[[Square], bool] | None
    can_stop: Callable[[Square], bool]


def foes(enc: Encounter, me: Combatant) -> list[Combatant]:
    """Enemies still in the fight, in initiative order."""
    out_of_fight = enc.ruleset.is_out_of_fight
    return [c for c in enc.order if c.side != me.side and not out_of_fight(c)]


def nearest(me: Combatant, others: Iterable[Combatant]) -> Combatant | None:
    """The closest of ``others`` (king moves), ties by lowest hp, then initiative order."""
    best = None
    key = (1 << 30, 1 << 30)
    for c in others:
        k = (chebyshev(me.pos, c.pos), c.hp)
        if k < key:
            best, key = c, k
    return best


def weakest(targets: Iterable[Combatant]) -> Combatant | None:
    """Focus fire: the target with the fewest hit points left (ties: initiative order)."""
    best = None
    for c in targets:
        if best is None or c.hp < best.hp:
            best = c
    return best


def average(expr: DiceExpr) -> float:
    """The mean of a dice expression."""
    return expr.const + sum(count * (sides + 1) / 2 for count, sides in expr.groups)


def chance(need: int) -> float:
    """P(d20 >= need), with a natural 1 failing and a natural 20 succeeding."""
    return min(0.95, max(0.05, (21 - need) / 20))


Step = tuple[int, Square, int, int, int]
"""One step from a square: (index, square, cost after an even number of diagonals, cost after an
odd number, 1 if it flips the diagonal parity)."""
_TABLES: dict[int, tuple[Grid, list[tuple[Step, ...]]]] = {}


def _steps(grid: Grid) -> list[tuple[Step, ...]]:
    """Per square index, the steps out of it (:data:`Step`), with the grid's costs: a diagonal
    costs 1 then 2 under the alternate rule, difficult ground adds 1 (R-PF-MOV-1/2). Built once per
    grid (the engine shares one grid between the fights on a map)."""
    entry = _TABLES.get(id(grid))
    if entry is None or entry[0] is not grid:
        width, terrain = grid.width, grid.terrain
        alternate = grid.diagonal_rule == "alternate"
        table = []
        for i in range(width * grid.height):
            row = []
            if terrain[i] != BLOCKED:
                for n, diagonal in grid.neighbours((i % width, i // width)):
                    j = n[1] * width + n[0]
                    even, odd = grid.step_units(n, diagonal, 0), grid.step_units(n, diagonal, 1)
                    row.append((j, n, even, odd, 1 if diagonal and alternate else 0))
            table.append(tuple(row))
        entry = _TABLES[id(grid)] = (grid, table)
    return entry[1]


class Reach:
    """Every square ``start`` can reach within ``budget`` movement units (Dijkstra on square and
    diagonal parity, with the grid's step costs: R-PF-MOV-1/2, R-TA-MOV-1, R-LG-MOV-1).

    ``can_enter(s)``: the square may be entered at all; ``can_pass(s)``: the mover may go on from it
    (a square it may enter but not pass is an end point only); ``parity``: diagonals already taken
    in the movement (lagornis counts them over the round). ``cost[s]`` is the cheapest cost of each
    square reached; :meth:`path` builds the path to one of them. Ties go to the lower row, then
    column, as in :meth:`Grid.cheapest_paths`.
    """

    __slots__ = ("_node", "_parent", "_start", "_width", "cost")

    def __init__(
        self,
        enc: Encounter,
        start: Square,
        budget: int,
        can_enter: Callable[[Square], bool],
        can_pass: Callable[[Square], bool] | None = None,
        parity: int = 0,
    ) -> None:
        grid = enc.grid
        table = _steps(grid)
        width = grid.width
        size = width * grid.height
        si = start[1] * width + start[0]
        parity %= 2
        first = si * 2 + parity
        best = [_FAR] * (2 * size)
        best[first] = 0
        parent: dict[int, int] = {}
        cost: dict[int, int] = {}
        node_of: dict[int, int] = {}
        enterable: list[bool | None] = [None] * size
        enterable[si] = False  # never back through the start
        heap: list[tuple[int, int, int]] = [(0, si, parity)]
        pop, push = heapq.heappop, heapq.heappush
        while heap:
            c, i, par = pop(heap)
            key = i * 2 + par
            if best[key] < c:
                continue
            if i != si:
                if i not in cost:
                    cost[i] = c
                    node_of[i] = key
                if can_pass is not None and not can_pass((i % width, i // width)):
                    continue
            for j, square, even, odd, flip in table[i]:
                ok = enterable[j]
                if ok is None:
                    ok = enterable[j] = can_enter(square)
                if not ok:
                    continue
                nc = c + (odd if par else even)
                if nc > budget:
                    continue
                nk = j * 2 + (par ^ flip)
                if nc < best[nk]:
                    best[nk] = nc
                    parent[nk] = key
                    push(heap, (nc, j, par ^ flip))
        self._start = first
        self._width = width
        self._node = node_of
        self._parent = parent
        self.cost = {(i % width, i // width): c for i, c in cost.items()}

    def path(self, dest: Square) -> tuple[Square, ...]:
        return _unwind(self._parent, self._node[dest[1] * self._width + dest[0]], self._start, self._width)


def _unwind(parent: dict[int, int], node: int, start: int, width: int) -> tuple[Square, ...]:
    out = []
    while node != start:
        i = node // 2
        out.append((i % width, i // width))
        node = parent[node]
    out.reverse()
    return tuple(out)


def route(
    enc: Encounter,
    start: Square,
    goal: Square,
    near: int,
    arrive: Callable[[Square], bool],
    can_enter: Callable[[Square], bool],
    can_pass: Callable[[Square], bool] | None = None,
    budget: int | None = None,
    parity: int = 0,
) -> tuple[Square, ...] | None:
    """The cheapest path from ``start`` to a square where ``arrive(s)`` holds, all of which lie
    within ``near`` squares (king moves) of ``goal``; ``None`` if there is none (within ``budget``
    units, if given). A* with the grid's step costs; ``can_enter`` and ``can_pass`` as for
    :class:`Reach`. The heuristic is the distance to the box around ``goal`` with diagonals at their
    cheapest (1, 2, 1, ... under the alternate rule), which no path can beat."""
    grid = enc.grid
    table = _steps(grid)
    half = 2 if grid.diagonal_rule == "alternate" else 0  # h adds min(dx, dy) // 2 under it
    width = grid.width
    gx, gy = goal
    limit = _FAR if budget is None else budget
    si = start[1] * width + start[0]
    parity %= 2
    first = si * 2 + parity
    best: dict[int, int] = {first: 0}
    parent: dict[int, int] = {}
    enterable: dict[int, bool] = {si: False}
    heap: list[tuple[int, int, int, int]] = [(0, 0, si, parity)]
    pop, push = heapq.heappop, heapq.heappush
    while heap:
        _f, neg, i, par = pop(heap)
        c = -neg
        key = i * 2 + par
        if best[key] < c:
            continue
        if i != si:
            square = (i % width, i // width)
            if arrive(square):
                return _unwind(parent, key, first, width)
            if can_pass is not None and not can_pass(square):
                continue
        for j, square, even, odd, flip in table[i]:
            ok = enterable.get(j)
            if ok is None:
                ok = enterable[j] = can_enter(square)
            if not ok:
                continue
            nc = c + (odd if par else even)
            # the heuristic: the distance to the box around the goal, diagonals at their cheapest
            dx = abs(square[0] - gx) - near
            dy = abs(square[1] - gy) - near
            dx = dx if dx > 0 else 0
            dy = dy if dy > 0 else 0
            f = nc + (dx + dy // half if dx >= dy else dy + dx // half) if half else nc + max(dx, dy)
            if f > limit:
                continue
            nk = j * 2 + (par ^ flip)
            if nc < best.get(nk, _FAR):
                best[nk] = nc
                parent[nk] = key
                push(heap, (f, -nc, j, par ^ flip))  # ties: the deeper first
    return None


def affordable(
    enc: Encounter, start: Square, path: tuple[Square, ...], budget: int, can_stop: Callable[[Square], bool]
) -> tuple[Square, ...]:
    """The longest beginning of ``path`` (from ``start``) one movement of ``budget`` units pays
    for, diagonals counted from the first, ending where the mover may stop (possibly empty)."""
    grid = enc.grid
    spent = diagonals = 0
    here = start
    end = 0
    for k, s in enumerate(path):
        diagonal = s[0] != here[0] and s[1] != here[1]
        spent += grid.step_units(s, diagonal, diagonals)
        if spent > budget:
            break
        diagonals += diagonal
        here = s
        if can_stop(s):
            end = k + 1
    return path[:end]


_FAR = 1 << 30
