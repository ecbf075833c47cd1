"""lagornis movement (R-LG-MOV), opportunity actions (R-LG-OPP) and disengage."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...engine import events as ev
from ...engine.commands import Command, Square
from ...engine.grid import chebyshev
from ...engine.state import Combatant, Window
from ...i18n import _, metres
from ..base import back_off_shared_square, check_passage, illegal
from .actions import announce, checked_payment
from .combat import Flow, reaches, strike, usable_weapons, weapon_of, weapon_strike
from .economy import Payment, acts_out_of_turn, check_fields, half_action, no_budget
from .hold import movement_triggers
from .state import EPS, data

if TYPE_CHECKING:
    from ...engine.core import Encounter


@dataclass(frozen=True, slots=True)
class Walk:
    path: tuple[Square, ...]
    units: tuple[int, ...]
    diagonal: tuple[bool, ...]
    held: bool


# -- move (R-LG-MOV-1) ----------------------------------------------------------------------------------
def step_costs(
    enc: Encounter, c: Combatant, path: tuple[Square, ...]
) -> tuple[tuple[int, ...], tuple[bool, ...]]:
    """Units of each step. R-LG-MOV-1: diagonals alternate 1.5 / 3 m over the round's whole
    movement, however many move commands it is split into."""
    enc.grid.check_path(c.name, c.pos, path)  # geometry: adjacent steps, on the map, no walls
    diagonals = data(c).diagonals
    units, diag = [], []
    here = c.pos
    for s in path:
        diagonal = s[0] != here[0] and s[1] != here[1]
        units.append(enc.grid.step_units(s, diagonal, diagonals))
        diag.append(diagonal)
        diagonals += diagonal
        here = s
    return tuple(units), tuple(diag)


def plan_move(enc: Encounter, c: Combatant, cmd: Command, held: bool = False) -> Walk:
    assert cmd.path is not None
    d = data(c)
    if d.movement_m < enc.grid.square_m - EPS:
        raise no_budget(c, "movement")
    units, diagonal = step_costs(enc, c, cmd.path)
    last = len(cmd.path) - 1
    for i, s in enumerate(cmd.path):
        check_passage(enc, c, s, i == last, past_defeated=True)
    cost = enc.grid.metres(sum(units))
    if cost > d.movement_m + EPS:
        raise illegal(
            "bad_path",
            _("{a}: that path costs {cost}, more than the {left} of movement left"),
            a=c.name,
            cost=metres(cost),
            left=metres(d.movement_m),
        )
    return Walk(cmd.path, units, diagonal, held)


def check_move(enc: Encounter, c: Combatant, cmd: Command) -> Walk:
    return plan_move(enc, c, cmd)


def run_move(enc: Encounter, c: Combatant, cmd: Command, plan: Walk) -> Flow:
    """Walk the path. Opportunities (R-LG-OPP-1) and held actions (R-LG-HOLD-2) resolve before the
    step that triggers them; a mover put out of the fight stops where it is."""
    d = data(c)
    rs = enc.ruleset
    if plan.held:
        announce(enc, c, "move", None)  # movement is no action; a released held move is logged as one
    yield from movement_triggers(enc, c, None, None)  # enemy_moves: before it starts
    start = c.pos
    squares = (c.pos, *plan.path)
    offered: set[str] = set()
    walked: list[Square] = []
    spent = 0
    for i, s in enumerate(plan.path):
        if rs.is_defeated(c):
            break
        here = c.pos
        if not d.disengaged:  # R-LG-OPP-2
            for e in opportunity_takers(enc, c, offered):
                reason = provocation(e, squares, i)
                if reason is None:
                    continue
                offered.add(e.id)  # R-LG-OPP-1: at most one per enemy per move
                yield from offer_opportunity(enc, c, e, reason, here)
                if rs.is_defeated(c):
                    break
            if rs.is_defeated(c):
                break
        enc.move_token(c, s)
        walked.append(s)
        spent += plan.units[i]
        d.movement_m -= enc.grid.metres(plan.units[i])
        d.diagonals += plan.diagonal[i]
        yield from movement_triggers(enc, c, here, s)  # enemy_enters_reach
    if rs.is_defeated(c):
        # a mover put out while passing through an ally does not stay on the ally's square
        kept = back_off_shared_square(enc, c, start, walked)
        spent = sum(plan.units[:kept])
        del walked[kept:]
    if walked:
        enc.emit(ev.moved(c.id, start, c.pos, walked, enc.grid.metres(spent)))


def move_candidates(enc: Encounter, c: Combatant) -> Iterator[Command]:
    def can_enter(s: Square) -> bool:
        o = enc.occupied.get(s)
        return o is None or o.side == c.side or enc.ruleset.is_defeated(o)

    def can_stop(s: Square) -> bool:
        return s not in enc.occupied

    budget = enc.grid.units_within(data(c).movement_m)
    for _dest, (_cost, path) in sorted(enc.grid.cheapest_paths(c.pos, budget, can_enter, can_stop).items()):
        yield Command(actor=c.id, do="move", path=path)


# -- opportunity actions (R-LG-OPP-1, R-LG-OPP-3, R-LG-OPP-4, R-LG-OPP-5) ---------------------------------
def provocation(e: Combatant, squares: tuple[Square, ...], i: int) -> str | None:
    """Why leaving ``squares[i]`` (``squares[0]`` is the start) gives enemy ``e`` an opportunity:
    ``move`` when the mover leaves its side and ends the move away from it, ``passing`` when it
    leaves a square next to it that it entered during this move (R-LG-OPP-1)."""
    if chebyshev(squares[i], e.pos) != 1:
        return None
    if i == 0:
        return "move" if chebyshev(squares[-1], e.pos) > 1 else None
    return "passing"


def opportunity_takers(enc: Encounter, mover: Combatant, offered: set[str]) -> list[Combatant]:
    """Enemies that could take an opportunity action now, in initiative order."""
    return [
        e
        for e in enc.order
        if e.side != mover.side and e.id not in offered and acts_out_of_turn(enc, e) and usable_weapons(e)
    ]


@dataclass(frozen=True, slots=True)
class OpportunityCtx:
    provoker: str


def offer_opportunity(enc: Encounter, mover: Combatant, e: Combatant, reason: str, at: Square) -> Flow:
    enc.emit(ev.opportunity(mover.id, e.id, reason, at))
    trigger = {"type": "opportunity", "provoker": mover.id, "reason": reason, "at": ev.sq(at)}
    # R-LG-OPP-3: optional and free: no action, no reaction spent
    answer = yield Window(e.id, ("opportunity_attack", "decline"), trigger, OpportunityCtx(mover.id))
    if answer.do != "opportunity_attack":
        return
    d = data(e)
    w = weapon_of(e, answer.weapon, "attack")
    d.opportunity_used += 1
    # R-LG-OPP-4: -3 x N, N its rank among this combatant's opportunity actions this round
    penalty = -3 * d.opportunity_used
    # R-LG-OPP-5: the mover may react to it as to any attack (the strike opens its window)
    yield from strike(enc, weapon_strike(e, mover, w, "opportunity", (("opportunity", penalty),)))


def check_opportunity_answer(enc: Encounter, ctx: OpportunityCtx, cmd: Command) -> None:
    e = enc.combatants[cmd.actor]
    allowed = ("weapon", "target") if cmd.do == "opportunity_attack" else ()
    check_fields(cmd, allowed)
    if cmd.do == "decline":
        return
    if cmd.target is not None and cmd.target != ctx.provoker:
        raise illegal(
            "not_allowed", _("{a} may only strike {p} with this opportunity"), a=e.name, p=ctx.provoker
        )
    w = weapon_of(e, cmd.weapon, "attack")
    if not reaches(enc, w, e, enc.combatants[ctx.provoker]):
        raise illegal("out_of_reach", _("{p} is out of reach of {a}'s {w}"), p=ctx.provoker, a=e.name, w=w.id)


def opportunity_candidates(enc: Encounter, window: Window, ctx: OpportunityCtx) -> Iterator[Command]:
    e = enc.combatants[window.actor]
    for w in usable_weapons(e):
        yield Command(actor=e.id, do="opportunity_attack", target=ctx.provoker, weapon=w.id)
    yield Command(actor=e.id, do="decline")


# -- disengage (R-LG-OPP-2) ---------------------------------------------------------------------------
def plan_disengage(enc: Encounter, c: Combatant, cmd: Command, held: bool = False) -> Payment | None:
    if data(c).disengaged:
        raise illegal("not_allowed", _("{a} has already disengaged this turn"), a=c.name)
    # the seed's "action simple": a 0.5 action
    return checked_payment(enc, c, None if held else half_action(c, cmd.pay))


def check_disengage(enc: Encounter, c: Combatant, cmd: Command) -> Payment | None:
    return plan_disengage(enc, c, cmd)


def run_disengage(enc: Encounter, c: Combatant, cmd: Command, pay: Payment | None) -> Flow:
    announce(enc, c, "disengage", pay)
    data(c).disengaged = True
    return
    yield


def disengage_candidates(enc: Encounter, c: Combatant) -> Iterator[Command]:
    yield Command(actor=c.id, do="disengage")
