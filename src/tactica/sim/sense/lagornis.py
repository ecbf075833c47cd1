"""How the built-in styles play lagornis (spec lagornis.md): which reaction, held actions, spells.

**Reactions** (R-LG-REA). Attacked, a combatant weighs each answer it is offered by the damage it
should still take, computed over every attack roll (the engine rolls it before asking, and does
not show it, so the answer weighs all 20 faces), every defence roll, the reaction's penalty (the
rank of this reaction in the round: R-LG-REA-3), its fatigue and the variants in force:

- ``dodge`` (ADR): all of a targeted attack (half an area one) on success; it costs a dodge token,
  or a point of fatigue once they are gone (R-LG-REA-5). Fatigue is free unless the variant
  ``lagornis.fatigue.effect`` makes it hurt (a point off later dodges, or off every later roll),
  and a token is worth the fatigue it will save later.
- ``parry`` (the weapon's mastery): halves the damage (a shield stops it, R-LG-REA-6) but wears the
  weapon by half the blow, success or not; a parry that would break the weapon it fights with is
  avoided.
- ``dampen``: always works, takes floor(DEX / 2) off (R-LG-REA-7).
- ``cast``, an advanced defence (R-LG-REA-8): a 0.5 spell at the attacker, the blow landing as if
  unanswered: worth the damage the spell should deal.

It answers with the best of them when it saves more than the answer costs, and keeps its reaction
otherwise. ``cautious`` values its weapons' wear less than its hit points (it parries freely).

**Opportunities** (R-LG-OPP): free but each one of the round is 3 worse than the last;
``aggressive`` takes them all, ``cautious`` only the first of the round.

**The turn**: attack the weakest enemy in reach with the weapon that does most (1 action); out of
reach, move next to the nearest enemy (movement, then ``bonus_move`` if it needs more); still out
of reach, it **holds** its attack for the first enemy that comes into reach (R-LG-HOLD: the held
attack strikes before the newcomer acts) and releases it when the trigger comes. A damaging spell
replaces the weapon when it does more per action; an incantation (R-LG-CAST-2) is started only
with no enemy next to the caster and is fed every turn until it goes off. The bonus action left
over buys ``bonus_reaction`` when an enemy is next to it (R-LG-ECO-5). ``cautious`` at half its
hit points or less with an enemy next to it disengages (R-LG-OPP-2) and walks away.
"""

from __future__ import annotations

from collections.abc import Generator
from functools import lru_cache
from typing import TYPE_CHECKING

from ...engine.commands import Command
from ...engine.grid import Square, chebyshev
from ...engine.state import Combatant, Window
from ...rulesets.lagornis.combat import usable_weapons
from ...rulesets.lagornis.economy import fatigue_penalty, reaction_penalty
from ...rulesets.lagornis.state import EPS, data
from ...rulesets.lagornis.stats import Spell, Weapon
from ..policy import Outcome, Plan, Sense, command, end_turn
from .common import Movement, Reach, affordable, average, chance, foes, nearest, route, weakest

if TYPE_CHECKING:
    from ...engine.core import Encounter


# -- the odds -------------------------------------------------------------------------------------------
def lands(total: int, defense: int, on_equal: bool) -> bool:
    """R-LG-ATK-2 (variant lagornis.attack.hit_on_equal)."""
    return total >= defense if on_equal else total > defense


def beats(skill: int, total: int, ties_to_defender: bool) -> float:
    """P(d20 + skill beats ``total``) in an opposed roll (R-LG-REA-4, variant lagornis.reaction.ties)."""
    need = total - skill + (0 if ties_to_defender else 1)  # the defender's face must reach this
    return min(1.0, max(0.0, (21 - need) / 20))


@lru_cache(maxsize=4096)
def landing(bonus: int, defense: int, on_equal: bool) -> float:
    """P(an attack at ``bonus`` lands on ``defense`` unanswered)."""
    return sum(lands(f + bonus, defense, on_equal) for f in range(1, 21)) / 20


@lru_cache(maxsize=65536)
def share_taken(
    bonus: int, defense: int, skill: int, residual: float, on_equal: bool, ties: bool, failed_hits: bool
) -> float:
    """The expected share of a blow the defender still takes after an opposed reaction (dodge,
    parry) with ``skill`` (penalties in), over the attack's 20 faces: on success ``residual`` of it
    if the attack lands; on failure all of it if it lands, or always when a failed reaction hits
    (variant lagornis.reaction.failed_reaction)."""
    total = 0.0
    for face in range(1, 21):
        t = face + bonus
        hit = lands(t, defense, on_equal)
        win = beats(skill, t, ties)
        total += win * (residual if hit else 0.0) + (1 - win) * (1.0 if (hit or failed_hits) else 0.0)
    return total / 20


def attack_bonus(
    enc: Encounter, attacker: Combatant, source: str, kind: str
) -> tuple[int, float, bool, bool]:
    """(attack bonus, raw damage on a hit, area, shield-proof) of the attack a window answers."""
    p = data(attacker).p
    w = p.weapons.get(source)
    off_balance = -2 if "off_balance" in attacker.conditions else 0
    tired = fatigue_penalty(enc, attacker, "action")
    if w is not None:
        bonus = p.skill(w.category) + w.bonus + off_balance + tired
        if kind == "opportunity":
            bonus -= 3 * (data(attacker).opportunity_used or 1)  # R-LG-OPP-4 (this one is counted)
        return bonus, max(0.0, average(w.damage) + w.bonus), w.area, w.unparryable
    s = p.spells.get(source)
    if s is not None and s.damage is not None:
        return p.skill("magic") + off_balance + tired, average(s.damage), s.area, s.unparryable
    return 0, 0.0, False, False


FATIGUE_COST = {"none": 0.0, "dodge_penalty": 0.15, "roll_penalty": 0.4}
"""What a point of fatigue costs for the rest of the fight, as a share of the blow being answered,
per ``lagornis.fatigue.effect``: nothing when fatigue does nothing (the default), a point off
every later dodge, or a point off every later roll."""


class LagornisSense(Sense):
    # -- answers -------------------------------------------------------------------------------
    def answer(self, enc: Encounter, window: Window) -> Command:
        me = enc.combatants[window.actor]
        kind = window.trigger.get("type")
        if "release" in window.choices:
            return command(me.id, "release")  # what it held the action for (R-LG-HOLD-2)
        if kind == "opportunity":
            takes = self.style.take_opportunities or data(me).opportunity_used == 0
            if takes:
                w = best_weapon(me, enc.combatants[window.trigger["provoker"]], enc)
                if w is not None:
                    return command(me.id, "opportunity_attack", weapon=w.id)
            return command(me.id, "decline")
        if kind == "attack":
            return self.defend(enc, me, window)
        return command(me.id, "decline")

    def defend(self, enc: Encounter, me: Combatant, window: Window) -> Command:
        """The reaction that leaves the least damage, counting what it costs (see the module)."""
        t = window.trigger
        attacker = enc.combatants[t["attacker"]]
        target = enc.combatants[t["target"]]
        bonus, raw, area, unparryable = attack_bonus(enc, attacker, t["weapon"], t["kind"])
        if raw <= 0:
            return command(me.id, "decline")
        d = data(me)
        v = enc.variants
        defense = data(target).p.defense
        on_equal = bool(v["lagornis.attack.hit_on_equal"])
        ties = v["lagornis.reaction.ties"] == "defender"
        failed_hits = v["lagornis.reaction.failed_reaction"] == "hits"
        penalty = reaction_penalty(enc, me, d.reactions_used + 1)
        options: dict[str, tuple[float, Command]] = {}
        if "dodge" in window.choices:
            skill = d.p.adr - penalty + fatigue_penalty(enc, me, "dodge")
            # R-LG-REA-5: a dodged area attack still halves; a targeted one does nothing
            taken = raw * share_taken(
                bonus, defense, skill, 0.5 if area else 0.0, on_equal, ties, failed_hits
            )
            # a token spent now is a point of fatigue the next dodge without one brings
            # (about every other time); without tokens, the point of fatigue itself
            point = FATIGUE_COST[v["lagornis.fatigue.effect"]] * raw
            cost = point / 2 if d.dodge_tokens > 0 else point
            options["dodge"] = (taken + cost, command(me.id, "dodge"))
        if "parry" in window.choices and not unparryable:
            for w in usable_weapons(me):
                skill = d.p.skill(w.category) - penalty
                residual = 0.0 if w.category == "shield" else 0.5  # R-LG-REA-6
                taken = raw * share_taken(bonus, defense, skill, residual, on_equal, ties, failed_hits)
                wear = raw / 2
                left = d.durability[w.id]
                breaks = left <= wear
                main = best_weapon(me, attacker, enc)
                if breaks and (main is None or main.id == w.id) and w.category != "shield":
                    continue  # it would break the weapon it fights with
                cost = (wear / max(1, left)) * raw * (0.5 if self.style.avoid_provoking else 1.0)
                prev = options.get("parry")
                if prev is None or taken + cost < prev[0]:
                    options["parry"] = (taken + cost, command(me.id, "parry", weapon=w.id))
        hit = landing(bonus, defense, on_equal)
        if "dampen" in window.choices:
            options["dampen"] = (hit * max(0.0, raw - max(0, d.p.dex // 2)), command(me.id, "dampen"))
        unanswered = hit * raw
        if "cast" in window.choices:
            # R-LG-REA-8: an advanced defence strikes back with a 0.5 spell and lets the blow land;
            # its worth is the damage it should deal, taken off what the blow does
            spells = [s for s in d.p.spells.values() if s.damage is not None and abs(s.cost - 0.5) < EPS]
            if spells:
                s = max(spells, key=lambda s: average(s.damage) if s.damage else 0.0)
                assert s.damage is not None
                back = chance(data(attacker).p.defense - d.p.skill("magic") + penalty) * average(s.damage)
                options["cast"] = (unanswered - back, command(me.id, "cast", spell=s.id, target=attacker.id))
        best = min(options.values(), key=lambda o: o[0], default=None)
        if best is None or best[0] >= unanswered - 0.25:
            return command(me.id, "decline")
        return best[1]

    # -- the turn ------------------------------------------------------------------------------
    def turn(self, enc: Encounter, me: Combatant) -> Plan:
        d = data(me)
        if d.incantation is not None:
            outcome = yield command(me.id, "cast", spell=d.incantation.spell.id)  # feed it (R-LG-CAST-2)
            if not isinstance(outcome, Exception):
                yield from self.bonus(enc, me)
                yield end_turn(me)
                return
        enemies = foes(enc, me)
        if not enemies:
            return
        adjacent = [e for e in enemies if chebyshev(e.pos, me.pos) == 1]
        if self.style.avoid_provoking and self.hurt(me) and adjacent:
            yield from self.get_away(enc, me)
            return
        spell = self.best_spell(enc, me, adjacent)
        if spell is not None:
            outcome = yield spell
            if not isinstance(outcome, Exception):
                yield from self.bonus(enc, me)
                yield end_turn(me)
                return
        attacked = yield from self.attack(enc, me)
        if not attacked and d.full >= 1 - EPS:
            yield from self.close_in(enc, me)
            attacked = yield from self.attack(enc, me)
            if not attacked and d.full >= 1 - EPS:
                yield from self.hold(enc, me)
        yield from self.bonus(enc, me)
        yield end_turn(me)

    def targets(self, enc: Encounter, me: Combatant, at: Square) -> list[tuple[Combatant, Weapon]]:
        """Each enemy some usable weapon reaches from ``at``, with the weapon that does most."""
        out = []
        for t in foes(enc, me):
            reach = [w for w in usable_weapons(me) if enc.grid.distance_m(at, t.pos) <= w.reach_m + EPS]
            if reach:
                out.append((t, max(reach, key=lambda w: weapon_value(me, w))))
        return out

    def attack(self, enc: Encounter, me: Combatant) -> Generator[Command, Outcome, bool]:
        """Attack the weakest enemy in reach (R-LG-ATK-1). Returns whether it did."""
        if data(me).full < 1 - EPS:
            return False
        options = self.targets(enc, me, me.pos)
        if not options:
            return False
        t, w = min(options, key=lambda o: o[0].hp)
        outcome = yield command(me.id, "attack", target=t.id, weapon=w.id)
        return not isinstance(outcome, Exception)

    def movement(self, enc: Encounter, me: Combatant) -> Movement:
        """Through allies and the fallen, not standing enemies (R-LG-MOV-1); ``cautious`` does not
        pass next to an enemy on its way (R-LG-OPP-1: passing by gives an opportunity)."""
        occupied = enc.occupied
        defeated = enc.ruleset.is_defeated

        def can_enter(s: Square) -> bool:
            o = occupied.get(s)
            return o is None or o.side == me.side or defeated(o)

        def can_stop(s: Square) -> bool:
            return s not in occupied

        can_pass = None
        if self.style.avoid_provoking and not data(me).disengaged:
            enemies = foes(enc, me)

            def can_pass(s: Square) -> bool:
                return not any(chebyshev(s, e.pos) == 1 for e in enemies)

        return Movement(can_enter, can_pass, can_stop)

    def close_in(self, enc: Encounter, me: Combatant) -> Plan:
        """Move to the nearest enemy, with the bonus movement if the round's is not enough."""
        d = data(me)
        target = nearest(me, foes(enc, me))
        if target is None or not usable_weapons(me):
            return
        reach_m = max(w.reach_m for w in usable_weapons(me))
        near = enc.grid.units_within(reach_m)
        how = self.movement(enc, me)

        def arrive(s: Square) -> bool:
            return how.can_stop(s) and enc.grid.distance_m(s, target.pos) <= reach_m + EPS

        limit = 3 * chebyshev(me.pos, target.pos) + 8 * enc.grid.units_within(d.p.movement_m)
        path = route(enc, me.pos, target.pos, near, arrive, how.can_enter, how.can_pass, limit, d.diagonals)
        if not path:
            return
        budget = enc.grid.units_within(d.movement_m)
        step = affordable(enc, me.pos, path, budget, how.can_stop)
        if step != path and not self.style.avoid_provoking and d.bonus > EPS:
            outcome = yield command(me.id, "bonus_move")  # R-LG-ECO-5
            if not isinstance(outcome, Exception):
                budget = enc.grid.units_within(d.movement_m)
                step = affordable(enc, me.pos, path, budget, how.can_stop)
        if step:
            yield command(me.id, "move", path=step)

    def hold(self, enc: Encounter, me: Combatant) -> Plan:
        """Nobody in reach after moving: hold the attack for the first enemy that comes (R-LG-HOLD)."""
        weapons = usable_weapons(me)
        if not weapons:
            return
        w = max(weapons, key=lambda w: weapon_value(me, w))
        then = Command(actor=me.id, do="attack", weapon=w.id)
        yield Command(actor=me.id, do="hold", trigger="enemy_enters_reach", then=then)

    def bonus(self, enc: Encounter, me: Combatant) -> Plan:
        """The bonus action left over (R-LG-ECO-5): a 0.5 damaging spell at the weakest enemy in its
        range, else another reaction when an enemy is next to it."""
        d = data(me)
        if d.bonus < 0.5 - EPS:
            return
        for s in sorted(d.p.spells.values(), key=lambda s: -average(s.damage) if s.damage else 0):
            if s.damage is None or abs(s.cost - 0.5) > EPS or d.incantation is not None:
                continue
            t = weakest(e for e in foes(enc, me) if in_range(enc, me, s, e))
            if t is not None:
                outcome = yield command(me.id, "cast", spell=s.id, target=t.id)
                if not isinstance(outcome, Exception):
                    return
        if any(chebyshev(e.pos, me.pos) <= 2 for e in foes(enc, me)):
            yield command(me.id, "bonus_reaction")

    def best_spell(self, enc: Encounter, me: Combatant, adjacent: list[Combatant]) -> Command | None:
        """A damaging spell worth more per action than the weapon: cast at once (cost 0.5 or 1,
        R-LG-CAST-1), or begun as an incantation when no enemy is next to the caster."""
        d = data(me)
        if not d.p.spells or d.full < 1 - EPS:
            return None
        options = self.targets(enc, me, me.pos)
        weapon = max((weapon_value(me, w) for _t, w in options), default=0.0)
        best, choice = weapon, None
        for s in d.p.spells.values():
            if s.damage is None or abs(s.cost - 0.5) < EPS:
                continue  # 0.5 spells go with the bonus action
            if s.cost > 1 + EPS and adjacent:
                continue
            reach = [e for e in foes(enc, me) if in_range(enc, me, s, e)]
            if not reach:
                continue
            hit = chance(11 - d.p.skill("magic"))  # against a passive defence of about 11
            if s.area:
                ts = tuple(e.id for e in reach[:3])
                value = hit * average(s.damage) * len(ts) / s.cost
                cmd = command(me.id, "cast", spell=s.id, targets=ts)
            else:
                t = weakest(reach)
                assert t is not None
                value = hit * average(s.damage) / s.cost
                cmd = command(me.id, "cast", spell=s.id, target=t.id)
            if value > best:
                best, choice = value, cmd
        return choice

    def get_away(self, enc: Encounter, me: Combatant) -> Plan:
        """Hurt and in melee: disengage (R-LG-OPP-2, 0.5 action) and walk to the free square
        farthest from the enemies."""
        d = data(me)
        outcome = yield command(me.id, "disengage")
        if isinstance(outcome, Exception):
            yield from self.bonus(enc, me)
            yield end_turn(me)
            return
        how = self.movement(enc, me)
        reach = Reach(enc, me.pos, enc.grid.units_within(d.movement_m), how.can_enter, None, d.diagonals)
        enemies = foes(enc, me)
        best: tuple[int, int, Square] | None = None
        for s, cost in reach.cost.items():
            if s not in enc.occupied:
                k = (-min(chebyshev(s, e.pos) for e in enemies), cost, s)
                if best is None or k < best:
                    best = k
        if best is not None:
            yield command(me.id, "move", path=reach.path(best[2]))
        yield from self.bonus(enc, me)
        yield end_turn(me)


def weapon_value(me: Combatant, w: Weapon) -> float:
    return data(me).p.skill(w.category) + average(w.damage) + w.bonus


def best_weapon(me: Combatant, t: Combatant, enc: Encounter) -> Weapon | None:
    """The usable weapon that does most among those reaching ``t`` (else among all)."""
    usable = usable_weapons(me)
    reach = [w for w in usable if enc.grid.distance_m(me.pos, t.pos) <= w.reach_m + EPS]
    pool = reach or usable
    return max(pool, key=lambda w: weapon_value(me, w)) if pool else None


def in_range(enc: Encounter, me: Combatant, s: Spell, t: Combatant) -> bool:
    return s.range_m is None or enc.grid.distance_m(me.pos, t.pos) <= s.range_m + EPS
