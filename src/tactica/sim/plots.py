"""The plots a designer shows the group (matplotlib, written as PNG files).

- ``win_rates.png``: each side's win rate (and draws, unfinished fights) with its 95% interval;
  A and B side by side when comparing.
- ``rounds.png``: how many rounds the fights last (share of fights per round).
- ``damage.png``: damage dealt per fight by each combatant (box: the middle half of the fights,
  line: the median, whiskers: 5% to 95%; the dot is the mean).
- ``compare.png`` (with ``--compare``): every figure that moved, B - A with its 95% interval:
  win rates in points, means in percent of A. A bar that does not cross zero is a real change.

Titles, axes, legends and tick labels are in the current language, numbers in its format.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING

import matplotlib

matplotlib.use("Agg")  # files only, never a window (and safe without a display)

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.ticker import FuncFormatter

from ..i18n import _, ngettext
from . import fmt
from .runner import DRAW, UNFINISHED, outcome_text
from .stats import compare, figure_label, wilson

if TYPE_CHECKING:
    from collections.abc import Callable

    from matplotlib.axes import Axes
    from matplotlib.axis import Axis
    from matplotlib.figure import Figure

    from .batch import RunResult

COLOURS = ("#0072B2", "#E69F00")  # A, B: the Okabe-Ito blue and orange, safe for colour-blind eyes
DPI = 120


def write_plots(result: RunResult, out: Path) -> list[Path]:
    paths = [
        _save(win_rates(result), out / "win_rates.png"),
        _save(rounds(result), out / "rounds.png"),
        _save(damage(result), out / "damage.png"),
    ]
    if len(result.tables) == 2:
        paths.append(_save(differences(result), out / "compare.png"))
    return paths


def _save(fig: Figure, path: Path) -> Path:
    fig.savefig(path, dpi=DPI, bbox_inches="tight")
    plt.close(fig)
    return path


def _title(result: RunResult, what: str) -> str:
    spec = result.spec
    name = Path(spec.scenario.file).name
    # Translators: a plot's title: {what} is the plot's subject ("Who wins"), {file} the encounter
    return ngettext("{what} · {file} · {n} fight", "{what} · {file} · {n} fights", spec.fights).format(
        what=what, file=name, n=fmt.count(spec.fights)
    )


def _ticks(axis: Axis, show: Callable[[float], str]) -> None:
    """Write the tick labels of ``axis`` with ``show`` (the language's numbers)."""
    axis.set_major_formatter(FuncFormatter(lambda value, _pos: show(float(value))))


def _percent_ticks(axis: Axis, sign: bool = False) -> None:
    """Ticks of an axis in percent (0 to 100): ``20%``, ``20 %``."""
    _ticks(
        axis, lambda v: fmt.percent(v / 100, places=0 if float(v).is_integer() else 1, sign=sign and v != 0)
    )


def _interval_note() -> str:
    # Translators: an axis label; {level} is "95%" as the language writes it
    return _("share of fights (bars: {level} interval)").format(level=fmt.level())


def _labels(result: RunResult) -> list[str]:
    spec = result.spec
    if len(spec.arms) == 1:
        return [""]
    return ["A", f"B ({spec.change_text()})"]


def win_rates(result: RunResult) -> Figure:
    tables = result.tables
    outcomes = [*tables[0].sides, DRAW, UNFINISHED]
    shown = [o for o in outcomes if o in tables[0].sides or any(np.any(t.winner == o) for t in tables)]
    fig, ax = plt.subplots(figsize=(max(5.0, 1.6 * len(shown) * len(tables)), 4))
    width = 0.8 / len(tables)
    x = np.arange(len(shown))
    for a, (t, label) in enumerate(zip(tables, _labels(result), strict=True)):
        n = len(t)
        k = np.array([np.sum(t.winner == o) for o in shown])
        p = k / n if n else np.zeros(len(shown))
        ci = np.array([wilson(int(ki), n) for ki in k]).reshape(-1, 2)
        err = np.vstack([p - ci[:, 0], ci[:, 1] - p])
        pos = x + (a - (len(tables) - 1) / 2) * width
        ax.bar(pos, 100 * p, width, yerr=100 * err, capsize=4, color=COLOURS[a], label=label or None)
        for xi, pi in zip(pos, p, strict=True):
            ax.annotate(
                fmt.percent(float(pi)),
                (xi, 100 * pi),
                textcoords="offset points",
                xytext=(0, 6),
                ha="center",
                fontsize=8,
            )
    ax.set_xticks(x, [outcome_text(o, tables[0].sides) for o in shown])
    ax.set_ylabel(_interval_note())
    ax.set_ylim(0, 105)
    _percent_ticks(ax.yaxis)
    ax.set_title(_title(result, _("Who wins")))
    if len(tables) == 2:
        ax.legend(loc="upper right", fontsize=8)
    return fig


def rounds(result: RunResult) -> Figure:
    fig, ax = plt.subplots(figsize=(6, 4))
    low = min(int(t.rounds.min()) for t in result.tables if len(t))
    high = max(int(t.rounds.max()) for t in result.tables if len(t))
    bins = np.arange(low, high + 2) - 0.5
    width = 0.8 / len(result.tables)
    for a, (t, label) in enumerate(zip(result.tables, _labels(result), strict=True)):
        counts, _edges = np.histogram(t.rounds, bins=bins)
        share = 100 * counts / max(1, len(t))
        centres = np.arange(low, high + 1) + (a - (len(result.tables) - 1) / 2) * width
        mean = float(np.mean(t.rounds))
        ax.bar(centres, share, width, color=COLOURS[a], label=_legend(label, mean))
    ax.set_xlabel(_("rounds until the fight ends"))
    # Translators: an axis label (its ticks are percentages)
    ax.set_ylabel(_("share of fights"))
    ax.set_xticks(np.arange(low, high + 1))
    _percent_ticks(ax.yaxis)
    ax.set_title(_title(result, _("Fight length")))
    ax.legend(fontsize=8)
    return fig


def damage(result: RunResult) -> Figure:
    ids = result.tables[0].ids
    fig, ax = plt.subplots(figsize=(max(6.0, 0.9 * len(ids) * len(result.tables)), 4.5))
    width = 0.8 / len(result.tables)
    x = np.arange(len(ids))
    for a, (t, label) in enumerate(zip(result.tables, _labels(result), strict=True)):
        data = [t.metrics["damage_dealt"][:, i] for i in range(len(ids))]
        pos = x + (a - (len(result.tables) - 1) / 2) * width
        box = ax.boxplot(
            data,
            positions=pos,
            widths=width * 0.9,
            whis=(5, 95),
            showfliers=False,
            showmeans=True,
            patch_artist=True,
            manage_ticks=False,
        )
        for i, patch in enumerate(box["boxes"]):
            side = t.sides.index(t.side_of[ids[i]]) if len(result.tables) == 1 else a
            patch.set_facecolor(COLOURS[side % len(COLOURS)] if side < len(COLOURS) else "#999999")
            patch.set_alpha(0.75)
        if len(result.tables) == 2:
            box["boxes"][0].set_label(label)
    sides = result.tables[0].side_of
    ax.set_xticks(x, [f"{cid}\n({sides[cid]})" for cid in ids], fontsize=8)
    ax.set_ylabel(_("damage dealt per fight"))
    _ticks(ax.yaxis, fmt.general)
    ax.set_title(_title(result, _("Damage dealt")))
    if len(result.tables) == 2:
        ax.legend(fontsize=8)
    return fig


def differences(result: RunResult) -> Figure:
    sides = result.tables[0].sides
    diffs = [d for d in compare(*result.tables) if not (d.a == 0 and d.b == 0)]
    rates = [d for d in diffs if d.kind == "rate"]
    means = [d for d in diffs if d.kind == "mean" and d.a != 0 and _is_side_or_round(d.figure, result)]
    fig, axes = plt.subplots(
        1, 2, figsize=(12, max(3.0, 0.35 * max(len(rates), len(means)) + 1.5)), layout="constrained"
    )
    _forest(
        axes[0],
        [
            (figure_label(d.figure, sides), 100 * d.diff, 100 * d.low, 100 * d.high, d.significant)
            for d in rates
        ],
    )
    axes[0].set_xlabel(
        # Translators: an axis label; {level} is "95%" as the language writes it
        _("B - A, in points of win rate ({level} interval)").format(level=fmt.level())
    )
    _ticks(axes[0].xaxis, fmt.general)
    rel = []
    for d in means:
        scale = 100 / abs(d.a)
        rel.append(
            (figure_label(d.figure, sides), d.diff * scale, d.low * scale, d.high * scale, d.significant)
        )
    _forest(axes[1], rel)
    axes[1].set_xlabel(
        # Translators: an axis label (its ticks are percentages); {level} is "95%" as the language writes it
        _("B - A, relative to A ({level} interval)").format(level=fmt.level())
    )
    _percent_ticks(axes[1].xaxis, sign=True)
    fig.suptitle(_title(result, _("What B changes")) + f"\nB: {result.spec.change_text()}", fontsize=10)
    return fig


def _legend(arm: str, mean: float) -> str:
    """The legend of an arm's bars in ``rounds.png``: the arm (when comparing) and its mean."""
    if arm:
        # Translators: a plot's legend: {arm} is "A" or "B (the change)", {m} the mean number of rounds
        return _("{arm} (mean {m})").format(arm=arm, m=fmt.decimal(mean))
    # Translators: a plot's legend: the mean number of rounds
    return _("mean {m}").format(m=fmt.decimal(mean))


def _is_side_or_round(figure: str, result: RunResult) -> bool:
    head = figure.split(" ", 1)[0]
    return head in result.tables[0].sides or figure == "rounds"


def _forest(ax: Axes, rows: list[tuple[str, float, float, float, bool]]) -> None:
    rows = [r for r in rows if not any(math.isnan(v) for v in r[1:4])]
    y = np.arange(len(rows))[::-1]
    for yi, (_name, d, lo, hi, sig) in zip(y, rows, strict=True):
        colour = COLOURS[1] if sig else "#999999"
        ax.errorbar(d, yi, xerr=[[d - lo], [hi - d]], fmt="o", color=colour, capsize=3)
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_yticks(y, [r[0] for r in rows], fontsize=8)
    ax.grid(axis="x", alpha=0.3)
