"""The readable log: one line of text per event, in the current language (rich markup).

Events carry the spec's identifiers (``five_foot_step``, ``enter_zoc``); the reader sees their labels
(:func:`tactica.vocabulary.label`), distances in the locale's format (``1,50 m``) and whole sentences.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..i18n import _, metres, ngettext, number
from ..vocabulary import label

Event = dict[str, Any]


def _sq(v: Any) -> str:
    return f"[{v[0]},{v[1]}]" if isinstance(v, list) else str(v)


def modifiers_text(ev: Event) -> str:
    """An attack's modifiers as the log shows them: ``+6 BAB +3 Str`` (a zero one reads ``0 Str``)."""
    parts = []
    for m in ev.get("modifiers", []):
        value = m["value"]
        parts.append(f"{number(value, sign=True)} {label('modifier', m['source'])}")
    return " ".join(parts)


def _attack(e: Event) -> str:
    verdict = _("[bold green]hits[/]") if e["hit"] else _("[red]misses[/]")
    if e.get("critical"):
        verdict = _("[bold magenta]critical hit[/]")
    fields = {
        "a": e["attacker"],
        "t": e["target"],
        "w": e["weapon"],
        "kind": label("attack", e["kind"]),
        "r": e["roll"],
        "mods": modifiers_text(e),
        "total": e["total"],
        "vs": e["vs"],
        "verdict": verdict,
    }
    conf = e.get("confirm")
    if conf:
        return _(
            "{a} attacks {t} with {w} ({kind}): d20={r} {mods} = {total} vs {vs}: {verdict} "
            "(confirm d20={cr} → {ct})"
        ).format(cr=conf["roll"], ct=conf["total"], **fields)
    return _("{a} attacks {t} with {w} ({kind}): d20={r} {mods} = {total} vs {vs}: {verdict}").format(
        **fields
    )


def _check(e: Event) -> str:
    result = _("[green]success[/]") if e["success"] else _("[red]failure[/]")
    fields = {"a": e["actor"], "check": label("check", e["check"]), "r": e["roll"], "t": e["total"]}
    if e.get("dc") is None:
        return _("{a} rolls {check}: d20={r} → {t}: {result}").format(result=result, **fields)
    return _("{a} rolls {check}: d20={r} → {t} vs DC {dc}: {result}").format(
        dc=e["dc"], result=result, **fields
    )


def _condition(e: Event) -> str:
    if e["added"]:
        return _("{a} is now {c}").format(a=e["actor"], c=label("condition", e["condition"]))
    return _("{a} is no longer {c}").format(a=e["actor"], c=label("condition", e["condition"]))


def _initiative(e: Event) -> str:
    rolls = e.get("rolls") or {}
    if rolls:
        listing = ", ".join(f"{c} ({rolls[c]})" for c in e["order"])
    else:
        listing = ", ".join(e["order"])
    return _("[bold]Initiative[/]: {order}").format(order=listing)


def _action(e: Event) -> str:
    # terza's third action names its kind (defend, step, ...): the reader sees that
    ident = e["kind"] if e["action"] == "third" and isinstance(e.get("kind"), str) else e["action"]
    cost = ", ".join(label("resource", c) for c in e["cost"])
    if not cost:
        # Translators: an action that costs nothing, as in "Valeros: draw (free)"
        cost = _("free")
    return _("{a}: {action} ({cost})").format(a=e["actor"], action=label("action", ident), cost=cost)


def _resource(e: Event) -> str:
    if e["resource"] == "movement_m":
        value, delta = metres(e["value"]), metres(e["delta"], sign=True)
    else:
        value, delta = number(e["value"]), number(e["delta"], sign=True)
    return _("{a}: {r} now {v} ({d})").format(
        a=e["actor"], r=label("resource", e["resource"]), v=value, d=delta
    )


def _gm(e: Event) -> str:
    what, d = e["what"], e.get("detail") or {}
    t = d.get("target", "")
    if what == "set_hp":
        return _("[blue]GM[/]: {t}'s hit points {was} → {hp}").format(t=t, was=d.get("was"), hp=d.get("hp"))
    if what == "add_condition":
        return _("[blue]GM[/]: {t} is now {c}").format(t=t, c=label("condition", str(d.get("condition"))))
    if what == "remove_condition":
        return _("[blue]GM[/]: {t} is no longer {c}").format(
            t=t, c=label("condition", str(d.get("condition")))
        )
    if what == "move_to":
        return _("[blue]GM[/]: {t} is placed {frm} → {to}").format(
            t=t, frm=_sq(d.get("from")), to=_sq(d.get("to"))
        )
    if what == "set_initiative":
        return _("[blue]GM[/]: initiative order {order}").format(order=", ".join(d.get("order") or []))
    if what == "set_facing":
        return _("[blue]GM[/]: {t} faces {f} (was {was})").format(
            t=t, f=label("direction", str(d.get("facing"))), was=label("direction", str(d.get("was")))
        )
    detail = ", ".join(f"{k}={v}" for k, v in d.items())
    return _("[blue]GM[/]: {w} {d}").format(w=label("action", what), d=detail)


NARRATORS: dict[str, Callable[[Event], str]] = {
    "round_started": lambda e: _("[bold cyan]── Round {n} ──[/]").format(n=e["round"]),
    "round_ended": lambda e: _("[dim]end of round {n}[/]").format(n=e["round"]),
    "turn_started": lambda e: _("[bold]{a}'s turn[/]").format(a=e["actor"]),
    "turn_ended": lambda e: _("[dim]{a} ends the turn[/]").format(a=e["actor"]),
    "initiative": _initiative,
    "action": _action,
    "moved": lambda e: _("{a} moves {frm} → {to} ({m})").format(
        a=e["actor"], frm=_sq(e["from"]), to=_sq(e["to"]), m=metres(e["metres"])
    ),
    "opportunity": lambda e: _("[yellow]{p} provokes an opportunity from {by} ({reason})[/]").format(
        p=e["provoker"], by=e["by"], reason=label("reason", e["reason"])
    ),
    "attack": _attack,
    "damage": lambda e: ngettext(
        "{t} takes [bold red]{n}[/] damage from {s} (hp {hp})",
        "{t} takes [bold red]{n}[/] damage from {s} (hp {hp})",
        e["amount"],
    ).format(t=e["target"], n=e["amount"], s=e["source"], hp=e["hp"]),
    "check": _check,
    "spell_started": lambda e: _("{c} begins casting {s}").format(c=e["caster"], s=e["spell"]),
    "spell_cast": lambda e: (
        _("[magenta]{c} casts {s}[/] on {t}").format(c=e["caster"], s=e["spell"], t=", ".join(e["targets"]))
        if e["targets"]
        else _("[magenta]{c} casts {s}[/] on nobody").format(c=e["caster"], s=e["spell"])
    ),
    "spell_lost": lambda e: _("[red]{c} loses {s}[/] ({reason})").format(
        c=e["caster"], s=e["spell"], reason=label("reason", e["reason"])
    ),
    "condition": _condition,
    "reaction": lambda e: _("{a} reacts: {r} against {x} (penalty {p})").format(
        a=e["actor"], r=label("reaction", e["reaction"]), x=e["against"], p=e["penalty"]
    ),
    "resource": _resource,
    "state": lambda e: _("[bold]{a} is {s}[/]").format(a=e["actor"], s=label("state", e["state"])),
    "gm": _gm,
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
        detail = event.get("detail")
        if isinstance(detail, dict):
            detail = dict(detail)
            if isinstance(detail.get("target"), str):
                detail["target"] = names.get(detail["target"], detail["target"])
            if isinstance(detail.get("order"), list):
                detail["order"] = [names.get(i, i) for i in detail["order"]]
            event["detail"] = detail
    return fn(event)
