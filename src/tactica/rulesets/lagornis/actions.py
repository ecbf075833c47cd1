"""lagornis actions that are neither movement nor spells: attack, extended_defense, bonus_reaction,
bonus_move, end_turn; and ``announce``, the one place that logs an action and pays for it."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ...engine import events as ev
from ...engine.commands import Command
from ...engine.state import Combatant
from ...i18n import _
from ..base import illegal
from ..gm import target_of
from .combat import Flow, reaches, strike, usable_weapons, weapon_of, weapon_strike
from .economy import Payment, bonus_action, check_incantation_kept, full_action, gain, spend
from .state import data
from .stats import Weapon

if TYPE_CHECKING:
    from ...engine.core import Encounter


def announce(
    enc: Encounter,
    c: Combatant,
    action: str,
    pay: Payment | None,
    *,
    uses_reaction: bool = False,
    **extra: Any,
) -> None:
    """Pay for ``action`` and emit its ``action`` event; ``pay=None`` marks a released held action
    (R-LG-HOLD-2: its full action was spent by ``hold``). ``uses_reaction``: an advanced defence
    (R-LG-REA-8) also spends a reaction, listed as the format's lagornis slot ``reaction`` after the
    action slots (format.md section 6 order: full, half, bonus, reaction)."""
    cost = spend(enc, c, pay)
    if uses_reaction:
        cost.append("reaction")
    event = ev.action(c.id, action, cost)
    if pay is None:
        event["held"] = True
    event.update(extra)
    enc.emit(event)


def checked_payment(enc: Encounter, c: Combatant, pay: Payment | None) -> Payment | None:
    """``pay``, once checked it leaves an incanting caster enough to go on (R-LG-CAST-3)."""
    check_incantation_kept(enc, c, pay)
    return pay


# -- attack (R-LG-ATK-1) ------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class AttackPlan:
    target: Combatant
    weapon: Weapon
    pay: Payment | None


def plan_attack(enc: Encounter, c: Combatant, cmd: Command, held: bool = False) -> AttackPlan:
    t = target_of(enc, cmd)
    if t is c:
        raise illegal("not_allowed", _("{a} cannot attack itself"), a=c.name)
    if enc.ruleset.is_defeated(t):
        raise illegal("not_allowed", _("{t} is already out of the fight"), t=t.name)
    w = weapon_of(c, cmd.weapon, "attack")
    # R-LG-ATK-1: an attack costs 1 action, the whole full action
    pay = checked_payment(enc, c, None if held else full_action(c))
    if not reaches(enc, w, c, t):
        raise illegal("out_of_reach", _("{t} is out of reach of {a}'s {w}"), t=t.name, a=c.name, w=w.id)
    return AttackPlan(t, w, pay)


def check_attack(enc: Encounter, c: Combatant, cmd: Command) -> AttackPlan:
    return plan_attack(enc, c, cmd)


def run_attack(enc: Encounter, c: Combatant, cmd: Command, plan: AttackPlan) -> Flow:
    announce(enc, c, "attack", plan.pay)
    yield from strike(enc, weapon_strike(c, plan.target, plan.weapon, "normal"))


def attack_candidates(enc: Encounter, c: Combatant) -> Iterator[Command]:
    for w in usable_weapons(c):
        for t in enc.order:
            if t.side != c.side and not enc.ruleset.is_defeated(t):
                yield Command(actor=c.id, do="attack", target=t.id, weapon=w.id)


# -- extended_defense (R-LG-REA-9) --------------------------------------------------------------------
def plan_extended_defense(enc: Encounter, c: Combatant, cmd: Command, held: bool = False) -> Payment | None:
    d = data(c)
    if d.extended:
        raise illegal("not_allowed", _("{a} is already in extended defence this round"), a=c.name)
    if not (d.p.skill("defense") > 0 or any(d.p.skill(w.category) > 0 for w in usable_weapons(c))):
        raise illegal(
            "not_allowed",
            _("{a} needs a defense skill rank or a mastery of one of its weapons for extended defence"),
            a=c.name,
        )
    return checked_payment(enc, c, None if held else full_action(c))


def check_extended_defense(enc: Encounter, c: Combatant, cmd: Command) -> Payment | None:
    return plan_extended_defense(enc, c, cmd)


def run_extended_defense(enc: Encounter, c: Combatant, cmd: Command, pay: Payment | None) -> Flow:
    announce(enc, c, "extended_defense", pay)
    data(c).extended = True
    gain(enc, c, "reactions", 2)  # R-LG-REA-9: +2 reactions this round
    return
    yield


def extended_defense_candidates(enc: Encounter, c: Combatant) -> Iterator[Command]:
    yield Command(actor=c.id, do="extended_defense")


# -- the bonus action spent otherwise (R-LG-ECO-5) ----------------------------------------------------
def check_bonus_reaction(enc: Encounter, c: Combatant, cmd: Command) -> Payment | None:
    return checked_payment(enc, c, bonus_action(c))


def run_bonus_reaction(enc: Encounter, c: Combatant, cmd: Command, pay: Payment) -> Flow:
    announce(enc, c, "bonus_reaction", pay)
    gain(enc, c, "reactions", 1)
    return
    yield


def bonus_reaction_candidates(enc: Encounter, c: Combatant) -> Iterator[Command]:
    yield Command(actor=c.id, do="bonus_reaction")


def check_bonus_move(enc: Encounter, c: Combatant, cmd: Command) -> Payment | None:
    return checked_payment(enc, c, bonus_action(c))


def run_bonus_move(enc: Encounter, c: Combatant, cmd: Command, pay: Payment) -> Flow:
    announce(enc, c, "bonus_move", pay)
    # our choice: one more movement is a whole movement, speed_m plus the course bonus (R-LG-MOV-1)
    gain(enc, c, "movement_m", data(c).p.movement_m)
    return
    yield


def bonus_move_candidates(enc: Encounter, c: Combatant) -> Iterator[Command]:
    yield Command(actor=c.id, do="bonus_move")


# -- end_turn -------------------------------------------------------------------------------------------
def check_end_turn(enc: Encounter, c: Combatant, cmd: Command) -> None:
    return None


def run_end_turn(enc: Encounter, c: Combatant, cmd: Command, plan: None) -> Flow:
    yield from enc.ruleset.end_turn(enc, c)


def end_turn_candidates(enc: Encounter, c: Combatant) -> Iterator[Command]:
    yield Command(actor=c.id, do="end_turn")
