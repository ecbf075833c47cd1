"""``tactica play``: run a fight in the terminal, for a GM without a browser.

The map is drawn with one cell per square, the initiative order and the current actor's economy
under it, then its legal commands numbered. Type a number to act (``N X Y`` for an action aimed at
a square: the cost and what it provokes are shown before you confirm), ``u`` to undo, ``t ID`` to
see the squares a combatant threatens, ``l`` for the log, ``hp ID N`` to set hit points, ``q`` to
leave. Every command goes through the same tracker as the web page and is saved in the same storage,
so a fight started here can be continued in the browser.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..engine.commands import Command, Square
from ..engine.core import GM
from ..engine.errors import IllegalCommand
from ..engine.grid import BLOCKED, DIFFICULT, VERY_DIFFICULT
from ..i18n import _, metres, ngettext
from ..vocabulary import label
from . import adapters
from .tracker import Access, Conflict, Forbidden, Live, Tracker
from .views import (
    ActionView,
    actions,
    chips,
    command_label,
    conditions,
    event_line,
    initials,
    side_colours,
    square_set,
    trigger_text,
)

TERRAIN_CHARS = {0: " · ", DIFFICULT: " ░ ", VERY_DIFFICULT: " ▒ ", BLOCKED: "███"}


@dataclass
class Choice:
    number: int
    label: str
    command: Command | None  # None: aimed on the map (needs X Y)
    view: ActionView | None = None


def say(console: Console, text: str, style: str) -> None:
    """Print ``text`` in ``style``, as it is (a name or a translation with brackets is no markup)."""
    console.print(Text(text, style=style))


def draw_map(live: Live, console: Console, highlight: set[Square] | None = None) -> None:
    enc = live.enc
    colours = side_colours(enc)
    tokens = {c.pos: c for c in enc.combatants.values() if c.state != "dead"}
    for c in enc.combatants.values():
        tokens.setdefault(c.pos, c)
    header = Text("    " + "".join(f"{x:^3}" for x in range(enc.grid.width)), style="dim")
    console.print(header)
    for y in range(enc.grid.height):
        line = Text(f"{y:>3} ", style="dim")
        for x in range(enc.grid.width):
            s = (x, y)
            who = tokens.get(s)
            back = " on dark_orange3" if highlight and s in highlight else ""
            if who is not None:
                mark = "✕" if who.state == "dead" else initials(who.name)
                style = f"bold {colours[who.side]}"
                if enc.current is who:
                    style += " reverse"
                line.append(f"{mark:^3}", style=style + back)
            else:
                kind = enc.grid.kind(s)
                line.append(TERRAIN_CHARS[kind], style=("grey50" if kind == 0 else "yellow4") + back)
        console.print(line)


def draw_status(live: Live, console: Console) -> None:
    enc = live.enc
    colours = side_colours(enc)
    t = Table(box=None, pad_edge=False, show_header=True, header_style="dim")
    for col in ("", _("combatant"), _("hp"), _("state"), _("conditions"), _("at")):
        t.add_column(col)
    for c in enc.order:
        mark = "▶" if enc.current is c else ("⚡" if enc.pending and enc.pending.actor == c.id else "")
        t.add_row(
            mark,
            Text(f"{initials(c.name)} {c.name}", style=colours[c.side]),
            f"{c.hp}/{c.max_hp}",
            label("state", c.state),
            ", ".join(conditions(enc, c)),
            f"[{c.pos[0]},{c.pos[1]}]",
        )
    console.print(t)


def choices_for(live: Live, access: Access) -> tuple[list[Choice], str | None]:
    """The numbered choices now, and who they are for (None: nobody can act)."""
    enc = live.enc
    names = live.names()
    who = enc.pending.actor if enc.pending is not None else enc.turn
    if who is None:
        return [], None
    out: list[Choice] = []
    for v in actions(enc, who):
        if not v.legal:
            continue
        if v.on_map:
            out.append(
                Choice(
                    len(out) + 1,
                    # Translators: a map action in `tactica play`: type its number, then the square's X Y
                    ngettext("{a} X Y  ({n} square)", "{a} X Y  ({n} squares)", len(v.commands)).format(
                        a=v.label[:1].upper() + v.label[1:], n=len(v.commands)
                    ),
                    None,
                    v,
                )
            )
            continue
        for cmd in v.commands:
            out.append(Choice(len(out) + 1, command_label(cmd, names), cmd, v))
    return out, who


def play(tracker: Tracker, access: Access, read: Callable[[str], str], console: Console) -> None:
    """The loop: draw, ask, apply, until ``q`` (or the input ends)."""
    live = tracker.live(access.table_id)
    highlight: set[Square] | None = None
    shown = len(live.enc.log)
    while True:
        live = tracker.live(access.table_id)
        enc = live.enc
        names = live.names()
        rnd = _("round {n}").format(n=enc.round)
        console.rule(Text.assemble((live.title, "bold"), f" · {rnd} · v{live.version}"))
        draw_map(live, console, highlight)
        highlight = None
        draw_status(live, console)
        outcome = enc.outcome()
        if outcome == "draw":
            say(console, "🏁 " + _("Nobody is left standing: a draw."), "bold green")
        elif outcome is not None:
            say(console, "🏁 " + _("The fight is over: {side} win.").format(side=outcome), "bold green")
        choices, who = choices_for(live, access)
        if enc.pending is not None:
            w = enc.pending
            asked = _("{who} may react: {why}").format(
                who=names.get(w.actor, w.actor), why=trigger_text(w.trigger, names)
            )
            say(console, "⚡ " + asked, "bold yellow")
        elif who is not None:
            c = enc.combatants[who]
            economy = Text("  ").join(
                Text(f"{ch.label}={ch.value}" if ch.value else ch.label, style="green" if ch.on else "dim")
                for ch in chips(enc, c, names)
            )
            console.print(Text.assemble(Text(f"▶ {c.name}", style="bold"), "  ", economy))
        for ch in choices:
            console.print(Text.assemble((f"  {ch.number:>2}", "cyan"), " ", ch.label))
        # Translators: the keys of `tactica play` (u, t, l, hp, q) stay as they are
        say(console, _("u undo · t ID threatened squares · l log · hp ID N · q quit"), "dim")
        try:
            line = read("> ").strip()
        except EOFError:
            return
        if not line:
            continue
        parts = line.split()
        head = parts[0].lower()
        try:
            if head in ("q", "quit", "exit"):
                return
            if head in ("u", "undo"):
                out = tracker.undo(access, live.version)
                taken = command_label(Command.from_json(out.message["command"]), names)
                say(console, "↶ " + _("undone: {command}").format(command=taken), "blue")
                shown = len(tracker.live(access.table_id).enc.log)
                continue
            if head in ("l", "log"):
                for block in tracker.event_log(live)[-8:]:
                    for ev in block["events"]:
                        ln = event_line(ev, names)
                        console.print(
                            Text.assemble(f"  {ln.text}", (f"  {ln.detail}" if ln.detail else "", "yellow"))
                        )
                continue
            if head == "t" and len(parts) == 2 and parts[1] in enc.combatants:
                highlight = set(adapters.threatened_squares(enc, enc.combatants[parts[1]]))
                continue
            if head == "hp" and len(parts) == 3:
                tracker.act(
                    access, live.version, Command(actor=GM, do="set_hp", target=parts[1], hp=int(parts[2]))
                )
            elif head.isdigit():
                n = int(head)
                picked = next((c for c in choices if c.number == n), None)
                if picked is None:
                    say(console, _("no choice {n}").format(n=n), "red")
                    continue
                cmd = picked.command
                if cmd is None:
                    cmd = _aimed(live, picked, parts[1:], console, read)
                    if cmd is None:
                        continue
                tracker.act(access, live.version, cmd)
            else:
                # Translators: the keys of `tactica play` stay as they are
                say(console, _("type a number, u, t ID, l, hp ID N or q"), "red")
                continue
        except IllegalCommand as exc:
            console.print(Text.assemble((f"✗ {exc.code}", "bold red"), ": ", exc.message))
            continue
        except (Forbidden, Conflict) as exc:
            console.print(Text.assemble(("✗", "bold red"), " ", str(exc)))
            continue
        except ValueError:
            say(console, _("hp needs a whole number"), "red")
            continue
        live = tracker.live(access.table_id)
        for events in live.enc.history[shown:]:
            for ev in events:
                if ev.get("type") != "action":
                    ln = event_line(ev, names)
                    console.print(
                        Text.assemble(f"  {ln.text}", (f"  {ln.detail}" if ln.detail else "", "yellow"))
                    )
        shown = len(live.enc.log)


def _aimed(
    live: Live, ch: Choice, args: list[str], console: Console, read: Callable[[str], str]
) -> Command | None:
    """The command of a map action for square ``X Y``, after showing its cost and what it provokes."""
    assert ch.view is not None
    if len(args) != 2 or not all(a.lstrip("-").isdigit() for a in args):
        say(console, _("give the square: {n} X Y").format(n=ch.number), "red")
        return None
    dest = (int(args[0]), int(args[1]))
    cmd = square_set(ch.view.commands).get(dest)
    if cmd is None:
        say(console, _("{a} cannot reach [{x},{y}] now").format(a=ch.view.label, x=dest[0], y=dest[1]), "red")
        return None
    p = adapters.preview(live.enc, cmd)
    names = live.names()
    cost = metres(p.metres) if p.metres is not None else "?"
    # Translators: a movement before it is confirmed: the command, then its cost in metres
    console.print(Text("  " + _("{command}: {cost}").format(command=command_label(cmd, names), cost=cost)))
    for square, ids in p.provokes:
        who = ", ".join(names.get(i, i) for i in ids)
        warning = _("leaving [{x},{y}] provokes {who}").format(x=square[0], y=square[1], who=who)
        say(console, f"  ⚠ {warning}", "bold red")
    if p.provokes:
        # Translators: y, yes, o, oui, s, si and sì are all understood as yes
        answer = read(_("go anyway? [y/N] ")).strip().lower()
        if answer not in ("y", "yes", "o", "oui", "s", "si", "sì"):
            return None
    return cmd
