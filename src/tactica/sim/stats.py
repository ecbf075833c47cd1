"""The figures of a run, their uncertainty, and the comparison of two runs.

- A proportion (a win rate) comes with its 95% **Wilson** score interval, which stays inside
  [0, 1] and keeps its coverage for rates near 0 or 1 and for small runs, where the textbook
  (Wald) interval fails.
- A mean (rounds, damage, ...) comes with its 95% **t** interval (mean +- t * sd / sqrt(n)).
- A comparison is **paired**: fight *i* of A and fight *i* of B are played with the same seed
  (common random numbers), so they start from the same dice (initiative first of all) and the
  difference of the two runs is less noisy than two independent runs. Each difference is judged
  with the paired tests:

  - win rates (and other proportions): Newcombe's interval for a difference of paired proportions
    (his method 10, hybrid score, 1998) and the exact **McNemar** test (a binomial test on the
    fights one arm won and the other did not);
  - means: the paired **t** interval and test on the per-fight differences.

Everything here works on plain arrays (one entry per fight), so it can be checked on numbers
whose answer is known.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..i18n import _
from . import fmt

Z95 = 1.959963984540054
"""The normal quantile of a two-sided 95% interval (``scipy.stats.norm.ppf(0.975)``)."""


def _scipy_stats() -> Any:
    """scipy.stats, imported when first needed: it takes a second or two to import, and the worker
    processes, which only play fights, never need it."""
    from scipy import stats  # type: ignore[import-untyped]  # no stubs (scipy-stubs not pinned)

    return stats


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of the proportion ``k / n``."""
    if n <= 0:
        return (math.nan, math.nan)
    p = k / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(x: np.ndarray, level: float = 0.95) -> tuple[float, float, float]:
    """(mean, low, high): the t interval of the mean of ``x`` (NaN bounds for fewer than 2)."""
    n = len(x)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    m = float(np.mean(x))
    if n < 2:
        return (m, math.nan, math.nan)
    sd = float(np.std(x, ddof=1))
    half = float(_scipy_stats().t.ppf(0.5 + level / 2, n - 1)) * sd / math.sqrt(n)
    return (m, m - half, m + half)


def paired_proportion_difference(a: np.ndarray, b: np.ndarray, z: float = Z95) -> tuple[float, float, float]:
    """(difference, low, high) of the proportions of ``b`` and ``a`` (0/1 arrays paired entry by
    entry), B - A, with Newcombe's method 10 interval (Wilson intervals of each proportion,
    combined with the continuity-corrected correlation of the pairs)."""
    a = a.astype(bool)
    b = b.astype(bool)
    n = len(a)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    both = int(np.sum(a & b))
    only_a = int(np.sum(a & ~b))
    only_b = int(np.sum(~a & b))
    neither = n - both - only_a - only_b
    pa, pb = (both + only_a) / n, (both + only_b) / n
    la, ua = wilson(both + only_a, n, z)
    lb, ub = wilson(both + only_b, n, z)
    margins = (both + only_a) * (only_b + neither) * (both + only_b) * (only_a + neither)
    phi = 0.0
    if margins > 0:
        cross = both * neither - only_a * only_b
        if cross > n / 2:
            phi = (cross - n / 2) / math.sqrt(margins)
        elif cross < 0:
            phi = cross / math.sqrt(margins)
    diff = pb - pa
    low = diff - math.sqrt(max(0.0, (pb - lb) ** 2 - 2 * phi * (pb - lb) * (ua - pa) + (ua - pa) ** 2))
    high = diff + math.sqrt(max(0.0, (ub - pb) ** 2 - 2 * phi * (ub - pb) * (pa - la) + (pa - la) ** 2))
    return (diff, max(-1.0, low), min(1.0, high))


def mcnemar_p(a: np.ndarray, b: np.ndarray) -> float:
    """The exact two-sided McNemar p-value for paired 0/1 outcomes (1.0 when no pair differs)."""
    a = a.astype(bool)
    b = b.astype(bool)
    only_a = int(np.sum(a & ~b))
    only_b = int(np.sum(~a & b))
    if only_a + only_b == 0:
        return 1.0
    return float(_scipy_stats().binomtest(only_b, only_a + only_b, 0.5).pvalue)


def paired_mean_difference(
    a: np.ndarray, b: np.ndarray, level: float = 0.95
) -> tuple[float, float, float, float]:
    """(difference, low, high, p) of the mean of ``b`` minus the mean of ``a``, paired entry by
    entry: the t interval and the two-sided paired t-test of the differences. No difference at
    all gives p = 1; differences that never vary give p = 0 (a certain effect)."""
    d = b.astype(float) - a.astype(float)
    n = len(d)
    if n == 0:
        return (math.nan, math.nan, math.nan, math.nan)
    m = float(np.mean(d))
    sd = float(np.std(d, ddof=1)) if n > 1 else math.nan
    if n < 2 or math.isnan(sd):
        return (m, math.nan, math.nan, math.nan)
    if sd == 0.0:
        return (m, m, m, 1.0 if m == 0 else 0.0)
    se = sd / math.sqrt(n)
    t = m / se
    sps = _scipy_stats()
    half = float(sps.t.ppf(0.5 + level / 2, n - 1)) * se
    p = float(2 * sps.t.sf(abs(t), n - 1))
    return (m, m - half, m + half, p)


# -- a run's table and summary ------------------------------------------------------------------------
@dataclass
class FightTable:
    """One arm of a run, a column per figure and an entry per fight (in fight order).

    ``metrics[name]`` is a (fights x combatants) array, combatants in file order (:attr:`ids`)."""

    ids: list[str]
    sides: list[str]
    side_of: dict[str, str]
    index: np.ndarray
    seed: np.ndarray
    winner: np.ndarray
    rounds: np.ndarray
    commands: np.ndarray
    refused: np.ndarray
    metrics: dict[str, np.ndarray]
    errors: list[tuple[int, str]]

    def __len__(self) -> int:
        return len(self.index)

    def won(self, side: str) -> np.ndarray:
        return np.asarray(self.winner == side)

    def side_total(self, metric: str, side: str) -> np.ndarray:
        """Per fight, the sum of ``metric`` over the combatants of ``side``."""
        cols = [i for i, cid in enumerate(self.ids) if self.side_of[cid] == side]
        return np.asarray(self.metrics[metric][:, cols].sum(axis=1))


def _ci(lo: float, hi: float) -> list[float | None]:
    return [None if math.isnan(lo) else lo, None if math.isnan(hi) else hi]


def rate(k: int, n: int) -> dict[str, Any]:
    lo, hi = wilson(k, n)
    return {"count": k, "rate": k / n if n else None, "ci95": _ci(lo, hi)}


def mean_figure(x: np.ndarray) -> dict[str, Any]:
    m, lo, hi = mean_interval(x)
    return {"mean": None if math.isnan(m) else m, "ci95": _ci(lo, hi)}


QUANTILES = (5, 25, 50, 75, 95)


def summarize(t: FightTable) -> dict[str, Any]:
    """The JSON-ready summary of one arm (see docs/simulator.md, "Reading the numbers")."""
    from .runner import DRAW, ERROR, METRICS, UNFINISHED

    n = len(t)
    out: dict[str, Any] = {"fights": n}
    out["wins"] = {side: rate(int(np.sum(t.winner == side)), n) for side in t.sides}
    for key, name in (("draws", DRAW), ("unfinished", UNFINISHED), ("errors", ERROR)):
        out[key] = rate(int(np.sum(t.winner == name)), n)
    rounds = t.rounds.astype(float)
    values, counts = np.unique(t.rounds, return_counts=True)
    out["rounds"] = {
        **mean_figure(rounds),
        "sd": float(np.std(rounds, ddof=1)) if n > 1 else None,
        "quantiles": {str(q): float(np.percentile(rounds, q)) for q in QUANTILES} if n else {},
        "histogram": {str(int(v)): int(c) for v, c in zip(values, counts, strict=True)},
    }
    out["sides"] = {
        side: {m: mean_figure(t.side_total(m, side).astype(float)) for m in METRICS} for side in t.sides
    }
    out["combatants"] = {
        cid: {"side": t.side_of[cid], **{m: mean_figure(t.metrics[m][:, i].astype(float)) for m in METRICS}}
        for i, cid in enumerate(t.ids)
    }
    out["commands_per_fight"] = mean_figure(t.commands.astype(float))
    out["refused_commands"] = int(np.sum(t.refused))
    out["first_errors"] = [{"fight": i, "error": e} for i, e in t.errors[:5]]
    return out


# -- comparison -----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Difference:
    """One figure of A and B side by side: B - A, its 95% interval and the p-value."""

    figure: str
    kind: str  # "rate" (a proportion, shown in points) or "mean"
    a: float
    b: float
    diff: float
    low: float
    high: float
    p: float

    @property
    def significant(self) -> bool:
        return self.p < 0.05

    def to_json(self) -> dict[str, Any]:
        def num(v: float) -> float | None:
            return None if math.isnan(v) else v

        return {
            "figure": self.figure,
            "kind": self.kind,
            "a": num(self.a),
            "b": num(self.b),
            "diff": num(self.diff),
            "ci95": [num(self.low), num(self.high)],
            "p": num(self.p),
        }


def rate_difference(figure: str, a: np.ndarray, b: np.ndarray) -> Difference:
    diff, lo, hi = paired_proportion_difference(a, b)
    return Difference(figure, "rate", float(np.mean(a)), float(np.mean(b)), diff, lo, hi, mcnemar_p(a, b))


def mean_difference(figure: str, a: np.ndarray, b: np.ndarray) -> Difference:
    diff, lo, hi, p = paired_mean_difference(a, b)
    return Difference(figure, "mean", float(np.mean(a)), float(np.mean(b)), diff, lo, hi, p)


def compare(a: FightTable, b: FightTable) -> list[Difference]:
    """Every figure of A and B, paired fight by fight (both tables must hold the same fights)."""
    from .runner import DRAW, METRICS, UNFINISHED

    if not np.array_equal(a.index, b.index):
        raise ValueError("the two arms must hold the same fights to be compared")
    out = [rate_difference(f"{side} win", a.won(side), b.won(side)) for side in a.sides]
    for label, name in (("draw", DRAW), ("unfinished", UNFINISHED)):
        out.append(rate_difference(label, a.won(name), b.won(name)))
    out.append(mean_difference("rounds", a.rounds, b.rounds))
    for side in a.sides:
        for m in METRICS:
            out.append(mean_difference(f"{side} {m}", a.side_total(m, side), b.side_total(m, side)))
    for i, cid in enumerate(a.ids):
        for m in ("damage_dealt", "damage_taken", "down"):
            out.append(mean_difference(f"{cid} {m}", a.metrics[m][:, i], b.metrics[m][:, i]))
    return out


def figure_label(figure: str, sides: Sequence[str]) -> str:
    """What a person reads for a figure of :func:`compare` between fights of ``sides``
    (``heroes damage_dealt`` -> ``heroes: damage dealt``), in the current language; the figures
    themselves are the JSON's identifiers."""
    from .runner import METRIC_LABELS, OUTCOME_LABELS, outcome_text

    if figure == "rounds":
        # Translators: a figure of a comparison: how many rounds the fights last
        return _("rounds")
    head, _sep, last = figure.rpartition(" ")
    if last == "win" and head in sides:
        return outcome_text(head, sides)
    if figure in OUTCOME_LABELS:  # "draw", "unfinished": an outcome, whatever the sides are called
        return outcome_text(figure, ())
    if last in METRIC_LABELS:
        # Translators: a figure of a side or a combatant: "heroes: damage dealt"
        return _("{who}: {figure}").format(who=head, figure=_(METRIC_LABELS[last]))
    return figure


def p_value(p: float) -> str:
    """A p-value as a person reads it, in the current language: ``0.042``, ``<0.001``."""
    if math.isnan(p):
        # Translators: a p-value that could not be computed (not applicable)
        return _("n/a")
    return "<" + fmt.decimal(0.001, 3) if p < 0.001 else fmt.decimal(p, 3)


def p_text(p: float) -> str:
    """``p=0.042``, ``p<0.001`` (in the current language's decimals)."""
    value = p_value(p)
    return "p" + (value if value.startswith("<") else "=" + value)


def verdict(diffs: Sequence[Difference], sides: Sequence[str], change: str) -> str:
    """One line a designer reads first: does the change move who wins, and fight length?

    The headline is the first side's win rate (the side listed first in the file). ``change``
    says what B changes (``terza.third_action.disengage=true``). In the current language."""
    by = {d.figure: d for d in diffs}
    side = sides[0]
    w = by[f"{side} win"]
    if w.significant:
        head = _("{change}: {side} win {a} -> {b} ({d} points, {level} CI {lo} to {hi}, {p})").format(
            change=change,
            side=side,
            a=fmt.percent(w.a),
            b=fmt.percent(w.b),
            d=fmt.decimal(100 * w.diff, 1, sign=True),
            level=fmt.level(),
            lo=fmt.decimal(100 * w.low, 1, sign=True),
            hi=fmt.decimal(100 * w.high, 1, sign=True),
            p=p_text(w.p),
        )
    else:
        bound = 100 * max(abs(w.low), abs(w.high))
        head = _(
            "{change}: no measurable effect on who wins ({side} {a} -> {b}, {p}); "
            "an effect over {bound} points would have shown"
        ).format(
            change=change,
            side=side,
            a=fmt.percent(w.a),
            b=fmt.percent(w.b),
            p=p_text(w.p),
            bound=fmt.decimal(bound, 1),
        )
    r = by["rounds"]
    numbers = {"a": fmt.decimal(r.a), "b": fmt.decimal(r.b), "p": p_text(r.p)}
    if r.significant and r.diff > 0:
        tail = _("fights are {d} rounds longer ({a} -> {b}, {p})").format(d=fmt.decimal(r.diff), **numbers)
    elif r.significant:
        tail = _("fights are {d} rounds shorter ({a} -> {b}, {p})").format(d=fmt.decimal(-r.diff), **numbers)
    else:
        tail = _("fight length unchanged ({a} -> {b} rounds, {p})").format(**numbers)
    # Translators: the verdict's two halves: {head} on who wins, {tail} on the fights' length
    return _("{head}; {tail}.").format(head=head, tail=tail)
