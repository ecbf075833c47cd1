"""Benchmark: pf1 4v4 fights played to the end with a simple policy, through the public API.

Prints fights/s, commands/s and legal_commands latency for each encounter, and the ratio to a bare
loop that only rolls the same number of dice in the same process (the floor). Run:
``.venv/bin/python benchmarks/run.py [--fights N] [--profile]``.
"""

from __future__ import annotations

import argparse
import cProfile
import dataclasses
import pstats
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from policy import play_fight

from tactica import Encounter
from tactica.engine.dice import SeededDice
from tactica.files.loader import load_file

HERE = Path(__file__).resolve().parent
ENCOUNTERS = ["pf1-4v4-line.yaml", "pf1-4v4-field.yaml"]


def run_fights(setup: object, ruleset: object, n: int) -> tuple[float, int, int, dict[str, int]]:
    commands = dice = 0
    wins: dict[str, int] = {}
    t0 = time.perf_counter()
    for i in range(n):
        enc = Encounter(dataclasses.replace(setup, seed=i), ruleset)  # type: ignore[type-var]
        winner, cmds = play_fight(enc)
        commands += cmds
        dice += enc.dice.position
        wins[str(winner)] = wins.get(str(winner), 0) + 1
    return time.perf_counter() - t0, commands, dice, wins


def bare_dice(n_fights: int, dice_per_fight: float) -> float:
    """The same dice, no rules: d20s and d8s rolled from the same kind of source."""
    t0 = time.perf_counter()
    total = 0
    per = int(dice_per_fight)
    for i in range(n_fights):
        d = SeededDice(i)
        for _ in range(per):
            total += d.roll(20) + 3 >= 15
    return time.perf_counter() - t0


def legal_latency(setup: object, ruleset: object, samples: int = 200) -> float:
    from policy import play_turn

    enc = Encounter(dataclasses.replace(setup, seed=12345), ruleset)  # type: ignore[type-var]
    enc.start()
    t = 0.0
    count = 0
    while count < samples and enc.outcome() is None:
        actor = enc.pending.actor if enc.pending else enc.turn
        if actor is None:
            break
        t0 = time.perf_counter()
        list(enc.legal_commands(actor))
        t += time.perf_counter() - t0
        count += 1
        play_turn(enc)
    return t / max(1, count)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--fights", type=int, default=2000)
    ap.add_argument("--profile", action="store_true")
    a = ap.parse_args()
    for name in ENCOUNTERS:
        loaded = load_file(HERE / "encounters" / name)
        setup, rs = loaded.setup, loaded.ruleset
        if a.profile:
            prof = cProfile.Profile()
            prof.enable()
            run_fights(setup, rs, a.fights // 4)
            prof.disable()
            print(f"== profile: {name}")
            pstats.Stats(prof).sort_stats("tottime").print_stats(18)
            continue
        run_fights(setup, rs, 50)  # warm-up
        secs, commands, dice, wins = run_fights(setup, rs, a.fights)
        bare = bare_dice(a.fights, dice / a.fights)
        lat = legal_latency(setup, rs)
        fps = a.fights / secs
        print(f"== {name}: {a.fights} fights, wins {wins}")
        print(
            f"   engine : {fps:10.0f} fights/s  {commands / secs:10.0f} commands/s  "
            f"{commands / a.fights:.1f} commands/fight"
        )
        print(
            f"   bare   : {a.fights / bare:10.0f} fights/s  "
            f"({dice / a.fights:.1f} dice per fight, same source)"
        )
        print(f"   ratio  : engine is {bare / secs:.3f} of the bare loop's speed ({secs / bare:.1f}x slower)")
        print(f"   legal_commands: {lat * 1e6:.0f} µs per call (mean over a fight)")


if __name__ == "__main__":
    main()
