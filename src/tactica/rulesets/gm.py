"""GM overrides, shared by every ruleset: each is a command of ``actor: gm`` and logged as a ``gm`` event."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..engine import events as ev
from ..engine.commands import Command
from ..engine.grid import BLOCKED, fmt_square
from ..engine.state import Combatant
from ..i18n import _
from ..vocabulary import label
from .base import Action, illegal

if TYPE_CHECKING:
    from ..engine.core import Encounter, Step


def target_of(enc: Encounter, cmd: Command) -> Combatant:
    """The combatant ``cmd.target`` names (``unknown_combatant`` if none)."""
    t = enc.combatants.get(cmd.target or "")
    if t is None:
        raise illegal("unknown_combatant", _("there is no combatant {t!r}"), t=cmd.target)
    return t


def _check_set_hp(enc: Encounter, _gm: Any, cmd: Command) -> Combatant:
    return target_of(enc, cmd)


def _run_set_hp(enc: Encounter, _gm: Any, cmd: Command, t: Combatant) -> Step:
    assert cmd.hp is not None
    enc.emit(ev.gm("set_hp", {"target": t.id, "hp": cmd.hp, "was": t.hp}))
    enc.ruleset.set_hp(enc, t, cmd.hp)
    return
    yield


def _check_condition(enc: Encounter, _gm: Any, cmd: Command) -> Combatant:
    t = target_of(enc, cmd)
    assert cmd.condition is not None
    if cmd.condition not in enc.ruleset.conditions:
        raise illegal(
            "invalid_command",
            _("{c!r} is not a condition of {rs} (known: {known})"),
            c=cmd.condition,
            rs=enc.ruleset.name,
            known=", ".join(sorted(enc.ruleset.conditions)),
        )
    if cmd.condition in enc.ruleset.engine_conditions:
        raise illegal(
            "not_allowed",
            _("{c} follows from the rules and cannot be set by hand (for a spell: abandon_spell)"),
            c=label("condition", cmd.condition),
        )
    present = cmd.condition in t.conditions
    if cmd.do == "add_condition" and present:
        raise illegal("not_allowed", _("{t} is already {c}"), t=t.name, c=label("condition", cmd.condition))
    if cmd.do == "remove_condition" and not present:
        raise illegal("not_allowed", _("{t} is not {c}"), t=t.name, c=label("condition", cmd.condition))
    return t


def _run_condition(enc: Encounter, _gm: Any, cmd: Command, t: Combatant) -> Step:
    assert cmd.condition is not None
    added = cmd.do == "add_condition"
    enc.emit(ev.gm(cmd.do, {"target": t.id, "condition": cmd.condition}))
    if added:
        enc.ruleset.add_condition(enc, t, cmd.condition, "gm")
    else:
        enc.ruleset.remove_condition(enc, t, cmd.condition)
    return
    yield


def _check_move_to(enc: Encounter, _gm: Any, cmd: Command) -> Combatant:
    t = target_of(enc, cmd)
    to = cmd.to
    assert to is not None
    if not enc.grid.inside(to) or enc.grid.kind(to) == BLOCKED:
        raise illegal("bad_path", _("{sq} is off the map or a wall"), sq=fmt_square(to))
    other = enc.occupied.get(to)
    if other is not None and other is not t:
        raise illegal("bad_path", _("{sq} is occupied by {o}"), sq=fmt_square(to), o=other.name)
    return t


def _run_move_to(enc: Encounter, _gm: Any, cmd: Command, t: Combatant) -> Step:
    assert cmd.to is not None
    enc.emit(ev.gm("move_to", {"target": t.id, "from": ev.sq(t.pos), "to": ev.sq(cmd.to)}))
    enc.move_token(t, cmd.to)
    return
    yield


def _check_set_initiative(enc: Encounter, _gm: Any, cmd: Command) -> list[Combatant]:
    order = list(cmd.order or ())
    ids = set(enc.combatants)
    if sorted(order) != sorted(ids):
        raise illegal(
            "invalid_command",
            _("set_initiative needs every combatant exactly once (have: {ids})"),
            ids=", ".join(sorted(ids)),
        )
    return [enc.combatants[i] for i in order]


def _run_set_initiative(enc: Encounter, _gm: Any, cmd: Command, order: list[Combatant]) -> Step:
    enc.emit(ev.gm("set_initiative", {"order": [c.id for c in order]}))
    enc.order = order
    if enc.current is not None:
        enc.turn_index = order.index(enc.current)
    return
    yield


GM_ACTIONS: dict[str, Action] = {
    a.id: a
    for a in (
        Action(
            "set_hp", _check_set_hp, _run_set_hp, frozenset({"target", "hp"}), ("target", "hp"), any_time=True
        ),
        Action(
            "add_condition",
            _check_condition,
            _run_condition,
            frozenset({"target", "condition"}),
            ("target", "condition"),
            any_time=True,
        ),
        Action(
            "remove_condition",
            _check_condition,
            _run_condition,
            frozenset({"target", "condition"}),
            ("target", "condition"),
            any_time=True,
        ),
        Action(
            "move_to",
            _check_move_to,
            _run_move_to,
            frozenset({"target", "to"}),
            ("target", "to"),
            any_time=True,
        ),
        Action(
            "set_initiative",
            _check_set_initiative,
            _run_set_initiative,
            frozenset({"order"}),
            ("order",),
            any_time=True,
        ),
    )
}
