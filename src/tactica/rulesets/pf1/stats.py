"""pf1 combatant stats as a file gives them (pydantic, at the boundary) and as the engine uses them."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Annotated, Literal

from pydantic import BeforeValidator, Field, model_validator

from ...engine.dice import DiceExpr, compile_dice
from ...i18n import _
from ..common import DiceText, Id, Model, ability_mod, unique_ids

FEATS = (
    "run",
    "combat_reflexes",
    "two_weapon_fighting",
    "quicken_spell",
    "improved_unarmed_strike",
    "empower_spell",
    "maximize_spell",
    "extend_spell",
    "still_spell",
    "silent_spell",
)
METAMAGIC = (
    "quicken_spell",
    "empower_spell",
    "maximize_spell",
    "extend_spell",
    "still_spell",
    "silent_spell",
)
Feat = Literal[
    "run",
    "combat_reflexes",
    "two_weapon_fighting",
    "quicken_spell",
    "improved_unarmed_strike",
    "empower_spell",
    "maximize_spell",
    "extend_spell",
    "still_spell",
    "silent_spell",
]
Score = Annotated[int, Field(ge=0)]
CRIT_RE = re.compile(r"^(?:(\d+)(?:-(\d+))?/)?x(\d+)$")


class Scores(Model):
    strength: Score = Field(default=10, alias="str")
    dex: Score = 10
    con: Score = 10
    intelligence: Score = Field(default=10, alias="int")
    wis: Score = 10
    cha: Score = 10


class Saves(Model):
    fort: int = 0
    ref: int = 0
    will: int = 0


def _yaml_off(v: object) -> object:
    """YAML 1.1 (PyYAML) reads an unquoted ``off`` as ``False``; the spec writes ``hand: off``."""
    return "off" if v is False else v


Hand = Annotated[Literal["main", "off"], BeforeValidator(_yaml_off)]


class WeaponModel(Model):
    id: Id
    kind: Literal["melee", "ranged"] = "melee"
    grip: Literal["light", "one_handed", "two_handed"] = "one_handed"
    damage: DiceText = "1d3"
    crit: str = Field(default="20/x2", pattern=CRIT_RE.pattern)
    reach_m: float = 1.5
    range_m: float | None = None
    attack_bonus: int = 0
    damage_bonus: int = 0
    hand: Hand = "main"
    double: bool = False


class SpellModel(Model):
    id: Id
    level: int = Field(default=0, ge=0, le=9)
    casting_time: Literal["swift", "standard", "full_round", "1_round", "1_minute"] = "standard"
    touch: bool = False
    range_m: float | None = None
    damage: DiceText | None = None
    spontaneous: bool = False


class SpecialModel(Model):
    id: Id
    action: Literal["standard", "full_round"] = "standard"
    damage: DiceText | None = None
    range_m: float | None = None
    provokes: bool = False


class CasterModel(Model):
    spontaneous: bool = False
    concentration: int = 0


class Pf1Stats(Model):
    """``combatants[].stats`` for pf1 (pf1.md, Stats)."""

    hp: int
    max_hp: int | None = None
    scores: Scores = Scores()
    bab: int = Field(default=0, ge=0)
    ac: int | None = None
    speed_m: float = Field(default=9, ge=0)
    armor: Literal["none", "light", "medium", "heavy"] = "none"
    saves: Saves = Saves()
    initiative: int | None = None
    feats: list[Feat] = []
    weapons: list[WeaponModel] = []
    caster: CasterModel | None = None
    spells: list[SpellModel] = []
    specials: list[SpecialModel] = []
    wielding: list[Id] | None = None

    @model_validator(mode="after")
    def _ids(self) -> Pf1Stats:
        unique_ids(list(self.weapons), "weapons")
        unique_ids(list(self.spells), "spells")
        unique_ids(list(self.specials), "specials")
        known = {w.id for w in self.weapons}
        for w in self.wielding or []:
            if w not in known:
                raise ValueError(
                    _("wielding names {w!r}, which is not one of its weapons ({known})").format(
                        w=w, known=", ".join(sorted(known)) or _("none")
                    )
                )
        return self


@dataclass(frozen=True, slots=True)
class Weapon:
    id: str
    melee: bool
    grip: str
    damage: DiceExpr
    threat_low: int
    multiplier: int
    reach_units: int
    range_m: float | None
    attack_bonus: int
    damage_bonus: int
    off_hand: bool
    double: bool

    @property
    def light(self) -> bool:
        return self.grip == "light"


@dataclass(frozen=True, slots=True)
class Spell:
    id: str
    level: int
    casting_time: str
    touch: bool
    range_m: float | None
    damage: DiceExpr | None
    spontaneous: bool


@dataclass(frozen=True, slots=True)
class Special:
    id: str
    action: str
    damage: DiceExpr | None
    range_m: float | None
    provokes: bool


@dataclass(frozen=True, slots=True)
class Profile:
    """What the engine reads of a pf1 combatant: computed once from its stats."""

    str_mod: int
    dex_mod: int
    con_mod: int
    con: int
    bab: int
    ac: int
    speed_m: float
    speed_units: int
    armor: str
    initiative: int
    feats: frozenset[str]
    weapons: dict[str, Weapon]
    spells: dict[str, Spell]
    specials: dict[str, Special]
    spontaneous_caster: bool
    concentration: int
    is_caster: bool
    default_wielding: tuple[str, ...]


_PROFILES: dict[tuple[int, float], tuple[Pf1Stats, Profile]] = {}


def profile_of(s: Pf1Stats, square_m: float) -> Profile:
    """The profile of ``s``, built once per stats object (a simulator builds thousands of
    encounters from one setup); stats models are frozen, so a built profile never goes stale."""
    key = (id(s), square_m)
    hit = _PROFILES.get(key)
    if hit is not None and hit[0] is s:
        return hit[1]
    if len(_PROFILES) > 4096:
        _PROFILES.clear()
    profile = build_profile(s, square_m)
    _PROFILES[key] = (s, profile)
    return profile


def build_profile(s: Pf1Stats, square_m: float) -> Profile:
    dex = ability_mod(s.scores.dex)
    weapons = {}
    for w in s.weapons:
        m = CRIT_RE.match(w.crit)
        assert m is not None
        low = int(m.group(1) or 20)
        weapons[w.id] = Weapon(
            id=w.id,
            melee=w.kind == "melee",
            grip=w.grip,
            damage=compile_dice(w.damage),
            threat_low=low,
            multiplier=int(m.group(3)),
            reach_units=max(1, int(w.reach_m / square_m + 1e-9)),
            range_m=w.range_m,
            attack_bonus=w.attack_bonus,
            damage_bonus=w.damage_bonus,
            off_hand=w.hand == "off",
            double=w.double,
        )
    if s.wielding is not None:
        wielding = tuple(s.wielding)
    else:
        first = [s.weapons[0].id] if s.weapons else []
        wielding = tuple(dict.fromkeys(first + [w.id for w in s.weapons if w.hand == "off"]))
    return Profile(
        str_mod=ability_mod(s.scores.strength),
        dex_mod=dex,
        con_mod=ability_mod(s.scores.con),
        con=s.scores.con,
        bab=s.bab,
        ac=s.ac if s.ac is not None else 10 + dex,
        speed_m=s.speed_m,
        speed_units=int(s.speed_m / square_m + 1e-9),
        armor=s.armor,
        initiative=s.initiative if s.initiative is not None else dex,
        feats=frozenset(s.feats),
        weapons=weapons,
        spells={
            sp.id: Spell(
                sp.id,
                sp.level,
                sp.casting_time,
                sp.touch,
                sp.range_m,
                compile_dice(sp.damage) if sp.damage else None,
                sp.spontaneous,
            )
            for sp in s.spells
        },
        specials={
            x.id: Special(x.id, x.action, compile_dice(x.damage) if x.damage else None, x.range_m, x.provokes)
            for x in s.specials
        },
        spontaneous_caster=bool(s.caster and s.caster.spontaneous),
        concentration=s.caster.concentration if s.caster else 0,
        is_caster=s.caster is not None,
        default_wielding=wielding,
    )
