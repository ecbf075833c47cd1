"""The benchmark's simple policy: walk to the nearest enemy, attack, take every opportunity offered.

It drives the engine only through its public API (``apply``, ``pending``, ``current``, ``grid``).
"""

from __future__ import annotations

import heapq

from tactica import Command, Encounter, IllegalCommand
from tactica.engine.grid import Square, chebyshev
from tactica.engine.state import Combatant


def nearest_enemy(enc: Encounter, me: Combatant) -> Combatant | None:
    best = None
    best_d = 1 << 30
    for c in enc.order:
        if c.side != me.side and not enc.ruleset.is_out_of_fight(c):
            d = chebyshev(me.pos, c.pos)
            if d < best_d:
                best, best_d = c, d
    return best


def approach(enc: Encounter, me: Combatant, target: Combatant) -> tuple[Square, ...] | None:
    """A path for one move action towards a free square next to ``target``: A* on (square,
    diagonal parity) to the nearest such square, cut to the mover's speed on a square it may end on."""
    grid = enc.grid
    budget = grid.units_within(me.data.p.speed_m) if hasattr(me.data, "p") else 6
    alternate = grid.diagonal_rule == "alternate"
    goal = target.pos
    occupied = enc.occupied

    def free(s: Square) -> bool:
        return s not in occupied

    start = (me.pos, 0)
    best = {start: 0}
    parent: dict[tuple[Square, int], tuple[Square, int]] = {}
    heap = [(max(0, chebyshev(me.pos, goal) - 1), 0, me.pos[1], me.pos[0], 0)]
    end = None
    while heap:
        _f, cost, y, x, parity = heapq.heappop(heap)
        node = ((x, y), parity)
        if best.get(node, 1 << 30) < cost:
            continue
        if chebyshev((x, y), goal) == 1 and free((x, y)):
            end = node
            break
        for nxt, diagonal in grid.neighbours((x, y)):
            o = occupied.get(nxt)
            if grid.kind(nxt) >= 2 or (o is not None and o.side != me.side):
                continue
            ncost = cost + grid.step_units(nxt, diagonal, parity)
            key = (nxt, parity ^ 1 if diagonal and alternate else parity)
            if ncost < best.get(key, 1 << 30):
                best[key] = ncost
                parent[key] = node
                heapq.heappush(
                    heap, (ncost + max(0, chebyshev(nxt, goal) - 1), ncost, nxt[1], nxt[0], key[1])
                )
    if end is None:
        return None
    nodes = []
    n = end
    while n != start:
        nodes.append(n)
        n = parent[n]
    nodes.reverse()
    cut = 0
    for i, node in enumerate(nodes):
        if best[node] > budget:
            break
        if free(node[0]):
            cut = i + 1
    return tuple(node[0] for node in nodes[:cut]) or None


def play_turn(enc: Encounter) -> int:
    """Play one decision or one whole turn; return the number of commands applied."""
    n = 0
    w = enc.pending
    if w is not None:
        do = "opportunity_attack" if "opportunity_attack" in w.choices else "decline"
        enc.apply(Command(actor=w.actor, do=do))
        return 1
    me = enc.current
    if me is None:
        return 0
    target = nearest_enemy(enc, me)
    if target is not None and chebyshev(me.pos, target.pos) > 1:
        path = approach(enc, me, target)
        if path and enc.is_legal(move := Command(actor=me.id, do="move", path=path)):
            enc.apply(move)
            n += 1
            if enc.pending is not None or enc.current is not me:
                return n
    while (
        target is not None and chebyshev(me.pos, target.pos) == 1 and not enc.ruleset.is_out_of_fight(target)
    ):
        try:
            enc.apply(Command(actor=me.id, do="attack", target=target.id))
        except IllegalCommand:
            break
        n += 1
        if enc.pending is not None or enc.current is not me:
            return n
    if enc.current is me and enc.pending is None:
        enc.apply(Command(actor=me.id, do="end_turn"))
        n += 1
    return n


def play_fight(enc: Encounter, max_rounds: int = 100) -> tuple[str | None, int]:
    """Play to the end; return (winning side or None, commands applied)."""
    enc.start()
    commands = 0
    while enc.outcome() is None and enc.round <= max_rounds:
        done = play_turn(enc)
        if done == 0:
            break
        commands += done
    return enc.outcome(), commands
