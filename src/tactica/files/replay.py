"""Run an encounter and a script; produce the JSON lines of format.md section 5."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from typing import Any

from ..engine.commands import Command
from ..engine.core import Encounter
from ..engine.errors import IllegalCommand
from .loader import Loaded, ScriptStep


def case_steps(loaded: Loaded) -> list[ScriptStep]:
    if loaded.case is None:
        return []
    return [ScriptStep(s.do, s.expect) for s in loaded.case.script]


def build(loaded: Loaded, dice: list[int] | None = None) -> Encounter:
    setup = loaded.setup
    if dice is not None:
        setup = dataclasses.replace(setup, dice=tuple(dice))
    return Encounter(setup, loaded.ruleset)


def replay(enc: Encounter, steps: list[ScriptStep]) -> Iterator[dict[str, Any]]:
    """Yield the start line, one line per step (accepted or rejected), then the final state."""
    try:
        yield {"step": "start", **enc.start().to_json()}
    except IllegalCommand as exc:
        yield {"step": "start", "ok": False, "error": exc.to_json()}
        yield {"final": enc.view()}
        return
    for i, step in enumerate(steps):
        try:
            cmd = Command.from_json(step.command, where=f"script[{i}]")
            yield {"step": i, **enc.apply(cmd).to_json()}
        except IllegalCommand as exc:
            yield {"step": i, "ok": False, "error": exc.to_json()}
    yield {"final": enc.view()}


def to_line(obj: Any) -> str:
    """One JSON line; the same object always gives the same bytes."""
    return json.dumps(obj, ensure_ascii=False)
