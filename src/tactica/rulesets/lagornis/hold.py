"""Held actions (R-LG-HOLD, the seed's "contenir son action"): ``hold`` spends the full action now
and names a command and a trigger; when the trigger happens the holder may release it at once."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ...engine.commands import Command, Square
from ...engine.errors import IllegalCommand
from ...engine.state import Combatant, Window
from ...i18n import _
from ...vocabulary import label
from ..base import illegal
from .economy import Payment, acts_out_of_turn, check_fields, check_incantation_kept, full_action
from .state import EPS, Held, data

if TYPE_CHECKING:
    from ...engine.core import Encounter
    from .combat import Flow

TRIGGERS = ("enemy_enters_reach", "attacked", "ally_attacked", "enemy_moves")
HOLDABLE = ("attack", "cast", "move", "extended_defense", "disengage")
"""The actions a combatant may hold: an attack or a defence (the seed), a spell, a movement."""

PlanFn = Callable[["Encounter", Combatant, Command, bool], Any]
RunFn = Callable[["Encounter", Combatant, Command, Any], "Flow"]


def holdable(do: str) -> tuple[PlanFn, RunFn]:
    """The plan (checks) and run functions of a holdable action."""
    from . import actions, casting, movement

    table: dict[str, tuple[PlanFn, RunFn]] = {
        "attack": (actions.plan_attack, actions.run_attack),
        "cast": (casting.plan_cast, casting.run_cast),
        "move": (movement.plan_move, movement.run_move),
        "extended_defense": (actions.plan_extended_defense, actions.run_extended_defense),
        "disengage": (movement.plan_disengage, movement.run_disengage),
    }
    return table[do]


# -- hold (R-LG-HOLD-1) ----------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class HoldPlan:
    held: Held
    pay: Payment


def check_hold(enc: Encounter, c: Combatant, cmd: Command) -> HoldPlan:
    assert cmd.then is not None and cmd.trigger is not None
    if cmd.trigger not in TRIGGERS:
        raise illegal(
            "invalid_command", _("{a}: trigger must be one of {t}"), a=c.name, t=", ".join(TRIGGERS)
        )
    if cmd.by is not None and cmd.by not in enc.combatants:
        raise illegal("unknown_combatant", _("there is no combatant {t!r}"), t=cmd.by)
    then = cmd.then
    if then.actor != c.id:
        raise illegal("invalid_command", _("{a}: the held command (then) must be {a}'s own"), a=c.name)
    if then.do not in HOLDABLE:
        raise illegal(
            "not_allowed",
            _("{a} cannot hold {do} (holdable: {h})"),
            a=c.name,
            do=label("action", then.do),
            h=", ".join(label("action", h) for h in HOLDABLE),
        )
    check_fields(then, enc.ruleset.actions[then.do].fields)
    pay = full_action(c)  # R-LG-HOLD-1: the full action is spent now
    check_incantation_kept(enc, c, pay)
    check_held_command(enc, c, then)
    return HoldPlan(Held(then, cmd.trigger, cmd.by), pay)


def check_held_command(enc: Encounter, c: Combatant, then: Command) -> None:
    """What can be checked of the held command now (the rest is checked when it is released)."""
    from .combat import weapon_of

    if then.do == "attack":
        weapon_of(c, then.weapon, "attack")
        if then.target is not None and then.target not in enc.combatants:
            raise illegal("unknown_combatant", _("there is no combatant {t!r}"), t=then.target)
    elif then.do == "cast":
        spell = data(c).p.spells.get(then.spell or "")
        if spell is None:
            raise illegal("invalid_command", _("{a} has no spell {s!r}"), a=c.name, s=then.spell)
        if spell.cost > 1 + EPS:
            raise illegal(
                "not_allowed", _("{a}: {s} is incanted over turns and cannot be held"), a=c.name, s=spell.id
            )
    elif then.do == "move" and not then.path:
        raise illegal("invalid_command", _("{a}: move needs 'path'"), a=c.name)


def run_hold(enc: Encounter, c: Combatant, cmd: Command, plan: HoldPlan) -> Flow:
    from .actions import announce

    announce(enc, c, "hold", plan.pay, trigger=plan.held.trigger, then=plan.held.then.to_json())
    data(c).held = plan.held
    return
    yield


def hold_candidates(enc: Encounter, c: Combatant) -> Iterator[Command]:
    from .combat import usable_weapons

    for w in usable_weapons(c):
        for trigger in TRIGGERS:
            yield Command(
                actor=c.id, do="hold", trigger=trigger, then=Command(actor=c.id, do="attack", weapon=w.id)
            )


# -- triggers and release (R-LG-HOLD-2) ------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class HoldCtx:
    command: Command


def aimed(then: Command, at: Combatant) -> Command:
    """The held command as it runs: an attack or spell without a target strikes whoever triggered it."""
    if then.do in ("attack", "cast") and then.target is None and then.targets is None:
        return dataclasses.replace(then, target=at.id)
    return then


def hold_reach(enc: Encounter, h: Combatant, then: Command) -> float:
    """How far ``enemy_enters_reach`` looks: the held attack's weapon, else the longest weapon."""
    from .combat import usable_weapons

    weapons = usable_weapons(h)
    if then.do == "attack" and then.weapon is not None:
        weapons = [w for w in weapons if w.id == then.weapon]
    return max([w.reach_m for w in weapons] + [enc.grid.square_m])


def triggered(
    enc: Encounter,
    h: Combatant,
    held: Held,
    actor: Combatant,
    victim: Combatant | None,
    step: tuple[Square, Square] | None,
) -> bool:
    if held.trigger == "attacked":
        return victim is h
    if held.trigger == "ally_attacked":
        return victim is not None and victim is not h and victim.side == h.side
    if actor.side == h.side:
        return False
    if held.trigger == "enemy_moves":
        return step is None
    if step is None:
        return False
    reach = hold_reach(enc, h, held.then)
    frm, to = step
    inside_now = enc.grid.distance_m(h.pos, to) <= reach + EPS
    inside_before = enc.grid.distance_m(h.pos, frm) <= reach + EPS
    return inside_now and not inside_before


def offer_holds(
    enc: Encounter,
    actor: Combatant,
    victim: Combatant | None,
    step: tuple[Square, Square] | None,
    triggers: tuple[str, ...],
) -> Flow:
    """Offer every holder whose trigger just happened its ``release`` / ``decline`` decision, in
    initiative order; only when its held command could run now."""
    for h in list(enc.order):
        held = data(h).held
        if held is None or held.trigger not in triggers or h is actor or not acts_out_of_turn(enc, h):
            continue
        if held.by is not None and held.by != actor.id:
            continue  # R-LG-HOLD-1: restricted to one combatant
        if not triggered(enc, h, held, actor, victim, step):
            continue
        cmd = aimed(held.then, actor)
        plan_fn, _run = holdable(cmd.do)
        try:
            plan_fn(enc, h, cmd, True)
        except IllegalCommand:
            continue  # it could not run now: no decision to offer
        trigger = {"type": "hold", "trigger": held.trigger, "by": actor.id, "then": cmd.do}
        answer = yield Window(h.id, ("release", "decline"), trigger, HoldCtx(cmd))
        if answer.do == "release":
            yield from release(enc, h, cmd)
        if enc.ruleset.is_defeated(actor):
            return


def release(enc: Encounter, h: Combatant, cmd: Command) -> Flow:
    """Run the held command now, before the triggering act completes; nothing more to pay."""
    data(h).held = None
    plan_fn, run_fn = holdable(cmd.do)
    plan = plan_fn(enc, h, cmd, True)
    yield from run_fn(enc, h, cmd, plan)


def attack_triggers(enc: Encounter, attacker: Combatant, target: Combatant) -> Flow:
    yield from offer_holds(enc, attacker, target, None, ("attacked", "ally_attacked"))


def movement_triggers(enc: Encounter, mover: Combatant, frm: Square | None, to: Square | None) -> Flow:
    if frm is None or to is None:
        yield from offer_holds(enc, mover, None, None, ("enemy_moves",))
    else:
        yield from offer_holds(enc, mover, None, (frm, to), ("enemy_enters_reach",))


def check_hold_answer(enc: Encounter, ctx: HoldCtx, cmd: Command) -> None:
    check_fields(cmd, ())
