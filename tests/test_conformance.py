"""The conformance suite: every case passes, every rule id is covered, and the independent checker agrees."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tactica.files.conformance import case_files, coverage, run_case
from tactica.rulesets import available, find_ruleset

from .conftest import CONFORMANCE, ROOT, SHARED

CASES = case_files([CONFORMANCE])


@pytest.mark.parametrize("path", CASES, ids=[str(p.relative_to(CONFORMANCE)) for p in CASES])
def test_case_passes(path: Path) -> None:
    result = run_case(path)
    assert result.failures == [], "\n".join(result.failures)


def test_every_rule_id_is_covered() -> None:
    results = [run_case(p) for p in CASES]
    gaps = coverage(results, {name: find_ruleset(name).rule_ids() for name in available()})
    uncovered = {rs: ids for rs, ids in gaps.items() if ids}
    assert uncovered == {}, f"rule ids no conformance case cites: {uncovered}"


def test_cases_cite_only_known_rule_ids() -> None:
    known = {i for name in available() for i in find_ruleset(name).rule_ids()}
    for path in CASES:
        unknown = set(run_case(path).rules) - known
        assert not unknown, f"{path} cites unknown rule ids {unknown}"


def test_shared_examples_are_copied_unchanged() -> None:
    shared = SHARED / "conformance"
    assert shared.is_dir(), "../shared (the project's shared folder) must be beside the checkout"
    for src in shared.rglob("*.yaml"):
        ours = CONFORMANCE / src.relative_to(shared)
        if (CONFORMANCE / src.parent.name).is_dir():
            assert ours.read_text() == src.read_text(), f"{ours} differs from the shared example"


def test_independent_checker_passes() -> None:
    checker = SHARED / "conformance" / "check.py"
    assert checker.exists(), "../shared/conformance/check.py must be beside the checkout"
    tactica = shutil.which("tactica") or str(ROOT / ".venv" / "bin" / "tactica")
    proc = subprocess.run(
        [sys.executable, str(checker), "--cmd", f"{tactica} replay", str(CONFORMANCE)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert proc.stdout.strip().splitlines()[-1].endswith(" 0 failed")
