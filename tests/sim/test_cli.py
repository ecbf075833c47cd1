"""``tactica simulate``: the command, its files, its comparisons, and a fight exported as a case."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow.parquet as pq
from typer.testing import CliRunner

from tactica.cli import app
from tactica.files.conformance import run_case

from .helpers import EXAMPLES, LINE

PNG = b"\x89PNG\r\n\x1a\n"


def simulate(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["simulate", *args])
    return result.exit_code, result.output


def test_a_run_prints_the_summary_and_writes_every_file(tmp_path: Path) -> None:
    code, out = simulate(str(LINE), "-n", "40", "-w", "1", "--seed", "3", "--out", str(tmp_path))
    assert code == 0, out
    for words in ("Who wins", "heroes win", "Rounds: mean", "damage dealt", "fighter0"):
        assert words in out
    rows = (tmp_path / "fights.csv").read_text().splitlines()
    assert len(rows) == 41
    assert rows[0].startswith('"arm","fight","seed","winner","rounds"')
    assert pq.read_table(tmp_path / "fights.parquet").num_rows == 40
    summary = json.loads((tmp_path / "summary.json").read_text())
    arm = summary["arms"]["A"]
    assert arm["fights"] == 40
    assert (
        sum(w["count"] for w in arm["wins"].values()) + arm["draws"]["count"] + arm["unfinished"]["count"]
        == 40
    )
    assert set(arm["rounds"]["quantiles"]) == {"5", "25", "50", "75", "95"}
    for png in ("win_rates.png", "rounds.png", "damage.png"):
        assert (tmp_path / png).read_bytes().startswith(PNG)
    assert not (tmp_path / "compare.png").exists()


def test_a_simulation_file_with_a_comparison(tmp_path: Path) -> None:
    sim = tmp_path / "sim.yaml"
    sim.write_text(
        f"encounter: {EXAMPLES / 'terza-skirmish.yaml'}\n"
        "fights: 30\nseed: 2\npolicies: {heroes: cautious}\n"
        "compare: {terza.third_action.no_after_move: true}\n"
    )
    code, out = simulate(str(sim), "-w", "1", "--out", str(tmp_path / "out"))
    assert code == 0, out
    assert "B: terza.third_action.no_after_move=true" in out
    assert "terza.third_action.no_after_move=true:" in out  # the verdict line
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert summary["policies"] == {"heroes": "cautious"}
    assert summary["compare"]["verdict"].startswith("terza.third_action.no_after_move=true")
    figures = {f["figure"]: f for f in summary["compare"]["figures"]}
    assert figures["heroes third_actions"]["diff"] < 0  # moving now forbids the third action
    assert len((tmp_path / "out" / "fights.csv").read_text().splitlines()) == 61
    assert (tmp_path / "out" / "compare.png").read_bytes().startswith(PNG)


def test_the_same_seed_gives_the_same_numbers(tmp_path: Path) -> None:
    for name in ("a", "b"):
        code, out = simulate(
            str(LINE), "-n", "25", "-w", "1", "--seed", "9", "--out", str(tmp_path / name), "--no-plots"
        )
        assert code == 0, out
    assert (tmp_path / "a" / "fights.csv").read_bytes() == (tmp_path / "b" / "fights.csv").read_bytes()


def test_a_fight_exported_as_a_case_replays_to_the_same_end(tmp_path: Path) -> None:
    code, out = simulate(str(LINE), "--seed", "3", "--dump-fight", "7", "--out", str(tmp_path))
    assert code == 0, out
    case = tmp_path / "fight-7.yaml"
    assert "fight 7 (arm A)" in out
    result = run_case(case)
    assert result.failures == []
    assert result.ruleset == "pf1"
    code, out = simulate(str(LINE), "--seed", "3", "--dump-fight", "7", "--out", str(tmp_path))
    assert case.read_text() == (tmp_path / "fight-7.yaml").read_text()
    code, out = simulate(
        str(LINE),
        "--seed",
        "3",
        "--dump-fight",
        "7",
        "--compare",
        "pf1.reach.second_diagonal=false",
        "--out",
        str(tmp_path),
    )
    assert code == 0
    assert run_case(tmp_path / "fight-7-B.yaml").failures == []


def test_mistakes_are_reported_plainly(tmp_path: Path) -> None:
    code, out = simulate(str(LINE), "-n", "5", "--variant", "pf1.no_such_rule=true")
    assert code == 2 and "unknown variant 'pf1.no_such_rule'" in out
    code, out = simulate(str(LINE), "-n", "5", "--policy", "heroes=genius")
    assert code == 2 and "unknown policy 'genius'" in out
    code, out = simulate(str(LINE), "-n", "5", "--compare", "pf1.reach.second_diagonal")
    assert code == 2 and "write name=value" in out
    sim = tmp_path / "sim.yaml"
    sim.write_text(f"encounter: {LINE}\nfigths: 10\n")
    code, out = simulate(str(sim))
    assert code == 2 and "figths" in out
