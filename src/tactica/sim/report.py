"""The summary tables printed at the end of a run (rich)."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from ..i18n import _
from .batch import RunResult
from .runner import DRAW, ERROR, METRIC_LABELS, METRICS, UNFINISHED
from .stats import Difference, FightTable, compare, mean_interval, p_text, verdict, wilson


def headline(result: RunResult) -> str:
    spec = result.spec
    pol = ", ".join(f"{k}={v}" for k, v in sorted(spec.policies.items())) or _("aggressive for all")
    total = spec.fights * len(spec.arms)
    speed = total / result.wall_seconds if result.wall_seconds > 0 else math.inf
    return _(
        "{file} · {n} fights · seed {seed} · policies: {pol} · "
        "{secs:.1f} s ({speed:,.0f} fights/s, {backend})"
    ).format(
        file=Path(spec.scenario.file).name,
        n=f"{spec.fights:,}",
        seed=spec.seed,
        pol=pol,
        secs=result.wall_seconds,
        speed=speed,
        backend=result.backend,
    )


def render(result: RunResult) -> Group:
    parts: list[Table | Text] = [Text(headline(result), style="bold")]
    if len(result.tables) == 1:
        t = result.tables[0]
        parts += [
            outcomes_table(t, result.spec.max_rounds),
            Text(rounds_line(t)),
            sides_table(t),
            combatants_table(t),
        ]
    else:
        diffs = compare(*result.tables)
        parts.append(compare_table(result, diffs))
        parts.append(Text(verdict(diffs, result.tables[0].sides, result.spec.change_text()), style="bold"))
    for label, t in zip([a.label for a in result.spec.arms], result.tables, strict=True):
        if t.errors:
            idx, msg = t.errors[0]
            parts.append(
                Text(
                    _(
                        "{arm}: {n} fights stopped on an error (first: fight {k}: {msg}); "
                        "export it with --dump-fight {k}"
                    ).format(arm=label, n=len(t.errors), k=idx, msg=msg),
                    style="bold red",
                )
            )
        refused = int(np.sum(t.refused))
        if refused:
            parts.append(
                Text(
                    _("{arm}: the policies' commands were refused {n} times ({rate:.2f} a fight)").format(
                        arm=label, n=refused, rate=refused / max(1, len(t))
                    ),
                    style="dim",
                )
            )
    return Group(*parts)


def print_report(result: RunResult, console: Console) -> None:
    console.print(render(result))


def _pct(p: float) -> str:
    return "-" if math.isnan(p) else f"{100 * p:.1f}%"


def outcomes_table(t: FightTable, max_rounds: int) -> Table:
    table = Table(title=_("Who wins"), title_justify="left")
    for col in (_("outcome"), _("fights"), _("rate"), _("95% interval")):
        table.add_column(col, justify="right" if col != _("outcome") else "left")
    n = len(t)
    rows = [(_("{side} win").format(side=s), s) for s in t.sides]
    rows += [
        (_("draw (all down)"), DRAW),
        (_("unfinished (round {r})").format(r=max_rounds), UNFINISHED),
        (_("error"), ERROR),
    ]
    for label, key in rows:
        k = int(np.sum(t.winner == key))
        if key not in t.sides and k == 0:
            continue
        lo, hi = wilson(k, n)
        table.add_row(label, f"{k:,}", _pct(k / n if n else math.nan), f"{_pct(lo)} – {_pct(hi)}")
    return table


def rounds_line(t: FightTable) -> str:
    if not len(t):
        return ""
    m, lo, hi = mean_interval(t.rounds.astype(float))
    q = np.percentile(t.rounds, [5, 50, 95])
    return _(
        "Rounds: mean {m:.2f} (95% interval {lo:.2f} – {hi:.2f}), median {med:g}, "
        "90% of fights between {a:g} and {b:g}"
    ).format(m=m, lo=lo, hi=hi, med=q[1], a=q[0], b=q[2])


def _mean(x: np.ndarray) -> str:
    m, lo, hi = mean_interval(x.astype(float))
    if math.isnan(m):
        return "-"
    if math.isnan(lo):
        return f"{m:.2f}"
    return f"{m:.2f} ±{(hi - lo) / 2:.2f}"


def sides_table(t: FightTable) -> Table:
    table = Table(title=_("Per fight, by side (mean ±95% interval)"), title_justify="left")
    table.add_column(_("figure"))
    for side in t.sides:
        table.add_column(side, justify="right")
    for m in METRICS:
        totals = [t.side_total(m, side) for side in t.sides]
        if all(not np.any(x) for x in totals):
            continue  # nothing of the kind in this ruleset or fight
        table.add_row(_(METRIC_LABELS[m]), *(_mean(x) for x in totals))
    return table


def combatants_table(t: FightTable) -> Table:
    table = Table(title=_("Per combatant"), title_justify="left")
    for col in (_("combatant"), _("side"), _("damage dealt"), _("damage taken"), _("down")):
        table.add_column(col, justify="left" if col in (_("combatant"), _("side")) else "right")
    for i, cid in enumerate(t.ids):
        down = t.metrics["down"][:, i]
        table.add_row(
            cid,
            t.side_of[cid],
            _mean(t.metrics["damage_dealt"][:, i]),
            _mean(t.metrics["damage_taken"][:, i]),
            _pct(float(np.mean(down)) if len(down) else math.nan),
        )
    return table


def compare_table(result: RunResult, diffs: list[Difference]) -> Table:
    spec = result.spec
    table = Table(
        title=_("A: as the encounter · B: {change}").format(change=spec.change_text()), title_justify="left"
    )
    for col in (_("figure"), "A", "B", "B - A", _("95% interval"), "p"):
        table.add_column(col, justify="left" if col == _("figure") else "right")
    sides = result.tables[0].sides
    for d in diffs:
        head = d.figure.split(" ", 1)
        if d.a == 0 and d.b == 0:
            continue
        if d.kind == "mean" and d.figure != "rounds" and head[0] not in sides:
            continue  # per combatant figures: in summary.json
        style = "bold" if d.significant else ""
        table.add_row(*_diff_cells(d, sides), style=style)
    return table


def _diff_cells(d: Difference, sides: list[str]) -> list[str]:
    head = d.figure.split(" ", 1)
    if d.kind == "rate":
        name = _("{side} win").format(side=head[0]) if head[0] in sides else _(d.figure)
        return [
            name,
            _pct(d.a),
            _pct(d.b),
            f"{100 * d.diff:+.1f} " + _("pts"),
            f"{100 * d.low:+.1f} – {100 * d.high:+.1f}",
            p_text(d.p).removeprefix("p="),
        ]
    name = _(d.figure) if d.figure == "rounds" else f"{head[0]}: {_(METRIC_LABELS[head[1]])}"
    return [
        name,
        f"{d.a:.2f}",
        f"{d.b:.2f}",
        f"{d.diff:+.2f}",
        f"{d.low:+.2f} – {d.high:+.2f}" if not math.isnan(d.low) else "-",
        p_text(d.p).removeprefix("p="),
    ]
