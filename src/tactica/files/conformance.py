"""Run conformance cases in process and check their expectations (format.md section 4).

Matching follows the spec: a mapping matches when every listed key matches; a list of expected
events matches a subsequence of the actual events; ``conditions`` in ``expect_final`` is a set.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..engine.errors import EncounterError
from ..i18n import _
from .loader import load_file
from .replay import build, case_steps, replay


def match(exp: Any, act: Any) -> bool:
    if isinstance(exp, dict):
        return isinstance(act, dict) and all(k in act and match(v, act[k]) for k, v in exp.items())
    if isinstance(exp, list):
        return (
            isinstance(act, list)
            and len(exp) == len(act)
            and all(match(e, a) for e, a in zip(exp, act, strict=True))
        )
    if isinstance(exp, float) or isinstance(act, float):
        try:
            return abs(float(exp) - float(act)) < 1e-9
        except (TypeError, ValueError):
            return False
    return bool(exp == act)


def first_missing(expected: list[Any], actual: list[Any]) -> Any | None:
    """The first expected event not found in order, or None when all are."""
    i = 0
    for ev in actual:
        if i < len(expected) and match(expected[i], ev):
            i += 1
    return expected[i] if i < len(expected) else None


def pending_matches(exp: Any, act: Any) -> bool:
    if exp is None or act is None:
        return exp is None and act is None
    exp = dict(exp)
    choices = exp.pop("choices", None)
    if not match(exp, act):
        return False
    return choices is None or set(choices) <= set(act.get("choices") or [])


def check_block(exp: dict[str, Any], line: dict[str, Any], where: str) -> list[str]:
    errs = []
    if "ok" in exp and bool(line.get("ok")) != bool(exp["ok"]):
        errs.append(
            _("{w}: ok is {got}, expected {exp} ({msg})").format(
                w=where, got=line.get("ok"), exp=exp["ok"], msg=(line.get("error") or {}).get("message")
            )
        )
    if "error" in exp:
        code = (line.get("error") or {}).get("code")
        if line.get("ok") or code != exp["error"]:
            errs.append(
                _("{w}: expected error {exp}, got {got}").format(w=where, exp=exp["error"], got=code or "ok")
            )
    events = line.get("events") or []
    if "events" in exp:
        missing = first_missing(exp["events"], events)
        if missing is not None:
            errs.append(_("{w}: missing event (in order) {e}").format(w=where, e=missing))
    for ne in exp.get("no_events") or []:
        if any(match(ne, ev) for ev in events):
            errs.append(_("{w}: unexpected event matching {e}").format(w=where, e=ne))
    if "pending" in exp and not pending_matches(exp["pending"], line.get("pending")):
        errs.append(
            _("{w}: pending is {got}, expected {exp}").format(
                w=where, got=line.get("pending"), exp=exp["pending"]
            )
        )
    return errs


def check_final(exp: dict[str, Any], final: dict[str, Any]) -> list[str]:
    errs = []
    for k in ("round", "turn"):
        if k in exp and final.get(k) != exp[k]:
            errs.append(_("final: {k} is {got}, expected {exp}").format(k=k, got=final.get(k), exp=exp[k]))
    for cid, fields in (exp.get("combatants") or {}).items():
        got = final["combatants"].get(cid)
        if got is None:
            errs.append(_("final: no combatant {c}").format(c=cid))
            continue
        for k, v in fields.items():
            ok = set(v) == set(got.get(k) or []) if k == "conditions" else match(v, got.get(k))
            if not ok:
                errs.append(
                    _("final: {c}.{k} is {got}, expected {exp}").format(c=cid, k=k, got=got.get(k), exp=v)
                )
    return errs


@dataclass
class CaseResult:
    path: Path
    ruleset: str = ""
    rules: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)


def run_case(path: Path) -> CaseResult:
    result = CaseResult(path)
    try:
        loaded = load_file(path)
    except EncounterError as exc:
        result.failures.append(str(exc))
        return result
    result.ruleset = loaded.setup.ruleset
    case = loaded.case
    if case is None:
        result.failures.append(_("not a case file (no script)"))
        return result
    result.rules = list(case.rules)
    lines = list(replay(build(loaded), case_steps(loaded)))
    start, steps, final = lines[0], lines[1:-1], lines[-1]["final"]
    if case.expect_start is not None:
        # Translators: the start of a case (before its first step), as in "start: missing event ..."
        result.failures += check_block(case.expect_start, start, _("start"))
    for i, step in enumerate(case.script):
        if step.expect:
            # Translators: a case's step, as in "step 3 (valeros move): missing event ..."
            where = _("step {i} ({actor} {do})").format(i=i, actor=step.do.get("actor"), do=step.do.get("do"))
            result.failures += check_block(step.expect, steps[i], where)
    if case.expect_final is not None:
        result.failures += check_final(case.expect_final, final)
    return result


def case_files(paths: Iterable[Path]) -> list[Path]:
    out: list[Path] = []
    for p in paths:
        if p.is_dir():
            out += sorted(q for q in p.rglob("*") if q.suffix in (".yaml", ".yml"))
        else:
            out.append(p)
    return out


def coverage(results: list[CaseResult], rule_ids: dict[str, list[str]]) -> dict[str, list[str]]:
    """Per ruleset, the rule ids no case cites."""
    cited = {r for res in results for r in res.rules}
    return {rs: [i for i in ids if i not in cited] for rs, ids in rule_ids.items()}
