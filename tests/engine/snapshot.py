"""A full, comparable picture of an encounter: everything a rejected command must leave as it was.

``snapshot(enc)`` goes deeper than ``enc.view()``: every slot of every combatant and of its ruleset
data, the occupancy map, the order, the pending window and its private context, the log, the
history, and the dice (position and generator state). Two snapshots are equal strings exactly when
the encounters are in the same state.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from tactica.engine.core import Encounter
from tactica.engine.dice import ForcedDice, SeededDice
from tactica.engine.state import Combatant


def dump(obj: Any) -> Any:
    """A JSON-ready copy of ``obj``; combatants met inside other values are named by id (no cycles)."""
    if obj is None or isinstance(obj, (bool, int, float, str)):
        return obj
    if isinstance(obj, Combatant):
        return f"<combatant {obj.id}>"
    if isinstance(obj, dict):
        return {repr(k) if not isinstance(k, str) else k: dump(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [dump(x) for x in obj]
    if isinstance(obj, (set, frozenset)):
        return sorted(repr(x) for x in obj)
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: dump(getattr(obj, f.name)) for f in dataclasses.fields(obj)} | {
            "__type": type(obj).__name__
        }
    slots = [s for cls in type(obj).__mro__ for s in getattr(cls, "__slots__", ())]
    if slots:
        return {s: dump(getattr(obj, s, None)) for s in slots} | {"__type": type(obj).__name__}
    if hasattr(obj, "__dict__"):
        return {k: dump(v) for k, v in vars(obj).items()} | {"__type": type(obj).__name__}
    return repr(obj)


def combatant_state(c: Combatant) -> dict[str, Any]:
    out = {s: dump(getattr(c, s)) for s in Combatant.__slots__ if s not in ("stats", "data")}
    out["data"] = dump(c.data)
    return out


def dice_state(enc: Encounter) -> Any:
    d = enc.dice
    if isinstance(d, SeededDice):
        return {"seed": d.seed, "position": d.position, "state": repr(d._random.__self__.getstate())}  # type: ignore[attr-defined]
    assert isinstance(d, ForcedDice)
    return {"faces": d.faces, "position": d.position}


def state(enc: Encounter) -> dict[str, Any]:
    return {
        "view": enc.view(),
        "combatants": {cid: combatant_state(c) for cid, c in enc.combatants.items()},
        "occupied": {repr(k): v.id for k, v in sorted(enc.occupied.items())},
        "crowded": enc.crowded,
        "order": [c.id for c in enc.order],
        "round": enc.round,
        "turn_index": enc.turn_index,
        "current": enc.current.id if enc.current else None,
        "pending": None if enc.pending is None else dump(enc.pending),
        "suspended": enc._step is not None,
        "rdata": dump(enc.rdata),
        "dice": dice_state(enc),
        "log": [c.to_json() for c in enc.log],
        "history": enc.history,
        "events": enc.events,
        "start_events": enc.start_events,
    }


def snapshot(enc: Encounter) -> str:
    return json.dumps(state(enc), sort_keys=True)
