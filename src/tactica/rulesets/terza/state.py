"""What terza tracks on a combatant during a fight: the turn's and the round's economy."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...engine.state import Combatant
from .stats import Profile

if TYPE_CHECKING:
    from ...engine.core import Encounter

TurnKey = tuple[int, str | None]
"""Which turn it is: (round, id of the combatant whose turn it is)."""


class TerzaData:
    """The changing terza state of one combatant."""

    __slots__ = (
        "action",
        "attack_action",
        "attacked_this_round",
        "attacks_left",
        "bonus",
        "disengaged",
        "interaction",
        "items_this_turn",
        "moved_this_round",
        "moved_this_turn",
        "movement_units",
        "p",
        "reaction",
        "reaction_spell_turn",
        "spells_this_turn",
        "third",
        "touch_spell_turn",
    )

    def __init__(self, profile: Profile) -> None:
        self.p = profile
        self.reaction = 1
        self.third = 1  # R-TA-3-1: one third action per round, besides the normal actions
        self.attacked_this_round = False  # R-TA-3-4 (a)
        self.moved_this_round = False  # R-TA-3-4 (d)
        self.reaction_spell_turn: TurnKey | None = None  # R-TA-LIM-3
        self.touch_spell_turn: TurnKey | None = None  # R-TA-ZOC-2
        self.refill_turn()

    def refill_turn(self) -> None:
        """R-TA-ECO-1, R-TA-ECO-2: at the start of the combatant's own turn."""
        self.action = 1
        self.bonus = 1
        self.interaction = 1
        self.reaction = 1
        self.movement_units = self.p.speed_units
        self.moved_this_turn = False
        self.attack_action = False  # the Attack action was taken this turn
        self.attacks_left = 0  # weapon attacks left in it
        self.disengaged = False  # R-TA-ZOC-6
        self.spells_this_turn = 0  # R-TA-LIM-1 (reaction spells not counted)
        self.items_this_turn = 0  # R-TA-LIM-2

    def refill_round(self) -> None:
        """R-TA-ECO-3: at the start of every round."""
        self.third = 1  # R-TA-3-1: one third action per round, besides the normal actions
        self.attacked_this_round = False
        self.moved_this_round = False


def data(c: Combatant) -> TerzaData:
    d = c.data
    assert isinstance(d, TerzaData)
    return d


def turn_key(enc: Encounter) -> TurnKey:
    return (enc.round, enc.current.id if enc.current is not None else None)
