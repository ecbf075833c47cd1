"""How the built-in styles play pf1 (spec pf1.md): full attack or move-and-attack, 5-foot steps,
withdrawing, casting, attacks of opportunity.

The turn, as a pf1 player thinks it:

1. *Someone in reach*: stay and full attack (every iterative, and the off hand when two-weapon
   fighting is worth its penalties), each blow at the weakest enemy in reach (focus fire).
2. *Someone a 5-foot step away*: step (it never provokes) and full attack.
3. *Someone a move away*: move to where the weakest reachable enemy is in reach and attack once.
   ``cautious`` only takes paths that leave no threatened square (R-PF-AOO-2), and does without.
4. *Nobody within a move*: ``aggressive`` double-moves towards the nearest enemy (R-PF-MOV-5);
   ``cautious`` moves once, along a path that does not provoke.

A damaging spell or special ability (an immediate one: swift, standard or full-round casting time)
replaces the weapon when its expected damage is higher than the weapon's turn; ``cautious`` casts
defensively when threatened. A ``cautious`` combatant at half its hit points or less that an
enemy threatens withdraws (R-PF-WD) to the free square farthest from its enemies that none of them
threatens; if there is none, it fights defensively (R-PF-ATK-5); out of reach, it stays there.

An attack of opportunity costs nothing in pf1 but the round's count (R-PF-AOO-4), so both styles
take every one offered.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING

from ...engine.commands import Command
from ...engine.errors import IllegalCommand
from ...engine.grid import VERY_DIFFICULT, Square, chebyshev
from ...engine.state import Combatant, Window
from ...rulesets.pf1.attacks import iteratives, two_weapon_penalty
from ...rulesets.pf1.casting import casting_plan
from ...rulesets.pf1.combat import armor_class, damage_modifier, may_make_aoo, threatens, weapon_reaches
from ...rulesets.pf1.economy import can_five_foot_step, check_standard, restriction
from ...rulesets.pf1.state import data
from ...rulesets.pf1.stats import Weapon
from ..policy import Outcome, Plan, Sense, command, end_turn
from .common import Movement, Reach, affordable, average, chance, foes, route, weakest

if TYPE_CHECKING:
    from ...engine.core import Encounter


def expected_damage(me: Combatant, w: Weapon, target: Combatant, bab: int, off_hand: bool = False) -> float:
    """Expected damage of one attack with base bonus ``bab`` (+ penalties), criticals included
    (R-PF-ATK-1..3)."""
    p = data(me).p
    total = bab + (p.str_mod if w.melee else p.dex_mod) + w.attack_bonus
    hit = chance(armor_class(target) - total)
    per_hit = max(1.0, average(w.damage) + damage_modifier(me, w, off_hand))
    confirmed = min(hit, (21 - w.threat_low) / 20) * hit
    return (hit + confirmed * (w.multiplier - 1)) * per_hit


def can_full_attack(enc: Encounter, me: Combatant) -> bool:
    """Standard and move unused, no movement but a 5-foot step (R-PF-FR-FA-2, R-PF-ECO-5)."""
    d = data(me)
    return d.standard >= 1 and d.move >= 1 and not d.moved and restriction(enc, me) is None


def can_attack(enc: Encounter, me: Combatant) -> bool:
    """Whether the standard action an attack needs is still there (R-PF-ATK-4, R-PF-ECO-5)."""
    try:
        check_standard(enc, me)
    except IllegalCommand:
        return False
    return True


class Pf1Sense(Sense):
    # -- answers -------------------------------------------------------------------------------
    def answer(self, enc: Encounter, window: Window) -> Command:
        if "opportunity_attack" in window.choices:
            return command(actor=window.actor, do="opportunity_attack")  # free: take it (R-PF-AOO-4)
        return command(actor=window.actor, do="decline")

    # -- the turn ------------------------------------------------------------------------------
    def turn(self, enc: Encounter, me: Combatant) -> Plan:
        if data(me).casting is not None:
            return  # a multi-round casting: concentrate (the runner ends the turn)
        weapon = main_weapon(me)
        if weapon is None:
            wid = next((w.id for w in data(me).p.weapons.values() if not w.off_hand), None)
            if wid is None:
                return
            outcome = yield command(actor=me.id, do="draw_weapon", weapon=wid)
            weapon = main_weapon(me)
            if weapon is None or isinstance(outcome, Exception):
                return
        cautious = self.style.avoid_provoking
        if cautious and self.hurt(me) and any(threatens(enc, r, me.pos) for r in foes(enc, me)):
            withdrew = yield from self.withdraw(enc, me)
            if not withdrew:
                yield from self.attacks(enc, me, weapon, defensively=True)
            return
        spell = self.best_spell(enc, me, weapon)
        if spell is not None:
            yield spell
            yield end_turn(me)
            return
        in_reach = targets(enc, me, weapon, me.pos)
        if in_reach:
            yield from self.attacks(enc, me, weapon, in_reach=in_reach)
            return
        if weapon.melee:
            step = self.step_square(enc, me, weapon)
            if step is not None:
                outcome = yield command(actor=me.id, do="five_foot_step", to=step)
                if not isinstance(outcome, Exception):
                    yield from self.attacks(enc, me, weapon)
                return
        if cautious and self.hurt(me):
            return  # hurt and out of reach: it stays out of it
        yield from self.approach(enc, me, weapon)

    def threatened(self, enc: Encounter, me: Combatant, square: Square) -> bool:
        """Whether leaving ``square`` (or shooting or casting there) would provoke."""
        return any(may_make_aoo(r) and threatens(enc, r, square) for r in foes(enc, me))

    # -- full attack and attack ----------------------------------------------------------------
    def attacks(
        self,
        enc: Encounter,
        me: Combatant,
        w: Weapon,
        defensively: bool = False,
        in_reach: list[Combatant] | None = None,
    ) -> Plan:
        """Every attack left this turn, each at the weakest enemy in reach (``in_reach``: already
        known); then end the turn. A full attack if the economy allows one (R-PF-FR-FA-2), else
        the single attack."""
        if not can_attack(enc, me):
            return
        full = can_full_attack(enc, me)
        bab = data(me).p.bab
        main = len(iteratives(bab)) if full else 1
        off = off_weapon(me) if full else None
        target = weakest(in_reach if in_reach is not None else targets(enc, me, w, me.pos))
        if target is None:
            return
        two_weapon = off is not None and two_weapon_pays(me, w, off[0], target)
        for i in range(main):
            if i:
                target = weakest(targets(enc, me, w, me.pos))
                if target is None:
                    break
            if i == 0 and (two_weapon or defensively):
                cmd = command(
                    actor=me.id,
                    do="attack",
                    target=target.id,
                    weapon=w.id,
                    full_attack=True if two_weapon else None,  # R-PF-FR-FA-2b
                    defensively=True if defensively else None,
                )
            else:
                cmd = command(me.id, "attack", target.id, None, w.id)
            outcome = yield cmd
            if isinstance(outcome, Exception):
                return
        if two_weapon and off is not None:
            target = weakest(targets(enc, me, off[0], me.pos))
            if target is not None:
                yield command(actor=me.id, do="attack", target=target.id, weapon=off[0].id, hand=off[1])
        yield end_turn(me)

    # -- spells and special abilities ------------------------------------------------------------
    def best_spell(self, enc: Encounter, me: Combatant, w: Weapon) -> Command | None:
        """The damaging spell (or special ability) to use this turn at the weakest enemy in its
        range, if its expected damage beats the weapon's turn; ``None`` otherwise."""
        p = data(me).p
        if not p.spells and not p.specials:
            return None
        full = can_full_attack(enc, me)
        best = 0.0
        t0 = weakest(targets(enc, me, w, me.pos))
        if t0 is not None:
            its = iteratives(p.bab)
            best = sum(expected_damage(me, w, t0, b) for b in (its if full else its[:1]))
        enemies = foes(enc, me)
        threatened = self.threatened(enc, me, me.pos)
        choice: Command | None = None
        for s in p.spells.values():
            if s.damage is None:
                continue
            slot, _turns, _before, immediate = casting_plan(me, s, ())
            if (
                not immediate
                or (slot == "full_round" and not full)
                or (slot == "swift" and data(me).swift < 1)
            ):
                continue
            t = weakest(e for e in enemies if spell_reaches(enc, me, s.touch, s.range_m, e))
            if t is None:
                continue
            ev = average(s.damage)
            if s.touch and t is not me:
                ev *= chance(10 + max(0, data(t).p.dex_mod) - p.bab)  # a touch attack, roughly
            defensively = threatened and slot != "swift" and self.style.avoid_provoking
            if defensively:
                ev *= chance(15 + 2 * s.level - p.concentration)  # casting defensively
            if ev > best:
                best = ev
                choice = command(
                    actor=me.id, do="cast", spell=s.id, targets=(t.id,), defensively=defensively or None
                )
        for sp in p.specials.values():
            if sp.damage is None or (sp.action == "full_round" and not full):
                continue
            if sp.provokes and threatened and self.style.avoid_provoking:
                continue
            reach = sp.range_m if sp.range_m is not None else enc.grid.square_m
            t = weakest(e for e in enemies if enc.grid.distance_m(me.pos, e.pos) <= reach + 1e-9)
            if t is not None and average(sp.damage) > best:
                best = average(sp.damage)
                choice = command(actor=me.id, do="use_ability", special=sp.id, target=t.id)
        return choice

    # -- movement ----------------------------------------------------------------------------------
    def step_square(self, enc: Encounter, me: Combatant, w: Weapon) -> Square | None:
        """The square one 5-foot step away (R-PF-MOV-4) from which the weakest enemy is in reach."""
        grid = enc.grid
        if not can_five_foot_step(enc, me) or grid.is_difficult(me.pos):
            return None
        best: tuple[int, Square] | None = None
        for s, _diagonal in grid.neighbours(me.pos):
            if s in enc.occupied or grid.is_difficult(s):
                continue
            t = weakest(targets(enc, me, w, s))
            if t is not None and (best is None or t.hp < best[0]):
                best = (t.hp, s)
        return None if best is None else best[1]

    def movement(self, enc: Encounter, me: Combatant, safe: bool) -> Movement:
        """How ``me`` may move: through allies, not enemies nor very difficult ground, stopping
        on a free square (R-PF-MOV-2/3); with ``safe``, never *leaving* a threatened square."""
        occupied = enc.occupied
        kind = enc.grid.kind

        def can_enter(s: Square) -> bool:
            o = occupied.get(s)
            return kind(s) != VERY_DIFFICULT and (o is None or o.side == me.side)

        def can_stop(s: Square) -> bool:
            return s not in occupied

        return Movement(can_enter, Unthreatened(enc, me) if safe else None, can_stop)

    def approach(self, enc: Encounter, me: Combatant, w: Weapon) -> Plan:
        """Move to attack the weakest enemy within one move, else close in on the nearest."""
        safe = self.style.avoid_provoking
        if safe and self.threatened(enc, me, me.pos):
            return  # any movement from here provokes (and no 5-foot step found anyone)
        speed = data(me).p.speed_units
        how = self.movement(enc, me, safe)
        far = w.reach_units if w.melee else enc.grid.units_within(w.range_m or 0) + 1
        # the nearest enemy first (ties: the weakest); one it cannot get to, the next one
        for target in sorted(foes(enc, me), key=lambda t: (chebyshev(me.pos, t.pos), t.hp)):
            if surrounded(enc, w, target):
                continue
            # a path more than 3 times as long as the straight line is not worth it
            path = path_to(enc, me, w, target, how, far, 3 * chebyshev(me.pos, target.pos) + 2 * speed)
            if path:
                break
        else:
            return
        if affordable(enc, me.pos, path, speed, how.can_stop) == path:
            outcome = yield command(actor=me.id, do="move", path=path)  # move and attack
            if not isinstance(outcome, Exception):
                yield from self.attacks(enc, me, w)
            return
        for moves in range(1 if safe else 2):  # R-PF-MOV-5: a double move trades the standard
            step = affordable(enc, me.pos, path, speed, how.can_stop)
            if not step:
                return
            outcome = yield command(actor=me.id, do="move", path=step)
            if isinstance(outcome, Exception) or enc.current is not me or me.pos != step[-1]:
                return
            if moves == 0 and targets(enc, me, w, me.pos):
                yield from self.attacks(enc, me, w)
                return
            path = path[len(step) :]

    def withdraw(self, enc: Encounter, me: Combatant) -> Generator[Command, Outcome, bool]:
        """R-PF-WD: withdraw to the free square farthest from the enemies that none of them
        threatens, then end the turn. Returns whether it withdrew."""
        d = data(me)
        if d.moved or d.stepped or "blinded" in me.conditions:
            return False
        limited = restriction(enc, me) is not None  # R-PF-WD-6: a standard action, speed 1x
        unthreatened = Unthreatened(enc, me)
        how = self.movement(enc, me, safe=False)
        reach = Reach(enc, me.pos, d.p.speed_units * (1 if limited else 2), how.can_enter)
        enemies = foes(enc, me)
        best: tuple[int, int, Square] | None = None
        for s, cost in reach.cost.items():
            if s in enc.occupied or not unthreatened(s):
                continue
            k = (-min(chebyshev(s, e.pos) for e in enemies), cost, s)
            if best is None or k < best:
                best = k
        if best is None:
            return False
        outcome = yield command(actor=me.id, do="withdraw", path=reach.path(best[2]))
        if isinstance(outcome, Exception):
            return False
        yield end_turn(me)
        return True


# -- helpers ---------------------------------------------------------------------------------------
def main_weapon(me: Combatant) -> Weapon | None:
    """The weapon in hand that strikes first: the first wielded that is not an off-hand weapon."""
    weapons = data(me).p.weapons
    for wid in me.wielding:
        if not weapons[wid].off_hand:
            return weapons[wid]
    return weapons[me.wielding[0]] if me.wielding else None


def off_weapon(me: Combatant) -> tuple[Weapon, str | None] | None:
    """The off-hand weapon in hand and the ``hand`` to name (``off`` for a double weapon)."""
    weapons = data(me).p.weapons
    for wid in me.wielding:
        w = weapons[wid]
        if w.off_hand:
            return w, None
        if w.double:
            return w, "off"
    return None


def targets(enc: Encounter, me: Combatant, w: Weapon, at: Square) -> list[Combatant]:
    """The enemies ``w`` could strike from ``at``."""
    if w.melee and w.reach_units <= 1:  # the common case, inlined: the 8 squares around
        out_of_fight = enc.ruleset.is_out_of_fight
        side = me.side
        x, y = at
        return [
            t
            for t in enc.order
            if t.side != side and max(abs(t.pos[0] - x), abs(t.pos[1] - y)) == 1 and not out_of_fight(t)
        ]
    return [t for t in foes(enc, me) if strikes(enc, w, at, t.pos)]


def surrounded(enc: Encounter, w: Weapon, t: Combatant) -> bool:
    """Whether every square next to ``t`` is taken or out of bounds for a melee weapon of reach 1
    (a quick no before a search that could only fail)."""
    if not (w.melee and w.reach_units <= 1):
        return False
    occupied, kind = enc.occupied, enc.grid.kind
    return all(s in occupied or kind(s) == VERY_DIFFICULT for s, _diagonal in enc.grid.neighbours(t.pos))


def strikes(enc: Encounter, w: Weapon, at: Square, to: Square) -> bool:
    """Whether ``w`` wielded at ``at`` can strike ``to`` (R-PF-AOO-1 reach, or the weapon's range)."""
    if w.melee:
        return weapon_reaches(enc, w, at, to)
    return enc.grid.distance_m(at, to) <= (w.range_m or 0) + 1e-9


def two_weapon_pays(me: Combatant, main: Weapon, off: Weapon, t: Combatant) -> bool:
    """Whether the off-hand attack is worth the penalties it puts on every attack (R-PF-FR-FA-4)."""
    its = iteratives(data(me).p.bab)
    plain = sum(expected_damage(me, main, t, b) for b in its)
    pm, po = two_weapon_penalty(me, False), two_weapon_penalty(me, True)
    both = sum(expected_damage(me, main, t, b + pm) for b in its)
    both += expected_damage(me, off, t, its[0] + po, off_hand=True)
    return both > plain


def spell_reaches(enc: Encounter, me: Combatant, touch: bool, range_m: float | None, t: Combatant) -> bool:
    if range_m is not None:
        return enc.grid.distance_m(me.pos, t.pos) <= range_m + 1e-9
    return not touch or chebyshev(me.pos, t.pos) <= 1


def path_to(
    enc: Encounter, me: Combatant, w: Weapon, t: Combatant, how: Movement, far: int, budget: int | None = None
) -> tuple[Square, ...] | None:
    """The cheapest path to a free square from which ``w`` strikes ``t`` (within ``budget``)."""

    def arrive(s: Square) -> bool:
        return how.can_stop(s) and strikes(enc, w, s, t.pos)

    return route(enc, me.pos, t.pos, far, arrive, how.can_enter, how.can_pass, budget)


class Unthreatened:
    """Whether a square is threatened by no enemy able to make an attack of opportunity now
    (asked per square, remembered for the turn): ``Unthreatened(enc, me)(square)``."""

    __slots__ = ("_known", "_reactors", "enc")

    def __init__(self, enc: Encounter, me: Combatant) -> None:
        self.enc = enc
        self._reactors = [r for r in foes(enc, me) if may_make_aoo(r)]
        self._known: dict[Square, bool] = {}

    def __call__(self, s: Square) -> bool:
        ok = self._known.get(s)
        if ok is None:
            ok = self._known[s] = not any(threatens(self.enc, r, s) for r in self._reactors)
        return ok
