"""terza combatant stats as a file gives them (pydantic, at the boundary) and as the engine uses them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pydantic import Field, model_validator

from ...engine.dice import DiceExpr, compile_dice
from ...i18n import _
from ..common import DiceText, Id, Model, ability_mod, unique_ids

SKILLS = ("incalzare", "unarmed_combat", "combat_archer", "combat_casting")
Skill = Literal["incalzare", "unarmed_combat", "combat_archer", "combat_casting"]
SHIELD_AC = 2
"""AC of a shield given by its id alone (``shield: scudo``)."""


class Scores(Model):
    strength: int = Field(default=10, ge=0, alias="str")
    dex: int = Field(default=10, ge=0)
    con: int = Field(default=10, ge=0)
    intelligence: int = Field(default=10, ge=0, alias="int")
    wis: int = Field(default=10, ge=0)
    cha: int = Field(default=10, ge=0)


class WeaponModel(Model):
    id: Id
    kind: Literal["melee", "ranged"] = "melee"
    damage: DiceText = "1d4"
    to_hit: int = 0
    damage_bonus: int = 0
    reach_m: float = Field(default=1.5, gt=0)
    range_m: float | None = Field(default=None, gt=0)
    light: bool = False


class ShieldModel(Model):
    id: Id
    ac: int = SHIELD_AC


class SpellModel(Model):
    id: Id
    casting_time: Literal["action", "bonus", "reaction"] = "action"
    touch: bool = False
    cantrip: bool = False
    damage: DiceText | None = None
    save: Literal["reflex"] | None = None
    dc: int | None = None

    @model_validator(mode="after")
    def _save_needs_dc(self) -> SpellModel:
        if self.save is not None and self.dc is None:
            raise ValueError(_("spell {s!r} has a save but no dc").format(s=self.id))
        return self


class ItemEffectModel(Model):
    """An item's effect as a mapping: ``{spell: <one of its spells' ids, or a whole spell>}``."""

    spell: Id | SpellModel


class ItemModel(Model):
    id: Id
    use: Literal["action", "bonus"] = "action"
    continuous: bool = False
    effect: str | ItemEffectModel | None = None


class TerzaStats(Model):
    """``combatants[].stats`` for terza (terza.md, Stats)."""

    hp: int
    max_hp: int | None = None
    scores: Scores = Scores()
    ac: int | None = None
    speed_m: float = Field(default=9, ge=0)
    reflex: int | None = None
    initiative: int | None = None
    attacks: int = Field(default=1, ge=1)
    skills: list[Skill] = []
    weapons: list[WeaponModel] = []
    shield: Id | ShieldModel | None = None
    wielding: list[Id] | None = None
    spells: list[SpellModel] = []
    items: list[ItemModel] = []

    @model_validator(mode="after")
    def _ids(self) -> TerzaStats:
        unique_ids(list(self.weapons), "weapons")
        unique_ids(list(self.spells), "spells")
        unique_ids(list(self.items), "items")
        weapons = {w.id for w in self.weapons}
        shield = shield_id(self.shield)
        if shield is not None and shield in weapons:
            raise ValueError(_("the shield and a weapon have the same id {id!r}").format(id=shield))
        known = weapons | ({shield} if shield else set())
        for w in self.wielding or []:
            if w not in known:
                raise ValueError(
                    _("wielding names {w!r}, which is not one of its weapons or its shield ({known})").format(
                        w=w, known=", ".join(sorted(known)) or _("none")
                    )
                )
        if self.wielding is not None and len(set(self.wielding)) != len(self.wielding):
            raise ValueError(_("wielding names the same thing twice"))
        spells = {s.id for s in self.spells}
        for item in self.items:
            effect = item.effect
            if (
                isinstance(effect, ItemEffectModel)
                and isinstance(effect.spell, str)
                and effect.spell not in spells
            ):
                raise ValueError(
                    _("item {i!r} casts {s!r}, which is not one of its spells").format(
                        i=item.id, s=effect.spell
                    )
                )
        return self


def shield_id(shield: str | ShieldModel | None) -> str | None:
    if shield is None:
        return None
    return shield if isinstance(shield, str) else shield.id


@dataclass(frozen=True, slots=True)
class Weapon:
    id: str
    melee: bool
    damage: DiceExpr
    to_hit: int
    damage_bonus: int
    reach_units: int
    range_m: float | None
    light: bool


@dataclass(frozen=True, slots=True)
class Spell:
    id: str
    casting_time: str
    touch: bool
    cantrip: bool
    damage: DiceExpr | None
    save: str | None
    dc: int | None


@dataclass(frozen=True, slots=True)
class Item:
    id: str
    use: str
    continuous: bool
    spell: Spell | None  # the spell the item casts, if it casts one (R-TA-LIM-1)


@dataclass(frozen=True, slots=True)
class Shield:
    id: str
    ac: int


@dataclass(frozen=True, slots=True)
class Profile:
    """What the engine reads of a terza combatant: computed once from its stats."""

    str_mod: int
    dex_mod: int
    ac: int
    speed_units: int
    reflex: int
    initiative: int
    attacks: int
    skills: frozenset[str]
    weapons: dict[str, Weapon]
    shield: Shield | None
    spells: dict[str, Spell]
    items: dict[str, Item]
    unarmed: Weapon
    default_wielding: tuple[str, ...]

    def holdable(self, ident: str) -> bool:
        """A weapon of its own or its shield."""
        return ident in self.weapons or (self.shield is not None and self.shield.id == ident)


def _spell(s: SpellModel) -> Spell:
    return Spell(
        s.id, s.casting_time, s.touch, s.cantrip, compile_dice(s.damage) if s.damage else None, s.save, s.dc
    )


def _item_spell(item: ItemModel, spells: dict[str, Spell]) -> Spell | None:
    """The spell an item casts: ``effect: {spell: ...}``, or an effect text naming one of its spells;
    any other text describes the item (no effect the engine resolves)."""
    effect = item.effect
    if isinstance(effect, ItemEffectModel):
        return spells[effect.spell] if isinstance(effect.spell, str) else _spell(effect.spell)
    if isinstance(effect, str):
        return spells.get(effect)
    return None


def build_profile(s: TerzaStats, square_m: float) -> Profile:
    dex = ability_mod(s.scores.dex)
    strength = ability_mod(s.scores.strength)
    weapons = {
        w.id: Weapon(
            id=w.id,
            melee=w.kind == "melee",
            damage=compile_dice(w.damage),
            to_hit=w.to_hit,
            damage_bonus=w.damage_bonus,
            reach_units=max(1, int(w.reach_m / square_m + 1e-9)),
            range_m=w.range_m,
            light=w.light,
        )
        for w in s.weapons
    }
    shield = None
    if s.shield is not None:
        shield = (
            Shield(s.shield, SHIELD_AC) if isinstance(s.shield, str) else Shield(s.shield.id, s.shield.ac)
        )
    spells = {sp.id: _spell(sp) for sp in s.spells}
    items = {i.id: Item(i.id, i.use, i.continuous, _item_spell(i, spells)) for i in s.items}
    if s.wielding is not None:
        wielding = tuple(s.wielding)
    else:
        wielding = (s.weapons[0].id,) if s.weapons else ()
    return Profile(
        str_mod=strength,
        dex_mod=dex,
        ac=s.ac if s.ac is not None else 10 + dex,
        speed_units=int(s.speed_m / square_m + 1e-9),
        reflex=s.reflex if s.reflex is not None else dex,
        initiative=s.initiative if s.initiative is not None else dex,
        attacks=s.attacks,
        skills=frozenset(s.skills),
        weapons=weapons,
        shield=shield,
        spells=spells,
        items=items,
        # our choice (the spec gives no numbers): an unarmed strike, for those with
        # unarmed_combat, is d20 + Str modifier to hit and 1d4 + Str modifier damage
        unarmed=Weapon("unarmed", True, compile_dice("1d4"), strength, strength, 1, None, False),
        default_wielding=wielding,
    )
