"""terza spells and items: one spell and one item per turn, reaction spells (R-TA-LIM).

Spells have no attack roll in this ruleset (the spec gives them no attack bonus): a damaging spell
hits its targets, and ``save: reflex`` lets each target roll a Reflex save against ``dc``. Our
choice, 5e-style: a successful save halves the damage (rounded down), or negates it for a cantrip.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...engine import events as ev
from ...engine.commands import Command
from ...engine.grid import chebyshev
from ...engine.state import Combatant, Window
from ...i18n import _
from ..base import illegal
from .economy import check_can_act, check_slot, incapacitated, pay
from .rolls import deal_damage, reflex_save
from .state import data, turn_key
from .stats import Item, Spell

if TYPE_CHECKING:
    from ...engine.core import Encounter, Step


@dataclass(frozen=True, slots=True)
class CastPlan:
    spell: Spell
    targets: tuple[Combatant, ...]
    slot: str


@dataclass(frozen=True, slots=True)
class ItemPlan:
    item: Item
    targets: tuple[Combatant, ...]


@dataclass(frozen=True, slots=True)
class SpellWindow:
    """Context of the window a reaction spell answers: the pending attack (R-TA-LIM-3)."""

    attacker: str


def spell_targets(enc: Encounter, c: Combatant, spell: Spell, cmd: Command) -> tuple[Combatant, ...]:
    names = tuple(cmd.targets or ()) + ((cmd.target,) if cmd.target else ())
    targets = []
    for name in dict.fromkeys(names):
        t = enc.combatants.get(name)
        if t is None:
            raise illegal("unknown_combatant", _("there is no combatant {t!r}"), t=name)
        if t.state == "dead":
            raise illegal("not_allowed", _("{t} is dead"), t=t.name)
        if spell.touch and t is not c and chebyshev(c.pos, t.pos) > 1:
            raise illegal("out_of_reach", _("{t} is out of touch range of {a}"), t=t.name, a=c.name)
        targets.append(t)
    if spell.damage is not None and not targets:
        raise illegal("invalid_command", _("{a}: {s} needs a target"), a=c.name, s=spell.id)
    return tuple(targets)


def check_one_spell(c: Combatant) -> None:
    # R-TA-LIM-1: one spell per turn, whether from the action, the bonus action or an item
    if data(c).spells_this_turn >= 1:
        raise illegal("not_allowed", _("{a} already cast a spell this turn (one spell per turn)"), a=c.name)


def reaction_spell_blocker(enc: Encounter, c: Combatant) -> Exception | None:
    """Why ``c`` cannot cast a reaction spell now (R-TA-LIM-3), or None."""
    if incapacitated(c) is not None or enc.ruleset.is_defeated(c):
        return illegal("condition", _("{a} cannot react now"), a=c.name)
    if data(c).reaction < 1:
        return illegal("no_budget", _("{a} has already used its reaction this round"), a=c.name)
    if data(c).reaction_spell_turn == turn_key(enc):
        return illegal("not_allowed", _("{a} already cast a reaction spell this turn"), a=c.name)
    return None


def check_cast(enc: Encounter, c: Combatant, cmd: Command) -> CastPlan:
    spell = data(c).p.spells.get(cmd.spell or "")
    if spell is None:
        raise illegal("invalid_command", _("{a} has no spell {s!r}"), a=c.name, s=cmd.spell)
    if spell.casting_time == "reaction":
        # R-TA-LIM-3: once per turn, any combatant's turn, whatever it cast on its own
        blocker = reaction_spell_blocker(enc, c)
        if blocker is not None:
            raise blocker
    else:
        if enc.current is not c:
            raise illegal(
                "not_your_turn",
                _("it is not {a}'s turn: only a reaction spell can be cast on another's turn"),
                a=c.name,
            )
        check_can_act(c)
        check_one_spell(c)
        check_slot(c, spell.casting_time)
    return CastPlan(spell, spell_targets(enc, c, spell, cmd), spell.casting_time)


def cast_effect(enc: Encounter, c: Combatant, spell: Spell, targets: tuple[Combatant, ...]) -> None:
    """The spell takes effect: ``spell_cast``, then each target's save and damage."""
    if spell.touch:
        data(c).touch_spell_turn = turn_key(enc)  # R-TA-ZOC-2: guarded for the rest of the turn
    enc.emit(ev.spell_cast(c.id, spell.id, [t.id for t in targets]))
    if spell.damage is None:
        return
    for t in targets:
        saved = (
            spell.save == "reflex" and spell.dc is not None and reflex_save(enc, t, spell.dc, spell=spell.id)
        )
        faces: list[int] = []
        amount = max(0, spell.damage.roll(enc.dice, faces))
        if saved:
            amount = 0 if spell.cantrip else amount // 2
        deal_damage(enc, t, amount, spell.id, rolls=faces)


def run_cast(enc: Encounter, c: Combatant, cmd: Command, plan: CastPlan) -> Step:
    d = data(c)
    enc.emit(ev.action(c.id, "cast", pay(c, plan.slot)))
    if plan.slot == "reaction":
        d.reaction_spell_turn = turn_key(enc)
    else:
        d.spells_this_turn += 1
    cast_effect(enc, c, plan.spell, plan.targets)
    return
    yield


def _targets_for(enc: Encounter, c: Combatant, spell: Spell) -> Iterator[tuple[str, ...]]:
    if spell.damage is None:
        yield ()
        return
    for t in enc.order:
        if t.side != c.side and t.state != "dead":
            yield (t.id,)


def cast_candidates(enc: Encounter, c: Combatant) -> Iterator[Command]:
    for s in data(c).p.spells.values():
        for targets in _targets_for(enc, c, s):
            yield Command(actor=c.id, do="cast", spell=s.id, targets=targets or None)


# -- the answer to a pending attack (R-TA-LIM-3) ---------------------------------------------------
def reaction_spells(enc: Encounter, c: Combatant) -> list[Spell]:
    if reaction_spell_blocker(enc, c) is not None:
        return []
    return [s for s in data(c).p.spells.values() if s.casting_time == "reaction"]


def offer_reaction_spell(enc: Encounter, target: Combatant, attacker: Combatant, weapon: str) -> Step:
    """Before an attack against ``target`` is rolled, it may answer with a reaction spell."""
    if not reaction_spells(enc, target):
        return
    trigger = {"type": "attack", "attacker": attacker.id, "target": target.id, "weapon": weapon}
    answer = yield Window(target.id, ("cast", "decline"), trigger, SpellWindow(attacker.id))
    if answer.do != "cast":
        return
    plan = reaction_answer_plan(enc, attacker.id, answer)
    yield from run_cast(enc, target, answer, plan)


def reaction_answer_plan(enc: Encounter, attacker: str, cmd: Command) -> CastPlan:
    """The plan of a ``cast`` answering a pending attack; a damaging spell without targets aims
    at the attacker (our choice: the usual reaction spell strikes back)."""
    c = enc.combatants[cmd.actor]
    spell = data(c).p.spells.get(cmd.spell or "")
    if spell is None:
        raise illegal("invalid_command", _("{a} has no spell {s!r}"), a=c.name, s=cmd.spell)
    if spell.casting_time != "reaction":
        raise illegal("not_allowed", _("{s} is not a reaction spell"), s=spell.id)
    if spell.damage is not None and not cmd.target and not cmd.targets:
        cmd = Command(actor=cmd.actor, do="cast", spell=spell.id, target=attacker)
    blocker = reaction_spell_blocker(enc, c)
    if blocker is not None:
        raise blocker
    return CastPlan(spell, spell_targets(enc, c, spell, cmd), "reaction")


def check_spell_answer(enc: Encounter, window: Window, cmd: Command) -> None:
    if cmd.do == "decline":
        extra = set(cmd.given()) - {"actor", "do"}
    else:
        extra = set(cmd.given()) - {"actor", "do", "spell", "target", "targets"}
        if cmd.spell is None:
            raise illegal("invalid_command", _("{a}: cast needs 'spell'"), a=cmd.actor)
    if extra:
        raise illegal(
            "invalid_command", _("{a}: {do} does not take {f!r}"), a=cmd.actor, do=cmd.do, f=min(extra)
        )
    if cmd.do == "cast":
        assert isinstance(window.context, SpellWindow)
        reaction_answer_plan(enc, window.context.attacker, cmd)


def spell_answer_candidates(enc: Encounter, window: Window) -> Iterator[Command]:
    c = enc.combatants[window.actor]
    for s in reaction_spells(enc, c):
        yield Command(actor=c.id, do="cast", spell=s.id)
    yield Command(actor=c.id, do="decline")


# -- items (R-TA-LIM-2) -----------------------------------------------------------------------------
def check_use_item(enc: Encounter, c: Combatant, cmd: Command) -> ItemPlan:
    item = data(c).p.items.get(cmd.item or "")
    if item is None:
        raise illegal("invalid_command", _("{a} has no item {i!r}"), a=c.name, i=cmd.item)
    check_can_act(c)
    if item.continuous:
        # R-TA-LIM-2: an item of continuous use is always active and never "used"
        raise illegal("not_allowed", _("{i} is always active: it is never used"), i=item.id)
    if data(c).items_this_turn >= 1:
        raise illegal("not_allowed", _("{a} already used an item this turn (one item per turn)"), a=c.name)
    targets: tuple[Combatant, ...] = ()
    if item.spell is not None:
        check_one_spell(c)  # R-TA-LIM-1: an item that casts a spell counts as both
        targets = spell_targets(enc, c, item.spell, cmd)
    elif cmd.target or cmd.targets:
        raise illegal("invalid_command", _("{a}: {i} takes no target"), a=c.name, i=item.id)
    check_slot(c, item.use)
    return ItemPlan(item, targets)


def run_use_item(enc: Encounter, c: Combatant, cmd: Command, plan: ItemPlan) -> Step:
    d = data(c)
    event = ev.action(c.id, "use_item", pay(c, plan.item.use))
    event["item"] = plan.item.id
    enc.emit(event)
    d.items_this_turn += 1
    if plan.item.spell is not None:
        d.spells_this_turn += 1
        cast_effect(enc, c, plan.item.spell, plan.targets)
    return
    yield


def use_item_candidates(enc: Encounter, c: Combatant) -> Iterator[Command]:
    for item in data(c).p.items.values():
        if item.continuous:
            continue
        if item.spell is None:
            yield Command(actor=c.id, do="use_item", item=item.id)
            continue
        for targets in _targets_for(enc, c, item.spell):
            yield Command(actor=c.id, do="use_item", item=item.id, targets=targets or None)
