"""pf1 attacks, damage, hit point states, threatened squares and attacks of opportunity."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...engine import events as ev
from ...engine.commands import Command
from ...engine.dice import compile_dice
from ...engine.grid import Square, chebyshev
from ...engine.state import Combatant, Window
from ...i18n import _
from .state import data
from .stats import Weapon

if TYPE_CHECKING:
    from ...engine.core import Encounter, Step


# -- states (R-PF-TURN-4) ---------------------------------------------------------------------------
def state_from_hp(c: Combatant) -> str:
    d = data(c)
    if c.hp <= -d.p.con:
        return "dead"
    if c.hp < 0:
        return "dying"
    if "unconscious" in c.conditions:
        return "unconscious"
    if c.hp == 0:
        return "disabled"
    return "ok"


def can_threaten(c: Combatant) -> bool:
    # R-PF-TURN-4: dying, dead or unconscious combatants threaten nothing;
    # R-PF-FR-CAST-4: nor does one casting a spell of 1 round or longer
    if c.state not in ("ok", "disabled"):
        return False
    casting = data(c).casting
    return casting is None or not casting.multi_round


# -- reach (R-PF-AOO-1) -----------------------------------------------------------------------------
def weapon_reaches(enc: Encounter, w: Weapon, frm: Square, to: Square) -> bool:
    """Whether melee weapon ``w`` wielded at ``frm`` can strike ``to``."""
    if w.reach_units <= 1:
        return chebyshev(frm, to) == 1
    # a reach weapon threatens the squares two away but not adjacent ones; whether the second
    # diagonal (2, 2) counts is the variant pf1.reach.second_diagonal (our choice: it does)
    if enc.variants["pf1.reach.second_diagonal"]:
        dist = chebyshev(frm, to)
    else:
        dist = enc.grid.distance_units(frm, to)
    return 2 <= dist <= w.reach_units


def melee_weapons_in_hand(c: Combatant) -> list[Weapon]:
    p = data(c).p
    return [p.weapons[w] for w in c.wielding if p.weapons[w].melee]


def threatening_weapon(enc: Encounter, c: Combatant, square: Square) -> Weapon | None:
    """The first wielded melee weapon of ``c`` that threatens ``square`` (None if none does)."""
    for w in melee_weapons_in_hand(c):
        if weapon_reaches(enc, w, c.pos, square):
            return w
    return None


def threatens(enc: Encounter, c: Combatant, square: Square) -> bool:
    if not can_threaten(c):
        return False
    if threatening_weapon(enc, c, square) is not None:
        return True
    # unarmed combatants threaten nothing unless they have Improved Unarmed Strike
    return "improved_unarmed_strike" in data(c).p.feats and chebyshev(c.pos, square) == 1


def threatened_squares(enc: Encounter, c: Combatant) -> list[Square]:
    """Every square ``c`` threatens now (for the tracker's overlay)."""
    reach = max([w.reach_units for w in melee_weapons_in_hand(c)] + [1])
    return [s for s in enc.grid.squares_within(c.pos, 1, reach) if threatens(enc, c, s)]


# -- attacks of opportunity (R-PF-AOO-2..6) -------------------------------------------------------
def may_make_aoo(c: Combatant) -> bool:
    d = data(c)
    if d.aoo_left <= 0:
        return False  # R-PF-AOO-4
    # R-PF-TURN-3 / R-PF-AOO-6: flat-footed combatants make none unless they have Combat Reflexes
    return "flat_footed" not in c.conditions or "combat_reflexes" in d.p.feats


def reactors(
    enc: Encounter, provoker: Combatant, square: Square, skip: set[str] | None = None
) -> list[Combatant]:
    """Enemies that may make an attack of opportunity against ``provoker`` for ``square``, in
    initiative order (R-PF-AOO-6: each gets its own decision)."""
    out = []
    for r in enc.order:
        if r.side == provoker.side or r is provoker or (skip and r.id in skip):
            continue
        if may_make_aoo(r) and threatens(enc, r, square):
            out.append(r)
    return out


def offer_opportunity(
    enc: Encounter, provoker: Combatant, reactor: Combatant, reason: str, at: Square
) -> Step:
    """Emit ``opportunity``, ask ``reactor``, and resolve its attack if it takes it.

    A ``disabled`` provoker still provokes (it may act, so it may be punished for it); a dying,
    dead or unconscious one does not act at all."""
    if not (may_make_aoo(reactor) and threatens(enc, reactor, provoker.pos)) or enc.ruleset.is_defeated(
        provoker
    ):
        return
    enc.emit(ev.opportunity(provoker.id, reactor.id, reason, at))
    trigger = {"type": "opportunity", "provoker": provoker.id, "reason": reason, "at": ev.sq(at)}
    answer = yield Window(reactor.id, ("opportunity_attack", "decline"), trigger, provoker.id)
    if answer.do != "opportunity_attack":
        return
    d = data(reactor)
    d.aoo_left -= 1
    weapon = d.p.weapons[answer.weapon] if answer.weapon else threatening_weapon(enc, reactor, provoker.pos)
    if weapon is None:  # Improved Unarmed Strike without a weapon in hand
        weapon = UNARMED
    # R-PF-AOO-5: one melee attack at the highest bonus, before the provoking act
    resolve_attack(enc, reactor, provoker, weapon, "opportunity", d.p.bab, [])


def provoke(
    enc: Encounter, provoker: Combatant, square: Square, reason: str, skip: set[str] | None = None
) -> Step:
    """Offer every eligible enemy its attack of opportunity, one after another; stop as soon as
    one leaves the provoker worse off than it was (the caller checks :func:`stopped`)."""
    before = provoker.state
    for r in reactors(enc, provoker, square, skip):
        if skip is not None:
            skip.add(r.id)
        yield from offer_opportunity(enc, provoker, r, reason, square)
        if stopped(provoker, before):
            return  # R-PF-AOO-5: disabled or worse, the provoking act stops


def stopped(c: Combatant, before: str) -> bool:
    """R-PF-AOO-5: whether an attack of opportunity left ``c`` disabled or worse than its state
    ``before`` it (a combatant already disabled is stopped when it drops further, to dying)."""
    return c.state != before


def check_opportunity_answer(enc: Encounter, window: Window, cmd: Command) -> None:
    from ..base import illegal

    if cmd.do == "decline":
        if len(cmd.given()) > 2:
            raise illegal("invalid_command", _("{a}: decline takes no other field"), a=cmd.actor)
        return
    extra = set(cmd.given()) - {"actor", "do", "target", "weapon"}
    if extra:
        raise illegal(
            "invalid_command",
            _("{a}: opportunity_attack does not take {f!r}"),
            a=cmd.actor,
            f=sorted(extra)[0],
        )
    provoker = window.context
    if cmd.target is not None and cmd.target != provoker:
        raise illegal(
            "not_allowed", _("{a} may only attack {p} with this opportunity"), a=cmd.actor, p=provoker
        )
    if cmd.weapon is not None:
        r = enc.combatants[cmd.actor]
        w = data(r).p.weapons.get(cmd.weapon)
        if w is None:
            raise illegal("invalid_command", _("{a} has no weapon {w!r}"), a=cmd.actor, w=cmd.weapon)
        if cmd.weapon not in r.wielding or not w.melee:
            raise illegal("not_allowed", _("{a} does not hold {w} ready in melee"), a=cmd.actor, w=cmd.weapon)
        if not weapon_reaches(enc, w, r.pos, enc.combatants[provoker].pos):
            raise illegal("out_of_reach", _("{p} is out of {w}'s reach"), p=provoker, w=cmd.weapon)


# -- attack rolls (R-PF-ATK-1..3) ------------------------------------------------------------------
def dex_denied(t: Combatant) -> bool:
    """Whether ``t`` is denied its Dex bonus to AC. The spec names two causes, and only those count:
    flat-footed (R-PF-TURN-3) and running without the Run feat (R-PF-FR-RUN-2). ``blinded`` has
    only movement effects in pf1.md (no withdraw, run or 5-foot step), so it keeps its Dex bonus."""
    if "flat_footed" in t.conditions:
        return True
    return "running" in t.conditions and "run" not in data(t).p.feats


def armor_class(t: Combatant) -> int:
    """Effective AC: Dex bonus and dodge bonuses lost when denied Dex (R-PF-ATK-1, R-PF-ATK-5)."""
    p = data(t).p
    if dex_denied(t):
        return p.ac - max(0, p.dex_mod)
    return p.ac + (2 if "fighting_defensively" in t.conditions else 0)


def touch_ac(t: Combatant) -> int:
    p = data(t).p
    if dex_denied(t):
        return 10
    return 10 + p.dex_mod + (2 if "fighting_defensively" in t.conditions else 0)


def damage_modifier(attacker: Combatant, w: Weapon, off_hand: bool) -> int:
    """R-PF-ATK-3: the Str modifier x1.5 two-handed, x0.5 off-hand, rounded down, none for ranged;
    plus the weapon's damage bonus. As the spec says, the *modifier* is multiplied, a penalty too
    (Str 8, two-handed: floor(-1 x 1.5) = -2)."""
    s = data(attacker).p.str_mod
    if not w.melee:
        s = 0
    elif off_hand:
        s = s // 2  # floor division: rounded down, for penalties too
    elif w.grip == "two_handed":
        s = s * 3 // 2
    return s + w.damage_bonus


def resolve_attack(
    enc: Encounter,
    attacker: Combatant,
    target: Combatant,
    w: Weapon,
    kind: str,
    base: int,
    extra: list[tuple[str, int]],
    off_hand: bool = False,
) -> bool:
    """Roll one attack and its damage; return whether it hit."""
    p = data(attacker).p
    mods = [("bab", base), ("str" if w.melee else "dex", p.str_mod if w.melee else p.dex_mod)]
    if w.attack_bonus:
        mods.append(("weapon", w.attack_bonus))
    mods.extend(extra)
    bonus = sum(v for _s, v in mods)
    ac = armor_class(target)
    face = enc.dice.roll(20)
    total = face + bonus
    hit = face == 20 or (face != 1 and total >= ac)
    critical = False
    extra_fields: dict[str, Any] = {}
    if hit and face >= w.threat_low:
        # R-PF-ATK-2: a threat is confirmed by a second roll with the same bonus that hits
        cface = enc.dice.roll(20)
        ctotal = cface + bonus
        critical = cface == 20 or (cface != 1 and ctotal >= ac)
        extra_fields["confirm"] = {"roll": cface, "total": ctotal, "hit": critical}
    enc.emit(
        ev.attack(
            attacker.id,
            target.id,
            w.id,
            kind,
            face,
            total,
            ac,
            hit,
            critical,
            [{"source": s, "value": v} for s, v in mods],
            **extra_fields,
        )
    )
    if hit:
        times = w.multiplier if critical else 1
        mod = damage_modifier(attacker, w, off_hand)
        faces: list[int] = []
        amount = sum(w.damage.roll(enc.dice, faces) + mod for _i in range(times))
        deal_damage(enc, target, max(1, amount), w.id, rolls=faces)
    return hit


UNARMED = Weapon(
    id="unarmed",
    melee=True,
    grip="light",
    damage=compile_dice("1d3"),
    threat_low=20,
    multiplier=2,
    reach_units=1,
    range_m=None,
    attack_bonus=0,
    damage_bonus=0,
    off_hand=False,
    double=False,
)


# -- damage, concentration (R-PF-FR-CAST-3) -----------------------------------------------------------
def deal_damage(enc: Encounter, t: Combatant, amount: int, source: str, **extra: Any) -> None:
    t.hp -= amount
    enc.emit(ev.damage(t.id, amount, t.hp, source, **extra))
    enc.ruleset.update_state(enc, t)  # a worse state loses a spell being cast (on_state_change)
    d = data(t)
    spell = d.casting.spell if d.casting else d.spell_in_hand
    if spell is None or amount <= 0:
        return
    # R-PF-FR-CAST-3: damage while casting calls for a concentration check, DC 10 + damage + level
    dc = 10 + amount + spell.level
    face = enc.dice.roll(20)
    total = face + d.p.concentration
    ok = total >= dc
    enc.emit(ev.check(t.id, "concentration", face, total, dc, ok))
    if not ok:
        lose_spell(enc, t, "concentration")


def lose_spell(enc: Encounter, c: Combatant, reason: str) -> None:
    d = data(c)
    spell = d.casting.spell if d.casting else d.spell_in_hand
    if spell is None:
        return
    enc.emit(ev.spell_lost(c.id, spell.id, reason))
    d.spell_in_hand = None
    if d.casting is not None:
        d.casting = None
        enc.ruleset.remove_condition(enc, c, "casting")
