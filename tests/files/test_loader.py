"""Loading encounter, case and script files: every mistake is a clear error naming file, line and path."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from tactica import EncounterError, load_encounter
from tactica.engine.errors import EncounterErrors
from tactica.files.loader import load_file, load_script

from ..conftest import fighter, pf1_encounter


def write(tmp_path: Path, data: Any, name: str = "fight.yaml") -> Path:
    p = tmp_path / name
    p.write_text(yaml.safe_dump(data, sort_keys=False) if not isinstance(data, str) else data)
    return p


def errors_of(path: Path) -> list[EncounterError]:
    with pytest.raises(EncounterError) as info:
        load_file(path)
    exc = info.value
    return exc.errors if isinstance(exc, EncounterErrors) else [exc]


def test_a_good_file_loads(tmp_path: Path, duel: dict[str, Any]) -> None:
    enc = load_encounter(write(tmp_path, duel))
    assert [c.id for c in enc.order] == ["valeros", "orc"]
    assert enc.setup.seed == 1


def test_stat_error_names_file_line_and_yaml_path(tmp_path: Path) -> None:
    text = """ruleset: pf1
map: {width: 8, height: 8}
combatants:
  - id: a
    side: x
    at: [0, 0]
    stats: {hp: 10}
  - id: b
    side: y
    at: [1, 0]
    stats:
      hp: 10
      bab: lots
"""
    [err] = errors_of(write(tmp_path, text))
    assert err.where == "combatants[1].stats.bab"
    assert err.line == 13
    assert err.file.endswith("fight.yaml")
    assert "whole number" in err.message and "lots" in err.message
    assert str(err).startswith(f"{err.file}:13: combatants[1].stats.bab: ")


def test_unknown_keys_are_errors_at_every_level(tmp_path: Path, duel: dict[str, Any]) -> None:
    duel["colour"] = "red"
    duel["map"]["wdth"] = 3
    duel["combatants"][0]["stats"]["strength"] = 18
    duel["combatants"][1]["stats"]["weapons"][0]["sharp"] = True
    wheres = {e.where for e in errors_of(write(tmp_path, duel))}
    assert {
        "colour",
        "map.wdth",
        "combatants[0].stats.strength",
        "combatants[1].stats.weapons[0].sharp",
    } <= wheres


def test_wrong_types_are_errors(tmp_path: Path, duel: dict[str, Any]) -> None:
    duel["map"]["width"] = "eight"
    duel["combatants"][0]["stats"]["hp"] = "20"
    wheres = {e.where for e in errors_of(write(tmp_path, duel))}
    assert {"map.width", "combatants[0].stats.hp"} <= wheres


def test_squares_off_the_map_walls_and_shared_squares(tmp_path: Path) -> None:
    data = pf1_encounter(
        fighter("a", "x", [9, 0]),
        fighter("b", "y", [1, 1]),
        fighter("c", "y", [1, 1]),
        fighter("d", "y", [2, 2]),
        width=4,
        height=4,
    )
    data["map"]["blocked"] = [[2, 2]]
    data["map"]["difficult"] = [[5, 5]]
    errs = errors_of(write(tmp_path, data))
    by_where = {e.where: e.message for e in errs}
    assert "off the 4x4 map" in by_where["combatants[0].at"]
    assert "already taken by b" in by_where["combatants[2].at"]
    assert "wall" in by_where["combatants[3].at"]
    assert "off the" in by_where["map.difficult[0]"]


def test_ids_unknown_and_duplicated(tmp_path: Path, duel: dict[str, Any]) -> None:
    duel["combatants"][1]["id"] = "valeros"
    duel["initiative"] = ["valeros", "goblin"]
    duel["surprise"] = ["nobody"]
    by_where = {e.where: e.message for e in errors_of(write(tmp_path, duel))}
    assert "already used" in by_where["combatants[1].id"]
    assert "goblin" in by_where["initiative[1]"]
    assert "nobody" in by_where["surprise[0]"]


def test_bad_ids_and_weapon_references(tmp_path: Path, duel: dict[str, Any]) -> None:
    duel["combatants"][0]["id"] = "Valeros!"
    duel["combatants"][1]["stats"]["wielding"] = ["axe"]
    by_where = {e.where: e.message for e in errors_of(write(tmp_path, duel))}
    assert "combatants[0].id" in by_where
    assert "axe" in by_where["combatants[1].stats"]


def test_dice_notation_is_checked_with_d20(tmp_path: Path, duel: dict[str, Any]) -> None:
    duel["combatants"][0]["stats"]["weapons"][0]["damage"] = "1d8+"
    [err] = errors_of(write(tmp_path, duel))
    assert err.where == "combatants[0].stats.weapons[0].damage"
    assert "dice notation" in err.message


def test_unknown_variant_and_wrong_variant_type(tmp_path: Path, duel: dict[str, Any]) -> None:
    duel["variant"] = {"pf1.nothing": True}
    [err] = errors_of(write(tmp_path, duel))
    assert err.where == "variant.pf1.nothing"
    assert "pf1.reach.second_diagonal" in err.message
    duel["variant"] = {"pf1.reach.second_diagonal": "yes"}
    [err] = errors_of(write(tmp_path, duel))
    assert err.where == "variant.pf1.reach.second_diagonal"
    assert "true or false" in err.message


def test_unknown_ruleset_and_condition(tmp_path: Path, duel: dict[str, Any]) -> None:
    duel["combatants"][0]["conditions"] = ["sleepy"]
    [err] = errors_of(write(tmp_path, duel))
    assert err.where == "combatants[0].conditions[0]"
    duel["ruleset"] = "gurps"
    [err] = errors_of(write(tmp_path, duel))
    assert err.where == "ruleset" and "gurps" in err.message and "pf1" in err.message


def test_not_yaml_missing_file_and_not_a_mapping(tmp_path: Path) -> None:
    [err] = errors_of(write(tmp_path, "ruleset: [pf1\n"))
    assert "YAML" in err.message and err.line is not None
    with pytest.raises(EncounterError, match="no such file"):
        load_file(tmp_path / "missing.yaml")
    [err] = errors_of(write(tmp_path, "- just\n- a list\n"))
    assert "mapping" in err.message


def test_missing_seed_is_chosen_and_recorded(tmp_path: Path, duel: dict[str, Any]) -> None:
    del duel["seed"]
    a = load_file(write(tmp_path, duel)).setup.seed
    assert isinstance(a, int)
    assert load_file(write(tmp_path, duel), seed=5).setup.seed == 5


def test_scripts_as_lists_steps_or_mappings(tmp_path: Path) -> None:
    steps, dice = load_script(write(tmp_path, [{"actor": "a", "do": "end_turn"}], "s.yaml"))
    assert steps[0].command == {"actor": "a", "do": "end_turn"} and dice is None
    steps, dice = load_script(
        write(
            tmp_path,
            {"dice": [3, 4], "script": [{"do": {"actor": "a", "do": "end_turn"}, "expect": {"ok": True}}]},
        )
    )
    assert steps[0].expect == {"ok": True} and dice == [3, 4]
    with pytest.raises(EncounterError, match="unknown key"):
        load_script(write(tmp_path, {"dice": [1], "steps": []}))


def test_yaml_booleans_are_yaml_1_2(tmp_path: Path) -> None:
    """``hand: off`` and ``facing: N`` are words, as the spec writes them; only true/false are booleans."""
    steps, _dice = load_script(
        write(
            tmp_path,
            "- {actor: a, do: attack, hand: off, defensively: true}\n- {actor: b, do: x, kind: no}\n",
        )
    )
    assert steps[0].command == {"actor": "a", "do": "attack", "hand": "off", "defensively": True}
    assert steps[1].command["kind"] == "no"
