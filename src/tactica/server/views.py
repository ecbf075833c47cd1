"""What the API answers and the page shows, built from a live table (ruleset-agnostic).

Everything here only reads the encounter: legal commands and the reason each refused action is
refused (``enc.why_illegal`` on a representative command), the economy as chips (the ruleset's
``resources`` dict), the map, the readable log with every roll's breakdown.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from rich.markup import escape
from rich.text import Text

from ..engine.commands import Command, Square
from ..engine.core import GM, Encounter
from ..engine.errors import IllegalCommand
from ..engine.grid import BLOCKED, DIFFICULT, VERY_DIFFICULT, chebyshev
from ..engine.state import Combatant
from ..files.narrate import modifiers_text, narrate
from ..i18n import N_, _, number
from ..rulesets.base import Action
from ..vocabulary import VOCABULARY, label, resource_value
from . import adapters
from .tracker import Live

SIDE_COLOURS = ("#3b82f6", "#ef4444", "#22c55e", "#f59e0b", "#a855f7", "#14b8a6", "#ec4899", "#64748b")
MAP_FIELDS = frozenset({"path", "to"})
TEXT_FIELDS = frozenset({"spell", "special", "item", "weapon", "target", "trigger", "kind", "pay", "by"})
NOTHING_TO_USE = {
    "spell": N_("{a} has no spell to use"),
    "special": N_("{a} has no special ability to use"),
    "item": N_("{a} has no item to use"),
    "weapon": N_("{a} has no weapon to use"),
    "target": N_("{a} has no target"),
}
"""Why an action is refused when a field it needs has nothing to be filled with (one sentence each:
the words agree differently in French and Italian)."""
HANDS = {"main": N_("main hand"), "off": N_("off hand")}
ROLES = {"gm": N_("GM"), "player": N_("player"), "spectator": N_("spectator")}


def data_label(ident: str) -> str:
    """A name the encounter file gives (a spell, a weapon, a special ability) as the file writes it,
    underscores as spaces: never the vocabulary's word (a weapon called ``shield`` is no action)."""
    return ident.replace("_", " ")


def role_label(role: str) -> str:
    """A link's role (``gm``, ``player``, ``spectator``) in words."""
    return _(ROLES[role]) if role in ROLES else role


class Grant(Protocol):
    """What a link grants (a :class:`~.storage.GrantRow` or an :class:`~.tracker.Access`)."""

    @property
    def role(self) -> str: ...

    @property
    def scope(self) -> Collection[str]: ...

    @property
    def label(self) -> str: ...


def grant_label(grant: Grant, enc: Encounter) -> str:
    """A link as a person reads it, from what it grants: its role, and for a player the side or the
    combatant its scope is (the label the tracker stored stays the API's ``label``, as it is)."""
    if grant.role == "gm":
        return _("GM")
    if grant.role == "spectator":
        return _("spectator")
    members = [enc.combatants[i] for i in grant.scope if i in enc.combatants]
    sides = {c.side for c in members}
    if len(sides) == 1:
        side = sides.pop()
        whole = {c.id for c in enc.combatants.values() if c.side == side}
        # a side of one has two links with the same scope: the combatant's own carries its name
        own = len(members) == 1 and grant.label == members[0].name
        if set(grant.scope) == whole and not own:
            # Translators: a player link for every combatant of one side (its name as the file gives it)
            return _("side {side}").format(side=side)
    return ", ".join(c.name for c in members) or grant.label


def author_labels(grants: Iterable[Grant], enc: Encounter) -> dict[str, str]:
    """The label each link was stored with (a log entry's ``author``) -> the link as a person reads
    it; a stored label two links share with different readings is left as it is."""
    shown: dict[str, set[str]] = {}
    for g in grants:
        shown.setdefault(g.label, set()).add(grant_label(g, enc))
    return {stored: words.pop() if len(words) == 1 else stored for stored, words in shown.items()}


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
            out.append(ActionView(choice, label("action", choice), cmds, reason, None, False))
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
                    why = NOTHING_TO_USE.get(missing[0])
                    text = _(why) if why else _("{a} has nothing to choose for this action")
                    reason = IllegalCommand("not_allowed", text.format(a=c.name))
            if reason is None:  # legal after all (a candidate the view did not list): offer it
                cmds = [example]
        out.append(
            ActionView(
                action.id, label("action", action.id), cmds, reason, example, bool(action.fields & MAP_FIELDS)
            )
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
    """A command as a button or a log title shows it: its action's label, then what it names
    (``Attack → Orc (longsword)``), every identifier in the reader's words."""
    parts = [label("action", cmd.do)] if with_action else []
    for named in (cmd.spell, cmd.special, cmd.ability, cmd.item):
        if named:
            parts.append(data_label(named))
    if cmd.target:
        parts.append("→ " + names.get(cmd.target, cmd.target))
    if cmd.targets:
        parts.append("→ " + ", ".join(names.get(t, t) for t in cmd.targets))
    if cmd.weapon:
        parts.append(f"({data_label(cmd.weapon)})")
    if cmd.hand:
        parts.append(_(HANDS[cmd.hand]) if cmd.hand in HANDS else cmd.hand)
    if cmd.metamagic:
        parts.append("+ " + ", ".join(data_label(m) for m in cmd.metamagic))
    if cmd.full_attack:
        parts.append(label("attack", "full_attack"))
    if cmd.defensively:
        parts.append(label("modifier", "defensively"))
    if cmd.to is not None:
        parts.append(f"→ [{cmd.to[0]},{cmd.to[1]}]")
    if cmd.path:
        parts.append(f"→ [{cmd.path[-1][0]},{cmd.path[-1][1]}]")
    if cmd.kind is not None:  # a kind of third action (terza)
        parts.append(label("action", cmd.kind))
    if cmd.facing is not None:  # a compass direction: N, NE, ...
        parts.append(label("direction", cmd.facing))
    if cmd.trigger is not None:  # what releases a held action (lagornis)
        parts.append(label("reason", cmd.trigger))
    if cmd.by is not None:
        parts.append(names.get(cmd.by, cmd.by))
    if cmd.pay is not None:  # which part of the economy pays
        parts.append(label("resource", cmd.pay))
    if cmd.condition is not None:
        parts.append(label("condition", cmd.condition))
    if cmd.then is not None:  # the held command
        parts.append("⇒ " + command_label(cmd.then, names))
    if cmd.amount is not None:
        parts.append(number(cmd.amount))
    if cmd.hp is not None:
        parts.append(_("hp {n}").format(n=cmd.hp))
    if cmd.order:
        parts.append(", ".join(names.get(i, i) for i in cmd.order))
    text = " ".join(parts)
    return text[:1].upper() + text[1:]


def trigger_text(trigger: dict[str, Any], names: dict[str, str]) -> str:
    """What opened a pending decision, in words."""

    def who(key: str) -> str:
        ident = str(trigger.get(key, ""))
        return names.get(ident, ident)

    kind = trigger.get("type")
    at = trigger.get("at")
    where = f" [{at[0]},{at[1]}]" if isinstance(at, list) and len(at) == 2 else ""
    if kind == "opportunity" or "provoker" in trigger:
        reason = label("reason", str(trigger.get("reason", "")))
        return _("{who} provokes ({reason}{where})").format(who=who("provoker"), reason=reason, where=where)
    if kind == "attack":
        return _("{attacker} attacks {target} with {weapon}").format(
            attacker=who("attacker"), target=who("target"), weapon=data_label(str(trigger.get("weapon", "")))
        )
    if kind == "hold":
        return _("{by} sets off the held action ({trigger}): {then}").format(
            by=who("by"),
            trigger=label("reason", str(trigger.get("trigger", ""))),
            then=label("action", str(trigger.get("then", ""))),
        )
    if kind == "press":
        return _("{who} leaves the zone of control{where}").format(who=who("mover"), where=where)
    if kind == "round_end":
        return _("the end of round {n}").format(n=trigger.get("round"))
    return ", ".join(f"{k}: {v}" for k, v in trigger.items())


# -- the economy ---------------------------------------------------------------------------------------
USAGE_WORDS = ("this_turn", "this_round", "used", "spent", "taken", "fatigue", "penalty")
"""Resource names that count what was used (0 is good), not what is left: shown as plain counts."""


@dataclass(frozen=True)
class Chip:
    """One entry of a combatant's economy (``Ruleset.resources``), as the page and the terminal show it."""

    label: str
    value: str
    on: bool
    usage: bool


def chip(key: str, value: Any, names: dict[str, str] | None = None) -> Chip:
    """What is left is on, what is spent off; a count of things used (``spells_this_turn``) is shown
    as it is; ``*_m`` is metres; a held action or an incantation is said in words."""
    words = label("resource", key[:-2] if key.endswith("_m") and key not in VOCABULARY["resource"] else key)
    usage = any(w in key for w in USAGE_WORDS)
    if value is None:
        return Chip(words, "", False, False)
    if isinstance(value, bool):
        return Chip(words, "", value, False)
    if isinstance(value, int | float):
        return Chip(words, resource_value(key, value), value > 0, usage)
    if isinstance(value, dict):
        return Chip(words, _described(value, names or {}), bool(value), usage)
    return Chip(words, data_label(str(value)), bool(value), usage)


def chips(enc: Encounter, c: Combatant, names: dict[str, str]) -> list[Chip]:
    """The economy of ``c`` (the ruleset's ``resources``) as chips, in the ruleset's order."""
    return [chip(k, v, names) for k, v in enc.ruleset.resources(enc, c).items()]


def conditions(enc: Encounter, c: Combatant) -> list[str]:
    """``c``'s conditions in words (those its state already says left out), in the reader's order."""
    return sorted(label("condition", k) for k in c.conditions if k not in enc.ruleset.state_conditions)


def _described(value: dict[str, Any], names: dict[str, str]) -> str:
    if "trigger" in value and isinstance(value.get("then"), dict):  # a held action
        try:
            then = command_label(Command.from_json(value["then"]), names)
        except IllegalCommand:
            then = label("action", str(value["then"].get("do")))
        return _("{command} when {trigger}").format(
            command=then, trigger=label("reason", str(value["trigger"]))
        )
    if "spell" in value and "progress" in value:  # an incantation under way
        return _("{spell}: {progress} of {cost}").format(
            spell=data_label(str(value["spell"])),
            progress=number(value["progress"]),
            cost=number(value.get("cost", 0)),
        )
    return ", ".join(f"{data_label(str(k))}: {v}" for k, v in value.items())


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


def labelled(ev: dict[str, Any], names: dict[str, str]) -> dict[str, Any]:
    """``ev`` with the file's own words readable (``long_sword`` -> "long sword") and its order by
    name, for the narrator, which puts the spec's identifiers into words itself (the API keeps the
    identifiers: this copy is only for reading). The narrator writes rich markup: the file's words
    are escaped, and ``names`` should be."""
    shown = dict(ev)
    for key in ("spell", "weapon", "source"):
        if isinstance(shown.get(key), str) and shown[key] not in names:
            shown[key] = escape(data_label(shown[key]))
    if isinstance(shown.get("order"), list):
        shown["order"] = [names.get(i, i) for i in shown["order"]]
        shown["rolls"] = {names.get(k, k): v for k, v in (shown.get("rolls") or {}).items()}
    return shown


def attack_text(ev: dict[str, Any], names: dict[str, str]) -> str:
    """An attack in words, with its outcome (the roll goes to the line's detail)."""
    fields = {
        "a": names.get(ev["attacker"], ev["attacker"]),
        "t": names.get(ev["target"], ev["target"]),
        "w": data_label(str(ev.get("weapon", ""))),
    }
    kind = str(ev.get("kind") or "normal")
    if kind != "normal":  # an attack of opportunity, a full attack's
        fields["kind"] = label("attack", kind)
        if ev.get("critical"):
            return _("{a} attacks {t} with {w} ({kind}) — critical hit").format(**fields)
        if ev.get("hit"):
            return _("{a} attacks {t} with {w} ({kind}) — hit").format(**fields)
        return _("{a} attacks {t} with {w} ({kind}) — miss").format(**fields)
    if ev.get("critical"):
        return _("{a} attacks {t} with {w} — critical hit").format(**fields)
    if ev.get("hit"):
        return _("{a} attacks {t} with {w} — hit").format(**fields)
    return _("{a} attacks {t} with {w} — miss").format(**fields)


def event_line(ev: dict[str, Any], names: dict[str, str]) -> LogLine:
    kind = str(ev.get("type"))
    if kind == "attack":
        text = attack_text(ev, names)
    else:  # the narrator's markup, its words read as they are (a name may hold brackets)
        shown = {k: escape(v) for k, v in names.items()}
        text = plain(narrate(labelled(ev, shown), shown))
    detail = ""
    if kind == "damage" and ev.get("rolls"):
        dice = [int(f) for f in ev["rolls"]]
        rest = int(ev["amount"]) - sum(dice)  # the modifiers (all of them, for a critical)
        detail = _("dice {faces}").format(faces=" + ".join(map(str, dice)))
        detail += (f" {number(rest, sign=True)}" if rest else "") + f" = {ev['amount']}"
    elif kind == "attack":
        mods = modifiers_text(ev)
        # Translators: an attack roll: the d20's face, the modifiers, the total against the defence
        detail = _("d20 {roll} {mods} = {total} vs {vs}").format(
            roll=ev["roll"], mods=mods, total=ev["total"], vs=ev["vs"]
        )
        if ev.get("confirm"):
            cf = ev["confirm"]
            detail += " · " + _("confirm d20 {r} = {t}").format(r=cf["roll"], t=cf["total"])
    elif kind == "check":
        if ev.get("dc") is None:
            detail = f"d20 {ev['roll']} → {ev['total']}"
        else:
            # Translators: a check's roll: the d20's face, the total, the difficulty class
            detail = _("d20 {roll} → {total} vs DC {dc}").format(
                roll=ev["roll"], total=ev["total"], dc=ev["dc"]
            )
    elif kind == "initiative" and ev.get("rolls"):
        faces = ev.get("faces") or {}
        detail = ", ".join(
            f"{names.get(c, c)} {ev['rolls'][c]}" + (f" (d20 {faces[c]})" if c in faces else "")
            for c in ev["order"]
        )
    if kind == "attack":
        kind = "attack hit" if ev.get("hit") else "attack miss"
    return LogLine(kind, text, detail)


def log_blocks(
    entries: list[dict[str, Any]], names: dict[str, str], authors: Mapping[str, str] | None = None
) -> list[LogBlock]:
    """The event log (``Tracker.event_log``) as readable blocks, newest first; ``authors`` (from
    :func:`author_labels`) says who wrote each entry in words."""
    out = []
    for e in entries:
        if e.get("step") == "start":
            block = LogBlock(_("The fight begins"), "", seq=0)
        else:
            cmd = Command.from_json(e["command"])
            who = _("GM") if cmd.actor == GM else names.get(cmd.actor, cmd.actor)
            # Translators: a log entry's title: who acted, and the command (its label)
            title = _("{who}: {command}").format(who=who, command=command_label(cmd, names))
            author = str(e.get("author", ""))
            block = LogBlock(title, (authors or {}).get(author, author), seq=e["seq"])
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
