"""Running a spec: fights cut into chunks, chunks played by local processes or a Dask cluster.

A chunk is a range of fight indices of one arm. Whoever plays it, fight ``i`` is played with the
seed :func:`~tactica.sim.runner.fight_seed(master, i) <tactica.sim.runner.fight_seed>`, and the
results are put back in fight order, so the same spec gives the same tables whatever the number of
workers, the chunk size or the backend.

Backends:

- ``local`` (default): with one worker, in this process; with more, a pool of processes started
  by ``forkserver`` (safe next to threads, each worker imports the engine once).
- ``dask``: a Dask distributed cluster at ``--scheduler tcp://HOST:8786``. Its workers need the
  same ``tactica`` installed (and a ruleset given as a file path at the same path). The chunks are
  sent as small picklable jobs; each worker builds the setup and policies once per scenario.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..i18n import current, language, ngettext
from .fmt import count
from .runner import METRICS, FightResult, Runner, fight_seed
from .scenario import Scenario, SimSpec
from .stats import FightTable

Progress = Callable[[int], None]
"""Called with the number of fights just finished."""


@dataclass(frozen=True)
class Job:
    """Fights ``start`` to ``stop - 1`` of one arm: everything a worker needs, and picklable."""

    scenario: Scenario
    variants: tuple[tuple[str, Any], ...]
    policies: tuple[tuple[str, str], ...]
    max_rounds: int
    seed: int
    arm: int
    start: int
    stop: int
    check: bool = False
    language: str = "en"
    """The language of the messages a fight records (an error's): the caller's, so that a run gives
    the same results whatever the number of workers or the backend."""


@dataclass(frozen=True)
class Chunk:
    """A job's results, and the CPU time its worker spent playing them."""

    arm: int
    start: int
    results: list[FightResult]
    cpu_seconds: float


_RUNNERS: dict[tuple[Any, ...], Runner] = {}


def runner_for(job: Job) -> Runner:
    """The worker's runner for a job's scenario, variants and policies (built once, kept)."""
    key = (job.scenario.key, job.variants, job.policies, job.max_rounds, job.check)
    runner = _RUNNERS.get(key)
    if runner is None:
        loaded = job.scenario.load(dict(job.variants))
        runner = Runner(loaded.setup, loaded.ruleset, dict(job.policies), job.max_rounds, job.check)
        _RUNNERS[key] = runner
    return runner


def run_job(job: Job) -> Chunk:
    """Play a job's fights (this is what a worker runs)."""
    runner = runner_for(job)
    t0 = time.process_time()
    with language(job.language):
        results = [runner.play(i, fight_seed(job.seed, i))[0] for i in range(job.start, job.stop)]
    return Chunk(job.arm, job.start, results, time.process_time() - t0)


def jobs_for(spec: SimSpec, chunk: int) -> list[Job]:
    policies = tuple(sorted(spec.policies.items()))
    lang = current()
    out = []
    for a, arm in enumerate(spec.arms):
        variants = tuple(sorted(arm.variants.items()))
        for start in range(0, spec.fights, chunk):
            stop = min(spec.fights, start + chunk)
            out.append(
                Job(
                    spec.scenario,
                    variants,
                    policies,
                    spec.max_rounds,
                    spec.seed,
                    a,
                    start,
                    stop,
                    check=spec.check,
                    language=lang,
                )
            )
    return out


def chunk_size(fights: int, workers: int) -> int:
    """Enough chunks for an even spread and a lively progress bar, few enough to cost nothing."""
    return max(1, min(500, math.ceil(fights / max(1, workers * 8))))


# -- backends -------------------------------------------------------------------------------------------
class Backend:
    """Plays jobs and yields their chunks as they finish (in any order)."""

    workers = 1

    def run(self, jobs: list[Job]) -> Iterator[Chunk]:
        raise NotImplementedError

    def describe(self) -> str:
        raise NotImplementedError


PRELOAD = [
    "tactica.sim.batch",
    "tactica.sim.sense.pf1",
    "tactica.sim.sense.terza",
    "tactica.sim.sense.lagornis",
]
"""What the fork server imports once, before it forks the workers, so they start warm (it skips
a module that cannot be imported, such as the sense of a ruleset that is not installed)."""


class LocalBackend(Backend):
    """This machine: in process with one worker, else a pool of ``workers`` processes.

    Used as a context manager (``with LocalBackend(4) as backend: ...``) it keeps its pool for
    several runs (a sweep over variant values pays the start of the workers once); otherwise each
    run starts and stops its own."""

    def __init__(self, workers: int | None = None) -> None:
        self.workers = max(1, workers or os.cpu_count() or 1)
        self._pool: ProcessPoolExecutor | None = None

    def describe(self) -> str:
        # Translators: where the fights were played: this machine, with {n} processes
        return ngettext("local, {n} worker", "local, {n} workers", self.workers).format(n=count(self.workers))

    def __enter__(self) -> LocalBackend:
        if self.workers > 1:
            self._pool = self._start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)
            self._pool = None

    def _start(self) -> ProcessPoolExecutor:
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(PRELOAD)
        return ProcessPoolExecutor(max_workers=self.workers, mp_context=ctx)

    def run(self, jobs: list[Job]) -> Iterator[Chunk]:
        if self.workers == 1:
            for job in jobs:
                yield run_job(job)
            return
        pool = self._pool or self._start()
        pending: set[Future[Chunk]] = {pool.submit(run_job, job) for job in jobs}
        try:
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for fut in done:
                    yield fut.result()
        finally:
            for fut in pending:
                fut.cancel()
            if pool is not self._pool:
                pool.shutdown(cancel_futures=True)


class DaskBackend(Backend):
    """A Dask distributed cluster, by its scheduler's address (``tcp://10.0.0.5:8786``)."""

    def __init__(self, scheduler: str) -> None:
        self.scheduler = scheduler
        self.workers = 0

    def describe(self) -> str:
        # Translators: where the fights were played: a Dask cluster at {address} with {n} workers
        return ngettext(
            "dask at {address}, {n} worker", "dask at {address}, {n} workers", self.workers
        ).format(address=self.scheduler, n=count(self.workers))

    def run(self, jobs: list[Job]) -> Iterator[Chunk]:
        from distributed import Client, as_completed

        with Client(self.scheduler, timeout="30s") as client:  # type: ignore[no-untyped-call]
            self.workers = len(client.scheduler_info().get("workers", {}))
            futures = client.map(run_job, jobs, pure=False)
            for fut in as_completed(futures):  # type: ignore[no-untyped-call]
                yield fut.result()


def make_backend(name: str, workers: int | None = None, scheduler: str | None = None) -> Backend:
    from ..engine.errors import EncounterError
    from ..i18n import _

    if name == "local":
        return LocalBackend(workers)
    if name == "dask":
        if not scheduler:
            raise EncounterError(
                _("--backend dask needs --scheduler ADDRESS (for example tcp://127.0.0.1:8786)"), "backend"
            )
        return DaskBackend(scheduler)
    raise EncounterError(_("unknown backend {name!r} (local or dask)").format(name=name), "backend")


# -- the run ----------------------------------------------------------------------------------------------
@dataclass
class RunResult:
    """The tables of a run (one per arm), and how long it took."""

    spec: SimSpec
    tables: list[FightTable]
    wall_seconds: float
    cpu_seconds: float
    backend: str


def simulate(
    spec: SimSpec, backend: Backend | None = None, progress: Progress | None = None, chunk: int | None = None
) -> RunResult:
    """Run ``spec`` on ``backend`` (local, all cores, by default); ``progress`` hears of each chunk."""
    loaded = spec.validate()
    backend = backend or LocalBackend()
    jobs = jobs_for(spec, chunk or chunk_size(spec.fights, backend.workers))
    t0 = time.perf_counter()
    chunks: list[Chunk] = []
    for c in backend.run(jobs):
        chunks.append(c)
        if progress is not None:
            progress(len(c.results))
    wall = time.perf_counter() - t0
    setup = loaded.setup
    ids = [c.id for c in setup.combatants]
    side_of = {c.id: c.side for c in setup.combatants}
    sides = list(dict.fromkeys(c.side for c in setup.combatants))
    tables = []
    for a in range(len(spec.arms)):
        ordered = sorted((c for c in chunks if c.arm == a), key=lambda c: c.start)
        tables.append(table_of([r for c in ordered for r in c.results], ids, sides, side_of))
    return RunResult(spec, tables, wall, sum(c.cpu_seconds for c in chunks), backend.describe())


def table_of(
    results: Iterable[FightResult], ids: list[str], sides: list[str], side_of: dict[str, str]
) -> FightTable:
    rows = list(results)
    n, k = len(rows), len(ids)
    metrics = {
        m: np.array([r.metrics[j] for r in rows], dtype=np.int64).reshape(n, k) for j, m in enumerate(METRICS)
    }
    return FightTable(
        ids=ids,
        sides=sides,
        side_of=side_of,
        index=np.array([r.index for r in rows], dtype=np.int64),
        seed=np.array([r.seed for r in rows], dtype=np.uint64),
        winner=np.array([r.winner for r in rows], dtype=object),
        rounds=np.array([r.rounds for r in rows], dtype=np.int64),
        commands=np.array([r.commands for r in rows], dtype=np.int64),
        refused=np.array([r.refused for r in rows], dtype=np.int64),
        metrics=metrics,
        errors=[(r.index, r.error) for r in rows if r.error is not None],
    )
