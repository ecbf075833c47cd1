"""Ruleset ``terza``: the "Terza Azione" house rules on a 5e-style base (spec: terza.md; seed 001, Italian).

The modules: ``stats`` (file stats and the engine's profile), ``state`` (per-combatant economy),
``economy`` (slots), ``rolls`` (d20, saves, damage), ``casting`` (spells, items, reaction spells),
``combat`` (attacks, zones of control, opportunity attacks), ``third_rules`` (the third action's
limits and Incalzare), ``movement`` (the walk, move, dash, withdraw), ``third`` (the third action's
kinds and windows), ``actions``; this module ties them into the :class:`Terza` ruleset.

The seed marks two rules "rimossa per prova" (removed for a trial): they are the variants
``terza.third_action.disengage`` and ``terza.third_action.no_after_move``, off by default.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ...engine import events as ev
from ...engine.commands import Command
from ...engine.grid import DIRECTIONS, Square
from ...engine.state import Combatant, CombatantSetup, Window
from ...i18n import N_, _
from ..base import Action, Ruleset, Variant, illegal, module_action
from ..gm import GM_ACTIONS, target_of
from . import actions, casting, movement, third
from .casting import SpellWindow, check_spell_answer, spell_answer_candidates
from .combat import OpportunityWindow, check_opportunity_answer, opportunity_candidates, zoc_squares
from .economy import movement_m
from .rules import RULES
from .state import TerzaData, data
from .stats import TerzaStats, build_profile
from .third_rules import ThirdContext

if TYPE_CHECKING:
    from ...engine.core import Encounter, Step


VARIANTS = (
    Variant(
        "terza.third_action.disengage",
        bool,
        False,
        N_(
            "allow the third action 'disengage' (one step out of melee without provoking); removed for the trial"
        ),
    ),
    Variant(
        "terza.third_action.no_after_move",
        bool,
        False,
        N_("no third action for a combatant that moved this round; removed for the trial"),
    ),
    Variant(
        "terza.zoc.guarded_exempt",
        bool,
        True,
        N_("guarded combatants move into and out of zones of control without provoking"),
    ),
    Variant(
        "terza.press.mode",
        str,
        "follow",
        N_("a successful press: the presser follows the mover (follow) or stops it in its zone (deny)"),
        choices=("follow", "deny"),
    ),
    Variant("terza.defend.ac_bonus", int, 2, N_("the AC bonus of the third action 'defend'")),
)

CONDITIONS = frozenset(
    {
        "blinded",
        "poisoned",
        "prone",
        "restrained",
        "frightened",
        "stunned",
        "paralyzed",
        "grappled",
        "incapacitated",
        "invisible",
        "dodging",
        "defending",
        "unconscious",
        "dead",
    }
)


def _third_alias(kind: str, fields: tuple[str, ...]) -> Action:
    """``do: <kind>`` on its own turn is ``do: third, kind: <kind>`` (as in the windows, R-TA-3-3).
    No candidates: legal_commands lists the ``third`` form only."""
    return Action(kind, third.check_third_turn, third.run_third_turn, frozenset(fields))


ACTIONS: dict[str, Action] = {
    a.id: a
    for a in (
        module_action("move", movement, ("path",), ("path",)),
        module_action("dash", movement),
        module_action("withdraw", movement, ("path",), ("path",)),
        module_action("attack", actions, ("target", "weapon"), ("target",)),
        module_action("offhand_attack", actions, ("target", "weapon"), ("target",)),
        Action(
            "dodge",
            actions.check_plain_action,
            actions.run_dodge,
            candidates=actions.plain_candidates("dodge"),
        ),
        Action(
            "disengage",
            actions.check_plain_action,
            actions.run_disengage,
            candidates=actions.plain_candidates("disengage"),
        ),
        module_action("draw", actions, ("weapon",), ("weapon",)),
        module_action("sheathe", actions, ("weapon",), ("weapon",)),
        # any_time: a reaction spell may be cast on another's turn (R-TA-LIM-3); the check decides
        module_action("cast", casting, ("spell", "target", "targets"), ("spell",), any_time=True),
        module_action("use_item", casting, ("item", "target", "targets"), ("item",)),
        Action(
            "third",
            third.check_third_turn,
            third.run_third_turn,
            frozenset({"kind", "to", "facing", "weapon"}),
            ("kind",),
            candidates=third.third_candidates,
        ),
        _third_alias("defend", ()),
        _third_alias("step", ("to",)),
        _third_alias("rotate", ("facing",)),
        _third_alias("shield", ()),
        _third_alias("press", ()),
        module_action("end_turn", actions),
    )
}


# -- GM: set_facing (R-TA-MOV-2) ----------------------------------------------------------------------
def _check_set_facing(enc: Encounter, _gm: Any, cmd: Command) -> Combatant:
    t = target_of(enc, cmd)
    if cmd.facing not in DIRECTIONS:
        raise illegal("invalid_command", _("{f!r} is not a facing (N NE E SE S SW W NW)"), f=cmd.facing)
    return t


def _run_set_facing(enc: Encounter, _gm: Any, cmd: Command, t: Combatant) -> Step:
    enc.emit(ev.gm("set_facing", {"target": t.id, "facing": cmd.facing, "was": t.facing}))
    t.facing = cmd.facing
    return
    yield


GM = {
    **GM_ACTIONS,
    "set_facing": Action(
        "set_facing",
        _check_set_facing,
        _run_set_facing,
        frozenset({"target", "facing"}),
        ("target", "facing"),
        any_time=True,
    ),
}


def facing_towards(frm: Square, to: Square) -> str:
    """The one of the 8 facings closest to the direction from ``frm`` to ``to`` (y grows southwards)."""
    angle = math.atan2(to[1] - frm[1], to[0] - frm[0])
    return ("E", "SE", "S", "SW", "W", "NW", "N", "NE")[round(angle / (math.pi / 4)) % 8]


class Terza(Ruleset):
    name = "terza"
    title = N_("Terza Azione: house rules on a 5e-style base")
    rules = RULES
    variants = VARIANTS
    conditions = CONDITIONS
    stats_model = TerzaStats
    actions = ACTIONS
    gm_actions = GM
    economy_slots = ("action", "bonus", "reaction", "third")
    answers = frozenset({"opportunity_attack", "decline"})
    state_conditions = frozenset({"unconscious", "dead"})
    defeated_states = frozenset({"out", "dead", "unconscious"})
    out_of_fight_states = frozenset({"out", "dead", "unconscious"})

    def diagonal_rule(self, variants: Any) -> str:
        return "uniform"  # R-TA-MOV-1: every step costs 1.5 m

    def new_combatant(self, enc: Encounter, setup: CombatantSetup, index: int) -> Combatant:
        stats: TerzaStats = setup.stats
        c = Combatant(setup, index, stats.hp, stats.max_hp if stats.max_hp is not None else stats.hp)
        profile = build_profile(stats, enc.grid.square_m)
        c.data = TerzaData(profile)
        c.wielding = list(profile.default_wielding)
        for cond in setup.conditions:
            c.conditions[cond] = None
        c.state = self.state_from(c)
        return c

    def new_encounter_data(self, enc: Encounter) -> None:
        """Our choice: a combatant the file gives no ``facing`` faces its nearest enemy (ties: file
        order), or north when it has none."""
        for c in enc.combatants.values():
            if c.facing is not None:
                continue
            foes = [e for e in enc.combatants.values() if e.side != c.side]
            if not foes:
                c.facing = "N"
                continue
            near = min(foes, key=lambda e: ((e.pos[0] - c.pos[0]) ** 2 + (e.pos[1] - c.pos[1]) ** 2, e.index))
            c.facing = facing_towards(c.pos, near.pos)

    # -- initiative, turns, rounds ------------------------------------------------------------------
    def initiative_modifier(self, c: Combatant) -> int:
        return data(c).p.initiative  # d20 + initiative bonus

    def begin_turn(self, enc: Encounter, c: Combatant) -> Step:
        self.expire_conditions(enc, c)  # defending, dodging: until the start of its next turn
        data(c).refill_turn()  # R-TA-ECO-1, R-TA-ECO-2
        enc.emit(ev.turn_started(c.id, enc.round))
        return
        yield

    def round_end(self, enc: Encounter) -> Step:
        yield from third.round_end_windows(enc)  # R-TA-3-2 (b)

    def round_reset(self, enc: Encounter) -> None:
        for c in enc.combatants.values():
            data(c).refill_round()  # R-TA-ECO-3

    # -- answers ------------------------------------------------------------------------------------
    def check_answer(self, enc: Encounter, window: Window, cmd: Command) -> None:
        ctx = window.context
        if isinstance(ctx, ThirdContext):
            third.check_third_answer(enc, window, cmd)
        elif isinstance(ctx, SpellWindow):
            check_spell_answer(enc, window, cmd)
        else:
            check_opportunity_answer(enc, window, cmd)

    def answer_candidates(self, enc: Encounter, window: Window) -> Iterable[Command]:
        ctx = window.context
        if isinstance(ctx, ThirdContext):
            return list(third.third_answer_candidates(enc, window))
        if isinstance(ctx, SpellWindow):
            return list(spell_answer_candidates(enc, window))
        assert isinstance(ctx, OpportunityWindow)
        return opportunity_candidates(window)

    # -- what the tracker asks ----------------------------------------------------------------------
    def third_action_options(self, enc: Encounter, actor_id: str) -> list[tuple[str, str | None]]:
        """Every kind of third action (R-TA-3-3, in the spec's order) with None when ``actor_id``
        may take it now, else the reason it may not (shown greyed out with it)."""
        return third.third_action_options(enc, enc.combatants[actor_id])

    def threatened_squares(self, enc: Encounter, c: Combatant) -> list[Square]:
        return zoc_squares(enc, c)

    def zone_of_control(self, enc: Encounter, actor_id: str) -> list[Square]:
        """The squares of ``actor_id``'s zone of control now (R-TA-ZOC-1), for an overlay."""
        return zoc_squares(enc, enc.combatants[actor_id])

    # -- states and views ---------------------------------------------------------------------------
    def state_from(self, c: Combatant) -> str:
        if "dead" in c.conditions:
            return "dead"
        if c.hp <= 0:
            return "out"  # R-TA-ATK-5
        return "unconscious" if "unconscious" in c.conditions else "ok"

    def resources(self, enc: Encounter, c: Combatant) -> dict[str, Any]:
        d = data(c)
        # R-TA-ECO-5 (plus the free object interaction)
        return {
            "action": d.action,
            "bonus": d.bonus,
            "reaction": d.reaction,
            "third": d.third,
            "movement_m": movement_m(enc, c),
            "spells_this_turn": d.spells_this_turn,
            "items_this_turn": d.items_this_turn,
            "interaction": d.interaction,
        }


RULESET = Terza()
