"""What the tracker asks a ruleset beyond the engine's API, with graceful fallbacks.

The ruleset hooks ``threatened_squares(enc, combatant)`` and ``provoking_squares(enc, command)``
answer ``None`` when a ruleset cannot say; the tracker then shows nothing rather than guessing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..engine.commands import Command, Square
from ..engine.core import Encounter
from ..engine.errors import IllegalCommand
from ..engine.state import Combatant


def _squares(raw: Any) -> list[Square]:
    return [(int(s[0]), int(s[1])) for s in raw]


def threatened_squares(enc: Encounter, c: Combatant) -> list[Square]:
    """The squares ``c`` threatens now (empty when the ruleset cannot say)."""
    squares = enc.ruleset.threatened_squares(enc, c)
    return [] if squares is None else _squares(squares)


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
    provokes = enc.ruleset.provoking_squares(enc, cmd)
    if provokes is None:
        return Preview(cmd, path, metres, [], False, error)
    return Preview(
        cmd, path, metres, [((int(q[0]), int(q[1])), list(ids)) for q, ids in provokes], True, error
    )
