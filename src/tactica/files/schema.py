"""JSON Schemas of the file formats, with each built-in ruleset's stats as a choice."""

from __future__ import annotations

from typing import Any

from ..rulesets import available, find_ruleset
from .models import CaseModel, EncounterModel


def json_schema(kind: str) -> dict[str, Any]:
    model = CaseModel if kind == "case" else EncounterModel
    schema = model.model_json_schema()
    stats = {}
    for name in sorted(available()):
        stats[name] = find_ruleset(name).stats_model.model_json_schema()
    schema["$comment"] = "combatants[].stats follows the schema of the chosen ruleset, under x-ruleset-stats"
    schema["x-ruleset-stats"] = stats
    return schema
