"""What lagornis tracks on a combatant during a fight: the round's economy, reactions, movement,
dodge tokens and fatigue, weapon wear, a held action and an incantation in progress."""

from __future__ import annotations

from dataclasses import dataclass

from ...engine.commands import Command
from ...engine.state import Combatant
from .stats import Profile, Spell

EPS = 1e-9


@dataclass(slots=True)
class Held:
    """A held action (R-LG-HOLD-1): the command to run later and what releases it."""

    then: Command
    trigger: str
    by: str | None


@dataclass(slots=True)
class Incantation:
    """A spell incanted over several turns (R-LG-CAST-2): what is put into it so far."""

    spell: Spell
    targets: tuple[str, ...]
    progress: float


class LagornisData:
    """The changing lagornis state of one combatant. Everything but dodge tokens, fatigue, weapon
    wear and an incantation resets at the end of every round (R-LG-ECO-4)."""

    __slots__ = (
        "bonus",
        "diagonals",
        "disengaged",
        "dodge_tokens",
        "durability",
        "extended",
        "fatigue",
        "fed_this_turn",
        "full",
        "held",
        "incantation",
        "movement_m",
        "opportunity_used",
        "p",
        "reactions",
        "reactions_used",
    )

    def __init__(self, profile: Profile) -> None:
        self.p = profile
        self.dodge_tokens = profile.dodge_tokens
        self.fatigue = profile.fatigue
        self.durability = {w.id: w.durability for w in profile.weapons.values()}
        self.incantation: Incantation | None = None
        self.fed_this_turn = False  # put something into its incantation this turn (R-LG-CAST-3)
        self.reset_round()

    def reset_round(self) -> None:
        """R-LG-ECO-1, R-LG-ECO-4: a fresh round's economy, used or not before."""
        self.full = 1.0
        self.bonus = 0.5
        self.reactions = 1
        self.reactions_used = 0
        self.movement_m = self.p.movement_m
        self.diagonals = 0  # diagonal steps this round: the 1.5 / 3 m alternation goes on across moves
        self.opportunity_used = 0
        self.disengaged = False
        self.extended = False
        self.held: Held | None = None  # R-LG-HOLD-3: an unreleased held action is lost

    def half_left(self) -> bool:
        """Whether a 0.5 action can still be paid this round (from the bonus or half the full)."""
        return self.bonus > EPS or self.full > EPS

    def broken(self, weapon: str) -> bool:
        return self.durability[weapon] <= 0


def data(c: Combatant) -> LagornisData:
    d = c.data
    assert isinstance(d, LagornisData)
    return d
