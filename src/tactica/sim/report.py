"""The summary tables printed at the end of a run (rich), in the current language."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from ..i18n import _, ngettext
from . import fmt
from .batch import RunResult
from .runner import DRAW, ERROR, METRIC_LABELS, METRICS, UNFINISHED, outcome_text
from .stats import Difference, FightTable, compare, figure_label, mean_interval, p_value, verdict, wilson


def headline(result: RunResult) -> str:
    spec = result.spec
    total = spec.fights * len(spec.arms)
    speed = total / result.wall_seconds if result.wall_seconds > 0 else math.inf
    return ngettext(
        "{file} · {n} fight · seed {seed} · policies: {pol} · {secs} s ({speed} fights/s, {backend})",
        "{file} · {n} fights · seed {seed} · policies: {pol} · {secs} s ({speed} fights/s, {backend})",
        spec.fights,
    ).format(
        file=Path(spec.scenario.file).name,
        n=fmt.count(spec.fights),
        seed=spec.seed,
        pol=spec.policies_text(),
        secs=fmt.decimal(result.wall_seconds, 1),
        speed=fmt.count(round(speed)) if math.isfinite(speed) else "∞",
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
                    ngettext(
                        "{arm}: {n} fight stopped on an error (first: fight {k}: {msg}); "
                        "export it with --dump-fight {k}",
                        "{arm}: {n} fights stopped on an error (first: fight {k}: {msg}); "
                        "export it with --dump-fight {k}",
                        len(t.errors),
                    ).format(arm=label, n=fmt.count(len(t.errors)), k=idx, msg=msg),
                    style="bold red",
                )
            )
        refused = int(np.sum(t.refused))
        if refused:
            parts.append(
                Text(
                    ngettext(
                        "{arm}: the policies' commands were refused {n} time ({rate} a fight)",
                        "{arm}: the policies' commands were refused {n} times ({rate} a fight)",
                        refused,
                    ).format(arm=label, n=fmt.count(refused), rate=fmt.decimal(refused / max(1, len(t)))),
                    style="dim",
                )
            )
    return Group(*parts)


def print_report(result: RunResult, console: Console) -> None:
    console.print(render(result))


def _interval_header() -> str:
    # Translators: a column of confidence intervals; {level} is "95%" as the language writes it
    return _("{level} interval").format(level=fmt.level())


def _range(lo: str, hi: str) -> str:
    """An interval's cell: ``12.5% – 20.1%`` (``-`` when it has no bounds)."""
    return fmt.NONE if fmt.NONE in (lo, hi) else f"{lo} – {hi}"


def outcomes_table(t: FightTable, max_rounds: int) -> Table:
    table = Table(title=_("Who wins"), title_justify="left")
    # Translators: a column: how the fights ended (a side's win, a draw, ...)
    table.add_column(_("outcome"), justify="left")
    # Translators: a column: how many fights ended this way
    table.add_column(_("fights"), justify="right")
    # Translators: a column: the share of the fights that ended this way
    table.add_column(_("rate"), justify="right")
    table.add_column(_interval_header(), justify="right")
    n = len(t)
    # a draw and an unfinished fight are told in more words here than on a plot's bar
    detailed = {DRAW: _("draw (all down)"), UNFINISHED: _("unfinished (round {r})").format(r=max_rounds)}
    for key in (*t.sides, DRAW, UNFINISHED, ERROR):
        k = int(np.sum(t.winner == key))
        label = outcome_text(key, t.sides)
        if key not in t.sides:
            if k == 0:
                continue
            label = detailed.get(key, label)
        lo, hi = wilson(k, n)
        table.add_row(
            label,
            fmt.count(k),
            fmt.percent(k / n if n else math.nan),
            _range(fmt.percent(lo), fmt.percent(hi)),
        )
    return table


def rounds_line(t: FightTable) -> str:
    if not len(t):
        return ""
    m, lo, hi = mean_interval(t.rounds.astype(float))
    q = np.percentile(t.rounds, [5, 50, 95])
    return _(
        "Rounds: mean {m} ({level} interval {lo} – {hi}), median {med}, {share} of fights between {a} and {b}"
    ).format(
        m=fmt.decimal(m),
        level=fmt.level(),
        lo=fmt.decimal(lo),
        hi=fmt.decimal(hi),
        med=fmt.general(float(q[1])),
        share=fmt.level(0.9),
        a=fmt.general(float(q[0])),
        b=fmt.general(float(q[2])),
    )


def _mean(x: np.ndarray) -> str:
    m, lo, hi = mean_interval(x.astype(float))
    if math.isnan(m):
        return fmt.NONE
    if math.isnan(lo):
        return fmt.decimal(m)
    return f"{fmt.decimal(m)} ±{fmt.decimal((hi - lo) / 2)}"


def sides_table(t: FightTable) -> Table:
    table = Table(
        # Translators: {level} is "95%" as the language writes it
        title=_("Per fight, by side (mean ±{level} interval)").format(level=fmt.level()),
        title_justify="left",
    )
    # Translators: a column: what is measured (damage dealt, reactions used, ...)
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
    table.add_column(_("combatant"), justify="left")
    table.add_column(_("side"), justify="left")
    table.add_column(_("damage dealt"), justify="right")
    table.add_column(_("damage taken"), justify="right")
    # Translators: a column: the share of the fights a combatant ended out of the fight
    table.add_column(_("down"), justify="right")
    for i, cid in enumerate(t.ids):
        down = t.metrics["down"][:, i]
        table.add_row(
            cid,
            t.side_of[cid],
            _mean(t.metrics["damage_dealt"][:, i]),
            _mean(t.metrics["damage_taken"][:, i]),
            fmt.percent(float(np.mean(down)) if len(down) else math.nan),
        )
    return table


def compare_table(result: RunResult, diffs: list[Difference]) -> Table:
    spec = result.spec
    table = Table(
        title=_("A: as the encounter · B: {change}").format(change=spec.change_text()), title_justify="left"
    )
    table.add_column(_("figure"), justify="left")
    for col in ("A", "B", "B - A", _interval_header(), "p"):
        table.add_column(col, justify="right")
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
    name = figure_label(d.figure, sides)
    if d.kind == "rate":
        return [
            name,
            fmt.percent(d.a),
            fmt.percent(d.b),
            # Translators: a difference of two rates in percentage points: "+3.5 pts"
            _("{d} pts").format(d=fmt.decimal(100 * d.diff, 1, sign=True)),
            _range(fmt.decimal(100 * d.low, 1, sign=True), fmt.decimal(100 * d.high, 1, sign=True)),
            p_value(d.p),
        ]
    return [
        name,
        fmt.decimal(d.a),
        fmt.decimal(d.b),
        fmt.decimal(d.diff, sign=True),
        _range(fmt.decimal(d.low, sign=True), fmt.decimal(d.high, sign=True)),
        p_value(d.p),
    ]
