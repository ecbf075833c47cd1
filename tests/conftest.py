"""Shared fixtures: paths and a small pf1 encounter builder."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
CONFORMANCE = ROOT / "tests" / "conformance"
SHARED = ROOT.parent / "shared"


def fighter(cid: str, side: str, at: list[int], **stats: Any) -> dict[str, Any]:
    """A pf1 combatant mapping: a longsword fighter unless ``stats`` says otherwise."""
    base: dict[str, Any] = {
        "hp": 20,
        "scores": {"str": 16, "dex": 14, "con": 14},
        "bab": 1,
        "ac": 15,
        "weapons": [
            {"id": "longsword", "kind": "melee", "grip": "one_handed", "damage": "1d8", "crit": "19-20/x2"}
        ],
    }
    base.update(stats)
    return {"id": cid, "side": side, "at": at, "stats": base}


def pf1_encounter(
    *combatants: dict[str, Any], width: int = 8, height: int = 8, **extra: Any
) -> dict[str, Any]:
    data: dict[str, Any] = {
        "ruleset": "pf1",
        "map": {"width": width, "height": height},
        "combatants": list(combatants),
    }
    data.update(extra)
    return data


@pytest.fixture
def duel() -> dict[str, Any]:
    return pf1_encounter(
        fighter("valeros", "heroes", [3, 3]),
        fighter("orc", "monsters", [4, 3], scores={"str": 16, "dex": 10, "con": 12}, ac=13),
        initiative=["orc", "valeros"],
        seed=1,
    )
