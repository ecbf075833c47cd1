"""terza movement: the walk and what it provokes, move, dash, withdraw (R-TA-MOV, R-TA-ZOC, R-TA-WD)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...engine import events as ev
from ...engine.commands import Command, Square
from ...engine.grid import chebyshev
from ...engine.state import Combatant
from ...i18n import _, metres
from ..base import check_passage, illegal
from .combat import enemies, guarded, in_zoc, may_take_opportunity, offer_opportunity
from .economy import check_can_act, check_can_move, check_slot, no_budget, pay
from .state import data
from .third_rules import offer_press

if TYPE_CHECKING:
    from ...engine.core import Encounter, Step

MOVE = "move"
WITHDRAW = "withdraw"
STEP = "step"  # the third action's step: always provokes (R-TA-3-6)
DISENGAGE = "disengage"  # the third action's disengage: never provokes


@dataclass(frozen=True, slots=True)
class Walk:
    path: tuple[Square, ...]
    units: tuple[int, ...]
    mode: str


# -- paths (R-TA-MOV-1) -----------------------------------------------------------------------------
def check_path(enc: Encounter, c: Combatant, path: tuple[Square, ...], max_units: int) -> tuple[int, ...]:
    """Every step costs 1.5 m, diagonal or not, double into difficult terrain; paths pass allies,
    not enemies or walls, and never end on an occupied square (as R-PF-MOV-3)."""
    units = enc.grid.check_path(c.name, c.pos, path)
    for i, s in enumerate(path):
        check_passage(enc, c, s, i == len(path) - 1)
    total = sum(units)
    if total > max_units:
        raise illegal(
            "bad_path",
            _("{a}: that path costs {cost}, more than the {most} it may move"),
            a=c.name,
            cost=metres(enc.grid.metres(total)),
            most=metres(enc.grid.metres(max_units)),
        )
    return tuple(units)


def destinations(enc: Encounter, c: Combatant, budget: int) -> Iterator[tuple[Square, ...]]:
    """The cheapest path to every square ``c`` could end on within ``budget`` units."""

    def can_enter(s: Square) -> bool:
        o = enc.occupied.get(s)
        return o is None or o.side == c.side

    def can_stop(s: Square) -> bool:
        return s not in enc.occupied

    for _dest, (_cost, path) in sorted(enc.grid.cheapest_paths(c.pos, budget, can_enter, can_stop).items()):
        yield path


# -- the walk ---------------------------------------------------------------------------------------
def provokes_by_moving(enc: Encounter, c: Combatant) -> bool:
    if data(c).disengaged:
        return False  # R-TA-ZOC-6
    # R-TA-ZOC-2 / R-TA-ZOC-5: guarded movers are exempt unless the variant says otherwise
    return not (enc.variants["terza.zoc.guarded_exempt"] and guarded(enc, c))


def _opportunities(
    enc: Encounter, c: Combatant, plan: Walk, i: int, here: Square, to: Square, offered: set[str]
) -> Step:
    """The opportunities the step ``here`` -> ``to`` provokes, before it is taken, in initiative
    order: entering or leaving a zone of control (R-TA-ZOC-2), a third-action step (R-TA-3-6)."""
    for r in list(enemies(enc, c)):
        if r.id in offered:
            continue  # R-TA-ZOC-3: one opportunity per enemy per movement
        was, now = in_zoc(enc, r, here), in_zoc(enc, r, to)
        if was == now or not may_take_opportunity(enc, r, c):
            continue
        if plan.mode == WITHDRAW and i == 0 and was and "invisible" not in r.conditions:
            continue  # R-TA-WD-2: the start square is not threatened by enemies it can see
        # R-TA-WD-3: any later square of a withdrawal provokes as usual
        offered.add(r.id)
        reason = STEP if plan.mode == STEP else ("leave_zoc" if was else "enter_zoc")
        yield from offer_opportunity(enc, c, r, reason, here if was else to)
        if enc.ruleset.is_defeated(c):
            return


def walk(enc: Encounter, c: Combatant, plan: Walk) -> Step:
    """Move ``c`` along the path, step by step. Before each step: the opportunity attacks it
    provokes, then the press windows of enemies whose zone it leaves (R-TA-3-7: those adjacent to
    it when the movement began). A mover put out stops; a mover held (press ``deny``) stops."""
    d = data(c)
    start = c.pos
    provokes = plan.mode == STEP or (plan.mode in (MOVE, WITHDRAW) and provokes_by_moving(enc, c))
    pressers = [e for e in enemies(enc, c) if chebyshev(e.pos, start) == 1]
    offered: set[str] = set()
    followers: list[Combatant] = []
    walked: list[Square] = []
    spent = 0
    held = False
    for i, s in enumerate(plan.path):
        here = c.pos
        if provokes:
            yield from _opportunities(enc, c, plan, i, here, s, offered)
        if enc.ruleset.is_defeated(c):
            break
        for p in [p for p in pressers if in_zoc(enc, p, here) and not in_zoc(enc, p, s)]:
            pressers.remove(p)
            kept = yield from offer_press(enc, p, c, here)
            if kept and enc.variants["terza.press.mode"] == "deny":
                held = True  # stopped in the last square of its path still in the presser's zone
            elif kept:
                followers.append(p)
        if held or enc.ruleset.is_defeated(c):
            break
        enc.move_token(c, s)
        walked.append(s)
        spent += plan.units[i]
    if walked:
        d.moved_this_round = d.moved_this_turn = True
        enc.emit(ev.moved(c.id, start, c.pos, walked, enc.grid.metres(spent)))
    if plan.mode == MOVE:
        d.movement_units -= spent
    if held:
        d.movement_units = 0  # our choice: held in melee, it moves no more this turn
    for p in followers:
        follow(enc, p, c)


def follow(enc: Encounter, p: Combatant, mover: Combatant) -> None:
    """R-TA-3-7 keeping contact (``follow``): after the mover's movement, ``p`` moves without
    provoking to the free square next to the mover that is cheapest to reach within its speed
    (ties: shortest straight line from where it stands, then lowest y, then lowest x)."""
    if enc.ruleset.is_defeated(p) or chebyshev(p.pos, mover.pos) == 1:
        return

    def can_enter(s: Square) -> bool:
        o = enc.occupied.get(s)
        return o is None or o.side == p.side

    def can_stop(s: Square) -> bool:
        return s not in enc.occupied and chebyshev(s, mover.pos) == 1

    reach = enc.grid.cheapest_paths(p.pos, data(p).p.speed_units, can_enter, can_stop)
    if not reach:
        return  # nothing free within its speed: contact is lost
    x0, y0 = p.pos

    def rank(s: Square) -> tuple[int, int, int, int]:
        return (reach[s][0], (s[0] - x0) ** 2 + (s[1] - y0) ** 2, s[1], s[0])

    dest = min(reach, key=rank)
    cost, path = reach[dest]
    start = p.pos
    enc.move_token(p, dest)
    data(p).moved_this_round = True
    enc.emit(ev.moved(p.id, start, dest, list(path), enc.grid.metres(cost)))


# -- move (R-TA-ECO-1) ------------------------------------------------------------------------------
def check_move(enc: Encounter, c: Combatant, cmd: Command) -> Walk:
    check_can_move(c)
    d = data(c)
    if d.movement_units <= 0:
        raise no_budget(c, "movement")
    assert cmd.path is not None
    return Walk(cmd.path, check_path(enc, c, cmd.path, d.movement_units), MOVE)


def run_move(enc: Encounter, c: Combatant, cmd: Command, plan: Walk) -> Step:
    enc.emit(ev.action(c.id, "move", []))
    yield from walk(enc, c, plan)


def move_candidates(enc: Encounter, c: Combatant) -> Iterator[Command]:
    for path in destinations(enc, c, data(c).movement_units):
        yield Command(actor=c.id, do="move", path=path)


# -- dash (R-TA-ECO-4) ------------------------------------------------------------------------------
def check_dash(enc: Encounter, c: Combatant, cmd: Command) -> None:
    check_can_act(c)
    check_slot(c, "action")


def run_dash(enc: Encounter, c: Combatant, cmd: Command, plan: None) -> Step:
    enc.emit(ev.action(c.id, "dash", pay(c, "action")))
    data(c).movement_units += data(c).p.speed_units
    return
    yield


def dash_candidates(enc: Encounter, c: Combatant) -> Iterator[Command]:
    yield Command(actor=c.id, do="dash")


# -- withdraw (R-TA-WD) -----------------------------------------------------------------------------
def check_withdraw(enc: Encounter, c: Combatant, cmd: Command) -> Walk:
    check_can_act(c)
    check_can_move(c)
    if "blinded" in c.conditions:
        raise illegal("condition", _("{a} is blinded and cannot withdraw"), a=c.name)  # R-TA-WD-4
    check_slot(c, "action")
    d = data(c)
    if d.moved_this_turn:
        # R-TA-WD-1: it takes the turn's whole movement
        raise illegal("already_moved", _("{a} has already moved this turn and cannot withdraw"), a=c.name)
    assert cmd.path is not None
    return Walk(cmd.path, check_path(enc, c, cmd.path, 2 * d.p.speed_units), WITHDRAW)


def run_withdraw(enc: Encounter, c: Combatant, cmd: Command, plan: Walk) -> Step:
    enc.emit(ev.action(c.id, "withdraw", pay(c, "action")))
    data(c).movement_units = 0  # R-TA-WD-1: a full-round action
    yield from walk(enc, c, plan)


def withdraw_candidates(enc: Encounter, c: Combatant) -> Iterator[Command]:
    for path in destinations(enc, c, 2 * data(c).p.speed_units):
        yield Command(actor=c.id, do="withdraw", path=path)
