"""pf1 movement actions: move, five_foot_step, run, withdraw, difficult_step, draw_weapon."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...engine import events as ev
from ...engine.commands import Command, Square
from ...engine.grid import BLOCKED, DIRECTIONS, VERY_DIFFICULT, chebyshev, fmt_square
from ...engine.state import Combatant
from ...i18n import _, metres
from ..base import back_off_shared_square, check_passage, illegal
from .combat import offer_opportunity, reactors, stopped
from .economy import (
    casting_blocks_step,
    casting_error,
    check_full_round,
    check_not_casting,
    move_slot,
    pay,
    restriction,
)
from .state import data

if TYPE_CHECKING:
    from ...engine.core import Encounter, Step


@dataclass(frozen=True, slots=True)
class Walk:
    path: tuple[Square, ...]
    units: tuple[int, ...]
    slot: str


# -- shared path checks (R-PF-MOV-1..3) -------------------------------------------------------------
def check_walk(enc: Encounter, c: Combatant, path: tuple[Square, ...], max_units: int) -> tuple[int, ...]:
    units = enc.grid.check_path(c.name, c.pos, path)
    last = len(path) - 1
    for i, s in enumerate(path):
        if enc.grid.kind(s) == VERY_DIFFICULT:
            # R-PF-MOV-2 / R-PF-FR-DS: a move action cannot enter very difficult terrain
            raise illegal(
                "terrain",
                _("{a}: {sq} is too cluttered to enter with a move action (use difficult_step)"),
                a=c.name,
                sq=fmt_square(s),
            )
        check_passage(enc, c, s, i == last)
    total = sum(units)
    if total > max_units:
        raise illegal(
            "bad_path",
            _("{a}: that path costs {cost}, more than the {most} allowed"),
            a=c.name,
            cost=metres(enc.grid.metres(total)),
            most=metres(enc.grid.metres(max_units)),
        )
    return tuple(units)


def check_resting(enc: Encounter, c: Combatant, extra_units: int) -> None:
    """R-PF-FR-RUN-5: while resting, no more than one move action's movement per turn."""
    d = data(c)
    if "resting" in c.conditions and d.moved_units + extra_units > d.p.speed_units:
        raise illegal(
            "condition", _("{a} is resting and may move no farther than its speed this turn"), a=c.name
        )


def check_no_step_taken(c: Combatant) -> None:
    if data(c).stepped:
        raise illegal(
            "already_moved", _("{a} took a 5-foot step this turn and may not move otherwise"), a=c.name
        )


def walk(
    enc: Encounter,
    c: Combatant,
    plan: Walk,
    exempt_at_start: Callable[[Combatant], bool] | None = None,
) -> Step:
    """Move along the path; leaving a threatened square provokes (R-PF-AOO-2), the opportunity
    resolving before the mover leaves; a mover left disabled or worse stops there (R-PF-AOO-5)."""
    d = data(c)
    start = c.pos
    before = c.state  # a disabled combatant moves too, and is stopped when it drops further
    offered: set[str] = set()
    walked: list[Square] = []
    spent = 0
    moved_before = d.moved
    for i, s in enumerate(plan.path):
        here = c.pos
        for r in reactors(enc, c, here, offered):
            if i == 0 and exempt_at_start is not None and exempt_at_start(r):
                continue  # R-PF-WD-2
            offered.add(r.id)  # R-PF-AOO-2: one opportunity per enemy per movement
            yield from offer_opportunity(enc, c, r, "leave_threatened", here)
            if stopped(c, before):
                break
        if stopped(c, before):
            # R-PF-AOO-5: the movement ends here (R-PF-MOV-3: on a square the mover may end on)
            kept = back_off_shared_square(enc, c, start, walked)
            spent = sum(plan.units[:kept])
            del walked[kept:]
            break
        enc.move_token(c, s)
        walked.append(s)
        spent += plan.units[i]
        d.moved = True  # already while a later step waits on a decision (the view's five_foot_step)
    # R-PF-MOV-4 speaks of moving "any distance": a movement stopped before its first step is none
    d.moved = moved_before or bool(walked)
    d.moved_units += spent
    if walked:
        enc.emit(ev.moved(c.id, start, c.pos, walked, enc.grid.metres(spent)))


# -- move (R-PF-MOV-1, R-PF-MOV-5) ------------------------------------------------------------------
def check_move(enc: Encounter, c: Combatant, cmd: Command) -> Walk:
    check_not_casting(c)
    check_no_step_taken(c)  # R-PF-MOV-4, R-PF-FR-FA-5
    slot = move_slot(enc, c)
    assert cmd.path is not None
    units = check_walk(enc, c, cmd.path, data(c).p.speed_units)
    check_resting(enc, c, sum(units))
    return Walk(cmd.path, units, slot)


def run_move(enc: Encounter, c: Combatant, cmd: Command, plan: Walk) -> Step:
    enc.emit(ev.action(c.id, "move", pay(enc, c, plan.slot)))
    yield from walk(enc, c, plan)


def move_candidates(enc: Encounter, c: Combatant) -> Iterator[Command]:
    yield from _destinations(enc, c, "move", data(c).p.speed_units)


def _destinations(enc: Encounter, c: Combatant, do: str, budget: int) -> Iterator[Command]:
    def can_enter(s: Square) -> bool:
        o = enc.occupied.get(s)
        return enc.grid.kind(s) != VERY_DIFFICULT and (o is None or o.side == c.side)

    def can_stop(s: Square) -> bool:
        return s not in enc.occupied

    for _dest, (_cost, path) in sorted(enc.grid.cheapest_paths(c.pos, budget, can_enter, can_stop).items()):
        yield Command(actor=c.id, do=do, path=path)


# -- 5-foot step (R-PF-MOV-4) -----------------------------------------------------------------------
def check_step_square(enc: Encounter, c: Combatant, to: Square) -> None:
    if not enc.grid.inside(to) or chebyshev(c.pos, to) != 1:
        raise illegal(
            "bad_path",
            _("{a}: {sq} is not next to {here}"),
            a=c.name,
            sq=fmt_square(to),
            here=fmt_square(c.pos),
        )
    if enc.grid.kind(to) == BLOCKED:
        raise illegal("bad_path", _("{a}: {sq} is a wall"), a=c.name, sq=fmt_square(to))
    if all(n != to for n, _diagonal in enc.grid.neighbours(c.pos)):
        raise illegal(
            "bad_path",
            _("{a}: the step to {sq} cuts a corner between two walls"),
            a=c.name,
            sq=fmt_square(to),
        )
    other = enc.occupied.get(to)
    if other is not None:
        raise illegal(
            "bad_path", _("{a}: {sq} is occupied by {o}"), a=c.name, sq=fmt_square(to), o=other.name
        )


def check_five_foot_step(enc: Encounter, c: Combatant, cmd: Command) -> Square:
    if casting_blocks_step(enc, c):
        raise casting_error(c)  # R-PF-FR-CAST-2: a turn spent casting allows no step
    d = data(c)
    assert cmd.to is not None
    if d.stepped:
        raise illegal("already_moved", _("{a} already took a 5-foot step this turn"), a=c.name)
    if d.moved:
        raise illegal(
            "already_moved", _("{a} already moved this round and cannot take a 5-foot step"), a=c.name
        )
    if d.no_step:
        # R-PF-FR-1, R-PF-WD-4
        raise illegal(
            "already_moved",
            _("{a} ran, withdrew or struggled through terrain this round: no 5-foot step"),
            a=c.name,
        )
    if d.p.speed_units <= 1:
        raise illegal("not_allowed", _("{a}'s speed is too low for a 5-foot step"), a=c.name)
    if "blinded" in c.conditions:
        raise illegal("condition", _("{a} is blinded: movement is hampered, no 5-foot step"), a=c.name)
    check_step_square(enc, c, cmd.to)
    if enc.grid.is_difficult(c.pos) or enc.grid.is_difficult(cmd.to):
        raise illegal("terrain", _("{a}: no 5-foot step into or out of difficult terrain"), a=c.name)
    return cmd.to


def run_five_foot_step(enc: Encounter, c: Combatant, cmd: Command, to: Square) -> Step:
    enc.emit(ev.action(c.id, "five_foot_step", []))
    start = c.pos
    enc.move_token(c, to)
    data(c).stepped = True
    enc.emit(ev.moved(c.id, start, to, [to], enc.grid.square_m))
    return
    yield


def neighbour_candidates(enc: Encounter, c: Combatant, do: str) -> Iterator[Command]:
    for n, _diagonal in enc.grid.neighbours(c.pos):
        if n not in enc.occupied:
            yield Command(actor=c.id, do=do, to=n)


def five_foot_step_candidates(enc: Encounter, c: Combatant) -> Iterator[Command]:
    yield from neighbour_candidates(enc, c, "five_foot_step")


# -- difficult_step (R-PF-FR-DS) --------------------------------------------------------------------
def check_difficult_step(enc: Encounter, c: Combatant, cmd: Command) -> Walk:
    check_not_casting(c)
    check_no_step_taken(c)
    check_full_round(enc, c)
    to = difficult_step_square(c, cmd)
    check_step_square(enc, c, to)
    diagonal = to[0] != c.pos[0] and to[1] != c.pos[1]
    units = enc.grid.step_units(to, diagonal, 0)
    if enc.grid.kind(to) != VERY_DIFFICULT and units <= data(c).p.speed_units:
        raise illegal(
            "not_allowed",
            _("{a} can reach {sq} with a move action; difficult_step is for squares it cannot"),
            a=c.name,
            sq=fmt_square(to),
        )
    check_resting(enc, c, 1)
    return Walk((to,), (units,), "full_round")


def difficult_step_square(c: Combatant, cmd: Command) -> Square:
    """The one square of a ``difficult_step``. The spec names no argument for it, so both common
    forms are accepted: ``to: [x, y]`` or a one-square ``path: [[x, y]]`` (not both)."""
    if (cmd.to is None) == (cmd.path is None):
        raise illegal(
            "invalid_command", _("{a}: difficult_step takes either 'to' or a one-square 'path'"), a=c.name
        )
    if cmd.to is not None:
        return cmd.to
    assert cmd.path is not None
    if len(cmd.path) != 1:
        raise illegal("bad_path", _("{a}: difficult_step moves exactly one square"), a=c.name)
    return cmd.path[0]


def run_difficult_step(enc: Encounter, c: Combatant, cmd: Command, plan: Walk) -> Step:
    enc.emit(ev.action(c.id, "difficult_step", pay(enc, c, "full_round")))
    data(c).no_step = True
    # not a 5-foot step: leaving a threatened square provokes as movement does
    yield from walk(enc, c, plan)


def difficult_step_candidates(enc: Encounter, c: Combatant) -> Iterator[Command]:
    yield from neighbour_candidates(enc, c, "difficult_step")


# -- run (R-PF-FR-RUN-1..5) ---------------------------------------------------------------------------
def run_multiplier(c: Combatant) -> int:
    p = data(c).p
    base = 5 if "run" in p.feats else 4
    return base - 1 if p.armor == "heavy" else base


def check_run(enc: Encounter, c: Combatant, cmd: Command) -> Walk:
    check_not_casting(c)
    check_no_step_taken(c)
    check_full_round(enc, c)
    if "blinded" in c.conditions:
        raise illegal("condition", _("{a} is blinded and cannot run"), a=c.name)
    if "resting" in c.conditions:
        raise illegal("condition", _("{a} is resting after running and cannot run yet"), a=c.name)
    assert cmd.path is not None
    here = c.pos
    direction = None
    for s in cmd.path:
        step = (s[0] - here[0], s[1] - here[1])
        if direction is None:
            direction = step
        elif step != direction:
            raise illegal("bad_path", _("{a}: a run must go in a straight line"), a=c.name)
        here = s
    for s in cmd.path:
        if enc.grid.inside(s) and enc.grid.is_difficult(s):
            raise illegal(
                "terrain", _("{a} cannot run over difficult terrain ({sq})"), a=c.name, sq=fmt_square(s)
            )
    units = check_walk(enc, c, cmd.path, data(c).p.speed_units * run_multiplier(c))
    return Walk(cmd.path, units, "full_round")


def run_run(enc: Encounter, c: Combatant, cmd: Command, plan: Walk) -> Step:
    d = data(c)
    if d.run_streak >= d.p.con:
        # R-PF-FR-RUN-4: past Con score rounds, a Con check DC 10 + 1 per earlier check
        dc = 10 + d.run_checks
        face = enc.dice.roll(20)
        total = face + d.p.con_mod
        ok = total >= dc
        d.run_checks += 1
        enc.emit(ev.check(c.id, "constitution", face, total, dc, ok))
        if not ok:
            until = {"round": enc.round + 10, "turn_of": c.id}
            d.run_streak = 0
            d.run_checks = 0
            enc.ruleset.add_condition(enc, c, "resting", until)
            return
    d.run_streak += 1
    d.ran_this_turn = True
    d.no_step = True
    enc.emit(ev.action(c.id, "run", pay(enc, c, "full_round")))
    if "run" not in d.p.feats:
        # R-PF-FR-RUN-2: a runner without the Run feat loses its Dex bonus to AC
        enc.ruleset.add_condition(enc, c, "running", {"round": enc.round + 1, "turn_of": c.id})
    yield from walk(enc, c, plan)


def run_candidates(enc: Encounter, c: Combatant) -> Iterator[Command]:
    for dx, dy in DIRECTIONS.values():
        path: list[Square] = []
        here = c.pos
        for _i in range(data(c).p.speed_units * run_multiplier(c)):
            here = (here[0] + dx, here[1] + dy)
            if not enc.grid.inside(here):
                break
            path.append(here)
            if here not in enc.occupied:
                yield Command(actor=c.id, do="run", path=tuple(path))


# -- withdraw (R-PF-WD-1..6) --------------------------------------------------------------------------
def check_withdraw(enc: Encounter, c: Combatant, cmd: Command) -> Walk:
    check_not_casting(c)
    d = data(c)
    if "blinded" in c.conditions:
        raise illegal("condition", _("{a} is blinded and cannot withdraw"), a=c.name)  # R-PF-WD-4
    if d.stepped:
        raise illegal("already_moved", _("{a} took a 5-foot step this round and cannot withdraw"), a=c.name)
    if d.p.speed_units < 1:
        raise illegal("not_allowed", _("{a} has no ground speed to withdraw with"), a=c.name)  # R-PF-WD-5
    why = restriction(enc, c)
    if why in ("staggered", "disabled"):
        # R-PF-WD-6: restricted withdraw, a standard action moving up to speed
        if d.standard < 1 or d.move < 1:
            raise illegal("no_budget", _("{a} has no action left this turn"), a=c.name)
        slot, most = "standard", d.p.speed_units
    else:
        check_full_round(enc, c)
        slot, most = "full_round", d.p.speed_units * 2
    assert cmd.path is not None
    units = check_walk(enc, c, cmd.path, most)
    check_resting(enc, c, sum(units))
    return Walk(cmd.path, units, slot)


def run_withdraw(enc: Encounter, c: Combatant, cmd: Command, plan: Walk) -> Step:
    enc.emit(ev.action(c.id, "withdraw", pay(enc, c, plan.slot)))
    data(c).no_step = True

    def seen(r: Combatant) -> bool:
        # R-PF-WD-2: the start square is not threatened by enemies the mover can see
        return "invisible" not in r.conditions

    yield from walk(enc, c, plan, exempt_at_start=seen)


def withdraw_candidates(enc: Encounter, c: Combatant) -> Iterator[Command]:
    yield from _destinations(enc, c, "withdraw", data(c).p.speed_units * 2)


# -- draw_weapon --------------------------------------------------------------------------------------
def check_draw_weapon(enc: Encounter, c: Combatant, cmd: Command) -> str:
    check_not_casting(c)
    p = data(c).p
    if cmd.weapon not in p.weapons:
        raise illegal("invalid_command", _("{a} has no weapon {w!r}"), a=c.name, w=cmd.weapon)
    if cmd.weapon in c.wielding:
        raise illegal("not_allowed", _("{a} already holds {w}"), a=c.name, w=cmd.weapon)
    return move_slot(enc, c)


def run_draw_weapon(enc: Encounter, c: Combatant, cmd: Command, slot: str) -> Step:
    assert cmd.weapon is not None
    enc.emit(ev.action(c.id, "draw_weapon", pay(enc, c, slot)))
    # pf1.md, Stats: "draw_weapon adds one" to wielding (nothing is put away; hands are not counted)
    c.wielding = [*c.wielding, cmd.weapon]
    return
    yield


def draw_weapon_candidates(enc: Encounter, c: Combatant) -> Iterator[Command]:
    for w in data(c).p.weapons:
        if w not in c.wielding:
            yield Command(actor=c.id, do="draw_weapon", weapon=w)
