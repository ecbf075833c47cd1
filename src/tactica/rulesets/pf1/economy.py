"""The pf1 action economy: which slot pays for an action, and the restricted turn (R-PF-ECO)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...engine.errors import IllegalCommand
from ...engine.state import Combatant
from ...i18n import N_, _
from ...vocabulary import any_label, label
from ..base import illegal
from .state import Pf1Data, data

if TYPE_CHECKING:
    from ...engine.core import Encounter


def restriction(enc: Encounter, c: Combatant) -> str | None:
    """Why ``c`` may take only one standard or move action this turn, if it may (R-PF-ECO-5, R-PF-TURN-2)."""
    if enc.round == 0:
        return "surprise"
    if c.state == "disabled":
        return "disabled"
    if "staggered" in c.conditions:
        return "staggered"
    return None


def used(d: Pf1Data) -> str:
    """The slots spent this turn, for a person (``standard action, move action``)."""
    names = [n for n, v in (("standard", d.standard), ("move", d.move), ("swift", d.swift)) if v < 1]
    return ", ".join(label("resource", n) for n in names) or _("nothing")


NO_BUDGET: dict[str, str] = {
    "standard": N_("{a} has no standard action left this turn (used: {used})"),
    "move": N_("{a} has no move action left this turn (used: {used})"),
    "swift": N_("{a} has no swift action left this turn (used: {used})"),
    "restricted": N_(
        "{a} has no action left this turn: only one standard or move action is allowed (used: {used})"
    ),
    "full_round": N_(
        "{a} has no full-round action left this turn: it needs both the standard and the move "
        "action (used: {used})"
    ),
    "full_attack": N_(
        "{a} has no full attack left this turn: it needs the whole turn and no movement "
        "but a 5-foot step (used: {used})"
    ),
    "further_attack": N_(
        "{a} has no attack left this turn: a second attack needs a full attack, with no "
        "move action taken (used: {used})"
    ),
    "iterative": N_("{a} has no attack left this turn: all its iterative attacks are made (used: {used})"),
    "off_hand": N_("{a} has no off-hand attack left this turn (used: {used})"),
}
"""The refusal for each thing that can run out, whole sentences (French and Italian elide and agree)."""


def no_budget(c: Combatant, what: str) -> IllegalCommand:
    """``no_budget`` for ``what`` (a key of :data:`NO_BUDGET`)."""
    return illegal("no_budget", _(NO_BUDGET[what]), a=c.name, used=used(data(c)))


def check_not_casting(c: Combatant) -> None:
    """R-PF-FR-CAST-2/3: while casting, only end_turn and abandon_spell are possible."""
    casting = data(c).casting
    if casting is not None:
        raise casting_error(c)


def casting_error(c: Combatant) -> Exception:
    casting = data(c).casting
    assert casting is not None
    return illegal(
        "casting",
        _("{a} is casting {s} and must keep concentrating (abandon_spell first)"),
        a=c.name,
        s=casting.spell.id,
    )


def casting_blocks_step(enc: Encounter, c: Combatant) -> bool:
    """Whether a spell being cast forbids the 5-foot step now. R-PF-FR-1 allows a 5-foot step with a
    full-round action that involves no movement, "before, after or between", and the step is no
    action (R-PF-MOV-4), so CAST-3's "any other action" does not cover it: in the turn the casting
    began the caster may still step. The turns spent entirely casting (CAST-2) allow nothing else."""
    casting = data(c).casting
    return casting is not None and casting.started_round != enc.round


def check_standard(enc: Encounter, c: Combatant) -> None:
    d = data(c)
    if d.standard < 1:
        raise no_budget(c, "standard")
    if restriction(enc, c) and d.move < 1:
        raise no_budget(c, "restricted")


def move_slot(enc: Encounter, c: Combatant) -> str:
    """The slot a move action would use: ``move``, else ``standard`` (R-PF-MOV-5)."""
    d = data(c)
    limited = restriction(enc, c) is not None
    if limited and (d.standard < 1 or d.move < 1):
        raise no_budget(c, "restricted")
    if d.move >= 1:
        return "move"
    if d.standard >= 1:
        return "standard"
    raise no_budget(c, "move")


def check_full_round(enc: Encounter, c: Combatant) -> None:
    why = restriction(enc, c)
    if why == "surprise":
        raise illegal("no_budget", _("{a} may take no full-round action in the surprise round"), a=c.name)
    if why is not None:
        # R-PF-ECO-5: staggered or disabled, never a full-round action
        raise illegal(
            "condition",
            _("{a} is {why} and cannot take a full-round action"),
            a=c.name,
            why=any_label(why, ("condition", "state")),
        )
    d = data(c)
    if d.standard < 1 or d.move < 1:
        raise no_budget(c, "full_round")


def pay(enc: Encounter, c: Combatant, slot: str) -> list[str]:
    """Spend ``slot`` (standard, move, swift, full_round); return the event's cost list."""
    d = data(c)
    if slot == "full_round":
        d.standard = d.move = 0
    elif slot == "standard":
        d.standard = 0
    elif slot == "move":
        d.move = 0
    elif slot == "swift":
        d.swift = 0
    if slot in ("standard", "move") and restriction(enc, c):
        d.standard = d.move = 0
    return [slot]


def can_full_round(enc: Encounter, c: Combatant) -> bool:
    d = data(c)
    return restriction(enc, c) is None and d.standard >= 1 and d.move >= 1


def can_five_foot_step(enc: Encounter, c: Combatant) -> bool:
    """R-PF-ECO-4's ``five_foot_step``: could it still take one (R-PF-MOV-4). A start square of
    difficult terrain rules every step out; the destination's terrain depends on the step."""
    d = data(c)
    return (
        not (d.moved or d.stepped or d.no_step or d.turn_done or casting_blocks_step(enc, c))
        and d.p.speed_units > 1
        and "blinded" not in c.conditions
        and not enc.grid.is_difficult(c.pos)
    )
