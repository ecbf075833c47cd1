"""lagornis combatant stats as a file gives them (pydantic, at the boundary) and as the engine uses them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import Field, field_validator, model_validator

from ...engine.dice import DiceExpr, compile_dice
from ...i18n import _
from ..common import DiceText, Id, Model, unique_ids

CATEGORIES = ("light", "heavy", "polearm", "improvised", "shield")
"""Weapon categories; each has a mastery skill of the same name (R-LG-REA-6)."""
SKILLS = (*CATEGORIES, "magic", "course", "defense")
Category = Literal["light", "heavy", "polearm", "improvised", "shield"]
Skill = Literal["light", "heavy", "polearm", "improvised", "shield", "magic", "course", "defense"]
Rank = Annotated[int, Field(ge=0)]


class WeaponModel(Model):
    id: Id
    # our choice: no category means "improvised" (the seed: "arme improvisée, pour tout le reste")
    category: Category = "improvised"
    damage: DiceText = "1d8"
    bonus: int = 0
    reach_m: float = Field(default=1.5, gt=0)
    durability: int = Field(default=10, ge=0)
    unparryable: bool = False
    area: bool = False


class SpellModel(Model):
    id: Id
    cost: float = Field(default=1.0, gt=0)
    damage: DiceText | None = None
    area: bool = False
    unparryable: bool = False
    range_m: float | None = Field(default=None, ge=0)

    @field_validator("cost")
    @classmethod
    def _halves(cls, v: float) -> float:
        if abs(v * 2 - round(v * 2)) > 1e-9:
            raise ValueError(_("a spell's cost is counted in half actions (0.5, 1, 1.5, 2, ...)"))
        return v


class LagornisStats(Model):
    """``combatants[].stats`` for lagornis (lagornis.md, Stats)."""

    hp: int
    max_hp: int | None = None
    adr: int = 0
    dex: int = 0
    defense: int | None = None  # None: the variant lagornis.defense.passive_default
    speed_m: float = Field(default=10, ge=0)
    skills: dict[Skill, Rank] = {}
    weapons: list[WeaponModel] = []
    spells: list[SpellModel] = []
    dodge_tokens: int | None = Field(default=None, ge=0)  # None: the variant lagornis.dodge.tokens_per_fight
    fatigue: int = Field(default=0, ge=0)

    @model_validator(mode="after")
    def _ids(self) -> LagornisStats:
        unique_ids(list(self.weapons), "weapons")
        unique_ids(list(self.spells), "spells")
        return self


@dataclass(frozen=True, slots=True)
class Weapon:
    id: str
    category: str
    damage: DiceExpr
    bonus: int
    reach_m: float
    durability: int
    unparryable: bool
    area: bool


@dataclass(frozen=True, slots=True)
class Spell:
    id: str
    cost: float
    damage: DiceExpr | None
    area: bool
    unparryable: bool
    range_m: float | None


@dataclass(frozen=True, slots=True)
class Profile:
    """What the engine reads of a lagornis combatant, computed once from its stats and the variants."""

    adr: int
    dex: int
    defense: int
    movement_m: float  # speed_m plus the course bonus: one movement (R-LG-MOV-1)
    skills: Mapping[str, int]
    weapons: Mapping[str, Weapon]
    spells: Mapping[str, Spell]
    dodge_tokens: int
    fatigue: int

    def skill(self, name: str) -> int:
        return self.skills.get(name, 0)


def build_profile(s: LagornisStats, variants: Mapping[str, Any]) -> Profile:
    skills = dict(s.skills)
    return Profile(
        adr=s.adr,
        dex=s.dex,
        defense=s.defense if s.defense is not None else variants["lagornis.defense.passive_default"],
        # R-LG-MOV-1: +2 m per course rank (our choice, variant lagornis.course.metres_per_rank)
        movement_m=s.speed_m + skills.get("course", 0) * variants["lagornis.course.metres_per_rank"],
        skills={str(k): v for k, v in skills.items()},
        weapons={
            w.id: Weapon(
                w.id,
                w.category,
                compile_dice(w.damage),
                w.bonus,
                w.reach_m,
                w.durability,
                w.unparryable,
                w.area,
            )
            for w in s.weapons
        },
        spells={
            sp.id: Spell(
                sp.id,
                sp.cost,
                compile_dice(sp.damage) if sp.damage else None,
                sp.area,
                sp.unparryable,
                sp.range_m,
            )
            for sp in s.spells
        },
        dodge_tokens=(
            s.dodge_tokens if s.dodge_tokens is not None else variants["lagornis.dodge.tokens_per_fight"]
        ),
        fatigue=s.fatigue,
    )
