"""Tactica: a tactical combat rules engine for tabletop role-playing games.

>>> from tactica import load_encounter
>>> enc = load_encounter("fight.yaml", seed=7)
>>> enc.start().events                      # initiative, round_started, turn_started
>>> [c for c in enc.legal_commands(enc.turn)]
>>> enc.apply({"actor": "valeros", "do": "move", "path": [[4, 4], [5, 4]]})
>>> enc.pending                             # a decision another combatant must answer, or None
>>> enc.undo()
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .engine.commands import Command
from .engine.core import Encounter, LegalCommands, StepResult
from .engine.errors import EncounterError, IllegalCommand
from .engine.state import Setup, Window
from .rulesets import available as available_rulesets
from .rulesets import find_ruleset

__version__ = "0.1.0"


def load_encounter(
    source: str | Path | dict[str, Any], seed: int | None = None, dice: list[int] | None = None
) -> Encounter:
    """An :class:`Encounter` from an encounter or case file (a path) or an already parsed mapping.

    ``seed`` overrides the file's seed; ``dice`` forces die faces (as a script's ``dice:``).
    Raises :class:`EncounterError` (with the file, line and YAML path) when the input is wrong.
    """
    from .files.loader import load_file, setup_from_data
    from .files.replay import build

    loaded = setup_from_data(source, seed=seed) if isinstance(source, dict) else load_file(source, seed=seed)
    return build(loaded, dice)


__all__ = [
    "Command",
    "Encounter",
    "EncounterError",
    "IllegalCommand",
    "LegalCommands",
    "Setup",
    "StepResult",
    "Window",
    "available_rulesets",
    "find_ruleset",
    "load_encounter",
]
