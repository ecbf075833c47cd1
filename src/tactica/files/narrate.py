"""The readable log: one line of text per event, in the current language (rich markup)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..i18n import _

Event = dict[str, Any]


def _sq(v: Any) -> str:
    return f"[{v[0]},{v[1]}]" if isinstance(v, list) else str(v)


def _m(v: float) -> str:
    return f"{v:g} m"


def _mods(ev: Event) -> str:
    parts = [f"{m['value']:+d} {m['source']}" for m in ev.get("modifiers", [])]
    return " ".join(parts)


def _attack(e: Event) -> str:
    verdict = _("[bold green]hits[/]") if e["hit"] else _("[red]misses[/]")
    if e.get("critical"):
        verdict = _("[bold magenta]critical hit[/]")
    conf = e.get("confirm")
    conf_text = ""
    if conf:
        conf_text = " " + _("(confirm d20={r} → {t})").format(r=conf["roll"], t=conf["total"])
    return _("{a} attacks {t} with {w} ({kind}): d20={r} {mods} = {total} vs {vs}: {verdict}{conf}").format(
        a=e["attacker"],
        t=e["target"],
        w=e["weapon"],
        kind=_(e["kind"]),
        r=e["roll"],
        mods=_mods(e),
        total=e["total"],
        vs=e["vs"],
        verdict=verdict,
        conf=conf_text,
    )


def _check(e: Event) -> str:
    result = _("[green]success[/]") if e["success"] else _("[red]failure[/]")
    dc = "" if e.get("dc") is None else _(" vs DC {dc}").format(dc=e["dc"])
    return _("{a} rolls {check}: d20={r} → {t}{dc}: {result}").format(
        a=e["actor"], check=_(e["check"]), r=e["roll"], t=e["total"], dc=dc, result=result
    )


def _condition(e: Event) -> str:
    if e["added"]:
        return _("{a} is now {c}").format(a=e["actor"], c=_(e["condition"]))
    return _("{a} is no longer {c}").format(a=e["actor"], c=_(e["condition"]))


def _initiative(e: Event) -> str:
    rolls = e.get("rolls") or {}
    if rolls:
        listing = ", ".join(f"{c} ({rolls[c]})" for c in e["order"])
    else:
        listing = ", ".join(e["order"])
    return _("[bold]Initiative[/]: {order}").format(order=listing)


NARRATORS: dict[str, Callable[[Event], str]] = {
    "round_started": lambda e: _("[bold cyan]── Round {n} ──[/]").format(n=e["round"]),
    "round_ended": lambda e: _("[dim]end of round {n}[/]").format(n=e["round"]),
    "turn_started": lambda e: _("[bold]{a}'s turn[/]").format(a=e["actor"]),
    "turn_ended": lambda e: _("[dim]{a} ends the turn[/]").format(a=e["actor"]),
    "initiative": _initiative,
    "action": lambda e: _("{a}: {action} ({cost})").format(
        a=e["actor"], action=_(e["action"]), cost=", ".join(_(c) for c in e["cost"]) or _("free")
    ),
    "moved": lambda e: _("{a} moves {frm} → {to} ({m})").format(
        a=e["actor"], frm=_sq(e["from"]), to=_sq(e["to"]), m=_m(e["metres"])
    ),
    "opportunity": lambda e: _("[yellow]{p} provokes an opportunity from {by} ({reason})[/]").format(
        p=e["provoker"], by=e["by"], reason=_(e["reason"])
    ),
    "attack": _attack,
    "damage": lambda e: _("{t} takes [bold red]{n}[/] damage from {s} (hp {hp})").format(
        t=e["target"], n=e["amount"], s=e["source"], hp=e["hp"]
    ),
    "check": _check,
    "spell_started": lambda e: _("{c} begins casting {s}").format(c=e["caster"], s=e["spell"]),
    "spell_cast": lambda e: _("[magenta]{c} casts {s}[/] on {t}").format(
        c=e["caster"], s=e["spell"], t=", ".join(e["targets"]) or _("nobody")
    ),
    "spell_lost": lambda e: _("[red]{c} loses {s}[/] ({reason})").format(
        c=e["caster"], s=e["spell"], reason=_(e["reason"])
    ),
    "condition": _condition,
    "reaction": lambda e: _("{a} reacts: {r} against {x} (penalty {p})").format(
        a=e["actor"], r=_(e["reaction"]), x=e["against"], p=e["penalty"]
    ),
    "resource": lambda e: _("{a}: {r} now {v} ({d:+})").format(
        a=e["actor"], r=_(e["resource"]), v=e["value"], d=e["delta"]
    ),
    "state": lambda e: _("[bold]{a} is {s}[/]").format(a=e["actor"], s=_(e["state"])),
    "gm": lambda e: _("[blue]GM[/]: {w} {d}").format(w=_(e["what"]), d=e["detail"]),
}


NAME_FIELDS = ("actor", "attacker", "target", "provoker", "by", "caster", "against")


def narrate(event: Event, names: dict[str, str] | None = None) -> str:
    """One readable line for ``event``; ``names`` maps combatant ids to display names."""
    fn = NARRATORS.get(event["type"])
    if fn is None:
        return str(event)
    if names:
        event = {
            k: names.get(v, v) if k in NAME_FIELDS and isinstance(v, str) else v for k, v in event.items()
        }
        if "targets" in event:
            event["targets"] = [names.get(t, t) for t in event["targets"]]
    return fn(event)
