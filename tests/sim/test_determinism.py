"""The same seed gives the same results whatever plays the fights: one process, several, in chunks
of any size, or a Dask cluster (a scheduler and two workers on loopback)."""

from __future__ import annotations

import pytest

from tactica.engine.errors import EncounterError
from tactica.sim.batch import DaskBackend, LocalBackend, make_backend
from tactica.sim.runner import Runner, fight_seed, policy_seed
from tactica.sim.scenario import SimSpec

from .helpers import EXAMPLES, LINE, from_file, run, same_tables

SPEC = SimSpec(from_file(LINE), fights=48, seed=11, compare={"pf1.reach.second_diagonal": False})


def test_seeds_depend_on_the_master_seed_and_the_index_only() -> None:
    assert fight_seed(1, 5) == fight_seed(1, 5)
    seeds = {fight_seed(m, i) for m in range(3) for i in range(200)}
    assert len(seeds) == 600  # neighbouring fights and master seeds share no dice
    assert policy_seed(fight_seed(1, 5), "heroes") != policy_seed(fight_seed(1, 5), "monsters")


def test_chunk_size_and_order_change_nothing() -> None:
    whole = run(SPEC, chunk=48)
    pieces = run(SPEC, chunk=5)
    for a, b in zip(whole.tables, pieces.tables, strict=True):
        assert same_tables(a, b)
    other = run(SimSpec(SPEC.scenario, fights=48, seed=12))
    assert not same_tables(whole.tables[0], other.tables[0])


def test_a_fight_is_the_same_alone_or_in_a_run() -> None:
    loaded = SPEC.scenario.load()
    alone, _enc = Runner(loaded.setup, loaded.ruleset, {}).play(17, fight_seed(11, 17))
    table = run(SPEC).tables[0]
    assert table.winner[17] == alone.winner
    assert table.rounds[17] == alone.rounds
    assert table.metrics["damage_dealt"][17].tolist() == list(alone.metrics[0])


def test_two_local_processes_give_the_one_process_results() -> None:
    one = run(SPEC)
    two = run(SPEC, LocalBackend(2))
    for a, b in zip(one.tables, two.tables, strict=True):
        assert same_tables(a, b)


def test_dask_cluster_gives_the_local_results() -> None:
    from distributed import LocalCluster

    spec = SimSpec(
        from_file(EXAMPLES / "terza-skirmish.yaml"), fights=24, seed=4, policies={"heroes": "cautious"}
    )
    local = run(spec)
    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
    ) as cluster:
        backend = DaskBackend(cluster.scheduler_address)
        remote = run(spec, backend, chunk=5)
        assert backend.workers == 2
    assert same_tables(local.tables[0], remote.tables[0])
    assert remote.backend.startswith("dask at tcp://127.0.0.1")


def test_backend_names() -> None:
    assert isinstance(make_backend("local", 3), LocalBackend)
    assert make_backend("local", 3).workers == 3
    with pytest.raises(EncounterError, match="--scheduler"):
        make_backend("dask")
    with pytest.raises(EncounterError, match="unknown backend"):
        make_backend("slurm")
