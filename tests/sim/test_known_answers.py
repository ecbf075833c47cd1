"""Whole runs against answers known without the simulator: a fight whose odds are exact, a variant
whose effect is exact, a variant with no effect at all, and a fixed-seed regression."""

from __future__ import annotations

import json
import os
from typing import Any

import numpy as np
import pytest

from tactica import Command
from tactica.engine.core import Encounter
from tactica.engine.state import Combatant, Window
from tactica.sim.policy import Plan, Policy, register_policy
from tactica.sim.scenario import SimSpec
from tactica.sim.stats import compare, mean_interval, verdict, wilson

from .helpers import HERE, LINE, from_file, run, scenario


def duelist(cid: str, side: str, at: list[int], ac: int) -> dict[str, Any]:
    """A pf1 duellist with 1 hp whose every hit (2 damage, no Str bonus) drops its foe to dying."""
    return {
        "id": cid,
        "side": side,
        "at": at,
        "stats": {"hp": 1, "ac": ac, "bab": 0, "weapons": [{"id": "club", "damage": "2"}]},
    }


def test_win_probability_of_an_alternating_duel_is_exact() -> None:
    """A strikes first with P(hit) = 1/2 (d20 >= 11 vs AC 11), B answers with 2/5 (d20 >= 13 vs
    AC 13); the first hit wins. P(A wins) = pa / (1 - (1 - pa)(1 - pb)) = 5/7, and the fight ends
    in round 1 with probability pa + (1 - pa) pb = 7/10 (a geometric length, mean 10/7)."""
    data = {
        "ruleset": "pf1",
        "map": {"width": 4, "height": 3},
        "combatants": [duelist("a", "red", [1, 1], 13), duelist("b", "blue", [2, 1], 11)],
        "initiative": ["a", "b"],
    }
    n = 3000
    t = run(SimSpec(scenario(data), fights=n, seed=2024)).tables[0]
    wins = int(np.sum(t.winner == "red"))
    lo, hi = wilson(wins, n, z=3.29)  # 99.9%: a wrong engine or policy fails, chance almost never
    assert lo <= 5 / 7 <= hi
    assert set(t.winner.tolist()) == {"red", "blue"}
    m, mlo, mhi = mean_interval(t.rounds.astype(float))
    half = (mhi - mlo) / 2 * 3.29 / 1.96
    assert m - half <= 10 / 7 <= m + half
    k1 = int(np.sum(t.rounds == 1))
    lo1, hi1 = wilson(k1, n, z=3.29)
    assert lo1 <= 0.7 <= hi1


class Turtle(Policy):
    """Never attacks: ends every turn with the third action ``defend`` (terza, R-TA-3-3)."""

    name = "turtle"

    def turn(self, enc: Encounter, me: Combatant) -> Plan:
        yield Command(actor=me.id, do="third", kind="defend")

    def answer(self, enc: Encounter, window: Window) -> Command:
        return Command(actor=window.actor, do="decline")


register_policy("turtle", Turtle)


def test_a_variant_with_an_exact_effect_is_measured_and_called_real() -> None:
    """terza: a swordsman (+5, 1d8+3) hits a defending turtle (AC 15 + defend) 6 times a fight.
    A (defend +2, AC 17): P(hit) = 9/20, a natural 20 doubles the dice: 6 x (0.45 x 7.5 + 0.05 x
    4.5) = 21.6 damage a fight. B (defend +10, AC 25): only the natural 20: 6 x 0.05 x 12 = 3.6.
    The difference is -18 exactly."""
    data = {
        "ruleset": "terza",
        "map": {"width": 4, "height": 3},
        "combatants": [
            {"id": "turtle", "side": "shell", "at": [1, 1], "stats": {"hp": 1000, "ac": 15}},
            {
                "id": "sword",
                "side": "blade",
                "at": [2, 1],
                "stats": {
                    "hp": 10,
                    "weapons": [{"id": "s", "damage": "1d8", "to_hit": 5, "damage_bonus": 3}],
                },
            },
        ],
        "initiative": ["turtle", "sword"],
    }
    spec = SimSpec(
        scenario(data),
        fights=400,
        seed=3,
        policies={"shell": "turtle"},
        max_rounds=6,
        compare={"terza.defend.ac_bonus": 10},
    )
    a, b = run(spec).tables
    assert set(a.winner.tolist()) == set(b.winner.tolist()) == {"unfinished"}
    diffs = {d.figure: d for d in compare(a, b)}
    dealt = diffs["blade damage_dealt"]
    assert dealt.a == pytest.approx(21.6, abs=4 * 1.1)  # about 4 standard errors
    assert dealt.b == pytest.approx(3.6, abs=4 * 0.4)
    assert dealt.low <= -18 <= dealt.high
    assert dealt.p < 1e-6
    assert diffs["shell third_actions"].diff == 0  # the turtle defends every turn in both arms
    line = verdict(list(diffs.values()), a.sides, spec.change_text())
    assert line.startswith("terza.defend.ac_bonus=10: no measurable effect on who wins")


def test_a_variant_that_changes_nothing_gives_identical_paired_fights() -> None:
    """No reach weapon on the line: pf1.reach.second_diagonal cannot matter, and as fight i of A
    and of B have the same seed, every fight is the same in both arms."""
    spec = SimSpec(from_file(LINE), fights=60, seed=5, compare={"pf1.reach.second_diagonal": False})
    a, b = run(spec).tables
    for d in compare(a, b):
        assert d.diff == 0
        assert d.p == 1.0 or np.isnan(d.p)
    assert "no measurable effect" in verdict(compare(a, b), a.sides, spec.change_text())


REGRESSION = HERE / "regression.json"


def test_fixed_seed_regression() -> None:
    """200 line fights, seed 7: the same numbers as when the file was written. A change of the
    rules, the dice or the policies shows here first; if it is meant, rewrite the file with
    TACTICA_UPDATE_REGRESSION=1 and say why in the commit."""
    t = run(SimSpec(from_file(LINE), fights=200, seed=7)).tables[0]
    got = {
        "winners": "".join(w[0] for w in t.winner.tolist()),
        "rounds": int(t.rounds.sum()),
        "commands": int(t.commands.sum()),
        "damage_dealt": t.metrics["damage_dealt"].sum(axis=0).tolist(),
        "opportunity_attacks": int(t.metrics["opportunity_attacks"].sum()),
    }
    if os.environ.get("TACTICA_UPDATE_REGRESSION"):
        REGRESSION.write_text(json.dumps(got, indent=1) + "\n")
    assert got == json.loads(REGRESSION.read_text())
