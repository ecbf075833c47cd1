"""pf1 spells and special abilities: casting times, metamagic, multi-round casting, concentration."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...engine import events as ev
from ...engine.commands import Command
from ...engine.grid import chebyshev
from ...engine.state import Combatant
from ...i18n import _
from ..base import illegal
from .combat import deal_damage, lose_spell, provoke, stopped, touch_ac
from .economy import check_full_round, check_not_casting, check_standard, no_budget, pay
from .state import Casting, data
from .stats import METAMAGIC, Special, Spell

if TYPE_CHECKING:
    from ...engine.core import Encounter, Step


@dataclass(frozen=True, slots=True)
class CastPlan:
    spell: Spell
    targets: tuple[Combatant, ...]
    metamagic: tuple[str, ...]
    slot: str  # swift | standard | full_round
    continue_turns: int  # 0: no multi-turn casting
    completes_before: bool
    immediate: bool
    provokes: bool
    defensively: bool


def casting_plan(c: Combatant, spell: Spell, metamagic: tuple[str, ...]) -> tuple[str, int, bool, bool]:
    """(slot, continue_turns, completes_before, immediate) for ``spell`` with ``metamagic``."""
    ct = spell.casting_time
    if "quicken_spell" in metamagic:
        # R-PF-FR-MM-2: quicken makes it a swift action, whatever else it carries
        return "swift", 0, False, True
    spontaneous = data(c).p.spontaneous_caster or spell.spontaneous
    if metamagic and spontaneous:
        # R-PF-FR-MM-1 / R-PF-FR-MM-3: a spontaneous caster's metamagic adds a full-round action
        if ct == "standard":
            return "full_round", 0, False, True
        if ct == "full_round":
            return "full_round", 1, False, False
        if ct == "1_round":
            return "full_round", 2, False, False
        if ct == "1_minute":
            return "full_round", 10, True, False
    # R-PF-FR-MM-4: a prepared caster's metamagic never changes the casting time
    if ct in ("swift", "standard"):
        return ct, 0, False, True
    if ct == "full_round":
        return "full_round", 0, False, True
    if ct == "1_round":
        return "full_round", 0, True, False  # R-PF-FR-CAST-1
    return "full_round", 9, True, False  # R-PF-FR-CAST-2: 1 minute = 10 rounds


def check_cast(enc: Encounter, c: Combatant, cmd: Command) -> CastPlan:
    check_not_casting(c)
    p = data(c).p
    spell = p.spells.get(cmd.spell or "")
    if spell is None:
        raise illegal("invalid_command", _("{a} has no spell {s!r}"), a=c.name, s=cmd.spell)
    metamagic = tuple(cmd.metamagic or ())
    for feat in metamagic:
        if feat not in METAMAGIC:
            raise illegal("invalid_command", _("{f!r} is not a metamagic feat"), f=feat)
        if feat not in p.feats:
            raise illegal("not_allowed", _("{a} does not have the feat {f}"), a=c.name, f=feat)
    if "quicken_spell" in metamagic and spell.casting_time in ("1_round", "1_minute"):
        raise illegal(
            "not_allowed", _("{s} takes longer than a full-round action and cannot be quickened"), s=spell.id
        )
    slot, cont, before, immediate = casting_plan(c, spell, metamagic)
    if slot == "swift":
        if data(c).swift < 1:
            raise no_budget(c, "swift")
    elif slot == "standard":
        check_standard(enc, c)
    else:
        check_full_round(enc, c)
    names = tuple(cmd.targets or ()) + ((cmd.target,) if cmd.target else ())
    if len(set(names)) != len(names):
        raise illegal("invalid_command", _("{a}: a target is named twice"), a=c.name)
    targets = []
    for name in names:
        t = enc.combatants.get(name)
        if t is None:
            raise illegal("unknown_combatant", _("there is no combatant {t!r}"), t=name)
        if spell.touch and spell.range_m is None and chebyshev(c.pos, t.pos) > 1 and t is not c:
            raise illegal("out_of_reach", _("{t} is out of touch range of {a}"), t=t.name, a=c.name)
        if spell.range_m is not None and enc.grid.distance_m(c.pos, t.pos) > spell.range_m + 1e-9:
            raise illegal("out_of_reach", _("{t} is beyond the range of {s}"), t=t.name, s=spell.id)
        targets.append(t)
    if spell.damage is not None and not targets:
        raise illegal("invalid_command", _("{a}: {s} needs targets"), a=c.name, s=spell.id)
    # R-PF-AOO-3: casting provokes, except swift, quickened and defensive casting
    provokes = slot != "swift" and not cmd.defensively
    return CastPlan(
        spell, tuple(targets), metamagic, slot, cont, before, immediate, provokes, bool(cmd.defensively)
    )


def run_cast(enc: Encounter, c: Combatant, cmd: Command, plan: CastPlan) -> Step:
    d = data(c)
    enc.emit(ev.action(c.id, "cast", pay(enc, c, plan.slot)))
    spell = plan.spell
    d.spell_in_hand = spell
    if plan.provokes:
        # R-PF-FR-CAST-3 (seed): casting provokes only at the start, even over several rounds
        before = c.state
        yield from provoke(enc, c, c.pos, "cast")
        if stopped(c, before):
            lose_spell(enc, c, "defeated")  # R-PF-AOO-5: the spell is lost
            return
        if d.spell_in_hand is None:
            return  # lost to a failed concentration check
    if plan.defensively:
        dc = 15 + 2 * spell.level
        face = enc.dice.roll(20)
        total = face + d.p.concentration
        ok = total >= dc
        enc.emit(ev.check(c.id, "concentration", face, total, dc, ok, defensively=True))
        if not ok:
            lose_spell(enc, c, "concentration")
            return
    d.spell_in_hand = None
    if plan.immediate:
        # format.md: spell_started says when the spell completes, here "now" (the end of this action)
        enc.emit(ev.spell_started(c.id, spell.id, "now"))
        spell_takes_effect(enc, c, spell, tuple(t.id for t in plan.targets), plan.metamagic)
        return
    completes_round = enc.round + plan.continue_turns + (1 if plan.completes_before else 0)
    d.casting = Casting(
        spell,
        tuple(t.id for t in plan.targets),
        plan.metamagic,
        plan.continue_turns,
        completes_round,
        plan.completes_before,
        multi_round=spell.casting_time in ("1_round", "1_minute") or plan.continue_turns > 0,
        started_round=enc.round,
    )
    enc.emit(ev.spell_started(c.id, spell.id, d.casting.completes(c.id)))
    enc.ruleset.add_condition(enc, c, "casting", d.casting.completes(c.id))


def spell_takes_effect(
    enc: Encounter, c: Combatant, spell: Spell, targets: tuple[str, ...], metamagic: tuple[str, ...]
) -> None:
    enc.emit(ev.spell_cast(c.id, spell.id, list(targets)))
    if spell.damage is None:
        return
    for tid in targets:
        t = enc.combatants[tid]
        if spell.touch and t is not c and not touch_attack(enc, c, t, spell):
            continue
        faces: list[int] = []
        expr = spell.damage
        if "maximize_spell" in metamagic:
            amount = expr.maximum_dice + expr.const
            if "empower_spell" in metamagic:
                amount += expr.roll(enc.dice, faces) // 2
        else:
            amount = expr.roll(enc.dice, faces)
            if "empower_spell" in metamagic:
                amount = amount * 3 // 2
        deal_damage(enc, t, max(0, amount), spell.id, rolls=faces)


def touch_attack(enc: Encounter, c: Combatant, t: Combatant, spell: Spell) -> bool:
    """A touch spell's attack roll; return whether it hit. The spec is silent, so our choice, as in
    PF1: a touch spell without ``range_m`` is a melee touch attack (d20 + bab + Str, the target
    adjacent), one with ``range_m`` a ranged touch attack (a ray: d20 + bab + Dex); both against
    touch AC (10 + Dex + dodge, without armour). Natural 20 hits, natural 1 misses; no critical.
    The event is an ``attack`` of kind ``normal`` with the spell as weapon and ``touch: melee|ranged``."""
    p = data(c).p
    ranged = spell.range_m is not None
    ability = ("dex", p.dex_mod) if ranged else ("str", p.str_mod)
    face = enc.dice.roll(20)
    total = face + p.bab + ability[1]
    vs = touch_ac(t)
    hit = face == 20 or (face != 1 and total >= vs)
    mods = [{"source": "bab", "value": p.bab}, {"source": ability[0], "value": ability[1]}]
    touch = "ranged" if ranged else "melee"
    enc.emit(ev.attack(c.id, t.id, spell.id, "normal", face, total, vs, hit, False, mods, touch=touch))
    return hit


def complete_casting(enc: Encounter, c: Combatant) -> None:
    d = data(c)
    casting = d.casting
    assert casting is not None
    d.casting = None
    enc.ruleset.remove_condition(enc, c, "casting")
    spell_takes_effect(enc, c, casting.spell, casting.targets, casting.metamagic)


def casting_at_turn_start(enc: Encounter, c: Combatant) -> None:
    """Before ``turn_started``: a spell due before this turn takes effect (R-PF-FR-CAST-1/2)."""
    casting = data(c).casting
    if casting is not None and casting.completes_before and casting.continue_turns == 0:
        complete_casting(enc, c)


def continue_casting(enc: Encounter, c: Combatant) -> None:
    """After ``turn_started``: a turn spent entirely casting (R-PF-FR-CAST-2, R-PF-FR-MM-3)."""
    d = data(c)
    casting = d.casting
    if casting is None or casting.continue_turns == 0:
        return
    enc.emit(ev.action(c.id, "continue_casting", pay(enc, c, "full_round")))
    d.casting = Casting(
        casting.spell,
        casting.targets,
        casting.metamagic,
        casting.continue_turns - 1,
        casting.completes_round,
        casting.completes_before,
        casting.multi_round,
        casting.started_round,
    )
    if d.casting.continue_turns == 0 and not casting.completes_before:
        complete_casting(enc, c)


def cast_candidates(enc: Encounter, c: Combatant) -> Iterator[Command]:
    for s in data(c).p.spells.values():
        if s.damage is None:
            yield Command(actor=c.id, do="cast", spell=s.id)
            continue
        for t in enc.order:
            if t.side != c.side and t.state != "dead":
                yield Command(actor=c.id, do="cast", spell=s.id, targets=(t.id,))


# -- abandon_spell ---------------------------------------------------------------------------------
def check_abandon(enc: Encounter, c: Combatant, cmd: Command) -> None:
    if data(c).casting is None:
        raise illegal("not_allowed", _("{a} is not casting anything"), a=c.name)


def run_abandon(enc: Encounter, c: Combatant, cmd: Command, plan: None) -> Step:
    lose_spell(enc, c, "other_action")
    return
    yield


def abandon_candidates(enc: Encounter, c: Combatant) -> Iterator[Command]:
    if data(c).casting is not None:
        yield Command(actor=c.id, do="abandon_spell")


# -- use_ability (R-PF-FR-SPEC) ---------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class AbilityPlan:
    special: Special
    target: Combatant | None


def check_use_ability(enc: Encounter, c: Combatant, cmd: Command) -> AbilityPlan:
    check_not_casting(c)
    if (cmd.special is None) == (cmd.ability is None):
        raise illegal("invalid_command", _("{a}: use_ability needs 'special' (or 'ability'), once"), a=c.name)
    name = cmd.special or cmd.ability
    sp = data(c).p.specials.get(name or "")
    if sp is None:
        raise illegal("invalid_command", _("{a} has no special ability {s!r}"), a=c.name, s=name)
    if sp.action == "full_round":
        check_full_round(enc, c)
    else:
        check_standard(enc, c)
    target = None
    if cmd.target is not None:
        target = enc.combatants.get(cmd.target)
        if target is None:
            raise illegal("unknown_combatant", _("there is no combatant {t!r}"), t=cmd.target)
        reach = sp.range_m if sp.range_m is not None else enc.grid.square_m
        if enc.grid.distance_m(c.pos, target.pos) > reach + 1e-9:
            raise illegal("out_of_reach", _("{t} is out of range of {s}"), t=target.name, s=sp.id)
    elif sp.damage is not None:
        raise illegal("invalid_command", _("{a}: {s} needs a target"), a=c.name, s=sp.id)
    return AbilityPlan(sp, target)


def run_use_ability(enc: Encounter, c: Combatant, cmd: Command, plan: AbilityPlan) -> Step:
    sp = plan.special
    enc.emit(ev.action(c.id, "use_ability", pay(enc, c, sp.action)))
    if sp.provokes:
        # R-PF-AOO-3: a spell-like special provokes as casting does
        before = c.state
        yield from provoke(enc, c, c.pos, "cast")
        if stopped(c, before):
            return  # R-PF-AOO-5
    if sp.damage is not None and plan.target is not None:
        faces: list[int] = []
        deal_damage(enc, plan.target, max(0, sp.damage.roll(enc.dice, faces)), sp.id, rolls=faces)


def use_ability_candidates(enc: Encounter, c: Combatant) -> Iterator[Command]:
    for sp in data(c).p.specials.values():
        if sp.damage is None:
            yield Command(actor=c.id, do="use_ability", special=sp.id)
            continue
        for t in enc.order:
            if t.side != c.side and t.state != "dead":
                yield Command(actor=c.id, do="use_ability", special=sp.id, target=t.id)
