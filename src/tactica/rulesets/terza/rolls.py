"""terza dice: the d20 with advantage and disadvantage, Reflex saves, damage (R-TA-ATK)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...engine import events as ev
from ...engine.state import Combatant
from .state import data

if TYPE_CHECKING:
    from ...engine.core import Encounter


def roll_d20(enc: Encounter, advantage: bool = False, disadvantage: bool = False) -> tuple[int, list[int]]:
    """R-TA-ATK-1: one d20, or two keeping the higher (advantage) or the lower (disadvantage);
    both at once cancel. Returns the kept face and every face rolled, in order."""
    first = enc.dice.roll(20)
    if advantage == disadvantage:
        return first, [first]
    second = enc.dice.roll(20)
    kept = max(first, second) if advantage else min(first, second)
    return kept, [first, second]


def succeeds(face: int, total: int, target: int) -> bool:
    """A natural 20 always succeeds, a natural 1 always fails (R-TA-ATK-1, R-TA-ATK-3)."""
    return face == 20 or (face != 1 and total >= target)


def reflex_save(enc: Encounter, c: Combatant, dc: int, **extra: Any) -> bool:
    """R-TA-ATK-3: d20 + ``reflex`` vs ``dc``; emits the ``check`` event."""
    face = enc.dice.roll(20)
    total = face + data(c).p.reflex
    ok = succeeds(face, total, dc)
    enc.emit(ev.check(c.id, "reflex", face, total, dc, ok, **extra))
    return ok


def deal_damage(enc: Encounter, t: Combatant, amount: int, source: str, **extra: Any) -> None:
    """Take ``amount`` hit points from ``t`` (R-TA-ATK-5: at 0 or less it is ``out``)."""
    t.hp -= amount
    enc.emit(ev.damage(t.id, amount, t.hp, source, **extra))
    enc.ruleset.update_state(enc, t)
