"""The benchmark's simple policy: walk to the nearest enemy, attack, take every opportunity offered.

It drives the engine only through its public API (``apply``, ``pending``, ``current``, ``grid``).
"""

from __future__ import annotations

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
    """The cheapest path (within one move) towards a free square next to ``target``."""
    grid = enc.grid
    budget = grid.units_within(enc.ruleset.speed_m(me)) if hasattr(enc.ruleset, "speed_m") else 6

    def can_enter(s: Square) -> bool:
        o = enc.occupied.get(s)
        return grid.kind(s) < 2 and (o is None or o.side == me.side)

    def can_stop(s: Square) -> bool:
        return s not in enc.occupied

    reach = grid.cheapest_paths(me.pos, budget, can_enter, can_stop)
    if not reach:
        return None
    dest = min(reach, key=lambda s: (chebyshev(s, target.pos), reach[s][0], s[1], s[0]))
    if chebyshev(dest, target.pos) >= chebyshev(me.pos, target.pos):
        return None
    return reach[dest][1]


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
        if path:
            enc.apply(Command(actor=me.id, do="move", path=path))
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
