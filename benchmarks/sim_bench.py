"""Benchmark: the simulator on pf1-4v4-line.yaml, every rule on, both sides ``aggressive``.

Measures, in one run:

1. **one core**: fights/s through the whole pipeline of ``tactica simulate`` in one process
   (policies, engine, reading the events, the fight table, the statistics of the summary);
2. **two workers**: the same on a pool of 2 local processes (twice the fights), started and
   warmed up first (steady state), and from a cold start (the pool's start-up included);
   scaling efficiency = fights/s on 2 workers / (2 x fights/s on one core);
3. **the bare-dice loop** of ``benchmarks/run.py``: the same number of dice per fight rolled from
   the same source with no rules at all (the floor), and the ratio to it;
4. **where the time goes**: the same fights again, once with their recorded commands fed through
   the runner by a policy that decides nothing, once applied to the engine directly: the
   differences are the policies' and the runner's shares.

Run: ``.venv/bin/python benchmarks/sim_bench.py [--fights 4000] [--profile]``.
"""

from __future__ import annotations

import argparse
import cProfile
import dataclasses
import os
import pstats
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from run import bare_dice  # the very loop benchmarks/run.py reports against

from tactica import Command, Encounter
from tactica.engine.state import Combatant, Window
from tactica.sim.batch import LocalBackend, simulate
from tactica.sim.policy import Plan, Policy, register_policy
from tactica.sim.runner import Runner, fight_seed
from tactica.sim.scenario import SimSpec, read
from tactica.sim.stats import summarize

HERE = Path(__file__).resolve().parent
ENCOUNTER = HERE / "encounters" / "pf1-4v4-line.yaml"


def one_core(spec: SimSpec) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of a whole in-process run and its summary."""
    w0, c0 = time.perf_counter(), time.process_time()
    result = simulate(spec, LocalBackend(1))
    summarize(result.tables[0])
    return time.perf_counter() - w0, time.process_time() - c0


def two_workers(spec: SimSpec) -> tuple[float, float, float]:
    """(steady-state wall seconds, the workers' CPU seconds, cold-start wall seconds) of ``spec``
    on 2 local processes."""
    with LocalBackend(2) as backend:
        simulate(dataclasses.replace(spec, fights=400), backend)  # start and warm both workers
        t0 = time.perf_counter()
        result = simulate(spec, backend)
        summarize(result.tables[0])
        steady = time.perf_counter() - t0
    t0 = time.perf_counter()
    summarize(simulate(spec, LocalBackend(2)).tables[0])
    return steady, result.cpu_seconds, time.perf_counter() - t0


class Replay(Policy):
    """Feeds a recorded fight's commands back: a policy that costs (almost) nothing."""

    name = "replay"
    queue: list[Command] = []

    def turn(self, enc: Encounter, me: Combatant) -> Plan:
        while Replay.queue and Replay.queue[0].actor == me.id:
            yield Replay.queue.pop(0)

    def answer(self, enc: Encounter, window: Window) -> Command:
        return Replay.queue.pop(0)


def shares(spec: SimSpec, n: int) -> dict[str, float]:
    """Seconds per fight: the whole fight, the runner with a free policy, the engine alone."""
    loaded = spec.scenario.load()
    runner = Runner(loaded.setup, loaded.ruleset, {})
    logs = []
    t0 = time.process_time()
    for i in range(n):
        _r, enc = runner.play(i, fight_seed(spec.seed, i))
        logs.append(list(enc.log))
    full = time.process_time() - t0
    register_policy("replay", Replay)
    replay = Runner(loaded.setup, loaded.ruleset, {"*": "replay"})
    t0 = time.process_time()
    for i in range(n):
        Replay.queue = list(logs[i])
        replay.play(i, fight_seed(spec.seed, i))
    runner_only = time.process_time() - t0
    t0 = time.process_time()
    for i in range(n):
        enc = Encounter(dataclasses.replace(runner.setup, seed=fight_seed(spec.seed, i)), runner.ruleset)
        enc.start()
        for cmd in logs[i]:
            enc.apply(cmd)
            enc.outcome()
    engine = time.process_time() - t0
    return {"fight": full / n, "runner": runner_only / n, "engine": engine / n}


def dice_per_fight(spec: SimSpec, n: int) -> float:
    loaded = spec.scenario.load()
    runner = Runner(loaded.setup, loaded.ruleset, {})
    return sum(runner.play(i, fight_seed(spec.seed, i))[1].dice.position for i in range(n)) / n


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--fights", type=int, default=4000)
    ap.add_argument("--profile", action="store_true")
    a = ap.parse_args()
    scenario, _sim = read(ENCOUNTER)
    spec = SimSpec(scenario, fights=a.fights, seed=1)
    if a.profile:
        prof = cProfile.Profile()
        prof.enable()
        simulate(dataclasses.replace(spec, fights=a.fights // 4), LocalBackend(1))
        prof.disable()
        pstats.Stats(prof).sort_stats("tottime").print_stats(25)
        return
    summarize(simulate(dataclasses.replace(spec, fights=200), LocalBackend(1)).tables[0])  # warm-up
    wall1, cpu1 = one_core(spec)
    fps1 = a.fights / wall1
    double = dataclasses.replace(spec, fights=2 * a.fights)
    steady, cpu2, cold = two_workers(double)
    fps2, fps2_cold = 2 * a.fights / steady, 2 * a.fights / cold
    dpf = dice_per_fight(spec, 300)
    bare = bare_dice(a.fights, dpf)
    fps_bare = a.fights / bare
    parts = shares(spec, min(a.fights, 1500))
    out: dict[str, Any] = {
        "fights": a.fights,
        "one_core_fights_per_s": fps1,
        "one_core_fights_per_cpu_s": a.fights / cpu1,
        "two_workers_fights_per_s": fps2,
        "two_workers_cold_fights_per_s": fps2_cold,
        "two_workers_fights_per_worker_cpu_s": 2 * a.fights / cpu2,
        "scaling_efficiency": fps2 / (2 * fps1),
        "two_workers_busy": cpu2 / (2 * steady),
        "bare_dice_fights_per_s": fps_bare,
        "dice_per_fight": dpf,
    }
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"== simulator on {ENCOUNTER.name} (every rule on, aggressive v aggressive); load average {load}")
    print(f"   one core  : {fps1:8.0f} fights/s  ({out['one_core_fights_per_cpu_s']:.0f} per CPU second)")
    print(
        f"   2 workers : {fps2:8.0f} fights/s steady, {fps2_cold:.0f} from a cold start;"
        f" scaling efficiency {100 * out['scaling_efficiency']:.0f}%"
        f" ({out['two_workers_fights_per_worker_cpu_s']:.0f} per worker CPU second)"
    )
    print(
        f"   (the 2 workers were busy {100 * out['two_workers_busy']:.0f}% of the time: below 100%, they"
        " waited for a core, the machine is not idle and the efficiency above is a floor)"
    )
    print(f"   bare dice : {fps_bare:8.0f} fights/s ({dpf:.1f} dice a fight, the same source)")
    ratio = fps1 / fps_bare
    print(f"   ratio     : the simulator runs at {ratio:.3f} of the bare loop ({1 / ratio:.0f}x slower)")
    f = parts["fight"]
    policies, runner, engine = f - parts["runner"], parts["runner"] - parts["engine"], parts["engine"]
    print(
        f"   per fight : {1e3 * f:.2f} ms = engine {1e3 * engine:.2f} ({100 * engine / f:.0f}%)"
        f" + policies {1e3 * policies:.2f} ({100 * policies / f:.0f}%)"
        f" + runner and measuring {1e3 * runner:.2f} ({100 * runner / f:.0f}%)"
    )


if __name__ == "__main__":
    main()
