"""The third action (R-TA-3): its kinds, their checks and effects, its three timing windows, and
what ``legal_commands`` and the tracker are told about it (:func:`third_action_options`).

One check serves the three ways in: ``do: third`` on its own turn (or the kind's id as ``do``,
which ends the turn too), the end-of-round window, and the press window.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ...engine.commands import Command, Square
from ...engine.core import pending_refusal
from ...engine.errors import IllegalCommand
from ...engine.grid import DIRECTIONS, OPPOSITE, fmt_square
from ...engine.state import Combatant, Window
from ...i18n import N_, _
from ...vocabulary import label
from ..base import illegal
from .combat import enemies, in_zoc
from .hands import draw, held_item, sheathe
from .movement import DISENGAGE, STEP, Walk, walk
from .state import data
from .third_rules import KINDS, PRESS, ROUND_END, TURN, ThirdChoices, ThirdContext, spend_third, third_blocker

if TYPE_CHECKING:
    from ...engine.core import Encounter, Step

Args = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Kind:
    """One kind of third action: the command fields it takes, its pure check (returns a plan),
    its effect, the arguments worth offering, and the reason when there is none to offer."""

    id: str
    fields: frozenset[str]
    check: Callable[[Encounter, Combatant, Command], Any]
    run: Callable[[Encounter, Combatant, Any], Step]
    offers: Callable[[Encounter, Combatant], Iterable[Args]]
    nothing: str
    """Why there is none to offer (an ``N_``-marked message with ``{a}``, translated when shown), or ""."""


# -- the squares a step may go to (R-TA-MOV-2) ------------------------------------------------------
def ahead(c: Combatant, facing: str | None = None) -> Square:
    dx, dy = DIRECTIONS[facing or c.facing or "N"]
    return (c.pos[0] + dx, c.pos[1] + dy)


def behind(c: Combatant) -> Square:
    return ahead(c, OPPOSITE[c.facing or "N"])


def check_free_neighbour(enc: Encounter, c: Combatant, to: Square) -> int:
    """A one-square step to ``to``: on the map, no wall, no corner cut, free. Returns its units."""
    units = enc.grid.check_path(c.name, c.pos, (to,))
    other = enc.occupied.get(to)
    if other is not None and other is not c:
        raise illegal(
            "bad_path", _("{a}: {sq} is occupied by {o}"), a=c.name, sq=fmt_square(to), o=other.name
        )
    return units[0]


# -- the kinds (R-TA-3-3) ---------------------------------------------------------------------------
def _check_defend(enc: Encounter, c: Combatant, cmd: Command) -> None:
    return None


def _run_defend(enc: Encounter, c: Combatant, plan: None) -> Step:
    spend_third(enc, c, "defend")
    # +ac_bonus AC (variant terza.defend.ac_bonus) until the start of its next turn
    enc.ruleset.add_condition(enc, c, "defending", {"round": enc.round + 1, "turn_of": c.id})
    return
    yield


def _check_step(enc: Encounter, c: Combatant, cmd: Command) -> Walk:
    if cmd.to is None:
        raise illegal("invalid_command", _("{a}: step needs 'to'"), a=c.name)
    if cmd.to not in (ahead(c), behind(c)):
        raise illegal(
            "bad_path",
            _("{a}: a step goes one square straight forward or back (facing {f}: {fw} or {bw})"),
            a=c.name,
            f=label("direction", c.facing or "N"),
            fw=fmt_square(ahead(c)),
            bw=fmt_square(behind(c)),
        )
    return Walk((cmd.to,), (check_free_neighbour(enc, c, cmd.to),), STEP)


def _run_walk(kind: str) -> Callable[[Encounter, Combatant, Walk], Step]:
    def run(enc: Encounter, c: Combatant, plan: Walk) -> Step:
        spend_third(enc, c, kind, to=[plan.path[0][0], plan.path[0][1]])
        # R-TA-3-6: a step into or out of an enemy zone always provokes (reason step)
        yield from walk(enc, c, plan)

    return run


def _step_offers(enc: Encounter, c: Combatant) -> list[Args]:
    return [{"to": s} for s in (ahead(c), behind(c)) if enc.grid.inside(s)]


def _check_disengage(enc: Encounter, c: Combatant, cmd: Command) -> Walk:
    if not enc.variants["terza.third_action.disengage"]:
        raise illegal(
            "not_allowed",
            _("the third action disengage is removed for the trial (variant terza.third_action.disengage)"),
        )
    if not any(in_zoc(enc, e, c.pos) for e in enemies(enc, c)):
        raise illegal("not_allowed", _("{a} is not in melee: there is nothing to disengage from"), a=c.name)
    if cmd.to is None:
        raise illegal("invalid_command", _("{a}: disengage needs 'to'"), a=c.name)
    return Walk((cmd.to,), (check_free_neighbour(enc, c, cmd.to),), DISENGAGE)


def _disengage_offers(enc: Encounter, c: Combatant) -> list[Args]:
    return [{"to": n} for n, _diagonal in enc.grid.neighbours(c.pos)]


def _check_rotate(enc: Encounter, c: Combatant, cmd: Command) -> str:
    if cmd.facing is None:
        raise illegal("invalid_command", _("{a}: rotate needs 'facing'"), a=c.name)
    if cmd.facing not in DIRECTIONS:
        raise illegal("invalid_command", _("{f!r} is not a facing (N NE E SE S SW W NW)"), f=cmd.facing)
    if cmd.facing == c.facing:
        raise illegal("not_allowed", _("{a} already faces {f}"), a=c.name, f=label("direction", cmd.facing))
    return cmd.facing


def _run_rotate(enc: Encounter, c: Combatant, facing: str) -> Step:
    spend_third(enc, c, "rotate", facing=facing)
    c.facing = facing  # R-TA-MOV-2
    return
    yield


def _rotate_offers(enc: Encounter, c: Combatant) -> list[Args]:
    return [{"facing": f} for f in DIRECTIONS if f != c.facing]


def _check_draw(enc: Encounter, c: Combatant, cmd: Command) -> str:
    return held_item(c, cmd.weapon, in_hand=False, shield_too=False)  # the shield: kind shield


def _check_sheathe(enc: Encounter, c: Combatant, cmd: Command) -> str:
    return held_item(c, cmd.weapon, in_hand=True, shield_too=False)


def _run_draw(enc: Encounter, c: Combatant, wid: str) -> Step:
    spend_third(enc, c, "draw", weapon=wid)
    draw(c, wid)
    return
    yield


def _run_sheathe(enc: Encounter, c: Combatant, wid: str) -> Step:
    spend_third(enc, c, "sheathe", weapon=wid)
    yield from sheathe(enc, c, wid)


def _weapon_offers(in_hand: bool) -> Callable[[Encounter, Combatant], list[Args]]:
    def offers(enc: Encounter, c: Combatant) -> list[Args]:
        return [{"weapon": w} for w in data(c).p.weapons if (w in c.wielding) == in_hand]

    return offers


def _check_shield(enc: Encounter, c: Combatant, cmd: Command) -> str:
    shield = data(c).p.shield
    if shield is None:
        raise illegal("not_allowed", _("{a} has no shield"), a=c.name)
    if shield.id in c.wielding:
        raise illegal("not_allowed", _("{a} already holds its shield"), a=c.name)
    return shield.id


def _shield_offers(enc: Encounter, c: Combatant) -> list[Args]:
    return [{}] if data(c).p.shield is not None else []


def _run_shield(enc: Encounter, c: Combatant, sid: str) -> Step:
    spend_third(enc, c, "shield", weapon=sid)
    draw(c, sid)
    return
    yield


def _check_press(enc: Encounter, c: Combatant, cmd: Command) -> None:
    return None  # only ever offered in its own window (R-TA-3-2 c); resolved by offer_press


def _run_press(enc: Encounter, c: Combatant, plan: None) -> Step:
    raise AssertionError("press is resolved where it is offered (third_rules.offer_press)")
    yield


def _always(enc: Encounter, c: Combatant) -> list[Args]:
    return [{}]


KIND_TABLE: dict[str, Kind] = {
    k.id: k
    for k in (
        Kind("defend", frozenset(), _check_defend, _run_defend, _always, ""),
        Kind(
            "step",
            frozenset({"to"}),
            _check_step,
            _run_walk("step"),
            _step_offers,
            N_("there is no square straight forward or back"),
        ),
        Kind(
            "disengage",
            frozenset({"to"}),
            _check_disengage,
            _run_walk("disengage"),
            _disengage_offers,
            N_("there is no square to step to"),
        ),
        Kind("rotate", frozenset({"facing"}), _check_rotate, _run_rotate, _rotate_offers, ""),
        Kind(
            "draw",
            frozenset({"weapon"}),
            _check_draw,
            _run_draw,
            _weapon_offers(in_hand=False),
            N_("{a} has no weapon to draw: every one is in hand"),
        ),
        Kind("shield", frozenset(), _check_shield, _run_shield, _shield_offers, N_("{a} has no shield")),
        Kind("press", frozenset(), _check_press, _run_press, _always, ""),
        Kind(
            "sheathe",
            frozenset({"weapon"}),
            _check_sheathe,
            _run_sheathe,
            _weapon_offers(in_hand=True),
            N_("{a} holds no weapon to sheathe"),
        ),
    )
}
assert tuple(KIND_TABLE) == KINDS


# -- one check for every way in ---------------------------------------------------------------------
def kind_of(cmd: Command) -> str | None:
    return cmd.kind if cmd.do == "third" else cmd.do


def window_reason(kind: str, when: str) -> str | None:
    """R-TA-3-2: press only in its window, and nothing but press there."""
    if kind == "press" and when != PRESS:
        return _("press is only for when an adjacent enemy leaves your zone of control")
    if kind != "press" and when == PRESS:
        return _("only press answers an enemy leaving your zone of control")
    return None


def check_third(enc: Encounter, c: Combatant, cmd: Command, when: str) -> tuple[Kind, Any]:
    """Everything a third action of ``c`` needs now; returns the kind and its plan."""
    name = kind_of(cmd)
    kind = KIND_TABLE.get(name or "")
    if kind is None:
        raise illegal(
            "invalid_command", _("{k!r} is not a kind of third action ({all})"), k=name, all=", ".join(KINDS)
        )
    extra = set(cmd.given()) - {"actor", "do"} - ({"kind"} if cmd.do == "third" else set()) - kind.fields
    if extra:
        raise illegal("invalid_command", _("{a}: {k} does not take {f!r}"), a=c.name, k=kind.id, f=min(extra))
    blocker = third_blocker(enc, c)
    if blocker is not None:
        raise IllegalCommand(*blocker)  # R-TA-3-4, with the reason in the message
    reason = window_reason(kind.id, when)
    if reason is not None:
        raise IllegalCommand("not_allowed", reason)
    return kind, kind.check(enc, c, cmd)


def kind_reason(enc: Encounter, c: Combatant, kind: Kind) -> str | None:
    """Why ``kind`` has nothing to offer ``c`` now (given the general limits pass), or None: every
    distinct reason its offers fail for (step: forward and back), or why there is none to offer."""
    reasons: list[str] = []
    for args in kind.offers(enc, c):
        try:
            kind.check(enc, c, Command(actor=c.id, do=kind.id, **args))
        except IllegalCommand as exc:
            if exc.message not in reasons:
                reasons.append(exc.message)
            continue
        return None
    if reasons:
        return "; ".join(reasons)
    return _(kind.nothing).format(a=c.name) if kind.nothing else ""


def options(enc: Encounter, c: Combatant, when: str) -> list[tuple[str, str | None]]:
    """Every kind, with None when it is allowed now, else the reason it is not."""
    blocker = third_blocker(enc, c)
    out: list[tuple[str, str | None]] = []
    for kind in KIND_TABLE.values():
        if blocker is not None:
            out.append((kind.id, blocker[1]))
        else:
            out.append((kind.id, window_reason(kind.id, when) or kind_reason(enc, c, kind)))
    return out


def allowed_kinds(enc: Encounter, c: Combatant, when: str) -> list[str]:
    return [k for k, reason in options(enc, c, when) if reason is None]


def when_for(enc: Encounter, c: Combatant) -> str | None:
    """Which third-action window ``c`` is in now: its turn, a pending window of its own, or none."""
    w = enc.pending
    if w is not None:
        return w.context.when if w.actor == c.id and isinstance(w.context, ThirdContext) else None
    return TURN if enc.current is c else None


def third_action_options(enc: Encounter, c: Combatant) -> list[tuple[str, str | None]]:
    when = when_for(enc, c)
    if when is not None:
        return options(enc, c, when)
    if enc.pending is not None and enc.pending.actor != c.id:
        why = _("{who} must decide first").format(who=enc.combatants[enc.pending.actor].name)
    else:
        why = _(
            "{a} may take its third action at the end of its turn, at the end of the round, or to press"
        ).format(a=c.name)
    return [(k, why) for k in KINDS]


def concrete(enc: Encounter, c: Combatant, when: str) -> Iterator[tuple[str, Args]]:
    """Every allowed (kind, arguments) pair now."""
    for name in allowed_kinds(enc, c, when):
        kind = KIND_TABLE[name]
        for args in kind.offers(enc, c):
            try:
                kind.check(enc, c, Command(actor=c.id, do=name, **args))
            except IllegalCommand:
                continue
            yield name, args


# -- on its own turn (R-TA-3-2 a) --------------------------------------------------------------------
def check_third_turn(enc: Encounter, c: Combatant, cmd: Command) -> tuple[Kind, Any]:
    return check_third(enc, c, cmd, TURN)


def run_third_turn(enc: Encounter, c: Combatant, cmd: Command, plan: tuple[Kind, Any]) -> Step:
    kind, kplan = plan
    yield from kind.run(enc, c, kplan)
    yield from enc.ruleset.end_turn(enc, c)  # the third action ends its turn


def third_candidates(enc: Encounter, c: Combatant) -> Iterator[Command]:
    if when_for(enc, c) != TURN:
        return
    for name, args in concrete(enc, c, TURN):
        yield Command(actor=c.id, do="third", kind=name, **args)


# -- the windows (R-TA-3-2 b, c) ---------------------------------------------------------------------
def round_end_windows(enc: Encounter) -> Step:
    """After the last turn: each combatant with an eligible third action, in initiative order."""
    for c in list(enc.order):
        allowed = allowed_kinds(enc, c, ROUND_END)
        if not allowed:
            continue
        trigger = {"type": "round_end", "round": enc.round}
        answer = yield Window(c.id, ThirdChoices((*allowed, "decline")), trigger, ThirdContext(ROUND_END))
        if answer.do == "decline":
            continue
        kind, kplan = check_third(enc, c, answer, ROUND_END)  # pure: the same check as check_answer
        yield from kind.run(enc, c, kplan)


def check_third_answer(enc: Encounter, window: Window, cmd: Command) -> None:
    assert isinstance(window.context, ThirdContext)
    if cmd.do == "decline":
        if len(cmd.given()) > 2:
            raise illegal("invalid_command", _("{a}: decline takes no other field"), a=cmd.actor)
        return
    name = kind_of(cmd)
    if name is None:
        raise illegal("invalid_command", _("{a}: third needs 'kind'"), a=cmd.actor)
    if not tuple.__contains__(window.choices, name):
        raise pending_refusal(enc, window)
    check_third(enc, enc.combatants[cmd.actor], cmd, window.context.when)


def third_answer_candidates(enc: Encounter, window: Window) -> Iterator[Command]:
    assert isinstance(window.context, ThirdContext)
    c = enc.combatants[window.actor]
    for name, args in concrete(enc, c, window.context.when):
        yield Command(actor=c.id, do=name, **args)
    yield Command(actor=c.id, do="decline")
