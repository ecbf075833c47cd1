"""Shared fixtures: paths, a small pf1 encounter builder, and a stand-in French catalog."""

from __future__ import annotations

import gettext
import time
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


# -- a stand-in French catalog ---------------------------------------------------------------------
MARK = "«fr»"


class Marked(gettext.NullTranslations):
    """A French catalog that marks every message it is asked for, so a test sees which words went
    through the catalogs (whatever the real translations say). ``pause`` sleeps in each lookup, so
    that another thread runs in between (requests in two languages at once)."""

    def __init__(self, pause: float = 0.0) -> None:
        super().__init__()
        self.pause = pause

    def gettext(self, message: str) -> str:
        if self.pause:
            time.sleep(self.pause)
        return MARK + message

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return MARK + (msgid1 if n == 1 else msgid2)

    def pgettext(self, context: str, message: str) -> str:
        return MARK + message


def use_marked_french(monkeypatch: pytest.MonkeyPatch, french: Marked | None = None) -> Marked:
    """Make French the marking catalog (English and Italian stay the source's words)."""
    chosen = french or Marked()
    monkeypatch.setattr(
        "tactica.i18n.catalog", lambda lang: chosen if lang == "fr" else gettext.NullTranslations()
    )
    return chosen
