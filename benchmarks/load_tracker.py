"""Load benchmark of the tracker: many tables at once, on loopback, bounded in time and count.

Starts ``tactica serve`` on 127.0.0.1 (a fresh SQLite file unless ``--db`` says otherwise), opens
``--tables`` tables of the bundled bridge fight, and runs one client per table (asyncio in one
process, over bare keep-alive HTTP/1.1 connections) that sends commands as fast as the answers come
back: two in three an ``end_turn`` for whoever's turn it is, one in three a GM ``set_hp``, each made
against the version the previous answer gave, plus a state read every fourth request. Every write is
committed before it is answered. Prints commands/s, the p50/p99 latency of writes and reads, the
server's CPU time per request and its share of a core; stops after ``--seconds`` or
``--max-commands``, whichever comes first.

Run: ``.venv/bin/python benchmarks/load_tracker.py [--tables 16] [--seconds 10] [--db URL]``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
FIGHT = ROOT / "src" / "tactica" / "server" / "examples" / "pf1-bridge.yaml"
MAX_SECONDS = 120
MAX_COMMANDS = 200_000


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(db: str, port: int) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tactica.cli",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--db",
            db,
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start")


class Connection:
    """A bare keep-alive HTTP/1.1 connection: a benchmark client must cost much less than the server
    it measures (a full HTTP client library costs about as much per request as the tracker does)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, token: str) -> None:
        self.reader = reader
        self.writer = writer
        self.auth = f"Authorization: Bearer {token}\r\n"

    @classmethod
    async def open(cls, port: int, token: str) -> Connection:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        return cls(reader, writer, token)

    async def request(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        data = b"" if body is None else json.dumps(body).encode()
        head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{self.auth}"
        if body is not None:
            head += f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n"
        self.writer.write(head.encode() + b"\r\n" + data)
        status_line = await self.reader.readline()
        length = 0
        while True:
            line = await self.reader.readline()
            if line in (b"\r\n", b""):
                break
            name, _sep, value = line.decode().partition(":")
            if name.lower() == "content-length":
                length = int(value)
        payload = await self.reader.readexactly(length)
        return int(status_line.split()[1]), json.loads(payload)

    def close(self) -> None:
        self.writer.close()


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux); the server's cost per command, whatever
    else the machine is doing."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def percentile(xs: list[float], q: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def run(db: str, tables: int, seconds: float, max_commands: int) -> dict[str, Any]:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = start_server(db, port)
    writes: list[float] = []
    reads: list[float] = []
    refused: list[str] = []
    budget = [max_commands]
    try:
        text = FIGHT.read_text()
        made = [
            httpx.post(f"{base}/api/tables", json={"file": text}, timeout=30).json() for _ in range(tables)
        ]

        async def client(table: dict[str, Any], stop_at: float) -> None:
            tid = table["table"]
            conn = await Connection.open(port, table["links"]["gm"]["token"])
            version, turn, i = 0, "valeros", 0
            try:
                while time.monotonic() < stop_at and budget[0] > 0:
                    budget[0] -= 1
                    i += 1
                    if i % 4 == 0:
                        t0 = time.perf_counter()
                        status, _body = await conn.request("GET", f"/api/tables/{tid}")
                        reads.append(time.perf_counter() - t0)
                        assert status == 200
                    cmd: dict[str, Any]
                    if i % 3 == 0:
                        cmd = {"actor": "gm", "do": "set_hp", "target": "goblin", "hp": 9 - i % 5}
                    else:
                        cmd = {"actor": turn, "do": "end_turn"}
                    t0 = time.perf_counter()
                    status, body = await conn.request(
                        "POST", f"/api/tables/{tid}/commands", {"version": version, "command": cmd}
                    )
                    writes.append(time.perf_counter() - t0)
                    if status != 200:
                        refused.append(str(body))
                        return
                    version, turn = body["version"], body["turn"]
            finally:
                conn.close()

        async def all_clients() -> float:
            t0 = time.perf_counter()
            stop_at = time.monotonic() + seconds
            await asyncio.gather(*(client(t, stop_at) for t in made))
            return time.perf_counter() - t0

        cpu0 = cpu_seconds(server.pid)
        elapsed = asyncio.run(all_clients())
        cpu = cpu_seconds(server.pid) - cpu0
    finally:
        server.terminate()
        server.wait(10)
    return {
        "tables": tables,
        "seconds": elapsed,
        "commands": len(writes),
        "reads": len(reads),
        "commands_per_s": len(writes) / elapsed,
        "write_p50_ms": 1000 * percentile(writes, 0.50),
        "write_p99_ms": 1000 * percentile(writes, 0.99),
        "write_mean_ms": 1000 * statistics.fmean(writes) if writes else float("nan"),
        "read_p50_ms": 1000 * percentile(reads, 0.50),
        "read_p99_ms": 1000 * percentile(reads, 0.99),
        "refused": len(refused),
        "server_cpu_ms_per_request": 1000 * cpu / max(1, len(writes) + len(reads)),
        "server_cpu_share": cpu / elapsed,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", help="database URL (default: a fresh SQLite file in a temporary folder)")
    ap.add_argument("--tables", type=int, default=16, help="tables played at once, one client each")
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--max-commands", type=int, default=50_000)
    args = ap.parse_args()
    seconds = min(args.seconds, MAX_SECONDS)
    max_commands = min(args.max_commands, MAX_COMMANDS)
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or f"sqlite:///{os.path.join(tmp, 'load.sqlite3')}"
        res = run(db, args.tables, seconds, max_commands)
    kind = db.split(":", 1)[0].split("+", 1)[0]
    print(
        f"| {kind} | {res['tables']} | {res['commands']} | {res['commands_per_s']:.0f} | "
        f"{res['write_p50_ms']:.1f} | {res['write_p99_ms']:.1f} | {res['read_p50_ms']:.1f} | "
        f"{res['read_p99_ms']:.1f} | {res['server_cpu_ms_per_request']:.2f} | "
        f"{res['server_cpu_share']:.2f} | {res['refused']} |"
    )


if __name__ == "__main__":
    main()
