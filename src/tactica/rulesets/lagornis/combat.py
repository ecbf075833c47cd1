"""lagornis attacks and their answers (R-LG-ATK, R-LG-REA): the roll, the reaction window, dodge,
parry, dampen, extended defence of an ally, damage, weapon wear and hit point states."""

from __future__ import annotations

from collections.abc import Generator, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...engine import events as ev
from ...engine.commands import Command
from ...engine.dice import DiceExpr
from ...engine.grid import chebyshev
from ...engine.state import Combatant, Window
from ...i18n import _
from ..base import illegal
from .economy import acts_out_of_turn, check_fields, fatigue_penalty, take_reaction
from .state import EPS, data
from .stats import Weapon

if TYPE_CHECKING:
    from ...engine.core import Encounter

Mods = tuple[tuple[str, int], ...]
Flow = Generator[Window, Command, None]


@dataclass(frozen=True, slots=True)
class Strike:
    """One attack on one target: a weapon blow or a damaging spell (R-LG-ATK-5)."""

    attacker: Combatant
    target: Combatant
    source: str  # the weapon or spell id
    kind: str  # normal | opportunity
    damage: DiceExpr
    damage_bonus: int
    area: bool
    unparryable: bool
    mods: Mods  # skill, weapon bonus, opportunity penalty, ...


@dataclass(frozen=True, slots=True)
class DefenceCtx:
    """A reaction window's private data: the attack being answered."""

    strike: Strike


# -- states (R-LG-ATK-4) ------------------------------------------------------------------------------
def state_from_hp(c: Combatant) -> str:
    return "ok" if c.hp > 0 else "out"


def deal_damage(enc: Encounter, t: Combatant, amount: int, source: str, **extra: object) -> None:
    t.hp -= amount
    enc.emit(ev.damage(t.id, amount, t.hp, source, **extra))
    enc.ruleset.update_state(enc, t)


# -- weapons ------------------------------------------------------------------------------------------
def usable_weapons(c: Combatant) -> list[Weapon]:
    """Weapons not broken (R-LG-REA-6: a broken weapon can neither attack nor parry), in file order."""
    d = data(c)
    return [w for w in d.p.weapons.values() if not d.broken(w.id)]


def weapon_of(c: Combatant, wid: str | None, use: str) -> Weapon:
    """The weapon ``wid`` of ``c`` (its first usable one when ``None``), checked usable for ``use``."""
    d = data(c)
    if wid is None:
        usable = usable_weapons(c)
        if not usable:
            if use == "parry":
                raise illegal("not_allowed", _("{a} has no weapon it can parry with"), a=c.name)
            raise illegal("not_allowed", _("{a} has no weapon it can attack with"), a=c.name)
        return usable[0]
    w = d.p.weapons.get(wid)
    if w is None:
        raise illegal("invalid_command", _("{a} has no weapon {w!r}"), a=c.name, w=wid)
    if d.broken(wid):
        raise illegal(
            "not_allowed", _("{a}'s {w} is broken: it can neither attack nor parry"), a=c.name, w=wid
        )
    return w


def reaches(enc: Encounter, w: Weapon, c: Combatant, t: Combatant) -> bool:
    return enc.grid.distance_m(c.pos, t.pos) <= w.reach_m + EPS


def weapon_strike(attacker: Combatant, target: Combatant, w: Weapon, kind: str, extra: Mods = ()) -> Strike:
    """R-LG-ATK-1: d20 + the mastery for the weapon's category + the weapon's bonus - penalties."""
    mods: list[tuple[str, int]] = [(w.category, data(attacker).p.skill(w.category))]
    if w.bonus:
        mods.append(("weapon", w.bonus))
    mods.extend(extra)
    return Strike(attacker, target, w.id, kind, w.damage, w.bonus, w.area, w.unparryable, tuple(mods))


# -- the reaction window (R-LG-ATK-2, R-LG-REA-1, R-LG-REA-8, R-LG-REA-9) --------------------------------
def parry_weapons(c: Combatant, s: Strike) -> list[Weapon]:
    return [] if s.unparryable else usable_weapons(c)  # R-LG-REA-6: unparryable attacks


def defence_choices(enc: Encounter, r: Combatant, s: Strike) -> list[str]:
    """What ``r`` may answer ``s`` with (``decline`` aside); empty when it cannot react at all."""
    d = data(r)
    if d.reactions < 1 or not acts_out_of_turn(enc, r):
        return []  # R-LG-REA-2: no reaction left this round
    if r is not s.target:
        # R-LG-REA-9: an extended defender protects an adjacent ally with its parries only
        return ["parry"] if parry_weapons(r, s) else []
    choices = ["dodge"]
    if parry_weapons(r, s):
        choices.append("parry")
    choices.append("dampen")
    if d.half_left() and d.incantation is None and any(sp.cost == 0.5 for sp in d.p.spells.values()):
        choices.append("cast")  # R-LG-REA-8: an advanced defence, a 0.5 action out of turn
    return choices


def protectors(enc: Encounter, s: Strike) -> list[Combatant]:
    """R-LG-REA-9: allies of the target, adjacent to it, under extended defence (never the attacker)."""
    t = s.target
    return [
        c
        for c in enc.order
        if c is not t
        and c is not s.attacker
        and c.side == t.side
        and data(c).extended
        and chebyshev(c.pos, t.pos) == 1
    ]


def defence_windows(
    enc: Encounter, s: Strike
) -> Generator[Window, Command, tuple[Combatant, Command] | None]:
    """Ask the target and its protectors, in initiative order (format.md: several windows are offered
    one after another in the reactors' initiative order); the first that reacts answers the attack."""
    reactors = [c for c in enc.order if c is s.target or c in protectors(enc, s)]
    for r in reactors:
        choices = defence_choices(enc, r, s)
        if not choices:
            continue
        trigger = {
            "type": "attack",
            "attacker": s.attacker.id,
            "target": s.target.id,
            "weapon": s.source,
            "kind": s.kind,
        }
        answer = yield Window(r.id, (*choices, "decline"), trigger, DefenceCtx(s))
        if answer.do != "decline":
            return r, answer
    return None


def check_defence_answer(enc: Encounter, ctx: DefenceCtx, cmd: Command) -> None:
    r = enc.combatants[cmd.actor]
    allowed = {
        "decline": (),
        "dodge": (),
        "dampen": (),
        "parry": ("weapon",),
        "cast": ("spell", "target", "pay"),
    }
    check_fields(cmd, allowed[cmd.do])
    if cmd.do == "parry":
        weapon_of(r, cmd.weapon, "parry")  # (an unparryable attack offers no parry at all)
    elif cmd.do == "cast":
        from .casting import plan_advanced_defence

        plan_advanced_defence(enc, r, cmd, ctx.strike.attacker)


def defence_candidates(enc: Encounter, window: Window, ctx: DefenceCtx) -> Iterator[Command]:
    r = enc.combatants[window.actor]
    for choice in window.choices:
        if choice == "parry":
            for w in parry_weapons(r, ctx.strike):
                yield Command(actor=r.id, do="parry", weapon=w.id)
        elif choice == "cast":
            for sp in data(r).p.spells.values():
                if sp.cost == 0.5:
                    yield Command(actor=r.id, do="cast", spell=sp.id, target=ctx.strike.attacker.id)
        else:
            yield Command(actor=r.id, do=choice)


# -- resolving an attack ---------------------------------------------------------------------------
def action_roll_mods(enc: Encounter, c: Combatant) -> list[tuple[str, int]]:
    """Penalties on ``c``'s action rolls: off balance (R-LG-REA-5: -2 on the next one, then gone) and
    fatigue (variant)."""
    out: list[tuple[str, int]] = []
    if "off_balance" in c.conditions:
        out.append(("off_balance", -2))
        enc.ruleset.remove_condition(enc, c, "off_balance")
    tired = fatigue_penalty(enc, c, "action")
    if tired:
        out.append(("fatigue", tired))
    return out


def strike(enc: Encounter, s: Strike) -> Flow:
    """An attack from start to end: held actions it triggers, the roll, the reaction window, the result."""
    from .hold import attack_triggers

    # R-LG-HOLD-2: a held action released by the attack runs before the attack completes
    yield from attack_triggers(enc, s.attacker, s.target)
    if enc.ruleset.is_defeated(s.attacker) or enc.ruleset.is_defeated(s.target):
        return
    mods = list(s.mods) + action_roll_mods(enc, s.attacker)
    # R-LG-ATK-3: the attack's d20 first, then the defender's, then the damage dice
    face = enc.dice.roll(20)
    total = face + sum(v for _src, v in mods)
    answer = yield from defence_windows(enc, s)
    if answer is not None and answer[1].do == "cast":
        from .casting import run_advanced_defence

        # R-LG-REA-8: the advanced defence goes first; the attack then lands as if unanswered
        yield from run_advanced_defence(enc, answer[0], answer[1], s.attacker)
        answer = None
    resolve(enc, s, face, total, tuple(mods), answer)


@dataclass(frozen=True, slots=True)
class Reaction:
    """How an attack was answered: by whom, how, and the defender's roll if it made one."""

    reactor: Combatant
    kind: str  # dodge | parry | dampen
    weapon: Weapon | None  # the parrying weapon
    rolled: int | None  # the defender's total (dodge, parry)
    success: bool
    margin: int


def react(enc: Encounter, s: Strike, total: int, reactor: Combatant, cmd: Command) -> Reaction:
    """The reaction's events: ``reaction``, its cost, its ``check`` (R-LG-REA-3..7)."""
    rd = data(reactor)
    penalty = take_reaction(enc, reactor)
    event = ev.reaction(reactor.id, cmd.do, s.attacker.id, penalty)
    if reactor is not s.target:
        event["protects"] = s.target.id
    weapon = weapon_of(reactor, cmd.weapon, "parry") if cmd.do == "parry" else None
    if weapon is not None:
        event["weapon"] = weapon.id
    enc.emit(event)
    if cmd.do == "dampen":
        return Reaction(reactor, cmd.do, None, None, True, 0)  # R-LG-REA-7: always succeeds, no roll
    if weapon is not None:
        skill = rd.p.skill(weapon.category)  # R-LG-REA-6: the parrying weapon's mastery
    else:
        # R-LG-REA-5: a dodge token, or 1 fatigue point when none is left
        if rd.dodge_tokens > 0:
            rd.dodge_tokens -= 1
            enc.emit(ev.resource(reactor.id, "dodge_tokens", rd.dodge_tokens, -1))
        else:
            rd.fatigue += 1
            enc.emit(ev.resource(reactor.id, "fatigue", rd.fatigue, 1))
        skill = rd.p.adr
    # R-LG-REA-4: an opposed roll, d20 + skill - penalties against the attack's total
    face = enc.dice.roll(20)
    rolled = face + skill - penalty + fatigue_penalty(enc, reactor, cmd.do)
    margin = rolled - total
    success = margin > 0 or (margin == 0 and enc.variants["lagornis.reaction.ties"] == "defender")
    enc.emit(ev.check(reactor.id, cmd.do, face, rolled, total, success))
    return Reaction(reactor, cmd.do, weapon, rolled, success, margin)


def reduced(r: Reaction | None, raw: int) -> int:
    """The damage that gets through the reaction (R-LG-REA-5..7)."""
    if r is None or not r.success:
        return raw
    if r.kind == "dodge":
        return raw // 2  # only an area attack gets this far: halved
    if r.kind == "parry":
        assert r.weapon is not None
        return 0 if r.weapon.category == "shield" else raw // 2
    return max(0, raw - max(0, data(r.reactor).p.dex // 2))  # dampen


def resolve(
    enc: Encounter, s: Strike, face: int, total: int, mods: Mods, answer: tuple[Combatant, Command] | None
) -> None:
    """R-LG-ATK-7: reaction, its cost, check, attack, damage, weapon wear, conditions."""
    t = s.target
    defense = data(t).p.defense
    r = react(enc, s, total, *answer) if answer is not None else None
    # R-LG-ATK-2, R-LG-REA-4: unanswered, or a failed reaction, hits when the total reaches the defence
    lands = total >= defense if enc.variants["lagornis.attack.hit_on_equal"] else total > defense
    failed = r is not None and r.rolled is not None and not r.success
    if failed and enc.variants["lagornis.reaction.failed_reaction"] == "hits":
        lands = True
    dodged = r is not None and r.kind == "dodge" and r.success
    hit = lands and not (dodged and not s.area)  # R-LG-REA-5: a dodged targeted attack does nothing
    vs = r.rolled if r is not None and r.rolled is not None and r.success else defense
    modifiers = [{"source": src, "value": v} for src, v in mods]
    enc.emit(
        ev.attack(
            s.attacker.id, t.id, s.source, s.kind, face, total, vs, hit, False, modifiers, defense=defense
        )
    )
    if hit:
        faces: list[int] = []
        raw = max(0, s.damage.roll(enc.dice, faces) + s.damage_bonus)  # R-LG-ATK-3
        deal_damage(enc, t, reduced(r, raw), s.source, rolls=faces, rolled=raw)
        if r is not None and r.weapon is not None:
            wear(enc, r.reactor, r.weapon, raw // 2)
    if dodged and r is not None and r.margin <= 2 and "off_balance" not in r.reactor.conditions:
        # R-LG-REA-5: a weak success (margin 1 or 2) leaves the dodger off balance
        enc.ruleset.add_condition(enc, r.reactor, "off_balance", "next action roll")


def wear(enc: Encounter, c: Combatant, w: Weapon, amount: int) -> None:
    """R-LG-REA-6: the parrying weapon loses half the attack's damage in durability; at 0 it is broken."""
    d = data(c)
    if amount <= 0:
        return
    before = d.durability[w.id]
    d.durability[w.id] = max(0, before - amount)
    after = d.durability[w.id]
    event = ev.resource(c.id, f"weapon:{w.id}", after, after - before)
    if after == 0:
        event["broken"] = True
    enc.emit(event)
