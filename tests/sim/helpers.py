"""Shared pieces of the simulator tests."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from tactica.sim.batch import Backend, LocalBackend, RunResult, simulate
from tactica.sim.scenario import Scenario, SimSpec, read
from tactica.sim.stats import FightTable

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
ENCOUNTERS = HERE / "encounters"
LINE = ROOT / "benchmarks" / "encounters" / "pf1-4v4-line.yaml"
EXAMPLES = ROOT / "src" / "tactica" / "sim" / "examples"


def scenario(data: dict[str, Any]) -> Scenario:
    return Scenario.from_data(data)


def from_file(path: Path) -> Scenario:
    return read(path)[0]


def run(spec: SimSpec, backend: Backend | None = None, chunk: int | None = None) -> RunResult:
    return simulate(spec, backend or LocalBackend(1), chunk=chunk)


def same_tables(a: FightTable, b: FightTable) -> bool:
    """Every figure of every fight equal."""
    if a.errors != b.errors:
        return False
    for name in ("index", "seed", "winner", "rounds", "commands", "refused"):
        if not np.array_equal(getattr(a, name), getattr(b, name)):
            return False
    return all(np.array_equal(a.metrics[m], b.metrics[m]) for m in a.metrics)
