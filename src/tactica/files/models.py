"""The encounter and case file formats (format.md sections 1 and 4) as pydantic models.

Combatant ``stats`` are checked afterwards by the ruleset's own model, so their errors carry the
full path (``combatants[1].stats.bab``) too.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from ..rulesets.common import Id, Model

SquareList = Annotated[list[int], Field(min_length=2, max_length=2)]
Facing = Literal["N", "NE", "E", "SE", "S", "SW", "W", "NW"]


class MapModel(Model):
    width: int = Field(ge=1, le=500)
    height: int = Field(ge=1, le=500)
    square_m: float = Field(default=1.5, gt=0)
    difficult: list[SquareList] = []
    very_difficult: list[SquareList] = []
    blocked: list[SquareList] = []


class CombatantModel(Model):
    id: Id
    name: str | None = None
    side: str = Field(min_length=1)
    at: SquareList
    facing: Facing | None = None
    stats: dict[str, Any]
    conditions: list[str] = []


class EncounterModel(Model):
    """An encounter file."""

    ruleset: str = Field(min_length=1)
    variant: dict[str, Any] = {}
    seed: int | None = None
    map: MapModel
    combatants: list[CombatantModel] = Field(min_length=1)
    initiative: list[str] | None = None
    surprise: list[str] = []
    dice: list[int] | None = None
    description: str | None = None


class StepModel(Model):
    do: dict[str, Any]
    expect: dict[str, Any] | None = None


class ExpectBlock(Model):
    ok: bool | None = None
    error: str | None = None
    events: list[dict[str, Any]] | None = None
    no_events: list[dict[str, Any]] | None = None
    pending: dict[str, Any] | None = None


class CaseModel(EncounterModel):
    """A case: an encounter plus a script and what a test runner expects of it."""

    case: str | None = None
    rules: list[str] = []
    script: list[StepModel] = []
    expect_start: dict[str, Any] | None = None
    expect_final: dict[str, Any] | None = None


CASE_KEYS = frozenset({"case", "rules", "script", "expect_start", "expect_final"})
