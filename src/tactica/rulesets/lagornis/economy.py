"""The lagornis action economy in action units (R-LG-ECO): what pays for an action, the reaction
limit and its penalties, and who may act outside its own turn."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...engine import events as ev
from ...engine.commands import Command
from ...engine.errors import IllegalCommand
from ...engine.state import Combatant
from ...i18n import N_, _, number
from ..base import illegal
from .state import EPS, LagornisData, data

if TYPE_CHECKING:
    from ...engine.core import Encounter

PAY_CHOICES = ("bonus", "full", "half")


@dataclass(frozen=True, slots=True)
class Payment:
    """What an action takes from the round's economy: part of the full action (1 or 0.5) and of the
    bonus action (0.5). ``cost`` is the ``action`` event's list of slots."""

    full: float = 0.0
    bonus: float = 0.0

    @property
    def cost(self) -> list[str]:
        slots = []
        if self.full > EPS:
            slots.append("full" if self.full > 0.5 + EPS else "half")
        if self.bonus > EPS:
            slots.append("bonus")
        return slots

    @property
    def spent(self) -> float:
        return self.full + self.bonus


FREE = Payment()


def fmt(x: float) -> int | float:
    """An amount of actions or metres as JSON shows it: 1 rather than 1.0."""
    return int(x) if abs(x - round(x)) < EPS else round(x, 6)


def used(d: LagornisData) -> str:
    """What is left of the round's economy, for a person (``full action 0.5, bonus action 0``)."""
    # Translators: what is left of a combatant's actions this round, in action units (0.5, 1)
    return _("full action {full}, bonus action {bonus}").format(
        full=number(fmt(d.full)), bonus=number(fmt(d.bonus))
    )


NO_BUDGET: dict[str, str] = {
    "full": N_("{a} has no full action left this round ({left} left)"),
    "half": N_("{a} has no half action left this round ({left} left)"),
    "bonus": N_("{a} has no bonus action left this round ({left} left)"),
    "movement": N_("{a} has no movement left this round ({left} left)"),
    "incant": N_("{a} has no action to incant with left this round ({left} left)"),
}
"""The refusal for each thing that can run out, whole sentences (French and Italian elide and agree)."""


def no_budget(c: Combatant, what: str) -> IllegalCommand:
    """``no_budget`` for ``what`` (a key of :data:`NO_BUDGET`)."""
    return illegal("no_budget", _(NO_BUDGET[what]), a=c.name, left=used(data(c)))


def check_fields(cmd: Command, allowed: Iterable[str]) -> None:
    """An answer or a held command takes only its own fields (the engine checks actions' fields)."""
    extra = [f for f in cmd.given() if f not in ("actor", "do", *allowed)]
    if extra:
        raise illegal(
            "invalid_command",
            _("{a}: {do} does not take the field {f!r}"),
            a=cmd.actor,
            do=cmd.do,
            f=extra[0],
        )


def check_pay_field(c: Combatant, pay: str | None) -> None:
    if pay is not None and pay not in PAY_CHOICES:
        raise illegal(
            "invalid_command",
            _("{a}: pay must be one of {choices}"),
            a=c.name,
            choices=", ".join(PAY_CHOICES),
        )


def full_action(c: Combatant) -> Payment:
    """R-LG-ECO-3: a 1-action use needs the whole full action (the bonus pays only what costs less
    or more than one action)."""
    if data(c).full < 1 - EPS:
        raise no_budget(c, "full")
    return Payment(full=1.0)


def half_action(c: Combatant, pay: str | None) -> Payment:
    """R-LG-ATK-6, R-LG-ECO-3: a 0.5 action is paid from the bonus first, then from half of the
    full action; ``pay: full`` (or ``half``) tries the full action first."""
    check_pay_field(c, pay)
    d = data(c)
    order = ("full", "bonus") if pay in ("full", "half") else ("bonus", "full")
    for slot in order:
        if slot == "bonus" and d.bonus > EPS:
            return Payment(bonus=0.5)
        if slot == "full" and d.full > EPS:
            return Payment(full=0.5)
    raise no_budget(c, "half")


def bonus_action(c: Combatant) -> Payment:
    """R-LG-ECO-5: only the bonus action itself buys a bonus reaction or movement."""
    if data(c).bonus < 0.5 - EPS:
        raise no_budget(c, "bonus")
    return Payment(bonus=0.5)


def spend(enc: Encounter, c: Combatant, pay: Payment | None) -> list[str]:
    """Take ``pay`` from the economy (``None``: a released held action, already paid); return the cost."""
    if pay is None:
        return []
    d = data(c)
    d.full -= pay.full
    d.bonus -= pay.bonus
    return pay.cost


def check_incantation_kept(enc: Encounter, c: Combatant, pay: Payment | None) -> None:
    """R-LG-CAST-3: in its own turn, an incanting caster that has not yet fed its spell may not spend
    the economy it needs to go on (``casting``: continue it, or abandon_spell first)."""
    d = data(c)
    if pay is None or d.incantation is None or d.fed_this_turn or enc.current is not c:
        return
    if d.full - pay.full + d.bonus - pay.bonus < EPS:
        raise illegal(
            "casting",
            _(
                "{a} is incanting {s} and needs its remaining action to go on "
                "(cast it, or abandon_spell first)"
            ),
            a=c.name,
            s=d.incantation.spell.id,
        )


# -- reactions (R-LG-REA-2, R-LG-REA-3) -----------------------------------------------------------
def free_reactions(adr: int) -> int:
    """R-LG-REA-3: ceil(ADR / 2) reactions a round without penalty (never fewer than 0)."""
    return max(0, -(-adr // 2))


def reaction_penalty(enc: Encounter, c: Combatant, rank: int) -> int:
    """R-LG-REA-3: the penalty of ``c``'s ``rank``-th reaction this round: 0 within the limit, then
    base + X, X counting the extra reactions from ``lagornis.reaction_penalty_first_x``."""
    free = free_reactions(data(c).p.adr)
    if rank <= free:
        return 0
    x = enc.variants["lagornis.reaction_penalty_first_x"] + (rank - free - 1)
    return int(enc.variants["lagornis.reaction_penalty_base"] + x)


def take_reaction(enc: Encounter, c: Combatant) -> int:
    """Use one of ``c``'s reactions; return its penalty."""
    d = data(c)
    d.reactions -= 1
    d.reactions_used += 1
    return reaction_penalty(enc, c, d.reactions_used)


def gain(enc: Encounter, c: Combatant, resource: str, delta: float) -> None:
    """Add to a round resource (reactions, movement) and log it."""
    d = data(c)
    if resource == "reactions":
        d.reactions += int(delta)
        value: float = d.reactions
    else:
        d.movement_m += delta
        value = d.movement_m
    enc.emit(ev.resource(c.id, resource, fmt(value), fmt(delta)))


def acts_out_of_turn(enc: Encounter, c: Combatant) -> bool:
    """Whether ``c`` may react, take an opportunity or release a held action now: not out, and not
    surprised in the surprise round (R-LG-INIT-3: the others do nothing in it; our choice, variant
    ``lagornis.surprise.surprised_react``)."""
    if enc.ruleset.is_defeated(c):
        return False
    if enc.round == 0 and c.id not in enc.setup.surprise:
        return bool(enc.variants["lagornis.surprise.surprised_react"])
    return True


def fatigue_penalty(enc: Encounter, c: Combatant, roll: str) -> int:
    """Fatigue effects (variant ``lagornis.fatigue.effect``; default none): ``roll_penalty`` takes 1 a
    point from every d20 roll of ``c`` (actions and reactions), ``dodge_penalty`` from dodges only."""
    effect = enc.variants["lagornis.fatigue.effect"]
    points = data(c).fatigue
    if effect == "roll_penalty" or (effect == "dodge_penalty" and roll == "dodge"):
        return -points
    return 0
