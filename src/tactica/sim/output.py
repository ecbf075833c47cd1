"""What a run leaves behind: a row per fight (CSV, Parquet), the JSON summary, and any fight
exported as a case file that ``tactica replay`` and ``tactica conformance`` run again."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pyarrow as pa  # type: ignore[import-untyped]  # pyarrow ships no type information
import pyarrow.csv as pacsv  # type: ignore[import-untyped]
import pyarrow.parquet as pq  # type: ignore[import-untyped]
import yaml

from .. import __version__
from ..i18n import _, ngettext
from .batch import RunResult
from .runner import METRICS, Runner, fight_seed, outcome_label
from .scenario import SimSpec, format_value
from .stats import compare, summarize, verdict


def fights_table(result: RunResult) -> pa.Table:
    """One row per fight and arm: ``arm, fight, seed, winner, rounds, commands, refused, error``
    and a column per figure and combatant (``damage_dealt.valeros``, ...)."""
    columns: dict[str, list[Any]] = {
        k: [] for k in ("arm", "fight", "seed", "winner", "rounds", "commands", "refused", "error")
    }
    per = [(m, i, f"{m}.{cid}") for m in METRICS for i, cid in enumerate(result.tables[0].ids)]
    for _m, _i, name in per:
        columns[name] = []
    for arm, t in zip(result.spec.arms, result.tables, strict=True):
        errors = dict(t.errors)
        n = len(t)
        columns["arm"] += [arm.label] * n
        columns["fight"] += t.index.tolist()
        columns["seed"] += t.seed.tolist()
        columns["winner"] += t.winner.tolist()
        columns["rounds"] += t.rounds.tolist()
        columns["commands"] += t.commands.tolist()
        columns["refused"] += t.refused.tolist()
        columns["error"] += [errors.get(int(i)) for i in t.index]
        for m, i, name in per:
            columns[name] += t.metrics[m][:, i].tolist()
    schema = [
        ("arm", pa.string()),
        ("fight", pa.int64()),
        ("seed", pa.uint64()),
        ("winner", pa.string()),
        ("rounds", pa.int64()),
        ("commands", pa.int64()),
        ("refused", pa.int64()),
        ("error", pa.string()),
    ] + [(name, pa.int64()) for _m, _i, name in per]
    return pa.table({k: pa.array(columns[k], type=t) for k, t in schema})


def summary(result: RunResult) -> dict[str, Any]:
    """The JSON summary: the run's spec, each arm's figures, and the comparison if there is one.

    Its keys, identifiers and figures are data (the same in every language); what a person reads
    there, the comparison's ``verdict`` and the ``backend``'s description, is in the current one."""
    spec = result.spec
    out: dict[str, Any] = {
        "tactica": __version__,
        "encounter": spec.scenario.file,
        "fights": spec.fights,
        "seed": spec.seed,
        "max_rounds": spec.max_rounds,
        "policies": spec.policies,
        "backend": result.backend,
        "wall_seconds": result.wall_seconds,
        "fights_per_second": (len(spec.arms) * spec.fights / result.wall_seconds)
        if result.wall_seconds
        else None,
        "arms": {},
    }
    for arm, t in zip(spec.arms, result.tables, strict=True):
        out["arms"][arm.label] = {"variants": arm.variants, **summarize(t)}
    if len(result.tables) == 2:
        diffs = compare(*result.tables)
        out["compare"] = {
            "change": spec.compare,
            "verdict": verdict(diffs, result.tables[0].sides, spec.change_text()),
            "figures": [d.to_json() for d in diffs],
        }
    return out


def write_all(result: RunResult, out: Path, plots: bool = True) -> list[Path]:
    """Write fights.csv, fights.parquet, summary.json and the plots into ``out``; return the paths."""
    out.mkdir(parents=True, exist_ok=True)
    table = fights_table(result)
    written = [out / "fights.csv", out / "fights.parquet", out / "summary.json"]
    pacsv.write_csv(table, written[0])
    pq.write_table(table, written[1])
    written[2].write_text(json.dumps(summary(result), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    if plots:
        from .plots import write_plots

        written += write_plots(result, out)
    return written


# -- a fight as a case file --------------------------------------------------------------------------
def fight_case(spec: SimSpec, index: int, arm: int = 0) -> dict[str, Any]:
    """Fight ``index`` of arm ``arm`` of ``spec``, played again (it is the same fight: its seed
    depends on the master seed and its index only) and written as a case: the encounter with the
    arm's variants and the fight's seed, its commands as the script, and the final state each
    combatant reached as ``expect_final`` (so ``tactica conformance`` checks the replay)."""
    a = spec.arms[arm]
    loaded = spec.scenario.load(a.variants)
    runner = Runner(loaded.setup, loaded.ruleset, spec.policies, spec.max_rounds, spec.check)
    seed = fight_seed(spec.seed, index)
    result, enc = runner.play(index, seed)
    data = dict(spec.scenario.data)
    view = enc.view()
    # Translators: the rule variants of a fight exported as a case file, when it has none
    variants = ", ".join(f"{k}={format_value(v)}" for k, v in a.variants.items()) or _("none")
    description = ngettext(
        "Fight {index} of `tactica simulate --seed {seed}` (arm {arm}, variants: {variants}; "
        "policies: {policies}): {winner} after {n} round.",
        "Fight {index} of `tactica simulate --seed {seed}` (arm {arm}, variants: {variants}; "
        "policies: {policies}): {winner} after {n} rounds.",
        result.rounds,
    ).format(
        index=index,
        seed=spec.seed,
        arm=a.label,
        variants=variants,
        policies=spec.policies_text(),
        winner=outcome_label(result.winner),
        n=result.rounds,
    )
    if result.error:
        description += " " + _("It stopped on an error: {error}").format(error=result.error)
    case: dict[str, Any] = {
        "case": f"simulate/{Path(spec.scenario.file).stem}/fight-{index}-{a.label}",
        "description": description,
        "rules": [],
        **data,
        "seed": seed,
    }
    if a.variants:
        case["variant"] = {**dict(data.get("variant") or {}), **a.variants}
    case["script"] = [{"do": cmd.to_json()} for cmd in enc.log]
    case["expect_final"] = {
        "round": view["round"],
        "combatants": {
            cid: {"hp": c["hp"], "state": c["state"], "at": c["at"]} for cid, c in view["combatants"].items()
        },
    }
    return case


def write_case(case: dict[str, Any], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    text = yaml.safe_dump(case, sort_keys=False, allow_unicode=True, width=110)
    path.write_text(text, encoding="utf-8")
