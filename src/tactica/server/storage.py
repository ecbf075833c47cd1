"""Durable storage of tables: the encounter file, the append-only command log, the access grants.

SQLAlchemy Core on SQLite (the default: one file, WAL, ``synchronous=FULL``) or PostgreSQL
(``TACTICA_DATABASE_URL=postgresql://...``). The schema is created and upgraded by the alembic
migrations packaged beside this module (``migrations/``), run on every start.

A table's *version* is the number of entries in its log. Appending is a compare-and-set on that
version inside one transaction (``UPDATE ... WHERE version = :seen`` then ``INSERT`` the entry with
``seq = version + 1``), committed before the caller answers anyone: two writers that saw the same
version cannot both succeed, even from two processes.

A log entry is a ``command`` (the JSON of an engine command) or an ``undo`` (takes back the latest
command still in force). Undo is an entry rather than a deletion so the log stays append-only and
every version number ever handed out keeps meaning the same state.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import (
    BigInteger,
    Column,
    DateTime,
    Engine,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    event,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError

metadata = MetaData()

tables_t = Table(
    "tactica_tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("title", String(200), nullable=False),
    Column("ruleset", String(64), nullable=False),
    Column("source", Text, nullable=False),  # the encounter file as it was given (YAML or JSON)
    Column("seed", BigInteger, nullable=False),  # the seed in force (drawn at creation if the file has none)
    Column("origin", String(200), nullable=False, server_default=""),  # "upload", "example:NAME", "play:PATH"
    Column("version", Integer, nullable=False, server_default="0"),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
)

log_t = Table(
    "tactica_log",
    metadata,
    Column("table_id", String(32), ForeignKey("tactica_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("seq", Integer, primary_key=True),  # 1, 2, ...: the table's version after this entry
    Column("kind", String(16), nullable=False),  # "command" or "undo"
    Column("command", Text, nullable=True),  # the command's JSON (None for an undo)
    Column("author", String(200), nullable=False, server_default=""),  # who sent it (the grant's label)
    Column("at", DateTime(timezone=True), nullable=False),
)

grants_t = Table(
    "tactica_grants",
    metadata,
    Column("token", String(64), primary_key=True),
    Column(
        "table_id",
        String(32),
        ForeignKey("tactica_tables.id", ondelete="CASCADE"),
        nullable=False,
        index=True,
    ),
    Column("role", String(16), nullable=False),  # "gm", "player", "spectator"
    Column("scope", Text, nullable=False, server_default="[]"),  # JSON list of combatant ids (players)
    Column("label", String(200), nullable=False, server_default=""),
)

MIGRATIONS = Path(__file__).parent / "migrations"


@dataclass(frozen=True)
class TableRow:
    id: str
    title: str
    ruleset: str
    source: str
    seed: int
    origin: str
    version: int
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True)
class LogRow:
    seq: int
    kind: str
    command: dict[str, Any] | None
    author: str
    at: datetime


@dataclass(frozen=True)
class GrantRow:
    token: str
    table_id: str
    role: str
    scope: tuple[str, ...]
    label: str


@dataclass(eq=False)
class _Append:
    """One entry waiting to be committed (and, once ``done``, its new version or its error)."""

    table_id: str
    seen: int
    kind: str
    command: dict[str, Any] | None
    author: str
    version: int | None = None
    error: Exception | None = None
    done: bool = False


class Stale(Exception):
    """The table moved on since the version the writer saw (someone else wrote first)."""

    def __init__(self, current: int) -> None:
        super().__init__(f"the table is at version {current}")
        self.current = current


def default_url() -> str:
    """``TACTICA_DATABASE_URL``, else a SQLite file under ``$XDG_DATA_HOME/tactica`` (~/.local/share)."""
    url = os.environ.get("TACTICA_DATABASE_URL")
    if url:
        return url
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") / "tactica"
    return f"sqlite:///{base / 'tracker.sqlite3'}"


def normalise_url(url: str) -> str:
    """Plain ``postgresql://`` URLs use psycopg 3 (the driver we ship)."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def make_engine(url: str) -> Engine:
    url = normalise_url(url)
    if url.startswith("sqlite"):
        path = url.split("///", 1)[1] if "///" in url else ""
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            # FULL: a commit is on disk before the answer goes out, even if the machine loses power
            cur.execute("PRAGMA synchronous=FULL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute("PRAGMA busy_timeout=30000")
            cur.close()

        return engine
    return create_engine(url, pool_pre_ping=True, pool_size=10, max_overflow=20)


def migrate(engine: Engine) -> None:
    """Bring the schema to the newest migration (alembic ``upgrade head``)."""
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")


def _now() -> datetime:
    return datetime.now(UTC)


class Store:
    """The tracker's database. Thread-safe (a connection per call, from the pool)."""

    def __init__(self, url: str | None = None, *, run_migrations: bool = True) -> None:
        self.url = normalise_url(url or default_url())
        self.engine = make_engine(self.url)
        # SQLite has one writer at a time: the writers of this process queue on a lock (rather than
        # collide on the file lock and sleep in its busy handler) and commit in groups (see append)
        self._group: threading.Lock | None = (
            threading.Lock() if self.engine.dialect.name == "sqlite" else None
        )
        self._queue_lock = threading.Lock()
        self._queue: list[_Append] = []
        if run_migrations:
            migrate(self.engine)

    @property
    def kind(self) -> str:
        return self.engine.dialect.name

    def close(self) -> None:
        self.engine.dispose()

    # -- tables ------------------------------------------------------------------------------------
    def create_table(
        self,
        table_id: str,
        *,
        title: str,
        ruleset: str,
        source: str,
        seed: int,
        origin: str,
        grants: list[GrantRow],
    ) -> None:
        now = _now()
        with self.engine.begin() as conn:
            conn.execute(
                insert(tables_t).values(
                    id=table_id,
                    title=title,
                    ruleset=ruleset,
                    source=source,
                    seed=seed,
                    origin=origin,
                    version=0,
                    created_at=now,
                    updated_at=now,
                )
            )
            for g in grants:
                conn.execute(
                    insert(grants_t).values(
                        token=g.token,
                        table_id=table_id,
                        role=g.role,
                        scope=json.dumps(list(g.scope)),
                        label=g.label,
                    )
                )

    def table(self, table_id: str) -> TableRow | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(tables_t).where(tables_t.c.id == table_id)).mappings().first()
        return None if row is None else TableRow(**row)

    def tables(self, origin: str | None = None) -> list[TableRow]:
        q = select(tables_t).order_by(tables_t.c.created_at)
        if origin is not None:
            q = q.where(tables_t.c.origin == origin)
        with self.engine.connect() as conn:
            return [TableRow(**r) for r in conn.execute(q).mappings()]

    def version(self, table_id: str) -> int | None:
        with self.engine.connect() as conn:
            v = conn.execute(select(tables_t.c.version).where(tables_t.c.id == table_id)).scalar()
        return None if v is None else int(v)

    # -- the log -----------------------------------------------------------------------------------
    def log(self, table_id: str) -> list[LogRow]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(log_t).where(log_t.c.table_id == table_id).order_by(log_t.c.seq)
            ).mappings()
            return [
                LogRow(
                    r["seq"],
                    r["kind"],
                    None if r["command"] is None else json.loads(r["command"]),
                    r["author"],
                    r["at"],
                )
                for r in rows
            ]

    def append(
        self, table_id: str, seen: int, kind: str, command: dict[str, Any] | None, author: str = ""
    ) -> int:
        """Append one entry if the table is still at version ``seen``; return the new version.
        Committed when this returns. Raises :class:`Stale` (nothing written) otherwise.

        On SQLite (one writer at a time, each commit an fsync) the writers of this process commit in
        groups: whoever holds the write lock commits every entry queued meanwhile in one transaction,
        each still a compare-and-set of its own. PostgreSQL commits concurrent transactions itself."""
        assert kind in ("command", "undo")
        req = _Append(table_id, seen, kind, command, author)
        if self._group is None:
            self._commit([req])
        else:
            with self._queue_lock:
                self._queue.append(req)
            with self._group:
                if not req.done:
                    with self._queue_lock:
                        batch, self._queue = self._queue, []
                    self._commit(batch)
        if req.error is not None:
            raise req.error
        assert req.version is not None
        return req.version

    def _commit(self, batch: list[_Append]) -> None:
        now = _now()
        try:
            with self.engine.begin() as conn:
                for r in batch:
                    done = conn.execute(
                        update(tables_t)
                        .where(tables_t.c.id == r.table_id, tables_t.c.version == r.seen)
                        .values(version=r.seen + 1, updated_at=now)
                    )
                    if done.rowcount != 1:
                        r.error = Stale(self._current(conn, r.table_id))
                        continue
                    conn.execute(
                        insert(log_t).values(
                            table_id=r.table_id,
                            seq=r.seen + 1,
                            kind=r.kind,
                            command=None if r.command is None else json.dumps(r.command, ensure_ascii=False),
                            author=r.author,
                            at=now,
                        )
                    )
                    r.version = r.seen + 1
        except Exception as exc:
            # the transaction rolled back: nothing of the batch is stored; one by one, to find the culprit
            for r in batch:
                r.version, r.error = None, None
            if len(batch) > 1:
                for r in batch:
                    self._commit([r])
                return
            if isinstance(exc, IntegrityError):  # a writer raced past the compare-and-set
                batch[0].error = Stale(self.version(batch[0].table_id) or 0)
            else:
                batch[0].error = exc
        for r in batch:
            r.done = True

    @staticmethod
    def _current(conn: Any, table_id: str) -> int:
        v = conn.execute(select(tables_t.c.version).where(tables_t.c.id == table_id)).scalar()
        return int(v or 0)

    # -- grants ------------------------------------------------------------------------------------
    def grant(self, token: str) -> GrantRow | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(grants_t).where(grants_t.c.token == token)).mappings().first()
        return None if row is None else _grant(row)

    def grants(self, table_id: str) -> list[GrantRow]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(grants_t).where(grants_t.c.table_id == table_id).order_by(grants_t.c.label)
            ).mappings()
            return [_grant(r) for r in rows]

    def count_tables(self) -> int:
        with self.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(tables_t)).scalar() or 0)


def _grant(row: Any) -> GrantRow:
    return GrantRow(row["token"], row["table_id"], row["role"], tuple(json.loads(row["scope"])), row["label"])


def effective(entries: Iterable[LogRow]) -> list[LogRow]:
    """The command entries in force after a log: each ``undo`` takes back the latest one still in force."""
    out: list[LogRow] = []
    for e in entries:
        if e.kind == "command":
            out.append(e)
        elif out:
            out.pop()
    return out
