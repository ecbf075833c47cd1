"""What an encounter is made of: its setup (from a file or code), its combatants, pending windows."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .commands import Square


@dataclass(frozen=True)
class MapSetup:
    width: int
    height: int
    square_m: float = 1.5
    difficult: tuple[Square, ...] = ()
    very_difficult: tuple[Square, ...] = ()
    blocked: tuple[Square, ...] = ()


@dataclass(frozen=True)
class CombatantSetup:
    id: str
    side: str
    at: Square
    stats: Any  # the ruleset's parsed stats
    name: str | None = None
    facing: str | None = None
    conditions: tuple[str, ...] = ()


@dataclass(frozen=True)
class Setup:
    """Everything needed to build an encounter again from nothing (used by replay and undo)."""

    ruleset: str
    map: MapSetup
    combatants: tuple[CombatantSetup, ...]
    variants: dict[str, Any] = field(default_factory=dict)
    seed: int = 0
    dice: tuple[int, ...] | None = None
    initiative: tuple[str, ...] | None = None
    surprise: tuple[str, ...] = ()


class Combatant:
    """A combatant's changing state. ``data`` holds what its ruleset tracks (economy, casting, ...)."""

    __slots__ = (
        "conditions",
        "data",
        "facing",
        "hp",
        "id",
        "index",
        "max_hp",
        "name",
        "pos",
        "side",
        "state",
        "stats",
        "wielding",
    )

    def __init__(self, setup: CombatantSetup, index: int, hp: int, max_hp: int) -> None:
        self.id = setup.id
        self.name = setup.name or setup.id
        self.side = setup.side
        self.index = index
        self.pos: Square = setup.at
        self.facing = setup.facing
        self.hp = hp
        self.max_hp = max_hp
        self.state = "ok"
        self.conditions: dict[str, Any] = {}
        self.stats = setup.stats
        self.wielding: list[str] = []
        self.data: Any = None

    def __repr__(self) -> str:
        return (
            f"<Combatant {self.id} {self.side} at {list(self.pos)} hp {self.hp}/{self.max_hp} {self.state}>"
        )


@dataclass(frozen=True)
class Window:
    """A pending decision: ``actor`` must answer with one of ``choices`` (``decline`` among them
    unless the reaction is compulsory). ``trigger`` says what opened it; ``context`` is the
    ruleset's private data for checking the answer."""

    actor: str
    choices: tuple[str, ...]
    trigger: dict[str, Any]
    context: Any = None

    def to_json(self) -> dict[str, Any]:
        return {"actor": self.actor, "choices": list(self.choices), "trigger": self.trigger}
