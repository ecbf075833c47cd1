"""What pf1 tracks on a combatant during a fight: the turn's economy, movement, casting, running."""

from __future__ import annotations

from dataclasses import dataclass

from ...engine.state import Combatant
from .stats import Profile, Spell


@dataclass(slots=True)
class Casting:
    """A spell being cast over several turns (R-PF-FR-CAST-1..3, R-PF-FR-MM-3)."""

    spell: Spell
    targets: tuple[str, ...]
    metamagic: tuple[str, ...]
    continue_turns: int  # future turns spent entirely on continue_casting
    completes_round: int
    completes_before: bool  # True: before the caster's turn; False: after its last continue_casting
    multi_round: bool  # 1 round or longer (R-PF-FR-CAST-4: threatens nothing)
    started_round: int  # the round of the turn the casting began in

    def completes(self, caster: str) -> dict[str, object]:
        key = "before" if self.completes_before else "after"
        return {"round": self.completes_round, key: caster}


class Pf1Data:
    """The changing pf1 state of one combatant."""

    __slots__ = (
        "aoo_left",
        "attacks",
        "casting",
        "could_full_attack",
        "declared_full",
        "defensive_turn",
        "full_attack",
        "move",
        "moved",
        "moved_units",
        "no_step",
        "off_attacks",
        "p",
        "ran_this_turn",
        "run_checks",
        "run_streak",
        "spell_in_hand",
        "standard",
        "stepped",
        "swift",
        "turn_done",
        "turns_taken",
        "two_weapon",
    )

    def __init__(self, profile: Profile) -> None:
        self.p = profile
        self.standard = 1
        self.move = 1
        self.swift = 1
        self.aoo_left = aoo_per_round(profile)
        self.attacks = 0  # main-hand attacks this turn (iteratives used)
        self.off_attacks = 0
        self.could_full_attack = False  # standard and move unused, no movement, at the first attack
        self.full_attack = False  # the turn's attacks became a full attack
        self.declared_full = False
        self.two_weapon = False  # R-PF-FR-FA-4 penalties in force this turn
        self.defensive_turn = False
        self.moved = False  # moved by any movement but a 5-foot step this turn
        self.moved_units = 0
        self.stepped = False  # took its 5-foot step this turn
        self.no_step = False  # run / withdraw / difficult_step this turn (R-PF-FR-1)
        self.casting: Casting | None = None
        self.spell_in_hand: Spell | None = None  # a spell being cast right now (opportunity attacks)
        self.run_streak = 0
        self.run_checks = 0
        self.ran_this_turn = False
        self.turns_taken = 0
        self.turn_done = False  # its turn ended; nothing is left until its next turn starts

    def refill(self) -> None:
        """R-PF-ECO-3, R-PF-AOO-4: at the start of the combatant's turn."""
        self.turn_done = False
        self.standard = self.move = self.swift = 1
        self.aoo_left = aoo_per_round(self.p)
        self.attacks = self.off_attacks = 0
        self.could_full_attack = self.full_attack = self.declared_full = self.two_weapon = False
        self.defensive_turn = False
        self.moved = self.stepped = self.no_step = False
        self.moved_units = 0


def aoo_per_round(p: Profile) -> int:
    # R-PF-AOO-4: one per round; Combat Reflexes adds the Dex modifier
    return 1 + (max(0, p.dex_mod) if "combat_reflexes" in p.feats else 0)


def data(c: Combatant) -> Pf1Data:
    d = c.data
    assert isinstance(d, Pf1Data)
    return d


def lose_unused(d: Pf1Data) -> None:
    """R-PF-ECO-3: at ``end_turn`` the actions not taken are lost (the view shows 0 until the refill)."""
    d.standard = d.move = d.swift = 0
    d.turn_done = True
