"""How the built-in styles play terza (spec terza.md): zones of control, the third action, press.

The turn:

1. *Weapon*: a combatant with nothing in hand draws its first weapon (the free interaction).
2. *Melee*: the Attack action, each of its ``attacks`` at the weakest enemy in reach, moving
   between them when none is (R-TA-ECO-4); then the off-hand attack with a second light weapon
   (the bonus action). Out of reach, it moves next to the nearest enemy; too far, ``aggressive``
   dashes, ``cautious`` takes the dodge action instead.
3. *Ranged*: shoot the weakest enemy in range (moving into range first); ``aggressive`` shoots even
   with an enemy next to it (disadvantage, R-TA-ATK-4).
4. *Spells*: a damaging spell replaces the weapon when its expected damage is higher (one spell a
   turn, R-TA-LIM-1); a damaging reaction spell answers every attack it can (R-TA-LIM-3).
5. *Third action* (R-TA-3): a combatant that did not attack this round ends its turn with it, or
   takes it in the end-of-round window: it steps out of melee with ``disengage`` where the variant
   allows it (``terza.third_action.disengage``) when it fights better from afar (unguarded: an
   archer, a caster after its spell) or is hurt and ``cautious``; else it takes up its shield if
   it is not in hand; else it defends (+AC until its next turn).

Moving: a guarded mover (a melee weapon or shield in hand, R-TA-ZOC-2) walks where it likes;
an unguarded one provokes on entering or leaving a zone of control, which ``cautious`` never does
(it keeps to paths that stay in the zones it is in), and ``aggressive`` does not mind.

``cautious`` at half its hit points or less, in an enemy's zone, withdraws (R-TA-WD) to the free
square farthest from the enemies outside every zone, or takes the dodge action if there is none.

Answers: every opportunity attack is taken (it costs the reaction, which only reaction spells
want otherwise: ``cautious`` keeps it when it has a damaging reaction spell); a press window is
taken by ``aggressive``, and by ``cautious`` only with ``incalzare`` (no Reflex save to fail).
"""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING

from ...engine.commands import Command
from ...engine.grid import Square, chebyshev
from ...engine.state import Combatant, Window
from ...rulesets.terza.combat import armor_class, guarded, in_zoc, may_take_opportunity
from ...rulesets.terza.movement import provokes_by_moving
from ...rulesets.terza.state import data
from ...rulesets.terza.stats import Spell, Weapon
from ...rulesets.terza.third_rules import third_blocker
from ..policy import Outcome, Plan, Sense, command, end_turn
from .common import Movement, Reach, affordable, average, chance, foes, nearest, route, weakest

if TYPE_CHECKING:
    from ...engine.core import Encounter


def expected_damage(enc: Encounter, w: Weapon, t: Combatant, disadvantage: bool = False) -> float:
    """One attack's expected damage (R-TA-ATK-1/2): a natural 20 doubles the dice."""
    hit = chance(armor_class(enc, t) - w.to_hit)
    crit = 0.05
    if disadvantage:
        hit, crit = hit * hit, crit * crit
    dice = average(w.damage) - w.damage.const
    return hit * max(0.0, average(w.damage) + w.damage_bonus) + crit * dice


def spell_damage(s: Spell, t: Combatant) -> float:
    """A damaging spell's expected damage: no attack roll; a Reflex save halves it (a cantrip's is
    negated)."""
    assert s.damage is not None
    full = average(s.damage)
    if s.save == "reflex" and s.dc is not None:
        saved = chance(s.dc - data(t).p.reflex)
        return full * (1 - saved) + (0 if s.cantrip else full / 2 * saved)
    return full


class TerzaSense(Sense):
    # -- answers -------------------------------------------------------------------------------
    def answer(self, enc: Encounter, window: Window) -> Command:
        me = enc.combatants[window.actor]
        kind = window.trigger.get("type")
        if kind == "opportunity":
            keep = not self.style.take_opportunities and self.reaction_spell(me) is not None
            return command(me.id, "decline" if keep else "opportunity_attack")
        if kind == "press":
            takes = self.style.take_opportunities or "incalzare" in data(me).p.skills
            return command(me.id, "press" if takes else "decline")
        if kind == "attack" and "cast" in window.choices:  # a reaction spell (R-TA-LIM-3)
            spell = self.reaction_spell(me)
            attacker = enc.combatants[window.trigger["attacker"]]
            if spell is not None and (not spell.touch or chebyshev(me.pos, attacker.pos) <= 1):
                return command(me.id, "cast", spell=spell.id)
        if kind == "round_end":
            return self.round_end(enc, me, window)
        return command(me.id, "decline")

    @staticmethod
    def reaction_spell(me: Combatant) -> Spell | None:
        return next(
            (s for s in data(me).p.spells.values() if s.casting_time == "reaction" and s.damage), None
        )

    def round_end(self, enc: Encounter, me: Combatant, window: Window) -> Command:
        """The end-of-round third action (R-TA-3-2 b): as at the end of its turn (:meth:`third`)."""
        choices = tuple(window.choices)
        kind, to = self.third(enc, me)
        if kind == "disengage" and "disengage" in choices:
            return command(me.id, "disengage", to=to)
        for k in ("shield", "defend"):
            if k in choices:
                return command(me.id, k)
        return command(me.id, "decline")

    def third(self, enc: Encounter, me: Combatant) -> tuple[str, Square | None]:
        """Which third action it wants: out of melee (``disengage``, where the variant allows it)
        when it fights better from afar (unguarded: an archer, a caster) or is hurt and
        ``cautious``; else its shield if it is not in hand; else ``defend``."""
        wants_out = not guarded(enc, me) or (self.style.avoid_provoking and self.hurt(me))
        if enc.variants["terza.third_action.disengage"] and wants_out and self.engaged(enc, me):
            to = self.way_out(enc, me)
            if to is not None:
                return "disengage", to
        p = data(me).p
        return ("shield" if p.shield is not None and p.shield.id not in me.wielding else "defend"), None

    def way_out(self, enc: Encounter, me: Combatant) -> Square | None:
        """A free neighbouring square in no enemy's zone of control, the farthest from them."""
        enemies = foes(enc, me)
        best: tuple[int, Square] | None = None
        for s, _diagonal in enc.grid.neighbours(me.pos):
            if s in enc.occupied or any(in_zoc(enc, e, s) for e in enemies):
                continue
            away = min((chebyshev(s, e.pos) for e in enemies), default=0)
            if best is None or away > best[0]:
                best = (away, s)
        return None if best is None else best[1]

    # -- the turn ------------------------------------------------------------------------------
    def turn(self, enc: Encounter, me: Combatant) -> Plan:
        if not foes(enc, me):
            return
        w = self.weapon(me)
        cautious = self.style.avoid_provoking
        if cautious and self.hurt(me) and self.engaged(enc, me):
            yield from self.retreat(enc, me)
            return
        spell = self.best_spell(enc, me, w)
        if spell is not None:
            outcome = yield spell
            if not isinstance(outcome, Exception):
                yield from self.finish(enc, me)
                return
        if w is None:
            wid = next(iter(data(me).p.weapons), None)
            if wid is None:
                yield from self.finish(enc, me)
                return
            outcome = yield command(me.id, "draw", weapon=wid)  # the free interaction (R-TA-ECO-1)
            w = self.weapon(me)
            if w is None or isinstance(outcome, Exception):
                return
        attacked = yield from self.attack_action(enc, me, w)
        if attacked:
            yield from self.off_hand(enc, me, w)
            yield end_turn(me)  # no third action after attacking (R-TA-3-4 a)
            return
        yield from self.close_in(enc, me, w)

    def engaged(self, enc: Encounter, me: Combatant) -> bool:
        """In some enemy's zone of control."""
        return any(in_zoc(enc, e, me.pos) for e in foes(enc, me))

    def weapon(self, me: Combatant) -> Weapon | None:
        """The weapon it fights with: the first weapon in hand (unarmed with unarmed_combat)."""
        p = data(me).p
        for wid in me.wielding:
            if wid in p.weapons:
                return p.weapons[wid]
        return p.unarmed if "unarmed_combat" in p.skills else None

    def targets(self, enc: Encounter, me: Combatant, w: Weapon, at: Square) -> list[Combatant]:
        if w.melee:
            return [t for t in foes(enc, me) if chebyshev(at, t.pos) <= w.reach_units]
        rng = (w.range_m or 1e9) + 1e-9
        return [t for t in foes(enc, me) if enc.grid.distance_m(at, t.pos) <= rng]

    # -- moving ------------------------------------------------------------------------------------
    def movement(self, enc: Encounter, me: Combatant) -> Movement:
        """Through allies, not enemies, stopping on a free square (R-TA-MOV-1); ``cautious`` and
        unguarded, only where the zones of control it stands in stay the same (R-TA-ZOC-2)."""
        occupied = enc.occupied

        def can_stop(s: Square) -> bool:
            return s not in occupied

        def can_walk(s: Square) -> bool:
            o = occupied.get(s)
            return o is None or o.side == me.side

        if not (self.style.avoid_provoking and provokes_by_moving(enc, me)):
            return Movement(can_walk, None, can_stop)
        watchers = [e for e in foes(enc, me) if may_take_opportunity(enc, e, me)]
        here = [in_zoc(enc, e, me.pos) for e in watchers]

        def can_enter(s: Square) -> bool:
            return can_walk(s) and [in_zoc(enc, e, s) for e in watchers] == here

        return Movement(can_enter, None, can_stop)

    def path_to_strike(
        self, enc: Encounter, me: Combatant, w: Weapon, t: Combatant, how: Movement, budget: int | None
    ) -> tuple[Square, ...] | None:
        if w.melee:
            near = w.reach_units

            def arrive(s: Square) -> bool:
                return how.can_stop(s) and chebyshev(s, t.pos) <= near

        else:
            near = enc.grid.units_within(w.range_m or 0) + 1

            def arrive(s: Square) -> bool:
                return how.can_stop(s) and enc.grid.distance_m(s, t.pos) <= (w.range_m or 0) + 1e-9

        if budget is None:
            budget = 3 * chebyshev(me.pos, t.pos) + 4 * data(me).p.speed_units
        return route(enc, me.pos, t.pos, near, arrive, how.can_enter, how.can_pass, budget)

    # -- attacking -----------------------------------------------------------------------------------
    def attack_action(self, enc: Encounter, me: Combatant, w: Weapon) -> Generator[Command, Outcome, bool]:
        """The Attack action: ``attacks`` attacks, each at the weakest enemy in reach, moving to the
        nearest one between them when none is (R-TA-ECO-4). Returns whether it attacked."""
        d = data(me)
        if d.action < 1:
            return False
        attacked = False
        for _i in range(d.p.attacks):
            t = weakest(self.targets(enc, me, w, me.pos))
            if t is None:
                target = self.nearest_target(enc, me)
                if target is None:
                    break
                path = self.path_to_strike(enc, me, w, target, self.movement(enc, me), d.movement_units)
                if not path:
                    break
                outcome = yield command(me.id, "move", path=path)
                if isinstance(outcome, Exception) or enc.current is not me:
                    return attacked
                t = weakest(self.targets(enc, me, w, me.pos))
                if t is None:
                    break
            outcome = yield command(me.id, "attack", target=t.id, weapon=w.id)
            if isinstance(outcome, Exception) or enc.current is not me:
                return attacked or not isinstance(outcome, Exception)
            attacked = True
        return attacked

    def nearest_target(self, enc: Encounter, me: Combatant) -> Combatant | None:
        return nearest(me, foes(enc, me))

    def off_hand(self, enc: Encounter, me: Combatant, main: Weapon) -> Plan:
        """The bonus action's off-hand attack with a second light weapon in hand (R-TA-ECO-1)."""
        p = data(me).p
        if data(me).bonus < 1:
            return
        light = [p.weapons[x] for x in me.wielding if x in p.weapons and p.weapons[x].light and x != main.id]
        if not light:
            return
        w = light[-1]
        t = weakest(self.targets(enc, me, w, me.pos))
        if t is not None:
            yield command(me.id, "offhand_attack", target=t.id, weapon=w.id)

    def best_spell(self, enc: Encounter, me: Combatant, w: Weapon | None) -> Command | None:
        """A damaging action or bonus spell worth more than the weapon's turn, at the weakest enemy
        it can reach (touch: next to it; others reach anywhere)."""
        p = data(me).p
        d = data(me)
        if not p.spells or d.spells_this_turn >= 1:
            return None
        t0 = weakest(self.targets(enc, me, w, me.pos)) if w is not None else None
        best = p.attacks * expected_damage(enc, w, t0) if w is not None and t0 is not None else 0.0
        choice = None
        for s in p.spells.values():
            if s.damage is None or s.casting_time not in ("action", "bonus"):
                continue
            if getattr(d, s.casting_time) < 1:
                continue
            reach = [t for t in foes(enc, me) if not s.touch or chebyshev(me.pos, t.pos) <= 1]
            t = weakest(reach)
            if t is None:
                continue
            ev = spell_damage(s, t) + (best if s.casting_time == "bonus" else 0.0)
            if ev > best:
                best, choice = ev, command(me.id, "cast", spell=s.id, target=t.id)
        return choice

    # -- without an attack -------------------------------------------------------------------------
    def close_in(self, enc: Encounter, me: Combatant, w: Weapon) -> Plan:
        """Nobody within reach this turn: walk towards the nearest enemy; ``aggressive`` dashes for
        the distance (R-TA-ECO-4), ``cautious`` dodges; then the third action."""
        d = data(me)
        target = self.nearest_target(enc, me)
        if target is None:
            return
        how = self.movement(enc, me)
        path = self.path_to_strike(enc, me, w, target, how, None)
        if path:
            whole = affordable(enc, me.pos, path, d.movement_units, how.can_stop) == path
            if not whole and not self.style.avoid_provoking and d.action >= 1:
                outcome = yield command(me.id, "dash")
            step = affordable(enc, me.pos, path, d.movement_units, how.can_stop)
            if step:
                outcome = yield command(me.id, "move", path=step)
                if isinstance(outcome, Exception) or enc.current is not me:
                    return
            if d.action >= 1 and self.targets(enc, me, w, me.pos):
                attacked = yield from self.attack_action(enc, me, w)
                if attacked:
                    yield end_turn(me)
                    return
        if d.action >= 1 and self.style.avoid_provoking:
            yield command(me.id, "dodge")
        yield from self.finish(enc, me)

    def retreat(self, enc: Encounter, me: Combatant) -> Plan:
        """R-TA-WD: withdraw to the free square outside every enemy zone farthest from the enemies
        (the start square is safe, the rest of the way must be), else dodge; then the third action."""
        d = data(me)
        enemies = foes(enc, me)

        def outside(s: Square) -> bool:
            return not any(in_zoc(enc, e, s) for e in enemies)

        occupied = enc.occupied
        if not d.moved_this_turn and d.action >= 1 and "blinded" not in me.conditions:
            reach = Reach(
                enc,
                me.pos,
                2 * d.p.speed_units,
                lambda s: (occupied.get(s) is None or occupied[s].side == me.side) and outside(s),
            )
            best: tuple[int, int, Square] | None = None
            for s, cost in reach.cost.items():
                if s not in occupied:
                    k = (-min(chebyshev(s, e.pos) for e in enemies), cost, s)
                    if best is None or k < best:
                        best = k
            if best is not None:
                outcome = yield command(me.id, "withdraw", path=reach.path(best[2]))
                if not isinstance(outcome, Exception):
                    yield from self.finish(enc, me)
                    return
        if d.action >= 1:
            yield command(me.id, "dodge")
        yield from self.finish(enc, me)

    def finish(self, enc: Encounter, me: Combatant) -> Plan:
        """End the turn with the third action if it may (R-TA-3-2 a; :meth:`third` chooses)."""
        if third_blocker(enc, me) is None:
            kind, to = self.third(enc, me)
            outcome = yield command(me.id, "third", kind=kind, to=to)
            if not isinstance(outcome, Exception):
                return
        yield end_turn(me)
