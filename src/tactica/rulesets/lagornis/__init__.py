"""Ruleset ``lagornis``: the Lagornis combat system (spec: lagornis.md; seed 002, French).

The modules: ``stats`` (file stats and the engine's profile), ``state`` (per-combatant round state),
``economy`` (action units, reactions and their penalties), ``combat`` (attacks, the reaction window,
dodge / parry / dampen, damage, weapon wear), ``actions`` (attack, extended defence, bonus uses),
``movement`` (move, opportunities, disengage), ``hold`` (held actions), ``casting`` (spells and
incantation); this module ties them into the :class:`Lagornis` ruleset.

The seed leaves the core roll unspecified; every choice the spec marks "our choice" is a variant
in :data:`VARIANTS`, listed by ``tactica rules lagornis``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ...engine import events as ev
from ...engine.commands import Command
from ...engine.state import Combatant, CombatantSetup, Window
from ...i18n import N_
from ..base import Action, Ruleset, Variant, module_action
from ..gm import GM_ACTIONS
from . import actions, casting, hold, movement
from .combat import DefenceCtx, check_defence_answer, defence_candidates, state_from_hp
from .economy import fmt
from .rules import RULES
from .state import LagornisData, data
from .stats import LagornisStats, build_profile

if TYPE_CHECKING:
    from ...engine.core import Encounter, Step

VARIANTS: tuple[Variant, ...] = (
    Variant(
        "lagornis.reaction_penalty_base",
        int,
        3,
        N_(
            "R-LG-REA-3: the fixed part of the penalty of a reaction beyond the free ones (the seed's 3 of 3+X)"
        ),
    ),
    Variant(
        "lagornis.reaction_penalty_first_x",
        int,
        1,
        N_("R-LG-REA-3: the X of the first extra reaction (1: -4, -5, ...; 0: -3, -4, ...)"),
    ),
    Variant(
        "lagornis.cast.full_action_worth",
        float,
        1.0,
        N_(
            "R-LG-CAST-4: what the full action puts into an incantation (1.5 makes the seed's 2nd example work)"
        ),
    ),
    Variant(
        "lagornis.defense.passive_default",
        int,
        10,
        N_("the passive defence when stats give no defense (what an unanswered attack must reach)"),
    ),
    Variant(
        "lagornis.course.metres_per_rank",
        float,
        2.0,
        N_("R-LG-MOV-1: metres of movement per rank of the course (running) skill"),
    ),
    Variant(
        "lagornis.dodge.tokens_per_fight",
        int,
        2,
        N_("R-LG-REA-5: dodge tokens a combatant starts the fight with when its stats give none"),
    ),
    Variant(
        "lagornis.fatigue.effect",
        str,
        "none",
        N_(
            "what fatigue does: none; roll_penalty (-1 a point on every d20 roll); dodge_penalty (dodges only)"
        ),
        ("none", "roll_penalty", "dodge_penalty"),
    ),
    Variant(
        "lagornis.reaction.ties",
        str,
        "attacker",
        N_("R-LG-REA-4: who wins an opposed roll that ties (attacker: the reaction must be greater)"),
        ("attacker", "defender"),
    ),
    Variant(
        "lagornis.reaction.failed_reaction",
        str,
        "as_unanswered",
        N_(
            "R-LG-REA-4: a failed dodge or parry: as_unanswered (the attack must still reach defense) or hits"
        ),
        ("as_unanswered", "hits"),
    ),
    Variant(
        "lagornis.attack.hit_on_equal",
        bool,
        True,
        N_(
            "R-LG-ATK-2: an unanswered attack hits when its total equals the defense (false: it must exceed it)"
        ),
    ),
    Variant(
        "lagornis.surprise.surprised_react",
        bool,
        False,
        N_("R-LG-INIT-3: whether surprised combatants may react or take opportunities in the surprise round"),
    ),
)


ACTIONS: dict[str, Action] = {
    a.id: a
    for a in (
        module_action("move", movement, ("path",), ("path",)),
        module_action("attack", actions, ("target", "weapon"), ("target",)),
        module_action("cast", casting, ("spell", "target", "targets", "amount", "pay"), ("spell",)),
        module_action("disengage", movement, ("pay",)),
        module_action("bonus_reaction", actions),
        module_action("bonus_move", actions),
        module_action("extended_defense", actions),
        module_action("hold", hold, ("then", "trigger", "by"), ("then", "trigger")),
        module_action("abandon_spell", casting),
        module_action("end_turn", actions),
    )
}


class Lagornis(Ruleset):
    name = "lagornis"
    title = N_("Lagornis combat system")
    rules = RULES
    variants = VARIANTS
    conditions = frozenset({"off_balance"})
    stats_model = LagornisStats
    actions = ACTIONS
    gm_actions = GM_ACTIONS
    economy_slots = ("full", "half", "bonus", "reaction")
    answers = frozenset({"dodge", "parry", "dampen", "decline", "opportunity_attack", "release"})
    state_conditions = frozenset()
    defeated_states = frozenset({"out", "dead"})
    out_of_fight_states = frozenset({"out", "dead"})

    def new_combatant(self, enc: Encounter, setup: CombatantSetup, index: int) -> Combatant:
        stats: LagornisStats = setup.stats
        c = Combatant(setup, index, stats.hp, stats.max_hp if stats.max_hp is not None else stats.hp)
        c.data = LagornisData(build_profile(stats, enc.variants))
        for cond in setup.conditions:
            c.conditions[cond] = None
        c.state = state_from_hp(c)
        return c

    # -- initiative, rounds and turns ---------------------------------------------------------------
    def initiative_modifier(self, c: Combatant) -> int:
        return data(c).p.adr  # R-LG-INIT-1: 1d20 + ADR

    def begin_turn(self, enc: Encounter, c: Combatant) -> Step:
        self.expire_conditions(enc, c)
        data(c).fed_this_turn = False
        enc.emit(ev.turn_started(c.id, enc.round))
        return
        yield

    def end_turn(self, enc: Encounter, c: Combatant) -> Step:
        d = data(c)
        if d.incantation is not None and not d.fed_this_turn:
            casting.lose_incantation(enc, c, "interrupted")  # R-LG-CAST-3: a turn skipped
        d.disengaged = False  # R-LG-OPP-2: for this turn only
        yield from super().end_turn(enc, c)

    def round_reset(self, enc: Encounter) -> None:
        # R-LG-ECO-4: at the end of the round, not at the start of each turn
        for c in enc.combatants.values():
            data(c).reset_round()

    # -- answers to pending decisions ----------------------------------------------------------------
    def check_answer(self, enc: Encounter, window: Window, cmd: Command) -> None:
        ctx = window.context
        if isinstance(ctx, DefenceCtx):
            check_defence_answer(enc, ctx, cmd)
        elif isinstance(ctx, movement.OpportunityCtx):
            movement.check_opportunity_answer(enc, ctx, cmd)
        elif isinstance(ctx, hold.HoldCtx):
            hold.check_hold_answer(enc, ctx, cmd)

    def answer_candidates(self, enc: Encounter, window: Window) -> Iterable[Command]:
        ctx = window.context
        if isinstance(ctx, DefenceCtx):
            return list(defence_candidates(enc, window, ctx))
        if isinstance(ctx, movement.OpportunityCtx):
            return list(movement.opportunity_candidates(enc, window, ctx))
        return super().answer_candidates(enc, window)

    # -- states and views ---------------------------------------------------------------------------
    def state_from(self, c: Combatant) -> str:
        return state_from_hp(c)  # R-LG-ATK-4

    def on_state_change(self, enc: Encounter, c: Combatant, old: str) -> None:
        super().on_state_change(enc, c, old)
        if self.is_defeated(c):
            casting.lose_incantation(enc, c, "defeated")  # R-LG-CAST-3: out loses the spell
            data(c).held = None

    def resources(self, enc: Encounter, c: Combatant) -> dict[str, Any]:
        d = data(c)
        # R-LG-ECO-6; then what else a player needs to see: weapon wear, a held action, an incantation
        out: dict[str, Any] = {
            "full": fmt(d.full),
            "bonus": fmt(d.bonus),
            "reactions": d.reactions,
            "reactions_used": d.reactions_used,
            "movement_m": fmt(d.movement_m),
            "dodge_tokens": d.dodge_tokens,
            "fatigue": d.fatigue,
            "opportunity_used": d.opportunity_used,
        }
        for wid, left in d.durability.items():
            out[f"weapon:{wid}"] = left
        out["extended_defense"] = d.extended
        out["disengaged"] = d.disengaged
        out["held"] = None if d.held is None else {"trigger": d.held.trigger, "then": d.held.then.to_json()}
        inc = d.incantation
        out["incantation"] = (
            None
            if inc is None
            else {"spell": inc.spell.id, "progress": fmt(inc.progress), "cost": fmt(inc.spell.cost)}
        )
        return out

    def combatant_view(self, enc: Encounter, c: Combatant) -> dict[str, Any]:
        view = super().combatant_view(enc, c)
        d = data(c)
        # weapon durability and broken weapons (R-LG-REA-6) are part of the visible state
        view["weapons"] = {
            wid: {"durability": left, "broken": left <= 0} for wid, left in d.durability.items()
        }
        view["broken"] = [wid for wid, left in d.durability.items() if left <= 0]
        return view


RULESET = Lagornis()
