"""The designer's guide (docs/simulator.md): its examples run as written."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np
import yaml

from tactica.sim.scenario import SimFileModel, SimSpec

from .helpers import ROOT, run, scenario

GUIDE = (ROOT / "docs" / "simulator.md").read_text()


def blocks(lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", GUIDE, re.S)


def test_the_simulation_file_example_is_a_valid_simulation_file() -> None:
    sim = next(b for b in blocks("yaml") if b.startswith("encounter:"))
    model = SimFileModel.model_validate(yaml.safe_load(sim))
    assert model.fights == 10000 and model.policies == {"heroes": "cautious", "monsters": "aggressive"}


def test_the_policy_example_plays() -> None:
    code = next(b for b in blocks("python") if "class Archer" in b)
    namespace: dict[str, Any] = {}
    exec(compile(code, "simulator.md", "exec"), namespace)
    archer = {
        "id": "robin",
        "side": "outlaws",
        "at": [0, 2],
        "stats": {
            "hp": 30,
            "bab": 3,
            "weapons": [{"id": "bow", "kind": "ranged", "damage": "1d8", "range_m": 30}],
        },
    }
    sheriff = {
        "id": "sheriff",
        "side": "law",
        "at": [6, 2],
        "stats": {"hp": 12, "weapons": [{"id": "sword", "damage": "1d8"}]},
    }
    data = {"ruleset": "pf1", "map": {"width": 8, "height": 5}, "combatants": [archer, sheriff]}
    t = run(SimSpec(scenario(data), fights=30, seed=1, policies={"outlaws": "archer"})).tables[0]
    assert t.errors == [] and t.refused.sum() == 0
    assert np.mean(t.metrics["damage_dealt"][:, 0]) > 0  # robin shot
    assert np.mean(t.metrics["opportunity_attacks"][:, 1]) > 0  # shooting next to the sheriff provokes


def test_every_command_line_example_names_real_options() -> None:
    from tactica.sim.cli import simulate

    source = Path(simulate.__code__.co_filename).read_text()
    known = set(re.findall(r'"(--[a-z-]+)', source))
    for line in re.findall(r"^tactica simulate .*$", GUIDE, re.M):
        for option in re.findall(r"\s(--[a-z-]+)", line):
            assert option in known, (option, line)
