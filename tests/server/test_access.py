"""Access by link: the GM may do everything, a player only commands its own combatants and answers
their decisions, a spectator only watches, a wrong or missing token gets nothing."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .conftest import Table, make_table

if TYPE_CHECKING:
    from fastapi.testclient import TestClient

ORC_ENDS = {"actor": "orc", "do": "end_turn"}


def test_missing_or_wrong_token_gets_nothing(client: TestClient, table: Table) -> None:
    base = f"/api/tables/{table.id}"
    gets = [base, f"{base}/log", f"{base}/case", f"{base}/legal?actor=orc", f"{base}/links", f"{base}/stream"]
    for url in gets:
        r = client.get(url)
        assert r.status_code == 401 and r.json()["error"]["code"] == "unauthorized", url
        r = client.get(url, headers={"Authorization": "Bearer not-a-token"})
        assert r.status_code == 404 and "orc" not in r.text.lower(), url
    r = client.post(f"{base}/commands", json={"version": 0, "command": ORC_ENDS})
    assert r.status_code == 401
    r = client.post(
        f"{base}/commands", json={"version": 0, "command": ORC_ENDS}, headers={"X-Tactica-Token": "x" * 32}
    )
    assert r.status_code == 404
    # a good token of another table opens nothing here, and looks exactly like a wrong one
    other = make_table(client)
    r = client.get(base, headers=other.headers(other.gm))
    assert (
        r.status_code == 404 and r.json() == client.get(base, headers={"Authorization": "Bearer zz"}).json()
    )
    r = client.post(
        f"{base}/commands", json={"version": 0, "command": ORC_ENDS}, headers=other.headers(other.gm)
    )
    assert r.status_code == 404
    assert table.version() == 0
    # the page of a wrong link shows nothing of any table
    page = client.get("/t/not-a-token")
    assert page.status_code == 404 and "Orc" not in page.text and "Valeros" not in page.text
    assert client.post("/t/not-a-token/act", data={"command": "{}", "version": "0"}).status_code == 404
    assert client.get("/t/not-a-token/events").status_code == 404


def test_spectator_only_watches(client: TestClient, table: Table) -> None:
    s = table.state(table.spectator)
    assert s["you"]["role"] == "spectator"
    r = table.send(ORC_ENDS, token=table.spectator)
    assert r.status_code == 403 and r.json()["error"]["code"] == "forbidden"
    assert table.undo(token=table.spectator).status_code == 403
    assert (
        client.get(f"/api/tables/{table.id}/links", headers=table.headers(table.spectator)).status_code == 403
    )
    assert table.version() == 0


def test_player_commands_only_its_own_combatants(table: Table) -> None:
    valeros = table.players["Valeros"]
    kyra = table.players["Kyra"]
    r = table.send(ORC_ENDS, token=valeros)
    assert r.status_code == 403 and table.version() == 0
    assert (
        table.send({"actor": "gm", "do": "set_hp", "target": "orc", "hp": 1}, token=valeros).status_code
        == 403
    )
    table.ok(ORC_ENDS)  # the GM plays the orc
    r = table.send({"actor": "valeros", "do": "end_turn"}, token=kyra)
    assert r.status_code == 403 and table.state()["turn"] == "valeros"
    out = table.ok({"actor": "valeros", "do": "move", "path": [[1, 2]]}, token=valeros)
    assert out["pending"]["actor"] == "orc"
    # the orc's decision is not Valeros's to answer
    r = table.answer({"do": "decline"}, token=valeros)
    assert r.status_code == 403 and table.state()["pending"]["actor"] == "orc"
    r = table.answer({"actor": "orc", "do": "decline"}, token=table.players["side heroes"])
    assert r.status_code == 403
    assert table.answer({"do": "decline"}, token=table.players["Orc"]).status_code == 200
    # a player may take back its own command, not someone else's
    assert table.undo(token=valeros).status_code == 403  # the orc's answer is the last one
    assert table.undo(token=table.players["side monsters"]).status_code == 200
    # with the answer taken back, the last command is Valeros's own move: his to take back
    assert table.undo(token=kyra).status_code == 403
    assert table.undo(token=valeros).status_code == 200
    s = table.state()
    assert s["pending"] is None and s["combatants"]["valeros"]["at"] == [2, 2]
    table.ok({"actor": "valeros", "do": "end_turn"}, token=table.players["side heroes"])
    assert table.undo(token=valeros).status_code == 200
    assert table.state()["turn"] == "valeros"


def test_player_page_cannot_act_for_another(client: TestClient, table: Table) -> None:
    valeros = table.players["Valeros"]
    page = client.get(f"/t/{valeros}")
    assert page.status_code == 200 and "Player" in page.text
    assert 'data-test="actions"' not in page.text  # the orc's turn: no buttons for this player
    r = client.post(
        f"/t/{valeros}/act", data={"command": '{"actor": "orc", "do": "end_turn"}', "version": "0"}
    )
    assert r.status_code == 200 and 'data-test="flash"' in r.text and "forbidden" in r.text
    assert table.version() == 0
    r = client.post(f"/t/{valeros}/gm", data={"op": "set_hp", "target": "orc", "hp": "1", "version": "0"})
    assert "forbidden" in r.text and table.state()["combatants"]["orc"]["hp"] == 80
    # the GM page offers the orc's actions and every link to share; a player's page shows none
    gm_page = client.get(f"/t/{table.gm}").text
    assert 'data-test="actions"' in gm_page and table.spectator in gm_page
    assert table.gm not in page.text and table.spectator not in page.text
    assert not re.search(r"/t/[A-Za-z0-9_-]{32}", page.text.replace(valeros, ""))
