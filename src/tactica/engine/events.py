"""Events are the record (format.md section 6): plain JSON-ready dicts whose first key is ``type``.

The constructors here are the one place that spells each event's fields.
"""

from __future__ import annotations

from typing import Any

Event = dict[str, Any]
Square = tuple[int, int]


def sq(square: Square) -> list[int]:
    """A square in its JSON form."""
    return [square[0], square[1]]


def round_started(round_: int) -> Event:
    return {"type": "round_started", "round": round_}


def round_ended(round_: int) -> Event:
    return {"type": "round_ended", "round": round_}


def turn_started(actor: str, round_: int) -> Event:
    return {"type": "turn_started", "actor": actor, "round": round_}


def turn_ended(actor: str) -> Event:
    return {"type": "turn_ended", "actor": actor}


def initiative(order: list[str], rolls: dict[str, int], faces: dict[str, int]) -> Event:
    return {"type": "initiative", "order": order, "rolls": rolls, "faces": faces}


def action(actor: str, action_id: str, cost: list[str]) -> Event:
    return {"type": "action", "actor": actor, "action": action_id, "cost": cost}


def moved(actor: str, start: Square, end: Square, path: list[Square], metres: float) -> Event:
    return {
        "type": "moved",
        "actor": actor,
        "from": sq(start),
        "to": sq(end),
        "path": [sq(s) for s in path],
        "metres": metres,
    }


def opportunity(provoker: str, by: str, reason: str, at: Square) -> Event:
    return {"type": "opportunity", "provoker": provoker, "by": by, "reason": reason, "at": sq(at)}


def damage(target: str, amount: int, hp: int, source: str, **extra: Any) -> Event:
    return {"type": "damage", "target": target, "amount": amount, "hp": hp, "source": source, **extra}


def check(
    actor: str, check_id: str, roll: int, total: int, dc: int | None, success: bool, **extra: Any
) -> Event:
    margin = None if dc is None else total - dc
    return {
        "type": "check",
        "actor": actor,
        "check": check_id,
        "roll": roll,
        "total": total,
        "dc": dc,
        "success": success,
        "margin": margin,
        **extra,
    }


def spell_started(caster: str, spell: str, completes: Any) -> Event:
    return {"type": "spell_started", "caster": caster, "spell": spell, "completes": completes}


def spell_cast(caster: str, spell: str, targets: list[str]) -> Event:
    return {"type": "spell_cast", "caster": caster, "spell": spell, "targets": targets}


def spell_lost(caster: str, spell: str, reason: str) -> Event:
    return {"type": "spell_lost", "caster": caster, "spell": spell, "reason": reason}


def condition(actor: str, name: str, added: bool, until: Any = None) -> Event:
    return {"type": "condition", "actor": actor, "condition": name, "added": added, "until": until}


def reaction(actor: str, reaction_id: str, against: str, penalty: int = 0, **extra: Any) -> Event:
    return {
        "type": "reaction",
        "actor": actor,
        "reaction": reaction_id,
        "against": against,
        "penalty": penalty,
        **extra,
    }


def resource(actor: str, name: str, value: Any, delta: Any, **extra: Any) -> Event:
    return {"type": "resource", "actor": actor, "resource": name, "value": value, "delta": delta, **extra}


def state(actor: str, state_: str) -> Event:
    return {"type": "state", "actor": actor, "state": state_}


def gm(what: str, detail: dict[str, Any]) -> Event:
    return {"type": "gm", "what": what, "detail": detail}


EVENT_TYPES = (
    "round_started",
    "turn_started",
    "turn_ended",
    "round_ended",
    "initiative",
    "action",
    "moved",
    "opportunity",
    "attack",
    "damage",
    "check",
    "spell_started",
    "spell_cast",
    "spell_lost",
    "condition",
    "reaction",
    "resource",
    "state",
    "gm",
)


def attack(
    attacker: str,
    target: str,
    weapon: str,
    kind: str,
    roll: int,
    total: int,
    vs: int,
    hit: bool,
    critical: bool,
    modifiers: list[dict[str, Any]],
    **extra: Any,
) -> Event:
    return {
        "type": "attack",
        "attacker": attacker,
        "target": target,
        "weapon": weapon,
        "kind": kind,
        "roll": roll,
        "total": total,
        "vs": vs,
        "hit": hit,
        "critical": critical,
        "modifiers": modifiers,
        **extra,
    }
