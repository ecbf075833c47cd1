"""lagornis spells (R-LG-CAST, R-LG-ATK-5): spells of 0.5 or 1 action, incantation over several
turns, abandoning it, and a 0.5 spell cast as an advanced defence (R-LG-REA-8)."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...engine import events as ev
from ...engine.commands import Command
from ...engine.state import Combatant
from ...i18n import _, ngettext_amount, number
from ..base import illegal
from .actions import announce, checked_payment
from .combat import Flow, Mods, Strike, strike
from .economy import (
    Payment,
    check_pay_field,
    fmt,
    full_action,
    half_action,
    no_budget,
    take_reaction,
    used,
)
from .state import EPS, Incantation, data
from .stats import Spell

if TYPE_CHECKING:
    from ...engine.core import Encounter


@dataclass(frozen=True, slots=True)
class CastPlan:
    spell: Spell
    targets: tuple[Combatant, ...]
    pay: Payment | None
    feeds: float  # what this cast puts into an incantation (R-LG-CAST-2); 0 for a spell cast at once
    incanting: bool


def spell_targets(enc: Encounter, c: Combatant, spell: Spell, cmd: Command) -> tuple[Combatant, ...]:
    names = [*(cmd.targets or ()), *((cmd.target,) if cmd.target else ())]
    if len(set(names)) != len(names):
        raise illegal("invalid_command", _("{a}: a target is named twice"), a=c.name)
    if len(names) > 1 and not spell.area:
        raise illegal(
            "not_allowed",
            _("{a}: only an area spell takes several targets ({s} is not one)"),
            a=c.name,
            s=spell.id,
        )
    out = []
    for name in names:
        t = enc.combatants.get(name)
        if t is None:
            raise illegal("unknown_combatant", _("there is no combatant {t!r}"), t=name)
        if enc.ruleset.is_defeated(t):
            raise illegal("not_allowed", _("{t} is already out of the fight"), t=t.name)
        if spell.damage is not None and t is c:
            raise illegal("not_allowed", _("{a} cannot attack itself"), a=c.name)
        if spell.range_m is not None and enc.grid.distance_m(c.pos, t.pos) > spell.range_m + EPS:
            raise illegal("out_of_reach", _("{t} is beyond the range of {s}"), t=t.name, s=spell.id)
        out.append(t)
    if spell.damage is not None and not out:
        raise illegal("invalid_command", _("{a}: {s} needs a target"), a=c.name, s=spell.id)
    return tuple(out)


def known_spell(c: Combatant, sid: str | None) -> Spell:
    spell = data(c).p.spells.get(sid or "")
    if spell is None:
        raise illegal("invalid_command", _("{a} has no spell {s!r}"), a=c.name, s=sid)
    return spell


# -- paying for an incantation (R-LG-CAST-2, R-LG-CAST-4) ----------------------------------------------
def contribution(enc: Encounter, pay: Payment) -> float:
    """What ``pay`` puts into an incantation: the full action is worth ``lagornis.cast.full_action_worth``."""
    worth: float = enc.variants["lagornis.cast.full_action_worth"]
    return pay.full * worth + pay.bonus


def incantation_payment(enc: Encounter, c: Combatant, cmd: Command, need: float) -> Payment:
    """The part of its remaining full and bonus action the caster puts in this turn.

    ``amount`` (actions) picks how much; without it, all it has left, but never more than the spell
    still needs. Among equal spends the whole full action beats half of it plus the bonus (it keeps
    the bonus for bonus_reaction / bonus_move), and for 0.5 the bonus goes first (``pay: full``: the
    full action) as for any 0.5 action (R-LG-ATK-6)."""
    d = data(c)
    options = [
        Payment(f, b)
        for f in (1.0, 0.5, 0.0)
        if f <= d.full + EPS
        for b in (0.5, 0.0)
        if b <= d.bonus + EPS and f + b > EPS
    ]
    if not options:
        raise no_budget(c, "incant")
    full_first = cmd.pay in ("full", "half")

    def preference(p: Payment) -> tuple[float, int, float]:
        return (p.spent, len(p.cost), -p.full if full_first else -p.bonus)

    covering = sorted((p for p in options if contribution(enc, p) >= need - EPS), key=preference)
    if cmd.amount is None:
        return covering[0] if covering else max(options, key=lambda p: p.spent)
    amount = cmd.amount
    if amount <= 0 or abs(amount * 2 - round(amount * 2)) > EPS:
        raise illegal("invalid_command", _("{a}: amount is counted in half actions (0.5, 1, 1.5)"), a=c.name)
    matching = sorted((p for p in options if abs(p.spent - amount) < EPS), key=preference)
    if not matching:
        raise illegal(
            "no_budget",
            # Translators: {n} is an amount of actions (0.5, 1, 1.5)
            ngettext_amount(
                "{a} has no {n} action to incant with left this round ({left} left)",
                "{a} has no {n} actions to incant with left this round ({left} left)",
                amount,
            ),
            a=c.name,
            n=number(fmt(amount)),
            left=used(data(c)),
        )
    if covering and amount > covering[0].spent + EPS:
        raise illegal(
            "not_allowed",
            ngettext_amount(
                "{a}: {s} needs only {n} more action",
                "{a}: {s} needs only {n} more actions",
                covering[0].spent,
            ),
            a=c.name,
            s=cmd.spell,
            n=number(fmt(covering[0].spent)),
        )
    return matching[0]


# -- cast (R-LG-CAST-1..3) -------------------------------------------------------------------------------
def plan_cast(enc: Encounter, c: Combatant, cmd: Command, held: bool = False) -> CastPlan:
    d = data(c)
    check_pay_field(c, cmd.pay)
    spell = known_spell(c, cmd.spell)
    inc = d.incantation
    if inc is not None:
        if inc.spell.id != spell.id or held:
            raise illegal(
                "casting",
                _("{a} is incanting {s}: continue it (cast {s}) or abandon_spell first"),
                a=c.name,
                s=inc.spell.id,
            )
        if (cmd.target is not None or cmd.targets is not None) and spell_targets(enc, c, spell, cmd) != tuple(
            enc.combatants[t] for t in inc.targets
        ):
            raise illegal(
                "not_allowed", _("{a}: {s} keeps the targets it was begun on"), a=c.name, s=spell.id
            )
        targets = tuple(enc.combatants[t] for t in inc.targets)
        pay = incantation_payment(enc, c, cmd, spell.cost - inc.progress)
        return CastPlan(spell, targets, pay, contribution(enc, pay), True)
    targets = spell_targets(enc, c, spell, cmd)
    if spell.cost <= 1 + EPS:
        # R-LG-CAST-1: cast like an action of its cost
        if cmd.amount is not None and abs(cmd.amount - spell.cost) > EPS:
            raise illegal(
                "invalid_command",
                ngettext_amount("{a}: {s} costs {n} action", "{a}: {s} costs {n} actions", spell.cost),
                a=c.name,
                s=spell.id,
                n=number(fmt(spell.cost)),
            )
        if held:
            return CastPlan(spell, targets, None, 0.0, False)
        pay = half_action(c, cmd.pay) if spell.cost < 1 - EPS else full_action(c)
        return CastPlan(spell, targets, checked_payment(enc, c, pay), 0.0, False)
    if held:
        raise illegal(
            "not_allowed", _("{a}: {s} is incanted over turns and cannot be held"), a=c.name, s=spell.id
        )
    pay = incantation_payment(enc, c, cmd, spell.cost)
    return CastPlan(spell, targets, pay, contribution(enc, pay), True)


def check_cast(enc: Encounter, c: Combatant, cmd: Command) -> CastPlan:
    return plan_cast(enc, c, cmd)


def run_cast(enc: Encounter, c: Combatant, cmd: Command, plan: CastPlan) -> Flow:
    d = data(c)
    spell = plan.spell
    if not plan.incanting:
        announce(enc, c, "cast", plan.pay, spell=spell.id)
        yield from go_off(enc, c, spell, plan.targets)
        return
    ids = tuple(t.id for t in plan.targets)
    before = d.incantation.progress if d.incantation is not None else 0.0
    progress = before + plan.feeds
    announce(
        enc,
        c,
        "cast",
        plan.pay,
        spell=spell.id,
        progress=fmt(min(progress, spell.cost)),
        needs=fmt(spell.cost),
    )
    d.fed_this_turn = True
    if progress >= spell.cost - EPS:
        d.incantation = None
        yield from go_off(enc, c, spell, plan.targets)
        return
    if d.incantation is None:
        # the earliest it can go off: the caster's turn once it has put in all it needs
        per_turn = enc.variants["lagornis.cast.full_action_worth"] + 0.5
        rounds = math.ceil((spell.cost - progress) / per_turn - EPS)
        enc.emit(ev.spell_started(c.id, spell.id, {"round": enc.round + rounds, "turn_of": c.id}))
    d.incantation = Incantation(spell, ids, progress)


def go_off(
    enc: Encounter, c: Combatant, spell: Spell, targets: tuple[Combatant, ...], extra: Mods = ()
) -> Flow:
    """R-LG-ATK-5: ``spell_cast``, then a damaging spell's attack on each target (d20 + magic)."""
    enc.emit(ev.spell_cast(c.id, spell.id, [t.id for t in targets]))
    if spell.damage is None:
        return
    mods: Mods = (("magic", data(c).p.skill("magic")), *extra)
    for t in targets:
        if enc.ruleset.is_defeated(t):
            continue
        yield from strike(
            enc, Strike(c, t, spell.id, "normal", spell.damage, 0, spell.area, spell.unparryable, mods)
        )


def cast_candidates(enc: Encounter, c: Combatant) -> Iterator[Command]:
    d = data(c)
    if d.incantation is not None:
        yield Command(actor=c.id, do="cast", spell=d.incantation.spell.id)
        for amount in (0.5, 1.0, 1.5):
            yield Command(actor=c.id, do="cast", spell=d.incantation.spell.id, amount=amount)
        return
    for s in d.p.spells.values():
        if s.damage is None:
            yield Command(actor=c.id, do="cast", spell=s.id)
            continue
        for t in enc.order:
            if t.side != c.side and not enc.ruleset.is_defeated(t):
                yield Command(actor=c.id, do="cast", spell=s.id, target=t.id)


# -- losing an incantation (R-LG-CAST-3) -----------------------------------------------------------------
def lose_incantation(enc: Encounter, c: Combatant, reason: str) -> None:
    d = data(c)
    if d.incantation is None:
        return
    enc.emit(ev.spell_lost(c.id, d.incantation.spell.id, reason))
    d.incantation = None


def check_abandon_spell(enc: Encounter, c: Combatant, cmd: Command) -> None:
    if data(c).incantation is None:
        raise illegal("not_allowed", _("{a} is not incanting anything"), a=c.name)


def run_abandon_spell(enc: Encounter, c: Combatant, cmd: Command, plan: None) -> Flow:
    lose_incantation(enc, c, "other_action")
    return
    yield


def abandon_spell_candidates(enc: Encounter, c: Combatant) -> Iterator[Command]:
    if data(c).incantation is not None:
        yield Command(actor=c.id, do="abandon_spell")


# -- advanced defence (R-LG-REA-8) ---------------------------------------------------------------------
def plan_advanced_defence(enc: Encounter, r: Combatant, cmd: Command, attacker: Combatant) -> CastPlan:
    """A 0.5 spell cast in answer to an attack: a reaction that also costs half an action."""
    check_pay_field(r, cmd.pay)
    spell = known_spell(r, cmd.spell)
    if abs(spell.cost - 0.5) > EPS:
        raise illegal(
            "not_allowed",
            _("{a}: only a 0.5-action spell can be an advanced defence ({s} costs {n})"),
            a=r.name,
            s=spell.id,
            n=number(fmt(spell.cost)),
        )
    if data(r).incantation is not None:
        raise illegal("casting", _("{a} is incanting and cannot cast another spell"), a=r.name)
    aimed = cmd if cmd.target is not None else dataclasses.replace(cmd, target=attacker.id)
    targets = spell_targets(enc, r, spell, aimed)
    return CastPlan(spell, targets, half_action(r, cmd.pay), 0.0, False)


def run_advanced_defence(enc: Encounter, r: Combatant, cmd: Command, attacker: Combatant) -> Flow:
    plan = plan_advanced_defence(enc, r, cmd, attacker)
    penalty = take_reaction(enc, r)
    event = ev.reaction(r.id, "cast", attacker.id, penalty)
    event["advanced"] = True
    enc.emit(event)
    announce(enc, r, "cast", plan.pay, uses_reaction=True, spell=plan.spell.id)
    # R-LG-REA-3: the reaction's penalty falls on the spell's roll
    extra: Mods = (("reaction", -penalty),) if penalty else ()
    yield from go_off(enc, r, plan.spell, plan.targets, extra)
