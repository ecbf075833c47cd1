"""What a combatant holds: drawing and sheathing (R-TA-ECO-1, R-TA-3-3, R-TA-3-6)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...engine.state import Combatant
from ...i18n import _
from ..base import illegal
from .combat import provoke_in_place
from .state import data

if TYPE_CHECKING:
    from ...engine.core import Encounter, Step


def held_item(c: Combatant, wid: str | None, in_hand: bool, shield_too: bool) -> str:
    """The weapon (or, with ``shield_too``, the shield) ``wid`` names for a sheathe (``in_hand``)
    or a draw; without ``wid``, the only one there is to take."""
    p = data(c).p
    pool = [w for w in p.weapons if (w in c.wielding) == in_hand]
    if shield_too and p.shield is not None and (p.shield.id in c.wielding) == in_hand:
        pool.append(p.shield.id)
    if wid is None:
        if len(pool) != 1:
            raise illegal("invalid_command", _("{a}: say which weapon ('weapon')"), a=c.name)
        wid = pool[0]
    if not (wid in p.weapons or (shield_too and p.holdable(wid))):
        raise illegal("invalid_command", _("{a} has no weapon {w!r}"), a=c.name, w=wid)
    if wid in c.wielding and not in_hand:
        raise illegal("not_allowed", _("{a} already holds {w}"), a=c.name, w=wid)
    if wid not in c.wielding and in_hand:
        raise illegal("not_allowed", _("{a} does not hold {w}"), a=c.name, w=wid)
    return wid


def draw(c: Combatant, wid: str) -> None:
    c.wielding.append(wid)


def sheathe(enc: Encounter, c: Combatant, wid: str) -> Step:
    """R-TA-3-6: sheathing inside an enemy zone always provokes (reason sheathe), before it is done."""
    yield from provoke_in_place(enc, c, "sheathe")
    c.wielding.remove(wid)
