"""What the tracker asks a ruleset beyond the engine's API, with graceful fallbacks.

The ruleset hooks below are optional (a ruleset written before them still works in the tracker):
``ruleset.threatened_squares(enc, combatant)`` and ``ruleset.provoking_squares(enc, command)``. When a
ruleset lacks them, the tracker looks for the pf1 reference ruleset's module functions
(``<ruleset package>.combat.threatened_squares`` and ``.reactors``), and otherwise shows nothing
rather than guessing.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from ..engine.commands import Command, Square
from ..engine.core import Encounter
from ..engine.errors import IllegalCommand
from ..engine.state import Combatant


def _module(enc: Encounter, name: str) -> ModuleType | None:
    package = type(enc.ruleset).__module__
    try:
        return importlib.import_module(f"{package}.{name}")
    except ImportError:
        return None


def _squares(raw: Any) -> list[Square]:
    return [(int(s[0]), int(s[1])) for s in raw]


def threatened_squares(enc: Encounter, c: Combatant) -> list[Square]:
    """The squares ``c`` threatens now (empty when the ruleset cannot say)."""
    hook = getattr(enc.ruleset, "threatened_squares", None)
    if callable(hook):
        return _squares(hook(enc, c))
    fn = getattr(_module(enc, "combat"), "threatened_squares", None)
    if callable(fn):
        return _squares(fn(enc, c))
    return []


@dataclass(frozen=True)
class Preview:
    """A movement command seen before it is sent: its squares, its cost, what it would provoke."""

    command: Command
    path: tuple[Square, ...]
    metres: float | None
    provokes: list[tuple[Square, list[str]]]  # square left -> who may strike there
    known: bool  # whether the ruleset could say what provokes
    error: IllegalCommand | None


def movement_path(cmd: Command) -> tuple[Square, ...]:
    if cmd.path is not None:
        return cmd.path
    if cmd.to is not None:
        return (cmd.to,)
    return ()


def preview(enc: Encounter, cmd: Command) -> Preview:
    """Cost (metres, terrain included) and the squares that would provoke, for a path or step."""
    c = enc.combatants[cmd.actor]
    path = movement_path(cmd)
    error = enc.why_illegal(cmd)
    metres: float | None
    try:
        metres = enc.grid.metres(sum(enc.grid.check_path(c.name, c.pos, path)))
    except IllegalCommand:
        metres = None
    hook = getattr(enc.ruleset, "provoking_squares", None)
    if callable(hook):
        provokes = [((int(s[0]), int(s[1])), list(ids)) for s, ids in hook(enc, cmd)]
        return Preview(cmd, path, metres, provokes, True, error)
    reactors = getattr(_module(enc, "combat"), "reactors", None)
    if not callable(reactors) or enc.ruleset.name != "pf1":
        return Preview(cmd, path, metres, [], False, error)
    return Preview(cmd, path, metres, _pf1_provokes(enc, c, cmd, path, reactors), True, error)


def _pf1_provokes(
    enc: Encounter, c: Combatant, cmd: Command, path: tuple[Square, ...], reactors: Any
) -> list[tuple[Square, list[str]]]:
    # R-PF-MOV-4: a 5-foot step provokes nothing; R-PF-AOO-2: leaving a threatened square provokes,
    # once per enemy per movement; R-PF-WD-2: a withdrawal's start square is safe from seen enemies
    if cmd.do == "five_foot_step":
        return []
    out: list[tuple[Square, list[str]]] = []
    offered: set[str] = set()
    left = (c.pos, *path[:-1])
    for i, square in enumerate(left):
        found = []
        for r in reactors(enc, c, square, set(offered)):
            if cmd.do == "withdraw" and i == 0 and "invisible" not in r.conditions:
                continue
            offered.add(r.id)
            found.append(r.id)
        if found:
            out.append((square, found))
    return out
