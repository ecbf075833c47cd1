"""The load benchmark runs (briefly): it must not rot between the times someone measures with it."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from .conftest import ROOT

pytestmark = pytest.mark.timeout(120)


def test_load_benchmark_runs_bounded(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("load_tracker", ROOT / "benchmarks" / "load_tracker.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    res = bench.run(f"sqlite:///{tmp_path / 'load.sqlite3'}", tables=3, seconds=30.0, max_commands=60)
    assert res["refused"] == 0
    assert 50 <= res["commands"] <= 60  # bounded by the command budget, well before the time limit
    assert res["write_p50_ms"] > 0 and res["commands_per_s"] > 0
