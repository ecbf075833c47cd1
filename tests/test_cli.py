"""The command line: replay (JSON and readable), validate, conformance, rules, schema, demo."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml
from typer.testing import CliRunner

from tactica.cli import app
from tactica.rulesets import find_ruleset

from .conftest import CONFORMANCE

runner = CliRunner()
AOO = CONFORMANCE / "pf1" / "aoo-leave-threatened.yaml"


def json_lines(output: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in output.splitlines() if line.startswith("{")]


def test_replay_json_has_start_steps_and_final() -> None:
    result = runner.invoke(app, ["replay", str(AOO), "--json"])
    assert result.exit_code == 0, result.output
    lines = json_lines(result.output)
    assert lines[0]["step"] == "start" and lines[0]["ok"] is True
    assert [line.get("step") for line in lines[1:-1]] == [0, 1, 2]
    assert lines[2]["pending"]["actor"] == "orc"
    final = lines[-1]["final"]
    assert final["combatants"]["valeros"]["hp"] == 11
    assert final["combatants"]["valeros"]["state"] == "ok"


def test_replay_is_byte_for_byte_repeatable() -> None:
    first = runner.invoke(app, ["replay", str(AOO), "--json"]).output
    assert first == runner.invoke(app, ["replay", str(AOO), "--json"]).output


def test_replay_with_a_script_and_seed(tmp_path: Path, duel: dict[str, Any]) -> None:
    enc = tmp_path / "duel.yaml"
    enc.write_text(yaml.safe_dump(duel))
    script = tmp_path / "script.yaml"
    script.write_text(
        yaml.safe_dump(
            [
                {"actor": "orc", "do": "attack", "target": "valeros"},
                {"actor": "orc", "do": "fly"},
                {"actor": "orc", "do": "end_turn"},
            ]
        )
    )
    out = runner.invoke(app, ["replay", str(enc), "--script", str(script), "--seed", "3", "--json"]).output
    lines = json_lines(out)
    assert lines[1]["ok"] is True
    assert lines[2] == {
        "step": 1,
        "ok": False,
        "error": {"code": "unknown_action", "message": "'fly' is not an action of the pf1 ruleset"},
    }
    assert lines[3]["events"][0] == {"type": "turn_ended", "actor": "orc"}
    again = runner.invoke(app, ["replay", str(enc), "--script", str(script), "--seed", "3", "--json"]).output
    assert again == out


def test_readable_replay_tells_the_story() -> None:
    result = runner.invoke(app, ["replay", str(AOO)])
    assert result.exit_code == 0
    assert "provokes an opportunity from orc" in result.output
    assert "takes 9 damage" in result.output


def test_file_errors_exit_2_without_traceback(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        "ruleset: pf1\nmap: {width: 3, height: 3}\n"
        "combatants:\n  - {id: a, side: x, at: [5, 5], stats: {hp: 3}}\n"
    )
    result = runner.invoke(app, ["replay", str(bad), "--json"])
    assert result.exit_code == 2
    assert "combatants[0].at" in result.output and "Traceback" not in result.output
    missing = runner.invoke(app, ["replay", str(tmp_path / "nope.yaml")])
    assert missing.exit_code == 2 and "no such file" in missing.output


def test_validate(tmp_path: Path) -> None:
    assert runner.invoke(app, ["validate", str(AOO)]).exit_code == 0
    bad = tmp_path / "bad.yaml"
    bad.write_text("ruleset: pf1\n")
    result = runner.invoke(app, ["validate", str(AOO), str(bad)])
    assert result.exit_code == 2 and "map" in result.output


def test_rules_lists_every_id_and_the_variants() -> None:
    result = runner.invoke(app, ["rules", "pf1"])
    assert result.exit_code == 0
    for rule_id in find_ruleset("pf1").rule_ids():
        assert rule_id in result.output
    assert "pf1.reach.second_diagonal" in result.output
    assert runner.invoke(app, ["rules", "chess"]).exit_code == 2


def test_schema_is_json_schema() -> None:
    result = runner.invoke(app, ["schema", "encounter"])
    schema = json.loads(result.output)
    assert set(schema["required"]) == {"ruleset", "map", "combatants"}
    assert "pf1" in schema["x-ruleset-stats"]
    case = json.loads(runner.invoke(app, ["schema", "case"]).output)
    assert "script" in case["properties"]
    assert runner.invoke(app, ["schema", "nonsense"]).exit_code == 2


def test_conformance_command_reports_coverage(tmp_path: Path) -> None:
    result = runner.invoke(app, ["conformance", str(CONFORMANCE / "pf1")])
    assert result.exit_code == 0, result.output
    assert "pf1:" in result.output and "passed, 0 failed" in result.output
    broken = tmp_path / "broken.yaml"
    data = yaml.safe_load(AOO.read_text())
    data["script"][1]["expect"]["pending"] = {"actor": "valeros"}
    broken.write_text(yaml.safe_dump(data))
    result = runner.invoke(app, ["conformance", str(broken)])
    assert result.exit_code == 1
    assert "step 1 (valeros move): pending" in result.output


def test_demo_runs() -> None:
    result = runner.invoke(app, ["demo"])
    assert result.exit_code == 0, result.output
    assert "Round 1" in result.output and "Valeros" in result.output
