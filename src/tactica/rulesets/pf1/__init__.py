"""Ruleset ``pf1``: Pathfinder 1e full-round actions (spec: pf1.md; seed 000, French).

The modules: ``stats`` (file stats and the engine's profile), ``state`` (per-combatant turn state),
``economy`` (slots), ``combat`` (attacks, damage, threatened squares, attacks of opportunity),
``movement``, ``attacks``, ``casting``; this module ties them into the :class:`Pf1` ruleset.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from ...engine import events as ev
from ...engine.commands import Command
from ...engine.state import Combatant, CombatantSetup, Window
from ...i18n import N_, _
from ...vocabulary import label
from ..base import Action, Ruleset, Variant, illegal, module_action
from ..gm import GM_ACTIONS
from . import attacks, casting, movement
from .combat import check_opportunity_answer, lose_spell, reactors, state_from_hp, threatened_squares
from .economy import can_five_foot_step, can_full_round
from .rules import RULES
from .state import Pf1Data, data, lose_unused
from .stats import Pf1Stats, profile_of

if TYPE_CHECKING:
    from ...engine.core import Encounter, Step


def _check_end_turn(enc: Encounter, c: Combatant, cmd: Command) -> None:
    return None


def _run_end_turn(enc: Encounter, c: Combatant, cmd: Command, plan: None) -> Step:
    yield from enc.ruleset.end_turn(enc, c)  # R-PF-ECO-3


def _end_turn_candidates(enc: Encounter, c: Combatant) -> Iterator[Command]:
    yield Command(actor=c.id, do="end_turn")


def _check_answer_without_window(enc: Encounter, c: Combatant, cmd: Command) -> None:
    # Only reached on the actor's own turn: out of turn the engine answers not_your_turn, as
    # format.md section 7 asks ("may not act now, and has no reaction window open").
    raise illegal(
        "not_allowed",
        _("{a}: there is no decision to answer with {do}"),
        a=c.name,
        do=label("action", cmd.do),
    )


def _run_answer_without_window(enc: Encounter, c: Combatant, cmd: Command, plan: None) -> Step:
    raise AssertionError("never runs: the check always refuses")  # pragma: no cover
    yield


ACTIONS: dict[str, Action] = {
    a.id: a
    for a in (
        module_action("move", movement, ("path",), ("path",)),
        module_action("five_foot_step", movement, ("to",), ("to",)),
        module_action("run", movement, ("path",), ("path",)),
        module_action("withdraw", movement, ("path",), ("path",)),
        module_action("difficult_step", movement, ("to", "path")),
        module_action("draw_weapon", movement, ("weapon",), ("weapon",)),
        module_action(
            "attack", attacks, ("target", "weapon", "defensively", "full_attack", "hand"), ("target",)
        ),
        module_action(
            "cast", casting, ("spell", "targets", "target", "metamagic", "defensively"), ("spell",)
        ),
        module_action("use_ability", casting, ("special", "ability", "target")),
        module_action("abandon_spell", casting, name="abandon"),
        Action("end_turn", _check_end_turn, _run_end_turn, candidates=_end_turn_candidates),
        # the answers to a pending decision, sent when none is pending (the window takes them first)
        Action(
            "opportunity_attack",
            _check_answer_without_window,
            _run_answer_without_window,
            frozenset({"target", "weapon"}),
        ),
        Action("decline", _check_answer_without_window, _run_answer_without_window),
    )
}

CONDITIONS = frozenset(
    {
        "blinded",
        "invisible",
        "staggered",
        "flat_footed",
        "fighting_defensively",
        "running",
        "resting",
        "casting",
        "unconscious",
    }
)


class Pf1(Ruleset):
    name = "pf1"
    title = N_("Pathfinder 1e full-round actions")
    rules = RULES
    variants = (
        Variant(
            "pf1.reach.second_diagonal",
            bool,
            True,
            N_("a reach weapon threatens the square two away on the diagonal too (d20 reach exception)"),
        ),
    )
    conditions = CONDITIONS
    stats_model = Pf1Stats
    actions = ACTIONS
    gm_actions = GM_ACTIONS
    economy_slots = ("standard", "move", "swift", "full_round")

    def new_combatant(self, enc: Encounter, setup: CombatantSetup, index: int) -> Combatant:
        stats: Pf1Stats = setup.stats
        c = Combatant(setup, index, stats.hp, stats.max_hp if stats.max_hp is not None else stats.hp)
        profile = profile_of(stats, enc.grid.square_m)
        c.data = Pf1Data(profile)
        c.wielding = list(profile.default_wielding)
        for cond in setup.conditions:
            c.conditions[cond] = None
        # R-PF-TURN-3: flat-footed from the start of combat until its first turn
        c.conditions["flat_footed"] = None
        c.state = state_from_hp(c)
        return c

    # -- initiative and turns ---------------------------------------------------------------------
    def initiative_modifier(self, c: Combatant) -> int:
        return data(c).p.initiative  # R-PF-TURN-1

    def end_turn(self, enc: Encounter, c: Combatant) -> Step:
        lose_unused(data(c))  # R-PF-ECO-3: unused actions are lost
        yield from super().end_turn(enc, c)

    def begin_turn(self, enc: Encounter, c: Combatant) -> Step:
        d = data(c)
        self.expire_conditions(enc, c)
        if "flat_footed" in c.conditions:
            self.remove_condition(enc, c, "flat_footed")
        casting.casting_at_turn_start(enc, c)
        if not d.ran_this_turn:
            d.run_streak = d.run_checks = 0
        d.ran_this_turn = False
        d.refill()
        d.turns_taken += 1
        enc.emit(ev.turn_started(c.id, enc.round))
        casting.continue_casting(enc, c)
        return
        yield

    # -- answers -----------------------------------------------------------------------------------
    def check_answer(self, enc: Encounter, window: Window, cmd: Command) -> None:
        check_opportunity_answer(enc, window, cmd)

    def answer_candidates(self, enc: Encounter, window: Window) -> list[Command]:
        return [
            Command(actor=window.actor, do="opportunity_attack", target=window.context),
            Command(actor=window.actor, do="decline"),
        ]

    # -- states and views --------------------------------------------------------------------------
    defeated_states = frozenset({"dying", "dead", "unconscious"})
    out_of_fight_states = frozenset({"dying", "dead", "unconscious"})
    answers = frozenset({"opportunity_attack", "decline"})
    engine_conditions = frozenset({"casting"})

    def state_from(self, c: Combatant) -> str:
        return state_from_hp(c)

    def on_state_change(self, enc: Encounter, c: Combatant, old: str) -> None:
        super().on_state_change(enc, c, old)
        if c.state != "ok":
            lose_spell(enc, c, "defeated")  # R-PF-FR-CAST-3: disabled or worse loses the spell

    def threatened_squares(self, enc: Encounter, c: Combatant) -> list[tuple[int, int]]:
        return threatened_squares(enc, c)

    def provoking_squares(self, enc: Encounter, cmd: Command) -> list[tuple[tuple[int, int], list[str]]]:
        # R-PF-MOV-4: a 5-foot step provokes nothing; R-PF-AOO-2: leaving a threatened square
        # provokes, once per enemy per movement; R-PF-WD-2: a withdrawal's start is safe from seen enemies
        c = enc.combatants[cmd.actor]
        if cmd.do == "five_foot_step":
            return []
        path = cmd.path if cmd.path is not None else ((cmd.to,) if cmd.to is not None else ())
        out: list[tuple[tuple[int, int], list[str]]] = []
        offered: set[str] = set()
        for i, square in enumerate((c.pos, *path[:-1])):
            found = []
            for r in reactors(enc, c, square, set(offered)):
                if cmd.do == "withdraw" and i == 0 and "invisible" not in r.conditions:
                    continue
                offered.add(r.id)
                found.append(r.id)
            if found:
                out.append((square, found))
        return out

    def resources(self, enc: Encounter, c: Combatant) -> dict[str, Any]:
        d = data(c)
        # R-PF-ECO-4
        return {
            "standard": d.standard,
            "move": d.move,
            "swift": d.swift,
            "full_round": can_full_round(enc, c),
            "five_foot_step": can_five_foot_step(enc, c),
            "opportunity_attacks": d.aoo_left,
        }


RULESET = Pf1()
