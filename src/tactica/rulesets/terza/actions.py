"""terza turn actions besides movement, spells and the third action: attack, offhand_attack,
dodge, disengage, draw, sheathe, end_turn (R-TA-ECO-1, R-TA-ECO-4)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...engine import events as ev
from ...engine.commands import Command
from ...engine.grid import chebyshev
from ...engine.state import Combatant
from ...i18n import _
from ..base import illegal
from ..gm import target_of
from .combat import resolve_attack
from .economy import check_can_act, check_slot, pay
from .hands import draw, held_item, sheathe
from .state import data
from .stats import Weapon

if TYPE_CHECKING:
    from ...engine.core import Encounter, Step


@dataclass(frozen=True, slots=True)
class AttackPlan:
    target: Combatant
    weapon: Weapon
    first: bool  # this attack takes the action (the Attack action starts)


def _target(enc: Encounter, c: Combatant, cmd: Command) -> Combatant:
    t = target_of(enc, cmd)
    if t is c:
        raise illegal("not_allowed", _("{a} cannot attack itself"), a=c.name)
    if t.state == "dead":
        raise illegal("not_allowed", _("{t} is already dead"), t=t.name)
    return t


def _weapon(c: Combatant, wid: str | None) -> Weapon:
    """The weapon ``wid`` names (default: the first in hand); ``unarmed`` needs unarmed_combat."""
    p = data(c).p
    if wid is None:
        held = [w for w in c.wielding if w in p.weapons]
        if held:
            wid = held[0]
        elif "unarmed_combat" in p.skills:
            return p.unarmed
        else:
            raise illegal("not_allowed", _("{a} holds no weapon (draw one first)"), a=c.name)
    if wid == "unarmed" and "unarmed_combat" in p.skills:
        return p.unarmed
    w = p.weapons.get(wid)
    if w is None:
        raise illegal("invalid_command", _("{a} has no weapon {w!r}"), a=c.name, w=wid)
    if wid not in c.wielding:
        raise illegal("not_allowed", _("{a} does not hold {w} (draw it first)"), a=c.name, w=wid)
    return w


def check_in_range(enc: Encounter, c: Combatant, t: Combatant, w: Weapon) -> None:
    if w.melee:
        if chebyshev(c.pos, t.pos) > w.reach_units:
            raise illegal("out_of_reach", _("{t} is out of reach of {a}'s {w}"), t=t.name, a=c.name, w=w.id)
    elif w.range_m is not None and enc.grid.distance_m(c.pos, t.pos) > w.range_m + 1e-9:
        raise illegal("out_of_reach", _("{t} is beyond the range of {a}'s {w}"), t=t.name, a=c.name, w=w.id)


# -- attack: the Attack action, `attacks` weapon attacks (R-TA-ECO-4) --------------------------------
def check_attack(enc: Encounter, c: Combatant, cmd: Command) -> AttackPlan:
    check_can_act(c)
    target = _target(enc, c, cmd)
    w = _weapon(c, cmd.weapon)
    d = data(c)
    first = not (d.attack_action and d.attacks_left > 0)
    if first:
        check_slot(c, "action")
    check_in_range(enc, c, target, w)
    return AttackPlan(target, w, first)


def run_attack(enc: Encounter, c: Combatant, cmd: Command, plan: AttackPlan) -> Step:
    d = data(c)
    if plan.first:
        enc.emit(ev.action(c.id, "attack", pay(c, "action")))
        d.attack_action = True
        d.attacks_left = d.p.attacks
    d.attacks_left -= 1
    d.attacked_this_round = True  # R-TA-3-4 (a)
    yield from resolve_attack(enc, c, plan.target, plan.weapon, "normal")


def _attack_targets(enc: Encounter, c: Combatant) -> Iterator[Combatant]:
    return (t for t in enc.order if t.side != c.side and t.state != "dead")


def attack_candidates(enc: Encounter, c: Combatant) -> Iterator[Command]:
    for t in _attack_targets(enc, c):
        for w in c.wielding:
            if w in data(c).p.weapons:
                yield Command(actor=c.id, do="attack", target=t.id, weapon=w)
        if "unarmed_combat" in data(c).p.skills:
            yield Command(actor=c.id, do="attack", target=t.id, weapon="unarmed")


# -- offhand_attack: a bonus action with a light weapon (R-TA-ECO-1) ----------------------------------
def check_offhand_attack(enc: Encounter, c: Combatant, cmd: Command) -> AttackPlan:
    check_can_act(c)
    target = _target(enc, c, cmd)
    p = data(c).p
    wid = cmd.weapon
    if wid is None:
        light = [w for w in c.wielding if w in p.weapons and p.weapons[w].light]
        if not light:
            raise illegal("not_allowed", _("{a} holds no light weapon for an off-hand attack"), a=c.name)
        wid = light[-1]
    w = _weapon(c, wid)
    if not w.light:
        raise illegal("not_allowed", _("{w} is not a light weapon: no off-hand attack with it"), w=w.id)
    check_slot(c, "bonus")
    check_in_range(enc, c, target, w)
    return AttackPlan(target, w, False)


def run_offhand_attack(enc: Encounter, c: Combatant, cmd: Command, plan: AttackPlan) -> Step:
    enc.emit(ev.action(c.id, "offhand_attack", pay(c, "bonus")))
    data(c).attacked_this_round = True  # R-TA-3-4 (a)
    yield from resolve_attack(enc, c, plan.target, plan.weapon, "normal", off_hand=True)


def offhand_attack_candidates(enc: Encounter, c: Combatant) -> Iterator[Command]:
    p = data(c).p
    for t in _attack_targets(enc, c):
        for w in c.wielding:
            if w in p.weapons and p.weapons[w].light:
                yield Command(actor=c.id, do="offhand_attack", target=t.id, weapon=w)


# -- dodge, disengage (R-TA-ECO-4) ------------------------------------------------------------------
def check_plain_action(enc: Encounter, c: Combatant, cmd: Command) -> None:
    check_can_act(c)
    check_slot(c, "action")


def run_dodge(enc: Encounter, c: Combatant, cmd: Command, plan: None) -> Step:
    enc.emit(ev.action(c.id, "dodge", pay(c, "action")))
    # attacks against it have disadvantage until its next turn
    enc.ruleset.add_condition(enc, c, "dodging", {"round": enc.round + 1, "turn_of": c.id})
    return
    yield


def run_disengage(enc: Encounter, c: Combatant, cmd: Command, plan: None) -> Step:
    enc.emit(ev.action(c.id, "disengage", pay(c, "action")))
    data(c).disengaged = True  # R-TA-ZOC-6: its movement provokes no more this turn
    return
    yield


def plain_candidates(do: str) -> Callable[[Encounter, Combatant], Iterator[Command]]:
    def candidates(enc: Encounter, c: Combatant) -> Iterator[Command]:
        yield Command(actor=c.id, do=do)

    return candidates


# -- draw, sheathe: the free object interaction, then the action (R-TA-ECO-1) ----------------------------
def check_draw(enc: Encounter, c: Combatant, cmd: Command) -> str | None:
    return _check_interaction(c, cmd, in_hand=False)


def check_sheathe(enc: Encounter, c: Combatant, cmd: Command) -> str | None:
    return _check_interaction(c, cmd, in_hand=True)


def _check_interaction(c: Combatant, cmd: Command, in_hand: bool) -> str | None:
    """The slot it costs: None while the turn's free interaction is unused, else the action.
    Our choice: the shield is taken up and put away the same way as a weapon."""
    check_can_act(c)
    held_item(c, cmd.weapon, in_hand, shield_too=True)
    if data(c).interaction >= 1:
        return None
    check_slot(c, "action")
    return "action"


def _spend_interaction(enc: Encounter, c: Combatant, do: str, wid: str, slot: str | None) -> None:
    if slot is None:
        data(c).interaction -= 1
    event = ev.action(c.id, do, pay(c, slot))
    event["weapon"] = wid
    enc.emit(event)


def run_draw(enc: Encounter, c: Combatant, cmd: Command, slot: str | None) -> Step:
    assert cmd.weapon is not None
    _spend_interaction(enc, c, "draw", cmd.weapon, slot)
    draw(c, cmd.weapon)
    return
    yield


def run_sheathe(enc: Encounter, c: Combatant, cmd: Command, slot: str | None) -> Step:
    assert cmd.weapon is not None
    _spend_interaction(enc, c, "sheathe", cmd.weapon, slot)
    yield from sheathe(enc, c, cmd.weapon)  # R-TA-3-6: in an enemy zone it provokes


def _holdables(c: Combatant) -> list[str]:
    p = data(c).p
    return [*p.weapons, *([p.shield.id] if p.shield else [])]


def draw_candidates(enc: Encounter, c: Combatant) -> Iterator[Command]:
    for w in _holdables(c):
        if w not in c.wielding:
            yield Command(actor=c.id, do="draw", weapon=w)


def sheathe_candidates(enc: Encounter, c: Combatant) -> Iterator[Command]:
    for w in c.wielding:
        yield Command(actor=c.id, do="sheathe", weapon=w)


# -- end_turn ---------------------------------------------------------------------------------------
def check_end_turn(enc: Encounter, c: Combatant, cmd: Command) -> None:
    return None


def run_end_turn(enc: Encounter, c: Combatant, cmd: Command, plan: None) -> Step:
    yield from enc.ruleset.end_turn(enc, c)


def end_turn_candidates(enc: Encounter, c: Combatant) -> Iterator[Command]:
    yield Command(actor=c.id, do="end_turn")
