"""Live updates and faults on a real server process: server-sent events reach every watcher; a
SIGKILL in the middle of a burst of commands loses no acknowledged command, and the state after a
restart is the replay of the log."""

from __future__ import annotations

import json
import signal
import threading
import time
from typing import Any

import httpx
import pytest

from tactica import Encounter
from tactica.server.storage import Store, effective
from tactica.server.tracker import read_source

from .conftest import FIGHT, Server, free_port

pytestmark = pytest.mark.timeout(120)


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def read_events(lines: Any, want: str) -> dict[str, Any]:
    event = ""
    for line in lines:
        if line.startswith("event:"):
            event = line.split(":", 1)[1].strip()
        elif line.startswith("data:") and event == want:
            return dict(json.loads(line.split(":", 1)[1]))
    raise AssertionError(f"no {want} event")


def test_every_watcher_gets_each_step_with_its_events(server: Server) -> None:
    api = server.client()
    made = api.post("/api/tables", json={"file": FIGHT}).json()
    tid, gm = made["table"], made["links"]["gm"]["token"]
    spectator = made["links"]["spectator"]["token"]
    with (
        httpx.Client(base_url=server.url, timeout=10) as a,
        httpx.Client(base_url=server.url, timeout=10) as b,
        a.stream("GET", f"/api/tables/{tid}/stream", headers=auth(spectator)) as s1,
        b.stream("GET", f"/t/{made['links']['players'][0]['token']}/events") as s2,
    ):
        assert s1.headers["content-type"].startswith("text/event-stream")
        lines1, lines2 = s1.iter_lines(), s2.iter_lines()
        assert read_events(lines1, "hello")["version"] == 0
        assert read_events(lines2, "hello")["version"] == 0
        r = api.post(
            f"/api/tables/{tid}/commands",
            json={"version": 0, "command": {"actor": "orc", "do": "end_turn"}},
            headers=auth(gm),
        )
        assert r.status_code == 200
        for lines in (lines1, lines2):
            step = read_events(lines, "step")
            assert step["version"] == 1 and step["turn"] == "valeros"
            assert step["command"] == {"actor": "orc", "do": "end_turn"}
            assert {"type": "turn_started", "actor": "valeros", "round": 1} in step["events"]
        api.post(f"/api/tables/{tid}/undo", json={"version": 1}, headers=auth(gm))
        step = read_events(lines1, "step")
        assert step["kind"] == "undo" and step["version"] == 2 and step["turn"] == "orc"
    # no token, no stream
    assert api.get(f"/api/tables/{tid}/stream").status_code == 401


def test_sigkill_mid_burst_loses_no_acknowledged_command(server: Server) -> None:
    # (the last test of this module: it kills the module's server)
    api = server.client()
    tables = []
    for _ in range(4):
        made = api.post("/api/tables", json={"file": FIGHT}).json()
        tables.append((made["table"], made["links"]["gm"]["token"]))
    acked: dict[str, list[tuple[int, dict[str, Any]]]] = {t: [] for t, _tok in tables}
    stop = threading.Event()
    errors: list[str] = []

    def burst(tid: str, token: str) -> None:
        version, turn, i = 0, "orc", 0
        with httpx.Client(base_url=server.url, timeout=10) as c:
            while not stop.is_set() and i < 2000:
                i += 1
                if i % 3 == 0:
                    cmd: dict[str, Any] = {"actor": "gm", "do": "set_hp", "target": "kyra", "hp": 10 + i % 7}
                else:
                    cmd = {"actor": turn, "do": "end_turn"}
                try:
                    r = c.post(
                        f"/api/tables/{tid}/commands",
                        json={"version": version, "command": cmd},
                        headers=auth(token),
                    )
                except httpx.HTTPError:
                    return  # the server is gone: what was acknowledged is what counts
                if r.status_code != 200:
                    errors.append(r.text)
                    return
                body = r.json()
                acked[tid].append((body["version"], cmd))
                version, turn = body["version"], body["turn"]

    threads = [threading.Thread(target=burst, args=t) for t in tables]
    for t in threads:
        t.start()
    deadline = time.monotonic() + 60
    while sum(len(v) for v in acked.values()) < 150 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert server.proc is not None
    server.proc.send_signal(signal.SIGKILL)  # mid-burst: the workers are still sending
    server.proc.wait()
    stop.set()
    for t in threads:
        t.join()
    assert not errors and sum(len(v) for v in acked.values()) >= 150

    again = Server(server.db, free_port()).start()
    try:
        client = again.client()
        store = Store(server.db)
        for tid, token in tables:
            log = store.log(tid)
            stored = {e.seq: e.command for e in log}
            for version, cmd in acked[tid]:
                assert stored[version] == cmd  # every acknowledged command is there, at its version
            assert len(log) - len(acked[tid]) in (0, 1)  # at most the one in flight when killed
            state = client.get(f"/api/tables/{tid}", headers=auth(token)).json()
            assert state["version"] == len(log)
            # the state after the restart is the replay of the log
            _data, loaded = read_source(FIGHT, seed=store.table(tid).seed)  # type: ignore[union-attr]
            enc = Encounter(loaded.setup, loaded.ruleset)
            enc.start()
            for e in effective(log):
                enc.apply(e.command or {})
            view = enc.view()
            for cid, c in state["combatants"].items():
                assert {k: c[k] for k in view["combatants"][cid]} == view["combatants"][cid]
            assert (state["round"], state["turn"], state["pending"]) == (
                view["round"],
                view["turn"],
                view["pending"],
            )
            # and the table takes commands again from there
            nxt = {"actor": state["turn"], "do": "end_turn"}
            r = client.post(
                f"/api/tables/{tid}/commands",
                json={"version": state["version"], "command": nxt},
                headers=auth(token),
            )
            assert r.status_code == 200
        store.close()
    finally:
        again.stop()
