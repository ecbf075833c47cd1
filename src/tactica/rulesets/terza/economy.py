"""The terza action economy: action, bonus action, reaction, third action, free interaction (R-TA-ECO)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...engine.errors import IllegalCommand
from ...engine.state import Combatant
from ...i18n import N_, _
from ...vocabulary import label
from ..base import illegal
from .state import TerzaData, data

if TYPE_CHECKING:
    from ...engine.core import Encounter

INCAPACITATING = ("stunned", "paralyzed", "incapacitated")
"""Our choice (5e): these take no actions and no reactions; the spec names them for the third action."""
IMMOBILISING = ("stunned", "paralyzed", "restrained", "grappled")
"""Our choice (5e): these cannot move (speed 0)."""


NO_BUDGET: dict[str, str] = {
    "action": N_("{a} has no action left (used: {used})"),
    "bonus": N_("{a} has no bonus action left (used: {used})"),
    "reaction": N_("{a} has no reaction left (used: {used})"),
    "movement": N_("{a} has no movement left (used: {used})"),
}
"""The refusal for each slot that can run out, whole sentences (French and Italian elide and agree)."""


def used(d: TerzaData) -> str:
    """The slots spent, for a person (``action, bonus action``)."""
    names = [n for n, v in (("action", d.action), ("bonus", d.bonus), ("reaction", d.reaction)) if v < 1]
    return ", ".join(label("resource", n) for n in names) or _("nothing")


def no_budget(c: Combatant, what: str) -> IllegalCommand:
    """``no_budget`` for the slot ``what`` (a key of :data:`NO_BUDGET`)."""
    return illegal("no_budget", _(NO_BUDGET[what]), a=c.name, used=used(data(c)))


def incapacitated(c: Combatant) -> str | None:
    return next((k for k in INCAPACITATING if k in c.conditions), None)


def check_can_act(c: Combatant) -> None:
    cond = incapacitated(c)
    if cond is not None:
        raise illegal(
            "condition", _("{a} is {c} and can take no action"), a=c.name, c=label("condition", cond)
        )


def check_can_move(c: Combatant) -> None:
    cond = next((k for k in IMMOBILISING if k in c.conditions), None)
    if cond is not None:
        raise illegal("condition", _("{a} is {c} and cannot move"), a=c.name, c=label("condition", cond))


def check_slot(c: Combatant, slot: str) -> None:
    """R-TA-ECO-1/2: ``action``, ``bonus`` or ``reaction`` must be unused."""
    if getattr(data(c), slot) < 1:
        raise no_budget(c, slot)


def pay(c: Combatant, slot: str | None) -> list[str]:
    """Spend ``slot`` (None: a free thing); return the ``cost`` list of the action event."""
    if slot is None:
        return []
    d = data(c)
    setattr(d, slot, getattr(d, slot) - 1)
    return [slot]


def movement_m(enc: Encounter, c: Combatant) -> float:
    return enc.grid.metres(data(c).movement_units)
