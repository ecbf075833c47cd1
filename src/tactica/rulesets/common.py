"""Pydantic building blocks shared by the rulesets' stats models."""

from __future__ import annotations

import re
from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict

from ..engine.dice import compile_dice
from ..engine.errors import EncounterError
from ..i18n import _

ID_RE = re.compile(r"^[a-z0-9_-]+$")


def _check_id(v: str) -> str:
    if not ID_RE.match(v):
        raise ValueError(_("an id may only hold a-z, 0-9, _ and -"))
    return v


def _check_dice(v: str) -> str:
    try:
        compile_dice(v)
    except EncounterError as exc:
        raise ValueError(exc.message) from exc
    return v


Id = Annotated[str, AfterValidator(_check_id)]
DiceText = Annotated[str, AfterValidator(_check_dice)]


class Model(BaseModel):
    """Strict about unknown keys: a typo in a file is an error, never silently ignored."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True, populate_by_name=False)


def unique_ids(items: list[BaseModel], what: str) -> None:
    """Each of ``items`` (the list under the stats key ``what``: ``weapons``) has its own id."""
    seen: set[str] = set()
    for item in items:
        ident = getattr(item, "id")  # noqa: B009 - every item model has an id
        if ident in seen:
            raise ValueError(_("two entries of {key} have the id {ident!r}").format(key=what, ident=ident))
        seen.add(ident)


def ability_mod(score: int) -> int:
    """d20 ability modifier: floor((score - 10) / 2)."""
    return (score - 10) // 2
