"""pf1 attack actions: attack, the full attack it can turn into, and two-weapon fighting (R-PF-FR-FA)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...engine import events as ev
from ...engine.commands import Command
from ...engine.state import Combatant
from ...i18n import _
from ..base import illegal
from ..gm import target_of
from .combat import provoke, resolve_attack, stopped, weapon_reaches
from .economy import can_full_round, check_full_round, check_not_casting, check_standard, no_budget, pay
from .state import Pf1Data, data
from .stats import Weapon


@dataclass(frozen=True, slots=True)
class AttackPlan:
    target: Combatant
    weapon: Weapon
    off_hand: bool
    base: int  # the iterative's base attack bonus
    opens_full: bool  # this attack emits action full_attack
    first: bool
    defensively: bool


if TYPE_CHECKING:
    from ...engine.core import Encounter, Step


def iteratives(bab: int) -> list[int]:
    """R-PF-FR-FA-1: bab, bab-5, bab-10, bab-15 while > 0 (the first always)."""
    out = [bab]
    for k in (5, 10, 15):
        if bab - k > 0:
            out.append(bab - k)
    return out


def has_off_hand(c: Combatant) -> bool:
    p = data(c).p
    return any(p.weapons[w].off_hand or p.weapons[w].double for w in c.wielding)


def two_weapon_penalty(c: Combatant, off: bool) -> int:
    """R-PF-FR-FA-4."""
    p = data(c).p
    light = any((p.weapons[w].off_hand and p.weapons[w].light) or p.weapons[w].double for w in c.wielding)
    if "two_weapon_fighting" in p.feats:
        return -2 if light else -4
    if light:
        return -8 if off else -4
    return -10 if off else -6


def check_attack(enc: Encounter, c: Combatant, cmd: Command) -> AttackPlan:
    check_not_casting(c)
    d = data(c)
    target = target_of(enc, cmd)
    if target is c:
        raise illegal("not_allowed", _("{a} cannot attack itself"), a=c.name)
    if target.state == "dead":
        raise illegal("not_allowed", _("{t} is already dead"), t=target.name)
    if cmd.weapon is None:
        if not c.wielding:
            raise illegal("not_allowed", _("{a} holds no weapon"), a=c.name)
        wid = c.wielding[0]
    else:
        wid = cmd.weapon
    w = d.p.weapons.get(wid)
    if w is None:
        raise illegal("invalid_command", _("{a} has no weapon {w!r}"), a=c.name, w=wid)
    if wid not in c.wielding:
        raise illegal("not_allowed", _("{a} does not hold {w} (draw_weapon first)"), a=c.name, w=wid)
    if cmd.hand is not None and cmd.hand not in ("main", "off"):
        raise illegal("invalid_command", _("{a}: hand must be main or off"), a=c.name)
    off = w.off_hand or (w.double and cmd.hand == "off")
    first = d.attacks == 0 and d.off_attacks == 0
    opens_full = False
    if first:
        check_standard(enc, c)
        if cmd.full_attack:
            # R-PF-FR-FA-2b: a two-weapon full attack is declared on its first attack;
            # R-PF-ECO-5: staggered or disabled, never (condition), as for every full-round action
            check_full_round(enc, c)
            if d.moved:
                raise no_budget(c, "full_attack")
            opens_full = True
        elif off:
            raise illegal(
                "not_allowed",
                _("{a}: an off-hand attack needs full_attack: true on the first attack"),
                a=c.name,
            )
        defensively = bool(cmd.defensively)
        base = d.p.bab
        if w.double and cmd.hand is None:
            off = False
    else:
        if cmd.full_attack is False and d.declared_full:
            # R-PF-FR-FA-2b: the declaration holds for the whole turn (full_attack: true on a later
            # attack is harmless: a further attack makes a full attack anyway, R-PF-FR-FA-2)
            raise illegal(
                "not_allowed", _("{a}: a full attack is declared on the first attack of the turn"), a=c.name
            )
        if cmd.defensively is not None and cmd.defensively != d.defensive_turn:
            # R-PF-FR-FA-6: fighting defensively is declared on the first attack
            raise illegal(
                "not_allowed", _("{a}: fighting defensively is declared on the first attack"), a=c.name
            )
        defensively = d.defensive_turn
        if not d.full_attack:
            # R-PF-FR-FA-2: a further attack turns the action into a full attack
            if not (d.could_full_attack and d.move >= 1 and not d.moved and can_full_round_now(enc, c, d)):
                raise no_budget(c, "further_attack")
            opens_full = True
        if w.double and cmd.hand is None:
            off = d.attacks >= len(iteratives(d.p.bab)) and d.two_weapon
        if off:
            if not d.two_weapon or not has_off_hand(c):
                raise illegal(
                    "not_allowed",
                    _("{a}: an off-hand attack needs full_attack: true on the first attack"),
                    a=c.name,
                )
            if d.off_attacks >= 1:
                raise no_budget(c, "off_hand")
            base = d.p.bab
        else:
            its = iteratives(d.p.bab)
            if d.attacks >= len(its):
                raise no_budget(c, "iterative")
            base = its[d.attacks]
    if w.melee:
        if not weapon_reaches(enc, w, c.pos, target.pos):
            raise illegal(
                "out_of_reach", _("{t} is out of reach of {a}'s {w}"), t=target.name, a=c.name, w=w.id
            )
    elif w.range_m is not None and enc.grid.distance_m(c.pos, target.pos) > w.range_m + 1e-9:
        raise illegal(
            "out_of_reach", _("{t} is beyond the range of {a}'s {w}"), t=target.name, a=c.name, w=w.id
        )
    return AttackPlan(target, w, off, base, opens_full, first, defensively)


def can_full_round_now(enc: Encounter, c: Combatant, d: Pf1Data) -> bool:
    # after the first attack the standard is spent; what matters is the restriction and the move
    from .economy import restriction

    return restriction(enc, c) is None and d.move >= 1


def run_attack(enc: Encounter, c: Combatant, cmd: Command, plan: AttackPlan) -> Step:
    d = data(c)
    if plan.first:
        d.could_full_attack = can_full_round(enc, c) and not d.moved
        if plan.opens_full:
            d.declared_full = True
            d.full_attack = True
            d.two_weapon = has_off_hand(c)
            enc.emit(ev.action(c.id, "full_attack", pay(enc, c, "full_round")))
        else:
            enc.emit(ev.action(c.id, "attack", pay(enc, c, "standard")))
        if plan.defensively:
            d.defensive_turn = True
            # R-PF-ATK-5 / R-PF-FR-FA-6: +2 dodge AC until the start of its next turn
            enc.ruleset.add_condition(
                enc, c, "fighting_defensively", {"round": enc.round + 1, "turn_of": c.id}
            )
    elif plan.opens_full:
        d.full_attack = True
        d.move = 0
        enc.emit(ev.action(c.id, "full_attack", ["full_round"]))
    if plan.off_hand:
        d.off_attacks += 1
    else:
        d.attacks += 1
    if not plan.weapon.melee:
        # R-PF-AOO-3: a ranged attack provokes
        before = c.state
        yield from provoke(enc, c, c.pos, "ranged")
        if stopped(c, before):
            return  # R-PF-AOO-5
    extra: list[tuple[str, int]] = []
    if plan.defensively:
        extra.append(("defensively", -4))
    if d.two_weapon:
        extra.append(("two_weapon", two_weapon_penalty(c, plan.off_hand)))
    kind = "full_attack" if d.full_attack else "normal"
    resolve_attack(enc, c, plan.target, plan.weapon, kind, plan.base, extra, off_hand=plan.off_hand)


def attack_candidates(enc: Encounter, c: Combatant) -> Iterator[Command]:
    for w in c.wielding:
        for t in enc.order:
            if t is not c and t.side != c.side and t.state != "dead":
                yield Command(actor=c.id, do="attack", target=t.id, weapon=w)
