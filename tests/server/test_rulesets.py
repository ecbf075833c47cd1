"""The tracker is ruleset-agnostic: every registered ruleset's fights open, show, play and export;
optional ruleset hooks are used when present and their absence is said, not guessed."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
import yaml

from tactica import Command, available_rulesets, load_encounter
from tactica.files.conformance import run_case
from tactica.rulesets.base import Ruleset
from tactica.rulesets.pf1 import Pf1
from tactica.server import adapters

from .conftest import FIGHT, ROOT, make_table

if TYPE_CHECKING:
    from fastapi.testclient import TestClient

CASES = ROOT / "tests" / "conformance"


def first_case(ruleset: str) -> Path:
    """A conformance case of ``ruleset`` without forced dice (a table plays on), else the first."""
    files = sorted((CASES / ruleset).glob("*.yaml"))
    assert files, f"no conformance case for {ruleset}"
    for f in files:
        if "dice" not in yaml.safe_load(f.read_text()):
            return f
    return files[0]


@pytest.mark.parametrize("ruleset", sorted(r for r in available_rulesets() if (CASES / r).is_dir()))
def test_every_ruleset_opens_shows_plays_and_exports(
    client: TestClient, ruleset: str, tmp_path: Path
) -> None:
    table = make_table(client, first_case(ruleset).read_text())
    state = table.state()
    assert state["ruleset"] == ruleset
    actor = state["pending"]["actor"] if state["pending"] else state["turn"]
    page = client.get(f"/t/{table.gm}")
    assert page.status_code == 200 and 'data-test="map"' in page.text and 'data-test="order"' in page.text
    legal = client.get(
        f"/api/tables/{table.id}/legal", params={"actor": actor}, headers=table.headers(table.gm)
    )
    commands = legal.json()["legal"]
    assert commands, legal.json()
    moves = [c for c in commands if "path" in c or "to" in c]
    if moves:
        # the page previews a movement of this ruleset (cost always; provocations if the ruleset says)
        r = client.get(
            f"/t/{table.gm}/board",
            params={
                "mode": moves[0]["do"],
                "dest": ",".join(map(str, (moves[0].get("path") or [moves[0]["to"]])[-1])),
            },
        )
        assert 'data-test="preview"' in r.text and " m</b>" in r.text
    out = table.ok(commands[-1])
    assert out["version"] == 1
    for c in state["combatants"]:
        r = client.get(f"/t/{table.gm}/board", params={"sel": c})
        assert r.status_code == 200 and 'data-test="selected"' in r.text
    case = tmp_path / "case.yaml"
    case.write_text(client.get(f"/api/tables/{table.id}/case", headers=table.headers(table.gm)).text)
    assert run_case(case).failures == []


class Hooked(Pf1):
    """pf1 with the optional tracker hooks, answering something recognisable."""

    name = "pf1"

    def threatened_squares(self, enc: Any, c: Any) -> list[tuple[int, int]]:
        return [(0, 0)]

    def provoking_squares(self, enc: Any, cmd: Command) -> list[tuple[tuple[int, int], list[str]]]:
        return [((9, 9), ["someone"])]


class Bare(Pf1):
    """A ruleset that cannot say what it threatens or what a move provokes (the base's answer)."""

    name = "bare"

    def threatened_squares(self, enc: Any, c: Any) -> None:
        return Ruleset.threatened_squares(self, enc, c)

    def provoking_squares(self, enc: Any, cmd: Command) -> None:
        return Ruleset.provoking_squares(self, enc, cmd)


def test_hooks_are_used_when_present_and_absence_is_said() -> None:
    enc = load_encounter(yaml.safe_load(FIGHT))
    enc.start()
    enc.apply({"actor": "orc", "do": "end_turn"})
    valeros, orc = enc.combatants["valeros"], enc.combatants["orc"]
    move = Command(actor="valeros", do="move", path=((1, 2), (0, 2)))
    pf1 = adapters.preview(enc, move)
    assert pf1.known and pf1.provokes == [((2, 2), ["orc"])] and pf1.metres == 3.0 and pf1.error is None
    assert (2, 2) in adapters.threatened_squares(enc, orc) and len(adapters.threatened_squares(enc, orc)) == 8
    step = adapters.preview(enc, Command(actor="valeros", do="five_foot_step", to=(2, 1)))
    assert step.known and step.provokes == [] and step.metres == 1.5
    enc.ruleset = Hooked()
    assert adapters.threatened_squares(enc, valeros) == [(0, 0)]
    assert adapters.preview(enc, move).provokes == [((9, 9), ["someone"])]
    enc.ruleset = Bare()
    assert adapters.threatened_squares(enc, valeros) == []
    bare = adapters.preview(enc, move)
    assert not bare.known and bare.provokes == [] and bare.metres == 3.0
