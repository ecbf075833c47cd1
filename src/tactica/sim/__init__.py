"""The playtest simulator: policies, Monte Carlo runs, variant A/B comparison, reports and plots.

>>> from tactica.sim import SimSpec, read_scenario, simulate
>>> scenario, _options = read_scenario("fight.yaml")
>>> result = simulate(SimSpec(scenario, fights=10000, compare={"terza.defend.ac_bonus": 3}))
>>> a, b = result.tables            # per-fight arrays, fight i of A and of B share their seed

The command line is ``tactica simulate`` (:mod:`tactica.sim.cli`); the guide is docs/simulator.md.
Heavy parts (numpy tables, scipy statistics, matplotlib) load only when used.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .batch import Backend, DaskBackend, LocalBackend, RunResult, simulate
    from .policy import (
        AGGRESSIVE,
        CAUTIOUS,
        Plan,
        Policy,
        Sense,
        Style,
        command,
        make_policy,
        policy_names,
        register_policy,
        register_sense,
    )
    from .runner import METRICS, FightResult, Runner, fight_seed
    from .scenario import Scenario, SimSpec
    from .scenario import read as read_scenario

_WHERE = {
    **dict.fromkeys(("Backend", "DaskBackend", "LocalBackend", "RunResult", "simulate"), "batch"),
    **dict.fromkeys(
        (
            "AGGRESSIVE",
            "CAUTIOUS",
            "Plan",
            "Policy",
            "Sense",
            "Style",
            "command",
            "make_policy",
            "policy_names",
            "register_policy",
            "register_sense",
        ),
        "policy",
    ),
    **dict.fromkeys(("METRICS", "FightResult", "Runner", "fight_seed"), "runner"),
    **dict.fromkeys(("Scenario", "SimSpec"), "scenario"),
}


def __getattr__(name: str) -> Any:
    """The public names, imported on first use: ``tactica simulate`` is registered with the main
    command line by importing :mod:`tactica.sim.cli`, which must not cost every other command the
    simulator's imports (numpy and friends)."""
    if name == "read_scenario":
        return import_module(".scenario", __name__).read
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f".{module}", __name__), name)


__all__ = [
    "AGGRESSIVE",
    "CAUTIOUS",
    "METRICS",
    "Backend",
    "DaskBackend",
    "FightResult",
    "LocalBackend",
    "Plan",
    "Policy",
    "RunResult",
    "Runner",
    "Scenario",
    "Sense",
    "SimSpec",
    "Style",
    "command",
    "fight_seed",
    "make_policy",
    "policy_names",
    "read_scenario",
    "register_policy",
    "register_sense",
    "simulate",
]
