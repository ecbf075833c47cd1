"""Fixtures for the tracker: a fight made for the scenarios, storages (SQLite, a real PostgreSQL),
an in-process API client and a real server process on loopback."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

with warnings.catch_warnings():  # starlette's notice about httpx, at import
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from tactica.server.app import create_app
from tactica.server.storage import Store
from tactica.server.tracker import Tracker

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "tests" / "screenshots"

# Orc acts first (so it is no longer flat-footed and may make attacks of opportunity); Valeros
# stands next to it with bab 6 (two iterative attacks: a full attack); Kyra is a second hero.
FIGHT = """\
description: Tracker test fight
ruleset: pf1
seed: 5
map:
  width: 8
  height: 6
  difficult: [[5, 1], [5, 2]]
  very_difficult: [[6, 4]]
  blocked: [[4, 4], [4, 5]]
combatants:
  - id: valeros
    name: Valeros
    side: heroes
    at: [2, 2]
    stats:
      hp: 40
      scores: {str: 17, dex: 13, con: 14}
      bab: 6
      ac: 18
      weapons:
        - {id: longsword, kind: melee, grip: one_handed, damage: 1d8, crit: 19-20/x2}
  - id: kyra
    name: Kyra
    side: heroes
    at: [1, 4]
    stats:
      hp: 24
      scores: {str: 13, con: 12}
      bab: 3
      ac: 16
      weapons:
        - {id: scimitar, kind: melee, grip: one_handed, damage: 1d6, crit: 18-20/x2}
  - id: orc
    name: Orc
    side: monsters
    at: [3, 2]
    stats:
      hp: 80
      scores: {str: 17, dex: 11, con: 14}
      bab: 4
      ac: 12
      weapons:
        - {id: falchion, kind: melee, grip: two_handed, damage: 2d4, crit: 18-20/x2}
initiative: [orc, valeros, kyra]
"""

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]


@pytest.fixture
def fight() -> str:
    return FIGHT


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'tracker.sqlite3'}"


@pytest.fixture
def tracker(sqlite_url: str) -> Iterator[Tracker]:
    store = Store(sqlite_url)
    yield Tracker(store)
    store.close()


@pytest.fixture
def client(tracker: Tracker) -> Iterator[TestClient]:
    with TestClient(create_app(tracker)) as c:
        yield c


class Table:
    """A table made through the API, with helpers that carry its tokens."""

    def __init__(self, client: Any, created: dict[str, Any]) -> None:
        self.client = client
        self.id: str = created["table"]
        self.links = created["links"]
        self.gm: str = created["links"]["gm"]["token"]
        self.spectator: str = created["links"]["spectator"]["token"]
        self.players: dict[str, str] = {p["label"]: p["token"] for p in created["links"]["players"]}

    def headers(self, token: str | None) -> dict[str, str]:
        return {} if token is None else {"Authorization": f"Bearer {token}"}

    def state(self, token: str | None = None) -> dict[str, Any]:
        r = self.client.get(f"/api/tables/{self.id}", headers=self.headers(token or self.gm))
        assert r.status_code == 200, r.text
        return dict(r.json())

    def version(self) -> int:
        return int(self.state()["version"])

    def send(self, command: dict[str, Any], token: str | None = None, version: int | None = None) -> Any:
        v = self.version() if version is None else version
        return self.client.post(
            f"/api/tables/{self.id}/commands",
            json={"version": v, "command": command},
            headers=self.headers(token or self.gm),
        )

    def ok(self, command: dict[str, Any], token: str | None = None) -> dict[str, Any]:
        r = self.send(command, token)
        assert r.status_code == 200, r.text
        return dict(r.json())

    def answer(self, answer: dict[str, Any], token: str | None = None, version: int | None = None) -> Any:
        v = self.version() if version is None else version
        return self.client.post(
            f"/api/tables/{self.id}/decision",
            json={"version": v, "answer": answer},
            headers=self.headers(token or self.gm),
        )

    def undo(self, token: str | None = None, version: int | None = None) -> Any:
        v = self.version() if version is None else version
        return self.client.post(
            f"/api/tables/{self.id}/undo", json={"version": v}, headers=self.headers(token or self.gm)
        )


def make_table(client: Any, text: str = FIGHT) -> Table:
    r = client.post("/api/tables", json={"file": text, "filename": "test-fight.yaml"})
    assert r.status_code == 201, r.text
    return Table(client, r.json())


@pytest.fixture
def table(client: TestClient) -> Table:
    return make_table(client)


# -- a real PostgreSQL, started in a temporary directory on loopback ------------------------------------
def _pg_bin(name: str) -> str:
    found = shutil.which(name)
    if found:
        return found
    for base in sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True):
        if (base / name).exists():
            return str(base / name)
    raise RuntimeError(
        f"PostgreSQL's {name} is not installed: apt-get install postgresql (.ci/run does it for CI)"
    )


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    # not under pytest's tmp_path: its folders are private to root, and the server runs as postgres
    base = Path(tempfile.mkdtemp(prefix="tactica-pg-"))
    data = base / "data"
    port = free_port()
    as_user: list[str] = []
    if os.geteuid() == 0:  # initdb refuses to run as root: run the server as the postgres user
        os.chmod(base, 0o777)
        as_user = ["runuser", "-u", "postgres", "--"]
    run = [*as_user, _pg_bin("initdb"), "-D", str(data), "-U", "tactica", "--auth=trust", "-E", "UTF8"]
    subprocess.run(run, check=True, capture_output=True)
    ctl = [*as_user, _pg_bin("pg_ctl"), "-D", str(data), "-l", str(base / "log"), "-w", "-t", "60"]
    opts = f"-c listen_addresses=127.0.0.1 -c port={port} -c unix_socket_directories={base} -c fsync=on"
    subprocess.run([*ctl, "-o", opts, "start"], check=True, capture_output=True)
    try:
        url = f"postgresql://tactica@127.0.0.1:{port}/postgres"
        yield url
    finally:
        subprocess.run([*ctl, "-m", "immediate", "stop"], capture_output=True)
        shutil.rmtree(base, ignore_errors=True)


# -- a real server process ------------------------------------------------------------------------------
class Server:
    def __init__(self, db: str, port: int) -> None:
        self.db = db
        self.port = port
        self.url = f"http://127.0.0.1:{port}"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> Server:
        env = {**os.environ, "TACTICA_LANG": "en"}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tactica.cli", "serve", "--port", str(self.port), "--db", self.db],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(
                    f"server exited: {self.proc.stderr.read().decode() if self.proc.stderr else ''}"
                )
            try:
                if httpx.get(self.url + "/healthz", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError("server did not start")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def client(self) -> httpx.Client:
        return httpx.Client(base_url=self.url, timeout=30)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server per test module (starting one takes seconds); each test makes its own tables."""
    s = Server(f"sqlite:///{tmp_path_factory.mktemp('served') / 'served.sqlite3'}", free_port()).start()
    try:
        yield s
    finally:
        s.stop()


def chromium_path() -> str:
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if path is None:
        raise RuntimeError(
            "Debian's chromium is not installed: apt-get install chromium (.ci/run does it for CI)"
        )
    return path
