"""What the API answers and the page shows, built from a live table (ruleset-agnostic).

Everything here only reads the encounter: legal commands and the reason each refused action is
refused (``enc.why_illegal`` on a representative command), the economy as chips (the ruleset's
``resources`` dict), the map, the readable log with every roll's breakdown.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from rich.text import Text

from ..engine.commands import Command, Square
from ..engine.core import GM, Encounter
from ..engine.errors import IllegalCommand
from ..engine.grid import BLOCKED, DIFFICULT, VERY_DIFFICULT, chebyshev
from ..engine.state import Combatant
from ..files.narrate import narrate
from ..i18n import _
from ..rulesets.base import Action
from . import adapters
from .tracker import Live

SIDE_COLOURS = ("#3b82f6", "#ef4444", "#22c55e", "#f59e0b", "#a855f7", "#14b8a6", "#ec4899", "#64748b")
MAP_FIELDS = frozenset({"path", "to"})
TEXT_FIELDS = frozenset({"spell", "special", "item", "weapon", "target", "trigger", "kind", "pay", "by"})
NICE = {
    "five_foot_step": "5-ft step",
    "opportunity_attacks": "opportunity attacks",
    "opportunity_attack": "attack of opportunity",
    "full_round": "full-round",
    "end_turn": "end turn",
    "draw_weapon": "draw",
    "use_ability": "use",
    "abandon_spell": "abandon spell",
    "set_hp": "set hp",
    "move_to": "place",
}


def pretty(name: str) -> str:
    """A readable label for an id (``five_foot_step`` -> ``5-ft step``), translated."""
    return _(NICE.get(name, name.replace("_", " ")))


# -- the API's views -------------------------------------------------------------------------------
def state(live: Live) -> dict[str, Any]:
    """The table's state: the engine's view plus what a client needs to draw it."""
    enc = live.enc
    view = enc.view()
    for c in enc.combatants.values():
        v = view["combatants"][c.id]
        v["name"] = c.name
        v["side"] = c.side
    m = enc.setup.map
    return {
        "table": live.id,
        "title": live.title,
        "ruleset": live.ruleset,
        "version": live.version,
        "outcome": enc.outcome(),
        "order": [c.id for c in enc.order],
        "map": {
            "width": m.width,
            "height": m.height,
            "square_m": m.square_m,
            "difficult": [list(s) for s in m.difficult],
            "very_difficult": [list(s) for s in m.very_difficult],
            "blocked": [list(s) for s in m.blocked],
        },
        **view,
    }


def nearest_enemy(enc: Encounter, c: Combatant) -> Combatant | None:
    foes = [o for o in enc.order if o.side != c.side and o.state != "dead"]
    return min(foes, key=lambda o: (chebyshev(c.pos, o.pos), o.index)) if foes else None


def representative(enc: Encounter, c: Combatant, action: Action) -> Command:
    """A command of ``action`` worth asking why it is refused: the ruleset's first candidate, else
    one with its required fields filled plausibly (nearest enemy, first weapon, next square)."""
    if action.candidates is not None:
        for cmd in action.candidates(enc, c):
            return cmd
    given: dict[str, Any] = {}
    foe = nearest_enemy(enc, c)
    step = next((n for n, _d in enc.grid.neighbours(c.pos)), None)
    for f in action.required:
        if f == "target" and foe is not None:
            given["target"] = foe.id
        elif f == "targets" and foe is not None:
            given["targets"] = (foe.id,)
        elif f == "weapon" and c.wielding:
            given["weapon"] = c.wielding[0]
        elif f == "path" and step is not None:
            given["path"] = (step,)
        elif f == "to" and step is not None:
            given["to"] = step
    return Command(actor=c.id, do=action.id, **given)


@dataclass
class ActionView:
    do: str
    label: str
    commands: list[Command]
    reason: IllegalCommand | None
    example: Command | None
    on_map: bool

    @property
    def legal(self) -> bool:
        return bool(self.commands)


def actions(enc: Encounter, actor: str) -> list[ActionView]:
    """Every action of the ruleset for ``actor``: its legal commands, or why it is refused.
    While a decision is pending for ``actor``, only the answers."""
    c = enc.combatants.get(actor)
    if c is None:
        return []
    legal = list(enc.legal_commands(actor))
    by_do: dict[str, list[Command]] = {}
    for cmd in legal:
        by_do.setdefault(cmd.do, []).append(cmd)
    out = []
    if enc.pending is not None and enc.pending.actor == actor:
        for choice in enc.pending.choices:
            cmds = by_do.get(choice, [])
            reason = None if cmds else enc.why_illegal(Command(actor=actor, do=choice))
            out.append(ActionView(choice, pretty(choice), cmds, reason, None, False))
        return out
    for action in enc.ruleset.actions.values():
        if action.id in enc.ruleset.answers:
            continue
        cmds = by_do.get(action.id, [])
        example = None
        reason = None
        if not cmds:
            example = representative(enc, c, action)
            reason = enc.why_illegal(example)
            missing = [f for f in action.required if getattr(example, f) is None]
            if missing and all(f in TEXT_FIELDS for f in missing):
                # nothing to fill a field with (no spell, no special ability): ask with a placeholder,
                # so the turn and economy checks still speak first, then say what is missing
                placeholder = Command.from_json(
                    {"actor": c.id, "do": action.id, **dict.fromkeys(missing, "-")}
                )
                reason = enc.why_illegal(placeholder)
                if reason is None or reason.code == "invalid_command":
                    reason = IllegalCommand(
                        "not_allowed", _("{a} has no {what} to use").format(a=c.name, what=pretty(missing[0]))
                    )
            if reason is None:  # legal after all (a candidate the view did not list): offer it
                cmds = [example]
        out.append(
            ActionView(action.id, pretty(action.id), cmds, reason, example, bool(action.fields & MAP_FIELDS))
        )
    return out


def legal_json(live: Live, actor: str) -> dict[str, Any]:
    enc = live.enc
    views = actions(enc, actor)
    return {
        "actor": actor,
        "version": live.version,
        "legal": [cmd.to_json() for v in views for cmd in v.commands],
        "refused": [
            {
                "do": v.do,
                "command": v.example.to_json() if v.example is not None else {"actor": actor, "do": v.do},
                "error": v.reason.to_json() if v.reason is not None else None,
            }
            for v in views
            if not v.legal
        ],
    }


# -- labels -------------------------------------------------------------------------------------------
def command_label(cmd: Command, names: dict[str, str], with_action: bool = True) -> str:
    parts = [pretty(cmd.do)] if with_action else []
    if cmd.spell:
        parts.append(pretty(cmd.spell))
    if cmd.special:
        parts.append(pretty(cmd.special))
    if cmd.item:
        parts.append(pretty(cmd.item))
    if cmd.target:
        parts.append("→ " + names.get(cmd.target, cmd.target))
    if cmd.targets:
        parts.append("→ " + ", ".join(names.get(t, t) for t in cmd.targets))
    if cmd.weapon:
        parts.append(f"({pretty(cmd.weapon)})")
    if cmd.hand:
        parts.append(_("{hand} hand").format(hand=_(cmd.hand)))
    if cmd.metamagic:
        parts.append("+ " + ", ".join(pretty(m) for m in cmd.metamagic))
    if cmd.full_attack:
        parts.append(_("full attack"))
    if cmd.defensively:
        parts.append(_("defensively"))
    if cmd.to is not None:
        parts.append(f"→ [{cmd.to[0]},{cmd.to[1]}]")
    if cmd.path:
        parts.append(f"→ [{cmd.path[-1][0]},{cmd.path[-1][1]}]")
    for f in ("kind", "facing", "trigger", "by", "pay", "condition"):
        v = getattr(cmd, f)
        if v is not None:
            parts.append(pretty(str(v)))
    if cmd.amount is not None:
        parts.append(f"{cmd.amount:g}")
    if cmd.hp is not None:
        parts.append(_("hp {n}").format(n=cmd.hp))
    text = " ".join(parts)
    return text[:1].upper() + text[1:]


def trigger_text(trigger: dict[str, Any], names: dict[str, str]) -> str:
    """What opened a pending decision, in words."""
    kind = trigger.get("type")
    who = names.get(str(trigger.get("provoker", "")), str(trigger.get("provoker", "")))
    reason = pretty(str(trigger.get("reason", "")))
    at = trigger.get("at")
    where = f" [{at[0]},{at[1]}]" if isinstance(at, list) and len(at) == 2 else ""
    if kind == "opportunity" or "provoker" in trigger:
        return _("{who} provokes ({reason}{where})").format(who=who, reason=reason, where=where)
    return ", ".join(f"{k}: {v}" for k, v in trigger.items())


# -- the readable log ------------------------------------------------------------------------------------
@dataclass
class LogLine:
    kind: str
    text: str
    detail: str = ""


@dataclass
class LogBlock:
    title: str
    author: str
    lines: list[LogLine] = field(default_factory=list)
    seq: int = 0


def plain(markup: str) -> str:
    try:
        return Text.from_markup(markup).plain
    except Exception:  # a name with brackets that rich reads as markup: show it as it is
        return markup


def gm_text(ev: dict[str, Any], names: dict[str, str]) -> str:
    """A GM override in words (the narrator shows its raw detail)."""
    d = ev.get("detail") if isinstance(ev.get("detail"), dict) else {}
    assert isinstance(d, dict)
    who = names.get(str(d.get("target")), str(d.get("target")))
    what = ev.get("what")
    if what == "set_hp":
        return _("GM sets {who}'s hp to {hp} (was {was})").format(who=who, hp=d.get("hp"), was=d.get("was"))
    if what == "add_condition":
        return _("GM: {who} is now {c}").format(who=who, c=pretty(str(d.get("condition"))))
    if what == "remove_condition":
        return _("GM: {who} is no longer {c}").format(who=who, c=pretty(str(d.get("condition"))))
    if what == "move_to" and isinstance(d.get("to"), list):
        return _("GM moves {who} to [{x},{y}]").format(who=who, x=d["to"][0], y=d["to"][1])
    if what == "set_initiative" and isinstance(d.get("order"), list):
        return _("GM sets the initiative: {order}").format(
            order=", ".join(names.get(i, i) for i in d["order"])
        )
    return _("GM: {what} {detail}").format(what=pretty(str(what)), detail=d)


def event_line(ev: dict[str, Any], names: dict[str, str]) -> LogLine:
    shown = dict(ev)
    for key in ("condition", "reason", "state", "action", "spell", "weapon", "check", "kind"):
        if isinstance(shown.get(key), str):
            shown[key] = pretty(shown[key])
    if isinstance(shown.get("order"), list):
        shown["order"] = [names.get(i, i) for i in shown["order"]]
        shown["rolls"] = {names.get(k, k): v for k, v in (shown.get("rolls") or {}).items()}
    text = gm_text(ev, names) if ev.get("type") == "gm" else plain(narrate(shown, names))
    detail = ""
    kind = str(ev.get("type"))
    if kind == "damage" and ev.get("rolls"):
        dice = [int(f) for f in ev["rolls"]]
        rest = int(ev["amount"]) - sum(dice)  # the modifiers (all of them, for a critical)
        detail = _("dice {faces}").format(faces=" + ".join(map(str, dice)))
        detail += (f" {rest:+d}" if rest else "") + f" = {ev['amount']}"
    elif kind == "attack":
        mods = " ".join(f"{m['value']:+d} {m['source']}" for m in ev.get("modifiers", []))
        detail = f"d20 {ev['roll']} {mods} = {ev['total']} vs {ev['vs']}"
        if ev.get("confirm"):
            cf = ev["confirm"]
            detail += " · " + _("confirm d20 {r} = {t}").format(r=cf["roll"], t=cf["total"])
        text = text.split(": d20=")[0] + (
            " — " + (_("critical hit") if ev.get("critical") else _("hit") if ev.get("hit") else _("miss"))
        )
    elif kind == "check":
        dc = "" if ev.get("dc") is None else f" vs DC {ev['dc']}"
        detail = f"d20 {ev['roll']} → {ev['total']}{dc}"
    elif kind == "initiative" and ev.get("rolls"):
        faces = ev.get("faces") or {}
        detail = ", ".join(
            f"{names.get(c, c)} {ev['rolls'][c]}" + (f" (d20 {faces[c]})" if c in faces else "")
            for c in ev["order"]
        )
    if kind == "attack":
        kind = "attack hit" if ev.get("hit") else "attack miss"
    return LogLine(kind, text, detail)


def log_blocks(entries: list[dict[str, Any]], names: dict[str, str]) -> list[LogBlock]:
    """The event log (``Tracker.event_log``) as readable blocks, newest first."""
    out = []
    for e in entries:
        if e.get("step") == "start":
            block = LogBlock(_("The fight begins"), "", seq=0)
        else:
            cmd = Command.from_json(e["command"])
            who = _("GM") if cmd.actor == GM else names.get(cmd.actor, cmd.actor)
            block = LogBlock(f"{who}: {command_label(cmd, names)}", e.get("author", ""), seq=e["seq"])
        block.lines = [event_line(ev, names) for ev in e["events"] if ev.get("type") != "action"]
        out.append(block)
    out.reverse()
    return out


# -- the map ---------------------------------------------------------------------------------------------
TERRAIN = {0: "", DIFFICULT: "difficult", VERY_DIFFICULT: "very-difficult", BLOCKED: "blocked"}


def side_colours(enc: Encounter) -> dict[str, str]:
    sides: dict[str, str] = {}
    for c in enc.combatants.values():
        if c.side not in sides:
            sides[c.side] = SIDE_COLOURS[len(sides) % len(SIDE_COLOURS)]
    return sides


def initials(name: str) -> str:
    words = [w for w in name.replace("_", " ").replace("-", " ").split() if w]
    if len(words) >= 2:
        return (words[0][0] + words[1][0]).upper()
    return name[:2].capitalize()


def hp_percent(c: Combatant) -> int:
    if c.max_hp <= 0:
        return 0
    return max(0, min(100, round(100 * c.hp / c.max_hp)))


def square_set(cmds: Iterable[Command]) -> dict[Square, Command]:
    """Destination square -> the (cheapest) legal command that ends there."""
    out: dict[Square, Command] = {}
    for cmd in cmds:
        path = adapters.movement_path(cmd)
        if path and path[-1] not in out:
            out[path[-1]] = cmd
    return out
