"""terza attacks, zones of control and opportunity attacks (R-TA-ATK, R-TA-ZOC)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...engine import events as ev
from ...engine.commands import Command
from ...engine.grid import Square, chebyshev
from ...engine.state import Combatant, Window
from ...i18n import _
from ..base import illegal
from .casting import offer_reaction_spell
from .economy import incapacitated
from .rolls import deal_damage, roll_d20, succeeds
from .state import data, turn_key
from .stats import Weapon

if TYPE_CHECKING:
    from ...engine.core import Encounter, Step

DISADVANTAGE_CONDITIONS = ("blinded", "poisoned", "prone", "restrained", "frightened")


@dataclass(frozen=True, slots=True)
class OpportunityWindow:
    """Context of an opportunity-attack window: who provoked it."""

    provoker: str


def enemies(enc: Encounter, c: Combatant) -> Iterator[Combatant]:
    """``c``'s enemies in initiative order (format.md: windows come in that order)."""
    return (e for e in enc.order if e.side != c.side)


def adjacent_enemy(enc: Encounter, c: Combatant) -> bool:
    return any(chebyshev(e.pos, c.pos) == 1 and not enc.ruleset.is_defeated(e) for e in enemies(enc, c))


# -- disadvantage and AC (R-TA-ATK-1, R-TA-ATK-4) ---------------------------------------------------
def condition_disadvantage(c: Combatant) -> str | None:
    """R-TA-ATK-4: the condition that gives ``c`` disadvantage, if any."""
    return next((k for k in DISADVANTAGE_CONDITIONS if k in c.conditions), None)


def attack_disadvantage(enc: Encounter, attacker: Combatant, target: Combatant, w: Weapon) -> list[str]:
    """Every reason this attack has disadvantage (R-TA-ATK-4; R-TA-ECO-4 dodge)."""
    out = [k for k in DISADVANTAGE_CONDITIONS if k in attacker.conditions]
    if not w.melee and adjacent_enemy(enc, attacker):
        out.append("enemy_adjacent")
    if "dodging" in target.conditions:
        out.append("dodging")
    return out


def armor_class(enc: Encounter, t: Combatant) -> int:
    """AC, plus the shield when in hand (R-TA-ATK-1) and the defend bonus (R-TA-3-3)."""
    p = data(t).p
    ac = p.ac
    if p.shield is not None and p.shield.id in t.wielding:
        ac += p.shield.ac
    if "defending" in t.conditions:
        ac += enc.variants["terza.defend.ac_bonus"]
    return ac


# -- attacks (R-TA-ATK-1, R-TA-ATK-2) ---------------------------------------------------------------
def resolve_attack(
    enc: Encounter, attacker: Combatant, target: Combatant, w: Weapon, kind: str, off_hand: bool = False
) -> Step:
    """One weapon attack: the target's reaction spell window (R-TA-LIM-3), the roll, the damage."""
    yield from offer_reaction_spell(enc, target, attacker, w.id)
    if enc.ruleset.is_defeated(attacker):
        return  # struck down by the reaction spell before it could swing
    reasons = attack_disadvantage(enc, attacker, target, w)
    face, faces = roll_d20(enc, disadvantage=bool(reasons))
    total = face + w.to_hit
    ac = armor_class(enc, t=target)
    hit = succeeds(face, total, ac)
    critical = face == 20
    extra: dict[str, object] = {}
    if len(faces) > 1:
        extra = {"rolls": faces, "disadvantage": reasons}
    mods = [{"source": "to_hit", "value": w.to_hit}]
    enc.emit(ev.attack(attacker.id, target.id, w.id, kind, face, total, ac, hit, critical, mods, **extra))
    if not hit:
        return
    faces = []
    amount = w.damage.roll(enc.dice, faces)
    if critical:
        amount += w.damage.roll_dice_only(enc.dice, faces)  # R-TA-ATK-1: the dice twice
    # R-TA-ATK-2: the damage bonus, but an off-hand attack adds it only when it is a penalty
    amount += min(0, w.damage_bonus) if off_hand else w.damage_bonus
    deal_damage(enc, target, max(0, amount), w.id, rolls=faces)


# -- zones of control (R-TA-ZOC-1, R-TA-ZOC-2) ------------------------------------------------------
def melee_in_hand(c: Combatant) -> list[Weapon]:
    p = data(c).p
    return [p.weapons[w] for w in c.wielding if w in p.weapons and p.weapons[w].melee]


def zoc_reach(enc: Encounter, c: Combatant) -> int:
    """R-TA-ZOC-1: how far (in squares) ``c``'s zone of control reaches; 0 when it has none."""
    if enc.ruleset.is_defeated(c):
        return 0
    reach = max((w.reach_units for w in melee_in_hand(c)), default=0)
    if "unarmed_combat" in data(c).p.skills:
        reach = max(reach, 1)
    return reach


def in_zoc(enc: Encounter, e: Combatant, square: Square) -> bool:
    """Whether ``square`` lies in ``e``'s zone of control (uniform diagonals: Chebyshev distance)."""
    reach = zoc_reach(enc, e)
    return reach > 0 and 1 <= chebyshev(e.pos, square) <= reach


def zoc_squares(enc: Encounter, e: Combatant) -> list[Square]:
    """Every square of ``e``'s zone of control (for the tracker's overlay)."""
    reach = zoc_reach(enc, e)
    return enc.grid.squares_within(e.pos, 1, reach) if reach else []


def guarded(enc: Encounter, c: Combatant) -> bool:
    """R-TA-ZOC-2: a melee weapon or shield in hand, one of the three skills, or a touch spell cast
    this turn. An unguarded mover provokes by entering or leaving a zone of control."""
    p = data(c).p
    if melee_in_hand(c) or (p.shield is not None and p.shield.id in c.wielding):
        return True
    if p.skills & {"unarmed_combat", "combat_archer", "combat_casting"}:
        return True
    return data(c).touch_spell_turn == turn_key(enc)


# -- opportunity attacks (R-TA-ZOC-3, R-TA-ZOC-4) ---------------------------------------------------
def may_take_opportunity(enc: Encounter, r: Combatant, provoker: Combatant) -> bool:
    """R-TA-ZOC-4: it needs its reaction, must not be out, and must see the provoker. Our choice
    (5e): a stunned, paralyzed or incapacitated combatant takes no reaction either."""
    if enc.ruleset.is_defeated(r) or incapacitated(r) is not None:
        return False
    return data(r).reaction >= 1 and "invisible" not in provoker.conditions


def opportunity_weapon(c: Combatant, wanted: str | None = None) -> Weapon:
    p = data(c).p
    if wanted is not None:
        return p.unarmed if wanted == "unarmed" else p.weapons[wanted]
    melee = melee_in_hand(c)
    return melee[0] if melee else p.unarmed


def offer_opportunity(enc: Encounter, provoker: Combatant, r: Combatant, reason: str, at: Square) -> Step:
    """Emit ``opportunity``, ask ``r``, and resolve its attack if it takes it. One melee attack,
    before the provoking step or act; it costs the reaction (R-TA-ECO-2, R-TA-ZOC-4)."""
    enc.emit(ev.opportunity(provoker.id, r.id, reason, at))
    trigger = {"type": "opportunity", "provoker": provoker.id, "reason": reason, "at": ev.sq(at)}
    answer = yield Window(r.id, ("opportunity_attack", "decline"), trigger, OpportunityWindow(provoker.id))
    if answer.do != "opportunity_attack":
        return
    enc.emit(ev.action(r.id, "opportunity_attack", ["reaction"]))
    data(r).reaction -= 1
    yield from resolve_attack(enc, r, provoker, opportunity_weapon(r, answer.weapon), "opportunity")


def provoke_in_place(enc: Encounter, c: Combatant, reason: str) -> Step:
    """Every enemy whose zone holds ``c`` may strike (R-TA-3-6: sheathing in a zone)."""
    for r in list(enemies(enc, c)):
        if in_zoc(enc, r, c.pos) and may_take_opportunity(enc, r, c):
            yield from offer_opportunity(enc, c, r, reason, c.pos)
            if enc.ruleset.is_defeated(c):
                return


def check_opportunity_answer(enc: Encounter, window: Window, cmd: Command) -> None:
    if cmd.do == "decline":
        if len(cmd.given()) > 2:
            raise illegal("invalid_command", _("{a}: decline takes no other field"), a=cmd.actor)
        return
    extra = set(cmd.given()) - {"actor", "do", "target", "weapon"}
    if extra:
        raise illegal(
            "invalid_command", _("{a}: opportunity_attack does not take {f!r}"), a=cmd.actor, f=min(extra)
        )
    assert isinstance(window.context, OpportunityWindow)
    provoker = window.context.provoker
    if cmd.target is not None and cmd.target != provoker:
        raise illegal(
            "not_allowed", _("{a} may only attack {p} with this opportunity"), a=cmd.actor, p=provoker
        )
    if cmd.weapon is not None:
        r = enc.combatants[cmd.actor]
        p = data(r).p
        if cmd.weapon == "unarmed":
            if "unarmed_combat" not in p.skills:
                raise illegal("not_allowed", _("{a} cannot fight unarmed (no unarmed_combat)"), a=cmd.actor)
            return
        w = p.weapons.get(cmd.weapon)
        if w is None:
            raise illegal("invalid_command", _("{a} has no weapon {w!r}"), a=cmd.actor, w=cmd.weapon)
        if cmd.weapon not in r.wielding or not w.melee:
            raise illegal("not_allowed", _("{a} does not hold {w} ready in melee"), a=cmd.actor, w=cmd.weapon)


def opportunity_candidates(window: Window) -> list[Command]:
    assert isinstance(window.context, OpportunityWindow)
    return [
        Command(actor=window.actor, do="opportunity_attack", target=window.context.provoker),
        Command(actor=window.actor, do="decline"),
    ]
