"""Storage on SQLite and on a real PostgreSQL: migrations, the append-only log with its
compare-and-set on the version, undo entries, and a table rebuilt from storage equal to the replay."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest
from sqlalchemy import inspect

from tactica import Encounter
from tactica.server.storage import GrantRow, Stale, Store, effective
from tactica.server.tracker import Access, Conflict, Tracker, read_source

from .conftest import FIGHT


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, sqlite_url: str) -> Iterator[Store]:
    url = sqlite_url if request.param == "sqlite" else request.getfixturevalue("postgres_url")
    s = Store(url)
    yield s
    s.close()


def new_table(store: Store, table_id: str) -> None:
    store.create_table(
        table_id,
        title="t",
        ruleset="pf1",
        source=FIGHT,
        seed=5,
        origin="test",
        grants=[GrantRow(f"tok-{table_id}", table_id, "gm", (), "GM")],
    )


def test_migrations_create_the_schema_and_run_twice(store: Store) -> None:
    names = set(inspect(store.engine).get_table_names())
    assert {"tactica_tables", "tactica_log", "tactica_grants", "alembic_version"} <= names
    again = Store(store.url)  # a restart runs the migrations again: nothing to do
    assert again.count_tables() == store.count_tables()
    again.close()


def test_append_is_a_compare_and_set(store: Store) -> None:
    new_table(store, "t1")
    assert store.append("t1", 0, "command", {"actor": "orc", "do": "end_turn"}, "GM") == 1
    with pytest.raises(Stale) as exc:
        store.append("t1", 0, "command", {"actor": "orc", "do": "end_turn"})
    assert exc.value.current == 1
    assert store.append("t1", 1, "undo", None) == 2
    assert store.append("t1", 2, "command", {"actor": "orc", "do": "end_turn"}) == 3
    log = store.log("t1")
    assert [(e.seq, e.kind) for e in log] == [(1, "command"), (2, "undo"), (3, "command")]
    assert [e.seq for e in effective(log)] == [3]
    assert store.version("t1") == 3 and store.grant("tok-t1") is not None
    assert store.grant("nope") is None and store.table("nope") is None


def test_concurrent_writers_on_one_version_only_one_wins(store: Store) -> None:
    new_table(store, "race")
    wins: list[int] = []
    stale: list[int] = []
    barrier = threading.Barrier(8)

    def write() -> None:
        barrier.wait()
        try:
            wins.append(store.append("race", 0, "command", {"actor": "orc", "do": "end_turn"}))
        except Stale as exc:
            stale.append(exc.current)

    threads = [threading.Thread(target=write) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert wins == [1] and stale == [1] * 7
    assert len(store.log("race")) == 1


def test_tracker_state_equals_the_replay_of_the_log(store: Store) -> None:
    tracker = Tracker(store)
    made = tracker.create(FIGHT, "fight.yaml")
    gm = Access(made.token("gm"), made.table_id, "gm", frozenset(), "GM")
    tracker.act(gm, 0, {"actor": "orc", "do": "end_turn"})
    tracker.act(gm, 1, {"actor": "valeros", "do": "attack", "target": "orc"})
    tracker.act(gm, 2, {"actor": "valeros", "do": "attack", "target": "orc"})
    tracker.undo(gm, 3)
    tracker.act(gm, 4, {"actor": "valeros", "do": "move", "path": [[1, 2]]})
    tracker.answer(gm, 5, {"do": "opportunity_attack"})
    with pytest.raises(Conflict):
        tracker.act(gm, 3, {"actor": "valeros", "do": "end_turn"})
    before = tracker.live(made.table_id).enc.view()
    # a fresh tracker (a restarted server) rebuilds the table from storage alone
    again = Tracker(Store(store.url))
    assert again.live(made.table_id).enc.view() == before
    assert again.live(made.table_id).version == 6
    # ...and that is the replay of the commands in force on the file
    _data, loaded = read_source(FIGHT, seed=store.table(made.table_id).seed)  # type: ignore[union-attr]
    enc = Encounter(loaded.setup, loaded.ruleset)
    enc.start()
    for e in effective(store.log(made.table_id)):
        enc.apply(e.command or {})
    assert enc.view() == before
    assert [c.do for c in enc.log] == ["end_turn", "attack", "move", "opportunity_attack"]
    again.store.close()


def test_a_write_from_another_process_is_seen_as_stale(store: Store) -> None:
    a = Tracker(store)
    b = Tracker(Store(store.url))
    made = a.create(FIGHT, "fight.yaml")
    gm = Access(made.token("gm"), made.table_id, "gm", frozenset(), "GM")
    a.live(made.table_id)
    b.act(gm, 0, {"actor": "orc", "do": "end_turn"})
    with pytest.raises(Conflict) as exc:  # a's memory is behind: the database refuses, a reloads
        a.act(gm, 0, {"actor": "orc", "do": "end_turn"})
    assert exc.value.version == 1
    assert a.live(made.table_id).version == 1 and a.live(made.table_id).enc.turn == "valeros"
    b.store.close()


def test_the_migrations_match_the_models(store: Store) -> None:
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from tactica.server.storage import metadata

    with store.engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), metadata)
    assert diff == []
